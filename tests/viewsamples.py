"""Sample stores for the network and view tests, with hostile text in every text field.

The facts go through the real mapping and store write (``to_graph`` -> ``write_article``) into a
``MemoryStore``, so the tests see exactly the RDF a build writes. Imported as a plain
module (``import viewsamples``, as ``factsamples``); importing it also makes the ``kg``
package importable when the project is not installed into the virtualenv.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the package is not necessarily installed
    sys.path.insert(0, str(ROOT))

from kg.build.jobs import to_graph  # noqa: E402
from kg.build.writer import write_article  # noqa: E402
from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence, Role  # noqa: E402
from kg.model.iris import Minter  # noqa: E402
from kg.store import MemoryStore  # noqa: E402

BASE = "https://kg.example.org/"
MINTER = Minter(BASE)

#: Payloads that would run if any of them were ever parsed as markup. Besides the
#: ``window.__pwned`` flag they also set an attribute on <html>, so a DOM dump shows it.
SCRIPT = "<script>window.__pwned=1;document.documentElement.setAttribute('data-pwned','script')</script>"
IMG = "<img src=x onerror=\"window.__pwned=1;document.documentElement.setAttribute('data-pwned','img')\">"
HREF_TITLE = 'Read <a href="javascript:window.__pwned=1">href</a> javascript:window.__pwned=1 & more'
JS_URL = "javascript:window.__pwned=1"
HOSTILE = (SCRIPT, IMG, HREF_TITLE)

KILL_SENTENCE = "A gunman killed two Norwegian border guards at the port in Bergen."
HOSTILE_SENTENCE = f"The man called {IMG} met the {SCRIPT} group & left."
CALL_SENTENCE = "Moen called for a ceasefire."


def _ev(text: str, start: int) -> Evidence:
    return Evidence(text=text, start=start, end=start + len(text))


def _facts_bergen() -> ArticleFacts:
    art = Article(
        id="bergen-shooting",
        text="...",
        title=f"Gunman kills two guards {SCRIPT}",
        date="2012-02-25",
        path=f"seeds/{IMG}.txt",
        content_hash="h1",
    )
    ents = [
        Entity("gunman", "a gunman", "Group"),
        Entity("guards", "two Norwegian border guards", "Group"),
        Entity("moen", "Halvard Moen", "Person", {"Moen"}),
        Entity("ferrante", "Nadia Ferrante", "Person"),
        Entity("harbor", "Harbor Board", "Organization"),
        Entity("bergen", "Bergen", "Place"),
        Entity("wolves", "Iron Wolves", "Organization"),
        Entity("kamara", "Idris Kamara", "Person"),
        Entity("ibarra", "Tomas Ibárra", "Person"),
        Entity("ministry", "Fisheries Ministry", "Organization"),
        Entity("evil", IMG, "Person"),
        Entity("evilorg", SCRIPT, "Organization"),
    ]
    events = [
        Event("gunman", "kill", _ev(KILL_SENTENCE, 0), target="guards"),
        Event("moen", "call", _ev(CALL_SENTENCE, 70)),  # no target
        Event("wolves", "attack", _ev("The Iron Wolves did not attack Bergen.", 100), target="bergen", negated=True),
        Event("kamara", "threaten", _ev("Kamara might threaten the Harbor Board.", 140), target="harbor",
              modality="hypothetical"),
        Event("evil", "meet", _ev(HOSTILE_SENTENCE, 200), target="evilorg", modality="reported"),
    ]
    roles = [
        Role("ferrante", "press secretary", "harbor", _ev("Harbor Board press secretary Nadia Ferrante said.", 300)),
        Role("kamara", "spokesman", "wolves", _ev("Iron Wolves spokesman Idris Kamara said.", 350)),
        Role("ibarra", "fisheries minister", "ministry", _ev("Fisheries Minister Tomas Ibárra.", 400)),
        Role("evil", f"chief {SCRIPT}", "evilorg", _ev(f"{IMG} is chief of {SCRIPT}.", 450)),
    ]
    return ArticleFacts(art, {e.key: e for e in ents}, events, roles)


def _facts_condemn() -> ArticleFacts:
    art = Article(
        id="moen-condemns",
        text="...",
        title=HREF_TITLE,
        url=JS_URL,
        content_hash="h2",
    )
    ents = [
        Entity("moen", "Halvard Moen", "Person"),
        Entity("wolves", "Iron Wolves", "Organization"),
        Entity("ibarra", "Tomas Ibarra", "Person"),
        Entity("ministry", "Fisheries Ministry", "Organization"),
    ]
    events = [
        Event("moen", "condemn", _ev("Moen condemned the Iron Wolves.", 0), target="wolves", modality="reported"),
        Event("ibarra", "visit", _ev("Ibarra visited the ministry.", 40), target="ministry"),
        Event("moen", "planned_trip", _ev("Moen plans to visit Ibarra.", 80), target="ibarra",
              modality="planned"),
    ]
    return ArticleFacts(art, {e.key: e for e in ents}, events, [])


def sample_facts() -> list[ArticleFacts]:
    """The two sample articles' facts."""
    return [_facts_bergen(), _facts_condemn()]


