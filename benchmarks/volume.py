"""Volume for the benchmarks: the real seed articles with their entity names varied.

Two generators, both deterministic for a given seed:

- ``TextGenerator``: article *texts* for builds. Each generated article is one of the seed
  articles (``seeds/*.txt``; whole, or its first paragraphs with ``min_words``) in which every
  name the spaCy model found (PERSON, ORG, GPE) is replaced, consistently within the article, by
  another name of the same kind; a person's surname alone is replaced by the new surname. So the
  parse and extraction costs stay those of real news text, and the entities vary from article to
  article as in a real corpus.
- ``FactsGenerator``: ``ArticleFacts`` without any parse: the facts extracted once from the seeds,
  with the labels and aliases of their persons, organizations and places (and every text that
  names them: sentences, article text, title) varied the same way, under new article ids and
  dates. Offsets are kept as extracted (the varied sentences may differ in length from the
  originals: no store or query looks at that).

Names are drawn from pools with Zipf-like weights (a few names recur in many articles, most in a
few, as in news) and with probability ``keep`` the original name is kept, so the seeds' own
entities ("Hamid Karzai", "North Korea", "Taliban": the canned queries' VALUES) occur in the
generated data too.
"""
from __future__ import annotations

import bisect
import hashlib
import itertools
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from kg.model.facts import Article, ArticleFacts, Entity

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"

FIRST = """Aaron Abdul Adam Ahmed Aisha Alexei Ali Amina Ana Andrea Anna Antonio Arjun Ayumi Bruno Carlos
Carmen Chen Chloe Daniel David Dmitri Elena Emma Fatima Felipe Francesca Gabriel Hassan Helena Hiroshi
Ibrahim Ines Irina Isabel Ivan James Javier Jean Joao John Jorge Jose Julia Karim Katarzyna Kenji Laura
Leila Li Lucas Luis Maria Mariam Mark Marta Mehmet Michael Miguel Mohammed Nadia Naveen Nikolai Olga
Omar Pablo Paul Pedro Peter Priya Rahul Rania Ricardo Robert Samir Sara Sergei Sofia Sunil Tariq Thomas
Tomas Viktor Wei Yuki Yusuf Zainab Zhang""".split()
LAST = """Abbasi Adeyemi Alvarez Andersen Bakr Barzani Becker Benali Bianchi Borisov Brennan Castillo Chaudhry
Costa Dahl Delgado Dimitrov Duarte Eriksen Farouk Fischer Fonseca Garcia Gonzaga Haddad Hakimi Hansen
Hoffmann Hosseini Ibrahimi Ivanova Jansen Jovanovic Kaplan Karimi Kato Kaur Khalil Kim Kowalski Kuznetsov
Larsen Lindqvist Lopez Malik Marino Medina Mendes Meyer Moreau Murray Nakamura Navarro Nguyen Novak
Okafor Okonkwo Oliveira Orlov Park Pereira Petrov Popescu Qureshi Rahimi Ramos Rashid Reyes Romano
Rossi Sahin Salazar Santos Schmidt Sato Serrano Shah Silva Sokolov Stein Suzuki Tanaka Torres Toure
Vargas Vasquez Volkov Wagner Walsh Weber Yilmaz Yusuf Zaidi Zhou Zimmermann""".split()
PLACES = """Afghanistan Albania Algeria Angola Argentina Armenia Australia Austria Azerbaijan Bahrain
Bangladesh Belarus Belgium Bolivia Bosnia Brazil Bulgaria Cambodia Cameroon Canada Chad Chile China
Colombia Croatia Cuba Cyprus Denmark Ecuador Egypt Eritrea Estonia Ethiopia Finland France Georgia Germany
Ghana Greece Guatemala Haiti Honduras Hungary Iceland India Indonesia Iran Iraq Ireland Israel Italy
Jamaica Japan Jordan Kazakhstan Kenya Kuwait Laos Latvia Lebanon Liberia Libya Lithuania Madagascar
Malawi Malaysia Mali Malta Mexico Moldova Mongolia Morocco Mozambique Myanmar Namibia Nepal Nicaragua
Niger Nigeria Norway Oman Pakistan Panama Paraguay Peru Poland Portugal Qatar Romania Russia Rwanda
Senegal Serbia Singapore Slovakia Somalia Spain Sudan Sweden Switzerland Syria Taiwan Tajikistan
Tanzania Thailand Tunisia Turkey Uganda Ukraine Uruguay Uzbekistan Venezuela Vietnam Yemen Zambia
Zimbabwe Ankara Athens Baghdad Bangkok Beirut Berlin Bogota Brussels Cairo Caracas Damascus Dhaka Doha
Geneva Hanoi Havana Islamabad Jakarta Kabul Karachi Khartoum Kinshasa Lagos Lima Lisbon London Madrid
Manila Moscow Mumbai Nairobi Oslo Ottawa Paris Prague Quito Riyadh Rome Santiago Seoul Sydney Tehran
Tokyo Tripoli Tunis Vienna Warsaw""".split() + [
    "South Africa", "New Zealand", "Saudi Arabia", "Sri Lanka", "Costa Rica", "El Salvador",
    "United Kingdom", "South Korea", "North Macedonia", "Ivory Coast", "Buenos Aires", "Addis Ababa",
    "New Delhi", "Hong Kong", "Kuala Lumpur", "Mexico City", "Rio de Janeiro", "Tel Aviv",
]
ORG_HEADS = """Agency Alliance Army Association Authority Bank Broadcasting Bureau Coalition Commission Committee
Company Congress Council Court Federation Foundation Front Group Guard Institute League Ministry Movement
Network Office Party Police Press Service Society Times Tribune Union""".split()
ORG_WORDS = """National People's Democratic Federal Central United Independent Royal Islamic Liberal
Popular Socialist Unity Freedom Progress Reform Justice Labour Green Revolutionary Patriotic Civic
Maritime Energy Health Interior Defense Foreign Finance Trade""".split()
UPPER = "ABCDEFGHIJKLMNOPRSTUVW"


