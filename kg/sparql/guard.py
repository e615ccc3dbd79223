"""What keeps a SPARQL request of ``kg serve``, ``kg query`` and ``kg.api.query`` local and bounded.

Oxigraph (pyoxigraph 0.5) follows ``SERVICE`` and ``LOAD`` to any address, has no query
timeout, and overflows its stack (the whole process dies with SIGSEGV) on deeply nested
or very long queries; rdflib's parser hits Python's recursion limit from about 30 nested
brackets. So a request goes through four layers:

1. ``kg.sparql.lexer.canonical(text)`` — an exact SPARQL 1.1 lexer reads the text once and
   writes it again without comments or escapes (the *canonical* text, the only one checked and
   run: see that module); bracket depth at most ``MAX_DEPTH``, at most ``MAX_OPERATORS``
   tokens that deepen the algebra (operators, ``{``, ``UNION``, ``OPTIONAL``...), and no word
   that starts like ``SERVICE`` or ``LOAD``. Cheap: the server runs it (``scan``) before
   anything else, and the worker again to get the text it checks and runs.
2. ``check(text, update)`` — rdflib's SPARQL parser over the canonical text; the parse tree is
   walked for ``ServiceGraphPattern`` and ``Load``. It also gives the query form and what
   ``kg.sparql.dataset`` needs (FROM / FROM NAMED, the functions called). It runs in a worker,
   under the timeout, because parsing pathological text can take seconds. FROM, FROM NAMED and
   USING are allowed: they choose graphs of the store, and Oxigraph never fetches them.
   Oxigraph then runs the canonical text.
3. A worker process (``python -m kg.sparql.worker``) opens the store read-only
   (``pyoxigraph.Store.read_only``; one read-write worker when updates are allowed), drops
   its network (``kg.sparql.sandbox``: a network namespace where the kernel allows it, and a seccomp
   filter that refuses IPv4/IPv6 sockets), limits its memory (``--max-memory``), evaluates in a
   thread with a 512 MB stack, caps a SELECT's rows, and serializes the answer. Over a SPARQL server
   (``kg.sparql.remote``) the worker keeps its network, read-only, and the server evaluates.
4. ``WorkerPool`` — in the server (one worker for ``kg query``): a few read workers, one kept
   for light requests (``kg.sparql.cost``) and an optional writer; a request that runs past the
   timeout, or past the memory limit, gets its worker killed (SIGKILL) and replaced while the
   other workers keep answering.

A read-only open beside a live writer sees the writes made before it, not later ones, so a
worker re-opens when the store's CURRENT, MANIFEST or WAL files change (and again, up to five
times, when a read fails because compaction removed a file). The limits above come from
measurements of Oxigraph's stack and parser (docs/benchmarks.md).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from .dataset import Inspected, inspect_tree, repair_rdflib_parser
from .lexer import FORBIDDEN, Rejected

_PARSE_FORBIDDEN = {
    "ServiceGraphPattern": FORBIDDEN["SERVICE"],
    "Load": FORBIDDEN["LOAD"],
}


_FORMS = {"SelectQuery": "select", "AskQuery": "ask", "ConstructQuery": "construct", "DescribeQuery": "describe"}


def _walk(tree: Any) -> Iterable[str]:
    """Names of every CompValue in an rdflib parse tree (iterative: trees can be deep)."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            yield node.name
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, ParseResults)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())


def check(text: str, update: bool = False) -> str:
    """Parse with rdflib and refuse SERVICE and LOAD; the query form.

    Returns ``"select"``, ``"ask"``, ``"construct"``, ``"describe"`` or ``"update"``.
    """
    return inspect(text, update)[0]


def inspect(text: str, update: bool = False, allow_service: bool = False) -> tuple[str, Inspected]:
    """``check``, and what the parse tree says of the dataset and the functions called
    (``allow_service``: SERVICE is let through, for ``kg query --allow-service``). The answers for
    short texts are remembered: rdflib's parser is slow."""
    if len(text) <= 20_000:
        return _check_short(text, update, allow_service)
    return _check(text, update, allow_service)


@lru_cache(maxsize=512)
def _check_short(text: str, update: bool, allow_service: bool) -> tuple[str, Inspected]:
    return _check(text, update, allow_service)


def _check(text: str, update: bool, allow_service: bool = False) -> tuple[str, Inspected]:
    from pyparsing import ParseBaseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    repair_rdflib_parser()
    what = "update" if update else "query"
    try:
        tree = parseUpdate(text) if update else parseQuery(text)
    except ParseBaseException as err:
        raise Rejected(f"the {what} does not parse: {_one_line(str(err))}") from None
    except RecursionError:
        raise Rejected(f"the {what} is nested too deep to parse") from None
    except (ValueError, TypeError, AttributeError, IndexError, KeyError) as err:
        raise Rejected(f"the {what} does not parse: {_one_line(str(err)) or type(err).__name__}") from None
    form = "update"
    for name in _walk(tree):
        if name in _PARSE_FORBIDDEN and not (allow_service and name == "ServiceGraphPattern"):
            raise Rejected(_PARSE_FORBIDDEN[name])
        if not update and name in _FORMS and form == "update":
            form = _FORMS[name]
    if not update and form == "update":
        raise Rejected("the query is not a SELECT, ASK, CONSTRUCT or DESCRIBE query")
    return form, inspect_tree(tree)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
