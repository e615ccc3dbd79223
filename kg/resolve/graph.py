"""The resolution graph, ``{base}resolution``: written from a resolution (the shared descriptions and the
clusters), recomputed when its inputs change, and read back.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import TYPE_CHECKING, Callable, Iterable

from ..model.facts import ENTITY_TYPES
from ..model.iris import Minter
from ..model.vocab import sparql_prefixes
from ..store import Row, Store
from .curation import Curation, dumps
from .curation import load as load_curation
from .linking import Link, linking_path, load_links

if TYPE_CHECKING:
    from ..rdf.mapping import Triple
from .acronyms import text_pairs
from .data import ENTITY_TYPE_OF, NAMING_LAYOUT, ArticleData, Change, gather, load_data, read_articles
from .index import VERSION, Index
from .lines import resolution_lines
from .rules import Cluster, Resolution, compute

_P = sparql_prefixes("kg", "rdfs", "skos", "schema", "org", "owl", "prov")


def resolution_graph(base: str) -> str:
    """The named graph of the shared descriptions and the cross-article decisions (``Minter.resolution_graph``)."""
    return Minter(base).resolution_graph()


def resolution_ntriples(res: Resolution, base: str, extra: Iterable[Triple] = ()) -> str:
    """The resolution graph as sorted N-Triples (what ``mapping.to_ntriples`` would write of the
    same triples): the shared descriptions the article graphs point to (``mapping.shared_triples``,
    here from all of them at once, so a name no article gives any more is gone), the clusters, and
    ``extra``. Empty (no ``extra`` either) when there is nothing else to say."""
    from ..rdf.mapping import triple_lines

    lines = set().union(*resolution_lines(res, base).values())
    if lines:
        lines.update(triple_lines(extra))
    return "\n".join(sorted(lines))


def resolve_store(store: Store, base: str, curation: Curation | None = None,
                  links: list[Link] | None = None) -> Resolution:
    """Compute the resolution of what the store holds (nothing is written)."""
    cur = curation if curation is not None else load_curation()
    if links is None:
        links = load_links(linking_path(cur.linking_path()))
    return compute(load_data(store), cur, links, base)


Q_DIGEST = _P + """SELECT ?d WHERE { GRAPH <%(g)s> { <%(g)s> kg:inputDigest ?d } }"""


Q_ARTICLES = _P + """SELECT ?g ?a ?h ?v WHERE { GRAPH ?g { ?a a kg:Article
  OPTIONAL { ?a kg:contentHash ?h } OPTIONAL { ?a kg:layoutVersion ?v } } }"""


def code_digest() -> str:
    """A digest of the code of the rules: the modules of ``kg.resolve`` and the name tables of ``nlp.lexicon``."""
    from pathlib import Path

    h = hashlib.sha256()
    kg = Path(__file__).parent.parent
    for code in (*sorted((kg / "resolve").glob("*.py")), kg / "nlp" / "lexicon.py"):
        h.update(b"\x1e" + code.read_bytes())
    return h.hexdigest()


def article_digest(article: str, content_hash: str, layout: str) -> int:
    """One article's part of ``inputs_digest`` (0 for an article without a content hash)."""
    if not content_hash:
        return 0
    return int.from_bytes(hashlib.sha256(f"{article}\x1f{content_hash}\x1f{layout}".encode("utf-8")).digest(), "big")


def combined_digest(articles: int, setup: str) -> str:
    """``inputs_digest`` from its two parts: the articles' (``article_digest`` of each, combined by
    XOR, so a change updates it without reading the others) and the rest's (``setup_digest``)."""
    return hashlib.sha256(f"{articles:064x}\x1e{setup}".encode("ascii")).hexdigest()


def inputs_digest(store: Store, curation: Curation, rows: list[Row] | None = None, code: str | None = None) -> str:
    """A digest of everything the resolution graph is computed from: the articles (IRI, content
    hash, layout; ``rows`` of ``Q_ARTICLES`` when read already), the curation decisions, the
    linking table, and the code of the rules (``code_digest``)."""
    x = 0
    for r in (rows if rows is not None else store.select(Q_ARTICLES)):
        x ^= article_digest(r["a"] or "", r["h"] or "", r["v"] or "")
    return combined_digest(x, setup_digest(curation, code or code_digest()))


def setup_digest(curation: Curation, code: str) -> str:
    """A digest of what the rules are given besides the articles: the curation, the linking table, the code."""
    h = hashlib.sha256(dumps(curation).encode("utf-8") + b"\x1e")
    table = linking_path(curation.linking_path())
    if table is not None and table.is_file():
        h.update(table.read_bytes())
    h.update(code.encode("ascii"))
    return h.hexdigest()


