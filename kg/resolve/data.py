"""What resolution reads from the article graphs (never from the resolution graph itself): per article,
its namings of entities, fact partners, memberships, role labels, event classes and text
(``ArticleData``); summed up over the store, entities with their names and articles (``StoreData``).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model.facts import ENTITY_TYPES
from ..model.names import completeness, words
from ..model.vocab import KG_NS, sparql_prefixes
from ..store import Row, Store, select_all
from .acronyms import LABEL_WITH_ACRONYM

ENTITY_TYPE_OF = {f"{KG_NS}{t}": t for t in ENTITY_TYPES}


_P = sparql_prefixes("kg", "rdfs", "skos", "schema", "org", "owl", "prov")


# Only article graphs are read (each holds one kg:Article), never the resolution graph itself:
# ``Q_IDS`` names them, and the other reads give the graph of each row where that is cheaper than
# a join with the article in SPARQL. An entity's type and names are its article's kg:Naming of it
# (mapping); a graph written by an older kg (before kg:layoutVersion 2) describes the entity
# itself, which ``Q_OLD_ENTITIES`` and ``Q_OLD_ALTS`` read, only when the store holds such a graph.
# ``%(only)s`` is empty (every article graph) or a VALUES clause naming some graphs.
Q_IDS = _P + """SELECT ?g ?a ?id ?h ?v WHERE { %(only)s GRAPH ?g { ?a a kg:Article
  OPTIONAL { ?a schema:identifier ?id } OPTIONAL { ?a kg:contentHash ?h } OPTIONAL { ?a kg:layoutVersion ?v } } }"""


Q_ENTITIES = _P + """SELECT ?g ?e ?type ?label WHERE { %(only)s GRAPH ?g {
  ?n kg:entity ?e ; kg:entityType ?type ; kg:name ?label
  FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) } }"""


Q_ALTS = _P + """SELECT DISTINCT ?g ?e ?alt WHERE { %(only)s GRAPH ?g { ?n kg:alias ?alt ; kg:entity ?e ; a kg:Naming } }"""


Q_OLD_ENTITIES = _P + """SELECT ?g ?e ?type ?label WHERE { GRAPH ?g {
  ?a a kg:Article ; kg:mentions ?e . ?e a ?type ; rdfs:label ?label
  FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) } }"""


Q_OLD_ALTS = _P + """SELECT DISTINCT ?g ?e ?alt WHERE { GRAPH ?g { ?a a kg:Article ; kg:mentions ?e .
  ?e skos:altLabel ?alt } }"""


#: The first kg:layoutVersion whose article graphs name entities through kg:Naming nodes.
NAMING_LAYOUT = 2


Q_TEXTS = _P + """SELECT ?g ?text WHERE { %(only)s GRAPH ?g { ?a a kg:Article ; schema:text ?text } }"""


Q_PARTNERS = _P + """SELECT DISTINCT ?g ?x ?y WHERE { %(only)s GRAPH ?g {
  { ?f kg:actor ?x ; kg:target ?y } UNION { ?f kg:actor ?x ; kg:reportedBy ?y }
  UNION { ?f kg:target ?x ; kg:reportedBy ?y } UNION { ?f org:member ?x ; org:organization ?y } } }"""


Q_ROLES = _P + """SELECT DISTINCT ?g ?p ?o ?r ?label WHERE { %(only)s GRAPH ?g {
  ?m org:member ?p ; org:organization ?o ; org:role ?r OPTIONAL { ?m kg:roleLabel ?label } } }"""


Q_SIZES = _P + """SELECT ?g ?x ?k WHERE { %(only)s GRAPH ?g {
  { ?x a kg:Event BIND("events" AS ?k) } UNION { ?x a org:Membership BIND("roles" AS ?k) } } }"""


Q_CLASSES = _P + """SELECT DISTINCT ?g ?c WHERE { %(only)s GRAPH ?g { ?f kg:eventClass ?c } }"""


@dataclass
class Change:
    """What a resolution read and recomputed: article graphs read and dropped, texts read for
    counting, and the entities (``reached``) and clusters (``clusters``) it recomputed; ``full``:
    everything, as a first resolution does."""

    read: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    counted: list[str] = field(default_factory=list)
    reached: int = 0
    clusters: int = 0
    full: bool = False


@dataclass
class ArticleData:
    """What one article graph says that resolution reads."""

    iri: str
    graph: str
    id: str
    hash: str = ""
    layout: str = ""
    #: (entity, kg type, name, other names): the article's kg:Naming of each entity
    namings: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)
    partners: set[tuple[str, str]] = field(default_factory=set)  # (x, y), x < y: two entities of one fact
    members: set[tuple[str, str, str]] = field(default_factory=set)  # (person, organization, role IRI)
    role_labels: set[tuple[str, str]] = field(default_factory=set)  # (role IRI, label)
    classes: set[str] = field(default_factory=set)  # event class IRIs
    text: str = ""
    events: int = 0  # kg:Event nodes of the graph (what ``kg stats`` counts)
    roles: int = 0  # org:Membership nodes

    @property
    def legacy(self) -> bool:
        """Written before kg:Naming nodes (its entities described in the article graph itself)."""
        return not self.layout.isdigit() or int(self.layout) < NAMING_LAYOUT


@dataclass
class StoredEntity:
    """One entity IRI as the article graphs describe it."""

    iri: str
    type: str  # the effective type (after a retype)
    stored_type: str  # what the article graphs say
    labels: set[str] = field(default_factory=set)
    alts: set[str] = field(default_factory=set)
    articles: set[str] = field(default_factory=set)
    minted: bool = False  # minted by a retype: in no article graph

    def names(self) -> set[str]:
        return self.labels | self.alts

    def best_label(self) -> str:
        return sorted(self.labels or self.alts or {self.iri}, key=completeness)[0]

    def full_names(self) -> set[str]:
        """The labels and every alias that is not a short form (a proper subset of a label's words)."""
        label_words = [set(words(lab)) for lab in self.labels]
        out = set(self.labels)
        for alt in self.alts:
            w = set(words(alt))
            if not any(w < lw for lw in label_words):
                out.add(alt)
        for name in list(out):  # "Valdorian News Agency (VNA)": both parts are names
            m = LABEL_WITH_ACRONYM.match(name)
            if m:
                out |= {m.group(1), m.group(2)}
        return out


@dataclass
class StoreData:
    """Everything resolution reads from the article graphs (of the whole store, or of the part of
    it a resolution recomputes: see ``kg.resolve.increment``)."""

    entities: dict[str, StoredEntity] = field(default_factory=dict)
    article_ids: dict[str, str] = field(default_factory=dict)  # article IRI -> id
    texts: dict[str, str] = field(default_factory=dict)  # article IRI -> text
    mentions: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # article -> entities
    partners: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    orgs: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # person -> organizations
    roles: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # person -> role IRIs
    role_labels: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # role IRI -> labels
    classes: set[str] = field(default_factory=set)  # event class IRIs used


def only_graphs(graphs: Iterable[str] | None) -> str:
    """A VALUES clause that binds ``?g`` to the given graphs (nothing: every graph)."""
    if graphs is None:
        return ""
    return "VALUES ?g { " + " ".join(f"<{g}>" for g in graphs) + " }"


#: Up to this many graphs are read each by a query of its own, the graph's IRI in the query: Oxigraph
#: evaluates an OPTIONAL inside ``GRAPH ?g`` over every graph before it joins the ``VALUES`` (0.12 s
#: a read on 2,000 articles, against 1 ms for one graph named in the query).
ONE_BY_ONE = 32


def for_graph(query: str, graph: str) -> str:
    """One of the reads above for one graph, its IRI in the query instead of ``?g``."""
    g = f"<{graph}>"
    return (query.replace("SELECT DISTINCT ?g ", f"SELECT DISTINCT ({g} AS ?g) ")
            .replace("SELECT ?g ", f"SELECT ({g} AS ?g) ").replace("GRAPH ?g {", f"GRAPH {g} {{") % {"only": ""})


def _reads(store: Store, queries: list[str], graphs: list[str] | None) -> list[list[Row]]:
    """The rows of each read over the chosen graphs (``None``: all), on threads (``select_all``)."""
    if graphs is None or len(graphs) > ONE_BY_ONE:
        only = {"only": only_graphs(graphs)}
        return select_all(store, [q % only for q in queries])
    found = select_all(store, [for_graph(q, g) for q in queries for g in graphs])
    return [[r for rows in found[k * len(graphs):(k + 1) * len(graphs)] for r in rows] for k in range(len(queries))]


def read_articles(store: Store, graphs: Iterable[str] | None = None, texts: bool = True) -> list[ArticleData]:
    """The article graphs of the store (or those named by ``graphs``), sorted by article IRI;
    ``texts``: with their texts (the largest part of what is read)."""
    chosen = None if graphs is None else sorted(set(graphs))
    if chosen == []:
        return []
    (q_ids,) = _reads(store, [Q_IDS], chosen)
    arts: dict[str, ArticleData] = {}
    for r in q_ids:
        a = r["a"] or ""
        arts[r["g"] or ""] = ArticleData(a, r["g"] or "", r["id"] or a.rsplit("/", 1)[-1], r["h"] or "", r["v"] or "")
    legacy = any(art.legacy for art in arts.values())
    reads = [Q_ENTITIES, Q_ALTS, Q_PARTNERS, Q_ROLES, Q_CLASSES]
    if texts:
        reads.append(Q_TEXTS)
    found = _reads(store, reads, chosen)
    if chosen is not None:  # sizes of a few graphs only: the full resolution does not keep them
        sizes: dict[tuple[str, str], set[str]] = defaultdict(set)
        for r in _reads(store, [Q_SIZES], chosen)[0]:
            sizes[(r["g"] or "", r["k"] or "")].add(r["x"] or "")
        for g, one in arts.items():
            one.events, one.roles = len(sizes[(g, "events")]), len(sizes[(g, "roles")])
    if legacy:
        found += select_all(store, [Q_OLD_ENTITIES, Q_OLD_ALTS])
    q_entities, q_alts, q_partners, q_roles, q_classes = found[:5]
    q_texts = found[5] if texts else []
    q_old, q_old_alts = found[-2:] if legacy else ([], [])
    alts: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in q_alts + q_old_alts:
        if r["alt"]:
            alts[(r["g"] or "", r["e"] or "")].add(r["alt"])
    named: dict[str, dict[str, str]] = defaultdict(dict)  # graph -> entity -> type
    for r in q_entities + q_old:
        g, e, etype = r["g"] or "", r["e"] or "", ENTITY_TYPE_OF.get(r["type"] or "")
        art = arts.get(g)
        if art is None or not e or etype is None:
            continue  # only what an article graph says
        art.namings.append((e, etype, r["label"] or "", tuple(sorted(alts.get((g, e), ())))))
        named[g][e] = etype
    for r in q_partners:
        g, x, y = r["g"] or "", r["x"] or "", r["y"] or ""
        types = named.get(g, {})
        if g in arts and x != y and types.get(x, "Group") != "Group" and types.get(y, "Group") != "Group":
            arts[g].partners.add((min(x, y), max(x, y)))
    for r in q_roles:
        if (g := r["g"] or "") in arts:
            if r["p"] and r["o"] and r["r"]:
                arts[g].members.add((r["p"], r["o"], r["r"]))
            if r["r"] and r["label"]:
                arts[g].role_labels.add((r["r"], r["label"]))
    for r in q_classes:
        if (g := r["g"] or "") in arts and r["c"]:
            arts[g].classes.add(r["c"])
    for r in q_texts:
        if (g := r["g"] or "") in arts:
            arts[g].text = r["text"] or ""
    for art in arts.values():
        art.namings.sort()
    return sorted(arts.values(), key=lambda art: art.iri)


def add_namings(data: StoreData, art: str, namings: Iterable[tuple[str, str, str, Iterable[str]]]) -> None:
    """Add an article's namings of entities to ``data.entities`` and ``data.mentions`` (the type of
    an IRI named with several is the first of ``ENTITY_TYPES``)."""
    for iri, etype, label, aliases in namings:
        ent = data.entities.get(iri)
        if ent is None:
            ent = data.entities[iri] = StoredEntity(iri, etype, etype)
        elif ENTITY_TYPES.index(etype) < ENTITY_TYPES.index(ent.stored_type):
            ent.type = ent.stored_type = etype
        ent.labels.add(label)
        ent.alts.update(aliases)
        ent.articles.add(art)
        data.mentions[art].add(iri)


def settle(ent: StoredEntity) -> StoredEntity:
    """An entity once all its namings are added: no empty label, no alias that is also a label."""
    ent.labels.discard("")
    ent.alts -= ent.labels
    return ent


def gather(articles: Iterable[ArticleData]) -> StoreData:
    """The store's data summed up from its articles."""
    data = StoreData()
    for art in articles:
        data.article_ids[art.iri] = art.id
        add_namings(data, art.iri, art.namings)
        if art.text:
            data.texts[art.iri] = art.text
        for x, y in art.partners:
            data.partners[x].add(y)
            data.partners[y].add(x)
        for p, o, r in art.members:
            data.orgs[p].add(o)
            data.roles[p].add(r)
        for r, label in art.role_labels:
            data.role_labels[r].add(label)
        data.classes |= art.classes
    for ent in data.entities.values():
        settle(ent)
    return data


def load_data(store: Store) -> StoreData:
    """Read the article graphs: entities with their names and articles, texts, fact partners, roles."""
    return gather(read_articles(store))
