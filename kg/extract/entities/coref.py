"""What pronouns refer to: he/she/they/it by salience, I/we inside a quotation by its speaker.

``Coreference`` works on the mentions an ``EntityIndex`` has registered (names and unnamed
groups, in text order) and asks the index to resolve the subject of a reporting verb when it
looks for the speaker of a quotation. It sees the index through ``MentionIndex`` (``mentions.py``):
the index builds it, so it cannot import the index.
"""
from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from operator import attrgetter

from spacy.tokens import Span, Token

from ...nlp.lexicon import COLLECTIVE_NOUNS, FEMALE_WORDS, FIRST_PERSON, MALE_WORDS, REPORTING_VERBS
from ..grammar.columns import kids
from ..grammar.labels import NOUN_SUBJECTS, SUBJECTS
from .groups import PAIR_NOUNS, VEHICLE_NOUNS, is_human_noun
from .mentions import Mention, MentionIndex

MALE = frozenset({"he", "him", "his", "himself"})
FEMALE = frozenset({"she", "her", "hers", "herself"})
PLURAL = frozenset({"they", "them", "their", "theirs", "themselves"})
NEUTER = frozenset({"it", "its", "itself"})
_THIRD = MALE | FEMALE | PLURAL | NEUTER
FIRST = FIRST_PERSON
_FIRST_PLURAL = frozenset({"we", "us", "our", "ours", "ourselves"})
#: Sentences a plural pronoun may skip back to its antecedent (0: the previous sentence).
_PLURAL_REACH = 1
#: The sort key of mentions: text order.
_START = attrgetter("start")
#: Name mentions that make a person the article's topic, and sentences back a topic stays one.
_TOPIC_MENTIONS = 3
_TOPIC_REACH = 3
#: Characters a pronoun may reach back to the sentence of its antecedent.
_REACH_CHARS = 400


