"""The wheel works on its own: built from the sources, installed into a fresh virtualenv, and run from
a folder outside the checkout, ``kg build``, ``kg query events.rq`` (a canned query: package data)
and ``kg view`` (the templates: package data) all work, and the pages' static files (the vendored
YASGUI among them, checked against its pinned hashes) are in it.

Offline: the wheel is built with this environment's setuptools (``--no-build-isolation``) and
installed without dependencies; the fresh virtualenv finds kg's dependencies in this environment's
site-packages through a ``.pth`` line (a plain path: that folder's own ``.pth`` files, the editable
install of the checkout among them, are not run), so ``import kg`` can only find the wheel's kg.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

pytestmark = pytest.mark.model

ROOT = Path(__file__).resolve().parents[1]


def _run(argv: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KG_STORE", "KG_CURATION")}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv holding kg's wheel and nothing else of kg; its ``bin`` folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    shutil.copytree(ROOT / "kg", src / "kg", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "--disable-pip-version-check", "-w", str(tmp / "dist"), str(src)], cwd=tmp)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = (tmp / "dist").glob("kg-*.whl")
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site.stdout.strip()) / "kg_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")
    installed = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                      "--disable-pip-version-check", str(wheel)], cwd=tmp)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    return venv / "bin"


def test_the_installed_kg_is_the_wheels(fresh: Path, tmp_path: Path) -> None:
    where = _run([str(fresh / "python"), "-c", "import kg; print(kg.__file__)"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(fresh.parent), where.stdout


def test_build_query_and_view_outside_the_checkout(fresh: Path, tmp_path: Path) -> None:
    articles = tmp_path / "articles"
    articles.mkdir()
    for seed in sorted((ROOT / "seeds").glob("0[12]_*.txt")):
        shutil.copy(seed, articles / seed.name)
    kg = str(fresh / "kg")
    build = _run([kg, "build", "articles", "--store", "store", "--out", "out", "--workers", "1"], cwd=tmp_path)
    assert build.returncode == 0, build.stderr[-3000:]
    assert (tmp_path / "out" / "graph.ttl").stat().st_size > 1000
    query = _run([kg, "query", "events.rq", "--store", "store", "--format", "csv"], cwd=tmp_path)
    assert query.returncode == 0, query.stderr
    header, *rows = query.stdout.splitlines()
    assert header.startswith("article,") and len(rows) >= 5, query.stdout[:500]
    view = _run([kg, "view", "--store", "store", "-o", "view.html"], cwd=tmp_path)
    assert view.returncode == 0, view.stderr
    assert "<html" in (tmp_path / "view.html").read_text(encoding="utf-8")[:2000].lower()


def test_the_pages_static_files_are_in_the_wheel(fresh: Path, tmp_path: Path) -> None:
    code = ("from kg.serve.pages import _STATIC; from kg.outputs.view_pages import static_text; "
            "from kg.serve.vendor import MEDIA, vendored; "
            "print(sum(len(static_text(n)) for n in _STATIC), *(len(vendored(n)) for n in sorted(MEDIA)))")
    sizes = _run([str(fresh / "python"), "-c", code], cwd=tmp_path)
    assert sizes.returncode == 0, sizes.stderr[-3000:]
    pages, license_, css, js = (int(n) for n in sizes.stdout.split())
    assert pages > 10_000 and license_ > 1000 and css > 10_000 and js > 500_000, sizes.stdout
