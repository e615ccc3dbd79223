"""Role titles: which words of a phrase name a post, and how the post is worded.

Word-level tests shared by the title and apposition reader (``roles.py``) and the career reader
(``careers.py``). A title is read as [organization words] + [role words]: "U.S. Border Patrol" +
"Chief Patrol Agent", "Acme" + "press secretary"; words such as "Chief ... Officer" or
"Assistant ... Attorney" stay in the role even when an unknown word or a country stands between.
"""
from __future__ import annotations

import re

from spacy.tokens import Doc, Span, Token

from ..facts import Entity, Evidence, Role
from ..nlp.lexicon import (
    DEMONYMS,
    DEPARTMENT_WORDS,
    GENERIC_PEOPLE,
    KINSHIP_NOUNS,
    NOT_HUMAN,
    OCCUPATION_SUFFIXES,
    ORG_HEADS,
    ORGANIZATION_NOUNS,
    PLACE_ALIASES,
    RANKS,
    ROLE_MODIFIERS,
    ROLE_NOUNS,
    TITLE_ONLY_NOUNS,
)
from .entities import EntityIndex, norm_name

#: Prepositions whose object is the organization of a role noun ("director of X", "spokesman for X").
ORG_PREPS = ("of", "for", "at", "from", "with", "in", "within")
#: Role nouns of people who serve a person: "to" names whom ("an aide to X", "adviser to the minister"),
#: and the organization is that person's office.
ASSISTING_NOUNS = frozenset("""
aide adviser advisor assistant counselor counsellor consultant secretary spokesman spokeswoman spokesperson
chief-of-staff lawyer attorney bodyguard
""".split())
#: Heads of titles that name a post in a national government ("Prime Minister", "Home Secretary").
GOVERNMENT_HEADS = frozenset({"minister", "president", "premier", "chancellor", "secretary", "vice-president"})
#: Words before a title that make it a past one ("former", "ex-", "the late").
PAST_WORDS = frozenset({"former", "then", "ex", "onetime", "one-time", "erstwhile", "late"})
#: Words before a title that are no part of the role's name.
NOT_ROLE_WORDS = PAST_WORDS | {"new", "current", "incoming", "outgoing", "sitting", "newly", "recently"}
#: Modifiers that stay in the role across an organization word ("Assistant U.S. Attorney", "Deputy
#: Defense Secretary").
RANK_MODIFIERS = frozenset("assistant deputy associate acting interim special senior principal".split())
#: Words that, after a role noun and "of", complete a title ("Chief of Staff", "Secretary of State").
OF_TITLE_WORDS = frozenset(DEPARTMENT_WORDS | {"staff", "operations", "security", "affairs", "police"})
#: Role nouns that name a post only in lowercase ("Pacers guard X"; "the National Guard" is a body).
_LOWERCASE_ONLY = frozenset({"guard", "forward", "player"})


def lexicon_form(tok: Token) -> str | None:
    """The role noun of the lexicon a token is a form of: "Attorneys" (a plural the model left
    unlemmatized as a proper noun), "president-elect" (three tokens)."""
    low = tok.lower_
    for form in (low, tok.lemma_.lower(), low[:-1] if low.endswith("s") else ""):
        if form in ROLE_NOUNS or form in TITLE_ONLY_NOUNS:
            return form
    doc = tok.doc
    if tok.i >= 2 and doc[tok.i - 1].text == "-" and not doc[tok.i - 1].whitespace_:
        joined = doc[tok.i - 2].lower_ + "-" + low
        if joined in ROLE_NOUNS:
            return joined
    return None


