"""From a parsed article to plain facts: entities, events and roles (no RDF here)."""
from __future__ import annotations

from spacy.tokens import Doc

from ..model.facts import Article, ArticleFacts, Event
from .confidence.model import score_facts
from .context.reader import add_context
from .entities.index import EntityIndex
from .events.reader import EventReader
from .grammar.columns import reading
from .roles.reader import RoleReader

__all__ = ["extract_facts"]


def extract_facts(doc: Doc, article: Article) -> ArticleFacts:
    """Read every event and role of an article's Doc; keep only entities that take part."""
    with reading(doc):  # children of the tokens read last kept (``columns.kids``)
        return _extract(doc, article)


def _extract(doc: Doc, article: Article) -> ArticleFacts:
    index = EntityIndex(doc)
    index.set_headline(article.title)
    roles_reader = RoleReader(index, article.text, article.title, article.date)
    events_reader = EventReader(index, article.text, bodies=roles_reader.org_of_noun)
    facts = ArticleFacts(article=article)
    text = index.cols.text
    sents = [s for s in index.cols.sents if text[s.start_char:s.end_char].strip()]  # Span.text joins its tokens: slower
    headline = _headline(article)
    for sent in sents:
        if headline is None or sent.start_char >= headline[1]:  # a headline's titles are the body's, told there in full
            facts.roles.extend(roles_reader.read(sent))
    facts.roles = roles_reader.finish(facts.roles)
    index.set_affiliations({r.person: r.org for r in facts.roles if not r.former})
    holders: dict[tuple[str, str], set[str]] = {}
    for r in facts.roles:
        if not r.former:
            holders.setdefault((r.role.lower().split()[-1], r.org), set()).add(r.person)
    index.set_role_holders(holders)
    told: list[Event] = []
    for sent in sents:
        if headline is not None and sent.start_char < headline[1]:
            told.extend(events_reader.read(sent, headline))
        else:
            facts.events.extend(events_reader.read(sent))
    facts.events = events_reader.retold(events_reader.headline_only(told, facts.events) + facts.events)
    add_context(doc, article, index, facts)  # class, time, place, claims, dated roles
    score_facts(doc, index, facts)  # features and confidence, once every fact is read
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

