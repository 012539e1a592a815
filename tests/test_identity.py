"""Paper identity: arXiv id, then DOI, then title with year and first author; repeats merged."""

from __future__ import annotations

import json

from scholarkg.errors import Problems
from scholarkg.graph import iri
from scholarkg.identity import merge_records, unique_records
from scholarkg.model import Author, Record, Source


def rec(title, n, **kw):
    return Record(id=f"r{n}", title=title, source=Source("refs.bib", f"entry e{n} at line {n}", "bibtex"), **kw)


def test_same_title_different_papers_stay_apart():
    records = [
        rec("Calendar", 1, year=2001, authors=(Author("Ann Editor", "Ann", "Editor"),)),
        rec("Calendar", 2, year=2002, authors=(Author("Ann Editor", "Ann", "Editor"),)),
        rec("From the President", 3, year=2010, doi="10.1000/a"),
        rec("From the President", 4, year=2010, doi="10.1000/b"),
        rec("Deep Nets", 5, year=2020, authors=(Author("Ada Lovelace", "Ada", "Lovelace"),)),
        rec("Deep Nets", 6, year=2020, authors=(Author("Alan Turing", "Alan", "Turing"),)),
        rec("Preprint", 7, arxiv_id="2101.00001"),
        rec("Preprint", 8, arxiv_id="2101.00002"),
        # One column title twice in one issue, on different pages (as in TUGboat's bibliography).
        rec("Greetings from the Editor", 9, year=1981, venue="TUGboat", volume="2", issue="2", pages="43–43"),
        rec("Greetings from the Editor", 10, year=1981, venue="TUGboat", volume="2", issue="2", pages="54–54"),
        rec("Addresses", 11, year=1981, venue="TUGboat", volume="2", issue="2"),
        rec("Addresses", 12, year=1981, venue="TUGboat", volume="2", issue="3"),
    ]
    problems = Problems()
    kept = merge_records(records, problems)
    assert len(kept) == 12 and problems.record_notes == []
    assert len({iri.paper(iri.record_key(r)) for r in kept}) == 12  # and twelve IRIs


def test_a_real_duplicate_is_merged_with_fields_combined_and_noted_once():
    ada = Author("Ada Lovelace", "Ada", "Lovelace")
    records = [
        rec("Deep Nets", 1, year=2020, authors=(ada, Author("Alan Turing")), venue="J. Nets"),
        rec("Deep  nets", 2, year=2020, authors=(ada,), doi="10.1000/x", abstract="An abstract.", pages="1–9"),
        rec("Deep Nets", 3, year=2020, authors=(ada,), arxiv_id="2001.01234", categories=("cs.LG",)),
    ]
    problems = Problems()
    (merged,) = merge_records(records, problems)
    assert merged.title == "Deep Nets" and merged.venue == "J. Nets" and merged.doi == "10.1000/x"
    assert merged.abstract == "An abstract." and merged.pages == "1–9"
    assert merged.arxiv_id == "2001.01234" and merged.categories == ("cs.LG",)
    assert [a.name for a in merged.authors] == ["Ada Lovelace", "Alan Turing"] and merged.authors_ordered
    assert merged.id == "r1"  # an id the input gave is kept
    assert [p.position for p in problems.record_notes] == ["entry e2 at line 2", "entry e3 at line 3"]
    assert problems.items == []


def test_profile_pages_of_coauthors_give_the_paper_both_authors():
    a = rec("Shared Paper", 1, year=2024, authors=(Author("Ada Lovelace"),), authors_ordered=False)
    b = rec("Shared Paper", 2, year=2024, authors=(Author("Alan Turing"),), authors_ordered=False)
    (merged,) = merge_records([a, b], Problems())
    assert [x.name for x in merged.authors] == ["Ada Lovelace", "Alan Turing"] and not merged.authors_ordered


def test_streaming_keeps_the_first_and_notes_the_repeat():
    records = [rec("A", 1, doi="10.1/x"), rec("B", 2), rec("A", 3, doi="10.1/X")]
    problems = Problems()
    assert [r.id for r in unique_records(records, problems)] == ["r1", "r2"]
    (note,) = problems.record_notes
    assert note.position == "entry e3 at line 3" and "the first is kept" in note.message


def test_a_bibliography_with_repeated_titles_builds_every_paper(tmp_path, cli):
    """The failure seen with real bibliographies: papers keyed by title alone were dropped."""
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{c1, title = {Calendar}, journal = {Notices}, year = 2001, doi = {10.1000/c1}}\n"
        "@article{c2, title = {Calendar}, journal = {Notices}, year = 2002, doi = {10.1000/c2}}\n"
        "@article{c3, title = {Calendar}, journal = {Notices}, year = 2003}\n"
        "@article{p1, title = {From the President}, author = {Smith, Ann}, journal = {Bulletin}, year = 2003}\n"
        "@article{p2, title = {From the President}, author = {Jones, Bob}, journal = {Bulletin}, year = 2003}\n"
        "@article{p2again, title = {From the {P}resident}, author = {Jones, Bob}, journal = {Bulletin}, year = 2003,"
        " abstract = {A letter.}}\n",
        encoding="utf-8",
    )
    out = tmp_path / "g"
    result = cli("build", str(bib), "--out", str(out), "--strict", "--fail-on-problems", "--no-html")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["papers"] == 5 and summary["problems"] == 0
    assert "6 records without an abstract" not in summary["notes"]
    assert "5 records without an abstract" in summary["notes"]
    lines = [json.loads(line) for line in (out / "problems.jsonl").read_text().splitlines()]
    assert lines == [{"severity": "note", "file": "refs.bib", "record": "entry p2again at line 6", "field": "id",
                      "message": "same paper as entry p2 at line 5 in refs.bib; fields combined"}]
