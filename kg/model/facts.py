"""Plain facts passed from extraction to mapping: no spaCy and no rdflib objects here.

Extraction produces one ``ArticleFacts`` per article; mapping turns it into triples.
Offsets are character offsets into ``Article.text`` (the text as read, before cleaning).
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: Entity types the graph knows. "Group" is an unnamed actor ("a gunman", "demonstrators").
ENTITY_TYPES = ("Person", "Organization", "Place", "Group")

#: Event modalities; events.rq keeps asserted and reported ones. "generic" is a habit
#: or generalisation ("rebels often exaggerate their gains"), not a dated event.
MODALITIES = ("asserted", "reported", "planned", "hypothetical", "generic")

@dataclass(frozen=True)
class Article:
    """One input article: a stable id derived from its source, its text and metadata."""

    id: str
    text: str
    title: str | None = None
    date: str | None = None
    url: str | None = None
    path: str | None = None
    content_hash: str = ""


@dataclass(frozen=True)
class Evidence:
    """The sentence a fact was read from, with its character offsets in the article text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Time:
    """A time expression of a clause and, when it fixes one, its calendar value.

    ``datatype`` is "date", "gYearMonth" or "gYear" (``value`` is then its lexical form),
    "interval" (``begin`` and ``end`` are the first and last possible days, ISO dates), or None
    when only the text is known (no article date to resolve "Saturday" against).
    """

    text: str
    value: str | None = None
    datatype: str | None = None
    begin: str | None = None
    end: str | None = None


@dataclass
class Entity:
    """A thing the article talks about; ``key`` is unique within the article's facts."""

    key: str
    label: str
    type: str
    aliases: set[str] = field(default_factory=set)
    mentions: int = 1


@dataclass(frozen=True)
class Event:
    """Who did what to whom: actor and target are entity keys, action the verb lemma (with its
    particle or preposition, and the thing done where it names the deed: "call for", "throw stone").

    ``actor`` is None only for an agentless passive ("four guards were injured").
    """

    actor: str | None
    action: str
    evidence: Evidence
    target: str | None = None
    negated: bool = False
    modality: str = "asserted"
    reported_by: str | None = None
    #: The probability that the fact is right, from ``features`` (kg/extract/confidence/model.py).
    confidence: float = 0.8
    rule: str = "svo"
    #: The verb (or noun) that states the event, with its offsets: where context rules look.
    trigger: Evidence | None = None
    # --- context (kg/extract/context/reader.py fills these; all optional) ---------------------
    #: CAMEO root code "01".."20", or None with ``class_reason`` saying why not.
    cameo: str | None = None
    #: The lemma form the class was looked up by ("call for", "claim responsibility", "kill").
    lemma: str | None = None
    class_reason: str | None = None
    #: When: the date expression of the event's clause (value resolved against Article.date).
    time: Time | None = None
    #: Where: a Place entity key, from the clause, or from the article's dateline.
    place: str | None = None
    place_from_dateline: bool = False
    #: Who claimed responsibility for it ("the Black Reed Front claimed responsibility for the attack").
    claimed_by: str | None = None
    #: Sentences between a pronoun argument and the mention it was resolved to (0: same
    #: sentence); None when no argument was read through a pronoun. A feature of ``confidence``.
    coref_distance: int | None = None
    #: What the extractor knew when it read the fact (rule, how actor and target were found, ...):
    #: the inputs of the confidence model (kg/extract/confidence/model.py); not part of the fact's identity.
    features: dict[str, str | float] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Role:
    """Who holds which role in which organization (person and org are entity keys)."""

    person: str
    role: str
    org: str
    evidence: Evidence
    former: bool = False
    confidence: float = 0.8
    rule: str = "title"
    #: "new defense minister": the role is current, begun recently (context step).
    new: bool = False
    #: "minister since 2010", "joined Acme in 2004": when the role began (roles or context step).
    since: Time | None = None
    #: "director from 1994 to 1997": when the role ended, when the text gives it.
    until: Time | None = None
    #: The inputs of the confidence model, as for ``Event.features``.
    features: dict[str, str | float] = field(default_factory=dict, compare=False)


@dataclass
class ArticleFacts:
    """Everything extraction found in one article."""

    article: Article
    entities: dict[str, Entity] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
