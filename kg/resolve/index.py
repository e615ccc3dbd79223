"""The resolution index: what the rules need of every article and entity of the store, kept on disk
beside it (``kg-resolution.sqlite`` in an embedded store's directory; in memory for any other store,
for the life of the handle) so that an incremental resolution looks up what a change reaches instead
of reading the store (``kg.resolve.increment``).

Per article: what resolution reads of its graph (namings, fact partners, memberships, role labels,
event classes; not its text), the acronym pairs its text states, and its mention counts with the
signature they were counted under. Per entity: its names and type (the union of its namings), the
keys the rules match it by (``entity_keys``), its cluster after rules 1 to 4 (``root4``) and after all
rules (``canonical``), and the expansions rule 2 gave it. Per decision: rule 5's (a short name and the
entity whose cluster it joined) and rule 6's candidate pairs. And the resolution graph's lines, by
owner (a cluster, an article's mention records, a role, the event classes), so a change rewrites only
the lines of the owners it reaches. The index is used only for the graph it was written with (the
same ``kg:inputDigest``); anything else starts it again from the article graphs.
"""
from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..model.facts import ENTITY_TYPES
from ..model.names import name_key, person_words, strip_name, words
from ..store import Store
from .acronyms import acronym_of
from .data import ArticleData, StoredEntity, settle
from .linking import Link
from .rules import place_keys, swap_keys

#: The index file in an embedded store's directory.
INDEX_FILE = "kg-resolution.sqlite"
#: Bumped whenever the tables change: an index of another version is started again.
VERSION = "2"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS article (graph TEXT PRIMARY KEY, iri TEXT, id TEXT, hash TEXT, layout TEXT,
  sig TEXT, counts TEXT, events INTEGER, roles INTEGER);
CREATE INDEX IF NOT EXISTS article_iri ON article(iri);
CREATE TABLE IF NOT EXISTS naming (article TEXT, entity TEXT, type TEXT, name TEXT, alts TEXT);
CREATE INDEX IF NOT EXISTS naming_article ON naming(article);
CREATE INDEX IF NOT EXISTS naming_entity ON naming(entity);
CREATE TABLE IF NOT EXISTS partner (article TEXT, x TEXT, y TEXT);
CREATE INDEX IF NOT EXISTS partner_article ON partner(article);
CREATE INDEX IF NOT EXISTS partner_x ON partner(x);
CREATE INDEX IF NOT EXISTS partner_y ON partner(y);
CREATE TABLE IF NOT EXISTS member (article TEXT, person TEXT, org TEXT, role TEXT);
CREATE INDEX IF NOT EXISTS member_article ON member(article);
CREATE INDEX IF NOT EXISTS member_person ON member(person);
CREATE INDEX IF NOT EXISTS member_org ON member(org);
CREATE TABLE IF NOT EXISTS rolelabel (article TEXT, role TEXT, label TEXT);
CREATE INDEX IF NOT EXISTS rolelabel_article ON rolelabel(article);
CREATE INDEX IF NOT EXISTS rolelabel_role ON rolelabel(role);
CREATE TABLE IF NOT EXISTS class (article TEXT, cls TEXT);
CREATE INDEX IF NOT EXISTS class_article ON class(article);
CREATE INDEX IF NOT EXISTS class_cls ON class(cls);
CREATE TABLE IF NOT EXISTS stated (article TEXT, acr TEXT, ek TEXT, exp TEXT);
CREATE INDEX IF NOT EXISTS stated_article ON stated(article);
CREATE INDEX IF NOT EXISTS stated_acr ON stated(acr);
CREATE INDEX IF NOT EXISTS stated_ek ON stated(ek);
CREATE TABLE IF NOT EXISTS entity (iri TEXT PRIMARY KEY, type TEXT, stored_type TEXT, labels TEXT, alts TEXT,
  minted INTEGER, root4 TEXT, canonical TEXT, expansions TEXT);
