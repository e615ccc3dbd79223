"""The organization of a role: named beside the role, before it, or in the article.

``OrgFinder`` answers, for the words of a role phrase, which Organization or Place the article names
for it: a name after "of", "for", "at" ("director of Acme"), a possessor or modifier ("Acme's", "French"),
a body named in parts ("the Board of Governors of Acme"), a common noun standing for a body named
before ("the party's candidate", "the nation's minister"), the article's country for a national post,
or, for an aide, the person served (whose office ``RoleReader.finish`` looks up).
"""
from __future__ import annotations

import re

from spacy.tokens import Span, Token

from ..facts import Entity
from ..nlp.lexicon import DEMONYMS, ORG_HEADS, ORGANIZATION_NOUNS, PLACE_ALIASES
from .entities import EntityIndex, norm_name
from .titles import ASSISTING_NOUNS, ORG_PREPS, bare_title_word

#: Common nouns that stand for a country the article names ("the nation's", "the emirate's").
COUNTRY_NOUNS = frozenset({"country", "nation", "emirate", "kingdom", "republic"})
_KNOWN_COUNTRIES = frozenset(norm_name(c) for c in (*DEMONYMS.values(), *PLACE_ALIASES.values()))
#: How many body mentions a country named in the headline counts for.
_HEADLINE_WEIGHT = 3


