"""The article, entity and query pages in a real headless Chromium (Debian's), one browser for the
module, driven over the DevTools protocol on a pipe (the client of ``tests/test_view_browser.py``),
with the network off but for the loopback address: every request a page makes is recorded, and
none may leave the machine. The hostile sample article (``pagesamples``) must stay inert: no element
its text would create exists, no handler ran, and the page logs no error or CSP violation.

Without chromium these tests skip, or fail when the CI environment variable is set.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pagesamples as ps
import pytest
import test_view_browser
import viewsamples as vs
from test_server_support import Served, purifier_report
from test_view_browser import LOOPBACK_FLAGS, _Cdp

from kg import api
from kg.build.jobs import to_graph
from kg.build.writer import write_article
from kg.store import OxigraphStore

@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("pages-browser") / "store"
    st = OxigraphStore(where)
    try:
        for f in vs.sample_facts() + [ps.article_facts()]:
            write_article(st, to_graph(f, vs.MINTER))
    finally:
        st.close()
    return where


@pytest.fixture(scope="module")
def served(store: Path) -> Iterator[Served]:
    s = Served(store, "--workers", "2")
    yield s
    s.close()


@pytest.fixture(scope="module")
def cdp(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Cdp]:
    if sys.platform == "win32":
        pytest.skip("--remote-debugging-pipe needs POSIX file descriptors")
    profile = tmp_path_factory.mktemp("cdp-profile")
    saved = test_view_browser.CHROMIUM_FLAGS
    test_view_browser.CHROMIUM_FLAGS = LOOPBACK_FLAGS  # _Cdp starts chromium with these
    try:
        client = _Cdp(chromium, profile)
    finally:
        test_view_browser.CHROMIUM_FLAGS = saved
    try:
        targets = client.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        client.session = client.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})[
            "sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            client.call(domain)
        yield client
    finally:
        client.close()


def _open(cdp: _Cdp, url: str, ready: str) -> None:
    cdp.events.clear()
    cdp.call("Page.navigate", {"url": url})
    assert cdp.wait_for(f"document.readyState === 'complete' && location.href === {json.dumps(url)} && ({ready})",
                        timeout=30)


def _requests(cdp: _Cdp, document: str | None = None) -> list[str]:
    """The URLs requested since the last navigation; with ``document``, only those of that document
    (a favicon the page before still fetches after the navigation is that page's, not this one's)."""
    cdp.js("1")  # collect the events sent so far
    return [e["params"]["request"]["url"] for e in cdp.events if e.get("method") == "Network.requestWillBeSent"
            and (document is None or e["params"].get("documentURL", "").split("#")[0] == document)]


def _all_local(urls: list[str]) -> bool:
    return all(urlsplit(u).scheme in ("file", "data", "blob", "about")
               or urlsplit(u).hostname in ("127.0.0.1", "localhost") for u in urls)


def _not_pwned(cdp: _Cdp) -> None:
    assert cdp.js("typeof window.__pwned") == "undefined"
    assert cdp.js("document.documentElement.hasAttribute('data-pwned')") is False
    assert cdp.js("document.querySelectorAll('img, b[onmouseover], i').length") == 0
    assert cdp.js("[...document.querySelectorAll('a')].filter(a => a.protocol === 'javascript:').length") == 0
    assert cdp.js("[...document.querySelectorAll('*')].filter(e => [...e.attributes]"
                  ".some(a => a.name.startsWith('on'))).length") == 0


def _check_article(cdp: _Cdp) -> None:
    assert cdp.js("document.querySelectorAll('#kg-text mark.kg-ev').length") == ps.HIGHLIGHTS
    assert cdp.js("document.querySelectorAll('#kg-text .kg-chip[data-fact]').length") == ps.PLACED
    # every fact with offsets in the text is highlighted, each by the one highlight of its span
    highlighted = cdp.js("[...document.querySelectorAll('#kg-text mark.kg-ev')].flatMap(m => m.dataset.facts.split(' '))")
    assert len(highlighted) == len(set(highlighted)) == ps.PLACED
    assert cdp.js("document.getElementById('kg-title').textContent") == ps.TITLE.replace("\x07", "\ufffd")
    # a hover or a hostile handler does nothing; a click on the shared sentence shows both its facts
    cdp.js("document.querySelector('#kg-text b, #kg-text [onmouseover]') === null")
    cdp.js("document.getElementById('kg-ev-4').scrollIntoView({block: 'center'})")
    box = cdp.js("(r => [r.x + 3, r.y + r.height / 2])(document.getElementById('kg-ev-4').getClientRects()[0])")
    cdp.click(*box)
    assert cdp.wait_for("document.body.dataset.shown.split(' ').length === 2")
    shown = cdp.js("[...document.querySelectorAll('.kg-detail:not([hidden])')].map(d => d.textContent).join(' ')")
    assert "not attack" in shown and "threaten" in shown and "hypothetical" in shown
    assert cdp.js("getComputedStyle(document.getElementById('kg-panel-empty')).display") == "none"
    # the name with a bidi override does not turn the page around it
    assert cdp.js("getComputedStyle(document.querySelector('#kg-fact-4 bdi, #kg-fact-3 bdi')).unicodeBidi") == "isolate"
    # a chip shows its one fact
    cdp.js("document.querySelector('#kg-text .kg-chip[data-fact=\"1\"]').click()")
    assert cdp.js("document.body.dataset.shown") == "1"
    assert "condemn" in cdp.js("document.getElementById('kg-fact-1').textContent")
    _not_pwned(cdp)


def test_article_page_highlights_every_fact_and_links_the_entities(cdp: _Cdp, served: Served) -> None:
    url = served.url + f"article/{ps.ARTICLE_ID}"
    _open(cdp, url, "!!document.getElementById('kg-text')")
    _check_article(cdp)
    assert cdp.js("getComputedStyle(document.querySelector('mark.kg-ev')).backgroundColor") != "rgba(0, 0, 0, 0)"
    moen = cdp.js("getComputedStyle(document.querySelector('.kg-name.kg-t-Person')).borderBottomColor")
    assert moen == "rgb(78, 121, 167)"  # the view's legend colour of a Person, #4e79a7
    requests = _requests(cdp)
    assert _all_local(requests), requests
    assert cdp.problems() == []
    # the entity link of the fact leads to the entity's page on this server
    cdp.js("[...document.querySelectorAll('#kg-fact-1 a.kg-entity')].find(a => a.textContent.includes('Moen')).click()")
    assert cdp.wait_for("location.pathname === '/entity/person/halvard-moen' && document.readyState === 'complete'")
    assert cdp.js("document.getElementById('kg-label').textContent") == "Halvard Moen"


def test_article_file_works_offline(cdp: _Cdp, store: Path, tmp_path: Path) -> None:
    out = tmp_path / "article.html"
    api.article_page(ps.ARTICLE_ID, out, str(store))
    url = out.resolve().as_uri() + "#fact=2"
    _open(cdp, url, "!!document.getElementById('kg-text')")
    assert cdp.js("document.body.dataset.shown") == "2"  # the deep link
    _check_article(cdp)
    requests = _requests(cdp, document=out.resolve().as_uri())
    assert requests and all(u.startswith("file:") for u in requests), requests
    assert cdp.problems() == []


def test_entity_dossier_draws_its_network_and_stays_inert(cdp: _Cdp, served: Served) -> None:
    _open(cdp, served.url + vs.KAMARA[len(vs.BASE):], "document.body.dataset.egoStabilized === 'true'")
    assert cdp.js("document.querySelectorAll('#kg-ego canvas').length") == 1
    assert cdp.js("document.getElementById('kg-label').textContent") == "Idris Kamara"
    assert "since 2009" in cdp.js("document.getElementById('kg-roles').textContent")
    assert cdp.js("JSON.parse(document.getElementById('kg-jsonld').textContent)['@type']") == "Person"
    requests = _requests(cdp)
    assert _all_local(requests) and any(u.endswith("/static/vis-network.min.js") for u in requests), requests
    assert cdp.problems() == []
    # a click on an entity of the network opens its page
    at = cdp.js(f"""(() => {{ const id = {json.dumps(vs.WOLVES)};
        const p = window.kgEgo.canvasToDOM(window.kgEgo.getPositions([id])[id]);
        const r = document.getElementById('kg-ego').getBoundingClientRect();
        return [r.left + p.x, r.top + p.y]; }})()""")
    cdp.click(*at)
    assert cdp.wait_for("location.pathname === '/entity/organization/iron-wolves' && document.readyState === 'complete'")
    assert "Idris Kamara" in cdp.js("document.getElementById('kg-members').textContent")
    # a hostile name: shown as text, its bidi override kept inside it
    for iri in (vs.iri("Person", ps.EVIL_NAME), vs.EVIL):
        _open(cdp, served.url + iri[len(vs.BASE):], "!!document.getElementById('kg-label')")
        _not_pwned(cdp)
        assert cdp.js("document.getElementById('kg-label').textContent") in (ps.EVIL_NAME, vs.IMG)
        assert cdp.js("getComputedStyle(document.querySelector('#kg-label bdi')).unicodeBidi") == "isolate"
        assert cdp.problems() == []
        assert _all_local(_requests(cdp))


ROWS_SHOWN = "document.querySelectorAll('.yasr table.dataTable tbody tr').length"


def _column(cdp: _Cdp, index: int) -> list[str]:
    return cdp.js(f"[...document.querySelectorAll('.yasr table.dataTable tbody tr')].map(r => r.cells[{index}].textContent)")


def test_query_page_works_offline_and_stays_inert(cdp: _Cdp, served: Served) -> None:
    _open(cdp, served.url + "#canned=events.rq", "['done', 'error'].includes(document.body.dataset.state)")
    assert cdp.js("document.body.dataset.state") == "done", cdp.js("document.getElementById('kg-status').textContent")
    rows = int(cdp.js("document.body.dataset.rows"))
    assert rows > 3 and cdp.js(ROWS_SHOWN) == rows
    assert cdp.js("document.querySelectorAll('.tabsList .tab').length") == int(cdp.js("document.body.dataset.canned")) >= 10
    requests = _requests(cdp)
    assert _all_local(requests) and any(u.endswith("/static/yasgui.min.js") for u in requests), requests
    assert "static/yasgui-LICENSE.txt" in cdp.js("document.querySelector('#kg-header nav').innerHTML")
    # sorted by a click on a column's head (the action, column 3 after the row number)
    cdp.js("document.querySelectorAll('.yasr table.dataTable thead th')[3].click()")
    assert cdp.wait_for("document.querySelector('.yasr table.dataTable thead th[aria-sort]') !== null")
    actions = _column(cdp, 3)
    assert actions == sorted(actions) and len(set(actions)) > 1
    # the ontology's terms complete, with no lookup service
    cdp.js("""(() => { const y = kgYasgui.getTab().getYasqe(); y.setValue('SELECT * WHERE { ?e kg:act'); y.focus();
              y.getDoc().setCursor({line: 0, ch: 40}); y.autocomplete(); })()""")
    assert cdp.wait_for("document.querySelectorAll('.CodeMirror-hint').length > 0")
    assert {"kg:actor", "kg:action"} <= set(cdp.js("[...document.querySelectorAll('.CodeMirror-hint')].map(h => h.textContent)"))
    # a long result is paged: 50 rows a page, the next page shows the rest
    assert cdp.js("kgRun('SELECT ?s ?p ?o WHERE { ?s ?p ?o }')", wait=True) == "done"
    total = int(cdp.js("document.body.dataset.rows"))
    assert total > 100 and cdp.js(ROWS_SHOWN) == 50
    first = _column(cdp, 0)
    cdp.js("document.querySelector('.dt-paging button.next, .dt-paging .dt-paging-button.next').click()")
    assert cdp.wait_for(f"document.querySelector('.yasr table.dataTable tbody tr').cells[0].textContent !== {json.dumps(first[0])}")
    assert _column(cdp, 0)[0] == "51"
    # the hostile article's title, URL, text and names are shown as text
    hostile = f"""PREFIX dcterms: <http://purl.org/dc/terms/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?article ?p ?o ?name WHERE {{ {{ BIND(<{vs.BASE}article/{ps.ARTICLE_ID}> AS ?article) ?article ?p ?o }}
        UNION {{ ?e rdfs:label ?name FILTER(CONTAINS(?name, "<")) }} }}"""
    assert cdp.js(f"kgRun({json.dumps(hostile)})", wait=True) == "done"
    table = cdp.js("document.querySelector('.yasr table.dataTable').textContent")
    assert vs.SCRIPT in table and vs.IMG in table and ps.EVIL_NAME in table
    _not_pwned(cdp)
    assert _all_local(_requests(cdp))
    assert [p for p in cdp.problems() if not purifier_report(p)] == []
    # a link of the results leads to this server's page of the article (a first click on a cut cell
    # shows it whole, as YASR does)
    cdp.js(f"""(a => {{ if (a.closest('.expandable:not(.expanded)')) a.click(); a.click(); }})(
        [...document.querySelectorAll('.yasr a.iri')].find(a => a.getAttribute('href') === 'article/{ps.ARTICLE_ID}'))""")
    assert cdp.wait_for(f"location.pathname === '/article/{ps.ARTICLE_ID}' && !!document.getElementById('kg-text')")
    _not_pwned(cdp)
