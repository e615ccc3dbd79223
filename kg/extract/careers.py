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

from dataclasses import replace
from typing import TYPE_CHECKING

from spacy.tokens import Span, Token

from ..facts import Evidence, Role, Time
from .timex import is_time_point, normalise, parse_iso
from .titles import is_role_noun, lexicon_form, role_text

if TYPE_CHECKING:
    from .roles import RoleReader

#: Verbs whose subject holds the role named by their complement ("was", "became", "served as").
_BEING = frozenset("be become remain stay serve work act function return continue".split())
#: Verbs of appointing: their object (or passive subject) holds the role ("named Ann Lee chief").
_APPOINTING = frozenset("""
name appoint elect re-elect reelect nominate renominate select choose hire promote install instal confirm
tap pick designate declare identify make swear sworn reappoint recruit
""".split())
#: Verbs of leaving a post: "resigned as minister", "stepped down as chairman" (a past role).
_LEAVING = frozenset("resign quit retire step leave depart".split())
#: "joined Acme (as chief engineer)": the object is the organization.
_JOINING = frozenset("join rejoin".split())
#: "succeeded Tom Roe as director": the subject holds the role, and the object held it.
_SUCCEEDING = frozenset("succeed replace".split())
#: Verbs that say who leads an organization, and the role they give.
HEAD_VERBS = {"head": "head", "lead": "leader", "chair": "chair", "run": "head", "direct": "director",
              "found": "founder", "co-found": "co-founder", "cofound": "co-founder", "manage": "manager",
              "coach": "coach", "command": "commander", "edit": "editor"}
_VERBS = _BEING | _APPOINTING | _LEAVING | _JOINING | _SUCCEEDING | frozenset(HEAD_VERBS)
#: Auxiliaries of a role not (yet) held: "will head", "would lead", "to chair".
_NOT_YET = frozenset("will would could might may should shall must to 'll".split())
_HYPOTHETICAL = frozenset("could might may should must would".split())
#: Verbs of appointing whose subject gives the post its organization ("the President intends to
#: nominate X to be ambassador": a post of the President's government).
_APPOINTERS = frozenset("name appoint nominate renominate reappoint designate select choose pick tap hire promote install".split())
#: Nouns for a post one is elected or appointed "to" ("elected to the presidential post").
_POST_NOUNS = frozenset("post office position seat presidency premiership chairmanship job".split())
#: Adverbs that put a role in the past ("previously worked at", "was once a director of").
_PAST_ADVERBS = frozenset("previously formerly once earlier then later ago before".split())
_EMPLOYERS = ("for", "at", "with", "in")


