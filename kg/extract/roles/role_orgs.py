"""The organization of a role: named beside the role, before it, or in the article.

``OrgFinder`` answers, for the words of a role phrase, which Organization or Place the article names
for it: a name after "of", "for", "at" ("director of Acme"), a possessor or modifier ("Acme's", "French"),
a body named in parts ("the Board of Trustees of Acme"), a common noun standing for a body named
before ("the party's candidate", "the nation's minister"), the article's country for a national post,
or, for an aide, the person served (whose office ``RoleReader.finish`` looks up).
"""
from __future__ import annotations

import re

from spacy.tokens import Span, Token

from ...model.facts import Entity
from ...nlp.lexicon import COMPANY_NAME_ENDINGS, DEMONYMS, ORG_HEADS, ORGANIZATION_NOUNS, PARTY_ADJECTIVES, PLACE_ALIASES, SOURCE_VERBS
from ..entities.index import EntityIndex
from ...model.names import compact
from ..grammar.columns import kids
from .titles import (
    ASSISTING_NOUNS,
    ENVOY_NOUNS,
    LOCAL_HEADS,
    ORG_PREPS,
    UNIT_NOUNS,
    bare_title_word,
    is_assisting,
    is_role_noun,
    is_role_word,
    lexicon_form,
)

#: Common nouns that stand for a country the article names ("the nation's").
COUNTRY_NOUNS = frozenset({"country", "nation"})
#: Nouns for a country's government, which stand for the country an article is about when it names none.
GOVERNMENT_NOUNS = frozenset({"government", "cabinet", "administration"})
_KNOWN_COUNTRIES = frozenset(compact(c) for c in (*DEMONYMS.values(), *PLACE_ALIASES.values()))
#: Last words of a company's name that the article may leave out ("Acme" for "Acme Bank").
_SHORTENED_HEADS = frozenset(compact(w) for w in COMPANY_NAME_ENDINGS | frozenset("""
bank corp corporation inc co company group capital llc ltd plc trust university college media energy
""".split()))
#: Entity labels an unfamiliar name after a role noun's "of" or "at" may carry and still name the
#: employer: none, or a product or a work's title ("editor of the Evening Courier").
_UNTAGGED = frozenset({"", "PRODUCT", "WORK_OF_ART"})
#: Nouns for a kind of place whose name ends with them ("Arden County", "Lanao Province").
_PLACE_KIND_NOUNS = frozenset({"county", "province", "district", "prefecture", "borough", "region", "parish"})
#: Nouns for a business: "the company" is the organization named just before, if it is no other body.
_COMPANY_NOUNS = frozenset({"company", "firm", "corporation", "business", "carmaker", "retailer", "bank", "insurer"})
_NOT_COMPANY = frozenset(ORG_HEADS | {"university", "college", "school", "association", "society", "institute",
                                      "foundation", "church", "hospital", "court", "league"})
