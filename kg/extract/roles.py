"""Who holds which role in which organization, read from titles and appositions.

Constructions: a title before a name ("Pentagon press secretary George Little",
"Afghan Defense Minister General Abdul Rahim Wardak"), an apposition in either order
("George Little, the Pentagon press secretary"; "its sympathizers, Abdul Rahman"),
"X, a spokesman for Y", "Y's chief executive X", "X, who heads Y", "X from Y".
A role is kept only when an organization (or a country) is named for it.
"""
from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Span, Token

from ..facts import Evidence, Role
from ..nlp.lexicon import (
    DEPARTMENT_WORDS,
    GENERIC_PEOPLE,
    NOT_HUMAN,
    OCCUPATION_SUFFIXES,
    ORG_HEADS,
    RANKS,
    ROLE_MODIFIERS,
    ROLE_NOUNS,
)
from .entities import EntityIndex
from .events import evidence_of

_ORG_PREPS = ("of", "for", "at", "from", "with", "in")
#: Heads of titles that name a post in a national government ("Prime Minister", "Home Secretary").
_GOVERNMENT_HEADS = {"minister", "president", "premier", "chancellor", "secretary"}
_ROLE_PREDICATES = {"be", "remain", "become", "serve", "name", "appoint", "elect", "install", "instal", "hire",
                    "promote", "select", "choose", "nominate", "confirm", "sworn", "swear", "reappoint", "re-elect"}
#: "resigned as minister", "stepped down as chairman": the role is a past one.
_LEAVING_PREDICATES = {"resign", "quit", "retire", "step", "leave"}
#: Auxiliaries of a role not (yet) held: "will head", "would lead", "to chair".
_NOT_YET = frozenset("will would could might may should shall must to".split())
_HEAD_VERBS = {"head": "head", "lead": "leader", "chair": "chair", "run": "head", "direct": "director", "found": "founder"}


def _is_role_word(tok: Token) -> bool:
    low = tok.lower_
    return (_is_role_noun(tok) or low in ROLE_MODIFIERS or low in DEPARTMENT_WORDS or low in RANKS)


def _is_role_noun(tok: Token) -> bool:
    """A noun naming a position or an occupation ("spokesman", "meteorologist")."""
    lemma = tok.lemma_.lower()
    if tok.lower_ in ROLE_NOUNS or lemma in ROLE_NOUNS:
        return True
    return (tok.pos_ == "NOUN" and tok.is_lower and len(lemma) > 5 and lemma.endswith(OCCUPATION_SUFFIXES)
            and lemma not in GENERIC_PEOPLE and tok.lower_ not in GENERIC_PEOPLE and lemma not in NOT_HUMAN)


def _role_text(words: list[Token]) -> str:
    """The role as a singular phrase ("its sympathizers" -> "sympathizer"), hyphens kept tight."""
    if not words:
        return ""
    last = words[-1]
    head = last.lemma_ if last.tag_ in ("NNS", "NNPS") else last.text
    if last.text[:1].isupper() and head[:1].islower():
        head = head[:1].upper() + head[1:]
    out = ""
    for t in words[:-1]:
        out += t.text + ("" if t.text == "-" or t.doc[t.i + 1].text == "-" else " ")
    return (out + head).strip()


