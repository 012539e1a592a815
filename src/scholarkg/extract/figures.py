"""Where a figure's meaning comes from: whether the text calls it a change, and which benchmark
it belongs to.

- **Changes.** "up 12.56", "+2.3 F1", "70.7% fewer steps", "1.4 BLEU above the baseline",
  "improves accuracy by 2.3", "reduces the steps by 70.7%": :func:`change_of` says increase or
  decrease; anything else is an absolute figure.
- **Benchmarks.** The benchmark a sentence evaluates on follows "on"/"in" ("on the multilingual
  Common Voice benchmark"); of several in one sentence a figure takes the nearest one before it in
  its clause (:func:`data_for`); in a results table written as text a benchmark heads its part
  ("MBPP: A 52.0, B 41.4", :func:`segment_data`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..model import Change, EntityType
from .numbers import Value

if TYPE_CHECKING:  # pragma: no cover
    from .components.entities import EntityRecord

__all__ = ["change_of", "sentence_data", "data_for", "segment_data", "from_to", "prior_figure", "after_split",
           "skip_articles", "INCREASE_AFTER", "DECREASE_AFTER"]

_DATA = {EntityType.BENCHMARK, EntityType.DATASET}
_TEX_OPEN = re.compile(r"^\\[a-z]+\{$")  # "\emph{", "\textsc{"
# Words after a value that make it a change, with the direction they give.
INCREASE_AFTER = frozenset(
    """improvement improvements gain gains increase increases boost boosts higher more better faster
    larger greater longer speedup speed-up above over margin advantage""".split()
)
DECREASE_AFTER = frozenset(
    """reduction reductions decrease decreases drop drops lower less fewer smaller cheaper shorter
    saving savings below""".split()
)
_BASELINE_WORDS = frozenset({"the", "prior", "previous", "baseline", "baselines", "strongest", "best", "existing",
                             "its", "their", "state-of-the-art", "sota", "vanilla", "standard"})
# Nouns before "of VALUE" that make it a change: "an improvement of 0.56 BLEU".
_INCREASE_NOUNS = frozenset("improvement improvements increase increment gain gains boost rise".split())
_DECREASE_NOUNS = frozenset("reduction reductions decrease decrement drop fall decline".split())
# Verbs before "by VALUE" that make it a change.
_INCREASE_VERBS = frozenset(
    """improve improves improved improving outperform outperforms outperformed outperforming boost
    boosts boosted boosting increase increases increased increasing raise raises raised raising
    surpass surpasses surpassed surpassing exceed exceeds exceeded exceeding beat beats enhance
    enhances enhanced enhancing gain gains gained""".split()
)
_DECREASE_VERBS = frozenset(
    """reduce reduces reduced reducing decrease decreases decreased decreasing cut cuts cutting lower
    lowers lowered lowering shrink shrinks drop drops dropped""".split()
)


def change_of(view, s0: int, s1: int, v: Value, first: int, last: int, prev: str) -> Change | None:
    """Increase or decrease when the text says the value is a change, else None."""
    lower = view.lower
    if prev == "up" or prev == "+" or v.text.startswith("+"):
        return Change.INCREASE
    if v.text.startswith(("-", "\u2212")):
        return Change.DECREASE
    # "70.7% fewer steps", "1.4 BLEU above the baseline", "a 26% relative improvement"
    for k in range(last, min(s1, last + 4)):
        low = lower[k]
        if low in {"over", "above"}:
            # "1.4 BLEU above the baseline", "2.1 points over FRONT"; not "58.2% over 10 runs"
            nxt = view.words[k + 1] if k + 1 < s1 else ""
            if nxt.lower() in _BASELINE_WORDS or nxt[:1].isupper():
                return Change.INCREASE
            break
        if low in INCREASE_AFTER:
            return Change.INCREASE
        if low in DECREASE_AFTER:
            return Change.DECREASE
        if low in {"on", "for", "in", ",", ";", "and", "(", ")"}:
            break
    # "an improvement of (approximately) 10%": the word before the hedge
    p = first - 1
    if prev in _HEDGES and p - 1 >= s0:
        p -= 1
        prev = lower[p]
    # "an improvement of 0.56 BLEU", "a relative decrease of the error rate of 7.1%"
    if prev == "of":
        for k in range(p - 1, max(s0, p - 7) - 1, -1):
            low = lower[k]
            if low in _INCREASE_NOUNS:
                return Change.INCREASE
            if low in _DECREASE_NOUNS:
                return Change.DECREASE
            if low in {",", ";", "(", ")"} or low[:1].isdigit():
                break
    # "improves accuracy by 2.3", "reduces the steps on BrowseComp by 70.7%", "by absolute 6.4%"
    by = prev == "by" or (prev in {"absolute", "relative", "an", "a"} and p - 1 >= s0 and lower[p - 1] == "by")
    if by:
        k = p - (1 if prev == "by" else 2)
        while k >= s0 and first - k <= 12:
            low = lower[k]
            if low in _INCREASE_VERBS:
                return Change.INCREASE
            if low in _DECREASE_VERBS:
                return Change.DECREASE
            k -= 1
    return None


# Words that hedge a figure ("by about 3%", "of approximately 10%").
_HEDGES = frozenset({"approximately", "about", "around", "roughly", "nearly", "almost", "over", "up", "some"})
# Verbs of change other than those before "by": "accuracy rises from 61.3% to 68.9%".
_CHANGE_VERBS = frozenset("""rise rises rose rising climb climbs climbed jump jumps jumped fall falls fell falling
    go goes went grow grows grew move moves moved change changes changed push pushes pushed bring brings brought
    advance advances advanced""".split())
# "ranging from 1% to 5%": a range, not a value before and after a change
_RANGE_VERBS = frozenset({"range", "ranges", "ranged", "ranging", "vary", "varies", "varied", "varying", "span",
                          "spans", "spanning", "anywhere"})
# Tokens of a number written out: "61.3", "%", "$", "\\%", "percent", "points".
_NUMBER_PART = re.compile(r"^(?:[-+\u2212]?\d[\d.,]*|\$|\\?%|percent|points?|pp)$")
# Words that make the figure that follows someone else's: "the previous best FID of 18.6".
_PRIOR = frozenset({"previous", "prior", "earlier", "former", "best-published", "previously"})
_PRIOR_NEXT = frozenset({"best", "state-of-the-art", "state", "sota", "record", "top", "highest", "lowest",
                         "reported", "published"})
_BEST_NEXT = frozenset({"previous", "prior", "earlier", "published", "reported", "known"})
_CLAUSE_BREAK = frozenset({",", ";", ":", "(", ")"})
# "the test split of", "the validation set of": a part of the benchmark named next
_SPLIT_NOUNS = frozenset({"split", "splits", "set", "sets", "subset", "subsets", "portion", "partition",
                          "section", "track", "part"})


def from_to(lower: list[str], s0: int, lo: int) -> int | None:
    """Index of "from" when the value starting at token ``lo`` is the Y of "from X to Y" (a figure
    before and after a change), else None; None too in a range ("ranging from 1% to 5%")."""
    if lo - 2 <= s0 or lower[lo - 1] != "to":
        return None
    k = lo - 2
    while k > s0 and lo - k <= 5 and _NUMBER_PART.match(lower[k]):
        k -= 1
    if lower[k] != "from" or k == lo - 2 or (k > s0 and lower[k - 1] in _RANGE_VERBS):
        return None
    # the sentence says what changed: "increases accuracy from", "the error rate drops from"
    for w in lower[s0:k]:
        if w in _INCREASE_VERBS or w in _DECREASE_VERBS or w in _CHANGE_VERBS:
            return k
    return None


def prior_figure(lower: list[str], s0: int, first: int) -> bool:
    """The figure at ``first`` is another system's, named only as the earlier best: "improving
    over the previous best FID of 18.6 and IS of 52.5" (looked for back to the clause's start)."""
    k = first - 1
    while k >= s0 and lower[k] not in _CLAUSE_BREAK:
        if lower[k] in _PRIOR and k + 1 < first and lower[k + 1] in _PRIOR_NEXT:
            return True
        if lower[k] == "best" and k + 1 < first and lower[k + 1] in _BEST_NEXT:
            return True  # "the best published result of ..."
        k -= 1
    return False


