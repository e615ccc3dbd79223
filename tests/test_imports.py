"""The import contract of kg's packages, read from the source (every import, those inside functions
too, and those under ``if TYPE_CHECKING:``: a cycle that only the type checker follows is still two
modules that each need the other to be understood):

- extraction never reaches rdflib or pyoxigraph: facts are plain dataclasses;
- the RDF mapping never reaches spaCy: it maps facts, it does not read text;
- no module imports the command line or the server: they are the outermost layers;
- no import cycles among kg's modules, nor among the sub-packages of kg.extract (grammar below entities,
  entities below events, roles, context and confidence).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "kg"

#: Cycles allowed: none (kept as a set so that a cycle can be named here with a reason, never silently).
KNOWN_CYCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(module: str, source: str | None = None) -> set[str]:
    """Every module ``module`` imports (its file, or ``source`` in its place): kg's by full name, others by
    their top-level package."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "kg":
                while name not in MODULES:  # kg.store.Store -> kg.store
                    name = name.rpartition(".")[0]
                out.add(name)
            else:
                out.add(name.split(".")[0])
    out.discard(module)
    return out


GRAPH = {m: _imports(m) for m in MODULES}


def _reach(start: str) -> set[str]:
    """Every module ``start`` imports, directly or through kg's modules."""
    seen, todo = set(), [start]
    while todo:
        for dep in GRAPH.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                if dep in GRAPH:
                    todo.append(dep)
    return seen


def _under(prefix: str) -> list[str]:
    return sorted(m for m in MODULES if m == prefix or m.startswith(prefix + "."))


def test_the_reader_sees_imports_inside_functions_and_through_modules() -> None:
    assert {"kg", "kg.cli", "kg.extract", "kg.rdf.mapping", "kg.store"} <= set(MODULES)
    assert any("kg.serve.server" in GRAPH[m] for m in _under("kg.cli"))  # imported inside the serve command
    assert {"spacy", "rdflib", "kg.extract.entities.index"} <= _reach("kg.build.pipeline")


@pytest.mark.parametrize("module", _under("kg.extract"))
def test_extraction_never_reaches_rdf(module: str) -> None:
    reached = _reach(module)
    assert not {"rdflib", "pyoxigraph"} & reached, sorted(m for m in reached if m.startswith("kg"))


@pytest.mark.parametrize("module", _under("kg.rdf"))
def test_the_rdf_mapping_never_reaches_spacy(module: str) -> None:
    reached = _reach(module)
    assert "spacy" not in reached and not any(m.startswith(("kg.nlp", "kg.extract")) for m in reached), sorted(reached)


@pytest.mark.parametrize("outer", ["kg.cli", "kg.serve"])
def test_nothing_imports_the_command_line_or_the_server(outer: str) -> None:
    inside = set(_under(outer))
    allowed = inside | set(_under("kg.cli"))  # the command line starts the server
    users = sorted(m for m, deps in GRAPH.items() if m not in allowed and deps & inside)
    assert not users, f"{outer} is imported by {users}"


def _cycles(graph: dict[str, set[str]] | None = None) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = GRAPH if graph is None else graph
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(d for d in graph[v] if d in graph):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    new = [sorted(c) for c in _cycles() if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    saved = dict(GRAPH)
    try:
        GRAPH["kg.errors"] = GRAPH["kg.errors"] | {"kg.config"}  # config imports errors
        assert frozenset({"kg.errors", "kg.config"}) in _cycles()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)



def test_the_reader_sees_imports_under_type_checking() -> None:
    source = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .errors import KgError\n"
    assert _imports("kg.config", source) == {"typing", "kg.errors"}


def _extract_packages() -> dict[str, set[str]]:
    """The import graph of kg.extract's sub-packages: a module stands for the sub-package it is in."""
    def package(module: str) -> str:
        return ".".join(module.split(".")[:3])

    graph: dict[str, set[str]] = {}
    for m in _under("kg.extract"):
        if m == "kg.extract":
            continue  # extract_facts runs every step: it imports them all, nothing imports it back
        deps = {package(d) for d in GRAPH[m] if d.startswith("kg.extract.")}
        graph.setdefault(package(m), set()).update(deps - {package(m)})
    return graph


def test_no_import_cycles_among_the_extraction_packages() -> None:
    graph = _extract_packages()
    assert {"kg.extract.grammar", "kg.extract.entities", "kg.extract.events", "kg.extract.roles"} <= set(graph)
    assert "kg.extract.grammar" in graph["kg.extract.entities"]
    assert not _cycles(graph), f"import cycles among kg.extract's packages: {_cycles(graph)}"
