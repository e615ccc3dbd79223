"""Word lists about English that the rules use: general vocabulary, never article text.

Each list is a closed class a rule needs to tell kinds of words apart (a role noun from
an object noun, a demonym from an organization). Extend them here, in one place.
"""
from __future__ import annotations

#: Nouns that name a position someone holds ("spokesman", "minister").
ROLE_NOUNS = frozenset("""
spokesman spokeswoman spokesperson secretary minister president vice-president premier chancellor
leader chief head director commander general governor mayor senator congressman congresswoman
representative ambassador envoy official officer chairman chairwoman chair chairperson ceo cfo coo
founder co-founder executive manager editor correspondent reporter journalist columnist analyst expert
adviser advisor aide deputy lawmaker legislator mp judge prosecutor attorney lawyer barrister solicitor
campaigner activist member sympathizer supporter spokespeople coordinator administrator superintendent
inspector commissioner chief-of-staff captain colonel lieutenant major sergeant admiral marshal
king queen prince princess emperor monarch pope bishop archbishop cardinal imam rabbi pastor priest cleric
principal dean professor researcher scientist economist strategist negotiator delegate councillor
councilor alderman sheriff treasurer comptroller auditor registrar chairman-elect president-elect
owner partner president-designate producer anchor presenter host commentator blogger writer author agent
boss emir sultan ruler monarch chieftain candidate nominee speaker magistrate clerk
counsel trustee employee staffer intern assemblyman assemblywoman councilman councilwoman consul
diplomat surgeon physician nurse engineer architect pilot astronaut detective constable trooper warden
player guard quarterback striker goalkeeper midfielder pitcher
vice-chairman vice-chair vice-minister director-general secretary-general undersecretary-general under-secretary-general attorney-general veteran
fellow scholar provost rector chaplain co-chair vice-chancellor justice liaison lyricist songwriter
""".split())

#: Nouns that name a post only inside a title ("Special Agent X", "Comets coach X"); elsewhere they
#: name things as often as people ("a nerve agent", "a coach"), so they are no ROLE_NOUNS.
TITLE_ONLY_NOUNS = frozenset("agent coach forward".split())

#: Military and honorific ranks that may stand before a name without naming the role.
RANKS = frozenset("""
general gen. major lieutenant colonel col. captain capt. sergeant sgt. admiral adm. marshal brigadier
commander cmdr. corporal private dr. dr mr. mr mrs. mrs ms. ms sir dame lord lady rev. reverend
sen. rep. gov. prof. professor president prime minister maj. lt. capt. cpl. pvt. brig. adm. supt. insp. det. amb.
""".split())

#: Words that modify a role noun without being an organization ("press secretary", "top official").
ROLE_MODIFIERS = frozenset("""
press deputy chief senior top foreign defense defence interior home finance justice health education
labor labour trade commerce energy environment transport transportation agriculture state
prime vice executive general assistant associate acting interim former then new shadow
managing national regional local police military army navy security intelligence communications
special principal presidential parliamentary federal district county staff lead founding honorary
civil public
""".split())

#: Common nouns that name a kind of organization: "the party", "the company" stand for the one
#: organization of that kind the article names.
ORGANIZATION_NOUNS = frozenset("""
party company firm bank group center centre institute university college agency ministry department
commission committee council board court union association foundation trust corporation network team
club league newspaper paper station airline school hospital museum laboratory lab bureau office
organization organisation movement alliance coalition fund charity society service
""".split())

#: Words in an organization name that make a place name into a body ("Varno police").
ORG_HEADS = frozenset("""
police army navy military government ministry department council parliament congress senate court
forces force guard administration agency office bureau commission committee authority authorities
party coalition alliance union embassy consulate legislature cabinet regime
""".split())

