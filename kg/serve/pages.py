"""The HTML side of ``kg serve``: the query page's canned queries and assets, and the entity pages
(read through the workers, drawn from templates)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from .. import __version__
from ..model.vocab import KG_NS, sparql_prefixes
from ..rdf.query import QUERY_DIR

_TEMPLATES = Path(__file__).parent.parent / "templates"


#: The files under ``/static/``: the query page's, the article and entity pages' (``kg.outputs.view_pages``).
_STATIC = {"query.js": "text/javascript", "query.css": "text/css", "entity.css": "text/css", "page.css": "text/css",
           "article.css": "text/css", "article.js": "text/javascript", "kg-types.css": "text/css",
           "vis-network.min.js": "text/javascript", "vis-network.css": "text/css"}


def canned_queries(folder: Path = QUERY_DIR) -> list[dict[str, str]]:
    """The ``.rq`` files of ``queries/``: name, description (the comment header) and text."""
    out = []
    for path in sorted(folder.glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        header = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            header.append(line.lstrip("#").strip())
        out.append({"name": path.name, "description": " ".join(h for h in header if h), "query": text})
    return out


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=True, undefined=StrictUndefined)


_Q_PREFIXES = sparql_prefixes("kg", "rdf", "org", "rdfs", "skos", "prov", "dcterms")


def _entity_queries(node: str) -> list[str]:
    return [
        _Q_PREFIXES + f"SELECT ?p ?v WHERE {{ {node} ?p ?v FILTER(?p IN (rdfs:label, skos:altLabel, rdf:type)) }}",
        _Q_PREFIXES + f"""SELECT ?event ?as ?action ?other ?otherLabel ?negated ?modality ?sentence ?article ?title
                            ?reporter ?reporterLabel WHERE {{
          {{ ?event kg:actor {node} . BIND("actor" AS ?as)
             OPTIONAL {{ ?event kg:target ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          UNION {{ ?event kg:target {node} . BIND("target" AS ?as)
             OPTIONAL {{ ?event kg:actor ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          UNION {{ ?event kg:reportedBy {node} . BIND("reporter" AS ?as)
             OPTIONAL {{ ?event kg:actor ?other OPTIONAL {{ ?other rdfs:label ?otherLabel }} }} }}
          ?event kg:action ?action .
          OPTIONAL {{ ?event kg:negated ?negated }}
          OPTIONAL {{ ?event kg:modality ?modality }}
          OPTIONAL {{ ?event kg:reportedBy ?reporter OPTIONAL {{ ?reporter rdfs:label ?reporterLabel }} }}
          OPTIONAL {{ ?event kg:evidence/kg:sentence ?sentence }}
          OPTIONAL {{ ?event prov:wasDerivedFrom ?article OPTIONAL {{ ?article dcterms:title ?title }} }}
        }}""",
        _Q_PREFIXES + f"""SELECT ?m ?as ?other ?otherLabel ?role ?former ?sentence ?article ?title WHERE {{
          {{ ?m org:member {node} ; org:organization ?other . BIND("member" AS ?as) }}
          UNION {{ ?m org:organization {node} ; org:member ?other . BIND("organization" AS ?as) }}
          OPTIONAL {{ ?other rdfs:label ?otherLabel }}
          OPTIONAL {{ ?m kg:roleLabel ?role }}
          OPTIONAL {{ ?m kg:former ?former }}
          OPTIONAL {{ ?m kg:evidence/kg:sentence ?sentence }}
          OPTIONAL {{ ?m prov:wasDerivedFrom ?article OPTIONAL {{ ?article dcterms:title ?title }} }}
        }}""",
        _Q_PREFIXES + f"""SELECT ?article ?title WHERE {{
          ?article kg:mentions {node} OPTIONAL {{ ?article dcterms:title ?title }} }}""",
    ]


def _merge(rows: list[dict[str, str | None]], key: str) -> list[dict[str, str | None]]:
    """One dict per ``key`` value; of several values of a column, the shortest (then smallest)."""
    groups: dict[str, list[dict[str, str | None]]] = {}
    for r in rows:
        groups.setdefault(r.get(key) or "", []).append(r)
    out = []
    for k in sorted(groups):
        merged: dict[str, str | None] = {}
        for col in groups[k][0]:
            values = sorted({v for r in groups[k] if (v := r.get(col)) is not None}, key=lambda s: (len(s), s))
            merged[col] = values[0] if values else None
        out.append(merged)
    return out


def _local(iri: str | None) -> str:
    if not iri:
        return ""
    return iri[len(KG_NS):] if iri.startswith(KG_NS) else iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def _entity_html(iri: str, info: list[dict[str, Any]], events: list[dict[str, Any]], roles: list[dict[str, Any]],
                 articles: list[dict[str, Any]], prefix: str) -> str:
    rdfs_label = "http://www.w3.org/2000/01/rdf-schema#label"
    alt = "http://www.w3.org/2004/02/skos/core#altLabel"
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    labels = sorted({r["v"] for r in info if r["p"] == rdfs_label}, key=lambda s: (len(s), s))
    aliases = sorted({r["v"] for r in info if r["p"] == alt} | set(labels[1:]))
    types = sorted({_local(r["v"]) for r in info if r["p"] == rdf_type and (r["v"] or "").startswith(KG_NS)})

    def link(other: str | None) -> str | None:
        return "/entity/" + other[len(prefix):] if other and other.startswith(prefix) else None

    def event_row(e: dict[str, Any]) -> dict[str, Any]:
        return {**e, "link": link(e.get("other")), "otherName": e.get("otherLabel") or _local(e.get("other")),
                "modality": _local(e.get("modality")) or "asserted", "negated": e.get("negated") in ("true", "1"),
                "reporterName": e.get("reporterLabel") or _local(e.get("reporter")),
                "reporterLink": link(e.get("reporter"))}

    def of(kind: str) -> list[dict[str, Any]]:
        return [event_row(e) for e in _merge([e for e in events if e["as"] == kind], "event")]

    rows = [{**r, "link": link(r.get("other")), "otherName": r.get("otherLabel") or _local(r.get("other")),
             "former": r.get("former") in ("true", "1")} for r in _merge(roles, "m")]
    return _env().get_template("entity.html").render(
        iri=iri, label=labels[0] if labels else _local(iri), aliases=aliases, types=types,
        as_actor=of("actor"), as_target=of("target"), reported=of("reporter"),
        memberships=[r for r in rows if r["as"] == "member"], members=[r for r in rows if r["as"] == "organization"],
        articles=_merge(articles, "article"), version=__version__,
    )