#: How many body mentions a country named in the headline counts for.
_HEADLINE_WEIGHT = 3
#: Nouns by which an article calls the company (or team) it is about.
_SELF_NOUNS = frozenset(("company", "firm", "team", "club"))


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
        self._company: str | None = None
        self._company_read = False
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
        if key is None or key.startswith("Group:"):
            return self.org_of_noun(tok) or key  # "the company": the one named before, else the unnamed body
        return key

    def government_country(self, tok: Token) -> str | None:
        """ "the new government's minister for planning": the country the article is about, for a post in
        its government when the article names no government of its own."""
        if tok.pos_ != "NOUN" or not tok.is_lower or tok.lemma_.lower() not in GOVERNMENT_NOUNS \
                or self._orgs_by_noun().get(tok.lemma_.lower()):
            return None
        return self.home_country()

    def org_of_noun(self, tok: Token) -> str | None:
        """ "the party", "the company", "the nation": the one body of that kind the article names."""
        if tok.pos_ != "NOUN" or not tok.is_lower or tok.tag_ != "NN":
            return None
        if any(c.dep_ == "det" and c.lower_ in ("a", "an", "another", "any", "some", "every", "each", "no")
               for c in kids(tok)):
            return None
        lemma = tok.lemma_.lower()
        if lemma in COUNTRY_NOUNS:
            return self.home_country() or self.recent_country(tok.i)
        if lemma in _PLACE_KIND_NOUNS:
            # "county treasurer", "the province's governor": the county the article names ("Leeds County")
            places = {k for k, e in self.index.entities.items() if e.type == "Place" and e.mentions > 0
                      and e.label.split()[-1].lower() == lemma}
            return next(iter(places)) if len(places) == 1 else None
        if lemma not in ORGANIZATION_NOUNS:
            return None
        if tok.dep_ not in ("compound", "nmod", "poss") and not any(
                c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ in ("the", "this", "that")) for c in kids(tok)):
            return None  # "a career in public service": no body the article named, which "the service" would be
        before = [k for i, k in self._orgs_by_noun().get(lemma, []) if i < tok.i]
        if before:
            # the body of that kind the article has named most often so far, if one has been
            counts = sorted(((before.count(k), k) for k in set(before)), reverse=True)
            return counts[0][1] if len(counts) == 1 or counts[0][0] > counts[1][0] else None
        if lemma not in _COMPANY_NOUNS or any(c.dep_ in ("amod", "compound", "nmod") for c in kids(tok)):
            return None  # "the new company", "the parent company": not the one named last
        return self._recent_company(tok)

    def _recent_company(self, tok: Token) -> str | None:
        """ "the company": the organization its sentence and the one before name, when they name one only
        and its name does not say it is another kind of body (a party, a ministry, a university ...)."""
        floor = tok.sent.start
        if floor > 0:
            floor = self.doc[floor - 1].sent.start
        found: set[str] = set()
        for e in self.index.ents:
            if e.start < floor or e.label_ != "ORG":
                continue
            if e.end > tok.i:
                break
            key = self.index.named_key(e.root)
            if key and key.startswith("Organization:"):
                found.add(key if e[-1].lower_ not in _NOT_COMPANY else "")
        return next(iter(found)) or None if len(found) == 1 else None

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
                if e[-1].tag_ == "NNPS" and e[-1].lower_.rstrip("s") in PARTY_ADJECTIVES | {"democrat"}:
                    out.setdefault("party", []).append((e.start, key))  # "the Harlow Democrats": a party
                head = e.root.head
                if e.root.dep_ in ("compound", "amod", "nmod") and head.pos_ == "NOUN" and head.i >= e.end:
                    out.setdefault(head.lemma_.lower(), []).append((e.start, key))
            self._noun_orgs = out
        return self._noun_orgs

    def only_country_before(self, end: int) -> str | None:
        """The country of a national title in an article about no one country: the only country the
        article has named so far ("the Ukrainian elections ... Prime Minister X"), named in the title's
        sentence or the one before (a country named paragraphs earlier is what the text was about then), and
        not as another holder's ("Norland President X met Prime Minister Y": Y is no prime minister of Norland)."""
        countries = self.index.countries()
        found = {k for e in self.index.ents if e.end <= end and (k := self._country_of(e, countries)) is not None}
        if len(found) != 1:
            return None
        sent = self.doc[end].sent
        near = sent.start if sent.start == 0 else self.doc[sent.start - 1].sent.start
        return next(iter(found)) if any(e.start >= near and e.end <= end and self._country_of(e, countries)
                                        and not _in_title_before_name(e) for e in self.index.ents) else None

    def only_place_before(self, end: int) -> str | None:
        """The city or state of a local title ("Mayor X"): the one named so far with such a title ("the
        mayor of Kelby", whatever the model took Kelby for), else the only one, not a country, named so far."""
        tied = {k for e in self.index.ents if e.end <= end and e.root.dep_ == "pobj" and e.root.head.lower_ == "of"
                and lexicon_form(e.root.head.head) in LOCAL_HEADS
                and (k := self.index.named_key(e.root)) is not None and k.startswith(("Place:", "Organization:"))}
        if len(tied) == 1:
            return next(iter(tied))
        countries = self.index.countries()
        found = {k for e in self.index.ents if e.end <= end and e.label_ == "GPE"
                 and (k := self.index.named_key(e.root)) is not None and k.startswith("Place:") and k not in countries}
        return next(iter(found)) if len(found) == 1 else None

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

    def home_company(self) -> str | None:
        """The company an article is about: the article speaks of "the company" (the firm, team, club), and
        it is the article's dominant organization (``home_organization``)."""
        if not any(t.lower_ in _SELF_NOUNS and t.i > 0 and t.doc[t.i - 1].lower_ == "the" for t in self.doc):
            return None
        return self.home_organization()

    def home_organization(self) -> str | None:
        """The organization an article is about: one organization is named 3+ times and twice as often as
        any other, its name in the headline counting three (a headline the text opens with is not counted
        as text)."""
        if not self._company_read:
            self._company_read = True
            text = self.doc.text.lstrip()
            skip = len(self.doc.text) - len(text) + len(self.headline) if self.headline and text.startswith(self.headline) else 0
            counts: dict[str, int] = {}
            for e in self.index.ents:
                if e.start_char < skip:
                    continue
                key = self.index.canonical(self.index.named_key(e.root)) if e.label_ == "ORG" else None
                if key is not None and key.startswith("Organization:"):
                    counts[key] = counts.get(key, 0) + 1
            for key in counts:
                if self.headline and self.index.entities[key].label in self.headline:
                    counts[key] += _HEADLINE_WEIGHT
            ranked = sorted(((n, k) for k, n in counts.items()), reverse=True)
            if ranked and ranked[0][0] >= 3 and (len(ranked) == 1 or ranked[0][0] >= 2 * ranked[1][0]):
                self._company = ranked[0][1]
        return self._company

    def _headline_countries(self) -> set[str]:
        words = re.findall(r"[A-Za-z][A-Za-z.-]*", self.headline or "")
        out: set[str] = set()
        for n in (3, 2, 1):
            for i in range(len(words) - n + 1):
                phrase = " ".join(words[i:i + n])
                if not phrase[:1].isupper():
                    continue
                country = DEMONYMS.get(phrase.lower()) or PLACE_ALIASES.get(phrase.lower())
                if country is None and compact(phrase) in _KNOWN_COUNTRIES:
                    country = phrase
                if country is not None:
                    out.add(self.index.place(country))
        return out

    def named_country(self, name: str) -> str | None:
        """The key of a country by one of its names, when the article names it."""
        key = f"Place:{compact(PLACE_ALIASES.get(name.lower(), name))}"
        return key if key in self.index.entities and self.index.entities[key].mentions > 0 else None

    def org_named(self, toks: list[Token]) -> str | None:
        """An organization of the article whose name ends with these words ("the Comets" for "Varno
        Comets"), when exactly one does."""
        words = [compact(t.text) for t in toks if t.lower_ != "the"]
        if not words:
            return None
        found = set()
        for k, e in self.index.entities.items():
            if e.type != "Organization" or e.mentions <= 0:
                continue
            label = [compact(w) for w in e.label.split()]
            if label == words:
                return k  # the article names it so itself
            if label[-len(words):] == words or (label[:len(words)] == words and len(label) > len(words)
                                                and label[-1] in _SHORTENED_HEADS):
                found.add(k)  # "the Comets" (Harbor Comets); "Acme" (Acme Bank)
        return next(iter(found)) if len(found) == 1 else None

    def _country_in_name(self, toks: list[Token]) -> str | None:
        """ "United States Attorneys X" read as one name: the country among the title's words."""
        for i in range(len(toks)):
            for k in range(len(toks), i, -1):
                phrase = " ".join(t.text for t in toks[i:k])
                country = PLACE_ALIASES.get(phrase.lower()) or DEMONYMS.get(phrase.lower())
                if country is None and compact(phrase) in _KNOWN_COUNTRIES:
                    country = phrase
                if country is not None:
                    return self.index.place(country)
        return None

    @staticmethod
    def may_employ(org: str, head: Token) -> bool:
        """A person stands for an organization only as the one an aide or adviser serves ("an aide to
        X": X's office, settled per article); never a killer's victim or a kinsman. A place employs
        only holders of the posts of the lexicon: "a Tarnow rancher" holds no post in Tarnow."""
        if org.startswith("Place:"):
            return lexicon_form(head) is not None
        return not org.startswith("Person:") or head.lemma_.lower() in ASSISTING_NOUNS

    def is_country(self, key: str) -> bool:
        return key in self.index.countries()

    def affiliation(self, ent: Span) -> str | None:
        """ "Ann Lee from the Acme Institute", "Boston University's Ann Lee": an organization the name
        itself is tied to."""
        taken_from = _taken_from(ent.root)
        for c in kids(ent.root):
            if c.dep_ == "poss" and c.i < ent.start:
                key = self.index.named_key(c)
                if key and key.startswith("Organization:"):
                    return key
            if c.dep_ == "prep" and c.lower_ in ("from", "at", "of", "with") and not (c.lower_ == "from" and taken_from):
                for p in kids(c):
                    if p.dep_ == "pobj":
                        key = self.org_name_at(p)
                        if key and key.startswith("Organization:"):
                            return key
        doc = ent.doc
        i = ent.end
        if i + 1 < len(doc) and (doc[i].lower_ == "of" or doc[i].lower_ == "from" and not taken_from):  # "at": often where
            # The words themselves when the parser hung the phrase elsewhere ("X of Velmora
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
                and any(c.lower_ == "the" for c in kids(tok)):
            return self.org_named([t for t in tok.subtree if t.i <= tok.i])
        if tok.pos_ == "PROPN" and (key is None or (key.startswith("Place:") and not self.is_country(key))):
            # "joined Acme" with the model's "Acme" a place or nothing: the article's Acme Bank
            return self.org_named([t for t in tok.subtree if t.i <= tok.i and t.dep_ in ("compound", "det")] + [tok]) or key
        return key

    def explicit_org(self, heads: list[Token]) -> str | None:
        """An organization a role noun itself is "of", "for" or "at" ("judge for the Harbor Court")."""
        for h in heads:
            for c in kids(h):
                if c.dep_ == "prep" and c.lower_ in ("of", "for", "at", "within"):
                    for p in kids(c):
                        if p.dep_ != "pobj" or bare_title_word(p):
                            continue
                        key = self.org_name_at(p) or self._appos_org(p) or self.unnamed_body(p)
                        if key and key.startswith("Organization:"):
                            return self._parent_at(p) or self._shared_at(h) or self._body_of(p, key)
        return None

    def _shared_at(self, role: Token) -> str | None:
        """ "a partner and director of research at Acme": the "at" body of a coordinated role noun, which
        the parser hangs on the first of them, holds the posts of both. Only a later noun takes the earlier
        one's: in "head of the Budget Office and later chief of staff at the Ministry" the "at" is the later
        post's alone."""
        first = role.head
        return self._parent_at(first) if role.dep_ == "conj" and is_role_noun(first) else None

    def _unit_owner(self, unit: Token) -> str | None:
        """ "its Asia business", "the bank's research unit": the organization a part of a body belongs to."""
        if unit.lemma_.lower() not in UNIT_NOUNS:
            return None
        owner = next((c for c in kids(unit) if c.dep_ == "poss"), None)
        key = self.index.resolve(owner) if owner is not None else None
        return key if key is not None and key.startswith("Organization:") else None

    def _parent_at(self, part: Token) -> str | None:
        """ "Dean of the School of Law at the University of Norland": the body a part of it is "at" is
        where the post is held (the part is where within it)."""
        return next((key for c in kids(part) if c.dep_ == "prep" and c.lower_ == "at"
                     for p in kids(c) if p.dep_ == "pobj"
                     and (key := self.index.named_key(p)) is not None and key.startswith("Organization:")), None)

    def org_from_preps(self, heads: list[Token], depth: int = 0) -> str | None:  # noqa: C901 (20): a chain of construction rules; issue 33 step 2 makes them named rules
        """The organization a role noun is "of", "for" or "at" (also a little further down the phrase:
        "a professor of chemistry at Oxford University"), or its possessor ("Canada's"). An "at" phrase
        comes before the others: "Dean of the School of Law at Norland University", "head of research at
        Acme" hold a post at the body the "at" names, of which the "of" names a part or a field."""
        for h in heads:
            for c in sorted(kids(h), key=lambda c: 0 if c.dep_ == "poss" else 1 if c.lower_ == "at" else 2):
                if c.dep_ == "poss":
                    key = self.government_country(c) or self.index.resolve(c) or self.org_of_modifier(c)
                    if key and not key.startswith("Person:"):
                        return key
                if c.dep_ == "prep" and (c.lower_ in ORG_PREPS or (
                        c.lower_ == "to" and (is_assisting(h) or h.lemma_.lower() in ENVOY_NOUNS))):
                    for p in kids(c):
                        if p.dep_ != "pobj" or bare_title_word(p):
                            continue  # "Secretary of State", "Vice President of Operations": the title's own words
                        key = self.org_name_at(p) or self._appos_org(p) or self.unnamed_body(p) or self.org_of_modifier(p)
                        if key is None and c.lower_ in ("of", "at", "with") and lexicon_form(h) is not None:
                            key = self._untagged_employer(p)
                        if key is not None and key.startswith("Organization:"):
                            key = self._parent_at(p) or self._body_of(p, key)
                        if key is not None and key.startswith("Person:") and not (
                                c.lower_ in ("to", "for") and is_assisting(h)):
                            key = None
                        if key is None or key.startswith("Place:"):
                            key = self._unit_owner(p) or key  # "head of its Asia business": its, not Asia
                        if key is None:
                            for m in kids(p):
                                if m.dep_ in ("compound", "amod", "nmod"):
                                    key = self.org_of_modifier(m)
                                    if key:
                                        break
                        elif key.startswith("Group:"):
                            # "leader of the Harka Front rebels": the body named before its members
                            key = next((k for m in kids(p) if m.dep_ == "compound"
                                        and (k := self.org_of_modifier(m)) is not None
                                        and k.startswith("Organization:")), key)
                        if key and key.startswith("Person:"):
                            key = self._office_words(p) or key
                        if key and not key.startswith("Group:"):
                            return key
                        if depth < 2:
                            deeper = self.org_from_preps([p] + [x for x in kids(p) if x.dep_ == "conj"], depth + 1)
                            if deeper:
                                return deeper
                        if key:
                            return key  # an unnamed body ("the new firm"): named later in the article, or dropped
        return None

    def _untagged_employer(self, tok: Token) -> str | None:
        """ "Chief Operating Officer of Velmont Rail": capitalized words the model left untagged (or took
        for a product or a work's title: "deputy editor of the Evening Courier") after a role noun's "of"
        or "at" name the organization (not a place, not a title's own words)."""
        words = sorted([c for c in kids(tok) if c.dep_ == "compound" and c.i < tok.i], key=lambda c: c.i) + [tok]
        if not 2 <= len(words) <= 4 or words[-1].i - words[0].i + 1 != len(words) or any(
                w.pos_ != "PROPN" or not w.is_title or w.ent_type_ not in _UNTAGGED or w.is_sent_start for w in words):
            return None
        name = " ".join(w.text for w in words).lower()
        if name in PLACE_ALIASES or name in DEMONYMS:
            return None
        return self.org_named(words) or self.index.organization_span(words)

    def _body_of(self, tok: Token, key: str) -> str:
        """ "the Board of Trustees of the Acme Bank": a body of an organization, named as one."""
        ent = self.index.entities.get(key)
        if ent is None or tok.lower_ not in ORG_HEADS | ORGANIZATION_NOUNS | {"governors", "directors", "trustees"}:
            return key
        # its own "of" phrase, or one the parser hung on the word before ("a member of the Board of
        # Directors of Acme", the last "of" on "member")
        later = [c for c in kids(tok.head.head) if c.i > tok.i] if tok.head.dep_ == "prep" and tok.head.lower_ == "of" else []
        for c in [*kids(tok), *later]:
            if c.dep_ == "prep" and c.lower_ == "of":
                for p in kids(c):
                    whole = self.index.named_key(p) if p.dep_ == "pobj" else None
                    if whole and whole.startswith("Organization:") and whole != key:
                        label = f"{ent.label} of {self.index.entities[whole].label}"
                        return self._organization(label)
        inner = [c for c in kids(tok) if c.dep_ == "prep" and c.lower_ == "of"]
        for c in inner:  # "Board of Trustees" whose own "of" phrase holds the organization's
            for p in kids(c):
                if p.dep_ == "pobj" and self.index.named_key(p) == key:
                    return self._body_of(p, key) if p.i != tok.i else key
        return key

    def _organization(self, label: str) -> str:
        """The key of an organization by its full name, made when the article names it only in parts."""
        key = f"Organization:{compact(label)}"
        if key not in self.index.entities:
            self.index.entities[key] = Entity(key=key, label=label, type="Organization", aliases={label})
        return key

    def _appos_org(self, tok: Token) -> str | None:
        """ "the armed group Red Dawn", "the company, Acme": the name set beside a noun (also where the
        parser hung the name on the noun's head: "lyricist of rock band Velmar Dogs")."""
        nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
        beside = [nxt] if nxt is not None and nxt.ent_iob_ == "B" and tok.is_lower and tok.dep_ == "pobj" else []
        for c in [*kids(tok), *beside]:
            if c.dep_ == "appos" or (c.dep_ == "compound" and c.i > tok.i) or (nxt is not None and c.i == nxt.i):
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
        for m in kids(p):
            if m.dep_ == "compound" and m.i < p.i and not (self.index.named_key(m) or "").startswith("Person:"):
                for w in m.subtree:
                    key = self.index.org_of_modifier(w)
                    if key and not key.startswith("Person:"):
                        return key
        return None

    def org_in(self, tok: Token) -> str | None:
        """An organization named by a noun phrase or by one of its modifiers ("the Solidarity union movement"),
        or that a pronoun stands for ("joined them")."""
        if tok.pos_ == "PRON":
            key = self.index.resolve(tok)
            return key if key is not None and key.startswith("Organization:") else None
        for t in [tok] + [c for c in kids(tok) if c.dep_ in ("compound", "nmod", "amod", "poss")]:
            key = self.org_name_at(t) or (self._appos_org(t) if t.i == tok.i else None)  # "the firm Acme"
            if key and key.startswith("Organization:"):
                return key
            if t.i != tok.i and t.dep_ == "compound":
                for g in kids(t):
                    if g.dep_ in ("compound", "amod", "nmod"):
                        key = self.index.named_key(g)
                        if key and key.startswith("Organization:"):
                            return key
        return self._untagged_name_of(tok)

    def _untagged_name_of(self, tok: Token) -> str | None:
        """ "the Green Left party", "the Unity union": capitalized words the model left untagged before
        a noun for a kind of body name it."""
        if not (tok.is_lower and tok.pos_ == "NOUN" and tok.lemma_.lower() in ORGANIZATION_NOUNS | ORG_HEADS):
            return None
        words = sorted((c for c in tok.subtree if c.i < tok.i and c.dep_ == "compound"), key=lambda c: c.i)
        if not words or words[-1].i != tok.i - 1 or any(
                not w.is_title or w.pos_ != "PROPN" or w.ent_type_ or w.is_sent_start for w in words):
            return None
        if words[-1].i - words[0].i + 1 != len(words):
            return None
        return self.org_named(words) or self.index.organization_span(words)


def _taken_from(tok: Token) -> bool:
    """Whether a name stands in the object of a verb that takes things away ("removed a video of Ann
    Lee from the site"), so that a "from" after it says where from, not whose."""
    t = tok
    for _ in range(5):
        if t.dep_ not in ("dobj", "pobj", "prep", "acl", "compound", "appos", "conj") or t.head.i == t.i:
            return False
        t = t.head
        if t.pos_ == "VERB" and t.lemma_.lower() in SOURCE_VERBS:
            return True
    return False


def _in_title_before_name(ent: Span) -> bool:
    """ "Norland" in "Norland President Ann Lee": a name in a title that runs on to a person's name."""
    doc = ent.doc
    i = ent.end
    while i < len(doc) and is_role_word(doc[i]) and doc[i].ent_type_ != "PERSON":
        i += 1
    return i > ent.end and i < len(doc) and doc[i].ent_type_ == "PERSON"
