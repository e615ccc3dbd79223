"""Role titles: which words of a phrase name a post, and how the post is worded.

Word-level tests shared by the title and apposition reader (``roles/reader.py``) and the career reader
(``careers.py``). A title is read as [organization words] + [role words]: "Coast Watch" +
"Chief Harbor Agent", "Acme" + "press secretary"; words such as "Chief ... Officer" or
"Assistant ... Attorney" stay in the role even when an unknown word or a country stands between.
"""
from __future__ import annotations

from spacy.tokens import Doc, Token

from ...nlp.lexicon import (
    DEPARTMENT_WORDS,
    GENERIC_PEOPLE,
    KINSHIP_NOUNS,
    NOT_HUMAN,
    OCCUPATION_SUFFIXES,
    RANKS,
    ROLE_MODIFIERS,
    ROLE_NOUNS,
    TITLE_ONLY_NOUNS,
)
from ..grammar.columns import kids

#: Prepositions whose object is the organization of a role noun ("director of X", "spokesman for X").
ORG_PREPS = ("of", "for", "at", "from", "with", "in", "within")
#: Role nouns of people who serve a person: "to" names whom ("an aide to X", "adviser to the minister"),
#: and the organization is that person's office.
ASSISTING_NOUNS = frozenset("""
aide adviser advisor assistant counsel counselor counsellor consultant secretary spokesman spokeswoman spokesperson
chief-of-staff lawyer attorney bodyguard
""".split())
#: Heads of titles that name a post in a national government ("Prime Minister", "Home Secretary").
GOVERNMENT_HEADS = frozenset({"minister", "president", "premier", "chancellor", "secretary", "vice-president"})
#: Nouns of one named for a post ("nominee for ambassador"): the post is the role.
NOMINEE_NOUNS = frozenset(("nominee",))
#: Heads of the titles of members of a legislature, who represent a place ("Senator X from Velmora").
LEGISLATOR_HEADS = frozenset("senator congressman congresswoman representative lawmaker legislator mp".split())
#: Words before "Judge" that name the kind of court ("Circuit Judge": a judge of the Circuit Court).
COURT_KINDS = frozenset("district circuit superior supreme appeals appellate bankruptcy county municipal".split())
#: Heads of the titles of a company's (or a team's) management.
CORPORATE_HEADS = frozenset("executive ceo cfo coo chairman chairwoman chairperson founder co-founder manager coach".split())
#: Heads of the titles of an organization's offices, held in the body an article is about when no other is
#: named ("Program Manager X", "the deputy administrator", "Secretary-General X").
OFFICE_HEADS = frozenset("""director administrator secretary-general undersecretary-general under-secretary-general
deputy commissioner coordinator""".split())
#: Role nouns of one sent to a country or a body: "to" names where ("ambassador to Norway", "envoy to the UN").
ENVOY_NOUNS = frozenset("ambassador envoy emissary representative delegate consul ambassador-designate".split())
#: Common nouns of a part of an organization ("its Asia business", "the bank's research unit").
UNIT_NOUNS = frozenset("""business operation operations arm division unit department office bureau branch section
team desk program programme""".split())
#: Words before a title that make it a past one ("former", "ex-", "the late", "a retired general").
PAST_WORDS = frozenset({"former", "then", "ex", "onetime", "one-time", "erstwhile", "late", "previous", "retired"})
#: Words before a title that are no part of the role's name.
NOT_ROLE_WORDS = PAST_WORDS | {"new", "current", "incoming", "outgoing", "sitting", "newly", "recently", "incumbent"}
#: Heads of titles of a city's or a state's government ("Mayor X", "Governor X").
LOCAL_HEADS = frozenset({"mayor", "governor", "lieutenant-governor", "councillor", "councilor", "alderman",
                         "sheriff", "mayor-elect", "governor-elect"})
#: Modifiers that stay in the role across an organization word ("Assistant U.S. Attorney", "Deputy
#: Defense Secretary").
RANK_MODIFIERS = frozenset("assistant deputy associate acting interim special senior principal".split())
#: Words that, after a role noun and "of", complete a title ("Chief of Staff", "Secretary of State").
OF_TITLE_WORDS = frozenset(DEPARTMENT_WORDS | set("""
staff operations security affairs police mission marketing sales research engineering technology development
strategy policy planning programs programming news sport sports admissions
""".split()))
#: Role nouns whose "of" names a field of study, not a part of the post.
_FIELD_NOUNS = frozenset("professor lecturer researcher scientist teacher expert analyst instructor fellow student".split())
#: Role nouns that name a post only in lowercase ("Comets guard X"; "the National Guard" is a body).
_LOWERCASE_ONLY = frozenset({"guard", "forward", "player"})


