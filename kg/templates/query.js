// The kg query page on YASGUI (vendored, kg/static/yasgui): each canned query of queries/ is a named
// tab, the ontology's prefixes and terms complete, results are YASR's sortable, paged tables. Every
// request goes to this server's /sparql (the page's CSP allows no other). Entity IRIs in the
// results link to this server's entity and article pages. Test hooks: #canned=<name> opens (and runs) a canned
// query's tab; window.kgRun(text) and window.kgDownload("csv"|"json") return promises;
// <body data-state> is loading|ready|running|done|error, data-rows the number of result rows.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const data = JSON.parse($("kg-page-data").textContent);
  const endpoint = new URL("sparql", document.baseURI).href;
  const status = $("kg-status"), desc = $("kg-canned-desc");
  const csvButton = $("kg-download-csv"), jsonButton = $("kg-download-json");
  const Yasgui = window.Yasgui;
  const Yasqe = Yasgui.Yasqe;
  const cannedByTab = {};
  const waiting = [];
  let lastQuery = null;

  function finish(state) {
    body.dataset.state = state;
    for (const resolve of waiting.splice(0)) resolve(state);
  }

  function setStatus(text, isError) {
    status.textContent = text;
    status.className = isError ? "kg-error" : "";
  }

  // Completion of the ontology's terms (classes and properties of kg and the vocabularies it writes),
  // from a list in the page: no lookup service (the property and class completers ask LOV online).
  const iris = data.terms.map((t) => data.prefixes[t.split(":")[0]] + t.slice(t.indexOf(":") + 1));
  Yasqe.registerAutocompleter({
    name: "kgTerms",
    bulk: true,
    autoShow: false,
    persistenceId: null,
    get: iris,
    isValidCompletionPosition: (yasqe) => {
      const token = yasqe.getCompleteToken();
      if (!token.string || token.string[0] === "?" || token.string[0] === "$") return false;
      const possible = token.state.possibleCurrent || [];
      return possible.indexOf("a") >= 0 || possible.indexOf("PNAME_LN") >= 0 || possible.indexOf("IRI_REF") >= 0;
    },
    preProcessToken: (yasqe, token) => {
      const t = Yasqe.Autocompleters.property.preProcessToken(yasqe, token);
      const prefix = (t.tokenPrefix || "").slice(0, -1);
      if (prefix && !t.tokenPrefixUri && data.prefixes[prefix]) {  // the ontology's prefix, not declared yet
        t.tokenPrefixUri = data.prefixes[prefix];
        t.autocompletionString = t.tokenPrefixUri + t.string.trim().slice(prefix.length + 1);
      }
      return t;
    },
    postProcessSuggestion: (yasqe, token, s) => Yasqe.Autocompleters.property.postProcessSuggestion(yasqe, token, s),
  }, false);

  // Numbers show as numbers: YASR's table writes every typed literal as "0.974"^^xsd:decimal; a number
  // of an XSD numeric type is drawn as its value alone (escaped, as YASR escapes every literal).
  const XSD = "http://www.w3.org/2001/XMLSchema#";
  const NUMERIC = new Set(["integer", "decimal", "double", "float", "int", "long", "short", "byte",
    "nonNegativeInteger", "nonPositiveInteger", "negativeInteger", "positiveInteger", "unsignedLong",
    "unsignedInt", "unsignedShort", "unsignedByte"].map((name) => XSD + name));
  const Table = Yasgui.Yasr.plugins.table;
  const formatLiteral = Table.prototype.formatLiteral;
  Table.prototype.formatLiteral = function (binding, prefixes) {
    const plain = binding.datatype && NUMERIC.has(binding.datatype) ? { type: binding.type, value: binding.value } : binding;
    return formatLiteral.call(this, plain, prefixes);
  };

  const yasgui = new Yasgui($("kg-yasgui"), {
    persistenceId: null,
    populateFromUrl: false,
    autoAddOnInit: false,
    copyEndpointOnNewTab: true,
    requestConfig: {
      endpoint: endpoint,
      method: "POST",
      acceptHeaderSelect: "application/sparql-results+json",
      acceptHeaderGraph: "text/turtle",
    },
    endpointCatalogueOptions: { getData: () => [{ endpoint: endpoint }], keys: [] },
    yasqe: {
      persistenceId: null,
      prefixCcApi: "static/kg-prefixes.json",
      autocompleters: ["prefixes", "variables", "kgTerms"],
      createShareableLink: null,
      editorHeight: "260px",
    },
    yasr: { persistenceId: null, maxPersistentResponseSize: 0, prefixes: data.prefixes },
  });

  function bindingsOf(yasr) {
    const results = yasr && yasr.results;
    if (!results || results.hasError()) return null;
    const b = results.getBoolean();
    if (b !== undefined && b !== null) return 1;
    const rows = results.getBindings();
    return rows ? rows.length : null;
  }

  // Entity and article IRIs open this server's page of the entity or article, in this window: links
  // are rewritten as the tables draw them (a page, a sort, a filter draws rows anew).
  function localLinks(root) {
    for (const a of root.querySelectorAll("a.iri")) {
      const iri = a.getAttribute("href") || "";
      for (const kind of ["entity/", "article/"]) {
        if (iri.startsWith(data.base + kind) && iri.length > data.base.length + kind.length) {
          a.href = kind + iri.slice(data.base.length + kind.length);
          a.removeAttribute("target");
        }
      }
    }
  }
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) if (n.nodeType === 1) localLinks(n);
  }).observe($("kg-yasgui"), { childList: true, subtree: true });

  yasgui.on("query", (_y, tab) => {
    lastQuery = tab.getQuery();
    csvButton.disabled = jsonButton.disabled = true;
    body.dataset.state = "running";
    body.dataset.rows = "";
    setStatus("running…", false);
  });
  yasgui.on("queryResponse", (_y, tab) => {
    const yasr = tab.getYasr();
    yasr.once("drawn", () => {
      const results = yasr.results;
      const ms = results.getResponseTime();
      if (!results || results.hasError()) {
        const err = results && results.getError();
        setStatus((err && (err.status ? err.status + ": " : "") + (err.text || "")) || "the query failed", true);
        finish("error");
        return;
      }
      const rows = bindingsOf(yasr);
      const cut = results.res && results.res.headers ? results.res.headers.get("X-Kg-Truncated") : null;
      const more = cut ? " (only the first " + cut + " rows: the rest was cut)" : "";
      body.dataset.rows = rows === null ? "" : String(rows);
      csvButton.disabled = jsonButton.disabled = rows === null;
      setStatus((rows === null ? "graph" : rows + " row(s)") + " in " + ms + " ms" + more, false);
      finish("done");
    });
  });
  yasgui.on("tabSelect", (_y, id) => showDescription(id));

  function showDescription(id) {
    const q = cannedByTab[id];
    desc.textContent = q ? q.description : "";
    desc.title = desc.textContent;
  }

  function post(query, accept) {
    return fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8", "Accept": accept },
      body: new URLSearchParams({ query: query }),
    });
  }

  // Downloads ask the server again, for its own CSV or JSON of the whole result (up to the row cap).
  async function download(kind) {
    if (lastQuery === null) return "";
    const accept = kind === "csv" ? "text/csv" : "application/sparql-results+json";
    const response = await post(lastQuery, accept);
    const text = await response.text();
    if (!response.ok) {
      setStatus(response.status + ": " + text.trim(), true);
      return "";
    }
    const url = URL.createObjectURL(new Blob([text], { type: accept }));
    const a = document.createElement("a");
    a.href = url;
    a.download = kind === "csv" ? "results.csv" : "results.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    return text;
  }

  // Runs the active tab's query (``text``, if given); resolves to "done" or "error" once drawn.
  function run(text) {
    const tab = yasgui.getTab();
    if (text !== undefined) tab.setQuery(text);
    return new Promise((resolve) => {
      waiting.push(resolve);
      tab.query().catch(() => {});
    });
  }

  function tabOf(name) {
    return Object.keys(cannedByTab).find((id) => cannedByTab[id].name === name);
  }

  function pick(name) {
    const id = tabOf(name);
    if (id) yasgui.selectTabId(id);
    return id !== undefined;
  }

  data.canned.forEach((q, i) => {  // the comment header shows above the editor (showDescription), not in it too
    const tab = yasgui.addTab(i === 0, { name: q.name.replace(/\.rq$/, ""), yasqe: { value: q.body } });
    cannedByTab[tab.getId()] = q;
  });
  if (!data.canned.length) yasgui.addTab(true, { name: "query" });
  showDescription(yasgui.getTab().getId());
  csvButton.addEventListener("click", () => download("csv"));
  jsonButton.addEventListener("click", () => download("json"));
  window.kgRun = run;
  window.kgDownload = download;
  window.kgPick = pick;
  window.kgYasgui = yasgui;
  body.dataset.canned = String(data.canned.length);
  body.dataset.state = "ready";
  const m = /^#canned=(.+)$/.exec(location.hash);
  if (m && pick(decodeURIComponent(m[1]))) run();
})();