#: Nouns for people or groups of people: an unnamed actor must be one of these (or end like one).
HUMAN_NOUNS = frozenset("""
people person man men woman women child children boy boys girl girls family families crowd crowds
group groups gunman gunmen assailant assailants attacker attackers shooter shooters bomber bombers
killer killers militant militants insurgent insurgents rebel rebels fighter fighters soldier soldiers
troops troop forces force police policeman policemen officer officers official officials authorities
authority government governments leader leaders member members staff personnel worker workers
employee employees resident residents citizen citizens civilian civilians protester protesters
demonstrator demonstrators activist activists student students teacher teachers doctor doctors
nurse nurses patient patients victim victims survivor survivors witness witnesses expert experts
analyst analysts critic critics supporter supporters sympathizer sympathizers opponent opponents
voter voters journalist journalists reporter reporters correspondent correspondents editor editors
associate associates others
team teams delegation delegations committee panel council coalition alliance company companies
firm firms agency agencies ministry ministries department departments administration regime
adviser advisers advisor advisors servicemen serviceman commander commanders partner partners
accomplice accomplices foreigner foreigners neighbour neighbours neighbor neighbors migrant migrants
refugee refugees fisherman fishermen hacker hackers user users poster posters blogger bloggers
lawmaker lawmakers legislator legislators minister ministers diplomat diplomats envoy envoys
investigator investigators prosecutor prosecutors judge judges lawyer lawyers spokesman spokeswoman
spokesperson countrymen nationals prisoner prisoners detainee detainees hostage hostages
navy army military guard guards crew crews passenger passengers individual individuals someone
somebody anyone everyone passerby bureaucrats bureaucrat campaigner campaigners claimant claimants
seeker seekers director directors owner owners operator operators manager managers chief chiefs
board boards union unions cartel cartels gang gangs club clubs jury juries court courts network networks
parliament congress senate cabinet church churches party parties militia militias army armies
mother mothers father fathers daughter daughters sister sisters brother brothers son sons wife wives
husband husbands parent parents relative relatives mayor mayors ambassador ambassadors
baby babies infant infants toddler toddlers kid kids teen teens adult adults elder elders youth youths
colleague colleagues counterpart counterparts teammate teammates rival rivals friend friends enemy enemies
ally allies alien aliens slave slaves native natives immigrant immigrants settler settlers pilgrim pilgrims
inmate inmates convict convicts captive captives fugitive fugitives plaintiff plaintiffs defendant defendants
widow widows orphan orphans peasant peasants tourist tourists athlete athletes coach coaches fan fans
candidate candidates incumbent incumbents nominee nominees opposition referee referees trainee trainees
appointee appointees evacuee evacuees retiree retirees attendee attendees veteran veterans pilot pilots
astronaut astronauts cosmonaut cosmonauts marine marines commando commandos recruit recruits cadet cadets
spy spies thief thieves pirate pirates guerrilla guerrillas paramilitary paramilitaries mercenary mercenaries
volunteer volunteers medic medics paramedic paramedics mob mobs audience public commission commissions league leagues
organization organizations organisation organisations body bodies newspaper newspapers journal journals
television tv radio broadcaster broadcasters magazine magazines daily tabloid tabloids
cousin cousins uncle uncles aunt aunts nephew nephews niece nieces sibling siblings spouse spouses twin twins
grandmother grandmothers grandfather grandfathers grandparent grandparents grandson grandsons granddaughter
granddaughters grandchild grandchildren boyfriend boyfriends girlfriend girlfriends fiance fiancee stepfather
stepmother stepson stepdaughter
""".split())

#: Human nouns that name a body of people, not one person: "it" or "they", never "he" or "she".
COLLECTIVE_NOUNS = frozenset("""
crowd group family team delegation committee panel council coalition alliance company firm agency ministry
department administration regime government board union cartel gang club jury court network parliament
congress senate cabinet church party militia army navy military police force forces authority staff
personnel crew opposition commission audience public community tribe clan league
""".split())

#: Nouns and titles that tell a person is a man ("Mr. Lee", "his brother"). Not "spokesman" or
#: "chairman": news gives women those titles too ("spokesman Capt. Ann Lee ... She said").
MALE_WORDS = frozenset("""
mr mr. sir lord king prince emperor duke father brother son husband uncle nephew grandfather grandson
boyfriend fiance stepfather stepson man boy gentleman congressman businessman
policeman nobleman sultan emir monk priest
""".split())

