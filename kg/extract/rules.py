"""The registry of extraction rules: every fact names the rule that made it (``Event.rule``, ``Role.rule``,
``kg:rule`` in the graph), and every name a fact can carry is registered here with the construction it reads,
an invented example and the module where it lives.

``docs/rules.md`` is generated from this table (``python -m kg.extract.rules > docs/rules.md``); a test keeps it
current, fails on a rule name used in ``kg/extract`` that is not registered, and extracts each example to see
that it gives a fact made by its rule.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One named rule: what it reads, an invented sentence it reads, where its code is."""

    name: str
    kind: str  # "event" or "role"
    construction: str
    example: str
    module: str


RULES: tuple[Rule, ...] = (
    # ----- events ------------------------------------------------------------------------------------
    Rule("svo", "event", "a verb with its own subject and its object, or a preposition's object that it aims at",
         "Police arrested two protesters in the square.", "events/reader.py"),
    Rule("inherited-subject", "event", "a verb whose subject is another clause's: control, coordination, "
         "participial adjuncts", "The senator criticized the board and praised the workers.", "events/reader.py"),
    Rule("passive", "event", "a passive verb with its 'by' agent", "The missing hikers were found by a farmer.",
         "events/reader.py"),
    Rule("passive-agentless", "event", "a passive done to a person or group, with no agent named",
         "Three soldiers were injured on Tuesday.", "events/reader.py"),
    Rule("reciprocal", "event", "coordinated subjects of a reciprocal verb, each the other's target",
         "Norland and Velmark exchanged fire on Sunday.", "events/reader.py"),
    Rule("nominal", "event", "an event told by a noun: 'the assassination of X by Y', 'Y's murder of X'",
         "The killing of Tom Dunn by Paul Rook shocked the town.", "events/nominal.py"),
    Rule("claim-responsibility", "event", "a claim of responsibility for an attack the article tells of no other way",
         "The Black Reed Front claimed responsibility for the bombing of the Harlow market.", "context/reader.py"),
    # ----- roles -------------------------------------------------------------------------------------
    Rule("title", "role", "a title before a name, with the organization in it or before it",
         "Orvik Bank spokesman Tom Reyes said rates would rise.", "roles/reader.py"),
    Rule("apposition", "role", "a title set beside a name, either order",
         "Ann Lee, the chief executive of Orvik Bank, resigned.", "roles/reader.py"),
    Rule("predicate", "role", "a post given by a verb: 'is', 'became', 'served as', 'was named', 'joined X as'",
         "Ann Lee has been chief executive of Orvik Bank since 2015.", "roles/careers.py"),
    Rule("career-list", "role", "a holder's posts listed by 'include': 'her earlier posts included A and B'",
         "Ann Lee's earlier posts included deputy head of the Orvik Budget Office.", "roles/careers.py"),
    Rule("of-organization", "role", "a name with 'of' an organization and no role word: a member",
         "Ann Fu of the Green Party won her seat.", "roles/reader.py"),
    Rule("implicit-country", "role", "a government title with no country named, in an article about one country",
         "Peru held elections on Sunday. Peru voted calmly. Prime Minister Ana Lind thanked the voters.",
         "roles/reader.py"),
    Rule("implicit-company", "role", "a company title with no company named, in an article about one company",
         "Orvik Bank cut 300 jobs on Monday. The company said Orvik Bank would hire again next year, and Orvik "
         "Bank shares fell. Chief executive Ann Lee apologized to the staff of Orvik Bank.", "roles/reader.py"),
    Rule("implicit-organization", "role", "an office title with no body named, in an article about one body",
         "Velcor Aerospace named a new team on Monday. Velcor Aerospace said the change was planned. "
         "Velcor Aerospace added that Deputy Administrator Lena Dorn will lead it.", "roles/reader.py"),
    Rule("implicit-place", "role", "a local title ('Mayor X') with no town named, after the article named one town",
         "Floods hit the town of Kelby on Monday. Mayor Ann Lee closed the schools.", "roles/reader.py"),
    Rule("department-title", "role", "'Secretary of State X', 'Defense Secretary X': a department's head",
         "U.S. Secretary of State Tom Ward visited Peru.", "roles/reader.py"),
    Rule("role-of-org-before", "role", "'Director of the Y X': a title with its organization before the name",
         "Director of the Harlow Water Board Ann Lee said supplies were safe.", "roles/reader.py"),
    Rule("one-of-them", "role", "'X and other members of Y', 'members of Y, including X'",
         "Ann Lee and other members of the Green Party left the hall.", "roles/reader.py"),
    Rule("whose-body", "role", "'X, whose party ...': the body a possessive relative names",
         "Opposition leader Ruth Okonjo, whose Democratic Alliance party brought the motion, said the minister "
         "lied.", "roles/reader.py"),
    Rule("works-for", "role", "'works for Acme', 'spent a decade at Acme', 'began her career at Acme'",
         "Ann Lee began her career at Orvik Bank in 1994.", "roles/careers.py"),
    Rule("member-of-body", "role", "'served on the board of Acme', 'was elected to the Senate'",
         "Tom Ward has served on the boards of Acme Corp. and Delmarco Bank.", "roles/careers.py"),
    Rule("heading-verb", "role", "'who heads Acme', 'founded Acme', 'chairs the committee'",
         "Lena Park, who heads the Harbor Authority, resigned on Monday.", "roles/careers.py"),
    Rule("predecessor", "role", "'X will succeed Y as director': Y held the post",
         "Mara Voss replaced Tom Reyes as coach of the Harlow Comets.", "roles/careers.py"),
    Rule("transferred", "role", "'the Hawks traded X to the Rams': the team left and the team joined",
         "The Harlow Hawks traded guard Tom Reyes to the Orvik Rams on Monday.", "roles/careers.py"),
    Rule("appointed-list", "role", "names listed after a verb of appointing, each with 'to be' or 'as' and a post",
         "Velcor Aerospace named a new team on Monday. Velcor Aerospace said the change was planned. Earlier, "
         "Velcor Aerospace named Peter Turner to be deputy administrator, Maria Lopez of Chile to be Director for "
         "Trade, and David Brown as its chief of staff.", "roles/appointed.py"),
    Rule("described-topic", "role", "a sentence naming no one whose subject is 'the' and a title, told an age or "
         "a death: the person the article is about, named just before",
         "Ivo Pell died on Monday in Tarsk, his family said. Pell was a writer. Pell lived in Tarsk. The co-founder "
         "of the Harka Trust and former editor of the Velmar Times was 81.", "roles/reader.py"),
    Rule("joined", "role", "'joined Acme': a member", "Ann Lee joined Orvik Bank in 2004.", "roles/careers.py"),
    Rule("left", "role", "'left Acme', 'quit Acme': a member before", "Ann Lee left Orvik Bank in 2010.",
         "roles/careers.py"),
)

BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}


def markdown() -> str:
    """docs/rules.md: every rule with its construction and example, events first."""
    lines = ["# Extraction rules", "",
             "Every event and role in the graph names the rule that read it (`kg:rule`, shown on the article page).",
             "Generated from `kg/extract/rules.py` (`python -m kg.extract.rules > docs/rules.md`); "
             "`docs/adding-a-rule.md` says how to add one.", ""]
    for kind, title in (("event", "Events"), ("role", "Roles")):
        lines += [f"## {title}", "", "| rule | construction | example | code |", "|---|---|---|---|"]
        lines += [f"| `{r.name}` | {r.construction} | {r.example} | `kg/extract/{r.module}` |"
                  for r in RULES if r.kind == kind]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