def update_resolution(store: Store, minter: Minter | str, progress: Callable[[str], None] | None = None,
                      curation: Curation | None = None, if_changed: bool = False, full: bool = False,
                      touched: Iterable[str] = ()) -> Resolution | None:
    """Bring the resolution graph (shared descriptions and clusters) up to the store's articles, in
    one transaction.

    Called by ``pipeline.build`` after the articles are stored (``touched``: the graphs it wrote)
    and by the curation commands. It reads again only the article graphs that changed since the
    last resolution and recomputes only what they reach (``kg.resolve.increment``; the clusters it
    returns are those it recomputed, ``Resolution.change`` says how much that was); ``full``: read
    and compute everything, as a first resolution does. With ``if_changed`` (a build that stored no
    article) nothing is done, and None returned, when the graph records the digest of the same
    inputs (``inputs_digest``). Notes (a curation entry naming an entity no article mentions, ...)
    go to ``progress`` as ``note ...`` lines.
    """
    from rdflib import Literal, URIRef

    from ..model.vocab import KG
    from ..rdf.mapping import triple_lines
    from .index import open_index

    base = minter.base if isinstance(minter, Minter) else minter
    graph = resolution_graph(base)
    cur = curation if curation is not None else load_curation()
    code = code_digest()
    setup = setup_digest(cur, code)
    held = [r["d"] for r in store.select(Q_DIGEST % {"g": graph})]
    index = open_index(store)
    usable = (not full and held == [index.meta("digest")] and index.meta("digest") != ""
              and index.meta("setup") == setup and index.meta("version") == VERSION)
    if usable:  # the articles as the index holds them, brought up to the store's list of graphs
        current, xor, changed = _current(store, index, Minter(base), touched)
        if if_changed and not changed:
            return None
    else:
        rows = store.select(Q_ARTICLES)
        current = {r["g"] or "": (r["a"] or "", r["h"] or "", r["v"] or "") for r in rows}
        xor = 0
        for a, h, v in current.values():
            xor ^= article_digest(a, h, v)
    digest = combined_digest(xor, setup)
    if if_changed and held == [digest]:
        return None
    links = load_links(linking_path(cur.linking_path()))
    stamp = triple_lines([(URIRef(graph), KG.inputDigest, Literal(digest))])
    legacy = any(not v.isdigit() or int(v) < NAMING_LAYOUT for _, _, v in current.values())
    usable = usable and not legacy
    try:
        index.begin()
        if usable:
            res = _increment(store, index, cur, links, base, graph, current, touched, stamp)
        else:
            res = _full(store, index, cur, links, base, graph, legacy, stamp)
        index.set_meta("digest", "" if legacy else digest)
        index.set_meta("xor", f"{xor:064x}")
        index.set_meta("setup", setup)
        index.set_meta("version", VERSION)
        index.commit()
    except BaseException:
        index.rollback()
        raise
    for note in res.notes:
        if progress is not None:
            progress(f"note {note}")
    return res


def _current(store: Store, index: Index, minter: Minter, touched: Iterable[str]) -> tuple[
        dict[str, tuple[str, str, str]], int, bool]:
    """The store's articles (graph -> (article, content hash, layout)) as the index holds them, with
    the article graphs that came or went since (the store's list of graphs against the index's) and
    the ones written through this handle (``touched``, ``note_written``) read again; the XOR of their
    ``article_digest``; and whether anything changed. Reads no article graph but those."""
    from .data import Q_IDS, _reads

    held = index.articles()
    prefix = minter.graph("x")[:-1]  # {base}graph/
    graphs = {g for g in store.graphs() if g.startswith(prefix)}
    gone = set(held) - graphs
    again = (graphs - set(held)) | (set(touched) | store.__dict__.get("_kg_written", set())) & graphs
    current = {g: row for g, row in held.items() if g not in gone}
    xor = int(index.meta("xor") or "0", 16)
    for g in gone | (again & set(held)):
        xor ^= article_digest(*held[g])
        current.pop(g, None)
    for rows in _reads(store, [Q_IDS], sorted(again)):
        for r in rows:
            g = r["g"] or ""
            current[g] = (r["a"] or "", r["h"] or "", r["v"] or "")
            xor ^= article_digest(*current[g])
    return current, xor, bool(gone or again)


