"""Time and place where people look (issue 36): the article page shows each event's time and place and
each role's years, the network view's date filter takes an event's own date where it has one, and
``kg show`` lists a role with its years and an event with its time and place (invented facts, no model)."""
from __future__ import annotations

from dataclasses import replace

import pytest
import viewsamples as vs

from kg import api
from kg.model.facts import ArticleFacts, Event, Time
from kg.outputs.network import day_span, load_network
from kg.outputs.select import date_network
from kg.store import MemoryStore


def _facts() -> list[ArticleFacts]:
    """The view samples, with the kill dated a week before its article and placed in Bergen, and the
    spokesman's role held from 2009 to 2011."""
    bergen, condemn = vs.sample_facts()
    bergen.events = [replace(e, time=Time("on Saturday", "2012-02-18", "date"), place="bergen")
                     if e.action == "kill" else e for e in bergen.events]
    bergen.events.append(Event("moen", "tour", vs._ev("Moen toured the harbour in the 1990s.", 500),
                               time=Time("in the 1990s", datatype="interval", begin="1990", end="1999")))
    bergen.roles = [replace(r, since=Time("in 2009", "2009", "gYear"), until=Time("to 2011", "2011", "gYear"),
                            former=True) if r.role == "spokesman" else r for r in bergen.roles]
    return [bergen, condemn]


@pytest.fixture(scope="module")
def store() -> MemoryStore:
    return vs.build_store(_facts())


def test_day_span_of_a_day_a_month_a_year_and_a_span() -> None:
    assert day_span("2012-02-18", "2012-02-18") == ("2012-02-18", "2012-02-18")
    assert day_span("2012-02", "2012-02") == ("2012-02-01", "2012-02-29")
    assert day_span("1990", "1999") == ("1990-01-01", "1999-12-31")
    assert day_span("", "2012") == ("", "") and day_span("Saturday", "Saturday") == ("", "")


def test_the_view_filter_takes_the_events_own_date(store: MemoryStore) -> None:
    net = load_network(store)
    kill = next(e for e in net.facts() if e.label == "kill")
    assert (kill.when, kill.first, kill.last, kill.date) == ("on Saturday", "2012-02-18", "2012-02-18", "2012-02-25")
    week = date_network(net, "2012-02-18", "2012-02-18")
    assert [e.label for e in week.facts()] == ["kill"]  # its own day, not its article's
    labels = {e.label for e in date_network(net, "2012-02-25", "2012-02-25").facts()}
    assert labels and "kill" not in labels and "call" in labels  # undated events: the article's date
    nineties = date_network(net, "1995", "1995").facts()
    assert [e.label for e in nineties] == ["tour"]  # any day of the decade


def test_the_page_data_carries_the_events_date(store: MemoryStore) -> None:
    html = api.view(store=store).html
    assert html is not None and '"first":"2012-02-18"' in html and '"when":"on Saturday"' in html


def test_the_article_page_shows_when_and_where(store: MemoryStore) -> None:
    html = api.article_page("bergen-shooting", store=store).html
    assert html is not None
    assert '<span class="kg-tag kg-when" title="when"><bdi>on Saturday</bdi> (2012-02-18)</span>' in html
    assert '<span class="kg-tag kg-where" title="where">in <bdi>Bergen</bdi></span>' in html
    assert '<span class="kg-tag kg-when">from <bdi>2009</bdi> to <bdi>2011</bdi></span>' in html
    assert "<dt>where</dt>" in html and '<span class="kg-date">2012-02-18</span>' in html


def test_kg_show_lists_a_roles_years_and_an_events_time_and_place(store: MemoryStore) -> None:
    kamara = api.show("Idris Kamara", store=store)
    roles = [f for f in kamara.facts if f.kind == "role"]
    assert roles and roles[0].when == "2009 to 2011" and "former" in roles[0].flags
    gunman = api.show("a gunman", store=store)
    (kill,) = [f for f in gunman.facts if f.kind == "event"]
    assert (kill.when, kill.where) == ("on Saturday, 2012-02-18", "Bergen")
