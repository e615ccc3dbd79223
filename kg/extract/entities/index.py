"""Who is mentioned: named entities, unnamed groups, and what pronouns and short names refer to.

``EntityIndex`` is built once per article Doc. It clusters name variants ("Okafor" with
"Daniel Okafor", "U.S." with "United States"), creates Group entities for unnamed actors
("two Belavian army advisers"), and resolves pronouns and definite descriptions to them.
Nothing here knows RDF; the result is ``facts.Entity`` objects keyed by a string.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from operator import attrgetter

from spacy.tokens import Doc, Span, Token

from ...model.facts import Entity
from ...model.names import compact
from ...nlp.lexicon import (
    ATTACKER_NOUNS,
    COLLECTIVE_NOUNS,
    PERSON_PATIENT_VERBS,
    PLACE_ALIASES,
    QUANTITY_NOUNS,
    RANKS,
    RELATIVE_PRONOUNS,
    ROLE_NOUNS,
)
from ..grammar.columns import columns_of, kids
from ..grammar.labels import SUBJECTS
from ..grammar.passives import elided_passive
from .coref import FIRST, Coreference, expletive
from .groups import FACILITY_NOUNS, group_label, is_human_noun, is_vehicle
from .mentions import Mention
from .places import PlaceIndex

__all__ = ["EntityIndex"]

_TYPE_OF_LABEL = {"PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Place"}
#: Nouns for the body a person belongs to, resolved through "his/her/their".
_GENERIC_BODIES = {"party", "company", "government", "ministry", "department", "organization", "organisation",
                   "firm", "agency", "office", "administration", "union", "campaign", "group"}
#: Where an unnamed group can stand (``EntityIndex._index_groups``): the relations of a noun.
_GROUP_DEPS = frozenset(("nsubj", "nsubjpass", "dobj", "dative", "pobj", "conj", "appos"))
_ARGUMENT_DEPS = frozenset(("nsubj", "nsubjpass", "dobj", "dative", "pobj"))


class EntityIndex(PlaceIndex):
    """Entities of one article and a resolver from tokens to entity keys."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        #: the Doc's named entities, made once (``doc.ents`` builds a new Span for each on every call)
        self.ents: tuple[Span, ...] = doc.ents
        self.cols = columns_of(doc)  # its text, sentences and token attributes, read once
        self.entities: dict[str, Entity] = {}
        self._token_key: dict[int, str] = {}
        #: facilities ("the embassy"): targets only, never actors
        self._things: set[str] = set()
        self.mentions: list[Mention] = []
        self._aliases: dict[str, str] = {}
        #: a shared-head coordination named as one place ("East and West Germany") -> its places
        self._parts: dict[str, list[str]] = {}
        self.affiliation: dict[str, str] = {}
        #: (role head word, organization key) -> persons the article says hold that role
        self._holders: dict[tuple[str, str], set[str]] = {}
        #: country key -> weight of its mentions in the headline (``set_headline``)
        self._headline: dict[str, int] = {}
        self._index_named()
        self._index_groups()
        self.coref = Coreference(self)
        self.coref.chain()
        self._link_generic_people()

    # ----- named entities -------------------------------------------------
    def _index_named(self) -> None:
        persons: list[tuple[Span, str]] = []
        acronyms: dict[str, str] = {}  # acronym -> the key of the name it abbreviates ("the Board (KB)")
        by_end: dict[int, str] = {}
        for ent in self.ents:
            etype = _TYPE_OF_LABEL.get(ent.label_)
            if ent.label_ == "NORP" and (ent[-1].tag_ in ("NNPS", "NNS") or (  # "Kurds"; "the Karen fled", no "Voters"
                    ent.root.dep_ in _ARGUMENT_DEPS and ent.root.pos_ == "PROPN" and not ent.root.is_sent_start
                    and not self._nationality(ent.text))):
                etype = "Group"
            if etype is None:
                continue
            name = self._clean_name(ent, etype)
            if not name:
                continue
            if etype == "Organization" and self._nationality(name):
                country = self.country_of(name)  # "Ugandan" tagged as an organization: its country
                if country is None:
                    continue  # "Shiite" tagged so: a religion, no organization
                etype, name = "Place", country
            if etype == "Person":
                persons.append((ent, name))
                continue
            key = self._named_key(etype, name)
            if etype == "Organization" and name.isupper():
                if ent.start > 1 and self.doc[ent.start - 1].text == "(" and ent.start - 1 in by_end:
                    acronyms.setdefault(name, by_end[ent.start - 1])
                key = acronyms.get(name, key)
            self._add_mention(key, name, etype, ent)
            by_end[ent.end] = key
        first: dict[str, int] = {}  # long names first, so a short name joins the full one; its first place
        for ent, name in sorted(persons, key=lambda p: (-len(p[1].split()), p[0].start)):
            self._add_mention(self._person_key(name, first.setdefault(name, ent.start)), name, "Person", ent)
        self._fold_compass_names()
        self._fold_generic_heads()
        self._fold_short_names()
        self._split_shared_heads()
        self._index_descriptions()

    def _fold_short_names(self) -> None:
        """"the Comets" after "the Varno Comets": an organization's name that is the end of exactly
        one longer organization name of the article is that organization (persons: ``_person_key``)."""
        orgs = [(k, e.label.split()) for k, e in self.entities.items() if e.type == "Organization"]
        # a people's name the model gave to a team or party ("the Comets" tagged NORP) too
        named_groups = [(k, e.label.split()) for k, e in self.entities.items() if e.type == "Group"]
        for key, words in orgs + named_groups:
            if len(words) > 2 or words[-1].lower() in _GENERIC_HEADS or key not in self.entities:
                continue
            longer = [k for k, w in orgs if k != key and k in self.entities and len(w) > len(words)
                      and [compact(x) for x in w[-len(words):]] == [compact(x) for x in words]]
            if len(longer) == 1:
                self._merge(key, longer[0])

    def _fold_generic_heads(self) -> None:
        """"the Velmora party" and "Velmora", "Orvane Corp." and "Orvane": a name and the same name
        with a generic head or legal suffix are one organization."""
        for key, ent in list(self.entities.items()):
            if ent.type != "Organization":
                continue
            base, _, head = ent.label.rpartition(" ")
            if head.lower() not in _GENERIC_HEADS or not base:
                continue
            into = f"Organization:{compact(base.rstrip(','))}"
            if into in self.entities and into != key:
                self._merge(key, into)

    def _index_descriptions(self) -> None:
        """Common nouns the article uses for its named entities, so that "the party" or "the
        shuttle" later finds them: a generic head ("the X party"), an apposition ("X, a carmaker";
        "the company, X") or a noun before the name ("the shuttle X")."""
        self._described: list[tuple[int, str, str]] = []
        for m in self.mentions:
            ent = self.entities.get(m.key)
            if ent is None or ent.type not in ("Organization", "Place"):
                continue
            last = ent.label.rpartition(" ")[2].lower()
            if last in _GENERIC_HEADS:
                self._described.append((m.start, _GENERIC_HEADS[last], m.key))
            root = self.doc[m.end - 1]
            nouns = [c for c in kids(root) if c.dep_ == "appos" and c.pos_ == "NOUN"]
            if root.dep_ == "appos" and root.head.pos_ == "NOUN":
                nouns.append(root.head)
            nouns += [c for c in root.lefts if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i < m.start]
            for noun in nouns:
                self._described.append((m.start, noun.lemma_.lower(), m.key))
        self._described.sort()

    def _description_of(self, tok: Token) -> str | None:
        """ "the party", "the shuttle": a definite singular noun the article has used for one of its
        named entities stands for it, when it is the only one so described."""
        if tok.tag_ != "NN" or not any(c.dep_ == "det" and c.lower_ == "the" for c in kids(tok)):
            return None
        if any(c.dep_ in ("poss", "compound", "appos") or (c.dep_ == "amod" and c.i < tok.i) for c in kids(tok)):
            return None  # "the opposition party", "the party's leader X": another description
        lemma = tok.lemma_.lower()
        found = {self.canonical(key) for start, noun, key in self._described if noun == lemma and start < tok.i}
        return next(iter(found)) if len(found) == 1 else None  # two companies named: no guess

    def _clean_name(self, ent: Span, etype: str) -> str:
        toks = list(ent)
        while toks and (toks[0].lower_ in ("the", "a", "an") or (etype == "Person" and toks[0].lower_ in RANKS)):
            toks = toks[1:]
        while toks and toks[-1].tag_ == "POS":
            toks = toks[:-1]
        text = "".join(t.text_with_ws for t in toks).strip()
        text = re.sub(r"['\u2019]s$", "", text).strip()
        if etype == "Place":
            text = PLACE_ALIASES.get(text.lower(), text)
        return text

    def _named_key(self, etype: str, name: str) -> str:
        if etype == "Organization" and name.lower() in PLACE_ALIASES:
            name = PLACE_ALIASES[name.lower()]
        return f"{etype}:{compact(name)}"

    def _person_key(self, name: str, start: int) -> str:
        """A short name is the one longer name holding its words; of several ("Lee" beside "Ann Lee"
        and "Bo Lee"), the one named before the short name first is ("Ann Lee ... Lee ... Bo Lee")."""
        own = f"Person:{compact(name)}"
        if own in self.entities:
            return own
        words = {compact(w) for w in name.split()}
        matches = [k for k, e in self.entities.items() if e.type == "Person" and len(e.label.split()) > len(name.split())
                   and words <= {compact(w) for w in (*e.label.split(), *re.split(r"[\s\-]+", e.label))}]
        if len(matches) > 1:
            matches = [k for k in matches if min(m.start for m in self.mentions if m.key == k) < start]
        return matches[0] if len(matches) == 1 else own

    def _add_mention(self, key: str, name: str, etype: str, span: Span) -> None:
        ent = self.entities.get(key)
        if ent is None:
            self.entities[key] = Entity(key=key, label=name, type=etype, aliases={name}, mentions=1)
        else:
            ent.mentions += 1
            ent.aliases.add(name)
            if len(name) > len(ent.label) and etype != "Place":
                ent.label = name
        for t in span:
            self._token_key[t.i] = key
        head = span.root
        self.mentions.append(Mention(key, span.start, span.end, etype, head.tag_ in ("NNS", "NNPS"),
                                     _subject(head), _agent(head)))

    def _index_groups(self) -> None:
        """Register unnamed human actors in text order, so pronouns and "the X" can find them."""
        doc, cols = self.doc, self.cols
        # Only nouns in an argument position can be one: found in the Doc's columns, so that no Token
        # object is made for the other words (making them was a sixth of the extraction's time).
        for i, (pos, dep) in enumerate(zip(cols.pos_, cols.dep_)):
            if pos not in ("NOUN", "PROPN") or dep not in _GROUP_DEPS or i in self._token_key:
                continue
            tok = doc[i]
            human = is_human_noun(tok)
            if not human and not is_vehicle(tok):
                continue  # the tests below only hold such a noun back
            if tok.lemma_.lower() in _GENERIC_BODIES and any(c.dep_ == "poss" and c.tag_ == "PRP$" for c in kids(tok)):
                continue  # "her party": resolved through its owner once roles are known
            if self._description_of(tok) is not None:
                continue
            if not human or (self._appos_person(tok) is None and self._appos_bodies(tok) is None):
                self.group_key(tok)

    def _link_generic_people(self) -> None:
        """ "One survivor said he felt tremors. The man says ...": "the man" (woman, boy, girl,
        person) with nothing else to say which is the last person of the two sentences before,
        of that gender."""
        for m in list(self.mentions):
            tok = self.doc[m.start]
            lemma = tok.lemma_.lower()
            if m.type != "Group" or lemma not in _GENERIC_PEOPLE or m.plural or tok.tag_ != "NN":
                continue
            if not any(c.dep_ == "det" and c.lower_ == "the" for c in kids(tok)) or any(
                    c.dep_ in ("amod", "compound", "poss", "prep", "relcl", "acl", "appos") for c in kids(tok)):
                continue
            if any(o.key == m.key and o.start < m.start for o in self.mentions):
                continue  # it has an antecedent of its own ("a man ... the man")
            sent = tok.sent
            start = self.doc[sent.start - 1].sent.start if sent.start > 0 else sent.start
            gender = _GENERIC_PEOPLE[lemma]
            before = [o for o in self.mentions if start <= o.start < sent.start and not o.plural
                      and (o.type == "Person" or (o.type == "Group" and o.key.rsplit(":", 1)[-1] not in COLLECTIVE_NOUNS))
                      and self.coref.gender.get(o.key, gender) == gender and o.key != m.key]
            if before:
                self._merge(m.key, before[-1].key)

    def _appos_person(self, tok: Token) -> str | None:  # noqa: C901 (16): a chain of construction rules; issue 33 step 2 makes them named rules
        """A common noun whose apposition is a named person stands for that person.

        Also the surface form "ROLE, Firstname Lastname" when the parser missed the apposition.
        """
        below = kids(tok)
        for c in below:
            if c.dep_ == "appos" and c.i in self._token_key and self._token_key[c.i].startswith("Person:"):
                return self._token_key[c.i]
        if tok.dep_ == "appos" and self._token_key.get(tok.head.i, "").startswith("Person:"):
            return self._token_key[tok.head.i]  # "Y, a tailor who killed X": the tailor is Y
        for prep in below:
            # "the head of the agency, Okafor", "the envoy for Korvala, Lee": a person cannot be in
            # apposition to an organization, so the name the parser hung on it names the head noun.
            if prep.dep_ != "prep" or prep.lower_ not in ("of", "for", "to") or not is_human_noun(tok):
                continue
            for org in kids(prep):
                # Nor can one person be in apposition to a plural ("the chief of the elders, Okafor").
                if org.dep_ == "pobj" and (org.ent_type_ in ("ORG", "GPE", "NORP")
                                           or (org.tag_ == "NNS" and tok.tag_ == "NN")):
                    for c in kids(org):
                        if c.dep_ == "appos" and self._token_key.get(c.i, "").startswith("Person:"):
                            return self._token_key[c.i]
        for prep in below:
            # "a major at Tarnow University Ana Ruiz": the name glued after the organization (parsed
            # as its head) is the person the role noun describes.
            if prep.dep_ == "prep" and prep.lower_ in ("at", "of", "for", "with") and is_human_noun(tok):
                for p in kids(prep):
                    if (p.dep_ == "pobj" and self._token_key.get(p.i, "").startswith("Person:")
                            and any(c.dep_ == "compound" and c.ent_type_ == "ORG" for c in p.lefts)):
                        return self._token_key[p.i]
        nxt = tok.i + 1
        if (tok.lemma_.lower() in ROLE_NOUNS and nxt + 1 < len(self.doc) and self.doc[nxt].text == ","
                and self.doc[nxt + 1].ent_type_ == "PERSON" and self.doc[nxt + 1].ent_iob_ == "B"):
            key = self._token_key.get(self.doc[nxt + 1].i)
            if key and key.startswith("Person:"):
                return key
        return None

    def _appos_bodies(self, tok: Token) -> str | None:
        """ "the newspaper Morgenpost Daily", "two rights groups, the X and the Y": a noun for a body
        whose apposition names organizations stands for them (a group of two stands for both)."""
        if tok.tag_ not in ("NN", "NNS"):
            return None
        if tok.dep_ == "appos" and self._token_key.get(tok.head.i, "").startswith("Organization:"):
            return self._token_key[tok.head.i]  # "the Halvorsen Institute, an organization that ..."
        named = [self._token_key[c.i] for c in kids(tok) if c.dep_ == "appos" and c.i in self._token_key]
        named = [k for k in named if k.startswith("Organization:")]
        if not named:
            return None
        appos = next(c for c in kids(tok) if c.dep_ == "appos" and self._token_key.get(c.i) == named[0])
        more = [self._token_key.get(c.i) for c in kids(appos) if c.dep_ == "conj"]
        named += [k for k in more if k is not None and k.startswith("Organization:")]
        if len(named) == 1:
            return named[0]
        key = self.group_key(tok)
        self._parts[key] = named
        return key

    def set_affiliations(self, person_org: dict[str, str]) -> None:
        """Tell the resolver which organization each person speaks for ("we" in their quotes)."""
        self.affiliation.update(person_org)

    # ----- groups ------------------------------------------------------------
    def group_label(self, tok: Token) -> str:
        """The noun phrase of an unnamed actor, without determiners, clauses or appositions."""
        return group_label(tok)

    def group_key(self, tok: Token, etype: str = "Group") -> str:
        """The key of the unnamed actor (or facility) headed by ``tok``, creating the entity if needed."""
        if tok.i in self._token_key:
            return self._token_key[tok.i]
        label = self.group_label(tok)
        lemma = tok.lemma_.lower()
        plural = tok.tag_ in ("NNS", "NNPS")
        definite = any(c.lower_ in ("the", "this", "that", "these", "those") for c in kids(tok) if c.dep_ == "det")
        words = {compact(w) for w in label.split()} - {compact(tok.text)}
        key = None

        def compatible(m: Mention) -> bool:
            old = self.entities[m.key]
            if old.label.split()[0].lower() in _GENERIC_QUANTIFIERS:
                return False  # "all civilian aircraft" is a kind: "the aircraft" is one of them, not it
            old_words = {compact(w) for a in old.aliases for w in a.split()}
            return m.plural == plural and words <= old_words

        if definite and lemma in ATTACKER_NOUNS:
            key = self._recent(tok.i, lambda m: m.type in ("Group", "Person") and m.plural == plural and any(
                a.split()[-1].lower() in ATTACKER_NOUNS for a in self.entities[m.key].aliases))
        if key is None and definite:
            key = self._recent(tok.i, lambda m: m.type == etype and m.key.endswith(":" + lemma) and compatible(m))
        if key is None:
            key = f"{etype}:{compact(label)}:{lemma}"
        ent = self.entities.get(key)
        if ent is None:
            self.entities[key] = Entity(key=key, label=label, type=etype, aliases={label})
        else:
            ent.mentions += 1
            ent.aliases.add(label)
        self._token_key[tok.i] = key
        if etype == "Place":
            self._things.add(key)
        self.mentions.append(Mention(key, tok.i, tok.i + 1, etype, plural, _subject(tok), _agent(tok)))
        self.mentions.sort(key=_START)
        return key

    def alias(self, key: str, same_as: str) -> None:
        """Record that two keys name one entity (an apposition or "identified X as Y")."""
        if key == same_as:
            return
        self._aliases[key] = same_as

    def canonical(self, key: str | None) -> str | None:
        """Follow aliases to the entity a key finally stands for."""
        seen = set()
        while key is not None and key in self._aliases and key not in seen:
            seen.add(key)
            key = self._aliases[key]
        return key

    # ----- resolution -----------------------------------------------------
    def named_key(self, tok: Token) -> str | None:
        """The named entity a token is part of, if any."""
        return self._token_key.get(tok.i) if tok.i in self._token_key and not self._token_key[tok.i].startswith("Group:") else None

    def set_role_holders(self, holders: dict[tuple[str, str], set[str]]) -> None:
        """Tell the resolver who holds which role where, for "the Belavian leader"; such a
        mention becomes a mention of that person."""
        self._holders = holders
        held: dict[str, str] = {}
        for m in self.mentions:
            if m.type == "Group" and m.end == m.start + 1:
                person = self._role_holder(self.doc[m.start])
                if person is not None:
                    held[m.key] = person
                    m.key, m.type = person, "Person"
        if held:
            self.coref.rekey(held)

    def resolve(self, tok: Token, allow_things: bool = False) -> str | None:
        """The entity a noun, name or pronoun refers to, or None (the fact is then dropped)."""
        key = self._resolve(tok, allow_things)
        if key is not None and key.startswith("Group:"):
            key = self._role_holder(tok) or key
        return self.canonical(key)

    def _role_holder(self, tok: Token) -> str | None:
        """"the Belavian leader", "the Treasury spokesman": a definite role description whose
        organization is named stands for the one person the article says holds that role there."""
        if tok.pos_ != "NOUN" or tok.tag_ != "NN" or not any(c.lower_ == "the" and c.dep_ == "det" for c in kids(tok)):
            return None
        role = tok.lemma_.lower()
        for mod in kids(tok):
            if mod.dep_ not in ("amod", "compound", "poss", "nmod") or mod.i > tok.i:
                continue
            org = self.canonical(self.org_of_modifier(mod))
            if org is None:
                continue
            people = set(self._holders.get((role, org), ()))
            if role == "leader" and not people:
                # "the Belavian leader": whoever leads it, president, prime minister or king
                people = {p for (r, o), ps in self._holders.items() if o == org and r in _LEADING_ROLES for p in ps}
            if len(people) == 1:
                return next(iter(people))
        return None

    def _resolve(self, tok: Token, allow_things: bool) -> str | None:  # noqa: C901 (24): a chain of construction rules; issue 33 step 2 makes them named rules
        known = self._token_key.get(tok.i)
        if known is not None:
            return known if allow_things or known not in self._things else None
        low = tok.lower_
        person = self._appos_person(tok) if tok.pos_ in ("NOUN", "PROPN") else None
        if person is not None:
            return person
        if low in ("country", "nation") and any(c.lower_ == "the" for c in kids(tok)):
            # "the country": the one the article is about, else the last one named
            return self.home_country() or self._recent(
                tok.i, lambda m: m.type == "Place" and not m.plural and m.key in self._countries())
        if low in _QUANTIFIERS and tok.pos_ in ("PRON", "DET"):
            return self._partitive(tok, allow_things) or self._the_two(tok)  # "each of the aliens"
        if tok.pos_ == "PRON" or tok.tag_ in ("PRP", "PRP$", "WP", "WDT"):
            if low in RELATIVE_PRONOUNS and tok.head.dep_ in ("relcl",):
                antecedent = tok.head.head
                if low in ("who", "whom"):
                    # "refugees from Belavia, Korvala and Zamundo who applied": people, not the last place
                    while antecedent.dep_ in ("conj", "pobj", "prep") and antecedent.ent_type_ in ("GPE", "LOC", "") \
                            and not is_human_noun(antecedent) and antecedent.head != antecedent:
                        antecedent = antecedent.head
                    key = self._resolve(antecedent, allow_things)
                    return key if key is not None and not key.startswith("Place:") else None
                return self._resolve(antecedent, allow_things)
            if low == "it" and expletive(tok):
                return None
            return self.pronoun(tok)
        if tok.ent_type_ == "NORP":
            return self._demonym_place(tok)
        if tok.lemma_.lower() in _GENERIC_BODIES:
            owner = next((c for c in kids(tok) if c.dep_ == "poss" and c.tag_ == "PRP$"), None)
            if owner is not None:
                person = self._resolve(owner, False)
                if person is not None and person in self.affiliation:
                    return self.affiliation[person]  # "her party" said by the Velmora party's spokeswoman
                bodies = {key for _, noun, key in self._described if noun == tok.lemma_.lower()}
                if person is not None and len(bodies) == 1:
                    return self.canonical(next(iter(bodies)))  # "his party said": the one party named
        if tok.pos_ == "NOUN":
            described = self._description_of(tok) or self._appos_bodies(tok)  # "the carmaker Voltro"
            if described is not None:
                return described
        if tok.pos_ in ("NOUN", "PROPN") and (is_human_noun(tok) or is_vehicle(tok)):
            return self._appos_bodies(tok) or self.group_key(tok)
        if _people_adjective(tok):
            return self.group_key(tok)
        if tok.pos_ in ("NOUN", "PROPN") and allow_things and tok.lemma_.lower() in FACILITY_NOUNS:
            return self.group_key(tok, etype="Place")
        if tok.pos_ == "NUM" or low in QUANTITY_NOUNS or tok.lemma_.lower() in QUANTITY_NOUNS or low in _QUANTIFIERS:
            part = self._partitive(tok, allow_things)
            if part is not None:
                return part
            if tok.pos_ == "NUM" and _counts_people(tok):
                return self.group_key(tok)
            pair = self._the_two(tok)
            if pair is not None:
                return pair
        return None

    def _the_two(self, tok: Token) -> str | None:
        """ "the two discussed", "both said": the last two people named, each of them."""
        bare = tok.lower_ == "both" or (tok.lower_ == "two" and any(c.lower_ == "the" for c in kids(tok)))
        if not bare or tok.dep_ not in SUBJECTS | {"dobj", "pobj"} or any(c.dep_ == "prep" for c in kids(tok)):
            return None
        start = self.doc[tok.sent.start - 1].sent.start if tok.sent.start > 0 else tok.sent.start
        people: list[str] = []
        for m in reversed(self.mentions):
            if m.start < start or len(people) == 2:
                break
            if m.end <= tok.i and m.type == "Person" and m.key not in people:
                people.append(m.key)
        if len(people) != 2:
            return None
        key = self.group_key(tok)
        self._parts[key] = people[::-1]
        return key

    def _partitive(self, tok: Token, allow_things: bool) -> str | None:
        """ "two of her cousins", "dozens of clerks": a part of a group is a group of its own;
        "one of the gunmen" is the one person among them, and "two of them" what "them" is."""
        of = next((c for c in kids(tok) if c.dep_ == "prep" and c.lower_ == "of"), None)
        whole = next((p for p in kids(of) if p.dep_ == "pobj"), None) if of is not None else None
        if whole is None:
            return None
        if tok.lower_ == "one":
            named = [self._token_key.get(c.i, "") for c in (*kids(whole), *kids(tok)) if c.dep_ == "appos"]
            person = next((k for k in named if k.startswith("Person:")), None)
            if person is not None:
                return person  # "one of the builders, Lars Vik": the one is named
        key = self._resolve(whole, allow_things)
        if key is None or tok.lower_ == "one" or whole.pos_ != "NOUN" or not key.startswith("Group:"):
            return key
        return self.group_key(tok)

    def pronoun(self, tok: Token) -> str | None:
        """Resolve a personal pronoun to the most salient compatible earlier mention (``coref``)."""
        return self.coref.pronoun(tok)

    def organization_span(self, toks: list[Token]) -> str:
        """Register capitalized tokens as one organization the model missed (or the country they
        name, "United States"); returns its key."""
        name = " ".join(t.text for t in toks)
        country = PLACE_ALIASES.get(name.lower())
        kind = "Organization" if country is None else "Place"
        key = f"Organization:{compact(name)}" if country is None else self.place(country)
        ent = self.entities.get(key)
        if ent is None:
            self.entities[key] = Entity(key=key, label=name, type="Organization", aliases={name})
        else:
            ent.mentions += 1
        for t in toks:
            self._token_key[t.i] = key
        self.mentions.append(Mention(key, toks[0].i, toks[-1].i + 1, kind, False, False))
        self.mentions.sort(key=_START)
        return key

    def _recent(self, before: int, pred: Callable[[Mention], bool]) -> str | None:
        found = [m for m in self.mentions if m.end <= before and pred(m)]
        return found[-1].key if found else None

    def is_first_person(self, tok: Token) -> bool:
        """Whether a pronoun is first person (its referent is the quoted speaker)."""
        return tok.lower_ in FIRST


