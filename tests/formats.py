"""Write records in each of the five input formats, for tests and the fuzz benchmark.

A record is a plain dict with any of ``title``, ``abstract``, ``year``, ``categories`` (list)
and ``authors`` (list of names); values may be anything, including hostile text. Each writer
returns the file's bytes and, per record, the offset where the record starts, so a test can
cut a file inside a chosen record. Writers put text where the format puts it and escape
only what the format itself escapes, so hostile text reaches the reader as a scraper would
deliver it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from xml.sax.saxutils import escape

__all__ = ["WRITERS", "FORMATS", "write"]

Rec = dict


def _text(value) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _jsonl(records: list[Rec]) -> tuple[bytes, list[int]]:
    out, starts = bytearray(), []
    for r in records:
        starts.append(len(out))
        out += json.dumps(r, ensure_ascii=True).encode("utf-8") + b"\n"
    return bytes(out), starts


def _snapshot(records: list[Rec]) -> tuple[bytes, list[int]]:
    out, starts = bytearray(), []
    for n, r in enumerate(records, start=1):
        year = r.get("year")
        obj = {
            "id": r.get("arxiv_id", f"9999.{n:05d}"),  # the snapshot's ids are arXiv ids
            "title": r.get("title"),
            "abstract": r.get("abstract"),
            "categories": " ".join(_text(c) for c in r.get("categories", [])),
            "authors": ", ".join(_text(a) for a in r.get("authors", [])),
            "authors_parsed": [[_text(a), "", ""] for a in r.get("authors", [])],
            "versions": [{"version": "v1", "created": f"Mon, 1 Jan {_text(year)} 00:00:00 GMT"}] if year is not None else [],
        }
        obj = {k: v for k, v in obj.items() if v is not None}
        starts.append(len(out))
        out += json.dumps(obj, ensure_ascii=True).encode("utf-8") + b"\n"
    return bytes(out), starts


def _atom(records: list[Rec]) -> tuple[bytes, list[int]]:
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
    out, starts = bytearray(head.encode("utf-8")), []
    for n, r in enumerate(records, start=1):
        parts = [f"<entry>\n<id>http://arxiv.org/abs/{r.get('arxiv_id', f'9999.{n:05d}')}v1</id>\n"]
        if "title" in r:
            parts.append(f"<title>{escape(_text(r['title']))}</title>\n")
        if "abstract" in r:
            parts.append(f"<summary>{escape(_text(r['abstract']))}</summary>\n")
        if "year" in r:
            parts.append(f"<published>{escape(_text(r['year']))}-01-01T00:00:00Z</published>\n")
        for a in r.get("authors", []):
            parts.append(f"<author><name>{escape(_text(a))}</name></author>\n")
        for c in r.get("categories", []):
            parts.append(f'<category term="{escape(_text(c), {chr(34): "&quot;"})}"/>\n')
        parts.append("</entry>\n")
        starts.append(len(out))
        out += "".join(parts).encode("utf-8", "surrogatepass")
    out += b"</feed>\n"
    return bytes(out), starts


def _bibtex(records: list[Rec]) -> tuple[bytes, list[int]]:
    out, starts = bytearray(), []
    for n, r in enumerate(records, start=1):
        fields = []
        for key in ("title", "abstract", "year"):
            if key in r:
                fields.append(f"  {key} = {{{_text(r[key])}}}")
        if r.get("authors"):
            fields.append("  author = {" + " and ".join(_text(a) for a in r["authors"]) + "}")
        if r.get("categories"):
            fields.append("  primaryclass = {" + " ".join(_text(c) for c in r["categories"]) + "}")
        starts.append(len(out))
        out += (f"@article{{key{n},\n" + ",\n".join(fields) + "\n}\n\n").encode("utf-8", "surrogatepass")
    return bytes(out), starts


def _profile(records: list[Rec]) -> tuple[bytes, list[int]]:
    head = ("arXiv subjects\n\nAda Lovelace\n\nPublications and source records attributed to Ada Lovelace.\n\n"
            f"At least {len(records)} recordsLinked to original sources\n\n")
    out, starts = bytearray(head.encode("utf-8")), []
    for r in records:
        block = [f"arXiv{_text(r.get('year', ''))}", ""]
        if "title" in r:
            block += [_text(r["title"]).replace("\n", " "), ""]
        if "abstract" in r:
            block += [_text(r["abstract"]), ""]
        if r.get("categories"):
            block += [" ".join(f"{_text(c)}↗" for c in r["categories"]), ""]
        starts.append(len(out))
        out += ("\n".join(block) + "\n").encode("utf-8", "surrogatepass")
    return bytes(out), starts


WRITERS: dict[str, Callable[[list[Rec]], tuple[bytes, list[int]]]] = {
    "jsonl": _jsonl,
    "arxiv-snapshot": _snapshot,
    "arxiv-atom": _atom,
    "bibtex": _bibtex,
    "profile": _profile,
}
FORMATS = tuple(WRITERS)
SUFFIX = {"jsonl": ".jsonl", "arxiv-snapshot": ".json", "arxiv-atom": ".xml", "bibtex": ".bib", "profile": ".txt"}


def write(folder, fmt: str, records: list[Rec], name: str = "in") -> tuple:
    """Write ``records`` as ``fmt`` into ``folder``; return (path, bytes, record start offsets)."""
    data, starts = WRITERS[fmt](records)
    path = folder / f"{name}{SUFFIX[fmt]}"
    path.write_bytes(data)
    return path, data, starts
