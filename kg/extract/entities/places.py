"""Places and the bodies named by them: countries, nationality adjectives, the headline's country.

``PlaceIndex`` is the part of ``EntityIndex`` that knows geography: which places of an article
are countries, what "Belavian" or a misspelt "Belavain" names, which country an article is
about, and the two places of "East and West Germany".
"""
from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Doc, Span, Token

from ...model.facts import Entity
from ...model.names import compact
from ...nlp.lexicon import DEMONYMS, ETHNIC_ADJECTIVES, PARTY_ADJECTIVES, PLACE_ALIASES, RELIGIOUS_ADJECTIVES
from .mentions import Mention


class PlaceIndex:
    """Geography of one article's entities (a base of ``EntityIndex``, which fills these fields)."""

    doc: Doc
    ents: tuple[Span, ...]
    entities: dict[str, Entity]
    mentions: list[Mention]
    _token_key: dict[int, str]
    _parts: dict[str, list[str]]
    _headline: dict[str, int]
    _aliases: dict[str, str]

    def _split_shared_heads(self) -> None:
        """"East and West Germany" names two places that share their head word: as an actor or
        a target it stands for East Germany and West Germany (``parts``). Only compass words are
        read so; "Bosnia and Herzegovina" and "Trinidad and Tobago" are one country each."""
        for key, ent in list(self.entities.items()):
            m = _SHARED_HEAD.match(ent.label)
            if ent.type == "Place" and m and m.group(1).lower() != m.group(2).lower():
                self._parts[key] = [self.place(f"{m.group(1)} {m.group(3)}"), self.place(f"{m.group(2)} {m.group(3)}")]

    def parts(self, key: str | None) -> list[str | None]:
        """The entities a key stands for as an actor or target: itself, or both places of "East
        and West Germany"."""
        return list(self._parts.get(key, [key])) if key is not None else [None]

    def _fold_compass_names(self) -> None:
        """"the South" in an article that names one country "South ..." is that country: news
        shortens "South Sudan" so. Only "the" + a compass word tagged as a place,
        and only when exactly one place of the article begins with that word and is a country or
        the part of one ("South Sudan" of Sudan; not "South Dakota"); with "South Sudan" and
        "South Africa" both named, or none, "the South" stays a place of its own."""
        countries = {k for k, e in self.entities.items() if e.type == "Place" and (
            compact(e.label) in _KNOWN_COUNTRIES or compact(e.label.partition(" ")[2]) in _KNOWN_COUNTRIES)}
        for key, ent in list(self.entities.items()):
            word = ent.label.lower()
            if ent.type != "Place" or word not in _COMPASS:
                continue
            mentions = [m for m in self.mentions if m.key == key]
            if not mentions or any(m.start == 0 or self.doc[m.start - 1].lower_ != "the" for m in mentions):
                continue
            matches = [k for k in countries if k != key and self.entities[k].label.lower().split()[0] == word
                       and " and " not in self.entities[k].label.lower()]
            if len(matches) != 1:
                continue
            self._merge(key, matches[0])

    def _merge(self, key: str, into: str) -> None:
        """Make every mention of ``key`` a mention of ``into`` (the longer name becomes the label)."""
        ent, target = self.entities.pop(key), self.entities[into]
        self._aliases[key] = into  # what was resolved to ``key`` before now stands for ``into``
        for m in self.mentions:
            if m.key == key:
                m.key, m.type = into, target.type
        for i, k in list(self._token_key.items()):
            if k == key:
                self._token_key[i] = into
        target.mentions += ent.mentions
        if ent.type == target.type:  # a description merged into a name gives it no name
            target.aliases |= ent.aliases
            if len(ent.label) > len(target.label) and target.type != "Place":
                target.label = ent.label

    def country_of(self, adjective: str) -> str | None:
        """The country (or place) an adjective of nationality names: by the demonym table, or a
        place of the article or a known country it is made from ("Korvalan" of "Korvala")."""
        low = adjective.lower()
        if low in DEMONYMS:
            return DEMONYMS[low]
        if not low.isalpha() or len(low) < 5:
            return None
        # the known countries' matches are the same in every article: looked up once per word
        places = {e.label for e in self.entities.values() if e.type == "Place"} - _COUNTRY_NAMES
        found = _made_from(low, places) | _known_made_from(low)
        if not found and len(low) >= 7:
            found = _misspelt_from(low, places) | _known_misspelt_from(low)
        return next(iter(found)) if len(found) == 1 else None

    def _nationality(self, adjective: str) -> bool:
        """Whether an adjective names a nationality, religion or people rather than a party: those
        are never organizations ("Shiite militias", "Korvalan troops")."""
        low = adjective.lower()
        if low in PARTY_ADJECTIVES:
            return False
        return low in RELIGIOUS_ADJECTIVES or low in ETHNIC_ADJECTIVES or self.country_of(low) is not None

    def _demonym_place(self, tok: Token) -> str | None:
        country = self.country_of(tok.lower_)
        if country is None:
            return None
        return self.place(country, tok)

    def place(self, name: str, tok: Token | None = None) -> str:
        """The key of a country or place by name, creating it when only a demonym named it."""
        key = f"Place:{compact(name)}"
        if key not in self.entities:
            self.entities[key] = Entity(key=key, label=name, type="Place", aliases={name}, mentions=0)
        if tok is not None:
            self.entities[key].mentions += 1
        return key

    def org_of_modifier(self, tok: Token) -> str | None:
        """The organization or country a modifier token names ("Treasury", "Belavian", "Tarnow police")."""
        if tok.i in self._token_key:
            return self._token_key[tok.i]
        if tok.ent_type_ == "NORP" or tok.lower_ in DEMONYMS:
            span = [e for e in self.ents if e.start <= tok.i < e.end]
            text = span[0].text.lower() if span else tok.lower_
            country = self.country_of(text) or self.country_of(tok.lower_)
            if country:
                return self.place(country, tok)
            if span and span[0].label_ == "NORP" and span[0][-1].tag_ not in ("NNS", "NNPS") \
                    and not self._nationality(text):
                # A party or movement named by its adjective ("a Green MP").
                name = span[0].text
                key = f"Organization:{compact(name)}"
                if key not in self.entities:
                    self.entities[key] = Entity(key=key, label=name, type="Organization", aliases={name}, mentions=0)
                self.entities[key].mentions += 1
                return key
        return None

    def countries(self) -> set[str]:
        """Keys of the article's places that are countries (or unions of them)."""
        return self._countries()

    def _countries(self) -> set[str]:
        """Keys of places that are countries or unions of them (by the demonym and alias tables)."""
        return {k for k, e in self.entities.items() if e.type == "Place" and compact(e.label) in _KNOWN_COUNTRIES}

    def set_headline(self, title: str | None) -> None:
        """The article's headline: a country it names ("Belavian envoy recalled") is what the
        article is about, and weighs as much as three mentions in the body for ``home_country``."""
        self._headline = {}
        words = re.findall(r"[A-Za-z][A-Za-z.'-]*", title or "")
        for n in (3, 2, 1):
            for i in range(len(words) - n + 1):
                phrase = " ".join(words[i:i + n])
                if not phrase[:1].isupper():
                    continue  # "tell us" is no country
                country = DEMONYMS.get(phrase.lower()) or PLACE_ALIASES.get(phrase.lower())
                if country is None and compact(phrase) in _KNOWN_COUNTRIES:
                    country = phrase
                if country is not None:
                    key = self.place(country)
                    self._headline[key] = self._headline.get(key, 0) + _HEADLINE_WEIGHT

    def home_country(self) -> str | None:
        """The country an article is about, when one clearly dominates its mentions (3+ and twice the next)."""
        headline = self._headline
        counts = sorted(((self.entities[k].mentions + headline.get(k, 0), k) for k in self._countries() | set(headline)),
                        reverse=True)
        if not counts or counts[0][0] < 3 or (len(counts) > 1 and counts[0][0] < 2 * counts[1][0]):
            return None
        return counts[0][1]