#: Nouns and titles that tell a person is a woman ("Ms. Lee", "her sister", "the spokeswoman").
FEMALE_WORDS = frozenset("""
mrs mrs. ms ms. miss madam madame dame lady queen princess empress duchess mother sister daughter wife aunt
niece grandmother granddaughter girlfriend fiancee stepmother stepdaughter widow woman girl spokeswoman
chairwoman congresswoman businesswoman policewoman actress nun
""".split())

#: Nouns for one person (a role, kin or company kept): "his teammate X" names a person X.
PERSON_NOUNS = ROLE_NOUNS | MALE_WORDS | FEMALE_WORDS | frozenset("""
teammate colleague friend neighbour neighbor rival partner coach player fan resident student teacher
worker driver suspect victim survivor witness lawyer doctor nurse soldier officer pilot singer actor
""".split())

#: Suffixes of agent nouns (worker, protester, activist, politician, assistant).
HUMAN_SUFFIXES = ("er", "ers", "or", "ors", "ist", "ists", "ian", "ians", "ant", "ants", "ent", "ents")

#: Agent-suffix words that are not people.
NOT_HUMAN = frozenset("""
computer computers paper papers letter letters number numbers order orders power powers water
matter matters border borders center centre centers quarter quarters corner corners chapter sector
sectors factor factors error errors interior exterior monitor monitors reactor reactors motor
river rivers cancer weather winter summer member-state murder murders cover disaster disasters
counter filter layer layers register tower towers shelter shelters folder poster-board career careers
theater theaters banner banners charter charters tractor tractors
event events statement statements government-s element elements comment comments document documents
incident incidents agreement agreements moment moments percent content contents payment investment
agent-less treatment movement movements argument arguments amendment amendments
establishment equipment environment development developments management settlement sentiment
client-side talent patent current accent component components segment segments basement
christian-ity guardian-ship plant plants grant grants giant giants loudspeaker loudspeakers speaker-system
transmitter transmitters container containers trailer trailers
pollutant pollutants contaminant contaminants lubricant coolant sealant stimulant stimulants antioxidant
antioxidants propellant disinfectant disinfectants deodorant restaurant restaurants elephant elephants
""".split())

