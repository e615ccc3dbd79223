"""The verb lexicon that gives events their CAMEO root class (pure Python, no spaCy).

Written for kg from general English and the CAMEO codebook (Schrodt, CAMEO 1.1b3): each entry is
a lemma, a lemma with its particle or preposition ("call for", "crack down on", "pull out"), or a
lemma with the head noun of its object ("claim responsibility", "throw grenade", "open fire").
The codebook's sub-codes that decided an entry are named in the comments (e.g. 015 claim
responsibility is under 01, 055 apologize under 05, 166 expel or withdraw under 16).

``classify`` tries the most specific key first: lemma + particle + object, lemma + object,
lemma + particle, lemma + preposition, then the lemma alone. A verb that is not in the lexicon
gets no class (``reason``: "verb not in lexicon: X"); a verb whose senses fall in different
root classes ("strike": a labour strike or a military strike) gets none either unless a more
specific key decides ("ambiguous verb: X"). It never guesses.

A few verbs have a sense that needs an entity target: "recall" personnel or an ambassador is
166/161 (16) while "recalled that ..." is a statement; "assemble"/"gather"/"convene" people is a
meeting (04). ``TARGET_SENSES`` holds them; they apply only when the event is done to a person,
an organization or a group (not to a place or a thing: "held the post" is no detention).
"""
from __future__ import annotations

__all__ = ["LEXICON", "MULTIWORD_HEADS", "TARGET_SENSES", "AMBIGUOUS", "classify"]