def lexicon_form(tok: Token) -> str | None:
    """The role noun of the lexicon a token is a form of: "Attorneys" (a plural the model left
    unlemmatized as a proper noun), "president-elect" (three tokens)."""
    low = tok.lower_
    doc = tok.doc
    if tok.i >= 2 and doc[tok.i - 1].text == "-" and not doc[tok.i - 1].whitespace_:
        joined = doc[tok.i - 2].lower_ + "-" + low
        if joined in ROLE_NOUNS:
            return joined  # "secretary-general": the whole title, not the rank of its second half
    for form in (low, tok.lemma_.lower(), low[:-1] if low.endswith("s") else ""):
        if form in ROLE_NOUNS or form in TITLE_ONLY_NOUNS:
            return form
    return None


def title_head(words: list[Token]) -> str | None:
    """The role noun a title ends in, as the lexicon has it: "undersecretary general" (spaced) is the
    "undersecretary-general"; otherwise ``lexicon_form`` of the last word."""
    if len(words) > 1 and completed_by_general(words[-2], words[-1]):
        joined = words[-2].lower_ + "-general"
        if joined in ROLE_NOUNS:
            return joined
    return lexicon_form(words[-1]) if words else None


def is_assisting(noun: Token) -> bool:
    """A post of serving a person ("aide", "adviser", "chief of staff"): its "to" names whom."""
    low = noun.lemma_.lower()
    return low in ASSISTING_NOUNS or (low == "chief" and any(
        c.dep_ == "prep" and c.lower_ == "of" and any(p.lower_ == "staff" for p in c.children) for c in noun.children))


def is_role_noun(tok: Token) -> bool:
    """A noun naming a position or an occupation ("spokesman", "meteorologist")."""
    lemma = tok.lemma_.lower()
    low = tok.lower_
    form = lexicon_form(tok)
    if form is not None:
        return form not in _LOWERCASE_ONLY or tok.is_lower
    return (tok.pos_ == "NOUN" and tok.is_lower and len(lemma) > 5 and lemma.endswith(OCCUPATION_SUFFIXES)
            and lemma not in GENERIC_PEOPLE and low not in GENERIC_PEOPLE and lemma not in NOT_HUMAN
            and lemma not in KINSHIP_NOUNS and low not in KINSHIP_NOUNS)


def is_role_word(tok: Token) -> bool:
    """A role noun or a word that can stand in a title before one ("deputy", "Defense", "Capt.")."""
    low = tok.lower_
    return is_role_noun(tok) or low in ROLE_MODIFIERS or low in DEPARTMENT_WORDS or low in RANKS


def role_text(words: list[Token]) -> str:
    """The role as a singular phrase ("its sympathizers" -> "sympathizer"), hyphens kept tight."""
    if not words:
        return ""
    last = words[-1]
    head = last.lemma_ if last.tag_ in ("NNS", "NNPS") else last.text
    if is_plural_title([last]):
        head = lexicon_form(last) or head
    if last.text[:1].isupper() and head[:1].islower():
        head = head[:1].upper() + head[1:]
    out = ""
    for t in words[:-1]:
        nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
        out += t.text + ("" if t.text == "-" or (nxt is not None and nxt.text == "-") else " ")
    return (out + head).strip()


def is_government_title(words: list[Token]) -> bool:
    """ "Prime Minister", "Defense Secretary", "President", "President-elect": a post in a national
    government."""
    if len(words) > 2 and words[-2].text == "-" and words[-1].lower_ in ("elect", "designate"):
        words = words[:-2]
    if not words or words[-1].lemma_.lower() not in GOVERNMENT_HEADS:
        return False
    mods = {t.lower_ for t in words[:-1]}
    return (bool(mods & (DEPARTMENT_WORDS | {"prime", "vice", "shadow"}))
            or words[-1].lower_ in ("president", "premier", "chancellor", "vice-president")
            or _portfolio(words[-1]))


def _portfolio(head: Token) -> bool:
    """ "minister of defense", "minister for planning and development": a minister's "of" or "for" a field
    (a common noun, not a named body) is a government portfolio."""
    return head.lemma_.lower() == "minister" and any(
        c.dep_ == "prep" and c.lower_ in ("of", "for") and any(
            p.dep_ == "pobj" and p.ent_type_ not in ("ORG", "GPE", "PERSON", "NORP") for p in kids(c))
        for c in kids(head))


def is_corporate_title(words: list[Token]) -> bool:
    """A title of a company's management ("chief executive", "CFO", "chairwoman", "chief operating officer")."""
    if not words:
        return False
    head = lexicon_form(words[-1])
    return head in CORPORATE_HEADS or (head == "officer" and any(w.lower_ == "chief" for w in words))


def is_past_title(words: list[Token]) -> bool:
    """Whether a title's own words make it a past role ("former", "ex-", "then-")."""
    return any(t.lower_ in PAST_WORDS for t in words)


def is_plural_title(words: list[Token]) -> bool:
    """ "Assistant U.S. Attorneys X and Y": a plural title shared by the names coordinated after it."""
    if not words:
        return False
    last = words[-1]
    return last.lower_.endswith("s") and lexicon_form(last) not in (None, last.lower_)


