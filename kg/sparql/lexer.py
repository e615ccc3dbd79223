"""SPARQL text as the guard sees it, and as Oxigraph then runs it: one exact lexer, one canonical text.

The guard once checked the text as sent with a loose lexer and with rdflib's parser, then gave
the same text to Oxigraph. Three readers of one text can disagree about where a string, an IRI
or a comment ends (rdflib expands ``\\u`` escapes before it parses, Oxigraph only inside strings
and IRIs; a prefixed name may end in an escaped ``\\#``), and a ``SERVICE`` that two of them
took for a comment ran in the third. Now the text is read once, by ``tokens`` (the terminals of
the SPARQL 1.1 grammar, strictly: anything else is refused), and written again by ``canonical``:
no comments, no escapes but ``\\"``, ``\\\\``, ``\\n`` and ``\\r`` in strings, IRIs and strings
with their ``\\u`` escapes decoded, prefixed names with escapes written as full IRIs, and the
text written must read back as the same tokens. That text is what rdflib checks and what
Oxigraph runs, so what runs is what was checked.

``canonical`` also refuses, before anything is parsed, a text nested deeper than ``MAX_DEPTH``,
with more than ``MAX_OPERATORS`` operators, or with a word that starts like ``SERVICE`` or ``LOAD``
(Oxigraph takes ``SERVICESILENT<...>`` for ``SERVICE SILENT <...>``: its keywords need no word
boundary).
"""
from __future__ import annotations

import re
from typing import Iterator

__all__ = ["MAX_DEPTH", "MAX_OPERATORS", "FORBIDDEN", "Rejected", "tokens", "canonical", "scan"]

#: Deepest nesting of ``{ ( [`` a request may have (Oxigraph's parser is cubic in it).
MAX_DEPTH = 64
#: Most tokens that deepen the algebra tree (every one is a stack frame or more in Oxigraph).
MAX_OPERATORS = 10_000

#: The keywords that would reach out of the machine (FROM, FROM NAMED and USING only choose graphs of
#: the store: ``kg.sparql.dataset``).
FORBIDDEN = {
    "SERVICE": "SERVICE (federated query) is not allowed: this endpoint never connects anywhere",
    "LOAD": "LOAD is not allowed: this endpoint never reads files or URLs",
}


