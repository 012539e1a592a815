"""Scores stated in the text, as (model, benchmark, metric, value, unit) results.

A number becomes a result only when the sentence ties it to a benchmark or a metric:

- ``BENCH (48.6%)``, ``BENCH (up 12.56)``            benchmark in front, value in brackets
- ``48.6% [METRIC] on [the] BENCH``                  value, optional metric, "on" benchmark
- ``METRIC of 71.8%``, ``R^2 = 0.998``               metric, then the value
- ``94.7% average recovery``                         value, then a short metric phrase
- ``..., versus 80.9% for MOPD``                     "for X" names the model of that value

Bounds ("below 1%", "more than 50%"), changes ("reduces ... by 70.7%"), ranges and counts
("38,000 hours", "134 tasks") are not results. The model is the "for X" name, else the nearest
model or method before the value that the paper itself presents, else the paper's introduced
model or method. ``Doc._.results`` holds :class:`ResultSpan` values; every value is text of
the document, so no result exists without a number in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from spacy.language import Language
from spacy.tokens import Doc

from ...model import EntityType, Role
from ..doctext import info
from ..numbers import Value, find_values
from .entities import EntityRecord, is_generic, records

__all__ = ["ResultSpan", "ResultFinder"]

_BOUNDS = frozenset({"below", "above", "under", "over", "least", "most", "than", "by", "within", "around",
                     "approximately", "nearly", "almost", "roughly", "about", "exceeding", "only"})
_COUNT_NOUNS = frozenset(
    """hours hour days day minutes seconds tasks task steps step parameters experts samples examples
    instances models benchmarks domains languages times epochs layers usd dollars gpus tokens words
    sentences documents images videos levels environments clusters fields subfields industries
    questions users people participants annotators categories classes languages pairs queries
    trajectories agents tools turns rounds iterations runs seeds million billion thousand k m b
    papers articles hours. months years weeks nodes edges graphs sub""".split()
)
# A measured change, not a score: "26% smaller model size", "+1.8% absolute improvement".
_CHANGE_WORDS = frozenset(
    """smaller larger less fewer lower higher more faster slower improvement improvements gain gains
    reduction reductions increase increases decrease decreases better worse relative absolute
    speedup speed-up boost drop margin fewer cheaper shorter longer saving savings""".split()
)
_METRIC_STOP = frozenset({"on", "in", "for", "with", "and", "or", "at", "of", "by", "over", "than", "versus",
                          "vs", "vs.", "compared", "while", "which", "that", "the", "a", "an", "across", "to"})
_DATA = {EntityType.BENCHMARK, EntityType.DATASET}
_SYSTEMS = {EntityType.MODEL, EntityType.METHOD}
_WEAK = {"term", "ner"}
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class ResultSpan:
    """A result found in a ``Doc``: character offsets of the value, names as entity labels."""

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


def _entity_at(ents: list[EntityRecord], i: int) -> EntityRecord | None:
    for e in ents:
        if e.start <= i < e.end and e.source not in _WEAK:
            return e
    for e in ents:
        if e.start <= i < e.end:
            return e
    return None


_generic = is_generic


class ResultFinder:
    def __init__(self):
        if not Doc.has_extension("results"):
            Doc.set_extension("results", default=None)

    def __call__(self, doc: Doc) -> Doc:
        found: list[ResultSpan] = []
        if not _DIGIT.search(info(doc).text):
            doc._.results = found
            return doc
        ents = records(doc)
        view = info(doc)
        main = self._main_system(ents, view.title_end)
        text = info(doc).text
        for s0, s1 in view.sents:
            if s1 <= s0:
                continue
            c0, c1 = view.idx[s0], view.end_char(s1 - 1)
            values = find_values(text[c0:c1])
            if not values:
                continue
            sent_ents = [e for e in ents if s0 <= e.start < s1]
            previous_metric: str | None = None
            for v in values:
                r = self._result(doc, view, (s0, s1, c0, c1), sent_ents, v, main, previous_metric)
                if r is not None:
                    found.append(r)
                    previous_metric = r.metric or previous_metric
        doc._.results = found
        return doc

    @staticmethod
    def _main_system(ents: list[EntityRecord], title_end: int) -> EntityRecord | None:
        """The system the paper presents: introduced, else the first named one of the title."""
        named = [e for e in ents if e.type in _SYSTEMS and not _generic(e)]
        intro = [e for e in named if e.role is Role.INTRODUCES]
        intro.sort(key=lambda e: (not e.title_subject, e.type is not EntityType.MODEL, e.start))
        if intro:
            return intro[0]
        in_title = [e for e in named if e.start_char < title_end and e.role is not Role.COMPARES_WITH]
        return in_title[0] if in_title else None

    def _result(self, doc: Doc, view, sent, ents: list[EntityRecord], v: Value, main: EntityRecord | None,
                previous_metric: str | None) -> ResultSpan | None:
        s0, s1, c0, c1 = sent
        words, lower = view.words, view.lower
        start_char = c0 + v.start
        end_char = c0 + v.end
        span = doc.char_span(start_char, end_char, alignment_mode="expand")
        if span is None:
            return None
        first, last = span.start, span.end  # token indices of the value
        if any(e.start <= first < e.end and e.source not in _WEAK for e in ents):
            return None  # a number inside a name
        prev = lower[first - 1] if first > s0 else ""
        prev2 = lower[first - 2] if first - 1 > s0 else ""
        gain = prev == "up"
        if not gain and (prev in _BOUNDS or prev2 in {"less", "more", "at", "up"}):
            return None
        nxt = lower[last] if last < s1 else None
        if v.unit is None and nxt is not None and nxt in _COUNT_NOUNS:
            return None
        benchmark = metric = model = baseline = None
        confidence = 0.0
        # BENCH ( value )  /  BENCH ( up value )
        open_i = first - (2 if gain else 1)
        if open_i > s0 and words[open_i] == "(":
            e = _entity_at(ents, open_i - 1)
            if e is not None and e.type in _DATA:
                benchmark, confidence = e.label, 0.85
            elif e is not None and e.type is EntityType.METRIC:
                metric, confidence = e.label, 0.75
        # value [metric words] on [the] BENCH
        j = last
        metric_words: list[str] = []
        while j < s1 and j - last <= 5:
            low = lower[j]
            e = _entity_at(ents, j)
            if e is not None and e.type is EntityType.METRIC and metric is None:
                metric = e.label
                j = e.end
                continue
            if low in {"on", "in"}:
                k = j + 1
                while k < s1 and lower[k] in {"the", "a", "an"}:
                    k += 1
                e = _entity_at(ents, k)
                if e is not None and e.type in _DATA and benchmark is None:
                    benchmark, confidence = e.label, max(confidence, 0.85)
                break
            if low == "for":
                e = _entity_at(ents, j + 1)
                if e is not None and e.type in _SYSTEMS:
                    model = e.label
                break
            word = words[j]
            if not word.isalpha() or low in _METRIC_STOP or word[:1].isupper():
                break
            metric_words.append(word)
            j += 1
        if {w.lower() for w in metric_words} & _CHANGE_WORDS or (metric and set(metric.lower().split()) & _CHANGE_WORDS):
            return None
        if prev == "+" or (nxt is not None and nxt in _CHANGE_WORDS):
            return None
        if metric is None and metric_words and v.unit == "%" and len(metric_words) <= 3:
            metric = " ".join(metric_words)
            confidence = max(confidence, 0.6)
        # METRIC [of|=|:|is|reaching|to] value; "the GLUE score to 80.5%", "SQuAD v1.1 ... F1 to 93.2"
        k = first - 1
        while k > s0 and lower[k] in {"of", "=", ":", "is", "reaching", "reaches", "a", "an", "at", "(", "to", "was"}:
            k -= 1
        e = _entity_at(ents, k)
        metric_start = None
        if e is not None and e.type is EntityType.METRIC and k < first:
            metric = metric or e.label
            confidence = max(confidence, 0.75)
            metric_start = e.start
        elif k < first and lower[k] in {"score", "scores"}:
            metric_start = k
        if metric_start is not None and benchmark is None:
            # a benchmark named just before the metric: "MultiNLI accuracy", "GLUE score"
            j = metric_start - 1
            while j >= s0 and metric_start - j <= 5 and words[j] not in {",", ";", "."}:
                e = _entity_at(ents, j)
                if e is not None and e.type in _DATA:
                    benchmark, confidence = e.label, max(confidence, 0.75)
                    break
                j -= 1
        if gain and benchmark is not None:
            confidence = 0.7
        if metric is None and benchmark is None and previous_metric and (
            model is not None or prev in {"versus", "vs", "vs.", "than", "while", "against"}
        ):
            # "94.7% average recovery, versus 80.9% for MOPD": the same measure, another system
            metric, confidence = previous_metric, 0.6
        if benchmark is None and metric is not None:
            # "On the WMT 2014 English-to-French task, our model ... BLEU score of 41.8"
            data = [e for e in ents if e.type in _DATA and e.start > s0 and (
                lower[e.start - 1] in {"on", "in"}
                or (e.start - 1 > s0 and lower[e.start - 1] in {"the", "a"} and lower[e.start - 2] in {"on", "in"}))]
            if len({e.label for e in data}) == 1:
                benchmark, confidence = data[0].label, min(max(confidence, 0.6), 0.65)
        if benchmark is None and metric is None:
            return None
        if model is None:
            model, baseline = self._model_before(ents, s0, first, main)
        if not gain:
            baseline = None
        return ResultSpan(v.value, v.unit or ("points" if gain else None), start_char, end_char,
                          c0, c1, model, benchmark, metric, baseline, round(confidence, 3))

    @staticmethod
    def _model_before(ents: list[EntityRecord], s0: int, first: int, main: EntityRecord | None):
        """The system the value belongs to, and the baseline it was compared with."""
        systems = [e for e in ents if e.type in _SYSTEMS and e.end <= first and not _generic(e)]
        baseline = None
        subject = None
        for e in systems:
            if e.role is Role.COMPARES_WITH:
                baseline = baseline or e.label
                continue
            if e.role is Role.INTRODUCES or e.type is EntityType.MODEL:
                subject = e
            elif subject is None and e.start == s0:
                subject = e
        if subject is None and systems and systems[0].start <= s0 + 1 and systems[0].role is not Role.COMPARES_WITH:
            subject = systems[0]
        if subject is None:
            subject = main
        return (subject.label if subject is not None else None), baseline


@Language.factory("scholarkg_results")
def make_results(nlp: Language, name: str) -> ResultFinder:
    return ResultFinder()
