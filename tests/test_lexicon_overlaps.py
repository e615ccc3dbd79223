"""Every word list of the rules is defined once (issue 33): the module-level word lists of the packages
that read English (``kg.nlp``, ``kg.extract``, ``kg.resolve``) are read from the source, and two that
overlap fail the test unless the overlap is declared below with its reason; and the dependency-label
sets of ``kg/extract/grammar/labels.py`` are written nowhere else.

A word list is a module-level frozenset, set, tuple or list of string literals (``"..." .split()``, a
literal set, the literal part of a union ``A | frozenset(...)``: a list built from another by name
shares its words by reference, which is the one definition this test asks for). Lists of capitalized
names (entity labels, types) and of dependency labels are no word lists. Two lists overlap when they
share at least half the words of the smaller one: a copy, or a class inside another; fewer shared words
are a word that belongs to two classes ("state" a verb and a noun) and need no declaration.
"""
from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The packages whose word lists are English (the rest enumerate the program's own names: formats, files).
PACKAGES = ("nlp", "extract", "resolve")
#: Two lists overlap when they share this share of the smaller one's words.
OVERLAP = 0.5

# The reasons of the declared overlaps.
KIND = "a narrower class inside the other, read apart by its own rule"
HOMOGRAPH = "the same spelling, another word (the pronoun 'I', the demonym ending '-i')"
PRONOUNS = ("pronouns by what a rule does with them: person and number, the clause a relative opens, the "
            "ones a time or place reader skips")
FUNCTION_WORDS = ("prepositions, determiners and the small words of names, by the relation a rule reads "
                  "through them: one word ties several relations")
VERB_CLASSES = ("verb classes that cross: one verb behaves several ways (a complement verb that is no event, "
                "a judging verb that also accuses)")
ORG_NOUN_CLASSES = ("organization nouns by use: a generic body, the head word of a name, a kind of company "
                    "or institution; one noun is several")
PLACE_NOUNS = "place nouns by use: the region an event is in, the head word of a place's name"
TITLE_WORDS = ("words about a title by use: a rank, an honorific, a role's modifier, a department, a word "
               "that ends a body's name")
COPIED_LATER = ("words the readers of issue 36 (tenure, time and place) list again beside roles/career_words, "
                "entities/groups and the place nouns: to fold into one list each, a measured change of its own")
NEAR_COPY = ("near copies that differ by a few words each way: one list would change what is read, so "
             "folding them is a measured change of its own (not a restructuring)")

#: Catalogues: lists that hold every word of a class; the lists of kinds within the class share their
#: words by design.
CATALOGUES = {
    "nlp.lexicon.HUMAN_NOUNS": "every noun that can name people, one or a body: the kinds of them are read apart",
    "nlp.lexicon.ROLE_NOUNS": "every noun of a post: the kinds of post (heads of government, envoys) are read apart",
}

#: Overlaps between two lists (by module below ``kg`` and name, in order), each with its reason.
DECLARED = {
    ("extract.context.tenure._FOUNDING", "extract.roles.titles.CORPORATE_HEADS"): KIND,
    ("extract.context.tenure._FOUNDING", "nlp.name_types.COMPANY_POSTS"): KIND,
    ("extract.context.modality._PREVENTING_VERBS", "extract.roles.career_words.LINE_UP"): VERB_CLASSES,
    ("extract.roles.career_words.LINE_UP", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.roles.career_words.FIRSTS", "extract.roles.titles._TITLE_ORDINALS"): TITLE_WORDS,
    # occupation endings that no verb has: the part of the occupation suffixes a tagging repair may trust
    ("nlp.lemmas._OCCUPATION_ENDINGS", "nlp.lexicon.HUMAN_SUFFIXES"): KIND,
    ("nlp.lemmas._OCCUPATION_ENDINGS", "nlp.lexicon.OCCUPATION_SUFFIXES"): KIND,
    # a country's government nouns, a narrower class of the generic bodies, collectives and organization heads
    ("extract.entities.index._GENERIC_BODIES", "extract.roles.role_orgs.GOVERNMENT_NOUNS"): KIND,
    ("extract.roles.role_orgs.GOVERNMENT_NOUNS", "nlp.lexicon.COLLECTIVE_NOUNS"): KIND,
    ("extract.roles.role_orgs.GOVERNMENT_NOUNS", "nlp.lexicon.ORG_HEADS"): KIND,
    # posts one person holds at a time, and the heads of government or the leading roles read apart
    ("extract.context.tenure.ONE_HOLDER_POSTS", "extract.entities.index._LEADING_ROLES"): KIND,
    ("extract.context.tenure.ONE_HOLDER_POSTS", "extract.roles.titles.GOVERNMENT_HEADS"): KIND,
    ("extract.context.tenure._NOT_POST_WORDS", "extract.roles.titles.NOT_ROLE_WORDS"): TITLE_WORDS,
    ("extract.context.tenure._NOT_POST_WORDS", "nlp.lexicon.ROLE_MODIFIERS"): TITLE_WORDS,
    # "designate", "elect": verbs of appointing, and the words after a title that say it is still to be taken
    ("extract.context.tenure.APPOINT_VERBS", "extract.roles.titles.TITLE_SUFFIXES"): VERB_CLASSES,
    ("extract.roles.career_words.APPOINTERS", "extract.roles.titles.TITLE_SUFFIXES"): VERB_CLASSES,
    # "include": a verb that lists a holder's posts, and no event
    ("extract.roles.career_words.LISTING", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.roles.career_words.LISTING", "nlp.lexicon.STATIVE_VERBS"): VERB_CLASSES,
    ("extract.roles.career_words.APPOINTING", "extract.roles.titles.TITLE_SUFFIXES"): VERB_CLASSES,
    ("extract.roles.titles.TITLE_SUFFIXES", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.confidence.model._HEDGES", "nlp.lexicon.HEDGING_ADVERBS"): NEAR_COPY,
    ("extract.context.modality._CONTRASTIVE", "extract.roles.appointed._STOPS"): FUNCTION_WORDS,
    ("extract.context.modality._DENYING_VERBS", "extract.context.modality._NEGATIVE_VERBS"): VERB_CLASSES,
    ("extract.context.modality._DENYING_VERBS", "nlp.lexicon.REPORTING_VERBS"): VERB_CLASSES,
    ("extract.context.modality._FIRST_PERSON", "extract.context.reader._PRONOUN_SKIP"): PRONOUNS,
    ("extract.context.modality._FIRST_PERSON", "extract.entities.coref._FIRST_PLURAL"): PRONOUNS,
    ("extract.context.modality._FIRST_PERSON", "extract.entities.places._DEMONYM_ENDINGS"): HOMOGRAPH,
    ("extract.context.modality._FIRST_PERSON", "nlp.lexicon.FIRST_PERSON"): PRONOUNS,
    ("extract.context.modality._HEDGING_VERBS", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.context.modality._HEDGING_VERBS", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.context.modality._NEGATIVE_DETERMINERS", "extract.entities.index._GENERIC_QUANTIFIERS"): FUNCTION_WORDS,
    ("extract.context.modality._NEGATIVE_DETERMINERS", "nlp.lexicon.NEGATIONS"): FUNCTION_WORDS,
    ("extract.context.modality._NEGATIVE_VERBS", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.context.modality._WH_WORDS", "nlp.lexicon.RELATIVE_PRONOUNS"): PRONOUNS,
    ("extract.context.reader._AT_SITE", "extract.context.reader._INTO"): FUNCTION_WORDS,
    ("extract.context.reader._AT_SITE", "extract.context.reader._PLACE_CHAIN"): FUNCTION_WORDS,
    ("extract.context.reader._AT_SITE", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.context.reader._CLOCK_AFTER", "extract.roles.career_words.PAST_ADVERBS"): FUNCTION_WORDS,
    ("extract.context.reader._FROM", "extract.context.reader._NOT_POINT_PREPS"): FUNCTION_WORDS,
    ("extract.context.reader._FROM", "extract.events.verbs._NOT_GOALS"): FUNCTION_WORDS,
    ("extract.context.reader._FROM", "extract.roles.titles.ORG_PREPS"): FUNCTION_WORDS,
    ("extract.context.reader._INTO", "extract.events.reader._THING_TARGET_PREPS"): FUNCTION_WORDS,
    ("extract.context.reader._INTO", "nlp.lexicon.GOAL_PREPOSITIONS"): FUNCTION_WORDS,
    ("extract.context.reader._PERIOD_NOUNS", "extract.context.tenure._TERM_NOUNS"): COPIED_LATER,
    ("extract.context.reader._PLACE_CHAIN", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.context.reader._PRONOUN_SKIP", "extract.entities.coref._FIRST_PLURAL"): PRONOUNS,
    ("extract.context.reader._PRONOUN_SKIP", "nlp.lexicon.FIRST_PERSON"): PRONOUNS,
    ("extract.context.reader._REFERENCE_NOUNS", "extract.context.reader._REGION_NOUNS"): COPIED_LATER,
    ("extract.context.reader._REFERENCE_NOUNS", "extract.roles.role_orgs.COUNTRY_NOUNS"): PLACE_NOUNS,
    ("extract.context.reader._REFERENCE_NOUNS", "extract.roles.role_orgs._PLACE_KIND_NOUNS"): PLACE_NOUNS,
    ("extract.context.reader._REFERENCE_NOUNS", "nlp.repairs._PLACE_NOUNS"): COPIED_LATER,
    ("extract.context.reader._REGION_NOUNS", "extract.roles.role_orgs._PLACE_KIND_NOUNS"): PLACE_NOUNS,
    ("extract.context.reader._REGION_NOUNS", "nlp.repairs._PLACE_NOUNS"): NEAR_COPY,
    ("extract.context.reader._SHARING_PREPS", "extract.events.accusation._PREPS"): FUNCTION_WORDS,
    ("extract.context.reader._SHARING_PREPS", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.context.reader._SHARING_PREPS", "extract.roles.titles.ORG_PREPS"): FUNCTION_WORDS,
    ("extract.context.reader._SHARING_PREPS", "nlp.lexicon.ACRONYM_SMALL_WORDS"): FUNCTION_WORDS,
    ("extract.context.reader._SITE_WORDS", "extract.entities.groups.FACILITY_NOUNS"): COPIED_LATER,
    ("extract.context.reader._SITE_WORDS", "extract.roles.role_orgs._NOT_COMPANY"): ORG_NOUN_CLASSES,
    ("extract.context.tenure.APPOINT_VERBS", "extract.roles.career_words.APPOINTERS"): COPIED_LATER,
    ("extract.context.tenure.APPOINT_VERBS", "extract.roles.career_words.SUCCEEDING"): COPIED_LATER,
    ("extract.context.tenure._APPOINTMENT_NOUNS", "extract.roles.career_words.APPOINTMENT_NOUNS"): COPIED_LATER,
    ("extract.context.tenure._BEGIN_VERBS", "extract.context.tenure._ENTRY_VERBS"): VERB_CLASSES,
    ("extract.context.tenure._BEGIN_VERBS", "extract.events.verbs._PHASE"): VERB_CLASSES,
    ("extract.context.tenure._BEGIN_VERBS", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.context.tenure._BEGIN_VERBS", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.context.tenure._ENTRY_VERBS", "extract.events.verbs._PHASE"): VERB_CLASSES,
    ("extract.context.tenure._ENTRY_VERBS", "extract.roles.career_words.JOINING"): COPIED_LATER,
    ("extract.context.tenure._ENTRY_VERBS", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.context.tenure._ENTRY_VERBS", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.context.tenure._POST_NOUNS", "extract.roles.career_words.POST_NOUNS"): COPIED_LATER,
    ("extract.context.tenure._SERVE_VERBS", "extract.roles.career_words.BEING"): COPIED_LATER,
    ("extract.context.tenure._TERM_NOUNS", "extract.roles.career_words.APPOINTMENT_NOUNS"): COPIED_LATER,
    ("extract.context.tenure._TERM_NOUNS", "extract.roles.career_words.SPANS_OF_TIME"): COPIED_LATER,
    ("extract.entities.coref._FIRST_PLURAL", "nlp.lexicon.FIRST_PERSON"): PRONOUNS,
    ("extract.entities.groups.PAIR_NOUNS", "nlp.lexicon.QUANTITY_NOUNS"): KIND,
    ("extract.entities.groups._PERSON_COMPOUNDS", "nlp.lexicon.GENERIC_PEOPLE"): KIND,
    ("extract.entities.groups._QUANTIFYING_DETERMINERS", "extract.entities.index._GENERIC_QUANTIFIERS"): FUNCTION_WORDS,
    ("extract.entities.groups._QUANTIFYING_DETERMINERS", "extract.entities.index._QUANTIFIERS"): NEAR_COPY,
    ("extract.entities.index._GENERIC_BODIES", "extract.roles.role_orgs._SELF_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.entities.index._GENERIC_BODIES", "nlp.lexicon.COLLECTIVE_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.entities.index._GENERIC_BODIES", "nlp.lexicon.ORGANIZATION_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.entities.index._GENERIC_BODIES", "nlp.lexicon.ORG_HEADS"): ORG_NOUN_CLASSES,
    ("extract.entities.index._GENERIC_BODIES", "nlp.name_types.ORG_ENDINGS"): ORG_NOUN_CLASSES,
    ("extract.entities.index._LEADING_ROLES", "extract.roles.titles.GOVERNMENT_HEADS"): TITLE_WORDS,
    ("extract.events.accusation.ALLEGING", "extract.events.accusation.OBJECT_JUDGES"): VERB_CLASSES,
    ("extract.events.accusation.ALLEGING", "extract.events.reader._JUDGING_VERBS"): VERB_CLASSES,
    ("extract.events.accusation.CLEARING", "extract.events.accusation.OBJECT_JUDGES"): VERB_CLASSES,
    ("extract.events.accusation.OBJECT_JUDGES", "extract.events.reader._JUDGING_VERBS"): VERB_CLASSES,
    ("extract.events.accusation.OBJECT_JUDGES", "extract.events.verbs._FINDING"): VERB_CLASSES,
    ("extract.events.accusation._PREPS", "extract.events.verbs._NOT_GOALS"): FUNCTION_WORDS,
    ("extract.events.accusation._PREPS", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.events.accusation._PREPS", "extract.roles.titles.ORG_PREPS"): FUNCTION_WORDS,
    ("extract.events.accusation._PREPS", "nlp.lexicon.ACRONYM_SMALL_WORDS"): FUNCTION_WORDS,
    ("extract.events.reader._ANSWERING_VERBS", "nlp.lexicon.REPORTING_VERBS"): VERB_CLASSES,
    ("extract.events.reader._JUDGING_VERBS", "nlp.lexicon.COMMUNICATION_VERBS"): VERB_CLASSES,
    ("extract.events.reader._THING_TARGET_PREPS", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.events.reader._THING_TARGET_PREPS", "nlp.lexicon.GOAL_PREPOSITIONS"): FUNCTION_WORDS,
    ("extract.events.reader._THING_TARGET_PREPS", "nlp.lexicon.ACRONYM_SMALL_WORDS"): FUNCTION_WORDS,
    ("extract.events.verbs.MOTION_VERBS", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.events.verbs.MOTION_VERBS", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.events.verbs._NOT_GOALS", "extract.roles.career_words.EMPLOYERS"): FUNCTION_WORDS,
    ("extract.events.verbs._NOT_GOALS", "extract.roles.titles.ORG_PREPS"): FUNCTION_WORDS,
    ("extract.events.verbs._PHASE", "nlp.lexicon.COMPLEMENT_VERBS"): VERB_CLASSES,
    ("extract.events.verbs._PHASE", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("extract.events.verbs._SPANS", "extract.roles.career_words.SPANS_OF_TIME"): NEAR_COPY,
    ("extract.roles.career_words.APPOINTING", "extract.roles.career_words.ENDORSING"): VERB_CLASSES,
    ("extract.roles.career_words.BODY_NOUNS", "nlp.lexicon.COLLECTIVE_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.career_words.BODY_NOUNS", "nlp.lexicon.ORGANIZATION_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.career_words.BODY_NOUNS", "nlp.lexicon.ORG_HEADS"): ORG_NOUN_CLASSES,
    ("extract.roles.career_words.EMPLOYERS", "extract.roles.titles.ORG_PREPS"): FUNCTION_WORDS,
    ("extract.roles.career_words.EMPLOYERS", "nlp.lexicon.GOAL_PREPOSITIONS"): FUNCTION_WORDS,
    ("extract.roles.career_words.EMPLOYERS", "nlp.lexicon.ACRONYM_SMALL_WORDS"): FUNCTION_WORDS,
    ("extract.roles.role_orgs._COMPANY_NOUNS", "extract.roles.role_orgs._SELF_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._COMPANY_NOUNS", "nlp.lexicon.ORGANIZATION_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._NOT_COMPANY", "nlp.lexicon.ORGANIZATION_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._NOT_COMPANY", "nlp.name_types.ORG_ENDINGS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._NOT_COMPANY", "nlp.repairs._INSTITUTION_WORDS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._NOT_COMPANY", "nlp.repairs._ORG_NAME_WORDS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._PLACE_KIND_NOUNS", "nlp.repairs._PLACE_NOUNS"): PLACE_NOUNS,
    ("extract.roles.role_orgs._SELF_NOUNS", "nlp.lexicon.COLLECTIVE_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._SELF_NOUNS", "nlp.lexicon.ORGANIZATION_NOUNS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._SELF_NOUNS", "nlp.repairs._ORG_NAME_WORDS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._SHORTENED_HEADS", "nlp.name_types.ORG_ENDINGS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._SHORTENED_HEADS", "nlp.repairs._INSTITUTION_WORDS"): ORG_NOUN_CLASSES,
    ("extract.roles.role_orgs._SHORTENED_HEADS", "nlp.repairs._ORG_NAME_WORDS"): ORG_NOUN_CLASSES,
    ("extract.roles.titles.CORPORATE_HEADS", "nlp.name_types.COMPANY_POSTS"): NEAR_COPY,
    ("extract.roles.titles.ORG_PREPS", "nlp.lexicon.ACRONYM_SMALL_WORDS"): FUNCTION_WORDS,
    ("extract.roles.titles.RANK_MODIFIERS", "nlp.lexicon.ROLE_MODIFIERS"): TITLE_WORDS,
    ("extract.roles.titles.TRAILING_RANKS", "nlp.lexicon.RANKS"): TITLE_WORDS,
    ("nlp.lexicon.COGNITION_VERBS", "nlp.lexicon.RAISING_PASSIVES"): VERB_CLASSES,
    ("nlp.lexicon.COLLECTIVE_NOUNS", "nlp.lexicon.ORG_HEADS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.COLLECTIVE_NOUNS", "nlp.repairs._PARTY_HEADS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.COMPLEMENT_VERBS", "nlp.lexicon.NON_EVENT_VERBS"): VERB_CLASSES,
    ("nlp.lexicon.DEPARTMENT_WORDS", "nlp.lexicon.ROLE_MODIFIERS"): TITLE_WORDS,
    ("nlp.lexicon.DEPARTMENT_WORDS", "nlp.repairs._BUSINESS_WORDS"): TITLE_WORDS,
    ("nlp.lexicon.DEPARTMENT_WORDS", "nlp.repairs._NAME_ENDINGS"): TITLE_WORDS,
    ("nlp.lexicon.HUMAN_SUFFIXES", "nlp.lexicon.OCCUPATION_SUFFIXES"): KIND,
    ("nlp.lexicon.NAME_STOPWORDS", "nlp.lexicon.RANKS"): FUNCTION_WORDS,
    ("nlp.lexicon.NAME_STOPWORDS", "nlp.name_types.HONORIFICS"): NEAR_COPY,
    ("nlp.lexicon.OBJECT_CONTROL_VERBS", "nlp.lexicon.REQUEST_VERBS"): VERB_CLASSES,
    ("nlp.lexicon.ORGANIZATION_NOUNS", "nlp.name_types.ORG_ENDINGS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.ORGANIZATION_NOUNS", "nlp.repairs._INSTITUTION_WORDS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.ORGANIZATION_NOUNS", "nlp.repairs._ORG_NAME_WORDS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.ORGANIZATION_NOUNS", "nlp.repairs._PARTY_HEADS"): ORG_NOUN_CLASSES,
    ("nlp.lexicon.RANKS", "nlp.name_types.HONORIFICS"): TITLE_WORDS,
    ("nlp.lexicon.ROLE_MODIFIERS", "nlp.repairs._BUSINESS_WORDS"): TITLE_WORDS,
    ("nlp.lexicon.ROLE_MODIFIERS", "nlp.repairs._NAME_ENDINGS"): TITLE_WORDS,
    ("nlp.name_types.ORG_ENDINGS", "nlp.repairs._INSTITUTION_WORDS"): NEAR_COPY,
    ("nlp.name_types.ORG_ENDINGS", "nlp.repairs._ORG_NAME_WORDS"): NEAR_COPY,
    ("nlp.lexicon.ACRONYM_SMALL_WORDS", "nlp.name_types._LINKS"): FUNCTION_WORDS,
    ("nlp.name_types._LINKS", "resolve.lines._COMMON_WORDS"): FUNCTION_WORDS,
    ("nlp.repairs._INSTITUTION_WORDS", "nlp.repairs._ORG_NAME_WORDS"): NEAR_COPY,
    ("nlp.lexicon.ACRONYM_SMALL_WORDS", "resolve.lines._COMMON_WORDS"): FUNCTION_WORDS,
}

#: spaCy's English dependency labels (a list made of these is a label set, not words).
DEP_LABELS = frozenset("""
acl acomp advcl advmod agent amod appos attr aux auxpass case cc ccomp compound conj csubj csubjpass dative dep
det dobj expl intj mark meta neg nmod npadvmod nsubj nsubjpass nummod oprd parataxis pcomp pobj poss preconj
predet prep prt punct quantmod relcl xcomp ROOT
""".split())


def _literal_words(node: ast.expr) -> list[str] | None:
    """The string literals a word-list expression is written with, or None if it is none."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _literal_words(node.left), _literal_words(node.right)
        return None if left is None and right is None else (left or []) + (right or [])
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set", "tuple", "list")
            and len(node.args) == 1 and not node.keywords):
        return _literal_words(node.args[0])
    if isinstance(node, ast.GeneratorExp) and len(node.generators) == 1:
        return _literal_words(node.generators[0].iter)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) and not node.args):
        return node.func.value.value.split()
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)) and node.elts:
        if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            return [e.value for e in node.elts]  # type: ignore[union-attr]
    return None


def _module_lists() -> dict[str, list[str]]:
    """Every module-level list of string literals of the English packages, by "module.NAME" below kg."""
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / "kg" / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT / "kg").with_suffix("").parts)
            for st in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                    name, value = st.targets[0].id, st.value
                elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                    name, value = st.target.id, st.value
                else:
                    continue
                words = _literal_words(value)
                if name != "__all__" and words:
                    found[f"{module}.{name}"] = words
    return found


LISTS = _module_lists()
WORD_LISTS = {k: set(v) for k, v in LISTS.items() if not set(v) <= DEP_LABELS and not all(w[:1].isupper() for w in v)}


def _overlaps() -> dict[tuple[str, str], set[str]]:
    out = {}
    for (a, wa), (b, wb) in itertools.combinations(sorted(WORD_LISTS.items()), 2):
        shared = wa & wb
        if shared and len(shared) >= OVERLAP * min(len(wa), len(wb)):
            out[(a, b)] = shared
    return out


def test_the_word_lists_are_read() -> None:
    assert len(WORD_LISTS) > 150, sorted(WORD_LISTS)
    assert {"nlp.lexicon.ROLE_NOUNS", "extract.roles.career_words.APPOINTING", "nlp.repairs._BUSINESS_WORDS"} <= set(WORD_LISTS)
    assert WORD_LISTS["extract.roles.career_words.APPOINTING"] >= {"elect", "sign"}  # the literal part of a union
    assert "appoint" not in WORD_LISTS["extract.roles.career_words.APPOINTING"]  # APPOINTERS' words, by reference


def test_no_word_list_is_defined_twice() -> None:
    same = [(a, b) for (a, wa), (b, wb) in itertools.combinations(sorted(WORD_LISTS.items()), 2) if wa == wb]
    assert not same, f"the same words defined twice: import one from the other or from kg/nlp/lexicon.py: {same}"


def test_every_overlap_between_word_lists_is_declared() -> None:
    found = _overlaps()
    assert found  # the declared ones at least
    undeclared = {pair: sorted(words) for pair, words in found.items()
                  if pair not in DECLARED and not set(pair) & set(CATALOGUES)}
    assert not undeclared, ("word lists that share words: define the words once (a list built from another, or one "
                            f"list in kg/nlp/lexicon.py), or declare the overlap in DECLARED with its reason: {undeclared}")


def test_every_declared_overlap_is_one() -> None:
    found = _overlaps()
    assert set(CATALOGUES) <= set(WORD_LISTS)
    stale = [pair for pair in DECLARED if pair not in found]
    assert not stale, f"declared overlaps that are no more (remove them from DECLARED): {stale}"
    assert all(a < b for a, b in DECLARED), "each pair in order, as _overlaps names it"


def _label_sets(tree: ast.AST) -> list[tuple[int, frozenset[str]]]:
    """Every literal set, tuple or list of dependency labels in a module, inline ones too."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            words = _literal_words(node)
            if words and len(words) > 1 and set(words) <= DEP_LABELS:
                out.append((node.lineno, frozenset(words)))
    return out


def test_the_subject_label_sets_are_written_only_in_grammar_labels() -> None:
    from kg.extract.grammar import labels

    defined = {labels.ACTIVE_SUBJECTS, labels.NOUN_SUBJECTS, labels.SUBJECTS}
    copies = []
    for path in sorted((ROOT / "kg").rglob("*.py")):
        if path.name == "labels.py" and path.parent.name == "grammar":
            continue
        for line, found in _label_sets(ast.parse(path.read_text(encoding="utf-8"))):
            if found in defined:
                copies.append(f"{path.relative_to(ROOT)}:{line} {sorted(found)}")
    assert not copies, f"import these from kg/extract/grammar/labels.py: {copies}"


@pytest.mark.parametrize("text", ['x = ("nsubj", "nsubjpass")\n', 'def f(t):\n    return t.dep_ in {"nsubjpass", "nsubj"}\n'])
def test_the_label_scan_finds_an_inline_copy(text: str) -> None:
    from kg.extract.grammar.labels import NOUN_SUBJECTS

    assert [s for _, s in _label_sets(ast.parse(text))] == [NOUN_SUBJECTS]
