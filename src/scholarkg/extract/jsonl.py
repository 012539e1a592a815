"""The extraction JSON-lines contract: one paper per line.

``{"id", "title", "year", "extractor", "entities": [{"text", "label", "aliases", "type", "kind",
"start", "end", "field", "role", "confidence", "key", "parent", "derived_from"}], "results":
[{"model", "benchmark", "metric", "value", "unit", "evidence", "confidence"}], "improvements":
[{"model", "benchmark", "metric", "value", "unit", "change", "baseline", "evidence",
"confidence"}], "links": [{"url", "kind"}]}``

``kind`` is ``name`` (a proper name: HarnessDev, Qwen 3-4B) or ``concept`` (a term phrase:
question answering). ``results`` holds absolute scores only; gains and reductions against a
baseline ("up 12.56 over FRONT", "70.7% fewer steps") are ``improvements``.

``label`` is the canonical name of the entity the mention belongs to (from the
:class:`~scholarkg.link.Linker`), ``text`` the exact span: ``field_text[start:end] == text``.
Numbers are JSON numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from decimal import Decimal
from typing import IO, Any

from ..link import Linker
from ..model import Extraction, Record

__all__ = ["extraction_record", "write_jsonl", "number"]


def number(value: Decimal) -> int | float:
    """A JSON number for a decimal value: ``Decimal("48.6")`` -> ``48.6``, ``Decimal("100")`` -> ``100``."""
    if value == value.to_integral_value() and "." not in str(value):
        return int(value)
    return float(value)


def _entity(linker: Linker, label: str | None):
    return linker.get(label) if label else None


def extraction_record(record: Record, extraction: Extraction, linker: Linker) -> dict[str, Any]:
    """One line of the extraction JSON lines for ``record``."""
    entities = []
    for m in extraction.mentions:
        entity = _entity(linker, m.label)
        label = entity.label if entity else m.label
        aliases = sorted(set(entity.aliases if entity else m.aliases) | set(m.aliases) - {label})
        entities.append({
            "text": m.text,
            "label": label,
            "aliases": aliases,
            "type": (entity.type if entity else m.type).value,
            "kind": (entity.kind if entity else m.kind).value,
            "start": m.start,
            "end": m.end,
            "field": m.field.value,
            "role": m.role.value,
            "confidence": m.confidence,
            "key": entity.key if entity else None,
            "parent": entity.parent if entity else None,
            "derived_from": entity.derived_from if entity else None,
        })
    results, improvements = [], []
    for r in extraction.results:
        names = {}
        for slot in ("model", "benchmark", "metric", "baseline"):
            label = getattr(r, slot)
            entity = _entity(linker, label)
            names[slot] = entity.label if entity else label
        item = {
            "model": names["model"],
            "benchmark": names["benchmark"],
            "metric": names["metric"],
            "value": number(r.value),
            "unit": r.unit,
            "evidence": r.evidence,
            "field": r.field.value,
            "start": r.start,
            "end": r.end,
            "confidence": r.confidence,
        }
        if r.is_improvement:
            improvements.append(item | {"change": r.change.value, "baseline": names["baseline"]})
        else:
            results.append(item)
    links = [{"url": link.url, "kind": link.kind.value, "field": link.field.value, "start": link.start,
              "end": link.end} for link in extraction.links]
    return {
        "id": record.id,
        "title": record.title,
        "year": record.year,
        "extractor": extraction.extractor,
        "entities": entities,
        "results": results,
        "improvements": improvements,
        "links": links,
    }


def write_jsonl(pairs: Iterable[tuple[Record, Extraction]], linker: Linker, out: IO[str]) -> int:
    """Write one line per pair (the linker must already hold every extraction); returns the count."""
    n = 0
    for record, extraction in pairs:
        out.write(json.dumps(extraction_record(record, extraction, linker), ensure_ascii=False) + "\n")
        n += 1
    return n
