// The kg query page: canned queries from /queries, runs on /sparql, results as a table.
// Every value goes in with textContent; the only links made are to this server's entity pages.
// Test hooks: #canned=<name> picks (and runs) a canned query; window.kgRun(text) and
// window.kgDownload("csv"|"json") return promises; <body data-state> is loading|ready|running|done|error
// and data-rows the number of rows shown.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const base = body.dataset.base || "";
  const entityPrefix = base + "entity/";
  const picker = $("kg-canned"), desc = $("kg-canned-desc"), editor = $("kg-query");
  const status = $("kg-status"), table = $("kg-results"), graph = $("kg-graph");
  const csvButton = $("kg-download-csv"), jsonButton = $("kg-download-json");
  let canned = [];
  let lastQuery = null;

  function setStatus(text, isError) {
    status.textContent = text;
    status.className = isError ? "kg-error" : "";
  }

  function post(query, accept) {
    return fetch("sparql", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8", "Accept": accept },
      body: new URLSearchParams({ query: query }),
    });
  }

  function cell(term) {
    const td = document.createElement("td");
    if (!term) return td;
    if (term.type === "uri" && term.value.startsWith(entityPrefix)) {
      const a = document.createElement("a");
      a.href = "entity/" + term.value.slice(entityPrefix.length);
      a.textContent = term.value;
      td.appendChild(a);
    } else {
      td.textContent = term.type === "bnode" ? "_:" + term.value : term.value;
      const note = term["xml:lang"] ? "@" + term["xml:lang"] : "";
      if (note) {
        const span = document.createElement("span");
        span.className = "kg-dt";
        span.textContent = note;
        td.appendChild(span);
      }
      if (term.datatype) td.title = term.datatype;
    }
    return td;
  }

  function showTable(vars, rows) {
    const head = table.tHead, tbody = table.tBodies[0];
    head.replaceChildren();
    tbody.replaceChildren();
    const tr = document.createElement("tr");
    for (const v of vars) {
      const th = document.createElement("th");
      th.textContent = v;
      tr.appendChild(th);
    }
    head.appendChild(tr);
    for (const row of rows) {
      const line = document.createElement("tr");
      for (const v of vars) line.appendChild(cell(row[v]));
      tbody.appendChild(line);
    }
    table.hidden = false;
    graph.hidden = true;
  }

  async function run(query) {
    lastQuery = null;
    csvButton.disabled = jsonButton.disabled = true;
    body.dataset.state = "running";
    body.dataset.rows = "";
    setStatus("running…", false);
    const started = performance.now();
    let response;
    try {
      response = await post(query, "application/sparql-results+json, text/turtle;q=0.9");
    } catch (err) {
      body.dataset.state = "error";
      setStatus("the server did not answer: " + err, true);
      return;
    }
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim();
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    if (!response.ok) {
      table.hidden = graph.hidden = true;
      body.dataset.state = "error";
      setStatus(response.status + ": " + text.trim(), true);
      return;
    }
    const truncated = response.headers.get("X-Kg-Truncated");
    const more = truncated ? " (only the first " + truncated + " rows: the rest was cut)" : "";
    if (type === "application/sparql-results+json") {
      const data = JSON.parse(text);
      if (Object.prototype.hasOwnProperty.call(data, "boolean")) {
        showTable(["boolean"], [{ boolean: { type: "literal", value: String(data.boolean) } }]);
        body.dataset.rows = "1";
        setStatus("ASK: " + data.boolean + " (" + ms + " ms)", false);
      } else {
        const rows = data.results.bindings;
        showTable(data.head.vars, rows);
        body.dataset.rows = String(rows.length);
        setStatus(rows.length + " row(s) in " + ms + " ms" + more, false);
      }
      lastQuery = query;
      csvButton.disabled = jsonButton.disabled = false;
    } else {
      graph.textContent = text;
      graph.hidden = false;
      table.hidden = true;
      body.dataset.rows = "";
      setStatus("graph (" + type + ") in " + ms + " ms" + more, false);
    }
    body.dataset.state = "done";
  }

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

  function pick(name) {
    const q = canned.find((c) => c.name === name);
    picker.value = q ? q.name : "";
    desc.textContent = q ? q.description : "";
    if (q) editor.value = q.query;
    return q;
  }

  async function loadCanned() {
    try {
      const response = await fetch("queries", { headers: { Accept: "application/json" } });
      canned = response.ok ? await response.json() : [];
    } catch (err) {
      canned = [];
    }
    for (const q of canned) {
      const option = document.createElement("option");
      option.value = q.name;
      option.textContent = q.name;
      option.title = q.description;
      picker.appendChild(option);
    }
    body.dataset.canned = String(canned.length);
  }

  picker.addEventListener("change", () => pick(picker.value));
  $("kg-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    run(editor.value);
  });
  editor.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      run(editor.value);
    }
  });
  csvButton.addEventListener("click", () => download("csv"));
  jsonButton.addEventListener("click", () => download("json"));
  window.kgRun = (text) => { editor.value = text; return run(text); };
  window.kgDownload = download;
  window.kgPick = pick;

  loadCanned().then(() => {
    body.dataset.state = "ready";
    const m = /^#canned=(.+)$/.exec(location.hash);
    if (m && pick(decodeURIComponent(m[1]))) run(editor.value);
  });
})();
