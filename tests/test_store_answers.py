"""A store's SELECT answers are read from the TSV text Oxigraph writes: each row must hold the
same rdflib terms as reading pyoxigraph's solution objects one by one, whatever the terms."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scholarkg.store.terms import solution_rows, to_rdflib

XSD = "http://www.w3.org/2001/XMLSchema#"
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
LEXICAL = st.one_of(TEXT, st.sampled_from(["1", "01", "-0", "+5", "1.50", ".5", "1e3", "1.0E-2", "INF", "NaN", "true",
                                           "false", "0", "1", "2024", "12:00:00", "", " 7 "]))
DATATYPES = st.sampled_from([XSD + t for t in ("integer", "decimal", "double", "float", "boolean", "gYear", "string",
                                               "anyURI", "dateTime", "int")] + ["http://example.org/my type/é"])
IRI = st.builds(
    lambda path, tail: "http://example.org/" + "".join(path) + tail,
    st.lists(st.one_of(st.characters(whitelist_categories=("Ll", "Lu", "Lo", "Nd"), max_codepoint=0xFFFF),
                       st.sampled_from(["-", ".", "_", "~", "/", ":", "%C3%A9"])), max_size=10),
    st.sampled_from(["", "#frag", "?q=1&r=é", "#"]))


def _literal(lexical, datatype):
    try:
        return ox.Literal(lexical, datatype=ox.NamedNode(datatype))
    except ValueError:
        return ox.Literal(lexical)


TERMS = st.one_of(
    st.none(),
    IRI.map(ox.NamedNode),
    TEXT.map(ox.Literal),
    st.tuples(TEXT, st.sampled_from(["en", "en-GB", "de", "zh-Hant-TW"])).map(lambda t: ox.Literal(t[0], language=t[1])),
    st.tuples(LEXICAL, DATATYPES).map(lambda t: _literal(*t)),
    st.sampled_from(["b1", "node2"]).map(ox.BlankNode),
)


def _answer(rows: list[tuple], width: int):
    """The answer of a SELECT over ``rows`` (tuples of pyoxigraph terms or None), in their order."""
    store = ox.Store()
    names = [f"v{i}" for i in range(width)]
    for n, row in enumerate(rows):
        subject = ox.NamedNode(f"urn:row:{n:04d}")
        store.add(ox.Quad(subject, ox.NamedNode("urn:p:n"), ox.Literal(str(n), datatype=ox.NamedNode(XSD + "integer"))))
        for name, term in zip(names, row):
            if term is not None:
                store.add(ox.Quad(subject, ox.NamedNode(f"urn:p:{name}"), term))
    optional = " ".join(f"OPTIONAL {{ ?row <urn:p:{name}> ?{name} }}" for name in names)
    text = f"SELECT {' '.join('?' + n for n in names) or '*'} WHERE {{ ?row <urn:p:n> ?n {optional} }} ORDER BY ?n"
    if not width:
        text = "SELECT (1 AS ?one) WHERE { ?row <urn:p:n> ?n } ORDER BY ?n"
    return lambda: store.query(text)


def _exact(row):
    return tuple((type(t), t, getattr(t, "datatype", None), getattr(t, "language", None)) for t in row)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda width: st.lists(st.tuples(*[TERMS] * width), max_size=8).map(lambda r: (width, r))))
def test_rows_read_from_the_tsv_text_hold_the_terms_the_solutions_hold(case):
    width, rows = case
    answer = _answer(rows, width)
    expected = [tuple(map(to_rdflib, solution)) for solution in answer()]
    read, more = solution_rows(answer(), 1_000_000)
    assert not more
    assert len(read) == len(expected) == len(rows)
    assert list(map(_exact, read)) == list(map(_exact, expected))


@pytest.mark.parametrize("rows, limit, kept, more", [(5, 3, 3, True), (5, 5, 5, False), (5, 4, 4, True), (0, 1, 0, False)])
def test_at_most_max_rows_are_kept_and_more_says_there_were_others(rows, limit, kept, more):
    one = [(None,)] * rows  # a column with nothing bound: each row is an empty line
    read, cut = solution_rows(_answer(one, 1)(), limit)
    assert read == [(None,)] * kept and cut is more


def test_a_long_answer_is_cut_while_it_is_written():
    store = ox.Store()
    text = "€" * 200
    store.extend(ox.Quad(ox.NamedNode(f"urn:s:{n}"), ox.NamedNode("urn:p"), ox.Literal(f"{text} {n}")) for n in range(20_000))
    for limit in (7, 40, 41, 42):
        read, more = solution_rows(store.query("SELECT ?s ?o WHERE { ?s <urn:p> ?o }"), limit)
        assert more and len(read) == limit
        assert all(str(o).startswith(text + " ") for _, o in read)


def test_an_answer_without_variables_has_empty_rows():
    store = ox.Store()
    assert solution_rows(store.query("SELECT * WHERE { }"), 10) == ([()], False)
    assert solution_rows(store.query("SELECT * WHERE { FILTER(false) }"), 10) == ([], False)
