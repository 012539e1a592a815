"""Deciding the type of a name from the words around it.

Evidence, strongest first: a head noun right after the name ("the CHAIN benchmark"), an
apposition ("KAIROS, a benchmark that ...", "ECL: a reasoning framework"), a head noun before
it ("a model named AgentFounder", "an agentic workflow, EvidenceLoop"), how the name ends
("EdgeBench"), the head word of a long form ("Agents' Last Exam"), and the verb frame
("evaluated on X" -> benchmark, "outperforms X" -> method).

Each rule returns ``(type, confidence)``; :func:`infer_type` returns the first that applies.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from ..model import EntityType
from .cues import FUNCTION_WORDS, head_type, suffix_type

__all__ = ["infer_type", "long_form_type"]

_SIZED = re.compile(r"[A-Za-z].*-\d+(?:\.\d+)?[BM]$")

_NAMING = frozenset({"named", "called", "dubbed", "termed", "coined", "namely", ",", ":", "(", "-", "\u2014"})
_APPOS_START = frozenset({",", ":", "\u2014", "-", "is", "as", "was", "being"})
_DETERMINERS = frozenset({"a", "an", "the", "our", "this", "its", "their", "another", "new"})
_EVAL_WORDS = frozenset(
    "evaluate evaluated evaluates evaluating evaluation experiments experiment results benchmarks "
    "benchmark achieve achieves achieved achieving score scores accuracy performance test tested "
    "testing outperform outperforms".split()
)
_COMPARE_LEFT = frozenset({"outperforms", "outperform", "outperforming", "than", "over", "versus", "vs.", "vs",
                           "surpasses", "surpassing", "beats", "baselines", "baseline"})


def _skip_close(doc: Doc, i: int) -> int:
    """Index after a closing bracket that ends a definition: "(CHAIN) benchmark"."""
    while i < len(doc) and doc[i].text in {")", "]", "}"}:
        i += 1
    return i


def right_head(doc: Doc, span: Span) -> EntityType | None:
    i = _skip_close(doc, span.end)
    if i < len(doc) and doc[i].sent == span.sent:
        t = head_type(doc[i].text)
        if t is not None and doc[i].text[:1].islower() or (t is not None and doc[i].text.istitle()):
            return t
    return None


_APPOS_SKIP = frozenset({"designed", "intended", "built", "introduced", "used", "proposed", "developed",
                         "presented", "released", "conceived", "as", "is", "was", "serves", "acts"})


def apposition(doc: Doc, span: Span) -> EntityType | None:
    """ "X, a benchmark ...", "X: a reasoning framework", "X is designed as a living benchmark"."""
    i = _skip_close(doc, span.end)
    if i >= len(doc) or doc[i].text not in _APPOS_START:
        return None
    j = i + 1 if doc[i].text in {",", ":", "\u2014", "-"} else i
    # "is designed as a ..." / "serves as a ..."
    steps = 0
    while j < len(doc) and doc[j].text.lower() in _APPOS_SKIP and steps < 3:
        j += 1
        steps += 1
    if j >= len(doc) or doc[j].text.lower() not in _DETERMINERS:
        return None
    j += 1
    stop = min(len(doc), j + 5)
    while j < stop:
        tok = doc[j]
        if tok.is_sent_start or tok.is_punct or tok.text.lower() in _BLOCK:
            return None
        t = head_type(tok.text)
        if t is not None:
            return t
        j += 1
    return None


_BLOCK = frozenset({"that", "which", "who", "for", "to", "with", "on", "of", "in", "by", "from", "and", "or"})


def left_head(doc: Doc, span: Span, window: int = 4) -> EntityType | None:
    """ "an agentic workflow, EvidenceLoop", "a model named AgentFounder", "the KAIROS"."""
    j = span.start - 1
    while j >= span.sent.start and doc[j].text.lower() in _NAMING:
        j -= 1
    if j < span.sent.start:
        return None
    t = head_type(doc[j].text)
    if t is None or not doc[j].text[:1].islower():
        return None
    # the head noun must open a noun phrase: "a/an/the/our [modifiers] HEAD"
    k = j - 1
    steps = 0
    while k >= span.sent.start and steps < 4:
        low = doc[k].text.lower()
        if low in _DETERMINERS:
            return t
        if doc[k].is_punct or low in _BLOCK or doc[k].like_num:
            return None
        k -= 1
        steps += 1
    return None


def frame_type(doc: Doc, span: Span) -> EntityType | None:
    prev = doc[span.start - 1].text.lower() if span.start > span.sent.start else ""
    if prev in _COMPARE_LEFT:
        return EntityType.METHOD
    if prev == "for" and span.start - 2 >= span.sent.start:
        before = doc[span.start - 2].text
        if before.endswith("%") or doc[span.start - 2].like_num:
            return EntityType.METHOD  # "..., versus 80.9% for MOPD"
    if prev in {"on", "across"}:
        words = {t.text.lower() for t in doc[span.sent.start : span.start]}
        if words & _EVAL_WORDS:
            return EntityType.BENCHMARK
    return None


def long_form_type(text: str) -> EntityType | None:
    """Type suggested by the last word of a long form: "Agents' Last Exam" -> Benchmark."""
    words = [w for w in text.replace("-", " ").split() if w[:1].isalpha()]
    if not words:
        return None
    return head_type(words[-1])


def infer_type(doc: Doc, span: Span, *, long_form: Span | None = None) -> tuple[EntityType, float] | None:
    """Best type evidence for ``span`` (a name or a short form), or None."""
    anchor = span
    if long_form is not None and long_form.end <= span.start:
        anchor = doc[long_form.start : span.end]
    for rule, confidence in ((right_head, 0.85), (apposition, 0.85), (left_head, 0.8)):
        t = rule(doc, anchor)
        if t is not None:
            return t, confidence
    if long_form is not None:
        t = long_form_type(long_form.text)
        if t is not None:
            return t, 0.75
    if _SIZED.search(span.text):
        return EntityType.MODEL, 0.7
    t = suffix_type(span.text)
    if t is not None:
        return t, 0.7
    if long_form is None and span.text.lower() not in FUNCTION_WORDS:
        t = frame_type(doc, span)
        if t is not None:
            return t, 0.6
    return None
