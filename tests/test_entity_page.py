"""Entity pages of ``kg serve`` as dossiers: names, type, roles over time, events grouped by article
(titles linking to the article pages), who reported what, an ego network in the view's styles, and
schema.org JSON-LD that parses offline; a cluster of entity resolution is shown whole; hostile names
stay text."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pagesamples as ps
import pytest
import viewsamples as vs
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF
from test_server_support import client

from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence, Role
from kg.outputs.view import EVENT_COLOR, QUAD_COLORS, ROLE_COLOR, TYPE_STYLES
from kg.store import OxigraphStore

SCHEMA = Namespace("https://schema.org/")
SHORT = vs.iri("Person", "H. Moen")


def _short_facts() -> ArticleFacts:
    sentence = "H. Moen visited the Fisheries Ministry."
    art = Article(id="short-name", text=sentence, title="A visit", date="2014-06-01", content_hash="h-short")
    ents = [Entity("hm", "H. Moen", "Person"), Entity("ministry", "Fisheries Ministry", "Organization")]
    return ArticleFacts(art, {e.key: e for e in ents},
                        [Event("hm", "visit", Evidence(sentence, 0, len(sentence)), target="ministry")], [])


def _twice_facts() -> ArticleFacts:
    """One role stated in two sentences of one article."""
    s1, s2 = "Treasurer Lena Varga of the Rowing Club spoke first.", "Varga, the club's treasurer, left early."
    text = s1 + " " + s2
    art = Article(id="rowing", text=text, title="Club night", date="2015-03-02", content_hash="h-rowing")
    ents = [Entity("lv", "Lena Varga", "Person", {"Varga"}), Entity("club", "Rowing Club", "Organization")]
    roles = [Role("lv", "treasurer", "club", Evidence(s1, 0, len(s1))),
             Role("lv", "treasurer", "club", Evidence(s2, len(s1) + 1, len(text)))]
    return ArticleFacts(art, {e.key: e for e in ents}, [], roles)


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    where = tmp_path_factory.mktemp("dossier") / "store"
    st = OxigraphStore(where)
    for f in vs.sample_facts() + [ps.article_facts(), _short_facts(), _twice_facts()]:
        write_article(st, to_graph(f, vs.MINTER))
    # a cluster, as entity resolution writes it: the short name is the same as the full one
    st.add_triples(vs.BASE + "resolution", "\n".join([
        f"<{SHORT}> <http://www.w3.org/2002/07/owl#sameAs> <{vs.MOEN}> .",
        f"<{vs.MOEN}> <https://w3id.org/kg-news/ns#mentionedIn> <{vs.BASE}mention/x/1> .",
        f'<{vs.MOEN}> <http://www.w3.org/2004/02/skos/core#prefLabel> "Halvard Moen" .',
        f'<{vs.MOEN}> <http://www.w3.org/2004/02/skos/core#altLabel> "H. Moen" .',
    ]) + "\n")
    st.close()
    with client(where) as cl:
        yield cl


def _page(c: Any, iri: str) -> str:
    r = c.get("/" + iri[len(vs.BASE):], headers={"Accept": "text/html"})
    assert r.status_code == 200, r.text
    return r.text


def _block(html: str, id_: str) -> Any:
    m = re.search(rf'<script type="application/[a-z+]*json" id="{id_}">(.*?)</script>', html, re.S)
    assert m is not None, id_
    return json.loads(m.group(1))


def _section(html: str, id_: str) -> str:
    m = re.search(rf'id="{id_}".*?(?=<h2>|</main>)', html, re.S)
    assert m is not None, id_
    return m.group(0)


def test_events_are_grouped_by_article_with_links_to_the_article_pages(c: Any) -> None:
    html = _page(c, vs.MOEN)
    events = _section(html, "kg-events")
    assert f'href="/article/{ps.ARTICLE_ID}"' in events and 'href="/article/bergen-shooting"' in events
    assert "2013-04-02" in events and "Harbor dispute" in events
    # newest article first, and an article's events in text order
    assert events.index("2014-06-01") < events.index("2013-04-02") < events.index("Moen called for a ceasefire.")
    assert events.index("Halvard Moen condemned the Iron Wolves on Monday.") < events.index(
        "The man called &lt;img")  # reported by Moen: he takes part as the reporter
    assert "11 disapprove" in events and "0.91" in events


def test_a_cluster_is_one_dossier_under_any_of_its_iris(c: Any) -> None:
    for iri in (vs.MOEN, SHORT):
        html = _page(c, iri)
        assert re.search(r'id="kg-label"><span class="kg-swatch"></span><bdi>Halvard Moen</bdi>', html)
        assert "H. Moen visited the Fisheries Ministry." in html and "Moen called for a ceasefire." in html
        assert SHORT in _section(html, "kg-same-as") or iri == SHORT
    assert "H. Moen" in _section(_page(c, vs.MOEN), "kg-aliases")


def test_roles_over_time_and_members(c: Any) -> None:
    html = _page(c, vs.KAMARA)
    roles = _section(html, "kg-roles")
    assert "spokesman" in roles and "since <bdi>2009</bdi>" in roles and 'href="/entity/organization/iron-wolves"' in roles
    wolves = _section(_page(c, vs.WOLVES), "kg-members")
    assert "Idris Kamara" in wolves and "spokesman" in wolves
    # a role an article states twice is one row, and one line of the network
    varga = _page(c, vs.iri("Person", "Lena Varga"))
    assert _section(varga, "kg-roles").count("<tr>") == 2  # the head and one role
    assert [e["label"] for e in _block(varga, "kg-ego-data")["edges"]] == ["treasurer"]


def test_who_reported_what(c: Any) -> None:
    reports = _section(_page(c, vs.EVIL), "kg-reports")
    assert "Halvard Moen" in reports and "1 report" in reports and "meet" in reports
    assert f'href="/article/{ps.ARTICLE_ID}"' in reports
    assert "nobody is reported" in _page(c, vs.WOLVES)


def test_the_ego_network_is_drawn_with_the_views_styles(c: Any) -> None:
    html = _page(c, vs.KAMARA)
    data = _block(html, "kg-ego-data")
    nodes = {n["id"]: n for n in data["nodes"]}
    # the negated attack and the hypothetical threat are not drawn; the asserted denial is
    assert data["center"] == vs.KAMARA and set(nodes) == {vs.KAMARA, vs.WOLVES, vs.HARBOR}
    assert sorted(e["label"] for e in data["edges"]) == ["deny", "spokesman", "spokesman"]  # a role read in two articles
    assert nodes[vs.WOLVES]["group"] == "Organization" and nodes[vs.WOLVES]["href"] == "/entity/organization/iron-wolves"
    assert data["options"]["groups"]["Person"]["color"]["background"] == TYPE_STYLES["Person"]["color"]
    role = next(e for e in data["edges"] if e["label"] == "spokesman")
    assert role["color"]["color"] == ROLE_COLOR and role["dashes"] is True
    moen = _block(_page(c, vs.MOEN), "kg-ego-data")
    colours = {(e["label"], e["color"]["color"]) for e in moen["edges"]}
    assert ("condemn", QUAD_COLORS["verbal conflict"]) in colours and ("visit", EVENT_COLOR) in colours
    assert "/static/vis-network.min.js" in html and "/static/ego.js" in html


def test_json_ld_is_schema_org_and_parses_offline(c: Any) -> None:
    html = _page(c, vs.KAMARA)
    doc = _block(html, "kg-jsonld")
    assert doc["@context"]["@vocab"] == "https://schema.org/"  # inline: nothing to fetch
    g = Graph().parse(data=json.dumps(doc), format="json-ld")
    me = URIRef(vs.KAMARA)
    assert (me, RDF.type, SCHEMA.Person) in g and (me, SCHEMA.name, Literal("Idris Kamara")) in g
    assert (me, SCHEMA.alternateName, Literal("Kamara")) in g
    role = g.value(me, SCHEMA.memberOf)
    assert g.value(role, SCHEMA.roleName) == Literal("spokesman") and g.value(role, SCHEMA.startDate) == Literal("2009")
    assert (role, SCHEMA.memberOf, URIRef(vs.WOLVES)) in g
    headlines = {str(g.value(a, SCHEMA.headline)) for a in g.objects(me, SCHEMA.subjectOf)}
    assert ps.TITLE in headlines
    evil = _page(c, vs.EVIL)
    block = re.search(r'id="kg-jsonld">(.*?)</script>', evil, re.S).group(1)  # type: ignore[union-attr]
    assert "<" not in block and ">" not in block  # escaped inside JSON strings: the block cannot end early
    assert Graph().parse(data=block, format="json-ld").value(URIRef(vs.EVIL), SCHEMA.name) == Literal(vs.IMG)


def test_hostile_names_stay_text(c: Any) -> None:
    sven = vs.iri("Person", ps.EVIL_NAME)
    html = _page(c, sven)
    assert "<b onmouseover" not in html and vs.IMG not in html and vs.SCRIPT not in html
    assert "&lt;b onmouseover=" in html
    # every bidi override of the name is inside a <bdi> (or the <title>): it ends where the name does
    isolated = sum(m.group(0).count("\u202e") for m in re.finditer(r"<(?:bdi|title)>[^<]*", html))
    assert html.count("\u202e") == isolated > 0
    evil = _page(c, vs.EVIL)
    assert "&lt;img src=x onerror=" in evil and "<img" not in evil