CREATE INDEX IF NOT EXISTS entity_root4 ON entity(root4);
CREATE INDEX IF NOT EXISTS entity_canonical ON entity(canonical);
CREATE INDEX IF NOT EXISTS entity_minted ON entity(minted);
CREATE TABLE IF NOT EXISTS key (k TEXT, entity TEXT);
CREATE INDEX IF NOT EXISTS key_k ON key(k);
CREATE INDEX IF NOT EXISTS key_entity ON key(entity);
CREATE TABLE IF NOT EXISTS edge5 (short TEXT PRIMARY KEY, target TEXT);
CREATE INDEX IF NOT EXISTS edge5_target ON edge5(target);
CREATE TABLE IF NOT EXISTS pair6 (a TEXT, b TEXT);
CREATE INDEX IF NOT EXISTS pair6_a ON pair6(a);
CREATE INDEX IF NOT EXISTS pair6_b ON pair6(b);
CREATE TABLE IF NOT EXISTS line (owner TEXT, text TEXT);
CREATE INDEX IF NOT EXISTS line_owner ON line(owner);
"""

_SEP = "\x1f"
#: Rows per ``IN (...)`` list (SQLite allows 999 parameters in older builds).
_CHUNK = 900


def key(*parts: str) -> str:
    """One key of ``entity_keys``: its kind and values."""
    return _SEP.join(parts)


def qualified_splits(name: str) -> Iterator[tuple[str, str]]:
    """Rule 3: (country key, rest key) of the ways a name can read as a country and an organization."""
    toks = strip_name(name).split()
    for q in range(1, min(3, len(toks) - 1) + 1):
        rest = "".join(words(" ".join(toks[q:])))
        if rest:
            yield name_key(" ".join(toks[:q]), "Place"), rest


def entity_keys(e: StoredEntity, is_place: Any, links: dict[tuple[str, str], set[str]]) -> set[str]:
    """The keys by which a change finds the entities the rules may compare with ``e``: its full names
    (rule 1, and the linking table's IRIs), acronyms and expansions (rule 2), qualified and bare
    organization names and the words they are split at (rule 3), the tail of a common noun (3b),
    person words (rule 5), swap keys (rule 6), every name (rule 6's wrong names) and place keys."""
    out: set[str] = {key("nm", n) for n in e.names()}
    if e.type == "Group":  # local to its article: no rule joins it
        return out
    full = e.full_names()
    for n in full:
        k = name_key(n, e.type)
        if k:
            out.add(key("n", e.type, k))
            for ext in links.get((e.type, k), ()):
                out.add(key("l", e.type, ext))
        acr = acronym_of(n)
        if acr is not None:
            out.add(key("a", acr))
        out.add(key("x", "".join(words(n))))
    if e.type == "Organization":
        for n in full:
            out.add(key("q", "".join(words(strip_name(n)))))
            for country, rest in qualified_splits(n):
                out.add(key("qp", country))
                out.add(key("qp", rest))
                if country in is_place and rest not in is_place:
                    out.add(key("q", rest))
    lab = e.best_label()
    if e.type in ("Organization", "Place") and not any(ch.isupper() for ch in lab) and words(lab):
        out.add(key("t", " ".join(words(lab))))
    if e.type == "Person":
        for n in full:
            out.update(key("p", w) for w in person_words(n))
        out.update(key("s", w) for w in person_words(lab))
    if e.type in ("Organization", "Place"):
        for n in e.names():
            out.update(key("6", k) for k in swap_keys(n))
    out.update(key("pk", k) for k in place_keys(e))
    return out


def chunks(items: Iterable[str], size: int = _CHUNK) -> Iterator[list[str]]:
    batch: list[str] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Index:
    """The SQLite tables of the module docstring, with the look-ups resolution makes."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db = sqlite3.connect(str(path) if path is not None else ":memory:", check_same_thread=False,
                                  isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL" if path is not None else "PRAGMA journal_mode=MEMORY")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA cache_size=-16000")  # 16 MB of pages, whatever the store's size
        self.db.executescript(_SCHEMA)
        self._articles: dict[str, tuple[str, str, str]] | None = None

    # ----------------------------------------------------------------------------- meta, transactions

    def meta(self, k: str) -> str:
        row = self.db.execute("SELECT v FROM meta WHERE k=?", (k,)).fetchone()
        return row[0] if row else ""

    def set_meta(self, k: str, v: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (k, v))

    def begin(self) -> None:
        self.db.execute("BEGIN")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        self._articles = None
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def clear(self) -> None:
        self._articles = None
        for (table,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            self.db.execute(f"DELETE FROM {table}")

    def drop(self) -> None:
        """Every table made again, empty (an index written by another version of this module)."""
        self._articles = None
        for (table,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            self.db.execute(f"DROP TABLE {table}")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.rollback()
        self.db.close()

    def select_in(self, sql: str, items: Iterable[str], *before: str) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` whose ``IN (%s)`` is filled with ``items`` (in chunks)."""
        out: list[tuple[Any, ...]] = []
        for batch in chunks(sorted(set(items))):
            out.extend(self.db.execute(sql % ",".join("?" * len(batch)), (*before, *batch)).fetchall())
        return out

    def grouped_in(self, sql: str, items: Iterable[str]) -> dict[str, set[str]]:
        """The rows of ``select_in`` (key, member) as each key's set of members."""
        out: dict[str, set[str]] = defaultdict(set)
        for key, member in self.select_in(sql, items):
            out[key].add(member)
        return out

    def delete_in(self, sql: str, items: Iterable[str]) -> None:
        for batch in chunks(sorted(set(items))):
            self.db.execute(sql % ",".join("?" * len(batch)), batch)

    # ------------------------------------------------------------------------------------ articles

    def articles(self) -> dict[str, tuple[str, str, str]]:
        """graph -> (article IRI, content hash, layout) of every article held (read once a resolution)."""
        if self._articles is None:
            self._articles = {g: (a, h, v) for g, a, h, v in self.db.execute("SELECT graph, iri, hash, layout FROM article")}
        return self._articles

    def has_articles(self) -> bool:
        return self.db.execute("SELECT 1 FROM article LIMIT 1").fetchone() is not None

    def totals(self) -> dict[str, int] | None:
        """Articles, events and roles of the store (None: the sizes of some article are not known)."""
        n, events, roles, unknown = self.db.execute(
            "SELECT COUNT(*), SUM(events), SUM(roles), SUM(events IS NULL) FROM article").fetchone()
        return None if unknown else {"articles": n, "events": events or 0, "roles": roles or 0}

    def set_sizes(self, sizes: Iterable[tuple[str, int, int]]) -> None:
        """(article IRI, events, roles) of articles read whole."""
        self.db.executemany("UPDATE article SET events=?, roles=? WHERE iri=?", [(e, r, a) for a, e, r in sizes])

    def article_ids(self, iris: Iterable[str]) -> dict[str, str]:
        return dict(self.select_in("SELECT iri, id FROM article WHERE iri IN (%s)", iris))

    def graphs_of(self, iris: Iterable[str]) -> dict[str, str]:
        """article IRI -> its graph."""
        return dict(self.select_in("SELECT iri, graph FROM article WHERE iri IN (%s)", iris))

    def article_rows(self, art: str) -> dict[str, Any]:
        """What the index holds of one article (by IRI), for what its removal changes."""
        one = (art,)
        return {
            "entities": {e for (e,) in self.db.execute("SELECT entity FROM naming WHERE article=?", one)},
            "partners": {x for row in self.db.execute("SELECT x, y FROM partner WHERE article=?", one) for x in row},
            "members": {x for row in self.db.execute("SELECT person, org FROM member WHERE article=?", one) for x in row},
            "roles": {r for (r,) in self.db.execute("SELECT role FROM rolelabel WHERE article=?", one)},
            "classes": {c for (c,) in self.db.execute("SELECT cls FROM class WHERE article=?", one)},
            "stated": set(self.db.execute("SELECT acr, ek FROM stated WHERE article=?", one).fetchall()),
        }

    def drop_article(self, graph: str, art: str) -> None:
        self._articles = None
        self.db.execute("DELETE FROM article WHERE graph=?", (graph,))
        for table in ("naming", "partner", "member", "rolelabel", "class", "stated"):
            self.db.execute(f"DELETE FROM {table} WHERE article=?", (art,))
        self.db.execute("DELETE FROM line WHERE owner=?", ("m " + art,))

    def add_article(self, a: ArticleData, pairs: list[tuple[str, str]]) -> None:
        self._articles = None
        self.db.execute("INSERT OR REPLACE INTO article VALUES (?, ?, ?, ?, ?, '', '[]', ?, ?)",
                        (a.graph, a.iri, a.id, a.hash, a.layout, a.events, a.roles))
        self.db.executemany("INSERT INTO naming VALUES (?, ?, ?, ?, ?)",
                            [(a.iri, e, t, n, json.dumps(list(alts), ensure_ascii=False)) for e, t, n, alts in a.namings])
        self.db.executemany("INSERT INTO partner VALUES (?, ?, ?)", [(a.iri, x, y) for x, y in sorted(a.partners)])
        self.db.executemany("INSERT INTO member VALUES (?, ?, ?, ?)", [(a.iri, *m) for m in sorted(a.members)])
        self.db.executemany("INSERT INTO rolelabel VALUES (?, ?, ?)", [(a.iri, *r) for r in sorted(a.role_labels)])
        self.db.executemany("INSERT INTO class VALUES (?, ?)", [(a.iri, c) for c in sorted(a.classes)])
        self.db.executemany("INSERT INTO stated VALUES (?, ?, ?, ?)",
                            [(a.iri, acr, "".join(words(exp)), exp) for acr, exp in pairs])

    def counts(self, arts: Iterable[str]) -> dict[str, tuple[str, list[tuple[list[str], int]]]]:
        """article IRI -> (signature, [(the article's entities of one cluster, mentions)])."""
        return {a: (sig, [(list(ms), int(n)) for ms, n in json.loads(c)])
                for a, sig, c in self.select_in("SELECT iri, sig, counts FROM article WHERE iri IN (%s)", arts)}

    def set_counts(self, art: str, sig: str, groups: list[tuple[list[str], int]]) -> None:
        self.db.execute("UPDATE article SET sig=?, counts=? WHERE iri=?",
                        (sig, json.dumps(groups, ensure_ascii=False, separators=(",", ":")), art))

    def stated(self, acrs: Iterable[str]) -> list[tuple[str, str, str]]:
        """(article, acronym, expansion) of the pairs the texts state for some acronyms."""
        return sorted(self.select_in("SELECT article, acr, exp FROM stated WHERE acr IN (%s)", acrs))

    def acronyms_of_expansions(self, eks: Iterable[str]) -> set[str]:
        return {a for (a,) in self.select_in("SELECT DISTINCT acr FROM stated WHERE ek IN (%s)", eks)}

    def expansions_of(self, acrs: Iterable[str]) -> set[str]:
        return {e for (e,) in self.select_in("SELECT DISTINCT ek FROM stated WHERE acr IN (%s)", acrs)}

    def role_labels(self, roles: Iterable[str]) -> dict[str, set[str]]:
        return self.grouped_in("SELECT DISTINCT role, label FROM rolelabel WHERE role IN (%s)", roles)

    def classes_present(self, classes: Iterable[str]) -> set[str]:
        return {c for c in classes if self.db.execute("SELECT 1 FROM class WHERE cls=? LIMIT 1", (c,)).fetchone()}

    # ------------------------------------------------------------------------------------ entities

    def namings_of(self, iris: Iterable[str]) -> dict[str, StoredEntity]:
        """Entities as their namings describe them now (stored type, labels, other names, articles)."""
        out: dict[str, StoredEntity] = {}
        for art, e, t, n, alts in self.select_in("SELECT article, entity, type, name, alts FROM naming "
                                                 "WHERE entity IN (%s)", iris):
            ent = out.get(e)
            if ent is None:
                ent = out[e] = StoredEntity(e, t, t)
            elif ENTITY_TYPES.index(t) < ENTITY_TYPES.index(ent.stored_type):
                ent.type = ent.stored_type = t
            ent.labels.add(n)
            ent.alts.update(json.loads(alts))
            ent.articles.add(art)
        return {i: settle(e) for i, e in out.items()}

    def entities(self, iris: Iterable[str], articles: bool = True) -> dict[str, StoredEntity]:
        """Entities as the index holds them (the effective type, after curation's retypes)."""
        out: dict[str, StoredEntity] = {}
        for i, t, st, labels, alts, minted in self.select_in(
                "SELECT iri, type, stored_type, labels, alts, minted FROM entity WHERE iri IN (%s)", iris):
            out[i] = StoredEntity(i, t, st, set(json.loads(labels)), set(json.loads(alts)), set(), minted=bool(minted))
        if articles:
            for e, a in self.select_in("SELECT entity, article FROM naming WHERE entity IN (%s)", out):
                out[e].articles.add(a)
        return out

    def all_entities(self) -> set[str]:
        return {i for (i,) in self.db.execute("SELECT iri FROM entity")}

    def put_entity(self, e: StoredEntity, keys: set[str]) -> None:
        self.db.execute("INSERT INTO entity (iri, type, stored_type, labels, alts, minted, root4, canonical, expansions) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]') ON CONFLICT(iri) DO UPDATE SET type=excluded.type, "
                        "stored_type=excluded.stored_type, labels=excluded.labels, alts=excluded.alts, "
                        "minted=excluded.minted",
                        (e.iri, e.type, e.stored_type, json.dumps(sorted(e.labels), ensure_ascii=False),
                         json.dumps(sorted(e.alts), ensure_ascii=False), int(e.minted), e.iri, e.iri))
        self.db.execute("DELETE FROM key WHERE entity=?", (e.iri,))
        self.db.executemany("INSERT INTO key VALUES (?, ?)", [(k, e.iri) for k in sorted(keys)])

    def drop_entity(self, iri: str) -> None:
        for sql in ("DELETE FROM entity WHERE iri=?", "DELETE FROM key WHERE entity=?", "DELETE FROM edge5 WHERE short=?",
                    "DELETE FROM pair6 WHERE a=?", "DELETE FROM pair6 WHERE b=?"):
            self.db.execute(sql, (iri,))

    def by_keys(self, keys: Iterable[str]) -> set[str]:
        return {e for (e,) in self.select_in("SELECT DISTINCT entity FROM key WHERE k IN (%s)", keys)}

    def keys_by_entity(self, iris: Iterable[str], prefix: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = defaultdict(set)
        for e, k in self.select_in("SELECT entity, k FROM key WHERE entity IN (%s)", iris):
            if k.startswith(prefix):
                out[e].add(k)
        return out

    def has_key(self, k: str) -> bool:
        return self.db.execute("SELECT 1 FROM key WHERE k=? LIMIT 1", (k,)).fetchone() is not None

    def entities_of_articles(self, arts: Iterable[str]) -> dict[str, set[str]]:
        return self.grouped_in("SELECT article, entity FROM naming WHERE article IN (%s)", arts)

    def articles_of(self, iris: Iterable[str]) -> dict[str, set[str]]:
        return self.grouped_in("SELECT entity, article FROM naming WHERE entity IN (%s)", iris)

    def roots4(self, iris: Iterable[str]) -> dict[str, str]:
        return dict(self.select_in("SELECT iri, root4 FROM entity WHERE iri IN (%s)", iris))

    def groups4(self, roots: Iterable[str]) -> dict[str, set[str]]:
        return self.grouped_in("SELECT root4, iri FROM entity WHERE root4 IN (%s)", roots)

    def canonicals(self, iris: Iterable[str]) -> dict[str, str]:
        return dict(self.select_in("SELECT iri, canonical FROM entity WHERE iri IN (%s)", iris))

    def clusters_of(self, canonicals: Iterable[str]) -> dict[str, set[str]]:
        return self.grouped_in("SELECT canonical, iri FROM entity WHERE canonical IN (%s)", canonicals)

    def expansions(self, iris: Iterable[str]) -> dict[str, set[str]]:
        return {i: set(json.loads(x)) for i, x in self.select_in("SELECT iri, expansions FROM entity WHERE iri IN (%s)", iris)}

    def set_clusters(self, rows: Iterable[tuple[str, str, str, list[str]]]) -> None:
        """(entity, root after rules 1-4, canonical, expansions)."""
        self.db.executemany("UPDATE entity SET root4=?, canonical=?, expansions=? WHERE iri=?",
                            [(r4, c, json.dumps(sorted(x), ensure_ascii=False), i) for i, r4, c, x in rows])

    def set_roots4(self, rows: Iterable[tuple[str, str, list[str]]]) -> None:
        """(entity, root after rules 1-4, expansions)."""
        self.db.executemany("UPDATE entity SET root4=?, expansions=? WHERE iri=?",
                            [(r4, json.dumps(sorted(x), ensure_ascii=False), i) for i, r4, x in rows])

    def set_canonicals(self, rows: Iterable[tuple[str, str]]) -> None:
        self.db.executemany("UPDATE entity SET canonical=? WHERE iri=?", [(c, i) for i, c in rows])

    def evidence_rows(self, iris: Iterable[str]) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
        """(person -> organizations, person -> role IRIs, entity -> fact partners) of some entities."""
        orgs: dict[str, set[str]] = defaultdict(set)
        roles: dict[str, set[str]] = defaultdict(set)
        partners: dict[str, set[str]] = defaultdict(set)
        items = list(iris)
        for p, o, r in self.select_in("SELECT person, org, role FROM member WHERE person IN (%s)", items):
            orgs[p].add(o)
            roles[p].add(r)
        for x, y in self.select_in("SELECT x, y FROM partner WHERE x IN (%s)", items):
            partners[x].add(y)
        for x, y in self.select_in("SELECT x, y FROM partner WHERE y IN (%s)", items):
            partners[y].add(x)
        return orgs, roles, partners

    def evidence_users(self, iris: Iterable[str]) -> set[str]:
        """The persons whose evidence (rule 5) names one of these entities: members of them, partners of them."""
        items = list(iris)
        out = {p for (p,) in self.select_in("SELECT person FROM member WHERE org IN (%s)", items)}
        out |= {y for (y,) in self.select_in("SELECT y FROM partner WHERE x IN (%s)", items)}
        out |= {x for (x,) in self.select_in("SELECT x FROM partner WHERE y IN (%s)", items)}
        return out

    # ------------------------------------------------------------------------------- rules 5 and 6

    def edges5(self, shorts: Iterable[str]) -> dict[str, str]:
        return dict(self.select_in("SELECT short, target FROM edge5 WHERE short IN (%s)", shorts))

    def shorts_to(self, targets: Iterable[str]) -> set[str]:
        return {s for (s,) in self.select_in("SELECT short FROM edge5 WHERE target IN (%s)", targets)}

    def set_edges5(self, shorts: Iterable[str], edges: dict[str, str]) -> None:
        self.delete_in("DELETE FROM edge5 WHERE short IN (%s)", shorts)
        self.db.executemany("INSERT INTO edge5 VALUES (?, ?)", sorted(edges.items()))

    def pairs6(self, iris: Iterable[str]) -> set[tuple[str, str]]:
        items = list(iris)
        return set(self.select_in("SELECT a, b FROM pair6 WHERE a IN (%s)", items)) | \
            set(self.select_in("SELECT a, b FROM pair6 WHERE b IN (%s)", items))

    def set_pairs6(self, iris: Iterable[str], pairs: Iterable[tuple[str, str]]) -> None:
        items = list(iris)
        self.delete_in("DELETE FROM pair6 WHERE a IN (%s)", items)
        self.delete_in("DELETE FROM pair6 WHERE b IN (%s)", items)
        self.db.executemany("INSERT INTO pair6 VALUES (?, ?)", sorted(set(pairs)))

    # ------------------------------------------------------------------------------------- lines

    def lines(self, owners: Iterable[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for o, t in self.select_in("SELECT owner, text FROM line WHERE owner IN (%s)", owners):
            out[o].append(t)
        return out

    def set_lines(self, owners: Iterable[str], lines: Mapping[str, Iterable[str]]) -> None:
        self.delete_in("DELETE FROM line WHERE owner IN (%s)", owners)
        self.db.executemany("INSERT INTO line VALUES (?, ?)", [(o, t) for o, ts in lines.items() for t in ts])


def index_path(store: Store) -> Path | None:
    """Where an embedded store keeps its index (None: in memory)."""
    path = getattr(store, "path", None)
    return Path(path) / INDEX_FILE if isinstance(path, Path) and not getattr(store, "read_only", False) else None


def open_index(store: Store) -> Index:
    """The store's index (made empty when it cannot be read: the next resolution starts it again)."""
    held = store.__dict__.get("_kg_resolution_index")
    if isinstance(held, Index):
        return held
    path = index_path(store)
    try:
        index = Index(path)
        if index.meta("version") != VERSION:  # new, or tables of another version: made again
            index.drop()
    except sqlite3.DatabaseError:
        if path is not None:
            for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                p.unlink(missing_ok=True)
        index = Index(path)
    store.__dict__["_kg_resolution_index"] = index
    return index


def link_table(links: list[Link]) -> dict[tuple[str, str], set[str]]:
    """(type, name key) -> the external IRIs the linking table gives it."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for link in links:
        out[(link.type, name_key(link.label, link.type))].add(link.iri)
    return out