#: Demonyms and adjectives of place -> the country or region they name (general geography).
DEMONYMS: dict[str, str] = {
    "afghan": "Afghanistan", "albanian": "Albania", "algerian": "Algeria", "american": "United States",
    "argentine": "Argentina", "argentinian": "Argentina", "australian": "Australia", "austrian": "Austria",
    "bangladeshi": "Bangladesh", "belgian": "Belgium", "brazilian": "Brazil", "british": "United Kingdom",
    "bulgarian": "Bulgaria", "burmese": "Myanmar", "cambodian": "Cambodia", "canadian": "Canada",
    "chilean": "Chile", "chinese": "China", "colombian": "Colombia", "croatian": "Croatia", "cuban": "Cuba",
    "czech": "Czech Republic", "danish": "Denmark", "dutch": "Netherlands", "egyptian": "Egypt",
    "emirati": "United Arab Emirates", "english": "England", "eritrean": "Eritrea", "ethiopian": "Ethiopia",
    "european": "Europe", "filipino": "Philippines", "finnish": "Finland", "french": "France",
    "georgian": "Georgia", "german": "Germany", "greek": "Greece", "hungarian": "Hungary",
    "indian": "India", "indonesian": "Indonesia", "iranian": "Iran", "iraqi": "Iraq", "irish": "Ireland",
    "israeli": "Israel", "italian": "Italy", "japanese": "Japan", "jordanian": "Jordan", "kenyan": "Kenya",
    "korean": "Korea", "kuwaiti": "Kuwait", "lebanese": "Lebanon", "libyan": "Libya",
    "malaysian": "Malaysia", "mexican": "Mexico", "moroccan": "Morocco", "nepalese": "Nepal",
    "nigerian": "Nigeria", "north korean": "North Korea", "norwegian": "Norway", "pakistani": "Pakistan",
    "palestinian": "Palestine", "peruvian": "Peru", "polish": "Poland", "portuguese": "Portugal",
    "qatari": "Qatar", "romanian": "Romania", "russian": "Russia", "saudi": "Saudi Arabia",
    "scottish": "Scotland", "serbian": "Serbia", "singaporean": "Singapore", "somali": "Somalia",
    "south african": "South Africa", "south korean": "South Korea", "spanish": "Spain",
    "sri lankan": "Sri Lanka", "sudanese": "Sudan", "swedish": "Sweden", "swiss": "Switzerland",
    "syrian": "Syria", "taiwanese": "Taiwan", "thai": "Thailand", "tunisian": "Tunisia",
    "turkish": "Turkey", "ugandan": "Uganda", "ukrainian": "Ukraine", "venezuelan": "Venezuela",
    "vietnamese": "Vietnam", "welsh": "Wales", "yemeni": "Yemen", "zimbabwean": "Zimbabwe",
    "angolan": "Angola", "armenian": "Armenia", "azerbaijani": "Azerbaijan", "bahraini": "Bahrain",
    "belarusian": "Belarus", "bolivian": "Bolivia", "bosnian": "Bosnia", "cameroonian": "Cameroon",
    "chadian": "Chad", "congolese": "Congo", "costa rican": "Costa Rica", "cypriot": "Cyprus",
    "dominican": "Dominican Republic", "ecuadorian": "Ecuador", "estonian": "Estonia", "fijian": "Fiji",
    "gambian": "Gambia", "ghanaian": "Ghana", "guatemalan": "Guatemala", "guinean": "Guinea", "haitian": "Haiti",
    "honduran": "Honduras", "icelandic": "Iceland", "ivorian": "Ivory Coast", "jamaican": "Jamaica",
    "kazakh": "Kazakhstan", "kyrgyz": "Kyrgyzstan", "laotian": "Laos", "latvian": "Latvia", "liberian": "Liberia",
    "lithuanian": "Lithuania", "macedonian": "North Macedonia", "malagasy": "Madagascar", "malawian": "Malawi",
    "malian": "Mali", "maltese": "Malta", "mauritanian": "Mauritania", "moldovan": "Moldova",
    "mongolian": "Mongolia", "montenegrin": "Montenegro", "mozambican": "Mozambique", "namibian": "Namibia",
    "nicaraguan": "Nicaragua", "nigerien": "Niger", "omani": "Oman", "panamanian": "Panama",
    "paraguayan": "Paraguay", "philippine": "Philippines", "rwandan": "Rwanda", "salvadoran": "El Salvador",
    "senegalese": "Senegal", "sierra leonean": "Sierra Leone", "slovak": "Slovakia", "slovenian": "Slovenia",
    "south sudanese": "South Sudan", "tajik": "Tajikistan", "tanzanian": "Tanzania", "togolese": "Togo",
    "turkmen": "Turkmenistan", "uruguayan": "Uruguay", "uzbek": "Uzbekistan", "zambian": "Zambia",
    "botswanan": "Botswana",
}

#: Adjectives of religions and their branches: never an organization ("Shiite militias").
RELIGIOUS_ADJECTIVES = frozenset("""
muslim islamic christian catholic protestant orthodox jewish hindu buddhist sikh shiite shia shi'ite sunni
evangelical anglican methodist baptist lutheran mormon coptic druze alawite salafi wahhabi
""".split())

#: Adjectives of peoples that are no country: a group of people, never an organization.
ETHNIC_ADJECTIVES = frozenset("""
kurdish arab arabic hispanic latino latina pashtun hazara tamil sinhalese tutsi hutu uighur uyghur tibetan
berber bedouin roma basque catalan flemish walloon zulu xhosa yoruba igbo hausa amhara oromo maori aboriginal
""".split())

#: Adjectives that name a political party or movement ("a Green MP", "Republican senators").
PARTY_ADJECTIVES = frozenset("""
democrat democratic republican labour labor conservative liberal socialist communist green tory whig
unionist nationalist
""".split())

#: Other names of the same country or body: variant -> canonical name.
PLACE_ALIASES: dict[str, str] = {
    "us": "United States", "u.s.": "United States", "u.s": "United States", "usa": "United States",
    "u.s.a.": "United States", "america": "United States", "united states": "United States",
    "united states of america": "United States", "uk": "United Kingdom", "u.k.": "United Kingdom",
    "britain": "United Kingdom", "great britain": "United Kingdom", "united kingdom": "United Kingdom",
    "un": "United Nations", "u.n.": "United Nations", "united nations": "United Nations",
    "dprk": "North Korea", "rok": "South Korea", "eu": "European Union",
    "european union": "European Union", "uae": "United Arab Emirates",
}