class RoleReader:
    """Reads person-role-organization facts from the sentences of one article."""

    def __init__(self, index: EntityIndex, text: str) -> None:
        self.index = index
        self.text = text

    def read(self, sent: Span) -> list[Role]:
        """Every role stated in a sentence."""
        evidence = evidence_of(sent, self.text)
        roles: list[Role] = []
        for ent in self.index.ents:
            if ent.label_ != "PERSON" or not (sent.start <= ent.start and ent.end <= sent.end):
                continue
            person = self.index.resolve(ent.root)
            if person is None:
                continue
            roles.extend(self._title_before(ent, person, evidence))
            roles.extend(self._appositions(ent, person, evidence))
            roles.extend(self._unparsed_apposition(ent, person, evidence))
            roles.extend(self._relative_heads(ent, person, evidence))
            roles.extend(self._heading_verbs(ent, person, evidence))
            roles.extend(self._one_of_them(ent, person, evidence))
            roles.extend(self._role_of_org_before(ent, person, evidence))
            roles.extend(self._predicates(ent, person, evidence))
            roles.extend(self._of_organization(ent, person, evidence, any(r.person == person for r in roles)))
        # Appositions to an unnamed person are rare; a named one is the common case above.
        seen: set[tuple[str, str, str]] = set()
        out = []
        for r in roles:
            k = (r.person, r.role.lower(), r.org)
            if k not in seen:
                seen.add(k)
                out.append(r)
        return out

    # "Pentagon press secretary George Little"
    def _title_before(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        return self._title_ending_at(ent.start - 1, ent, person, evidence)

    # "Malaysia's Prime Minister, Najib Razak said ...": an apposition with no closing comma, which
    # the parser reads as two clauses (the title a root or a second subject, not an appos)
    def _unparsed_apposition(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        doc = ent.doc
        comma = ent.start - 1
        if comma - 1 < ent.sent.start or doc[comma].text != "," or ent.root.dep_ in ("appos", "conj"):
            return []
        noun = doc[comma - 1]
        if (not _is_role_noun(noun) or noun.tag_ not in ("NN", "NNP")
                or any(c.dep_ in ("appos", "conj") for c in noun.children)):
            return []  # a plural, a list ("the spokesman, Kim and Lee") or an apposition the parse has
        return [replace(r, rule="apposition") for r in self._title_ending_at(comma - 1, ent, person, evidence)]

    def _title_ending_at(self, i: int, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        """The role of a title whose last word is ``doc[i]`` (read back to the clause's punctuation)."""
        doc = ent.doc
        title: list[Token] = []
        while i >= ent.sent.start:
            t = doc[i]
            hyphen = t.text == "-" and i - 1 >= ent.sent.start and _is_role_word(doc[i - 1]) and title and _is_role_word(title[0])
            if (t.is_punct and t.tag_ != "POS" and not hyphen) or t.is_space:
                break
            if hyphen:
                title.insert(0, t)
                i -= 1
                continue
            if not (_is_role_word(t) or t.ent_type_ in ("ORG", "GPE", "NORP", "LOC") or t.tag_ in ("POS", "PRP$")
                    or t.lower_ in ("former", "then", "ex", "new")):
                break
            title.insert(0, t)
            i -= 1
        if not title:
            return []
        if _is_role_word(title[0]) and i >= ent.sent.start:
            name = self._proper_name_before(i, ent.sent.start)
            if name is not None:
                title = name + title
        return self._split_title(title, person, evidence, ent)

    def _proper_name_before(self, i: int, floor: int) -> list[Token] | None:
        """An organization name the model did not tag, right before a title ("Joint Council for the
        Welfare of Immigrants campaigner X"): capitalized words joined by of/for/the/and."""
        doc = self.index.doc
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
        self.index.organization_span(toks)
        return toks

    def _split_title(self, title: list[Token], person: str, evidence: Evidence, ent: Span | None) -> list[Role]:
        """Split modifiers into organization tokens and the role phrase, then name the org."""
        toks = list(title)
        ranks: list[Token] = []
        while len(toks) > 1 and toks[-1].lower_ in RANKS and toks[-1].lower_ not in ROLE_NOUNS and toks[-2].text != "-":
            ranks.insert(0, toks.pop())
        # Trailing ranks like "General" after a role ("Defense Minister General"): drop them.
        while len(toks) > 1 and toks[-1].lower_ in RANKS and toks[-2].text != "-" and any(t.lower_ in ROLE_NOUNS for t in toks[:-1]) \
                and toks[-1].lower_ in ("general", "colonel", "major", "lieutenant", "captain", "admiral", "sergeant", "dr", "dr."):
            toks.pop()
        role_toks: list[Token] = []
        j = len(toks) - 1
        while j >= 0 and (_is_role_word(toks[j]) or toks[j].text == "-") and self.index.named_key(toks[j]) is None:
            role_toks.insert(0, toks[j])
            j -= 1
        # A capitalized body word opening the title is the organization ("Army spokesman").
        body = []
        while len(role_toks) > 1 and role_toks[0].is_title and role_toks[0].lower_ in ORG_HEADS:
            body.append(role_toks.pop(0))
        if body:
            self.index.organization_span(body)
            j += len(body)
        if (not role_toks or not any(_is_role_noun(t) for t in role_toks)) and ranks:
            role_toks, j = ranks, len(toks) - 1  # "Navy Capt. Michael Coats": the rank is the role
        elif not role_toks or not any(_is_role_noun(t) for t in role_toks):
            return []
        former = any(t.lower_ in ("former", "then", "ex") for t in title)
        role_words = [t for t in role_toks if t.lower_ not in ("former", "then", "ex", "new")]
        role = _role_text(role_words)
        org = self._affiliation(ent) if ent is not None else None
        possessor = [t for t in toks[: j + 1] if t.i + 1 < len(t.doc) and t.doc[t.i + 1].tag_ == "POS" or t.tag_ == "PRP$"]
        for t in possessor if org is None else []:
            org = self.index.org_of_modifier(t) or self.index.resolve(t)
            if org is not None:
                break
        for t in reversed(toks[: j + 1]) if org is None else []:
            org = self.index.org_of_modifier(t) or (self.index.resolve(t) if t.tag_ in ("PRP$",) else None)
            if org is not None:
                break
        if org is None or (org.startswith("Place:") and not self._is_country(org)):
            # "the Middle East correspondent for the AP": a region before the role is its beat; an
            # organization the role is "for" or "of" is the employer.
            org = self._org_from_preps([t for t in role_toks]) or org
        rule, confidence = "title", 0.8
        if org is None and self._government_title(role_words):
            # "Prime Minister Rishi Sunak" in an article about one country: that country's government.
            org, rule, confidence = self.index.home_country(), "implicit-country", 0.5
        if org is None or org == person or not role:
            return []
        return [Role(person=person, role=role, org=org, evidence=evidence, former=former, rule=rule,
                     confidence=confidence)]

    def _is_country(self, key: str) -> bool:
        return key in self.index.countries()

    @staticmethod
    def _government_title(words: list[Token]) -> bool:
        if not words or words[-1].lemma_.lower() not in _GOVERNMENT_HEADS:
            return False
        mods = {t.lower_ for t in words[:-1]}
        return bool(mods & (DEPARTMENT_WORDS | {"prime", "vice", "shadow"})) or words[-1].lower_ in ("president", "premier", "chancellor")

    def _affiliation(self, ent: Span) -> str | None:
        """ "Bruce Bennett from the RAND Corporation", "Boston University's Ann Lee": an organization
        the name itself is tied to."""
        for c in ent.root.children:
            if c.dep_ == "poss" and c.i < ent.start:
                key = self.index.named_key(c)
                if key and key.startswith("Organization:"):
                    return key
            if c.dep_ == "prep" and c.lower_ in ("from", "at", "of", "with"):
                for p in c.children:
                    if p.dep_ == "pobj":
                        key = self.index.named_key(p)
                        if key and key.startswith("Organization:"):
                            return key
        doc = ent.doc
        i = ent.end
        if i + 1 < len(doc) and doc[i].lower_ in ("from", "of"):  # "at": often where, not whose
            # The words themselves when the parser hung the phrase elsewhere ("X of Harvard
            # University and Y of the University of Bordeaux").
            j = i + 2 if doc[i + 1].lower_ == "the" else i + 1
            key = self.index.named_key(doc[j]) if j < len(doc) and doc[j].ent_type_ == "ORG" else None
            if key and key.startswith("Organization:"):
                return key
        return None

    def _org_from_preps(self, heads: list[Token], depth: int = 0) -> str | None:
        """The organization a role noun is "of", "for" or "at" (also a little further down the phrase:
        "a professor of chemistry at Oxford University"), or its possessor ("Canada's")."""
        for h in heads:
            for c in h.children:
                if c.dep_ == "poss":
                    key = self.index.resolve(c) or self.index.org_of_modifier(c)
                    if key and not key.startswith("Person:"):
                        return key
                if c.dep_ == "prep" and c.lower_ in _ORG_PREPS:
                    for p in c.children:
                        if p.dep_ != "pobj" or p.lower_ in DEPARTMENT_WORDS:
                            continue
                        key = self.index.named_key(p) or self.index.org_of_modifier(p)
                        if key is not None and key.startswith("Person:"):
                            key = None
                        if key is None:
                            for m in p.children:
                                if m.dep_ in ("compound", "amod", "nmod"):
                                    key = self.index.org_of_modifier(m)
                                    if key:
                                        break
                        if key and not key.startswith("Person:"):
                            return key
                        if depth < 2:
                            deeper = self._org_from_preps([p] + [x for x in p.children if x.dep_ == "conj"], depth + 1)
                            if deeper:
                                return deeper
        return None

    # "George Little, the Pentagon press secretary" / "its sympathizers, Abdul Rahman"
    def _appositions(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        root = ent.root
        nouns: list[Token] = [c for c in root.children if c.dep_ == "appos" and c.lower_ in ROLE_NOUNS | {c.lower_ for c in []}]
        nouns += [c for c in root.children if c.dep_ == "appos" and _is_role_noun(c) and c not in nouns]
        if root.dep_ == "appos" and _is_role_noun(root.head):
            nouns.append(root.head)
        if root.dep_ == "appos" and root.head.lower_ == "one":
            # "one of its members, Juan Ortiz"
            nouns += [p for c in root.head.children if c.dep_ == "prep" and c.lower_ == "of"
                      for p in c.children if p.dep_ == "pobj" and p.lemma_.lower() in ROLE_NOUNS]
        out: list[Role] = []
        for noun in nouns:
            mods = [t for t in noun.subtree if t.i < noun.i and t.dep_ not in ("det", "punct", "case")
                    and not (ent.start <= t.i < ent.end)]
            title = sorted(mods + [noun], key=lambda t: t.i)
            title = [t for t in title if t.i >= min(t2.i for t2 in title)]
            roles = self._split_title(title, person, evidence, None)
            if not roles:
                org = self._org_from_preps([noun])
                role_words = [t for t in title if _is_role_word(t) and self.index.named_key(t) is None
                              and t.lower_ not in ("former", "then")]
                if org and role_words and org != person:
                    roles = [Role(person=person, role=_role_text([t for t in role_words if t.i <= noun.i]) or noun.lemma_,
                                  org=org, evidence=evidence,
                                  former=any(t.lower_ == "former" for t in title), rule="apposition")]
            else:
                roles = [Role(person=r.person, role=r.role, org=r.org, evidence=r.evidence, former=r.former,
                              rule="apposition" if r.rule == "title" else r.rule, confidence=r.confidence)
                         for r in roles]
            out.extend(roles)
        return out

    # "X, who heads Y" / "X, a shipyard electrician who founded Y" / "X, who works for Y"
    def _relative_heads(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        out: list[Role] = []
        holders = [ent.root] + [c for c in ent.root.children if c.dep_ == "appos"]
        for h in holders:
            for c in h.children:
                if c.dep_ != "relcl":
                    continue
                if c.lemma_ in _HEAD_VERBS:
                    for o in c.children:
                        if o.dep_ == "dobj":
                            org = self._org_in(o)
                            if org:
                                out.append(Role(person=person, role=_HEAD_VERBS[c.lemma_], org=org,
                                                evidence=evidence, rule="relative-clause"))
                elif c.lemma_ == "work":
                    for p in c.children:
                        if p.dep_ == "prep" and p.lower_ in ("for", "at", "with"):
                            for o in p.children:
                                org = self._org_in(o) if o.dep_ == "pobj" else None
                                if org:
                                    out.append(Role(person=person, role="employee", org=org,
                                                    evidence=evidence, rule="relative-clause", confidence=0.6))
        return out

    # "X heads Y", "X founded Y", "Y, led by X", "the Y headed by X"
    def _heading_verbs(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        root = ent.root
        verb: Token | None = None
        orgs: list[Token] = []
        if root.dep_ == "nsubj" and root.head.pos_ in ("VERB", "NOUN") and root.head.lemma_ in _HEAD_VERBS:
            # (a noun with a subject is a verb the tagger missed: "X heads the agency")
            verb = root.head
            orgs = [c for c in verb.children if c.dep_ == "dobj"]
        elif root.dep_ == "pobj" and root.head.dep_ == "agent" and root.head.head.lemma_ in _HEAD_VERBS:
            verb = root.head.head
            orgs = [verb.head] if verb.dep_ == "acl" else [c for c in verb.children if c.dep_ == "nsubjpass"]
        if verb is None or any(c.dep_ == "neg" or (c.dep_ == "aux" and c.lower_ in _NOT_YET) for c in verb.children):
            return []  # "X will head Y", "X did not found Y", "chosen to lead Y": no role (yet)
        out = []
        for o in orgs:
            org = self._org_in(o)
            if org:
                former = verb.tag_ == "VBD" and verb.lemma_ != "found"  # "X led Y": once; a founder stays one
                out.append(Role(person=person, role=_HEAD_VERBS[verb.lemma_], org=org, evidence=evidence,
                                former=former, rule="heading-verb", confidence=0.7))
        return out

    # "X and other members of Y", "Y councillors, including X", "officials of Y such as X"
    def _one_of_them(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        first = ent.root
        while first.dep_ == "conj" and first.head != first:
            first = first.head  # "including Mary Dunn and Tom Reyes": both
        groups = [c for c in ent.root.children if c.dep_ == "conj" and any(a.lower_ == "other" for a in c.children)]
        prep = first.head if first.dep_ == "pobj" else None
        if prep is not None and (prep.lower_ == "including" or (
                prep.lower_ == "as" and any(t.lower_ == "such" for t in prep.doc[prep.i - 1:prep.i]))):
            groups.append(prep.head)
        out = []
        for g in groups:
            noun = g.lemma_.lower()
            if g.pos_ != "NOUN" or g.tag_ != "NNS" or noun not in ROLE_NOUNS or noun in GENERIC_PEOPLE:
                continue
            org = self._org_in(g) or next((k for p in g.children if p.dep_ == "prep" and p.lower_ in _ORG_PREPS
                                           for o in p.children if o.dep_ == "pobj" and (k := self._org_in(o))), None)
            if org:
                former = any(a.lower_ in ("former", "ex") for a in g.children if a.dep_ in ("amod", "compound"))
                out.append(Role(person=person, role=noun, org=org, evidence=evidence, former=former,
                                rule="one-of-them", confidence=0.7))
        return out

    # "Chairman of the Reform Party Tom Reyes", "the head of the agency, Kim Soo"
    def _role_of_org_before(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        doc = ent.doc
        end = ent.start - 1 if ent.start > 0 and doc[ent.start - 1].text == "," else ent.start
        org_span = next((e for e in self.index.ents if e.end == end and e.label_ in ("ORG", "GPE")), None)
        if org_span is None:
            return []
        i = org_span.start - 1
        if i >= 0 and doc[i].lower_ == "the":
            i -= 1
        if i < 1 or doc[i].lower_ != "of" or doc[i - 1].lemma_.lower() not in ROLE_NOUNS \
                or doc[i - 1].lemma_.lower() in GENERIC_PEOPLE or doc[i - 1].tag_ not in ("NN", "NNP"):
            return []  # "members of the party Tom and Ann" are not a title
        words = [doc[i - 1]]
        while words[0].i > ent.sent.start and doc[words[0].i - 1].lower_ in ROLE_MODIFIERS:
            words.insert(0, doc[words[0].i - 1])  # "deputy chairman"
        org = self.index.named_key(org_span.root)
        if org is None or not org.startswith(("Organization:", "Place:")):
            return []
        former = any(w.lower_ in ("former", "ex") for w in words)
        words = [w for w in words if w.lower_ not in ("former", "ex")]
        return [Role(person=person, role=_role_text(words), org=org, evidence=evidence, former=former,
                     rule="role-of-org-before", confidence=0.7)] if words else []

    def _org_in(self, tok: Token) -> str | None:
        """An organization named by a noun phrase or by one of its modifiers ("the Solidarity union")."""
        for t in [tok] + [c for c in tok.children if c.dep_ in ("compound", "nmod", "amod", "poss")]:
            key = self.index.named_key(t)
            if key and key.startswith("Organization:"):
                return key
        return None

    # "Anderson was the chief correspondent for The Associated Press"; "X was named chairman of Y"
    def _predicates(self, ent: Span, person: str, evidence: Evidence) -> list[Role]:
        root = ent.root
        if root.dep_ not in ("nsubj", "nsubjpass"):
            return []
        verbs = [root.head]
        for _ in range(3):  # down the control chain: "was forced to resign as minister"
            nxt = next((c for c in verbs[-1].children if c.dep_ == "xcomp"), None)
            if nxt is None:
                break
            verbs.append(nxt)
        nouns: list[tuple[Token, bool]] = []
        for verb in verbs:
            lemma = verb.lemma_.lower()
            leaving = lemma in _LEAVING_PREDICATES
            if lemma not in _ROLE_PREDICATES and not leaving:
                continue
            if not leaving:
                nouns += [(c, False) for c in verb.children if c.dep_ in ("attr", "oprd") and _is_role_noun(c)]
            nouns += [(p, leaving) for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                      for p in c.children if p.dep_ == "pobj" and _is_role_noun(p)]
        out: list[Role] = []
        for noun, left in nouns:
            title = sorted([t for t in noun.subtree if t.i < noun.i and t.dep_ not in ("det", "punct", "case")]
                           + [noun], key=lambda t: t.i)
            roles = self._split_title(title, person, evidence, None)
            if not roles:
                org = self._org_from_preps([noun])
                if org and org != person:
                    words = [t for t in title if _is_role_word(t) and self.index.named_key(t) is None
                             and t.lower_ not in ("former", "then", "new")]
                    roles = [Role(person=person, role=_role_text(words) or noun.lemma_, org=org, evidence=evidence,
                                  former=any(t.lower_ == "former" for t in title), rule="predicate")]
            out.extend(Role(person=r.person, role=r.role, org=r.org, evidence=r.evidence, former=r.former or left,
                            rule="predicate" if r.rule == "title" else r.rule, confidence=r.confidence) for r in roles)
        return out

    # "Greg Thayer of the Forest Service": the role is implied
    def _of_organization(self, ent: Span, person: str, evidence: Evidence, found: bool) -> list[Role]:
        if found:
            return []
        org = self._affiliation(ent)
        if org is None:
            return []
        return [Role(person=person, role="member", org=org, evidence=evidence, rule="of-organization",
                     confidence=0.5)]