def is_role_noun(tok: Token) -> bool:
    """A noun naming a position or an occupation ("spokesman", "meteorologist")."""
    lemma = tok.lemma_.lower()
    low = tok.lower_
    form = lexicon_form(tok)
    if form is not None:
        return form not in _LOWERCASE_ONLY or tok.is_lower
    return (tok.pos_ == "NOUN" and tok.is_lower and len(lemma) > 5 and lemma.endswith(OCCUPATION_SUFFIXES)
            and lemma not in GENERIC_PEOPLE and low not in GENERIC_PEOPLE and lemma not in NOT_HUMAN
            and lemma not in KINSHIP_NOUNS and low not in KINSHIP_NOUNS)


def is_role_word(tok: Token) -> bool:
    """A role noun or a word that can stand in a title before one ("deputy", "Defense", "Capt.")."""
    low = tok.lower_
    return is_role_noun(tok) or low in ROLE_MODIFIERS or low in DEPARTMENT_WORDS or low in RANKS


def role_text(words: list[Token]) -> str:
    """The role as a singular phrase ("its sympathizers" -> "sympathizer"), hyphens kept tight."""
    if not words:
        return ""
    last = words[-1]
    head = last.lemma_ if last.tag_ in ("NNS", "NNPS") else last.text
    if is_plural_title([last]):
        head = lexicon_form(last) or head
    if last.text[:1].isupper() and head[:1].islower():
        head = head[:1].upper() + head[1:]
    out = ""
    for t in words[:-1]:
        nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
        out += t.text + ("" if t.text == "-" or (nxt is not None and nxt.text == "-") else " ")
    return (out + head).strip()


def is_government_title(words: list[Token]) -> bool:
    """ "Prime Minister", "Defense Secretary", "President", "President-elect": a post in a national
    government."""
    if len(words) > 2 and words[-2].text == "-" and words[-1].lower_ in ("elect", "designate"):
        words = words[:-2]
    if not words or words[-1].lemma_.lower() not in GOVERNMENT_HEADS:
        return False
    mods = {t.lower_ for t in words[:-1]}
    return (bool(mods & (DEPARTMENT_WORDS | {"prime", "vice", "shadow"}))
            or words[-1].lower_ in ("president", "premier", "chancellor", "vice-president"))


def is_past_title(words: list[Token]) -> bool:
    """Whether a title's own words make it a past role ("former", "ex-", "then-")."""
    return any(t.lower_ in PAST_WORDS for t in words)


def is_plural_title(words: list[Token]) -> bool:
    """ "Assistant U.S. Attorneys X and Y": a plural title shared by the names coordinated after it."""
    if not words:
        return False
    last = words[-1]
    return last.lower_.endswith("s") and lexicon_form(last) not in (None, last.lower_)


#: Trailing ranks dropped after a role ("Defense Minister General X": the role is the ministry's).
_TRAILING_RANKS = frozenset({"general", "colonel", "major", "lieutenant", "captain", "admiral", "sergeant", "dr", "dr."})
#: Common nouns that stand for a country the article names ("the nation's", "the emirate's").
COUNTRY_NOUNS = frozenset({"country", "nation", "emirate", "kingdom", "republic"})
_KNOWN_COUNTRIES = frozenset(norm_name(c) for c in (*DEMONYMS.values(), *PLACE_ALIASES.values()))
#: How many body mentions a country named in the headline counts for.
_HEADLINE_WEIGHT = 3


def _of_title(doc: Doc, i: int, floor: int) -> bool:
    """ "Chief of Staff", "Minister of Defence": "of" and a department word after a role noun are part
    of the title (``doc[i]`` is either word)."""
    if doc[i].lower_ == "of":
        return i - 1 >= floor and i + 1 < len(doc) and is_role_noun(doc[i - 1]) and doc[i + 1].lower_ in OF_TITLE_WORDS
    return doc[i].lower_ in OF_TITLE_WORDS and i - 2 >= floor and doc[i - 1].lower_ == "of" and is_role_noun(doc[i - 2])


def _bare_title_word(tok: Token) -> bool:
    """ "of State", "of Operations": a department word alone after "of" is part of the title, not an
    organization ("of Government Information" is one)."""
    return tok.lower_ in OF_TITLE_WORDS and not any(c.dep_ == "compound" for c in tok.children)