# One string per root code; entries separated by commas (an entry may have several words).
_ENTRIES: dict[str, str] = {
    # 01 MAKE PUBLIC STATEMENT: 010 statement, 011 decline comment, 012/013 pessimistic/optimistic
    # comment, 014 consider policy option, 015 claim responsibility, 016 deny responsibility,
    # 017 symbolic act, 018 empathetic comment, 019 express accord.
    "01": """say, state, announce, declare, add, note, explain, remark, comment, mention, report, write,
        tell, speak, speak on, speak about, insist, assert, argue, stress, emphasize, emphasise, reiterate,
        confirm, acknowledge, admit, reveal, disclose, indicate, suggest, predict, forecast,
        claim, claim responsibility, claim credit, accept responsibility, admit responsibility,
        deny, deny responsibility, deny involvement, decline comment, refuse comment, reply, answer,
        testify, inform, brief, notify, describe, characterize, characterise, point out, recount,
        quote, cite, identify as, name as, label, dub, publish, broadcast, post, tweet, blog,
        consider, weigh, ponder, contemplate, express, express concern, express regret, express hope,
        express sympathy, express condolence, offer condolence, send condolence, extend condolence,
        express support, express solidarity, sympathize, sympathise, mourn, grieve, commemorate,
        pay tribute, lay wreath, pray, celebrate, regret, lament, worry, fear, believe,
        agree, agree with, concur, voice, voice concern, warn of, caution, estimate, calculate,
        clarify, elaborate, repeat, remember, reassure, assure, boast, brag, speculate, doubt, wonder,
        disclose detail, give detail, release statement, sign statement, issue statement, make statement,
        hold news conference, hold press conference""",
    # 02 APPEAL: 020-028 make an appeal or request (for aid, cooperation, reform, to meet, ...).
    "02": """appeal, appeal for, appeal to, urge, call for, call on, call upon, ask, ask for, request,
        plead, plead for, plead with, beg, implore, beseech, petition, lobby, invite, seek, seek help,
        encourage, exhort, entreat, solicit, press for, push for, campaign for, apply for,
        seek asylum, request asylum""",
    # 03 EXPRESS INTENT TO COOPERATE: 030-039 (promise, offer, agree to, accept mediation, mediate).
    "03": """promise, pledge, offer, offer help, offer aid, offer assistance, offer support,
        offer proposal, propose, volunteer, commit, commit to, undertake, agree to,
        express willingness, accept mediation, pledge support, promise aid""",
    # 04 CONSULT: 040 consult, 041 discuss by telephone, 042 make a visit, 043 host a visit,
    # 044 meet at a third location, 045 mediate, 046 engage in negotiation.
    "04": """meet, meet with, talk, talk with, talk to, discuss, consult, consult with, confer, negotiate,
        negotiate with, hold talk, hold meeting, hold discussion, visit, call, phone, telephone,
        contact, speak with, speak to, mediate, convene, summon, travel to, fly to, tour, welcome to,
        sit down with, hold summit, attend, host visit, host talk""",
    # 05 ENGAGE IN DIPLOMATIC COOPERATION: 051 praise or endorse, 052 defend verbally, 053 rally
    # support, 054 grant diplomatic recognition, 055 apologize, 056 forgive, 057 sign agreement.
    "05": """praise, endorse, support, back, applaud, commend, hail, laud, thank, congratulate, welcome,
        rally behind, rally support, recognize, recognise, apologize, apologise,
        apologize for, apologise for, apologize to, apologise to, forgive, sign, sign agreement,
        sign deal, sign treaty, ratify, agree on, reach agreement, reach deal, normalize, normalise,
        reconcile, reconcile with, ally, ally with, side with, stand by, vouch for, approve""",
    # 06 ENGAGE IN MATERIAL COOPERATION: 061 economic, 062 military, 063 judicial cooperation
    # (extradite), 064 share intelligence.
    "06": """cooperate, cooperate with, co-operate, collaborate, collaborate with, work with, partner with,
        trade, trade with, invest, invest in, extradite, share intelligence, share information, share,
        train, strengthen, exchange prisoner, exchange information, team up, team up with,
        coordinate, coordinate with, patrol with""",
    # 07 PROVIDE AID: 071 economic, 072 military, 073 humanitarian aid, 074 military protection or
    # peacekeeping, 075 grant asylum.
    "07": """help, assist, aid, provide, provide aid, provide assistance, supply, donate, fund, finance,
        subsidize, subsidise, feed, shelter, protect, guard, escort, rescue, evacuate, grant asylum,
        give aid, give asylum, send aid, deliver aid, airlift, airdrop, care for, look after, bail out,
        resupply, arm, equip""",
    # 08 YIELD: 081/085 ease sanctions, 083 accede to demands (resign), 084 return, release,
    # 086 allow international involvement, 087 de-escalate (truce, retreat, surrender, demobilize).
    "08": """release, free, set free, let go, hand back, return to, surrender, surrender to, retreat,
        retreat from, resign, step down, quit, comply, comply with, yield, yield to, cede, give in,
        give up, back down, capitulate, concede defeat, allow, permit, pardon, amnesty, disarm,
        demobilize, demobilise, lay down, lift sanction, lift ban, lift curfew, lift blockade, lift embargo,
        ease sanction, ease restriction, declare ceasefire, declare truce, accept demand, relent,
        withdraw demand, drop charge, abandon claim""",
    # 09 INVESTIGATE: 091 crime or corruption, 092 human rights abuses, 093 military action,
    # 094 war crimes.
    "09": """investigate, probe, examine, inspect, pore over, look into, search, search for, hunt for,
        question, interrogate, review, audit, scrutinize, scrutinise, open investigation,
        launch investigation, launch probe, monitor, track, trace""",
    # 10 DEMAND: 100-108 demand material/diplomatic cooperation, aid, reform, that target yield.
    "10": """demand, insist on, order, command, instruct, issue order, give order, pressure""",
    # 11 DISAPPROVE: 111 criticize or denounce, 112 accuse, 113 rally opposition, 114 complain
    # officially, 115 bring lawsuit, 116 find guilty or liable.
    "11": """condemn, criticize, criticise, denounce, deplore, decry, blame, accuse, fault, chide, rebuke,
        reprimand, scold, castigate, slam, lambast, lambaste, censure, complain, complain about,
        complain to, object, object to, protest to, disapprove, disapprove of, oppose, mock, ridicule,
        insult, deride, allege, sue, file lawsuit, file suit, file complaint, convict, find guilty,
        disagree, disagree with, dispute, contest, challenge, berate, assail, vilify, discredit, damn,
        impugn""",
    # 12 REJECT: 120-129 reject cooperation, aid, demands; refuse to yield; defy norms; veto.
    "12": """reject, rebuff, spurn, turn down, decline, refuse, veto, defy, ignore, resist, snub,
        repudiate, disregard, dismiss claim, reject proposal, reject demand, reject plea, reject claim,
        rule out, brush off""",
    # 13 THREATEN: 131-139 threaten with sanctions, force, repression; give an ultimatum.
    "13": """threaten, menace, intimidate, warn against, issue ultimatum, give ultimatum, threaten with,
        blackmail, issue threat, make threat, vow revenge""",
    # 14 PROTEST: 141 demonstrate or rally, 142 hunger strike, 143 strike or boycott,
    # 144 obstruct passage, 145 protest violently, riot.
    "14": """protest, protest against, demonstrate, demonstrate against, rally, march, march on, riot,
        picket, stage protest, hold protest, hold rally, hold demonstration, go on strike,
        hunger strike, walk out on, obstruct, blockade road, sit in""",
    # 15 EXHIBIT FORCE POSTURE: 150 demonstrate military or police power, 151-154 raise alert,
    # mobilize armed forces.
    "15": """deploy, mobilize, mobilise, station, reinforce, dispatch, send troop, send soldier, send force,
        send warship, deploy troop, mass troop, put on alert, place on alert, put on high alert,
        place on high alert, test-fire, test fire, conduct exercise, hold exercise, hold drill,
        parade, patrol, fortify, muster""",
    # 16 REDUCE RELATIONS: 161 reduce or break diplomatic relations, 162 reduce or stop aid,
    # 163 impose embargo or sanctions, 164 halt negotiations, 165 halt mediation, 166 expel or
    # withdraw (peacekeepers, inspectors, aid agencies, personnel).
    "16": """expel, withdraw, withdraw from, pull out, pull out of, order out, recall ambassador,
        break off, break with, sever, sever tie, cut tie, cut off, suspend, suspend aid, suspend talk,
        downgrade, sanction, impose sanction, place sanction, embargo, impose embargo, freeze aid,
        halt aid, halt talk, walk out, boycott talk, close embassy, evacuate embassy""",
    # 17 COERCE: 171 seize or damage property (1711 confiscate, 1712 destroy), 172 administrative
    # sanctions (restrictions, bans, curfew, martial law), 173 arrest, detain, charge with legal
    # action, 174 expel or deport individuals, 175 violent repression.
    "17": """arrest, detain, jail, imprison, incarcerate, apprehend, nab, round up, lock up, hold captive,
        hold in custody, take into custody, charge, charge with, indict, prosecute, sentence, deport,
        exile, banish, evict, repress, crack down, crack down on, suppress, disperse, quell, punish,
        penalize, penalise, fine, ban, bar, outlaw, prohibit, forbid, censor, restrict, impose curfew,
        impose ban, impose restriction, impose martial law, declare martial law, declare emergency,
        seize, confiscate, impound, expropriate, nationalize, destroy, demolish, raze, bulldoze,
        burn, torch, set fire, loot, plunder, ransack, vandalize, vandalise, damage, sabotage, hack,
        hack into, shut down, coerce, force, compel, harass, persecute, tear-gas, teargas,
        deny entry, deny visa, turn away, turn back, push back""",
    # 18 ASSAULT: 181 abduct, hijack, take hostage, 182 physically assault (1821 sexual assault,
    # 1822 torture, 1823 kill by physical assault), 183 non-military bombing (suicide, car,
    # roadside), 184 human shield, 185 attempt to assassinate, 186 assassinate.
    "18": """kill, murder, assassinate, slay, shoot, shoot dead, shoot at, gun down, stab, knife, beat,
        beat up, assault, attack, injure, wound, hurt, maim, torture, rape, molest, behead, decapitate,
        execute, lynch, strangle, poison, abduct, kidnap, hijack, take hostage, hold hostage,
        seize hostage, detonate, blow up, throw grenade, hurl grenade, lob grenade, throw stone,
        hurl stone, throw rock, hurl rock, throw bomb, hurl bomb, throw petrol bomb, throw molotov,
        throw acid, carry out attack, conduct attack, launch attack, mount attack, stage attack,
        carry out bombing, carry out killing, ambush, bludgeon, stone, run over""",
    # 19 FIGHT: 190 conventional military force, 191 blockade or restrict movement, 192 occupy
    # territory, 193 small arms and light weapons, 194 artillery and tanks, 195 aerial weapons,
    # 196 violate ceasefire.
    "19": """fight, fight with, fight against, clash, clash with, battle, battle with, exchange fire,
        fire on, fire at, fire upon, open fire, open fire on, fire shell, fire round, fire rocket,
        fire missile, fire mortar, fire artillery, fire shot, launch rocket, launch missile,
        launch strike, launch airstrike, launch offensive, launch raid, carry out airstrike,
        carry out strike, conduct airstrike, shell, bombard, strafe, invade, occupy, annex, besiege,
        blockade, encircle, surround, overrun, retake, recapture, shoot down, violate ceasefire,
        violate truce, wage war, counterattack, sink, torpedo""",
    # 20 USE UNCONVENTIONAL MASS VIOLENCE: 201 mass expulsion, 202 mass killings, 203 ethnic
    # cleansing, 204 weapons of mass destruction.
    "20": """massacre, slaughter, exterminate, annihilate, commit genocide, commit massacre,
        ethnically cleanse, carry out massacre""",
}

