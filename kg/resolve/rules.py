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
   name is unambiguous in the whole store: exactly one cluster (as rules 1 to 4 formed them) has a
   longer person name holding all its words, and (b) there is evidence: they appear in one article,
   or they share an organization or a role (``org:Membership``), or they have a common partner in
   the facts (an entity both act on, are acted on by, or report or are reported by). Every short
   name is decided on the clusters of rules 1 to 4, so no decision depends on another.

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

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Container, Iterable, Protocol

from ..model.iris import Minter
from ..model.names import completeness, name_key, person_words, strip_name, words
from ..nlp.lexicon import DEMONYMS, PLACE_ALIASES
from .acronyms import acronym_of, expands, text_pairs
from .clusters import Clusters
from .curation import Curation, to_iri
from .data import Change, StoreData, StoredEntity
from .linking import Link
from .mentions import count_mentions

RULES = ("curation", "same name", "acronym", "qualified name", "common noun", "linking table", "short name",
         "misspelling")


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
    change: Change | None = None  # what an incremental resolution read again (``kg.resolve.increment``)


#: (article, acronym key, expansion): an acronym and its expansion as an article's text pairs them
Stated = tuple[str, str, str]
#: counts mentions: (data, entities, clusters) -> root -> article -> count (``mentions.count_mentions``)
Counter = Callable[[StoreData, dict[str, StoredEntity], Clusters], dict[str, dict[str, int]]]


#: Rule 3: the place keys the lexicon knows (countries, their variants and demonyms).
LEXICON_PLACES = frozenset({name_key(v, "Place") for v in PLACE_ALIASES.values()}
                           | {name_key(v, "Place") for v in DEMONYMS.values()}) - {""}


def place_keys(e: StoredEntity) -> set[str]:
    """Rule 3: the keys under which a place of the store qualifies an organization: its full names
    that start with a capital ("Ostmark" in "Ostmark Rowing League")."""
    if e.type != "Place":
        return set()
    return {k for n in e.full_names() if n[:1].isupper() and (k := name_key(n, "Place"))}


def stated_pairs(texts: dict[str, str]) -> list[Stated]:
    """The acronym pairs the texts state (rule 2), by article."""
    return [(art, acr, exp) for art, text in sorted(texts.items()) for acr, exp in text_pairs(text)]


def compute(data: StoreData, curation: Curation | None, links: list[Link], base: str,
            stated: list[Stated] | None = None, counter: Counter = count_mentions) -> Resolution:
    """Cluster the store's entities: curation first, then the rules in the module docstring, in order.
    ``stated``: the acronym pairs of the texts when known already (else read from ``data.texts``);
    ``counter``: how mentions are counted."""
    return compute_work(data, curation, links, base, stated, counter)[0]


@dataclass
class Trace:
    """What a resolution decided on the way, kept by ``kg.resolve.index`` for the next one: the
    entities as the rules saw them (after retypes), each one's cluster after rules 1 to 4, the
    expansions rule 2 gave them, rule 5's joins (short name, the entity it joined) and rule 6's
    candidate pairs."""

    ents: dict[str, StoredEntity]
    root4: dict[str, str]
    expansions: dict[str, set[str]]
    edges5: dict[str, str]
    pairs6: set[tuple[str, str]]


def compute_work(data: StoreData, curation: Curation | None, links: list[Link], base: str,
                 stated: list[Stated] | None = None, counter: Counter = count_mentions) -> tuple[Resolution, Trace]:
    """``compute``, and its ``Trace``."""
    notes: list[str] = []
    refs = _Refs(base)
    w = _curate(data, curation or Curation(), refs, Minter(base), notes)
    w.stated = stated if stated is not None else stated_pairs(data.texts)
    w.counter = counter
    first_rules(w, links)
    look = MemoryLook(w)
    edges5: dict[str, str] = {}
    for s, root in short_name_decisions(w.auto_persons(), look):
        edges5[s] = min(look.group(root))
        w.uf.union(edges5[s], s, "short name")
    pairs6 = swap_pairs(data, w.ents, w.auto)
    _misspelling(w, pairs6)
    root4 = {i: min(look.group(r)) for i, r in look.roots.items()}
    trace = Trace(w.ents, root4, {i: set(x) for i, x in w.expansion_names.items() if x}, edges5, pairs6)
    return _clusters(w, curation or Curation(), refs, notes), trace


