"""From a processed ``Doc`` to the typed :class:`~scholarkg.model.Extraction`.

The text given to the pipeline is ``title + "\\n\\n" + abstract``; offsets are mapped back to
the field they fall in, so ``field_text[start:end] == text`` for every mention.
"""

from __future__ import annotations

from spacy.tokens import Doc

from .doctext import info
from ..model import EntityKind, Extraction, Field, Link, Mention, Record, Result, Role

__all__ = ["record_text", "doc_to_extraction", "SEPARATOR"]

SEPARATOR = "\n\n"


def record_text(record: Record) -> str:
    """The text the pipeline reads for a record."""
    return f"{record.title}{SEPARATOR}{record.abstract or ''}"


def _field(record: Record, start: int, end: int) -> tuple[Field, int, int] | None:
    title_len = len(record.title)
    if end <= title_len:
        return Field.TITLE, start, end
    offset = title_len + len(SEPARATOR)
    if start >= offset:
        return Field.ABSTRACT, start - offset, end - offset
    return None


def _kind(r, is_generic) -> EntityKind:
    """A concept: a plain phrase, or a known lower-case term ("large language model" even where
    the text writes "LLMs"); a name: anything else ("xbench" and "word2vec" are names too)."""
    if is_generic(r):
        return EntityKind.CONCEPT
    label = r.label
    if label != label.lower() or any(c.isdigit() for c in label):
        return EntityKind.NAME
    if " " in label:
        return EntityKind.CONCEPT
    from .lexicon import is_english

    parts = [p for p in label.split("-") if p]
    return EntityKind.CONCEPT if parts and all(is_english(p, 2.0) for p in parts) else EntityKind.NAME


def doc_to_extraction(record: Record, doc: Doc, extractor: str = "") -> Extraction:
    from .components.entities import is_generic, records

    mentions = []
    for r in records(doc):
        where = _field(record, r.start_char, r.end_char)
        if where is None:
            continue
        field, start, end = where
        role = r.role or Role.MENTIONS
        confidence = round(min(r.confidence, r.role_confidence + 0.2), 3)
        mentions.append(Mention(
            text=r.text, label=r.label, type=r.type, start=start, end=end, field=field, role=role,
            confidence=confidence, aliases=r.aliases, parent=r.parent, derived_from=r.derived_from,
            kind=_kind(r, is_generic),
        ))
    text = info(doc).text
    results = []
    for r in doc._.results or ():
        where = _field(record, r.start, r.end)
        if where is None:
            continue
        field, start, end = where
        results.append(Result(
            value=r.value, evidence=text[r.sent_start : r.sent_end].strip(), model=r.model,
            benchmark=r.benchmark, metric=r.metric, unit=r.unit, field=field, start=start, end=end,
            confidence=r.confidence, baseline=r.baseline, change=r.change,
        ))
    links = []
    seen = set()
    for url, kind, s, e in doc._.links or ():
        where = _field(record, s, e)
        if where is None or url in seen:
            continue
        seen.add(url)
        links.append(Link(url=url, kind=kind, start=where[1], end=where[2], field=where[0]))
    return Extraction(record_id=record.id, mentions=tuple(mentions), results=tuple(results),
                      links=tuple(links), extractor=extractor)
