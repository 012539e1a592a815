"""Figures read together: a score's parts, the sentence they stand in, and the patterns that pair
several figures with several measures or benchmarks at once ("respectively", "and", "EM/F1 of
80.1/87.3", "X outperforms Y (MMLU: 64.1 vs. 55.0)", "71.0% and 48.5% for X", in the order of the data
named with the sentence's first figures), changes by a factor ("2.3x higher throughput"), and
a figure's measure as fully as the text names it. Used by
:mod:`scholarkg.extract.components.results`."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from decimal import Decimal

from spacy.tokens import Doc

from ...model import Change, EntityType, Role
from ..figure_words import MEASURE_NOUNS, SCORING_VERBS, is_statistic
from ..figures import after_split, change_of, data_for, skip_articles
from ..numbers import Value
from .entities import EntityRecord, is_generic

__all__ = ["ResultSpan", "Sentence", "DATA", "SYSTEMS", "WEAK", "entity_at", "value_tokens", "model_before",
           "respectively", "slashed", "versus", "factors", "shared_system", "parallel_data", "widest_measure"]

DATA = {EntityType.BENCHMARK, EntityType.DATASET}
SYSTEMS = {EntityType.MODEL, EntityType.METHOD}
WEAK = {"term", "ner"}
SLASHED = re.compile(r"\d+(?:\.\d+)?%?(?:/\d+(?:\.\d+)?%?)+")
_generic = is_generic


@dataclass(frozen=True, slots=True)
class ResultSpan:
    """A figure found in a ``Doc``: character offsets of the value, names as entity labels."""

    value: Decimal
    unit: str | None
    start: int
    end: int
    sent_start: int
    sent_end: int
    model: str | None
    benchmark: str | None
    metric: str | None
    baseline: str | None
    confidence: float
    change: Change | None = None


_JOINERS = frozenset({",", "and", "%", "\\%", "$", "the", "percent", "points"})


def joined(lower: list[str], spans: list[tuple[int, int]]) -> bool:
    """Spans that follow each other with only "," / "and" (and units) between: "A, B and C"."""
    return all(all(w in _JOINERS for w in lower[a[1] : b[0]]) for a, b in zip(spans, spans[1:]))


def entity_at(ents: list[EntityRecord], i: int) -> EntityRecord | None:
    for e in ents:
        if e.start <= i < e.end and e.source not in WEAK:
            return e
    for e in ents:
        if e.start <= i < e.end:
            return e
    return None


class Sentence:
    """What the rules need to know about one sentence."""

    __slots__ = ("s0", "s1", "c0", "c1", "ents", "values")

    def __init__(self, s0, s1, c0, c1, ents, values):
        self.s0, self.s1, self.c0, self.c1, self.ents, self.values = s0, s1, c0, c1, ents, values


def value_tokens(doc: Doc, sent: Sentence, v: Value) -> tuple[int, int] | None:
    span = doc.char_span(sent.c0 + v.start, sent.c0 + v.end, alignment_mode="expand")
    return None if span is None else (span.start, span.end)


# Verbs whose subject is the system a figure after them belongs to ("With 7B parameters, X scores 68.3").
_SUBJECT_VERBS = SCORING_VERBS | {"sets", "establishes", "improves", "improved", "reduces", "reduced", "boosts",
                                   "boosted", "increases", "increased", "lowers", "lowered", "outperforms",
                                   "outperformed", "surpasses", "surpassed", "beats"}


def model_before(ents: list[EntityRecord], s0: int, first: int, main: EntityRecord | None, lower: list[str]):
    """The system the value belongs to, and the baseline it was compared with."""
    systems = [e for e in ents if e.type in SYSTEMS and e.end <= first and not _generic(e)]
    baseline = None
    subject = None
    for e in systems:
        if e.role is Role.COMPARES_WITH:
            baseline = baseline or e.label
            continue
        if e.role is Role.INTRODUCES or e.type is EntityType.MODEL:
            subject = e
        elif subject is None and (e.start == s0 or lower[e.end] in _SUBJECT_VERBS):
            subject = e
    # "L-Hiero achieves 25.1 and Moses achieves 24.8": the system whose verb takes the figure
    scorer = next((e for e in reversed(systems) if lower[e.end] in _SUBJECT_VERBS and first - e.end <= 3), None)
    if scorer is not None:
        return scorer.label, (baseline if baseline != scorer.label else None)
    if subject is None and systems and systems[0].start <= s0 + 1 and systems[0].role is not Role.COMPARES_WITH:
        subject = systems[0]
    if subject is None:
        subject = main
    return (subject.label if subject is not None else None), baseline


def respectively(doc: Doc, view, sent: Sentence, main: EntityRecord | None) -> list[ResultSpan]:
    lower = view.lower
    said = "respectively" in lower[sent.s0 : sent.s1]
    if not said and "and" not in lower[sent.s0 : sent.s1]:
        return []
    spots = []
    for v in sent.values:
        where = value_tokens(doc, sent, v)
        if where is not None:
            spots.append((v, where))
    data = [e for e in sent.ents if e.type in DATA]
    if said and len(spots) >= 2 and len(spots) != len(data):
        return _measures_respectively(view, sent, spots, data, main)
    if len(spots) < 2 or len(spots) != len(data):
        return []
    first_value, last_value = spots[0][1][0], spots[-1][1][1]
    # "82.1 and 45.3 on A and B, respectively" or "on A and B to 82.1 and 45.3, respectively"
    after = all(e.start >= last_value for e in data)
    if not (after or all(e.end <= first_value for e in data)) or len({e.label for e in data}) != len(data):
        return []
    if not said and not (after and joined(lower, [w for _, w in spots]) and joined(
            lower, [(e.start, e.end) for e in data])):
        return []  # without "respectively" only "94.1% and 95.3% accuracy on SST-2 and IMDB" pairs up
    measures = [e for e in sent.ents if e.type is EntityType.METRIC and not is_statistic(e.label)]
    before = [e for e in measures if e.start < (data[0].start if after else first_value)]
    # "+0.3% and +1.2% improvement in accuracy": a measure named after the values
    metric = (before or measures or [None])[0]
    metric = metric.label if metric is not None else None
    out = []
    for (v, (first, last)), e in zip(spots, data):
        model, _ = model_before(sent.ents, sent.s0, first, main, view.lower)
        # "+4.37%, +1.6% and +2.46% improvement on A, B and C, respectively": changes
        change = change_of(view, sent.s0, sent.s1, v, first, last, lower[first - 1] if first > sent.s0 else "")
        out.append(ResultSpan(abs(v.value) if change else v.value, v.unit, sent.c0 + v.start, sent.c0 + v.end,
                              sent.c0, sent.c1, model, e.label, metric, None, 0.7, change))
    return out


def _measures_respectively(view, sent: Sentence, spots, data, main) -> list[ResultSpan]:
    """ "72.7%, 86.1% and 78.8% in precision, recall and F-score, respectively": one measure each."""
    last_value = spots[-1][1][1]
    measures = [e for e in sent.ents if e.type is EntityType.METRIC and e.start >= last_value]
    if len(measures) != len(spots) or not joined(view.lower, [(e.start, e.end) for e in measures]):
        return []
    bench = data[0].label if len({e.label for e in data}) == 1 else None
    out = []
    for (v, (first, _)), e in zip(spots, measures):
        model, _ = model_before(sent.ents, sent.s0, first, main, view.lower)
        out.append(ResultSpan(v.value, v.unit, sent.c0 + v.start, sent.c0 + v.end, sent.c0, sent.c1, model,
                              bench, e.label, None, 0.7))
    return out


def slashed(view, sent: Sentence, main: EntityRecord | None) -> list[ResultSpan]:
    """ "an EM/F1 of 80.1/87.3 on SQuAD", "91.2/85.0 UAS/LAS": figures paired with measures in order."""
    lower, ents = view.lower, sent.ents
    slashed_at = [k for k in range(sent.s0, sent.s1) if SLASHED.fullmatch(view.words[k])]
    if not slashed_at:
        return []
    # the measures written "M1/M2"
    measures = [e for e in ents if e.type is EntityType.METRIC]
    by_start = {m.start: m for m in measures}
    all_runs = []
    for e in measures:
        run = [e]
        while run[-1].end + 1 < sent.s1 and lower[run[-1].end] == "/" and run[-1].end + 1 in by_start:
            run.append(by_start[run[-1].end + 1])
        if len(run) > 1:
            all_runs.append(run)
    out: list[ResultSpan] = []
    for k in slashed_at:
        parts = list(re.finditer(r"\d+(?:\.\d+)?(%?)", view.words[k]))
        runs = [r for r in all_runs if len(r) == len(parts)]
        if not runs:
            continue
        # of those, the one nearest the figures, before or after them
        run = min(runs, key=lambda r: min(abs(r[0].start - k), abs(k - r[-1].end)))
        benchmark = None
        j = k + 1 + (len(run) * 2 - 1 if run[0].start == k + 1 else 0)
        if j < sent.s1 and lower[j] in {"on", "in"}:
            e = entity_at(ents, after_split(lower, skip_articles(lower, j + 1, sent.s1), sent.s1))
            benchmark = e.label if e is not None and e.type in DATA else None
        if benchmark is None:
            data = data_for(lower, ents, sent.s0, k)
            benchmark = data.label if data is not None else None
        model, _ = model_before(ents, sent.s0, k, main, lower)
        base = view.idx[k]
        percent = any(p.group(1) for p in parts) or lower[k + 1 : k + 2] == ["%"]  # "81.3%/95.6%"
        for part, measure in zip(parts, run):
            start = base + part.start()
            number = part.group(0).rstrip("%")
            out.append(ResultSpan(Decimal(number), "%" if percent else None, start, start + len(number), sent.c0,
                                  sent.c1, model, benchmark, measure.label, None, 0.7))
    return out


def versus(doc: Doc, view, sent: Sentence, v: Value, previous: ResultSpan) -> ResultSpan | None:
    """ "X outperforms Y (MMLU: 64.1 vs. 55.0)": the figure after "vs." is of the same measure, and
    of the system the sentence compares with, when it names one."""
    where = value_tokens(doc, sent, v)
    if where is None or where[0] <= sent.s0 or view.lower[where[0] - 1] not in {"vs", "vs.", "versus"}:
        return None
    if v.unit != previous.unit or (previous.benchmark is None and previous.metric is None):
        return None
    other = next((e.label for e in sent.ents if e.type in SYSTEMS and e.role is Role.COMPARES_WITH
                  and e.label != previous.model and not _generic(e)), None)
    if other is None:
        return None
    return ResultSpan(v.value, v.unit, sent.c0 + v.start, sent.c0 + v.end, sent.c0, sent.c1, other,
                      previous.benchmark, previous.metric, None, 0.6)


_FACTOR = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?[x\u00d7](?=\s)")
_FACTOR_UP = frozenset("""higher faster more larger greater better speedup speed-up improvement increase gain
    boost""".split())
_FACTOR_DOWN = frozenset("lower fewer less smaller cheaper reduction decrease".split())


def factors(view, sent: Sentence, main: EntityRecord | None) -> list[ResultSpan]:
    """ "a 2.3x higher throughput than vLLM", "3.1x speedup over X", "4x fewer parameters": a change by a
    factor, with the measure after it and the system compared with."""
    lower, ents = view.lower, sent.ents
    out = []
    for m in _FACTOR.finditer(view.text, sent.c0, sent.c1):
        k = bisect_left(view.idx, m.end())
        while k < sent.s1 and not lower[k].strip():
            k += 1
        if k >= sent.s1 or (lower[k] not in _FACTOR_UP and lower[k] not in _FACTOR_DOWN):
            continue
        change = Change.INCREASE if lower[k] in _FACTOR_UP else Change.DECREASE
        first = bisect_left(view.idx, m.start())
        after = entity_at(ents, k + 1) if k + 1 < sent.s1 else None
        metric = after.label if after is not None and after.type is EntityType.METRIC else None
        if metric is None and k + 1 < sent.s1 and lower[k + 1] in MEASURE_NOUNS:
            metric = lower[k + 1]  # "2.3x higher throughput"
        model, baseline = model_before(ents, sent.s0, first, main, lower)
        # "... than vLLM", "... over FlashAttention": the system named right after the comparison
        j = k + 1
        while j < sent.s1 and j - k <= 3 and lower[j] not in {"than", "over", ",", ";"}:
            j += 1
        named = entity_at(ents, j + 1) if j + 1 < sent.s1 and lower[j] in {"than", "over"} else None
        if named is not None and named.type in SYSTEMS:
            baseline = named.label
        data = data_for(lower, ents, sent.s0, first)
        out.append(ResultSpan(Decimal(m.group(1)), "x", m.start(), m.end(), sent.c0, sent.c1, model,
                              data.label if data is not None else None, metric, baseline, 0.6, change))
    return out


def shared_system(lower: list[str], words: list[str], ents, last: int, s1: int) -> str | None:
    """The system of "A and B for X" for the figure A: the next figure and "for X" right after it."""
    if last + 2 >= s1 or lower[last] not in {"and", ","} or not words[last + 1][:1].isdigit():
        return None
    k = last + 2 + (lower[last + 2] in {"%", "\\%"})
    if k >= s1 or lower[k] != "for":
        return None
    e = entity_at(ents, skip_articles(lower, k + 1, s1))
    return e.label if e is not None and e.type in SYSTEMS and not _generic(e) else None


def parallel_data(results: list[ResultSpan]) -> list[ResultSpan]:
    """ "A on B1 and C on B2, compared with D and E for X": a sentence's last figures, all of one
    named system and given no data of their own, are on the data of its first figures, in order."""
    scores = [r for r in results if r.change is None]
    half = len(scores) // 2
    if half < 2 or len(scores) != 2 * half:
        return results
    first, second = scores[:half], scores[half:]
    benches = [r.benchmark for r in first]
    if None in benches or len(set(benches)) != half or len({r.model for r in second}) != 1 or second[0].model is None:
        return results
    # data "of their own" is data read after the figure (confidence above the 0.65 of a data
    # name found elsewhere in the sentence); the last figure may carry the measure written after it
    if any(r.model == second[0].model for r in first) or any(r.confidence > 0.65 and r.benchmark for r in second[:-1]):
        return results
    moved = {id(r): replace(r, benchmark=b) for r, b in zip(second, benches)}
    return [moved.get(id(r), r) for r in results]


def widest_measure(r: ResultSpan, sent: Sentence, idx: list[int]) -> ResultSpan:
    """The measure a figure is given in, as fully as the text names it: "ROUGE-2 recall" rather
    than the "recall" inside it, "average full pass rate" rather than "pass rate"."""
    first = bisect_left(idx, r.start)
    named = [e for e in sent.ents if e.type is EntityType.METRIC and e.label == r.metric]
    if not named:
        return r
    inner = min(named, key=lambda e: min(abs(e.start - first), abs(e.end - first)))
    data = [e for e in sent.ents if e.type in DATA]
    wider = [e for e in sent.ents if e.type is EntityType.METRIC and e.start <= inner.start and inner.end <= e.end
             and (e.start, e.end) != (inner.start, inner.end)
             and not any(e.start <= d.start and d.end <= e.end for d in data)]  # not "MultiNLI accuracy"
    if not wider:
        return r
    return replace(r, metric=max(wider, key=lambda e: e.end - e.start).label)
