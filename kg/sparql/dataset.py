"""What SPARQL 1.1 says a request of ``kg serve`` runs over: its dataset and its base IRI.

- **Dataset** (SPARQL 1.1 Query §13, Protocol §2.1.4): ``default-graph-uri`` / ``named-graph-uri``
  parameters win over the query's ``FROM`` / ``FROM NAMED``, which win over the service's default
  dataset, whose default graph is the union of every graph of the store. A named IRI selects that
  graph of the store; an IRI the store does not hold is an empty graph. Nothing is ever fetched
  or read from a file: Oxigraph's dataset is made of the store's graphs only.
- **Base IRI**: relative IRIs in a query or update resolve against the endpoint's URL, or the
  ``--base`` kg serve was started with (Protocol §2.1.3 lets the service define it).
- **Functions**: a function IRI Oxigraph does not implement (an extension function) is refused
  with a message that says so, before anything runs, instead of failing only when it is reached.

It also repairs one rdflib parser bug that would make the guard refuse a valid query: a negative
decimal in a triple pattern (``?s ?p -2.5``) raised "Not a number" (rdflib 7.x negates Decimal
literals through ``Literal.__neg__``, which only takes int and float).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable
from urllib.parse import urljoin

__all__ = ["Dataset", "Inspected", "dataset_params", "engine_options", "inspect_tree", "repair_rdflib_parser",
           "unknown_function"]

#: The protocol parameters that choose a query's dataset.
QUERY_DATASET_PARAMS = ("default-graph-uri", "named-graph-uri")
#: The same for updates; pyoxigraph's update takes no dataset, so these are refused (USING works).
UPDATE_DATASET_PARAMS = ("using-graph-uri", "using-named-graph-uri")


@dataclass(frozen=True)
class Dataset:
    """The graphs a request names with ``default-graph-uri`` and ``named-graph-uri``."""

    default: tuple[str, ...] = ()
    named: tuple[str, ...] = ()


@dataclass(frozen=True)
class Inspected:
    """What the parse tree says about a query beyond its form: whether it has FROM / FROM NAMED,
    and the IRIs of the functions it calls (relative ones as written)."""

    dataset_clause: bool = False
    functions: tuple[str, ...] = field(default_factory=tuple)


def dataset_params(params: list[tuple[str, str]]) -> Dataset | None:
    """The dataset the protocol parameters name, or None when they name none. Each value must be an
    absolute IRI (``ValueError`` with a one-line message otherwise)."""
    import pyoxigraph as ox

    default = [v for k, v in params if k == "default-graph-uri"]
    named = [v for k, v in params if k == "named-graph-uri"]
    if not default and not named:
        return None
    for iri in default + named:
        try:
            ox.NamedNode(iri)
        except ValueError:
            raise ValueError(f"{iri!r} is not an absolute IRI (default-graph-uri / named-graph-uri)") from None
    return Dataset(tuple(dict.fromkeys(default)), tuple(dict.fromkeys(named)))


def engine_options(dataset: Dataset | None, dataset_clause: bool, base: str | None) -> dict[str, Any]:
    """The keyword arguments of ``pyoxigraph.Store.query`` for this request.

    Oxigraph's ``use_default_graph_as_union`` would override a query's FROM, so it is set only
    when neither the protocol nor the query chooses a dataset. With protocol parameters, the
    dataset holds exactly the graphs they name (a default graph alone means no named graphs)."""
    import pyoxigraph as ox

    options: dict[str, Any] = {"base_iri": base}
    if dataset is not None:
        options["default_graph"] = [ox.NamedNode(g) for g in dataset.default]
        options["named_graphs"] = [ox.NamedNode(g) for g in dataset.named]
    elif not dataset_clause:
        options["use_default_graph_as_union"] = True
    return options


def _children(node: Any) -> Iterable[Any]:
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    if isinstance(node, CompValue):
        return node.values()
    if isinstance(node, (list, tuple, ParseResults)):
        return node
    if isinstance(node, dict):
        return node.values()
    return ()


def inspect_tree(tree: Any) -> Inspected:
    """Walk an rdflib parse tree (iteratively: trees can be deep) for FROM / FROM NAMED and the
    function IRIs called, prefixed names expanded with the query's own prefixes."""
    from rdflib.plugins.sparql.parserutils import CompValue

    prefixes: dict[str, str] = {}
    calls: list[Any] = []
    dataset_clause = False
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            if node.name == "DatasetClause":
                dataset_clause = True
            elif node.name == "PrefixDecl":
                prefixes[str(node.get("prefix") or "")] = str(node.get("iri"))
            elif node.name == "Function":
                calls.append(node.get("iri"))
        stack.extend(_children(node))
    functions = []
    for iri in calls:
        if isinstance(iri, CompValue) and iri.name == "pname":
            ns = prefixes.get(str(iri.get("prefix") or ""))
            if ns is None:
                continue  # an undeclared prefix: the engine says so
            functions.append(ns + str(iri.get("localname") or ""))
        elif iri is not None:
            functions.append(str(iri))
    return Inspected(dataset_clause, tuple(dict.fromkeys(functions)))


@lru_cache(maxsize=256)
def _implemented(iri: str) -> bool:
    """Whether Oxigraph evaluates a call of ``iri`` (a built-in cast such as xsd:integer), asked of
    Oxigraph itself on an empty in-memory store, so the answer follows the installed version."""
    import pyoxigraph as ox

    try:
        list(ox.Store().query(f'SELECT * WHERE {{ BIND(<{iri}>("1") AS ?x) }}'))  # type: ignore[arg-type]
    except RuntimeError as err:
        return "custom function" not in str(err)
    except (SyntaxError, ValueError, OSError):
        return True  # not a call Oxigraph sees as custom; let the query itself say what is wrong
    return True


def unknown_function(functions: Iterable[str], base: str | None) -> str | None:
    """The first function IRI (resolved against ``base``) that Oxigraph does not implement, or None."""
    for iri in functions:
        full = urljoin(base, iri) if base else iri
        if not _implemented(full):
            return full
    return None


def repair_rdflib_parser() -> None:
    """Let rdflib's SPARQL parser read negative decimals (``-2.5``) in triple patterns. Its parse
    action ``neg`` is looked up by name when a negative number is read, so the module function
    is replaced by one that also takes Decimal values; other values behave as before."""
    from decimal import Decimal

    import rdflib
    from rdflib.plugins.sparql import parser

    if getattr(parser.neg, "_kg_repaired", False):
        return
    original = parser.neg

    def neg(literal: rdflib.Literal) -> rdflib.Literal:
        if isinstance(literal.value, Decimal):
            return rdflib.Literal(-literal.value, datatype=literal.datatype)
        return original(literal)

    neg._kg_repaired = True  # type: ignore[attr-defined]
    parser.neg = neg