#: Religious scriptures and works: never places or organizations.
SCRIPTURES = frozenset("quran koran qur'an bible torah talmud gospel gospels vedas bhagavad gita tanakh hadith".split())

#: Religions and belief systems: not organizations.
RELIGIONS = frozenset("islam christianity judaism hinduism buddhism sikhism catholicism protestantism".split())

#: Department words that, before a role noun, are part of the role ("Defense Minister").
DEPARTMENT_WORDS = frozenset("""
defense defence interior home foreign finance justice health education labor labour trade commerce
energy environment transport agriculture state treasury communications information culture affairs
""".split())

#: Verbs of saying: their clausal complement is what the speaker reports.
REPORTING_VERBS = frozenset("""
say tell add state announce report claim warn note explain insist argue assert confirm deny
declare admit acknowledge reveal suggest write indicate allege believe predict stress emphasise
emphasize point_out reiterate testify recall remark reply respond answer told complain contend concede
""".split())

#: Verbs of communicating: each clause of one is a statement, an event also in the present tense
#: ("the envoy tells reporters", "the party condemns the attack").
COMMUNICATION_VERBS = REPORTING_VERBS | frozenset("""
urge call appeal demand condemn criticize criticise praise welcome thank blame accuse promise pledge
vow threaten propose ask request reject applaud hail commend denounce express describe speak talk
""".split())

#: Verbs whose object is the subject of their infinitive ("urged them to leave": they leave).
OBJECT_CONTROL_VERBS = frozenset("""
urge ask tell order force persuade allow encourage help want invite instruct compel require permit
advise beg direct enable lead oblige pressure push remind warn make let get convince
""".split())

#: Verbs that express intent or plan: what follows has not happened yet.
PLAN_VERBS = frozenset("""
plan intend aim hope expect seek propose threaten vow promise pledge prepare agree decide offer
volunteer want wish desire like love prefer arrange plot mean undertake resolve
""".split())

#: Modal auxiliaries and what they make of the event.
MODALS: dict[str, str] = {
    "will": "planned", "shall": "planned", "'ll": "planned", "would": "hypothetical", "could": "hypothetical",
    "might": "hypothetical", "may": "hypothetical", "should": "hypothetical", "must": "hypothetical",
    "can": "hypothetical", "ca": "hypothetical", "wo": "planned", "'d": "hypothetical",
}

#: Verbs that are not events between actors (copulas, light states, aspect, control); a few of
#: them head an event in one construction ("went to Norway", "stopped the truck": see
#: ``extract.events.verbs.light_event``).
NON_EVENT_VERBS = frozenset("""
be have seem appear become remain get do begin start continue keep stop go come include involve
mean need know think feel like want hope wish try attempt manage fail tend happen occur cost last
""".split())

#: States and non-agentive changes: what someone is or undergoes, not what they do ("the rebels
#: controlled the north", "her condition worsened", "shares gained 8 percent").
STATIVE_VERBS = frozenset("""
own possess control belong consist comprise involve require lack deserve depend equal
resemble pertain relate concern face suffer undergo experience gain lose attain enjoy exist matter
weigh total border
""".split())

#: Thinking, perceiving and feeling: never events, even when they introduce an opinion
#: ("she believed the campaign helped", "he saw the bridge fall", "they resent the plan").
COGNITION_VERBS = frozenset("""
believe think know realize realise understand learn decide hope expect wish want consider regard
view see hear feel notice spot detect observe perceive sense witness watch remember forget wonder
doubt assume suppose presume estimate imagine guess reckon fear worry resent respect like love hate
dislike prefer admire trust envy value appreciate concur
""".split())

#: Verbs of emotion caused in someone ("he is excited by the offer", "the news surprised them"):
#: a state of the one who feels, not an act of the cause.
PSYCH_VERBS = frozenset("""
excite please interest worry concern surprise shock disappoint frustrate upset impress delight
satisfy amaze astonish bother trouble anger annoy scare frighten relieve
""".split())

