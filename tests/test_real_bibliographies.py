"""Real bibliographies nobody here wrote (pybtex's examples and test data: TUGboat's 2,700-entry
bibliography, BibTeX's own xampl.bib, ...), read and built, checked against pybtex's reading of
the same files: every entry with a title (its own or by crossref) lands, no TeX or brace is left
in any name, title or label, and authors are in the file's order."""

from __future__ import annotations

import re

import pytest
from rdflib import Literal
from rdflib.namespace import DCTERMS, FOAF, RDFS, SKOS

from scholarkg.errors import Problems
from scholarkg.graph import iri
from scholarkg.graph.vocab import SKG
from scholarkg.tex import to_plain

pytestmark = pytest.mark.slow

_ENTRY = re.compile(r"^entry (.*) at line \d+$")
_TEX_LEFT = re.compile(r"\\|[{}]")


def _pybtex(path):
    """Keys of the entries with a title (own or by crossref), and their authors' family names."""
    import pybtex.errors
    from pybtex.database import parse_file

    pybtex.errors.set_strict_mode(False)
    data = parse_file(str(path), bib_format="bibtex")
    entries = {key.lower(): entry for key, entry in data.entries.items()}
    titled, families = set(), {}
    for key, entry in entries.items():
        parent = entries.get(entry.fields.get("crossref", "").lower())
        titles = [entry.fields.get("title", "")] + ([parent.fields.get("title", "")] if parent is not None else [])
        if any(to_plain(t, tex=True).strip() for t in titles):  # "{}" is an empty title
            titled.add(key)
        families[key] = [" ".join(" ".join(to_plain(p, tex=True).split()) for p in person.prelast_names + person.last_names)
                         for person in entry.persons.get("author", [])]
    return titled, families


@pytest.fixture(scope="module")
def builds(real_bibliographies):
    from scholarkg.pipeline import build

    return {name: build([path], problems=Problems(limit_logged=0)) for name, path in real_bibliographies.items()}


def test_the_bibliographies_are_the_real_ones(real_bibliographies):
    assert "pybtex/examples/tugboat/tugboat.bib" in real_bibliographies
    assert "pybtex/examples/xampl.bib" in real_bibliographies


def test_every_entry_with_a_title_lands(real_bibliographies, builds):
    for name, path in real_bibliographies.items():
        titled, _ = _pybtex(path)
        result = builds[name]
        kept = {_ENTRY.match(r.source.position).group(1).lower() for r in result.records}
        merged = {_ENTRY.match(n.position).group(1).lower() for n in result.problems.record_notes}
        skipped = {_ENTRY.match(p.position).group(1).lower() for p in result.problems.items
                   if p.message.endswith("(record skipped)") and _ENTRY.match(p.position)}
        assert titled - kept - merged == set(), (name, sorted(titled - kept - merged)[:10])
        assert titled & skipped == set(), (name, sorted(titled & skipped))
        assert kept.isdisjoint(merged)
        papers = {iri.paper(iri.record_key(r)) for r in result.records}
        assert len(papers) == len(result.records) == result.summary["papers"], name


def test_the_tugboat_bibliography_keeps_its_same_title_columns_apart(builds):
    result = builds["pybtex/examples/tugboat/tugboat.bib"]
    editors = [r for r in result.records if r.title == "Greetings from the Editor"]
    assert len(editors) >= 2 and len({(r.issue, r.pages) for r in editors}) == len(editors)
    assert result.summary["papers"] >= 2700 and result.summary["problems"] <= 5


def test_no_tex_or_brace_is_left_in_names_titles_or_labels(builds):
    for name, result in builds.items():
        graph = result.graph
        # Braces the source escapes ($\{$Meta$\}$Font) are printed, so they are text.
        printed = {r.title for r in result.records if re.search(r"\\[{}]", r.source_title or "")}
        for prop in (DCTERMS.title, RDFS.label, FOAF.name, FOAF.givenName, FOAF.familyName, SKOS.prefLabel):
            left = [str(o) for o in graph.objects(None, prop)
                    if isinstance(o, Literal) and _TEX_LEFT.search(str(o)) and str(o) not in printed]
            assert left == [], (name, prop, left[:5])
        assert len(printed) <= 2, printed


def test_authors_are_in_the_files_order(real_bibliographies, builds):
    compared = 0
    for name, path in real_bibliographies.items():
        _, families = _pybtex(path)
        result = builds[name]
        merged = {_ENTRY.match(n.position).group(1).lower() for n in result.problems.record_notes}
        graph = result.graph
        for record in result.records:
            key = _ENTRY.match(record.source.position).group(1).lower()
            if key not in families or not families[key]:
                continue
            expected = [f for f in families[key] if f.lower() != "others"]
            assert [a.family for a in record.authors] == expected or key in merged, (name, key, record.authors)
            paper = iri.paper(iri.record_key(record))
            listed = sorted((int(graph.value(a, SKG.authorPosition)), graph.value(a, SKG.author))
                            for a in graph.objects(paper, SKG.hasAuthorship))
            assert [author for _, author in listed] == [iri.author(a.name) for a in record.authors], (name, key)
            assert [n for n, _ in listed] == list(range(1, len(listed) + 1))
            compared += 1
    assert compared > 2000