def skip_articles(lower: list[str], k: int, s1: int) -> int:
    """The first token from ``k`` that is not "the", "a" or "an"."""
    while k < s1 and lower[k] in {"the", "a", "an"}:
        k += 1
    return k


def after_split(lower: list[str], k: int, s1: int) -> int:
    """Token after "[the] test split of [the]" at ``k``, or ``k`` when no such phrase starts there."""
    m = k
    while m < s1 and m - k < 3 and lower[m] not in _SPLIT_NOUNS:
        m += 1
    if m + 1 < s1 and lower[m] in _SPLIT_NOUNS and lower[m + 1] == "of":
        return skip_articles(lower, m + 2, s1)
    return k


def sentence_data(lower: list[str], ents: list[EntityRecord], s0: int) -> list[EntityRecord]:
    """Benchmarks the sentence evaluates on: after "on"/"in", "on the", "on the multilingual"."""
    out = []
    for e in ents:
        if e.type not in _DATA or e.start <= s0:
            continue
        k = e.start - 1
        while k > s0 and e.start - k <= 3 and (
            lower[k] in {"the", "a"} or _TEX_OPEN.match(lower[k])
            or (lower[k].isalpha() and lower[k] not in {"on", "in"} and lower[k - 1] in {"the", "a"})
        ):
            k -= 1  # "on the multilingual X", "on \emph{X}"
        if lower[k] == "of" and k - 1 > s0 and lower[k - 1] in _SPLIT_NOUNS:
            k -= 2  # "on the test split of X"
            while k > s0 and lower[k] not in {"on", "in"} and e.start - k <= 7:
                k -= 1
        if lower[k] in {"on", "in"}:
            out.append(e)
    return out


def data_for(lower: list[str], ents: list[EntityRecord], s0: int, first: int) -> EntityRecord | None:
    """The benchmark of the value at ``first``: the one the sentence names, or of several the
    nearest one before the value in its clause ("On LVIS, X reaches 31.4 ..., and on COCO 47.2")."""
    data = sentence_data(lower, ents, s0)
    if len({e.label for e in data}) == 1:
        return data[0]
    before = [e for e in data if e.end <= first and ";" not in lower[e.end : first]]
    return before[-1] if before else None


def segment_data(view, ents: list[EntityRecord], s0: int, pos: int) -> EntityRecord | None:
    """The benchmark heading a part of a results table written as text ("MBPP: A 52.0, B 41.4"):
    the nearest benchmark before ``pos`` followed by ":" with no ";" in between."""
    lower = view.lower
    for e in sorted((e for e in ents if e.type in _DATA and e.end <= pos), key=lambda e: -e.end):
        if ";" in lower[e.end : pos]:
            return None
        if e.end < len(lower) and lower[e.end] == ":":
            return e
    return None
