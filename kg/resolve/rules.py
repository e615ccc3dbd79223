"""Entity resolution across articles: one real-world entity, one cluster.

Article graphs never change for this: an entity's IRI depends only on its own article
(``kg.model.iris``), so building article B after A leaves A's IRIs as they were, and a rebuild is
idempotent. After every build (and every curation command) this module reads the article
graphs, clusters their entities and replaces one separate named graph, ``{base}resolution``,
with what the articles share: the description of every entity, role and event class they point
to (gathered from all their ``kg:Naming`` nodes and memberships, stated once; see ``kg.rdf.mapping``),
and the decisions::

    <member>    owl:sameAs     <canonical> .          # every other IRI of the cluster
    <canonical> a kg:Person, schema:Person, foaf:Person ;
                skos:prefLabel "Halvard Moen" ;         # the cluster's label: its most complete name
                skos:altLabel  "Moen", "President Moen" ;       # every other name seen
                owl:sameAs     <http://www.wikidata.org/entity/Q...> ;  # the linking table, if any
                kg:mentionedIn <{base}mention/{article}/{hash}> .
    <{base}mention/{article}/{hash}> prov:wasDerivedFrom <article> ; kg:mentionCount 3 .

Every entity (of any type, Groups too) belongs to exactly one cluster, and every cluster has
one ``skos:prefLabel`` in this graph: a node with a ``kg:mentionedIn`` is a canonical entity.

**The canonical IRI** is the IRI, among the members whose own type is the cluster's, that
carries the most complete label (most words, then most characters, then most capitals),
ties by IRI order. So it depends only on the cluster's members; adding articles only adds
members (and can only move the canonical to a more complete name).

**The rules** (same type only: different types never merge; Groups never merge at all,
they are local to their article):

1. *Same name.* Two entities one of whose full names (label, or an alias that is not a short
   form of the label) are equal after normalization: case, accents, punctuation, a leading
   "the", a trailing "'s" and person titles ("Mr.", "President") ignored; for places and
   organizations the variants of ``nlp.lexicon.PLACE_ALIASES`` ("US", "U.S.", "America" =
   "United States"), for places also demonyms ("Kenyan" = "Kenya").
2. *Acronym and expansion.* "VNA" and "Valdorian News Agency" when some article pairs
   them: its text says "Valdorian News Agency (VNA)" (or "[VNA]", or "VNA (Valdorian ...)"),
   or one entity has both names. If the store pairs the acronym with only one expansion, the
   two merge wherever they occur, and the expansion becomes the cluster's label even when no
   entity carries it; if the store pairs it with several, only where an article pairs them.
3. *Country-qualified organizations.* "US Fisheries Board" and "Fisheries Board",
   "German Transport Ministry" and "Transport Ministry": the long name is a country (name, variant or
   demonym, or a place of the store) followed by the short name, every qualified form of the
   short name in the store names the same country, and the two appear in one article or the
   short one's article mentions that country. Two qualified forms of one country merge.
   *Common nouns* the extractor took for a name ("the congress", "their base": no capital
   letter) join the one entity of their article whose name ends with them ("Farmers' Union
   Congress"), as long as only that one article uses them: their IRI is global, and once two
   articles use one it may stand for two things.
4. *Linking table* (``kg.resolve.linking``): clusters linked to the same external IRI merge.
5. *Short person names.* "Moen" joins "Halvard Moen" across articles only if (a) the short
   name is unambiguous in the whole store: exactly one cluster has a longer person name holding
   all its words, and (b) there is evidence: they appear in one article, or they share an
   organization or a role (``org:Membership``), or they have a common partner in the facts (an
   entity both act on, are acted on by, or report or are reported by).

6. *Misspellings.* Two organizations or places one article names both ways, the names equal
   but for two neighbouring letters swapped in one word of five letters or more ("Wrold
   Bank" and "World Bank"), when one spelling is found in more articles than the other;
   the rarer one is taken for the slip and never becomes the cluster's label or canonical IRI.

**Curation** (``kg.resolve.curation``) comes first and wins: retypes change an entity's type (the
entity then joins the IRI that type and label would have, ``{base}entity/person/...``, minted
here if no article has it); never-merge pairs are never joined, by any rule or merge; split
entities are left out of every automatic rule; merges join clusters of one type; renames set
the label. Notes say when a decision names an entity the store does not hold.

**Mention counts**: how often the article's text names the entity (any of its names, whole
words, case-sensitive, the longest name first; places also by their variants and demonyms),
at least 1 for every article that ``kg:mentions`` it.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable

from .curation import Curation, dumps, load as load_curation, to_iri, to_ref
from ..model.facts import ENTITY_TYPES
from ..model.iris import Minter
from .linking import Link, linking_path, load_links
from ..nlp.lexicon import DEMONYMS, PLACE_ALIASES, RANKS
from ..store import Store, select_all
from ..model.vocab import KG_NS

if TYPE_CHECKING:
    from ..rdf.mapping import Triple

__all__ = ["Cluster", "Resolution", "StoreData", "compute", "load_data", "resolve_store", "resolution_graph",
           "resolution_ntriples", "update_resolution", "read_clusters", "name_key", "RULES"]

RULES = ("curation", "same name", "acronym", "qualified name", "common noun", "linking table", "short name",
         "misspelling")
NAMED = ("Person", "Organization", "Place")
_STOP = frozenset("of the and for de du des la le al el on in at to a an &".split())
_HONORIFICS = frozenset(w.rstrip(".") for w in RANKS) | {"mr", "mrs", "ms", "miss", "dr", "sir", "dame", "lord", "lady"}
_TYPE_IRI = {f"{KG_NS}{t}": t for t in ENTITY_TYPES}

_P = f"""PREFIX kg: <{KG_NS}>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX schema: <https://schema.org/>
PREFIX org: <http://www.w3.org/ns/org#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX prov: <http://www.w3.org/ns/prov#>
"""
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


def resolution_graph(base: str) -> str:
    """The named graph of the shared descriptions and the cross-article decisions (``Minter.resolution_graph``)."""
    return Minter(base).resolution_graph()


# --- names ------------------------------------------------------------------------------------


@lru_cache(maxsize=262144)
def fold(text: str) -> str:
    """Lowercase, accents dropped, every run of non-alphanumerics one space ("Jong-Un" -> "jong un")."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        out.append(ch.lower() if ch.isalnum() else " ")
    return " ".join("".join(out).split())