#: Last words of an organization's name that say what kind of body it is -> the noun for it.
_GENERIC_HEADS = {
    "party": "party", "movement": "movement", "front": "front", "militia": "militia", "company": "company",
    "corp": "company", "corp.": "company", "corporation": "company", "inc": "company", "inc.": "company",
    "co": "company", "co.": "company", "ltd": "company", "ltd.": "company", "plc": "company", "llc": "company",
    "university": "university", "college": "college", "institute": "institute", "bank": "bank",
}
#: Last words of the roles that lead a country or body: "the X leader" is who holds one.
_LEADING_ROLES = frozenset("president minister premier chancellor king queen emir sultan monarch chairman "
                           "chairwoman chair leader head".split())
#: The sort key of mentions: text order.
_START = attrgetter("start")
#: Nouns for a person that say nothing but the gender: "the man" is someone named before.
_GENERIC_PEOPLE = {"man": "m", "woman": "f", "boy": "m", "girl": "f", "person": None}
#: Determiners of a kind, not of particular things ("all civilian aircraft").
_GENERIC_QUANTIFIERS = frozenset("all any every no each".split())
#: Words that take a part of a group ("some of the protesters").
_QUANTIFIERS = frozenset("some many most several both all each few none".split())
#: Entity labels of numbers that count no people.
_NOT_PEOPLE_COUNTS = frozenset("MONEY PERCENT DATE TIME QUANTITY ORDINAL".split())


