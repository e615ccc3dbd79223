"""The graphs of whole builds conform to ontology/shapes.ttl: the seeds, and the dev set where it is.

The store's union (every article graph, the shared descriptions and the resolution graph, as
``kg export`` and ``graph.ttl`` hold it) is validated with pyshacl against shapes.ttl and kg.ttl,
without inference (then the ``sh:class`` checks need the entities to carry their kg class
themselves) and with RDFS inference (what a reasoner would add must conform too).
"""
from __future__ import annotations

import pyshacl
import pytest
from factsamples import ONTOLOGY, SHAPES
from rdflib import Graph, Namespace
from rdflib.namespace import RDF

from kg.outputs.export import serialize
from kg.store import Store

SH = Namespace("http://www.w3.org/ns/shacl#")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return Graph().parse(SHAPES, format="turtle")


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


def _violations(store: Store, shapes: Graph, ontology: Graph, inference: str = "none") -> tuple[int, list[str]]:
    """(triples validated, one line per violation: focus node, path, value, message)."""
    data = Graph().parse(data=serialize(store, "turtle").decode("utf-8"), format="turtle")
    _, report, _ = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology, inference=inference,
                                    abort_on_first=False)
    lines = sorted(
        f"{report.value(r, SH.focusNode)} {report.value(r, SH.resultPath)} = {report.value(r, SH.value)}: "
        f"{report.value(r, SH.resultMessage)}"
        for r in report.subjects(RDF.type, SH.ValidationResult)
    )
    return len(data), lines


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_the_seeds_graph_conforms(seeds_store: Store, shapes: Graph, ontology: Graph, inference: str) -> None:
    size, bad = _violations(seeds_store, shapes, ontology, inference)
    assert size > 1000
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_the_dev_set_graph_conforms(dev_store: Store, shapes: Graph, ontology: Graph, inference: str) -> None:
    size, bad = _violations(dev_store, shapes, ontology, inference)
    assert size > 5000
    assert not bad, "\n".join(bad[:20])


def test_a_group_as_a_membership_organization_is_reported(shapes: Graph, ontology: Graph) -> None:
    """The check can fail: an org:organization that is a kg:Group (a common noun) violates the shapes."""
    from factsamples import minter, sample_facts

    from kg.model.vocab import KG, ORG
    from kg.rdf.mapping import article_graph
    from kg.store import MemoryStore

    g = article_graph(sample_facts(), minter())
    group = next(g.subjects(RDF.type, KG.Group))
    membership = next(g.subjects(RDF.type, ORG.Membership))
    g.set((membership, ORG.organization, group))
    store = MemoryStore()
    store.replace_graph("https://kg.example.org/graph/test", g.serialize(format="nt"))
    _, bad = _violations(store, shapes, ontology)
    assert any(str(group) in line and "organization" in line for line in bad), bad
