"""Word lists behind the regex detector's false-positive guards for names and organisations.

Hand-curated and deliberately small: capitalised words that are almost never a person's
name (function words, months, document headings, place names). Words that are also common
given names or surnames (May, June, Hall, Park, Victoria, Jordan, ...) are left out on
purpose, so that the guard does not hide real names.
"""

from __future__ import annotations

import re


def _words(block: str) -> frozenset[str]:
    return frozenset(w.lower() for w in block.split())


# Words that can start a sentence or a capitalised run but are not names.
STARTERS = _words("""
a about above across after afterwards again against all almost along already also although
always am among an and another any anyone anything anyway anywhere are around as at be
because been before being below beside besides between both but by can could did do does
doing done during each either else even ever every everyone everything except few first
for from further had has have having he her here hers herself him himself his how however
i if in into is it its itself just last least less let like many maybe me meanwhile
might mine more most much must my myself neither never nevertheless next no nobody none
nor not nothing now of off often on once one only onto or other others otherwise our ours
ourselves out over own per perhaps please quite rather same she should since so some
somebody someone something sometimes somewhere still such than that the their theirs them
themselves then there therefore these they this those though through thus to together too
toward towards under unless until up upon us very via was we well were what whatever when
whenever where whereas wherever whether which while who whoever whole whom whose why
with within without would yet you your yours yourself yourselves
yes no ok okay hi hello hey dear thanks thank cheers regards best sincerely kind warm
greetings welcome sorry congratulations congrats bye goodbye morning afternoon evening
today tomorrow yesterday tonight recently currently finally also additionally moreover
furthermore unfortunately fortunately hopefully basically actually apparently clearly
obviously honestly frankly regarding concerning re fwd fw subject attn attention note
notes ps nb fyi asap tbd eta
call contact email send ask check visit review see meet reach ping text ring phone
update confirm approve attach attached find found forward share sign signed submit
following follow per according based given considering
""")

# Capitalised words that are not person names in any position of a capitalised run.
NON_NAME = _words("""
january february march july september october november december jan feb mar apr jun
jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon
tue tues wed thu thur thurs fri sat christmas easter thanksgiving halloween ramadan
diwali hanukkah eid new year years eve holiday holidays weekend
januar februar märz mai juni juli oktober dezember montag dienstag mittwoch donnerstag
freitag samstag sonntag anfang mitte ende enero febrero marzo abril mayo junio julio agosto
septiembre setiembre octubre noviembre diciembre lunes martes miércoles jueves viernes
sábado domingo janvier février mars avril juin juillet août septembre octobre novembre
décembre lundi mardi mercredi jeudi vendredi samedi dimanche gennaio febbraio aprile
maggio giugno luglio settembre ottobre dicembre lunedì martedì mercoledì giovedì venerdì
janeiro fevereiro março maio junho julho setembro outubro dezembro segunda terça quarta
quinta sexta januari februari maart mei augustus
skoda škoda toyota volkswagen renault peugeot citroën citroen vauxhall nissan hyundai
mazda dacia suzuki mitsubishi subaru octavia corolla qashqai
street st road rd avenue ave boulevard blvd lane ln drive court ct way place square sq
terrace parkway highway hwy close crescent mews gardens plaza apt apartment suite unit
floor building block tower
inc corp corporation company co llc ltd limited plc gmbh ag sa sarl bv nv llp group
holdings partners associates foundation trust bank university college school academy
institute hospital clinic centre center ministry department dept council committee
board office agency authority commission services service solutions systems technologies
labs laboratory consulting industries international global national federal government
court tribunal police
customer customers support team staff account accounts billing payment payments invoice
order orders ticket tickets case incident claim claims policy policies privacy terms
conditions section article clause schedule appendix annex exhibit agreement contract
amendment addendum report meeting minutes agenda project program programme product
products release version update status summary overview introduction conclusion
background purpose scope definitions parties recitals whereas witness governing law
jurisdiction effective date term termination confidential confidentiality information
disclosure nondisclosure non-disclosure obligations obligation liability indemnity
warranty warranties notices notice severability assignment entire force majeure
employment employee employer position title salary compensation benefits bonus leave
annual sick parental probation performance appraisal evaluation review feedback goals
objectives duties responsibilities handbook code conduct disciplinary grievance
resignation offer letter reference onboarding training human resources hr payroll
manager director officer president vice chief executive senior junior head lead
principal engineer analyst consultant specialist coordinator assistant administrator
nurse doctor physician surgeon therapist pharmacist patient patients client clients
discharge admission admitted history present past medical surgical family social
complaint chief vital signs physical exam examination assessment plan impression
diagnosis diagnoses differential medication medications allergies allergy labs
laboratory results imaging radiology follow-up follow up instructions course hospital
subjective objective progress note notes procedure procedures consent emergency room
ward icu er department outpatient inpatient primary care blood pressure heart rate
insurance coverage deductible premium
north south east west northern southern eastern western central upper lower greater
united states kingdom republic union european america american british english german
french spanish italian dutch polish russian chinese japanese korean indian canadian
australian mexican brazilian african asian european irish scottish welsh swiss swedish
norwegian danish finnish portuguese greek turkish arabic hebrew latin
internet email e-mail phone mobile telephone fax address name names number numbers id
passport license licence card credit debit visa mastercard amex iban swift bic ssn dob
mrn bitcoin ethereum wallet token password key api url website web online offline
google microsoft apple amazon facebook meta twitter linkedin instagram whatsapp slack
github gitlab zoom teams outlook gmail excel word powerpoint windows linux android ios
python java javascript aws azure cloud server database docker kubernetes
quarter quarterly annual monthly weekly daily q1 q2 q3 q4 fy budget revenue sales
marketing finance legal operations engineering security compliance risk audit tax
research development strategy sprint roadmap standup retro kickoff launch demo
action items next steps key points open questions main issues best practices
general public private personal professional business corporate internal external
mr mrs ms miss dr prof sir madam
""")