def _people_adjective(tok: Token) -> bool:
    """ "gave cash to the poor", "the wounded were flown out": "the" and an adjective heading an
    argument name the people it describes."""
    return (tok.pos_ in ("ADJ", "VERB") and tok.tag_ in ("JJ", "VBN") and tok.dep_ in _ARGUMENT_DEPS
            and any(c.dep_ == "det" and c.lower_ == "the" for c in kids(tok))
            and not any(c.dep_ in ("prep", "advmod") for c in kids(tok)) and tok.ent_type_ == "")


def _subject(tok: Token) -> bool:
    """Whether a mention is its clause's subject, or in apposition to it ("X's wife, Sara, wept")."""
    return tok.dep_ in SUBJECTS or (tok.dep_ == "appos" and tok.head.dep_ in SUBJECTS)


def _agent(tok: Token) -> bool:
    """Whether a mention is the "by" agent of a passive (its doer)."""
    return tok.dep_ == "pobj" and tok.head.dep_ == "agent"


def _counts_people(num: Token) -> bool:
    """ "killing 40 and wounding 90", "12 were arrested": a bare number as the object (or passive
    subject) of a verb done to people counts people."""
    if num.ent_type_ in _NOT_PEOPLE_COUNTS or any(c.dep_ == "prep" for c in kids(num)):
        return False
    arg = num
    while arg.dep_ == "conj" and arg.head.pos_ == "NUM":
        arg = arg.head
    gapped = arg.dep_ == "nsubj" and elided_passive(arg.head)  # "... killed and 12 wounded"
    return (arg.dep_ in ("dobj", "nsubjpass") or gapped) and arg.head.lemma_.lower() in PERSON_PATIENT_VERBS
