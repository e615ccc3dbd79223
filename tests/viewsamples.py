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

from kg.facts import Article, ArticleFacts, Entity, Event, Evidence, Role  # noqa: E402
from kg.iris import Minter  # noqa: E402
from kg.article_job import to_graph  # noqa: E402
from kg.store_writer import write_article  # noqa: E402
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

KILL_SENTENCE = "A gunman killed two US military advisers at the ministry in Kabul."
HOSTILE_SENTENCE = f"The man called {IMG} met the {SCRIPT} group & left."
CALM_SENTENCE = "Karzai called for calm."


def _ev(text: str, start: int) -> Evidence:
    return Evidence(text=text, start=start, end=start + len(text))


def _facts_kabul() -> ArticleFacts:
    art = Article(
        id="kabul-shooting",
        text="...",
        title=f"Gunman kills two advisers {SCRIPT}",
        date="2012-02-25",
        path=f"seeds/{IMG}.txt",
        content_hash="h1",
    )
    ents = [
        Entity("gunman", "a gunman", "Group"),
        Entity("advisers", "two US military advisers", "Group"),
        Entity("karzai", "Hamid Karzai", "Person", {"Karzai"}),
        Entity("little", "George Little", "Person"),
        Entity("pentagon", "Pentagon", "Organization"),
        Entity("kabul", "Kabul", "Place"),
        Entity("taliban", "Taliban", "Organization"),
        Entity("mujahid", "Zabiullah Mujahid", "Person"),
        Entity("wardak", "Abdul Rahim Wardák", "Person"),
        Entity("ministry", "Defense Ministry", "Organization"),
        Entity("evil", IMG, "Person"),
        Entity("evilorg", SCRIPT, "Organization"),
    ]
    events = [
        Event("gunman", "kill", _ev(KILL_SENTENCE, 0), target="advisers"),
        Event("karzai", "call", _ev(CALM_SENTENCE, 70)),  # no target
        Event("taliban", "attack", _ev("The Taliban did not attack Kabul.", 100), target="kabul", negated=True),
        Event("mujahid", "threaten", _ev("Mujahid might threaten the Pentagon.", 140), target="pentagon",
              modality="hypothetical"),
        Event("evil", "meet", _ev(HOSTILE_SENTENCE, 200), target="evilorg", modality="reported"),
    ]
    roles = [
        Role("little", "press secretary", "pentagon", _ev("Pentagon press secretary George Little said.", 300)),
        Role("mujahid", "spokesman", "taliban", _ev("Taliban spokesman Zabiullah Mujahid said.", 350)),
        Role("wardak", "defense minister", "ministry", _ev("Defense Minister Abdul Rahim Wardák.", 400)),
        Role("evil", f"chief {SCRIPT}", "evilorg", _ev(f"{IMG} is chief of {SCRIPT}.", 450)),
    ]
    return ArticleFacts(art, {e.key: e for e in ents}, events, roles)


def _facts_condemn() -> ArticleFacts:
    art = Article(
        id="karzai-condemns",
        text="...",
        title=HREF_TITLE,
        url=JS_URL,
        content_hash="h2",
    )
    ents = [
        Entity("karzai", "Hamid Karzai", "Person"),
        Entity("taliban", "Taliban", "Organization"),
        Entity("wardak", "Abdul Rahim Wardak", "Person"),
        Entity("ministry", "Defense Ministry", "Organization"),
    ]
    events = [
        Event("karzai", "condemn", _ev("Karzai condemned the Taliban.", 0), target="taliban", modality="reported"),
        Event("wardak", "visit", _ev("Wardak visited the ministry.", 40), target="ministry"),
        Event("karzai", "planned_trip", _ev("Karzai plans to visit Wardak.", 80), target="wardak",
              modality="planned"),
    ]
    return ArticleFacts(art, {e.key: e for e in ents}, events, [])


def sample_facts() -> list[ArticleFacts]:
    """The two sample articles' facts."""
    return [_facts_kabul(), _facts_condemn()]


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
GUNMAN = iri("Group", "a gunman", "kabul-shooting")
ADVISERS = iri("Group", "two US military advisers", "kabul-shooting")
KARZAI = iri("Person", "Hamid Karzai")
LITTLE = iri("Person", "George Little")
PENTAGON = iri("Organization", "Pentagon")
TALIBAN = iri("Organization", "Taliban")
MUJAHID = iri("Person", "Zabiullah Mujahid")
WARDAK = iri("Person", "Abdul Rahim Wardak")
MINISTRY = iri("Organization", "Defense Ministry")
EVIL = iri("Person", IMG)
EVILORG = iri("Organization", SCRIPT)
KABUL = iri("Place", "Kabul")

EXPECTED_NODES = {
    GUNMAN: ("a gunman", "Group", 1),
    ADVISERS: ("two US military advisers", "Group", 1),
    KARZAI: ("Hamid Karzai", "Person", 1),  # condemn (call has no target, planned trip not drawn)
    LITTLE: ("George Little", "Person", 1),
    PENTAGON: ("Pentagon", "Organization", 1),  # the hypothetical threat is not drawn
    TALIBAN: ("Taliban", "Organization", 2),  # spokesman + condemned; negated attack not drawn
    MUJAHID: ("Zabiullah Mujahid", "Person", 1),
    WARDAK: ("Abdul Rahim Wardak", "Person", 2),  # label: same length, "a" sorts before "á"
    MINISTRY: ("Defense Ministry", "Organization", 2),
    EVIL: (IMG, "Person", 2),
    EVILORG: (SCRIPT, "Organization", 2),
}
# Kabul only takes part in the negated attack: not a node.


def synthetic_network(n_nodes: int, links_per_node: int = 2, seed: int = 0, classes: bool = True):  # -> Network
    """A generated ``Network`` of ``n_nodes`` entities and about ``links_per_node * n_nodes`` facts.

    Preferential attachment (each new entity links to ``links_per_node`` earlier ones,
    chosen in proportion to their degree), so a few hubs stand out as in news graphs.
    Every fact has a sentence, an article (one per 40 entities, dated a day apart) and,
    with ``classes``, a CAMEO-like class. Deterministic for a given seed. Built directly,
    not through a store: for the scale tests and benchmarks/view_bench.py.
    """
    import random

    from kg.network import Edge, Network, Node, quad_class

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
    from kg.network import load_network
    from kg.vocab import KG_NS

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
