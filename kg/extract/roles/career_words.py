"""The words of careers: verbs and nouns of holding, taking, leaving and being given a post."""
from __future__ import annotations

#: Verbs whose subject holds the role named by their complement ("was", "became", "served as").
BEING = frozenset("be become remain stay serve work act function return continue take step".split())
#: Verbs of appointing whose subject gives the post its organization ("the President intends to
#: nominate X to be ambassador": a post of the President's government).
APPOINTERS = frozenset("name appoint nominate renominate reappoint designate select choose pick tap hire promote install".split())
#: Verbs of appointing: their object (or passive subject) holds the role ("named Ann Lee chief").
APPOINTING = APPOINTERS | frozenset("elect re-elect reelect instal confirm declare identify make swear sworn recruit sign add".split())
#: Verbs of dismissing: their object (or passive subject) held the role ("the Rams fired coach X").
DISMISSING = frozenset("fire sack dismiss oust depose".split())
#: Verbs of moving a player or an employee to another organization ("traded guard X to the Rams").
TRANSFERRING = frozenset("trade transfer loan".split())
#: Verbs of working for an organization, and the role they give ("played for Benfica": player); with no
#: role word in the text the role is "member" (the gold conventions' word for it).
WORKING = {"work": "member", "spend": "member", "play": "player", "begin": "member", "start": "member",
            "move": "member"}
#: Bodies one serves on ("served on the board of Acme").
BODY_NOUNS = frozenset("board committee council commission panel bench court cabinet".split())
#: "rose to managing director", "was promoted to chief": the role reached.
RISING = frozenset("rise promote elevate advance move".split())
#: Verbs of leaving a post: "resigned as minister", "stepped down as chairman" (a past role).
LEAVING = frozenset("resign quit retire leave depart".split())
#: "joined Acme (as chief engineer)": the object is the organization.
JOINING = frozenset("join rejoin".split())
#: "succeeded Tom Roe as director": the subject holds the role, and the object held it.
SUCCEEDING = frozenset("succeed replace".split())
#: Verbs that say who leads an organization, and the role they give.
HEAD_VERBS = {"head": "head", "lead": "leader", "chair": "chair", "run": "head", "direct": "director",
              "found": "founder", "co-found": "co-founder", "cofound": "co-founder", "manage": "manager",
              "coach": "coach", "command": "commander", "edit": "editor", "captain": "captain", "skipper": "captain"}
#: Ranks of a noun that make "the first woman to lead X" say who led X.
FIRSTS = frozenset("first second third last only youngest oldest".split())
#: Nouns of appointing or holding a post: "the appointment of Ann Lee as chief", "Ann Lee's election as
#: mayor", "her tenure as chief executive of Acme", "whose service as head of the bureau".
APPOINTMENT_NOUNS = frozenset("""
appointment nomination election reelection re-election promotion selection tenure stint service time term
""".split())
#: Objects of "assume", "take over" that are the leading of a body, and the role they give
#: ("assumed command of the fleet": its commander).
COMMAND_NOUNS = {"command": "commander", "leadership": "leader", "helm": "head", "reins": "head",
                 "chairmanship": "chair", "presidency": "president", "captaincy": "captain"}
#: Verbs of giving up the leading of a body to a successor ("relinquished command of the fleet to X").
HANDING_OVER = frozenset("relinquish cede surrender hand pass".split())
#: Verbs of taking or holding a post named as an object ("assumed the post of chief justice") or won
#: by an election or appointment ("won election as mayor").
TAKING = frozenset("assume hold occupy fill win secure".split())
#: "Her earlier posts included deputy minister and envoy to X": verbs that list a holder's posts.
LISTING = frozenset("include comprise".split())
#: Verbs whose objects are listed with their posts ("named A as chief and B as deputy", "the new cabinet
#: includes A as finance minister", "kept B as foreign minister").
LINE_UP = APPOINTERS | LISTING | frozenset("keep retain".split())
VERBS = (BEING | APPOINTING | DISMISSING | LEAVING | JOINING | SUCCEEDING | RISING | TRANSFERRING | {"sit"}
          | frozenset(WORKING) | frozenset(HEAD_VERBS) | APPOINTMENT_NOUNS | TAKING | LISTING | HANDING_OVER)
#: Modals of a role that may be held, not that is ("could lead", "should chair").
HYPOTHETICAL = frozenset("could might may should must would".split())
#: Auxiliaries of a role not (yet) held: "will head", "would lead", "to chair".
NOT_YET = HYPOTHETICAL | frozenset("will shall to 'll".split())
#: Nouns of being put in a post ("nominated for assignment as commander").
ASSIGNMENTS = frozenset("appointment assignment reassignment nomination reappointment role".split())
#: Nouns for a post one is elected or appointed "to" ("elected to the presidential post").
POST_NOUNS = frozenset("post office position seat presidency premiership chairmanship job".split())
#: Adverbs that put a role in the past ("previously worked at", "was once a director of").
PAST_ADVERBS = frozenset("previously formerly once earlier then later ago before".split())
EMPLOYERS = ("for", "at", "with", "in")
#: Nouns (lemmas) for the posts one has held, the subject of a verb of listing ("her earlier posts included").
CAREER_NOUNS = POST_NOUNS | ASSIGNMENTS
#: Spans of time a post was held for ("served two terms as mayor", "spent ten years as director").
SPANS_OF_TIME = frozenset("term terms year years decade decades month months stint tenure".split())
#: Appointing verbs whose subject approves or names a holder without employing them ("the Senate
#: confirmed X as ambassador", "officials identified X as a leader of Y").
ENDORSING = frozenset("confirm swear sworn identify declare recognize recognise".split())
