"""IRI minting: readable where possible, always valid, never colliding."""

from __future__ import annotations

import pytest

from scholarkg.graph import iri


def test_readable_slugs_and_normalisation():
    assert str(iri.author("Maojia Song")).endswith("/author/maojia-song")
    assert iri.author("  MAOJIA   song ") == iri.author("Maojia Song")
    assert iri.entity("LLaMA-3-8b") == iri.entity("LLaMA-3-8B")
    assert str(iri.category("cs.CL")).endswith("/arxiv/category/cs.CL")


def test_papers_keyed_by_arxiv_id_else_title():
    assert str(iri.paper(iri.paper_key("2509.13310", "x"))).endswith("/paper/arxiv/2509.13310")
    old = iri.paper(iri.paper_key("cond-mat/0412498", "x"))
    assert str(old).endswith("/paper/arxiv/cond-mat%2F0412498")
    by_title = iri.paper_key(None, "Agents' Last Exam")
    assert by_title == iri.paper_key(None, "agents'   last exam")
    assert iri.paper(by_title) != iri.paper(iri.paper_key(None, "Agents Last Exam"))


@pytest.mark.parametrize("name", [
    "O'Brien", 'a"b', "a b#c", "x/y", "100%", "tab\there", "new\nline", "nul\x00", "<script>",
    "Ünïcödé", "名前", "emoji 🚀", "rtl \u05e9\u05dc\u05d5\u05dd", "", "   ",
])
def test_any_text_gives_a_valid_iri(name):
    for mint in (iri.author, iri.entity):
        value = mint(name)
        assert iri.validate(str(value)) == value


def test_distinct_keys_never_collide():
    names = ["a-b", "a b", "a_b", "A B", "a.b", "a/b", "a%b", "ab", "a  b", "Ä b", "a b_", "a-b_"]
    minted = {}
    for name in names:
        minted.setdefault(iri.entity(name), set()).add(iri.normalise_key(name))
    assert all(len(keys) == 1 for keys in minted.values()), minted


@pytest.mark.parametrize("bad", ["no-scheme", "http://a b", "http://a\nb", "http://a%zz", "http://a<b>", "http://x\ud800"])
def test_validate_rejects_invalid_iris(bad):
    with pytest.raises(ValueError):
        iri.validate(bad)
