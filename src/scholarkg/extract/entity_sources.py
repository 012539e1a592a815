"""Where entity candidates come from, before the merger chooses among them.

Each source reads what an earlier component found (see :mod:`scholarkg.extract.doctext`) and
returns :class:`Candidate` values: abbreviation definitions, gazetteer names, model names,
coined names typed by their context (or by the trained classifier), term phrases, and the
spans of a statistical tagger when a pipeline has one (``doc.spans["ner"]`` or ``doc.ents``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spacy.tokens import Doc

from ..model import EntityType
from .doctext import LISTED, ROLES_KEY, found, info
from .gazetteer import Gazetteer
from .typing_rules import Phrase, infer_type

__all__ = ["Candidate", "CandidateSources", "clean_label", "PRIORITY"]

TYPES = {t.value: t for t in EntityType}
PRIORITY = {"abbreviation": 4, "gazetteer": 3, "model": 3, "name": 2, "title": 2, "ner": 1, "term": 1}
_TEX = re.compile(r"\\[A-Za-z]+\{|[{}]")
_COINED = re.compile(r".[A-Z]")


def _coined(word: str) -> bool:
    """A word with an inner capital: "FacePoseNet"."""
    return word[:1].isupper() and bool(_COINED.search(word))


@dataclass(slots=True)
class Candidate:
    """A possible entity mention: token range, type (None: not yet known), canonical label."""

    start: int
    end: int
    type: EntityType | None
    label: str
    source: str
    confidence: float
    aliases: tuple[str, ...] = ()
    parent: str | None = None
    derived_from: str | None = None
    title_subject: bool = False
    gazetteer: bool = False
    extra: dict = field(default_factory=dict)
    text: str = ""
    key: str = ""

    @property
    def length(self) -> int:
        return self.end - self.start


def _text(doc: Doc, start: int, end: int) -> str:
    view = info(doc)
    return view.text[view.idx[start] : view.end_char(end - 1)]


def _title_cased(text: str) -> bool:
    """Every word capitalised and nothing else in capitals: how a title writes a plain phrase
    ("Long-Horizon Agentic Search"), unlike a name with an acronym or inner capitals ("BERT Layers")."""
    parts = [p for p in re.split(r"[\s\-]+", text) if p]
    return bool(parts) and all(p[:1].isupper() and p[1:] == p[1:].lower() for p in parts)


def clean_label(text: str) -> str:
    """A label without TeX wrappers or doubled spaces: ``"\\emph{Search More}"`` -> ``"Search More"``."""
    if "\\" in text or "{" in text or "}" in text:
        text = _TEX.sub("", text)
    return " ".join(text.split()) if "  " in text or "\n" in text else text


class CandidateSources:
    """The candidate readers, sharing one gazetteer."""

    def __init__(self, gazetteer: Gazetteer):
        self.gazetteer = gazetteer

    def all(self, doc: Doc) -> tuple[list[Candidate], dict[str, Candidate]]:
        """Every candidate, and the short forms this text defines (short form -> candidate)."""
        abbr, defined = self.from_abbreviations(doc)
        cands = abbr + self.from_gazetteer(doc) + self.from_models(doc) + self.from_names(doc)
        cands += self.from_ner(doc) + self.from_terms(doc)
        return cands, defined

    def from_abbreviations(self, doc: Doc) -> tuple[list[Candidate], dict[str, Candidate]]:
        out: list[Candidate] = []
        defined: dict[str, Candidate] = {}
        shorts = doc._.abbreviations or ()
        if not shorts:
            return out, defined
        # a long form nothing else types takes the type of the term phrase it is ("Test case
        # generation (TCG)": a task, as the term finder reads "generation")
        confidence = doc.user_data.get("scholarkg.term_confidence", {})
        terms = {(f.start, f.end): (TYPES[f.label], min(0.75, confidence.get((f.start, f.end), 0.5)))
                 for f in found(doc, "terms")}
        for short in shorts:
            long = short._.long_form
            if long is None or short.text in defined or not (long.end <= short.start or short.end <= long.start):
                continue
            if long.end > short.start and long.start < short.end:
                continue
            # The text's own definition decides: "Agents' Last Exam (ALE)" is not the gazetteer's
            # "Arcade Learning Environment (ALE)". The gazetteer is used when the long form is known.
            long_label = clean_label(long.text)
            entry = self.gazetteer.lookup(long_label)
            if entry is None and not (long.end - long.start == 1 and _coined(long.text)):
                # "BERT, which stands for ...": a name the gazetteer knows by its short form (not when
                # the text defines it by a coined name of its own: "FacePoseNet (FPN)")
                short_entry = self.gazetteer.lookup(short.text)
                if short_entry is not None and short_entry.canonical == short.text and short_entry.type in (
                    EntityType.MODEL, EntityType.DATASET, EntityType.BENCHMARK
                ):
                    entry = short_entry
            if entry is not None:
                type_, conf, label = entry.type, 0.9, entry.canonical
                aliases = tuple(dict.fromkeys(a for a in (long_label, short.text) if a != label))
            else:
                typed = infer_type(doc, short, long_form=long) or terms.get((long.start, long.end))
                if typed is None:
                    continue
                type_, conf = typed
                label, aliases = long_label, (short.text,)
                if "," in long_label:
                    # "Search More, Think Less (SMTL)": a slogan, not a noun phrase; the short form is the name
                    label, aliases = short.text, (long_label,)
            for span, is_long in ((long, True), (short, False)):
                cand = Candidate(span.start, span.end, type_, label, "abbreviation", conf, aliases,
                             gazetteer=entry is not None)
                out.append(cand)
            defined[short.text] = out[-1]
        return out, defined

    def from_gazetteer(self, doc: Doc) -> list[Candidate]:
        out = []
        words = info(doc).words
        for f in found(doc, "gazetteer"):
            entry = self.gazetteer.lookup(f.key)
            aliases = entry.aliases if entry is not None else ()
            single_generic = f.end - f.start == 1 and words[f.start].islower()
            conf = 0.7 if single_generic else 0.9
            out.append(Candidate(f.start, f.end, TYPES[f.label], f.key, "gazetteer", conf, aliases, gazetteer=True))
        return out

    def from_models(self, doc: Doc) -> list[Candidate]:
        out = []
        for f in found(doc, "models"):
            parsed = f.key
            out.append(Candidate(f.start, f.end, EntityType.MODEL, parsed.label, "model", 0.9,
                             parent=parsed.parent, gazetteer=True))
        return out

    def from_names(self, doc: Doc) -> list[Candidate]:
        out = []
        classified = {(s.start, s.end): s for s in found(doc, "classified")}
        # a model name ("GPT-4o") is typed by the model-name reader, which wins its span anyway
        models = {(f.start, f.end) for f in found(doc, "models")}
        for f in found(doc, "candidates"):
            raw = _text(doc, f.start, f.end)
            title = f.label == "TITLE"
            text = clean_label(raw)
            if not title and (f.start, f.end) in models:
                out.append(Candidate(f.start, f.end, None, text, "name", 0.5))
                continue
            span = Phrase(f.start, f.end, raw)
            entry = self.gazetteer.lookup(text)
            if entry is not None:
                out.append(Candidate(span.start, span.end, entry.type, entry.canonical, "gazetteer", 0.85,
                                 entry.aliases, title_subject=title, gazetteer=True))
                continue
            typed = infer_type(doc, span)
            if typed is None and not title:
                learned = classified.get((span.start, span.end))
                if learned is not None:
                    prob = doc.user_data.get("scholarkg.term_confidence", {}).get((span.start, span.end), 0.5)
                    typed = (TYPES[learned.label], min(0.6, prob))
            cand = Candidate(span.start, span.end, typed[0] if typed else None, text,
                         "title" if title else "name", typed[1] if typed else 0.5, title_subject=title)
            if f.label == LISTED:
                cand.extra["listed"] = True  # a name only if the list types it: never kept untyped
            out.append(cand)
        return out

    def from_terms(self, doc: Doc) -> list[Candidate]:
        out = []
        view = info(doc)
        confidence = doc.user_data.get("scholarkg.term_confidence", {})
        roles = doc.user_data.get(ROLES_KEY, {})
        for f in found(doc, "terms"):
            text = clean_label(_text(doc, f.start, f.end))
            # "the viewpoint classification task": the concept is the task, the written form an alias
            end = roles.get((f.start, f.end), f.end)
            written = (clean_label(_text(doc, f.start, end)),) if end != f.end else ()
            entry = self.gazetteer.lookup(text)
            if entry is not None:
                type_ = EntityType.TASK if written and entry.type in (EntityType.TASK, EntityType.METHOD) else entry.type
                out.append(Candidate(f.start, end, type_, entry.canonical, "gazetteer", 0.8,
                                 entry.aliases + written, gazetteer=True))
                continue
            if any(c.isupper() for c in text[1:]) and not (view.idx[f.start] < view.title_end and _title_cased(text)):
                label = text
            else:  # "Semantic parsing" at a sentence start, "Multi-Teacher On-Policy Distillation" in a title
                label = text.lower() if text[:1].isupper() and text[1:2].islower() else text
            conf = confidence.get((f.start, f.end), 0.5)
            out.append(Candidate(f.start, end, TYPES[f.label], label, "term", conf, written))
        return out

    def from_ner(self, doc: Doc) -> list[Candidate]:
        out = []
        spans = list(doc.spans.get("ner", [])) or list(doc.ents)
        for span in spans:
            try:
                type_ = EntityType(span.label_)
            except ValueError:
                continue
            entry = self.gazetteer.lookup(span.text)
            if entry is not None:
                out.append(Candidate(span.start, span.end, entry.type, entry.canonical, "gazetteer", 0.85,
                                 entry.aliases, gazetteer=True))
                continue
            out.append(Candidate(span.start, span.end, type_, clean_label(span.text), "ner", 0.55))
        return out