def _pool_people(rng: random.Random, n: int) -> list[tuple[str, str]]:
    pairs = list(itertools.product(FIRST, LAST))
    rng.shuffle(pairs)
    return pairs[:n]


def _pool_orgs(rng: random.Random, n: int) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        k = rng.random()
        head = rng.choice(ORG_HEADS)
        if k < 0.35:
            out.add(f"{rng.choice(PLACES)} {rng.choice(ORG_WORDS)} {head}")
        elif k < 0.6:
            out.add(f"{rng.choice(ORG_WORDS)} {head}")
        elif k < 0.8:
            out.add(f"{rng.choice(LAST)} {head}")
        else:
            out.add(f"{head} of {rng.choice(ORG_WORDS)} Affairs")
    return sorted(out)


def _pool_acronyms(rng: random.Random, n: int) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(UPPER) for _ in range(rng.choice((3, 3, 4)))))
    return sorted(out)


class _Zipf:
    """Draws from a list with weight 1/(rank+1)^s: a few items often, most rarely."""

    def __init__(self, items: list, s: float = 1.0) -> None:  # type: ignore[type-arg]
        self.items = items
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** s for i in range(len(items))))

    def draw(self, rng: random.Random):  # type: ignore[no-untyped-def]
        return self.items[bisect.bisect_left(self.cum, rng.random() * self.cum[-1])]