class Coreference:
    """Resolves personal pronouns of one article to the entities of its ``EntityIndex``."""

    def __init__(self, index: MentionIndex) -> None:
        self.index = index
        self.quotes = quote_regions(index.cols.text)
        self._quote_starts = [a for a, _ in self.quotes]
        self._token_quoted: dict[int, bool] = {}
        #: third-person pronouns already resolved, by token index (None: resolved to nothing)
        self._chained: dict[int, str | None] = {}
        #: entity key -> "m" or "f", where a title, a noun or an earlier he/she tells
        self.gender: dict[str, str] = {}
        #: the person the article is about, if one stands out (``_topic``)
        self.topic: str | None = None
        self._learn_gender()

    def _learn_gender(self) -> None:
        """A person's gender as the text shows it: a title or gendered noun next to the name
        ("Ms. Okafor", "the spokeswoman, Ann Lee", "his brother Tomas"), or a group's head noun.
        Each mention votes: a parse that sets a name beside another person's noun ("his wife Ann,
        Lee was raised ...") is outvoted by the other mentions; a tie tells nothing."""
        doc = self.index.doc
        votes: dict[str, Counter[str]] = {}
        for m in self.index.mentions:
            if m.type == "Group":
                words = {m.key.rsplit(":", 1)[-1]}
            elif m.type == "Person":
                root = doc[m.end - 1]
                near = [doc[m.start - 1]] if m.start > 0 else []
                near += [c for c in kids(root) if c.dep_ in ("appos", "compound") and not (m.start <= c.i < m.end)
                         and all(t.is_punct for t in doc[m.end:c.left_edge.i])]  # next to the name
                if (root.dep_ == "appos" and all(t.is_punct for t in doc[root.head.i + 1:m.start])) or (
                        root.dep_ == "compound" and root.head.i >= m.end):
                    near.append(root.head)  # "the spokeswoman, Ann Lee": an apposition next to the name
                words = {t.lower_ for t in near} | {t.lemma_.lower() for t in near}
            else:
                continue
            male, female = bool(words & MALE_WORDS), bool(words & FEMALE_WORDS)
            if male != female:
                votes.setdefault(m.key, Counter())["m" if male else "f"] += 1
        for key, count in votes.items():
            if count["m"] != count["f"]:
                self.gender[key] = "m" if count["m"] > count["f"] else "f"

    def chain(self) -> None:
        """Resolve the third-person pronouns in text order, each becoming a mention of what it
        refers to: "Lee ... He ... He ..." keeps Lee the topic, as a reader does."""
        doc = self.index.doc
        self.topic = self._topic()
        tags = {doc.vocab.strings.add(t) for t in ("PRP", "PRP$")}
        for i, tag in enumerate(doc.to_array("TAG").tolist()):
            if tag not in tags:
                continue
            tok = doc[i]
            low = tok.lower_
            if low not in _THIRD or (low == "it" and expletive(tok)):
                continue
            key = self._chained[i] = self.pronoun(tok)
            if key is None:
                continue
            if low in ("he", "she"):
                self.gender.setdefault(key, "m" if low == "he" else "f")  # "Lee said she ...": Lee is a woman
            ent = self.index.entities[key]
            mention = Mention(key, i, i + 1, ent.type, low in PLURAL, tok.dep_ in NOUN_SUBJECTS)
            bisect.insort(self.index.mentions, mention, key=_START)

    def _topic(self) -> str | None:
        """The person the article is about (an obituary's, a profile's): named in its first two
        sentences (the headline and the lead) and named at least three times, twice as often as
        anyone else; None when no one stands out so."""
        doc = self.index.doc
        sents = self.index.cols.sents
        lead_end = sents[1].end if len(sents) > 1 else len(doc)
        counts = Counter(m.key for m in self.index.mentions if m.type == "Person")
        ranked = counts.most_common(2)
        if not ranked or ranked[0][1] < _TOPIC_MENTIONS or (len(ranked) > 1 and ranked[0][1] < 2 * ranked[1][1]):
            return None
        key = ranked[0][0]
        return key if any(m.key == key and m.start < lead_end for m in self.index.mentions) else None

    def topic_near(self, sent: Span) -> bool:
        """Whether the article's topic was named, or referred to, in one of the sentences just before."""
        return self._topic_near(sent, lambda m: True)

    def _topic_near(self, sent: Span, want: Callable[[Mention], bool]) -> bool:
        """Whether the article's topic fits a pronoun and was named, or referred to, in one of the
        sentences just before it (it is still what the text is about)."""
        if self.topic is None:
            return False
        doc = self.index.doc
        start = sent.start
        for _ in range(_TOPIC_REACH):
            if start == 0:
                break
            start = doc[start - 1].sent.start
        return any(m.key == self.topic and start <= m.start < sent.start and want(m) for m in self.index.mentions)

    def rekey(self, keys: dict[str, str]) -> None:
        """Pronouns resolved to a description now known to be a person refer to that person."""
        for i, key in self._chained.items():
            if key in keys:
                self._chained[i] = keys[key]
        for m in self.index.mentions:
            if m.key in keys and m.end == m.start + 1 and self.index.doc[m.start].pos_ == "PRON":
                m.key, m.type = keys[m.key], "Person"

    def pronoun(self, tok: Token) -> str | None:  # noqa: C901 (19): a chain of construction rules; issue 33 step 2 makes them named rules
        """Resolve a personal pronoun to the most salient compatible earlier mention."""
        if tok.i in self._chained:
            return self._chained[tok.i]
        low = tok.lower_
        index = self.index
        want: Callable[[Mention], bool]
        if low in MALE or low in FEMALE:
            other = "f" if low in MALE else "m"
            want = lambda m: (m.type == "Person" or (  # noqa: E731
                m.type == "Group" and not m.plural and self._is_person_group(m))) and self.gender.get(m.key) != other
        elif low in PLURAL:
            # Plural groups anywhere; an organization only as a subject ("the party ... they").
            want = lambda m: (m.plural and m.type != "Place") or (  # noqa: E731
                (m.type == "Organization" or self._body(m)) and (m.subject or m.agent))
        elif low == "it" and tok.dep_ in ("dobj", "pobj", "dative"):
            want = lambda m: (m.type == "Organization" or self._vehicle(m)) and m.start >= tok.sent.start  # noqa: E731
        elif low in FIRST:
            return self.first_person(tok)
        elif low == "its":
            subject = _own_subject(tok)
            if subject is not None:
                # "the board elected Lee as its chair": "its" is the clause's own subject, named or not
                return _body_of(index, subject)
            countries = index.countries()
            want = lambda m: m.type == "Organization" or m.key in countries or self._vehicle(m)  # noqa: E731
        elif low in NEUTER:
            # "it" is often no entity at all ("it was damning"): only a subject organization or country,
            # or an unnamed body ("the ministry fired them ... it said").
            countries = index.countries()
            want = lambda m: (m.type == "Organization" or m.key in countries or self._vehicle(m)  # noqa: E731
                              or self._body(m)) and (m.subject or m.agent)
        else:
            return None
        sent = tok.sent
        clause = tok.head.head if tok.head.dep_ in ("prep", "agent") else tok.head  # "met with him"
        mentions = index.mentions
        if self.quotes and self.quoted(tok.idx) is None:
            # '"... Lee and Ortiz ...," he said': a name quoted is not who speaks around the quote
            mentions = [m for m in mentions if not self._quoted_token(m.start)]
        adjuncts = _own_adjuncts(tok) if low in MALE or low in FEMALE else []
        same = [m for m in mentions if sent.start <= m.start and m.end <= tok.i and want(m)
                and not (tok.dep_ != "poss" and _co_argument(index.doc[m.end - 1], clause))
                and not any(a.left_edge.i <= m.start and m.end - 1 <= a.right_edge.i for a in adjuncts)]
        if same:
            subj = [m for m in same if m.subject] or [m for m in same if m.agent]
            if low in PLURAL:
                # "they" in its own sentence: the nearest plural group ("police held the men as
                # they left"), before an organization that is only grammatically singular.
                plural = [m for m in same if m.plural and m.type != "Organization"]
                return (plural or same)[-1].key
            return (subj[-1] if subj else same[-1]).key
        prev = [m for m in mentions if m.end <= sent.start and want(m)]
        if not prev:
            return None
        last_sent = index.doc[prev[-1].start].sent
        if sent.start - last_sent.end > _REACH_CHARS:
            return None
        if low in PLURAL and _sentences_between(last_sent, sent) > _PLURAL_REACH:
            return None  # "they" reaches back less far than "he": groups are seldom topics for long
        in_last = [m for m in prev if m.start >= last_sent.start]
        if low in PLURAL and tok.dep_ == "nsubjpass":
            # "Police arrested three protesters. They were released later": the ones acted on before
            # are the ones acted on now
            done_to = [m for m in in_last if not m.subject and not m.agent and m.plural and m.type == "Group"]
            if done_to:
                return done_to[-1].key
        if low in PLURAL and tok.dep_ == "pobj" and tok.head.head.pos_ in ("NUM", "PRON", "NOUN"):
            # "Police arrested three men. One of them ...": a part of a group that was acted on
            objects = [m for m in in_last if not m.subject and not m.agent]
            if objects:
                return objects[-1].key
        subj = [m for m in in_last if m.subject] or [m for m in in_last if m.agent]
        if not subj and (low in MALE or low in FEMALE) and self._topic_near(sent, want):
            # "The pair founded Acme, adding Bo Lee to its board. He served ...": no one fitting acted
            # in the sentence before; the man the article is about, not the last man named
            return self.topic
        return (subj[0] if subj else in_last[0]).key

    def quoted(self, char: int) -> tuple[int, int] | None:
        """The quotation a character offset lies in, if any."""
        i = bisect.bisect_right(self._quote_starts, char) - 1
        return self.quotes[i] if i >= 0 and char < self.quotes[i][1] else None

    def _quoted_token(self, i: int) -> bool:
        """Whether token ``i`` stands inside a quotation (memoised: asked for every mention)."""
        found = self._token_quoted.get(i)
        if found is None:
            found = self._token_quoted[i] = self.quoted(self.index.cols.idx[i]) is not None
        return found

    def first_person(self, tok: Token) -> str | None:
        """I/we inside a quotation: the speaker, or for "we" the speaker's organization."""
        region = self.quoted(tok.idx)
        if region is None:
            return None
        speaker = self.speaker(region)
        if speaker is None:
            return None
        if tok.lower_ in _FIRST_PLURAL and speaker.startswith("Person:"):
            return self.index.affiliation.get(speaker) or self._title_body(speaker)
        return speaker

    def _title_body(self, person: str) -> str | None:
        """The body a person's title names ("police chief Ann Lee": the police), for "we" in her quote."""
        doc = self.index.doc
        for m in self.index.mentions:
            if m.key != person:
                continue
            for i in range(max(0, m.start - 3), m.start):
                t = doc[i]
                if t.is_lower and t.lemma_.lower() in COLLECTIVE_NOUNS and t.i < t.head.i < m.end:
                    key = self.index.resolve(t)
                    if key is not None and not key.startswith("Person:"):
                        return key
        return None

    def speaker(self, region: tuple[int, int]) -> str | None:
        """The subject of a reporting verb outside the quotation, in the sentences around it."""
        start, end = region
        doc = self.index.doc
        cols = self.index.cols
        sents = [s for s in cols.sents if s.end_char > start - 2 and s.start_char < end + 2]
        if not sents:
            return None
        nxt = doc[sents[-1].end].sent if sents[-1].end < len(doc) else None
        candidates = sents + ([nxt] if nxt is not None else [])
        for sent in candidates:
            for i in range(sent.start, sent.end):
                if start <= cols.idx[i] < end or cols.lemma_[i] not in REPORTING_VERBS or cols.pos_[i] != "VERB":
                    continue
                t = doc[i]
                for c in kids(t):
                    if c.dep_ == "nsubj" and not (start <= c.idx < end):
                        key = self.index.resolve(c)
                        if key is not None:
                            return key
        return None

    @staticmethod
    def _body(m: Mention) -> bool:
        """Whether a mention is of an unnamed body ("the ministry", "the company")."""
        return m.type == "Group" and not m.plural and m.key.rsplit(":", 1)[-1] in COLLECTIVE_NOUNS

    @staticmethod
    def _vehicle(m: Mention) -> bool:
        """Whether a mention is of an unnamed vehicle ("the submarine ... it")."""
        return m.type == "Group" and not m.plural and m.key.rsplit(":", 1)[-1] in VEHICLE_NOUNS

    @staticmethod
    def _is_person_group(m: Mention) -> bool:
        """Whether a singular group is one person ("a gunman"), not a body ("the court", "a team")."""
        head = m.key.rsplit(":", 1)[-1]
        return head not in COLLECTIVE_NOUNS and head not in PAIR_NOUNS  # "the duo": two people


