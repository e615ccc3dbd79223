"""Query answers as bytes in the SPARQL results formats (JSON, XML, CSV, TSV) and the RDF formats
(Turtle, N-Triples, JSON-LD, RDF/XML) that ``kg serve`` offers; written in the worker."""
from __future__ import annotations

import csv
import io
import json
import re
from typing import Any
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from .lexer import Rejected

#: media type -> result format name, for SELECT/ASK (server preference first).
RESULT_TYPES: dict[str, str] = {
    "application/sparql-results+json": "json",
    "application/sparql-results+xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}


#: media type -> RDF format name, for CONSTRUCT/DESCRIBE and graph reads.
GRAPH_TYPES: dict[str, str] = {
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "application/ld+json": "jsonld",
    "application/rdf+xml": "rdfxml",
}


_XSD = "http://www.w3.org/2001/XMLSchema#"


_XSD_STRING = _XSD + "string"


_BARE = {
    _XSD + "integer": re.compile(r"[+-]?[0-9]+"),
    _XSD + "decimal": re.compile(r"[+-]?[0-9]*\.[0-9]+"),
    _XSD + "double": re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.?[0-9]+)[eE][+-]?[0-9]+"),
    _XSD + "boolean": re.compile(r"true|false"),
}


def _json_term(t: Any) -> dict[str, Any]:
    import pyoxigraph as ox

    if isinstance(t, ox.NamedNode):
        return {"type": "uri", "value": t.value}
    if isinstance(t, ox.BlankNode):
        return {"type": "bnode", "value": t.value}
    if isinstance(t, ox.Literal):
        out: dict[str, Any] = {"type": "literal", "value": t.value}
        if t.language:
            out["xml:lang"] = t.language
        elif t.datatype.value != _XSD_STRING:
            out["datatype"] = t.datatype.value
        return out
    return {"type": "triple", "value": {"subject": _json_term(t.subject), "predicate": _json_term(t.predicate),
                                        "object": _json_term(t.object)}}


def _xml_term(t: Any) -> str:
    import pyoxigraph as ox

    if isinstance(t, ox.NamedNode):
        return f"<uri>{xml_escape(t.value)}</uri>"
    if isinstance(t, ox.BlankNode):
        return f"<bnode>{xml_escape(t.value)}</bnode>"
    if isinstance(t, ox.Literal):
        if t.language:
            attr = f" xml:lang={quoteattr(t.language)}"
        elif t.datatype.value != _XSD_STRING:
            attr = f" datatype={quoteattr(t.datatype.value)}"
        else:
            attr = ""
        return f"<literal{attr}>{xml_escape(t.value)}</literal>"
    return (f"<triple><subject>{_xml_term(t.subject)}</subject><predicate>{_xml_term(t.predicate)}</predicate>"
            f"<object>{_xml_term(t.object)}</object></triple>")


def _csv_value(t: Any) -> str:
    import pyoxigraph as ox

    if t is None:
        return ""
    if isinstance(t, ox.BlankNode):
        return f"_:{t.value}"
    if isinstance(t, (ox.NamedNode, ox.Literal)):
        return t.value
    return str(t)


def _tsv_value(t: Any) -> str:
    import pyoxigraph as ox

    if t is None:
        return ""
    if isinstance(t, ox.Literal) and not t.language:
        bare = _BARE.get(t.datatype.value)
        if bare is not None and bare.fullmatch(t.value):
            return t.value
    return str(t).replace("\t", "\\t")


def write_solutions(variables: list[str], rows: list[list[Any]], fmt: str, link: str | None = None) -> bytes:
    """SELECT results in the SPARQL 1.1 JSON, XML, CSV or TSV format (UTF-8). ``link``: an IRI for
    the results' ``head`` (JSON ``link``, XML ``<link href>``), the place the formats keep for
    metadata about the results; kg serve puts there that they were cut at the row cap."""
    if fmt == "json":
        bindings = [{v: _json_term(t) for v, t in zip(variables, row) if t is not None} for row in rows]
        head: dict[str, Any] = {"vars": variables, **({"link": [link]} if link else {})}
        doc = {"head": head, "results": {"bindings": bindings}}
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if fmt == "xml":
        out = ['<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>']
        out += [f"<variable name={quoteattr(v)}/>" for v in variables]
        if link:
            out.append(f"<link href={quoteattr(link)}/>")
        out.append("</head><results>")
        for row in rows:
            out.append("<result>")
            out += [f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                    for v, t in zip(variables, row) if t is not None]
            out.append("</result>")
        out.append("</results></sparql>")
        return "".join(out).encode("utf-8")
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow(variables)
        writer.writerows([_csv_value(t) for t in row] for row in rows)
        return buf.getvalue().encode("utf-8")
    if fmt == "tsv":
        lines = ["\t".join("?" + v for v in variables)]
        lines += ["\t".join(_tsv_value(t) for t in row) for row in rows]
        return ("\n".join(lines) + "\n").encode("utf-8")
    raise ValueError(fmt)


def write_boolean(value: bool, fmt: str) -> bytes:
    """ASK results in the SPARQL 1.1 JSON or XML format (CSV/TSV: ``true`` or ``false``)."""
    word = "true" if value else "false"
    if fmt == "json":
        return b'{"head":{},"boolean":' + word.encode() + b"}"
    if fmt == "xml":
        return (f'<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head></head>'
                f"<boolean>{word}</boolean></sparql>").encode()
    return word.encode()


def write_triples(triples: list[Any], fmt: str) -> bytes:
    """Triples as Turtle (with kg's prefixes), N-Triples or JSON-LD."""
    import pyoxigraph as ox

    from ..model.vocab import PREFIXES

    if fmt == "turtle":
        iris = set()
        for t in triples:
            for term in (t.subject, t.predicate, t.object):
                if isinstance(term, ox.NamedNode):
                    iris.add(term.value)
                elif isinstance(term, ox.Literal):
                    iris.add(term.datatype.value)
        used = {p: ns for p, ns in PREFIXES.items() if any(i.startswith(ns) for i in iris)}
        return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=used) or b""
    if fmt == "nt":
        return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
    if fmt == "rdfxml":
        return write_rdfxml(triples)
    return ox.serialize(triples, format=ox.RdfFormat.JSON_LD) or b"[]"


#: The longest end of an IRI that can be an XML element's local name (an NCName, roughly).
_NCNAME_END = re.compile(r"[^\W\d][\w.\-\u00b7]*$")


def write_rdfxml(triples: list[Any]) -> bytes:
    """Triples as RDF/XML (rdflib's ``SPARQLStore`` asks for it). RDF/XML writes a predicate as an
    element name, so a predicate IRI that does not end in a name (``http://e/p/1``) cannot be
    written: ``Rejected`` (406) says so, where pyoxigraph would write a malformed element."""
    import pyoxigraph as ox

    from ..model.vocab import PREFIXES

    for t in triples:
        if not _NCNAME_END.search(t.predicate.value):
            raise Rejected(f"RDF/XML cannot write the predicate <{t.predicate.value}> (it does not end in a name); "
                           "ask for Turtle, N-Triples or JSON-LD", 406)
    used = {p: ns for p, ns in PREFIXES.items() if any(t.predicate.value.startswith(ns) for t in triples)}
    return ox.serialize(triples, format=ox.RdfFormat.RDF_XML, prefixes=used) or b""
