/* scholarkg served app: the workbench. A SPARQL editor (Ace, with its SPARQL mode), the named
   queries with their parameters as form fields, answers as a paged table, CSV and JSON
   downloads, and errors as the endpoint's checker and engine word them. */
(function () {
  "use strict";
  const C = window.SkgClient;
  const el = window.SkgDetails.el;
  const byId = (id) => document.getElementById(id);
  const LIMIT = /\bLIMIT\s+\d+/i;
  const GRAPH_FORM = /^\s*(?:(?:PREFIX\s+\S*\s*<[^>]*>|BASE\s*<[^>]*>|#[^\n]*)\s*)*(CONSTRUCT|DESCRIBE)\b/i;

  const editor = window.ace.edit("editor", {
    mode: "ace/mode/sparql", theme: "ace/theme/textmate", useWorker: false, fontSize: 13,
    showPrintMargin: false, tabSize: 2, useSoftTabs: true, wrap: true,
  });
  editor.setValue("SELECT ?class (COUNT(?s) AS ?n) WHERE {\n  ?s a ?class\n} GROUP BY ?class ORDER BY DESC(?n)", 1);
  editor.commands.addCommand({ name: "run", bindKey: { win: "Ctrl-Enter", mac: "Command-Enter" }, exec: () => runTyped(0) });

  let current = null; // what the table shows: {kind: "typed"|"named", text, name, params, offset}
  let turn = 0; // only the latest run may fill the table
  const pageSize = () => parseInt(byId("page-size").value, 10);

  function showError(error) {
    const box = byId("error");
    const status = error.status ? "HTTP " + error.status + ": " : "";
    box.textContent = status + (error.message || String(error));
    box.hidden = false;
    document.body.dataset.workbench = "error";
  }

  function cellText(cell) {
    if (!cell) return "";
    if (cell.type === "literal" && cell["xml:lang"]) return cell.value + " @" + cell["xml:lang"];
    return cell.value;
  }

  function showTable(answer, offset, more) {
    byId("error").hidden = true;
    const table = byId("table");
    table.replaceChildren();
    const head = el("tr");
    answer.vars.forEach((v) => head.append(el("th", v)));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    answer.rows.forEach((row) => {
      const tr = el("tr");
      answer.vars.forEach((v) => {
        const td = el("td", cellText(row[v]));
        if (row[v] && row[v].type === "uri") td.className = "iri";
        tr.append(td);
      });
      tbody.append(tr);
    });
    table.append(thead, tbody);
    const shown = answer.rows.length;
    byId("page-info").textContent = shown ? "rows " + (offset + 1) + "–" + (offset + shown) + (more ? " (more)" : "") : "no rows";
    byId("prev").disabled = offset === 0;
    byId("next").disabled = !more;
    byId("csv").disabled = byId("json").disabled = false;
    document.body.dataset.workbench = "answered";
    document.body.dataset.rows = String(shown);
  }

  function showGraph(text) {
    byId("error").hidden = true;
    const table = byId("table");
    table.replaceChildren();
    const row = el("tr");
    const cell = el("td");
    cell.append(el("pre", text, "graph-answer"));
    row.append(cell);
    table.append(row);
    byId("page-info").textContent = "a graph, as Turtle";
    byId("prev").disabled = byId("next").disabled = true;
    byId("csv").disabled = byId("json").disabled = true;
    document.body.dataset.workbench = "answered";
  }

  function busy(text) {
    document.body.dataset.workbench = "running";
    byId("page-info").textContent = text;
  }

  async function runTyped(offset) {
    const text = editor.getValue();
    current = { kind: "typed", text, offset };
    const mine = (turn += 1);
    busy("running…");
    try {
      if (GRAPH_FORM.test(text)) { const graph = await C.raw(text, "text/turtle"); if (mine === turn) showGraph(graph); return; }
      const size = pageSize();
      const paged = LIMIT.test(text) ? text : text.replace(/\s+$/, "") + "\nLIMIT " + (size + 1) + (offset ? " OFFSET " + offset : "");
      const answer = await C.select(paged, { onSlow: () => busy("still running… (the endpoint stops it after " + C.config.timeout + " s)") });
      if (mine !== turn) return;
      const more = !LIMIT.test(text) && answer.rows.length > size;
      if (more) answer.rows = answer.rows.slice(0, size);
      showTable(answer, offset, more);
    } catch (error) {
      if (mine === turn) showError(error);
    }
  }

  async function runNamed(name, params, offset) {
    current = { kind: "named", name, params, offset };
    const mine = (turn += 1);
    busy("running " + name + "…");
    try {
      const answer = await C.named(name, params, { limit: pageSize(), offset, onSlow: () => busy("still running " + name + "…") });
      if (mine !== turn) return;
      editor.setValue(answer.query, -1);
      showTable(answer, offset, answer.more);
    } catch (error) {
      if (mine === turn) showError(error);
    }
  }

  /* ---- named queries: one click away, parameters as form fields ---- */
  const catalogue = new Map(C.config.named.map((q) => [q.name, q]));
  let chosen = null;

  function choose(name, values) {
    const q = catalogue.get(name);
    if (!q) return;
    chosen = q;
    document.querySelectorAll("#named-list button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.name === name)));
    byId("named-title").textContent = q.title;
    byId("named-description").textContent = q.description;
    const box = byId("named-params");
    box.replaceChildren();
    q.params.forEach((p) => {
      const label = el("label", p.name);
      const input = el("input");
      input.name = p.name;
      input.type = "text";
      input.placeholder = p.help;
      input.title = p.help;
      input.value = values && values[p.name] !== undefined ? values[p.name] : p.default;
      label.append(input);
      box.append(label);
    });
    byId("named-form").hidden = false;
  }

  C.config.named.forEach((q) => {
    const button = el("button", q.title);
    button.type = "button";
    button.dataset.name = q.name;
    button.title = q.description;
    button.addEventListener("click", () => { choose(q.name); runNamed(q.name, formValues(), 0); });
    const li = el("li");
    li.append(button);
    byId("named-list").append(li);
  });

  function formValues() {
    const values = {};
    byId("named-params").querySelectorAll("input").forEach((input) => { values[input.name] = input.value; });
    return values;
  }

  byId("named-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (chosen) runNamed(chosen.name, formValues(), 0);
  });
  byId("run").addEventListener("click", () => runTyped(0));
  byId("prev").addEventListener("click", () => page(-1));
  byId("next").addEventListener("click", () => page(1));
  byId("page-size").addEventListener("change", () => { if (current) page(0); });

  function page(step) {
    const offset = Math.max(0, current.offset + step * pageSize());
    if (current.kind === "named") runNamed(current.name, current.params, offset); else runTyped(offset);
  }

  /* ---- downloads: the whole answer, as the endpoint writes it ---- */
  async function download(accept, extension) {
    const text = current && current.kind === "named" ? editor.getValue().replace(/\nLIMIT \d+( OFFSET \d+)?\s*$/, "\n") : editor.getValue();
    try {
      const body = await C.raw(text, accept);
      const link = el("a");
      link.href = URL.createObjectURL(new Blob([body], { type: accept }));
      link.download = "answer." + extension;
      document.body.append(link);
      link.click();
      setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    } catch (error) {
      showError(error);
    }
  }

  byId("csv").addEventListener("click", () => download("text/csv", "csv"));
  byId("json").addEventListener("click", () => download("application/sparql-results+json", "json"));

  /* Show the workbench with a query: a named one with its parameters, or a text. */
  function open(how) {
    window.SkgApp.showView("workbench");
    if (how.name) {
      choose(how.name, how.params);
      runNamed(how.name, how.params || {}, 0);
    } else if (how.text) {
      editor.setValue(how.text, -1);
      runTyped(0);
    }
    editor.resize();
  }

  window.SkgWorkbench = { open, editor, runTyped, runNamed, resize: () => editor.resize() };
})();