def _own_subject(tok: Token) -> Token | None:
    """The subject before a possessive pronoun of its own clause, when that subject is a thing or a
    body (a noun or name that is no person and no pronoun), else None."""
    verb = tok.head
    for _ in range(6):
        if verb.pos_ in ("VERB", "AUX") or verb.head.i == verb.i:
            break
        verb = verb.head
    subjects = [c for c in kids(verb) if c.dep_ in NOUN_SUBJECTS and c.i < tok.i]
    if not subjects:
        return None
    s = subjects[0]
    lemma = s.lemma_.lower()
    if (s.pos_ not in ("NOUN", "PROPN") or s.ent_type_ == "PERSON" or s.tag_ in ("NNS", "NNPS")
            or (is_human_noun(s) and lemma not in COLLECTIVE_NOUNS)):
        return None
    return s


def _body_of(index: MentionIndex, subject: Token) -> str | None:
    """The organization or place a subject names: itself, or for an unnamed body the one its
    modifiers name ("the Velmont Bank board", "the government of Norway"); None when neither."""
    key = index.resolve(subject)
    if key is not None and key.startswith(("Organization:", "Place:")):
        return key
    mods = [c for c in kids(subject) if c.dep_ in ("compound", "poss", "nmod", "amod") and c.i < subject.i]
    mods += [p for c in kids(subject) if c.dep_ == "prep" and c.lower_ == "of" for p in kids(c) if p.dep_ == "pobj"]
    for mod in mods:
        key = index.canonical(index.org_of_modifier(mod))
        if key is not None and key.startswith(("Organization:", "Place:")):
            return key
    return None


