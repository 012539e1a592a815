/* scholarkg served app: talking to the endpoint. Every request is a SPARQL query (or a named
   query run by the endpoint) through the same checker, limits and timeout as any client's.
   Values reach query text only through iri() and literal(), which escape them. */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("skg-config").textContent);
  const QUERY_URL = config.query_url;
  const NAMED_URL = config.named_url;
  const SLOW_MS = 1500;

  const IRI_CHARS = /^[^\u0000-\u0020<>"{}|^`\\]+$/;

  function iri(value) {
    if (typeof value !== "string" || !IRI_CHARS.test(value) || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
      throw new Error("not an IRI: " + value);
    }
    return "<" + value + ">";
  }

  function literal(value) {
    const text = String(value).replace(/[\\"\n\r\t]/g, (c) => ({ "\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t" }[c]));
    return "\"" + text + "\"";
  }

  /* A failed request: its HTTP status and the endpoint's own words. */
  class QueryFailure extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function answer(response) {
    const text = await response.text();
    if (!response.ok) throw new QueryFailure(response.status, text.trim() || response.statusText);
    return text;
  }

  /* Run ``fetcher(signal)``; after SLOW_MS call ``onSlow`` once; give up after the endpoint's
     own timeout plus a margin, so no request can hang the page. */
  function guarded(fetcher, onSlow) {
    const controller = new AbortController();
    const slow = onSlow ? setTimeout(onSlow, SLOW_MS) : null;
    const limit = setTimeout(() => controller.abort(), (config.timeout + 5) * 1000);
    return fetcher(controller.signal).catch((error) => {
      if (error.name === "AbortError") throw new QueryFailure(0, "no answer within " + (config.timeout + 5) + " s");
      throw error;
    }).finally(() => { if (slow) clearTimeout(slow); clearTimeout(limit); });
  }

  function rows(json) {
    const vars = json.head && json.head.vars ? json.head.vars : [];
    if (json.boolean !== undefined) return { vars: ["answer"], rows: [{ answer: { type: "literal", value: String(json.boolean) } }] };
    return { vars, rows: (json.results && json.results.bindings) || [] };
  }

  /* A SELECT (or ASK) query; resolves to {vars, rows}, each row {var: {type, value, ...}}. */
  function select(text, options) {
    const opts = options || {};
    return guarded((signal) => fetch(QUERY_URL, {
      method: "POST", signal, credentials: "same-origin",
      headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
      body: text,
    }).then(answer).then((body) => rows(JSON.parse(body))), opts.onSlow);
  }

  /* A query's answer in another format (CSV, TSV, JSON), as text. */
  function raw(text, accept) {
    return guarded((signal) => fetch(QUERY_URL, {
      method: "POST", signal, credentials: "same-origin",
      headers: { "Content-Type": "application/sparql-query", Accept: accept }, body: text,
    }).then(answer));
  }

  /* A named query with its parameters, run by the endpoint: {query, vars, rows, more}; ``query``
     is the text that ran, parameters written in. */
  function named(name, params, options) {
    const opts = options || {};
    const search = new URLSearchParams({ name });
    Object.entries(params || {}).forEach(([key, value]) => search.append(key, value));
    if (opts.limit) search.append("limit", String(opts.limit));
    if (opts.offset) search.append("offset", String(opts.offset));
    return guarded((signal) => fetch(NAMED_URL + "?" + search.toString(), { signal, credentials: "same-origin",
      headers: { Accept: "application/json" } }).then(answer).then((body) => {
      const data = JSON.parse(body);
      return Object.assign({ query: data.query, more: Boolean(data.more) }, rows(data.answer));
    }), opts.onSlow);
  }

  function value(row, name) {
    const cell = row[name];
    return cell === undefined ? null : cell.value;
  }

  /* Text as the search index folds it (scholarkg.store.search.fold): case and accents
     folded, words of letters and digits joined by single spaces. */
  function fold(text) {
    return String(text).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
      .replace(/[^0-9a-z]+/g, " ").trim();
  }

  window.SkgClient = { config, iri, literal, select, raw, named, value, fold, QueryFailure };
})();