# Unambiguous place names: a capitalised run containing one is not a person's name.
PLACES = _words("""
afghanistan albania algeria argentina armenia austria azerbaijan bangladesh belarus
belgium bolivia bosnia brazil bulgaria cambodia cameroon canada chile china colombia
croatia cuba cyprus czechia denmark ecuador egypt estonia ethiopia finland france
germany ghana greece guatemala hungary iceland india indonesia iran iraq ireland israel
italy japan kazakhstan kenya kuwait latvia lebanon libya lithuania luxembourg malaysia
malta mexico moldova mongolia montenegro morocco mozambique nepal netherlands nicaragua
nigeria norway pakistan panama paraguay peru philippines poland portugal qatar romania
russia rwanda senegal serbia singapore slovakia slovenia somalia spain sudan sweden
switzerland syria taiwan tanzania thailand tunisia turkey uganda ukraine uruguay
uzbekistan venezuela vietnam yemen zambia zimbabwe england scotland wales britain
europe asia africa australia antarctica
london paris berlin madrid rome milan munich hamburg frankfurt cologne vienna zurich
geneva amsterdam rotterdam brussels copenhagen stockholm oslo helsinki dublin lisbon
barcelona valencia seville warsaw krakow prague budapest bucharest athens istanbul
moscow kyiv kiev tokyo osaka kyoto beijing shanghai shenzhen seoul busan mumbai delhi
bangalore chennai kolkata karachi lahore dhaka bangkok jakarta manila hanoi singapore
dubai riyadh doha cairo lagos nairobi johannesburg toronto montreal vancouver ottawa
calgary chicago boston seattle denver dallas houston miami atlanta detroit philadelphia
baltimore pittsburgh cleveland minneapolis portland sacramento honolulu anchorage
manchester liverpool birmingham leeds glasgow edinburgh bristol cardiff belfast oxford
cambridge brooklyn manhattan queens bronx york jersey angeles francisco diego vegas
hong kong zealand arabia emirates salvador rica sri lanka
alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii
idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts
michigan minnesota mississippi missouri montana nebraska nevada hampshire mexico ohio
oklahoma oregon pennsylvania rhode island carolina dakota tennessee texas utah vermont
virginia wisconsin wyoming
""")

