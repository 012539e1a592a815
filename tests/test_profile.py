"""Author profiles: the facts (JSON and named queries), several profile pages, escaping,
determinism, the command, and the demo page."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from curation_support import use_extractor, write_inputs

from scholarkg.errors import UsageError
from scholarkg.pipeline import build, write_outputs
from scholarkg.profile import author_profile, profile_html, profile_json
from scholarkg.named import get_named_query
from scholarkg.sparql import run_query


# What the stand-in extractor finds in the seed: just these two names, wherever they occur.
SEED_FINDS = {"GRPO": ("Method", "uses"), "BrowseComp": ("Benchmark", "evaluatesOn"),
              "reinforcement learning": ("Method", "uses")}


@pytest.fixture(scope="module")
def curated_seed(repo_root):
    """The seed profile built with a test curation file (tests/data), by an extractor whose output the
    tests know (so what is curated and what is extracted is fixed)."""
    with pytest.MonkeyPatch.context() as patch:
        use_extractor(patch, SEED_FINDS, "stand-in")
        return build([repo_root / "examples" / "maojia-song.txt"],
                     curation=repo_root / "tests" / "data" / "seed.curation.toml")


def test_profile_facts_of_the_seed_author(curated_seed):
    facts = author_profile(curated_seed.graph, "maojia song")
    assert facts["author"] == "Maojia Song"
    assert len(facts["papers"]) == 18
    assert facts["papers_per_year"] == [{"year": 2025, "papers": 6}, {"year": 2026, "papers": 12}]
    assert sum(c["papers"] for c in facts["categories_by_year"]) == sum(len(p["categories"]) for p in facts["papers"])
    introduced = {(i["label"], i["type"], i["year"]) for i in facts["introduced"]}
    assert {("Agents' Last Exam", "Benchmark", 2026), ("KAIROS", "Benchmark", 2025), ("AutoEnv-36", "Dataset", 2025),
            ("Tongyi DeepResearch", "Model", 2026), ("E-GRPO", "Method", 2026)} <= introduced
    zh = next(e for e in facts["entities"] if e["label"] == "BrowseComp-ZH")
    assert (zh["papers"], zh["first"], zh["latest"], zh["curated"]) == (2, 2025, 2026, True)
    assert "BrowseComp-ZH" in [e["label"] for e in facts["most_used"]["benchmarks"]]
    kinds = [e["kind"] for e in facts["entities"]]
    assert set(kinds) == {"name", "concept"} and kinds == sorted(kinds, key=lambda k: k != "name")  # names first
    assert {i["kind"] for i in facts["introduced"]} == {"name"}
    results = {(r["model"], r["benchmark"], r["value"], r["unit"], r["source"]) for r in facts["results"]}
    assert {("SMTL", "BrowseComp", "48.6", "%", "curated"), ("AgentFounder", "BrowseComp-ZH", "43.3", "%", "curated")} <= results
    assert facts["collaborators"] == []


def test_json_facts_are_the_named_queries_answers(curated_seed):
    facts = author_profile(curated_seed.graph, "Maojia Song")
    q = get_named_query("author-entities")
    rows = run_query(curated_seed.graph, q.text, q.bindings({"author": "Maojia Song"}), hidden=tuple(q.params)).to_dicts()
    assert sorted((r["label"], int(r["papers"]), int(r["first"]), int(r["latest"])) for r in rows) == sorted(
        (e["label"], e["papers"], e["first"], e["latest"]) for e in facts["entities"])

    def labels(source):
        found = run_query(curated_seed.graph, q.text, q.bindings({"author": "Maojia Song", "source": source}),
                          hidden=tuple(q.params)).to_dicts()
        return {r["label"] for r in found}

    assert labels("curated") == {e["label"] for e in facts["entities"] if e["curated"]}
    assert labels("curated") | labels("extracted") == {e["label"] for e in facts["entities"]}
    assert "KAIROS" in labels("curated") - labels("extracted")  # only the curation file links it
    assert "GRPO" in labels("curated") & labels("extracted")  # its role curated in one paper, extracted in others
    assert json.loads(profile_json(facts)) == facts


SECOND_PAGE = """arXiv subjects

Ada Lovelace

Publications and source records attributed to Ada Lovelace.

At least 2 recordsLinked to original sources

arXiv2026

Agents' Last Exam

{abstract}

cs.AI↗

arXiv2024

Notes on an Analytical Engine for Agents

We describe a machine that evaluates agents on BrowseComp and GAIA.

