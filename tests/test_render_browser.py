"""The explorer in a real browser: Debian's chromium driven by Playwright, offline.

Every page is opened from ``file://`` with the context offline and every request that is not
``file:``, ``data:`` or ``about:`` aborted and recorded; each test asserts that none was
attempted and that the console logged no error. Load times are written to
``tests/out/browser-timings.json``; the seed page's first view to ``tests/out/explorer.png``
and ``docs/explorer.png`` (the README's screenshot).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest
from browser import Opened
from browser import assert_clean as _clean
from render_graphs import XSS_ABSTRACT, XSS_SCRIPT, XSS_TITLE, enriched_seed, synthetic_graph

from scholarkg.explorer import render_html
from scholarkg.explorer.view import to_networkx

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parent / "out"
DOCS = Path(__file__).resolve().parents[1] / "docs"
TIMINGS: dict[str, float] = {}
# Loading and stabilising a page made from a 5,000-node graph must finish within this bound
# (measured: about 2 s for the default 2,000-node view and 3.5 s for all 5,000 nodes on a
# two-vCPU machine without a GPU).
LARGE_LOAD_LIMIT_S = 30.0


@pytest.fixture(scope="module", autouse=True)
def _write_timings():
    yield
    OUT.mkdir(exist_ok=True)
    (OUT / "browser-timings.json").write_text(json.dumps(TIMINGS, indent=1, sort_keys=True) + "\n")


@pytest.fixture(scope="module")
def pages(seed_build, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    rich = enriched_seed(seed_build)
    html = render_html(rich)
    files = {
        "rich": html,
        "rich-no-csp": re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html),
        "xss-title": render_html(seed_build.graph, title=XSS_TITLE),
        "focus": render_html(rich, focus="ALE", depth=1),
        "empty": render_html(rich, min_degree=100_000),
    }
    assert "Content-Security-Policy" not in files["rich-no-csp"]
    for name, text in files.items():
        (folder / f"{name}.html").write_text(text, encoding="utf-8")
    return {name: folder / f"{name}.html" for name in files}


def _node_id(opened: Opened, kind: str, name: str) -> int:
    return opened.js("([k, n]) => skgExplorer.data.nodes.find(x => x.kind === k && x.name === n).id", [kind, name])


def _visible(opened: Opened) -> list[dict]:
    return opened.js("() => skgExplorer.visibleNodeIds().map(i => skgExplorer.data.nodes[i])")


def _drawn(opened: Opened) -> list[int]:
    return opened.js("() => [skgExplorer.network.body.nodeIndices.length, skgExplorer.network.body.edgeIndices.length]")


def test_harness_sees_outside_requests_and_live_payloads(open_page, tmp_path):
    """The checks below can fail: an outside request is recorded, an injected handler runs."""
    page = tmp_path / "control.html"
    page.write_text('<!DOCTYPE html><img src="https://example.org/x.png"><img src=x onerror="window.__skgPwned = 1">')
    opened = open_page(page, ready=False)
    assert opened.wait("() => window.__skgPwned === 1")
    assert opened.outside == ["https://example.org/x.png"] * len(opened.outside) and opened.outside


def test_seed_page_offline(open_page, seed_out, seed_graph):
    opened = open_page(seed_out / "graph.html")
    TIMINGS["seed load + stabilisation (s)"] = round(opened.seconds, 2)
    graph = to_networkx(seed_graph)
    nodes, edges = graph.number_of_nodes(), graph.number_of_edges()
    assert _drawn(opened) == [nodes, edges]
    assert opened.page.inner_text("#status") == f"{nodes} nodes · {edges} links"
    # Drawn on the canvas: many pixels in the paper colour (#4e79a7).
    painted = opened.js("""() => { const c = document.querySelector('#graph canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let k = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 78) < 8 && Math.abs(d[i+1] - 121) < 8 && Math.abs(d[i+2] - 167) < 8) k++;
        return k; }""")
    assert painted > 500
    # Physics ran (nodes left their starting positions), then stopped.
    moved = opened.js("() => { const p = skgExplorer.network.getPositions(); return skgExplorer.data.nodes.filter(n => Math.abs(p[n.id].x - n.x) > 1).length; }")
    assert moved > 0
    assert opened.js("() => skgExplorer.network.physics.physicsEnabled") is False
    before = opened.js("() => skgExplorer.network.getPositions()")
    opened.page.wait_for_timeout(300)
    assert opened.js("() => skgExplorer.network.getPositions()") == before
    # The README's screenshot is this first view, as a user gets it.
    OUT.mkdir(exist_ok=True)
    opened.page.screenshot(path=str(OUT / "explorer.png"))
    DOCS.mkdir(exist_ok=True)
    shutil.copyfile(OUT / "explorer.png", DOCS / "explorer.png")
    # Hovering over a paper shows its details.
    paper = max(opened.js("() => skgExplorer.data.nodes.filter(n => n.kind === 'Paper')"), key=lambda n: (n["degree"], n["name"]))
    opened.page.mouse.move(*_screen_point(opened, paper["id"]))
    opened.wait("() => document.querySelector('#details h3') !== null")
    assert opened.page.inner_text("#details h3") == paper["name"]
    # The physics toggle switches the simulation on and off again.
    opened.page.check("#physics")
    assert opened.js("() => skgExplorer.network.physics.physicsEnabled") is True
    opened.page.uncheck("#physics")
    assert opened.js("() => skgExplorer.network.physics.physicsEnabled") is False
    _clean(opened)


def test_legend_lists_types_and_links(open_page, pages):
    opened = open_page(pages["rich"])
    rows = opened.js("""() => [...document.querySelectorAll('#legend li')].map(li => [
        li.querySelector('input').value, li.querySelector('svg polygon, svg circle').getAttribute('fill'),
        Number(li.querySelector('.count').textContent)])""")
    kinds = Counter(n["kind"] for n in opened.js("() => skgExplorer.data.nodes"))
    assert {kind: count for kind, _, count in rows} == dict(kinds)
    colours = {kind: colour for kind, colour, _ in rows}
    assert colours["Paper"] == "#4e79a7" and colours["Benchmark"] == "#f28e2b" and len(set(colours.values())) == len(colours)
    shapes = opened.js("() => [...document.querySelectorAll('#legend li svg [data-shape]')].map(s => s.dataset.shape)")
    assert len(shapes) == len(rows) and len(set(shapes)) == len(shapes), shapes  # a shape per type
    links = opened.js("() => [...document.querySelectorAll('#relations li')].map(li => [li.children[1].textContent, Number(li.querySelector('.count').textContent)])")
    assert dict(links) == dict(Counter(e["relation"] for e in opened.js("() => skgExplorer.data.edges")))
    assert {"introduces", "evaluatesOn", "uses", "variantOf", "reportsResult"} <= dict(links).keys()
    _clean(opened)


def test_search_finds_by_name_and_alias(open_page, pages):
    opened = open_page(pages["rich"])
    page = opened.page
    page.fill("#search", "BrowseComp")
    assert page.inner_text("#results li:first-child .kind").startswith("Benchmark")
    page.press("#search", "Enter")
    browsecomp = _node_id(opened, "Benchmark", "BrowseComp")
    assert opened.js("() => skgExplorer.selected()") == browsecomp
    assert opened.js("() => skgExplorer.network.getSelectedNodes()") == [browsecomp]
    assert page.inner_text("#details h3") == "BrowseComp"
    page.fill("#search", "ALE")
    first = page.inner_text("#results li:first-child")
    assert first.startswith("Agents' Last Exam") and "Benchmark · ALE" in first
    page.click("#results li:first-child button")
    assert opened.js("() => skgExplorer.selected()") == _node_id(opened, "Benchmark", "Agents' Last Exam")
    details = page.inner_text("#details")
    assert "Aliases\nALE" in details.replace("\t", "\n") and "INTRODUCED BY" in details.upper()
    assert "0.8% · Qwen3-8B on Agents' Last Exam (pass rate)" in details
    opened.js("(i) => skgExplorer.pick(i)", _node_id(opened, "Result", "0.8% · Qwen3-8B on Agents' Last Exam (pass rate)"))
    assert "Value\n0.8%\n" in page.inner_text("#details").replace("\t", "\n")
    page.fill("#search", "no such thing anywhere")
    assert page.inner_text("#results") == "No match"
    _clean(opened)


def test_type_filter_hides_and_whole_graph_restores(open_page, pages):
    opened = open_page(pages["rich"])
    data = opened.js("() => skgExplorer.data")
    kinds = {n["id"]: n["kind"] for n in data["nodes"]}
    opened.page.uncheck("#legend input[value=Paper]")
    visible = _visible(opened)
    assert visible and all(n["kind"] != "Paper" for n in visible)
    assert len(visible) == sum(1 for k in kinds.values() if k != "Paper")
    without_papers = sum(1 for e in data["edges"] if "Paper" not in (kinds[e["from"]], kinds[e["to"]]))
    assert _drawn(opened) == [len(visible), without_papers]
    assert opened.page.inner_text("#status") == f"{len(visible)} of {len(kinds)} nodes · {without_papers} of {len(data['edges'])} links"
    opened.page.click("#reset")
    assert _drawn(opened) == [len(kinds), len(data["edges"])]
    assert opened.page.is_checked("#legend input[value=Paper]")
    _clean(opened)


def test_neighbours_only_and_back(open_page, pages):
    opened = open_page(pages["rich"])
    opened.page.fill("#search", "BrowseComp")
    opened.page.press("#search", "Enter")
    browsecomp = _node_id(opened, "Benchmark", "BrowseComp")
    edges = opened.js("() => skgExplorer.data.edges")
    expected = {browsecomp} | {e["to"] for e in edges if e["from"] == browsecomp} | {e["from"] for e in edges if e["to"] == browsecomp}
    opened.page.click("#details button.around")
    assert {n["id"] for n in _visible(opened)} == expected and len(expected) > 2
    opened.page.click("#reset")
    assert len(_visible(opened)) == len(opened.js("() => skgExplorer.data.nodes"))
    _clean(opened)


def test_year_filter(open_page, pages):
    opened = open_page(pages["rich"])
    assert opened.page.input_value("#year-from") == "2025" and opened.page.input_value("#year-to") == "2026"
    opened.page.fill("#year-from", "2026")
    visible = _visible(opened)
    papers = [n for n in visible if n["kind"] == "Paper"]
    all_2026 = [n for n in opened.js("() => skgExplorer.data.nodes") if n["kind"] == "Paper" and n.get("year") == 2026]
    assert papers and sorted(p["id"] for p in papers) == sorted(p["id"] for p in all_2026)
    names = {n["name"] for n in visible}
    assert XSS_TITLE not in names and f"Mallory {XSS_SCRIPT}" not in names  # only on the 2025 paper
    assert "Maojia Song" in names and "cs.CR" not in names
    opened.page.fill("#year-to", "2025")  # an empty range
    assert _visible(opened) == []
    opened.page.click("#reset")
    assert len(_visible(opened)) == len(opened.js("() => skgExplorer.data.nodes"))
    _clean(opened)


def test_category_filter(open_page, pages):
    opened = open_page(pages["rich"])
    for code in opened.js("() => skgExplorer.data.categories.map(c => c.code)"):
        if code != "cs.CR":
            opened.page.uncheck(f"#categories input[value='{code}']")
    visible = _visible(opened)
    assert [n["name"] for n in visible if n["kind"] == "Paper"] == [XSS_TITLE]
    assert [n["label"] for n in visible if n["kind"] == "Category"] == ["cs.CR"]
    assert {n["kind"] for n in visible} == {"Paper", "Category", "Author", "Benchmark"}
    _clean(opened)


def _screen_point(opened: Opened, node: int) -> tuple[float, float]:
    return tuple(opened.js("""(id) => { const n = skgExplorer.network; const p = n.canvasToDOM(n.getPosition(id));
        const r = document.querySelector('#graph').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; }""", node))


def test_hover_and_click_show_details_as_text(open_page, pages):
    opened = open_page(pages["rich"])
    paper = _node_id(opened, "Paper", "Small models on Agents' Last Exam")
    opened.js("(id) => skgExplorer.network.focus(id, {scale: 1.5})", paper)
    x, y = _screen_point(opened, paper)
    opened.page.mouse.move(x, y)
    opened.wait("() => document.querySelector('#details h3') !== null")
    assert opened.page.inner_text("#details h3") == "Small models on Agents' Last Exam"
    fields = opened.js("() => Object.fromEntries([...document.querySelectorAll('#details dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))")
    assert fields["Year"] == "2026" and fields["Categories"] == "cs.CL (Computation and Language)" and fields["arXiv"] == "2601.00001"
    assert opened.js("() => document.querySelector('#details dd a').href") == "https://arxiv.org/abs/2601.00001"
    assert opened.page.inner_text("#details .abstract").startswith("On ALE, Qwen3-8B reaches")
    opened.page.mouse.click(x, y)
    assert opened.js("() => skgExplorer.selected()") == paper
    opened.page.mouse.move(5, 5)
    assert opened.page.inner_text("#details h3") == "Small models on Agents' Last Exam"  # pinned by the click
    _clean(opened)


@pytest.mark.parametrize("name", ["rich", "rich-no-csp"])
def test_script_payloads_show_as_text_and_never_run(open_page, pages, name):
    """With and without the page's Content-Security-Policy: escaping alone keeps them inert."""
    opened = open_page(pages[name])
    page = opened.page
    page.fill("#search", "Robust agents")
    assert page.inner_text("#results li:first-child span:first-child") == XSS_TITLE
    page.press("#search", "Enter")
    assert page.inner_text("#details h3") == XSS_TITLE
    assert opened.js("() => document.querySelector('#details .abstract').textContent") == XSS_ABSTRACT
    page.click(f"#details .item button:text-is('Mallory {XSS_SCRIPT}')")
    assert page.inner_text("#details h3") == f"Mallory {XSS_SCRIPT}"
    page.wait_for_timeout(300)
    assert opened.js("() => window.__skgPwned") is None
    assert opened.js("() => document.querySelectorAll('main img, main script, header img, header script').length") == 0
    _clean(opened)


def test_title_payload_shows_as_text(open_page, pages):
    opened = open_page(pages["xss-title"])
    assert opened.page.inner_text("#heading") == XSS_TITLE
    assert opened.page.title() == XSS_TITLE
    assert opened.js("() => window.__skgPwned") is None
    assert opened.js("() => document.querySelectorAll('header *').length") == 3  # h1 and two spans, nothing injected
    _clean(opened)


def test_focus_view_opens_on_the_focus(open_page, pages):
    opened = open_page(pages["focus"])
    ale = _node_id(opened, "Benchmark", "Agents' Last Exam")
    assert opened.js("() => skgExplorer.selected()") == ale
    assert opened.page.inner_text("#details h3") == "Agents' Last Exam"
    assert opened.page.inner_text("#description") == "1 link around Agents' Last Exam"
    assert _drawn(opened) == [4, 4]
    _clean(opened)


def test_empty_view_still_loads(open_page, pages):
    opened = open_page(pages["empty"])
    assert _drawn(opened) == [0, 0]
    assert opened.page.inner_text("#notice").startswith("Nothing to draw")
    assert opened.page.inner_text("#status") == "0 nodes · 0 links"
    _clean(opened)


@pytest.fixture(scope="module")
def large_pages(tmp_path_factory) -> dict[str, Path]:
    graph = synthetic_graph(5000)
    folder = tmp_path_factory.mktemp("large")
    files = {}
    for name, budget in (("budget", 2000), ("all", 0)):
        start = time.perf_counter()
        html = render_html(graph, max_nodes=budget)
        TIMINGS[f"render 5,000-node graph, max_nodes={budget} (s)"] = round(time.perf_counter() - start, 2)
        files[name] = folder / f"{name}.html"
        files[name].write_text(html, encoding="utf-8")
    return files


@pytest.mark.parametrize(("name", "drawn"), [("budget", 2000), ("all", 5000)])
def test_five_thousand_nodes_load_within_bound(open_page, large_pages, name, drawn):
    opened = open_page(large_pages[name], timeout=LARGE_LOAD_LIMIT_S * 2)
    TIMINGS[f"5,000-node graph ({name}) load + stabilisation (s)"] = round(opened.seconds, 2)
    assert opened.seconds < LARGE_LOAD_LIMIT_S, f"took {opened.seconds:.1f} s"
    assert _drawn(opened)[0] == drawn and opened.js("() => skgExplorer.data.counts.total") == 5000
    notice = opened.page.inner_text("#notice") if opened.page.is_visible("#notice") else ""
    if drawn < 5000:
        assert "Showing the 2,000 most connected of 5,000 nodes; 3,000 are hidden" in notice and "--max-nodes 5000" in notice
    else:
        assert notice == ""
    # Still responsive: filtering and searching answer quickly.
    start = time.perf_counter()
    opened.page.uncheck("#legend input[value=Paper]")
    opened.page.fill("#search", "Entity 00001")
    opened.page.press("#search", "Enter")
    assert opened.page.inner_text("#details h3") == "Entity 00001"
    elapsed = time.perf_counter() - start
    TIMINGS[f"5,000-node graph ({name}) filter + search (s)"] = round(elapsed, 2)
    assert elapsed < 10, f"filter and search took {elapsed:.1f} s"
    _clean(opened)