#: Verbs whose senses fall in different root classes; they get a class only by a more specific key.
AMBIGUOUS: dict[str, str] = {
    "strike": "a labour strike (14) or a military strike (19)",
    "bomb": "a non-military bombing (18) or an air raid (19)",
    "fire": "firing weapons (19) or dismissing someone (17)",
    "hit": "a blow (18), a strike (19) or figurative",
    "raid": "a police raid (17) or a military raid (19)",
    "capture": "an arrest (17) or taking territory (19)",
    "storm": "a violent protest (14), a police action (17) or an assault (19)",
    "defend": "defending verbally (05) or militarily (15/19)",
    "warn": "a statement (01) or a threat (13)",
    "vow": "a promise (03) or a threat (13)",
    "recall": "remembering (01) or recalling personnel (16)",
    "assemble": "convening people (04), mobilizing (15) or building something",
    "gather": "convening people (04), a rally (14) or collecting things",
    "target": "attacking (18/19) or aiming at figuratively",
    "hold": "holding captive (17), a meeting (04) or owning",
    "take": "seizing (17), taking part or a light verb",
    "give": "aid (07), a statement (01) or a light verb",
    "send": "aid (07), troops (15) or a message (01)",
    "boycott": "a civil boycott (14) or a state embargo (16)",
    "block": "obstructing passage (14) or restricting freedoms (17)",
    "accept": "accepting mediation (03) or demands (08)",
    "join": "joining forces (06), a protest (14) or an organization",
    "return": "returning persons or property (08) or going back",
    "hand": "handing over suspects (06) or power (08)",
    "close": "a closure (17) or a reduction of relations (16)",
    "cut": "cutting aid (16) or figurative",
    "lift": "lifting sanctions (08) or physical",
    "impose": "sanctions (16), restrictions (17) or figurative",
    "launch": "an attack (18/19), an investigation (09) or a product",
    "carry": "a light verb (carry out ...) or transport",
    "conduct": "a light verb (conduct an attack, a raid, an inquiry)",
    "save": "a rescue (07) or keeping something",
    "lead": "commanding or guiding",
    "push": "pressure (10) or physical movement",
    "identify": "naming someone (01) or an investigation's finding (09)",
    "respond": "a reply (01) or a military response (19)",
    "host": "hosting a visit (04) or hosting content",
    "retaliate": "verbal (11) or military (19) retaliation",
}

