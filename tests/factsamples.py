"""Hand-built facts shared by the mapping and shapes tests (no spaCy, no model).

Imported as a plain module (``from factsamples import ...``): pytest puts ``tests/`` on
``sys.path`` because the folder has no ``__init__.py``. Importing it also makes the ``kg``
package importable when the project is not installed into the virtualenv.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONTOLOGY = ROOT / "ontology" / "kg.ttl"
SHAPES = ROOT / "ontology" / "shapes.ttl"
SEEDS = ROOT / "seeds"
#: The workspace's shared data (dev set with gold, W3C suites): outside the repository, beside the
#: checkout (``../shared``, as ``make score`` reads it) or where KG_SHARED says (``.ci/run`` sets it).
SHARED = Path(os.environ.get("KG_SHARED") or ROOT.parent / "shared")
#: The development set with gold (or where KG_DEV_SET says); tests that need it skip without it.
DEV = Path(os.environ.get("KG_DEV_SET") or SHARED / "eval" / "dev" / "articles")

if str(ROOT) not in sys.path:  # the package is not necessarily installed
    sys.path.insert(0, str(ROOT))

from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence, Role, Time  # noqa: E402
from kg.model.iris import Minter  # noqa: E402

BASE = "https://kg.example.org/"

#: Text that strict serializers and parsers get wrong: quotes, backslashes, newlines, tabs,
#: markup, emoji (outside the BMP), right-to-left script, a combining accent, CR, and the
#: characters str.splitlines() splits on but N-Triples does not escape (U+2028, NEL, FF).
ODD = 'He said "stop" \\ <script>alert(\'x\')</script>\n\t🙂👍🏽 مرحبا بالعالم e\u0301 \r\u2028\x85\x0c end'

S_ROLE = "Harbor Authority press secretary Nadia Ferrante said a gunman killed two Norwegian border guards."
S_THROW = "Demonstrators threw stones at a US consulate."
S_NOT = 'Moen did not blame the "Black Reed Front" 🙂 <script>.'
S_FORMER = "Former Norwegian Defense Minister Tomas Ibarra called for a ceasefire."
S_PASSIVE = "Four guards were wounded."
TEXT = f"BERGEN —\n{S_ROLE}\n{S_THROW} {S_NOT}\n\n{S_FORMER} {S_PASSIVE}\n{ODD}\n"


def evidence(sentence: str) -> Evidence:
    """The evidence for one sentence of ``TEXT``, with its real offsets."""
    start = TEXT.index(sentence)
    return Evidence(text=sentence, start=start, end=start + len(sentence))


def minter() -> Minter:
    return Minter(BASE)


def sample_facts() -> ArticleFacts:
    """A small article: every entity type; a targeted, a negated, a reported, an intransitive and an
    agentless passive event; a current and a former role (the latter in a country). With context:
    CAMEO classes (and one reason for none), a day, a week and a year, a place from the clause and one
    from the dateline, a responsibility claim; a role held since a year and a former one."""
    article = Article(
        id="seed/harbor-2012-02-25.txt",
        text=TEXT,
        title=ODD,
        date="2012-02-25",
        url="https://news.example.com/a?id=1&x=2",
        path="seeds/harbor-2012-02-25.txt",
        content_hash=hashlib.sha256(TEXT.encode("utf-8")).hexdigest(),
    )
    entities = {
        "ferrante": Entity("ferrante", "Nadia Ferrante", "Person", {"Ferrante", "Nadia Ferrante"}, 2),
        "moen": Entity("moen", "Halvard Moen", "Person", {"Moen"}),
        "ibarra": Entity("ibarra", "Tomas Ibarra", "Person"),
        "harbor": Entity("harbor", "Harbor Authority", "Organization"),
        "front": Entity("front", "Black Reed Front", "Organization", {ODD, "the \"Black Reed Front\""}),
        "us": Entity("us", "US", "Place", {"U.S."}),
        "norway": Entity("norway", "Norway", "Place", {"Norwegian"}),
        "gunman": Entity("gunman", "a gunman", "Group"),
        "guards": Entity("guards", "two Norwegian border guards", "Group"),
        "demonstrators": Entity("demonstrators", "Demonstrators", "Group"),
        "wounded": Entity("wounded", "Four guards", "Group"),
        "bergen": Entity("bergen", "Bergen", "Place"),
    }
    events = [
        # an event with a target
        Event(actor="demonstrators", action="throw", target="us", evidence=evidence(S_THROW), rule="svo",
              cameo="18", lemma="throw stone", time=Time("Sunday", "2012-02-19", "date"), place="norway"),
        # a negated event
        Event(actor="moen", action="blame", target="front", evidence=evidence(S_NOT), negated=True,
              lemma="blame", class_reason="verb not in lexicon: blame (a hand-built fact)", place="bergen",
              place_from_dateline=True),
        # a reported event, with the speaker
        Event(
            actor="gunman",
            action="kill",
            target="guards",
            evidence=evidence(S_ROLE),
            modality="reported",
            reported_by="ferrante",
            confidence=0.6,
            rule="svo-reported",
            cameo="18",
            lemma="kill",
            claimed_by="front",
            time=Time("last week", datatype="interval", begin="2012-02-13", end="2012-02-19"),
        ),
        # an intransitive, planned one
        Event(actor="ibarra", action="call", evidence=evidence(S_FORMER), modality="planned", confidence=1.0,
              cameo="02", lemma="call for", time=Time("in 2012", "2012", "gYear")),
        # an agentless passive: no actor, only a target
        Event(actor=None, action="wound", target="wounded", evidence=evidence(S_PASSIVE), rule="passive",
              cameo="18", lemma="wound", time=Time("Saturday")),
    ]
    roles = [
        Role(person="ferrante", role="press secretary", org="harbor", evidence=evidence(S_ROLE),
             since=Time("2010", "2010", "gYear")),
        Role(
            person="ibarra", role="defense minister", org="norway", evidence=evidence(S_FORMER), former=True
        ),
    ]
    return ArticleFacts(article=article, entities=entities, events=events, roles=roles)
