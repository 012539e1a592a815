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
from typing import NamedTuple

from spacy.tokens import Doc, Span

from ..model import EntityType
from .cues import FUNCTION_WORDS, head_type, suffix_type
from .doctext import info
from .figure_words import COUNT_NOUNS, COUNTED_PLURALS, SCORING_VERBS
from .gazetteer import load_gazetteer
from .modelnames import VERSIONED, variant_base
from .names import singular

__all__ = ["infer_type", "long_form_type", "Phrase"]


class Phrase(NamedTuple):
    """Token range and text of a phrase (a ``Span`` has the same three attributes)."""

    start: int
    end: int
    text: str

_SIZED = re.compile(r"[A-Za-z].*-\d+(?:\.\d+)?[BM]$")

_NAMING = frozenset({"named", "called", "dubbed", "termed", "coined", "namely", ",", ":", "(", "-", "\u2014"})
_APPOS_START = frozenset({",", ":", "\u2014", "-", "is", "as", "was", "being"})
_DETERMINERS = frozenset({"a", "an", "the", "our", "this", "its", "their", "another", "new"})
_EVAL_WORDS = frozenset(
    "evaluate evaluated evaluates evaluating evaluation experiments experiment results benchmarks "
    "benchmark achieve achieves achieved achieving score scores accuracy performance test tested "
    "testing outperform outperforms improve improves improved improving gains reaches reach scores obtains "
    "beats measure measured state-of-the-art sota art attains attain attained".split()
)
_TRAIN_WORDS = frozenset("""trained train training pre-trained pretrained pretraining pre-training fine-tuned finetuned
    fine-tuning learned collected sampled drawn images sentences examples samples videos documents
    annotated -trained -tuned""".split())
_TUNED = frozenset("""fine-tune fine-tuned fine-tunes finetune finetuned finetunes""".split())
_DATA_VERBS = frozenset("""contains contain containing consists consisting comprises comprising""".split())
_SYSTEM_VERBS = frozenset("""outperforms outperformed achieves achieved attains learns predicts generates
    produces surpasses beats improves reduces exploits leverages adapts employs combines encodes
    decodes""".split())
_SPLIT_WORDS = frozenset({"test", "training", "train", "validation", "val", "dev", "development", "evaluation",
                          "testing", "held-out"})
_SPLITS = frozenset({"set", "split", "subset", "partition", "portion"})
_DATA_HEADS = frozenset({EntityType.DATASET, EntityType.BENCHMARK})
# Kinds of signal, not data sets: "RGB-D data", "LiDAR data".
_MODALITIES = frozenset("rgb rgb-d rgbd lidar gps imu mri fmri ct pet sar eeg ecg emg radar sonar depth ir nir".split())
_COMPARE_LEFT = frozenset({"outperforms", "outperform", "outperforming", "than", "over", "versus", "vs.", "vs",
                           "surpasses", "surpassing", "surpass", "surpassed", "beats", "beating", "exceeds",
                           "exceeding", "exceed", "outperformed", "baselines", "baseline"})


def _skip_close(words: list[str], i: int) -> int:
    """Index after a closing bracket that ends a definition: "(CHAIN) benchmark"."""
    while i < len(words) and words[i] in {")", "]", "}"}:
        i += 1
    return i


def _punct(word: str) -> bool:
    return not any(c.isalnum() for c in word)


def _number(word: str) -> bool:
    return word.replace(".", "", 1).replace(",", "").isdigit()


def right_head(doc: Doc, span: Span) -> EntityType | None:
    """ "the CHAIN benchmark", "the CUHK03 test set", "the IJB-B face recognition dataset"."""
    view = info(doc)
    words, lower = view.words, view.lower
    i = _skip_close(words, span.end)
    if i < len(words) and view.sent_of[i] == view.sent_of[span.start]:
        word = words[i]
        if (lower[i] == "data" or (lower[i] in _SPLIT_WORDS and lower[i + 1:i + 2] == ["data"])) \
                and span.text.lower() not in _MODALITIES and not (len(span.text) <= 2 and span.text.isupper()):
            return EntityType.DATASET  # "the GENIA data", "FBIS training data"; not "CO data" (a molecule)
        t = head_type(word)
        if t is EntityType.METRIC and lower[i].endswith("s") and i + 1 < len(lower) and lower[i + 1][:1].isdigit():
            t = None  # "PolyTag scores 90.7 on X": a verb, not a head
        if t is not None and (word[:1].islower() or word.istitle()):
            return t
        if lower[i] in _SPLIT_WORDS and i + 1 < len(words) and singular(lower[i + 1]) in _SPLITS:
            return EntityType.DATASET
        # a name in front of a term phrase that ends in a data head: "IJB-B face recognition dataset"
        for k in range(i, min(i + 4, view.sent_bounds(span.start)[1])):
            if not words[k][:1].islower() or lower[k] in FUNCTION_WORDS:
                break
            if k > i and head_type(words[k]) in _DATA_HEADS:
                return head_type(words[k])
    return None