def _sizes(store: Store, arts: list[ArticleData]) -> list[tuple[str, int, int]]:
    """(article IRI, events, roles) of every article graph (``data.Q_SIZES``), for ``held_totals``."""
    from .data import Q_SIZES

    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in store.select(Q_SIZES % {"only": ""}):
        found[(r["g"] or "", r["k"] or "")].add(r["x"] or "")
    return [(a.iri, len(found[(a.graph, "events")]), len(found[(a.graph, "roles")])) for a in arts]


def held_totals(store: Store, base: str) -> dict[str, int] | None:
    """Articles, events and roles of the store, as ``outputs.stats.totals`` counts them, from the
    resolution's index when it describes the store (None otherwise: count them in the store)."""
    from .index import open_index

    index = open_index(store)
    held = [r["d"] for r in store.select(Q_DIGEST % {"g": resolution_graph(base)})]
    if not held or held != [index.meta("digest")] or index.meta("version") != VERSION:
        return None
    return index.totals()


def known_hashes(store: Store, base: str, layout: str) -> dict[str, str] | None:
    """Article IRI -> content hash of the articles of ``layout`` the resolution index holds, when it
    describes the store's resolution graph (None otherwise: ask the store). A build compares its
    inputs with these instead of reading every article of the store."""
    from .index import open_index

    index = open_index(store)
    held = [r["d"] for r in store.select(Q_DIGEST % {"g": resolution_graph(base)})]
    if not held or held != [index.meta("digest")] or index.meta("version") != VERSION:
        return None
    return {a: h for a, h, v in index.articles().values() if v == layout}


def _full(store: Store, index: Index, cur: Curation, links: list[Link], base: str, graph: str, legacy: bool,
          stamp: list[str]) -> Resolution:
    """The resolution computed from every article graph; the index started again from it."""
    from .increment import RecordingCounter, written
    from .index import entity_keys, link_table
    from .rules import LEXICON_PLACES, compute_work, place_keys

    written(store)
    store.prefetch_graph(graph)  # the old graph is read while the new one is computed
    arts = read_articles(store)
    index.clear()
    counter = RecordingCounter()
    stated = [(a.iri, acr, exp) for a in arts for acr, exp in text_pairs(a.text)]
    res, trace = compute_work(gather(arts), cur, links, base, stated=stated, counter=counter)
    owners = resolution_lines(res, base)
    lines = set().union(*owners.values()) if owners else set()
    if lines:
        owners["d"] = stamp
        store.replace_graph(graph, "\n".join(sorted(lines | set(stamp))))
    else:
        store.remove_graph(graph)
    res.change = Change(read=sorted(a.graph for a in arts), counted=sorted(a.iri for a in arts), full=True,
                        reached=len(trace.ents), clusters=len(res.clusters))
    if legacy:
        return res
    for a in arts:
        index.add_article(a, text_pairs(a.text))
    index.set_sizes(_sizes(store, arts))
    places = LEXICON_PLACES | {k for e in trace.ents.values() for k in place_keys(e)}
    keys_of = link_table(links)
    for e in trace.ents.values():
        index.put_entity(e, entity_keys(e, places, keys_of))
    index.set_clusters((i, trace.root4[i], res.of[i].canonical if i in res.of else i,
                        sorted(trace.expansions.get(i, ()))) for i in trace.ents)
    index.set_edges5([], trace.edges5)
    index.set_pairs6([], trace.pairs6)
    for art, (sig, groups) in counter.per_article.items():
        index.set_counts(art, sig, groups)
    index.set_lines([], owners)
    return res


def _increment(store: Store, index: Index, cur: Curation, links: list[Link], base: str, graph: str,
               current: dict[str, tuple[str, str, str]], touched: Iterable[str], stamp: list[str]) -> Resolution:
    """The resolution recomputed where the changed articles reach; only the lines it changed written."""
    from .increment import Increment

    inc = Increment(store, index, cur, links, base)
    res, lines, old = inc.run(current, touched)
    owners = (inc.owners | set(lines) | {"d"}) - {" written"}
    old["d"] = index.lines(["d"]).get("d", [])
    before = {t for ts in old.values() for t in ts}
    after = {t for ts in lines.values() for t in ts}
    if not index.has_articles():
        store.remove_graph(graph)
        index.clear()
        return res
    lines["d"] = stamp
    after |= set(stamp)
    store.change_graph(graph, "\n".join(sorted(before - after)), "\n".join(sorted(after - before)))
    index.set_lines(owners, lines)
    index.set_canonicals((m, cl.canonical) for cl in res.clusters for m in cl.members)
    return res


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
        c, t = r["c"] or "", ENTITY_TYPE_OF.get(r["type"] or "", "Entity")
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
