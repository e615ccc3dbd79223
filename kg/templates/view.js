/* kg network view. Every text that comes from the data is put in the page with
 * textContent (or as a DOM element for vis-network tooltips): never as markup.
 *
 * All nodes and facts are in the data block; the page draws the "visible" part:
 * the entities that pass the filters (type, article, event class, date range, unlinked),
 * cut to the `limit` most central ones (by PageRank rank, computed in Python) plus the
 * ones the user expanded (double-click a node: its neighbours; "show more": the next
 * `limit`). The page's state is on <body>: data-visible-nodes, data-visible-edges,
 * data-cutoff ("true" when some passing entities are not drawn), data-drawn (nodes at
 * the last draw), data-stabilized; window.kgState() returns it all. */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var body = document.body;
  var panel = document.getElementById("kg-panel");
  var panelBody = document.getElementById("kg-panel-body");
  var statusEl = document.getElementById("kg-search-status");
  var statusText = document.getElementById("kg-status-text");
  var moreButton = document.getElementById("kg-more");

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
  var edgeById = new Map();
  data.edges.forEach(function (e) { edgeById.set(e.id, e); });
  var byRank = data.nodes.slice().sort(function (a, b) { return a.rank - b.rank; });
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
  var drawnFacts = data.facts.filter(function (f) { return f.drawn && edgeById.has(f.id); });

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

  function classText(f) {
    if (!f.cls) return "";
    var name = (f.clsCode ? f.clsCode + " " : "") + (f.clsLabel || f.cls);
    return f.quad ? name + " (" + f.quad + ")" : name;
  }

  /* --- state and filters ------------------------------------------------ */
  var allTypes = [];
  Array.prototype.forEach.call(document.querySelectorAll("#kg-filter-types input"), function (c) { allTypes.push(c.value); });
  var defaultIsolated = drawnFacts.length === 0;  // a graph with no links: show its entities anyway

  function defaults() {
    return { types: new Set(allTypes), article: "", cls: "", since: "", until: "", isolated: defaultIsolated,
             limit: data.limit, expanded: new Set() };
  }
  var state = defaults();

  function factPasses(f) {
    if (state.article && f.article !== state.article) return false;
    if (state.cls) {
      if (f.kind !== "event") return false;
      if (state.cls.indexOf("quad:") === 0) { if (f.quad !== state.cls.slice(5)) return false; }
      else if (f.cls !== state.cls) return false;
    }
    if (state.since || state.until) {
      // the event's own date where it has one (any day of its month, year or span), else its article's
      var d = String(f.date || "").slice(0, 10);
      var first = f.first || d, last = f.last || d;
      if (!first || !last) return false;
      if (state.since && last < state.since) return false;
      if (state.until && first > state.until) return false;
    }
    return true;
  }

  function typeOk(id) {
    var n = nodeById.get(id);
    return !!n && state.types.has(n.group);
  }

  /* What passes the filters, before the cut-off: {nodes: Set, edges: [facts], unlinked: n}
   * (unlinked: entities with a passing fact but no drawn link, left out unless `isolated`) */
  function passing() {
    var edges = drawnFacts.filter(function (f) { return factPasses(f) && typeOk(f.source) && typeOk(f.target); });
    var nodes = new Set();
    edges.forEach(function (f) { nodes.add(f.source); nodes.add(f.target); });
    var unlinked = new Set();
    data.facts.forEach(function (f) {
      if (!factPasses(f)) return;
      [f.source, f.target].forEach(function (id) { if (id && !nodes.has(id) && typeOk(id)) unlinked.add(id); });
    });
    if (state.isolated) unlinked.forEach(function (id) { nodes.add(id); });
    return { nodes: nodes, edges: edges, unlinked: state.isolated ? 0 : unlinked.size };
  }

  var current = { nodes: new Set(), edges: new Set(), passing: 0, cutoff: false, unlinked: 0 };

  function compute() {
    var p = passing();
    var visible = new Set();
    var budget = state.limit;
    for (var i = 0; i < byRank.length && budget > 0; i++) {
      if (p.nodes.has(byRank[i].id)) { visible.add(byRank[i].id); budget--; }
    }
    state.expanded.forEach(function (id) { if (p.nodes.has(id)) visible.add(id); });
    var edges = new Set();
    p.edges.forEach(function (f) { if (visible.has(f.source) && visible.has(f.target)) edges.add(f.id); });
    return { nodes: visible, edges: edges, passing: p.nodes.size, cutoff: visible.size < p.nodes.size,
             unlinked: p.unlinked };
  }

  function visNode(n) {
    return {
      id: n.id, label: n.label, group: n.group, size: n.size,
      title: tooltip([n.label, n.group + " \u00b7 " + n.degree + (n.degree === 1 ? " link" : " links")])
    };
  }

  function visEdge(e) {
    var f = factById.get(e.id) || {};
    var copy = {};
    Object.keys(e).forEach(function (k) { copy[k] = e[k]; });
    copy.title = tooltip([labelOf(e.from) + " \u2192 " + e.label + " \u2192 " + labelOf(e.to), classText(f), f.sentence]);
    return copy;
  }

  /* --- deep links: #key=value&key=value, values percent-encoded ------------
   * filters: types=Person,Place  article=<iri>  class=<iri>|quad:<name>  since=  until=
   *          isolated=1|0  limit=N  expand=<iri>
   * then one of: select-edge=<iri>  select-node=<iri>  search=<label> */
  function hashParams() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq < 0) return;
      try { params[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1)); } catch (err) { /* ignore */ }
    });
    return params;
  }

  function hashFilter(params) {
    var f = {};
    if ("types" in params) f.types = params.types ? params.types.split(",") : [];
    if ("article" in params) f.article = params.article;
    if ("class" in params) f.cls = params["class"];
    if ("since" in params) f.since = params.since;
    if ("until" in params) f.until = params.until;
    if ("isolated" in params) f.isolated = params.isolated === "1" || params.isolated === "true";
    if ("limit" in params) f.limit = params.limit;
    return f;
  }

  function setState(f) {
    if (f.types) state.types = new Set(f.types);
    ["article", "cls", "since", "until"].forEach(function (k) { if (k in f) state[k] = String(f[k] || ""); });
    if ("isolated" in f) state.isolated = !!f.isolated;
    if ("limit" in f && Number(f.limit) > 0) state.limit = Math.floor(Number(f.limit));
  }

  // the filters of the link shape the first drawing (no second layout)
  var firstParams = hashParams();
  setState(hashFilter(firstParams));
  ["expand", "select-node"].forEach(function (k) {
    if (k in firstParams && passing().nodes.has(firstParams[k])) state.expanded.add(firstParams[k]);
  });

  var initial = compute();
  var visNodes = new vis.DataSet(byRank.filter(function (n) { return initial.nodes.has(n.id); }).map(visNode));
  var visEdges = new vis.DataSet(data.edges.filter(function (e) { return initial.edges.has(e.id); }).map(visEdge));
  current = initial;

  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, { nodes: visNodes, edges: visEdges }, data.options);
  var positions = new Map();  // where removed nodes were, to put them back there

  function publish() {
    body.dataset.visibleNodes = String(current.nodes.size);
    body.dataset.visibleEdges = String(current.edges.size);
    body.dataset.cutoff = current.cutoff ? "true" : "false";
    var total = data.nodes.length;
    var text = "showing " + current.nodes.size + " of " + total + (total === 1 ? " entity" : " entities");
    var notes = [];
    if (current.cutoff) notes.push("the most central of " + current.passing + " that pass the filters; double-click a node to add its neighbours");
    if (current.unlinked) notes.push(current.unlinked + " without links hidden");
    if (total && !current.passing) notes.push("none pass the filters");
    statusText.textContent = text + (notes.length ? " \u00b7 " + notes.join(" \u00b7 ") : "");
    moreButton.hidden = !current.cutoff;
  }

  var settling = false;
  function settle() {
    // physics back on until the new nodes found a place, then off again
    settling = true;
    stabilizing = true;
    body.dataset.stabilized = "false";
    network.setOptions({ physics: { enabled: true } });
    network.stabilize(visNodes.length > 1000 ? 120 : 300);
  }

  var stabilizing = true, pending = false;
  function apply(opts) {
    if (stabilizing) {  // vis-network draws nothing while it stabilises: change the data after
      pending = true;
      publish();
      return { added: 0, removed: 0, deferred: true };
    }
    var next = compute();
    var removeNodes = [], addNodes = [], removeEdges = [], addEdges = [];
    current.nodes.forEach(function (id) { if (!next.nodes.has(id)) removeNodes.push(id); });
    current.edges.forEach(function (id) { if (!next.edges.has(id)) removeEdges.push(id); });
    if (removeNodes.length) {
      var pos = network.getPositions(removeNodes);
      Object.keys(pos).forEach(function (id) { positions.set(id, pos[id]); });
    }
    var placed = network.getPositions();
    byRank.forEach(function (n) {
      if (!next.nodes.has(n.id) || current.nodes.has(n.id)) return;
      var v = visNode(n);
      var at = positions.get(n.id);
      if (!at) {  // next to a drawn neighbour, if it has one
        var facts = factsOfNode.get(n.id) || [];
        for (var i = 0; i < facts.length && !at; i++) {
          var other = facts[i].source === n.id ? facts[i].target : facts[i].source;
          if (other && placed[other]) {
            var angle = (addNodes.length * 2.39996) % (2 * Math.PI);
            at = { x: placed[other].x + 80 * Math.cos(angle), y: placed[other].y + 80 * Math.sin(angle) };
          }
        }
      }
      if (at) { v.x = at.x; v.y = at.y; }
      addNodes.push(v);
    });
    next.edges.forEach(function (id) { if (!current.edges.has(id)) addEdges.push(visEdge(edgeById.get(id))); });
    visEdges.remove(removeEdges);
    visNodes.remove(removeNodes);
    visNodes.add(addNodes);
    visEdges.add(addEdges);
    current = next;
    publish();
    if (addNodes.length && !(opts && opts.still)) settle();
    else network.redraw();
    return { added: addNodes.length, removed: removeNodes.length };
  }

  var firstDraw = true;
  network.on("afterDrawing", function () {
    if (firstDraw) {
      firstDraw = false;
      if (window.performance && performance.mark) performance.mark("kg-first-draw");
      body.dataset.firstDrawMs = String(Math.round(performance.now()));
    }
    body.dataset.drawn = String(visNodes.length);
  });
  network.on("stabilizationProgress", function (params) {
    if (!settling) statusText.textContent = "laying out " + visNodes.length + " entities\u2026 " +
      Math.round(100 * params.iterations / Math.max(params.total, 1)) + "%";
  });
  network.on("stabilizationIterationsDone", function () {
    network.setOptions({ physics: { enabled: false } });
    network.redraw();  // now, not at the next animation frame (a headless dump may not wait for one)
    stabilizing = false;
    if (settling) { settling = false; }
    else if (window.performance && performance.mark) performance.mark("kg-stabilized");
    body.dataset.stabilized = "true";
    if (pending) { pending = false; apply(); }
    else publish();
  });
  if (!visNodes.length) {  // vis-network does not stabilise an empty network, nor say so
    stabilizing = false;
    body.dataset.stabilized = "true";
  }
  publish();

  /* --- filter controls -------------------------------------------------- */
  var articleSelect = document.getElementById("kg-filter-article");
  data.articles.forEach(function (a) {
    var o = el("option", (a.date ? a.date.slice(0, 10) + " \u00b7 " : "") + (a.title || a.source || a.id));
    o.value = a.id;
    articleSelect.appendChild(o);
  });
  var classSelect = document.getElementById("kg-filter-class");
  var quads = Object.keys(data.quadColors || {});
  quads.forEach(function (q) {
    var o = el("option", q);
    o.value = "quad:" + q;
    classSelect.appendChild(o);
  });
  data.classes.forEach(function (c) {
    var o = el("option", "\u2003" + (c.code ? c.code + " " : "") + (c.label || c.id));
    o.value = c.id;
    classSelect.appendChild(o);
  });
  var sinceInput = document.getElementById("kg-filter-since");
  var untilInput = document.getElementById("kg-filter-until");
  var isolatedBox = document.getElementById("kg-filter-isolated");
  var dates = [];
  data.facts.forEach(function (f) { [f.first, f.last, String(f.date || "").slice(0, 10)].forEach(function (d) { if (d) dates.push(d); }); });
  dates.sort();
  if (dates.length) {
    [sinceInput, untilInput].forEach(function (i) { i.min = dates[0]; i.max = dates[dates.length - 1]; });
  }

  function syncControls() {
    Array.prototype.forEach.call(document.querySelectorAll("#kg-filter-types input"), function (c) {
      c.checked = state.types.has(c.value);
    });
    articleSelect.value = state.article;
    classSelect.value = state.cls;
    sinceInput.value = state.since;
    untilInput.value = state.until;
    isolatedBox.checked = state.isolated;
  }

  function readControls() {
    var types = new Set();
    Array.prototype.forEach.call(document.querySelectorAll("#kg-filter-types input"), function (c) {
      if (c.checked) types.add(c.value);
    });
    state.types = types;
    state.article = articleSelect.value;
    state.cls = classSelect.value;
    state.since = sinceInput.value;
    state.until = untilInput.value;
    state.isolated = isolatedBox.checked;
    apply();
  }
  syncControls();
  var filters = document.getElementById("kg-filters");
  filters.addEventListener("change", readControls);
  filters.addEventListener("submit", function (ev) { ev.preventDefault(); });
  filters.addEventListener("reset", function (ev) {
    ev.preventDefault();
    var keepLimit = state.limit;
    state = defaults();
    state.limit = keepLimit;
    syncControls();
    apply();
  });

  /* kgSetFilter({types: [...], article, cls, since, until, isolated, limit}): the same as the controls */
  function setFilter(f) {
    setState(f || {});
    syncControls();
    apply();
    return kgState();
  }

  function showMore() {
    state.limit += data.limit;
    apply();
    return kgState();
  }
  moreButton.addEventListener("click", showMore);

  /* neighbours of a node that pass the filters */
  function expand(id) {
    if (!nodeById.has(id)) return 0;
    var p = passing();
    var added = 0;
    if (p.nodes.has(id) && !state.expanded.has(id) && !current.nodes.has(id)) { state.expanded.add(id); added++; }
    p.edges.forEach(function (f) {
      var other = f.source === id ? f.target : f.target === id ? f.source : null;
      if (other && !current.nodes.has(other) && !state.expanded.has(other)) { state.expanded.add(other); added++; }
    });
    if (added) apply();
    return added;
  }

  function kgState() {
    return {
      visibleNodes: Array.from(current.nodes).sort(), visibleEdges: Array.from(current.edges).sort(),
      passing: current.passing, cutoff: current.cutoff, limit: state.limit,
      filter: { types: Array.from(state.types).sort(), article: state.article, cls: state.cls, since: state.since,
                until: state.until, isolated: state.isolated }
    };
  }

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
    addField(dl, "when", f.when ? f.when + (f.first ? " (" + (f.first === f.last ? f.first : f.first + " \u2013 " + f.last) + ")" : "") : "");
    addField(dl, "class", classText(f));
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
    var status = [modalityText(f), classText(f)].filter(Boolean).join("; ");
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

  function hiddenNeighbours(id) {
    var n = 0;
    (factsOfNode.get(id) || []).forEach(function (f) {
      if (!f.drawn) return;
      var other = f.source === id ? f.target : f.source;
      if (other && !current.nodes.has(other)) n++;
    });
    return n;
  }

  function selectNode(id, focus) {
    var n = nodeById.get(id);
    if (!n) return false;
    var shown = current.nodes.has(id);
    if (!shown && passing().nodes.has(id)) {  // cut off: bring it in
      state.expanded.add(id);
      apply({ still: true });
      shown = true;
    }
    if (shown && visNodes.get(id)) {
      network.selectNodes([id], true);
      if (focus) network.focus(id, { scale: 1.3, animation: { duration: 400, easingFunction: "easeInOutQuad" } });
    } else {
      network.unselectAll();
    }
    openPanel(n.group, n.label);
    panel.setAttribute("data-selected", "node");
    panel.dataset.id = id;
    var dl = el("dl");
    addField(dl, "links", n.degree);
    addField(dl, "also", (n.aliases || []).join("; "));
    addField(dl, "rank", "#" + (n.rank + 1) + " by PageRank");
    if (!shown) addField(dl, "view", "hidden by the filters");
    panelBody.appendChild(dl);
    var hidden = hiddenNeighbours(id);
    if (shown && hidden) {
      var b = el("button", "show " + hidden + " hidden " + (hidden === 1 ? "neighbour" : "neighbours"), "kg-expand");
      b.type = "button";
      b.addEventListener("click", function () { expand(id); selectNode(id, false); });
      panelBody.appendChild(b);
    }
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
  network.on("doubleClick", function (params) {
    if (params.nodes.length) expand(params.nodes[0]);
  });
  document.getElementById("kg-panel-close").addEventListener("click", closePanel);

  /* --- search ----------------------------------------------------------- */
  var datalist = document.getElementById("kg-labels");
  var seen = new Set();
  byRank.forEach(function (n) {
    if (seen.has(n.label) || seen.size >= 5000) return;
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

  function applyHash(first) {
    var params = first === true ? firstParams : hashParams();
    if (first !== true) {
      var f = hashFilter(params);
      if (Object.keys(f).length) setFilter(f);
      if ("expand" in params) expand(params.expand);
    }
    if ("select-edge" in params) selectEdge(params["select-edge"]);
    else if ("select-node" in params) selectNode(params["select-node"], true);
    else if ("search" in params) focusLabel(params.search);
  }
  window.addEventListener("hashchange", applyHash);
  applyHash(true);

  window.kgSelectEdge = selectEdge;
  window.kgSelectNode = selectNode;
  window.kgFocus = focusLabel;
  window.kgSetFilter = setFilter;
  window.kgShowMore = showMore;
  window.kgExpand = expand;
  window.kgState = kgState;
  window.kgNetwork = network;
})();
