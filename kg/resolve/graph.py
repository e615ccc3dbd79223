"""The resolution graph, ``{base}resolution``: written from a resolution (the shared descriptions and the
clusters), recomputed when its inputs change, and read back.
"""
from __future__ import annotations

import hashlib
import unicodedata
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
from .data import ENTITY_TYPE_OF, load_data
from .rules import Cluster, Resolution, compute

_P = sparql_prefixes("kg", "rdfs", "skos", "schema", "org", "owl", "prov")


def resolution_graph(base: str) -> str:
    """The named graph of the shared descriptions and the cross-article decisions (``Minter.resolution_graph``)."""
    return Minter(base).resolution_graph()


def resolution_ntriples(res: Resolution, base: str, extra: Iterable[Triple] = ()) -> str:
    """The resolution graph as sorted N-Triples (what ``mapping.to_ntriples`` would write of the
    same triples): the shared descriptions the article graphs point to (``mapping.shared_triples``,
    here from all of them at once, so a name no article gives any more is gone), the clusters, and
    ``extra``. The clusters are most of it (three triples a cluster and article that names it) and
    are written as text directly, not through rdflib terms. Empty (no ``extra`` either) when there is nothing else to say."""
    from rdflib import URIRef
    from rdflib.namespace import OWL, PROV, RDF, RDFS, SKOS, XSD

    from ..model.cameo import CAMEO_ROOTS
    from ..model.vocab import CAMEO_NS, KG, TYPE_CLASSES
    from ..rdf.mapping import Terms, describe_class, describe_role, entity_lines, triple_lines

    minter = Minter(base)
    g: set[Triple] = set()
    uri = URIRef
    w = Terms()
    a, pref, label, alt, same = (f"<{t}>" for t in (RDF.type, SKOS.prefLabel, RDFS.label, SKOS.altLabel, OWL.sameAs))
    classes = {t: [f"<{cls}>" for cls in TYPE_CLASSES[t]] for t in TYPE_CLASSES}
    lines: set[str] = set()
    add, iri, plain = lines.add, w.iri, w.plain
    if res.data is not None:
        for ent in res.data.entities.values():
            lines.update(entity_lines(w, ent.iri, ent.stored_type, ent.labels, ent.alts))
        for role, labels in res.data.role_labels.items():
            for name in labels:
                describe_role(g, uri(role), name)
        for c in res.data.classes:
            if c.startswith(CAMEO_NS) and c[len(CAMEO_NS):] in CAMEO_ROOTS:
                describe_class(g, c[len(CAMEO_NS):])
    lines.update(triple_lines(g, w))
    mentioned, derived, count = (f"<{t}>" for t in (KG.mentionedIn, PROV.wasDerivedFrom, KG.mentionCount))
    word = f"<{KG.labelWord}>"
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
        if cl.counts and cl.type != "Group":  # groups are local to their article: shared-words.rq leaves them out
            for w_ in label_words(cl.label):
                add(f"{c} {word} {plain(w_)} .")
        for art, n in cl.counts.items():
            node = iri(minter.fact("mention", res.article_ids.get(art, art), cl.canonical))
            add(f"{c} {mentioned} {node} .")
            add(f"{node} {derived} {iri(art)} .")
            add(f'{node} {count} "{int(n)}"^^{integer} .')
    if lines:
        lines.update(triple_lines(extra, w))
    return "\n".join(sorted(lines))


#: Words ``label_words`` leaves out, as queries/shared-words.rq does.
_COMMON_WORDS = frozenset({"the", "and", "for"})


def label_words(label: str) -> set[str]:
    """The words of a label as queries/shared-words.rq compares them (``kg:labelWord``): lower-cased,
    split at every character that is no letter or digit, without words of one or two letters
    and "the", "and", "for"."""
    spaced = "".join(ch if unicodedata.category(ch)[0] in "LN" else " " for ch in label.lower())
    return {w for w in spaced.split() if not (len(w) <= 2 and w.isalpha()) and w not in _COMMON_WORDS}


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


def inputs_digest(store: Store, curation: Curation, rows: list[Row] | None = None, code: str | None = None) -> str:
    """A digest of everything the resolution graph is computed from: the articles (IRI, content
    hash, layout; ``rows`` of ``Q_ARTICLES`` when read already), the curation decisions, the
    linking table, and the code of the rules (``code_digest``)."""
    h = hashlib.sha256()
    found = [r for r in (rows if rows is not None else store.select(Q_ARTICLES)) if r["h"]]
    for r in sorted(found, key=lambda r: (r["a"] or "", r["h"] or "", r["v"] or "")):
        h.update(f"{r['a']}\x1f{r['h']}\x1f{r['v']}\x1e".encode("utf-8"))
    h.update(dumps(curation).encode("utf-8") + b"\x1e")
    table = linking_path(curation.linking_path())
    if table is not None and table.is_file():
        h.update(table.read_bytes())
    h.update((code or code_digest()).encode("ascii"))
    return h.hexdigest()


def update_resolution(store: Store, minter: Minter | str, progress: Callable[[str], None] | None = None,
                      curation: Curation | None = None, if_changed: bool = False, full: bool = False,
                      touched: Iterable[str] = ()) -> Resolution | None:
    """Bring the resolution graph (shared descriptions and clusters) up to the store's articles, in
    one transaction.

    Called by ``pipeline.build`` after the articles are stored (``touched``: the graphs it wrote)
    and by the curation commands. It reads again only the article graphs that changed since the
    last resolution and counts mentions only where the change reaches (``kg.resolve.increment``);
    ``full``: read and count everything, as a first resolution does. With ``if_changed`` (a build
    that stored no article) nothing is done, and None returned, when the graph records the digest
    of the same inputs (``inputs_digest``). Notes (a curation entry naming an entity no article
    mentions, ...) go to ``progress`` as ``note ...`` lines.
    """
    from rdflib import Literal, URIRef

    from ..model.vocab import KG
    from .increment import Memo, MemoCounter, forget_memo, load_memo, memo_data, refresh, save_memo

    base = minter.base if isinstance(minter, Minter) else minter
    graph = resolution_graph(base)
    cur = curation if curation is not None else load_curation()
    rows = store.select(Q_ARTICLES)
    code = code_digest()
    digest = inputs_digest(store, cur, rows, code)
    held = [r["d"] for r in store.select(Q_DIGEST % {"g": graph})]
    if if_changed and held == [digest]:
        return None
    store.prefetch_graph(graph)  # the old graph is read while the new one is computed
    memo = Memo() if full else load_memo(store)
    if held != [memo.digest] or memo.code != code:
        memo = Memo()
    memo.code = code
    forget_memo(store)  # until the new graph is written: a build stopped here recomputes next time
    current = {r["g"] or "": (r["h"] or "", r["v"] or "") for r in rows}
    change, texts = refresh(store, memo, current, touched)
    data, stated = memo_data(memo)
    links = load_links(linking_path(cur.linking_path()))
    res = compute(data, cur, links, base, stated=stated, counter=MemoCounter(store, memo, texts, change))
    ntriples = resolution_ntriples(res, base, [(URIRef(graph), KG.inputDigest, Literal(digest))])
    if ntriples:
        store.replace_graph(graph, ntriples)
    else:
        store.remove_graph(graph)
    memo.digest = digest
    if not any(a.legacy for a in memo.articles.values()):
        save_memo(store, memo)
    res.change = change
    for note in res.notes:
        if progress is not None:
            progress(f"note {note}")
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
