"""The canned queries of time and place (queries/events-when-where.rq, events-in.rq) on invented facts
(no model): each event's time expression, date and place, and the events of one place in a date range."""
from __future__ import annotations

from dataclasses import replace

import pytest
from test_resolve_rules import article, store_of

from kg.model.facts import ArticleFacts, Time
from kg.rdf.query import QUERY_DIR
from kg.store import Store

TEXT = "On Saturday, rebels shelled Varno; last week, troops left Talmora; the envoy spoke."


def _facts() -> ArticleFacts:
    a = article("qw", TEXT, [("r", "rebels", "Group"), ("v", "Varno", "Place"), ("t", "troops", "Group"),
                             ("m", "Talmora", "Place"), ("e", "envoy", "Group")],
                events=[("r", "shell", "v"), ("t", "leave", "m"), ("e", "speak", None)])
    shell, leave, speak = a.events
    a.events = [
        replace(shell, time=Time("On Saturday", "2014-03-01", "date"), place="v"),
        replace(leave, time=Time("last week", datatype="interval", begin="2014-02-24", end="2014-03-02"), place="m"),
        replace(speak, place="m", place_from_dateline=True),
    ]
    a.article = replace(a.article, date="2014-03-03")
    return a


@pytest.fixture(scope="module")
def store() -> Store:
    return store_of(_facts())


def _query(store: Store, name: str, values: tuple[str, str, str] | None = None) -> list[dict[str, str | None]]:
    text = (QUERY_DIR / name).read_text(encoding="utf-8")
    if values is not None:
        text = text.replace('("" "" "")', '("{}" "{}" "{}")'.format(*values))
    return store.select(text)


def test_each_event_with_its_time_date_and_place(store: Store) -> None:
    rows = {r["action"]: r for r in _query(store, "events-when-where.rq")}
    assert rows, "no rows"
    assert (rows["shell"]["when"], rows["shell"]["date"], rows["shell"]["place"]) == ("On Saturday", "2014-03-01",
                                                                                    "Varno")
    assert rows["leave"]["date"] == "2014-02-24/2014-03-02" and rows["leave"]["place"] == "Talmora"
    assert rows["speak"]["place"] is None and rows["speak"]["dateline"] == "Talmora" and rows["speak"]["when"] is None


def test_the_rows_are_those_of_events_rq(store: Store) -> None:
    cols = ("article", "actor", "action", "target", "confidence", "sentence")
    plain = sorted(tuple(r[c] for c in cols) for r in _query(store, "events.rq"))
    assert plain
    assert sorted(tuple(r[c] for c in cols) for r in _query(store, "events-when-where.rq")) == plain


@pytest.mark.parametrize(("values", "actions"), [
    (("varno", "2014-03-01", "2014-03-01"), ["shell"]),  # the day itself, the name in any case
    (("Talmora", "2014-02-01", "2014-02-28"), ["leave"]),  # a week that overlaps the range
    (("Talmora", "2014-03-02", "2014-03-31"), ["leave"]),
    (("Varno", "2014-03-02", "2014-03-31"), []),
    (("Talmora", "2014-04-01", "2014-04-30"), []),
])
def test_events_in_a_place_and_a_date_range(store: Store, values: tuple[str, str, str], actions: list[str]) -> None:
    rows = _query(store, "events-in.rq", values)
    assert sorted(r["action"] for r in rows) == actions
    assert all(r["how"] == "clause" for r in rows)


def test_as_shipped_events_in_lists_every_placed_event(store: Store) -> None:
    rows = _query(store, "events-in.rq")
    assert sorted((r["action"], r["how"]) for r in rows) == [("leave", "clause"), ("shell", "clause"),
                                                             ("speak", "dateline")]
    assert next(r for r in rows if r["action"] == "speak")["date"] is None