# Words that end a lower-case name captured after a role word ("my wife maria said").
STOP_AFTER_NAME = STARTERS | _words("""
said says told asked called wrote emailed texted messaged replied mentioned thinks
thought wants wanted needs needed has had is was will would can could should might must
and or but so because who which that when while if then also too again here there now
today tonight tomorrow yesterday lol haha ok okay yes no please thanks
""")

# Words that never follow a role word as a name ("my wife is", "patient denies").
NOT_A_NAME = STOP_AFTER_NAME | _words("""
team everyone everybody all guys folks there sir madam colleagues friends family
mr mrs ms dr prof doctor nurse patient client customer user admin support
agent caller speaker host guest moderator operator system bot assistant interviewer q
world aboard valued wishes mate buddy dude bro pal lot much advance everyone
i i'm i’m i've i'll i'd batchmates classmates teammates workmates flatmates housemates
policyholder
denies reports states presents presented complains complained notes noted reported
stated appears appeared remains remained feels felt went came got made took gave left
just really very still already never always not also both only even
a an the this that these those his her their our your its my
""")

# Words that head a "Label: value" line in forms, tickets, logs and configs. A line that
# starts with one of them is a field, not a chat speaker.
FIELD_LABELS = _words("""
desk zip zipcode postcode mac gateway status priority region floor room severity category
queue channel subnet vlan host hostname port build branch shift ward bed dept department
team site tier plan level version source owner due total subtotal tax vat currency terms
date time subject re ref reference ticket case order invoice amount price qty quantity unit
units item items sku model serial imei device os browser ip dns dhcp mask netmask route
router ssid wifi password pin code id uid user username login account acct iban bic swift
bank sort routing phone tel mobile fax email mail address street city state country county
province zip-code note notes comment comments description summary title type kind mode
result error warning info debug trace warn fatal timestamp duration elapsed size length
weight height age sex gender dob nationality religion occupation employer company org
organisation organization name surname forename firstname lastname initials signature
signed witness location loc lat lon lng latitude longitude coordinates gps eta etd flight
gate seat platform train bus route stop vehicle plate reg make colour color mileage vin
policy claim premium deductible diagnosis allergies medication dose frequency bp pulse temp
spo2 resp rr hr weight bmi mrn nhs ssn ein tin nino npi dea licence license passport visa
step steps action actions expected actual outcome q a question answer total due balance
reason
paid from to cc bcc attachment attachments link url website web domain server env
environment region zone cluster node pod namespace service endpoint api key token secret
betreff objet oggetto asunto assunto onderwerp ämne emne temat author committer reporter
assignee reviewer approver interpreter
von an gesendet para enviado envoyé inviato verzonden från press media vicar rector
chair chairperson secretary treasurer
""")

# Nationality, demonym and religion adjectives (the NRP category), matched in any case.
NATIONALITY_WORDS = _words("""
american british english scottish welsh irish french german spanish italian portuguese dutch
belgian swiss austrian polish czech slovak hungarian romanian bulgarian greek turkish russian
ukrainian belarusian swedish norwegian danish finnish icelandic estonian latvian lithuanian
serbian croatian bosnian slovenian albanian macedonian montenegrin moldovan georgian
armenian azerbaijani kazakh uzbek chinese japanese korean vietnamese thai filipino
indonesian malaysian singaporean indian pakistani bangladeshi nepali afghan iranian iraqi
syrian lebanese jordanian saudi emirati qatari kuwaiti yemeni omani egyptian moroccan
algerian tunisian libyan sudanese nigerian ghanaian kenyan ethiopian somali eritrean
ugandan tanzanian rwandan congolese cameroonian senegalese ivorian zimbabwean zambian
angolan mozambican namibian brazilian argentinian argentine chilean colombian peruvian
venezuelan ecuadorian bolivian uruguayan paraguayan mexican cuban jamaican haitian
dominican guatemalan honduran salvadoran nicaraguan canadian australian israeli
palestinian kurdish tamil sinhalese punjabi gujarati bengali sami maori māori aboriginal
latino latina hispanic
tongan samoan fijian maltese cypriot luxembourgish kosovar kyrgyz tajik turkmen mongolian
tibetan uyghur burmese cambodian khmer laotian taiwanese nepalese bhutanese malagasy
mauritian malawian liberian gambian guinean malian burkinabe chadian beninese togolese
gabonese burundian djiboutian panamanian belizean bahamian barbadian trinidadian guyanese
surinamese faroese greenlandic basque catalan galician flemish frisian corsican cornish
yoruba igbo hausa zulu xhosa kikuyu pashtun baloch sindhi hazara chechen tatar romani
african european asian caribbean arab nordic scandinavian slavic caucasian biracial
afro-caribbean
christian catholic protestant orthodox anglican baptist methodist lutheran evangelical
pentecostal presbyterian mormon muslim moslem sunni shia shiite jewish hindu buddhist
sikh jain atheist agnostic quaker zoroastrian bahai rastafarian taoist shinto
""")


