"""Hazard: bad records never sink good ones.

Every reader is given the same hostile cases between two good records. In each case the good
records must land unchanged; every problem must be one line naming the file, the record
(line or position) and the field; unusable records are counted as skipped; ``--strict``
makes the first problem fatal; the CLI exits with its documented codes and never shows a
traceback for a user error.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from formats import FORMATS, write
from scholarkg import errors
from scholarkg.errors import InputError, Problems, RecordError
from scholarkg.pipeline import build
from scholarkg.readers import detect, read_records

GOOD1 = {"title": "Good One", "abstract": "First abstract.", "year": 2021, "categories": ["cs.CL"], "authors": ["Ada Lovelace"]}
GOOD2 = {"title": "Good Two", "abstract": "Second abstract.", "year": 2022, "categories": ["cs.LG"], "authors": ["Alan Turing"]}
BASE = {"abstract": "Text.", "year": 2020, "categories": ["cs.AI"]}


def read(path, fmt=None, strict=False):
    problems = Problems(strict=strict)
    return list(read_records([path] if not isinstance(path, list) else path, problems, format=fmt)), problems


def position(fmt: str, index: int, data: bytes, starts: list[int]) -> str:
    """How the reader of ``fmt`` names the record written at ``index``."""
    line = data[: starts[index]].count(b"\n") + 1
    return {
        "jsonl": f"line {index + 1}",
        "arxiv-snapshot": f"line {index + 1}",
        "arxiv-atom": f"entry {index + 1}",
        "bibtex": f"entry key{index + 1} at line {line}",
        "profile": f"record at line {line}",
    }[fmt]


def assert_one_line_each(problems: Problems, path) -> None:
    for p in problems.items:
        text = str(p)
        assert text.startswith(f"{path}:") or text.startswith(f"{path} ["), text
        assert re.search(r" \[[a-z_]+\]: ", text), text
        assert text.isprintable(), repr(text)  # no newline, no terminal escape, no bidi override


# Each case: the record, then per format (or "*"): expected title (None = skipped) and the
# fields that must be named by a problem against this record.
CASES = {
    "no title": ({"year": 2020, "categories": ["cs.AI"]}, {"*": (None, {"title"})}),
    # A missing abstract is normal (counted in the summary), not a problem: --strict reads on.
    "no abstract": ({"title": "Only Title", "year": 2020, "categories": ["cs.AI"]}, {"*": ("Only Title", set())}),
    "no year": ({"title": "No Year", "abstract": "Text.", "categories": ["cs.AI"]},
                {"*": ("No Year", {"year"}), "arxiv-snapshot": ("No Year", set())}),  # year from the arXiv id
    "not a year": ({**BASE, "title": "Soon", "year": "soon"},
                   {"*": ("Soon", {"year"}), "arxiv-snapshot": ("Soon", {"versions"})}),
    "unknown category": ({**BASE, "title": "Cats", "categories": ["cs.XX", "cs.AI"]}, {"*": ("Cats", {"categories"})}),
    "html title": ({**BASE, "title": "Deep <i>nets</i> <script>alert(1)</script>"}, {"*": ("Deep nets alert(1)", {"title"})}),
    "tex title": ({**BASE, "title": "P$^2$-MOPD: Faster"}, {"*": ("P²-MOPD: Faster", set())}),
    "odd unicode": ({**BASE, "title": "Cafe\u0301 \u05e9\u05dc\u05d5\u05dd \U0001f680 zero\u200bwidth"},
                    {"*": ("Café \u05e9\u05dc\u05d5\u05dd \U0001f680 zerowidth", {"title"})}),
    "nul byte": ({**BASE, "title": "Nul\x00Byte"}, {"*": ("NulByte", {"title"}), "arxiv-atom": (None, {"xml"})}),
    "lone surrogate": ({**BASE, "title": "Half \ud800 pair"},
                       {"*": ("Half \ufffd\ufffd\ufffd pair", {"encoding"}),  # bytes ED A0 80 in a UTF-8 file
                        "jsonl": ("Half \ufffd pair", {"title"}), "arxiv-snapshot": ("Half \ufffd pair", {"title"})}),
    "bidi override": ({**BASE, "title": "Invoice \u202egnp.exe"}, {"*": ("Invoice gnp.exe", {"title"})}),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_record_between_good_ones(tmp_path, fmt, case):
    record, expected = CASES[case]
    title, fields = expected.get(fmt, expected["*"])
    path, data, starts = write(tmp_path, fmt, [GOOD1, record, GOOD2])
    records, problems = read(path, fmt)
    assert [r.title for r in records] == ["Good One"] + ([title] if title else []) + ["Good Two"]
    good = [r for r in records if r.title.startswith("Good")]
    assert [(r.abstract, r.year, r.categories) for r in good] == [
        ("First abstract.", 2021, ("cs.CL",)), ("Second abstract.", 2022, ("cs.LG",))]
    assert_one_line_each(problems, path)
    where = position(fmt, 1, data, starts)
    named = {p.field for p in problems.items if p.position.startswith(where) or p.position == ""}
    assert fields <= named, (fields, [str(p) for p in problems.items])
    assert all(p.position.startswith(where) or p.position == "" for p in problems.items), [str(p) for p in problems.items]
    assert problems.skipped_records == (0 if title else 1)
    if fields:
        with pytest.raises(RecordError):  # --strict: the first problem is fatal
            read(path, fmt, strict=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_file_next_to_a_good_one(tmp_path, fmt):
    good, _, _ = write(tmp_path, fmt, [GOOD1, GOOD2], name="good")
    empty = tmp_path / f"empty{good.suffix}"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="file is empty"):
        detect(empty)
    records, problems = read([empty, good])
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert [str(p) for p in problems.items] == [f"{empty} [file]: file is empty (file skipped)"]
    records, problems = read(empty, fmt)  # format given: read, and found to hold nothing
    assert records == [] and problems.items and all(str(p).startswith(str(empty)) for p in problems.items)


@pytest.mark.parametrize("fmt", FORMATS)
def test_truncated_file_keeps_complete_records(tmp_path, fmt):
    third = {"title": "Third Paper Here", "abstract": "A third abstract that is cut short.", "year": 2023, "categories": ["cs.AI"]}
    path, data, starts = write(tmp_path, fmt, [GOOD1, GOOD2, third])
    cut = starts[2] + (len(data) - starts[2]) // 2
    path.write_bytes(data[:cut])
    records, problems = read(path, fmt)
    assert [r.title for r in records[:2]] == ["Good One", "Good Two"]
    assert records[0].abstract == "First abstract." and records[1].abstract == "Second abstract."
    where = position(fmt, 2, data, starts)
    assert any(p.position.startswith(where) for p in problems.items), [str(p) for p in problems.items]
    assert_one_line_each(problems, path)
    if len(records) == 3:  # only a profile page can lose its end without a syntax error
        assert fmt == "profile" and any(p.field == "categories" and "cut short" in p.message for p in problems.items)


@pytest.mark.parametrize("fmt", ["jsonl", "arxiv-snapshot"])
def test_invalid_json_lines_among_valid_ones(tmp_path, fmt):
    path, data, _ = write(tmp_path, fmt, [GOOD1])
    bad = [b"{broken", b"[1, 2]", b"null", b'{"title": ' + b"1" * 5000 + b"}",
           b'{"title": "x", "a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", b"\xff\xfe\x00garbage"]
    good2, _ = write(tmp_path, fmt, [GOOD2], name="g2")[1:]
    path.write_bytes(data + b"\n".join(bad) + b"\n" + good2)
    records, problems = read(path, fmt)
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert [(p.position, p.field) for p in problems.items if p.field == "json"] == [
        (f"line {n}", "json") for n in range(2, 8)]
    assert problems.skipped_records == 6
    assert_one_line_each(problems, path)


def test_invalid_xml_entries_are_skipped_one_by_one(tmp_path):
    path, data, starts = write(tmp_path, "arxiv-atom", [GOOD1, {**BASE, "title": "Unclosed"}, {**BASE, "title": "Entity"}, GOOD2])
    text = data.decode()
    text = text.replace("<title>Unclosed</title>", "<title>Unclosed", 1).replace("<title>Entity</title>", "<title>&nbsp; Entity</title>", 1)
    path.write_text(text)
    records, problems = read(path, "arxiv-atom")
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert [(p.position.split(" (")[0], p.field) for p in problems.items if p.field == "xml"][-2:] == [("entry 2", "xml"), ("entry 3", "xml")]
    assert problems.skipped_records == 2


def test_xml_entity_expansion_is_refused_quickly(tmp_path):
    laughs = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    path = tmp_path / "bomb.xml"
    path.write_text(f'<?xml version="1.0"?>\n<!-- feed -->\n{" " * 5000}<!DOCTYPE feed [<!ENTITY l0 "lol">{laughs}]>'
                    '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&l9;</title></entry></feed>')
    start = time.monotonic()
    with pytest.raises(InputError, match="document type declarations are not accepted"):
        read(path, "arxiv-atom")
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_binary_garbage(tmp_path, fmt):
    good, _, _ = write(tmp_path, fmt, [GOOD1, GOOD2], name="good")
    garbage = tmp_path / f"garbage{good.suffix}"
    garbage.write_bytes(random.Random(fmt).randbytes(64 * 1024))
    with pytest.raises(InputError, match="cannot tell the input format"):
        detect(garbage)
    try:
        records, problems = read(garbage, fmt)
    except InputError as exc:  # a whole-file error is fine: one clear line naming the file
        assert str(exc).startswith(f"{garbage}: ") and "\n" not in str(exc)
    else:
        assert records == [] and problems.items
        assert_one_line_each(problems, garbage)
    records, problems = read([garbage, good], fmt)
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert any(str(p).startswith(str(garbage)) for p in problems.items)


@pytest.mark.parametrize("fmt", FORMATS)
def test_ten_megabyte_abstract_is_capped_with_a_message(tmp_path, fmt):
    big = {**BASE, "title": "Huge", "abstract": "word " * 2_000_000}
    path, data, starts = write(tmp_path, fmt, [big, GOOD2])
    start = time.monotonic()
    records, problems = read(path, fmt)
    assert time.monotonic() - start < 10
    assert [r.title for r in records] == ["Huge", "Good Two"]
    assert 19_000 < len(records[0].abstract) <= 20_000 and records[0].abstract.startswith("word word")
    assert [(p.field, p.message.split(" to ")[-1]) for p in problems.items] == [("abstract", "20,000 characters")]
    assert problems.items[0].position == position(fmt, 0, data, starts)


@pytest.mark.parametrize("fmt", FORMATS)
def test_duplicate_records_are_merged_and_noted_once(tmp_path, fmt):
    one, two = {**GOOD1, "arxiv_id": "2101.00001"}, {**GOOD2, "arxiv_id": "2101.00002"}
    path, data, starts = write(tmp_path, fmt, [one, two, one])
    result = build([path], format=fmt)
    assert [r.title for r in result.records] == ["Good One", "Good Two"]
    assert not [p for p in result.problems.items if p.field == "id"]  # a repeat is not a problem
    (note,) = result.problems.record_notes
    assert note.position == position(fmt, 2, data, starts) and note.field == "id"
    assert note.message.startswith(f"same paper as {position(fmt, 0, data, starts)} in {path.name}")
    assert result.summary["skipped_records"] == 0 and result.summary["papers"] == 2


def test_json_surrogate_escape_becomes_replacement_character(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"title": "A \\udc80 B \\ud83d\\ude80", "abstract": "x \\ud800", "year": 2020}\n')
    (record,), problems = read(path)
    assert record.title == "A \ufffd B \U0001f680" and record.abstract == "x \ufffd"
    assert {(p.field, p.message) for p in problems.items} == {
        ("title", "replaced 1 lone surrogate(s) with U+FFFD"), ("abstract", "replaced 1 lone surrogate(s) with U+FFFD")}


def test_problem_lines_cannot_carry_terminal_escapes(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text('{"title": "T", "abstract": "a", "year": "\\u001b[2J\\nFAKE: all good", "categories": ["\\u202ecs.XX"]}\n')
    _, problems = read(path)
    assert len(problems.items) == 2
    assert_one_line_each(problems, path)


# --- the command line ---------------------------------------------------------------------

def _mixed_input(tmp_path):
    path, _, _ = write(tmp_path, "jsonl", [GOOD1, {"year": 2020}, {**BASE, "title": "Odd", "year": "soon"}, GOOD2])
    with path.open("ab") as fh:
        fh.write(b"{not json\n")
    return path


def test_cli_summary_counts_good_and_bad_records(cli, tmp_path):
    path = _mixed_input(tmp_path)
    result = cli("build", path, "--out", tmp_path / "out", "--no-html")
    assert result.exit_code == 0, result.stderr
    assert "papers      3" in result.stdout
    out = tmp_path / "out"
    assert f"problems    3 (2 records skipped; all listed in {out}/problems.jsonl)" in result.stdout
    listed = [json.loads(line) for line in (out / "problems.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(p["severity"], p["file"], p["record"], p["field"]) for p in listed] == [
        ("problem", path.name, "line 2", "title"), ("problem", path.name, "line 3", "year"), ("problem", path.name, "line 5", "json")]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings == [
        f"warning: {path}:line 2 [title]: missing or empty title (record skipped)",
        f"warning: {path}:line 3 [year]: not a year: 'soon'",
        f"warning: {path}:line 5 [json]: invalid JSON (Expecting property name enclosed in double quotes at column 2) (record skipped)",
    ]
    assert cli("build", path, "--out", tmp_path / "o2", "--no-html", "--fail-on-problems").exit_code == errors.EXIT_PROBLEMS


def test_cli_strict_makes_the_first_problem_fatal(cli, tmp_path):
    path = _mixed_input(tmp_path)
    result = cli("build", path, "--out", tmp_path / "out", "--strict")
    assert result.exit_code == errors.EXIT_INPUT
    assert result.stderr.strip().splitlines()[-1] == f"error: {path}:line 2 [title]: missing or empty title (record skipped)"
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_cli_no_usable_record_leaves_outputs_alone(cli, tmp_path, seed_path):
    out = tmp_path / "out"
    assert cli("build", seed_path, "--out", out, "--no-html").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "no title"}\n{oops\n')
    result = cli("build", bad, "--format", "jsonl", "--out", out)
    assert result.exit_code == errors.EXIT_INPUT
    assert "error: no usable record in the input (2 problems, 2 records skipped)" in result.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("args,code,message", [
    (["build", "{tmp}", "--out", "{tmp}/o"], errors.EXIT_INPUT, "is a directory, not a file"),
    (["build", "{garbage}", "--out", "{tmp}/o"], errors.EXIT_INPUT, "cannot tell the input format"),
    (["build", "{garbage}", "--format", "nope", "--out", "{tmp}/o"], errors.EXIT_USAGE, "'nope' is not one of"),
    (["build", "{good}", "--out", "{good}"], errors.EXIT_STORE, "exists and is not a folder"),
    (["build", "{good}", "--out", "/proc/scholarkg-test/out"], errors.EXIT_STORE, "cannot"),
    (["stats", "{garbage}"], errors.EXIT_INPUT, "unknown RDF file type"),
])
def test_cli_user_errors_are_one_line_without_traceback(cli, tmp_path, args, code, message):
    good, _, _ = write(tmp_path, "jsonl", [GOOD1], name="good")
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 4)
    args = [a.format(tmp=tmp_path, good=good, garbage=garbage) for a in args]
    result = cli(*args)
    assert result.exit_code == code, result.stderr
    errors_shown = [line for line in result.stderr.splitlines() if line.lower().startswith("error:")]
    assert len(errors_shown) == 1 and message in errors_shown[0], result.stderr
    assert "Traceback" not in result.stderr


def test_exit_codes_are_documented_in_help(cli):
    text = " ".join(cli("--help").stdout.split())
    for code, meaning in [(errors.EXIT_OK, "done"), (errors.EXIT_PROBLEMS, "done but records had problems"),
                          (errors.EXIT_USAGE, "bad command line"), (errors.EXIT_INPUT, "unreadable input, no usable record"),
                          (errors.EXIT_QUERY, "bad, refused or timed-out query"),
                          (errors.EXIT_STORE, "output or store not writable, or locked"),
                          (errors.EXIT_NETWORK, "network service failed"), (errors.EXIT_INTERNAL, "internal error")]:
        assert re.search(rf"\b{code} {re.escape(meaning)}", text), (code, meaning, text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_long_runs_of_one_character_are_read_in_linear_time(tmp_path, fmt):
    # 100,000 spaces took about a minute when abstracts were unwrapped with re.sub(r"\s*\n\s*", ...).
    flood = {**BASE, "title": "Spaces", "abstract": "start" + " " * 100_000 + "end"}
    path, _, _ = write(tmp_path, fmt, [flood, GOOD2])
    start = time.monotonic()
    records, _ = read(path, fmt)
    assert time.monotonic() - start < 3
    assert [r.title for r in records] == ["Spaces", "Good Two"] and records[0].abstract.startswith("start")


def test_many_broken_bibtex_entries_are_read_in_linear_time(tmp_path):
    # Each entry with an unbalanced brace used to rescan the rest of the file: 5,000 took ~20 s.
    path, data, _ = write(tmp_path, "bibtex", [GOOD1])
    path.write_bytes(data + b"@misc{broken, title = {never closed,\n" * 5_000 + write(tmp_path, "bibtex", [GOOD2], name="b")[1])
    start = time.monotonic()
    records, problems = read(path, "bibtex")
    assert time.monotonic() - start < 3
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert problems.skipped_records == 5_000


def test_cli_shows_the_first_problems_and_lists_every_one(cli, tmp_path):
    path = tmp_path / "many.jsonl"
    lines = [json.dumps({"title": f"Paper {n}", "year": "soon"}) for n in range(60)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("build", path, "--out", tmp_path / "out", "--no-html")
    assert result.exit_code == 0, result.stderr
    shown = [line for line in result.stderr.splitlines() if line.startswith("warning: ") and "[year]" in line]
    assert len(shown) == 20
    assert any("all listed in problems.jsonl" in line for line in result.stderr.splitlines())
    assert "problems    60 (0 records skipped; all listed in" in result.stdout
    assert len((tmp_path / "out" / "problems.jsonl").read_text(encoding="utf-8").splitlines()) == 60
