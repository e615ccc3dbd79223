"""Who holds which role in which organization, read from titles, appositions and career verbs.

Noun constructions are read here, around each named person: a title before the name ("Acme press
secretary Ann Lee", "Chief Financial Officer Ann Lee"), an apposition in either order ("Ann Lee, the
Acme spokeswoman"; "the party's candidate, Ann Lee"), "the head of Acme, Ann Lee", "Ann Lee and
other members of Acme", "Ann Lee of Acme". Verb constructions (careers, appointments, "who heads")
are read by ``careers.py``, word classes by ``titles.py``, and the organization a role phrase names
by ``role_orgs.py``. A role is kept only when an organization or a country the article names is given
for it; ``finish`` settles what only the whole article tells (an aide's office).
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from ...model.facts import Evidence, Role
from ...nlp.lexicon import (
    DEMONYMS,
    DEPARTMENT_WORDS,
    GENERIC_PEOPLE,
    ORG_HEADS,
    ORGANIZATION_NOUNS,
    RANKS,
    REPORTING_VERBS,
    ROLE_MODIFIERS,
    ROLE_NOUNS,
)
from ..entities.index import EntityIndex
from ..grammar.columns import kids
from ..grammar.evidence import evidence_of
from .appointed import appointed_list
from .careers import CareerReader
from .role_orgs import OrgFinder
from .titles import (
    ASSISTING_NOUNS,
    COURT_KINDS,
    LEGISLATOR_HEADS,
    LOCAL_HEADS,
    NOMINEE_NOUNS,
    OFFICE_HEADS,
    NOT_ROLE_WORDS,
    ORG_PREPS,
    PAST_WORDS,
    RANK_MODIFIERS,
    TITLE_SUFFIXES,
    TRAILING_RANKS,
    completed_by_general,
    is_adjectival_name,
    is_corporate_title,
    is_government_title,
    is_past_title,
    is_plural_title,
    is_role_noun,
    is_role_word,
    is_title_ordinal,
    title_head,
    lexicon_form,
    of_title,
    role_text,
    role_words_ending_at,
    title_complement,
)

#: Organization words that, after "Secretary of", name a government department ("Secretary of State").
_DEPARTMENT_PHRASES = frozenset(DEPARTMENT_WORDS | {"homeland security", "the interior", "the treasury",
                                                    "foreign affairs", "home affairs", "internal affairs"})


class RoleReader(OrgFinder):
    """Reads person-role-organization facts from the sentences of one article."""

    def __init__(self, index: EntityIndex, text: str, headline: str | None = None, date: str | None = None) -> None:
        super().__init__(index, headline)
        self.text = text
        self.careers = CareerReader(orgs=self, titles=self, date=date)  # a RoleReader is both
        self._person_ents: list[Span] | None = None
        self._person_starts: list[int] = []

    def read(self, sent: Span) -> list[Role]:
        """Every role stated in a sentence."""
        evidence = evidence_of(sent, self.text)
        roles: list[Role] = []
        persons: list[tuple[Span, str]] = []
        shared: dict[int, list[Role]] = {}
        if self._person_ents is None:
            self._person_ents = [e for e in self.index.ents if e.label_ == "PERSON"]
            self._person_starts = [e.start for e in self._person_ents]
        first = bisect_left(self._person_starts, sent.start)
        for ent in self._person_ents[first:bisect_left(self._person_starts, sent.end)]:
            if ent.end > sent.end:
                continue
            if ent.root.tag_ == "NNPS" and ent.start > 0 and ent.doc[ent.start - 1].lower_ == "the":
                continue  # "the Comets": a plural name is no person, whatever the model says
            person = self.index.resolve(ent.root)
            if person is None or not person.startswith("Person:"):
                continue
            persons.append((ent, person))
            own = self._title_in_name(ent)
            titled = self._title_before(ent, person, evidence, own)
            if titled and is_plural_title([ent.doc[max(own)]] if own else self._word_before(ent)):
                shared[_list_head(ent.root).i] = titled
            roles.extend(titled)
            nouns = self._apposition_nouns(ent)
            apposed = self._appositions(ent, person, evidence, nouns)
            if apposed and any(is_plural_title([n]) for n in nouns):
                shared.setdefault(_list_head(ent.root).i, apposed)  # "Ann Lee and Tom Roe, both members of X"
            roles.extend(apposed)
            roles.extend(self._unparsed_apposition(ent, person, evidence))
            roles.extend(self._one_of_them(ent, person, evidence))
            roles.extend(self._role_of_org_before(ent, person, evidence))
            roles.extend(self._whose_body(ent, person, evidence))
        roles.extend(self.careers.read(sent, evidence))
        if not persons:
            roles.extend(self._described_topic(sent, evidence))
        listed = appointed_list(self, sent, evidence)
        if listed:  # a list says whose each post is: not the first name's, nor the name after the title
            roles = [r for r in roles if r.rule == "predecessor" or not any(
                x.person != r.person and (x.role.lower().startswith(r.role.lower()) or r.role.lower().startswith(x.role.lower()))
                for x in listed)]
            read = {(r.person, r.role.lower().split()[-1]) for r in roles}
            roles += [x for x in listed if (x.person, x.role.lower().split()[-1]) not in read]
        holders = {r.person for r in roles}
        roles.extend(self._shared_titles(persons, shared, holders))
        roles.extend(self._of_organization(persons, evidence, {r.person for r in roles}))
        kept: dict[tuple[str, str, str], Role] = {}
        for r in roles:
            k = (r.person, r.role.lower(), r.org)
            earlier = kept.get(k)
            # one row per role, with what every reading of it says (a title's and a verb's years)
            kept[k] = r if earlier is None else replace(earlier, former=earlier.former or r.former,
                                                        since=earlier.since or r.since, until=earlier.until or r.until)
        return list(kept.values())

    def finish(self, roles: list[Role]) -> list[Role]:
        """The article's roles, settled: an aide's organization is the office of the person served ("an
        aide to Senator X": X's country or body, when the article gives X one), a guessed country gives
        way to the organization the article names for the same role, and an organization is always an
        Organization or a Place (never an unnamed group or a person)."""
        explicit = {(r.person, r.role.lower()) for r in roles if not r.rule.startswith("implicit-")}
        roles = [r for r in roles if not r.rule.startswith("implicit-") or (r.person, r.role.lower()) not in explicit]
        # "appointed X as provost ... X joins Acme", "Associate Administrator X ... has been with Acme since
        # 1987": the post tells the joining, and the years with the body are the post's
        titled = {(r.person, self.index.canonical(r.org)) for r in roles if r.role.lower() != "member"}
        roles = [r for r in roles if not (r.rule == "joined" or (r.rule == "works-for" and r.role == "member"))
                 or (r.person, self.index.canonical(r.org)) not in titled]
        offices: dict[str, set[str]] = {}
        for r in roles:
            if not r.former and r.org.startswith(("Organization:", "Place:")):
                offices.setdefault(r.person, set()).add(r.org)
        out: list[Role] = []
        seen: set[tuple[str, str, str, int]] = set()
        named = self._named_groups() if any(r.org.startswith("Group:") for r in roles) else {}
        for r in roles:
            org: str | None = self.index.canonical(named.get(r.org, r.org))
            if org is not None and org.startswith("Person:"):
                served = offices.get(org, set())
                org = next(iter(served)) if len(served) == 1 else None
                r = replace(r, confidence=min(r.confidence, 0.6))
            if org is None or org == r.person or not org.startswith(("Organization:", "Place:")):
                continue
            k = (r.person, r.role.lower(), org, r.evidence.start)
            if k not in seen:
                seen.add(k)
                out.append(replace(r, org=org) if org != r.org else r)
        return out

    def _named_groups(self) -> dict[str, str]:
        """Unnamed bodies the article names later in the same phrase: "the new company, which is to be
        called Acme Holdings" / "the new company, Acme Holdings" -> Acme Holdings."""
        out: dict[str, str] = {}
        for e in self.index.ents:
            key = self.index.named_key(e.root)
            if e.label_ != "ORG" or not key or not key.startswith("Organization:"):
                continue
            noun: Token | None = None
            if e.root.dep_ == "appos" and e.root.head.pos_ == "NOUN":
                noun = e.root.head
            elif e.root.dep_ in ("oprd", "attr") and e.root.head.lemma_.lower() in ("call", "name", "rename", "know", "dub"):
                v = e.root.head
                while v.dep_ in ("xcomp", "conj") and v.head.i != v.i:
                    v = v.head
                if v.dep_ in ("relcl", "acl") and v.head.pos_ == "NOUN":
                    noun = v.head
            group = self.index.resolve(noun) if noun is not None else None
            if group is not None and group.startswith("Group:"):
                out[group] = key
        return out

    # ----- titles -------------------------------------------------------------------------
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
            if _acronym_ending_at(doc, i, floor):
                i -= 3  # "the Green Party (GP) candidate": the body's acronym is no word of the title
                continue
            hyphen = t.text == "-" and i - 1 >= floor and is_role_word(doc[i - 1]) and title and is_role_word(title[0])
            if (t.is_punct and t.tag_ != "POS" and not hyphen) or t.is_space:
                break
            possessor = t.pos_ == "NOUN" and i + 1 < len(doc) and doc[i + 1].tag_ == "POS" and bool(title)
            served = t.ent_type_ == "PERSON" and bool(title) and title[-1].lemma_.lower() in ASSISTING_NOUNS
            suffix = not title and t.lower_ in TITLE_SUFFIXES and i - 1 >= floor and is_role_word(doc[i - 1])
            if not (hyphen or possessor or served or suffix or is_role_word(t) or t.ent_type_ in ("ORG", "GPE", "NORP", "LOC")
                    or t.tag_ in ("POS", "PRP$") or t.lower_ in NOT_ROLE_WORDS or self._interior(t, title, floor)
                    or of_title(doc, i, floor) or is_title_ordinal(t, title) or _demonym(t)):
                field = self._field_before_title(i, floor, title)
                if not field:
                    break
                title[:0] = field  # "University of X political science professor Y": the field, then the body
                i -= len(field)
                continue
            title.insert(0, t)
            i -= 1
        if title and is_role_word(title[0]) and i >= floor:
            name = self._proper_name_before(i, floor)
            if name is not None:  # with a past word before it ("Former Velmark prime minister X")
                before = doc[name[0].i - 1] if name[0].i - 1 >= floor else None
                title = ([before] if before is not None and before.lower_ in PAST_WORDS else []) + name + title
        return title

    def _field_before_title(self, i: int, floor: int, title: list[Token]) -> list[Token]:
        """ "political science" in "University of X political science professor Y", "software" in "Acme software
        engineer Y": lowercase words of a field between a body's name and a role noun, when a name comes
        before them."""
        doc = self.doc
        if not title or not any(is_role_noun(t) for t in title):
            return []
        j = i
        while j >= floor and doc[j].is_lower and doc[j].pos_ in ("NOUN", "ADJ") and doc[j].dep_ in ("compound", "amod") \
                and j < doc[j].head.i <= title[-1].i:
            j -= 1
        if j == i or j < floor or doc[j].ent_type_ != "ORG":  # a place or a people: where, not whose
            return []
        return list(doc[j + 1:i + 1])

    def noun_title(self, noun: Token, ent: Span | None = None) -> list[Token]:
        """The title a role noun heads: its modifiers ("a Stanford University economist") and the title
        words before it ("the nation's former vice-minister"), as one run of words ending at the noun;
        the words of a coordinated role noun are not its own ("chairman and chief executive")."""
        skip = {t.i for c in kids(noun) if c.dep_ == "conj" for t in c.subtree}
        served = noun.lemma_.lower() in ASSISTING_NOUNS  # "Trump adviser": the person served
        mods = {t.i for t in noun.subtree if t.i < noun.i and t.dep_ not in ("det", "punct", "case", "cc")
                and t.i not in skip and (t.ent_type_ != "PERSON" or served)
                and not (ent is not None and ent.start <= t.i < ent.end)}
        mods |= {t.i for t in self.title_words(noun.i, noun.sent.start)}
        mods.add(noun.i)
        mods |= {t.i for t in noun.subtree if t.text == "-" and t.i - 1 in mods and t.i + 1 in mods
                 and not t.whitespace_ and not t.doc[t.i - 1].whitespace_}  # "undersecretary-general"
        words = [noun]
        i = noun.i - 1
        while i in mods or _acronym_ending_at(self.doc, i, noun.sent.start):
            if i in mods:
                words.insert(0, self.doc[i])
                i -= 1
            else:
                i -= 3
        return words

    @staticmethod
    def _interior(t: Token, after: list[Token], floor: int) -> bool:
        """ "Chief [Financial] Officer", "Chief [Patrol] Agent": a word between a title's modifier and
        its role noun is part of the title."""
        return (bool(after) and t.is_alpha and not t.ent_type_ and t.i - 1 >= floor
                and t.doc[t.i - 1].lower_ in ROLE_MODIFIERS and not t.doc[t.i - 1].ent_type_
                and t.doc[t.i - 1].lower_ not in NOT_ROLE_WORDS
                and t.lower_ not in NOT_ROLE_WORDS and any(is_role_noun(x) for x in after))

    def _proper_name_before(self, i: int, floor: int) -> list[Token] | None:
        """An organization name the model did not tag, right before a title ("Fair Harbor Council for
        the Rights of Tenants campaigner X"): capitalized words joined by of/for/the/and."""
        doc = self.doc
        toks: list[Token] = []
        while i >= floor:
            t = doc[i]
            plural = t.tag_ in ("NNS", "NNPS")  # "Rams coach X": a plural name is no person's
            if t.text[:1].isupper() and t.pos_ in ("PROPN", "NOUN") and t.ent_type_ not in _NUMERIC_TYPES and (
                    t.ent_type_ != "PERSON" or plural):
                toks.insert(0, t)
            elif t.lower_ in ("of", "for", "the", "and", "&") and toks:
                toks.insert(0, t)
            else:
                break
            i -= 1
        while toks and (not toks[0].text[:1].isupper() or (toks[0].lower_ in RANK_MODIFIERS and len(toks) > 1)):
            toks = toks[1:]  # "Assistant United States Attorneys": the rank is the title's
        if not toks or all((self.index.named_key(t) or "Person:").startswith(("Organization:", "Place:")) for t in toks):
            return None
        known = self.org_named(toks)
        if known is None and len(toks) == 1 and toks[0].is_sent_start and toks[0].pos_ != "PROPN":
            return None  # "Opposition leader X": a common noun capitalized as the sentence's first word
        if known is None:
            self.index.organization_span(toks)
        else:
            self._short_names.update((t.i, known) for t in toks)
        return toks

    def split_title(self, title: list[Token], person: str, evidence: Evidence, ent: Span | None,  # noqa: C901 (30): a chain of construction rules; issue 33 step 2 makes them named rules
                    own: frozenset[int] = frozenset()) -> list[Role]:
        """Split a title into organization words and the role phrase, then name the organization."""
        toks = list(title)
        ranks: list[Token] = []
        while len(toks) > 1 and toks[-1].lower_ in RANKS and toks[-1].lower_ not in ROLE_NOUNS and toks[-2].text != "-":
            ranks.insert(0, toks.pop())
        while len(toks) > 1 and toks[-1].lower_ in TITLE_SUFFIXES and toks[-2].text != "-":
            toks.pop()  # "deputy minister designate X": the post, still to be taken
        while (len(toks) > 1 and toks[-1].lower_ in TRAILING_RANKS and toks[-2].text != "-"
               and any(t.lower_ in ROLE_NOUNS for t in toks[:-1])
               and not completed_by_general(toks[-2], toks[-1])):
            toks.pop()  # "Defense Minister General X": the rank is no part of the role
        role_toks: list[Token] = []
        j = len(toks) - 1
        while j >= 0:
            t = toks[j]
            if self.key(t, own) is not None and not (role_toks and is_adjectival_name(t)):
                break
            inner = (bool(role_toks) and j > 0 and toks[j - 1].lower_ in ROLE_MODIFIERS and t.is_alpha
                     and toks[j - 1].lower_ not in NOT_ROLE_WORDS and (not t.ent_type_ or t.i in own)
                     and self.key(toks[j - 1], own) is None and any(is_role_noun(x) for x in role_toks))
            if not (is_role_word(t) or t.text == "-" or inner or of_title(t.doc, t.i, toks[0].i)
                    or is_title_ordinal(t, role_toks) or (role_toks and is_adjectival_name(t))
                    or (bool(role_toks) and completed_by_general(t, role_toks[0]))):
                break
            role_toks.insert(0, t)
            j -= 1
        if role_toks and role_toks[0].text == "-" and j >= 0 and not toks[j].whitespace_:
            role_toks.insert(0, toks[j])  # "Undersecretary-General": the hyphen joins the word before
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
        role = role_text(role_words) + title_complement(role_toks[-1])
        org = self.affiliation(ent) if ent is not None else None
        if org is None:
            org = self.explicit_org(role_toks)
        if org is None:
            org = self._country_in_name([t for t in before if t.i in own])
        possessor = [t for t in before if (t.i + 1 < len(t.doc) and t.doc[t.i + 1].tag_ == "POS") or t.tag_ == "PRP$"]
        for t in possessor if org is None else []:
            org = self.government_country(t) or self.org_of_modifier(t) or self.index.resolve(t)
            if org is not None:
                break
        for t in reversed(before) if org is None else []:
            if t.i not in own:
                org = self.org_of_modifier(t)
            if org is not None:
                break
        if org is not None and org.startswith("Group:"):
            org = self.org_from_preps(role_toks) or org  # "a member of the board of Acme": Acme
        if org is None or (org.startswith("Place:") and not self.is_country(org)):
            # "the Baltic correspondent for the Gazette": a region before the role is its beat; an
            # organization the role is "for" or "of" is the employer.
            org = self.org_from_preps(role_toks) or org
        for t in [*role_toks[:-1], *reversed(before)] if org is None else []:
            # "county treasurer", "party president": the one named; "the government's minister": its country
            org = (self.org_of_noun(t) or self.government_country(t)) if t.is_lower else None
            if org is not None:
                break
        if org is None and ent is not None and role_words and (
                is_government_title(role_words) or lexicon_form(role_words[-1]) in LOCAL_HEADS | LEGISLATOR_HEADS):
            org = self._place_after(ent)  # "Prime Minister Ann Lee of Norway", "Senator X from Velmora"
        court = self._court_of_title(before, role_words)
        if court is not None and (org is None or org.startswith("Place:")):
            org = court  # "Harlan Circuit Judge X": a judge of the Harlan Circuit Court
        rule, confidence = "title", 0.8
        if org is None and is_government_title(role_words):
            # "Prime Minister X" in an article about one country: that country's government.
            org, rule, confidence = self.home_country(), "implicit-country", 0.5
            if org is None:
                org, confidence = self.only_country_before(title[0].i), 0.4
        elif org is None and is_corporate_title(role_words):
            # "Chief executive Ann Lee" in an article about one company: that company's
            org, rule, confidence = self.home_company(), "implicit-company", 0.5
        elif org is None and role_words and title_head(role_words) in OFFICE_HEADS and not possessor \
                and not any(c.dep_ == "poss" for t in role_toks for c in kids(t)):
            # (a possessor names the body, if not one the article is about: "Harlow's deputy director")
            # "Program Manager X", "Secretary-General X" in an article about one organization: its post
            org, rule, confidence = self.home_organization(), "implicit-organization", 0.5
        elif org is None and role_words and lexicon_form(role_words[-1]) in LOCAL_HEADS:
            # "Mayor X" in an article that has named one city (or state) so far: its government
            org, rule, confidence = self.only_place_before(title[0].i), "implicit-place", 0.4
        head = next((t for t in reversed(role_toks) if is_role_noun(t)), role_toks[-1])  # "Minister of Defence"
        if org is None or org == person or not role or not self.may_employ(org, head):
            return []
        return [Role(person=person, role=role, org=org, evidence=evidence, former=is_past_title(title), rule=rule,
                     confidence=confidence)]

    def _described_topic(self, sent: Span, evidence: Evidence) -> list[Role]:
        """ "Ivo Pell died on Monday. The co-founder of the Harka Trust and former editor of the Velmar Times
        was 81.": a sentence that names no one, whose subject is "the" and a title and that tells what is told
        of someone already known (an age, a death), describes the person the article is about when that
        person was named just before (rule ``described-topic``). Other such subjects may bring in someone new
        ("the head of the bank arrived later")."""
        topic = self.index.coref.topic
        if topic is None or not topic.startswith("Person:"):
            return []
        root = sent.root
        subject = next((c for c in kids(root) if c.dep_ == "nsubj"), None)
        if subject is None or subject.tag_ != "NN" or root.lemma_.lower() in REPORTING_VERBS \
                or not any(c.dep_ == "det" and c.lower_ == "the" for c in kids(subject)) or not is_role_noun(subject) \
                or not _said_of_someone_known(root, subject) or not self.index.coref.topic_near(sent):
            return []
        out: list[Role] = []
        for noun in [subject, *(t for t in subject.subtree if t.dep_ in ("conj", "appos") and is_role_noun(t))]:
            for role in self.split_title(self.noun_title(noun), topic, evidence, None):
                if role.rule == "title" and not role.org.startswith("Person:"):
                    out.append(replace(role, rule="described-topic"))
        return out

    def _place_after(self, ent: Span) -> str | None:
        """The country, state or city a name's own "of" or "from" phrase names."""
        return next((key for c in kids(ent.root) if c.dep_ == "prep" and c.lower_ in ("of", "from")
                     for p in kids(c) if p.dep_ == "pobj" and (key := self.index.named_key(p) or "").startswith("Place:")),
                    None)

    def _court_of_title(self, before: list[Token], role_words: list[Token]) -> str | None:
        """The court a judge's capitalized title names by its kind ("District Judge", "Superior Court Judge",
        "U.S. Bankruptcy Judge"), with the country or state written before it."""
        if not role_words or lexicon_form(role_words[-1]) != "judge":
            return None
        kinds = [t for t in role_words[:-1] if t.lower_ in COURT_KINDS and t.is_title]
        if not kinds or any(t.lower_ == "court" for t in role_words):
            return None
        place = [t for t in before if (self.key(t) or "").startswith("Place:")]
        words = [t.text for t in place] + [t.text.capitalize() for t in kinds] + ["Court"]
        return self._organization(" ".join(words))

    # ----- titles before the name ------------------------------------------------------
    @staticmethod
    def _title_in_name(ent: Span) -> frozenset[int]:
        """Title words the model took into the name ("Patrol Agent Ann Lee", "United States Attorneys
        Ann Lee"): up to the last role noun of the name, when a first and last name (or a plural title,
        or a modified one) follow."""
        toks = list(ent)
        last = None
        for k, t in enumerate(toks[:-1]):
            if not t.text[:1].isupper():
                break
            if is_role_noun(t) and t.lower_ not in ("dean", "major", "marshal", "king", "bishop", "pope"):
                last = k
            elif len(toks) - k > 2 and of_title(ent.doc, t.i, ent.sent.start) and (last == k - 1 or k == 0):
                last = k  # "Special Agent in [Charge Ann Lee]": the title's last word
        if last is None:
            return frozenset()
        rest = len(toks) - last - 1
        if rest >= 2 or is_plural_title([toks[last]]) or (last > 0 and is_role_word(toks[last - 1])):
            return frozenset(t.i for t in toks[: last + 1])
        return frozenset()

    @staticmethod
    def _word_before(ent: Span) -> list[Token]:
        return [ent.doc[ent.start - 1]] if ent.start > ent.sent.start else []

    # "Ann Lee, whose Unity party won the vote": the body her relative clause names as hers
    def _whose_body(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        out: list[Role] = []
        for clause in (c for c in kids(ent.root) if c.dep_ == "relcl"):
            for body in (t for t in clause.subtree if t.lower_ == "whose" and t.dep_ == "poss"):
                org = self.org_in(body.head) if body.head.lemma_.lower() in ORG_HEADS | ORGANIZATION_NOUNS else None
                if org is None or not org.startswith("Organization:"):
                    continue
                before = self._word_before(ent)
                role = before[0].lemma_.lower() if before and is_role_noun(before[0]) else "member"
                out.append(Role(person=person, role=role, org=org, evidence=evidence, rule="whose-body",
                                confidence=0.6))
        return out

    # "Acme press secretary Ann Lee", "Coast Watch Chief Harbor Agent Ann Lee"
    def _title_before(self, ent: Span, person: str, evidence: Evidence, own: frozenset[int]) -> list[Role]:
        end = max(own) if own else ent.start - 1
        return self.title_ending_at(end, ent, person, evidence, own)

    def _shared_titles(self, persons: list[tuple[Span, str]], shared: dict[int, list[Role]],
                       holders: set[str]) -> list[Role]:
        """ "Assistant U.S. Attorneys Ann Lee and Tom Roe", "Ann Lee and Tom Roe, both members of X": a plural
        title or apposition belongs to each name of the list (keyed by the list's first name)."""
        out: list[Role] = []
        for ent, person in persons:
            if person in holders:
                continue
            head = ent.root
            while head.i not in shared and _in_name_list(head):
                head = head.head
            if head.i in shared:
                out.extend(replace(r, person=person, confidence=min(r.confidence, 0.7))
                           for r in shared[head.i] if r.person != person)
        return out

    # "Portugal's foreign minister, Rui Teixeira said ...": an apposition with no closing comma, which
    # the parser reads as two clauses (the title a root or a second subject, not an appos)
    def _unparsed_apposition(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        doc = ent.doc
        comma = ent.start - 1
        if comma - 1 < ent.sent.start or doc[comma].text != "," or ent.root.dep_ in ("appos", "conj"):
            return []
        noun = doc[comma - 1]
        if (not is_role_noun(noun) or noun.tag_ not in ("NN", "NNP")
                or any(c.dep_ in ("appos", "conj") for c in kids(noun))):
            return []  # a plural, a list ("the spokesman, Oda and Lee") or an apposition the parse has
        return [replace(r, rule="apposition") for r in self.title_ending_at(comma - 1, ent, person, evidence)]

    # ----- appositions -----------------------------------------------------------------
    # "Ann Lee, the Acme press secretary" / "its sympathizers, Rui Ortiz" / "the party's candidate, Ann Lee"
    def _apposition_nouns(self, ent: Span) -> list[Token]:
        """The role nouns in apposition to a name, as the parser hangs them (or hung on a name before)."""
        root = ent.root
        nouns: list[Token] = [c for c in kids(root) if c.dep_ == "appos" and is_role_noun(c)
                              and not self._next_to_another_name(c, ent)]
        nouns += self._apposition_hung_elsewhere(ent)
        nouns += [x for n in nouns for x in kids(n) if x.dep_ == "conj" and is_role_noun(x)]
        # "Ann Lee, a poet and former lyricist for X": a post coordinated with an apposition that is none
        nouns += [x for c in kids(root) if c.dep_ == "appos" and not is_role_noun(c) and c.pos_ == "NOUN"
                  and not self._next_to_another_name(c, ent) for x in kids(c) if x.dep_ == "conj" and is_role_noun(x)]
        if root.dep_ == "appos" and is_role_noun(root.head):
            nouns.append(root.head)
        elif root.dep_ == "appos":
            nouns += _title_over_apposition(root)
        held = root.head.head.head if root.dep_ == "appos" and root.head.dep_ == "pobj" else None
        if held is not None and root.head.head.lower_ in ("of", "for", "to") and is_role_noun(held):
            nouns.append(held)  # "the envoy for Korvala, Tomas Greer": no one is in apposition to a country
        if root.dep_ == "appos" and root.head.lower_ == "one":
            # "one of its members, Rui Ortiz"
            nouns += [p for c in kids(root.head) if c.dep_ == "prep" and c.lower_ == "of"
                      for p in kids(c) if p.dep_ == "pobj" and p.lemma_.lower() in ROLE_NOUNS]
        # "Ann Lee, Nominee for Assistant Secretary of the Treasury": the post she is nominated for
        nouns = [next((p for c in kids(n) if c.dep_ == "prep" and c.lower_ == "for" for p in kids(c)
                       if p.dep_ == "pobj" and is_role_noun(p)), n) if n.lemma_.lower() in NOMINEE_NOUNS else n
                 for n in nouns]
        return nouns

    def _appositions(self, ent: Span, person: str, evidence: Evidence, nouns: list[Token]) -> list[Role]:
        out: list[Role] = []
        for noun in nouns:
            title = self.noun_title(noun, ent)
            roles = self.split_title(title, person, evidence, None)
            if not roles:
                # "Jo Kerr, Nominee for Member, Board of the Harbor Authority": the body set beside the post
                org = self.org_from_preps([noun]) or self._org_of_partner(noun) or self._appos_org(noun)
                role_words = [t for t in title if is_role_word(t) and self.index.named_key(t) is None
                              and t.lower_ not in ("former", "then", "new", "current")]
                if org and role_words and org != person and self.may_employ(org, noun):
                    roles = [Role(person=person, role=role_text([t for t in role_words if t.i <= noun.i]) or noun.lemma_,
                                  org=org, evidence=evidence, former=is_past_title(title), rule="apposition")]
            else:
                roles = [replace(r, rule="apposition" if r.rule == "title" else r.rule) for r in roles]
            out.extend(roles)
        return out

    @staticmethod
    def _next_to_another_name(noun: Token, ent: Span) -> bool:
        """ "Ann Lee of Leeds and Tom Roe, a prosecutor in ...": an apposition right after another name
        (the parser hung it on the first of the list) belongs to that name."""
        i = noun.left_edge.i - 1
        if i > ent.end and noun.doc[i].text == "," and noun.doc[i - 1].ent_type_ == "PERSON":
            return True
        # "X and Vice-Chairman of the Y Z": a title after "and", before another name (hung after it or inside
        # it), is that name's
        doc = noun.doc
        if ent.end >= len(doc) or doc[ent.end].lower_ != "and":
            return False
        after = noun.right_edge.i + 1
        return (after < len(doc) and doc[after].ent_type_ == "PERSON" and doc[after].ent_iob_ == "B") or any(
            t.ent_type_ == "PERSON" and not ent.start <= t.i < ent.end for t in noun.subtree)

    @staticmethod
    def _apposition_hung_elsewhere(ent: Span) -> list[Token]:
        """The role noun of an apposition right after this name that the parser hung on an earlier name."""
        doc = ent.doc
        if ent.end + 1 >= len(doc) or doc[ent.end].text != ",":
            return []
        nxt = doc[ent.end + 1]
        noun = next((t for t in [nxt] + list(nxt.ancestors) if t.dep_ == "appos"), None)
        if noun is None or noun.left_edge.i != ent.end + 1 or ent.start <= noun.head.i < ent.end \
                or noun.head.ent_type_ != "PERSON" or not is_role_noun(noun):
            return []
        return [noun]

    def _org_of_partner(self, noun: Token) -> str | None:
        """ "chairman and chief executive of Acme": the organization of a coordinated role noun; also the
        phrase after this noun that the parser hung on a first conjunct that is no post ("a poet and former
        lyricist for the band X": the band is the lyricist's)."""
        partners = [c for c in kids(noun) if c.dep_ == "conj"] + ([noun.head] if noun.dep_ == "conj" else [])
        return next((k for p in partners if (is_role_noun(p) or (p.i < noun.i and any(
                        c.dep_ == "prep" and c.i > noun.i for c in kids(p)))) and (k := self.org_from_preps([p]))), None)

    # ----- "other members of X" ------------------------------------------------------------
    # "X and other members of Y", "Y councillors, including X", "officials of Y such as X"
    def _one_of_them(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        first = ent.root
        while first.dep_ == "conj" and first.head != first:
            first = first.head  # "including Mary Dunn and Tom Reyes": both
        groups = [c for c in kids(ent.root) if c.dep_ == "conj" and any(a.lower_ == "other" for a in kids(c))]
        prep = first.head if first.dep_ == "pobj" else None
        if prep is not None and (prep.lower_ == "including" or (
                prep.lower_ == "as" and any(t.lower_ == "such" for t in prep.doc[prep.i - 1:prep.i]))):
            groups.append(prep.head)
        out = []
        for g in groups:
            noun = g.lemma_.lower()
            if g.pos_ != "NOUN" or g.tag_ != "NNS" or not is_role_noun(g) or noun in GENERIC_PEOPLE:
                continue
            org = self.org_in(g) or next((k for p in kids(g) if p.dep_ == "prep" and p.lower_ in ORG_PREPS
                                           for o in kids(p) if o.dep_ == "pobj" and (k := self.org_in(o))), None)
            if org:
                former = any(a.lower_ in ("former", "ex") for a in kids(g) if a.dep_ in ("amod", "compound"))
                out.append(Role(person=person, role=noun, org=org, evidence=evidence, former=former,
                                rule="one-of-them", confidence=0.7))
        return out

    # ----- "the head of X, NAME" / "Secretary of State NAME" --------------------------------
    def _role_of_org_before(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        doc = ent.doc
        end = ent.start - 1 if ent.start > 0 and doc[ent.start - 1].text == "," else ent.start
        org_span = next((e for e in self.index.ents if e.end == end and e.label_ in ("ORG", "GPE")), None)
        if org_span is None:
            return []
        i = org_span.start - 1
        if i >= 0 and doc[i].lower_ == "the":
            i -= 1
        if i < 1 or doc[i].lower_ != "of":
            return []
        holder = doc[i - 1] if doc[i - 1].lemma_.lower() in ROLE_NOUNS else _role_above_of_phrases(doc[i - 1])
        if holder is None or holder.lemma_.lower() in GENERIC_PEOPLE or holder.tag_ not in ("NN", "NNP"):
            return []  # "members of the party Tom and Ann" are not a title
        words = role_words_ending_at(holder, ent.sent.start)  # "deputy chairman", "attorney-general"
        former = is_past_title(words)
        words = [w for w in words if w.lower_ not in ("former", "ex")]
        if not words:
            return []
        dept = " ".join(t.lower_ for t in org_span if t.lower_ != "the" or t.i > org_span.start)
        if dept in _DEPARTMENT_PHRASES or org_span.text.lower() in _DEPARTMENT_PHRASES:
            # "Secretary of State Ann Poe": one title, the post of a country's government
            country = self._country_before(words[0].i) or self._department_country(words[-1])
            if country is None:
                return []
            role = role_text(words) + " of " + doc[org_span.start:org_span.end].text
            return [Role(person=person, role=role, org=country, evidence=evidence, former=former,
                         rule="department-title", confidence=0.7)]
        org = self.index.named_key(org_span.root)
        if org is None or not org.startswith(("Organization:", "Place:")):
            return []
        return [Role(person=person, role=role_text(words), org=org, evidence=evidence, former=former,
                     rule="role-of-org-before", confidence=0.7)]

    def _country_before(self, i: int) -> str | None:
        """ "U.S. Secretary of State": the country named right before a title."""
        j = i - 1
        while j >= 0 and self.doc[j].lower_ in ("former", "then", "-", "the", "new"):
            j -= 1
        if j < 0:
            return None
        key = self.index.org_of_modifier(self.doc[j])
        return key if key is not None and self.is_country(key) else None

    def _department_country(self, head: Token) -> str | None:
        """ "Secretary of State" without a country: in English news the post of the United States
        cabinet ("Secretary of Defense", "of the Treasury") when the article names the United States;
        else the country the article is about."""
        if head.lemma_.lower() == "secretary":
            us = self.named_country("United States")
            if us is not None:
                return us
        return self.home_country()

    # ----- "Ann Lee of Acme" -----------------------------------------------------------
    def _of_organization(self, persons: list[tuple[Span, str]], evidence: Evidence, found: set[str]) -> list[Role]:
        """ "Ann Lee of the Forest Service", and each of "Ann Lee, Tom Roe and Ida Oh of Acme and Bo Li
        of Zenith", "Ann Lee (Green Party)": a name tied to an organization with no role word is a member of it."""
        out: list[Role] = []
        pending: list[tuple[Span, str]] = []
        listed: dict[int, str] = {}  # roots of names coordinated after "Harlow Hawks X" -> the team
        for ent, person in persons:
            org = self.affiliation(ent)
            if org is None:
                org = self._body_right_before(ent) or listed.get(ent.root.i)
                if org is not None:
                    listed.update((c.i, org) for c in ent.root.subtree if c.dep_ == "conj" and c.ent_type_ == "PERSON")
            bracketed = self._bracketed_org(ent) if org is None else None
            if bracketed is not None and person not in found:
                out.append(Role(person=person, role="member", org=bracketed, evidence=evidence, rule="of-organization",
                                confidence=0.5))
                continue
            if org is None:
                pending = pending + [(ent, person)] if self._in_list(ent) else []
                continue
            for e, p in pending + [(ent, person)]:
                if p not in found:
                    out.append(Role(person=p, role="member", org=org, evidence=evidence, rule="of-organization",
                                    confidence=0.5 if e is ent else 0.4))
            pending = []
        return out

    def _body_right_before(self, ent: Span) -> str | None:
        """ "Harlow Hawks Tom Vale, Ivo Pell and Jo Kerr": a team's plural name set right before a name, as a
        modifier of it, is the person's team (and that of the names coordinated with it)."""
        if ent.start == 0:
            return None
        before = ent.doc[ent.start - 1]
        key = self.index.named_key(before)
        if key is None or not key.startswith("Organization:") or before.ent_type_ != "ORG" or not (
                before.dep_ == "compound" and before.head.i == ent.root.i and before.is_title and before.lower_.endswith("s")):
            return None  # a team's plural name ("the Hawks"): not "Harka Tarsk" (a body and a place), nor a body after a title
        return key

    def _bracketed_org(self, ent: Span) -> str | None:
        """ "Ann Fu (Green Party), Bo Lam (Labour)": an organization alone in brackets right after a name is
        the person's party or body, as "of" would say."""
        doc = ent.doc
        if len(ent) < 2 or ent.end + 2 >= len(doc) or doc[ent.end].text != "(":
            return None  # a full name: "TUNIS, Tunisia (AP)" is a dateline
        close = next((t.i for t in doc[ent.end + 1:min(len(doc), ent.end + 8)] if t.text == ")"), None)
        if close is None:
            return None
        key = self.index.named_key(doc[ent.end + 1])
        if key is None or not key.startswith("Organization:"):
            return None
        return key if any(e.start == ent.end + 1 and e.end == close for e in self.index.ents) else None

    @staticmethod
    def _in_list(ent: Span) -> bool:
        """A name followed by a comma or "and" and another name: one of a list of names."""
        doc = ent.doc
        i = ent.end
        return i + 1 < len(doc) and doc[i].text in (",", "and") and (
            doc[i + 1].ent_type_ == "PERSON" or (doc[i + 1].lower_ == "and" and i + 2 < len(doc)
                                                and doc[i + 2].ent_type_ == "PERSON"))


#: Entity types of dates and numbers: no word of a body's name ("First Lady X": no body called "First").
_NUMERIC_TYPES = frozenset({"DATE", "TIME", "ORDINAL", "CARDINAL", "QUANTITY", "PERCENT", "MONEY"})


def _said_of_someone_known(root: Token, subject: Token) -> bool:
    """An age ("was 81", "the 45-year-old chief") or a death: what a text tells of a person it has named."""
    aged = any("year" in t.lower_ and t.i < subject.i for t in subject.subtree) and any(
        t.lower_ == "old" for t in subject.subtree)
    age = root.lemma_ == "be" and any(c.dep_ in ("attr", "acomp") and c.like_num for c in kids(root))
    return aged or age or root.lemma_.lower() == "die"  # "the former mayor died on Monday"


def _demonym(tok: Token) -> bool:
    """ "Welsh" in "Welsh Health Minister X": a capitalized adjective of a country the model left untagged
    names the country of the post, as a tagged one does."""
    return tok.is_title and tok.lower_ in DEMONYMS


def _in_name_list(tok: Token) -> bool:
    """Whether a name is a later item of a list of names ("Ann Lee, Tom Roe and Bo Lam": the parser hangs
    the items on the first, as conjuncts or appositions)."""
    return tok.dep_ in ("conj", "appos") and tok.head.i != tok.i and tok.head.ent_type_ == "PERSON" \
        and tok.ent_type_ == "PERSON"


def _list_head(tok: Token) -> Token:
    """The first name of the list a name is in (itself when it is in none)."""
    while _in_name_list(tok):
        tok = tok.head
    return tok


def _acronym_ending_at(doc: Doc, i: int, floor: int) -> bool:
    """ "(GP)" after "Green Party": an organization's acronym in brackets, ending at ``doc[i]``."""
    return (i - 3 >= floor and doc[i].text == ")" and doc[i - 2].text == "(" and doc[i - 1].is_upper
            and doc[i - 1].is_alpha and doc[i - 3].ent_type_ == "ORG")


def _role_above_of_phrases(tok: Token) -> Token | None:
    """ "Director of the Leeds office of the Harbor Council Ann Lee": the role noun a chain of "of" phrases
    hangs on, when its title opens the clause (in "met the head of the X office of Y Ann Lee" it may be
    another's)."""
    for _ in range(3):
        if tok.dep_ != "pobj" or tok.head.lower_ != "of" or tok.head.dep_ != "prep":
            return None
        tok = tok.head.head
        if tok.lemma_.lower() in ROLE_NOUNS:
            first = tok.i - sum(1 for c in tok.children if c.i < tok.i and c.dep_ in ("amod", "compound", "det"))
            return tok if first == tok.sent.start or tok.doc[first - 1].is_punct else None
    return None


def _title_over_apposition(name: Token) -> list[Token]:
    """ "The former minister, the leader of the rebels Ann Lee, said": the role noun an apposition is set
    beside, when the name ends that apposition (the parser hung the name deeper in it)."""
    for a in name.ancestors:
        if a.dep_ == "appos" and is_role_noun(a) and is_role_noun(a.head) \
                and max(t.i for t in a.subtree if not t.is_punct) == name.i:
            return [a.head]
    return []