def _title_complement(head: Token) -> str:
    """ "Vice President of Operations", "secretary of state": the words "of" adds to a role noun."""
    for c in head.children:
        if c.dep_ == "prep" and c.lower_ == "of" and c.i == head.i + 1:
            words = [p for p in c.children if p.dep_ == "pobj" and _bare_title_word(p)]
            if words:
                p = words[0]
                return " of " + head.doc[c.i + 1:p.i + 1].text
    return ""


class TitleReader:
    """Splits titles into role and organization, and finds the organization a role phrase names.

    An organization is an Organization or a Place the article names; a common noun ("the party",
    "the nation") stands for one when the article names exactly one such body.
    """

    def __init__(self, index: EntityIndex, headline: str | None = None) -> None:
        self.index = index
        self.doc = index.doc
        self.headline = headline
        self._home: str | None = None
        self._home_read = False
        self._noun_orgs: dict[str, list[tuple[int, str]]] | None = None
        #: tokens of an organization's short name the model missed ("Pacers guard X") -> its key
        self._short_names: dict[int, str] = {}

    # ----- keys -------------------------------------------------------------------
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
        Frelimo party"), and its key."""
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

    # ----- titles -----------------------------------------------------------------
    def title_ending_at(self, i: int, ent: Span, person: str, evidence: Evidence,
                        own: frozenset[int] = frozenset()) -> list[Role]:
        """The role of a title whose last word is ``doc[i]`` (read back to the clause's punctuation)."""
        title = self.title_words(i, ent.sent.start, own)
        return self.split_title(title, person, evidence, ent, own) if title else []

    def title_words(self, i: int, floor: int, own: frozenset[int] = frozenset()) -> list[Token]:
        """The words of a title whose last word is ``doc[i]``: role words, names of organizations and
        countries, possessors ("the nation's"), read back to the clause's punctuation; with an
        organization name the model missed right before it."""
        doc = self.doc
        title: list[Token] = []
        while i >= floor:
            t = doc[i]
            if t.i in own:
                title.insert(0, t)
                i -= 1
                continue
            hyphen = t.text == "-" and i - 1 >= floor and is_role_word(doc[i - 1]) and title and is_role_word(title[0])
            if (t.is_punct and t.tag_ != "POS" and not hyphen) or t.is_space:
                break
            possessor = t.pos_ == "NOUN" and i + 1 < len(doc) and doc[i + 1].tag_ == "POS" and bool(title)
            served = t.ent_type_ == "PERSON" and bool(title) and title[-1].lemma_.lower() in ASSISTING_NOUNS
            if not (hyphen or possessor or served or is_role_word(t) or t.ent_type_ in ("ORG", "GPE", "NORP", "LOC")
                    or t.tag_ in ("POS", "PRP$") or t.lower_ in NOT_ROLE_WORDS or self._interior(t, title, floor)
                    or _of_title(doc, i, floor)):
                break
            title.insert(0, t)
            i -= 1
        if title and is_role_word(title[0]) and i >= floor:
            name = self._proper_name_before(i, floor)
            if name is not None:
                title = name + title
        return title

    def noun_title(self, noun: Token, ent: Span | None = None) -> list[Token]:
        """The title a role noun heads: its modifiers ("a Stanford University economist") and the title
        words before it ("the nation's former vice-minister"), as one run of words ending at the noun;
        the words of a coordinated role noun are not its own ("chairman and chief executive")."""
        skip = {t.i for c in noun.children if c.dep_ == "conj" for t in c.subtree}
        served = noun.lemma_.lower() in ASSISTING_NOUNS  # "Trump adviser": the person served
        mods = {t.i for t in noun.subtree if t.i < noun.i and t.dep_ not in ("det", "punct", "case", "cc")
                and t.i not in skip and (t.ent_type_ != "PERSON" or served)
                and not (ent is not None and ent.start <= t.i < ent.end)}
        mods |= {t.i for t in self.title_words(noun.i, noun.sent.start)}
        mods.add(noun.i)
        first = noun.i
        while first - 1 in mods:
            first -= 1
        return list(self.doc[first:noun.i + 1])

    @staticmethod
    def _interior(t: Token, after: list[Token], floor: int) -> bool:
        """ "Chief [Financial] Officer", "Chief [Patrol] Agent": a word between a title's modifier and
        its role noun is part of the title."""
        return (bool(after) and t.is_alpha and not t.ent_type_ and t.i - 1 >= floor
                and t.doc[t.i - 1].lower_ in ROLE_MODIFIERS and not t.doc[t.i - 1].ent_type_
                and t.doc[t.i - 1].lower_ not in NOT_ROLE_WORDS
                and t.lower_ not in NOT_ROLE_WORDS and any(is_role_noun(x) for x in after))

    def _proper_name_before(self, i: int, floor: int) -> list[Token] | None:
        """An organization name the model did not tag, right before a title ("Joint Council for the
        Welfare of Migrants campaigner X"): capitalized words joined by of/for/the/and."""
        doc = self.doc
        toks: list[Token] = []
        while i >= floor:
            t = doc[i]
            if t.text[:1].isupper() and t.pos_ in ("PROPN", "NOUN") and t.ent_type_ not in ("PERSON", "DATE"):
                toks.insert(0, t)
            elif t.lower_ in ("of", "for", "the", "and", "&") and toks:
                toks.insert(0, t)
            else:
                break
            i -= 1
        while toks and not toks[0].text[:1].isupper():
            toks = toks[1:]
        if not toks or all(self.index.named_key(t) is not None for t in toks):
            return None
        known = self.org_named(toks)
        if known is None:
            self.index.organization_span(toks)
        else:
            self._short_names.update((t.i, known) for t in toks)
        return toks

    def org_named(self, toks: list[Token]) -> str | None:
        """An organization of the article whose name ends with these words ("the Pacers" for "Indiana
        Pacers"), when exactly one does."""
        words = [norm_name(t.text) for t in toks if t.lower_ != "the"]
        if not words:
            return None
        found = {k for k, e in self.index.entities.items() if e.type == "Organization" and e.mentions > 0
                 and [norm_name(w) for w in e.label.split()][-len(words):] == words}
        return next(iter(found)) if len(found) == 1 else None

    def split_title(self, title: list[Token], person: str, evidence: Evidence, ent: Span | None,
                    own: frozenset[int] = frozenset()) -> list[Role]:
        """Split a title into organization words and the role phrase, then name the organization."""
        toks = list(title)
        ranks: list[Token] = []
        while len(toks) > 1 and toks[-1].lower_ in RANKS and toks[-1].lower_ not in ROLE_NOUNS and toks[-2].text != "-":
            ranks.insert(0, toks.pop())
        while (len(toks) > 1 and toks[-1].lower_ in _TRAILING_RANKS and toks[-2].text != "-"
               and any(t.lower_ in ROLE_NOUNS for t in toks[:-1])):
            toks.pop()  # "Defense Minister General X": the rank is no part of the role
        role_toks: list[Token] = []
        j = len(toks) - 1
        while j >= 0:
            t = toks[j]
            if self.key(t, own) is not None:
                break
            inner = (bool(role_toks) and j > 0 and toks[j - 1].lower_ in ROLE_MODIFIERS and t.is_alpha
                     and toks[j - 1].lower_ not in NOT_ROLE_WORDS and (not t.ent_type_ or t.i in own)
                     and self.key(toks[j - 1], own) is None and any(is_role_noun(x) for x in role_toks))
            if not (is_role_word(t) or t.text == "-" or inner or _of_title(t.doc, t.i, toks[0].i)):
                break
            role_toks.insert(0, t)
            j -= 1
        # A capitalized body word opening the title is the organization ("Army spokesman").
        body = []
        while len(role_toks) > 1 and role_toks[0].is_title and role_toks[0].lower_ in ORG_HEADS:
            body.append(role_toks.pop(0))
        if body:
            self.index.organization_span(body)
            j += len(body)
        if (not role_toks or not any(is_role_noun(t) for t in role_toks)) and ranks:
            role_toks, j = ranks, len(toks) - 1  # "Navy Capt. Ann Ford": the rank is the role
        elif not role_toks or not any(is_role_noun(t) for t in role_toks):
            return []
        before = toks[: j + 1]
        shown = role_toks
        lead = 0
        while lead < len(before) and before[lead].lower_ in RANK_MODIFIERS and self.key(before[lead], own) is None:
            lead += 1
        if 0 < lead < len(before) and all(self.key(t, own) is not None or t.i in own for t in before[lead:]):
            shown = before + role_toks  # "Assistant U.S. Attorney": one role across the country's name
        role_words = [t for t in shown if t.lower_ not in NOT_ROLE_WORDS]
        role = role_text(role_words) + _title_complement(role_toks[-1])
        org = self.affiliation(ent) if ent is not None else None
        if org is None:
            org = self.explicit_org(role_toks)
        if org is None:
            org = self._country_in_name([t for t in before if t.i in own])
        possessor = [t for t in before if (t.i + 1 < len(t.doc) and t.doc[t.i + 1].tag_ == "POS") or t.tag_ == "PRP$"]
        for t in possessor if org is None else []:
            org = self.org_of_modifier(t) or self.index.resolve(t)
            if org is not None:
                break
        for t in reversed(before) if org is None else []:
            if t.i not in own:
                org = self.org_of_modifier(t)
            if org is not None:
                break
        if org is None or (org.startswith("Place:") and not self.is_country(org)):
            # "the Middle East correspondent for the AP": a region before the role is its beat; an
            # organization the role is "for" or "of" is the employer.
            org = self.org_from_preps(role_toks) or org
        rule, confidence = "title", 0.8
        if org is None and is_government_title(role_words):
            # "Prime Minister X" in an article about one country: that country's government.
            org, rule, confidence = self.home_country(), "implicit-country", 0.5
        if org is None or org == person or not role or not self.may_employ(org, role_toks[-1]):
            return []
        return [Role(person=person, role=role, org=org, evidence=evidence, former=is_past_title(title), rule=rule,
                     confidence=confidence)]

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
        the Pacers") or missed, when an organization of the article ends with it."""
        key = self.index.named_key(tok)
        if key is not None and key.startswith("Organization:"):
            return key
        if tok.pos_ == "PROPN" and tok.tag_ == "NNPS" and (key is None or key.startswith("Person:")) \
                and any(c.lower_ == "the" for c in tok.children):
            return self.org_named([t for t in tok.subtree if t.i <= tok.i])
        return key

    def explicit_org(self, heads: list[Token]) -> str | None:
        """An organization a role noun itself is "of", "for" or "at" ("judge for the District Court")."""
        for h in heads:
            for c in h.children:
                if c.dep_ == "prep" and c.lower_ in ("of", "for", "at", "within"):
                    for p in c.children:
                        if p.dep_ != "pobj" or _bare_title_word(p):
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
                        if p.dep_ != "pobj" or _bare_title_word(p):
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
        """ "the terrorist organization Al-Qaeda", "the company, Acme": the name set beside a noun."""
        for c in tok.children:
            if c.dep_ == "appos" or (c.dep_ == "compound" and c.i > tok.i):
                key = self.index.named_key(c)
                if key and key.startswith("Organization:"):
                    return key
        return None

    def unnamed_body(self, tok: Token) -> str | None:
        """ "for the United States District Court": a capitalized name of a body ("Court", "Commission")
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
