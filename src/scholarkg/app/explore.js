/* scholarkg served app: Explore. A search box over the store's search index, neighbourhoods
   opened and expanded on demand, filters by type, kind, link and year, the details panel and
   the look of the static explorer (graphview.js, details.js), and deep links #node=<IRI>.
   Every question is a SPARQL query to the endpoint; values reach queries only through
   SkgClient.iri() and SkgClient.literal(). */
(function () {
  "use strict";
  const C = window.SkgClient;
  const D = window.SkgDetails;
  const el = D.el;
  const config = C.config;
  const byId = (id) => document.getElementById(id);
  const NEIGHBOURS = 200;
  const RELATED_SHOWN = 8; // per heading in the details; the panels below list everything
  const SKG = "https://w3id.org/scholarkg/ontology#";
  const PREFIXES = "PREFIX skg: <" + SKG + ">\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    + "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n"
    + "PREFIX fabio: <http://purl.org/spar/fabio/>\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n";
  const CLASSES = ["Author", "Paper", "Benchmark", "Dataset", "Model", "Method", "Task", "Metric", "Result",
    "Improvement", "CodeRepository", "ProjectPage", "WebResource"];

  const kindStyle = {};
  config.kinds.forEach((k) => { kindStyle[k.kind] = k; });
  const relationStyle = {};
  config.relations.forEach((r) => { relationStyle[r.relation] = r; });
  const predicates = Object.keys(config.predicates);

  const view = window.SkgGraph.create(byId("graph"), { kinds: kindStyle, relations: relationStyle, options: config.options });
  const network = view.network;
  view.start();
  const status = byId("status");
  const info = new Map(); // IRI -> node record (what graphview draws and details shows)
  const links = new Map(); // "from relation to" -> edge
  let pinned = null;
  let rankCounter = 0;

  /* ---- views: Explore and Workbench ---- */
  function showView(name) {
    const bench = name === "workbench";
    byId("explore").hidden = bench;
    byId("workbench").hidden = !bench;
    document.body.dataset.view = name;
    byId("to-explore").setAttribute("aria-current", bench ? "false" : "page");
    byId("to-workbench").setAttribute("aria-current", bench ? "page" : "false");
    if (bench) { window.SkgWorkbench.resize(); if (window.location.hash !== "#workbench") history.pushState(null, "", "#workbench"); }
  }
  byId("to-workbench").addEventListener("click", (event) => { event.preventDefault(); showView("workbench"); });
  byId("to-explore").addEventListener("click", (event) => {
    event.preventDefault();
    showView("explore");
    remember(pinned);
  });

  function notice(text) {
    const box = byId("notice");
    box.textContent = text;
    box.hidden = !text;
  }

  /* ---- nodes from answers ---- */
  function typeOf(classes) {
    const names = new Set(classes.filter((c) => c.startsWith(SKG)).map((c) => c.slice(SKG.length)));
    const kind = CLASSES.find((c) => names.has(c));
    if (kind) return kind;
    return classes.some((c) => c.endsWith("core#Concept")) ? "Category" : null;
  }

  function resultLabel(row) {
    const written = C.value(row, "valueText") || C.value(row, "value") || "?";
    const unit = C.value(row, "unit") || "";
    const sign = { increase: "+", decrease: "−" }[C.value(row, "change") || ""] || "";
    return sign + (unit ? (/^[0-9A-Za-z]/.test(unit) && unit !== "x" ? written + " " + unit : written + unit) : written);
  }

  function tierOf(kind, entityKind) {
    if (kind === "Author" || kind === "Paper") return 0;
    if (entityKind === "name") return 1;
    return 2;
  }

  function short(text, size) {
    return text.length > size ? text.slice(0, size - 1) + "…" : text;
  }

  function upsert(iri, fields) {
    let n = info.get(iri);
    if (!n) {
      n = { id: iri, iri, rank: 0, size: 10, degree: 0 };
      info.set(iri, n);
    }
    Object.keys(fields).forEach((k) => { if (fields[k] !== null && fields[k] !== undefined) n[k] = fields[k]; });
    n.tier = tierOf(n.kind, n.entity_kind);
    const full = n.name || n.label || iri.replace(/.*\//, "");
    n.name = full;
    n.label = n.kind === "Result" || n.kind === "Improvement" ? n.value_label || full : short(full, n.kind === "Paper" ? 40 : 32);
    if (!n.ranked) { n.ranked = true; n.rank = n.tier * 100000 + (rankCounter += 1); }
    return n;
  }

  /* The described nodes of ``iris``: type, name, kind, year, result values. */
  async function describe(iris) {
    if (!iris.length) return;
    const text = PREFIXES + "SELECT ?node ?class ?name ?kind ?year ?value ?valueText ?unit ?change ?code WHERE {\n"
      + "  VALUES ?node { " + iris.map(C.iri).join(" ") + " }\n"
      + "  ?node a ?class .\n"
      + "  OPTIONAL { ?node rdfs:label ?name }\n  OPTIONAL { ?node skg:kind ?kind }\n"
      + "  OPTIONAL { ?node fabio:hasPublicationYear ?year }\n  OPTIONAL { ?node skos:notation ?code }\n"
      + "  OPTIONAL { ?node skg:value ?value } OPTIONAL { ?node skg:valueText ?valueText }\n"
      + "  OPTIONAL { ?node skg:unit ?unit } OPTIONAL { ?node skg:change ?change }\n}";
    const answer = await C.select(text);
    const classes = new Map();
    const rows = new Map();
    answer.rows.forEach((row) => {
      const iri = C.value(row, "node");
      if (!classes.has(iri)) classes.set(iri, []);
      classes.get(iri).push(C.value(row, "class"));
      rows.set(iri, row);
    });
    rows.forEach((row, iri) => {
      const kind = typeOf(classes.get(iri));
      if (!kind) return;
      const year = C.value(row, "year");
      const code = C.value(row, "code");
      const fields = { kind, entity_kind: C.value(row, "kind"), year: year ? parseInt(year.slice(0, 4), 10) : null };
      if (kind === "Result" || kind === "Improvement") {
        fields.value_label = resultLabel(row);
        fields.name = (kind === "Result" ? "Result " : "Improvement ") + fields.value_label;
      } else if (kind === "Category" && code) {
        fields.name = code; fields.code = code; fields.title = C.value(row, "name");
      } else {
        fields.name = C.value(row, "name");
      }
      upsert(iri, fields);
    });
  }

  /* Open the neighbourhood of ``iri``: its links of the drawn kinds, up to NEIGHBOURS nodes. */
  async function open(iri) {
    const text = PREFIXES + "SELECT ?p ?out ?other WHERE {\n"
      + "  VALUES ?p { " + predicates.map(C.iri).join(" ") + " }\n"
      + "  { " + C.iri(iri) + " ?p ?other BIND(true AS ?out) } UNION { ?other ?p " + C.iri(iri) + " BIND(false AS ?out) }\n"
      + "  FILTER(isIRI(?other))\n} LIMIT " + (NEIGHBOURS + 1);
    setBusy("Opening…");
    const answer = await C.select(text, { onSlow: () => setBusy("Still opening… (the endpoint stops a query after " + config.timeout + " s)") });
    const more = answer.rows.length > NEIGHBOURS;
    const rows = answer.rows.slice(0, NEIGHBOURS);
    const others = [...new Set(rows.map((r) => C.value(r, "other")))];
    const unknown = [iri].concat(others).filter((x) => !info.has(x) || !info.get(x).kind);
    for (let i = 0; i < unknown.length; i += 100) await describe(unknown.slice(i, i + 100));
    const addedEdges = [];
    rows.forEach((row) => {
      const other = C.value(row, "other");
      if (!info.has(other) || !info.get(other).kind || !info.has(iri)) return;
      const relation = config.predicates[C.value(row, "p")];
      const out = C.value(row, "out") === "true";
      const from = out ? iri : other;
      const to = out ? other : iri;
      const key = from + " " + relation + " " + to;
      if (links.has(key)) return;
      const edge = { id: key, from, to, relation };
      links.set(key, edge);
      addedEdges.push(edge);
    });
    degrees();
    const centre = info.get(iri);
    if (centre) centre.opened = true;
    placeAround(iri, others);
    view.add([...info.values()].filter((n) => n.kind), addedEdges);
    refreshLegend();
    applyFilters();
    notice(more ? "Showing " + NEIGHBOURS + " of the links of " + (centre ? centre.name : iri)
      + "; its panels list everything, and the workbench answers any question." : "");
    return centre;
  }

  function degrees() {
    const count = new Map();
    links.forEach((e) => { count.set(e.from, (count.get(e.from) || 0) + 1); count.set(e.to, (count.get(e.to) || 0) + 1); });
    info.forEach((n) => { n.degree = count.get(n.iri) || 0; n.size = Math.round(Math.min(40, 8 + 3 * Math.sqrt(n.degree)) * 10) / 10; });
  }

  function placeAround(iri, others) {
    const positions = network.getPositions();
    const centre = positions[iri] || { x: 0, y: 0 };
    const fresh = others.filter((o) => !positions[o] && info.has(o));
    fresh.forEach((o, i) => {
      const angle = (2 * Math.PI * i) / Math.max(fresh.length, 1);
      const radius = 140 + 12 * Math.sqrt(fresh.length);
      const n = info.get(o);
      n.x = centre.x + radius * Math.cos(angle);
      n.y = centre.y + radius * Math.sin(angle);
    });
    if (!positions[iri] && info.has(iri)) { info.get(iri).x = centre.x; info.get(iri).y = centre.y; }
  }

  /* ---- details of the selected node ---- */
  async function details(iri) {
    const n = info.get(iri);
    if (!n) return;
    const text = PREFIXES + "SELECT ?title ?abstract ?arxiv ?url ?alias ?evidence ?code ?catName WHERE {\n  VALUES ?node { " + C.iri(iri) + " }\n"
      + "  { ?node dcterms:title ?title } UNION { ?node dcterms:abstract ?abstract } UNION { ?node skg:arxivId ?arxiv }\n"
      + "  UNION { ?node foaf:page ?url } UNION { ?node <https://schema.org/url> ?url } UNION { ?node skos:altLabel ?alias }\n"
      + "  UNION { ?node skg:evidence ?evidence }\n"
      + "  UNION { ?node dcterms:subject ?c . ?c skos:notation ?code OPTIONAL { ?c skos:prefLabel ?catName } }\n}";
    const answer = await C.select(text);
    const aliases = new Set();
    const categories = [];
    const names = {};
    answer.rows.forEach((row) => {
      ["title", "abstract", "evidence"].forEach((k) => { if (C.value(row, k)) n[k] = C.value(row, k); });
      if (C.value(row, "arxiv")) n.arxiv_id = C.value(row, "arxiv");
      if (C.value(row, "url")) n.url = C.value(row, "url");
      const alias = C.value(row, "alias");
      if (alias && alias.toLowerCase() !== n.name.toLowerCase()) aliases.add(alias);
      const code = C.value(row, "code");
      if (code && !categories.includes(code)) { categories.push(code); names[code] = C.value(row, "catName"); }
    });
    const seen = new Set();
    n.aliases = [...aliases].filter((a) => { const k = a.toLowerCase(); if (seen.has(k)) return false; seen.add(k); return true; }).sort();
    n.categories = categories.sort();
    n.categoryNames = names;
    return n;
  }

  function related(iri) {
    const groups = new Map();
    const order = config.relations.map((r) => r.relation);
    links.forEach((e) => {
      if (e.from !== iri && e.to !== iri) return;
      const side = e.from === iri ? 0 : 1;
      const other = side === 0 ? e.to : e.from;
      const style = relationStyle[e.relation];
      const key = (2 * order.indexOf(e.relation) + side) + "\u0001" + style.text[side];
      if (!groups.has(key)) groups.set(key, new Set());
      groups.get(key).add(other);
    });
    return [...groups.entries()].sort((a, b) => parseInt(a[0], 10) - parseInt(b[0], 10)).map(([key, others]) => {
      const all = [...others].map((o) => info.get(o)).filter(Boolean).sort((a, b) => a.name.localeCompare(b.name));
      const items = all.slice(0, RELATED_SHOWN).map((o) => D.pickItem(o.name, kindStyle[o.kind].text, () => select(o.iri)));
      return [key.split("\u0001")[1], items, all.length - items.length];
    });
  }

  function showDetails(iri) {
    const n = info.get(iri);
    if (!n) return;
    let after = null;
    if (!n.opened) {
      after = el("button", "Open its neighbours", "around");
      after.type = "button";
      after.addEventListener("click", () => expand(iri));
    }
    D.render(byId("details"), n, { kinds: kindStyle, categoryNames: n.categoryNames || {}, related: related(iri), after });
  }

  async function select(iri, how) {
    const options = Object.assign({ remember: true, panels: true, centre: true }, how || {});
    try {
      if (!info.has(iri) || !info.get(iri).kind) await open(iri);
      if (!info.has(iri) || !info.get(iri).kind) {
        notice("The link names a node that is not in this store: " + iri);
        setReady();
        return;
      }
      pinned = iri;
      if (hiddenNodes.has(iri)) resetFilters();
      network.selectNodes([iri]);
      if (options.centre) network.focus(iri, { scale: Math.max(1.0, network.getScale()), animation: { duration: 250, easingFunction: "easeInOutQuad" } });
      showDetails(iri);
      if (options.remember) remember(iri);
      const n = await details(iri);
      if (pinned === iri) showDetails(iri);
      if (options.panels && pinned === iri) window.SkgPanels.show(byId("panels"), n, (target) => select(target));
      setReady();
    } catch (error) {
      failed(error);
    }
  }

  async function expand(iri) {
    try {
      await open(iri);
      if (pinned === iri) showDetails(iri);
      network.fit({ animation: { duration: 250, easingFunction: "easeInOutQuad" } });
      setReady();
    } catch (error) {
      failed(error);
    }
  }

  // a node clicked on the drawing stays where it is (a double-click's second click must find it there)
  network.on("selectNode", (p) => { select(p.nodes[0], { centre: false }); });
  network.on("doubleClick", (p) => { if (p.nodes.length) expand(p.nodes[0]); });
  network.on("hoverNode", (p) => showDetails(p.node));
  network.on("blurNode", () => { if (pinned) showDetails(pinned); });

  /* ---- deep links and history ---- */
  function hashNode() {
    const match = /^#node=(.+)$/.exec(window.location.hash);
    if (!match) return null;
    try { return decodeURIComponent(match[1]); } catch (e) { return match[1]; }
  }

  function remember(iri) {
    const hash = iri ? "#node=" + encodeURIComponent(iri) : "";
    if (window.location.hash === hash) return;
    history.pushState(null, "", hash || window.location.pathname);
  }

  function follow() {
    if (window.location.hash === "#workbench") { showView("workbench"); return; }
    showView("explore");
    const iri = hashNode();
    if (iri && iri !== pinned) select(iri, { remember: false });
  }
  window.addEventListener("popstate", follow);
  window.addEventListener("hashchange", follow);

  /* ---- filters: type, name or concept, link kind, year ---- */
  const hiddenNodes = new Set();
  const boxes = { kinds: new Map(), sorts: new Map(), relations: new Map() };
  const yearFrom = byId("year-from");
  const yearTo = byId("year-to");

  function checkRow(list, group, value, text, prefix, title) {
    boxes[group].set(value, D.checkRow(list, value, text, "0", prefix, title, () => applyFilters({ fit: true })));
  }


  config.kinds.forEach((k) => checkRow(byId("legend"), "kinds", k.kind, k.text, window.SkgGraph.icon(k)));
  [["name", "Names", "proper names: known, coined or defined in the text"], ["concept", "Concepts", "term phrases such as question answering"]]
    .forEach(([v, t, title]) => checkRow(byId("sorts"), "sorts", v, t, null, title));
  config.relations.forEach((r) => {
    const line = el("span", null, "line" + (r.dashes ? " dashed" : ""));
    line.style.borderTopColor = r.color;
    checkRow(byId("roles"), "relations", r.relation, r.relation, line);
  });
  [yearFrom, yearTo].forEach((input) => input.addEventListener("input", () => applyFilters({ fit: true })));

  function refreshLegend() {
    const present = new Set([...info.values()].map((n) => n.kind));
    boxes.kinds.forEach((box, kind) => { box.closest("li").hidden = !present.has(kind); });
    const relations = new Set([...links.values()].map((e) => e.relation));
    boxes.relations.forEach((box, rel) => { box.closest("li").hidden = !relations.has(rel); });
    const years = [...info.values()].filter((n) => n.kind === "Paper" && n.year).map((n) => n.year);
    byId("year-box").hidden = !years.length;
    if (years.length) {
      const low = Math.min(...years);
      const high = Math.max(...years);
      if (!yearFrom.dataset.touched) { yearFrom.value = low; yearTo.value = high; }
      yearFrom.min = yearTo.min = low;
      yearFrom.max = yearTo.max = high;
    }
  }
  [yearFrom, yearTo].forEach((input) => input.addEventListener("change", () => { yearFrom.dataset.touched = "1"; }));

  function applyFilters(how) {
    const on = (group) => new Set([...boxes[group].entries()].filter(([, b]) => b.checked).map(([v]) => v));
    const kinds = on("kinds");
    const sorts = on("sorts");
    const relations = on("relations");
    const low = parseInt(yearFrom.value, 10);
    const high = parseInt(yearTo.value, 10);
    const counts = { kinds: {}, sorts: {}, relations: {} };
    const changes = new Map();
    info.forEach((n) => {
      if (!n.kind) return;
      const yearOk = n.kind !== "Paper" || !n.year || ((Number.isNaN(low) || n.year >= low) && (Number.isNaN(high) || n.year <= high));
      const passes = yearOk && kinds.has(n.kind) && (!n.entity_kind || sorts.has(n.entity_kind));
      if (yearOk) counts.kinds[n.kind] = (counts.kinds[n.kind] || 0) + 1;
      if (yearOk && n.entity_kind) counts.sorts[n.entity_kind] = (counts.sorts[n.entity_kind] || 0) + 1;
      changes.set(n.iri, !passes);
      if (passes) hiddenNodes.delete(n.iri); else hiddenNodes.add(n.iri);
    });
    view.setHidden(changes);
    const edgeUpdates = [];
    let shownLinks = 0;
    links.forEach((e) => {
      const hide = hiddenNodes.has(e.from) || hiddenNodes.has(e.to) || !relations.has(e.relation);
      if (!hiddenNodes.has(e.from) && !hiddenNodes.has(e.to)) counts.relations[e.relation] = (counts.relations[e.relation] || 0) + 1;
      if (!hide) shownLinks += 1;
      edgeUpdates.push({ id: e.id, hidden: hide });
    });
    if (edgeUpdates.length) view.edges.update(edgeUpdates);
    Object.keys(boxes).forEach((group) => boxes[group].forEach((box, value) => {
      box.parentElement.querySelector(".count").textContent = counts[group][value] || 0;
    }));
    const drawn = [...info.values()].filter((n) => n.kind);
    const shown = drawn.filter((n) => !hiddenNodes.has(n.iri));
    status.textContent = shown.length === drawn.length ? drawn.length + " nodes · " + shownLinks + " links"
      : shown.length + " of " + drawn.length + " nodes · " + shownLinks + " links";
    document.body.dataset.visibleNodes = String(shown.length);
    document.body.dataset.visibleEdges = String(shownLinks);
    if (how && how.fit && shown.length) network.fit({ nodes: shown.map((n) => n.iri), maxZoomLevel: 1.6, animation: { duration: 250, easingFunction: "easeInOutQuad" } });
  }

  function resetFilters() {
    Object.values(boxes).forEach((group) => group.forEach((b) => { b.checked = true; }));
    delete yearFrom.dataset.touched;
    refreshLegend();
    applyFilters();
  }

  byId("clear").addEventListener("click", () => {
    info.clear(); links.clear(); hiddenNodes.clear(); view.clear(); pinned = null;
    byId("details").replaceChildren(el("p", "Search for an author, paper, entity or category to start.", "hint"));
    byId("panels").replaceChildren();
    remember(null);
    refreshLegend();
    applyFilters();
  });
  byId("fit").addEventListener("click", () => network.fit({ animation: false }));

  /* ---- search: the store's prefix index, one bucket per query ---- */
  const searchBox = byId("search");
  const resultList = byId("results");
  let searchTurn = 0;
  let timer = null;

  async function search(typed) {
    const words = C.fold(typed);
    if (!words) return [];
    const bucket = words.split(" ")[0].slice(0, config.prefix_letters);
    const text = PREFIXES + "SELECT ?node ?type ?rank ?key ?label WHERE {\n"
      + "  GRAPH " + C.iri(config.search_graph) + " { ?e skg:searchPrefix " + C.literal(bucket) + " ; skg:searchKey ?key ;\n"
      + "    skg:searchFor ?node ; skg:searchType ?type ; skg:searchRank ?rank }\n"
      + "  FILTER(CONTAINS(?key, " + C.literal(" " + words) + "))\n"
      + "  OPTIONAL { ?node rdfs:label ?label }\n} LIMIT 500";
    const answer = await C.select(text);
    const best = new Map();
    answer.rows.forEach((row) => {
      const node = C.value(row, "node");
      const key = C.value(row, "key");
      const score = key === " " + words ? 0 : key.startsWith(" " + words) ? 1 : 2;
      const hit = { node, type: C.value(row, "type"), rank: parseInt(C.value(row, "rank") || "0", 10), label: C.value(row, "label") || node, score };
      const seen = best.get(node);
      if (!seen || score < seen.score) best.set(node, hit);
    });
    return [...best.values()].sort((a, b) => a.score - b.score || b.rank - a.rank || a.label.localeCompare(b.label)).slice(0, 12);
  }

  async function showMatches() {
    const turn = (searchTurn += 1);
    const typed = searchBox.value;
    if (!typed.trim()) { resultList.replaceChildren(); byId("search-note").textContent = ""; return; }
    const started = performance.now();
    try {
      const hits = await search(typed);
      if (turn !== searchTurn) return;
      resultList.replaceChildren();
      resultList.dataset.query = typed;
      if (!hits.length) resultList.append(el("li", "No match", "empty"));
      hits.forEach((hit) => {
        const button = el("button");
        button.type = "button";
        button.dataset.node = hit.node;
        button.append(el("span", hit.label), " ", el("span", (kindStyle[hit.type] || { text: hit.type }).text, "kind"));
        button.addEventListener("click", () => select(hit.node));
        const li = el("li");
        li.append(button);
        resultList.append(li);
      });
      const ms = Math.round(performance.now() - started);
      document.body.dataset.searchMs = String(ms);
      byId("search-note").textContent = hits.length ? hits.length + " shown · " + ms + " ms" : "";
    } catch (error) {
      if (turn === searchTurn) byId("search-note").textContent = "Search failed: " + error.message;
    }
  }

  searchBox.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(showMatches, 120); });
  searchBox.addEventListener("keydown", async (event) => {
    if (event.key === "Enter") {
      const hits = await search(searchBox.value);
      if (hits.length) select(hits[0].node);
    } else if (event.key === "Escape") {
      searchBox.value = "";
      showMatches();
    }
  });
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName) || document.activeElement.closest(".ace_editor");
    if (event.key === "/" && !typing && document.body.dataset.view === "explore") { event.preventDefault(); searchBox.focus(); }
  });

  /* ---- state ---- */
  function setBusy(text) {
    document.body.dataset.state = "busy";
    status.textContent = text;
  }

  function setReady() {
    document.body.dataset.state = "ready";
    applyFilters();
  }

  function failed(error) {
    document.body.dataset.state = "ready";
    notice("The endpoint could not answer: " + error.message);
  }

  async function start() {
    try {
      const answer = await C.select("ASK { GRAPH " + C.iri(config.search_graph) + " { ?s ?p ?o } }");
      const indexed = answer.rows.length && C.value(answer.rows[0], "answer") === "true";
      if (!indexed) notice("This store has no search index: build into it once more (scholarkg build … --store " + config.store + ") to make one; deep links and the workbench work without it.");
    } catch (error) {
      failed(error);
    }
    setReady();
    follow();
  }

  window.SkgApp = { showView, select, expand, search, info, links, network, view, selected: () => pinned,
    drawnLabels: view.drawnLabels, visibleNodeIds: () => [...info.keys()].filter((i) => !hiddenNodes.has(i)) };
  start();
})();