def _made_from(low: str, names: set[str] | frozenset[str]) -> set[str]:
    """The names a lowercase adjective of nationality is made from ("korvalan" of "Korvala")."""
    if not low.endswith(_DEMONYM_ENDINGS):
        return set()
    return {n for n in names if len(n) > 3 and " " not in n and low.startswith(n.lower()[:max(4, len(n) - 2)])
            and abs(len(low) - len(n)) <= 3}


def _misspelt_from(low: str, names: set[str] | frozenset[str]) -> set[str]:
    """The names whose adjective a misspelt one ("belavain") is one edit from."""
    return {n for n in names if " " not in n and n.lower() != low and any(
        _one_edit(low, n.lower().rstrip("aeiouy") + end) for end in _DEMONYM_ENDINGS)}


@lru_cache(maxsize=8192)
def _known_made_from(low: str) -> frozenset[str]:
    return frozenset(_made_from(low, _COUNTRY_NAMES))


@lru_cache(maxsize=8192)
def _known_misspelt_from(low: str) -> frozenset[str]:
    return frozenset(_misspelt_from(low, _COUNTRY_NAMES))


def _one_edit(a: str, b: str) -> bool:
    """Whether two words differ by at most one letter changed, added, dropped or two swapped."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return (a[i + 1:] == b[i + 1:] or a[i + 1:] == b[i:] or a[i:] == b[i + 1:]
            or (a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1]))


#: How many body mentions a country named in the headline counts for.
_HEADLINE_WEIGHT = 3
_COMPASS = frozenset(("north", "south", "east", "west"))
_SHARED_HEAD = re.compile(r"^(North|South|East|West) and (North|South|East|West) (\S.*)$")
_KNOWN_COUNTRIES = frozenset(compact(c) for c in (*DEMONYMS.values(), *PLACE_ALIASES.values()))
_COUNTRY_NAMES = frozenset((*DEMONYMS.values(), *PLACE_ALIASES.values()))
#: Endings of adjectives of nationality ("Korvalan", "Korvalese", "Korvali", "Korvalish").
_DEMONYM_ENDINGS = ("an", "ian", "ese", "ish", "i")