def build_store(facts: list[ArticleFacts] | None = None) -> MemoryStore:
    """A fresh in-memory store holding the given (default: the sample) articles."""
    store = MemoryStore()
    for f in sample_facts() if facts is None else facts:
        write_article(store, to_graph(f, MINTER))
    return store


def iri(etype: str, label: str, article_id: str | None = None) -> str:
    """The IRI of an entity of the samples."""
    return MINTER.entity(etype, label, article_id)


# What the projection of the sample must give (IRI -> (label, type, degree)).
GUNMAN = iri("Group", "a gunman", "bergen-shooting")
GUARDS = iri("Group", "two Norwegian border guards", "bergen-shooting")
MOEN = iri("Person", "Halvard Moen")
FERRANTE = iri("Person", "Nadia Ferrante")
HARBOR = iri("Organization", "Harbor Board")
WOLVES = iri("Organization", "Iron Wolves")
KAMARA = iri("Person", "Idris Kamara")
IBARRA = iri("Person", "Tomas Ibarra")
MINISTRY = iri("Organization", "Fisheries Ministry")
EVIL = iri("Person", IMG)
EVILORG = iri("Organization", SCRIPT)
BERGEN = iri("Place", "Bergen")

EXPECTED_NODES = {
    GUNMAN: ("a gunman", "Group", 1),
    GUARDS: ("two Norwegian border guards", "Group", 1),
    MOEN: ("Halvard Moen", "Person", 1),  # condemn (call has no target, planned trip not drawn)
    FERRANTE: ("Nadia Ferrante", "Person", 1),
    HARBOR: ("Harbor Board", "Organization", 1),  # the hypothetical threat is not drawn
    WOLVES: ("Iron Wolves", "Organization", 2),  # spokesman + condemned; negated attack not drawn
    KAMARA: ("Idris Kamara", "Person", 1),
    IBARRA: ("Tomas Ibarra", "Person", 2),  # label: same length, "a" sorts before "á"
    MINISTRY: ("Fisheries Ministry", "Organization", 2),
    EVIL: (IMG, "Person", 2),
    EVILORG: (SCRIPT, "Organization", 2),
}
# Bergen only takes part in the negated attack: not a node.


