"""Readers: real files from ../shared/data, small inputs written here, and malformed records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scholarkg.errors import InputError, Problems, RecordError
from scholarkg.readers import FORMATS, detect, read_records


def read(path, **kw):
    problems = Problems()
    records = list(read_records([path], problems, **kw))
    return records, problems


# --- the seed profile page -------------------------------------------------------------

def test_seed_profile_reads_all_18_papers(seed_path):
    records, problems = read(seed_path)
    assert detect(seed_path) == "profile"
    assert len(records) == 18
    assert problems.items == []
    assert all(r.authors[0].name == "Maojia Song" and len(r.authors) == 1 for r in records)
    assert {r.year for r in records} == {2025, 2026}
    first = records[0]
    assert first.title.startswith("P²-MOPD: Accelerating")
    assert first.source_title.startswith("P$^2$-MOPD: Accelerating")
    assert first.categories == ("cs.LG",) and first.primary_category == "cs.LG"
    assert first.abstract.startswith("Multi-teacher on-policy distillation")
    assert first.abstract.endswith("versus 80.9% for MOPD.")
    assert first.source.position == "record at line 9"


def test_seed_claimed_count_is_compared(seed_path):
    _records, problems = read(seed_path)
    assert problems.notes == [f"{seed_path}: the profile claims at least 19 records; 18 were read"]


def test_profile_with_multiple_categories_and_paragraphs(tmp_path):
    page = tmp_path / "p.txt"
    page.write_text(
        "arXiv subjects\n\nAda Lovelace\n\nPublications and source records attributed to Ada Lovelace.\n\n"
        "At least 2 recordsLinked to original sources\n\n"
        "arXiv2024\n\nFirst Paper\n\nPara one.\n\nPara two.\n\ncs.CL↗ cs.AI↗\n\n"
        "arXiv2023\n\nSecond Paper\n\nOnly abstract.\n\nstat.ML↗\n",
        encoding="utf-8",
    )
    records, problems = read(page)
    assert [r.title for r in records] == ["First Paper", "Second Paper"]
    assert records[0].abstract == "Para one.\n\nPara two."
    assert records[0].categories == ("cs.CL", "cs.AI")
    assert records[1].authors[0].name == "Ada Lovelace"
    assert problems.items == [] and problems.notes == []


def test_profile_bad_year_and_unknown_category_keep_record(tmp_path):
    page = tmp_path / "p.txt"
    page.write_text(
        "arXiv subjects\n\nAda\n\narXivsoon\n\nA Title\n\nAn abstract.\n\ncs.XX↗\n\n"
        "arXiv2020\n\nGood Title\n\nGood abstract.\n\ncs.CL↗\n",
        encoding="utf-8",
    )
    records, problems = read(page, format="profile")
    assert [r.title for r in records] == ["A Title", "Good Title"]
    assert records[0].year is None and records[0].categories == ()
    messages = [str(p) for p in problems.items]
    assert any("[year]: not a year: 'soon'" in m and "record at line 5" in m for m in messages)
    assert any("[categories]: unknown arXiv category 'cs.XX'" in m for m in messages)


# --- JSON lines -----------------------------------------------------------------------

def test_jsonl_good_records_survive_bad_lines(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [
        json.dumps({"title": "Good One", "abstract": "A.", "year": 2021, "categories": "cs.CL cs.LG", "authors": "A B and C D"}),
        "{not json",
        json.dumps(["a", "list"]),
        json.dumps({"abstract": "no title", "year": 2020}),
        json.dumps({"title": "Good Two", "abstract": "B.", "year": "2019", "authors": [{"name": "E F"}]}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records, problems = read(path)
    assert [r.title for r in records] == ["Good One", "Good Two"]
    assert records[0].categories == ("cs.CL", "cs.LG") and records[0].primary_category == "cs.CL"
    assert [a.name for a in records[0].authors] == ["A B", "C D"]
    messages = [str(p) for p in problems.items]
    assert f"{path}:line 2 [json]: invalid JSON" in messages[0]
    assert f"{path}:line 3 [json]: expected an object, got list (record skipped)" in messages[1]
    assert f"{path}:line 4 [title]: missing or empty title (record skipped)" in messages[2]
    assert problems.skipped_records == 3


def test_strict_mode_raises_on_first_bad_record(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"title": "T", "abstract": "A", "year": "never"}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 1 \[year\]: not a year"):
        list(read_records([path], Problems(strict=True)))


def test_text_is_cleaned_and_reported(tmp_path):
    path = tmp_path / "r.jsonl"
    # A lone surrogate from a JSON escape, a NUL, a zero-width space, HTML in the title.
    path.write_text('{"title": "Deep <i>nets</i>\\u200b", "abstract": "bad \\ud800 and \\u0000 nul", "year": 2020}\n')
    records, problems = read(path)
    assert records[0].title == "Deep nets"
    assert records[0].abstract == "bad \ufffd and  nul"
    fields = sorted(p.field for p in problems.items)
    assert fields == ["abstract", "abstract", "title", "title"]


def test_gold_files_read_as_records(shared_data):
    records, _ = read(shared_data / "scirex" / "abstracts.gold.jsonl")
    assert len(records) == 297
    assert records[0].title == "Full-Resolution Residual Networks for Semantic Segmentation in Street Scenes"


# --- arXiv metadata snapshot ----------------------------------------------------------

def test_arxiv_snapshot_sample(shared_data):
    path = shared_data / "arxiv-kaggle-sample" / "arxiv-metadata-oai-snapshot.json"
    assert detect(path) == "arxiv-snapshot"
    records, problems = read(path)
    assert len(records) == 200
    first = records[0]
    assert first.arxiv_id == "0704.0001"
    assert [a.name for a in first.authors] == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan"]
    assert first.year == 2007 and first.categories == ("hep-ph",)
    assert first.doi == "10.1103/PhysRevD.76.013009"
    assert "\n" not in first.abstract
    assert problems.skipped_records == 0


def test_arxiv_snapshot_small(tmp_path):
    path = tmp_path / "s.json"
    obj = {
        "id": "2101.00001", "authors": "X", "title": "T", "abstract": "  line one\nline two\n",
        "categories": "cs.LG stat.ML", "versions": [{"version": "v1", "created": "Fri, 1 Jan 2021 00:00:00 GMT"}],
        "authors_parsed": [["Lovelace", "Ada", ""], ["Turing", "Alan", "Jr"]], "update_date": "2021-02-01",
    }
    path.write_text(json.dumps(obj) + "\n", encoding="utf-8")
    (record,), problems = read(path)
    assert record.abstract == "line one line two"
    assert [a.name for a in record.authors] == ["Ada Lovelace", "Alan Turing Jr"]
    assert record.published == "2021-01-01" and record.year == 2021
    assert record.categories == ("cs.LG", "stat.ML") and record.primary_category == "cs.LG"


# --- arXiv API Atom feeds -------------------------------------------------------------

def test_atom_feeds(shared_data):
    feeds = shared_data / "arxiv-atom"
    records, _ = read(feeds / "query-100.atom.xml")
    assert len(records) == 100
    (one,), _ = read(feeds / "id-list.atom.xml")
    assert one.arxiv_id == "1111.2011"
    assert [a.name for a in one.authors] == ["James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"]
    assert one.doi == "10.1103/PhysRevB.85.115117"
    assert one.year == 2011 and one.published == "2011-11-08"
    authored, _ = read(feeds / "author-query.atom.xml")
    assert all(any("Del Maestro" in a.name for a in r.authors) for r in authored)
    assert authored[0].primary_category == "cond-mat.mes-hall"


def test_atom_invalid_xml_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>x</entry>', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.xml: invalid XML at line 1"):
        read(path)


# --- BibTeX ---------------------------------------------------------------------------

def test_bibtex_entries_and_broken_entry(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text(
        "@string{conf = \"Proc. ACL\"}\n"
        "@article{smith2020,\n  title = {Deep {BERT} Models for Schr{\\\"o}dinger},\n"
        "  author = {Smith, John and Jane Q. Doe},\n  year = 2020,\n"
        "  eprint = {2001.01234}, archivePrefix = {arXiv}, primaryClass = {cs.CL},\n"
        "  abstract = \"We propose X.\",\n  journal = conf # \" 2020\",\n}\n"
        "@misc{broken, title = {oops\n"
        "@inproceedings{ok2, title={Second}, year={2021}, abstract={Y.}}\n",
        encoding="utf-8",
    )
    assert detect(path) == "bibtex"
    records, problems = read(path)
    assert [r.title for r in records] == ["Deep BERT Models for Schrödinger", "Second"]
    first = records[0]
    assert [a.name for a in first.authors] == ["John Smith", "Jane Q. Doe"]
    assert first.arxiv_id == "2001.01234" and first.categories == ("cs.CL",)
    assert first.venue == "Proc. ACL 2020" and first.journal_ref is None
    assert [str(p) for p in problems.items] == [
        f"{path}:entry broken at line 10 [syntax]: cannot be parsed: Unexpected block start: `@inproceedings`. "
        "Was still looking for field-value closing `}` (record skipped)"]


# --- detection and files --------------------------------------------------------------

def test_registry_lists_every_format():
    assert set(FORMATS) == {"profile", "jsonl", "arxiv-snapshot", "arxiv-atom", "bibtex"}


@pytest.mark.parametrize("content,message", [
    (b"", "file is empty"),
    (b"\x00\x01\x02\xff garbage", "cannot tell the input format"),
])
def test_undetectable_files(tmp_path, content, message):
    path = tmp_path / "x.dat"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        detect(path)


def test_missing_file():
    with pytest.raises(InputError, match="no such file"):
        read(Path("/nonexistent/file.jsonl"))