def first_rules(w: _Work, links: list[Link]) -> None:
    """Rules 1 to 4: what joins entities by their names (the clusters rule 5 compares)."""
    _same_name(w)
    _acronyms(w)
    _qualified_names(w)
    _common_nouns(w)
    _linking_table(w, links)


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
    uf: Clusters
    split: set[str]  # curation's splits: no rule joins them
    auto: list[str]  # the IRIs the automatic rules may join, sorted
    expansion_names: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # rule 2
    link_keys: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))  # rule 4
    wrong_names: set[str] = field(default_factory=set)  # rule 6: names taken for slips
    stated: list[Stated] = field(default_factory=list)  # rule 2: the pairs the texts state
    counter: Counter = count_mentions
    #: rule 3: the place keys of the store (``place_keys``), and whether one of some articles names a
    #: place of a key (``None``: both from ``data``; ``kg.resolve.increment`` asks its index)
    places: Container[str] | None = None
    places_in: Callable[[str, Iterable[str]], bool] | None = None

    def auto_persons(self) -> list[str]:
        """The persons the automatic rules may join."""
        return [i for i in self.auto if self.ents[i].type == "Person"]

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

    uf = Clusters(sorted(ents))
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
    for art, acr, exp in w.stated:
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
    places = w.places if w.places is not None else LEXICON_PLACES | {k for e in ents.values() for k in place_keys(e)}
    qualified: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # rest key -> country -> orgs
    for i in w.auto:
        if ents[i].type != "Organization":
            continue
        for n in ents[i].full_names():
            toks = strip_name(n).split()
            for q in range(1, min(3, len(toks) - 1) + 1):
                country = name_key(" ".join(toks[:q]), "Place")
                rest = "".join(words(" ".join(toks[q:])))
                if country in places and rest and rest not in places:
                    qualified[rest][country].add(i)
    places_in = w.places_in
    if places_in is None:
        of_article = {a: {name_key(n, "Place") for e in es if e in ents and ents[e].type == "Place"
                          for n in ents[e].full_names()} for a, es in w.data.mentions.items()}

        def places_in(country: str, articles: Iterable[str]) -> bool:
            return any(country in of_article.get(a, ()) for a in articles)
    for i in w.auto:
        if ents[i].type != "Organization":
            continue
        for n in sorted(ents[i].full_names()):
            countries = qualified.get("".join(words(strip_name(n))))
            if not countries or len(countries) != 1:
                continue
            (country, longs), = countries.items()
            for j in sorted(longs - {i}):
                if ents[i].articles & ents[j].articles or places_in(country, ents[i].articles):
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


class PersonLook(Protocol):
    """What rule 5 reads of the store: the persons, the clusters of rules 1 to 4 (``root``, ``group``)
    and the evidence (``MemoryLook`` from the data in memory; ``kg.resolve.increment`` from its index)."""

    split: set[str]

    def ent(self, iri: str) -> StoredEntity: ...

    def pool(self, mine: set[str]) -> set[str]:
        """At least every person with a full name holding all these words."""

    def root(self, iri: str) -> str | None:
        """The cluster of an entity after rules 1 to 4 (None: no entity of the store)."""

    def group(self, root: str) -> set[str]:
        """The entities of a cluster after rules 1 to 4."""

    def articles(self, iri: str) -> set[str]: ...

    def orgs(self, iri: str) -> set[str]: ...

    def roles(self, iri: str) -> set[str]: ...

    def partners(self, iri: str) -> set[str]: ...


def short_name_decisions(shorts: Iterable[str], look: PersonLook) -> list[tuple[str, str]]:
    """Rule 5 for some persons, in the order the rule joins them: (short name, the root of the
    cluster it joins). Each is decided on the clusters of rules 1 to 4, so one decision never
    depends on another (and a change of the store re-decides only the names it reaches)."""
    out: list[tuple[str, str]] = []
    mine_of = {s: person_words(look.ent(s).best_label()) for s in shorts}
    for s in sorted(mine_of, key=lambda i: (len(mine_of[i]), i)):
        mine = set(mine_of[s])
        if not mine:
            continue
        longer = {p for p in look.pool(mine) if p != s and p not in look.split
                  and any(mine < set(person_words(n)) for n in look.ent(p).full_names())}
        own = look.root(s)
        found = {look.root(p) for p in longer}
        roots = found - {own}
        if own in found or len(roots) != 1:
            continue
        (root,) = roots
        if root is not None and own is not None and _evidence(look, look.group(own), look.group(root)):
            out.append((s, root))
    return out


