/* scholarkg explorer: draws the page data with vis-network and wires search, filters and details.
   Text from records is only ever set with textContent; links are made only of http(s) URLs. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("skg-data").textContent);
  const byId = (id) => document.getElementById(id);
  const info = data.nodes; // node details; a node's id is its index
  const kindStyle = {};
  data.kinds.forEach((k) => { kindStyle[k.kind] = k; });
  const relationStyle = {};
  data.relations.forEach((r) => { relationStyle[r.relation] = r; });
  const adjacent = info.map(() => []);
  data.edges.forEach((e) => { adjacent[e.from].push(e.to); adjacent[e.to].push(e.from); });
  const nodeHidden = info.map(() => false);
  const edgeHidden = data.edges.map(() => false);
  let pinned = null;
  let around = null; // when set, only these nodes are shown (a node and its neighbours)

  const el = SkgDetails.el;

  /* ---- the network (drawing, shapes and labels: graphview.js) ---- */
  const view = SkgGraph.create(byId("graph"), { kinds: kindStyle, relations: relationStyle, options: data.options });
  view.add(info, data.edges.map((e, i) => Object.assign({ id: i }, e)));
  const network = view.network;
  const nodes = view.nodes;
  const edges = view.edges;
  const status = byId("status");
  const physicsBox = byId("physics");
  const icon = (kind) => SkgGraph.icon(kindStyle[kind]);

  function ready() {
    physicsBox.checked = false;
    document.body.dataset.state = "ready";
    updateStatus();
    const linked = hashNode();
    if (linked !== null) pick(linked, { remember: false, animate: false });
    else if (data.focus !== null) { pinned = data.focus; network.selectNodes([data.focus]); showDetails(data.focus); }
  }

  if (data.options.physics.enabled) {
    document.body.dataset.state = "stabilizing";
    network.on("stabilizationProgress", (p) => {
      status.textContent = "Laying out… " + Math.round((100 * p.iterations) / p.total) + "%";
    });
    network.once("stabilizationIterationsDone", () => {
      network.setOptions({ physics: { enabled: false } });
      ready();
    });
  } else {
    network.once("afterDrawing", ready);
  }
  view.start();
  if (!data.options.physics.enabled) network.fit();

  /* ---- details ---- */
  function clearDetails() {
    byId("details").replaceChildren(el("p", "Hover over a node or click it to see its details; double-click it to see only its neighbours.", "hint"));
  }

  function itemFor(item) {
    if (typeof item === "number") return SkgDetails.pickItem(info[item].name, kindStyle[info[item].kind].text, () => pick(item));
    const li = el("li", null, "item");
    li.append(el("span", item + " (not drawn here)", "off"));
    return li;
  }

  const categoryNames = Object.fromEntries(data.categories.map((c) => [c.code, c.name]));

  function showDetails(id) {
    const n = info[id];
    let after = null;
    if (id === pinned && adjacent[id].length) {
      after = el("button", "Show only this and its neighbours", "around");
      after.type = "button";
      after.addEventListener("click", () => showAround(id));
    }
    SkgDetails.render(byId("details"), n, {
      kinds: kindStyle, categoryNames,
      related: n.related.map(([heading, items, more]) => [heading, items.map(itemFor), more]), after,
    });
  }

  function showAround(id) {
    around = new Set([id].concat(adjacent[id]));
    applyFilters();
    network.fit({ nodes: [...around], animation: false });
  }

  network.on("hoverNode", (p) => showDetails(p.node));
  network.on("blurNode", () => { if (pinned !== null) showDetails(pinned); else clearDetails(); });
  network.on("selectNode", (p) => { pinned = p.nodes[0]; showDetails(pinned); remember(pinned); });
  network.on("doubleClick", (p) => { if (p.nodes.length) showAround(p.nodes[0]); });
  network.on("deselectNode", (p) => {
    pinned = p.nodes.length ? p.nodes[0] : null;
    if (pinned === null) clearDetails(); else showDetails(pinned);
    remember(pinned);
  });

  /* ---- deep links: graph.html#node=<IRI> selects, centres and shows a node; the selection is
     kept in the address, so the back button steps through what was looked at ---- */
  const byIri = new Map(info.map((n) => [n.iri, n.id]));

  function hashNode() {
    const match = /^#node=(.+)$/.exec(window.location.hash);
    if (!match) return null;
    let iri;
    try { iri = decodeURIComponent(match[1]); } catch (e) { iri = match[1]; }
    if (byIri.has(iri)) return byIri.get(iri);
    const notice = byId("notice");
    notice.textContent = "The link names a node that is not drawn on this page: " + iri;
    notice.hidden = false;
    return null;
  }

  function remember(id) {
    const hash = id === null ? "" : "#node=" + encodeURIComponent(info[id].iri);
    if (window.location.hash === hash) return;
    try {
      window.history.pushState(null, "", hash || window.location.pathname + window.location.search);
    } catch (e) { /* a page without history (some embedded viewers): selection still works */ }
  }

  function followHash() {
    const id = hashNode();
    if (id !== null) { if (id !== pinned) pick(id, { remember: false }); return; }
    if (pinned !== null) { pinned = null; network.unselectAll(); clearDetails(); network.redraw(); }
  }

  window.addEventListener("popstate", followHash);
  window.addEventListener("hashchange", followHash);

  /* ---- filters ---- */
  const kindBoxes = [];
  const sortBoxes = [];
  const categoryBoxes = [];
  const yearFrom = byId("year-from");
  const yearTo = byId("year-to");

  function count(predicate) {
    let total = 0;
    info.forEach((n) => { if (predicate(n)) total += 1; });
    return total;
  }

  function checkRow(list, value, labelText, total, prefix, title) {
    return SkgDetails.checkRow(list, value, labelText, total, prefix, title, () => applyFilters({ fit: true }));
  }

  data.kinds.forEach((k) => {
    kindBoxes.push(checkRow(byId("legend"), k.kind, k.text, count((n) => n.kind === k.kind), icon(k.kind),
      "the number of " + k.text.toLowerCase() + " nodes the other filters leave"));
  });
  const SORTS = [["name", "Names", "proper names: known, coined or defined in the text"],
    ["concept", "Concepts", "term phrases such as question answering"]];
  SORTS.forEach(([sort, text, title]) => {
    const total = count((n) => n.entity_kind === sort);
    if (total) sortBoxes.push(checkRow(byId("sorts"), sort, text, total, null, title));
  });
  byId("sort-box").hidden = sortBoxes.length === 0;
  data.categories.forEach((c) => {
    categoryBoxes.push(checkRow(byId("categories"), c.code, c.code, count((n) => n.kind === "Paper" && (n.categories || []).includes(c.code)), null, c.name));
  });
  byId("category-box").hidden = data.categories.length === 0;
  byId("year-box").hidden = data.years === null;
  if (data.years) {
    [yearFrom, yearTo].forEach((input) => {
      input.min = data.years[0];
      input.max = data.years[1];
      input.addEventListener("input", () => applyFilters({ fit: true }));
    });
    yearFrom.value = data.years[0];
    yearTo.value = data.years[1];
  }
  data.relations.forEach((r) => {
    const li = el("li");
    const line = el("span", null, "line" + (r.dashes ? " dashed" : ""));
    line.style.borderTopColor = r.color;
    const total = el("span", data.edges.filter((e) => e.relation === r.relation).length, "count");
    total.dataset.relation = r.relation;
    li.append(line, el("span", r.relation), total);
    byId("relations").append(li);
  });

  function paperPasses(n, categories, years) {
    if (years && !(n.year >= years[0] && n.year <= years[1])) return false;
    if (categories && !(n.categories || []).some((c) => categories.has(c))) return false;
    return true;
  }

  function applyFilters(how) {
    const kinds = new Set(kindBoxes.filter((b) => b.checked).map((b) => b.value));
    const sorts = new Set(sortBoxes.filter((b) => b.checked).map((b) => b.value));
    const checkedCategories = new Set(categoryBoxes.filter((b) => b.checked).map((b) => b.value));
    const categories = checkedCategories.size < categoryBoxes.length ? checkedCategories : null;
    let years = null;
    if (data.years) {
      const low = parseInt(yearFrom.value, 10);
      const high = parseInt(yearTo.value, 10);
      const from = Number.isNaN(low) ? data.years[0] : low;
      const to = Number.isNaN(high) ? data.years[1] : high;
      if (from > data.years[0] || to < data.years[1]) years = [from, to];
    }
    let reach = null;
    if (categories || years) {
      // Papers that pass, and what hangs off them: one link away, or two through a
      // non-paper (an entity's results and family). Results and improvements go with their own paper only.
      reach = new Set();
      let frontier = [];
      info.forEach((n) => { if (n.kind === "Paper" && paperPasses(n, categories, years)) { reach.add(n.id); frontier.push(n.id); } });
      for (let hop = 1; hop <= 2; hop += 1) {
        const next = [];
        frontier.forEach((id) => adjacent[id].forEach((other) => {
          const kind = info[other].kind;
          if (reach.has(other) || kind === "Paper" || (hop === 2 && (kind === "Result" || kind === "Improvement" || kind === "Category"))) return;
          reach.add(other);
          next.push(other);
        }));
        frontier = next;
      }
    }
    const nodeUpdates = [];
    const kindCounts = {};
    const sortCounts = {};
    info.forEach((n) => {
      let passes = (reach === null || reach.has(n.id)) && (around === null || around.has(n.id));
      if (passes && categories && n.kind === "Category") passes = categories.has(n.label);
      if (passes) kindCounts[n.kind] = (kindCounts[n.kind] || 0) + 1;
      if (passes && n.entity_kind) sortCounts[n.entity_kind] = (sortCounts[n.entity_kind] || 0) + 1;
      const show = passes && kinds.has(n.kind) && (!n.entity_kind || sorts.has(n.entity_kind));
      if (nodeHidden[n.id] === show) { nodeHidden[n.id] = !show; nodeUpdates.push({ id: n.id, hidden: !show }); }
    });
    kindBoxes.forEach((box) => { box.parentElement.querySelector(".count").textContent = kindCounts[box.value] || 0; });
    sortBoxes.forEach((box) => { box.parentElement.querySelector(".count").textContent = sortCounts[box.value] || 0; });
    const edgeUpdates = [];
    data.edges.forEach((e, i) => {
      const hide = nodeHidden[e.from] || nodeHidden[e.to];
      if (edgeHidden[i] !== hide) { edgeHidden[i] = hide; edgeUpdates.push({ id: i, hidden: hide }); }
    });
    if (nodeUpdates.length) view.setHidden(new Map(nodeUpdates.map((u) => [u.id, u.hidden])));
    if (edgeUpdates.length) edges.update(edgeUpdates);
    if (pinned !== null && nodeHidden[pinned]) { pinned = null; network.unselectAll(); clearDetails(); remember(null); }
    const linkCounts = {};
    data.edges.forEach((e, i) => { if (!edgeHidden[i]) linkCounts[e.relation] = (linkCounts[e.relation] || 0) + 1; });
    document.querySelectorAll("#relations .count").forEach((span) => { span.textContent = linkCounts[span.dataset.relation] || 0; });
    updateStatus();
    if (how && how.fit) fitVisible();
  }

  function fitVisible() {
    const shown = info.filter((n) => !nodeHidden[n.id]).map((n) => n.id);
    if (shown.length) network.fit({ nodes: shown, maxZoomLevel: 1.6, animation: { duration: 250, easingFunction: "easeInOutQuad" } });
  }

  function updateStatus() {
    const shown = nodeHidden.filter((h) => !h).length;
    const links = edgeHidden.filter((h) => !h).length;
    const nodeText = shown === info.length ? info.length + " nodes" : shown + " of " + info.length + " nodes";
    const linkText = links === data.edges.length ? data.edges.length + " links" : links + " of " + data.edges.length + " links";
    status.textContent = nodeText + " · " + linkText;
    document.body.dataset.visibleNodes = String(shown);
    document.body.dataset.visibleEdges = String(links);
  }

  /* ---- search ---- */
  const searchBox = byId("search");
  const resultList = byId("results");
  const names = info.map((n) => [n.name, n.label].concat(n.aliases || [], n.arxiv_id ? [n.arxiv_id] : []));

  function findMatches(query) {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const hits = [];
    info.forEach((n) => {
      let best = 9;
      let via = null;
      names[n.id].forEach((name) => {
        const t = name.toLowerCase();
        const score = t === q ? 0 : t.startsWith(q) ? 1 : (t.includes(" " + q) || t.includes("-" + q)) ? 2 : t.includes(q) ? 3 : 9;
        if (score < best) { best = score; via = name; }
      });
      if (best < 9) hits.push({ id: n.id, score: best, via: via });
    });
    hits.sort((a, b) => a.score - b.score || info[b.id].degree - info[a.id].degree
      || info[a.id].name.localeCompare(info[b.id].name) || a.id - b.id);
    return hits.slice(0, 12);
  }

  function showMatches() {
    const hits = findMatches(searchBox.value);
    resultList.replaceChildren();
    if (!searchBox.value.trim()) return;
    if (!hits.length) { resultList.append(el("li", "No match", "empty")); return; }
    hits.forEach((hit) => {
      const n = info[hit.id];
      const button = el("button");
      button.type = "button";
      button.dataset.node = String(hit.id);
      let note = kindStyle[n.kind].text;
      if (hit.via !== n.name && hit.via !== n.label) note += " · " + hit.via;
      if (nodeHidden[hit.id]) note += " · hidden by filters";
      button.append(el("span", n.name), " ", el("span", note, "kind"));
      button.addEventListener("click", () => pick(hit.id));
      const li = el("li");
      li.append(button);
      resultList.append(li);
    });
  }

  function pick(id, how) {
    const options = Object.assign({ remember: true, animate: true }, how || {});
    if (nodeHidden[id]) resetFilters();
    pinned = id;
    network.selectNodes([id]);
    showDetails(id);
    if (options.remember) remember(id);
    network.focus(id, { scale: Math.max(1.0, network.getScale()),
      animation: options.animate ? { duration: 300, easingFunction: "easeInOutQuad" } : false });
  }

  searchBox.addEventListener("input", showMatches);
  searchBox.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      const hits = findMatches(searchBox.value);
      if (hits.length) pick(hits[0].id);
    } else if (event.key === "Escape") {
      searchBox.value = "";
      showMatches();
    }
  });

  /* ---- whole graph, physics ---- */
  function resetFilters() {
    around = null;
    kindBoxes.concat(sortBoxes, categoryBoxes).forEach((b) => { b.checked = true; });
    if (data.years) { yearFrom.value = data.years[0]; yearTo.value = data.years[1]; }
    applyFilters();
  }

  byId("reset").addEventListener("click", () => {
    searchBox.value = "";
    showMatches();
    resetFilters();
    pinned = null;
    network.unselectAll();
    clearDetails();
    remember(null);
    network.fit({ animation: false });
  });
  physicsBox.checked = data.options.physics.enabled;
  if (info.length > 400) physicsBox.parentElement.title = "Moving " + info.length + " nodes at once is slow";
  physicsBox.addEventListener("change", () => network.setOptions({ physics: { enabled: physicsBox.checked } }));

  byId("description").textContent = data.description;
  if (data.notice) { byId("notice").textContent = data.notice; byId("notice").hidden = false; }
  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && document.activeElement !== searchBox) { event.preventDefault(); searchBox.focus(); }
  });
  updateStatus();

  window.skgExplorer = {
    network, nodes, edges, data, pick, findMatches,
    selected: () => pinned,
    drawnLabels: view.drawnLabels,
    visibleNodeIds: () => info.filter((n) => !nodeHidden[n.id]).map((n) => n.id),
  };
})();
