"""Hand-built facts shared by the mapping and shapes tests (no spaCy, no model).

Imported as a plain module (``from factsamples import ...``): pytest puts ``tests/`` on
``sys.path`` because the folder has no ``__init__.py``. Importing it also makes the ``kg``
package importable when the project is not installed into the virtualenv.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONTOLOGY = ROOT / "ontology" / "kg.ttl"
SHAPES = ROOT / "ontology" / "shapes.ttl"
#: The development set with gold (outside the repository; tests that need it skip without it).
DEV = Path("/work/shared/eval/dev/articles")

if str(ROOT) not in sys.path:  # the package is not necessarily installed
    sys.path.insert(0, str(ROOT))

from kg.facts import Article, ArticleFacts, Entity, Event, Evidence, Role, Time  # noqa: E402
from kg.iris import Minter  # noqa: E402

BASE = "https://kg.example.org/"

#: Text that strict serializers and parsers get wrong: quotes, backslashes, newlines, tabs,
#: markup, emoji (outside the BMP), right-to-left script, a combining accent, CR, and the
#: characters str.splitlines() splits on but N-Triples does not escape (U+2028, NEL, FF).
ODD = 'He said "stop" \\ <script>alert(\'x\')</script>\n\t🙂👍🏽 مرحبا بالعالم e\u0301 \r\u2028\x85\x0c end'

S_ROLE = "Pentagon press secretary George Little said a gunman killed two US military advisers."
S_THROW = "Demonstrators threw a grenade at a US base."
S_NOT = 'Karzai did not blame the "Taliban" 🙂 <script>.'
S_FORMER = "Former Afghan Defense Minister Abdul Rahim Wardak called for calm."
S_PASSIVE = "Seven troops were wounded."
TEXT = f"KABUL —\n{S_ROLE}\n{S_THROW} {S_NOT}\n\n{S_FORMER} {S_PASSIVE}\n{ODD}\n"


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
        id="seed/afghan-2012-02-25.txt",
        text=TEXT,
        title=ODD,
        date="2012-02-25",
        url="https://news.example.com/a?id=1&x=2",
        path="seeds/afghan-2012-02-25.txt",
        content_hash=hashlib.sha256(TEXT.encode("utf-8")).hexdigest(),
    )
    entities = {
        "little": Entity("little", "George Little", "Person", {"Little", "George Little"}, 2),
        "karzai": Entity("karzai", "Hamid Karzai", "Person", {"Karzai"}),
        "wardak": Entity("wardak", "Abdul Rahim Wardak", "Person"),
        "pentagon": Entity("pentagon", "Pentagon", "Organization"),
        "taliban": Entity("taliban", "Taliban", "Organization", {ODD, "the \"Taliban\""}),
        "us": Entity("us", "US", "Place", {"U.S."}),
        "afghanistan": Entity("afghanistan", "Afghanistan", "Place", {"Afghan"}),
        "gunman": Entity("gunman", "a gunman", "Group"),
        "advisers": Entity("advisers", "two US military advisers", "Group"),
        "demonstrators": Entity("demonstrators", "Demonstrators", "Group"),
        "troops": Entity("troops", "Seven troops", "Group"),
        "kabul": Entity("kabul", "Kabul", "Place"),
    }
    events = [
        # an event with a target
        Event(actor="demonstrators", action="throw", target="us", evidence=evidence(S_THROW), rule="svo",
              cameo="18", lemma="throw grenade", time=Time("Sunday", "2012-02-19", "date"), place="afghanistan"),
        # a negated event
        Event(actor="karzai", action="blame", target="taliban", evidence=evidence(S_NOT), negated=True,
              lemma="blame", class_reason="verb not in lexicon: blame (a hand-built fact)", place="kabul",
              place_from_dateline=True),
        # a reported event, with the speaker
        Event(
            actor="gunman",
            action="kill",
            target="advisers",
            evidence=evidence(S_ROLE),
            modality="reported",
            reported_by="little",
            confidence=0.6,
            rule="svo-reported",
            cameo="18",
            lemma="kill",
            claimed_by="taliban",
            time=Time("last week", datatype="interval", begin="2012-02-13", end="2012-02-19"),
        ),
        # an intransitive, planned one
        Event(actor="wardak", action="call", evidence=evidence(S_FORMER), modality="planned", confidence=1.0,
              cameo="02", lemma="call for", time=Time("in 2012", "2012", "gYear")),
        # an agentless passive: no actor, only a target
        Event(actor=None, action="wound", target="troops", evidence=evidence(S_PASSIVE), rule="passive",
              cameo="18", lemma="wound", time=Time("Saturday")),
    ]
    roles = [
        Role(person="little", role="press secretary", org="pentagon", evidence=evidence(S_ROLE),
             since=Time("2010", "2010", "gYear")),
        Role(
            person="wardak", role="defense minister", org="afghanistan", evidence=evidence(S_FORMER), former=True
        ),
    ]
    return ArticleFacts(article=article, entities=entities, events=events, roles=roles)
