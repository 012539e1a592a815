"""Merge every source of names into typed, canonical, non-overlapping entity mentions.

Sources, strongest first: abbreviation definitions (long form and short form), the gazetteer,
model names, coined names typed by their context, then the statistical tagger (``doc.spans
["ner"]``, if the pipeline has one). Longer spans win over the spans inside them; a short form
used later in the text gets the entity of its definition; a coined name typed once keeps that
type wherever it appears again.

Writes ``doc.spans["entities"]``: label = type, ``span.id_`` = canonical label, with
``span._.aliases``, ``span._.confidence``, ``span._.source``, ``span._.parent``,
``span._.derived_from`` and ``span._.title_subject``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType
from ..gazetteer import load_gazetteer
from ..modelnames import parse_model_name
from ..names import canonical_key, is_acronym
from ..typing_rules import infer_type

__all__ = ["EntityMerger", "SPANS_KEY", "EXTENSIONS"]

SPANS_KEY = "entities"
EXTENSIONS = {
    "aliases": (),
    "confidence": 0.5,
    "source": "",
    "parent": None,
    "derived_from": None,
    "title_subject": False,
    "about": False,
    "role": None,
    "role_confidence": 0.5,
}
_PRIORITY = {"abbreviation": 4, "gazetteer": 3, "model": 3, "name": 2, "title": 2, "ner": 1, "term": 1}
_TEX = re.compile(r"\\[A-Za-z]+\{|[{}]")
_VARIANT_TAIL = re.compile(r"^(?P<base>.+?)-(?P<size>\d+(?:\.\d+)?[BMKbmk])$")


def _generic(label: str) -> bool:
    """A lower-case concept ("in-context learning") rather than a name ("GRPO")."""
    return label == label.lower()


@dataclass
class _Cand:
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

    @property
    def length(self) -> int:
        return self.end - self.start


def clean_label(text: str) -> str:
    """A label without TeX wrappers or doubled spaces: ``"\\emph{Search More}"`` -> ``"Search More"``."""
    return " ".join(_TEX.sub("", text).split())


class EntityMerger:
    def __init__(self):
        self.gazetteer = load_gazetteer()
        for name, default in EXTENSIONS.items():
            if not Span.has_extension(name):
                Span.set_extension(name, default=default)

    # -- sources -------------------------------------------------------------------------
    def _from_abbreviations(self, doc: Doc) -> tuple[list[_Cand], dict[str, _Cand]]:
        out: list[_Cand] = []
        defined: dict[str, _Cand] = {}
        for short in doc._.abbreviations or ():
            long = short._.long_form
            if long is None or short.text in defined or not (long.end <= short.start or short.end <= long.start):
                continue
            if long.end > short.start and long.start < short.end:
                continue
            # The text's own definition decides: "Agents' Last Exam (ALE)" is not the gazetteer's
            # "Arcade Learning Environment (ALE)". The gazetteer is used when the long form is known.
            long_label = clean_label(long.text)
            entry = self.gazetteer.lookup(long_label)
            if entry is not None:
                type_, conf, label = entry.type, 0.9, entry.canonical
                aliases = tuple(dict.fromkeys(a for a in (long_label, short.text) if a != label))
            else:
                typed = infer_type(doc, short, long_form=long)
                if typed is None:
                    continue
                type_, conf = typed
                label = long_label
                aliases = (short.text,)
            for span, is_long in ((long, True), (short, False)):
                cand = _Cand(span.start, span.end, type_, label, "abbreviation", conf, aliases,
                             gazetteer=entry is not None)
                out.append(cand)
            defined[short.text] = out[-1]
        return out, defined

    def _from_gazetteer(self, doc: Doc) -> list[_Cand]:
        out = []
        for span in doc.spans.get("gazetteer", []):
            entry = self.gazetteer.lookup(span.id_) if span.id_ else None
            aliases = entry.aliases if entry is not None else ()
            single_generic = len(span) == 1 and span.text.islower()
            conf = 0.7 if single_generic else 0.9
            out.append(_Cand(span.start, span.end, EntityType(span.label_), span.id_ or span.text,
                             "gazetteer", conf, tuple(aliases), gazetteer=True))
        return out

    def _from_models(self, doc: Doc) -> list[_Cand]:
        out = []
        for span in doc.spans.get("models", []):
            parsed = span._.model_name
            label = parsed.label if parsed else span.text
            out.append(_Cand(span.start, span.end, EntityType.MODEL, label, "model", 0.9,
                             parent=parsed.parent if parsed else None, gazetteer=True))
        return out

    def _from_names(self, doc: Doc) -> list[_Cand]:
        out = []
        for span in doc.spans.get("candidates", []):
            title = span.label_ == "TITLE"
            text = clean_label(span.text)
            entry = self.gazetteer.lookup(text)
            if entry is not None:
                out.append(_Cand(span.start, span.end, entry.type, entry.canonical, "gazetteer", 0.85,
                                 entry.aliases, title_subject=title, gazetteer=True))
                continue
            typed = infer_type(doc, span)
            cand = _Cand(span.start, span.end, typed[0] if typed else None, text,
                         "title" if title else "name", typed[1] if typed else 0.5, title_subject=title)
            out.append(cand)
        return out

    def _from_terms(self, doc: Doc) -> list[_Cand]:
        out = []
        for span in doc.spans.get("terms", []):
            text = clean_label(span.text)
            entry = self.gazetteer.lookup(text)
            if entry is not None:
                out.append(_Cand(span.start, span.end, entry.type, entry.canonical, "gazetteer", 0.8,
                                 entry.aliases, gazetteer=True))
                continue
            label = text if any(c.isupper() for c in text[1:]) else text.lower() if text[:1].isupper() and text[1:2].islower() else text
            conf = span._.confidence if span.has_extension("confidence") and span._.confidence != 0.5 else 0.5
            out.append(_Cand(span.start, span.end, EntityType(span.label_), label, "term", conf))
        return out

    def _from_ner(self, doc: Doc) -> list[_Cand]:
        out = []
        spans = list(doc.spans.get("ner", [])) or list(doc.ents)
        for span in spans:
            try:
                type_ = EntityType(span.label_)
            except ValueError:
                continue
            entry = self.gazetteer.lookup(span.text)
            if entry is not None:
                out.append(_Cand(span.start, span.end, entry.type, entry.canonical, "gazetteer", 0.85,
                                 entry.aliases, gazetteer=True))
                continue
            out.append(_Cand(span.start, span.end, type_, clean_label(span.text), "ner", 0.55))
        return out

    # -- merging -------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        abbr, defined = self._from_abbreviations(doc)
        cands = abbr + self._from_gazetteer(doc) + self._from_models(doc) + self._from_names(doc) + self._from_ner(doc)
        cands += self._from_terms(doc)
        title_end = doc._.title_end
        cands = [c for c in cands if not (doc[c.start].idx < title_end <= doc[c.end - 1].idx)]
        self._apply_definitions(doc, cands, defined)
        self._type_title_subject(doc, cands)
        self._vote_types(doc, cands)
        chosen = self._select(doc, [c for c in cands if c.type is not None])
        chosen += self._other_occurrences(doc, chosen, defined)
        self._mark_title_subject(doc, chosen)
        self._link_variants(doc, chosen)
        chosen.sort(key=lambda c: c.start)
        doc.spans[SPANS_KEY] = [Span(doc, c.start, c.end, label=c.type.value, span_id=c.label) for c in chosen]
        for c, span in zip(chosen, doc.spans[SPANS_KEY]):
            span._.aliases = tuple(a for a in dict.fromkeys(c.aliases) if a != c.label)
            span._.confidence = round(c.confidence, 3)
            span._.source = c.source
            span._.parent = c.parent
            span._.derived_from = c.derived_from
            span._.title_subject = c.title_subject
            span._.about = bool(c.extra.get("about"))
        return doc

    @staticmethod
    def _apply_definitions(doc: Doc, cands: list[_Cand], defined: dict[str, _Cand]) -> None:
        """A short form defined in this text means what the text says, wherever it appears."""
        if not defined:
            return
        for c in cands:
            if c.source == "abbreviation":
                continue
            ref = defined.get(doc[c.start : c.end].text)
            if ref is not None:
                c.type, c.label, c.aliases, c.gazetteer = ref.type, ref.label, ref.aliases, ref.gazetteer
                c.source, c.confidence = "abbreviation", ref.confidence

    @staticmethod
    def _vote_types(doc: Doc, cands: list[_Cand]) -> None:
        """One type per coined name in a text: the best-supported one; untyped uses inherit it."""
        votes: dict[str, dict[EntityType, float]] = {}
        for c in cands:
            if c.type is not None and c.source in {"name", "title"}:
                key = canonical_key(doc[c.start : c.end].text)
                votes.setdefault(key, {}).setdefault(c.type, 0.0)
                votes[key][c.type] += c.confidence
        known: dict[str, _Cand] = {}
        for c in cands:
            if c.type is not None and c.source in {"abbreviation", "gazetteer", "model"}:
                known.setdefault(canonical_key(doc[c.start : c.end].text), c)
        for c in cands:
            key = canonical_key(doc[c.start : c.end].text)
            if c.source in {"name", "title"} and key in votes:
                best = max(sorted(votes[key].items(), key=lambda kv: kv[0].value), key=lambda kv: kv[1])
                if c.type is None:
                    c.confidence = max(c.confidence, min(0.8, best[1]) - 0.05)
                c.type = best[0]
            if c.type is None and key in known:
                ref = known[key]
                c.type, c.label, c.aliases = ref.type, ref.label, ref.aliases
                c.confidence = max(c.confidence, ref.confidence - 0.05)

    @staticmethod
    def _other_occurrences(doc: Doc, chosen: list[_Cand], defined: dict[str, _Cand]) -> list[_Cand]:
        """Further uses of a chosen name (or a defined short form) that no source marked."""
        taken = {i for c in chosen for i in range(c.start, c.end)}
        texts: dict[str, _Cand] = {}
        for c in chosen:
            if c.source in {"term", "ner"}:
                continue
            text = doc[c.start : c.end].text
            if any(ch.isupper() for ch in text) and len(text) >= 2:
                texts.setdefault(text, c)
        for short, ref in defined.items():
            texts.setdefault(short, ref)
        extra: list[_Cand] = []
        full = doc.text
        for text, ref in texts.items():
            pos = full.find(text)
            while pos >= 0:
                span = doc.char_span(pos, pos + len(text))
                if span is not None and not any(i in taken for i in range(span.start, span.end)):
                    extra.append(_Cand(span.start, span.end, ref.type, ref.label, ref.source,
                                       max(0.5, ref.confidence - 0.05), ref.aliases, parent=ref.parent,
                                       derived_from=ref.derived_from, gazetteer=ref.gazetteer))
                    taken.update(range(span.start, span.end))
                pos = full.find(text, pos + len(text))
        return extra

    @staticmethod
    def _mark_title_subject(doc: Doc, chosen: list[_Cand]) -> None:
        """The name a title is about: "NAME: subtitle", or a title that is only a name."""
        title_end = doc._.title_end
        subject = next((s for s in doc.spans.get("candidates", []) if s.label_ == "TITLE"), None)
        in_title = [c for c in chosen if doc[c.start].idx < title_end]
        for c in in_title:
            whole = doc[c.start].idx == 0 and doc[c.end - 1].idx + len(doc[c.end - 1]) == title_end
            if whole or (subject is not None and (c.start, c.end) == (subject.start, subject.end)):
                c.title_subject = True
        keys = {canonical_key(c.label) for c in in_title if c.title_subject}
        for c in chosen:
            if canonical_key(c.label) in keys and not _generic(c.label):
                c.title_subject = c.title_subject or doc[c.start].idx < title_end
                c.extra["about"] = True

    def _type_title_subject(self, doc: Doc, cands: list[_Cand]) -> None:
        for c in cands:
            if not c.title_subject or c.type is not None:
                continue
            # the abstract's own description of the name decides ("We introduce HarnessDev, a benchmark")
            key = canonical_key(doc[c.start : c.end].text)
            for other in cands:
                if other is not c and other.type is not None and canonical_key(doc[other.start : other.end].text) == key:
                    c.type, c.confidence = other.type, other.confidence
                    break
            if c.type is None:
                c.type, c.confidence = EntityType.METHOD, 0.6

    @staticmethod
    def _select(doc: Doc, cands: list[_Cand]) -> list[_Cand]:
        """Names first, longest first, without overlaps; then terms that do not cut across them.

        A term may contain a name ("pretrained ResNet models" around "ResNet"): the paper names
        both, so both are kept.
        """
        weak = {"ner", "term"}
        order = sorted(cands, key=lambda c: (c.source in weak, -c.length, -_PRIORITY.get(c.source, 0), c.start))
        taken: set[int] = set()
        chosen: list[_Cand] = []
        spans: list[tuple[int, int]] = []
        for c in order:
            if c.source not in weak:
                if any(i in taken for i in range(c.start, c.end)):
                    continue
                chosen.append(c)
                taken.update(range(c.start, c.end))
                spans.append((c.start, c.end))
                continue
            ok = True
            for s, e in spans:
                if c.start < e and s < c.end:  # overlap
                    if (c.start, c.end) == (s, e) or (s <= c.start and c.end <= e) or not (c.start <= s and e <= c.end):
                        ok = False
                        break
            if ok:
                chosen.append(c)
                spans.append((c.start, c.end))
        return chosen

    def _link_variants(self, doc: Doc, chosen: list[_Cand]) -> None:
        """Fill ``parent`` (model families) and ``derived_from`` (methods built on another)."""
        by_key: dict[str, _Cand] = {}
        for c in chosen:
            by_key.setdefault(canonical_key(c.label), c)
            for a in c.aliases:
                by_key.setdefault(canonical_key(a), c)
        for c in chosen:
            if c.gazetteer:
                continue
            names = [c.label, *c.aliases]
            if c.type is EntityType.MODEL and c.parent is None:
                for name in names:
                    m = _VARIANT_TAIL.match(name)
                    if m and canonical_key(m.group("base")) in by_key:
                        base = by_key[canonical_key(m.group("base"))]
                        c.parent = base.label
                        parsed = parse_model_name(name, m.group("base"), base.label)
                        c.label = parsed.label
                        break
            if c.derived_from is None and c.type in (EntityType.METHOD, EntityType.MODEL):
                c.derived_from = self._base_of(names, by_key, c)

    def _base_of(self, names: list[str], by_key: dict[str, _Cand], c: _Cand) -> str | None:
        own = canonical_key(c.label)
        for name in names:
            # "E-GRPO" -> "GRPO", "P$^2$-MOPD" -> "MOPD"
            if "-" in name and is_acronym(name.rsplit("-", 1)[-1]):
                tail = name.rsplit("-", 1)[-1]
                ref = by_key.get(canonical_key(tail))
                if ref is not None and ref is not c and canonical_key(ref.label) != own:
                    return ref.label
                entry = self.gazetteer.lookup(tail)
                if entry is not None and entry.type in (EntityType.METHOD, EntityType.MODEL):
                    return entry.canonical
        for name in names:
            # "Entity-aware Group Relative Policy Optimization" ends with a known method
            words = name.split()
            for k in range(1, len(words)):
                tail = " ".join(words[k:])
                if len(tail) < 4:
                    continue
                entry = self.gazetteer.lookup(tail)
                if entry is not None and entry.type in (EntityType.METHOD,) and canonical_key(entry.canonical) != own:
                    return entry.canonical
                ref = by_key.get(canonical_key(tail))
                if ref is not None and ref is not c and ref.type in (EntityType.METHOD, EntityType.MODEL):
                    return ref.label
        return None


@Language.factory("scholarkg_entities")
def make_entities(nlp: Language, name: str) -> EntityMerger:
    return EntityMerger()
