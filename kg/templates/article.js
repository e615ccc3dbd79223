// The article page: a click on a highlight shows its facts in the side panel, a click on a fact
// shows that fact. The details are in the page already (rendered and escaped by kg); this only
// shows and hides them. Deep links: #fact=N, #evidence=N; window.kgShowFact(N) and
// window.kgShowEvidence(N) do the same; <body data-shown> lists the facts shown.
(function () {
  "use strict";
  var body = document.body;
  var empty = document.getElementById("kg-panel-empty");
  var details = Array.prototype.slice.call(document.querySelectorAll(".kg-detail"));
  var on = [];

  function show(facts, evidence) {
    on.forEach(function (el) { el.classList.remove("kg-on"); });
    on = [];
    var shown = [];
    details.forEach(function (d) {
      var hit = facts.indexOf(d.dataset.fact) >= 0;
      d.hidden = !hit;
      if (hit) shown.push(d.dataset.fact);
    });
    facts.forEach(function (n) {
      Array.prototype.forEach.call(document.querySelectorAll('.kg-chip[data-fact="' + n + '"]'), function (c) {
        c.classList.add("kg-on");
        on.push(c);
      });
    });
    if (evidence) { evidence.classList.add("kg-on"); on.push(evidence); }
    empty.hidden = shown.length > 0;
    body.dataset.shown = shown.join(" ");
    if (shown.length) {
      var first = document.getElementById("kg-fact-" + shown[0]);
      if (first && first.scrollIntoView && window.matchMedia("(max-width: 56em)").matches) first.scrollIntoView({ block: "nearest" });
    }
    return shown.length;
  }

  function showFact(n) {
    n = String(n);
    var chip = document.querySelector('.kg-chip[data-fact="' + n + '"]');
    var detail = document.getElementById("kg-fact-" + n);
    if (!detail) return 0;
    var mark = chip && chip.parentNode && chip.parentNode.previousElementSibling;
    return show([n], mark && mark.matches && mark.matches("mark.kg-ev") ? mark : null);
  }

  function showEvidence(n) {
    var mark = document.getElementById("kg-ev-" + n);
    if (!mark) return 0;
    return show((mark.dataset.facts || "").split(" ").filter(Boolean), mark);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) return;
    var chip = t.closest(".kg-chip[data-fact]");
    if (chip) { showFact(chip.dataset.fact); return; }
    var mark = t.closest("mark.kg-ev");
    if (mark) showEvidence(mark.dataset.evidence);
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if ((ev.key === "Enter" || ev.key === " ") && t instanceof Element && t.matches("mark.kg-ev")) {
      ev.preventDefault();
      showEvidence(t.dataset.evidence);
    }
  });

  function fromHash() {
    var m = /^#(fact|evidence)=(\d+)$/.exec(location.hash);
    if (!m) return;
    if (m[1] === "fact") showFact(m[2]); else showEvidence(m[2]);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  window.kgShowFact = showFact;
  window.kgShowEvidence = showEvidence;
})();
