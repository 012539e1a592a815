"""Figures stated in the text: absolute scores, and improvements against a baseline.

A number becomes a **score** (``change`` unset) only when the sentence ties it to a benchmark or a
metric:

- ``BENCH (48.6%)``, ``MODEL (81.3)``                 a name in front, the value in brackets
- ``48.6% [METRIC] on [the] BENCH``                   value, optional metric, "on" benchmark
- ``METRIC of 71.8%``, ``BENCH: 82.1``, ``BENCH 82.1`` a metric or benchmark, then the value
- ``94.7% average recovery``                          value, then a short metric phrase
- ``..., versus 80.9% for MOPD``, ``3.1 dB for X``    "for X" names the model of that value
- ``X solves 12.5% of the tasks`` on a benchmark named in the sentence
- ``82.1, 45.3 and 67.0 on A, B and C, respectively`` values paired with benchmarks in order
- ``on A and B to 47.7 and 40.7, respectively``    the same with the benchmarks first; changes too
- ``HumanEval: A 48.2, B 33.5; MBPP: A 52.0``        a results table written as text: a system
                                                      before each value, a benchmark heading each part
- ``On LVIS, X reaches 31.4 ..., and on COCO 47.2``   each value with the benchmark of its clause
  (:mod:`scholarkg.extract.figures`); TeX values ("$88.9$") read like plain ones
- ``raises accuracy from 61.3% to 68.9% on X``      the second figure of a change; not the first
- ``77.3% mIoU at 52 FPS for X``, ``on the test split of the X dataset``
                                                      an operating point and a split in between
- ``X outperforms Y (MMLU: 64.1 vs. 55.0)``          the figure after "vs." is Y's, of the same measure
- ``X matches Y (88.9 vs. 89.1 average score)``      the first is X's, the second Y's, one measure
- ``94.1% and 95.3% accuracy on SST-2 and IMDB``     figures and benchmarks joined by "and" pair in order
- ``71.5 (EM) on X``, ``an EM/F1 of 80.1/87.3``      a measure in brackets; slashed figures and measures
- ``72.7%, 86.1% and 78.8% in precision, recall and F-score, respectively``  one measure each
- ``a success rate of 87% ..., and 72% ...``         figures joined by "and" share a measure, or a change
- ``a 2.3x higher throughput than vLLM``             a change by a factor (unit "x")

A number is an **improvement** (``change`` set) when the text says it is a change: "up 12.56",
"+2.3 F1", "improves ... by 2.3", "reduces ... by 70.7%", "1.4 BLEU above the baseline", "70.7%
fewer steps", "a 26% relative improvement", "an improvement of 0.56 BLEU". Its baseline is the system the
sentence compares with ("over FRONT", "compared to X"), when it names one; its benchmark is the one of
its own clause ("by 1.4 points over the baseline on CoNLL-2003"), else the nearest one before it; a
change written right after a score ("38.4 mask AP, 2.1 points higher than X") is of that score's measure.

Not figures at all: bounds ("below 1%", "more than 50%"), ranges ("1% to 5%", "12-49%"),
counts ("38,000 hours", "134 tasks", "9 of the 12 tasks"), years, statistics about the paper's own analysis (a fit's
R², p-values), and figures of systems the text does not name ("the previous best FID of 18.6", "88.5% for
the baseline", "our 97.2% baseline"), footnote marks, versions and counts after names ("Wikipedia 1", "CTB
5.1", "nDCG 5", "the 10 best"), shares of data ("with 31% labeled data"), whole numbers that count things
("70 different similarity metrics"), shares of things ("68.5% code fragments": the words after a percentage
must end in a measure such as "rate" or "accuracy"), the first digit of a compound ("3-way", "4-gram") and
digits after "+" in a name ("H1413+117", "2+1 dimensions"). The model is the "for X" name, else the
nearest model or method before the value that the paper itself presents, else the paper's introduced
model or method.
``Doc._.results`` holds :class:`ResultSpan` values; every value is text of the document.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from ...model import Change, EntityType, Role
from ..cues import head_type
from ..doctext import info
from ..figures import (DECREASE_AFTER, INCREASE_AFTER, after_split, change_of, data_for, from_to, prior_figure,
                       segment_data, sentence_data, skip_articles)
from ..figure_words import (AFTER_POINT, BARE_METRICS, BEFORE_VALUE, BOUNDS, CLAUSE_WORDS, COUNT_NOUNS,
                           MEASURE_NOUNS, METRIC_STOP, NEUTRAL_AFTER, NOT_MEASURED, POINT_STOP, SCORING_VERBS,
                           SOLVE_VERBS, counted,
                           is_statistic, unnamed_other)
from ..numbers import Value, find_values
from .entities import EntityRecord, is_generic, records
from .result_pairs import (DATA, SYSTEMS, WEAK, ResultSpan, Sentence, entity_at, factors, model_before, parallel_data,
                           respectively, shared_system, slashed, value_tokens, versus, widest_measure)

__all__ = ["ResultSpan", "ResultFinder"]

_DIGIT = re.compile(r"\d")
_VERSION = re.compile(r"^\d\.\d$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_RANGE_DASH = re.compile(r"^\s*(?:-|\u2013|to)\s*\$?\d")
_RANGE_END = re.compile(r"\d\s*(?:\\?%|percent)?\$?\s*(?:-|\u2013|to)\s*\$?$")


_generic = is_generic


class ResultFinder:
    def __init__(self):
        if not Doc.has_extension("results"):
            Doc.set_extension("results", default=None)

    def __call__(self, doc: Doc) -> Doc:
        found: list[ResultSpan] = []
        view = info(doc)
        if not _DIGIT.search(view.text):
            doc._.results = found
            return doc
        ents = records(doc)
        main = self._main_system(ents, view.title_end)
        text = view.text
        for s0, s1 in view.sents:
            if s1 <= s0:
                continue
            c0, c1 = view.idx[s0], view.end_char(s1 - 1)
            values = find_values(text[c0:c1])
            sent = Sentence(s0, s1, c0, c1, [e for e in ents if s0 <= e.start < s1], values)
            found.extend(factors(view, sent, main))  # "3.1x speedup": not a value of its own
            if not values:
                continue
            paired = respectively(doc, view, sent, main)
            if paired:
                found.extend(paired)
                continue
            pairs = slashed(view, sent, main)
            found.extend(pairs)
            taken = {r.start for r in pairs}
            previous_metric: tuple[str, str | None] | None = None  # the last score's metric and unit
            previous: ResultSpan | None = None  # the last score
            just_before: ResultSpan | None = None  # the figure just before
            before = len(found)
            for v in values:
                if sent.c0 + v.start in taken:
                    continue
                r = self._result(doc, view, sent, v, main, previous_metric, just_before)
                if r is None and previous is not None:
                    r = versus(doc, view, sent, v, previous)
                if r is not None and r.metric is not None:
                    r = widest_measure(r, sent, view.idx)
                just_before = r
                if r is not None:
                    found.append(r)
                    if r.change is None:
                        previous_metric = (r.metric, r.unit) if r.metric else previous_metric
                        previous = r
            found[before:] = parallel_data(found[before:])
        doc._.results = found
        return doc

    @staticmethod
    def _main_system(ents: list[EntityRecord], title_end: int) -> EntityRecord | None:
        """The system the paper presents: introduced, else the first named one of the title."""
        named = [e for e in ents if e.type in SYSTEMS and not _generic(e)]
        intro = [e for e in named if e.role is Role.INTRODUCES]
        intro.sort(key=lambda e: (not e.title_subject, e.type is not EntityType.MODEL, e.start))
        if intro:
            return intro[0]
        in_title = [e for e in named if e.start_char < title_end and e.role is not Role.COMPARES_WITH]
        return in_title[0] if in_title else None

    # -- one value ---------------------------------------------------------------------------
    def _result(self, doc: Doc, view, sent: Sentence, v: Value, main: EntityRecord | None,
                previous_metric: tuple[str, str | None] | None,
                just_before: ResultSpan | None = None) -> ResultSpan | None:
        s0, s1, ents = sent.s0, sent.s1, sent.ents
        words, lower = view.words, view.lower
        where = value_tokens(doc, sent, v)
        if where is None:
            return None
        first, last = where
        if any(e.start <= first < e.end and e.source not in WEAK for e in ents):
            return None  # a number inside a name
        lo = first  # the value's first token, before any TeX "$" around it ("$88.9$")
        while lo > s0 and words[lo - 1] == "$":
            lo -= 1
        # "raises accuracy from 61.3% to 68.9%": the second figure is the changed system's score
        from_i = from_to(lower, s0, lo)
        after_text = view.text[sent.c0 + v.end : sent.c1]
        before_text = view.text[max(sent.c0, sent.c0 + v.start - 12) : sent.c0 + v.start]
        if _RANGE_DASH.match(after_text) or (from_i is None and _RANGE_END.search(before_text)):
            return None  # "1% to 5%", "12-49%": a range; the first figure of "from X to Y"
        prev = lower[lo - 1] if lo > s0 else ""
        prev2 = lower[lo - 2] if lo - 1 > s0 else ""
        if len(prev) == 1 and words[lo - 1].isupper() and prev not in {"a", "i"}:
            return None  # "F 1", "R 2": a digit of a name
        change = change_of(view, sent.s0, sent.s1, v, first, last, prev)
        if change is None and prev in {"and", ","} and just_before is not None and just_before.change is not None and (
                just_before.unit == v.unit):
            change = just_before.change  # "outperforming prior work by 1.1% and 1.0%": both are changes
        if change is None and (prev in BOUNDS or prev2 in {"less", "more", "at", "up"}):
            return None
        nxt = lower[last] if last < s1 else None
        if v.unit is None and change is None and nxt is not None and nxt in COUNT_NOUNS:
            return None
        if v.unit is None and "." not in v.text and counted(lower, last, s1):
            return None  # "70 different similarity metrics", "51 lower confidence sources": a count
        if change is None and nxt in {"baseline", "baselines"}:
            return None  # "faster than our 97.2% baseline": the baseline's figure
        if v.unit is None and change is None and lo > s0 and v.value < 10 and (
                e := entity_at(ents, lo - 1)) is not None and e.end == lo and (
                "." not in v.text or (e.type in DATA and _VERSION.match(v.text))):
            return None  # "Wikipedia 1" (a footnote), "NDCG 4", "CTB 5.1" (a version of the data)
        if v.unit is None and _YEAR.match(v.text):
            return None  # "the COCO 2015 challenge", "since 2019": a year
        if v.unit is None and change is None and nxt == "of" and any(
                _DIGIT.match(w) for w in words[last + 1 : min(s1, last + 3)]):
            return None  # "solves 9 of the 12 tasks": a count
        if change is None and prior_figure(lower, s0, lo):
            return None  # "improving over the previous best FID of 18.6": another system's figure
        benchmark = metric = model = None
        confidence = 0.0
        # NAME ( value ): a benchmark, metric or system in front, the value in brackets
        open_i = lo - (2 if prev in {"up", "+"} else 1)
        front_system = None
        if lo > s0 and lower[lo - 1] not in {"(", ":", "="}:
            # a results table written as text: "HumanEval: TinyCoder 48.2, StarCoder 30.4; MBPP: ..."
            e = entity_at(ents, lo - 1)
            if e is not None and e.end == lo and e.type in SYSTEMS and not _generic(e):
                front_system = e
                data = segment_data(view, ents, s0, e.start)
                if data is not None:
                    benchmark, confidence = data.label, 0.7
                    # the measure the table states once: "Results (pass@1): HumanEval: ..."
                    metric = next((m.label for m in reversed(ents) if m.type is EntityType.METRIC
                                   and m.end <= data.start and not is_statistic(m.label)), None)
        if front_system is not None and front_system.start > s0 and lower[front_system.start - 1] == "(" and (
                last < s1 and lower[last] == ")"):
            return None  # "(SFEW 2.0)": a version of the name
        inner = entity_at(ents, lo - 1) if lo > s0 else None
        if inner is not None and inner.type is EntityType.METRIC and inner.end == lo and inner.start > s0 and (
                lower[inner.start - 1] == "(" and not is_statistic(inner.label)):
            # "a random forest classifier (AUROC 0.81)": the measure inside the brackets, the system before them
            metric, confidence, open_i = inner.label, 0.75, inner.start - 1
        if open_i > s0 and words[open_i] == "(":
            e = entity_at(ents, open_i - 1)
            if e is None and open_i - 2 >= s0 and head_type(words[open_i - 1]) in SYSTEMS:
                e = entity_at(ents, open_i - 2)  # "a random forest classifier (...)": the name before its head
            if e is not None and e.type in DATA:
                benchmark, confidence = e.label, 0.85
            elif e is not None and e.type is EntityType.METRIC:
                metric, confidence = e.label, 0.75
            elif e is not None and e.type in SYSTEMS and (not _generic(e) or e.role is Role.COMPARES_WITH):
                front_system = e  # "GPT-4 (81.2)", "outperforming a random forest (AUROC 0.81)"
        if front_system is not None and last < s1 and lower[last] in {"vs", "vs.", "versus"}:
            # "X matches Y (88.9 vs. 89.1)": the first figure is the subject's, the second Y's
            front_system = next((e for e in ents if e.type in SYSTEMS and e.end <= front_system.start
                                 and not _generic(e) and e.label != front_system.label), None)
            after = entity_at(ents, last + 2) if last + 2 < s1 else None
            if metric is None and after is not None and after.type is EntityType.METRIC:
                metric = after.label  # "(88.9 vs. 89.1 average score)": one measure for both
        # value [metric words] on [the] BENCH / for MODEL
        j = last
        if model is None and (shared := shared_system(lower, words, ents, last, s1)) is not None:
            model = shared  # "71.0% and 48.5% for X": both figures are X's
        unknown_data = False
        metric_words: list[str] = []
        solved = prev in SOLVE_VERBS
        while j < s1 and j - last <= 5:
            low = lower[j]
            if low == "$":
                j += 1
                continue
            e = entity_at(ents, j)
            if low == "overall" and j + 1 < s1 and (after := entity_at(ents, j + 1)) is not None and (
                    after.type is EntityType.METRIC and after.start == j + 1):
                j += 1  # "93.4% overall accuracy": a measure, not "93.4% overall"
                continue
            if e is not None and e.type is EntityType.METRIC and metric is None:
                metric = e.label
                j = e.end
                continue
            if low == "(" and metric is None and (e := entity_at(ents, j + 1)) is not None and (
                    e.type is EntityType.METRIC and e.start == j + 1 and e.end < s1 and lower[e.end] == ")"):
                metric = e.label  # "71.5 (EM) on Natural Questions"
                j = e.end + 1
                continue
            if low == "at" and v.unit is not None:
                # "71.2% mIoU at 40 FPS for X": an operating point between the value and its names
                k = j + 1
                while k < s1 and k - j <= 4 and lower[k] not in AFTER_POINT and lower[k] not in POINT_STOP:
                    k += 1
                if k < s1 and lower[k] in AFTER_POINT:
                    j = k
                    continue
                break
            if low in {"on", "in"}:
                k = after_split(lower, skip_articles(lower, j + 1, s1), s1)  # "on the test split of the X dataset"
                e = entity_at(ents, k)
                if e is not None and e.type is EntityType.METRIC and low == "in" and metric is None:
                    metric = e.label  # "a relative improvement of 12% in F1 on SQuAD"
                    j = e.end
                    continue
                if e is not None and e.type in DATA and benchmark is None:
                    benchmark, confidence = e.label, max(confidence, 0.85)
                elif e is None and k < s1 and words[k][:1].isupper():
                    unknown_data = True  # "1.24 bits/char on Hutter Prize": its own data, not one named before
                break
            if low == "for":
                k = skip_articles(lower, j + 1, s1)
                e = entity_at(ents, k)
                if e is not None and e.type in SYSTEMS and not _generic(e):
                    model = e.label
                elif unnamed_other(lower, k, s1):
                    return None  # "versus 80.9% for the baseline": a figure of a system not named
                break
            if low == "of" and solved:
                break
            if low == "of":
                if unnamed_other(lower, skip_articles(lower, j + 1, s1), s1):
                    return None  # "from the 56.7 F1 of the previous best system"
                break
            word = words[j]
            if low in NOT_MEASURED:
                metric_words.clear()
                break
            if not word.isalpha() or low in METRIC_STOP or word[:1].isupper():
                break
            if low in INCREASE_AFTER or low in DECREASE_AFTER or low in NEUTRAL_AFTER:
                break
            metric_words.append(word)
            j += 1
        if is_statistic(metric):
            return None
        if metric is None and metric_words and v.unit == "%" and len(metric_words) <= 3 and change is None and (
                metric_words[-1].lower() in MEASURE_NOUNS):
            metric = " ".join(metric_words)
            confidence = max(confidence, 0.6)
        # METRIC [of|=|:|is|reaching|to] value; "BENCH: 82.1"; "the GLUE score to 80.5%"
        k = (lo if from_i is None else from_i) - 1
        # a speed after "at" is where the figure before it was measured: "71.2% mIoU at 40 FPS"
        skip = BEFORE_VALUE - {"at"} if v.unit in {"FPS", "ms"} else BEFORE_VALUE
        while k > s0 and lower[k] in skip:
            k -= 1
        if k > s0 and words[k] == ")" and (e := entity_at(ents, k - 1)) is not None and (
                e.type is EntityType.METRIC):
            k -= 1  # "an Inception Score (IS) of 166.5"
        if k >= s0 and is_statistic(words[k]) or (k >= s0 and words[k] in {"p", "R^2", "R\u00b2"}):
            return None  # "R^2 = 0.998", "p < 0.05"
        e = entity_at(ents, k) if k >= s0 else None
        metric_start = None
        if e is not None and k < first and e.type is EntityType.METRIC:
            if is_statistic(e.label):
                return None
            metric = metric or e.label
            confidence = max(confidence, 0.75)
            metric_start = e.start
        elif e is not None and k < first and e.type in DATA and benchmark is None and e.end == k + 1 and (
                k == first - 1 or lower[first - 1] in {":", "=", "of"}):
            benchmark, confidence = e.label, max(confidence, 0.7)  # "GSM8K 82.1", "MMLU: 71.2"
        elif k < first and lower[k] in BARE_METRICS and metric is None:
            metric_start = k
            if lower[k] not in {"score", "scores"}:
                metric, confidence = words[k], max(confidence, 0.6)
        if metric_start is not None and benchmark is None:
            # a benchmark named just before the metric: "MultiNLI accuracy", "GLUE score"
            j = metric_start - 1
            while j >= s0 and metric_start - j <= 5 and words[j] not in {",", ";", "."} and (
                    lower[j] not in CLAUSE_WORDS):  # not "76.2% on ImageNet and improves BLEU"
                e = entity_at(ents, j)
                if e is not None and e.type in DATA:
                    benchmark, confidence = e.label, max(confidence, 0.75)
                    break
                j -= 1
        if metric is None and from_i is not None:
            # "lower the perplexity from 24.1 to 19.7 on X and from 60.2 to 55.8 on Y"
            metric = next((m.label for m in reversed(ents) if m.type is EntityType.METRIC and m.end <= from_i
                           and ";" not in lower[m.end : from_i] and not is_statistic(m.label)), None)
            if metric is not None:
                confidence = max(confidence, 0.6)
        if change is not None:
            if metric is None and just_before and just_before.metric and not metric_words and (
                    prev not in {"by", "of"}) and prev2 not in {"by", "of"} and (
                    v.unit != "%" or just_before.unit == "%"):
                metric = just_before.metric  # "38.4 mask AP, 2.1 points higher than X": the same measure
            return self._improvement(view, sent, v, first, change, model, benchmark, metric, main)
        if front_system is not None and model is None:
            model = front_system.label
        if metric is None and benchmark is None and previous_metric and previous_metric[1] == v.unit and (
            model is not None or prev in {"versus", "vs", "vs.", "than", "while", "against", "with", "and"}
            or prev in SCORING_VERBS
        ):
            # "94.7% average recovery, versus 80.9% for MOPD": the same measure, another system
            metric, confidence = previous_metric[0], 0.6
        elif metric is None and previous_metric and previous_metric[1] == v.unit and prev == "and" and (
                just_before is not None and just_before.change is None):
            metric = previous_metric[0]  # "62.8% pass@1 on HumanEval and 55.1% on MBPP": the same measure
        if benchmark is None and not unknown_data and (metric is not None or model is not None or solved
                                                       or prev in SCORING_VERBS):
            # "On the WMT 2014 English-to-French task, our model ... BLEU score of 41.8"
            data = data_for(lower, ents, s0, first)
            if data is not None:
                benchmark, confidence = data.label, min(max(confidence, 0.6), 0.65)
        if benchmark is None and metric is None:
            return None
        if model is None:
            model, _ = model_before(ents, s0, first, main, lower)
        return ResultSpan(v.value, v.unit, sent.c0 + v.start, sent.c0 + v.end, sent.c0, sent.c1, model, benchmark,
                          metric, None, round(confidence, 3))

    def _improvement(self, view, sent: Sentence, v: Value, first: int, change: Change, model: str | None,
                     benchmark: str | None, metric: str | None, main: EntityRecord | None) -> ResultSpan | None:
        lower = view.lower
        ents = sent.ents
        s0 = sent.s0
        subject, baseline = model_before(ents, s0, first, main, lower)
        model = model or subject
        if baseline is None:
            # "over FRONT", "than X", "compared to X" anywhere in the sentence
            for e in ents:
                if e.type in SYSTEMS and e.role is Role.COMPARES_WITH and e.label != model:
                    baseline = e.label
                    break
        if benchmark is None:
            # "by 1.2 points over the baseline on WMT14": the benchmark of the value's own clause first
            after = [e for e in sentence_data(lower, ents, s0) if e.start > first
                     and not any(w in {",", ";"} or w[:1].isdigit() for w in lower[first + 1 : e.start])]
            data = after[0] if after else data_for(lower, ents, s0, first)
            benchmark = data.label if data is not None else None
        if model is None and baseline is None and benchmark is None and metric is None:
            return None
        unit = v.unit
        if unit is None and first > s0 and lower[first - 1] == "up":
            unit = "points"
        return ResultSpan(abs(v.value), unit, sent.c0 + v.start, sent.c0 + v.end, sent.c0, sent.c1, model, benchmark,
                          metric, baseline, 0.7 if benchmark else 0.6, change)


@Language.factory("scholarkg_results")
def make_results(nlp: Language, name: str) -> ResultFinder:
    return ResultFinder()
