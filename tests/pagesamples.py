"""An invented article for the article and entity page tests, with hostile text in its text, title,
source, URL and names: markup, quotes, bidi overrides and control characters. Its facts have real
offsets into its text (two share a sentence; one has offsets outside the text). Imported as a plain
module, like ``viewsamples``."""
from __future__ import annotations

import viewsamples as vs

from kg.model.facts import Article, ArticleFacts, Entity, Event, Evidence, Role, Time

ARTICLE_ID = "harbor-dispute"
RLO, PDF, BEL, ESC = "\u202e", "\u202c", "\x07", "\x1b"
#: A name that, read as markup, would run; and that turns the text after it right-to-left if not isolated.
EVIL_NAME = f"Sven {RLO}Ekdal{PDF} <b onmouseover=\"window.__pwned=1\">\"quoted\"</b>"
TITLE = f"Harbor dispute {vs.SCRIPT} {RLO}reversed{BEL}"

S1 = "Halvard Moen condemned the Iron Wolves on Monday."
S2 = f"The man called {vs.IMG} met the {vs.SCRIPT} group & left, Moen said."
S3 = f"Iron Wolves spokesman Idris Kamara said the {RLO}retaw{PDF} claim was false{BEL}{ESC}."
S4 = f"Kamara did not attack the Harbor Board, and {EVIL_NAME} might threaten it."
S5 = "Nobody else was named in the closing line's <i>markup</i>."
TEXT = "\n\n".join([S1, S2, S3, S4, S5]) + "\n"


def _ev(sentence: str) -> Evidence:
    start = TEXT.index(sentence)
    return Evidence(text=sentence, start=start, end=start + len(sentence))


def article_facts() -> ArticleFacts:
    """The article: four highlighted sentences holding five facts, and one fact with no place in the text."""
    art = Article(id=ARTICLE_ID, text=TEXT, title=TITLE, date="2013-04-02", path=f"wire/{vs.IMG}.txt",
                  url=vs.JS_URL, content_hash="h-pages")
    ents = [
        Entity("moen", "Halvard Moen", "Person", {"Moen"}),
        Entity("wolves", "Iron Wolves", "Organization"),
        Entity("kamara", "Idris Kamara", "Person", {"Kamara"}),
        Entity("harbor", "Harbor Board", "Organization"),
        Entity("evil", vs.IMG, "Person"),
        Entity("evilorg", vs.SCRIPT, "Organization"),
        Entity("sven", EVIL_NAME, "Person"),
    ]
    events = [
        Event("moen", "condemn", _ev(S1), target="wolves", cameo="11", lemma="condemn", confidence=0.91,
              time=Time("on Monday", "2013-04-01", "date")),
        Event("evil", "meet", _ev(S2), target="evilorg", modality="reported", reported_by="moen", cameo="04",
              confidence=0.74),
        Event("kamara", "attack", _ev(S4), target="harbor", negated=True, cameo="18", confidence=0.66),
        Event("sven", "threaten", _ev(S4), target="harbor", modality="hypothetical", cameo="13", confidence=0.58),
        Event("kamara", "deny", Evidence(text="a sentence that is not in the text", start=10_000, end=10_034),
              target="harbor", confidence=0.5),
    ]
    roles = [Role("kamara", "spokesman", "wolves", _ev(S3), confidence=0.88,
                  since=Time("since 2009", "2009", "gYear"))]
    return ArticleFacts(art, {e.key: e for e in ents}, events, roles)


#: Facts in the text (five) and highlights (four sentences), and the one fact outside it.
PLACED, HIGHLIGHTS, FACTS = 5, 4, 6
