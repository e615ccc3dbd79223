"""From a parsed article to plain facts: entities, events and roles (no RDF here)."""
from __future__ import annotations

from spacy.tokens import Doc

from ..facts import Article, ArticleFacts, Event, Role
from .context import add_context
from .entities import EntityIndex
from .events import EventReader
from .roles import RoleReader

__all__ = ["extract_facts"]


def extract_facts(doc: Doc, article: Article) -> ArticleFacts:
    """Read every event and role of an article's Doc; keep only entities that take part."""
    index = EntityIndex(doc)
    index.set_headline(article.title)
    events_reader = EventReader(index, article.text)
    roles_reader = RoleReader(index, article.text)
    facts = ArticleFacts(article=article)
    text = doc.text
    sents = [s for s in doc.sents if text[s.start_char:s.end_char].strip()]  # Span.text joins its tokens: slower
    headline_end = (_headline(article) or (0, 0))[1]
    for sent in sents:
        if sent.start_char >= headline_end:  # a headline's titles are the body's, told there in full
            facts.roles.extend(roles_reader.read(sent))
    facts.roles = _consolidate_roles(facts.roles)
    index.set_affiliations({r.person: r.org for r in facts.roles if not r.former})
    holders: dict[tuple[str, str], set[str]] = {}
    for r in facts.roles:
        if not r.former:
            holders.setdefault((r.role.lower().split()[-1], r.org), set()).add(r.person)
    index.set_role_holders(holders)
    headline = _headline(article)
    told: list[Event] = []
    for sent in sents:
        if headline is not None and sent.start_char < headline[1]:
            told.extend(events_reader.read(sent, headline))
        else:
            facts.events.extend(events_reader.read(sent))
    facts.events = events_reader.retold(events_reader.headline_only(told, facts.events) + facts.events)
    add_context(doc, article, index, facts)  # class, time, place, claims, dated roles
    used = {k for e in facts.events for k in (e.actor, e.target, e.reported_by, e.place, e.claimed_by)
            if k is not None}
    used |= {k for r in facts.roles for k in (r.person, r.org)}
    facts.entities = {k: index.entities[k] for k in sorted(used)}
    return facts


def _headline(article: Article) -> tuple[int, int] | None:
    """Offsets of the article's headline when its text opens with it (``nlp.clean`` keeps it)."""
    if not article.title:
        return None
    start = len(article.text) - len(article.text.lstrip())
    line_end = article.text.find("\n", start)
    end = len(article.text) if line_end < 0 else line_end
    return (start, end) if article.text[start:end].strip() == article.title.strip() else None


def _consolidate_roles(roles: list[Role]) -> list[Role]:
    """Drop a guessed organization ("implicit-country") when the article names the person's
    organization for that role elsewhere ("Afghan President Hamid Karzai")."""
    explicit = {(r.person, r.role.lower()) for r in roles if r.rule != "implicit-country"}
    return [r for r in roles if r.rule != "implicit-country" or (r.person, r.role.lower()) not in explicit]
