"""Incremental resolution: what a build reads, computes and writes grows with what its articles
reach, not with the store.

The index beside the store (``kg.resolve.index``) holds what the rules need of every article and
entity, the decisions of the last resolution, and the resolution graph's lines by owner. A resolution
reads again only the article graphs that are new, changed (content hash or layout) or rewritten
(``touched``, ``note_written``), drops the ones gone from the store, and then recomputes only what
they reach, in three regions, each closed under what its rules compare:

1. rules 1 to 4 run over the entities whose namings changed, every entity that shares a key with
   them (a name, an acronym or its expansion, a qualified organization name, a linking table IRI, the
   tail of a common noun), transitively, and their clusters after rules 1 to 4 as they were (``R``);
2. rule 5 re-decides the short names whose evidence or candidates changed: those of the clusters
   rules 1 to 4 changed or whose entities changed, those whose words a changed person's names hold,
   and those whose evidence names an entity that changed cluster; rule 6 re-pairs the organizations
   and places whose names or articles changed;
3. the clusters are formed again over the entities any of that reaches, with their clusters as they
   were and everything joined to them (``F``); mentions are counted again in the articles whose
   entities' names or grouping changed (their signature), and only the resolution graph's lines of
   the clusters, articles, roles and classes reached are rewritten.

The result is the full recompute's (``kg.resolve.rules.compute``): ``tests/test_resolve_increment.py``
checks it over random orders of builds, new versions and removals. Anything the index cannot vouch for
(another kg wrote the graph, a lost index, a curation or linking table or resolver code changed, articles
of a layout before ``kg:layoutVersion`` 2, ``kg build --full-resolve``) is a full recompute, which
starts the index again.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ..model.facts import ENTITY_TYPES
from ..model.iris import Minter
from ..model.names import person_words, words
from ..store import Store
from .acronyms import acronym_of, text_pairs
from .clusters import Clusters
from .curation import Curation, to_iri
from .data import Q_TEXTS, Change, StoreData, StoredEntity, only_graphs, read_articles, settle
from .index import Index, entity_keys, key, link_table
from .lines import class_lines, cluster_lines, mention_lines, role_lines
from .linking import Link
from .mentions import article_names, count_in_text
from .rules import (LEXICON_PLACES, MemoryLook, Resolution, _clusters, _curate, _Refs, _Work, first_rules,
                    misspellings, short_name_decisions, swap_keys, swapped)

#: The kinds of keys along which the entities rules 1 to 4 may join are gathered (``index.entity_keys``).
MERGE_KEYS = ("n", "a", "x", "q", "l")


def note_written(store: Store, graph: str, shared: str = "") -> None:
    """Record that an article graph was written through this handle, and the lines of the resolution
    graph written with it (``shared``: its entities', roles' and classes' descriptions): the next
    resolution reads the graph again even if its content hash is the same (a rebuild with ``--force``
    by a newer extractor), and owns those lines (rewrites them, or takes them out if the article went
    before it was resolved)."""
    store.__dict__.setdefault("_kg_written", set()).add(graph)
    if shared:
        store.__dict__.setdefault("_kg_written_lines", set()).update(ln for ln in shared.split("\n") if ln.strip())


def written(store: Store) -> tuple[set[str], set[str]]:
    """The article graphs written through this handle since the last resolution, and the resolution
    graph's lines written with them (and forget both)."""
    graphs: set[str] = store.__dict__.pop("_kg_written", set())
    lines: set[str] = store.__dict__.pop("_kg_written_lines", set())
    return graphs, lines


#: How a line of a role's or a class's description ends (``mapping.describe_role``, ``describe_class``).
_ROLE_TYPE = "<http://www.w3.org/ns/org#Role> ."
_CONCEPT_TYPE = "<http://www.w3.org/2004/02/skos/core#Concept> ."


class Places:
    """Rule 3's place keys, as the index holds them: the lexicon's, and every Place entity's (``place_keys``)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.known: dict[str, bool] = {}
        self.articles: dict[str, set[str]] = {}

    def __contains__(self, k: object) -> bool:
        if not isinstance(k, str):
            return False
        if k not in self.known:
            self.known[k] = k in LEXICON_PLACES or self.index.has_key(key("pk", k))
        return self.known[k]

    def named_in(self, country: str, articles: Iterable[str]) -> bool:
        """Whether one of the articles names a place with the key ``country``."""
        if country not in self.articles:
            found = self.index.by_keys([key("pk", country)])
            self.articles[country] = set().union(*self.index.articles_of(found).values()) if found else set()
        return not self.articles[country].isdisjoint(articles)


class Roots:
    """The final clusters as an article's count sees them: the recomputed ones, else as the index holds them."""

    def __init__(self, uf: Clusters, canonical: dict[str, str], index: Index) -> None:
        self.uf, self.canonical, self.index = uf, canonical, index
        self.held: dict[str, str] = {}

    def prefetch(self, iris: Iterable[str]) -> None:
        need = [i for i in iris if i not in self.uf.parent and i not in self.held]
        self.held.update(self.index.canonicals(need))

    def find(self, iri: str) -> str:
        if iri in self.uf.parent:
            return self.canonical[self.uf.find(iri)]
        return self.held.get(iri, iri)


def article_signature(iris: set[str], ents: dict[str, StoredEntity], roots: Any) -> tuple[str, list[str],
                                                                                     dict[tuple[str, ...], set[str]],
                                                                                     dict[str, list[str]]]:
    """(signature, roots in a fixed order, names -> roots, root -> the article's entities of it) of
    one article: its counts change only if its entities' names or their grouping into clusters do."""
    names = article_names(iris, ents, roots)
    groups: dict[str, list[str]] = defaultdict(list)
    for i in sorted(iris):
        if i in ents:
            groups[roots.find(i)].append(i)
    order = sorted(groups, key=lambda r: groups[r])  # an order that does not depend on the roots
    place = {r: n for n, r in enumerate(order)}
    sig = hashlib.sha1(repr(([groups[r] for r in order],
                             sorted((t, sorted(place[r] for r in rs)) for t, rs in names.items())))
                       .encode("utf-8")).hexdigest()
    return sig, order, names, groups


class RecordingCounter:
    """Counts mentions as ``mentions.count_mentions`` does, and keeps each article's groups, counts and
    signature for the index (a full resolution)."""

    def __init__(self) -> None:
        self.per_article: dict[str, tuple[str, list[tuple[list[str], int]]]] = {}

    def __call__(self, data: StoreData, ents: dict[str, StoredEntity], uf: Clusters) -> dict[str, dict[str, int]]:
        result: dict[str, dict[str, int]] = defaultdict(dict)
        for art, iris in data.mentions.items():
            sig, order, names, groups = article_signature(iris, ents, uf)
            found = count_in_text(data.texts.get(art, ""), names)
            counts = [max(1, found.get(r, 0)) for r in order]
            for r, n in zip(order, counts):
                result[r][art] = n
            self.per_article[art] = (sig, [(groups[r], n) for r, n in zip(order, counts)])
        return result


class IndexLook:
    """``rules.PersonLook`` over the index (its clusters after rules 1 to 4 already brought up to date)."""

    def __init__(self, index: Index, split: set[str], ents: dict[str, StoredEntity]) -> None:
        self.index, self.split, self.ents = index, split, ents
        self._roots: dict[str, str | None] = {}
        self._groups: dict[str, set[str]] = {}
        self._words: dict[str, set[str]] = {}
        self._ev: dict[str, tuple[set[str], set[str], set[str]]] = {}

    def load(self, iris: Iterable[str]) -> None:
        need = [i for i in iris if i not in self.ents]
        self.ents.update(self.index.entities(need))

    def ent(self, iri: str) -> StoredEntity:
        if iri not in self.ents:
            self.load([iri])
        return self.ents[iri]

    def pool(self, mine: set[str]) -> set[str]:
        for w in mine - set(self._words):
            self._words[w] = self.index.by_keys([key("p", w)])
        found = set.intersection(*(self._words[w] for w in mine))
        self.load(found)
        return found

    def root(self, iri: str) -> str | None:
        if iri not in self._roots:
            self._roots[iri] = self.index.roots4([iri]).get(iri)
        return self._roots[iri]

    def group(self, root: str) -> set[str]:
        if root not in self._groups:
            self._groups[root] = self.index.groups4([root]).get(root, set())
        return self._groups[root]

    def _evidence(self, iri: str) -> tuple[set[str], set[str], set[str]]:
        if iri not in self._ev:
            orgs, roles, partners = self.index.evidence_rows([iri])
            self._ev[iri] = (orgs.get(iri, set()), roles.get(iri, set()), partners.get(iri, set()))
        return self._ev[iri]

    def articles(self, iri: str) -> set[str]:
        self.load([iri])
        e = self.ents.get(iri)
        return e.articles if e is not None else set()

    def orgs(self, iri: str) -> set[str]:
        return self._evidence(iri)[0]

    def roles(self, iri: str) -> set[str]:
        return self._evidence(iri)[1]

    def partners(self, iri: str) -> set[str]:
        return self._evidence(iri)[2]


def curated_iris(cur: Curation, base: str) -> set[str]:
    """Every entity a curation decision names."""
    out: set[str] = set()
    for table in ("merge", "never_merge", "split", "rename", "retype"):
        for entry in cur.of(table):
            out.update(to_iri(str(r), base) for r in entry.entities)
    return out


class Increment:
    """One incremental resolution over the index (see the module docstring); ``run`` returns the
    clusters it recomputed and the resolution graph's lines that changed, by owner."""

    def __init__(self, store: Store, index: Index, cur: Curation, links: list[Link], base: str) -> None:
        self.store, self.index, self.cur, self.links, self.base = store, index, cur, links, base
        self.minter = Minter(base)
        self.link_keys = link_table(links)
        self.places = Places(index)
        self.change = Change()
        self.notes: list[str] = []
        self.texts: dict[str, str] = {}  # article IRI -> text, of the articles read
        self.ents: dict[str, StoredEntity] = {}  # effective entities loaded (after Phase A: the region's new ones)

    # ---------------------------------------------------------------------------------- the articles

    def read(self, current: dict[str, tuple[str, str, str]], touched: Iterable[str]) -> None:
        """Bring the index's articles up to the store's (``current``: graph -> (article, hash, layout))."""
        ix = self.index
        held = ix.articles()
        gone = sorted(set(held) - set(current))
        stale = {g for g, (_, h, v) in current.items() if g not in held or held[g][1:] != (h, v)}
        graphs, self.written_lines = written(self.store)
        stale |= (set(touched) | graphs) & set(current)
        fresh = read_articles(self.store, sorted(stale)) if stale else []
        self.changed_articles = {held[g][0] for g in gone} | {a.iri for a in fresh}
        self.fresh = {a.iri for a in fresh}
        e0: set[str] = set()
        self.lost: set[str] = set()  # entities named by an article version gone: described from all their namings
        self.fresh_namings: dict[str, list[tuple[str, str, str, tuple[str, ...]]]] = defaultdict(list)
        self.roles: set[str] = set()
        self.classes: set[str] = set()
        acrs: set[str] = set()
        eks: set[str] = set()
        self.old_mentions: dict[str, list[str]] = {}
        for g in sorted(set(gone) | (stale & set(held))):
            art = held[g][0]
            rows = ix.article_rows(art)
            e0 |= rows["entities"] | rows["partners"] | rows["members"]
            self.lost |= rows["entities"]
            self.roles |= rows["roles"]
            self.classes |= rows["classes"]
            acrs |= {a for a, _ in rows["stated"]}
            eks |= {e for _, e in rows["stated"]}
            self.old_mentions["m " + art] = ix.lines(["m " + art]).get("m " + art, [])
            ix.drop_article(g, art)
        for a in fresh:
            pairs = text_pairs(a.text)
            ix.add_article(a, pairs)
            self.texts[a.iri] = a.text
            for naming in a.namings:
                self.fresh_namings[naming[0]].append((a.iri, *naming[1:]))
            e0 |= {e for e, *_ in a.namings} | {x for p in a.partners for x in p} | {x for m in a.members for x in m[:2]}
            self.roles |= {r for r, _ in a.role_labels}
            self.classes |= a.classes
            acrs |= {acr for acr, _ in pairs}
            eks |= {"".join(words(exp)) for _, exp in pairs}
        kinds: dict[str, set[str]] = defaultdict(set)  # subject -> what the lines written say it is
        for line in self.written_lines:
            subject = line.split(" ", 1)[0][1:-1]
            kinds[subject].add("role" if line.endswith(_ROLE_TYPE) else "class" if line.endswith(_CONCEPT_TYPE) else "")
        for subject, what in kinds.items():
            if "role" in what:
                self.roles.add(subject)
            elif "class" in what:
                self.classes.add(subject)
            else:
                e0.add(subject)
        self.change.read = sorted(a.graph for a in fresh)
        self.change.dropped = gone
        self.e0 = e0
        self.stated_acrs, self.stated_eks = acrs, eks

    def refresh_entities(self) -> None:
        """The entities the changed articles name, described again from their namings; which of them
        changed names, and the place keys that came or went."""
        ix = self.index
        old = ix.entities(self.e0, articles=False)
        self.old_names = {i: e.full_names() for i, e in old.items()}
        self.old_all_names = {i: e.names() for i, e in old.items()}
        # what rules 1 to 4 matched them by: whatever shared a key with them may decide otherwise now
        self.old_keys = {k for ks in ix.keys_by_entity(self.e0, "").values() for k in ks
                         if k.split("\x1f", 1)[0] in MERGE_KEYS}
        for i in self.e0:
            e = old.get(i)
            if e is not None and e.type in ("Organization", "Place"):
                for n in e.full_names():
                    ws = words(n)
                    self.old_keys |= {key("t", " ".join(ws[k:])) for k in range(1, len(ws))}
        self.old_canon = ix.canonicals(self.e0)
        self.old_root4 = ix.roots4(self.e0)
        again = {i for i in self.e0 - self.lost if i in old and not old[i].minted and i in self.fresh_namings}
        new = ix.namings_of(self.e0 - again)
        for i in again:  # only named again: what the index held, and the new namings
            e = old[i]
            e = StoredEntity(i, e.stored_type, e.stored_type, set(e.labels), set(e.alts),
                             self.index.articles_of([i]).get(i, set()))
            for art, t, n, alts in self.fresh_namings[i]:
                if ENTITY_TYPES.index(t) < ENTITY_TYPES.index(e.stored_type):
                    e.type = e.stored_type = t
                e.labels.add(n)
                e.alts.update(alts)
                e.articles.add(art)
            new[i] = settle(e)
        self.names_changed = {i for i in self.e0 if (i in old) != (i in new) or (
            i in old and (old[i].names() != new[i].names() or old[i].stored_type != new[i].stored_type))}
        pk: set[str] = set()
        for i in self.e0:
            before = {k for k in ix.keys_by_entity([i], key("pk", "")).get(i, set())}
            after = {key("pk", k) for k in (_place_keys(new[i]) if i in new else set())}
            pk |= before ^ after
        self.place_change = {k.split("\x1f", 1)[1] for k in pk}
        self.vanished = {i for i in self.e0 if i not in new and not (i in old and old[i].minted)}
        self.vanished_pairs = ix.pairs6(self.vanished)
        for i in self.vanished:
            ix.drop_entity(i)
        for e in new.values():
            ix.put_entity(e, entity_keys(e, self.places, self.link_keys))
        self.places.known.clear()

    # ------------------------------------------------------------------------- Phase A: rules 1 to 4

    def seeds(self) -> set[str]:
        ix = self.index
        out = set(self.e0) - self.vanished
        out |= ix.by_keys([key("a", a) for a in self.stated_acrs] + [key("x", e) for e in self.stated_eks])
        out |= ix.by_keys([key("qp", c) for c in self.place_change])
        out |= ix.by_keys(self.old_keys)
        self.curated = {i for i in curated_iris(self.cur, self.base) if ix.entities([i], False)}
        self.curated |= {i for (i,) in ix.db.execute("SELECT iri FROM entity WHERE minted=1")}
        for entry in self.cur.of("retype"):
            i = to_iri(str(entry.values["entity"]), self.base)
            e = ix.entities([i], False).get(i)
            if e is not None:
                t = self.minter.entity(str(entry.values["type"]), e.best_label())
                if ix.entities([t], False):
                    self.curated.add(t)
        return out | self.curated

    def load(self, iris: Iterable[str]) -> dict[str, StoredEntity]:
        need = [i for i in iris if i not in self.ents]
        self.ents.update(self.index.entities(need))
        return {i: self.ents[i] for i in iris if i in self.ents}

    def region_a(self, seeds: set[str]) -> set[str]:
        """``R``: the seeds and everything rules 1 to 4 may compare with them, transitively."""
        ix = self.index
        region: set[str] = set()
        todo = set(seeds)
        while todo:
            region |= todo
            ents = self.load(todo)
            keys: set[str] = set()
            tails: set[str] = set()
            for e in ents.values():
                for k in entity_keys(e, self.places, self.link_keys):
                    kind = k.split("\x1f", 1)[0]
                    if kind in MERGE_KEYS:
                        keys.add(k)
                    elif kind == "t" and len(e.articles) == 1:
                        tails.add(e.iri)
            acrs = {k.split("\x1f")[1] for k in keys if k.startswith("a\x1f")}
            eks = {k.split("\x1f")[1] for k in keys if k.startswith("x\x1f")}
            keys |= {key("x", ek) for ek in ix.expansions_of(acrs)}
            keys |= {key("a", a) for a in ix.acronyms_of_expansions(eks)}
            if self.link_keys:
                for row in ix.stated(acrs):
                    for e in ents.values():
                        keys |= {key("l", e.type, x) for x in self.link_keys.get((e.type, _nk(row[2], e.type)), ())}
            more = ix.by_keys(keys)
            old = ix.roots4(todo)
            more |= set().union(*ix.groups4(set(old.values())).values()) if old else set()
            more |= self._heads(ents, tails)
            todo = more - region
        return region

    def _heads(self, ents: dict[str, StoredEntity], lowercase: set[str]) -> set[str]:
        """Rule 3b's both sides: the entities a common noun of the region may join, and the common
        nouns an entity of the region may take in."""
        out: set[str] = set()
        arts = {a for i in lowercase for a in ents[i].articles}
        if arts:
            around = self.load(set().union(*self.index.entities_of_articles(arts).values()))
            for i in lowercase:
                tail = words(ents[i].best_label())
                out |= {j for j, e in around.items() if e.type == ents[i].type and ents[i].articles & e.articles
                        and any(words(n)[-len(tail):] == tail for n in e.full_names())}
        tails: set[str] = set()
        for e in ents.values():
            if e.type in ("Organization", "Place"):
                for n in e.full_names():
                    ws = words(n)
                    tails |= {key("t", " ".join(ws[k:])) for k in range(1, len(ws))}
        if tails:
            cands = self.load(self.index.by_keys(tails))
            reach = set().union(*(e.articles for e in ents.values()))
            out |= {i for i, c in cands.items() if c.articles & reach}
        return out

    def phase_a(self, region: set[str]) -> _Work:
        """Rules 1 to 4 (and curation) over the region, as ``compute`` runs them over the store."""
        ix = self.index
        raw = {i: StoredEntity(i, e.stored_type, e.stored_type, e.labels, e.alts, e.articles)
               for i, e in self.load(region).items() if not e.minted}
        sub = StoreData()
        for i, e in raw.items():
            sub.entities[i] = e
            for a in e.articles:
                sub.mentions[a].add(i)
        self.refs = _Refs(self.base)
        w = _curate(sub, self.cur, self.refs, self.minter, self.notes)
        acrs = {acr for e in w.ents.values() for n in e.full_names() if (acr := acronym_of(n)) is not None}
        w.stated = ix.stated(acrs)
        w.places = self.places
        w.places_in = self.places.named_in
        first_rules(w, self.links)
        return w

    # ----------------------------------------------------------------------------------------- run

    def run(self, current: dict[str, tuple[str, str, str]], touched: Iterable[str]) -> tuple[
            Resolution, dict[str, list[str]], dict[str, list[str]]]:
        ix = self.index
        self.read(current, touched)
        self.refresh_entities()
        region = self.region_a(self.seeds())
        old_root4 = ix.roots4(region)
        old_root4.update({i: r for i, r in self.old_root4.items() if i in self.vanished})
        old_groups = ix.groups4(set(old_root4.values()))
        old_minted = {i for i in region if i in self.ents and self.ents[i].minted}
        w = self.phase_a(region)
        look = MemoryLook(w)
        root4 = {i: min(look.group(r)) for i, r in look.roots.items()}
        self.ents = dict(w.ents)
        for i in old_minted - set(w.ents):
            ix.drop_entity(i)
        for e in w.ents.values():
            ix.put_entity(e, entity_keys(e, self.places, self.link_keys))
        ix.set_roots4((i, root4[i], sorted(w.expansion_names.get(i, ()))) for i in w.ents)
        changed4 = {i for i in w.ents if old_groups.get(old_root4.get(i, ""), {i}) != look.group(look.roots[i])}
        changed4 |= {m for i in self.vanished for m in old_groups.get(old_root4.get(i, ""), set())}
        moved4 = _moved({i: old_root4.get(i, i) for i in w.ents}, root4)

        edges_changed = self.phase_b(w, region, changed4, moved4)
        pair_ends = self.rule6(w.split)
        final = self.region_f(region | edges_changed | pair_ends | self.names_reach(pair_ends) | self.curated)
        res, canonical = self.clusters(final, w)
        lines, old_lines = self.emit(res, final, canonical)
        self.change.reached, self.change.clusters = len(final), len(res.clusters)
        res.change = self.change
        return res, lines, old_lines

    # ------------------------------------------------------------------------------ Phase B: 5 and 6

    def phase_b(self, w: _Work, region: set[str], changed4: set[str], moved4: set[str]) -> set[str]:
        """Rule 5 again for the short names the change reaches; the entities whose join changed."""
        ix = self.index
        touched = (self.e0 - self.vanished) | changed4
        touched |= ix.evidence_users(moved4) if moved4 else set()
        roots = ix.roots4(touched)
        groups = ix.groups4(set(roots.values()))
        persons = {i for g in groups.values() for i in g} | touched
        ents = self.load(persons)
        person_ents = {i: e for i, e in ents.items() if e.type == "Person"}
        shorts = set(person_ents)
        words_of: dict[str, set[str]] = {}
        for i, e in person_ents.items():
            names = e.full_names() | self.old_names.get(i, set())
            words_of[i] = {wd for n in names for wd in person_words(n)}
        for i, old in self.old_names.items():
            if i in self.vanished:
                words_of[i] = {wd for n in old for wd in person_words(n)}
        all_words = set().union(*words_of.values()) if words_of else set()
        cands = self.load(ix.by_keys([key("s", wd) for wd in all_words]))
        for s, e in cands.items():
            mine = set(person_words(e.best_label()))
            if e.type == "Person" and any(mine <= ws for ws in words_of.values()):
                shorts.add(s)
        auto = {i for i in shorts if i in self.ents and self.ents[i].type == "Person" and i not in w.split}
        look = IndexLook(ix, w.split, self.ents)
        new = {s: min(look.group(r)) for s, r in short_name_decisions(sorted(auto), look)}
        before = ix.edges5(shorts)
        ix.set_edges5(shorts, new)
        out: set[str] = set()
        for s in shorts:
            a, b = before.get(s), new.get(s)
            if (a is None) != (b is None) or (a is not None and b is not None and look.root(a) != look.root(b)):
                out |= {s, *(x for x in (a, b) if x is not None)}
        self.edges_new = new
        return out

    def rule6(self, split: set[str]) -> set[str]:
        """Rule 6's candidate pairs again for the organizations and places whose names or articles
        changed; every entity of a pair they were or are in (its direction may have changed)."""
        ix = self.index
        ents = self.load(self.e0 - self.vanished)
        mine = {i: e for i, e in ents.items() if e.type in ("Organization", "Place") and i not in split}
        old = ix.pairs6(self.e0) | self.vanished_pairs
        new: set[tuple[str, str]] = set()
        for i, e in mine.items():
            keys = {key("6", k) for n in e.names() for k in swap_keys(n)}
            for j, other in self.load(ix.by_keys(keys) - {i}).items():
                if j not in split and e.articles & other.articles and swapped(e, other):
                    new.add((min(i, j), max(i, j)))
        ix.set_pairs6(self.e0, new)
        return {x for p in old | new for x in p}

    def names_reach(self, ends: set[str]) -> set[str]:
        """The entities that share a name with one whose misspelt status may have changed (rule 6
        never takes a misspelt name for a label, in any cluster)."""
        if not ends:
            return set()
        names = set().union(*(e.names() for e in self.load(ends).values()))
        names |= {n for i in ends if i in self.old_all_names for n in self.old_all_names[i]}
        return self.index.by_keys([key("nm", n) for n in names])

    # -------------------------------------------------------------------------------- the clusters

    def region_f(self, seeds: set[str]) -> set[str]:
        """``F``: the seeds and everything joined to them, before or now."""
        ix = self.index
        for i in self.vanished:
            seeds |= ix.clusters_of([self.old_canon.get(i, i)]).get(self.old_canon.get(i, i), set())
        region: set[str] = set()
        todo = set(seeds) - self.vanished
        while todo:
            region |= todo
            more: set[str] = set()
            canon = ix.canonicals(todo)
            more |= set().union(*ix.clusters_of(set(canon.values())).values()) if canon else set()
            roots = ix.roots4(todo)
            more |= set().union(*ix.groups4(set(roots.values())).values()) if roots else set()
            more |= set(ix.edges5(todo).values()) | ix.shorts_to(todo)
            more |= {x for p in ix.pairs6(todo) for x in p}
            todo = more - region
        return region

    def clusters(self, final: set[str], wa: _Work) -> tuple[Resolution, dict[str, str]]:
        """The final clusters of ``F``: its clusters after rules 1 to 4, joined by rules 5 and 6 in
        the order ``compute`` joins them, named as ``rules._clusters`` names them."""
        ix = self.index
        ents = self.load(final)
        for i in final & set(wa.ents):
            ents[i] = wa.ents[i]
        uf = Clusters(sorted(ents))
        for entry in self.cur.of("never_merge"):
            iris = [i for r in entry.entities if (i := to_iri(str(r), self.base)) in ents]
            for k, a in enumerate(iris):
                for b in iris[k + 1:]:
                    uf.ban(a, b)
        roots = ix.roots4(ents)
        by_root: dict[str, list[str]] = defaultdict(list)
        for i in sorted(ents):
            by_root[roots.get(i, i)].append(i)
        for members in by_root.values():
            for m in members[1:]:
                uf.union(members[0], m, "rules 1 to 4")
        edges = ix.edges5(ents)
        order = sorted(edges, key=lambda s: (len(person_words(ents[s].best_label())), s))
        for s in order:
            if edges[s] in ents:
                uf.union(edges[s], s, "short name")
        pairs = {p for p in ix.pairs6(ents) if p[0] in ents and p[1] in ents}
        misspelt = misspellings(pairs, {i: len(ents[i].articles) for p in pairs for i in p})
        for wrong, right in misspelt:
            uf.union(right, wrong, "misspelling")
        names = set().union(*(e.names() for e in ents.values())) if ents else set()
        w = _Work(StoreData(), ents, uf, wa.split, sorted(i for i in ents if i not in wa.split and ents[i].type != "Group"))
        w.wrong_names = names & self.wrong_names(names)
        held = ix.expansions(set(ents) - set(wa.ents))
        for i in ents:
            w.expansion_names[i] = set(wa.expansion_names.get(i, set())) if i in wa.ents else held.get(i, set())
        for link in self.links:
            from ..model.names import name_key

            w.link_keys[(link.type, name_key(link.label, link.type))].add(link.iri)
        w.counter = lambda data, e, u: {}
        self.refs.ents = ents
        res = _clusters(w, self.cur, self.refs, self.notes)
        canonical = {uf.find(m): cl.canonical for cl in res.clusters for m in cl.members}
        for i in ents:
            canonical.setdefault(uf.find(i), i)
        self.uf, self.final_ents = uf, ents
        return res, canonical

    def wrong_names(self, names: set[str]) -> set[str]:
        """Of some names, those of an entity rule 6 takes for a slip (anywhere in the store)."""
        ix = self.index
        pairs = ix.pairs6(ix.by_keys([key("nm", n) for n in names]))
        if not pairs:  # the names' holders are in no misspelling pair
            return set()
        ends = self.load({x for p in pairs for x in p})
        wrong = {a for a, _ in misspellings(pairs, {i: len(ends[i].articles) if i in ends else 0
                                                    for p in pairs for i in p})}
        return {n for i in wrong if i in ends for n in ends[i].names()}

    # ------------------------------------------------------------------------------ counts and lines

    def emit(self, res: Resolution, final: set[str], canonical: dict[str, str]) -> tuple[
            dict[str, list[str]], dict[str, list[str]]]:
        """The resolution graph's lines of every owner the change reaches: (new, old), by owner."""
        ix = self.index
        old_canon = ix.canonicals(final)
        old_canon.update({i: c for i, c in self.old_canon.items() if i in self.vanished})
        new_canon = {m: cl.canonical for cl in res.clusters for m in cl.members}
        owners = {"c " + c for c in old_canon.values()} | {"c " + c for c in new_canon.values()}
        terms = _terms()
        lines: dict[str, list[str]] = {}
        for cl in res.clusters:
            lines["c " + cl.canonical] = cluster_lines(terms, cl, self.final_ents)
        # the articles to count again: the new and changed ones, those of the entities whose names changed
        # and those where two of their entities were joined or parted
        moved = _moved(old_canon, {i: new_canon.get(i, i) for i in final})
        recount_cands = (self.fresh | set().union(*ix.articles_of(
            (self.names_changed - self.vanished) | moved).values())) - (self.changed_articles - self.fresh)
        roots = Roots(self.uf, canonical, ix)
        recounted = self.count(recount_cands, roots)
        reemit = recounted | set().union(*ix.articles_of(
            {i for i in final if old_canon.get(i) != new_canon.get(i)}).values())
        reemit |= self.fresh
        counts = ix.counts(reemit)
        ids = ix.article_ids(reemit)
        roots.prefetch({m for _, groups in counts.values() for ms, _ in groups for m in ms})
        for art, (_, groups) in counts.items():
            lines["m " + art] = mention_lines(terms, self.minter, art, ids.get(art, art),
                                              [(roots.find(ms[0]), n) for ms, n in groups])
        owners |= {"m " + a for a in reemit}
        labels = ix.role_labels(self.roles)
        for r in self.roles:
            lines["r " + r] = role_lines(terms, r, labels.get(r, set()))
        owners |= {"r " + r for r in self.roles}
        if self.classes:
            present = ix.classes_present(_all_classes())
            lines["k"] = class_lines(terms, present)
            owners.add("k")
        old = ix.lines(owners)
        old.update(self.old_mentions)
        old[" written"] = sorted(self.written_lines)  # owned by the owners above: kept if they still say them
        self.owners = owners | set(self.old_mentions)
        self.change.counted = sorted(recounted)
        return lines, old

    def count(self, arts: set[str], roots: Roots) -> set[str]:
        """Count mentions again in the articles whose signature changed; the articles counted."""
        ix = self.index
        if not arts:
            return set()
        by_art = ix.entities_of_articles(arts)
        self.load(set().union(*by_art.values()) if by_art else set())
        ents = dict(self.ents)
        ents.update(self.final_ents)
        roots.prefetch(set().union(*by_art.values()) if by_art else set())
        held = ix.counts(arts)
        todo = []
        for art in sorted(arts):
            iris = by_art.get(art, set())
            sig, order, names, groups = article_signature(iris, ents, roots)
            had = held.get(art)
            if art in self.fresh or had is None or had[0] != sig or len(had[1]) != len(order):
                todo.append((art, sig, order, names, groups))
        missing = [a for a, *_ in todo if a not in self.texts]
        if missing:
            graphs = ix.graphs_of(missing)
            article_of = {g: a for a, g in graphs.items()}
            rows = self.store.select(Q_TEXTS % {"only": only_graphs(sorted(graphs.values()))})
            self.texts.update({article_of.get(r["g"] or "", ""): r["text"] or "" for r in rows})
        for art, sig, order, names, groups in todo:
            found = count_in_text(self.texts.get(art, ""), names)
            ix.set_counts(art, sig, [(groups[r], max(1, found.get(r, 0))) for r in order])
        return {a for a, *_ in todo}


def _moved(old: dict[str, str], new: dict[str, str]) -> set[str]:
    """The entities whose cluster changed other than by others joining or leaving it: for each new
    cluster, its members outside the largest part of it that was one cluster before, and for each old
    cluster, its members outside the largest part that stays one now."""
    out: set[str] = set()
    for a, b in ((old, new), (new, old)):
        parts: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for i in b:
            parts[b[i]][a.get(i, "\x00" + i)].add(i)
        for split in parts.values():
            if len(split) > 1:
                biggest = max(split, key=lambda k: (len(split[k]), k))
                out |= {i for k, ms in split.items() if k != biggest for i in ms}
    return out


def _place_keys(e: StoredEntity) -> set[str]:
    from .rules import place_keys

    return place_keys(e)


def _nk(name: str, etype: str) -> str:
    from ..model.names import name_key

    return name_key(name, etype)


def _terms() -> Any:
    from ..rdf.mapping import Terms

    return Terms()


def _all_classes() -> list[str]:
    from ..model.cameo import CAMEO_ROOTS
    from ..model.vocab import CAMEO_NS

    return [f"{CAMEO_NS}{code}" for code in sorted(CAMEO_ROOTS)]