#: Trailing ranks dropped after a role ("Defense Minister General X": the role is the ministry's).
TRAILING_RANKS = frozenset({"general", "colonel", "major", "lieutenant", "captain", "admiral", "sergeant", "dr", "dr."})
#: Role nouns that "General" follows as part of the title ("Director General", "Attorney General",
#: "Secretary General"), not as a rank of the holder ("Defense Minister General X").
GENERAL_TITLES = frozenset("""secretary undersecretary under-secretary attorney director solicitor inspector surgeon
auditor governor postmaster consul adjutant comptroller accountant registrar""".split())


def completed_by_general(noun: Token, nxt: Token) -> bool:
    """ "Director General", "undersecretary general": "General" right after a role noun it completes."""
    return nxt.lower_ == "general" and noun.lower_ in GENERAL_TITLES


#: Words after a title that say the post is still to be taken ("minister designate", "president elect").
TITLE_SUFFIXES = frozenset({"designate", "elect"})


def of_title(doc: Doc, i: int, floor: int) -> bool:
    """ "Chief of Staff", "Minister of Defence", "Special Agent in Charge": "of" and a department word,
    or "in charge", after a role noun are part of the title (``doc[i]`` is either word)."""
    low = doc[i].lower_
    if low in ("of", "in"):
        words = OF_TITLE_WORDS if low == "of" else {"charge"}
        return i - 1 >= floor and i + 1 < len(doc) and is_role_noun(doc[i - 1]) and doc[i + 1].lower_ in words
    if low == "charge":
        return i - 2 >= floor and doc[i - 1].lower_ == "in" and is_role_noun(doc[i - 2])
    return low in OF_TITLE_WORDS and i - 2 >= floor and doc[i - 1].lower_ == "of" and is_role_noun(doc[i - 2])


#: Ordinals that open a title of their own ("First Minister", "First Deputy Prime Minister").
_TITLE_ORDINALS = frozenset({"first", "second"})


def is_title_ordinal(tok: Token, after: list[Token]) -> bool:
    """ "First" in "First Minister X": a capitalized ordinal right before the title's role words is part
    of the title, not a body's name ("a first minister" is no post of a body called "First")."""
    return (tok.is_title and tok.lower_ in _TITLE_ORDINALS and bool(after) and after[0].i == tok.i + 1
            and is_role_word(after[0]) and any(is_role_noun(t) for t in after))


def bare_title_word(tok: Token) -> bool:
    """ "of State", "of Operations": a department word alone after "of" is part of the title, not an
    organization ("of Government Information" is one)."""
    return tok.lower_ in OF_TITLE_WORDS and not any(c.dep_ == "compound" for c in kids(tok))


def _joining_hyphen(tok: Token) -> bool:
    """A hyphen written between two words, with no space on either side ("attorney-general")."""
    doc = tok.doc
    return tok.text == "-" and 0 < tok.i < len(doc) - 1 and not tok.whitespace_ and not doc[tok.i - 1].whitespace_


def role_words_ending_at(noun: Token, floor: int) -> list[Token]:
    """A role noun with the modifiers before it ("deputy chairman") and the first half of a hyphenated
    title it ends ("attorney-general"), read back to ``floor``."""
    doc, words = noun.doc, [noun]
    while words[0].i > floor:
        prev = doc[words[0].i - 1]
        if words[0].i - 2 >= floor and _joining_hyphen(prev):
            words = [doc[words[0].i - 2], prev, *words]
        elif prev.lower_ in ROLE_MODIFIERS:
            words.insert(0, prev)
        else:
            break
    return words


def title_complement(head: Token) -> str:
    """ "Vice President of Operations", "secretary of state", "secretary-general": the words "of" or a
    hyphen adds to a role noun (not the field of a scholar: "a professor of urban planning" is a professor)."""
    if head.lemma_.lower() in _FIELD_NOUNS:
        return ""
    doc = head.doc
    if head.i + 2 < len(doc) and _joining_hyphen(doc[head.i + 1]) and doc[head.i + 2].is_alpha:
        return "-" + doc[head.i + 2].text  # "secretary-general", as the parser leaves its second half
    for c in kids(head):
        if c.dep_ == "prep" and c.lower_ == "of" and c.i == head.i + 1:
            words = [p for p in kids(c) if p.dep_ == "pobj" and bare_title_word(p)]
            if words:
                p = words[0]
                return " of " + head.doc[c.i + 1:p.i + 1].text
    return ""


def is_adjectival_name(tok: Token) -> bool:
    """ "Electoral Chairman X", "Parliamentary Speaker X": an adjective the model took for an
    organization by itself is a word of the title (the body it derives from is not named by it)."""
    doc = tok.doc
    alone = tok.ent_iob_ == "B" and (tok.i + 1 >= len(doc) or doc[tok.i + 1].ent_iob_ != "I")
    return (alone and tok.ent_type_ == "ORG" and tok.is_title and tok.lower_.endswith(("al", "ary"))
            and tok.i + 1 < len(doc) and is_role_word(doc[tok.i + 1]))