cs.LG↗
"""


@pytest.mark.parametrize("order", ["seed first", "second first"])
def test_a_graph_of_several_profile_pages(repo_root, tmp_path, order):
    seed = repo_root / "examples" / "maojia-song.txt"
    text = seed.read_text(encoding="utf-8")
    abstract = text.split("\nAgents' Last Exam\n\n", 1)[1].split("\n\n", 1)[0]
    second = tmp_path / "ada-lovelace.txt"
    second.write_text(SECOND_PAGE.format(abstract=abstract), encoding="utf-8")
    inputs = [seed, second] if order == "seed first" else [second, seed]
    graph = build(inputs).graph
    ada = author_profile(graph, "Ada Lovelace")
    assert [(p["year"], p["title"]) for p in ada["papers"]] == [(2026, "Agents' Last Exam"), (2024, "Notes on an Analytical Engine for Agents")]
    assert ada["collaborators"] == [{"name": "Maojia Song", "papers": 1}]
    song = author_profile(graph, "Maojia Song")
    assert len(song["papers"]) == 18 and song["collaborators"] == [{"name": "Ada Lovelace", "papers": 1}]
    assert "Ada Lovelace" in profile_html(song)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.ids += [v for k, v in attrs if k == "id"]

    def handle_data(self, data):
        self.text.append(data)


TITLE = 'Rank < 5 && "Top" > 1: a P$^2$ study'
LABEL = "<img src=x onerror=alert(1)>"
AUTHOR = 'Eve "<i>" Example'


def test_record_text_is_escaped_everywhere(tmp_path, monkeypatch):
    papers = [{"title": TITLE, "abstract": f"We test {LABEL} with GRPO.", "year": 2025, "authors": [AUTHOR]}]
    use_extractor(monkeypatch, {LABEL: ("Benchmark", "mentions"), "GRPO": ("Method", "uses")}, "x")
    graph = build([write_inputs(tmp_path, papers)]).graph
    page = profile_html(author_profile(graph, AUTHOR))
    parsed = _Tags()
    parsed.feed(page)
    assert not {"script", "img", "i"} & set(parsed.tags)
    text = "".join(parsed.text)
    assert TITLE.replace('P$^2$', 'P²') in text and AUTHOR in text and LABEL in text  # TeX decoded on reading
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") >= 3  # entity table, timeline and bar chart SVG


def test_pages_are_deterministic_with_unique_ids(curated_seed):
    facts = author_profile(curated_seed.graph, "Maojia Song")
    first, second = profile_html(facts), profile_html(facts)
    assert first == second
    parsed = _Tags()
    parsed.feed(first)
    assert parsed.tags.count("svg") == 4
    assert len(parsed.ids) == len(set(parsed.ids)) > 4
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", first)  # no creation dates


def test_unknown_author_is_a_usage_error(curated_seed, tmp_path, cli):
    with pytest.raises(UsageError, match=r"no author named 'Maojia Sonq' in the graph; did you mean 'Maojia Song'\?"):
        author_profile(curated_seed.graph, "Maojia Sonq")
    out = tmp_path / "g"
    write_outputs(curated_seed, out)
    result = cli("profile", out, "Nobody At All")
    assert result.exit_code == 2 and result.output.count("\n") == 1


def test_profile_command_html_and_json(curated_seed, tmp_path, cli):
    out = tmp_path / "g"
    write_outputs(curated_seed, out)
    assert cli("profile", out, "Maojia Song", "-o", out / "profile.html").exit_code == 0
    inside = (out / "profile.html").read_text(encoding="utf-8")
    assert 'href="graph.html#node=https%3A%2F%2Fw3id.org%2Fscholarkg%2Fid%2Fentity%2Fkairos"' in inside
    assert cli("profile", out, "Maojia Song", "-o", tmp_path / "elsewhere" / "p.html").exit_code == 0
    assert 'href="../g/graph.html#node=' in (tmp_path / "elsewhere" / "p.html").read_text(encoding="utf-8")
    assert cli("profile", out, "Maojia Song", "-o", tmp_path / "bare.html", "--explorer", "").exit_code == 0
    assert "#node=" not in (tmp_path / "bare.html").read_text(encoding="utf-8")
    result = cli("profile", out, "maojia song", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["author"] == "Maojia Song"


def test_demo_profile_page_is_what_make_demo_writes(repo_root):
    folder = repo_root / "graphs" / "maojia-song"
    if not (folder / "profile.html").is_file():
        pytest.skip("graphs/maojia-song has no profile.html (run make demo)")
    expected = profile_html(author_profile(folder, "Maojia Song"), explorer="graph.html")
    assert (folder / "profile.html").read_text(encoding="utf-8") == expected
