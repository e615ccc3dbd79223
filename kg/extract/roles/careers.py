"""Roles stated by verbs: careers, appointments, elections, and "who heads X".

"Ann Lee served as deputy director of Acme from 1994 to 1997", "previously worked at Acme", "was
named director of Acme", "will succeed Tom Roe as director", "has been nominated to be a member of
the Board of Acme", "joined Acme in 2004 as chief engineer", "Acme named Ann Lee as chief executive",
"voters in Leeds elected Ann Lee as mayor", "Ann Lee, who heads Acme", "Acme, led by Ann Lee".

The holder is the verb's subject (or, for verbs of appointing, its object) when it is a person,
named or referred to by a pronoun. Past roles are marked former; years the clause gives become the
role's beginning and end.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection
from dataclasses import replace
from itertools import chain
from typing import Protocol

import numpy as np
from spacy.strings import StringStore
from spacy.tokens import Span, Token

from ...model.facts import Evidence, Role, Time
from ..context.timex import is_time_point, normalise, parse_iso
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS
from .career_clauses import reported_in_past, shares_subject
from .career_words import (
    APPOINTERS,
    APPOINTING,
    APPOINTMENT_NOUNS,
    ASSIGNMENTS,
    BODY_NOUNS,
    CAREER_NOUNS,
    COMMAND_NOUNS,
    DISMISSING,
    EMPLOYERS,
    ENDORSING,
    FIRSTS,
    HANDING_OVER,
    HEAD_VERBS,
    HYPOTHETICAL,
    JOINING,
    LEAVING,
    LISTING,
    NOT_YET,
    PAST_ADVERBS,
    POST_NOUNS,
    RISING,
    SPANS_OF_TIME,
    SUCCEEDING,
    TAKING,
    TRANSFERRING,
    VERBS,
    WORKING,
)
from .role_orgs import OrgFinder
from .titles import (
    ENVOY_NOUNS,
    is_assisting,
    is_government_title,
    is_role_noun,
    lexicon_form,
    role_text,
    title_complement,
)

_STRINGS = StringStore()  # a string's id is its hash in every vocabulary
_VERB_IDS = np.array([_STRINGS.add(w) for v in sorted(VERBS) for w in (v, v.capitalize())], dtype=np.uint64).view(np.int64)
_VERB_POS = np.array([_STRINGS.add(p) for p in ("VERB", "AUX", "NOUN")], dtype=np.uint64).view(np.int64)


class TitleReader(Protocol):
    """How a title is read around a role noun (``RoleReader`` does it; it also builds the ``CareerReader``)."""

    def noun_title(self, noun: Token, ent: Span | None = None) -> list[Token]: ...

    def split_title(self, title: list[Token], person: str, evidence: Evidence, ent: Span | None,
                    own: frozenset[int] = frozenset()) -> list[Role]: ...


class CareerReader:
    """Reads the roles that verbs state: ``titles`` reads the title of each, ``orgs`` its organization."""

    def __init__(self, orgs: OrgFinder, titles: TitleReader, date: str | None = None) -> None:
        self.orgs = orgs
        self.titles = titles
        self.index = orgs.index
        self.anchor = parse_iso(date)
        self._found: list[int] | None = None

    def _candidates(self) -> list[int]:
        """Where the Doc has a verb of careers (found on its arrays: no Token is made for other words)."""
        if self._found is None:
            doc = self.orgs.doc
            if len(doc) == 0:
                self._found = []
            else:
                arr = doc.to_array(["LEMMA", "POS"]).view(np.int64)
                hits = np.isin(arr[:, 0], _VERB_IDS) & np.isin(arr[:, 1], _VERB_POS)
                self._found = np.flatnonzero(hits).tolist()
        return self._found

    def read(self, sent: Span, evidence: Evidence) -> list[Role]:
        """The roles the verbs of a sentence state."""
        out: list[Role] = []
        found = self._candidates()
        doc = sent.doc
        for i in found[bisect_left(found, sent.start):bisect_left(found, sent.end)]:
            tok = doc[i]
            if tok.pos_ == "NOUN" and not (tok.lemma_.lower() in APPOINTMENT_NOUNS or (
                    tok.lemma_.lower() in HEAD_VERBS and any(c.dep_ == "nsubj" for c in kids(tok)))):
                continue  # (a noun with a subject is a verb the tagger missed: "X heads the agency")
            if any(c.dep_ == "neg" for c in kids(tok)) or self._hypothetical(tok):
                continue
            out.extend(self._verb(tok, evidence))
        return out

    # ----- per verb ---------------------------------------------------------------------
    def _verb(self, verb: Token, evidence: Evidence) -> list[Role]:  # noqa: C901 (16): a chain of construction rules; issue 33 step 2 makes them named rules
        lemma = verb.lemma_.lower()
        if lemma in HEAD_VERBS:
            return self._heading(verb, lemma, evidence)
        if lemma in APPOINTMENT_NOUNS:
            return self._appointment(verb, evidence)
        if lemma in LISTING:
            return self._career_list(verb, evidence)
        taken = self._command_changed(verb, lemma, evidence) \
            if lemma in TAKING or lemma == "take" or lemma in HANDING_OVER else []
        if taken:
            return taken
        if lemma == "step" and any(c.dep_ in ("prt", "advmod") and c.lower_ in ("down", "aside", "away") for c in kids(verb)):
            lemma = "resign"  # "stepped down as chairman": a post left
        passive = any(c.dep_ in ("auxpass", "nsubjpass") for c in kids(verb)) or (
            verb.tag_ == "VBN" and verb.dep_ in ("acl", "relcl") and not any(c.dep_ == "aux" for c in kids(verb)))
        objective = lemma in APPOINTING or lemma in DISMISSING or lemma in TRANSFERRING
        if objective and not passive:
            holders = [c for c in kids(verb) if c.dep_ in ("dobj", "oprd") and c.ent_type_ == "PERSON"
                       or c.dep_ == "dobj"] + self._object_of_naming(verb)
            holders += [x for h in holders for x in kids(h) if x.dep_ == "conj"]  # "named Lee and Ruiz as"
        elif objective:
            holders = self._subjects(verb, ("nsubjpass",)) or ([verb.head] if verb.dep_ == "acl" else [])
        else:
            holders = self._subjects(verb, ("nsubj",))
        out: list[Role] = []
        for h in holders:
            person = self._person(h)
            if person is None:
                continue
            pronoun = h.pos_ == "PRON"
            mine: list[Role] = []
            nouns = self._role_nouns(verb, lemma) or (self._own_title(h) if objective else [])
            for noun in nouns:
                # "named A finance minister and B foreign minister": a post right after another name is that name's
                owner = self._name_before_post(noun) if objective else None
                mine.extend(self._role(owner or person, noun, verb, lemma, evidence, pronoun and owner is None))
            if not mine and (lemma in JOINING or lemma in ("leave", "quit")):
                mine.extend(self._member_of_object(person, verb, evidence, pronoun))
            if not mine and (lemma in WORKING or (lemma == "be" and not nouns)):
                mine.extend(self._employee(person, verb, evidence, pronoun))
            if not mine and (lemma in ("serve", "sit") or lemma in APPOINTING or lemma in LEAVING or lemma in JOINING):
                mine.extend(self._member_of_body(person, verb, evidence, pronoun))
            if lemma in TRANSFERRING:
                mine = self._transferred(person, verb, h, evidence, pronoun)
            out.extend(mine)
        if lemma in SUCCEEDING and out:
            out.extend(self._predecessors(verb, out))
        if lemma in ("take", "assume") and out:
            out.extend(self._predecessors(verb, out, prep="from"))  # "took over as chairman from Tom Roe"
        for c in kids(verb) if out else []:
            if c.dep_ in ("advcl", "conj", "xcomp") and c.tag_ == "VBG" and c.lemma_.lower() in SUCCEEDING:
                # "named X as chief, replacing Y" / "succeeding Y": Y held the post until now
                out.extend(self._predecessors(c, out, done=True))
        return out

    def _command_changed(self, verb: Token, lemma: str, evidence: Evidence) -> list[Role]:
        """ "assumed command of the Harbor Fleet from Gen. Tom Roe", "took over the leadership of Acme from Tom
        Roe", "relinquished command of the fleet to Y", "handed over the leadership of Acme to Y": who takes the
        body now leads it (since the handover); who gives it up led it until then (rule ``predecessor``)."""
        taking = lemma in TAKING or lemma == "take"
        particles = ("over",) if lemma == "take" else ("over", "on") if lemma in ("hand", "pass") else ()
        if particles and not any(c.dep_ == "prt" and c.lower_ in particles for c in kids(verb)):
            return []
        out: list[Role] = []
        done = verb.tag_ in ("VBD", "VBN")
        for obj in (c for c in kids(verb) if c.dep_ == "dobj" and c.lemma_.lower() in COMMAND_NOUNS):
            org = self._org_after(obj, ("of",))
            if org is None:
                continue
            role = COMMAND_NOUNS[obj.lemma_.lower()]
            since, _ = self._period(verb, obj, "assume")
            subjects = self._subjects(verb, ("nsubj",))
            others = _prep_objects([verb, obj, *_phrase_objects(obj)], "from" if taking else "to")
            out += [Role(person=person, role=role, org=org, evidence=evidence, rule="predicate",
                         confidence=0.6 if h.pos_ == "PRON" else 0.75, since=since)
                    for h in (subjects if taking else others) if (person := self._person(h)) is not None]
            out += [Role(person=before, role=role, org=org, evidence=evidence, rule="predecessor", former=done,
                         confidence=0.6, until=since if done else None)  # held it until the handover
                    for h in (others if taking else subjects) if (before := self._person(h)) is not None]
        return out

    def _career_list(self, verb: Token, evidence: Evidence) -> list[Role]:
        """ "Her earlier posts included deputy head of the Budget Office and envoy to Norland": each role noun
        the verb lists is a post of the subject's possessor (rule ``career-list``); past unless "current"."""
        out: list[Role] = []
        for subj in (c for c in kids(verb) if c.dep_ == "nsubj" and c.lemma_.lower() in CAREER_NOUNS | {"experience"}):
            owner = next((c for c in kids(subj) if c.dep_ == "poss"), None)
            person = self._person(owner) if owner is not None else None
            if owner is None or person is None:
                continue
            pronoun = owner.pos_ == "PRON"
            current = any(c.lower_ in ("current", "present") for c in kids(subj))
            items = [n for o in kids(verb) if o.dep_ == "dobj" for n in [o, *_conjuncts(o)]]
            listed = [n for o in kids(verb) if o.dep_ == "dobj" for n in o.subtree
                      if (n.dep_ in ("dobj", "conj", "appos") or n.dep_ == "pobj" and n.head.lower_ == "as")
                      and is_role_noun(n)]  # "eight years as chief of staff"
            for noun in listed:
                out.extend(replace(r, rule="career-list", former=not current)
                           for r in self._role(person, noun, verb, "include", evidence, pronoun))
            # "her experience includes the Harka Trust, Velmar Legal Services, ...": a career at each body
            for org in (self.orgs.org_in(n) for n in items if n.ent_type_ == "ORG" and not is_role_noun(n)):
                if org is not None and org.startswith("Organization:"):
                    out.append(Role(person=person, role="member", org=org, evidence=evidence, rule="career-list",
                                    former=not current, confidence=0.5 if pronoun else 0.6))
        return out

    def _name_before_post(self, noun: Token) -> str | None:
        """The person named right before a post's title (or before its "as"): "B foreign minister", "B as
        foreign minister" in a list of appointments; not before a plural post, which each name of the list
        holds ("hired A and B as engineers")."""
        if noun.tag_ in ("NNS", "NNPS"):
            return None
        title = self.titles.noun_title(noun)
        start = noun.head.i if noun.head.lower_ == "as" and noun.head.i < title[0].i else title[0].i
        return self._person(noun.doc[start - 1]) if start > 0 and noun.doc[start - 1].ent_type_ == "PERSON" else None

    def _appointment(self, noun: Token, evidence: Evidence) -> list[Role]:
        """ "Acme announced the appointment of Ann Lee as chief executive", "Ann Lee's election as mayor
        of Leeds": the holder is the noun's possessor or its "of" name, the role its "as" noun."""
        if noun.pos_ != "NOUN":
            return []
        holders = [c for c in kids(noun) if c.dep_ == "poss"]
        holders += [p for c in kids(noun) if c.dep_ == "prep" and c.lower_ == "of" for p in kids(c) if p.dep_ == "pobj"]
        nouns = [p for c in kids(noun) if c.dep_ == "prep" and c.lower_ == "as" for p in kids(c)
                 if p.dep_ == "pobj" and is_role_noun(p)]
        out: list[Role] = []
        for h in holders:
            if h.lower_ == "whose":  # "Ann Lee, whose tenure as ... ended": the relative clause's antecedent
                h = next((a.head for a in h.ancestors if a.dep_ == "relcl"), h)
            person = self._person(h)
            if person is None:
                continue
            for role_noun in nouns:
                # the organization: the role noun's own, else the announcer's ("Acme announced the ...")
                out.extend(self._role(person, role_noun, noun.head if noun.dep_ in ("dobj", "nsubjpass") else noun,
                                      "name", evidence, h.pos_ == "PRON"))
        return out

    def _transferred(self, person: str, verb: Token, holder: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "the Hawks traded guard X to the Rams": X now plays for the Rams, and once did for the Hawks."""
        title = self._own_title(holder)
        if not title and verb.lemma_.lower() != "trade":
            return []  # "was transferred to Leeds General Hospital": no post
        role = title[0].lemma_.lower() if title else "player"
        new = next((k for c in kids(verb) if c.dep_ == "prep" and c.lower_ == "to"
                    for o in kids(c) if o.dep_ == "pobj" and (k := self.orgs.org_in(o))), None)
        old = next((k for c in kids(verb) if c.dep_ in ("nsubj", "agent")
                    for o in ([c] if c.dep_ == "nsubj" else [x for x in kids(c) if x.dep_ == "pobj"])
                    if (k := self.orgs.org_in(o))), None)
        out = []
        if new:
            out.append(Role(person=person, role=role, org=new, evidence=evidence, rule="transferred",
                            confidence=0.5 if pronoun else 0.6))
        if old and old != new:
            out.append(Role(person=person, role=role, org=old, evidence=evidence, rule="transferred", former=True,
                            confidence=0.5 if pronoun else 0.6))
        return out

    def _own_title(self, holder: Token) -> list[Token]:
        """ "Acme hired engineer Ann Lee", "the Rams fired coach Tom Ward": the role noun of the title
        right before the object's name, when no complement names the role."""
        ent = next((e for e in self.index.ents if e.start <= holder.i < e.end and e.label_ == "PERSON"), None)
        if ent is None or ent.start == 0:
            return []
        before = self.orgs.doc[ent.start - 1]
        return [before] if is_role_noun(before) and before.head.i in range(ent.start, ent.end) else []

    def _member_of_body(self, person: str, verb: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "served on the boards of Acme and Zenith", "sits on the Finance Committee", "was elected to
        the Senate", "joined the board of Acme": a member of the body (or of each organization whose board it is)."""
        out: list[Role] = []
        vlemma = verb.lemma_.lower()
        preps = ("to",) if vlemma in APPOINTING else ("from",) if vlemma in LEAVING else ("on", "in")
        for c in kids(verb):
            joined = vlemma in JOINING and c.dep_ == "dobj"
            if not joined and (c.dep_ != "prep" or c.lower_ not in preps):
                continue
            for body in [c] if joined else (p for p in kids(c) if p.dep_ == "pobj"):
                named = self.orgs.org_in(body)
                if named and named.startswith("Organization:"):  # "served in the Senate", "sits on the board"
                    out.append(self._membership(person, "member", named, verb, body, evidence, pronoun))
                    continue
                if c.lower_ == "in":
                    continue
                if c.lower_ == "to" and self._presidency(body):
                    # "was elected to the presidential post", "to the presidency": the country's president
                    country = self.orgs.org_from_preps([body]) or self.orgs.home_country()
                    if country is not None and self.orgs.is_country(country):
                        out.append(replace(self._membership(person, "president", country, verb, body, evidence, pronoun),
                                           rule="implicit-country", confidence=0.5))
                    continue
                if body.lemma_.lower() not in BODY_NOUNS:
                    continue
                role = body.lemma_.lower() + " member"
                owners = [body]
                owners += [o for of in kids(body) if of.dep_ == "prep" and of.lower_ == "of"
                           for o in kids(of) if o.dep_ == "pobj" and is_role_noun(o)]  # "the board of directors of X"
                found = len(out)
                for of in (x for b in owners for x in kids(b) if x.dep_ == "prep" and x.lower_ == "of"):
                    for o in (x for x in kids(of) if x.dep_ == "pobj"):
                        for org_tok in [o, *_conjuncts(o)]:  # "the boards of A, B and C": each
                            org = self.orgs.org_in(org_tok)
                            if org:
                                out.append(self._membership(person, role, org, verb, body, evidence, pronoun))
                owner = self._board_owner(body) if len(out) == found else None
                if owner is not None and owner != person:
                    out.append(self._membership(person, role, owner, verb, body, evidence, pronoun))
        return out

    def _board_owner(self, body: Token) -> str | None:
        """ "named X to its board", "added X to the Acme board": the organization a body belongs to, told by
        a possessive or a name before the body noun."""
        for c in kids(body):
            if c.dep_ == "poss":
                key = self.index.resolve(c)
            elif c.dep_ in ("compound", "nmod") and c.i < body.i:
                key = self.orgs.org_in(c)
            else:
                continue
            if key is not None and key.startswith("Organization:"):
                return key
        return None

    @staticmethod
    def _presidency(tok: Token) -> bool:
        """ "the presidency", "the presidential post/office/seat"."""
        lemma = tok.lemma_.lower()
        return lemma == "presidency" or (lemma in POST_NOUNS and any(
            c.dep_ == "amod" and c.lower_ == "presidential" for c in kids(tok)))

    def _membership(self, person: str, role: str, org: str, verb: Token, noun: Token, evidence: Evidence,
                    pronoun: bool) -> Role:
        since, until = self._period(verb, noun, verb.lemma_.lower())
        return Role(person=person, role=role, org=org, evidence=evidence, rule="member-of-body",
                    confidence=0.5 if pronoun else 0.6, since=since, until=until,
                    former=verb.lemma_.lower() in LEAVING or self._past(verb, verb.lemma_.lower(), until))

    def _person(self, tok: Token) -> str | None:
        key = self.index.resolve(tok)
        if (key is None or not key.startswith("Person:")) and tok.dep_ in NOUN_SUBJECTS and is_role_noun(tok):
            key = self._named_in_apposition(tok)
        return key if key is not None and key.startswith("Person:") else None

    def _named_in_apposition(self, noun: Token) -> str | None:
        """ "The former minister, the leader of the rebels Ann Lee, will serve as ...": the person a subject's
        title is set beside, named last in its apposition."""
        last = max((t for t in noun.subtree if not t.is_punct), key=lambda t: t.i)
        if last.ent_type_ != "PERSON" or not any(a.dep_ == "appos" and a.head.i == noun.i for a in [last, *last.ancestors]):
            return None
        return self.index.resolve(last)

    @staticmethod
    def _subjects(verb: Token, deps: Collection[str]) -> list[Token]:
        """The verb's subject, or, for a verb coordinated with or controlled by another, that verb's
        subject ("was asked to serve as", "joined Acme and became its chief") or controlling object
        ("Acme asked Ann Lee to serve as"); for a gerund that a holder's posts include, the holder ("his
        former positions, including serving as director of X")."""
        listed = _including(verb)
        if listed is not None and listed.lemma_.lower() in CAREER_NOUNS:
            return [c for c in kids(listed) if c.dep_ == "poss"]
        v = verb
        for _ in range(4):
            subj = [c for c in kids(v) if c.dep_ in deps]
            if v.i != verb.i and v.dep_ != "conj" and verb.dep_ == "xcomp":
                subj = [c for c in kids(v) if c.dep_ == "dobj"] or subj
            if subj:
                return subj + [x for s in subj for x in kids(s) if x.dep_ == "conj"]
            if not (shares_subject(verb) and shares_subject(v)) or v.head.i == v.i:
                return []
            v = v.head
            deps = NOUN_SUBJECTS
        return []

    @staticmethod
    def _object_of_naming(verb: Token) -> list[Token]:
        """ "named Ann Lee chief executive" read as one noun phrase: the name modifying the role noun."""
        out = []
        for c in kids(verb):
            if c.dep_ in ("oprd", "dobj", "attr") and is_role_noun(c):
                out += [m for m in kids(c) if m.dep_ in ("nmod", "compound") and m.ent_type_ == "PERSON"]
        return out

    def _role_nouns(self, verb: Token, lemma: str) -> list[Token]:
        """The role nouns a verb gives its holder: a complement ("became chairman", "named Ann Lee chief
        executive"), "as" ("served as", "joined Acme as"), or "to be" ("nominated to be a member")."""
        nouns: list[Token] = []
        if lemma in TAKING:
            return self._taken_post(verb)
        if lemma not in LEAVING and lemma not in JOINING and lemma not in SUCCEEDING and lemma != "work":
            nouns += [c for c in kids(verb) if c.dep_ in ("attr", "oprd", "acomp") and is_role_noun(c)]
            # "is one of two deputy prime ministers": one of the holders of the post
            nouns += [p for c in kids(verb) if c.dep_ == "attr" and c.lower_ == "one" for x in kids(c)
                      if x.dep_ == "prep" and x.lower_ == "of" for p in kids(x) if p.dep_ == "pobj" and is_role_noun(p)]
            if nouns:  # "was a trustee of X; a director of Y": a later item the parser hung loose on the verb
                nouns += [c for c in kids(verb) if c.dep_ in ("dep", "npadvmod") and c.i > nouns[0].i
                          and is_role_noun(c) and any(t.text == ";" for t in c.doc[nouns[0].i:c.left_edge.i])]
            if lemma in APPOINTING:
                nouns += [c for c in kids(verb) if c.dep_ in ("dobj", "ccomp") and is_role_noun(c)
                          and any(m.ent_type_ == "PERSON" for m in kids(c))]
        nouns += [p for c in kids(verb) if c.dep_ == "prep" and (c.lower_ == "as" or (
                      c.lower_ == "to" and lemma in RISING)) for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
        # "served in a number of positions at Acme, including as the manager of its Tide Office"
        nouns += [p for c in kids(verb) if c.dep_ == "prep" and c.lower_ == "including" for a in kids(c)
                  if a.dep_ == "prep" and a.lower_ == "as" for p in kids(a) if p.dep_ == "pobj" and is_role_noun(p)]
        # "served three terms as mayor", "spent ten years as director": "as" on the span of time; and on
        # the object of an appointment ("elected the centrist X as president", as the parser hangs it)
        nouns += [p for o in kids(verb) if o.dep_ in ("dobj", "npadvmod") and (
                      o.lemma_.lower() in SPANS_OF_TIME or (o.dep_ == "dobj" and lemma in APPOINTING))
                  for c in kids(o) if c.dep_ == "prep" and c.lower_ == "as"
                  for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
        for x in kids(verb):
            if (x.dep_ == "xcomp" or x.dep_ == "advcl" and lemma in APPOINTING and any(
                    a.dep_ == "aux" and a.lower_ == "to" for a in kids(x))) and x.lemma_.lower() in ("be", "serve", "become", "act"):
                # "appointed X to be a member", also set off by a comma: "to appoint X of Leeds, to be a member"
                nouns += self._role_nouns(x, x.lemma_.lower())
            if x.dep_ == "xcomp" and lemma in RISING and x.tag_.startswith("NN") and is_role_noun(x):
                nouns.append(x)  # "promoted to partner", parsed as an infinitive "to partner"
            if x.dep_ == "prep" and (x.lower_ == "to" and lemma in APPOINTING or x.lower_ == "in" and lemma == "serve"):
                # "appointed X to the post of chief digital officer", "will serve in the position of minister"
                nouns += [p for a in kids(x) if a.dep_ == "pobj" and a.lemma_.lower() in POST_NOUNS
                          for c in kids(a) if c.dep_ == "prep" and c.lower_ == "of"
                          for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
            if x.dep_ == "prep" and x.lower_ == "for" and lemma in APPOINTING:
                # "nominated for assignment as commander"
                nouns += [p for a in kids(x) if a.dep_ == "pobj" and a.lemma_.lower() in POST_NOUNS | ASSIGNMENTS
                          for c in kids(a) if c.dep_ == "prep" and c.lower_ == "as"
                          for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
        if any(n.head.lower_ == "as" for n in nouns):
            nouns += [c for c in _loose_posts(verb) if c not in nouns]
        return _listed(nouns)

    @staticmethod
    def _taken_post(verb: Token) -> list[Token]:
        """ "assumed the post of chief justice", "holds the office of treasurer": the post's "of" noun;
        "won election as mayor": the "as" noun of a verb whose object is an election or appointment."""
        objects = [c for c in kids(verb) if c.dep_ == "dobj"]
        nouns = [p for o in objects if o.lemma_.lower() in POST_NOUNS for c in kids(o)
                 if c.dep_ == "prep" and c.lower_ == "of" for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
        # "held senior positions at Acme, including chief operating officer": the posts the object lists
        nouns += [n for o in objects if o.lemma_.lower() in POST_NOUNS for c in kids(o)
                  if c.dep_ == "prep" and c.lower_ == "including" for p in kids(c) if p.dep_ == "pobj"
                  for n in [p, *_conjuncts(p)] if is_role_noun(n)]
        if any(o.lemma_.lower() in APPOINTMENT_NOUNS for o in objects):
            nouns += [p for h in [verb, *objects] for c in kids(h) if c.dep_ == "prep" and c.lower_ == "as"
                      for p in kids(c) if p.dep_ == "pobj" and is_role_noun(p)]
        return nouns

    def _role(self, person: str, noun: Token, verb: Token, lemma: str, evidence: Evidence,
              pronoun: bool) -> list[Role]:
        t = self.orgs
        title = self.titles.noun_title(noun)
        roles = self.titles.split_title(title, person, evidence, None)
        org = None
        if not roles or roles[0].rule.startswith("implicit-") or roles[0].org.startswith("Group:"):
            org = (t.org_from_preps([noun]) or self._post_org(noun) or self._partner_org(noun)
                   or self._comma_org(noun) or self._sent_to(verb, noun) or self._verb_org(verb, lemma, noun)
                   or (self._country_served(verb, noun) if is_government_title(title) else None))
        if org is not None and org != person and (t.may_employ(org, noun) or lemma in APPOINTERS):
            words = [x for x in title if x.dep_ != "poss" and x.tag_ != "POS" and not t.key(x)
                     and x.lower_ not in ("former", "then", "new", "current")]
            roles = [Role(person=person, role=(role_text(words) or noun.lemma_) + title_complement(noun), org=org,
                          evidence=evidence,
                          former=any(x.lower_ == "former" for x in title), rule="predicate")]
        if not roles or (lexicon_form(noun) is None and roles[0].org.startswith("Place:")):
            return []  # "he was the nation's top importer": an occupation, no post in a country
        joined = self._joined(verb, lemma)
        if joined is not None and joined != person:
            roles = [replace(r, org=joined) for r in roles]  # "joined Acme as the Orion program liaison for X"
        at = self._at_org(verb) if any(c.dep_ == "prep" and c.lower_ == "for" for c in kids(noun)) else None
        if at is not None:
            roles = [replace(r, org=at) for r in roles]  # "served as secretary for markets at the Treasury"
        since, until = self._period(verb, noun, lemma)
        former = (lemma in LEAVING or lemma in DISMISSING or self._past(verb, lemma, until)
                  or (lemma == "step" and any(c.dep_ in ("prt", "advmod") and c.lower_ in ("down", "aside", "away") for c in kids(verb))))
        confidence = 0.6 if pronoun else 0.75
        return [replace(r, former=r.former or former, rule="predicate" if r.rule == "title" else r.rule,
                        confidence=min(r.confidence, confidence), since=since or r.since, until=until)
                for r in roles]

    def _joined(self, verb: Token, lemma: str) -> str | None:
        """ "joined Acme in 1999 as ...", "worked at Acme as the Orion program manager": the organization
        joined or worked at holds the post, whatever a title's words or its "for" phrase name (a program,
        a client)."""
        if lemma in JOINING:
            key = next((k for c in kids(verb) if c.dep_ == "dobj" and (k := self.orgs.org_in(c))), None)
        elif lemma in WORKING:
            key = self._at_org(verb)
        else:
            return None
        return key if key is not None and key.startswith("Organization:") else None

    def _possessor_org(self, noun: Token) -> str | None:
        """ "its board appointed X": the organization a possessive pronoun of an unnamed body stands for."""
        for c in kids(noun):
            if c.dep_ == "poss" and c.pos_ == "PRON":
                key = self.index.resolve(c)
                if key is not None and key.startswith("Organization:"):
                    return key
        return None

    def _org_after(self, head: Token, preps: tuple[str, ...], skip: Token | None = None) -> str | None:
        """The first organization named by the object of one of ``head``'s prepositions ``preps``
        (but ``skip``): "at Acme", "the board of Acme"."""
        return next((key for c in kids(head) if c.dep_ == "prep" and c.lower_ in preps
                     and (skip is None or c.i != skip.i)
                     for p in kids(c) if p.dep_ == "pobj" and (key := self.orgs.org_in(p))), None)

    def _at_org(self, verb: Token) -> str | None:
        """The organization a verb's "at" phrase names ("served as ... at Acme")."""
        return self._org_after(verb, ("at",))

    def _employer(self, obj: Token, verb: Token) -> str | None:
        """ "heads research at Acme", "runs the lab at Acme": the organization the work is at or for."""
        key = self.orgs.org_from_preps([obj, verb])
        return key if key is not None and key.startswith("Organization:") else None

    def _body_owner(self, body: Token) -> str | None:
        """ "chaired the board of Acme": the organization whose board (committee ...) it is."""
        return self._org_after(body, ("of",)) if body.lemma_.lower() in BODY_NOUNS else None

    def _country_served(self, verb: Token, noun: Token) -> str | None:
        """ "served as finance minister under President Tom Roe of Norland": the country of the head of
        government the post was held under, as the text gives it ("of Norland", "Norland's", "Norlandic")."""
        heads = [p for c in [*kids(verb), *kids(noun)] if c.dep_ == "prep" and c.lower_ == "under"
                 for p in kids(c) if p.dep_ == "pobj" and p.ent_type_ == "PERSON"]
        for head in heads:
            named = [x for x in head.subtree if x.i < head.i and x.ent_type_ in ("GPE", "NORP")]
            # read lazily, in this order, up to the first country (a demonym read makes its country a mention)
            keys = chain((self.orgs.org_of_modifier(m) for m in [*named, *(m for m in kids(head) if m.i < head.i)]),
                         (next((self.orgs.index.named_key(p) for p in kids(m) if p.dep_ == "pobj"), None)
                          for m in kids(head) if m.dep_ == "prep" and m.lower_ == "of"))
            country = next((k for k in keys if k is not None and self.orgs.is_country(k)), None)
            if country is not None:
                return country
        return None

    def _post_org(self, noun: Token) -> str | None:
        """ "the post of treasurer at Acme", "the office of treasurer of Acme", "posts at Acme, including
        treasurer": the post's organization."""
        head = next((x.head for x in [noun, *noun.ancestors] if x.dep_ != "conj"), noun.head)  # "including A and B"
        post = head.head
        if head.lower_ not in ("of", "including") or post.lemma_.lower() not in POST_NOUNS:
            return None
        return self._org_after(post, ("of", "at", "in", "with"), skip=head)

    def _comma_org(self, noun: Token) -> str | None:
        """ "serving as deputy commanding general, U.S. Army Forces Command": an organization set after
        the role with a comma, as appointment notices write it."""
        doc = noun.doc
        i = noun.i + 1
        if i + 1 >= len(doc) or doc[i].text != "," or doc[i + 1].ent_type_ != "ORG" or doc[i + 1].ent_iob_ != "B":
            return None
        key = self.index.named_key(doc[i + 1])
        return key if key is not None and key.startswith("Organization:") else None

    def _sent_to(self, verb: Token, noun: Token) -> str | None:
        """ "served as envoy to Chile", the "to" hung on the verb: where an envoy was sent."""
        if noun.lemma_.lower() not in ENVOY_NOUNS:
            return None
        return next((key for c in kids(verb) if c.dep_ == "prep" and c.lower_ == "to" for p in kids(c)
                     if p.dep_ == "pobj" and (key := self.index.named_key(p) or "").startswith(("Place:", "Organization:"))),
                    None)

    def _partner_org(self, noun: Token) -> str | None:
        """ "chairman and chief executive of Acme": the organization of a coordinated role noun."""
        partners = [c for c in kids(noun) if c.dep_ == "conj"] + ([noun.head] if noun.dep_ == "conj" else [])
        if noun.head.lower_ == "as" and noun.head.dep_ == "prep":
            partners += _loose_posts(noun.head.head)
        return next((k for p in partners if is_role_noun(p) and (k := self.orgs.org_from_preps([p]))), None)

    def _verb_org(self, verb: Token, lemma: str, noun: Token) -> str | None:  # noqa: C901 (18): a chain of construction rules; issue 33 step 2 makes them named rules
        """The organization the clause gives a role: what was joined ("joined Acme as"), where one
        works ("served as director at Acme", "at Acme, where she rose to director"), who appointed
        ("Acme named X as"), or the place of an election ("voters in Leeds elected X as mayor"); also
        that of a clause the verb is coordinated with ("joined Acme in 2004 and became its chief")."""
        verbs = [verb] + ([verb.head] if verb.dep_ in ("xcomp", "conj") else [])
        for v in verbs:
            vlemma = lemma if v.i == verb.i else v.lemma_.lower()
            if v.dep_ == "relcl" and any(c.lower_ == "where" for c in kids(v)):
                key = self.orgs.org_in(v.head)
                if key:
                    return key
            for c in kids(v):
                if c.dep_ == "agent" and (vlemma in APPOINTING or vlemma in DISMISSING):
                    key = next((k for p in kids(c) if p.dep_ == "pobj" and (k := self.orgs.org_in(p))), None)
                    if key:
                        return key  # "was fired by the Rams"
                if vlemma in JOINING and c.dep_ == "dobj":
                    key = self.orgs.org_in(c)
                    if key:
                        return key
                if c.dep_ == "prep" and (c.lower_ in ("at", "for", "with", "within")
                                         or (c.lower_ == "to" and is_assisting(noun))):
                    for p in kids(c):
                        key = self.orgs.org_in(p) if p.dep_ == "pobj" else None
                        if key:
                            return key
                if c.dep_ == "nsubj" and (vlemma in APPOINTING or vlemma in DISMISSING) and vlemma not in ENDORSING:
                    # "Acme named X"; "the President intends to nominate X": the appointer's office
                    key = (self.orgs.org_in(c) or self.orgs.org_of_noun(c) or self._possessor_org(c)
                           or (self._person(c) if vlemma in APPOINTERS else None))
                    if key:
                        return key
                    for p in kids(c):
                        if p.dep_ == "prep" and p.lower_ in ("in", "of"):
                            for o in kids(p):
                                key = self.index.named_key(o) if o.dep_ == "pobj" else None
                                if key and (key.startswith("Place:") or (p.lower_ == "of" and key.startswith("Organization:"))):
                                    return key  # "voters in Leeds", "the board of Acme"
        return None

    def _member_of_object(self, person: str, verb: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "Ann Lee joined Acme in 2004": a member of it since then; "she left Acme in 2010": once one."""
        out = []
        left = verb.lemma_.lower() not in JOINING
        for c in kids(verb):
            org = (self.orgs.org_in(c) or self.orgs.org_of_noun(c)) if c.dep_ == "dobj" else None
            if org and org.startswith("Organization:"):
                since, until = self._period(verb, c, "join")
                if left:
                    since, until = None, since or until
                out.append(Role(person=person, role="member", org=org, evidence=evidence,
                                rule="left" if left else "joined", confidence=0.5 if pronoun else 0.6,
                                since=since, until=until, former=left or self._past(verb, "join", until)))
        return out

    def _employee(self, person: str, verb: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "Ann Lee works for Acme", "previously worked at Acme", "spent a decade at Acme", "has been with Acme
        since 2004" (with an organization only: "was with her family" is no career)."""
        out = []
        lemma = verb.lemma_.lower()
        being = lemma == "be"
        spent = lemma == "spend"
        if spent and not any(c.dep_ == "dobj" and c.ent_type_ == "DATE" for c in kids(verb)):
            return []  # "spent the money at Acme" is no career
        if lemma in ("begin", "start") and not any(c.dep_ == "dobj" and c.lemma_.lower() in ("career", "service")
                                                   for c in kids(verb)):
            return []  # "began his career at Acme", "began government service at X"; "began talks with Acme" is none
        preps = ("at", "with") if spent or lemma in ("begin", "start") else ("to",) if lemma == "move" \
            else ("with",) if being else EMPLOYERS
        # "began her career with Acme", "spent a decade at Acme": the parser may hang the "at" on the object
        heads = [verb] + [c for c in kids(verb) if c.dep_ == "dobj"] if spent or lemma in ("begin", "start") else [verb]
        for c in (c for h in heads for c in kids(h)):
            if c.dep_ != "prep" or c.lower_ not in preps:
                continue
            # "worked at the Federal Board, the Harbor Office and the Orvik Institute": each of them
            for o in (x for p in kids(c) if p.dep_ == "pobj" for x in [p, *_conjuncts(p)]):
                org = self.orgs.org_in(o)
                if org and (not being or org.startswith("Organization:")):
                    since, until = self._period(verb, o, lemma)
                    out.append(Role(person=person, role=WORKING.get(lemma, "member"), org=org, evidence=evidence, rule="works-for",
                                    confidence=0.5 if pronoun else 0.6, since=since, until=until,
                                    former=self._past(verb, lemma if lemma == "move" else "work", until)
                                    or (spent and verb.tag_ == "VBD")))  # "moved to Acme in 2004": there since
        return out

    def _predecessors(self, verb: Token, roles: list[Role], done: bool | None = None,
                      prep: str | None = None) -> list[Role]:
        """ "X will succeed Tom Roe as director": Tom Roe holds the post (held it, when X already has); with
        ``prep``, the one named by the verb's phrase of it ("took over as director from Tom Roe")."""
        out: list[Role] = []
        if done is None:
            done = verb.tag_ in ("VBD", "VBN") and not any(c.lower_ in NOT_YET for c in kids(verb) if c.dep_ == "aux")
        posts = [p for c in kids(verb) if c.dep_ == "prep" and c.lower_ == "as" for p in kids(c) if p.dep_ == "pobj"]
        # the parser may hang "from X" on the post, or on the post's organization ("head of Acme from X")
        inner = [t for p in posts for t in p.subtree if t.dep_ == "pobj" and t.head.dep_ == "prep" and t.head.lower_ == "of"]
        named = [c for c in kids(verb) if c.dep_ == "dobj"] if prep is None else _prep_objects([verb, *posts, *inner], prep)
        for c in named:
            person = self._person(c)
            if person is None:
                continue
            out.extend(replace(r, person=person, former=done, since=None, until=None, rule="predecessor",
                               confidence=min(r.confidence, 0.6)) for r in roles if r.person != person)
        return out

    # "Ann Lee heads Acme", "Ann Lee, who heads Acme", "Acme, led by Ann Lee"
    def _heading(self, verb: Token, lemma: str, evidence: Evidence) -> list[Role]:
        holders: list[Token] = []
        orgs: list[Token] = []
        if any(c.dep_ == "nsubj" for c in kids(verb)):
            holders = [c for c in kids(verb) if c.dep_ == "nsubj"]
            orgs = [c for c in kids(verb) if c.dep_ == "dobj"]
        else:
            agents = [p for c in kids(verb) if c.dep_ == "agent" for p in kids(c) if p.dep_ == "pobj"]
            if agents:
                holders = agents
                orgs = [verb.head] if verb.dep_ == "acl" else [c for c in kids(verb) if c.dep_ == "nsubjpass"]
        if not holders and _first_to(verb):
            # "Ann Lee is the first woman to lead Acme": the one the noun is said of heads it
            holders = [c for c in kids(verb.head.head) if c.dep_ == "nsubj"]
            orgs = [c for c in kids(verb) if c.dep_ == "dobj"]
        # "picked Ann Lee to lead Acme", "was tapped to head Acme": an announced appointment
        appointed = verb.dep_ == "xcomp" and verb.head.lemma_.lower() in APPOINTING
        if appointed and not holders:
            holders = [c for c in kids(verb.head) if c.dep_ in ("dobj", "nsubjpass")]
            orgs = [c for c in kids(verb) if c.dep_ == "dobj"]
        # "went on to lead Acme": what the subject did next, as done as the verb it follows
        went_on = verb.dep_ in ("xcomp", "advcl") and verb.head.lemma_.lower() == "go" and any(
            c.dep_ == "prt" and c.lower_ == "on" for c in kids(verb.head)) and not any(
            c.dep_ == "aux" and c.lower_ in NOT_YET for c in kids(verb.head))
        if went_on and not holders:
            holders = [c for c in kids(verb.head) if c.dep_ == "nsubj"]
            orgs = [c for c in kids(verb) if c.dep_ == "dobj"]
        not_yet = any(c.dep_ == "aux" and c.lower_ in NOT_YET for c in kids(verb)) and not _first_to(verb) \
            and not went_on
        if not holders or (not_yet and not appointed) or (verb.dep_ == "xcomp" and verb.head.lemma_.lower() not in (
                "continue", "keep", "help") and not appointed and not went_on):
            return []  # "X will head Y", "chosen to lead Y": no role (yet)
        out = []
        for h in holders:
            person = self._person(h)
            if person is None:
                continue
            for o in orgs:
                org = self.orgs.org_in(o) or self._body_owner(o) or self._employer(o, verb)
                if org:
                    since, until = self._period(verb, o, lemma)
                    past = verb.tag_ == "VBD" or (went_on and verb.head.tag_ == "VBD")
                    former = (past and lemma not in ("found", "co-found", "cofound")) or until is not None
                    out.append(Role(person=person, role=HEAD_VERBS[lemma], org=org, evidence=evidence,
                                    former=former, rule="heading-verb", confidence=0.6 if h.pos_ == "PRON" else 0.7,
                                    since=since, until=until))
        return out

    # ----- time -------------------------------------------------------------------------
    @staticmethod
    def _hypothetical(verb: Token) -> bool:
        """A post that might be held ("could become chairman"), not one announced: "will", and
        "would" reported in the past with no condition ("Acme said Ann Lee would become its chief":
        the reported "will"), announce it."""
        auxes = [c.lower_ for c in kids(verb) if c.dep_ == "aux"]
        if not any(a in HYPOTHETICAL for a in auxes) or any(a in ("will", "'ll", "shall") for a in auxes):
            return False
        return not (auxes == ["would"] and reported_in_past(verb))

    def _past(self, verb: Token, lemma: str, until: Time | None) -> bool:
        """A role once held: an end the text gives (in the past), a past adverb ("previously worked"),
        or the simple past of serving and working ("she served as ...")."""
        if until is not None:
            year = (until.value or "")[:4]
            return not (self.anchor and year.isdigit() and int(year) > self.anchor.year)
        if any(c.dep_ == "advmod" and c.lower_ in PAST_ADVERBS for c in kids(verb)):
            return True
        if verb.dep_ == "conj" and verb.tag_ == "VBD" and any(
                c.dep_ == "advmod" and c.lower_ in PAST_ADVERBS and c.i < verb.head.i for c in kids(verb.head)):
            return True  # "previously ran sales at Acme and sat on the board of X": the adverb scopes over both
        listed = _including(verb)
        if listed is not None and any(c.dep_ == "amod" and c.lower_ in ("former", "previous", "past", "earlier")
                                      for c in kids(listed)):
            return True  # "his former positions, including serving as ..."
        if any(c.dep_ in ("prep", "advmod") and c.lower_ in ("before", "prior") and c.i < verb.i for c in kids(verb)):
            return True  # "Before joining Acme, she was ..."
        has_aux = any(c.dep_ in ("aux", "auxpass") for c in kids(verb))
        return verb.tag_ == "VBD" and lemma in ("serve", "work", "act", "function", "spend", "be") and not has_aux

    def _period(self, verb: Token, noun: Token, lemma: str) -> tuple[Time | None, Time | None]:
        """ "from 1994 to 1997", "between 1994 and 1997", "until 2005", "since 2010", and "in 2004" with
        a verb of beginning ("joined Acme in 2004"): the role's beginning and end."""
        since: Time | None = None
        until: Time | None = None
        starts = lemma in JOINING | APPOINTING | RISING | {"become", "found", "co-found", "cofound", "begin", "start", "move"}
        # "..., a position she has held since 2008": the clause of an apposition to the role noun
        held = [g for a in kids(noun) if a.dep_ == "appos" for r in kids(a) if r.dep_ in ("relcl", "acl")
                for g in kids(r)]
        for c in list(kids(verb)) + list(kids(noun)) + held:
            if c.dep_ != "prep":
                continue
            p = c.lower_
            obj = next((o for o in kids(c) if o.dep_ == "pobj"), None)
            if obj is None:
                continue
            if p == "from" or (p == "in" and starts) or p == "since":
                since = self._time(obj) or since
                to = next((x for x in list(kids(obj)) + list(kids(c))
                           if x.dep_ == "prep" and x.lower_ in ("to", "until", "through", "till")), None)
                end = next((o for o in kids(to) if o.dep_ == "pobj"), None) if to is not None else None
                if end is not None:
                    until = self._time(end) or until
            elif (p in ("until", "till", "through", "to") or (p == "in" and lemma in LEAVING)) and c.head.i == verb.i:
                until = self._time(obj) or until  # "served until 2010", "resigned in 2019"
            elif p == "between":
                since = self._time(obj) or since
                other = next((x for x in kids(obj) if x.dep_ == "conj"), None)
                if other is not None:
                    until = self._time(other) or until
        return since, until

    def _time(self, tok: Token) -> Time | None:
        """The date a preposition's object names ("1994", "March 2004", "his retirement in 2004"), if any."""
        if not (tok.ent_type_ in ("DATE", "TIME") or (tok.like_num and len(tok.text) == 4)):
            dated = next((t for t in tok.subtree if t.ent_type_ == "DATE" and t.head.dep_ == "prep"
                          and t.head.lower_ in ("in", "of")), None)
            return self._time(dated) if dated is not None and dated.i != tok.i else None
        words = [t for t in tok.subtree if t.ent_type_ in ("DATE", "TIME") or t.i == tok.i]
        text = tok.doc[words[0].i:words[-1].i + 1].text if words else tok.text
        return normalise(text, self.anchor) if is_time_point(text) else None


def _listed(nouns: list[Token]) -> list[Token]:
    """The role nouns and those listed with them: "was a trustee of X; a director of Y; and president of Z"
    (the parser hangs a list of posts as conjuncts and appositions of the first, one on another)."""
    out = list(nouns)
    i = 0
    while i < len(out):
        out += [c for c in kids(out[i]) if c.dep_ in ("conj", "appos") and is_role_noun(c) and c not in out]
        i += 1
    return out


def _loose_posts(verb: Token) -> list[Token]:
    """ "served as the deputy director and then the acting director of X": a second post the parser hung on
    the verb as a conjunct of it."""
    return [c for c in kids(verb) if c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN") and is_role_noun(c)]


def _conjuncts(tok: Token) -> list[Token]:
    """The nouns coordinated with ``tok`` ("A, B and C": B and C for A), one after another; a named body the
    parser hung on another as an apposition ("the Federal Board, the Harbor Office, and ...") is one of them."""
    out: list[Token] = []
    for c in kids(tok):
        if c.dep_ == "conj" or c.dep_ == "appos" and c.ent_type_ == "ORG" and tok.ent_type_ == "ORG":
            out += [c, *_conjuncts(c)]
    return out


def _first_to(verb: Token) -> bool:
    """ "the first woman to lead Acme", "the youngest person to head it": an infinitive on a noun ranked
    first, youngest, only, said of the clause's subject (the noun is what "is" or "was" says of it)."""
    noun = verb.head
    return (verb.dep_ in ("acl", "relcl") and any(c.dep_ == "aux" and c.lower_ == "to" for c in kids(verb))
            and noun.dep_ == "attr" and noun.head.lemma_.lower() == "be"
            and any(c.dep_ == "amod" and c.lower_ in FIRSTS for c in kids(noun)))


def _phrase_objects(noun: Token) -> list[Token]:
    """What a noun's prepositions hold ("command of the fleet from X": the parser may hang "from X" on
    "fleet")."""
    return [obj for prep in kids(noun) if prep.dep_ == "prep" for obj in kids(prep)]


def _prep_objects(heads: list[Token], prep: str) -> list[Token]:
    """The objects of the ``prep`` phrases of any of ``heads`` ("from Tom Roe"; "to Tom Roe" parsed as a dative)."""
    return [p for h in heads for c in kids(h) if c.dep_ in ("prep", "dative") and c.lower_ == prep
            for p in kids(c) if p.dep_ == "pobj"]


def _including(verb: Token) -> Token | None:
    """ "his former positions, including serving as ...": the noun whose list a gerund is in."""
    return verb.head.head if verb.dep_ == "pcomp" and verb.head.lower_ == "including" else None
