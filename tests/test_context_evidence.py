"""End to end, through the real pipeline (``kg.build.pipeline.build``) into a store (the session's
``seeds_store`` and ``dev_store`` of conftest.py):

* for every fact (event and membership) of every seed, the article text (``schema:text``) sliced
  with the evidence offsets gives back the evidence sentence exactly, and the trigger-based context
  (class or reason, times, places, claims) is in the graph;
* on the dev set, every event has a class or a stated reason, claims of responsibility and
  reported speech carry their source, and the scorer's ``events.rq`` / ``roles.rq`` columns are
  as they were;
* the new canned queries answer.
"""
from __future__ import annotations

from datetime import date, timedelta

from factsamples import SEEDS

from kg.rdf.query import QUERY_DIR

PREFIXES = """
PREFIX kg: <https://w3id.org/kg-news/ns#>
PREFIX org: <http://www.w3.org/ns/org#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX schema: <https://schema.org/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX sem: <http://semanticweb.cs.vu.nl/2009/11/sem/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
"""


def _rows(store, query: str) -> list[dict]:  # type: ignore[no-untyped-def]
    return store.select(PREFIXES + query)


def test_every_offset_of_every_seed_slices_the_sentence_back(seeds_store) -> None:  # type: ignore[no-untyped-def]
    texts = {r["article"]: r["text"] for r in _rows(seeds_store, "SELECT ?article ?text WHERE { ?article a kg:Article ; schema:text ?text }")}
    assert len(texts) == len([p for p in SEEDS.iterdir() if p.suffix in (".txt", ".html", ".jsonl")])
    facts = _rows(seeds_store, """
        SELECT ?fact ?article ?sentence ?begin ?end WHERE {
          { ?fact a kg:Event } UNION { ?fact a org:Membership }
          ?fact prov:wasDerivedFrom ?article ;
                kg:evidence [ kg:sentence ?sentence ; kg:beginIndex ?begin ; kg:endIndex ?end ] .
        }""")
    assert len(facts) > 150
    bad = [f for f in facts if texts[f["article"]][int(f["begin"]):int(f["end"])] != f["sentence"]]
    assert not bad, bad[:3]
    every = _rows(seeds_store, "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { { ?f a kg:Event } UNION { ?f a org:Membership } }")
    assert int(every[0]["n"]) == len({f["fact"] for f in facts}), "every fact has its evidence"


def test_every_seed_event_has_a_class_or_a_reason(seeds_store) -> None:  # type: ignore[no-untyped-def]
    missing = _rows(seeds_store, """
        SELECT ?e WHERE { ?e a kg:Event .
          FILTER NOT EXISTS { ?e kg:eventClass ?c } FILTER NOT EXISTS { ?e kg:classReason ?r } }""")
    assert not missing
    classed = _rows(seeds_store, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e kg:eventClass ?c }")
    everything = _rows(seeds_store, "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e a kg:Event }")
    assert int(classed[0]["n"]) >= 0.6 * int(everything[0]["n"])


def test_seed_events_have_resolved_times_and_places(seeds_store) -> None:  # type: ignore[no-untyped-def]
    """"yesterday" is the day before its article's date, wherever a seed says it; places are found."""
    stamps = _rows(seeds_store, """SELECT DISTINCT ?stamp ?published WHERE {
        ?e kg:timeText ?text ; sem:hasTimeStamp ?stamp ; prov:wasDerivedFrom ?a . ?a schema:datePublished ?published
        FILTER(LCASE(?text) = "yesterday") }""")
    assert stamps
    for r in stamps:
        assert date.fromisoformat(r["stamp"]) == date.fromisoformat(r["published"][:10]) - timedelta(days=1), r
    places = _rows(seeds_store, "SELECT DISTINCT ?place WHERE { ?e sem:hasPlace|kg:datelinePlace/rdfs:label ?place }")
    assert places


