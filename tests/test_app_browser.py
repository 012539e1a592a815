"""The served app in Debian's chromium against a real `scholarkg serve`, started here: search,
neighbourhoods, filters, deep links, panels checked against the named queries' answers, the
workbench (named and typed queries, errors, a refused update, downloads), no console errors,
no outside requests, and hostile record text shown as text. The screenshots of the README's
served-app section are written here."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest
from browser import assert_clean, launch_context, page_opener
from storekit import record, running, write_jsonl

from scholarkg import api
from scholarkg.serve import free_port

DOCS = Path(__file__).resolve().parent.parent / "docs"
HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> Zork Bench'


def _serve(store, *options):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "scholarkg.cli", "serve", str(store), "--port", str(port), "--timeout", "10", *options]
    return base, running(command, base + "/query?query=ASK%7B%7D")


@pytest.fixture(scope="module")
def app(seed_store):
    base, server = _serve(seed_store)
    with server:
        yield base


@pytest.fixture(scope="module")
def context(tmp_path_factory):
    yield from launch_context(tmp_path_factory, offline=False, viewport={"width": 1400, "height": 900})


@pytest.fixture
def open_app(context, app):
    pages: list = []
    opener = page_opener(context, pages, allowed=(app,))

    def _open(fragment: str = ""):
        opened = opener(app + "/app/" + fragment)
        opened.made = []
        opened.page.on("request", lambda r: opened.made.append(r.url))
        return opened

    yield _open
    for page in pages:
        page.close()


def _search(opened, text):
    opened.page.fill("#search", text)
    return opened.wait(f"""() => {{
        const b = [...document.querySelectorAll('#results button')];
        return b.length && document.getElementById('results').dataset.query === {json.dumps(text)} ? b.map(x => x.textContent) : null;
    }}""")


def _panels_ready(opened, *names):
    return opened.wait(f"""() => {{
        const p = [...document.querySelectorAll('.panel')];
        return JSON.stringify(p.map(x => x.dataset.panel)) === {json.dumps(json.dumps(list(names)).replace(" ", ""))}
            && p.every(x => x.dataset.state === 'ready')
            ? Object.fromEntries(p.map(x => [x.dataset.panel, +x.dataset.rows || 0])) : null;
    }}""", timeout=20)


def _named_rows(store, name, **params):
    return len(api.query(store, named=name, **params).rows)


def _same_as_named_query(opened, store, name, **params):
    """The panel's table is the first page of the named query's answer, cell for cell."""
    shown = opened.js("""(name) => {
        const t = document.querySelector(`.panel[data-panel="${name}"] table`);
        const heads = [...t.querySelectorAll('th')].map(th => th.textContent);
        return [...t.querySelectorAll('tbody tr')].map(tr => Object.fromEntries([...tr.children].map((td, i) => [heads[i], td.textContent])));
    }""", name)
    expected = [{column: row.get(column) or "" for column in shown[0]} for row in api.query(store, named=name, **params)][:25]
    assert shown == expected, name


def test_search_opens_an_entity_with_its_details_and_panels(open_app, seed_store):
    opened = open_app()
    hits = _search(opened, "browsec")
    assert hits[0].split(" ")[0] == "BrowseComp" and all("BrowseComp" in h for h in hits), hits
    opened.page.click("#results button >> nth=0")
    rows = _panels_ready(opened, "entity-papers", "evidence", "related-entities")
    assert opened.page.text_content("#details h3") == "BrowseComp"
    for name in ("entity-papers", "evidence", "related-entities"):
        assert rows[name] == min(25, _named_rows(seed_store, name, entity="BrowseComp")) > 0, name
        _same_as_named_query(opened, seed_store, name, entity="BrowseComp")
    assert opened.js("document.body.dataset.visibleNodes") not in (None, "0")
    # each panel shows its SPARQL, parameters written in, and opens it in the workbench
    query = opened.page.text_content(".panel[data-panel=evidence] pre")
    assert 'VALUES (?entity) { ("BrowseComp") }' in query
    base = opened.page.url.split("/app/")[0]
    assert opened.made and all(u.startswith((base + "/query", base + "/app/named?")) for u in opened.made)
    assert_clean(opened)


def test_every_panel_of_the_seed_is_filled_and_agrees_with_its_named_query(open_app, seed_store):
    opened = open_app()
    _search(opened, "maojia so")
    opened.page.click("#results button >> nth=0")
    rows = _panels_ready(opened, "author-papers", "author-entities", "author-results", "coauthors")
    author = {"author": "Maojia Song"}
    assert rows == {name: min(25, _named_rows(seed_store, name, **author))
                    for name in ("author-papers", "author-entities", "author-results", "coauthors")}
    assert all(rows.values())
    for name in rows:
        _same_as_named_query(opened, seed_store, name, **author)
    DOCS.mkdir(exist_ok=True)
    opened.page.screenshot(path=str(DOCS / "app-explore.png"))
    opened.js("() => document.querySelector('.panels-heading').scrollIntoView()")
    opened.page.locator("#side").screenshot(path=str(DOCS / "app-panels.png"))

    # a paper panel, reached from the author's papers panel
    opened.page.click(".panel[data-panel=author-papers] button.pick >> nth=0")
    rows = _panels_ready(opened, "paper-entities")
    title = opened.page.text_content("#details h3")
    assert rows["paper-entities"] == min(25, _named_rows(seed_store, "paper-entities", paper=title)) > 0
    _same_as_named_query(opened, seed_store, "paper-entities", paper=title)

    # a category panel
    _search(opened, "cs.cl")
    opened.page.click("#results button >> nth=0")
    rows = _panels_ready(opened, "category-papers")
    assert rows["category-papers"] == min(25, _named_rows(seed_store, "category-papers", category="cs.CL")) > 0
    _same_as_named_query(opened, seed_store, "category-papers", category="cs.CL")
    assert_clean(opened)


def _node_on_screen(opened, iri):
    """Where a node is drawn, once the layout has stopped moving it."""
    last = None
    for _ in range(100):
        here = _node_at(opened, iri)
        if last is not None and abs(here[0] - last[0]) < 0.5 and abs(here[1] - last[1]) < 0.5:
            return here
        last = here
        opened.page.wait_for_timeout(150)
    return last


def _node_at(opened, iri):
    return opened.js("""(iri) => {
        const net = window.SkgApp.network;
        const p = net.getPositions([iri])[iri];
        const d = net.canvasToDOM(p);
        const r = document.querySelector('#graph canvas').getBoundingClientRect();
        return [r.left + d.x, r.top + d.y];
    }""", iri)


def test_double_click_expands_filters_refit_and_recount(open_app):
    opened = open_app()
    _search(opened, "grpo")
    opened.page.click("#results button >> nth=0")
    opened.wait("() => document.body.dataset.state === 'ready' && document.querySelector('#details h3')")
    before = int(opened.js("document.body.dataset.visibleNodes"))
    neighbour = opened.js("""() => { const a = window.SkgApp; const sel = a.selected();
        return [...a.links.values()].map(e => e.from === sel ? e.to : e.from).find(i => a.info.get(i).kind === 'Paper'); }""")
    x, y = _node_on_screen(opened, neighbour)
    opened.page.mouse.dblclick(x, y)
    opened.wait(f"() => +document.body.dataset.visibleNodes > {before}", timeout=20)
    after = int(opened.js("document.body.dataset.visibleNodes"))

    count = "(k) => +document.querySelector(`#legend input[value=${k}]`).parentElement.querySelector('.count').textContent"
    papers = opened.js(count, "Paper")
    assert papers >= 1
    scale = opened.js("window.SkgApp.network.getScale()")
    opened.page.uncheck("#legend input[value=Paper]")
    opened.wait(f"() => +document.body.dataset.visibleNodes === {after - papers}")
    opened.page.uncheck("#sorts input[value=concept]")
    concepts = opened.js("() => +document.querySelector('#sorts input[value=concept]').parentElement.querySelector('.count').textContent")
    opened.wait(f"() => +document.body.dataset.visibleNodes === {after - papers - concepts}")
    opened.page.wait_for_timeout(400)
    assert opened.js("window.SkgApp.network.getScale()") != scale  # re-fitted to what is left
    opened.page.check("#legend input[value=Paper]")
    opened.page.check("#sorts input[value=concept]")
    opened.page.fill("#year-from", "2026")
    opened.wait(f"() => +document.body.dataset.visibleNodes < {after}")
    older = opened.js("() => [...window.SkgApp.info.values()].filter(n => n.kind === 'Paper' && n.year < 2026).length")
    assert int(opened.js("document.body.dataset.visibleNodes")) == after - older
    assert_clean(opened)


def test_deep_links_select_and_the_back_button_steps_back(open_app, seed_store):
    author = next(r["author"] for r in api.query(seed_store, "SELECT ?author WHERE { ?author a <https://w3id.org/scholarkg/ontology#Author> }"))
    opened = open_app("#node=" + urllib.request.quote(author, safe=""))
    opened.wait("() => document.querySelector('#details h3') && document.querySelector('#details h3').textContent === 'Maojia Song'")
    assert opened.js("window.SkgApp.selected()") == author
    opened.page.click("#details .item button >> nth=0")  # one of the author's papers
    opened.wait(f"() => window.SkgApp.selected() !== {json.dumps(author)} && location.hash.includes('paper')")
    opened.page.go_back()
    opened.wait(f"() => window.SkgApp.selected() === {json.dumps(author)}")
    assert opened.page.text_content("#details h3") == "Maojia Song"

    missing = open_app("#node=" + urllib.request.quote("https://w3id.org/scholarkg/id/entity/no-such-thing", safe=""))
    missing.wait("() => !document.getElementById('notice').hidden")
    assert "not in this store" in missing.page.text_content("#notice")
    assert_clean(opened)


def test_the_workbench_runs_named_and_typed_queries_and_words_errors_as_the_endpoint_does(open_app, seed_store, tmp_path):
    opened = open_app("#workbench")
    opened.wait("() => !document.getElementById('workbench').hidden")
    page = opened.page
    page.click("#named-list button[data-name=papers-by-year]")
    page.fill("#named-params input[name=author]", "Maojia Song")
    page.click("#named-form button[type=submit]")
    opened.wait("() => document.body.dataset.workbench === 'answered' && document.getElementById('table').rows.length > 1")
    expected = api.query(seed_store, named="papers-by-year", author="Maojia Song")
    assert int(opened.js("document.body.dataset.rows")) == len(expected.rows)
    assert 'VALUES (?author) { ("Maojia Song") }' in opened.js("window.SkgWorkbench.editor.getValue()")

    def typed(text):
        opened.js("(t) => { document.body.dataset.workbench = ''; window.SkgWorkbench.editor.setValue(t, -1); }", text)
        page.click("#run")
        return opened.wait("() => ['answered', 'error'].includes(document.body.dataset.workbench) && document.body.dataset.workbench")

    assert typed("SELECT ?p WHERE { ?p a <https://w3id.org/scholarkg/ontology#Paper> }") == "answered"
    assert int(opened.js("document.body.dataset.rows")) == 18
    page.select_option("#page-size", "25")
    assert typed("SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o") == "answered"
    assert opened.js("document.body.dataset.rows") == "25" and not page.is_disabled("#next")
    page.click("#next")
    opened.wait("() => document.getElementById('page-info').textContent.startsWith('rows 26')")

    with page.expect_download() as download:
        page.click("#csv")
    saved = tmp_path / "answer.csv"
    download.value.save_as(saved)
    lines = saved.read_text(encoding="utf-8").splitlines()
    assert lines[0].strip() == "s,p,o" and len(lines) > 1000  # the whole answer, not the page

    assert typed("SELECT ?x WHERE { ?x ?y }") == "error"
    assert page.text_content("#error").startswith("HTTP 400")
    assert typed("INSERT DATA { <urn:x:a> <urn:x:b> <urn:x:c> }") == "error"
    refused = page.text_content("#error")
    assert "HTTP 403" in refused or "refused" in refused
    DOCS.mkdir(exist_ok=True)
    page.click("#named-list button[data-name=author-results]")
    opened.wait("() => document.body.dataset.workbench === 'answered'")
    page.screenshot(path=str(DOCS / "app-workbench.png"))
    opened.errors[:] = [e for e in opened.errors if "status of 400" not in e and "status of 403" not in e]
    assert_clean(opened)


def test_hostile_record_text_is_shown_as_text(context, tmp_path):
    """Readers strip markup from records, but a store also takes pushed data and updates: a
    label made of markup, put in with an update, must reach the page as text."""
    from scholarkg.named import sparql_string
    from scholarkg.store import build_store

    records = write_jsonl(tmp_path / "r.jsonl", [record(1, "We introduce ZorkBench, a benchmark for text games.")])
    store = tmp_path / "hostile.store"
    build_store([records], store)
    base, server = _serve(store, "--allow-update")
    entity = "https://w3id.org/scholarkg/id/entity/hostile"
    update = (f"PREFIX skg: <https://w3id.org/scholarkg/ontology#> INSERT DATA {{ GRAPH <urn:x:g> {{ "
              f"<{entity}> a skg:Benchmark ; <http://www.w3.org/2000/01/rdf-schema#label> {sparql_string(HOSTILE)} ; "
              f"<http://www.w3.org/2004/02/skos/core#prefLabel> {sparql_string(HOSTILE)} ; skg:kind \"name\" ; "
              f"skg:evidence {sparql_string(HOSTILE)} . "
              f"<https://w3id.org/scholarkg/id/paper/arxiv/2501.00001> skg:introduces <{entity}> }} }}")
    with server:
        request = urllib.request.Request(base + "/update", data=update.encode(), headers={"Content-Type": "application/sparql-update"})
        urllib.request.urlopen(request, timeout=30).close()
        pages: list = []
        opened = page_opener(context, pages, allowed=(base,))(base + "/app/#node=" + urllib.request.quote(entity, safe=""))
        opened.wait("() => document.querySelector('#details h3')")
        opened.wait("() => document.querySelectorAll('.panel').length && [...document.querySelectorAll('.panel')].every(p => p.dataset.state !== 'loading')")
        assert opened.page.text_content("#details h3") == HOSTILE
        opened.js("() => window.SkgApp.expand(window.SkgApp.selected())")
        _search(opened, "zorkb")
        assert opened.js("window.__pwned") is None
        assert opened.js("document.querySelectorAll('main img, main script, main svg:not(.icon)').length") == 0
        assert_clean(opened)
        for page in pages:
            page.close()