def _co_argument(tok: Token, clause: Token) -> bool:
    """Whether a mention is an argument of the pronoun's own clause, or in apposition to one ("One
    of the guards, Lars Vik, testified against him": him is not Vik)."""
    return tok.head == clause or (tok.dep_ == "appos" and (tok.head.head == clause or (
        tok.head.dep_ == "pobj" and tok.head.head.head.head == clause)))


def _own_adjuncts(tok: Token) -> list[Token]:
    """ "After serving on Ann Lee's campaign as her deputy, he joined ...": the subjectless clauses before
    a subject pronoun whose doer is that pronoun. Names inside them are what he did it to or as, not him."""
    if tok.dep_ not in NOUN_SUBJECTS:
        return []
    verb = tok.head
    out = []
    for c in kids(verb):
        if c.i > tok.i:
            continue
        clause = c if c.dep_ == "advcl" else next((p for p in kids(c) if p.dep_ == "pcomp"), None) if c.dep_ == "prep" else None
        if clause is not None and clause.tag_ in ("VBG", "VBN") and not any(x.dep_ in SUBJECTS for x in kids(clause)):
            out.append(c)
    return out


def _sentences_between(earlier: Span, later: Span) -> int:
    """How many sentences lie strictly between two sentences of a Doc."""
    return sum(1 for s in earlier.doc[earlier.end:later.start].sents)