class Names:
    """The pools of replacement names and the per-article name maps built from them."""

    def __init__(self, seed: int = 7, keep: float = 0.1, people: int = 6000, orgs: int = 2500,
                 acronyms: int = 600) -> None:
        rng = random.Random(seed)
        pool_people = _pool_people(rng, people)
        pool_orgs, pool_acronyms, pool_places = _pool_orgs(rng, orgs), _pool_acronyms(rng, acronyms), list(PLACES)
        for pool in (pool_orgs, pool_acronyms, pool_places):
            rng.shuffle(pool)
        self.people = _Zipf(pool_people, 0.8)
        self.orgs = _Zipf(pool_orgs, 0.8)
        self.acronyms = _Zipf(pool_acronyms, 0.8)
        self.places = _Zipf(pool_places)
        self.keep = keep
        self.surnames = {last for _, last in pool_people}

    def name_map(self, names: dict[str, set[str]], rng: random.Random) -> dict[str, str]:
        """old name -> new name for one article; ``names`` maps "Person"/"Organization"/"Place"
        to the names found. Each name of one entity follows its new name, as in real news: a word of
        a person's name alone maps to the same word of the new name ("Karzai" follows "Hamid
        Karzai", "Kim" follows "Kim Jong Un"), and an organization's acronym to the initials of its
        new name when the article spells it out ("KCNA" and "Korean Central News Agency"), else to
        an acronym of the pool. (Drawn each on its own, the names of one entity would join unrelated
        entities into clusters as large as the store.)"""
        from kg.resolve.acronyms import acronym_of, expands

        out: dict[str, str] = {}
        persons = sorted(names.get("Person", ()), key=lambda n: (-len(n.split()), n))
        for name in persons:
            if name in out:
                continue
            words = name.split()
            if rng.random() < self.keep:
                out[name] = name
                for w in words:
                    out.setdefault(w, w)
                continue
            first, last = self.people.draw(rng)
            if len(words) == 1:
                out[name] = last
            else:
                out[name] = f"{first} {last}"
                out.setdefault(words[-1], last)
                out.setdefault(words[0], first)
        for kind, pool in (("Organization", self.orgs), ("Place", self.places)):
            found = sorted(names.get(kind, ()), key=lambda n: (n.isupper(), n))  # expansions before acronyms
            for name in found:
                if name in out:
                    continue
                if rng.random() < self.keep:
                    out[name] = name
                elif kind == "Organization" and name.isupper():
                    acr = acronym_of(name)
                    spelt = [n for n in found if acr and not n.isupper() and expands(acr, n) and n in out]
                    new = "".join(w[0] for w in out[spelt[0]].split() if w[:1].isupper()) if spelt else ""
                    out[name] = new if len(new) >= 2 else self.acronyms.draw(rng)
                else:
                    out[name] = pool.draw(rng)
        return {k: v for k, v in out.items() if k != v}


