/* kg network view. Every text that comes from the data is put in the page with
 * textContent (or as a DOM element for vis-network tooltips): never as markup. */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var body = document.body;
  var panel = document.getElementById("kg-panel");
  var panelBody = document.getElementById("kg-panel-body");
  var statusEl = document.getElementById("kg-search-status");

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function tooltip(lines) {
    var d = el("div", null, "kg-tip");
    lines.forEach(function (line) { if (line) d.appendChild(el("div", line)); });
    return d;
  }

  var nodeById = new Map();
  data.nodes.forEach(function (n) { nodeById.set(n.id, n); });
  var factById = new Map();
  var factsOfNode = new Map();
  data.facts.forEach(function (f) {
    factById.set(f.id, f);
    [f.source, f.target].forEach(function (id) {
      if (id === null || id === undefined) return;
      if (!factsOfNode.has(id)) factsOfNode.set(id, []);
      var list = factsOfNode.get(id);
      if (list.indexOf(f) < 0) list.push(f);
    });
  });

  function labelOf(id) {
    var n = nodeById.get(id);
    return n ? n.label : String(id);
  }

  function modalityText(f) {
    var bits = [];
    if (f.kind === "event" && f.modality && f.modality !== "asserted") bits.push(f.modality);
    if (f.negated) bits.push("negated");
    if (f.former) bits.push("former");
    return bits.join(", ");
  }

  /* --- vis-network ------------------------------------------------------ */
  var visNodes = new vis.DataSet(data.nodes.map(function (n) {
    return {
      id: n.id, label: n.label, group: n.group, size: n.size,
      title: tooltip([n.label, n.group + " \u00b7 " + n.degree + (n.degree === 1 ? " link" : " links")])
    };
  }));
  var visEdges = new vis.DataSet(data.edges.map(function (e) {
    var f = factById.get(e.id) || {};
    var copy = {};
    Object.keys(e).forEach(function (k) { copy[k] = e[k]; });
    copy.title = tooltip([labelOf(e.from) + " \u2192 " + e.label + " \u2192 " + labelOf(e.to), f.sentence]);
    return copy;
  }));

  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, { nodes: visNodes, edges: visEdges }, data.options);

  network.on("afterDrawing", function () {
    body.dataset.drawn = String(visNodes.length);
  });
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({ physics: { enabled: false } });
    body.dataset.stabilized = "true";
  });

  /* --- side panel ------------------------------------------------------- */
  function openPanel(kind, heading) {
    while (panelBody.firstChild) panelBody.removeChild(panelBody.firstChild);
    panelBody.appendChild(el("div", kind, "kg-kind"));
    panelBody.appendChild(el("h2", heading));
    panel.hidden = false;
  }

  function closePanel() {
    panel.hidden = true;
    panel.removeAttribute("data-selected");
    network.unselectAll();
  }

  function addField(dl, name, value) {
    if (value === undefined || value === null || value === "") return;
    dl.appendChild(el("dt", name));
    var dd = el("dd");
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    dl.appendChild(dd);
  }

  function sourceElement(text) {
    // a link only for http(s) URLs (so never javascript: or data:); else plain text
    try {
      var url = new URL(text);
      if (url.protocol === "http:" || url.protocol === "https:") {
        var a = el("a", text);
        a.href = url.href;
        a.rel = "noopener noreferrer";
        a.target = "_blank";
        return a;
      }
    } catch (err) { /* not a URL: a file name */ }
    return el("span", text);
  }

  function nodeLink(id) {
    if (!nodeById.has(id)) return el("span", labelOf(id));
    var b = el("button", labelOf(id), "kg-link");
    b.type = "button";
    b.addEventListener("click", function () { selectNode(id, true); });
    return b;
  }

  function selectEdge(id) {
    var f = factById.get(id);
    if (!f) return false;
    if (visEdges.get(id)) network.setSelection({ nodes: [], edges: [id] }, { unselectAll: true, highlightEdges: false });
    openPanel(f.kind === "role" ? "role" : "event", f.label);
    panel.setAttribute("data-selected", "edge");
    panel.dataset.id = id;
    var who = el("p");
    who.appendChild(nodeLink(f.source));
    who.appendChild(document.createTextNode(f.kind === "role" ? " \u2014 " + f.label + " of \u2014 " : " \u2192 " + f.label + " \u2192 "));
    if (f.target !== null && f.target !== undefined) who.appendChild(nodeLink(f.target));
    panelBody.appendChild(who);
    if (f.sentence) panelBody.appendChild(el("blockquote", f.sentence, "kg-evidence"));
    var dl = el("dl");
    addField(dl, "article", f.title || "(untitled)");
    addField(dl, "source", f.articleSource ? sourceElement(f.articleSource) : "");
    addField(dl, "date", f.date);
    addField(dl, "status", modalityText(f));
    panelBody.appendChild(dl);
    return true;
  }

  function describe(f, nodeId) {
    var li = el("li");
    var head = el("span");
    if (f.kind === "role") {
      if (f.source === nodeId) {
        head.appendChild(document.createTextNode(f.label + " of "));
        head.appendChild(nodeLink(f.target));
      } else {
        head.appendChild(nodeLink(f.source));
        head.appendChild(document.createTextNode(": " + f.label));
      }
    } else {
      head.appendChild(f.source === nodeId ? el("span", labelOf(f.source)) : nodeLink(f.source));
      head.appendChild(document.createTextNode(" " + f.label + (f.target ? " " : "")));
      if (f.target) head.appendChild(f.target === nodeId ? el("span", labelOf(f.target)) : nodeLink(f.target));
    }
    var status = modalityText(f);
    if (status) head.appendChild(document.createTextNode(" (" + status + ")"));
    li.appendChild(head);
    if (f.sentence) {
      var s = el("button", f.sentence, "kg-link kg-sentence");
      s.type = "button";
      s.title = "show this fact";
      s.addEventListener("click", function () { selectEdge(f.id); });
      li.appendChild(s);
    }
    return li;
  }

  function selectNode(id, focus) {
    var n = nodeById.get(id);
    if (!n) return false;
    network.selectNodes([id], true);
    if (focus) network.focus(id, { scale: 1.3, animation: { duration: 400, easingFunction: "easeInOutQuad" } });
    openPanel(n.group, n.label);
    panel.setAttribute("data-selected", "node");
    panel.dataset.id = id;
    var dl = el("dl");
    addField(dl, "links", n.degree);
    addField(dl, "also", (n.aliases || []).join("; "));
    panelBody.appendChild(dl);
    var facts = (factsOfNode.get(id) || []).slice().sort(function (a, b) {
      return (a.kind + a.label + a.id) < (b.kind + b.label + b.id) ? -1 : 1;
    });
    panelBody.appendChild(el("div", facts.length + (facts.length === 1 ? " fact" : " facts"), "kg-kind"));
    var ul = el("ul", null, "kg-facts");
    facts.forEach(function (f) { ul.appendChild(describe(f, id)); });
    panelBody.appendChild(ul);
    return true;
  }

  network.on("click", function (params) {
    if (params.nodes.length) selectNode(params.nodes[0], false);
    else if (params.edges.length) selectEdge(params.edges[0]);
    else closePanel();
  });
  document.getElementById("kg-panel-close").addEventListener("click", closePanel);

  /* --- search ----------------------------------------------------------- */
  var datalist = document.getElementById("kg-labels");
  var seen = new Set();
  data.nodes.forEach(function (n) {
    if (seen.has(n.label)) return;
    seen.add(n.label);
    var o = document.createElement("option");
    o.value = n.label;
    datalist.appendChild(o);
  });

  function findNode(query) {
    var q = String(query).trim().toLowerCase();
    if (!q) return null;
    var tiers = [[], [], []];
    data.nodes.forEach(function (n) {
      var names = [n.label].concat(n.aliases || []).map(function (s) { return s.toLowerCase(); });
      if (names.indexOf(q) >= 0) tiers[0].push(n);
      else if (names.some(function (s) { return s.indexOf(q) === 0; })) tiers[1].push(n);
      else if (names.some(function (s) { return s.indexOf(q) >= 0; })) tiers[2].push(n);
    });
    for (var i = 0; i < tiers.length; i++) {
      if (tiers[i].length) {
        tiers[i].sort(function (a, b) { return b.degree - a.degree || (a.label < b.label ? -1 : 1); });
        return tiers[i][0];
      }
    }
    return null;
  }

  function focusLabel(query) {
    var n = findNode(query);
    statusEl.textContent = n ? "" : "no entity matches";
    if (n) selectNode(n.id, true);
    return n ? n.id : null;
  }

  document.getElementById("kg-search").addEventListener("submit", function (ev) {
    ev.preventDefault();
    focusLabel(document.getElementById("kg-search-input").value);
  });

  /* --- deep links: #select-edge=<iri>, #select-node=<iri>, #search=<label> --- */
  function applyHash() {
    var h = location.hash.replace(/^#/, "");
    var eq = h.indexOf("=");
    if (eq < 0) return;
    var key = h.slice(0, eq), value;
    try { value = decodeURIComponent(h.slice(eq + 1)); } catch (err) { return; }
    if (key === "select-edge") selectEdge(value);
    else if (key === "select-node") selectNode(value, true);
    else if (key === "search") focusLabel(value);
  }
  window.addEventListener("hashchange", applyHash);
  applyHash();

  window.kgSelectEdge = selectEdge;
  window.kgSelectNode = selectNode;
  window.kgFocus = focusLabel;
  window.kgNetwork = network;
})();
