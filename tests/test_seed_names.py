"""No name from the seed articles (or the dev set) is in the package: rules, comments and examples
use invented names.

The names are found at run time by the model's NER over ``seeds/*.txt`` (PERSON, ORG, FAC, LOC, GPE),
less the countries and bodies of the lexicon's general tables (``DEMONYMS``, ``PLACE_ALIASES``), and
searched as whole words in every file shipped in the package (``kg/**/*.py``, ``kg/templates``).
What counts as a name (the criterion):

* a name of two or more words, as a phrase ("Jo Lindgren"), unless every word of it is a
  country-table word, a function word or in lowercase ("North and South Sudan", "Thai navy"); a name
  made only of words the lemmatizer knows ("Foreign Affairs") is matched as the texts write it, so that
  the English phrase in lowercase ("foreign affairs") is not taken for it;
* a one-word name ("Lindgren"), unless it is ordinary English: a function word, a word the texts also
  write in lowercase, one the model's lemmatizer knows (or its regular singular or past form) as a verb,
  adjective or adverb ("Home", "State", "Little", "Named"), a kind of body of the lexicon's tables
  ("Senate", "Corporation"), or an abbreviation of two letters ("Md.");
* each capitalised word of four letters or more of a longer name alone, when the lemmatizer knows
  it (or its singular) in no part of speech: a word foreign to the model's English vocabulary can
  only be a name ("Baker" of "Jo Baker" is known as a noun, "Kowalczyk" of "Jan Kowalczyk" is not).
  Nouns are no proof of ordinariness for one-word names: the lemmatizer's noun list holds capitals
  and movements too.

Names match in any case ("person/jo-lindgren" is a slug of "Jo Lindgren"), also split across a line
break, except one-word names the lemmatizer knows as nouns, which match as the texts write them (in
any case if the texts write them in capitals: a dateline, an acronym). Names the model does not tag
are not found: the test is a net, not a proof.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from factsamples import DEV, ROOT

from kg.nlp.lexicon import DEMONYMS, ORG_HEADS, ORGANIZATION_NOUNS, PLACE_ALIASES

SEEDS = ROOT / "seeds"
PACKAGE = ROOT / "kg"
NAME_LABELS = frozenset({"PERSON", "ORG", "FAC", "LOC", "GPE"})
SHIPPED_SUFFIXES = frozenset({".py", ".html", ".js", ".css", ".txt", ".json", ".ttl", ".rq", ".csv", ".tsv"})

_COUNTRY_NAMES = (
    {c.lower() for c in DEMONYMS.values()} | {v.lower() for v in PLACE_ALIASES.values()}
    | set(PLACE_ALIASES) | set(DEMONYMS)
)
_COUNTRY_WORDS = {w for name in _COUNTRY_NAMES for w in re.findall(r"\w+", name)}
#: Kinds of body the lexicon's tables name ("senate", "corporation"): English words, whatever an article calls one.
_BODY_KINDS = ORG_HEADS | ORGANIZATION_NOUNS


def _words(name: str) -> list[str]:
    return re.findall(r"\w+", name)


def _known(word: str, words: set[str], irregular: dict[str, list[str]]) -> bool:
    """Whether ``word`` or its singular ("studies" -> "study", "children" -> "child") is in ``words``."""
    w = word.lower()
    forms = {w, *irregular.get(w, ())}
    if w.endswith("ies"):
        forms.add(w[:-3] + "y")
    if w.endswith("es"):
        forms.add(w[:-2])
    if w.endswith("s"):
        forms.add(w[:-1])
    if w.endswith("ed"):  # "Named" in a headline the model took for a name: "name"
        forms |= {w[:-2], w[:-1]}
    return bool(forms & words)


def names_and_lowercase(nlp, texts: list[str]) -> tuple[set[str], set[str]]:  # type: ignore[no-untyped-def]
    """The names the model finds in ``texts`` (determiners and possessives dropped; no countries, nothing
    all lowercase), and the words the texts write in lowercase."""
    names: set[str] = set()
    lowercase: set[str] = set()
    for doc in nlp.pipe(texts):
        lowercase.update(t.text for t in doc if t.is_alpha and t.is_lower)
        for ent in doc.ents:
            if ent.label_ not in NAME_LABELS:
                continue
            toks = list(ent)
            while toks and (toks[0].is_stop or toks[0].is_punct):
                toks = toks[1:]
            while toks and (toks[-1].lower_ in ("'s", "’s", "'", "’") or toks[-1].is_punct):
                toks = toks[:-1]
            if not toks:
                continue
            name = doc.text[toks[0].idx:toks[-1].idx + len(toks[-1].text)]
            if name.lower() not in _COUNTRY_NAMES and not name.islower():
                names.add(name)
    return names, lowercase


def search_terms(nlp, texts: list[str]) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """The names and name words to look for, by the criterion of the module docstring, each with
    whether it is matched in any case (True) or only as the texts write it."""
    lookups = nlp.get_pipe("lemmatizer").lookups
    index = lookups.get_table("lemma_index")
    irregular = {w: lemmas for pos in ("noun", "verb") for w, lemmas in lookups.get_table("lemma_exc")[pos].items()}
    known = {pos: set(index[pos]) for pos in ("noun", "verb", "adj", "adv") if pos in index}
    any_pos = set().union(*known.values())
    not_noun = set().union(*(v for k, v in known.items() if k != "noun"))
    stop = nlp.Defaults.stop_words
    names, lowercase = names_and_lowercase(nlp, texts)
    terms: dict[str, bool] = {}
    for name in names:
        words = _words(name)
        if len(words) > 1:
            if not all(w.lower() in _COUNTRY_WORDS or w.lower() in stop or w.islower() for w in words):
                # a name made of English words ("Foreign Affairs") matches only as written: in lowercase
                # it is the phrase of English ("foreign affairs"), not the name
                terms[name] = not all(_known(w, any_pos, irregular) or w.lower() in stop for w in words)
            terms.update((w, True) for w in words if w[0].isupper() and len(w) > 3
                         and not _known(w, any_pos, irregular) and w.lower() not in _COUNTRY_WORDS
                         and w.lower() not in stop)
        elif not (name.lower() in lowercase or _known(name, not_noun, irregular) or name.lower() in _COUNTRY_WORDS
                  or name.lower() in stop or len(name.rstrip(".")) < 3  # "Md.": an abbreviation, no name
                  or name.lower() in _BODY_KINDS):  # "Senate", "Corporation": a kind of body, named by the lexicon
            terms.setdefault(name, name.isupper() or not _known(name, any_pos, irregular))
    return terms


def pattern(term: str, any_case: bool = True) -> re.Pattern[str]:
    """Whole words of ``term``, with up to three other characters between them on a line (space,
    hyphen, apostrophe) or a line break (with a comment's indentation and marks)."""
    gap = r"(?:[^\w\n]{1,3}|[^\w\n]*\n[^\w\n]*)"
    body = gap.join(re.escape(w) for w in _words(term))
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE if any_case else 0)


