"""What a person sees when the explorer opens, in Debian's chromium at 100% zoom: the names
that matter drawn readably, filters that re-fit the view and recount, deep links from the
profile page, and plain text where the records had TeX."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest
from browser import assert_clean

from scholarkg.pipeline import write_outputs
from scholarkg.profile import author_profile, profile_html

pytestmark = pytest.mark.browser

# A TeX control sequence, math shift with a script, or an escaped percent sign.
TEX_LEFT = re.compile(r"\\[A-Za-z]+|\\[%&$#_{}]|\$\^|\$_")
MIN_LABEL_PX = 11


@pytest.fixture(scope="module")
def site(seed_build, tmp_path_factory) -> Path:
    """The seed built as `scholarkg build` writes it, with the author's profile page beside it."""
    out = tmp_path_factory.mktemp("site") / "maojia-song"
    write_outputs(seed_build, out)
    (out / "profile.html").write_text(
        profile_html(author_profile(seed_build.graph, "Maojia Song"), explorer="graph.html"), encoding="utf-8")
    return out


def _introduced(opened) -> list[int]:
    return opened.js("() => [...new Set(skgExplorer.data.edges.filter(e => e.relation === 'introduces').map(e => e.to))]")


def _canvas(opened) -> dict:
    return opened.js("() => { const r = document.querySelector('#graph canvas').getBoundingClientRect();"
                     " return {width: r.width, height: r.height}; }")


def _screen(opened, ids) -> dict:
    return {int(k): v for k, v in opened.js("""(ids) => { const n = skgExplorer.network;
        return Object.fromEntries(ids.map(i => [i, n.canvasToDOM(n.getPosition(i))])); }""", ids).items()}


def test_first_view_draws_the_names_that_matter_readably(open_page, site):
    opened = open_page(site / "graph.html")
    labels = {label["id"]: label for label in opened.js("() => skgExplorer.drawnLabels()")}
    nodes = opened.js("() => skgExplorer.data.nodes")
    introduced = _introduced(opened)
    assert len(introduced) >= 10
    box = _canvas(opened)
    for node, point in _screen(opened, introduced).items():
        assert 0 <= point["x"] <= box["width"] and 0 <= point["y"] <= box["height"], nodes[node]["name"]
        assert node in labels, f"no label drawn for {nodes[node]['name']!r}"
        assert labels[node]["px"] >= MIN_LABEL_PX and labels[node]["text"] == nodes[node]["label"]
    # papers, but for those named after what they introduce, whose name is then drawn once
    papers = [n["id"] for n in nodes if n["kind"] == "Paper" and n["tier"] == 0]
    assert len(papers) >= 9 and sum(p in labels for p in papers) >= 0.6 * len(papers)
    first = [n["id"] for n in nodes if n["tier"] == 0]
    assert sum(f in labels for f in first) >= 0.85 * len(first)
    used = [n["id"] for n in nodes if n["tier"] == 1]
    assert sum(u in labels for u in used) >= 0.4 * len(used)
    # the vis-network labels of old were about 4 px here: nothing is drawn below the minimum
    assert all(label["px"] >= MIN_LABEL_PX for label in labels.values())
    # no two labels overlap, and each lies inside the canvas
    placed = list(labels.values())
    for i, a in enumerate(placed):
        assert a["x"] >= 0 and a["y"] >= 0 and a["x"] + a["width"] <= box["width"] and a["y"] + a["height"] <= box["height"]
        for b in placed[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a["text"], b["text"])
    assert_clean(opened)


def test_zooming_in_brings_the_other_labels(open_page, site):
    opened = open_page(site / "graph.html")
    minor = opened.js("() => skgExplorer.data.nodes.filter(n => n.tier === 2).map(n => n.id)")
    first = {label["id"] for label in opened.js("() => skgExplorer.drawnLabels()")}
    assert not first & set(minor)  # at the first view only the names that matter
    opened.js("(id) => skgExplorer.network.moveTo({position: skgExplorer.network.getPosition(id), scale: 1.5})", minor[0])
    opened.page.wait_for_timeout(100)
    drawn = {label["id"]: label for label in opened.js("() => skgExplorer.drawnLabels()")}
    assert len(set(drawn) & set(minor)) >= 3
    assert_clean(opened)


def test_first_view_names_can_be_read_by_ocr(open_page, browser_context, site, tmp_path):
    """The check a person makes: tesseract reads the introduced names off a screenshot (taken
    at two device pixels per CSS pixel, as on a sharp screen, for tesseract's sake)."""
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (apt-get install tesseract-ocr)")
    opened = open_page(site / "graph.html")
    cdp = browser_context.new_cdp_session(opened.page)
    cdp.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 860, "deviceScaleFactor": 2, "mobile": False})
    opened.page.reload()
    opened.page.wait_for_selector("body[data-state=ready]", state="attached")
    names = opened.js("(ids) => ids.map(i => skgExplorer.data.nodes[i].label)", _introduced(opened))
    shot = tmp_path / "canvas.png"
    opened.page.locator("#graph").screenshot(path=str(shot))
    text = subprocess.run(["tesseract", str(shot), "-", "--psm", "11"], capture_output=True, text=True, check=True).stdout
    flat = re.sub(r"[^a-z0-9]", "", text.lower())
    read = [name for name in names if re.sub(r"[^a-z0-9]", "", name.lower()) in flat]
    assert len(read) >= 0.7 * len(names), sorted(set(names) - set(read))
    assert_clean(opened)


