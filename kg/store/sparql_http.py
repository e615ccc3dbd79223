"""A ``Store`` on a SPARQL 1.1 server over HTTP: ``--store sparql+http://[user:pass@]host:port/path``.

Writes go through SPARQL 1.1 Update (``application/sparql-update``), reads through the SPARQL
Protocol (results as JSON, graphs as N-Triples), to the one endpoint the URL names (Virtuoso's
``/sparql``, or ``/sparql-auth`` with a login). kg's graphs are the named graphs whose IRI starts
with the settings' base IRI; the server's other graphs (Virtuoso ships system graphs, a failed big
write leaves a staging graph) are left out of ``graphs()``, ``dump()``, ``len()`` and of the
dataset every query runs over, so queries answer as on the embedded store.
Tested against Virtuoso 7.2.5 (``tests/test_store_virtuoso.py``).
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from http.client import HTTPException
from typing import Callable, Iterator, Sequence

import pyoxigraph as ox

from ..errors import QueryError, StoreError
from ..model.vocab import PREFIXES
from .base import EXPORT_FORMATS, Row, ntriples_lines, register

#: Triples and bytes of N-Triples per write request. A graph within both bounds (every seed article,
#: 300-1,100 triples; the resolution graph of about a hundred articles) is replaced by one request,
#: which the server applies as one transaction; a bigger one goes through a staging graph. Virtuoso
#: refuses a request text over 10 MB ("string session is longer than 10Mb"); measured on Virtuoso
#: 7.2.5, 20,000 triples (3.4 MB) are stored in 1.8 s, and a retry sends no more than this again.
MAX_BATCH_TRIPLES = 20_000
MAX_BATCH_BYTES = 4_000_000
#: Triples per ``GRAPH <g> { }`` block of a request: Virtuoso 7.2's SPARQL parser runs out of stack
#: near 4,990 triples in one block ("SP030 ... memory exhausted"), not in a request of many blocks.
BLOCK_TRIPLES = 4000
#: Rows read per request when reading whole graphs. Virtuoso cuts every answer at its
#: ``ResultSetMaxRows`` (10,000 by default); a smaller cap is noticed by its X-SPARQL-MaxRows header
#: (another ``kg serve``'s ``--max-rows`` by X-Kg-Truncated).
PAGE_ROWS = 10_000
#: Seconds to wait for one answer; attempts per request; first pause between attempts (doubled each time).
TIMEOUT = 120.0
ATTEMPTS = 4
BACKOFF = 0.5

#: A query's dataset: the IRIs of its default graph's parts and of its named graphs.
Dataset = tuple[Sequence[str], Sequence[str]]

_XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_PROLOGUE = re.compile(r"\s+|#[^\n]*|(?i:prefix)\s*[^\s:]*:\s*<[^>]*>|(?i:base)\s*<[^>]*>|(?i:define)\s+\S+\s+(?:<[^>]*>|\"[^\"]*\"|\S+)")
_CHALLENGE = re.compile(r'(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))')


def _query_form(sparql: str) -> str:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first keyword after the prologue (upper case)."""
    pos = 0
    while (m := _PROLOGUE.match(sparql, pos)) and m.end() > pos:
        pos = m.end()
    word = re.match(r"[A-Za-z]+", sparql[pos:])
    return word.group(0).upper() if word else ""


def _staging(graph: str) -> str:
    """Where the batches of a graph too big for one request are gathered (outside every base IRI)."""
    return "urn:kg:staging:" + hashlib.sha256(graph.encode("utf-8")).hexdigest()[:32]


def _blocks(graph: ox.NamedNode, lines: list[str]) -> str:
    """``GRAPH <g> { ... }`` blocks of at most BLOCK_TRIPLES lines each, for INSERT DATA."""
    return "\n".join(f"GRAPH {graph} {{\n" + "\n".join(lines[k:k + BLOCK_TRIPLES]) + "\n}"
                     for k in range(0, len(lines), BLOCK_TRIPLES))


def _batches(lines: list[str], max_triples: int, max_bytes: int) -> list[list[str]]:
    """N-Triples lines cut into request-sized pieces (a line longer than ``max_bytes`` goes alone)."""
    out: list[list[str]] = []
    batch: list[str] = []
    size = 0
    for line in lines:
        n = len(line.encode("utf-8")) + 1
        if batch and (len(batch) >= max_triples or size + n > max_bytes):
            out.append(batch)
            batch, size = [], 0
        batch.append(line)
        size += n
    if batch:
        out.append(batch)
    return out


