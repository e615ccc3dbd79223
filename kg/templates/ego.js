// The entity page's ego network: the entity and those it shares facts with, drawn by vis-network
// with the view's groups, edge colours and options (kg.outputs.view_entity.ego_data). A click on an
// entity opens its page (links to this server only). <body data-ego-stabilized> is "true" once drawn.
(function () {
  "use strict";
  var block = document.getElementById("kg-ego-data");
  var box = document.getElementById("kg-ego");
  if (!block || !box || typeof vis === "undefined") return;
  var data = JSON.parse(block.textContent);
  var hrefs = {};
  data.nodes.forEach(function (n) { if (n.href && n.href.charAt(0) === "/") hrefs[n.id] = n.href; delete n.href; });
  var network = new vis.Network(box, { nodes: new vis.DataSet(data.nodes), edges: new vis.DataSet(data.edges) },
                                data.options);
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({ physics: { enabled: false } });
    network.fit();
    document.body.dataset.egoStabilized = "true";
  });
  network.on("click", function (params) {
    var id = params.nodes && params.nodes[0];
    if (id !== undefined && hrefs[id] && id !== data.center) location.href = hrefs[id];
  });
  window.kgEgo = network;
})();