def test_new_queries_answer_on_the_seeds(seeds_store) -> None:  # type: ignore[no-untyped-def]
    for name in ("actor-timeline.rq", "events-by-class.rq", "conflict-cooperation.rq", "said-what.rq"):
        text = (QUERY_DIR / name).read_text(encoding="utf-8")
        assert text.startswith("#"), name
        assert seeds_store.select(text), name


def test_timeline_is_in_time_order(seeds_store) -> None:  # type: ignore[no-untyped-def]
    rows = seeds_store.select((QUERY_DIR / "actor-timeline.rq").read_text(encoding="utf-8"))
    whens = [r["when"] for r in rows if r.get("when")]
    assert whens == sorted(whens) and whens


# ----- the dev set ---------------------------------------------------------------------------------

def test_dev_every_event_has_a_class_or_a_stated_reason(dev_store) -> None:  # type: ignore[no-untyped-def]
    rows = _rows(dev_store, """
        SELECT ?e ?action ?class ?reason WHERE { ?e a kg:Event ; kg:action ?action .
          OPTIONAL { ?e kg:eventClass ?class } OPTIONAL { ?e kg:classReason ?reason } }""")
    assert rows
    assert all((r.get("class") is None) != (r.get("reason") is None) for r in rows), rows
    reasons = [r["reason"] for r in rows if r.get("reason")]
    assert reasons and all(r.startswith(("verb not in lexicon: ", "ambiguous verb: ")) for r in reasons)


def test_dev_claims_and_reports_carry_attribution(dev_store) -> None:  # type: ignore[no-untyped-def]
    """A claim of responsibility is linked to a violent deed (CAMEO 18-20) and gives a "claim
    responsibility" event; an event with a source is a reported one."""
    said = dev_store.select((QUERY_DIR / "said-what.rq").read_text(encoding="utf-8"))
    claimed = [r for r in said if r["how"] == "claimed responsibility"]
    reported = [r for r in said if r["how"] == "reported"]
    assert claimed and reported and all(r["source"] for r in said)
    classes = _rows(dev_store, """SELECT ?e ?code WHERE { ?e kg:claimedBy ?who .
        OPTIONAL { ?e kg:eventClass/skos:notation ?code } }""")
    assert classes and all(r.get("code") in ("18", "19", "20") for r in classes), classes
    assert all(r["modality"] == "reported" for r in reported), [r for r in reported if r["modality"] != "reported"]
    claim = _rows(dev_store, 'SELECT ?lemma WHERE { ?e kg:action "claim" ; kg:lemma ?lemma ; kg:modality ?m }')
    assert {"lemma": "claim responsibility"} in claim


def test_dev_offsets_slice_exactly(dev_store) -> None:  # type: ignore[no-untyped-def]
    texts = {r["a"]: r["text"] for r in _rows(dev_store, "SELECT ?a ?text WHERE { ?a a kg:Article ; schema:text ?text }")}
    rows = _rows(dev_store, """SELECT ?a ?s ?b ?e WHERE { ?f prov:wasDerivedFrom ?a ; kg:evidence ?x .
        ?x kg:sentence ?s ; kg:beginIndex ?b ; kg:endIndex ?e }""")
    assert len(texts) > 1 and rows
    assert all(texts[r["a"]][int(r["b"]):int(r["e"])] == r["s"] for r in rows)


def test_scorer_columns_are_unchanged() -> None:
    """The workspace scorer reads these columns by name; their order is kept, ?confidence is added
    before ?sentence (what users filter on: FILTER(?confidence >= 0.8))."""
    import re

    def columns(name: str) -> list[str]:
        text = (QUERY_DIR / name).read_text(encoding="utf-8")
        return re.findall(r"\?(\w+)", re.search(r"SELECT(.*?)WHERE", text, re.S).group(1))

    assert columns("events.rq") == ["article", "actor", "action", "target", "confidence", "sentence"]
    assert columns("roles.rq") == ["article", "person", "role", "org", "former", "confidence", "sentence"]