def _canonical_json(body: bytes) -> str:
    """SPARQL JSON results as pyoxigraph reads them: Virtuoso's "1"/"0" booleans and
    ``nodeID://`` blank nodes rewritten to standard forms (the same values)."""
    data = json.loads(body)
    for binding in data.get("results", {}).get("bindings", []):
        for term in binding.values():
            if term.get("datatype") == _XSD_BOOLEAN and term.get("value") in ("1", "0"):
                term["value"] = "true" if term["value"] == "1" else "false"
            elif term.get("type") == "bnode":
                term["value"] = "b" + re.sub(r"[^A-Za-z0-9]", "_", term["value"])
    return json.dumps(data, ensure_ascii=False)


def _canonical_term(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    if isinstance(term, ox.Literal) and term.datatype.value == _XSD_BOOLEAN and term.value in ("1", "0"):
        return ox.Literal("true" if term.value == "1" else "false", datatype=term.datatype)
    return term


def _rows(res: object) -> list[Row]:
    if not isinstance(res, ox.QuerySolutions):
        raise QueryError("expected a SELECT query")
    names = [v.value for v in res.variables]
    return [{n: None if sol[n] is None else sol[n].value for n in names} for sol in res]


def _headers(message: Message) -> dict[str, str]:
    """Header names in lower case; a header sent several times (WWW-Authenticate) joined by commas."""
    out: dict[str, str] = {}
    for name, value in message.items():
        key = name.lower()
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out


@dataclass
class _Answer:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def first_line(self) -> str:
        text = self.body.decode("utf-8", "replace").strip()
        return text.splitlines()[0][:300] if text else f"HTTP {self.status} with no text"

    def row_limit(self) -> str | None:
        """If the server cut the answer at a row limit of its own: how many rows, and the setting to
        raise (Virtuoso says so in X-SPARQL-MaxRows, another ``kg serve`` in X-Kg-Truncated)."""
        if "x-sparql-maxrows" in self.headers:
            return (f"{self.headers['x-sparql-maxrows']} rows; raise ResultSetMaxRows in the [SPARQL] section of "
                    "virtuoso.ini")
        if "x-kg-truncated" in self.headers:
            return f"{self.headers['x-kg-truncated']} rows (it is a kg serve); start it with a higher --max-rows"
        return None


class SparqlHttpStore:
    """kg's graphs on a SPARQL 1.1 server; one HTTP request per call (writes in bounded batches).

    The list of kg's graphs that queries run over is read at the first query and then follows this
    store's own writes (and each ``graphs()``): open a new store to see graphs others wrote since.
    """

    def __init__(self, url: str, base: str | None = None, *, batch_triples: int = MAX_BATCH_TRIPLES,
                 batch_bytes: int = MAX_BATCH_BYTES, page_rows: int = PAGE_ROWS, timeout: float = TIMEOUT,
                 attempts: int = ATTEMPTS, backoff: float = BACKOFF) -> None:
        scheme, _, rest = url.partition("+")
        parts = urllib.parse.urlsplit(rest)
        if scheme != "sparql" or parts.scheme not in ("http", "https") or not parts.hostname:
            raise StoreError(f"store URL {url!r} is not sparql+http://host:port/path or sparql+https://...")
        try:
            port = parts.port
        except ValueError as err:
            raise StoreError(f"store URL {url!r} has a bad port: {err}") from err
        netloc = parts.hostname if port is None else f"{parts.hostname}:{port}"
        if ":" in parts.hostname:
            netloc = f"[{parts.hostname}]" + ("" if port is None else f":{port}")
        self.endpoint = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        self.display = f"sparql+{self.endpoint}"
        self._user = urllib.parse.unquote(parts.username) if parts.username else None
        self._password = urllib.parse.unquote(parts.password or "")
        if base is None:
            from ..config import load_settings

            base = load_settings().base
        self.base = base
        self.batch_triples, self.batch_bytes, self.page_rows = batch_triples, batch_bytes, page_rows
        self.timeout, self.attempts, self.backoff = timeout, attempts, backoff
        self._challenge: dict[str, str] | None = None
        self._nc = 0
        self._server = ""
        self._known: set[str] | None = None  # kg's graphs, read at the first query, then kept up to date

    # --- HTTP ----------------------------------------------------------------------------------

    def _authorization(self, method: str) -> str | None:
        """The Authorization header for the last challenge (Digest, else Basic), or None."""
        chal = self._challenge
        if chal is None or self._user is None:
            return None
        if chal["scheme"] == "basic":
            token = base64.b64encode(f"{self._user}:{self._password}".encode("utf-8")).decode("ascii")
            return f"Basic {token}"
        algorithm = chal.get("algorithm", "MD5")
        hash_name = {"MD5": "md5", "MD5-SESS": "md5", "SHA-256": "sha256", "SHA-256-SESS": "sha256"}.get(algorithm.upper())
        if hash_name is None:
            raise StoreError(f"{self.display} asks for Digest {algorithm}, which kg cannot answer; use MD5, SHA-256 or Basic")

        def h(text: str) -> str:
            return hashlib.new(hash_name, text.encode("utf-8")).hexdigest()

        uri = urllib.parse.urlsplit(self.endpoint)
        path = uri.path + (f"?{uri.query}" if uri.query else "")
        realm, nonce = chal.get("realm", ""), chal.get("nonce", "")
        self._nc += 1
        nc, cnonce = f"{self._nc:08x}", os.urandom(8).hex()
        ha1 = h(f"{self._user}:{realm}:{self._password}")
        if algorithm.upper().endswith("-SESS"):
            ha1 = h(f"{ha1}:{nonce}:{cnonce}")
        ha2 = h(f"{method}:{path}")
        qops = [q.strip() for q in chal.get("qop", "").split(",") if q.strip()]
        fields = [f'username="{self._user}"', f'realm="{realm}"', f'nonce="{nonce}"', f'uri="{path}"',
                  f"algorithm={algorithm}"]
        if "auth" in qops:
            fields += [f'response="{h(f"{ha1}:{nonce}:{nc}:{cnonce}:auth:{ha2}")}"', "qop=auth", f"nc={nc}",
                       f'cnonce="{cnonce}"']
        else:
            fields.append(f'response="{h(f"{ha1}:{nonce}:{ha2}")}"')
        if "opaque" in chal:
            fields.append(f'opaque="{chal["opaque"]}"')
        return "Digest " + ", ".join(fields)

    def _take_challenge(self, header: str) -> bool:
        """Remember the server's login challenge (Digest preferred); False if none kg can answer."""
        starts = list(re.finditer(r"(?:^|,)\s*(Digest|Basic)\b", header, re.I))
        found: dict[str, dict[str, str]] = {}
        for m, nxt in zip(starts, starts[1:] + [None]):
            text = header[m.end():nxt.start() if nxt else len(header)]
            params = {p.group(1).lower(): p.group(2) if p.group(2) is not None else p.group(3)
                      for p in _CHALLENGE.finditer(text)}
            found.setdefault(m.group(1).lower(), {**params, "scheme": m.group(1).lower()})
        chal = found.get("digest") or found.get("basic")
        if chal is None:
            return False
        self._challenge, self._nc = chal, 0
        return True

    def _post(self, body: bytes, content_type: str, accept: str) -> _Answer:
        """One POST, with the login answered if the server asks for one."""
        for _ in range(3):  # first try, then a fresh challenge, then a stale nonce renewed
            headers = {"Content-Type": content_type, "Accept": accept, "User-Agent": "kg"}
            auth = self._authorization("POST")
            if auth:
                headers["Authorization"] = auth
            req = urllib.request.Request(self.endpoint, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    answer = _Answer(resp.status, _headers(resp.headers), resp.read())
            except urllib.error.HTTPError as err:
                with err:
                    answer = _Answer(err.code, _headers(err.headers), err.read())
            self._server = answer.headers.get("server", self._server)
            if answer.status != 401:
                return answer
            if self._user is None:
                raise StoreError(f"{self.display} asks for a login (HTTP 401); give one in the URL: "
                                 "sparql+http://USER:PASSWORD@host:port/path (Virtuoso: /sparql-auth)")
            stale = "stale=true" in answer.headers.get("www-authenticate", "").replace('"', "").lower()
            had = self._challenge is not None
            if not self._take_challenge(answer.headers.get("www-authenticate", "")):
                raise StoreError(f"{self.display} asks for a login kg cannot give (neither Digest nor Basic)")
            if had and not stale:
                break
        raise StoreError(f"{self.display} refused the login of user {self._user!r} (HTTP 401); check the user and password in the URL")

    def _request(self, body: bytes, content_type: str, accept: str, what: str,
                 done: Callable[[], bool] | None = None) -> _Answer:
        """POST with retries on connection errors, timeouts and 5xx; ``done()`` says, before a
        retry, whether a request whose answer was lost has in fact taken effect."""
        problem = ""
        for attempt in range(self.attempts):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
                if done is not None and done():
                    return _Answer(200, {}, b"")
            try:
                answer = self._post(body, content_type, accept)
            except (urllib.error.URLError, HTTPException, OSError) as err:
                reason = getattr(err, "reason", err)
                problem = f"cannot reach it ({reason})"
                continue
            if answer.status >= 500:
                problem = f"HTTP {answer.status}: {answer.first_line()}"
                continue
            if answer.status >= 400:
                raise _Refused(answer)
            return answer
        tries = f"{self.attempts} attempts" if self.attempts > 1 else "1 attempt"
        raise StoreError(f"{what} failed at {self.display} after {tries}, {problem}; "
                         "check that the SPARQL server is running and reachable, then run kg again")

    # --- reading -------------------------------------------------------------------------------

    def _dataset(self, sparql: str, chosen: Dataset | None = None) -> tuple[str, dict[str, list[str]]]:
        """The query over kg's graphs only: their union as the default graph, and they alone as the
        named graphs (so neither Virtuoso's system graphs nor a half-written staging graph show); or
        over the graphs ``chosen`` (default, named), which the caller has limited to kg's.

        Virtuoso takes the list as ``define input:...`` pragmas: it answers the protocol's
        ``default-graph-uri`` with one response header per graph, and http.client refuses more
        than 100 headers. (Its ``input:default-graph-exclude`` would be shorter, but with it
        ``GRAPH <iri> { }`` matches nothing.) Other servers get the standard protocol parameters.
        """
        if chosen is None:
            if self._known is None:
                self._known = set(self.graphs())
            chosen = (sorted(self._known), sorted(self._known))
        # an empty list would mean "the server's default"
        default, named = (list(graphs) or ["urn:kg:no-graph"] for graphs in chosen)
        if "virtuoso" in self._server.lower():
            pragmas = "".join(f"define input:default-graph-uri {ox.NamedNode(g)}\n" for g in default)
            pragmas += "".join(f"define input:named-graph-uri {ox.NamedNode(g)}\n" for g in named)
            return pragmas + sparql, {}
        return sparql, {"default-graph-uri": default, "named-graph-uri": named}

    def _query(self, sparql: str, accept: str, paged: bool = False,
               dataset: dict[str, list[str]] | None = None, shift: int = 0) -> _Answer:
        body = urllib.parse.urlencode({"query": sparql, **(dataset or {})}, doseq=True).encode("ascii")
        try:
            answer = self._request(body, "application/x-www-form-urlencoded; charset=utf-8", accept, "a query")
        except _Refused as err:
            said = err.answer.first_line()
            if shift:  # Virtuoso counts lines from the first pragma kg put before the query
                said = re.sub(r"line (\d+)", lambda m: f"line {max(1, int(m.group(1)) - shift)}", said, count=1)
            raise QueryError(f"the query failed at {self.display}: {said}") from err
        if answer.headers.get("x-sql-state"):  # Virtuoso's "anytime" answer: partial, cut at its time limit
            raise StoreError(f"{self.display} gave a partial answer ({answer.headers.get('x-sql-message', 'time limit')}); "
                             "raise MaxQueryExecutionTime in the [SPARQL] section of virtuoso.ini, or narrow the query")
        limit = answer.row_limit()
        if limit is not None and not paged:
            raise StoreError(f"{self.display} cut the answer at {limit}, or narrow the query")
        return answer

    def _solutions(self, sparql: str, paged: bool = False, dataset: dict[str, list[str]] | None = None,
                   shift: int = 0) -> tuple[ox.QuerySolutions | ox.QueryBoolean, bool]:
        answer = self._query(sparql, "application/sparql-results+json", paged, dataset, shift)
        try:
            parsed = ox.parse_query_results(_canonical_json(answer.body), ox.QueryResultsFormat.JSON)
        except (ValueError, SyntaxError) as err:
            raise StoreError(f"{self.display} answered with results kg cannot read: {err}") from err
        return parsed, answer.row_limit() is not None

    def _pages(self, select: str, order: str) -> Iterator[ox.QuerySolution]:
        """Every solution of a SELECT, read ``page_rows`` at a time (in a sorted subquery, which
        Virtuoso pages past its sort limit), however low the server caps one answer."""
        offset = 0
        while True:
            res, cut = self._solutions(f"SELECT * WHERE {{ {{ {select} ORDER BY {order} }} }} "
                                       f"OFFSET {offset} LIMIT {self.page_rows}", paged=True)
            page = list(res) if isinstance(res, ox.QuerySolutions) else []
            yield from page
            offset += len(page)
            if not page or (len(page) < self.page_rows and not cut):
                return

    def raw_query(self, sparql: str, dataset: Dataset | None = None) -> object:
        """SELECT/ASK as pyoxigraph results, CONSTRUCT/DESCRIBE as pyoxigraph ``QueryTriples``;
        ``dataset``: the (default, named) graphs to query instead of all of kg's."""
        return self._raw(sparql, cut_ok=False, chosen=dataset)[0]

    def capped_query(self, sparql: str, dataset: Dataset | None = None) -> tuple[object, bool]:
        """``raw_query``, and whether the server cut the answer at its own row limit (``raw_query``
        refuses such an answer; ``kg serve``, which caps rows anyway, passes it on marked as cut)."""
        return self._raw(sparql, cut_ok=True, chosen=dataset)

    def _raw(self, sparql: str, cut_ok: bool, chosen: Dataset | None = None) -> tuple[object, bool]:
        text, dataset = self._dataset(sparql, chosen)
        shift = text.count("\n") - sparql.count("\n")
        if _query_form(sparql) in ("CONSTRUCT", "DESCRIBE"):
            answer = self._query(text, "application/n-triples", paged=cut_ok, dataset=dataset, shift=shift)
            try:
                triples = [ox.Triple(t.subject, t.predicate, _canonical_term(t.object))
                           for t in ox.parse(answer.body, format=ox.RdfFormat.N_TRIPLES)]
            except SyntaxError as err:
                raise StoreError(f"{self.display} answered with N-Triples kg cannot read: {err}") from err
            local = ox.Store()  # pyoxigraph makes QueryTriples only from a query: ask an in-memory copy
            local.extend(ox.Quad(t.subject, t.predicate, t.object) for t in triples)
            return local.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"), answer.row_limit() is not None
        return self._solutions(text, paged=cut_ok, dataset=dataset, shift=shift)

    def select(self, sparql: str) -> list[Row]:
        return _rows(self.raw_query(sparql))

    def graphs(self) -> list[str]:
        """kg's named graphs: those whose IRI starts with the base IRI."""
        found = sorted(sol["g"].value for sol in self._pages(
            f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), {json.dumps(self.base)})) }}", "?g"))
        self._known = set(found)
        return found

    def quads(self, graph: str) -> Iterator[ox.Quad]:
        """Every quad of one of kg's graphs, read a page at a time (past the server's row limit)."""
        g = ox.NamedNode(graph)
        for sol in self._pages(f"SELECT ?s ?p ?o WHERE {{ GRAPH {g} {{ ?s ?p ?o }} }}", "?s ?p ?o"):
            yield ox.Quad(sol["s"], sol["p"], sol["o"], g)

    def dump(self, fmt: str, union: bool) -> bytes:
        """kg's graphs serialized as the embedded store does: the union (triples) or every graph (quads)."""
        rdf_format = EXPORT_FORMATS[fmt]
        quads = [q for g in self.graphs() for q in self.quads(g)]
        if union:
            triples = {ox.Triple(q.subject, q.predicate, q.object) for q in quads}
            return ox.serialize(sorted(triples, key=str), format=rdf_format, prefixes=PREFIXES) or b""
        return ox.serialize(sorted(quads, key=str), format=rdf_format, prefixes=PREFIXES) or b""

    def __len__(self) -> int:
        """Quads in kg's graphs."""
        rows = self._select_plain(
            f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), {json.dumps(self.base)})) }}")
        return int(rows[0]["n"] or 0) if rows else 0

    def _select_plain(self, sparql: str) -> list[Row]:
        """A SELECT sent as written, over the server's own dataset (every graph it holds)."""
        return _rows(self._solutions(sparql)[0])

    # --- writing -------------------------------------------------------------------------------

    def _update(self, sparql: str, what: str, done: Callable[[], bool] | None = None) -> None:
        try:
            self._request(sparql.encode("utf-8"), "application/sparql-update; charset=utf-8",
                          "application/sparql-results+json, */*;q=0.1", what, done)
        except _Refused as err:
            hint = ""
            if err.answer.status in (401, 403) or "SECURITY" in err.answer.first_line():
                hint = ' (Virtuoso: GRANT SPARQL_UPDATE TO "SPARQL", or use /sparql-auth with a user in the URL)'
            raise StoreError(f"{what} was refused by {self.display}: {err.answer.first_line()}{hint}") from err

    def replace_graph(self, graph: str, ntriples: str) -> None:
        """Replace a graph in one request if it fits one batch, else through a staging graph moved
        into place at the end, so a reader sees the old graph or the new one, never half of it."""
        g = ox.NamedNode(graph)
        lines = ntriples_lines(ntriples)
        batches = _batches(lines, self.batch_triples, self.batch_bytes)
        what = f"writing graph {graph}"
        if len(batches) <= 1:
            insert = f" ;\nINSERT DATA {{\n{_blocks(g, batches[0])}\n}}" if batches else ""
            self._update(f"DROP SILENT GRAPH {g}{insert}", what)
            self._note(graph, bool(batches))
            return
        st = ox.NamedNode(_staging(graph))
        self._update(f"DROP SILENT GRAPH {st}", what)
        for batch in batches:
            self._update(f"INSERT DATA {{\n{_blocks(st, batch)}\n}}", what)
        # MOVE from a missing graph empties the target on Virtuoso: never send it twice.
        self._update(f"MOVE GRAPH {st} TO {g}", what, done=lambda: not self._has_triples(_staging(graph)))
        self._note(graph, True)

    def prefetch_graph(self, graph: str) -> None:
        """Nothing to read ahead: a graph is replaced whole, not by a diff."""

    def add_triples(self, graph: str, ntriples: str) -> None:
        """Add triples to a graph, in request-sized INSERT DATA batches (adding twice changes nothing)."""
        g = ox.NamedNode(graph)
        lines = ntriples_lines(ntriples)
        for batch in _batches(lines, self.batch_triples, self.batch_bytes):
            self._update(f"INSERT DATA {{\n{_blocks(g, batch)}\n}}", f"adding to graph {graph}")
        if lines:
            self._note(graph, True)

    def change_graph(self, graph: str, removed: str, added: str) -> None:
        """Delete and insert triples of a graph: one request when both fit one batch, else the deletions
        in request-sized batches, then the insertions."""
        g = ox.NamedNode(graph)
        gone, new = ntriples_lines(removed), ntriples_lines(added)
        what = f"changing graph {graph}"
        out = _batches(gone, self.batch_triples, self.batch_bytes)
        into = _batches(new, self.batch_triples, self.batch_bytes)
        if len(out) <= 1 and len(into) <= 1 and (out or into):
            parts = ([f"DELETE DATA {{\n{_blocks(g, out[0])}\n}}"] if out else []) + \
                    ([f"INSERT DATA {{\n{_blocks(g, into[0])}\n}}"] if into else [])
            self._update(" ;\n".join(parts), what)
        else:
            for batch in out:
                self._update(f"DELETE DATA {{\n{_blocks(g, batch)}\n}}", what)
            for batch in into:
                self._update(f"INSERT DATA {{\n{_blocks(g, batch)}\n}}", what)
        if new:
            self._note(graph, True)

    def _note(self, graph: str, present: bool) -> None:
        """Keep the list of kg's graphs the queries run over in step with this store's writes."""
        if self._known is not None and graph.startswith(self.base):
            (self._known.add if present else self._known.discard)(graph)

    def _has_triples(self, graph: str) -> bool:
        res, _ = self._solutions(f"ASK {{ GRAPH {ox.NamedNode(graph)} {{ ?s ?p ?o }} }}")
        return bool(res)

    def remove_graph(self, graph: str) -> None:
        self._update(f"DROP SILENT GRAPH {ox.NamedNode(graph)}", f"removing graph {graph}")
        self._note(graph, False)

    def close(self) -> None:
        """Nothing to release: every request has its own connection."""


class _Refused(Exception):
    """A 4xx answer (other than a login): not retried; the caller says what it means."""

    def __init__(self, answer: _Answer) -> None:
        super().__init__(answer.first_line())
        self.answer = answer


for _scheme in ("sparql+http", "sparql+https"):
    register(_scheme, lambda location, base, read_only: SparqlHttpStore(location, base))
