/* scholarkg details panel: what a node is, shared by the static explorer page and the served
   explorer, so both say the same things the same way. Record text is only ever set with
   textContent; links are made only of http(s) URLs. */
(function () {
  "use strict";

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

  function field(list, term, value) {
    if (value === undefined || value === null || value === "") return;
    list.append(el("dt", term));
    const dd = el("dd");
    if (value instanceof Node) dd.append(value); else dd.textContent = String(value);
    list.append(dd);
  }

  /* A clickable name of a node (``onPick`` is called with ``id``), with its kind beside it. */
  function pickItem(name, kindText, onPick) {
    const li = el("li", null, "item");
    const button = el("button", name);
    button.type = "button";
    button.addEventListener("click", onPick);
    li.append(button, " ", el("span", kindText, "kind"));
    return li;
  }

  /* A filter's line: a ticked checkbox, an optional icon or line, the text and a count;
     ``onChange`` is called when it is ticked or cleared. Returns the checkbox. */
  function checkRow(list, value, text, count, prefix, title, onChange) {
    const li = el("li");
    const label = el("label");
    const box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.value = value;
    box.addEventListener("change", onChange);
    label.append(box);
    if (prefix) label.append(prefix);
    label.append(el("span", text), el("span", count, "count"));
    if (title) label.title = title;
    li.append(label);
    list.append(li);
    return box;
  }

  /* Fill ``box`` with the details of node ``n``:
     n: {name, kind, entity_kind, degree, year, categories, url, arxiv_id, aliases, label,
         evidence, abstract, iri}
     ctx: {kinds: kind -> {text, ...}, categoryNames: code -> name,
           related: [[heading, [li elements], more]], after: element or null} */
  function render(box, n, ctx) {
    const style = ctx.kinds[n.kind] || { text: n.kind };
    box.replaceChildren();
    box.append(el("h3", n.name));
    const kindline = el("p", null, "kindline");
    const sort = n.entity_kind ? " · " + (n.entity_kind === "name" ? "name" : "concept") : "";
    const links = n.degree === undefined || n.degree === null ? "" : " · " + n.degree + " link" + (n.degree === 1 ? "" : "s");
    kindline.append(window.SkgGraph.icon(style), el("span", style.text + sort + links));
    box.append(kindline);
    const list = el("dl");
    field(list, "Year", n.year);
    if (n.categories && n.categories.length) {
      const names = ctx.categoryNames || {};
      field(list, "Categories", n.categories.map((c) => (names[c] ? c + " (" + names[c] + ")" : c)).join(", "));
    }
    const url = httpUrl(n.url);
    if (url) field(list, n.kind === "Paper" ? "arXiv" : "URL", link(url, n.kind === "Paper" && n.arxiv_id ? n.arxiv_id : url));
    else field(list, "arXiv id", n.arxiv_id);
    if (n.aliases && n.aliases.length) field(list, "Aliases", n.aliases.join(", "));
    if (n.kind === "Result" || n.kind === "Improvement") field(list, "Value", n.label);  // as written, with its unit
    field(list, "Evidence", n.evidence);
    if (list.childElementCount) box.append(list);
    if (n.abstract) box.append(el("p", n.abstract, "abstract"));
    (ctx.related || []).forEach(([heading, items, more]) => {
      box.append(el("h4", heading));
      const ul = el("ul");
      items.forEach((item) => ul.append(item));
      if (more) ul.append(el("li", "and " + more + " more", "off"));
      box.append(ul);
    });
    if (ctx.after) box.append(ctx.after);
    box.append(el("p", n.iri, "iri"));
  }

  window.SkgDetails = { render, el, link, httpUrl, pickItem, checkRow };
})();
