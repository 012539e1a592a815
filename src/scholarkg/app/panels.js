/* scholarkg served app: panels about the selected author, paper, entity or category, each the
   answer of a named query. A panel shows its query and opens it in the workbench; a slow one
   says so and offers the query instead of holding the page; record text is set as text. */
(function () {
  "use strict";
  const C = window.SkgClient;
  const el = window.SkgDetails.el;
  const PAGE = 25;
  const ENTITY = ["Benchmark", "Dataset", "Model", "Method", "Task", "Metric"];

  /* kind -> panels: [title, named query, parameters from the node, columns shown, column -> IRI column] */
  function panelsFor(n) {
    if (n.kind === "Author") {
      const p = { author: n.name };
      return [
        ["Papers by year", "author-papers", p, ["year", "title", "primary"], { title: "paper" }],
        ["Introduces and uses", "author-entities", p, ["label", "type", "entityKind", "papers", "introduced", "first", "latest"], { label: "entity" }],
        ["Results", "author-results", p, ["model", "benchmark", "metric", "value", "unit", "year", "evidence"], {}],
        ["Co-authors", "coauthors", p, ["coauthor", "sharedPapers"], {}],
      ];
    }
    if (n.kind === "Paper") {
      return [["What it names", "paper-entities", { paper: n.arxiv_id || n.title || n.name }, ["role", "label", "type", "entityKind"], { label: "entity" }]];
    }
    if (ENTITY.includes(n.kind)) {
      const p = { entity: n.label || n.name };
      return [
        ["Papers", "entity-papers", p, ["year", "title", "role"], {}],
        ["Evidence", "evidence", p, ["title", "role", "field", "text", "confidence"], {}],
        ["Related entities", "related-entities", p, ["otherLabel", "otherType", "papers"], { otherLabel: "other" }],
      ];
    }
    if (n.kind === "Category") {
      return [["Papers in " + (n.code || n.label), "category-papers", { category: n.code || n.label }, ["year", "title", "primary", "authors"], { title: "paper" }]];
    }
    return [];
  }

  function table(answer, columns, links, onPick) {
    const shown = columns || answer.vars.filter((v) => !(answer.rows[0] && answer.rows[0][v] && answer.rows[0][v].type === "uri"));
    const t = el("table", null, "panel-table");
    const head = el("tr");
    shown.forEach((v) => head.append(el("th", v, "short")));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    answer.rows.forEach((row) => {
      const tr = el("tr");
      shown.forEach((v) => {
        const td = el("td");
        const value = C.value(row, v);
        const target = links[v] ? C.value(row, links[v]) : null;
        if (value !== null && target) {
          const button = el("button", value, "pick");
          button.type = "button";
          button.addEventListener("click", () => onPick(target));
          td.append(button);
        } else {
          td.textContent = value === null ? "" : value;
        }
        if (value !== null && value.length <= 12) td.classList.add("short");
        tr.append(td);
      });
      tbody.append(tr);
    });
    t.append(thead, tbody);
    return t;
  }

  function panel(container, spec, onPick, token) {
    const [title, name, params, columns, links] = spec;
    const section = el("section", null, "panel");
    section.dataset.panel = name;
    section.dataset.state = "loading";
    const heading = el("h4", title);
    const status = el("p", "Asking…", "hint");
    const body = el("div", null, "panel-body");
    const tools = el("p", null, "panel-tools");
    const code = el("details", null, "panel-query");
    const summary = el("summary", "SPARQL");
    const pre = el("pre");
    code.append(summary, pre);
    const open = el("button", "Open in workbench", "to-workbench");
    open.type = "button";
    open.addEventListener("click", () => window.SkgWorkbench.open({ name, params }));
    tools.append(open);
    section.append(heading, status, body, code, tools);
    container.append(section);

    let offset = 0;
    function load() {
      section.dataset.state = "loading";
      status.textContent = "Asking…";
      const started = performance.now();
      C.named(name, params, {
        limit: PAGE, offset,
        onSlow: () => { if (token.live) status.textContent = "This panel is slow to answer; it goes on in the background, or open its query in the workbench."; },
      }).then((answer) => {
        if (!token.live) return;
        pre.textContent = answer.query;
        body.replaceChildren();
        if (!answer.rows.length && offset === 0) {
          status.textContent = "Nothing found.";
        } else {
          status.textContent = "";
          body.append(table(answer, columns, links, onPick));
          const nav = el("p", null, "panel-nav");
          if (offset > 0) nav.append(pager("Previous " + PAGE, -PAGE));
          if (answer.more) nav.append(pager("Next " + PAGE, PAGE));
          if (nav.childElementCount) body.append(nav);
        }
        section.dataset.state = "ready";
        section.dataset.rows = String(answer.rows.length);
        section.dataset.ms = String(Math.round(performance.now() - started));
      }).catch((error) => {
        if (!token.live) return;
        section.dataset.state = "error";
        status.textContent = "The query failed: " + error.message;
      });
    }
    function pager(text, step) {
      const b = el("button", text);
      b.type = "button";
      b.addEventListener("click", () => { offset = Math.max(0, offset + step); load(); });
      return b;
    }
    load();
  }

  let token = { live: false };

  /* Replace what ``container`` shows with the panels of node ``n``. */
  function show(container, n, onPick) {
    token.live = false;
    token = { live: true };
    container.replaceChildren();
    container.dataset.node = n.iri;
    const specs = panelsFor(n);
    if (specs.length) container.append(el("h3", "Panels", "panels-heading"));
    specs.forEach((spec) => panel(container, spec, onPick, token));
  }

  window.SkgPanels = { show, panelsFor };
})();