_QUOTE_OR_NEWLINE = re.compile('[\n"\u201c\u201d]')


def quote_regions(text: str) -> list[tuple[int, int]]:
    """Character spans inside double quotation marks ("..." and “...”), within a paragraph."""
    regions: list[tuple[int, int]] = []
    open_at: int | None = None
    for m in _QUOTE_OR_NEWLINE.finditer(text):  # only these characters matter: no loop over the others
        i, ch = m.start(), m.group()
        if ch == "\n" and text[i - 1:i] == "\n":
            open_at = None
        elif ch == "\u201c" or (ch == '"' and open_at is None):
            open_at = i + 1
        elif (ch == "\u201d" or ch == '"') and open_at is not None:
            regions.append((open_at, i))
            open_at = None
    if open_at is not None:
        regions.append((open_at, len(text)))
    return regions


def expletive(tok: Token) -> bool:
    """ "it was damning that ...", "it is time to ...": an "it" that refers to nothing."""
    head = tok.head
    if tok.dep_ not in NOUN_SUBJECTS:
        return False
    if (tok.dep_ == "nsubjpass" or head.lemma_ in ("seem", "appear")) and any(
            c.dep_ in ("ccomp", "xcomp", "oprd") and c.pos_ in ("VERB", "AUX") for c in kids(head)):
        return True  # "it is estimated (that) ...", "it seems (that) ...": the clause is the subject
    for c in kids(head):
        if c.dep_ in ("ccomp", "xcomp", "csubj") and any(m.dep_ in ("mark", "aux") and m.lower_ in ("that", "to")
                                                         for m in kids(c)):
            return True
        if c.dep_ == "attr" and (c.lemma_ in ("time", "clear", "shame", "pity")
                                 or (c.pos_ == "NOUN" and not is_human_noun(c))):
            return True  # "it is time to", "It's a useful rule": no entity
    return head.lemma_ == "be" and any(c.dep_ == "acomp" for c in kids(head))
