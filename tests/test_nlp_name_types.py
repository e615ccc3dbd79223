"""One type per name from all of its mentions (``kg.nlp.name_types``), on hand-built Docs: the cues
used here need no parse, or a small one written out."""
from __future__ import annotations

from spacy.lang.en import English
from spacy.tokens import Doc

from kg.nlp.name_types import type_names

_VOCAB = English().vocab


def _doc(text: str, names: dict[str, list[str]], tags: dict[str, str] | None = None) -> Doc:
    """A Doc of ``text`` (space-separated words) whose names, given as label -> words in text order,
    are entities; proper nouns tagged NNP, "'s" POS, the rest NN."""
    words = text.split()
    ents = ["O"] * len(words)
    for label, found in names.items():
        for name in found:
            parts = name.split()
            starts = [i for i in range(len(words)) if words[i:i + len(parts)] == parts
                      and all(e == "O" for e in ents[i:i + len(parts)])]
            assert starts, f"{name!r} is not in the text"
            i = starts[0]
            ents[i:i + len(parts)] = [f"B-{label}"] + [f"I-{label}"] * (len(parts) - 1)
    tags = tags or {}
    tag = [tags.get(w, "POS" if w == "'s" else "NNP" if w[:1].isupper() else "NN") for w in words]
    return Doc(_VOCAB, words=words, tags=tag, ents=ents, lemmas=[w.lower() for w in words])


def _labels(doc: Doc) -> list[tuple[str, str]]:
    out = [(e.text, e.label_) for e in type_names(doc, doc.ents)]
    assert out
    return out


def test_a_company_the_model_took_for_a_person_before_a_post_and_a_person_is_an_organization() -> None:
    doc = _doc("Corvane Dale CEO Jo Smith said Corvane Dale would grow .",
               {"PERSON": ["Corvane Dale", "Jo Smith", "Corvane Dale"]})
    assert _labels(doc) == [("Corvane Dale", "ORG"), ("Jo Smith", "PERSON"), ("Corvane Dale", "ORG")]


def test_a_company_with_a_place_label_is_an_organization_where_its_post_says_so() -> None:
    doc = _doc("Harlan Mills CEO Jo Smith said Harlan Mills would close .",
               {"ORG": ["Harlan Mills"], "PERSON": ["Jo Smith"], "GPE": ["Harlan Mills"]})
    assert [label for _, label in _labels(doc)] == ["ORG", "PERSON", "ORG"]


def test_a_full_name_typed_organization_beside_its_surname_typed_person_is_one_person() -> None:
    doc = _doc("Tomas Varga won the vote . Varga thanked the voters .", {"ORG": ["Tomas Varga"], "PERSON": ["Varga"]})
    assert _labels(doc) == [("Tomas Varga", "PERSON"), ("Varga", "PERSON")]


def test_where_the_text_says_nothing_most_mentions_decide_and_a_tie_changes_nothing() -> None:
    doc = _doc("Ilse left . Ilse came back . Friends met Ilse .", {"PERSON": ["Ilse", "Ilse"], "GPE": ["Ilse"]})
    assert [label for _, label in _labels(doc)] == ["PERSON", "PERSON", "PERSON"]
    tie = _doc("Ilse left . Friends met Ilse .", {"PERSON": ["Ilse"], "GPE": ["Ilse"]})
    assert [label for _, label in _labels(tie)] == ["PERSON", "GPE"]


def test_a_title_of_address_or_an_age_outvotes_the_model() -> None:
    assert _labels(_doc("Mr. Orvik said so .", {"ORG": ["Orvik"]})) == [("Orvik", "PERSON")]
    assert _labels(_doc("Orvik , 41 , said so .", {"ORG": ["Orvik"]})) == [("Orvik", "PERSON")]
    assert _labels(_doc("Orvik 's wife said so .", {"ORG": ["Orvik"]})) == [("Orvik", "PERSON")]