#: Senses that need an entity target ("recalled all military personnel", "assembling leaders").
TARGET_SENSES: dict[str, str] = {
    "recall": "16",  # 166 withdraw personnel, 161 recall an ambassador
    "assemble": "04",  # convene a meeting of people
    "gather": "04",
    "summon": "04",
    "hand": "06",  # hand over a suspect: 063 judicial cooperation
    "defend": "05",  # defend a person verbally (052)
    "return": "08",  # 0842 return persons
    "send": "15",  # send people (troops) somewhere
    "hold": "17",  # hold someone: detention
    "target": "18",
    "capture": "17",
    "save": "07",
    "host": "04",  # 043 host a visit
}


def _build() -> dict[str, str]:
    table: dict[str, str] = {}
    for code, entries in _ENTRIES.items():
        for raw in entries.split(","):
            key = " ".join(raw.split())
            if not key:
                continue
            if key in table and table[key] != code:
                raise ValueError(f"CAMEO lexicon: {key!r} is in {table[key]} and {code}")
            table[key] = code
    return table


#: key ("kill", "call for", "claim responsibility") -> CAMEO root code "01".."20".
LEXICON: dict[str, str] = _build()
#: Lemmas that begin a longer key ("call" of "call for"): only these need the parse for their keys.
MULTIWORD_HEADS: frozenset[str] = frozenset(k.split()[0] for k in LEXICON if " " in k)


def classify(keys: list[str], lemma: str, has_target: bool) -> tuple[str | None, str, str | None]:
    """(code or None, the key used or tried, reason when there is no code).

    ``keys`` are the lookup keys from the most specific to the least (the lemma last).
    """
    for key in keys:
        code = LEXICON.get(key)
        if code is not None and (key != lemma or lemma not in AMBIGUOUS):
            return code, key, None
    if has_target and lemma in TARGET_SENSES:
        return TARGET_SENSES[lemma], lemma, None
    if lemma in AMBIGUOUS:
        return None, lemma, f"ambiguous verb: {lemma} ({AMBIGUOUS[lemma]})"
    return None, lemma, f"verb not in lexicon: {lemma}"
