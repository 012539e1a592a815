"""Input files in the encodings and line ends found in the wild, and profile pages whose header
cannot be read: every reader gives the same records, and the build goes on."""

from __future__ import annotations

import codecs
import json

import pytest
from formats import FORMATS, write

from scholarkg.errors import Problems
from scholarkg.readers import detect, read_records

RECORDS = [
    {"title": "Schrödinger bridges for naïve agents", "abstract": "We study café-style “queues”.", "year": 2024,
     "categories": ["cs.LG"], "authors": ["Zoë Ångström", "Ada Lovelace"]},
    {"title": "A second paper", "abstract": "Plain ASCII text.\nOn two lines.", "year": 2023,
     "categories": ["cs.CL", "cs.AI"], "authors": ["Ada Lovelace"]},
    {"title": "Third: ελληνικά and 日本語", "abstract": "Scripts beyond Latin-1.", "year": 2022,
     "categories": ["cs.CV"], "authors": ["Ada Lovelace"]},
]
ENCODINGS = [("utf-8-sig", codecs.BOM_UTF8, "utf-8"), ("utf-16-le", codecs.BOM_UTF16_LE, "utf-16-le"),
             ("utf-16-be", codecs.BOM_UTF16_BE, "utf-16-be"), ("utf-32-le", codecs.BOM_UTF32_LE, "utf-32-le"),
             ("utf-32-be", codecs.BOM_UTF32_BE, "utf-32-be")]


def _read(path, fmt=None):
    problems = Problems()
    records = list(read_records([path], problems, format=fmt))
    return records, problems


def _facts(records):
    return [(r.title, r.abstract, r.year, r.categories, tuple(a.name for a in r.authors)) for r in records]


@pytest.fixture(params=FORMATS)
def reference(request, tmp_path):
    """Each format written as plain UTF-8 with LF line ends, and what its reader makes of it."""
    fmt = request.param
    path, data, _starts = write(tmp_path, fmt, RECORDS, name="utf8")
    records, problems = _read(path)
    assert len(records) == 3 and not problems.items
    return fmt, data, _facts(records), tmp_path, [r.source.position for r in records]


@pytest.mark.parametrize("name, bom, codec", ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_a_byte_order_mark_gives_the_encoding_in_every_format(reference, name, bom, codec):
    fmt, data, expected, folder, _positions = reference
    path = folder / f"{name}.in"
    path.write_bytes(bom + data.decode("utf-8").encode(codec))
    assert detect(path) == fmt
    records, problems = _read(path)
    assert _facts(records) == expected
    assert not problems.items and not problems.notes


@pytest.mark.parametrize("ending", [b"\r", b"\r\n"], ids=["CR", "CRLF"])
def test_lines_ended_by_cr_alone_or_cr_lf_read_like_lf_in_every_format(reference, ending):
    fmt, data, expected, folder, positions = reference
    path = folder / "cr.in"
    path.write_bytes(data.replace(b"\n", ending))
    assert detect(path) == fmt
    records, problems = _read(path)
    assert _facts(records) == expected
    assert not problems.items
    assert [r.source.position for r in records] == positions  # the same line numbers


def test_utf16_with_cr_line_ends_together(reference):
    fmt, data, expected, folder, _positions = reference
    path = folder / "both.in"
    path.write_bytes(codecs.BOM_UTF16_LE + data.decode("utf-8").replace("\n", "\r").encode("utf-16-le"))
    assert _facts(_read(path, fmt)[0]) == expected


def test_a_latin1_file_is_read_as_latin1_with_a_note(tmp_path):
    latin = [{**r, "title": r["title"], "abstract": r["abstract"].replace("“", '"').replace("”", '"')}
             for r in RECORDS[:2]]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in latin)
    path = tmp_path / "latin.jsonl"
    path.write_bytes(text.encode("latin-1"))
    records, problems = _read(path)
    assert [r.title for r in records] == ["Schrödinger bridges for naïve agents", "A second paper"]
    assert [a.name for a in records[0].authors] == ["Zoë Ångström", "Ada Lovelace"]
    assert problems.notes == [f"{path}: 1 line(s) not UTF-8, read as Latin-1 (Windows-1252); first: line 1"]
    assert not problems.items

    bib, data, _starts = write(tmp_path, "bibtex", latin, name="refs")
    bib.write_bytes(data.decode("utf-8").encode("cp1252"))
    records, problems = _read(bib)
    assert [r.title for r in records] == ["Schrödinger bridges for naïve agents", "A second paper"]
    assert problems.notes == [f"{bib}: not UTF-8: read as Latin-1 (Windows-1252)"]


def test_damaged_utf8_stays_utf8_with_the_bad_bytes_counted(tmp_path):
    path = tmp_path / "damaged.jsonl"
    good = json.dumps({"title": "Caf\u00e9 and \ud800 here", "year": 2020}, ensure_ascii=False)
    path.write_bytes(good.encode("utf-8", "surrogatepass") + b"\n"
                     + json.dumps({"title": "Na\u00efve \xff"}, ensure_ascii=False).encode("utf-8").replace(b"\xc3\xbf", b"\xff") + b"\n")
    records, problems = _read(path)
    assert [r.title for r in records] == ["Café and \ufffd\ufffd\ufffd here", "Naïve \ufffd"]
    assert [(p.position, p.field) for p in problems.items if p.field == "encoding"] == [("line 1", "encoding"), ("line 2", "encoding")]
    assert not problems.notes


# --- profile pages whose header cannot be read ------------------------------------------------

PAGE = """arXiv subjects

Ada Lovelace

Publications and source records attributed to Ada Lovelace.

{claim}

arXiv2024

First paper

Abstract one.

cs.CL↗

arXiv2023

Second paper

Abstract two.

cs.LG↗
"""


@pytest.mark.parametrize("claim", ["At least " + "9" * 5000 + " records", "At least ,,, records",
                                   "At least 1,2,3 records", "At least 12345678901234567890 records"],
                         ids=["5,000 digits", "commas only", "bad grouping", "20 digits"])
def test_an_unreadable_record_claim_is_a_note_and_every_record_lands(tmp_path, cli, claim):
    page = tmp_path / "page.txt"
    page.write_text(PAGE.format(claim=claim), encoding="utf-8")
    records, problems = _read(page)
    assert [r.title for r in records] == ["First paper", "Second paper"]
    assert [a.name for a in records[0].authors] == ["Ada Lovelace"]
    (note,) = problems.notes
    assert "cannot be read" in note and len(note) < 200
    result = cli("build", page, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    assert "papers      2" in result.stdout and "Traceback" not in result.stderr


def test_a_readable_claim_is_still_compared(tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(PAGE.format(claim="At least 1,003 recordsLinked to original sources"), encoding="utf-8")
    _records, problems = _read(page)
    assert problems.notes == [f"{page}: the profile claims at least 1003 records; 2 were read"]


def test_a_page_without_a_header_keeps_its_first_record(tmp_path, cli):
    page = tmp_path / "page.txt"
    body = PAGE.split("arXiv2024", 1)[1]
    page.write_text("arXiv2024" + body, encoding="utf-8")
    assert detect(page) == "profile"
    records, problems = _read(page)
    assert [r.title for r in records] == ["First paper", "Second paper"]
    assert [(p.position, p.field) for p in problems.items] == [("header", "author")]
    result = cli("build", page, "--out", tmp_path / "out")
    assert result.exit_code == 0 and "papers      2" in result.stdout