#: Verbs that, with no object, tell a change or a standing, not a deed ("her condition improved",
#: "the candidate is leading in the polls", "the firm operates in Chile", "he has been missing"); with an object they act
#: ("improved security", "led the protest", "operated the crane").
INTRANSITIVE_STATES = frozenset("""
improve worsen deteriorate recover grow shrink increase decrease rise fall drop climb soar plunge
lead operate miss starve
""".split())

#: Verbs whose agentless passive tells where or what someone is, not what was done to them
#: ("is located in Lyon", "was born in 1950", "is based near Oslo").
PASSIVE_STATES = frozenset("locate situate bear base station engage marry".split())

#: Passives that raise the subject of an infinitive ("is expected to sign", "is believed to
#: be", "is alleged to have taken", "is scheduled to open"): the writer's hedge or schedule, no deed.
RAISING_PASSIVES = frozenset("""
expect schedule slate set suppose believe think say report allege rumor rumour know consider
estimate understand presume reckon claim feared see
""".split())

#: Natural forces: they cause, they do not act ("the flood killed 10": actor null).
NATURAL_FORCES = frozenset("""
storm storms flood floods flooding earthquake earthquakes quake quakes tremor tremors tsunami
landslide landslides mudslide mudslides avalanche avalanches hurricane hurricanes typhoon typhoons
cyclone cyclones tornado tornadoes wildfire wildfires blaze fire fires eruption volcano drought
rain rains downpour heatwave wave waves wind winds lightning snowstorm blizzard mud
""".split())

#: Nouns for what a body issues: "A UN statement said" is the UN's statement.
STATEMENT_NOUNS = frozenset("statement report communique communiqué announcement release letter memo notice".split())

#: Verbs whose "from" names where something is taken or moved from ("removed a video of Ann Lee from
#: the site"): a "from" phrase they govern is no affiliation of a name inside their object.
SOURCE_VERBS = frozenset("""
remove take delete withdraw pull ban bar expel oust evict eject exclude extract rescue free release
save evacuate extradite deport transfer move bring fetch steal seize recover drop separate
""".split())

#: Prepositions whose object is the one acted on ("threw a brick into the shop", "fired at").
GOAL_PREPOSITIONS = frozenset("at into onto on against toward towards upon to with".split())

#: Definite descriptions that refer back to an attacker mentioned earlier.
ATTACKER_NOUNS = frozenset("gunman shooter assailant attacker killer bomber perpetrator suspect".split())

#: Verbs of killing and injuring: what a deed or a thing did to people ("the blast killed 12") is
#: told as done, with no actor.
HARM_VERBS = frozenset("kill murder massacre slay wound injure maim".split())

#: Verbs done to people: a bare number as their object counts people ("killing 40 and wounding 90"),
#: and one with no object before "and" shares the next verb's ("shot and killed two guards").
PERSON_PATIENT_VERBS = HARM_VERBS | frozenset("""
execute shoot hurt arrest detain jail imprison kidnap abduct
rescue save evacuate free release capture deport expel displace hospitalize treat infect hire employ recruit
assassinate stab strangle behead torture ambush rape lynch poison interrogate convict indict sentence
""".split())

#: Nouns of an attack: their "by" phrase or possessor is the attacker ("the army's shelling killed 12").
ATTACK_NOUNS = frozenset("""
attack attacks assault bombing bombings shelling airstrike airstrikes strike strikes raid raids ambush
shooting shootings offensive bombardment barrage
""".split())

#: Words a title keeps in front of a name but which are no part of it.
NAME_STOPWORDS = frozenset("the a an mr mr. mrs mrs. ms ms. dr dr. sir".split())

#: Verbs whose subject undergoes rather than does the action (unaccusatives): no actor.
UNACCUSATIVE_VERBS = frozenset("die arrive fall grow exist disappear sink drown collapse live rise emerge vanish".split())

#: Adverbs that make a clause a habit or a generalisation, not a dated event.
HABITUAL_ADVERBS = frozenset("often sometimes usually always frequently generally typically routinely rarely seldom".split())