def test_filters_refit_the_view_and_recount(open_page, site):
    opened = open_page(site / "graph.html")
    before = opened.js("() => [skgExplorer.network.getScale(), skgExplorer.network.getViewPosition()]")
    opened.page.fill("#year-from", "2026")
    opened.page.wait_for_timeout(400)  # the fit is animated over 250 ms
    visible = opened.js("() => skgExplorer.visibleNodeIds()")
    nodes = opened.js("() => skgExplorer.data.nodes")
    counts = opened.js("""() => Object.fromEntries([...document.querySelectorAll('#legend li')].map(li =>
        [li.querySelector('input').value, Number(li.querySelector('.count').textContent)]))""")
    shown_kinds = {}
    for node in visible:
        shown_kinds[nodes[node]["kind"]] = shown_kinds.get(nodes[node]["kind"], 0) + 1
    assert counts == {kind: shown_kinds.get(kind, 0) for kind in counts}
    assert counts["Paper"] == sum(1 for n in nodes if n["kind"] == "Paper" and n.get("year") == 2026) < 18
    links = opened.js("""() => Object.fromEntries([...document.querySelectorAll('#relations .count')].map(s =>
        [s.dataset.relation, Number(s.textContent)]))""")
    edges = opened.js("() => skgExplorer.data.edges")
    shown = set(visible)
    expected = {}
    for e in edges:
        if e["from"] in shown and e["to"] in shown:
            expected[e["relation"]] = expected.get(e["relation"], 0) + 1
    assert links == {relation: expected.get(relation, 0) for relation in links}
    after = opened.js("() => [skgExplorer.network.getScale(), skgExplorer.network.getViewPosition()]")
    assert after != before
    box = _canvas(opened)
    for point in _screen(opened, visible).values():  # everything left is in sight
        assert -1 <= point["x"] <= box["width"] + 1 and -1 <= point["y"] <= box["height"] + 1
    assert_clean(opened)


def test_deep_link_selects_and_centres_and_the_back_button_works(open_page, site):
    probe = open_page(site / "graph.html")
    nodes = probe.js("() => skgExplorer.data.nodes")
    target = next(n for n in nodes if n["kind"] == "Benchmark" and n["name"] == "Agents' Last Exam")
    other = next(n for n in nodes if n["kind"] == "Paper")
    opened = open_page((site / "graph.html").as_uri() + "#node=" + quote(target["iri"], safe=""))
    page = opened.page
    assert opened.js("() => skgExplorer.selected()") == target["id"]
    assert page.inner_text("#details h3") == "Agents' Last Exam"
    point = _screen(opened, [target["id"]])[target["id"]]
    box = _canvas(opened)
    assert abs(point["x"] - box["width"] / 2) < 3 and abs(point["y"] - box["height"] / 2) < 3
    opened.js("(id) => skgExplorer.pick(id)", other["id"])
    assert page.evaluate("() => decodeURIComponent(location.hash)") == "#node=" + other["iri"]
    page.go_back()
    opened.wait(f"() => skgExplorer.selected() === {target['id']}")
    assert page.inner_text("#details h3") == "Agents' Last Exam"
    page.go_forward()
    opened.wait(f"() => skgExplorer.selected() === {other['id']}")
    assert_clean(opened)


def test_deep_link_to_a_node_not_drawn_says_so(open_page, site):
    opened = open_page((site / "graph.html").as_uri() + "#node=" + quote("https://example.org/nothing", safe=""))
    assert opened.js("() => skgExplorer.selected()") is None
    assert "not drawn on this page: https://example.org/nothing" in opened.page.inner_text("#notice")
    assert_clean(opened)


def test_profile_links_open_the_node_in_the_explorer(open_page, site):
    opened = open_page(site / "profile.html", ready=False)
    link = opened.page.locator("a[href*='#node=']", has_text="Agents' Last Exam").first
    link.click()
    opened.page.wait_for_selector("body[data-state=ready]", state="attached")
    assert opened.page.url.split("#")[0].endswith("/graph.html")
    assert opened.page.inner_text("#details h3") == "Agents' Last Exam"
    assert_clean(opened)


def test_no_tex_reaches_either_page(open_page, site):
    assert "P$^2$" in (site / "graph.ttl").read_text(encoding="utf-8")  # the source text keeps its TeX
    explorer = open_page(site / "graph.html")
    strings = explorer.js("""() => skgExplorer.data.nodes.flatMap(n => [n.label, n.name, n.abstract || '',
        n.evidence || '', ...(n.aliases || [])])""")
    # each paper's details, as a reader opens them
    for paper in explorer.js("() => skgExplorer.data.nodes.filter(n => n.kind === 'Paper').map(n => n.id)"):
        explorer.js("(id) => skgExplorer.pick(id)", paper)
        strings.append(explorer.page.inner_text("#details"))
    strings += [label["text"] for label in explorer.js("() => skgExplorer.drawnLabels()")]
    assert any("P²-MOPD" in s for s in strings)
    assert [s for s in strings if TEX_LEFT.search(s)] == []
    profile = open_page(site / "profile.html", ready=False)
    text = profile.page.inner_text("body")
    assert "P²-MOPD" in text and not TEX_LEFT.search(text), TEX_LEFT.findall(text)[:5]
    assert_clean(explorer)
    assert_clean(profile)