_APPOS_SKIP = frozenset({"designed", "intended", "built", "introduced", "used", "proposed", "developed",
                         "presented", "released", "conceived", "as", "is", "was", "serves", "acts"})
_BLOCK = frozenset({"that", "which", "who", "for", "to", "with", "on", "of", "in", "by", "from", "and", "or"})


def apposition(doc: Doc, span: Span) -> EntityType | None:
    """ "X, a benchmark ...", "X: a reasoning framework", "X is designed as a living benchmark"."""
    view = info(doc)
    words, lower = view.words, view.lower
    n = len(words)
    i = _skip_close(words, span.end)
    if i >= n or lower[i] not in _APPOS_START:
        return None
    j = i + 1 if words[i] in {",", ":", "\u2014", "-"} else i
    steps = 0
    while j < n and lower[j] in _APPOS_SKIP and steps < 3:
        j += 1
        steps += 1
    if j >= n or lower[j] not in _DETERMINERS:
        return None
    j += 1
    stop = min(n, j + 5, view.sent_bounds(span.start)[1])
    while j < stop:
        word = words[j]
        if _punct(word) or lower[j] in _BLOCK:
            return None
        t = head_type(word)
        if t is not None:
            return t
        j += 1
    return None


def left_head(doc: Doc, span: Span, window: int = 4) -> EntityType | None:
    """ "an agentic workflow, EvidenceLoop", "a model named AgentFounder", "a corpus of tweets, called X"."""
    view = info(doc)
    words, lower = view.words, view.lower
    sent_start = view.sent_bounds(span.start)[0]
    j = span.start - 1
    while j >= sent_start and lower[j] in _NAMING:
        j -= 1
    if j < sent_start:
        return None
    t = head_type(words[j])
    comma = next((k for k in range(j + 1, span.start) if lower[k] == ","), None)
    if t is None and comma is not None and lower[span.start - 1] in {"called", "named", "dubbed", "termed"}:
        return _named_phrase_head(view, comma, sent_start)  # "a new corpus of 10k tweets, called X"
    if t is None or not words[j][:1].islower():
        return None
    # the head noun must open a noun phrase: "a/an/the/our [modifiers] HEAD"
    k = j - 1
    steps = 0
    while k >= sent_start and steps < window:
        if lower[k] in _DETERMINERS:
            return t
        if _punct(words[k]) or lower[k] in _BLOCK or _number(words[k]):
            return None
        k -= 1
        steps += 1
    return None


_PHRASE_ENDS = frozenset({"of", "for", "with", "that", "which", "on", "in", "from", "to", "by", "where"})


def _named_phrase_head(view, comma: int, sent_start: int) -> EntityType | None:
    """The type of the noun phrase a ", called X" names: the head before its first preposition
    ("a new corpus of 10k annotated tweets for hate speech detection, called X": a dataset)."""
    words, lower = view.words, view.lower
    k = comma - 1
    while k >= sent_start and comma - k <= 14 and lower[k] not in _DETERMINERS:
        k -= 1
    if k < sent_start or lower[k] not in _DETERMINERS:
        return None
    end = k + 1
    while end < comma and lower[end] not in _PHRASE_ENDS and not _punct(words[end]):
        end += 1
    return head_type(words[end - 1]) if end - 1 > k and words[end - 1][:1].islower() else None



# What comes before a measure named with its figure ("a median GDT-TS of 87.5"); a figure after
# "of" followed by what it counts is no measure ("a corpus of 10,000 sentences").
_MEASURE_LEFT = frozenset({"a", "an", "the", "its", "our", "their", "median", "mean", "average", "best", "top",
                           "overall", "final", "macro", "micro"})
_COUNTED = COUNT_NOUNS | COUNTED_PLURALS


def _task_noun(word: str) -> bool:
    """Whether ``word`` heads a task term ("forecasting", "classification")."""
    from .components.terms import TERM_HEADS  # here: the components import this module

    return TERM_HEADS.get(singular(word)) is EntityType.TASK