#: Adverbs by which the writer says a clause is only probable or possible ("was probably killed by
#: a second gunman", "may possibly have fled"): not stated as done.
HEDGING_ADVERBS = frozenset("probably possibly perhaps maybe presumably likely".split())

#: Verbs whose infinitive is their complement ("tried to flee", "began to cry", "wants to go");
#: after any other verb an infinitive tells a purpose ("set off to repair the dam").
COMPLEMENT_VERBS = frozenset("""
try attempt manage begin start continue cease stop help dare fail refuse decline hesitate tend seem
appear happen get come go prove turn be become remain have need ought use able bother struggle rush hurry
vote move act opt choose elect scramble race strive fight
""".split())

#: Nouns of intent: an infinitive they govern has not happened ("a plan to cut taxes").
PLAN_NOUNS = frozenset("plan plans proposal proposals promise promises threat threats pledge pledges bid intention aim goal".split())

#: Nouns of means and endeavour: what their infinitive or "for V-ing" names is the purpose, not a
#: deed ("a method for cleaning the river", "their efforts to end the strike").
MEANS_NOUNS = frozenset("""
technique techniques method methods way ways means tool tools strategy strategies effort efforts
attempt attempts campaign programme program procedure procedures system capability capabilities
ability mechanism approach scheme initiative mission measure measures
""".split())

#: Nouns for people that name no position: never a role, however they end.
GENERIC_PEOPLE = frozenset("""
people person man men woman women child children resident residents citizen citizens civilian civilians
victim victims survivor survivors witness witnesses neighbour neighbor passenger passengers voter voters
patient patients prisoner prisoners hostage hostages migrant migrants refugee refugees user users poster
posters foreigner foreigners stranger strangers owner-occupier consumer consumers customer customers viewer
viewers reader readers listener listeners follower followers passerby bystander bystanders
""".split())

#: Nouns of kinship: never a role, however they end ("mother", "brother-in-law").
KINSHIP_NOUNS = frozenset("""
mother father brother sister daughter son wife husband parent grandmother grandfather grandparent
grandson granddaughter grandchild uncle aunt nephew niece cousin stepmother stepfather stepson stepdaughter
mother-in-law father-in-law brother-in-law sister-in-law son-in-law daughter-in-law fiancee fiance
widow widower partner-in-law sibling twin
""".split())

#: Endings of occupation nouns ("meteorologist", "electrician", "prosecutor", "consultant").
OCCUPATION_SUFFIXES = ("ist", "er", "or", "ian", "ant", "eer")

#: Verbs of asking and wanting: the infinitive they govern has not happened ("urged them to leave").
REQUEST_VERBS = frozenset("""
urge ask want need request demand expect press require invite beg advise instruct encourage wish
appeal pressure implore exhort order tell command direct authorize authorise summon challenge warn
remind permit allow forbid
""".split())

#: Nouns that count or measure what their "of" phrase names ("dozens of bottles": the bottles).
QUANTITY_NOUNS = frozenset("""
dozen dozens hundred hundreds thousand thousands million millions billion billions number numbers
lot lots couple series handful pair batch barrage volley round-up score scores total
""".split())

#: Pronouns of the first person: the speaker, or the speaker's side ("we urge the donors").
FIRST_PERSON = frozenset("i me my we us our ours myself ourselves".split())

#: Relative pronouns: the clause they open tells of the noun before them ("the men who fled").
RELATIVE_PRONOUNS = frozenset("who whom which that whose".split())

#: Words that negate the clause or the phrase they stand in.
NEGATIONS = frozenset("not n't never no".split())

#: Words that open a condition: what their clause tells is not stated as done.
CONDITIONAL_MARKS = frozenset(("if", "unless", "whether"))

#: Last words of a company's name that never end a person's or a place's name ("Orvane Mining").
COMPANY_NAME_ENDINGS = frozenset("""
mining motors airlines airways foods holdings partners technologies systems pharmaceuticals industries
logistics securities ventures insurance chemicals electronics enterprises
""".split())

#: Small words of a name that its acronym leaves out ("the Harka Front in the Velmar Highlands": HFVH).
ACRONYM_SMALL_WORDS = frozenset("of the and for de du des la le al el on in at to a an &".split())