class OrgFinder:
    """Finds the organization (or country) a role phrase names, in one article.

    An organization is an Organization or a Place the article names; a common noun ("the party",
    "the nation") stands for the last such body the article named before it.
    """

    def __init__(self, index: EntityIndex, headline: str | None = None) -> None:
        self.index = index
        self.doc = index.doc
        self.headline = headline
        self._home: str | None = None
        self._home_read = False
        self._noun_orgs: dict[str, list[tuple[int, str]]] | None = None
        #: tokens of an organization's short name the model missed ("Comets guard X") -> its key
        self._short_names: dict[int, str] = {}

    def key(self, tok: Token, own: frozenset[int] = frozenset()) -> str | None:
        """The named entity of a token, except for the words of a title inside a name (``own``)."""
        return None if tok.i in own else (self.index.named_key(tok) or self._short_names.get(tok.i))

    def org_of_modifier(self, tok: Token) -> str | None:
        """The organization or country a modifier names: a name, a demonym, "its", "the party's"."""
        key = self._short_names.get(tok.i) or self.index.org_of_modifier(tok)
        if key is None and tok.tag_ == "PRP$":
            key = self.index.resolve(tok)
        return key if key is not None else self.org_of_noun(tok)

    def org_of_noun(self, tok: Token) -> str | None:
        """ "the party", "the company", "the nation": the one body of that kind the article names."""
        if tok.pos_ != "NOUN" or not tok.is_lower or tok.tag_ != "NN":
            return None
        if any(c.dep_ == "det" and c.lower_ in ("a", "an", "another", "any", "some", "every", "each", "no")
               for c in tok.children):
            return None
        lemma = tok.lemma_.lower()
        if lemma in COUNTRY_NOUNS:
            return self.recent_country(tok.i) or self.home_country()
        if lemma not in ORGANIZATION_NOUNS:
            return None
        before = [(i, k) for i, k in self._orgs_by_noun().get(lemma, []) if i < tok.i]
        return max(before)[1] if before else None

    def _orgs_by_noun(self) -> dict[str, list[tuple[int, str]]]:
        """Common noun -> where the article names an organization of that kind ("Acme Bank", "the
        Unity party"), and its key."""
        if self._noun_orgs is None:
            out: dict[str, list[tuple[int, str]]] = {}
            for e in self.index.ents:
                if e.label_ != "ORG":
                    continue
                key = self.index.named_key(e.root)
                if not key or not key.startswith("Organization:"):
                    continue
                out.setdefault(e[-1].lemma_.lower(), []).append((e.start, key))
                head = e.root.head
                if e.root.dep_ in ("compound", "amod", "nmod") and head.pos_ == "NOUN" and head.i >= e.end:
                    out.setdefault(head.lemma_.lower(), []).append((e.start, key))
            self._noun_orgs = out
        return self._noun_orgs

    def recent_country(self, before: int) -> str | None:
        """The last country the article names before a token (by name or by demonym)."""
        countries = self.index.countries()
        found: str | None = None
        for e in self.index.ents:
            if e.end > before:
                break
            key = self._country_of(e, countries)
            if key is not None:
                found = key
        return found

    def _country_of(self, e: Span, countries: set[str]) -> str | None:
        if e.label_ == "GPE":
            key = self.index.named_key(e.root)
            return key if key in countries else None
        if e.label_ == "NORP" and e.text.lower() in DEMONYMS:
            return self.index.place(DEMONYMS[e.text.lower()])
        return None

    def home_country(self) -> str | None:
        """The country an article is about: named (or its demonym used) 3+ times and twice as often as
        any other, a country in the headline counting as three mentions."""
        if not self._home_read:
            self._home_read = True
            counts: dict[str, int] = {}
            countries = self.index.countries()
            for e in self.index.ents:
                key = self._country_of(e, countries)
                if key is not None:
                    counts[key] = counts.get(key, 0) + 1
            for key in self._headline_countries():
                counts[key] = counts.get(key, 0) + _HEADLINE_WEIGHT
            ranked = sorted(((n, k) for k, n in counts.items()), reverse=True)
            if ranked and ranked[0][0] >= 3 and (len(ranked) == 1 or ranked[0][0] >= 2 * ranked[1][0]):
                self._home = ranked[0][1]
        return self._home

    def _headline_countries(self) -> set[str]:
        words = re.findall(r"[A-Za-z][A-Za-z.-]*", self.headline or "")
        out: set[str] = set()
        for n in (3, 2, 1):
            for i in range(len(words) - n + 1):
                phrase = " ".join(words[i:i + n])
                if not phrase[:1].isupper():
                    continue
                country = DEMONYMS.get(phrase.lower()) or PLACE_ALIASES.get(phrase.lower())
                if country is None and norm_name(phrase) in _KNOWN_COUNTRIES:
                    country = phrase
                if country is not None:
                    out.add(self.index.place(country))
        return out

    def named_country(self, name: str) -> str | None:
        """The key of a country by one of its names, when the article names it."""
        key = f"Place:{norm_name(PLACE_ALIASES.get(name.lower(), name))}"
        return key if key in self.index.entities and self.index.entities[key].mentions > 0 else None

    def org_named(self, toks: list[Token]) -> str | None:
        """An organization of the article whose name ends with these words ("the Comets" for "Varno
        Comets"), when exactly one does."""
        words = [norm_name(t.text) for t in toks if t.lower_ != "the"]
        if not words:
            return None
        found = {k for k, e in self.index.entities.items() if e.type == "Organization" and e.mentions > 0
                 and [norm_name(w) for w in e.label.split()][-len(words):] == words}
        return next(iter(found)) if len(found) == 1 else None

    def _country_in_name(self, toks: list[Token]) -> str | None:
        """ "United States Attorneys X" read as one name: the country among the title's words."""
        for i in range(len(toks)):
            for k in range(len(toks), i, -1):
                phrase = " ".join(t.text for t in toks[i:k])
                country = PLACE_ALIASES.get(phrase.lower()) or DEMONYMS.get(phrase.lower())
                if country is None and norm_name(phrase) in _KNOWN_COUNTRIES:
                    country = phrase
                if country is not None:
                    return self.index.place(country)
        return None

    @staticmethod
    def may_employ(org: str, head: Token) -> bool:
        """A person stands for an organization only as the one an aide or adviser serves ("an aide to
        X": X's office, settled per article); never a killer's victim or a kinsman."""
        return not org.startswith("Person:") or head.lemma_.lower() in ASSISTING_NOUNS

    def is_country(self, key: str) -> bool:
        return key in self.index.countries()

    def affiliation(self, ent: Span) -> str | None:
        """ "Ann Lee from the Acme Institute", "Boston University's Ann Lee": an organization the name
        itself is tied to."""
        for c in ent.root.children:
            if c.dep_ == "poss" and c.i < ent.start:
                key = self.index.named_key(c)
                if key and key.startswith("Organization:"):
                    return key
            if c.dep_ == "prep" and c.lower_ in ("from", "at", "of", "with"):
                for p in c.children:
                    if p.dep_ == "pobj":
                        key = self.org_name_at(p)
                        if key and key.startswith("Organization:"):
                            return key
        doc = ent.doc
        i = ent.end
        if i + 1 < len(doc) and doc[i].lower_ in ("from", "of"):  # "at": often where, not whose
            # The words themselves when the parser hung the phrase elsewhere ("X of Harvard
            # University and Y of the University of Bordeaux").
            j = i + 2 if doc[i + 1].lower_ == "the" else i + 1
            key = self.org_name_at(doc[j]) if j < len(doc) else None
            if key and key.startswith("Organization:"):
                return key
        return None

    def org_name_at(self, tok: Token) -> str | None:
        """The organization a proper noun names; also a plural name the model took for a person ("of
        the Comets") or missed, when an organization of the article ends with it."""
        key = self.index.named_key(tok)
        if key is not None and key.startswith("Organization:"):
            return key
        if tok.pos_ == "PROPN" and tok.tag_ == "NNPS" and (key is None or key.startswith("Person:")) \
                and any(c.lower_ == "the" for c in tok.children):
            return self.org_named([t for t in tok.subtree if t.i <= tok.i])
        return key

    def explicit_org(self, heads: list[Token]) -> str | None:
        """An organization a role noun itself is "of", "for" or "at" ("judge for the Harbor Court")."""
        for h in heads:
            for c in h.children:
                if c.dep_ == "prep" and c.lower_ in ("of", "for", "at", "within"):
                    for p in c.children:
                        if p.dep_ != "pobj" or bare_title_word(p):
                            continue
                        key = self.org_name_at(p) or self._appos_org(p) or self.unnamed_body(p)
                        if key and key.startswith("Organization:"):
                            return self._body_of(p, key)
        return None

    def org_from_preps(self, heads: list[Token], depth: int = 0) -> str | None:
        """The organization a role noun is "of", "for" or "at" (also a little further down the phrase:
        "a professor of chemistry at Oxford University"), or its possessor ("Canada's")."""
        for h in heads:
            for c in h.children:
                if c.dep_ == "poss":
                    key = self.index.resolve(c) or self.org_of_modifier(c)
                    if key and not key.startswith("Person:"):
                        return key
                if c.dep_ == "prep" and (c.lower_ in ORG_PREPS or (c.lower_ == "to" and h.lemma_.lower() in ASSISTING_NOUNS)):
                    for p in c.children:
                        if p.dep_ != "pobj" or bare_title_word(p):
                            continue  # "Secretary of State", "Vice President of Operations": the title's own words
                        key = self.org_name_at(p) or self._appos_org(p) or self.unnamed_body(p) or self.org_of_modifier(p)
                        if key is not None and key.startswith("Organization:"):
                            key = self._body_of(p, key)
                        if key is not None and key.startswith("Person:") and not (
                                c.lower_ in ("to", "for") and h.lemma_.lower() in ASSISTING_NOUNS):
                            key = None
                        if key is None:
                            for m in p.children:
                                if m.dep_ in ("compound", "amod", "nmod"):
                                    key = self.org_of_modifier(m)
                                    if key:
                                        break
                        if key and key.startswith("Person:"):
                            key = self._office_words(p) or key
                        if key:
                            return key
                        if depth < 2:
                            deeper = self.org_from_preps([p] + [x for x in p.children if x.dep_ == "conj"], depth + 1)
                            if deeper:
                                return deeper
        return None

    def _body_of(self, tok: Token, key: str) -> str:
        """ "the Board of Governors of the Acme Bank": a body of an organization, named as one."""
        ent = self.index.entities.get(key)
        if ent is None or tok.lower_ not in ORG_HEADS | ORGANIZATION_NOUNS | {"governors", "directors", "trustees"}:
            return key
        for c in tok.children:
            if c.dep_ == "prep" and c.lower_ == "of":
                for p in c.children:
                    whole = self.index.named_key(p) if p.dep_ == "pobj" else None
                    if whole and whole.startswith("Organization:") and whole != key:
                        label = f"{ent.label} of {self.index.entities[whole].label}"
                        return self._organization(label)
        inner = [c for c in tok.children if c.dep_ == "prep" and c.lower_ == "of"]
        for c in inner:  # "Board of Governors" whose own "of" phrase holds the organization's
            for p in c.children:
                if p.dep_ == "pobj" and self.index.named_key(p) == key:
                    return self._body_of(p, key) if p is not tok else key
        return key

    def _organization(self, label: str) -> str:
        """The key of an organization by its full name, made when the article names it only in parts."""
        key = f"Organization:{norm_name(label)}"
        if key not in self.index.entities:
            self.index.entities[key] = Entity(key=key, label=label, type="Organization", aliases={label})
        return key

    def _appos_org(self, tok: Token) -> str | None:
        """ "the armed group Red Dawn", "the company, Acme": the name set beside a noun."""
        for c in tok.children:
            if c.dep_ == "appos" or (c.dep_ == "compound" and c.i > tok.i):
                key = self.index.named_key(c)
                if key and key.startswith("Organization:"):
                    return key
        return None

    def unnamed_body(self, tok: Token) -> str | None:
        """ "for the Varno Harbor Court": a capitalized name of a body ("Court", "Commission")
        that the model left untagged or tagged as a place, as one organization."""
        if not (tok.pos_ == "PROPN" and tok.is_title and tok.lower_ in ORG_HEADS | ORGANIZATION_NOUNS):
            return None
        if tok.ent_type_ and tok.ent_type_ != "GPE":
            return None
        words = [c for c in tok.subtree if c.i < tok.i and c.dep_ == "compound"]
        start = min([w.i for w in words] + [tok.i])
        while start < tok.i and not self.doc[start].is_title and self.doc[start].text != "U.S.":
            start += 1
        toks = list(self.doc[start:tok.i + 1])
        if len(toks) < 2 or any(not (t.is_title or t.text.isupper()) for t in toks):
            return None
        return self.org_named(toks) or self.index.organization_span(toks)

    def _office_words(self, p: Token) -> str | None:
        """ "an adviser to U.S. President Lee": the country or body in the served person's title."""
        for m in p.children:
            if m.dep_ == "compound" and m.i < p.i and not (self.index.named_key(m) or "").startswith("Person:"):
                for w in m.subtree:
                    key = self.index.org_of_modifier(w)
                    if key and not key.startswith("Person:"):
                        return key
        return None

    def org_in(self, tok: Token) -> str | None:
        """An organization named by a noun phrase or by one of its modifiers ("the Solidarity union movement")."""
        for t in [tok] + [c for c in tok.children if c.dep_ in ("compound", "nmod", "amod", "poss")]:
            key = self.org_name_at(t)
            if key and key.startswith("Organization:"):
                return key
            if t is not tok and t.dep_ == "compound":
                for g in t.children:
                    if g.dep_ in ("compound", "amod", "nmod"):
                        key = self.index.named_key(g)
                        if key and key.startswith("Organization:"):
                            return key
        return None