class Rejected(Exception):
    """A request refused before (or instead of) running; ``status`` is the HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


# --- the terminals of SPARQL 1.1 (https://www.w3.org/TR/sparql11-query/#grammar) ---------------

_BASE = ("A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d\u2070-\u218f"
         "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff")
_CHARS_U = _BASE + "_"
_CHARS = _CHARS_U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ECHAR = r"""\\[tbnrf"'\\]"""
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_PREFIX = f"[{_BASE}](?:[{_CHARS}.]*[{_CHARS}])?"
_LOCAL = f"(?:[{_CHARS_U}:0-9]|{_PLX})(?:(?:[{_CHARS}.:]|{_PLX})*(?:[{_CHARS}:]|{_PLX}))?"
_EXP = r"[eE][+-]?[0-9]+"

_TOKEN = re.compile(
    rf"""
     (?P<ws>[ \t\r\n]++)
    |(?P<comment>\#[^\r\n]*+)
    |(?P<iri><(?:[^<>"{{}}|^`\\\x00-\x20]++|{_UCHAR})*+>)
    |(?P<long>\"\"\"(?:[^"\\]++|"(?!"")|""(?!")|{_ECHAR}|{_UCHAR})*+\"\"\"
             |'''(?:[^'\\]++|'(?!'')|''(?!')|{_ECHAR}|{_UCHAR})*+''')
    |(?P<str>"(?:[^"\\\n\r]++|{_ECHAR}|{_UCHAR})*+"|'(?:[^'\\\n\r]++|{_ECHAR}|{_UCHAR})*+')
    |(?P<var>[?$][{_CHARS_U}0-9][{_CHARS_U}0-9\u00b7\u0300-\u036f\u203f-\u2040]*)
    |(?P<blank>_:[{_CHARS_U}0-9](?:[{_CHARS}.]*[{_CHARS}])?)
    |(?P<pname>(?:{_PREFIX})?:(?:{_LOCAL})?)
    |(?P<lang>@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)
    |(?P<number>[+-]?(?:[0-9]+\.[0-9]*{_EXP}|\.[0-9]+{_EXP}|[0-9]+{_EXP}|[0-9]*\.[0-9]+|[0-9]+))
    |(?P<word>[A-Za-z][A-Za-z0-9_]*)
    |(?P<punct>\^\^|\|\||&&|!=|<=|>=|[{{}}()\[\].,;*/|^+\-!=<>?])
    |(?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_OPEN, _CLOSE = "{([", "})]"
_DEEPENING_WORDS = {"UNION", "OPTIONAL", "MINUS", "FILTER", "BIND", "GRAPH", "EXISTS", "SELECT", "NOT", "IN"}
_NOT_DEEPENING = {".", ",", ";", "^^"}
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ESCAPE = re.compile(rf"{_ECHAR}|{_UCHAR}")
_LOCAL_ESCAPE = re.compile(r"\\(.)")
_IRI_FORBIDDEN = re.compile(r'[<>"{}|^`\\\x00-\x20]')
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, text, offset) of every token, whitespace and comments included; ``Rejected`` at the
    first character no SPARQL 1.1 terminal starts with."""
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "bad"
        if kind == "bad":
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            raise Rejected(f"the text does not parse: {m.group()!r} at line {line}, column {col} starts no "
                           "SPARQL token")
        yield kind, m.group(), m.start()


def _unescape(body: str, where: str) -> str:
    def one(m: re.Match[str]) -> str:
        e = m.group()
        if e[1] in _ESCAPES:
            return _ESCAPES[e[1]]
        code = int(e[2:], 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or code == 0:
            raise Rejected(f"the escape {e} in {where} is not a character kg takes")
        return chr(code)

    return _ESCAPE.sub(one, body)


def _string(value: str) -> str:
    """A string literal every SPARQL parser reads alike."""
    if "\x00" in value:
        raise Rejected("a string holds a NUL character")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def _iri(value: str) -> str:
    bad = _IRI_FORBIDDEN.search(value)
    if bad:
        raise Rejected(f"the IRI <{value[:80]}> holds {bad.group()!r}, which IRIs cannot hold")
    return f"<{value}>"


def canonical(text: str, update: bool = False, allow_service: bool = False) -> str:  # noqa: C901 (24): a single-pass lexer's checks, one branch per token kind
    """The text to check and to run: ``text`` read by ``tokens`` and written again (see the module
    docstring); ``Rejected`` (400) if it is empty, does not lex, is too deep or too complex, or
    names a forbidden keyword (``allow_service``: SERVICE is not one, for ``kg query --allow-service``).
    The space between tokens is kept (none, a space, or the line breaks of the text: an error's line
    is the line of the text as sent)."""
    what = "update" if update else "query"
    if not text.strip():
        raise Rejected(f"the {what} is empty")
    if "\x00" in text:
        raise Rejected(f"the {what} contains a NUL character")
    out: list[str] = []  # the canonical text, piece by piece
    kept: list[str] = []  # its tokens
    prefixes: dict[str, str] = {}
    depth = operators = 0
    gap = ""  # what the text had between the last token and the next: nothing, " ", or its line breaks
    recent = ""  # the tokens of a PREFIX declaration so far
    try:
        for kind, tok, _ in tokens(text):
            if kind == "ws" or kind == "comment":
                breaks = tok.count("\n") + tok.count("\r") - tok.count("\r\n")
                gap = gap.rstrip(" ") + "\n" * breaks if breaks else gap or " "
                continue
            if kind == "iri":
                tok = _iri(_unescape(tok[1:-1], "an IRI"))
            elif kind in ("str", "long"):
                quote = 3 if kind == "long" else 1
                tok = _string(_unescape(tok[quote:-quote], "a string"))
            elif kind == "pname" and "\\" in tok:
                ns, _, local = tok.partition(":")
                base = prefixes.get(ns)
                if base is None or not _ABSOLUTE.match(base):
                    raise Rejected(f"the prefixed name {tok!r} has escapes and its prefix {ns}: names no absolute "
                                   "IRI; write the IRI in full")
                tok = _iri(base + _LOCAL_ESCAPE.sub(r"\1", local))
            elif kind == "word":
                upper = tok.upper()
                for word, message in FORBIDDEN.items():
                    if upper.startswith(word) and not (allow_service and word == "SERVICE"):  # SERVICESILENT is SERVICE SILENT to Oxigraph
                        raise Rejected(message)
                if upper in _DEEPENING_WORDS:
                    operators += 1
            elif kind == "punct":
                if tok in _OPEN:
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise Rejected(f"the {what} is nested too deep (more than {MAX_DEPTH} levels of brackets)")
                    if tok == "{":
                        operators += 1
                elif tok in _CLOSE:
                    depth = max(0, depth - 1)
                elif tok not in _NOT_DEEPENING:
                    operators += 1
            if operators > MAX_OPERATORS:
                raise Rejected(f"the {what} is too complex (more than {MAX_OPERATORS} operators)")
            recent = _prefix_state(recent, kind, tok, prefixes)
            if kept:
                out.append(gap)  # Oxigraph needs some tokens side by side (COALESCE( ...)
            out.append(tok)
            kept.append(tok)
            gap = ""
        result = "".join(out)
        # the text written must read back as the same tokens (a rewritten token could run into the next)
        if [t for k, t, _ in tokens(result) if k != "ws"] != kept:
            raise Rejected("the text is ambiguous where it was rewritten without comments and escapes; put "
                           "spaces between its tokens")
    except Rejected as err:
        raise Rejected(err.message.replace("the text", f"the {what}"), err.status) from None
    return result


def _prefix_state(state: str, kind: str, tok: str, prefixes: dict[str, str]) -> str:
    """Follow ``PREFIX p: <iri>`` declarations (state: "", "PREFIX", or "PREFIX p") into ``prefixes``."""
    if kind == "word" and tok.upper() == "PREFIX":
        return "PREFIX"
    if state == "PREFIX" and kind == "pname" and tok.endswith(":"):
        return "PREFIX " + tok[:-1]
    if state.startswith("PREFIX ") and kind == "iri":
        prefixes[state[7:]] = tok[1:-1]
    return ""


def scan(text: str, update: bool = False, allow_service: bool = False) -> None:
    """Refuse (``Rejected``, 400) a request that does not lex, is too deep or too complex, or names
    a forbidden keyword; cheap, for the server to run before anything else."""
    canonical(text, update, allow_service)
