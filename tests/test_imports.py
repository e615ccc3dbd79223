"""The import contract of kg's packages, read from the source (every import, those inside functions
too; imports under ``if TYPE_CHECKING:`` never run and are left out):

- extraction never reaches rdflib or pyoxigraph: facts are plain dataclasses;
- the RDF mapping never reaches spaCy: it maps facts, it does not read text;
- no module imports the command line or the server: they are the outermost layers;
- no import cycles among kg's modules.
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


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip |= {id(n) for n in ast.walk(inner)}
    return skip


def _imports(module: str) -> set[str]:
    """Every module ``module`` imports: kg's by full name, others by their top-level package."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip = _type_checking_nodes(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
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


def _cycles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(d for d in GRAPH[v] if d in GRAPH):
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

    for v in sorted(GRAPH):
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

