"""Plain facts passed from extraction to mapping: no spaCy and no rdflib objects here.

Extraction produces one ``ArticleFacts`` per article; mapping turns it into triples.
Offsets are character offsets into ``Article.text`` (the text as read, before cleaning).
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: Entity types the graph knows. "Group" is an unnamed actor ("a gunman", "demonstrators").
ENTITY_TYPES = ("Person", "Organization", "Place", "Group")

#: Event modalities; events.rq keeps asserted and reported ones. "generic" is a habit
#: or generalisation ("the Taliban often inflate death tolls"), not a dated event.
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
    """Who did what to whom: actor and target are entity keys, action the verb lemma.

    ``actor`` is None only for an agentless passive ("seven troops were wounded").
    """

    actor: str | None
    action: str
    evidence: Evidence
    target: str | None = None
    negated: bool = False
    modality: str = "asserted"
    reported_by: str | None = None
    confidence: float = 0.8
    rule: str = "svo"
    #: The verb (or noun) that states the event, with its offsets: where context rules look.
    trigger: Evidence | None = None


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


@dataclass
class ArticleFacts:
    """Everything extraction found in one article."""

    article: Article
    entities: dict[str, Entity] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