def synthetic_network(n_nodes: int, links_per_node: int = 2, seed: int = 0, classes: bool = True):  # -> Network
    """A generated ``Network`` of ``n_nodes`` entities and about ``links_per_node * n_nodes`` facts.

    Preferential attachment (each new entity links to ``links_per_node`` earlier ones,
    chosen in proportion to their degree), so a few hubs stand out as in news graphs.
    Every fact has a sentence, an article (one per 40 entities, dated a day apart) and,
    with ``classes``, a CAMEO-like class. Deterministic for a given seed. Built directly,
    not through a store: for the scale tests and benchmarks/view_bench.py.
    """
    import random

    from kg.model.cameo import quad_class
    from kg.outputs.network import Edge, Network, Node

    rng = random.Random(seed)
    types = ("Person", "Organization", "Place", "Group")
    ids = [f"{BASE}entity/synthetic/{i:06d}" for i in range(n_nodes)]
    ends: list[int] = []  # every edge end, so a uniform pick is degree-proportional
    edges: list[Edge] = []
    degree = [0] * n_nodes
    for i in range(1, n_nodes):
        targets = {rng.choice(ends) if ends and rng.random() < 0.9 else rng.randrange(i) for _ in range(links_per_node)}
        for j in sorted(targets):
            k = len(edges)
            art = i // 40
            code = f"{1 + k % 20:02d}"
            role = k % 9 == 0
            edges.append(Edge(
                id=f"{BASE}event/synthetic/{k:07d}",
                source=ids[i], target=ids[j],
                label="member" if role else ("meet", "attack", "call", "visit", "accuse")[k % 5],
                kind="role" if role else "event",
                sentence=f"Entity {i} and entity {j} were in the news together, sentence number {k} says so.",
                article=f"{BASE}article/synthetic-{art:05d}",
                title=f"Synthetic article {art}",
                article_source=f"synthetic/{art:05d}.txt",
                date=f"2020-{1 + art // 28 % 12:02d}-{1 + art % 28:02d}",
                event_class=f"{BASE}cameo/{code}" if classes and not role else "",
                event_class_label=f"class {code}" if classes and not role else "",
                event_class_code=code if classes and not role else "",
                quad_class=quad_class(code) if classes and not role else "",
            ))
            ends.extend((i, j))
            degree[i] += 1
            degree[j] += 1
    nodes = [Node(id=ids[i], label=f"Entity {i}", type=types[i % 4], degree=degree[i]) for i in range(n_nodes)]
    edges.sort(key=lambda e: e.id)
    return Network(nodes=nodes, edges=edges, untargeted=[])


CAMEO = f"{BASE}cameo/"
#: Classes the tests give to two sample events (the mapping writes none yet):
#: kill -> 18 "assault", with its quad class as a skos:broader concept; condemn -> 11
#: "disapprove" (with a payload in its label), with only a skos:notation, so its quad
#: class comes from the code.
HOSTILE_CLASS = f"disapprove {IMG}"
SAMPLE_CLASSES = {"kill": ("18", "assault", "material conflict"), "condemn": ("11", HOSTILE_CLASS, None)}


def classify(store, classes: dict[str, tuple[str, str, str | None]] | None = None) -> None:  # store: MemoryStore
    """Give the sample events of these actions a ``kg:eventClass`` (in a graph of their own)."""
    from kg.model.vocab import KG_NS
    from kg.outputs.network import load_network

    classes = SAMPLE_CLASSES if classes is None else classes
    skos = "http://www.w3.org/2004/02/skos/core#"
    lines = []
    for e in load_network(store).edges:
        if e.label not in classes:
            continue
        code, label, quad = classes[e.label]
        concept = f"{CAMEO}{code}"
        lines.append(f'<{e.id}> <{KG_NS}eventClass> <{concept}> .')
        literal = label.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'<{concept}> <{skos}prefLabel> "{literal}"@en .')
        lines.append(f'<{concept}> <{skos}notation> "{code}" .')
        if quad:
            q = f"{CAMEO}quad/{quad.replace(' ', '-')}"
            lines.append(f'<{concept}> <{skos}broader> <{q}> .')
            lines.append(f'<{q}> <{skos}prefLabel> "{quad.title()}"@en .')
    store.replace_graph(f"{BASE}graph/test-classes", "\n".join(lines))
