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

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function httpUrl(url) {
    return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null;
  }

  function link(url, text) {
    const a = el("a", text);
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    return a;
  }

  function darker(hex) {
    const n = parseInt(hex.slice(1), 16);
    const part = (shift) => Math.round(((n >> shift) & 255) * 0.7).toString(16).padStart(2, "0");
    return "#" + part(16) + part(8) + part(0);
  }

  const SVG = "http://www.w3.org/2000/svg";
  const SHAPES = {
    square: "2,2 12,2 12,12 2,12",
    triangle: "7,1 13,12 1,12",
    triangleDown: "1,2 13,2 7,13",
    diamond: "7,1 13,7 7,13 1,7",
    hexagon: "4,1.5 10,1.5 13,7 10,12.5 4,12.5 1,7",
    star: "7,0.5 8.8,5 13.5,5.2 9.8,8.2 11.1,13 7,10.3 2.9,13 4.2,8.2 0.5,5.2 5.2,5",
  };

  function icon(kind) {
    const style = kindStyle[kind];
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "icon");
    svg.setAttribute("width", "14");
    svg.setAttribute("height", "14");
    svg.setAttribute("viewBox", "0 0 14 14");
    const shape = SHAPES[style.shape] ? document.createElementNS(SVG, "polygon") : document.createElementNS(SVG, "circle");
    if (SHAPES[style.shape]) shape.setAttribute("points", SHAPES[style.shape]);
    else { shape.setAttribute("cx", "7"); shape.setAttribute("cy", "7"); shape.setAttribute("r", "5.5"); }
    shape.setAttribute("fill", style.color);
    shape.setAttribute("stroke", darker(style.color));
    svg.appendChild(shape);
    return svg;
  }

  /* ---- the network ---- */
  const nodes = new vis.DataSet(info.map((n) => {
    const color = kindStyle[n.kind].color;
    const edge = { background: color, border: "#111111" };
    return {
      id: n.id, label: n.label, x: n.x, y: n.y, size: n.size, shape: kindStyle[n.kind].shape,
      color: { background: color, border: darker(color), highlight: edge, hover: edge },
    };
  }));
  const edges = new vis.DataSet(data.edges.map((e, i) => {
    const style = relationStyle[e.relation];
    const item = { id: i, from: e.from, to: e.to, dashes: style.dashes,
      color: { color: style.color, highlight: "#222222", hover: "#222222" } };
    if (e.label) item.label = e.label;
    return item;
  }));
  const network = new vis.Network(byId("graph"), {}, data.options);
  const status = byId("status");
  const physicsBox = byId("physics");

  function ready() {
    physicsBox.checked = false;
    document.body.dataset.state = "ready";
    updateStatus();
    if (data.focus !== null) { pinned = data.focus; network.selectNodes([data.focus]); showDetails(data.focus); }
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
  network.setData({ nodes, edges });
  if (!data.options.physics.enabled) network.fit();

  /* ---- details ---- */
  function clearDetails() {
    byId("details").replaceChildren(el("p", "Hover over a node or click it to see its details; double-click it to see only its neighbours.", "hint"));
  }

  function field(list, term, value) {
    if (value === undefined || value === null || value === "") return;
    list.append(el("dt", term));
    const dd = el("dd");
    if (value instanceof Node) dd.append(value); else dd.textContent = String(value);
    list.append(dd);
  }

  function itemFor(item) {
    const li = el("li", null, "item");
    if (typeof item === "number") {
      const button = el("button", info[item].name);
      button.type = "button";
      button.addEventListener("click", () => pick(item));
      li.append(button, " ", el("span", kindStyle[info[item].kind].text, "kind"));
    } else {
      li.append(el("span", item + " (not drawn here)", "off"));
    }
    return li;
  }

  function showDetails(id) {
    const n = info[id];
    const box = byId("details");
    box.replaceChildren();
    box.append(el("h3", n.name));
    const kindline = el("p", null, "kindline");
    kindline.append(icon(n.kind), el("span", kindStyle[n.kind].text + " · " + n.degree + " link" + (n.degree === 1 ? "" : "s")));
    box.append(kindline);
    const list = el("dl");
    field(list, "Year", n.year);
    if (n.categories) {
      const names = Object.fromEntries(data.categories.map((c) => [c.code, c.name]));
      field(list, "Categories", n.categories.map((c) => (names[c] ? c + " (" + names[c] + ")" : c)).join(", "));
    }
    const url = httpUrl(n.url);
    if (url) field(list, n.kind === "Paper" ? "arXiv" : "URL", link(url, n.kind === "Paper" && n.arxiv_id ? n.arxiv_id : url));
    else field(list, "arXiv id", n.arxiv_id);
    if (n.aliases) field(list, "Aliases", n.aliases.join(", "));
    if (n.kind === "Result") field(list, "Value", n.label);  // value and unit, as in view.value_text
    field(list, "Evidence", n.evidence);
    if (list.childElementCount) box.append(list);
    if (n.abstract) box.append(el("p", n.abstract, "abstract"));
    n.related.forEach(([heading, items, more]) => {
      box.append(el("h4", heading));
      const ul = el("ul");
      items.forEach((item) => ul.append(itemFor(item)));
      if (more) ul.append(el("li", "and " + more + " more", "off"));
      box.append(ul);
    });
    if (id === pinned && adjacent[id].length) {
      const only = el("button", "Show only this and its neighbours", "around");
      only.type = "button";
      only.addEventListener("click", () => showAround(id));
      box.append(only);
    }
    box.append(el("p", n.iri, "iri"));
  }

  function showAround(id) {
    around = new Set([id].concat(adjacent[id]));
    applyFilters();
    network.fit({ nodes: [...around], animation: false });
  }

  network.on("hoverNode", (p) => showDetails(p.node));
  network.on("blurNode", () => { if (pinned !== null) showDetails(pinned); else clearDetails(); });
  network.on("selectNode", (p) => { pinned = p.nodes[0]; showDetails(pinned); });
  network.on("doubleClick", (p) => { if (p.nodes.length) showAround(p.nodes[0]); });
  network.on("deselectNode", (p) => {
    pinned = p.nodes.length ? p.nodes[0] : null;
    if (pinned === null) clearDetails(); else showDetails(pinned);
  });

  /* ---- filters ---- */
  const kindBoxes = [];
  const categoryBoxes = [];
  const yearFrom = byId("year-from");
  const yearTo = byId("year-to");

  function count(predicate) {
    let total = 0;
    info.forEach((n) => { if (predicate(n)) total += 1; });
    return total;
  }

  function checkRow(list, value, labelText, total, prefix, title) {
    const li = el("li");
    const label = el("label");
    const box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.value = value;
    box.addEventListener("change", applyFilters);
    label.append(box);
    if (prefix) label.append(prefix);
    label.append(el("span", labelText), el("span", total, "count"));
    if (title) label.title = title;
    li.append(label);
    list.append(li);
    return box;
  }

  data.kinds.forEach((k) => {
    kindBoxes.push(checkRow(byId("legend"), k.kind, k.text, count((n) => n.kind === k.kind), icon(k.kind)));
  });
  data.categories.forEach((c) => {
    categoryBoxes.push(checkRow(byId("categories"), c.code, c.code, count((n) => n.kind === "Paper" && (n.categories || []).includes(c.code)), null, c.name));
  });
  byId("category-box").hidden = data.categories.length === 0;
  byId("year-box").hidden = data.years === null;
  if (data.years) {
    [yearFrom, yearTo].forEach((input) => {
      input.min = data.years[0];
      input.max = data.years[1];
      input.addEventListener("input", applyFilters);
    });
    yearFrom.value = data.years[0];
    yearTo.value = data.years[1];
  }
  data.relations.forEach((r) => {
    const li = el("li");
    const line = el("span", null, "line" + (r.dashes ? " dashed" : ""));
    line.style.borderTopColor = r.color;
    li.append(line, el("span", r.relation), el("span", data.edges.filter((e) => e.relation === r.relation).length, "count"));
    byId("relations").append(li);
  });

  function paperPasses(n, categories, years) {
    if (years && !(n.year >= years[0] && n.year <= years[1])) return false;
    if (categories && !(n.categories || []).some((c) => categories.has(c))) return false;
    return true;
  }

  function applyFilters() {
    const kinds = new Set(kindBoxes.filter((b) => b.checked).map((b) => b.value));
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
      // non-paper (an entity's results and family). Results go with their own paper only.
      reach = new Set();
      let frontier = [];
      info.forEach((n) => { if (n.kind === "Paper" && paperPasses(n, categories, years)) { reach.add(n.id); frontier.push(n.id); } });
      for (let hop = 1; hop <= 2; hop += 1) {
        const next = [];
        frontier.forEach((id) => adjacent[id].forEach((other) => {
          const kind = info[other].kind;
          if (reach.has(other) || kind === "Paper" || (hop === 2 && (kind === "Result" || kind === "Category"))) return;
          reach.add(other);
          next.push(other);
        }));
        frontier = next;
      }
    }
    const nodeUpdates = [];
    info.forEach((n) => {
      let show = kinds.has(n.kind) && (reach === null || reach.has(n.id)) && (around === null || around.has(n.id));
      if (show && categories && n.kind === "Category") show = categories.has(n.label);
      if (nodeHidden[n.id] === show) { nodeHidden[n.id] = !show; nodeUpdates.push({ id: n.id, hidden: !show }); }
    });
    const edgeUpdates = [];
    data.edges.forEach((e, i) => {
      const hide = nodeHidden[e.from] || nodeHidden[e.to];
      if (edgeHidden[i] !== hide) { edgeHidden[i] = hide; edgeUpdates.push({ id: i, hidden: hide }); }
    });
    if (nodeUpdates.length) nodes.update(nodeUpdates);
    if (edgeUpdates.length) edges.update(edgeUpdates);
    if (pinned !== null && nodeHidden[pinned]) { pinned = null; network.unselectAll(); clearDetails(); }
    updateStatus();
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

  function pick(id) {
    if (nodeHidden[id]) resetFilters();
    pinned = id;
    network.selectNodes([id]);
    showDetails(id);
    network.focus(id, { scale: Math.max(1.0, network.getScale()), animation: { duration: 300, easingFunction: "easeInOutQuad" } });
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
    kindBoxes.concat(categoryBoxes).forEach((b) => { b.checked = true; });
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
    visibleNodeIds: () => info.filter((n) => !nodeHidden[n.id]).map((n) => n.id),
  };
})();
