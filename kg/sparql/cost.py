"""Which requests are light: those a reserved query worker takes while heavy ones hold the others.

``kg serve`` keeps one worker for light requests (``WorkerPool(reserved=1)``), so that eight slow
queries cannot make an ``ASK`` or an article page wait for the whole timeout. What is light is
decided before anything runs, from the lexer's tokens (``kg.sparql.lexer``), and errs on the side of
heavy: a light query reads at most one triple pattern, so its cost is at most one scan of the store,
row by row:

- one query form (no subquery), at most ``LIGHT_TOKENS`` tokens after the prologue;
- at most one triple pattern in one group: no ``.``, ``;`` or ``,`` between patterns, no
  ``OPTIONAL``, ``UNION``, ``MINUS``, ``GRAPH``, ``VALUES``, ``BIND``, ``EXISTS``, blank-node
  brackets or property paths (``/ | ^ * + ?``);
- expressions (``FILTER``, the projection) at most ``LIGHT_NESTING`` brackets deep;
- or a ``DESCRIBE`` of IRIs alone (no ``WHERE``).

A request the estimate gets wrong is still bounded: on a reserved worker it has ``LIGHT_TIMEOUT``
seconds (then 503, "try again"), and the memory limit of every worker. The pages' own reads of one
article or one entity are light by construction; the network view and Graph Store reads are not.
"""
from __future__ import annotations

from .lexer import Rejected, tokens

__all__ = ["LIGHT_NESTING", "LIGHT_TIMEOUT", "LIGHT_TOKENS", "light"]

#: Most tokens a light query has after its PREFIX and BASE declarations.
LIGHT_TOKENS = 60
#: Deepest nesting of brackets in a light query's expressions.
LIGHT_NESTING = 3
#: Seconds a light request may run on a reserved worker (at most the timeout).
LIGHT_TIMEOUT = 5.0

_FORMS = {"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"}
_HEAVY_WORDS = {"OPTIONAL", "UNION", "MINUS", "GRAPH", "VALUES", "BIND", "EXISTS", "SERVICE", "LOAD"}
_TERMS = {"iri", "pname", "var", "str", "long", "number", "blank"}
_PATH = {"/", "|", "^", "*", "+", "?"}


def light(text: str) -> bool:
    """Whether the query ``text`` is light (the module docstring says what that is); False for a
    text that does not lex (the guard then says why)."""
    try:
        found = [(kind, tok) for kind, tok, _ in tokens(text) if kind not in ("ws", "comment")]
    except Rejected:
        return False
    body = _after_prologue(found)
    words = [tok.upper() for kind, tok in body if kind == "word"]
    if len(body) > LIGHT_TOKENS or sum(w in _FORMS for w in words) != 1 or _HEAVY_WORDS & set(words):
        return False
    if words[0] == "DESCRIBE" and "WHERE" not in words and "{" not in (tok for _, tok in body):
        return all(kind in ("iri", "pname") for kind, _ in body[1:])
    braces = parens = groups = terms = 0
    for kind, tok in body:
        if tok == "{":
            braces += 1
            groups += 1
        elif tok == "}":
            braces -= 1
        elif tok == "(":
            parens += 1
            if parens > LIGHT_NESTING:
                return False
        elif tok == ")":
            parens -= 1
        elif tok in ("[", "]"):
            return False
        elif braces and not parens:  # in the group, outside any expression: the pattern itself
            if tok in (";", ",") or tok in _PATH:
                return False
            if kind in _TERMS or (kind == "word" and tok in ("a", "true", "false")):
                terms += 1
            elif tok == "." and terms % 3:
                return False
    return groups <= 1 and terms <= 3


def _after_prologue(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tokens after the PREFIX and BASE declarations."""
    i = 0
    while i < len(found) and found[i][0] == "word" and found[i][1].upper() in ("PREFIX", "BASE"):
        i += 3 if found[i][1].upper() == "PREFIX" else 2
    return found[i:]
