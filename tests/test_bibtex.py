"""BibTeX read with bibtexparser: TeX decoded, names split, macros bounded, arXiv ids found
wherever people put them, crossref followed, and every entry with a title kept."""

from __future__ import annotations

import tracemalloc

import pytest

from scholarkg.errors import Problems
from scholarkg.model import PaperKind
from scholarkg.readers import read_records


def read(path, **kw):
    problems = Problems(**kw)
    return list(read_records([path], problems, format="bibtex")), problems


def bib(tmp_path, text: str, name: str = "refs.bib"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_tex_in_names_and_titles_is_decoded_and_names_are_split(tmp_path):
    path = bib(tmp_path, r"""
@book{knuth, title = {The {\TeX}book}, author = {Knuth, Donald E.}, year = 1984, publisher = {Addison-Wesley}}
@misc{team, title = {{\LaTeX}: a document preparation system}, author = {{{\LaTeX\,3} Project Team}}, year = 2020}
@article{nordic, title = {{BERT} for {N}orwegian}, year = 2021, journal = {J. Nordic Lang.},
  author = {L{\o}fstedt, Per and Fu{\ss}, Anna and {\L}ukasz Kaiser and Ludwig van Beethoven and
            King, Jr., Martin Luther and {Barnes and Noble}}}
""")
    records, problems = read(path)
    knuth, team, nordic = records
    assert knuth.title == "The TeXbook" and knuth.source_title == r"The {\TeX}book"
    assert (knuth.authors[0].name, knuth.authors[0].given, knuth.authors[0].family) == ("Donald E. Knuth", "Donald E.", "Knuth")
    assert team.title == "LaTeX: a document preparation system"
    assert [(a.name, a.given, a.family) for a in team.authors] == [("LaTeX 3 Project Team", None, "LaTeX 3 Project Team")]
    assert nordic.title == "BERT for Norwegian"
    assert [(a.given, a.family) for a in nordic.authors] == [
        ("Per", "Løfstedt"), ("Anna", "Fuß"), ("Łukasz", "Kaiser"), ("Ludwig", "van Beethoven"),
        ("Martin Luther", "King"), (None, "Barnes and Noble")]
    assert nordic.authors[4].name == "Martin Luther King Jr."
    assert nordic.venue == "J. Nordic Lang." and nordic.kind is PaperKind.ARTICLE
    assert not [p for p in problems.items if p.field != "year"]


def test_string_macros_concatenation_and_months(tmp_path):
    path = bib(tmp_path, """
@string{acl = "Proceedings of the " # annual # " Meeting of the ACL"}
@string{annual = {58th Annual}}
@String{ACL2 = "Proceedings of the " # Annual # " Meeting"}
@inproceedings{a, title = "Macros", booktitle = ACL2 # ", Online", month = jul, year = {2020}, pages = {100--117},
  author = "Ada Lovelace"}
""")
    (record,), problems = read(path)
    assert record.venue == "Proceedings of the 58th Annual Meeting, Online"
    assert record.pages == "100–117" and record.kind is PaperKind.CONFERENCE_PAPER
    # "acl" used "annual" before it was defined: BibTeX keeps the name, and so do we, with a problem.
    assert [str(p) for p in problems.items] == []


def test_undefined_macro_is_kept_as_written_and_reported(tmp_path):
    path = bib(tmp_path, "@article{a, title = {T}, journal = jacm, year = 1990, author = {A B}}\n")
    (record,), problems = read(path)
    assert record.venue == "jacm"
    assert [str(p) for p in problems.items] == [f"{path}:entry a at line 1 [journal]: @string 'jacm' is not defined; kept as written"]


def test_arxiv_ids_wherever_people_put_them(tmp_path):
    path = bib(tmp_path, r"""
@article{devlin2018bert, title={Bert: Pre-training of deep bidirectional transformers for language understanding},
  author={Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  journal={arXiv preprint arXiv:1810.04805}, year={2018}}
@article{dblp, title = {Attention Is All You Need}, journal = {CoRR}, volume = {abs/1706.03762}, year = {2017},
  author = {Ashish Vaswani and Noam Shazeer}}
@misc{eprint, title = {Eprint}, eprint = {2101.00001}, archivePrefix = {arXiv}, primaryClass = {cs.CL}, year = 2021}
@misc{url, title = {By URL}, url = {https://arxiv.org/abs/2102.00002v3}, year = 2021}
@misc{doi, title = {By DOI}, doi = {10.48550/arXiv.2103.00003}, year = 2021}
@misc{note, title = {By note}, note = {arXiv:hep-th/9901001}, year = 1999}
@misc{hal, title = {Not arXiv}, eprint = {hal-01234567}, eprinttype = {HAL}, year = 2020}
""")
    records, _ = read(path)
    by_title = {r.title: r for r in records}
    bert = by_title["Bert: Pre-training of deep bidirectional transformers for language understanding"]
    assert bert.arxiv_id == "1810.04805" and bert.venue is None and bert.kind is PaperKind.PREPRINT
    assert [a.family for a in bert.authors] == ["Devlin", "Chang", "Lee", "Toutanova"]
    attention = by_title["Attention Is All You Need"]
    # DBLP's CoRR is arXiv: the record is a preprint with no other venue.
    assert attention.arxiv_id == "1706.03762" and attention.volume is None and attention.venue is None
    assert attention.kind is PaperKind.PREPRINT
    assert by_title["Eprint"].arxiv_id == "2101.00001" and by_title["Eprint"].categories == ("cs.CL",)
    assert by_title["Eprint"].kind is PaperKind.PREPRINT
    assert by_title["By URL"].arxiv_id == "2102.00002"
    assert by_title["By DOI"].arxiv_id == "2103.00003" and by_title["By DOI"].doi == "10.48550/arXiv.2103.00003"
    assert by_title["By note"].arxiv_id == "hep-th/9901001"
    assert by_title["Not arXiv"].arxiv_id is None and by_title["Not arXiv"].kind is PaperKind.OTHER


def test_crossref_fills_missing_fields(tmp_path):
    path = bib(tmp_path, """
@inproceedings{child, title = {A Paper in Proceedings}, author = {Ada Lovelace}, crossref = {Proc20}, pages = {1--10}}
@inproceedings{orphan, author = {Alan Turing}, crossref = {proc20}}
@proceedings{proc20, title = {Proceedings of the Twentieth Conference}, year = 2020, publisher = {ACM}}
@inproceedings{lost, title = {Lost}, crossref = {nowhere}, year = 2020}
""")
    records, problems = read(path)
    by_title = {r.title: r for r in records}
    child = by_title["A Paper in Proceedings"]
    assert child.year == 2020 and child.venue == "Proceedings of the Twentieth Conference"
    # An entry with no title of its own takes its crossref's title, as BibTeX does.
    assert [a.name for a in by_title["Proceedings of the Twentieth Conference"].authors] in (["Alan Turing"], [])
    assert len(records) == 4 and by_title["Lost"].year == 2020
    assert any(p.field == "crossref" and "nowhere" in p.message for p in problems.items)


def test_a_missing_abstract_is_no_problem_and_strict_reads_ordinary_files(tmp_path):
    path = bib(tmp_path, "@article{a, title = {T}, author = {A B}, year = 2020, journal = {J}}\n"
                         "@article{b, title = {U}, author = {C D}, year = 2021, journal = {J}}\n")
    records, problems = read(path, strict=True)
    assert len(records) == 2 and problems.items == []
    assert problems.tallies == {"records without an abstract": 2}


def test_orcid_numbers_of_web_of_science(tmp_path):
    path = bib(tmp_path, "@article{a, title = {T}, year = 2020, author = {Carberry, Josiah and Doe, Jane},\n"
                         "  orcid-numbers = {Carberry, Josiah/0000-0002-1825-0097}}\n")
    (record,), _ = read(path)
    assert [a.orcid for a in record.authors] == ["0000-0002-1825-0097", None]


def test_duplicate_field_and_broken_value(tmp_path):
    path = bib(tmp_path, '@article{a, title = {First}, title = {Second}, year = 2020, journal = {J} # }\n'
                         "@article{b, title = {Good}, year = 2021}\n")
    records, problems = read(path)
    assert [r.title for r in records] == ["First", "Good"]
    fields = sorted(p.field for p in problems.items)
    assert "title" in fields and "journal" in fields


def test_doubling_macro_chain_is_bounded_before_expansion(tmp_path):
    # Each macro doubles the one before: 2**60 characters if expanded. The file is about 2 KB.
    lines = ['@string{s0 = "xxxxxxxxxxxxxxxx"}']
    lines += [f"@string{{s{n} = s{n - 1} # s{n - 1}}}" for n in range(1, 61)]
    lines += ["@article{good1, title = {Before the Bomb}, year = 2020}",
              "@article{bomb, title = s60, year = 2020}",
              "@article{big, title = {Big Venue}, journal = s12 # s12, year = 2020}",
              "@article{good2, title = {After the Bomb}, year = 2021, journal = s4}"]
    path = bib(tmp_path, "\n".join(lines) + "\n")
    assert path.stat().st_size < 3_000
    tracemalloc.start()
    try:
        records, problems = read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 30 * 2**20, f"reading took {peak:,} bytes"
    assert [r.title for r in records] == ["Before the Bomb", "Big Venue", "After the Bomb"]
    assert records[2].venue == "x" * 16 * 2**4
    assert records[1].venue is None  # 2 x 65,536 characters is more than a value may have
    messages = [str(p) for p in problems.items]
    assert any("@string s33" in m and "nested more than 32 deep" in m for m in messages), messages
    assert any("entry bomb" in m and "[title]" in m and "record skipped" in m for m in messages), messages
    assert any("entry big" in m and "[journal]" in m and "131,072 characters" in m for m in messages), messages
    assert max(len(m) for m in messages) < 400


def test_many_macro_uses_stay_within_the_files_budget(tmp_path):
    # Legal macros of 60,000 characters used by many short entries: expansion stops at the
    # file's budget (proportional to its size) instead of growing with every use.
    entries = "\n".join(f"@misc{{e{n}, title = {{T{n}}}, note = big # big # big, year = 2020}}" for n in range(400))
    path = bib(tmp_path, '@string{big = "' + "y" * 20_000 + '"}\n' + entries + "\n")
    tracemalloc.start()
    try:
        records, problems = read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(records) == 400
    assert peak < 200 * 2**20, f"reading took {peak:,} bytes"
    assert any("expansion" in p.message or "more text than the file" in p.message for p in problems.items)


@pytest.mark.parametrize("text", [
    "@article{a, title = {unclosed",
    '@article{a, title = "unclosed',
    "@article{, title = {No key}, year = 2020}",
    "@string{x = }\n@article{a, title = x, year = 2020}",
    "@article{a title = {No comma}}",
    "@{a, title = {No type}}",
])
def test_malformed_entries_never_raise(tmp_path, text):
    path = bib(tmp_path, text + "\n@article{good, title = {Good}, year = 2020}\n")
    records, problems = read(path)
    assert records and records[-1].title == "Good"


def test_a_name_starting_with_a_macro_after_and(tmp_path):
    path = bib(tmp_path, "@article{x, author = \"Stephan Lindner and \\rlap{Lutz Birkhahn}\", title = {T}, year = 1989}\n")
    (record,), _ = read(path)
    assert [a.name for a in record.authors] == ["Stephan Lindner", "Lutz Birkhahn"]