def frame_type(doc: Doc, span: Span) -> EntityType | None:
    """The verb frame around a name: what it is compared with, trained on, evaluated on, what it
    does ("outperforms X", "trained on X", "results on X", "X achieves", "X contains")."""
    view = info(doc)
    lower = view.lower
    sent_start, sent_end = view.sent_bounds(span.start)
    prev = lower[span.start - 1] if span.start > sent_start else ""
    if prev in _COMPARE_LEFT:
        return EntityType.METHOD
    verb, tuned = span.start - 1, prev  # "fine-tuned", or "fine" "-tuned" as the tokenizer splits it
    if prev in {"-tune", "-tuned", "-tunes"} and verb - 1 >= sent_start and lower[verb - 1] == "fine":
        verb, tuned = verb - 1, "fine" + prev
    if tuned in _TUNED and (verb - 1 < sent_start or lower[verb - 1] in {"we", "then", "and", "also", ","}):
        return EntityType.MODEL  # "we fine-tuned ESM-2 on ...": what is fine-tuned is a trained model
    nxt = lower[span.end] if span.end < sent_end else ""
    if nxt in _DATA_VERBS and (nxt not in {"consists", "consisting"} or lower[span.end + 1 : span.end + 2] == ["of"]):
        return EntityType.DATASET  # "X contains 10k images", "X consists of ..."
    subject = span.start == sent_start or lower[span.start - 1] in {"the", ",", "and", "our", "(", ":"}
    if subject and nxt in _SYSTEM_VERBS:
        return EntityType.METHOD  # "X outperforms ...", "X learns ...": a system does things
    if subject and nxt in SCORING_VERBS and span.end + 1 < sent_end and _number(view.words[span.end + 1]):
        return EntityType.METHOD  # "X scores 68.3 on ...", "X reaches 91.2%": what is scored is a system
    if prev in {"on", "from"} and span.start - 2 >= sent_start:
        before = lower[span.start - 2]
        if before in _TRAIN_WORDS or (before in {"the", "a"} and span.start - 3 >= sent_start
                                      and lower[span.start - 3] in _TRAIN_WORDS):
            return EntityType.DATASET  # "trained on X", "pre-trained on the X", "images from X"
    if prev == "for" and span.start - 2 >= sent_start:
        before = view.words[span.start - 2]
        if before.endswith("%") or _number(before) or before in {"dB", "ms", "points", "pp", "FPS"}:
            return EntityType.METHOD  # "..., versus 80.9% for MOPD"
    if prev in {"on", "across"}:
        if set(lower[sent_start : span.start]) & _EVAL_WORDS:
            return EntityType.BENCHMARK
        if span.start - 2 >= sent_start and (_number(lower[span.start - 2]) or lower[span.start - 2] == "%"):
            return EntityType.BENCHMARK  # "85.3% on LIBERO": what a figure is on
        if span.start - 2 >= sent_start and _task_noun(lower[span.start - 2]):
            return EntityType.BENCHMARK  # "forecasting on ETTh1", "classification on FooSet": data a task is run on
        if span.start - 1 == sent_start and any(_number(w) for w in view.words[span.end : sent_end]):
            return EntityType.BENCHMARK  # "On CASP14 targets, X reaches 87.5": what the figures are on
    if nxt == "of" and span.end + 1 < sent_end and _number(view.words[span.end + 1]) and (
            prev in _MEASURE_LEFT) and (span.end + 2 >= sent_end or lower[span.end + 2] not in _COUNTED):
        return EntityType.METRIC  # "a median GDT-TS of 87.5", "an F1 of 90.1"
    return None


def long_form_type(text: str) -> EntityType | None:
    """Type suggested by the last word of a long form: "Agents' Last Exam" -> Benchmark."""
    words = [w for w in text.replace("-", " ").split() if w[:1].isalpha()]
    if not words:
        return None
    t = head_type(words[-1])
    if t is None and "of" in words[1:]:
        t = head_type(words[words.index("of", 1) - 1])  # "Quarterly Census of Employment and Wages"
    return t


def infer_type(doc: Doc, span: Span, *, long_form: Span | None = None) -> tuple[EntityType, float] | None:
    """Best type evidence for ``span`` (a name or a short form), or None."""
    anchor = span
    if long_form is not None and long_form.end <= span.start:
        anchor = Phrase(long_form.start, span.end, "")
    for rule, confidence in ((right_head, 0.85), (apposition, 0.85), (left_head, 0.8)):
        t = rule(doc, anchor)
        if t is not None:
            return t, confidence
    if long_form is not None:
        t = long_form_type(long_form.text)
        if t is None and " " not in long_form.text.strip():
            t = suffix_type(long_form.text)  # a coined long form: "FacePoseNet (FPN)"
        if t is not None:
            return t, 0.75
    family = variant_base(span.text)
    # of a strong variant only: "MT09" is a test set, not the task "MT"
    entry = load_gazetteer().lookup(family[0]) if family is not None and family[1] else None
    if entry is not None:
        return entry.type, 0.7  # "ImageNet-5K" is data like ImageNet, whatever "Net" suggests
    if _SIZED.search(span.text):
        base_type = suffix_type(family[0]) if family is not None else None
        # "FooData-300M" counts examples; "FooLM-7B" parameters
        return (base_type if base_type in (EntityType.DATASET, EntityType.BENCHMARK) else EntityType.MODEL), 0.7
    t = suffix_type(span.text)
    if t is not None:
        return t, 0.7
    if long_form is None and span.text.lower() not in FUNCTION_WORDS:
        t = frame_type(doc, span)
        if t is EntityType.METHOD and VERSIONED.search(span.text):
            t = EntityType.MODEL  # "compared to Mirothinker-v1.0": a released version is a model
        if t is not None:
            return t, 0.6
    return None
