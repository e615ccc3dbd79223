"""What resolution reads from the article graphs (never from the resolution graph itself): entities with
their names and articles, texts, fact partners, memberships, role labels, event classes.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..model.facts import ENTITY_TYPES
from ..model.names import completeness, words
from ..model.vocab import KG_NS, sparql_prefixes
from ..store import Store, select_all
from .acronyms import LABEL_WITH_ACRONYM

ENTITY_TYPE_OF = {f"{KG_NS}{t}": t for t in ENTITY_TYPES}


_P = sparql_prefixes("kg", "rdfs", "skos", "schema", "org", "owl", "prov")


# Only article graphs are read (each holds one kg:Article), never the resolution graph itself:
# ``Q_IDS`` names them, and the other reads give the graph of each row where that is cheaper than
# a join with the article in SPARQL (5,000 articles: the aliases 2.2 s as a join, 0.7 s so).
# An entity's type and names are its article's kg:Naming of it (mapping); a graph written by an
# older kg (before kg:layoutVersion 2) describes the entity itself, which ``Q_OLD_ENTITIES`` and
# ``Q_OLD_ALTS`` read, only when the store holds such a graph (each costs 0.5 s at 5,000 articles,
# for no row).
Q_IDS = _P + """SELECT ?g ?a ?id ?v WHERE { GRAPH ?g { ?a a kg:Article
  OPTIONAL { ?a schema:identifier ?id } OPTIONAL { ?a kg:layoutVersion ?v } } }"""


Q_ENTITIES = _P + """SELECT ?g ?e ?type ?label WHERE { GRAPH ?g {
  ?n kg:entity ?e ; kg:entityType ?type ; kg:name ?label
  FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) } }"""


Q_ALTS = _P + """SELECT DISTINCT ?g ?e ?alt WHERE { GRAPH ?g { ?n kg:alias ?alt ; kg:entity ?e ; a kg:Naming } }"""


Q_OLD_ENTITIES = _P + """SELECT ?a ?e ?type ?label WHERE { GRAPH ?g {
  ?a a kg:Article ; kg:mentions ?e . ?e a ?type ; rdfs:label ?label
  FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) } }"""


Q_OLD_ALTS = _P + """SELECT DISTINCT ?g ?e ?alt WHERE { GRAPH ?g { ?a a kg:Article ; kg:mentions ?e .
  ?e skos:altLabel ?alt } }"""


#: The first kg:layoutVersion whose article graphs name entities through kg:Naming nodes.
_NAMING_LAYOUT = 2


Q_TEXTS = _P + """SELECT ?a ?text WHERE { GRAPH ?g { ?a a kg:Article ; schema:text ?text } }"""


Q_PARTNERS = _P + """SELECT DISTINCT ?x ?y WHERE { GRAPH ?g { ?a a kg:Article .
  { ?f kg:actor ?x ; kg:target ?y } UNION { ?f kg:actor ?x ; kg:reportedBy ?y }
  UNION { ?f kg:target ?x ; kg:reportedBy ?y } UNION { ?f org:member ?x ; org:organization ?y } } }"""


Q_ROLES = _P + """SELECT DISTINCT ?p ?o ?r WHERE { GRAPH ?g { ?a a kg:Article .
  ?m org:member ?p ; org:organization ?o ; org:role ?r } }"""


Q_ROLE_LABELS = _P + """SELECT DISTINCT ?r ?label WHERE { GRAPH ?g { ?a a kg:Article .
  ?m org:role ?r ; kg:roleLabel ?label } }"""


Q_CLASSES = _P + """SELECT DISTINCT ?c WHERE { GRAPH ?g { ?a a kg:Article . ?f kg:eventClass ?c } }"""


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
    """Everything resolution reads from the article graphs."""

    entities: dict[str, StoredEntity] = field(default_factory=dict)
    article_ids: dict[str, str] = field(default_factory=dict)  # article IRI -> id
    texts: dict[str, str] = field(default_factory=dict)  # article IRI -> text
    mentions: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # article -> entities
    partners: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    orgs: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # person -> organizations
    roles: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # person -> role IRIs
    role_labels: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # role IRI -> labels
    classes: set[str] = field(default_factory=set)  # event class IRIs used


def load_data(store: Store) -> StoreData:
    """Read the article graphs: entities with their names and articles, texts, fact partners, roles."""
    data = StoreData()
    q_ids = store.select(Q_IDS)
    ids = {r["a"] or "": r["id"] for r in q_ids}
    article_of = {r["g"] or "": r["a"] or "" for r in q_ids}
    legacy = any(not (r["v"] or "").isdigit() or int(r["v"] or "") < _NAMING_LAYOUT for r in q_ids)
    reads = [Q_ENTITIES, Q_ALTS, Q_TEXTS, Q_PARTNERS, Q_ROLES, Q_ROLE_LABELS, Q_CLASSES]
    (q_entities, q_alts, q_texts, q_partners, q_roles, q_role_labels, q_classes, *old) = select_all(
        store, reads + ([Q_OLD_ENTITIES, Q_OLD_ALTS] if legacy else []))
    q_old, q_old_alts = old or ([], [])
    for r in q_entities:
        r["a"] = article_of.get(r["g"] or "")
    for r in q_entities + q_old:
        iri, etype, art = r["e"] or "", ENTITY_TYPE_OF.get(r["type"] or ""), r["a"] or ""
        if not iri or etype is None or art not in ids:
            continue  # only what an article graph says
        ent = data.entities.get(iri)
        if ent is None:
            ent = data.entities[iri] = StoredEntity(iri, etype, etype)
        elif ENTITY_TYPES.index(etype) < ENTITY_TYPES.index(ent.stored_type):
            ent.type = ent.stored_type = etype
        ent.labels.add(r["label"] or "")
        ent.articles.add(art)
        data.mentions[art].add(iri)
        data.article_ids[art] = ids[art] or art.rsplit("/", 1)[-1]
    for r in q_alts + q_old_alts:
        if (r["g"] or "") not in article_of:
            continue
        ent = data.entities.get(r["e"] or "")
        if ent is not None and r["alt"]:
            ent.alts.add(r["alt"])
    for ent in data.entities.values():
        ent.labels.discard("")
        ent.alts -= ent.labels
    for r in q_texts:
        data.texts[r["a"] or ""] = r["text"] or ""
        data.article_ids.setdefault(r["a"] or "", (r["a"] or "").rsplit("/", 1)[-1])
    named = {i for i, e in data.entities.items() if e.type != "Group"}
    for r in q_partners:
        x, y = r["x"] or "", r["y"] or ""
        if x in named and y in named and x != y:
            data.partners[x].add(y)
            data.partners[y].add(x)
    for r in q_roles:
        if r["p"] and r["o"]:
            data.orgs[r["p"]].add(r["o"])
        if r["p"] and r["r"]:
            data.roles[r["p"]].add(r["r"])
    for r in q_role_labels:
        if r["r"] and r["label"]:
            data.role_labels[r["r"]].add(r["label"])
    data.classes = {r["c"] for r in q_classes if r["c"]}
    return data
