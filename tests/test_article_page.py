"""Article pages (``kg view --article``, ``kg serve``'s ``/article/{id}``): every fact with offsets is
highlighted where its evidence is, names are coloured by type, and no text from the article becomes
markup or reorders the page (hostile tags, quotes, bidi overrides, control characters)."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

import pagesamples as ps
import pytest
import viewsamples as vs
from test_server_support import ORIGIN, client
from typer.testing import CliRunner

from kg import api
from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.cli import app
from kg.outputs.view import TYPE_STYLES
from kg.outputs.view_pages import shown, types_css
from kg.serve.middleware import PAGE_CSP
from kg.store import MemoryStore, OxigraphStore


class _Tree(HTMLParser):
    """Elements (tag, attributes, ancestors) and each text run with its ancestors."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "source", "wbr", "area", "base", "col", "embed", "track"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.elements: list[tuple[str, dict[str, str | None], tuple[tuple[str, dict[str, str | None]], ...]]] = []
        self.texts: list[tuple[str, tuple[tuple[str, dict[str, str | None]], ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.elements.append((tag, a, tuple(self.stack)))
        if tag not in self.VOID:
            self.stack.append((tag, a))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        self.texts.append((data, tuple(self.stack)))

    def by(self, tag: str, cls: str = "", **attrs: str) -> list[dict[str, str | None]]:
        """Elements of ``tag`` with class ``cls`` (one of theirs) and these attribute values."""
        return [a for t, a, _ in self.elements if t == tag and (not cls or cls in (a.get("class") or "").split())
                and all(a.get(k) == v for k, v in attrs.items())]

    def text_under(self, id_: str, skip_class: str = "") -> str:
        out = []
        for data, stack in self.texts:
            if any(a.get("id") == id_ for _, a in stack) and not any(
                    skip_class and skip_class in (a.get("class") or "").split() for _, a in stack):
                out.append(data)
        return "".join(out)


def _parse(html: str) -> _Tree:
    t = _Tree()
    t.feed(html)
    return t


def _store() -> MemoryStore:
    return vs.build_store(vs.sample_facts() + [ps.article_facts()])


@pytest.fixture(scope="module")
def page() -> str:
    html = api.article_page(ps.ARTICLE_ID, store=_store()).html
    assert html is not None
    return html


def test_every_fact_with_offsets_is_highlighted_where_its_evidence_is(page: str) -> None:
    t = _parse(page)
    marks = [a for tag, a, _ in t.elements if tag == "mark"]
    assert len(marks) == ps.HIGHLIGHTS
    chips = [(a, stack) for tag, a, stack in t.elements if tag == "button" and "kg-chip" in (a.get("class") or "")]
    in_text = [a for a, stack in chips if any(s.get("id") == "kg-text" for _, s in stack)]
    assert len(in_text) == ps.PLACED
    assert len(chips) == ps.FACTS  # and the one with offsets outside the text, listed apart
    assert [a["data-fact"] for a, stack in chips if any(s.get("id") == "kg-unplaced" for _, s in stack)] == ["6"]
    body = t.by("body")[0]
    assert (body["data-facts"], body["data-placed"], body["data-evidence"]) == ("6", "5", "4")
    # the text, read back without the fact chips, is the article's text (control characters shown as U+FFFD)
    assert t.text_under("kg-text", skip_class="kg-chips") == shown(ps.TEXT)
    # each highlight holds exactly its sentence, and the two facts of the fourth sentence share one
    for mark in marks:
        facts = mark["data-facts"].split()
        assert facts
    text_of_mark = {}
    for data, stack in t.texts:
        for tag, a in stack:
            if tag == "mark":
                text_of_mark[a["data-evidence"]] = text_of_mark.get(a["data-evidence"], "") + data
    assert list(text_of_mark.values()) == [shown(s) for s in (ps.S1, ps.S2, ps.S3, ps.S4)]
    assert [m["data-facts"] for m in marks][3].count(" ") == 1


def test_names_are_coloured_by_type_like_the_legend(page: str) -> None:
    t = _parse(page)
    names = {(a["data-entity"], a["class"]) for a in t.by("span", cls="kg-name")}
    assert any("kg-t-Person" in c for _, c in names) and any("kg-t-Organization" in c for _, c in names)
    named = {}
    for data, stack in t.texts:
        for _tag, a in stack:
            if "kg-name" in (a.get("class") or "").split():
                named[data] = a["class"]
    assert named["Halvard Moen"] == "kg-name kg-t-Person" and named["Moen"] == "kg-name kg-t-Person"
    assert named["Iron Wolves"] == "kg-name kg-t-Organization"
    assert named[vs.IMG] == "kg-name kg-t-Person"  # the hostile name, found in the text, as text
    for name, style in TYPE_STYLES.items():
        assert f".kg-t-{name} {{ --kg-type: {style['color']}; }}" in types_css()


def test_no_article_text_becomes_markup(page: str) -> None:
    t = _parse(page)
    assert t.by("img") == [] and t.by("b", onmouseover='window.__pwned=1') == [] and t.by("i") == []
    assert len([1 for tag, _, _ in t.elements if tag == "script"]) == 1  # the page's own
    assert not any(k.startswith("on") for _, a, _ in t.elements for k in a)
    assert not any((a.get("href") or "").startswith("javascript:") for _, a, _ in t.elements)
    assert "\x07" not in page and "\x1b" not in page
    assert t.text_under("kg-title") == shown(ps.TITLE)
    assert vs.JS_URL in t.text_under("kg-url") and f"wire/{vs.IMG}.txt" in t.text_under("kg-source")
    # a bidi override from the data ends where the data does: outside the article's text, every one is in a <bdi>
    for data, stack in t.texts:
        if "\u202e" in data and not any(a.get("id") == "kg-text" for _, a in stack):
            assert any(tag in ("bdi", "title") for tag, _ in stack), (data, stack)
    # the file's policy: its own script and styles by hash, nothing else, nothing fetched
    csp = next(a["content"] or "" for a in t.by("meta") if a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp and "unsafe" not in csp
    assert "connect-src" not in csp  # default-src 'none' covers it


def test_the_facts_are_shown_inline_with_their_context(page: str) -> None:
    t = _parse(page)
    chip = {a["data-fact"]: a for a in t.by("button", cls="kg-chip")}
    text = {n: t.text_under(f"kg-fact-{n}") for n in chip}
    condemn = next(n for n, s in text.items() if "actioncondemn" in s)
    assert "11" in text[condemn] and "disapprove" in text[condemn] and "0.91" in text[condemn]
    assert "on Monday" in text[condemn] and "verbal conflict" in text[condemn]
    attack = next(n for n, s in text.items() if "actionnot attack" in s)
    assert "negated" in text[attack] and "yes" in text[attack] and "kg-negated" in chip[attack]["class"]
    meet = next(n for n, s in text.items() if "actionmeet" in s)
    assert "reported by" in text[meet] and "Halvard Moen" in text[meet]
    role = next(n for n, s in text.items() if "rolespokesman" in s)
    assert "since" in text[role] and "2009" in text[role]
    # in a file the entity links lead to the page's own list of entities
    hrefs = {a["href"] for a in t.by("a", cls="kg-entity")}
    ids = {a["id"] for a in t.by("li") if a.get("id")}
    assert hrefs and all(h.startswith("#kg-e-") and h[1:] in ids for h in hrefs)


def test_kg_view_article_writes_the_page(tmp_path: Path) -> None:
    where = tmp_path / "store"
    st = OxigraphStore(where)
    for f in vs.sample_facts() + [ps.article_facts()]:
        write_article(st, to_graph(f, vs.MINTER))
    st.close()
    out = tmp_path / "a.html"
    res = CliRunner().invoke(app, ["view", "--article", ps.ARTICLE_ID, "-o", str(out), "--store", str(where)])
    assert res.exit_code == 0, res.output
    assert "6 facts, 5 highlighted" in res.output and "\x1b" not in res.output
    assert 'data-placed="5"' in out.read_text("utf-8")
    by_title = CliRunner().invoke(app, ["view", "--article", ps.TITLE.upper(), "-o", str(out), "--store", str(where)])
    assert by_title.exit_code == 0, by_title.output
    for args in (["--article", "nope"], ["--article", ps.ARTICLE_ID, "--class", "18"]):
        bad = CliRunner().invoke(app, ["view", *args, "-o", str(tmp_path / "b.html"), "--store", str(where)])
        assert bad.exit_code == 2 and "Traceback" not in bad.output, bad.output
        assert not (tmp_path / "b.html").exists()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    where = tmp_path_factory.mktemp("pages") / "store"
    st = OxigraphStore(where)
    for f in vs.sample_facts() + [ps.article_facts()]:
        write_article(st, to_graph(f, vs.MINTER))
    st.close()
    with client(where, base=vs.BASE) as c:
        yield c


def test_the_server_shows_the_article_with_links_to_entity_pages(served) -> None:  # type: ignore[no-untyped-def]
    r = served.get(f"/article/{ps.ARTICLE_ID}")
    assert r.status_code == 200, r.text
    assert r.headers["content-security-policy"] == PAGE_CSP
    t = _parse(r.text)
    assert len(t.by("mark")) == ps.HIGHLIGHTS and t.by("body")[0]["data-placed"] == str(ps.PLACED)
    assert {a["href"] for a in t.by("link")} == {"/static/page.css", "/static/kg-types.css", "/static/article.css"}
    assert [a["src"] for a in t.by("script")] == ["/static/article.js"]
    hrefs = {a["href"] for a in t.by("a", cls="kg-entity")}
    assert "/entity/person/halvard-moen" in hrefs and all(h.startswith("/entity/") for h in hrefs)
    moen = served.get("/entity/person/halvard-moen")
    assert moen.status_code == 200
    for name in ("page.css", "kg-types.css", "article.css", "article.js", "vis-network.min.js"):
        s = served.get(f"/static/{name}")
        assert s.status_code == 200 and s.content, name
        assert served.get(f"/static/{name}", headers={"If-None-Match": s.headers["etag"]}).status_code == 304
    assert served.get("/static/../pyproject.toml").status_code == 404
    assert served.get("/article/nope").status_code == 404
    assert served.get("/article/%3Cx%3E").status_code == 404
    assert ORIGIN