def country_demonyms() -> frozenset[str]:
    """The demonym of every country and territory in `countryinfo`'s data, lower-cased
    ("bahraini", "sierra leonean"; "Antiguan,Barbudan" gives two), without the entries that
    merely repeat a territory's name ("Gibraltar") or join two with "and"."""
    try:
        from countryinfo import CountryInfo
    except ImportError:  # a venv built before the dependency: the hand list alone
        return frozenset()
    countries = CountryInfo.all()
    names = {name.casefold() for name in countries}
    found = set()
    for info in countries.values():
        for demonym in re.split(r"[,/]", info.get("demonym") or ""):
            demonym = demonym.strip().casefold()
            if demonym and demonym not in names and " and " not in demonym:
                found.add(demonym)
    return frozenset(found)


NATIONALITY_WORDS = NATIONALITY_WORDS | country_demonyms()

# Nouns for a member of a nation, people or faith that are not its adjective plus "s"
# ("a Kurd", "two Brits", "the Jews of Thessaloniki"): said of people, whatever the case.
GROUP_NOUNS = _words("""
brit brits briton britons kurd kurds turk turks jew jews croat croats serb serbs bosniak
bosniaks spaniard spaniards englishman englishmen englishwoman englishwomen
frenchman frenchmen frenchwoman frenchwomen irishman irishmen irishwoman irishwomen
scotsman scotsmen scotswoman scotswomen welshman welshmen welshwoman welshwomen dutchman
dutchmen dutchwoman dutchwomen latinx
""")
# Nouns of this kind that are also everyday words ("a pole", "swede" the vegetable):
# matched only when capitalised.
CAPITALISED_GROUP_NOUNS = frozenset({"Pole", "Swede", "Dane"})  # not "Poles and wires"
_UNINFLECTED_ENDINGS = ("s", "sh", "tch", "nch", "x", "z", "ese")


def plural_group_nouns(words: frozenset[str]) -> frozenset[str]:
    """The plural of each demonym or religion used as a noun ("nigerians", "somalis",
    "muslims", "south africans"); demonyms that have no plural ("swiss", "irish",
    "chinese") are left out."""
    return frozenset(
        word + "s"
        for word in words
        if not word.endswith(_UNINFLECTED_ENDINGS) and word not in _ADJECTIVE_ONLY
    )


# Demonyms used only as adjectives or with a plural of their own ("the Nordics" is a market,
# "the Caribbeans" a holiday; Basotho, Batswana, I-Kiribati).
_ADJECTIVE_ONLY = frozenset(
    "nordic slavic greenlandic icelandic baltic caribbean mosotho motswana i-kiribati"
    " ni-vanuatu scandinavian".split()
)


