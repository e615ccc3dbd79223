"""The resolution graph's lines, by owner: a cluster (its entities' descriptions and the cluster's own),
an article's mention records, a role, the event classes (``kg.resolve.index`` keeps them so, and a
change rewrites only the owners it reaches)."""
from __future__ import annotations

import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING, Iterable

from ..model.iris import Minter
from .data import StoredEntity
from .rules import Cluster, Resolution

if TYPE_CHECKING:
    from ..rdf.mapping import Terms, Triple


def cluster_lines(w: Terms, cl: Cluster, ents: dict[str, StoredEntity]) -> list[str]:
    """The resolution graph's lines of one cluster: the descriptions of its entities (the union of
    their namings: ``mapping.entity_lines``), and the cluster (classes, label, other names, members,
    external IRIs, label words)."""
    from rdflib.namespace import OWL, RDF, RDFS, SKOS

    from ..model.vocab import KG, TYPE_CLASSES
    from ..rdf.mapping import entity_lines

    lines: set[str] = set()
    for m in cl.members:
        e = ents.get(m)
        if e is not None and not e.minted:
            lines.update(entity_lines(w, m, e.stored_type, e.labels, e.alts))
    iri, plain, add = w.iri, w.plain, lines.add
    c = iri(cl.canonical)
    for cls in TYPE_CLASSES[cl.type]:
        add(f"{c} <{RDF.type}> <{cls}> .")
    add(f"{c} <{SKOS.prefLabel}> {plain(cl.label)} .")
    if cl.minted:
        add(f"{c} <{RDFS.label}> {plain(cl.label)} .")
    for alias in cl.aliases:
        add(f"{c} <{SKOS.altLabel}> {plain(alias)} .")
    for m in cl.members:
        if m != cl.canonical:
            add(f"{iri(m)} <{OWL.sameAs}> {c} .")
    for ext in cl.external:
        add(f"{c} <{OWL.sameAs}> {iri(ext)} .")
    if cl.type != "Group":  # groups are local to their article: shared-words.rq leaves them out
        for word in label_words(cl.label):
            add(f"{c} <{KG.labelWord}> {plain(word)} .")
    return sorted(lines)


def mention_lines(w: Terms, minter: Minter, article: str, article_id: str, counts: Iterable[tuple[str, int]]) -> list[str]:
    """The mention records of one article: (canonical IRI, mentions) of each cluster it names."""
    from rdflib.namespace import PROV, XSD

    from ..model.vocab import KG

    out = []
    a = w.iri(article)
    for canonical, n in counts:
        c, node = w.iri(canonical), w.iri(minter.fact("mention", article_id, canonical))
        out += [f"{c} <{KG.mentionedIn}> {node} .", f"{node} <{PROV.wasDerivedFrom}> {a} .",
                f'{node} <{KG.mentionCount}> "{int(n)}"^^<{XSD.integer}> .']
    return out


def role_lines(w: Terms, role: str, labels: Iterable[str]) -> list[str]:
    """A role's type and labels, as the articles word it."""
    from rdflib import URIRef

    from ..rdf.mapping import describe_role, triple_lines

    g: set[Triple] = set()
    for name in labels:
        describe_role(g, URIRef(role), name)
    return sorted(triple_lines(g, w))


def class_lines(w: Terms, classes: Iterable[str]) -> list[str]:
    """The CAMEO root classes the events use, and their quad classes."""
    from ..model.cameo import CAMEO_ROOTS
    from ..model.vocab import CAMEO_NS
    from ..rdf.mapping import describe_class, triple_lines

    g: set[Triple] = set()
    for c in classes:
        if c.startswith(CAMEO_NS) and c[len(CAMEO_NS):] in CAMEO_ROOTS:
            describe_class(g, c[len(CAMEO_NS):])
    return sorted(triple_lines(g, w))


def resolution_lines(res: Resolution, base: str) -> dict[str, list[str]]:
    """The resolution graph's lines by owner (see ``kg.resolve.index``): "c CANONICAL" a cluster,
    "m ARTICLE" an article's mention records, "r ROLE" a role, "k" the event classes."""
    from ..rdf.mapping import Terms

    minter = Minter(base)
    w = Terms()
    ents = res.data.entities if res.data is not None else {}
    out: dict[str, list[str]] = {"c " + cl.canonical: cluster_lines(w, cl, ents) for cl in res.clusters}
    by_article: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for cl in res.clusters:
        for art, n in cl.counts.items():
            by_article[art].append((cl.canonical, n))
    for art, counts in by_article.items():
        out["m " + art] = mention_lines(w, minter, art, res.article_ids.get(art, art), counts)
    if res.data is not None:
        for role, labels in res.data.role_labels.items():
            out["r " + role] = role_lines(w, role, labels)
        if res.data.classes:
            out["k"] = class_lines(w, res.data.classes)
    return out


#: Words ``label_words`` leaves out, as queries/shared-words.rq does.
_COMMON_WORDS = frozenset({"the", "and", "for"})


def label_words(label: str) -> set[str]:
    """The words of a label as queries/shared-words.rq compares them (``kg:labelWord``): lower-cased,
    split at every character that is no letter or digit, without words of one or two letters
    and "the", "and", "for"."""
    spaced = "".join(ch if unicodedata.category(ch)[0] in "LN" else " " for ch in label.lower())
    return {w for w in spaced.split() if not (len(w) <= 2 and w.isalpha()) and w not in _COMMON_WORDS}


