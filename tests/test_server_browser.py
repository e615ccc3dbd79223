"""``kg serve`` pages in a real headless chromium (Debian's), driven over the DevTools
protocol on a pipe (the client of ``tests/test_view_browser.py``): the query page runs a
canned query and shows its rows, downloads CSV; an entity page shows the entity's facts.
Hostile text from the store stays text, and the page logs no error or CSP violation.

Without chromium these tests skip, or fail when the CI environment variable is set.
"""
from __future__ import annotations

import json
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
import test_view_browser
import viewsamples as vs
from test_server_support import Served, build_store, purifier_report
from test_view_browser import LOOPBACK_FLAGS, _Cdp

PAGE_OK = "document.body && document.body.dataset.state"
# the view tests' flags (no proxy, no name resolution), but with the loopback address reachable
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    store = build_store(tmp_path_factory.mktemp("browser") / "store")
    s = Served(store, "--workers", "2")
    yield s
    s.close()


@pytest.fixture
def cdp(chromium: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Cdp]:
    if sys.platform == "win32":
        pytest.skip("--remote-debugging-pipe needs POSIX file descriptors")
    profile = tmp_path / "cdp-profile"
    profile.mkdir()
    monkeypatch.setattr(test_view_browser, "CHROMIUM_FLAGS", LOOPBACK_FLAGS)  # _Cdp starts chromium with these
    client = _Cdp(chromium, profile)
    try:
        targets = client.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        client.session = client.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})[
            "sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            client.call(domain)
        yield client
    finally:
        client.close()


def _not_pwned(cdp: _Cdp) -> None:
    assert cdp.js("typeof window.__pwned") == "undefined"
    assert cdp.js("document.documentElement.hasAttribute('data-pwned')") is False
    assert cdp.js("document.querySelectorAll('img').length") == 0
    assert cdp.js("[...document.querySelectorAll('a')].filter(a => a.protocol === 'javascript:').length") == 0


def _rows_by_http(url: str, name: str) -> list[dict[str, str]]:
    canned = json.load(urllib.request.urlopen(url + "queries", timeout=30))
    text = next(q["query"] for q in canned if q["name"] == name)
    req = urllib.request.Request(url + "sparql", data=urllib.parse.urlencode({"query": text}).encode(),
                                 headers={"Accept": "application/sparql-results+json"})
    data = json.load(urllib.request.urlopen(req, timeout=30))
    return data["results"]["bindings"]


TABLE_ROWS = "document.querySelectorAll('.yasr table.dataTable tbody tr').length"
TABLE_TEXT = "document.querySelector('.yasr table.dataTable').textContent"


def test_query_page_runs_a_canned_query_and_shows_rows(cdp: _Cdp, served: Served) -> None:
    expected = _rows_by_http(served.url, "events.rq")
    assert len(expected) > 3
    cdp.call("Page.navigate", {"url": served.url + "#canned=events.rq"})
    assert cdp.wait_for(f"{PAGE_OK} === 'done' || {PAGE_OK} === 'error'", timeout=30)
    assert cdp.js("document.body.dataset.state") == "done", cdp.js("document.getElementById('kg-status').textContent")
    assert cdp.js("document.body.dataset.rows") == str(len(expected))
    assert int(cdp.js("document.body.dataset.canned")) >= 6
    assert cdp.js("kgYasgui.getTab().getName()") == "events"
    assert cdp.js("document.getElementById('kg-canned-desc').textContent").startswith("Events: who did what")
    heads = cdp.js("[...document.querySelectorAll('.yasr table.dataTable thead th')].map(th => th.textContent.trim())")
    assert heads[1:] == ["article", "actor", "action", "target", "confidence", "sentence"]  # after the row number
    assert cdp.js(TABLE_ROWS) == len(expected)
    table = cdp.js(TABLE_TEXT)
    assert "Moen condemned the Iron Wolves." in table
    assert vs.HOSTILE_SENTENCE in table  # the markup is shown as text
    _not_pwned(cdp)

    csv_text = cdp.js("window.kgDownload('csv')", wait=True)
    assert csv_text.splitlines()[0] == "article,actor,action,target,confidence,sentence"
    assert len(csv_text.strip().splitlines()) >= 1 + len(expected)
    json_text = cdp.js("window.kgDownload('json')", wait=True)
    assert len(json.loads(json_text)["results"]["bindings"]) == len(expected)

    # open another canned query's tab and press its run button, as a user would
    cdp.js("[...document.querySelectorAll('.tabsList .tab a')].find(a => a.textContent.startsWith('roles')).click()")
    assert cdp.wait_for("kgYasgui.getTab().getName() === 'roles' && !!document.querySelector('.tabPanel.active .yasqe_queryButton')")
    cdp.js("document.querySelector('.tabPanel.active .yasqe_queryButton').click()")
    assert cdp.wait_for(f"{PAGE_OK} === 'done' && kgYasgui.getTab().getYasr().resultsEl.textContent.includes('press secretary')",
                        timeout=30)
    assert cdp.js("document.body.dataset.rows") == str(len(_rows_by_http(served.url, "roles.rq")))
    # an article IRI in the results links to its page on this server
    hrefs = cdp.js("[...kgYasgui.getTab().getYasr().resultsEl.querySelectorAll('a.iri')].map(a => a.getAttribute('href'))")
    assert "article/bergen-shooting" in hrefs and not any(h.startswith(vs.BASE) for h in hrefs), hrefs

    # an error is shown as text, not as markup
    assert cdp.js("window.kgRun('SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }')", wait=True) == "error"
    assert "SERVICE" in cdp.js("document.getElementById('kg-status').textContent")
    problems = [p for p in cdp.problems() if "400" not in json.dumps(p) and not purifier_report(p)]
    assert problems == [], problems


def test_query_page_shows_a_canned_header_once_and_numbers_as_numbers(cdp: _Cdp, served: Served) -> None:
    cdp.call("Page.navigate", {"url": served.url + "#canned=events.rq"})
    assert cdp.wait_for(f"{PAGE_OK} === 'done' || {PAGE_OK} === 'error'", timeout=30)
    shown = cdp.js("document.getElementById('kg-canned-desc').textContent")
    editor = cdp.js("kgYasgui.getTab().getQuery()")
    assert shown.startswith("Events: who did what")  # the header above the editor ...
    assert "who did what" not in editor and editor.startswith("PREFIX"), editor[:200]  # ... and not in it again
    assert cdp.js("window.kgRun('SELECT ?x ?n ?d ?s WHERE { VALUES (?x ?n ?d ?s) "
                  "{ (0.974 3 \"2024-05-01\"^^<http://www.w3.org/2001/XMLSchema#date> \"a b\") } }')", wait=True) == "done"
    cells = cdp.js("[...document.querySelectorAll('.yasr table.dataTable tbody td')].map(td => td.textContent.trim())")
    assert len(cells) == 5, cells  # the row number, then the four values
    assert cells[1:3] == ["0.974", "3"] and cells[4] == "a b"  # numbers as numbers
    assert cells[3].startswith('"2024-05-01"^^'), cells  # other typed literals keep their type


def test_entity_page_shows_the_facts(cdp: _Cdp, served: Served) -> None:
    url = served.url + vs.MOEN[len(vs.BASE):]
    cdp.call("Page.navigate", {"url": url})
    assert cdp.wait_for("document.readyState === 'complete' && !!document.getElementById('kg-label')", timeout=30)
    assert cdp.js("document.getElementById('kg-label').textContent") == "Halvard Moen"
    assert "Moen" in cdp.js("document.getElementById('kg-aliases').textContent")
    events = cdp.js("document.getElementById('kg-events').textContent")
    assert "Moen called for a ceasefire." in events and "Moen condemned the Iron Wolves." in events and "condemn" in events
    # follow the link to the target, as a click would
    cdp.js("[...document.querySelectorAll('#kg-events a')].find(a => a.textContent === 'Iron Wolves').click()")
    assert cdp.wait_for("document.getElementById('kg-label') && "
                        "document.getElementById('kg-label').textContent === 'Iron Wolves'", timeout=30)
    assert "Moen condemned the Iron Wolves." in cdp.js("document.getElementById('kg-events').textContent")
    assert "spokesman" in cdp.js("document.getElementById('kg-members').textContent")
    assert cdp.js("getComputedStyle(document.querySelector('th')).fontWeight") in ("700", "bold")  # entity.css loaded

    cdp.call("Page.navigate", {"url": served.url + vs.EVIL[len(vs.BASE):]})
    assert cdp.wait_for("document.readyState === 'complete' && !!document.getElementById('kg-label')", timeout=30)
    assert cdp.js("document.getElementById('kg-label').textContent") == vs.IMG
    assert vs.HOSTILE_SENTENCE in cdp.js("document.getElementById('kg-events').textContent")
    assert f"chief {vs.SCRIPT}" in cdp.js("document.getElementById('kg-roles').textContent")
    _not_pwned(cdp)
    assert cdp.problems() == []


def test_view_is_served(cdp: _Cdp, served: Served) -> None:
    cdp.call("Page.navigate", {"url": served.url + "view"})
    assert cdp.wait_for("document.body && document.body.dataset.stabilized === 'true'", timeout=60)
    assert int(cdp.js("document.body.dataset.drawn")) == len(vs.EXPECTED_NODES)
    _not_pwned(cdp)
    assert cdp.problems() == []