def substitute(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every whole-word occurrence of a key replaced, longest keys first."""
    if not mapping:
        return text
    keys = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(k) for k in keys) + r")(?!\w)")
    return pattern.sub(lambda m: mapping[m.group(0)], text)


_LEAD = re.compile(r"^(?:the|The|THE)\s+")
_TAIL = re.compile(r"(?:'s|’s|'|’)$")
SPACY_KINDS = {"PERSON": "Person", "ORG": "Organization", "GPE": "Place"}


def _clean_name(text: str) -> str | None:
    name = _TAIL.sub("", _LEAD.sub("", " ".join(text.split())))
    if len(name) < 2 or not name[0].isupper() or any(ch.isdigit() for ch in name):
        return None
    return name


def seed_paths(folder: Path = SEEDS) -> list[Path]:
    return sorted(folder.glob("*.txt"))


def shorten(text: str, min_words: int) -> str:
    """The first lines (paragraphs) of ``text`` until they hold ``min_words`` words."""
    out, n = [], 0
    for line in text.split("\n"):
        out.append(line)
        n += len(line.split())
        if n >= min_words and line.strip():
            break
    return "\n".join(out).rstrip() + "\n"


@dataclass
class Template:
    """One seed article's text and the names the model found in it, by kg type."""

    name: str
    text: str
    names: dict[str, set[str]]


def templates(nlp, paths: list[Path] | None = None, min_words: int | None = None) -> list[Template]:  # type: ignore[no-untyped-def]
    """Parse the seed articles once and note their PERSON, ORG and GPE names."""
    from kg.build.pipeline import prepare
    from kg.text.sources import Skipped, read_articles

    out = []
    for art in read_articles([str(p) for p in (paths or seed_paths())]):
        if isinstance(art, Skipped):
            continue
        text = shorten(art.text, min_words) if min_words else art.text
        _, cleaned = prepare(replace(art, text=text))
        names: dict[str, set[str]] = {}
        for ent in nlp(cleaned).ents:
            kind = SPACY_KINDS.get(ent.label_)
            name = _clean_name(ent.text) if kind else None
            if name:
                names.setdefault(kind, set()).add(name)  # type: ignore[arg-type]
        out.append(Template(art.id, text, names))
    return out


class TextGenerator:
    """Article texts: seed templates in turn, names varied (see the module docstring)."""

    def __init__(self, templates: list[Template], names: Names | None = None, seed: int = 11) -> None:
        self.templates = templates
        self.names = names or Names()
        self.seed = seed

    def article(self, i: int) -> tuple[str, str]:
        """(id, text) of the i-th generated article."""
        tpl = self.templates[i % len(self.templates)]
        rng = random.Random(self.seed * 1_000_003 + i)
        mapping = self.names.name_map(tpl.names, rng)
        return f"gen-{i:06d}-{tpl.name[:12]}", substitute(tpl.text, mapping)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return (self.article(i) for i in itertools.count())

    def write_jsonl(self, path: Path, n: int) -> None:
        import json

        with path.open("w", encoding="utf-8") as f:
            for i in range(n):
                aid, text = self.article(i)
                f.write(json.dumps({"id": aid, "text": text}, ensure_ascii=False) + "\n")


def _vary_entity(ent: Entity, mapping: dict[str, str]) -> Entity:
    label = mapping.get(ent.label) or substitute(ent.label, mapping)
    aliases = {_vary_alias(a, ent.label, label, mapping) for a in ent.aliases} | {label}
    return Entity(key=ent.key, label=label, type=ent.type, aliases=aliases - {""}, mentions=ent.mentions)


def _vary_alias(alias: str, old_label: str, label: str, mapping: dict[str, str]) -> str:
    """An entity's other name, following its new label: a short form takes the same words of the new
    label, an acronym its initials; any other name ("" here) is left out: the seeds' entities carry a
    few names of other entities (the extractor's slips), which, varied each on its own, would join
    unrelated entities into clusters that grow with the store."""
    old_words, new_words = old_label.split(), label.split()
    if alias.isupper() and len(alias) <= 8 and len(old_words) > 1:
        initials = "".join(w[0] for w in new_words if w[:1].isupper())
        return initials if len(initials) >= 2 else ""
    short = alias.split()
    if short and set(short) < set(old_words) and len(old_words) == len(new_words):
        return " ".join(new_words[old_words.index(w)] for w in short)
    return label if alias == old_label else ""


class FactsGenerator:
    """ArticleFacts with no parse: the seeds' facts, names, ids and dates varied."""

    def __init__(self, seed_facts: list[ArticleFacts], names: Names | None = None, seed: int = 13) -> None:
        self.seed_facts = seed_facts
        self.names = names or Names()
        self.seed = seed

    def article(self, i: int) -> ArticleFacts:
        src = self.seed_facts[i % len(self.seed_facts)]
        rng = random.Random(self.seed * 1_000_003 + i)
        found: dict[str, set[str]] = {}
        for ent in src.entities.values():
            if ent.type != "Group":
                found.setdefault(ent.type, set()).update({ent.label, *ent.aliases})
        mapping = self.names.name_map(found, rng)
        aid = f"fact-{i:07d}-{src.article.id[:12]}"
        date = f"{rng.randrange(2008, 2026)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
        art = src.article
        text = substitute(art.text, mapping)
        article = Article(id=aid, text=text, title=substitute(art.title, mapping) if art.title else None,
                          date=date, url=None, path=f"generated/{aid}.txt",
                          content_hash=hashlib.sha256(f"{aid}\x1f{text}".encode()).hexdigest())

        def ev(e):  # type: ignore[no-untyped-def]
            return replace(e, text=substitute(e.text, mapping))

        events = [replace(e, evidence=ev(e.evidence), trigger=ev(e.trigger) if e.trigger else None)
                  for e in src.events]
        roles = [replace(r, evidence=ev(r.evidence)) for r in src.roles]
        entities = {k: _vary_entity(e, mapping) for k, e in src.entities.items()}
        return ArticleFacts(article=article, entities=entities, events=events, roles=roles)

    def __iter__(self) -> Iterator[ArticleFacts]:
        return (self.article(i) for i in itertools.count())