# Nationalities and religions in the other languages of our documents (es, pt, it, fr, de,
# nl, pl), in the forms that name a person or group. Forms that are also a language's name
# ("español", "italiano", "français", "deutsch", "polski"), a country ("china", "india",
# "argentina", "polen"), a dance ("polka") or trousers ("chino") are left out.
FOREIGN_GROUP_WORDS = _words("""
colombiano colombiana colombianos colombianas peruano peruana peruanos peruanas mexicano
mexicana mexicanos mexicanas venezolano venezolana venezolanos venezolanas boliviano boliviana
ecuatoriano ecuatoriana chileno chilena chilenos chilenas argentino argentinos
argentinas cubano cubana cubanos cubanas dominicano dominicana paraguayo paraguaya uruguayo
uruguaya hondureño hondureña guatemalteco guatemalteca salvadoreño salvadoreña nicaragüense
costarricense panameño panameña puertorriqueño puertorriqueña brasileño brasileña brasileiro
brasileira brasileiros brasileiras nigeriano nigeriana nigerianos nigerianas ucraniano
ucraniana ucranianos rumano rumana rumanos marroquí marroquíes marroquino marroquina
argelino argelina senegalés senegalesa senegaleses  ghanés ghanesa keniano keniana
etíope somalí pakistaní paquistaní pakistano pakistana filipina filipinos filipinas
venezuelana venezuelano angolano angolana caboverdiano caboverdiana cabo-verdiano
cabo-verdiana moçambicano moçambicana guineense portuguesa portugueses portuguesas
española españoles españolas francesa franceses francesas inglesa ingleses inglesas alemana
alemanes alemanas italiana italianos italianas americana americanos americanas africano
africana africanos africanas europeo europea europeos europeas asiático asiática
latinoamericano latinoamericana polaco polaca polacos polacas ruso rusa rusos rusas turca
turcos turcas sirio  sirios sirias iraquí iraní afgano afgana   chinas
japonés japonesa japoneses coreano coreana indio hindú gitano gitana gitanos gitanas
italiani italiane tedesco tedesca tedeschi tedesche francese francesi inglesi spagnolo
spagnola spagnoli albanese albanesi rumeno rumena rumeni marocchino marocchina marocchini
tunisino tunisina egiziano egiziana  ucraini peruviano peruviana cinese cinesi
française françaises allemande allemandes anglaise anglaises espagnole espagnoles italienne
italiennes portugaise portugaises polonaise polonaises marocain marocaine marocains
marocaines algérien algérienne algériens algériennes tunisien tunisienne tunisiens
sénégalais sénégalaise ivoirien ivoirienne ivoiriens camerounais camerounaise malien
malienne maliens congolais congolaise haïtien haïtienne américain américaine américains
canadien canadienne canadiens brésilien brésilienne vietnamien vietnamienne chinoise
japonaise belge belges turque turques russe russes syrien syrienne afghane maghrébin
maghrébine
deutsche deutscher türke türkin türken polin  italiener italienerin franzose
französin spanier spanierin russin amerikaner amerikanerin syrer syrerin afghanin
österreicher österreicherin niederländer niederländerin grieche griechin kroate kroatin
serbe serbin rumäne rumänin bulgare bulgarin ukrainer ukrainerin iraker irakerin iraner
iranerin marokkaner marokkanerin nigerianer nigerianerin brasilianer brasilianerin kurde
kurdin araber araberin eritreer eritreerin somalier somalierin kosovare kosovarin
nederlander nederlandse marokkaan marokkaanse turkse surinamer surinaamse antilliaanse
polak polacy niemiec niemka ukrainiec ukrainka białorusin białorusinka
católico católica católicos católicas catolico catolica cattolico cattolica cattolici
catholique catholiques katholisch katholische katholischer römisch-katholisch
römisch-katholische katholiek katolik katoliczka katolicka evangélico evangélica evangélicos
evangelico evangelica evangelisch evangelische evangelischer protestante protestantes
protestanti protestants musulmán musulmana musulmanes musulmanas musulmano musulmana
musulmani muçulmano muçulmana musulman musulmane musulmans muslimisch muslimische muslima
moslim moslima muzułmanin muzułmanka islámico islâmico judío judía judíos judeu judia
ebreo ebrea ebrei juif juive juifs jüdisch jüdische joods joodse żyd żydówka ortodoxo
ortodoxa ortodosso ortodossa orthodoxe hinduista induista bouddhiste budista buddhista
buddhistisch ateo atea ateu ateia athée atheïst atheistisch konfessionslos sij
japonês brasileiro brasileira chinês chinesa ucraniano ucraniana nigeriano nigeriana
ucraino ucraina polacco polacca brasiliano brasiliana senegalese arménien arménienne
ukrainien ukrainienne roumain roumaine polonais libanais libanaise marokkaans surinaams
antilliaans oekraïens iranier irakier syrier somalier polack
""")

