"""Merge every source of names into typed, canonical, non-overlapping entity mentions.

Sources (:mod:`scholarkg.extract.entity_sources`), strongest first: abbreviation definitions
(long form and short form), the gazetteer, model names, coined names typed by their context,
then term phrases kept by the trained classifier. Longer spans win over the spans inside them; a short form
used later in the text gets the entity of its definition; a coined name typed once keeps that
type wherever it appears again.

Writes :class:`EntityRecord` values (read them with :func:`records`). For spaCy users,
:func:`entity_spans` turns them into ``Span`` objects on request: label = type, ``span.id_`` =
canonical label, with read-only ``span._.aliases``, ``confidence``, ``source``, ``parent``,
``derived_from``, ``title_subject``, ``role`` and ``role_confidence``. (Creating a ``Span`` per
mention for every text costs more than the rest of this component's bookkeeping, and the
conversion to an ``Extraction`` reads the records, so spans are only made when asked for.)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...model import EntityType
from ..doctext import found, info
from ..context_types import joined_base, keep_untyped, type_from_family, type_from_lists, type_processes_by_purpose, vote_types
from ..entity_sources import PRIORITY, Candidate, CandidateSources
from ..gazetteer import load_gazetteer
from ..concepts import GENERIC_MODIFIERS, STRICT_GENERIC_HEADS
from ..modelnames import parse_model_name, variant_base
from .terms import GENERIC_HEADS
from ..names import canonical_key, is_acronym, singular

__all__ = ["EntityMerger", "EntityRecord", "records", "entity_spans", "is_generic", "SPANS_KEY", "EXTENSIONS"]

SPANS_KEY = "entities"
RECORDS_KEY = "scholarkg.entities"
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

_DATA_TYPES = frozenset({EntityType.BENCHMARK, EntityType.DATASET})
_SYSTEM_TYPES = frozenset({EntityType.METHOD, EntityType.MODEL})
_VARIANT_WORDS = frozenset({"variant", "extension", "generalization", "generalisation", "modification", "version"})
_VARIANT_TAIL = re.compile(r"^(?P<base>.+?)-(?P<size>\d+(?:\.\d+)?[BMKbmk])$")
_OPENING, _CLOSING = "([{", ")]}"


def balanced(text: str) -> bool:
    """Whether every bracket of ``text`` is closed, in order, by one of its kind. A name
    never leaves one open ("SL₂(ℤ" cut out of a formula, "non-)Abelian" out of "(non-)Abelian"),
    so a span that does is not kept; the spans inside it still may be."""
    if not any(ch in _OPENING or ch in _CLOSING for ch in text):
        return True
    waiting: list[str] = []
    for ch in text:
        if ch in _OPENING:
            waiting.append(_CLOSING[_OPENING.index(ch)])
        elif ch in _CLOSING and (not waiting or waiting.pop() != ch):
            return False
    return not waiting


_RELATIONS = frozenset("=<>≤≥≈≠")
_BOUND = re.compile(r"^[OÕoΘΩ]\(")


def formula(text: str) -> bool:
    """Whether ``text`` is mathematics rather than a name: an equation or inequality
    ("V(ϕ)=V₀+δ", "C_A=4/9") or an asymptotic bound ("Õ(ε^-4)-query", "O(n log n)")."""
    return any(ch in _RELATIONS for ch in text) or bool(_BOUND.match(text))


# What attention is in everyday English: something a thing receives, draws or is paid.
_NOTICE = frozenset("""special particular increasing increased growing considerable much little great greater
    significant substantial wide widespread renewed close careful more less focus focused pay paid pays paying
    draw draws drew drawn attract attracts attracted attracting receive received receives receiving gain gained
    gains gaining garner garnered deserve deserves devote devoted""".split())


def everyday_attention(lower: list[str], start: int, end: int) -> bool:
    """Whether the span ``start:end`` of the lower-cased words ends in "attention" meant as
    notice ("has received increasing attention", "we pay special attention to", "focus attention
    on") rather than the mechanism ("multi-head attention")."""
    if lower[end - 1] != "attention":
        return False
    before = lower[start - 1] if start > 0 else ""
    after = lower[end] if end < len(lower) else ""
    return after == "to" or before in _NOTICE or lower[start] in _NOTICE


_LANGUAGES = frozenset("""english chinese mandarin cantonese german french japanese spanish korean arabic russian hindi
    czech romanian turkish finnish urdu italian portuguese dutch vietnamese estonian latvian lithuanian hungarian
    polish swedish danish norwegian greek hebrew persian farsi indonesian thai bengali tamil telugu nepali sinhala
    kazakh gujarati pashto khmer swahili yoruba zulu malay ukrainian bulgarian croatian serbian slovenian slovak
    icelandic basque catalan galician welsh irish macedonian albanian mongolian burmese tagalog filipino
    en de fr zh ja jp ko ru ar es it pt nl cs ro tr fi et lv lt hu pl sv da no el he fa id th hi bn ta te ne si kk
    gu ps km sw uk bg hr sr sl sk is eu ca gl cy ga mk sq mn my vi ur""".split())
_PAIR = re.compile(r"-to-|\s+to\s+|[-–—→/↔]")


def language_pair(text: str) -> bool:
    """Whether ``text`` names languages only, joined as a translation direction ("Chinese-English",
    "En→De", "Turkish-to-English"): a setting of a task, not a data set or a method (it stays a
    task where the text calls it one: "the Chinese-to-English task")."""
    parts = [p for p in _PAIR.split(text.lower()) if p]
    return len(parts) >= 2 and all(p in _LANGUAGES for p in parts)


def _same_kind(a: EntityType | None, b: EntityType | None) -> bool:
    """Benchmarks and datasets are one kind of thing, models and methods another."""
    groups = ({EntityType.BENCHMARK, EntityType.DATASET}, {EntityType.MODEL, EntityType.METHOD})
    return a == b or any(a in g and b in g for g in groups)


def _generic(label: str) -> bool:
    """A lower-case concept ("in-context learning") rather than a name ("GRPO")."""
    return label == label.lower()


@dataclass(slots=True)
class EntityRecord:
    """One entity mention as the later components and the conversion read it."""

    start: int
    end: int
    start_char: int
    end_char: int
    text: str
    type: EntityType
    label: str
    aliases: tuple[str, ...]
    confidence: float
    source: str
    parent: str | None = None
    derived_from: str | None = None
    title_subject: bool = False
    about: bool = False
    role: object = None
    role_confidence: float = 0.5
    in_title: bool = False


def is_generic(r: EntityRecord) -> bool:
    """A concept ("in-context learning", "a deep network") rather than a name ("GRPO", "the
    Transformer"): a lower-case canonical name written in lower case (a title capitalises
    everything, so there the canonical name alone counts), or a plain phrase."""
    if r.source in {"term", "ner"}:
        return True
    return r.label == r.label.lower() and (r.in_title or r.text == r.text.lower())


def records(doc: Doc) -> list[EntityRecord]:
    """The entity mentions of ``doc`` in text order (empty before ``scholarkg_entities`` ran)."""
    return doc.user_data.get(RECORDS_KEY, [])


def entity_spans(doc: Doc) -> list[Span]:
    """The entity mentions of ``doc`` as spaCy spans (label = type, ``id_`` = canonical label),
    also kept as ``doc.spans["entities"]``."""
    strings = doc.vocab.strings
    spans = [Span(doc, r.start, r.end, label=strings.add(r.type.value), span_id=strings.add(r.label))
             for r in records(doc)]
    doc.spans[SPANS_KEY] = spans
    return spans


def _getter(name: str):
    def get(span: Span):
        for r in span.doc.user_data.get(RECORDS_KEY, ()):
            if r.start == span.start and r.end == span.end:
                return getattr(r, name)
        return EXTENSIONS[name]

    return get


class EntityMerger:
    def __init__(self):
        self.gazetteer = load_gazetteer()
        self.sources = CandidateSources(self.gazetteer)
        # read-only views of the records, for anyone holding a span from entity_spans()
        for name in EXTENSIONS:
            Span.set_extension(name, getter=_getter(name), force=True)

    # -- merging -------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        cands, defined = self.sources.all(doc)
        view = info(doc)
        title_end = view.title_end
        full, idx, words = view.text, view.idx, view.words
        kept = []
        for c in cands:
            first, last = idx[c.start], idx[c.end - 1]
            if first < title_end <= last:
                continue  # across the title break
            c.text = full[first : last + len(words[c.end - 1])]
            c.key = canonical_key(c.text)
            # "$" has no letters or digits; "SL₂(ℤ" leaves a bracket open; "V(ϕ)=V₀" is an equation
            if c.key and canonical_key(c.label) and balanced(c.text) and not formula(c.text) \
                    and not everyday_attention(view.lower, c.start, c.end) \
                    and not (language_pair(c.text) and c.type is not EntityType.TASK):
                kept.append(c)
        cands = kept
        self._apply_definitions(doc, cands, defined)
        self._type_title_subject(doc, cands)
        vote_types(cands)
        type_from_lists(doc, cands)
        type_from_family(cands, self.gazetteer)
        keep_untyped(doc, cands)
        chosen = self._select(doc, [c for c in cands if c.type is not None])
        chosen += self._other_occurrences(doc, chosen, defined)
        type_processes_by_purpose(doc, chosen)
        self._mark_title_subject(doc, chosen)
        self._link_variants(doc, chosen)
        chosen.sort(key=lambda c: (c.start, -c.end))
        out = []
        for c in chosen:
            start_char, end_char = idx[c.start], idx[c.end - 1] + len(words[c.end - 1])
            label = c.label
            aliases = tuple(a for a in dict.fromkeys(c.aliases) if a != label) if c.aliases else ()
            out.append(EntityRecord(
                c.start, c.end, start_char, end_char, full[start_char:end_char], c.type, label,
                aliases, round(c.confidence, 3), c.source,
                c.parent, c.derived_from, c.title_subject, bool(c.extra.get("about")),
                in_title=start_char < title_end,
            ))
        doc.user_data[RECORDS_KEY] = out
        return doc

    @staticmethod
    def _apply_definitions(doc: Doc, cands: list[Candidate], defined: dict[str, Candidate]) -> None:
        """A short form defined in this text means what the text says, wherever it appears."""
        if not defined:
            return
        for c in cands:
            if c.source == "abbreviation":
                continue
            ref = defined.get(c.text)
            if ref is not None:
                c.type, c.label, c.aliases, c.gazetteer = ref.type, ref.label, ref.aliases, ref.gazetteer
                c.source, c.confidence = "abbreviation", ref.confidence

    @staticmethod
    def _other_occurrences(doc: Doc, chosen: list[Candidate], defined: dict[str, Candidate]) -> list[Candidate]:
        """Further uses of a chosen name (or a defined short form) that no source marked."""
        taken = {i for c in chosen for i in range(c.start, c.end)}
        texts: dict[str, Candidate] = {}
        for c in chosen:
            if c.source in {"term", "ner"}:
                continue
            text = c.text
            if text != text.lower() and len(text) >= 2:
                texts.setdefault(text, c)
        for short, ref in defined.items():
            texts.setdefault(short, ref)
        extra: list[Candidate] = []
        view = info(doc)
        full, idx = view.text, view.idx
        n = len(idx)
        for text, ref in texts.items():
            pos = full.find(text)
            while pos >= 0:
                start = bisect_left(idx, pos)
                if start < n and idx[start] == pos:
                    end = start
                    while end < len(view.idx) and view.end_char(end) < pos + len(text):
                        end += 1
                    end += 1
                    if end <= len(view.idx) and view.end_char(end - 1) == pos + len(text) and not any(
                        i in taken for i in range(start, end)
                    ):
                        extra.append(Candidate(start, end, ref.type, ref.label, ref.source,
                                           max(0.5, ref.confidence - 0.05), ref.aliases, parent=ref.parent,
                                           derived_from=ref.derived_from, gazetteer=ref.gazetteer,
                                           text=text, key=canonical_key(text)))
                        taken.update(range(start, end))
                pos = full.find(text, pos + len(text))
        return extra

    @staticmethod
    def _mark_title_subject(doc: Doc, chosen: list[Candidate]) -> None:
        """The name a title is about: "NAME: subtitle", or a title that is only a name."""
        title_end = info(doc).title_end
        subject = next((s for s in found(doc, "candidates") if s.label == "TITLE"), None)
        view = info(doc)
        in_title = [c for c in chosen if view.idx[c.start] < title_end]
        for c in in_title:
            whole = view.idx[c.start] == 0 and view.end_char(c.end - 1) == title_end
            if whole or (subject is not None and (c.start, c.end) == (subject.start, subject.end)):
                c.title_subject = True
        keys = {canonical_key(c.label) for c in in_title if c.title_subject}
        for c in chosen:
            if canonical_key(c.label) in keys and not _generic(c.label):
                c.title_subject = c.title_subject or view.idx[c.start] < title_end
                c.extra["about"] = True

    def _type_title_subject(self, doc: Doc, cands: list[Candidate]) -> None:
        for c in cands:
            if not c.title_subject or c.type is not None:
                continue
            # the abstract's own description of the name decides ("We introduce HarnessDev, a benchmark")
            key = c.key
            for other in cands:
                if other is not c and other.type is not None and other.key == key:
                    c.type, c.confidence = other.type, other.confidence
                    break
            if c.type is None:
                c.type, c.confidence = EntityType.METHOD, 0.6

    @staticmethod
    def _select(doc: Doc, cands: list[Candidate]) -> list[Candidate]:
        """Names first, longest first, without overlaps; then terms that do not cut across them.

        A term may contain a name when it says more than the name: "ResNet feature pyramids" keeps
        both, but "the MMLU benchmark" or "pretrained ResNet models" is the name alone (its other
        words are generic). A dataset is never glued to a task: "SQuAD question answering" is
        SQuAD and "question answering".
        """
        lower = info(doc).lower
        weak = {"ner", "term"}
        taken: dict[tuple[int, int], Candidate] = {}  # span -> the name chosen there
        order = sorted(cands, key=lambda c: (c.source in weak, -(c.end - c.start), -PRIORITY.get(c.source, 0), c.start))
        owner: dict[int, tuple[int, int]] = {}  # token -> the chosen span covering it
        chosen: list[Candidate] = []
        for c in order:
            covered = [owner[i] for i in range(c.start, c.end) if i in owner]
            if c.source not in weak:
                if covered:
                    continue
            elif covered:
                # a term may contain whole names, but never cut one or sit inside one
                if any(s < c.start or e > c.end or (s, e) == (c.start, c.end) for s, e in covered):
                    continue
                names_inside = [taken[s] for s in dict.fromkeys(covered)]
                inside = set().union(*(range(s, e) for s, e in covered))
                rest = [lower[i] for i in range(c.start, c.end) if i not in inside]
                last = taken.get(covered[-1])
                if (not rest and last is not None and last.end == c.end and _generic(last.label)
                        and any(not _generic(n.label) for n in names_inside)):
                    # a name before a known concept: "AMR parsing" says more than AMR and "parsing"
                    rest = [lower[i] for i in range(last.start, last.end)]
                # "named entity recognition systems": a system for a task is a method of its own
                serves_task = c.type in _SYSTEM_TYPES and any(n.type is EntityType.TASK for n in names_inside)
                if names_inside and not serves_task and all(w in GENERIC_MODIFIERS or singular(w) in STRICT_GENERIC_HEADS or w in GENERIC_HEADS
                       or not w[:1].isalnum() for w in rest):
                    if len(names_inside) == 1 and names_inside[0].start == c.start:
                        # "the COCO dataset": the name as the text writes it is an alias of the name
                        name = names_inside[0]
                        name.aliases = tuple(dict.fromkeys((*name.aliases, c.text)))
                    continue  # "the MMLU benchmark", "pretrained ResNet models": the name says it all
                first = taken.get(min(covered))
                if (first is not None and first.start == c.start and first.type in _DATA_TYPES
                        and c.type is EntityType.TASK and first.end < c.end
                        and not lower[first.end].startswith("-")):  # "a VerbNet-like classification" stays whole
                    c.start = first.end  # "SQuAD question answering" -> "question answering"
                    c.text = info(doc).text[info(doc).idx[c.start] : info(doc).end_char(c.end - 1)]
                    c.label = c.text if any(ch.isupper() for ch in c.text[1:]) else c.text.lower()
                    c.key = canonical_key(c.text)
                    if (c.start, c.end) in taken or any(o.source in weak and (o.start, o.end) == (c.start, c.end)
                                                        for o in chosen):
                        continue
                chosen.append(c)
                continue
            chosen.append(c)
            taken[(c.start, c.end)] = c
            for i in range(c.start, c.end):
                owner[i] = (c.start, c.end)
        return chosen

    def _link_variants(self, doc: Doc, chosen: list[Candidate]) -> None:
        """Fill ``parent`` (model families) and ``derived_from`` (methods built on another)."""
        by_key: dict[str, Candidate] = {}
        for c in chosen:
            by_key.setdefault(canonical_key(c.label), c)
            for a in c.aliases:
                by_key.setdefault(canonical_key(a), c)
        for c in chosen:
            if c.parent is None and c.source not in {"term", "ner"}:
                c.parent = self._family(c, by_key)
            if c.gazetteer or c.source in {"term", "ner"}:
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
                c.derived_from = self._base_of(names, by_key, c) or self._stated_base(doc, c, chosen)

    def _family(self, c: Candidate, by_key: dict[str, Candidate]) -> str | None:
        """The family of a variant name ("MiroThinker-v1.0" -> "MiroThinker", "BrowseComp-en" ->
        "BrowseComp"): a version or variant tail always makes one; a bare number ("Set14",
        "AutoEnv-36") only when the base is a known name of the same kind of thing."""
        got = variant_base(c.label)
        if got is None:
            return None
        base, strong = got
        ref = by_key.get(canonical_key(base))
        entry = self.gazetteer.lookup(base)
        if ref is not None and ref is not c and _same_kind(ref.type, c.type):
            return ref.label
        if entry is not None and _same_kind(entry.type, c.type):
            return entry.canonical
        return base if strong and ref is None and entry is None else None

    @staticmethod
    def _stated_base(doc: Doc, c: Candidate, chosen: list[Candidate]) -> str | None:
        """ "AdaMax, a variant of Adam": the text says what the method builds on."""
        lower = info(doc).lower
        i = c.end
        if i + 3 >= len(lower) or lower[i] not in {",", "("} or lower[i + 1] not in {"a", "an"}:
            return None
        if lower[i + 2] not in _VARIANT_WORDS or lower[i + 3] != "of":
            return None
        k = i + 4 + (lower[i + 4] == "the" if i + 4 < len(lower) else 0)
        for other in chosen:
            if other.start == k and other is not c and other.type in (EntityType.METHOD, EntityType.MODEL):
                return other.label
        return None

    def _base_of(self, names: list[str], by_key: dict[str, Candidate], c: Candidate) -> str | None:
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
        joined = joined_base(c.label, self.gazetteer)
        if joined is not None and canonical_key(joined[0]) != own:
            return joined[0]  # "SparseLoRA" -> LoRA
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