def test_a_region_or_a_word_for_a_body_ends_no_persons_name() -> None:
    doc = _doc("Lyra Europe said Lyra would grow .", {"PERSON": ["Lyra Europe", "Lyra"]})
    assert [label for _, label in _labels(doc)] == ["ORG", "ORG"]
    assert _labels(_doc("Halden Institute said so .", {"PERSON": ["Halden Institute"]})) == [("Halden Institute", "ORG")]


def test_an_organizations_first_word_alone_is_that_organization() -> None:
    doc = _doc("Kestrel Research Center hired Ann Lee as Kestrel 's deputy director . Lee left Kestrel .",
               {"ORG": ["Kestrel Research Center"], "PERSON": ["Ann Lee", "Kestrel", "Lee", "Kestrel"]})
    assert _labels(doc) == [("Kestrel Research Center", "ORG"), ("Ann Lee", "PERSON"), ("Kestrel", "ORG"),
                            ("Lee", "PERSON"), ("Kestrel", "ORG")]


def test_a_place_stays_a_place_beside_a_body_named_after_it() -> None:
    doc = _doc("Tarnow State University is in Tarnow .", {"ORG": ["Tarnow State University"], "GPE": ["Tarnow"]})
    assert _labels(doc) == [("Tarnow State University", "ORG"), ("Tarnow", "GPE")]


def test_a_persons_own_posts_and_a_campaigns_posts_leave_a_person_a_person() -> None:
    doc = _doc("Varga 's lawyer said Varga campaign chairman Jo Smith lied .", {"PERSON": ["Varga", "Varga", "Jo Smith"]})
    assert [label for _, label in _labels(doc)] == ["PERSON", "PERSON", "PERSON"]


def test_a_people_the_model_took_for_an_organization_is_a_people() -> None:
    # "Tamils and Karen , a minority , fled ." with "Karen" tagged ORG, in apposition to "minority"
    words = "Tamils and Karen , a minority , fled .".split()
    heads = [7, 0, 0, 2, 5, 2, 2, 7, 7]
    deps = ["nsubj", "cc", "conj", "punct", "det", "appos", "punct", "ROOT", "punct"]
    pos = ["PROPN", "CCONJ", "PROPN", "PUNCT", "DET", "NOUN", "PUNCT", "VERB", "PUNCT"]
    doc = Doc(_VOCAB, words=words, heads=heads, deps=deps, pos=pos, lemmas=[w.lower() for w in words],
              ents=["B-NORP", "O", "B-ORG", "O", "O", "O", "O", "O", "O"])
    assert _labels(doc) == [("Tamils", "NORP"), ("Karen", "NORP")]


def test_a_service_people_post_on_is_an_organization_but_one_stray_cue_does_not_turn_a_person() -> None:
    # "Fans posted on Orbly ." with "on Orbly" attached to "posted"
    words = "Fans posted on Orbly . Orbly grew .".split()
    doc = Doc(_VOCAB, words=words, heads=[1, 1, 1, 2, 1, 6, 6, 6], lemmas=["fan", "post", "on", "Orbly", ".", "Orbly", "grow", "."],
              deps=["nsubj", "ROOT", "prep", "pobj", "punct", "nsubj", "ROOT", "punct"],
              pos=["NOUN", "VERB", "ADP", "PROPN", "PUNCT", "PROPN", "VERB", "PUNCT"],
              ents=["O", "O", "O", "B-PERSON", "O", "B-PERSON", "O", "O"], sent_starts=[1, 0, 0, 0, 0, 1, 0, 0])
    assert [label for _, label in _labels(doc)] == ["ORG", "ORG"]
    many = _doc("Orvik 's chief executive left . Orvik said so . Orvik left . Orvik wept . Orvik smiled . Orvik ran .",
                {"PERSON": ["Orvik"] * 6})
    assert [label for _, label in _labels(many)] == ["PERSON"] * 6