def words(text: str) -> list[str]:
    return fold(text.replace("'s ", " ").replace("\u2019s ", " ")).split()


def _strip(name: str) -> str:
    s = " ".join(name.split())
    s = re.sub(r"^(?:the|The|THE)\s+", "", s)
    return re.sub(r"['\u2019]s$", "", s).strip()


def person_words(name: str) -> list[str]:
    """A person's name words without leading titles ("President Halvard Moen" -> halvard, moen)."""
    ws = words(_strip(name))
    while len(ws) > 1 and ws[0] in _HONORIFICS:
        ws = ws[1:]
    return ws


@lru_cache(maxsize=262144)
def name_key(name: str, etype: str) -> str:
    """The normalized form two names of one type must share to be the same name (rule 1)."""
    s = _strip(name)
    low = s.lower()
    if etype in ("Place", "Organization"):
        s = PLACE_ALIASES.get(low, PLACE_ALIASES.get(fold(s), s))
    if etype == "Place":
        s = DEMONYMS.get(low, DEMONYMS.get(fold(s), s))
    if etype == "Person":
        return "".join(person_words(s))
    return "".join(words(s))


@lru_cache(maxsize=65536)
def completeness(label: str) -> tuple[int, int, int, str]:
    """Sort key: the most complete name first (most words, characters, capitals; then by text)."""
    return (-len(words(label)), -len(label), -sum(ch.isupper() for ch in label), label)


_ACRONYM = re.compile(r"^(?:[A-Z]\.){2,8}$|^[A-Z][A-Z&]{1,7}$")
_PAREN_AFTER = re.compile(r"[\(\[]\s*((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\)\]]")
_PAREN_BEFORE = re.compile(r"\b((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\(\[]([^\)\]\n]{3,100})[\)\]]")
_WORD = re.compile(r"[^\s\(\)\[\],;:\"\u201c\u201d]+")
_LABEL_WITH_ACRONYM = re.compile(r"^(.*\S)\s*[\(\[]\s*((?:[A-Z]\.){2,8}|[A-Z][A-Z&]{1,7})\s*[\)\]]$")


def acronym_of(name: str) -> str | None:
    """"VNA" -> "vna", "U.N." -> "un"; None if the name is not an acronym."""
    s = name.strip()
    return re.sub(r"[^A-Za-z]", "", s).lower() if _ACRONYM.match(s) else None


def _initials(expansion: str) -> set[str]:
    tokens = [t for t in re.split(r"\s+", expansion.strip()) if t]
    out = set()
    for hyphens in (False, True):
        parts: list[str] = []
        for t in tokens:
            parts.extend(re.split(r"[-\u2010\u2011]", t) if hyphens else [t])
        clean = [re.sub(r"[^\w]", "", p) for p in parts]
        clean = [c for c in clean if c]
        for skip in (False, True):
            use = [c for c in clean if not (skip and c.lower() in _STOP)]
            out.add("".join(c[0].lower() for c in use))
    return out


def expands(acronym: str, expansion: str) -> bool:
    """Whether ``expansion`` spells out the acronym key ("vna", "Valdorian News Agency")."""
    ws = expansion.split()
    return len(ws) >= 2 and ws[0][:1].isupper() and acronym in _initials(expansion)


def text_pairs(text: str) -> list[tuple[str, str]]:
    """(acronym key, expansion) pairs a text states: "Valdorian News Agency (VNA)", "VPF (Valdorian ...)"."""
    pairs = []
    for m in _PAREN_AFTER.finditer(text):
        acr = re.sub(r"[^A-Za-z]", "", m.group(1)).lower()
        before = list(_WORD.finditer(text, max(0, m.start() - 200), m.start()))
        toks = [w.group(0) for w in before][-(len(acr) + 4):]
        for i in range(len(toks) - 1, -1, -1):
            cand = " ".join(toks[i:]).rstrip(",")
            if expands(acr, cand):
                pairs.append((acr, re.sub(r"['\u2019]s$", "", cand)))
                break
    for m in _PAREN_BEFORE.finditer(text):
        acr = re.sub(r"[^A-Za-z]", "", m.group(1)).lower()
        inside = " ".join(m.group(2).split())
        if expands(acr, inside):
            pairs.append((acr, inside))
    return pairs


# --- what the store holds ---------------------------------------------------------------------


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
            m = _LABEL_WITH_ACRONYM.match(name)
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
        iri, etype, art = r["e"] or "", _TYPE_IRI.get(r["type"] or ""), r["a"] or ""
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


# --- clustering -------------------------------------------------------------------------------