# Religions, which (unlike nationality adjectives: French fries, English class) almost always
# describe a person; "orthodox" and "evangelical" are left out (an orthodox view).
RELIGION_WORDS = _words("""
catholic protestant anglican baptist methodist lutheran pentecostal presbyterian mormon
muslim moslem sunni shia shiite jewish hindu buddhist sikh jain atheist agnostic quaker
zoroastrian bahai rastafarian taoist shinto maronite druze coptic alawite alevi yazidi
ismaili parsi adventist
""") | frozenset({"jehovah's witness", "jehovah’s witness", "christian"})

# Given names and surnames that are also everyday English words: a mention in lower case is
# far more likely the word ("i will mark it"), so name propagation only spreads them as
# written in the name (capitalised).
COMMON_WORD_NAMES = _words("""
will mark grace bill rose may june april august hope faith joy dawn summer autumn sunny rich
frank pat sue ray art jack dean drew gene guy hunter lily iris ivy holly ruby pearl amber
crystal daisy sky river stone wolf fox king young long white black brown green gray grey
hill wood bush ford miles chase grant lane page price rush sharp strong wise rob bob don
sam max ben tom jan nick matt dick penny sandy misty star angel honey heather jasmine
violet hazel olive ginger destiny harmony melody patience prudence constance charity
christian hunter carter mason taylor baker cook smith miller fisher walker parker
""")

# Family relations and forms of address that come right before a name ("Aunt Rosa").
RELATION_WORDS = _words("""
aunt auntie uncle daughter son mother father mum mom dad brother sister grandma grandpa
grandmother grandfather granny nan cousin nephew niece wife husband fiancé fiancée
stepson stepdaughter stepmother stepfather officer sergeant sgt detective inspector judge
captain coach pastor reverend egregio gentile caro cara liebe lieber estimado estimada
""")
NON_NAME = NON_NAME | RELATION_WORDS

# Greetings and sign-offs of other languages, written alone on a line or before a name
# ("Beijinhos,", "groetjes,", "Soifua,", "Annwyl Mr ap Huw"): never a name alone. Words that
# are also names ("Kia", "Ora", "Malo") are left out, as everywhere in this module.
GREETING_WORDS = _words("""
beijinhos beijos beijo cumprimentos abraços abraço abracos saludos abrazos besos cordialmente
atentamente groetjes groeten groet doei hoi grüße grüsse freundliche herzliche vriendelijke
servus tschüss tschüs ciao saluti cordiali bisous bises cordialement amitiés pozdrawiam
pozdrowienia pozdrav pozdravy hälsningar hilsen hilsner mvh terveisin moikka soifua manuia
talofa annwyl cofion diolch mihi salamat shukran habari jambo namaste namaskar vanakkam привіт
дякую добре так спасибо привет пока здравствуйте bonjour hola hallo hej
""")
# Words for a parent used as a form of address ("Appa is home", "tell Amma"): the guideline
# leaves them unmarked, as "Mum" and "Dad" ("Amma" is also an Akan name, but seldom alone).
KINSHIP_WORDS = _words("""
appa amma ammi abbu ammu nani mama papa mamá papá opa nonna nonno abuela abuelo abuelita tío
papi babcia dziadek chachu chachi mausi bua phuppo phuppi bhaiya bhabhi jiju tayi kakak
""")
# What names a mailbox or a unit, not a person ("KYC Cell", "Reception", "Parent/carer").
MAILBOX_ROLE_WORDS = _words("""
cell reception helpdesk mailbox noreply parent carer guardian identifier
""")
# Titles of address of other languages, kept outside a name ("Herrn", "Alhaji", "Mdm"): never
# a name alone, never spread from a name they stood before.
TITLES_OF_ADDRESS = _words("""
herrn alhaji alhaja hajia deaconess mdm engr ibu bapak encik puan datuk dato kak mbak khun
uram hölgyem
""")
# Each is a name's title or a name's neighbour in some text ("Mama Jo", "Salamat Dels"), so
# only a span made of them alone is none.
NEVER_A_NAME_ALONE = GREETING_WORDS | KINSHIP_WORDS | MAILBOX_ROLE_WORDS | TITLES_OF_ADDRESS
NON_NAME = NON_NAME | MAILBOX_ROLE_WORDS