class CareerReader:
    """Reads the roles that verbs state, using the ``RoleReader`` for the title and organization of each."""

    def __init__(self, titles: RoleReader, date: str | None = None) -> None:
        self.t = titles
        self.index = titles.index
        self.anchor = parse_iso(date)

    def read(self, sent: Span, evidence: Evidence) -> list[Role]:
        """The roles the verbs of a sentence state."""
        out: list[Role] = []
        for tok in sent:
            if tok.pos_ not in ("VERB", "AUX", "NOUN") or tok.lemma_.lower() not in _VERBS:
                continue
            if tok.pos_ == "NOUN" and not (tok.lemma_.lower() in HEAD_VERBS and any(c.dep_ == "nsubj" for c in tok.children)):
                continue  # (a noun with a subject is a verb the tagger missed: "X heads the agency")
            if any(c.dep_ == "neg" for c in tok.children) or self._hypothetical(tok):
                continue
            out.extend(self._verb(tok, evidence))
        return out

    # ----- per verb ---------------------------------------------------------------------
    def _verb(self, verb: Token, evidence: Evidence) -> list[Role]:
        lemma = verb.lemma_.lower()
        if lemma in HEAD_VERBS:
            return self._heading(verb, lemma, evidence)
        passive = any(c.dep_ in ("auxpass", "nsubjpass") for c in verb.children) or (
            verb.tag_ == "VBN" and verb.dep_ in ("acl", "relcl") and not any(c.dep_ == "aux" for c in verb.children))
        if lemma in _APPOINTING and not passive:
            holders = [c for c in verb.children if c.dep_ == "dobj"] + self._object_of_naming(verb)
        elif lemma in _APPOINTING:
            holders = self._subjects(verb, ("nsubjpass",)) or ([verb.head] if verb.dep_ == "acl" else [])
        else:
            holders = self._subjects(verb, ("nsubj",))
        out: list[Role] = []
        for h in holders:
            person = self._person(h)
            if person is None:
                continue
            pronoun = h.pos_ == "PRON"
            for noun in self._role_nouns(verb, lemma):
                out.extend(self._role(person, noun, verb, lemma, evidence, pronoun))
            if (lemma in _JOINING or lemma in ("leave", "quit")) and not out:
                out.extend(self._member_of_object(person, verb, evidence, pronoun))
            if lemma == "work" and not out:
                out.extend(self._employee(person, verb, evidence, pronoun))
        if lemma in _SUCCEEDING and out:
            out.extend(self._predecessors(verb, out))
        return out

    def _person(self, tok: Token) -> str | None:
        key = self.index.resolve(tok)
        return key if key is not None and key.startswith("Person:") else None

    @staticmethod
    def _subjects(verb: Token, deps: tuple[str, ...]) -> list[Token]:
        """The verb's subject, or, for a verb coordinated with or controlled by another, that verb's
        subject ("was asked to serve as", "joined Acme and became its chief") or controlling object
        ("Acme asked Ann Lee to serve as")."""
        v = verb
        for _ in range(4):
            subj = [c for c in v.children if c.dep_ in deps]
            if v is not verb and v.dep_ != "conj" and verb.dep_ == "xcomp":
                subj = [c for c in v.children if c.dep_ == "dobj"] or subj
            if subj:
                return subj + [x for s in subj for x in s.children if x.dep_ == "conj"]
            if verb.dep_ not in ("xcomp", "conj") or v.dep_ not in ("xcomp", "conj") or v.head is v:
                return []
            v = v.head
            deps = ("nsubj", "nsubjpass")
        return []

    @staticmethod
    def _object_of_naming(verb: Token) -> list[Token]:
        """ "named Ann Lee chief executive" read as one noun phrase: the name modifying the role noun."""
        out = []
        for c in verb.children:
            if c.dep_ in ("oprd", "dobj", "attr") and is_role_noun(c):
                out += [m for m in c.children if m.dep_ in ("nmod", "compound") and m.ent_type_ == "PERSON"]
        return out

    def _role_nouns(self, verb: Token, lemma: str) -> list[Token]:
        """The role nouns a verb gives its holder: a complement ("became chairman", "named Ann Lee chief
        executive"), "as" ("served as", "joined Acme as"), or "to be" ("nominated to be a member")."""
        nouns: list[Token] = []
        if lemma not in _LEAVING and lemma not in _JOINING and lemma not in _SUCCEEDING and lemma != "work":
            nouns += [c for c in verb.children if c.dep_ in ("attr", "oprd", "acomp") and is_role_noun(c)]
            if lemma in _APPOINTING:
                nouns += [c for c in verb.children if c.dep_ in ("dobj", "ccomp") and is_role_noun(c)
                          and any(m.ent_type_ == "PERSON" for m in c.children)]
        nouns += [p for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                  for p in c.children if p.dep_ == "pobj" and is_role_noun(p)]
        for x in verb.children:
            if x.dep_ == "xcomp" and x.lemma_.lower() in ("be", "serve", "become", "act"):
                nouns += self._role_nouns(x, x.lemma_.lower())
        nouns += [c for n in nouns for c in n.children if c.dep_ == "conj" and is_role_noun(c)]
        return nouns

    def _role(self, person: str, noun: Token, verb: Token, lemma: str, evidence: Evidence,
              pronoun: bool) -> list[Role]:
        t = self.t
        title = t.noun_title(noun)
        roles = t.split_title(title, person, evidence, None)
        org = None
        if not roles or roles[0].rule == "implicit-country":
            org = (t.org_from_preps([noun]) or self._partner_org(noun) or self._verb_org(verb, lemma, noun))
        if org is not None and org != person and (t.may_employ(org, noun) or lemma in _APPOINTERS):
            words = [x for x in title if x.dep_ != "poss" and x.tag_ != "POS" and not t.key(x)
                     and x.lower_ not in ("former", "then", "new", "current")]
            roles = [Role(person=person, role=role_text(words) or noun.lemma_, org=org, evidence=evidence,
                          former=any(x.lower_ == "former" for x in title), rule="predicate")]
        if not roles or (lexicon_form(noun) is None and roles[0].org.startswith("Place:")):
            return []  # "he was the nation's top importer": an occupation, no post in a country
        since, until = self._period(verb, noun, lemma)
        former = lemma in _LEAVING or self._past(verb, lemma, until)
        confidence = 0.6 if pronoun else 0.75
        return [replace(r, former=r.former or former, rule="predicate" if r.rule == "title" else r.rule,
                        confidence=min(r.confidence, confidence), since=since or r.since, until=until)
                for r in roles]

    def _partner_org(self, noun: Token) -> str | None:
        """ "chairman and chief executive of Acme": the organization of a coordinated role noun."""
        partners = [c for c in noun.children if c.dep_ == "conj"] + ([noun.head] if noun.dep_ == "conj" else [])
        return next((k for p in partners if is_role_noun(p) and (k := self.t.org_from_preps([p]))), None)

    def _verb_org(self, verb: Token, lemma: str, noun: Token) -> str | None:
        """The organization the clause gives a role: what was joined ("joined Acme as"), where one
        works ("served as director at Acme"), who appointed ("Acme named X as"), or the place of
        an election ("voters in Leeds elected X as mayor")."""
        for v in (verb, verb.head if verb.dep_ == "xcomp" else None):
            if v is None:
                continue
            for c in v.children:
                if lemma in _JOINING and c.dep_ == "dobj":
                    key = self.t.org_in(c)
                    if key:
                        return key
                if c.dep_ == "prep" and c.lower_ in ("at", "for", "with", "within"):
                    for p in c.children:
                        key = self.t.org_in(p) if p.dep_ == "pobj" else None
                        if key:
                            return key
                if c.dep_ == "nsubj" and lemma in _APPOINTING:
                    # "Acme named X"; "the President intends to nominate X": the appointer's office
                    key = self.t.org_in(c) or self.t.org_of_noun(c) or (self._person(c) if lemma in _APPOINTERS else None)
                    if key:
                        return key
                    for p in c.children:
                        if p.dep_ == "prep" and p.lower_ in ("in", "of"):
                            for o in p.children:
                                key = self.index.named_key(o) if o.dep_ == "pobj" else None
                                if key and key.startswith("Place:"):
                                    return key
        return None

    def _member_of_object(self, person: str, verb: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "Ann Lee joined Acme in 2004": a member of it since then; "she left Acme in 2010": once one."""
        out = []
        left = verb.lemma_.lower() not in _JOINING
        for c in verb.children:
            org = (self.t.org_in(c) or self.t.org_of_noun(c)) if c.dep_ == "dobj" else None
            if org and org.startswith("Organization:"):
                since, until = self._period(verb, c, "join")
                if left:
                    since, until = None, since or until
                out.append(Role(person=person, role="member", org=org, evidence=evidence,
                                rule="left" if left else "joined", confidence=0.5 if pronoun else 0.6,
                                since=since, until=until, former=left or self._past(verb, "join", until)))
        return out

    def _employee(self, person: str, verb: Token, evidence: Evidence, pronoun: bool) -> list[Role]:
        """ "Ann Lee works for Acme", "previously worked at Acme", "was working in an Acme store"."""
        out = []
        for c in verb.children:
            if c.dep_ != "prep" or c.lower_ not in _EMPLOYERS:
                continue
            for o in c.children:
                org = self.t.org_in(o) if o.dep_ == "pobj" else None
                if org:
                    since, until = self._period(verb, o, "work")
                    out.append(Role(person=person, role="employee", org=org, evidence=evidence, rule="works-for",
                                    confidence=0.5 if pronoun else 0.6, since=since, until=until,
                                    former=self._past(verb, "work", until)))
        return out

    def _predecessors(self, verb: Token, roles: list[Role]) -> list[Role]:
        """ "X will succeed Tom Roe as director": Tom Roe holds the post (held it, when X already has)."""
        out: list[Role] = []
        done = verb.tag_ in ("VBD", "VBN") and not any(c.lower_ in _NOT_YET for c in verb.children if c.dep_ == "aux")
        for c in verb.children:
            if c.dep_ != "dobj":
                continue
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
        if any(c.dep_ == "nsubj" for c in verb.children):
            holders = [c for c in verb.children if c.dep_ == "nsubj"]
            orgs = [c for c in verb.children if c.dep_ == "dobj"]
        else:
            agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
            if agents:
                holders = agents
                orgs = [verb.head] if verb.dep_ == "acl" else [c for c in verb.children if c.dep_ == "nsubjpass"]
        if not holders or any(c.dep_ == "aux" and c.lower_ in _NOT_YET for c in verb.children) or (
                verb.dep_ == "xcomp" and verb.head.lemma_.lower() not in ("continue", "keep", "help")):
            return []  # "X will head Y", "chosen to lead Y": no role (yet)
        out = []
        for h in holders:
            person = self._person(h)
            if person is None:
                continue
            for o in orgs:
                org = self.t.org_in(o)
                if org:
                    since, until = self._period(verb, o, lemma)
                    former = (verb.tag_ == "VBD" and lemma not in ("found", "co-found", "cofound")) or until is not None
                    out.append(Role(person=person, role=HEAD_VERBS[lemma], org=org, evidence=evidence,
                                    former=former, rule="heading-verb", confidence=0.6 if h.pos_ == "PRON" else 0.7,
                                    since=since, until=until))
        return out

    # ----- time -------------------------------------------------------------------------
    @staticmethod
    def _hypothetical(verb: Token) -> bool:
        return any(c.dep_ == "aux" and c.lower_ in _HYPOTHETICAL for c in verb.children) and not any(
            c.dep_ == "aux" and c.lower_ in ("will", "'ll", "shall") for c in verb.children)

    def _past(self, verb: Token, lemma: str, until: Time | None) -> bool:
        """A role once held: an end the text gives (in the past), a past adverb ("previously worked"),
        or the simple past of serving and working ("she served as ...")."""
        if until is not None:
            year = (until.value or "")[:4]
            return not (self.anchor and year.isdigit() and int(year) > self.anchor.year)
        if any(c.dep_ == "advmod" and c.lower_ in _PAST_ADVERBS for c in verb.children):
            return True
        has_aux = any(c.dep_ in ("aux", "auxpass") for c in verb.children)
        return verb.tag_ == "VBD" and lemma in ("serve", "work", "act", "function") and not has_aux

    def _period(self, verb: Token, noun: Token, lemma: str) -> tuple[Time | None, Time | None]:
        """ "from 1994 to 1997", "between 1994 and 1997", "until 2005", "since 2010", and "in 2004" with
        a verb of beginning ("joined Acme in 2004"): the role's beginning and end."""
        since: Time | None = None
        until: Time | None = None
        starts = lemma in _JOINING | _APPOINTING | {"become", "found", "co-found", "cofound"}
        for c in list(verb.children) + list(noun.children):
            if c.dep_ != "prep":
                continue
            p = c.lower_
            obj = next((o for o in c.children if o.dep_ == "pobj"), None)
            if obj is None:
                continue
            if p == "from" or (p == "in" and starts) or p == "since":
                since = self._time(obj) or since
                to = next((x for x in list(obj.children) + list(c.children)
                           if x.dep_ == "prep" and x.lower_ in ("to", "until", "through", "till")), None)
                end = next((o for o in to.children if o.dep_ == "pobj"), None) if to is not None else None
                if end is not None:
                    until = self._time(end) or until
            elif p in ("until", "till", "through", "to") and c.head is verb:
                until = self._time(obj) or until
            elif p == "between":
                since = self._time(obj) or since
                other = next((x for x in obj.children if x.dep_ == "conj"), None)
                if other is not None:
                    until = self._time(other) or until
        return since, until

    def _time(self, tok: Token) -> Time | None:
        """The date a preposition's object names ("1994", "March 2004"), if it is one."""
        if not (tok.ent_type_ in ("DATE", "TIME") or (tok.like_num and len(tok.text) == 4)):
            return None
        words = [t for t in tok.subtree if t.ent_type_ in ("DATE", "TIME") or t.i == tok.i]
        text = tok.doc[words[0].i:words[-1].i + 1].text if words else tok.text
        return normalise(text, self.anchor) if is_time_point(text) else None