class _Clusters:
    """Union-find over entity IRIs that refuses to join two IRIs a never-merge pair separates."""

    def __init__(self, items: Iterable[str]) -> None:
        self.parent = {i: i for i in items}
        self.members = {i: {i} for i in self.parent}
        self.banned: dict[str, set[str]] = {i: set() for i in self.parent}
        self.reasons: list[tuple[str, str, str]] = []

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def ban(self, a: str, b: str) -> None:
        self.banned[self.find(a)].add(b)
        self.banned[self.find(b)].add(a)

    def allowed(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        return ra == rb or not (self.banned[ra] & self.members[rb] or self.banned[rb] & self.members[ra])

    def union(self, a: str, b: str, rule: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if not self.allowed(a, b):
            return False
        if (len(self.members[ra]), rb) < (len(self.members[rb]), ra):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra] |= self.members.pop(rb)
        self.banned[ra] |= self.banned.pop(rb)
        self.reasons.append((a, b, rule))
        return True


@dataclass
class Cluster:
    """One real-world entity: its canonical IRI, label, type, member IRIs, names and mentions."""

    canonical: str
    label: str
    type: str
    members: list[str]
    aliases: list[str]
    counts: dict[str, int]  # article IRI -> mentions
    external: list[str] = field(default_factory=list)
    reasons: list[tuple[str, str, str]] = field(default_factory=list)  # (IRI, IRI, rule)
    minted: bool = False  # the canonical IRI is in no article graph (a retype)

    @property
    def mentions(self) -> int:
        return sum(self.counts.values())


@dataclass
class Resolution:
    """The clusters (sorted by canonical IRI), each member's cluster, and notes on curation."""

    clusters: list[Cluster]
    of: dict[str, Cluster]
    notes: list[str]
    article_ids: dict[str, str]
    data: StoreData | None = None


def compute(data: StoreData, curation: Curation | None, links: list[Link], base: str) -> Resolution:
    """Cluster the store's entities: curation first, then the rules in the module docstring, in order."""
    notes: list[str] = []
    refs = _Refs(base)
    w = _curate(data, curation or Curation(), refs, Minter(base), notes)
    _same_name(w)
    _acronyms(w)
    _qualified_names(w)
    _common_nouns(w)
    _linking_table(w, links)
    _short_names(w)
    _misspelling(w)
    return _clusters(w, curation or Curation(), refs, notes)


class _Refs:
    """Curation's references to entities, as IRIs of the store; the ones it does not hold are listed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.ents: dict[str, StoredEntity] = {}
        self.unknown: list[str] = []

    def known(self, ref: str, what: str) -> str | None:
        iri = to_iri(ref, self.base)
        if iri not in self.ents:
            self.unknown.append(f"{ref} ({what})")
            return None
        return iri


@dataclass
class _Work:
    """What the rules share: the entities, the union-find, which IRIs the rules may join, the names they add."""

    data: StoreData
    ents: dict[str, StoredEntity]
    uf: _Clusters
    split: set[str]  # curation's splits: no rule joins them
    auto: list[str]  # the IRIs the automatic rules may join, sorted
    expansion_names: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # rule 2
    link_keys: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))  # rule 4
    wrong_names: set[str] = field(default_factory=set)  # rule 6: names taken for slips

    def links_of(self, iri: str) -> set[str]:
        """The external IRIs the linking table gives an entity's names (its expansions too)."""
        e = self.ents[iri]
        return set().union(*(self.link_keys.get((e.type, name_key(n, e.type)), set())
                             for n in e.full_names() | self.expansion_names[iri]))


def _curate(data: StoreData, curation: Curation, refs: _Refs, minter: Minter, notes: list[str]) -> _Work:
    """Curation before any rule: retypes (joining the IRI the new type would have), never-merges,
    splits and merges."""
    ents = {i: StoredEntity(e.iri, e.type, e.stored_type, set(e.labels), set(e.alts), set(e.articles))
            for i, e in data.entities.items()}
    refs.ents = ents
    forced: list[tuple[str, str]] = []
    for entry in curation.of("retype"):
        iri = refs.known(str(entry.values["entity"]), "a retype")
        if iri is None:
            continue
        ent, new = ents[iri], str(entry.values["type"])
        if ent.stored_type == "Group":
            notes.append(f"curation: {entry.values['entity']} is a group, local to its article; not retyped")
            continue
        ent.type = new
        if new == ent.stored_type:
            continue
        target = minter.entity(new, ent.best_label())
        if target not in ents:
            ents[target] = StoredEntity(target, new, new, set(ent.labels), set(ent.alts), set(), minted=True)
        elif ents[target].minted:
            ents[target].labels |= ent.labels
            ents[target].alts |= ent.alts
        forced.append((iri, target))

    uf = _Clusters(sorted(ents))
    for entry in curation.of("never_merge"):
        iris = [i for r in entry.entities if (i := refs.known(str(r), "a never-merge"))]
        for k, a in enumerate(iris):
            for b in iris[k + 1 :]:
                uf.ban(a, b)
    split = {i for e in curation.of("split") if (i := refs.known(str(e.values["entity"]), "a split"))}

    for a, b in forced:
        uf.union(a, b, "curation")
    for entry in curation.of("merge"):
        iris = [i for r in entry.entities if (i := refs.known(str(r), "a merge"))]
        for b in iris[1:]:
            a = iris[0]
            if ents[a].type != ents[b].type:
                notes.append(f"curation: not merged: {entry.values['entities']} are of different types "
                             f"({ents[a].type}, {ents[b].type}); retype one first")
            elif not uf.union(a, b, "curation"):
                notes.append(f"curation: not merged: {entry.values['entities']} are kept apart by a never-merge")

    auto = sorted(i for i, e in ents.items() if i not in split and e.type != "Group")
    return _Work(data, ents, uf, split, auto)


def _same_name(w: _Work) -> None:
    """Rule 1: one of their full names has the same ``name_key``."""
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in w.auto:
        for n in sorted(w.ents[i].full_names()):
            k = name_key(n, w.ents[i].type)
            if k:
                by_key[(w.ents[i].type, k)].append(i)
    for _, iris in sorted(by_key.items()):
        for b in iris[1:]:
            w.uf.union(iris[0], b, "same name")


def _acronyms(w: _Work) -> None:
    """Rule 2: acronym and expansion, from pairs the texts state and entities that carry both names;
    the expansions become names of the acronym's entities (``w.expansion_names``)."""
    ents = w.ents
    pairs: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # acronym -> expansion key -> articles
    surface: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for art, text in sorted(w.data.texts.items()):
        for acr, exp in text_pairs(text):
            ek = "".join(words(exp))
            pairs[acr][ek].add(art)
            surface[(acr, ek)][exp] += 1
    for i in w.auto:
        names = ents[i].full_names()
        for n in names:
            found = acronym_of(n)
            if found is None:
                continue
            for other in names:
                if other != n and expands(found, other):
                    ek = "".join(words(other))
                    pairs[found][ek] |= ents[i].articles
                    surface[(found, ek)][other] += 1
    by_acronym: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_expansion: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in w.auto:
        for n in ents[i].full_names():
            found = acronym_of(n)
            if found is not None and found in pairs:
                by_acronym[(ents[i].type, found)].append(i)
            by_expansion[(ents[i].type, "".join(words(n)))].append(i)
    for (etype, acr), xs in sorted(by_acronym.items()):
        exps = pairs[acr]
        for ek, arts in sorted(exps.items()):
            best = sorted(surface[(acr, ek)].items(), key=lambda kv: (-kv[1], completeness(kv[0])))[0][0]
            for x in sorted(set(xs)):
                here = bool(arts & ents[x].articles)
                if len(exps) == 1 or here:
                    w.expansion_names[x].add(best)
                for y in sorted(set(by_expansion.get((etype, ek), ()))):
                    if y != x and (len(exps) == 1 or (arts & ents[x].articles and arts & ents[y].articles)):
                        w.uf.union(x, y, "acronym")


def _qualified_names(w: _Work) -> None:
    """Rule 3: an organization's name and the same name after a country, when the store qualifies it
    with that one country and an article shows they meet."""
    ents = w.ents
    places = {name_key(v, "Place") for v in PLACE_ALIASES.values()} | {name_key(v, "Place") for v in DEMONYMS.values()}
    places |= {name_key(n, "Place") for e in ents.values() if e.type == "Place" for n in e.full_names() if n[:1].isupper()}
    places.discard("")
    qualified: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # rest key -> country -> orgs
    for i in w.auto:
        if ents[i].type != "Organization":
            continue
        for n in ents[i].full_names():
            toks = _strip(n).split()
            for q in range(1, min(3, len(toks) - 1) + 1):
                country = name_key(" ".join(toks[:q]), "Place")
                rest = "".join(words(" ".join(toks[q:])))
                if country in places and rest and rest not in places:
                    qualified[rest][country].add(i)
    places_of_article = {a: {name_key(n, "Place") for e in es if e in ents and ents[e].type == "Place"
                             for n in ents[e].full_names()} for a, es in w.data.mentions.items()}
    for i in w.auto:
        if ents[i].type != "Organization":
            continue
        for n in sorted(ents[i].full_names()):
            countries = qualified.get("".join(words(_strip(n))))
            if not countries or len(countries) != 1:
                continue
            (country, longs), = countries.items()
            for j in sorted(longs - {i}):
                together = ents[i].articles & ents[j].articles
                named = any(country in places_of_article.get(a, ()) for a in ents[i].articles)
                if together or named:
                    w.uf.union(j, i, "qualified name")
    for _, by_country in sorted(qualified.items()):
        for _, longs in sorted(by_country.items()):
            longs_sorted = sorted(longs)
            for j in longs_sorted[1:]:
                w.uf.union(longs_sorted[0], j, "qualified name")


def _common_nouns(w: _Work) -> None:
    """Rule 3b: a common noun that ends a name of one entity of its only article ("congress")."""
    ents = w.ents
    for i in w.auto:
        e = ents[i]
        lab = e.best_label()
        tail = words(lab)
        if e.type not in ("Organization", "Place") or any(ch.isupper() for ch in lab) or len(e.articles) != 1 or not tail:
            continue
        (art,) = e.articles
        heads = {j for j in w.data.mentions.get(art, ()) if j != i and j in ents and j not in w.split
                 and ents[j].type == e.type
                 and any(n[:1].isupper() and len(words(n)) > len(tail) and words(n)[-len(tail):] == tail
                         for n in ents[j].full_names())}
        if len({w.uf.find(j) for j in heads}) == 1:
            w.uf.union(min(heads), i, "common noun")


def _linking_table(w: _Work, links: list[Link]) -> None:
    """Rule 4: entities the linking table gives one external IRI."""
    for link in links:
        w.link_keys[(link.type, name_key(link.label, link.type))].add(link.iri)
    if not w.link_keys:
        return
    by_link: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in sorted(w.ents):
        if w.ents[i].type == "Group":
            continue
        for ext in sorted(w.links_of(i)):
            by_link[(w.ents[i].type, ext)].append(i)
    for _, iris in sorted(by_link.items()):
        for b in iris[1:]:
            if iris[0] not in w.split and b not in w.split:
                w.uf.union(iris[0], b, "linking table")


def _short_names(w: _Work) -> None:
    """Rule 5: a short person name joins the one cluster with a longer name holding its words, given evidence."""
    ents, uf = w.ents, w.uf
    persons = [i for i in sorted(ents) if ents[i].type == "Person"]
    full_words: dict[str, list[set[str]]] = {i: [set(person_words(n)) for n in ents[i].full_names()] for i in persons}
    index: dict[str, set[str]] = defaultdict(set)
    for i in persons:
        for ws in full_words[i]:
            for word in ws:
                index[word].add(i)
    automatic = set(w.auto)
    for s in sorted((i for i in persons if i in automatic), key=lambda i: (len(person_words(ents[i].best_label())), i)):
        mine = set(person_words(ents[s].best_label()))
        if not mine:
            continue
        pool = set.intersection(*(index.get(word, set()) for word in mine))
        longer = {p for p in pool if p != s and p not in w.split and any(mine < ws for ws in full_words[p])}
        roots = {uf.find(p) for p in longer} - {uf.find(s)}
        if uf.find(s) in {uf.find(p) for p in longer} or len(roots) != 1:
            continue
        (root,) = roots
        if _evidence(w.data, ents, uf, uf.members[uf.find(s)], uf.members[root]):
            uf.union(min(uf.members[root]), s, "short name")


def _misspelling(w: _Work) -> None:
    """Rule 6: a misspelt name joins the spelling more articles use; its names are never the label."""
    misspelt = _misspellings(w.data, w.ents, w.auto)
    for wrong, right in misspelt:
        w.uf.union(right, wrong, "misspelling")
    w.wrong_names = {n for wrong, _ in misspelt for n in w.ents[wrong].names()}


def _clusters(w: _Work, curation: Curation, refs: _Refs, notes: list[str]) -> Resolution:
    """The clusters of the union-find: canonical IRI, label (or curation's rename), names, counts, links."""
    ents, uf = w.ents, w.uf
    renames: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for entry in curation.of("rename"):
        iri = refs.known(str(entry.values["entity"]), "a rename")
        if iri is not None:
            renames[uf.find(iri)].append((iri, str(entry.values["label"])))
    if refs.unknown:
        shown = ", ".join(dict.fromkeys(refs.unknown[:5]))
        more = f" and {len(refs.unknown) - 5} more" if len(refs.unknown) > 5 else ""
        notes.insert(0, f"curation: {len(refs.unknown)} decision(s) name entities no article mentions: {shown}{more}")
    counts = _count_mentions(w.data, ents, uf)
    reasons_by_root: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for a, b, rule in uf.reasons:
        reasons_by_root[uf.find(a)].append((a, b, rule))
    clusters: list[Cluster] = []
    of: dict[str, Cluster] = {}
    for root in sorted({uf.find(i) for i in ents}):
        members = sorted(uf.members[root])
        if all(ents[m].minted for m in members):
            continue
        etype = ents[members[0]].type
        eligible = [m for m in members if ents[m].stored_type == etype] or members
        eligible = [m for m in eligible if not ents[m].names() <= w.wrong_names] or eligible
        canonical = sorted(eligible, key=lambda m: (completeness(ents[m].best_label()), m))[0]
        expansions: set[str] = set().union(*(w.expansion_names[m] for m in members))
        names = set().union(*(ents[m].names() for m in members)) | expansions
        candidates = set().union(*(ents[m].labels for m in members)) | expansions
        candidates = candidates - w.wrong_names or candidates
        label = sorted(candidates or names or {ents[canonical].best_label()}, key=completeness)[0]
        if root in renames:
            chosen = sorted(renames[root])
            if len({lab for _, lab in chosen}) > 1:
                notes.append(f"curation: several renames for {canonical}; using {chosen[0][1]!r}")
            label = chosen[0][1]
        ext = sorted(set().union(*(w.links_of(m) for m in members))) if w.link_keys else []
        cl = Cluster(canonical=canonical, label=label, type=etype, members=members,
                     aliases=sorted(names - {label}, key=lambda n: (n.casefold(), n)),
                     counts=dict(sorted(counts.get(root, {}).items())), external=ext,
                     reasons=reasons_by_root.get(root, []), minted=ents[canonical].minted)
        clusters.append(cl)
        for m in members:
            of[m] = cl
    clusters.sort(key=lambda c: c.canonical)
    return Resolution(clusters=clusters, of=of, notes=notes, article_ids=dict(w.data.article_ids), data=w.data)


def _misspellings(data: StoreData, ents: dict[str, StoredEntity], auto: list[str]) -> list[tuple[str, str]]:
    """Rule 6: (misspelt, right) pairs of organizations or places that one article names both
    ways, the names equal but for two neighbouring letters swapped in one word of five letters or
    more ("Wrold Bank", "World Bank"), where the other spelling is found in more articles
    of the store (an article does not name two bodies so alike; which is the slip, the store says)."""
    allowed = set(auto)
    pairs: set[tuple[str, str]] = set()
    for art in sorted(data.mentions):
        here = sorted(i for i in data.mentions[art] if i in allowed and ents[i].type in ("Organization", "Place"))
        for x, a in enumerate(here):
            for b in here[x + 1:]:
                if ents[a].type == ents[b].type and any(
                        _one_swap(words(_strip(n)), words(_strip(m))) for n in ents[a].names() for m in ents[b].names()):
                    wa, wb = len(ents[a].articles), len(ents[b].articles)
                    if wa != wb:
                        pairs.add((a, b) if wa < wb else (b, a))
    return sorted(pairs)


def _one_swap(a: list[str], b: list[str]) -> bool:
    """Two names of several words equal but for one word, in which two neighbouring letters are swapped."""
    if len(a) != len(b) or len(a) < 2:
        return False
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    if len(diff) != 1:
        return False
    x, y = diff[0]
    if len(x) != len(y) or len(x) < 5 or not x.isalpha():
        return False
    at = [k for k in range(len(x)) if x[k] != y[k]]
    return len(at) == 2 and at[1] == at[0] + 1 and x[at[0]] == y[at[1]] and x[at[1]] == y[at[0]]


def _evidence(data: StoreData, ents: dict[str, StoredEntity], uf: _Clusters, short: set[str], full: set[str]) -> bool:
    """Rule 5 (b): one article names both, or a shared organization, role or fact partner."""
    arts_s = set().union(*(ents[m].articles for m in short))
    if any(arts_s & ents[m].articles for m in full):
        return True

    def gather(group: set[str], table: dict[str, set[str]], clusters: bool) -> set[str]:
        out: set[str] = set()
        for m in group:
            for x in table.get(m, ()):
                if not clusters:
                    out.add(x)
                elif x in ents:
                    out.add(uf.find(x))
        return out

    if gather(short, data.orgs, True) & gather(full, data.orgs, True):
        return True
    if gather(short, data.roles, False) & gather(full, data.roles, False):
        return True
    common = gather(short, data.partners, True) & gather(full, data.partners, True)
    return bool(common - {uf.find(next(iter(short))), uf.find(next(iter(full)))})


# --- mention counts ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\w+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@lru_cache(maxsize=1)
def _place_variants() -> dict[str, frozenset[str]]:
    """Place key -> how texts also name it: "US", "U.S.", "America", "American" for "United States"."""
    out: dict[str, set[str]] = defaultdict(set)
    for alias, canon in PLACE_ALIASES.items():
        if not alias.startswith("the "):
            out[name_key(canon, "Place")].add(alias.upper() if len(re.sub(r"[^a-z]", "", alias)) <= 4 else alias.title())
    for demonym, country in DEMONYMS.items():
        out[name_key(country, "Place")].add(demonym.title())
    return {k: frozenset(v) for k, v in out.items()}


def _variants(ent: StoredEntity) -> set[str]:
    """Other ways a text names a place (none for other types)."""
    if ent.type != "Place":
        return set()
    table = _place_variants()
    return set().union(*(table.get(name_key(n, "Place"), frozenset()) for n in ent.names()))


def _count_mentions(data: StoreData, ents: dict[str, StoredEntity], uf: _Clusters) -> dict[str, dict[str, int]]:
    """root -> article -> how often the article's text names the cluster (at least 1 if it mentions it)."""
    result: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for art, iris in data.mentions.items():
        roots = {uf.find(i) for i in iris if i in ents}
        names: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for i in iris:
            if i not in ents:
                continue
            for n in ents[i].names() | _variants(ents[i]):
                toks = tuple(_tokens(n))
                if toks:
                    names[toks].add(uf.find(i))
        first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for toks in names:
            first[toks[0]].append(toks)
        for cands in first.values():
            cands.sort(key=len, reverse=True)
        text = _tokens(data.texts.get(art, ""))
        found: dict[str, int] = defaultdict(int)
        k = 0
        while k < len(text):
            step = 1
            for toks in first.get(text[k], ()):
                if tuple(text[k : k + len(toks)]) == toks:
                    for r in names[toks]:
                        found[r] += 1
                    step = len(toks)
                    break
            k += step
        for r in roots:
            result[r][art] = max(1, found.get(r, 0))
    return result


# --- the resolution graph ---------------------------------------------------------------------


def resolution_ntriples(res: Resolution, base: str, extra: Iterable[Triple] = ()) -> str:
    """The resolution graph as sorted N-Triples (what ``mapping.to_ntriples`` would write of the
    same triples): the shared descriptions the article graphs point to (``mapping.shared_triples``,
    here from all of them at once, so a name no article gives any more is gone), the clusters, and
    ``extra``. The clusters are most of it (three triples a cluster and article that names it) and
    are written as text directly: 5,000 articles, 193,000 lines, 2.4 s through rdflib terms.
    Empty (no ``extra`` either) when there is nothing else to say."""
    from rdflib import URIRef
    from rdflib.namespace import OWL, PROV, RDF, RDFS, SKOS, XSD

    from ..model.facts import CAMEO_ROOTS
    from ..rdf.mapping import Literals, Terms, describe_class, describe_entity, describe_role, triple_lines
    from ..model.vocab import CAMEO_NS, KG, TYPE_CLASSES

    minter = Minter(base)
    g: set[Triple] = set()
    lit, uri = Literals(), URIRef
    if res.data is not None:
        for ent in res.data.entities.values():
            describe_entity(g, uri(ent.iri), ent.stored_type, ent.labels, ent.alts, lit)
        for role, labels in res.data.role_labels.items():
            for label in labels:
                describe_role(g, uri(role), label)
        for c in res.data.classes:
            if c.startswith(CAMEO_NS) and c[len(CAMEO_NS):] in CAMEO_ROOTS:
                describe_class(g, c[len(CAMEO_NS):])
    w = Terms()
    lines = set(triple_lines(g, w))
    add, iri, plain = lines.add, w.iri, w.plain
    a, pref, label, alt, same = (f"<{t}>" for t in (RDF.type, SKOS.prefLabel, RDFS.label, SKOS.altLabel, OWL.sameAs))
    mentioned, derived, count = (f"<{t}>" for t in (KG.mentionedIn, PROV.wasDerivedFrom, KG.mentionCount))
    classes = {t: [f"<{cls}>" for cls in TYPE_CLASSES[t]] for t in TYPE_CLASSES}
    integer = f"<{XSD.integer}>"
    for cl in res.clusters:
        c = iri(cl.canonical)
        for cls in classes[cl.type]:
            add(f"{c} {a} {cls} .")
        add(f"{c} {pref} {plain(cl.label)} .")
        if cl.minted:
            add(f"{c} {label} {plain(cl.label)} .")
        for alias in cl.aliases:
            add(f"{c} {alt} {plain(alias)} .")
        for m in cl.members:
            if m != cl.canonical:
                add(f"{iri(m)} {same} {c} .")
        for ext in cl.external:
            add(f"{c} {same} {iri(ext)} .")
        for art, n in cl.counts.items():
            node = iri(minter.fact("mention", res.article_ids.get(art, art), cl.canonical))
            add(f"{c} {mentioned} {node} .")
            add(f"{node} {derived} {iri(art)} .")
            add(f'{node} {count} "{int(n)}"^^{integer} .')
    if lines:
        lines.update(triple_lines(extra, w))
    return "\n".join(sorted(lines))


def resolve_store(store: Store, base: str, curation: Curation | None = None,
                  links: list[Link] | None = None) -> Resolution:
    """Compute the resolution of what the store holds (nothing is written)."""
    cur = curation if curation is not None else load_curation()
    if links is None:
        links = load_links(linking_path(cur.linking_path()))
    return compute(load_data(store), cur, links, base)


Q_DIGEST = _P + """SELECT ?d WHERE { GRAPH <%(g)s> { <%(g)s> kg:inputDigest ?d } }"""
Q_ARTICLE_HASHES = _P + """SELECT ?a ?h ?v WHERE { GRAPH ?g { ?a a kg:Article ; kg:contentHash ?h
  OPTIONAL { ?a kg:layoutVersion ?v } } }"""


def inputs_digest(store: Store, curation: Curation) -> str:
    """A digest of everything the resolution graph is computed from: the articles (IRI, content
    hash, layout), the curation decisions, the linking table, and the code of the rules (the
    modules of ``kg.resolve`` and the name tables of ``nlp.lexicon``)."""
    from pathlib import Path

    h = hashlib.sha256()
    for r in sorted(store.select(Q_ARTICLE_HASHES), key=lambda r: (r["a"] or "", r["h"] or "", r["v"] or "")):
        h.update(f"{r['a']}\x1f{r['h']}\x1f{r['v']}\x1e".encode("utf-8"))
    h.update(dumps(curation).encode("utf-8") + b"\x1e")
    table = linking_path(curation.linking_path())
    if table is not None and table.is_file():
        h.update(table.read_bytes())
    kg = Path(__file__).parent.parent
    for code in (*sorted((kg / "resolve").glob("*.py")), kg / "nlp" / "lexicon.py"):  # the rules, the name tables
        h.update(b"\x1e" + code.read_bytes())
    return h.hexdigest()


def update_resolution(store: Store, minter: Minter | str, progress: Callable[[str], None] | None = None,
                      curation: Curation | None = None, if_changed: bool = False) -> Resolution | None:
    """Recompute the resolution graph (shared descriptions and clusters) and replace it in the
    store (one transaction).

    Called by ``pipeline.build`` after the articles are stored and by the curation commands.
    With ``if_changed`` (a build that stored no article) nothing is done, and None returned, when
    the graph records the digest of the same inputs (``inputs_digest``): on the 1M-triple
    benchmark store resolution takes about 10 s, for the same graph. Notes (a curation entry
    naming an entity no article mentions, ...) go to ``progress`` as ``note ...`` lines.
    """
    from rdflib import Literal, URIRef

    from ..model.vocab import KG

    base = minter.base if isinstance(minter, Minter) else minter
    graph = resolution_graph(base)
    cur = curation if curation is not None else load_curation()
    digest = inputs_digest(store, cur)
    if if_changed and [r["d"] for r in store.select(Q_DIGEST % {"g": graph})] == [digest]:
        return None
    store.prefetch_graph(graph)  # the old graph is read while the new one is computed
    res = resolve_store(store, base, cur)
    ntriples = resolution_ntriples(res, base, [(URIRef(graph), KG.inputDigest, Literal(digest))])
    if ntriples:
        store.replace_graph(graph, ntriples)
    else:
        store.remove_graph(graph)
    for note in res.notes:
        if progress is not None:
            progress(f"note {note}")
    return res


# --- reading the resolution graph back ---------------------------------------------------------

Q_CLUSTERS = _P + """SELECT ?c ?label ?type WHERE { GRAPH <%(g)s> {
  ?c skos:prefLabel ?label ; a ?type . FILTER(?type IN (kg:Person, kg:Organization, kg:Place, kg:Group)) } }"""
Q_MEMBERS = _P + """SELECT ?m ?c WHERE { GRAPH <%(g)s> { ?m owl:sameAs ?c . ?c skos:prefLabel ?l } }"""
Q_ALIASES = _P + """SELECT ?c ?alt WHERE { GRAPH <%(g)s> { ?c skos:prefLabel ?l ; skos:altLabel ?alt } }"""
Q_EXTERNAL = _P + """SELECT ?c ?x WHERE { GRAPH <%(g)s> { ?c skos:prefLabel ?l ; owl:sameAs ?x .
  FILTER NOT EXISTS { ?x skos:prefLabel ?l2 } } }"""
Q_COUNTS = _P + """SELECT ?c ?a ?n WHERE { GRAPH <%(g)s> { ?c kg:mentionedIn ?r . ?r prov:wasDerivedFrom ?a ;
  kg:mentionCount ?n } }"""


def read_clusters(store: Store, base: str) -> list[Cluster]:
    """The clusters as the store's resolution graph holds them (empty if it has none)."""
    g = {"g": resolution_graph(base)}
    found: dict[str, Cluster] = {}
    for r in store.select(Q_CLUSTERS % g):
        c, t = r["c"] or "", _TYPE_IRI.get(r["type"] or "", "Entity")
        have = found.get(c)
        if have is None:
            found[c] = Cluster(canonical=c, label=r["label"] or "", type=t, members=[c], aliases=[], counts={})
        elif t in ENTITY_TYPES and (have.type not in ENTITY_TYPES or ENTITY_TYPES.index(t) < ENTITY_TYPES.index(have.type)):
            have.type = t
    for r in store.select(Q_MEMBERS % g):
        cl = found.get(r["c"] or "")
        if cl is not None and r["m"]:
            cl.members.append(r["m"])
    for r in store.select(Q_ALIASES % g):
        cl = found.get(r["c"] or "")
        if cl is not None and r["alt"]:
            cl.aliases.append(r["alt"])
    for r in store.select(Q_EXTERNAL % g):
        cl = found.get(r["c"] or "")
        if cl is not None and r["x"]:
            cl.external.append(r["x"])
    for r in store.select(Q_COUNTS % g):
        cl = found.get(r["c"] or "")
        if cl is not None and r["a"]:
            cl.counts[r["a"]] = int(r["n"] or 0)
    for cl in found.values():
        cl.members.sort()
        cl.aliases.sort(key=lambda n: (n.casefold(), n))
        cl.external.sort()
        cl.counts = dict(sorted(cl.counts.items()))
    return sorted(found.values(), key=lambda c: c.canonical)


def stored_resolution(store: Store, base: str, curation: Curation | None = None) -> Resolution:
    """The resolution as the store holds it, what ``kg entities`` and SPARQL see (a curation
    applied through another file, a rename, a never-merge), for ``kg show``. The rule that joined
    each member is not stored: it comes from computing the resolution again, and is kept only for
    pairs the stored entity still joins. A store with no resolution graph is computed instead."""
    stored = read_clusters(store, base)
    if not stored:
        return resolve_store(store, base, curation)
    computed = resolve_store(store, base, curation)
    of = {m: cl for cl in stored for m in cl.members}
    for cl in stored:
        members = set(cl.members)
        seen = {id(computed.of[m]) for m in cl.members if m in computed.of}
        reasons = [r for c in computed.clusters if id(c) in seen for r in c.reasons]
        cl.reasons = [(a, b, rule) for a, b, rule in reasons if a in members and b in members]
    return Resolution(clusters=stored, of=of, notes=[], article_ids=dict(computed.article_ids), data=computed.data)


# --- finding an entity, its facts ---------------------------------------------------------------


def _fold_query(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_cluster(res: Resolution, query: str, base: str) -> tuple[Cluster, str | None]:
    """The cluster a label, alias, IRI or ``type/slug`` reference names, and the member IRI when an
    IRI was given. Raises ``UsageError`` when nothing or several clusters match."""
    from ..errors import UsageError

    q = query.strip()
    if not q:
        raise UsageError("no entity given")
    if re.match(r"^[a-z][a-z0-9+.-]*://", q) or ("/" in q and " " not in q):
        iri = to_iri(q, base)
        if iri in res.of:
            return res.of[iri], iri
        if re.match(r"^[a-z][a-z0-9+.-]*://", q):
            raise UsageError(f"no entity {q} in the store (kg entities lists them)")
    fq = _fold_query(q)

    def names(cl: Cluster) -> set[str]:
        out = {cl.label, *cl.aliases}
        if res.data is not None:
            for m in cl.members:
                e = res.data.entities.get(m)
                if e is not None:
                    out |= e.names()
        return {_fold_query(n) for n in out}

    exact = [cl for cl in res.clusters if fq in names(cl)]
    if not exact:  # "U.S." for "United States", "President Moen" for "Moen"
        exact = [cl for cl in res.clusters if cl.type != "Group" and name_key(q, cl.type)
                 and name_key(q, cl.type) in {name_key(n, cl.type) for n in {cl.label, *cl.aliases}}]
    if len(exact) == 1:
        return exact[0], None
    if len(exact) > 1:
        named = [cl for cl in exact if cl.type != "Group"]
        if len(named) == 1:
            return named[0], None
        listed = "; ".join(f"{cl.label} ({cl.type}, {to_ref(cl.canonical, base)})" for cl in exact[:8])
        raise UsageError(f"{query!r} names {len(exact)} entities: {listed}; give one's IRI")
    near = sorted({cl.label for cl in res.clusters if any(fq in n for n in names(cl))})
    hint = "; did you mean " + ", ".join(repr(n) for n in near[:8]) + "?" if near else ""
    raise UsageError(f"no entity named {query!r} in the store{hint}")


@dataclass
class Fact:
    """One event or role an entity takes part in, for ``kg show``."""

    kind: str  # "event" | "role"
    role: str  # actor, target, reporter | member, organization
    text: str  # "Halvard Moen -> call for -> (none)"
    sentence: str
    article: str  # article id
    iri: str
    flags: str = ""


Q_SHOW_EVENTS = _P + """SELECT ?f ?as ?actor ?action ?target ?reporter ?sentence ?article ?negated ?modality WHERE {
  VALUES ?e { %(members)s }
  { ?f kg:actor ?e BIND("actor" AS ?as) } UNION { ?f kg:target ?e BIND("target" AS ?as) }
  UNION { ?f kg:reportedBy ?e BIND("reporter" AS ?as) }
  ?f a kg:Event ; kg:action ?action .
  OPTIONAL { ?f kg:actor ?actor } OPTIONAL { ?f kg:target ?target } OPTIONAL { ?f kg:reportedBy ?reporter }
  OPTIONAL { ?f kg:evidence/kg:sentence ?sentence } OPTIONAL { ?f prov:wasDerivedFrom ?article }
  OPTIONAL { ?f kg:negated ?negated } OPTIONAL { ?f kg:modality ?modality }
}"""
Q_SHOW_ROLES = _P + """SELECT ?f ?as ?person ?org ?role ?former ?sentence ?article WHERE {
  VALUES ?e { %(members)s }
  { ?f org:member ?e BIND("member" AS ?as) } UNION { ?f org:organization ?e BIND("organization" AS ?as) }
  ?f org:member ?person ; org:organization ?org .
  OPTIONAL { ?f kg:roleLabel ?role } OPTIONAL { ?f kg:former ?former }
  OPTIONAL { ?f kg:evidence/kg:sentence ?sentence } OPTIONAL { ?f prov:wasDerivedFrom ?article }
}"""


def entity_facts(store: Store, res: Resolution, cluster: Cluster) -> list[Fact]:
    """Every event (as actor, target or reporter) and role (as member or organization) of a cluster."""
    import pyoxigraph as ox

    members = " ".join(str(ox.NamedNode(m)) for m in cluster.members)

    def name(iri: str | None) -> str:
        if not iri:
            return "(none)"
        cl = res.of.get(iri)
        return cl.label if cl is not None else iri.rsplit("/", 1)[-1]

    def article(iri: str | None) -> str:
        return res.article_ids.get(iri or "", (iri or "").rsplit("/", 1)[-1])

    facts: dict[tuple[str, str], Fact] = {}
    for r in sorted(store.select(Q_SHOW_EVENTS % {"members": members}), key=lambda r: tuple(v or "" for v in r.values())):
        key = (r["f"] or "", r["as"] or "")
        if key in facts:
            continue
        flags = []
        if r.get("negated") in ("true", "1"):
            flags.append("negated")
        modality = (r.get("modality") or "").rsplit("#", 1)[-1]
        if modality and modality != "asserted":
            flags.append(modality + (f" by {name(r['reporter'])}" if r.get("reporter") and modality == "reported" else ""))
        facts[key] = Fact("event", r["as"] or "", f"{name(r['actor'])} \u2192 {r['action']} \u2192 {name(r['target'])}",
                          r.get("sentence") or "", article(r.get("article")), r["f"] or "", ", ".join(flags))
    for r in sorted(store.select(Q_SHOW_ROLES % {"members": members}), key=lambda r: tuple(v or "" for v in r.values())):
        key = (r["f"] or "", r["as"] or "")
        if key in facts:
            continue
        former = "former" if r.get("former") in ("true", "1") else ""
        facts[key] = Fact("role", r["as"] or "", f"{name(r['person'])} \u2014 {r.get('role') or 'member'} of \u2014 {name(r['org'])}",
                          r.get("sentence") or "", article(r.get("article")), r["f"] or "", former)
    order = {"actor": 0, "target": 1, "reporter": 2, "member": 3, "organization": 4}
    return sorted(facts.values(), key=lambda f: (order.get(f.role, 9), f.article, f.sentence, f.text))


def list_entities(store: Store, base: str, etype: str | None = None, search: str | None = None) -> list[Cluster]:
    """The store's entities (its resolution graph; computed if it has none), most mentioned first."""
    from ..errors import UsageError

    clusters = read_clusters(store, base)
    if not clusters and store.select(_P + "SELECT ?a WHERE { ?a a kg:Article } LIMIT 1"):
        clusters = resolve_store(store, base).clusters
    if etype is not None:
        fitting = [t for t in ENTITY_TYPES if t.casefold().startswith(etype.strip().casefold())]
        wanted = fitting[0] if len(fitting) == 1 and etype.strip() else None
        if wanted is None:
            raise UsageError(f"unknown type {etype!r}; choose one of {', '.join(ENTITY_TYPES)}")
        clusters = [c for c in clusters if c.type == wanted]
    if search:
        s = _fold_query(search)
        clusters = [c for c in clusters if any(s in _fold_query(n) for n in (c.label, *c.aliases))]
    return sorted(clusters, key=lambda c: (-c.mentions, c.label.casefold(), c.canonical))
