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

from dataclasses import dataclass
from decimal import Decimal

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType, Role
from ..numbers import Value, find_values

__all__ = ["ResultSpan", "ResultFinder"]

_BOUNDS = frozenset({"below", "above", "under", "over", "least", "most", "than", "to", "by", "within", "around",
                     "approximately", "nearly", "almost", "roughly", "about", "exceeding", "only"})
_COUNT_NOUNS = frozenset(
    """hours hour days day minutes seconds tasks task steps step parameters experts samples examples
    instances models benchmarks domains languages times epochs layers usd dollars gpus tokens words
    sentences documents images videos levels environments clusters fields subfields industries
    questions users people participants annotators categories classes languages pairs queries
    trajectories agents tools turns rounds iterations runs seeds million billion thousand k m b
    papers articles hours. months years weeks nodes edges graphs sub""".split()
)
_METRIC_STOP = frozenset({"on", "in", "for", "with", "and", "or", "at", "of", "by", "over", "than", "versus",
                          "vs", "vs.", "compared", "while", "which", "that", "the", "a", "an", "across", "to"})
_DATA = {EntityType.BENCHMARK.value, EntityType.DATASET.value}
_SYSTEMS = {EntityType.MODEL.value, EntityType.METHOD.value}


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


def _entity_at(ents: list[Span], i: int) -> Span | None:
    for e in ents:
        if e.start <= i < e.end:
            return e
    return None


class ResultFinder:
    def __init__(self):
        if not Doc.has_extension("results"):
            Doc.set_extension("results", default=None)

    def __call__(self, doc: Doc) -> Doc:
        ents = list(doc.spans.get("entities", []))
        found: list[ResultSpan] = []
        if not any(ch.isdigit() for ch in doc.text):
            doc._.results = found
            return doc
        main = self._main_system(ents)
        for sent in doc.sents:
            values = find_values(sent.text)
            if not values:
                continue
            sent_ents = [e for e in ents if sent.start <= e.start < sent.end]
            previous_metric: str | None = None
            for v in values:
                r = self._result(doc, sent, sent_ents, v, main, previous_metric)
                if r is not None:
                    found.append(r)
                    previous_metric = r.metric or previous_metric
        doc._.results = found
        return doc

    @staticmethod
    def _main_system(ents: list[Span]) -> Span | None:
        intro = [e for e in ents if e.label_ in _SYSTEMS and e._.role is Role.INTRODUCES]
        intro.sort(key=lambda e: (not e._.title_subject, e.label_ != EntityType.MODEL.value, e.start))
        return intro[0] if intro else None

    def _result(self, doc: Doc, sent: Span, ents: list[Span], v: Value, main: Span | None,
                previous_metric: str | None) -> ResultSpan | None:
        start_char = sent.start_char + v.start
        end_char = sent.start_char + v.end
        span = doc.char_span(start_char, end_char, alignment_mode="expand")
        if span is None:
            return None
        first, last = span.start, span.end  # token indices of the value
        prev = doc[first - 1].text.lower() if first > sent.start else ""
        prev2 = doc[first - 2].text.lower() if first - 1 > sent.start else ""
        gain = prev == "up" or (prev in {"+"})
        if not gain and (prev in _BOUNDS or prev2 in {"less", "more", "at", "up"}):
            return None
        nxt = doc[last] if last < sent.end else None
        if v.unit is None and nxt is not None and nxt.text.lower() in _COUNT_NOUNS:
            return None
        benchmark = metric = model = baseline = None
        confidence = 0.0
        # BENCH ( value )  /  BENCH ( up value )
        open_i = first - (2 if gain else 1)
        if open_i > sent.start and doc[open_i].text == "(":
            e = _entity_at(ents, open_i - 1)
            if e is not None and e.label_ in _DATA:
                benchmark, confidence = e.id_, 0.85
            elif e is not None and e.label_ == EntityType.METRIC.value:
                metric, confidence = e.id_, 0.75
        # value [metric words] on [the] BENCH
        j = last
        metric_words: list[str] = []
        while j < sent.end and j - last <= 5:
            tok = doc[j]
            low = tok.text.lower()
            e = _entity_at(ents, j)
            if e is not None and e.label_ == EntityType.METRIC.value and metric is None:
                metric = e.id_
                j = e.end
                continue
            if low in {"on", "in"}:
                k = j + 1
                while k < sent.end and doc[k].text.lower() in {"the", "a", "an"}:
                    k += 1
                e = _entity_at(ents, k)
                if e is not None and e.label_ in _DATA and benchmark is None:
                    benchmark, confidence = e.id_, max(confidence, 0.85)
                break
            if low == "for":
                e = _entity_at(ents, j + 1)
                if e is not None and e.label_ in _SYSTEMS:
                    model = e.id_
                break
            if not tok.is_alpha or low in _METRIC_STOP or tok.text[:1].isupper():
                break
            metric_words.append(tok.text)
            j += 1
        if metric is None and metric_words and v.unit == "%" and len(metric_words) <= 3:
            metric = " ".join(metric_words)
            confidence = max(confidence, 0.6)
        # METRIC [of|=|:|is|reaching] value
        k = first - 1
        while k > sent.start and doc[k].text.lower() in {"of", "=", ":", "is", "reaching", "reaches", "a", "an", "at", "("}:
            k -= 1
        e = _entity_at(ents, k)
        if e is not None and e.label_ == EntityType.METRIC.value and k < first:
            metric = metric or e.id_
            confidence = max(confidence, 0.75)
        if gain and benchmark is not None:
            confidence = 0.7
        if metric is None and benchmark is None and previous_metric and (
            model is not None or prev in {"versus", "vs", "vs.", "than", "while", "against"}
        ):
            # "94.7% average recovery, versus 80.9% for MOPD": the same measure, another system
            metric, confidence = previous_metric, 0.6
        if benchmark is None and metric is None:
            return None
        if model is None:
            model, baseline = self._model_before(doc, sent, ents, first, main)
        if not gain:
            baseline = None
        return ResultSpan(v.value, v.unit or ("points" if gain else None), start_char, end_char,
                          sent.start_char, sent.end_char, model, benchmark, metric, baseline, round(confidence, 3))

    @staticmethod
    def _model_before(doc: Doc, sent: Span, ents: list[Span], first: int, main: Span | None):
        """The system the value belongs to, and the baseline it was compared with."""
        systems = [e for e in ents if e.label_ in _SYSTEMS and e.end <= first]
        baseline = None
        subject = None
        for e in systems:
            if e._.role is Role.COMPARES_WITH:
                baseline = baseline or e.id_
                continue
            if e._.role in (Role.INTRODUCES,) or e.label_ == EntityType.MODEL.value:
                subject = e
            elif subject is None and e.start == sent.start:
                subject = e
        if subject is None and systems and systems[0].start <= sent.start + 1 and systems[0]._.role is not Role.COMPARES_WITH:
            subject = systems[0]
        if subject is None:
            subject = main
        return (subject.id_ if subject is not None else None), baseline


@Language.factory("scholarkg_results")
def make_results(nlp: Language, name: str) -> ResultFinder:
    return ResultFinder()