#: The canned queries: examples to run on the seeds, that name the seeds' entities on purpose
#: (they ship in the package so that ``kg query events.rq`` works where kg is installed).
CANNED = PACKAGE / "rdf" / "queries"
#: Third-party code vendored unchanged (YASGUI, pinned by hash in ``kg/serve/vendor.py``): not kg's text.
VENDORED = PACKAGE / "static"


def shipped_files() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*")):
        if (path.is_file() and path.suffix in SHIPPED_SUFFIXES and "__pycache__" not in path.parts
                and CANNED not in path.parents and VENDORED not in path.parents):
            yield path


def hits(terms: dict[str, bool]) -> list[str]:
    """``path:line: 'term': line`` for every occurrence of a term in the package's files."""
    pats = [(t, pattern(t, any_case)) for t, any_case in sorted(terms.items())]
    found: set[tuple[str, int, str, str]] = set()
    for path in shipped_files():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for term, pat in pats:
            for m in pat.finditer(text):
                n = text.count("\n", 0, m.start())
                found.add((str(path.relative_to(ROOT)), n + 1, term, lines[n].strip()[:100]))
    return [f"{p}:{n}: {term!r}: {line}" for p, n, term, line in sorted(found)]


def _texts(folder: Path) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))]


def test_the_criterion_keeps_names_and_leaves_ordinary_words(nlp) -> None:  # type: ignore[no-untyped-def]
    text = ("Jan Kowalczyk, the head of Brightwater Holdings, said on Monday that Zorbelia will sign.\n"
            "Kowalczyk left his home in Little Rock for the Transport Department in North Korea.\n")
    terms = search_terms(nlp, [text])
    assert {"Jan Kowalczyk", "Kowalczyk", "Brightwater Holdings"} <= set(terms), terms
    assert not {"home", "Home", "Transport", "Little", "North Korea", "Korea", "Monday"} & set(terms), terms
    assert pattern("Jan Kowalczyk").search('as "Jan  Kowalczyk" said')
    assert pattern("Jan Kowalczyk").search("person/jan-kowalczyk")
    assert pattern("Jan Kowalczyk").search('("Jan\n    # Kowalczyk")')
    assert not pattern("Kowalczyk").search("Kowalczyki")
    assert pattern("OSLO").search("the dateline (Oslo -)")
    assert not pattern("Herald", any_case=False).search("a town herald")
    words = search_terms(nlp, ["Ann Berg of the Fishing Rights Office spoke to Lindqvist Verksted.\n"])
    assert words.get("Fishing Rights Office") is False and words.get("Lindqvist Verksted") is True, words


@pytest.mark.parametrize("folder", [SEEDS, DEV], ids=["seeds", "dev"])
def test_no_article_name_is_in_the_package(nlp, folder: Path) -> None:  # type: ignore[no-untyped-def]
    texts = _texts(folder)
    if not texts:
        pytest.skip(f"no articles in {folder} (the dev set is outside the repository)")
    terms = search_terms(nlp, texts)
    assert len(terms) > 10 * len(texts), sorted(terms)  # news is full of names: few means the NER broke
    found = hits(terms)
    assert not found, f"names of {folder.name} in kg/ (use invented names):\n" + "\n".join(found)