class MemoryLook:
    """``PersonLook`` over the entities in memory, with the clusters as rules 1 to 4 left them."""

    def __init__(self, w: _Work) -> None:
        self.w, self.split = w, w.split
        self.roots = {i: w.uf.find(i) for i in w.ents}
        self.groups: dict[str, set[str]] = defaultdict(set)
        for i, r in self.roots.items():
            self.groups[r].add(i)
        self.index: dict[str, set[str]] = defaultdict(set)
        for i, e in w.ents.items():
            if e.type == "Person":
                for n in e.full_names():
                    for word in person_words(n):
                        self.index[word].add(i)

    def ent(self, iri: str) -> StoredEntity:
        return self.w.ents[iri]

    def pool(self, mine: set[str]) -> set[str]:
        return set.intersection(*(self.index.get(word, set()) for word in mine))

    def root(self, iri: str) -> str | None:
        return self.roots.get(iri)

    def group(self, root: str) -> set[str]:
        return self.groups[root]

    def articles(self, iri: str) -> set[str]:
        return self.w.ents[iri].articles if iri in self.w.ents else set()

    def orgs(self, iri: str) -> set[str]:
        return self.w.data.orgs.get(iri, set())

    def roles(self, iri: str) -> set[str]:
        return self.w.data.roles.get(iri, set())

    def partners(self, iri: str) -> set[str]:
        return self.w.data.partners.get(iri, set())


def _misspelling(w: _Work, pairs: set[tuple[str, str]]) -> None:
    """Rule 6: a misspelt name joins the spelling more articles use; its names are never the label."""
    misspelt = misspellings(pairs, {i: len(w.ents[i].articles) for p in pairs for i in p})
    for wrong, right in misspelt:
        w.uf.union(right, wrong, "misspelling")
    w.wrong_names = {n for wrong, _ in misspelt for n in w.ents[wrong].names()}


def misspellings(pairs: Iterable[tuple[str, str]], articles: dict[str, int]) -> list[tuple[str, str]]:
    """Rule 6: (misspelt, right) of the candidate pairs (``swap_pairs``) whose two spellings are
    found in different numbers of articles (``articles``): the rarer is taken for the slip."""
    out = {(a, b) if articles[a] < articles[b] else (b, a) for a, b in pairs if articles[a] != articles[b]}
    return sorted(out)


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
    counts = w.counter(w.data, ents, uf)
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


def swap_pairs(data: StoreData, ents: dict[str, StoredEntity], auto: list[str]) -> set[tuple[str, str]]:
    """Rule 6's candidates: pairs (in IRI order) of organizations or places of one type that one
    article names both ways, the names equal but for two neighbouring letters swapped in one word of
    five letters or more ("Wrold Bank", "World Bank"). Which one is the slip, the store says
    (``misspellings``): an article does not name two bodies so alike."""
    allowed = set(auto)
    pairs: set[tuple[str, str]] = set()
    for art in sorted(data.mentions):
        here = sorted(i for i in data.mentions[art] if i in allowed and ents[i].type in ("Organization", "Place"))
        for x, a in enumerate(here):
            for b in here[x + 1:]:
                if swapped(ents[a], ents[b]):
                    pairs.add((a, b))
    return pairs


def swapped(a: StoredEntity, b: StoredEntity) -> bool:
    """Rule 6: two entities of one type, one of whose names is a swap of neighbouring letters away from one of the other's."""
    if a.type != b.type:
        return False
    mine: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for n in a.names():
        for k, ws in _swaps(n):
            mine[k].append(ws)
    return any(_one_swap(list(x), list(y)) for m in b.names() for k, y in _swaps(m) for x in mine.get(k, ()))


@lru_cache(maxsize=262144)
def _swaps(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(swap key, words) of a name: two names one swap apart (``_one_swap``) share a key (the other
    words, and the swapped word's letters sorted), so only names that share one are compared."""
    ws = tuple(words(strip_name(name)))
    if len(ws) < 2:
        return ()
    return tuple(("\x1f".join((*ws[:k], "".join(sorted(w)), *ws[k + 1:])), ws)
                 for k, w in enumerate(ws) if len(w) >= 5 and w.isalpha())


def swap_keys(name: str) -> set[str]:
    """Rule 6: the keys of ``_swaps``."""
    return {k for k, _ in _swaps(name)}


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


def _evidence(look: PersonLook, short: set[str], full: set[str]) -> bool:
    """Rule 5 (b): one article names both, or a shared organization, role or fact partner."""
    arts_s = set().union(*(look.articles(m) for m in short))
    if any(arts_s & look.articles(m) for m in full):
        return True

    def gather(group: set[str], table: Callable[[str], set[str]], clusters: bool) -> set[str]:
        out: set[str] = set()
        for m in group:
            for x in table(m):
                if not clusters:
                    out.add(x)
                elif (r := look.root(x)) is not None:
                    out.add(r)
        return out

    if gather(short, look.orgs, True) & gather(full, look.orgs, True):
        return True
    if gather(short, look.roles, False) & gather(full, look.roles, False):
        return True
    common = gather(short, look.partners, True) & gather(full, look.partners, True)
    return bool(common - {look.root(next(iter(short))), look.root(next(iter(full)))})
