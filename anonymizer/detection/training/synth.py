# ruff: noqa: E501  (templates stay one line each, so they read like the documents they make)
"""The NER model's training corpus: deliberately varied synthetic documents with gold spans.

Written apart from `bench.corpus` (the development set) on purpose: other templates and
23 genres (chats, SMS, Slack/IRC/Teams logs, e-mails and e-mail threads with quoted replies
and signatures, letters, clinical letters, CVs, server logs, tickets, invoices, court text,
police statements, interview transcripts, forms, address blocks, forum and social posts,
meeting notes, stories that name one person in many forms, community notices, code-switched
chat). People come from ~80 Faker
locales, native scripts and romanised (Arabic, Chinese, Indian, Nigerian, East African,
Vietnamese, Slavic, Turkish, Japanese, Korean...), as full names, single first names,
nicknames, lower-case, upper-case speaker labels and `LAST, First`. Addresses follow US,
UK, European, Japanese, Korean, Chinese and Indian layouts and English villages (a house
name, a village or a county alone on its line). Casing noise (all lower, all upper) and
spacing noise (doubled spaces, dropped punctuation) keep every offset right.

Negatives carry no entity label: laws and treaties, songs, films and TV shows, products
and brands used as tools, departments, job titles, field labels ("Desk:", "ZIP:"), money
amounts, abbreviations (NI, HR, IT), kinship words ("Uncle" stays outside "Uncle Femi"),
languages and cuisines, words that are also names ("Will you...", "grace period"), and public
authorities (only the place inside, "[[Leeds]] City Council", is a location), as the
annotation guideline in `bench/frozen/README.md` says.

Every span is labelled with our category strings; `NER_LABELS` maps the ones the NER model
learns (people, organisations, places, street lines, postcodes, nationalities/religions).

    python -m anonymizer.detection.training generate --n 200 --seed 7 --out /tmp/train.jsonl
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any

from anonymizer.detection.training import breadth, codeswitch, community

NER_LABELS: dict[str, str] = {
    "full person name": "PERSON",
    "organization": "ORG",
    "location": "GPE",
    "street address": "ADDRESS",
    "postal code": "POSTCODE",
    "nationality or group": "NORP",
}

# Locale -> weight for people. Latin-script locales dominate (that is how most text the
# service sees is written) but every major script appears.
NAME_LOCALES: dict[str, int] = {
    "en_US": 14, "en_GB": 8, "en_IE": 2, "en_AU": 2, "en_CA": 2, "en_NZ": 1, "en_IN": 4,
    "en_PK": 2, "en_NG": 2, "en_KE": 1, "en_PH": 1, "en_BD": 1, "de_DE": 5, "de_AT": 1,
    "de_CH": 1, "fr_FR": 5, "fr_BE": 1, "fr_CA": 1, "es_ES": 4, "es_MX": 2, "es_AR": 1,
    "es_CO": 1, "es_CL": 1, "it_IT": 3, "pt_PT": 2, "pt_BR": 3, "nl_NL": 2, "nl_BE": 1,
    "pl_PL": 3, "cs_CZ": 2, "sk_SK": 1, "sl_SI": 1, "hr_HR": 1, "hu_HU": 2, "ro_RO": 2,
    "sv_SE": 2, "da_DK": 1, "no_NO": 1, "fi_FI": 1, "et_EE": 1, "lv_LV": 1, "lt_LT": 1,
    "ga_IE": 1, "tr_TR": 3, "az_AZ": 1, "uz_UZ": 1, "id_ID": 2, "vi_VN": 3, "fil_PH": 1,
    "yo_NG": 2, "ig_NG": 1, "ha_NG": 1, "zu_ZA": 1, "tw_GH": 1, "sq_AL": 1, "bs_BA": 1,
    "ru_RU": 3, "uk_UA": 2, "bg_BG": 1, "el_GR": 2, "zh_CN": 3, "zh_TW": 1, "ja_JP": 3,
    "ko_KR": 2, "hi_IN": 1, "ar_AA": 2, "fa_IR": 1, "he_IL": 1, "th_TH": 1, "ka_GE": 1,
    "hy_AM": 1, "sw": 2, "en_TH": 1, "bn_BD": 1, "mr_IN": 1, "ta_IN": 1, "ne_NP": 1, "mk_MK": 1,
    "is_IS": 1, "ar_SA": 1,
}  # fmt: skip
_ROMANISABLE = {"zh_CN", "zh_TW", "ja_JP"}
_FAMILY_FIRST = {"zh_CN", "zh_TW", "ja_JP", "ko_KR", "hu_HU", "vi_VN"}
_NO_SPACE = {"zh_CN", "zh_TW", "ko_KR"}
# Romanised names for scripts Faker only writes natively.
ROMANISED_FIRST = (
    "Min-jun Seo-yeon Ji-ho Ha-eun Dong-hyun Soo-ah Jae-won Yuna Mohammed Ahmad Fatima Aisha "
    "Omar Layla Yusuf Khadija Hassan Zainab Reza Parisa Dariush Shirin Arash Niloufar Dmitri "
    "Olga Sergei Natalia Alexei Irina Yevgeny Svetlana Oksana Taras Bohdan Nikos Eleni Giorgos "
    "Katerina Dimitra Yannis Somchai Suda Niran Kanya Avraham Noa Yael Itai Tamar Aarav Priya "
    "Ananya Vikram Deepa Sanjay Lakshmi Arjun Kavya Rohan Nana Kwame Ama Kofi Chidi Ngozi "
    "Amara Tunde Wanjiru Otieno Zanele Thabo Sipho Nomvula Giorgi Nino Tigran Anahit "
    "Chukwuemeka Oluwaseun Adaeze Babatunde Ifeoma Emeka Funmilayo Yetunde Obinna Kemi "
    "Wanjiku Kamau Njeri Achieng Abebe Tsegaye Meron Habtamu Amani Baraka Neema Zawadi Halima "
    "Wei Xiaoming Jiayi Haoran Yuxuan Mei Lihua Jun Haruto Yui Sota Hina Ren Akira Emre Elif "
    "Mehmet Zeynep Ayse Burak Bogdan Milena Dragan Vesna Jelena Goran Venkatesh Gurpreet "
    "Harjit Sunita Anh Linh Minh Thu Tuan Huong Duc Hoa Farid Samira Tariq Yasmin Bilal"
).split()
ROMANISED_LAST = (
    "Kim Lee Park Choi Jung Kang Cho Yoon Al-Sayed Haddad Nasser Khalil Mansour Rahimi "
    "Tehrani Karimi Hosseini Ivanov Petrova Smirnov Kuznetsova Popov Shevchenko Kovalenko "
    "Bondarenko Papadopoulos Georgiou Nikolaidis Konstantinou Srisuk Chaiyaporn Wongsa Cohen "
    "Levi Mizrahi Friedman Sharma Patel Iyer Reddy Nair Banerjee Mensah Owusu Boateng Okafor "
    "Adeyemi Mwangi Odhiambo Dlamini Nkosi Beridze Kapanadze Petrosyan Hakobyan "
    "Okonkwo Eze Nwosu Balogun Ogunleye Kiprop Wekesa Tesfaye Girma Haile Nguyen Tran Le Pham "
    "Hoang Vu Dang Zhang Wang Liu Chen Huang Zhou Tanaka Suzuki Watanabe Yamamoto Yilmaz "
    "Kaya Demir Celik Sahin Jovanovic Petrovic Novak Horvat Singh Kaur Gill Chaudhry Qureshi"
).split()
# Short forms people use for each other; anything else falls back to a clipped first name.
NICKNAMES: dict[str, list[str]] = {
    "Alexander": ["Alex", "Sasha"], "Alexandra": ["Alex", "Sandra"], "Elizabeth": ["Liz", "Beth", "Lizzie"],
    "William": ["Will", "Bill", "Billy"], "Robert": ["Rob", "Bob", "Bobby"], "Katherine": ["Kate", "Kat"],
    "Margaret": ["Maggie", "Peggy"], "Michael": ["Mike", "Mikey"], "Jennifer": ["Jen", "Jenny"],
    "Christopher": ["Chris", "Topher"], "Oluwaseun": ["Seun"], "Chukwuemeka": ["Emeka"],
    "Babatunde": ["Tunde"], "Funmilayo": ["Funmi"], "Aleksandr": ["Sasha"], "Dmitri": ["Dima"],
    "Yevgeny": ["Zhenya"], "Natalia": ["Natasha"], "Muhammad": ["Mo"], "Mohammed": ["Mo", "Hamoudi"],
    "Francesca": ["Fran", "Frankie"], "Giuseppe": ["Peppe"], "Josephine": ["Jo", "Josie"],
}  # fmt: skip
NATIONALITIES = (
    "American British English Scottish Welsh Irish French German Spanish Italian Portuguese "
    "Dutch Belgian Swiss Austrian Polish Czech Slovak Hungarian Romanian Bulgarian Greek "
    "Turkish Russian Ukrainian Swedish Norwegian Danish Finnish Icelandic Estonian Latvian "
    "Lithuanian Serbian Croatian Bosnian Albanian Chinese Japanese Korean Vietnamese Thai "
    "Filipino Indonesian Malaysian Indian Pakistani Bangladeshi Nepali Sri Lankan Afghan "
    "Iranian Iraqi Syrian Lebanese Jordanian Saudi Emirati Egyptian Moroccan Algerian Tunisian "
    "Nigerian Ghanaian Kenyan Ethiopian Somali Eritrean South African Zimbabwean Brazilian "
    "Argentinian Chilean Colombian Peruvian Venezuelan Mexican Cuban Jamaican Haitian Canadian "
    "Australian Israeli Palestinian Kurdish Armenian Georgian Azerbaijani Uzbek Kazakh"
).split()
ETHNICITIES = (
    "Black White Asian Hispanic Latino Latina Arab Roma Maori Aboriginal Tamil Punjabi Pashtun "
    "Yoruba Igbo Hausa Berber Inuit Sami Hmong Uyghur Tibetan Zulu Xhosa Somali Gujarati"
).split()
RELIGIONS = (
    "Christian Catholic Protestant Orthodox Anglican Baptist Methodist Lutheran Evangelical "
    "Muslim Sunni Shia Jewish Hindu Buddhist Sikh Jain Mormon Atheist agnostic Quaker Bahá'í"
).split()
GROUPS = (
    "Republican Democrat Conservative Labour Liberal Democrat Green socialist communist libertarian"
).split()
COUNTRY_NAMES = (
    "France Germany Spain Italy Portugal Poland Ireland Scotland Wales England Canada Mexico "
    "Brazil Argentina Chile Peru Colombia Nigeria Ghana Kenya Ethiopia Egypt Morocco Turkey "
    "Greece Ukraine Romania Hungary Austria Switzerland Belgium Netherlands Denmark Sweden "
    "Norway Finland Iceland India Pakistan Bangladesh Nepal China Japan Korea Vietnam Thailand "
    "Indonesia Philippines Australia Iran Iraq Syria Lebanon Israel Jordan Qatar"
).split()

# ---------------------------------------------------------------------- negatives
LAWS = [
    "Civil Rights Act", "Data Protection Act 2018", "Fair Housing Act", "Equality Act",
    "Freedom of Information Act", "Americans with Disabilities Act", "Patriot Act",
    "General Data Protection Regulation", "Employment Rights Act 1996", "Clean Air Act",
    "Health Insurance Portability and Accountability Act", "Family Medical Leave Act",
    "Human Rights Act", "Mental Capacity Act 2005", "Children Act 1989", "Road Traffic Act",
    "Universal Declaration of Human Rights", "Convention on the Rights of the Child",
    "Non-Proliferation Treaty", "North Atlantic Treaty", "European Convention on Human Rights",
    "Affordable Care Act", "Consumer Rights Act 2015", "Equal Pay Act", "Working Time Regulations",
    "Immigration Act 2014", "Housing Act 1988", "Section 8 notice", "Article 8", "Title IX",
]  # fmt: skip
AUTHORITIES = [
    "{place} City Council", "{place} County Council", "{place} Police", "{place} Police Department",
    "{place} County Court", "{place} Magistrates' Court", "{place} District Court",
    "the Tax Office in {place}", "the registry office in {place}", "{place} Borough Council",
    "the Jobcentre in {place}", "the Home Office", "HMRC", "the DVLA", "the IRS", "the Social Security Administration",
    "the Department for Work and Pensions", "the Department of Health", "the Ministry of Justice",
    "the Bundesagentur für Arbeit", "the Finanzamt", "the Crown Prosecution Service", "the FBI",
    "the Border Force", "Immigration Enforcement", "the Land Registry", "Companies House",
]  # fmt: skip
KINSHIP = (
    "Mum Dad Mom Mama Papa Grandma Grandpa Granny Auntie Aunt Uncle Cousin Sis Bro Gran "
    "Mother Father Grandmother Grandfather Stepdad Stepmum Daughter Son Hubby Wifey"
).split()
LANGUAGES = (
    "English French German Spanish Italian Portuguese Polish Russian Arabic Mandarin Cantonese "
    "Hindi Urdu Bengali Punjabi Tamil Turkish Farsi Swahili Amharic Tagalog Korean Japanese "
    "Vietnamese Dutch Greek Hebrew Yoruba Igbo Somali"
).split()
CUISINES = (
    "Italian Thai Chinese Indian Mexican Japanese Greek Lebanese Turkish Vietnamese Ethiopian "
    "French Korean Spanish Moroccan Caribbean Nepalese Persian"
).split()
# Words that are also first names, used here as words (a capital only because a line starts).
WORDS_THAT_ARE_NAMES = [
    "Will you send it today?", "Mark the date.", "Bill me later.", "Grace period ends in {month}.",
    "Hope you're well.", "Three of us went.", "Big thanks to everyone.", "Summer rota starts soon.",
    "May I ask a question?", "Rose gold case, {money}.", "Frank feedback from {dept}.",
    "Rich text only please.", "Chase the {dept} invoice.", "Page {n} of {n}.", "Joy of joys, it works.",
    "Sunny all week apparently.", "Salesperson of the month: see {dept}.", "Carter bags are in the hall.",
    "Hunter wellies are on sale.", "Penny for your thoughts.", "Faith in the process, folks.",
]  # fmt: skip
WORKS = [
    "The Long Road Home", "Dancing in the Moonlight", "Blue Velvet", "Purple Rain",
    "The Shawshank Redemption", "Pride and Prejudice", "Bohemian Rhapsody", "Yesterday",
    "The Great Gatsby", "Hotel California", "Wuthering Heights", "Stairway to Heaven",
    "The Silent River", "Midnight in Paris", "Little Women", "Moby Dick", "Black Swan",
    "A Night at the Opera", "Gone with the Wind", "Sweet Caroline", "Jolene", "Hey Jude",
    "Waterloo", "The Crown", "Breaking Bad", "Stranger Things", "Game of Thrones",
    "Killing Eve", "The Office", "Ted Lasso", "Normal People", "Fleabag", "Succession",
    "Emily in Paris", "Call the Midwife", "Grey's Anatomy", "Seinfeld", "Friends", "Mad Men",
    "Roxanne", "Layla", "Valerie", "Billie Jean", "Mr. Brightside", "Dancing Queen", "Imagine",
    "Harry Potter and the Goblet of Fire", "The Godfather", "Forrest Gump", "Amelie", "Oppenheimer",
    "Barbie", "Jane Eyre", "Anna Karenina", "Things Fall Apart", "Norwegian Wood",
]  # fmt: skip
DEPARTMENTS = [
    "Customer Success", "Human Resources", "Accounts Payable", "Legal Department",
    "Facilities Management", "Quality Assurance", "Research and Development", "IT Service Desk",
    "Business Development", "Supply Chain", "Internal Audit", "Patient Services",
    "Data Protection Office", "Site Reliability", "Talent Acquisition", "Corporate Finance",
    "Payroll", "Accounts Receivable", "Procurement", "Customer Care", "Radiology", "Cardiology",
    "Paediatrics", "Oncology", "Billing", "Logistics", "Marketing", "Compliance", "Front Office",
]  # fmt: skip
PRODUCTS = [
    "Windows 11", "Microsoft Teams", "Google Sheets", "iPhone 15", "Galaxy S23", "PowerPoint",
    "Jira", "Confluence", "Salesforce", "Slack", "Zoom", "Outlook", "Excel", "Kubernetes",
    "PostgreSQL", "Visual Studio Code", "Adobe Acrobat", "ThinkPad X1", "MacBook Air",
    "WhatsApp", "Signal", "Telegram", "Google Maps", "Uber", "Deliveroo", "Spotify", "Netflix",
    "ChatGPT", "Dropbox", "OneDrive", "SAP", "Workday", "Epic", "Trello", "GitHub", "Photoshop",
    "Kindle", "Fitbit", "Tesla Model 3", "Toyota Corolla", "Nespresso", "Dyson", "PayPal", "Venmo",
]  # fmt: skip
EVENTS = [
    "Annual General Meeting", "Black Friday", "Christmas Eve", "New Year's Day", "Ramadan",
    "Diwali", "Easter Monday", "Thanksgiving", "Quarterly Business Review", "Town Hall",
    "Summer Party", "World Cup", "Open Day", "Freshers' Week", "Bank Holiday",
]  # fmt: skip
TITLE_CASE_PHRASES = [
    "Terms and Conditions", "Privacy Policy", "Service Level Agreement", "Project Phoenix",
    "Operation Bluebird", "Incident Response Plan", "Code of Conduct", "Statement of Work",
    "Purchase Order", "Net Promoter Score", "Key Performance Indicators", "Change Advisory Board",
    "Root Cause Analysis", "Business Continuity", "Work From Home", "Out Of Office",
    "Multiple Sclerosis", "Type 2 Diabetes", "Crohn's Disease", "Parkinson's Disease",
    "Emergency Department", "Intensive Care Unit", "High Court", "Court of Appeal",
    "Magistrates' Court", "Crown Prosecution Service", "Sales Team", "Board of Directors",
]  # fmt: skip
ABBREVIATIONS = (
    "NI NINO IT PR R&D CRM ERP BACS CHAPS SEPA BIC P60 P45 W-2 HR VAT IBAN SWIFT CEO CFO CTO NHS GP A&E ETA PTO FYI ASAP KPI SLA MRN DOB SSN PIN "
    "ID PO RMA QA UAT SSO VPN DNS API URL SMS OTP GDPR HIPAA ICU ER UK US EU UN"
).split()
FIELD_LABELS = [
    "Desk", "ZIP", "MAC", "Gateway", "Status", "Priority", "Region", "Floor", "Room",
    "Severity", "Category", "Queue", "Channel", "Subnet", "VLAN", "Host", "Port", "Build",
    "Branch", "Shift", "Ward", "Bed", "Dept", "Team", "Site", "Tier", "Plan", "Level",
    "Version", "Source", "Owner", "Due", "Total", "Subtotal", "Tax", "Currency", "Terms",
    "Postcode", "Zip Code", "Ext", "Badge", "Locker", "Seat", "Gate", "Platform", "Unit", "Lot",
    "SKU", "Batch", "Ref", "Invoice", "Account", "Sort Code", "Dept.", "Bldg", "Cost Centre",
]  # fmt: skip
FIELD_VALUES = [
    "Open", "Closed", "High", "Low", "Medium", "P1", "P2", "EMEA", "APAC", "North America",
    "Pending", "Resolved", "Escalated", "In Progress", "Billing", "Hardware", "Network",
    "Main", "Night", "Day", "Gold", "Silver", "Premium", "Standard", "Net 30", "main",
]  # fmt: skip
COMMON_WORDS = (
    "big three salesperson manager team lead driver nurse cashier customer client guy folks "
    "everyone someone boss mate buddy sir madam dude bro grace hope faith will mark bill "
    "rose may june april summer august sunny joy dawn salesman receptionist landlord tenant "
    "neighbour plumber electrician courier doctor nurse teacher pharmacist cleaner babysitter "
    "chef waiter intern supervisor colleague"
).split()
CURRENCIES = ["EUR", "USD", "GBP", "CHF", "SEK", "PLN", "JPY", "€", "$", "£"]


# ---------------------------------------------------------------------- document builder


class DocBuilder:
    """Appends text and records the gold span of every PII value it inserts.

    With `spacing_noise` (a random source), the text between values is roughened as people
    type it: doubled spaces, dropped full stops and commas, a space before a line break.
    Values are never touched, so every span still matches its text.
    """

    def __init__(self, spacing_noise: random.Random | None = None) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.spans: list[dict[str, Any]] = []
        self.spacing_noise = spacing_noise

    def text(self, value: str) -> None:
        if self.spacing_noise is not None:
            value = _roughen(value, self.spacing_noise)
        self._append(value)

    def _append(self, value: str) -> None:
        self.parts.append(value)
        self.length += len(value)

    def pii(self, value: str, label: str) -> None:
        core = value.strip()
        if core != value:  # Faker pads a few place names; the padding is not part of the value
            before, _, after = value.partition(core)
            self._append(before)
            self.pii(core, label)
            self._append(after)
            return
        if value:
            self.spans.append(
                {"start": self.length, "end": self.length + len(value), "label": label}
            )
        self._append(value)

    def build(self) -> dict[str, Any]:
        return {"text": "".join(self.parts), "spans": self.spans}


def _roughen(value: str, rng: random.Random) -> str:
    out = []
    for c in value:
        roll = rng.random()
        if c == " " and roll < 0.12:
            out.append("  ")
        elif c in ".,;!" and roll < 0.5:
            continue
        elif c == "\n" and roll < 0.1:
            out.append(" \n")
        else:
            out.append(c)
    return "".join(out)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


class Person:
    """One fictional person: a name in one of many scripts and locales, and their details."""

    def __init__(self, gen: SynthGenerator) -> None:
        rng = gen.rng
        locale = rng.choices(gen.name_locales, gen.name_weights)[0]
        fake = gen.faker(locale)
        self.first, self.last = _name_parts(fake, locale, rng)
        native_order = locale in _FAMILY_FIRST and not self.first.isascii()
        gap = "" if locale in _NO_SPACE and not self.first.isascii() else " "
        if native_order:
            self.full = f"{self.last}{gap}{self.first}"
        elif rng.random() < 0.12 and self.first.isascii():
            middle = _name_parts(fake, locale, rng)[0]
            self.full = (
                f"{self.first} {middle if rng.random() < 0.6 else middle[0] + '.'} {self.last}"
            )
        else:
            self.full = f"{self.first} {self.last}"
        self.title = rng.choice(["Mr", "Mrs", "Ms", "Dr", "Prof", "Mx", "Mr.", "Ms.", "Dr.", "Sr."])
        ascii_first = re.sub(r"[^a-z]", "", self.first.lower()) or "user"
        ascii_last = re.sub(r"[^a-z]", "", self.last.lower()) or str(rng.randint(1, 99))
        self.username = rng.choice(
            [
                f"{ascii_first}{ascii_last}",
                f"{ascii_first}.{ascii_last}",
                f"{ascii_first}-{ascii_last}",
                f"{ascii_first[0]}{ascii_last}{rng.randint(1, 99)}",
                f"{ascii_first}_{rng.randint(1, 999)}",
                f"{ascii_last}-{ascii_first[:3]}{rng.randint(1, 9)}",
            ]
        )
        domain = rng.choice(
            ["gmail.com", "outlook.com", "yahoo.fr", "proton.me", "web.de", "mail.ru",
             "icloud.com", "hotmail.co.uk", "libero.it", "qq.com", gen.en.domain_name()]
        )  # fmt: skip
        self.email = f"{self.username.replace('-', '.')}@{domain}"
        self.address = gen.address()
        self.phone = gen.phone(locale)
        self.age = rng.randint(16, 94)
        self.dob = date(2025, 1, 1) - timedelta(days=self.age * 365 + rng.randint(0, 364))
        self.nationality = rng.choice(NATIONALITIES)
        self.nick = _nickname(self.first, rng)


def _nickname(first: str, rng: random.Random) -> str:
    if first in NICKNAMES:
        return rng.choice(NICKNAMES[first])
    if not first.isascii() or len(first) < 6:
        return first
    return first[: rng.randint(3, 4)] + rng.choice(["", "", "y", "ie"])


def _name_parts(fake: Any, locale: str, rng: random.Random) -> tuple[str, str]:
    if locale in _ROMANISABLE and rng.random() < 0.6:
        return fake.first_romanized_name(), fake.last_romanized_name()
    if locale in {"ko_KR", "ar_AA", "fa_IR", "he_IL", "th_TH", "hi_IN", "ru_RU", "uk_UA",
                  "el_GR", "bg_BG", "ka_GE", "hy_AM"} and rng.random() < 0.55:  # fmt: skip
        return rng.choice(ROMANISED_FIRST), rng.choice(ROMANISED_LAST)
    try:
        return fake.first_name(), fake.last_name()
    except AttributeError:
        return rng.choice(ROMANISED_FIRST), rng.choice(ROMANISED_LAST)


class Address:
    """An address as labelled pieces: [(text, category or ""), ...] per line."""

    def __init__(self, lines: list[list[tuple[str, str]]]) -> None:
        self.lines = lines

    @property
    def street(self) -> str:
        return next(t for line in self.lines for t, c in line if c == "street address")

    @property
    def city(self) -> str:
        found = [t for line in self.lines for t, c in line if c == "location"]
        return found[0] if found else "Springfield"


ADDRESS_LOCALES = {
    "us": ["en_US"],
    "uk": ["en_GB", "en_IE"],
    "eu": ["de_DE", "de_AT", "de_CH", "nl_NL", "nl_BE", "pl_PL", "cs_CZ", "sk_SK", "sv_SE",
           "da_DK", "no_NO", "fi_FI", "it_IT", "es_ES", "pt_PT", "pt_BR", "hu_HU", "ro_RO",
           "hr_HR", "sl_SI", "el_GR", "tr_TR", "lt_LT", "lv_LV", "et_EE"],
    "fr": ["fr_FR", "fr_BE", "fr_CH", "fr_CA"],
    "other": ["en_AU", "en_CA", "en_NZ", "en_IN", "es_MX", "es_AR", "id_ID", "vi_VN", "ja_JP",
              "zh_CN", "ru_RU"],
}  # fmt: skip
HOUSE_NAMES = [
    "Rose Cottage", "The Old Rectory", "Ivy House", "Mill Farm", "The Coach House",
    "Orchard View", "Hillside", "Willow Lodge", "The Barn", "Meadow Croft", "Villa Rosa",
    "Casa Blanca", "Haus am See", "Le Clos Fleuri",
]  # fmt: skip


# Romanised East and South Asian layouts, and English villages: lines with no keyword at all.
ASIAN_PLACES = {
    "jp": (["Tokyo", "Osaka", "Yokohama", "Nagoya", "Sapporo", "Kobe", "Kyoto", "Fukuoka", "Sendai"],
           ["Shinjuku-ku", "Shibuya-ku", "Minato-ku", "Chuo-ku", "Kita-ku", "Sakyo-ku", "Chiyoda-ku"],
           ["Nishi-Shinjuku", "Jingumae", "Roppongi", "Umeda", "Sakae", "Tenjin", "Motomachi", "Ginza"]),
    "kr": (["Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju", "Suwon"],
           ["Jung-gu", "Gangnam-gu", "Mapo-gu", "Jongno-gu", "Haeundae-gu", "Seocho-gu"],
           ["Sejong-daero", "Teheran-ro", "Hangang-daero", "Olympic-ro", "Dosan-daero"]),
    "cn": (["Shanghai", "Beijing", "Guangzhou", "Shenzhen", "Chengdu", "Hangzhou", "Wuhan"],
           ["Pudong New District", "Haidian District", "Chaoyang District", "Tianhe District", "Xuhui District"],
           ["Century Avenue", "Nanjing Road", "Zhongshan Road", "Jianguo Road", "Renmin Road"]),
    "in": (["Bengaluru", "Mumbai", "Kolkata", "Hyderabad", "Chennai", "Pune", "Ahmedabad", "Jaipur"],
           ["Indiranagar", "Koramangala", "Andheri West", "Salt Lake", "Banjara Hills", "T. Nagar", "Kothrud"],
           ["MG Road", "Linking Road", "100 Feet Road", "Park Street", "Anna Salai", "FC Road"]),
}  # fmt: skip
INDIAN_STATES = [
    "Karnataka",
    "Maharashtra",
    "West Bengal",
    "Telangana",
    "Tamil Nadu",
    "Gujarat",
    "Rajasthan",
]
VILLAGES = [
    "Stow-on-the-Wold", "Great Ayton", "Much Wenlock", "Upper Slaughter", "Long Melford", "Chipping Norton",
    "Nether Wallop", "Ashby St Ledgers", "Westward Ho!", "Ballymena", "Llanfair", "Kirkby Lonsdale",
]  # fmt: skip
COUNTIES = ["Norfolk", "Suffolk", "Yorkshire", "Shropshire", "Gloucestershire", "Oxfordshire",
            "Hampshire", "Cumbria", "Co. Antrim", "Gwynedd", "Devon", "Cornwall", "Kent"]  # fmt: skip


def _asian_address(style: str, rng: random.Random) -> Address:
    cities, districts, roads = ASIAN_PLACES[style]
    city, district, road = rng.choice(cities), rng.choice(districts), rng.choice(roads)
    n = rng.randint
    if style == "jp":
        lines = [
            [(f"{n(1, 9)}-{n(1, 30)}-{n(1, 20)} {road}", "street address")],
            [(district, "location")],
            [(city, "location"), (" ", ""), (f"{n(100, 999)}-{n(1000, 9999)}", "postal code")],
        ]
        if rng.random() < 0.4:
            lines.insert(
                0,
                [
                    (
                        f"{rng.choice(['Sunshine', 'Park', 'Green'])} Mansion {n(101, 909)}",
                        "street address",
                    )
                ],
            )
    elif style == "kr":
        lines = [
            [(f"{n(1, 300)} {road}", "street address"), (", ", ""), (district, "location")],
            [(city, "location"), (" ", ""), (f"{n(10000, 63999)}", "postal code")],
        ]
    elif style == "cn":
        lines = [
            [(f"Room {n(101, 2899)}, {n(1, 999)} {road}", "street address")],
            [(district, "location")],
            [(city, "location"), (" ", ""), (f"{n(100000, 850000)}", "postal code")],
        ]
    else:
        lines = [[(f"Flat {n(1, 20)}{rng.choice('ABCD')}, {rng.choice(['Sunrise', 'Lotus', 'Prestige', 'Green Park'])} Apartments", "street address")],
                 [(f"{n(1, 200)} {road}", "street address")],
                 [(district, "location")],
                 [(city, "location"), (rng.choice([" ", " - "]), ""), (f"{n(110001, 799999)}", "postal code")],
                 [(rng.choice(INDIAN_STATES), "location")]]  # fmt: skip
    if rng.random() < 0.4:
        lines.append(
            [
                (
                    {"jp": "Japan", "kr": "South Korea", "cn": "China", "in": "India"}[style],
                    "location",
                )
            ]
        )
    return Address(lines)


class SynthGenerator:
    """Draws documents; `seed` fixes everything."""

    def __init__(self, seed: int) -> None:
        from faker import Faker

        self.rng = random.Random(seed)
        self._seed = seed
        self._fakers: dict[str, Any] = {}
        self._faker_cls = Faker
        self.name_locales = list(NAME_LOCALES)
        self.name_weights = list(NAME_LOCALES.values())
        self.en = self.faker("en_US")

    def faker(self, locale: str) -> Any:
        if locale not in self._fakers:
            fake = self._faker_cls(locale)
            fake.seed_instance(self._seed * 7919 + len(self._fakers))
            _sort_city_lists(fake)
            self._fakers[locale] = fake
        return self._fakers[locale]

    # ------------------------------------------------------------------ values

    def phone(self, locale: str) -> str:
        rng = self.rng
        if rng.random() < 0.55:
            try:
                return self.faker(locale).phone_number()
            except AttributeError:
                pass
        d = lambda n: _digits(rng, n)  # noqa: E731
        return rng.choice(
            [
                lambda: f"{d(3)} {d(3)} {d(3)}",
                lambda: f"{d(3)} {d(3)} {d(4)}",
                lambda: f"0{d(3)} {d(3)} {d(3)}",
                lambda: f"0{d(2)} {d(3)} {d(2)} {d(2)}",
                lambda: f"{d(2)} {d(2)} {d(2)} {d(2)} {d(2)}",
                lambda: f"({d(3)}) {d(3)}-{d(4)}",
                lambda: f"{d(3)}.{d(3)}.{d(4)}",
                lambda: f"+{rng.randint(1, 99)} {d(3)} {d(3)} {d(3)}",
                lambda: f"+{rng.randint(30, 49)} {d(2)} {d(4)} {d(4)}",
                lambda: f"0{d(4)} {d(6)}",
                lambda: f"{d(4)}-{d(4)}",
                lambda: f"{d(10)}",
            ]
        )()

    def address(self) -> Address:
        rng = self.rng
        style = rng.choices(["us", "uk", "eu", "fr", "other", "mil", "pobox", "jp", "kr", "cn", "in", "village"],
                            [18, 12, 26, 8, 8, 3, 4, 3, 3, 3, 4, 6])[0]  # fmt: skip
        if style in ASIAN_PLACES:
            return _asian_address(style, rng)
        locale = rng.choice(ADDRESS_LOCALES.get(style, ["en_US", "en_GB", "de_DE"]))
        fake = self.faker(locale)
        city = fake.city()
        postcode = fake.postcode()
        if style == "mil":
            kind = rng.choice(["PSC", "Unit", "ship"])
            if kind == "PSC":
                first = f"PSC {_digits(rng, 4)}, Box {_digits(rng, 4)}"
            elif kind == "Unit":
                first = f"Unit {_digits(rng, 4)} Box {_digits(rng, 4)}"
            else:
                first = f"{rng.choice(['USS', 'USNS', 'USNV', 'USCGC'])} {self.en.last_name()}"
            post = rng.choice(["APO", "FPO", "DPO"])
            return Address(
                [[(first, "street address")],
                 [(f"{post} {rng.choice(['AA', 'AE', 'AP'])} {_digits(rng, 5)}", "street address")]]
            )  # fmt: skip
        if style == "pobox":
            box = rng.choice(
                [f"PO Box {rng.randint(1, 99999)}", f"P.O. Box {rng.randint(1, 9999)}",
                 f"Postfach {rng.randint(10, 9999)}", f"BP {rng.randint(1, 999)}",
                 f"Apartado {rng.randint(1, 9999)}", f"Private Bag {rng.randint(1, 999)}"]
            )  # fmt: skip
            return Address([[(box, "street address")], [(postcode, "postal code"), (" ", ""),
                                                          (city, "location")]])  # fmt: skip
        street = re.sub(r"\s*\n\s*", ", ", fake.street_address()).strip()
        if style == "fr" and not street[:1].isdigit():
            sep = rng.choice([" ", ", "])
            street = f"{rng.randint(1, 180)}{rng.choice(['', '', ' bis', 'b'])}{sep}{street}"
        elif style == "eu" and rng.random() < 0.2 and not street[:1].isdigit():
            m = re.match(r"(.+?)[ ,]+(\d+\w?(?:/\d+)?)$", street)
            if m:  # house number first, as some writers put it
                street = f"{m.group(2)} {m.group(1)}"
        lines: list[list[tuple[str, str]]] = []
        if style == "village":  # house name, lane, village, county, postcode: one per line
            fake = self.faker("en_GB")
            if rng.random() < 0.7:
                lines.append([(rng.choice(HOUSE_NAMES), "street address")])
            if rng.random() < 0.7 or not lines:
                lines.append([(fake.street_name(), "street address")])
            lines.append([(rng.choice(VILLAGES), "location")])
            if rng.random() < 0.5:
                lines.append([(fake.city(), "location")])
            if rng.random() < 0.6:
                lines.append([(rng.choice(COUNTIES), "location")])
            lines.append([(fake.postcode(), "postal code")])
            return Address(lines)
        if rng.random() < 0.12:
            lines.append([(rng.choice(HOUSE_NAMES), "street address")])
        if rng.random() < 0.1:
            unit = rng.choice([f"Flat {rng.randint(1, 40)}", f"Apt {rng.randint(1, 999)}",
                               f"Suite {rng.randint(100, 999)}", f"Unit {rng.randint(1, 60)}"])  # fmt: skip
            lines.append([(unit, "street address")])
        lines.append([(street, "street address")])
        if style == "us":
            state = self.en.state_abbr()
            lines.append([(city, "location"), (", ", ""), (state, "location"), (" ", ""),
                          (self.en.postcode_in_state(state), "postal code")])  # fmt: skip
        elif style == "uk":
            lines.append([(city, "location")])
            lines.append([(postcode, "postal code")])
        elif rng.random() < 0.25:  # the city alone on its line, postcode below or left out
            lines.append([(city, "location")])
            if rng.random() < 0.5:
                lines.append([(postcode, "postal code")])
        else:
            lines.append([(postcode, "postal code"), (" ", ""), (city, "location")])
        if rng.random() < 0.25:
            try:
                country = fake.current_country()
            except (AttributeError, ValueError):
                country = rng.choice(COUNTRY_NAMES)
            lines.append([(country, "location")])
        return Address(lines)

    def org(self) -> str:
        rng = self.rng
        if rng.random() < 0.25:  # churches, clubs, schools, GP practices, shops, landlords
            return community.local_org(self)
        kind = rng.random()
        if kind < 0.55:
            locale = rng.choice(["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL",
                                 "pl_PL", "sv_SE", "pt_BR", "en_IN", "en_AU", "ja_JP", "tr_TR"])  # fmt: skip
            return self.faker(locale).company()
        if kind < 0.7:
            return rng.choice(["University of ", "Bank of ", "Royal Bank of ", "Hospital of "]) + (
                self.faker(rng.choice(["en_GB", "en_US", "de_DE"])).city()
            )
        if kind < 0.85:
            return f"{self.en.last_name()} {rng.choice(['Memorial Hospital', 'Medical Centre', 'Law Group', 'Academy', 'Dental Practice', 'Foundation', 'Capital', 'Logistics', 'Construction', 'Bakery'])}"
        return rng.choice(
            ["Acme", "Globex", "Initech", "Umbrella", "Stark Industries", "Northwind Traders",
             "Contoso", "Fabrikam", "Tailspin Toys", "Wayne Enterprises", "Hooli", "Vandelay",
             "Zentrix", "Brightline", "Octavia Health", "Meridian Freight"]
        )  # fmt: skip

    def location(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            return rng.choice(COUNTRY_NAMES)
        return self.faker(rng.choice(self.name_locales[:60])).city()

    def money(self) -> str:
        rng = self.rng
        cur = rng.choice(CURRENCIES)
        amount = rng.choice([f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}.{rng.randint(0, 99):02d}",
                             f"{rng.randint(1, 99999)}", f"{rng.randint(1, 9999)}.{rng.randint(0, 99):02d}",
                             f"{rng.randint(1, 999)}.{rng.randint(0, 999):03d},{rng.randint(0, 99):02d}"])  # fmt: skip
        return (
            f"{cur} {amount}"
            if len(cur) == 3 and rng.random() < 0.7
            else (f"{cur}{amount}" if rng.random() < 0.5 else f"{amount} {cur}")
        )

    def structured(self, key: str) -> tuple[str, str]:
        """A structured identifier the rules find (present so the model sees them as text)."""
        rng, en = self.rng, self.en
        makers: dict[str, Callable[[], tuple[str, str]]] = {
            "ip": lambda: (en.ipv4_public() if rng.random() < 0.8 else en.ipv6(), "ip address"),
            "iban": lambda: (self.faker(rng.choice(["de_DE", "fr_FR", "en_GB", "nl_NL", "es_ES", "it_IT"])).iban(), "iban"),
            "card": lambda: (en.credit_card_number(), "card number"),
            "ssn": lambda: (en.ssn(), "ssn"),
            "url": lambda: (en.url() + en.uri_path(), "url"),
            "mac": lambda: (en.mac_address(), "mac address"),
            "date": lambda: ((date(1970, 1, 1) + timedelta(days=rng.randint(0, 20454))).strftime(rng.choice(["%d/%m/%Y", "%Y-%m-%d", "%B %d, %Y", "%d %b %Y"])), "date"),
            "ref": lambda: (rng.choice([f"INC{_digits(rng, 7)}", f"TCK-{_digits(rng, 5)}", f"#{_digits(rng, 6)}", f"{''.join(rng.choices(string.ascii_uppercase, k=3))}-{_digits(rng, 4)}"]), "reference id"),
            "plate": lambda: (self.faker(rng.choice(["en_GB", "de_DE", "en_US", "fr_FR"])).license_plate(), "license plate"),
        }  # fmt: skip
        return makers[key]()

    # ------------------------------------------------------------------ documents

    def document(self) -> dict[str, Any]:
        rng = self.rng
        genre = rng.choices(list(GENRES), [w for w, _ in GENRES.values()])[0]
        people = [Person(self) for _ in range(4)]
        doc = DocBuilder(spacing_noise=rng if rng.random() < 0.2 else None)
        GENRES[genre][1](self, doc, people)
        out = doc.build()
        out = _noise(out, rng)
        out["genre"] = genre
        return out

    def render(self, doc: DocBuilder, template: str, people: list[Person]) -> None:
        """Fill `{A.first}`-style slots (A-D are people) and document-level slots."""
        for piece in re.split(r"(\{[\w.:]+\})", template):
            if not piece:
                continue
            if piece.startswith("{"):
                self._slot(doc, piece[1:-1], people)
            else:
                doc.text(piece)

    def _slot(self, doc: DocBuilder, key: str, people: list[Person]) -> None:
        rng = self.rng
        if ":" in key:  # "{first:de_DE}": a value from that locale (codeswitch.py)
            self._local_slot(doc, *key.split(":"))
            return
        if key in community.KINDS:
            doc.pii(community.local_org(self, key), "organization")
            return
        if "." in key:
            who, field = key.split(".")
            self._person_slot(doc, people["ABCD".index(who)], field)
            return
        if key == "addr":  # a one-line address of a new place
            _address_inline(doc, self.address(), rng)
        elif key == "org":
            doc.pii(self.org(), "organization")
        elif key == "loc":
            doc.pii(self.location(), "location")
        elif key == "country":
            doc.pii(rng.choice(COUNTRY_NAMES), "location")
        elif key in ("nat", "nat_lc"):
            value = rng.choice(NATIONALITIES)
            doc.pii(value.lower() if key == "nat_lc" else value, "nationality or group")
        elif key in ("rel", "rel_lc"):
            value = rng.choice(RELIGIONS)
            doc.pii(value.lower() if key == "rel_lc" else value, "nationality or group")
        elif key in ("eth", "eth_lc"):
            value = rng.choice(ETHNICITIES)
            doc.pii(value.lower() if key == "eth_lc" else value, "nationality or group")
        elif key == "authority":  # a public authority is no organisation; the place in it is
            before, _, after = rng.choice(AUTHORITIES).partition("{place}")
            doc.text(before)
            if _:
                doc.pii(
                    self.faker(rng.choice(["en_GB", "en_US", "de_DE", "en_IE"])).city(), "location"
                )
            doc.text(after)
        elif key == "kin_name":  # "Uncle Femi": the kinship word stays outside the name
            doc.text(
                rng.choice(
                    ["Uncle ", "Auntie ", "Aunt ", "Cousin ", "Grandma ", "uncle ", "aunty "]
                )
            )
            doc.pii(
                rng.choice(ROMANISED_FIRST)
                if rng.random() < 0.5
                else self.faker(rng.choice(self.name_locales[:45])).first_name(),
                "full person name",
            )
        elif key == "party":
            doc.pii(rng.choice(GROUPS), "nationality or group")
        elif key in ("ip", "iban", "card", "ssn", "url", "mac", "date", "ref", "plate"):
            doc.pii(*self.structured(key))
        else:
            doc.text(self._negative(key))

    def _local_slot(self, doc: DocBuilder, kind: str, locale: str) -> None:
        rng, fake = self.rng, self.faker(locale)
        if kind == "first":
            pool = codeswitch.FIRST_NAMES.get(locale)
            doc.pii(rng.choice(pool) if pool else fake.first_name(), "full person name")
        elif kind == "last":
            doc.pii(fake.last_name(), "full person name")
        elif kind == "city":
            pool = codeswitch.CITIES.get(locale)
            doc.pii(rng.choice(pool) if pool else fake.city(), "location")
        elif kind == "street":
            doc.pii(fake.street_name(), "street address")
        else:
            raise KeyError(kind)

    def _negative(self, key: str) -> str:
        rng = self.rng
        pools: dict[str, Callable[[], str]] = {
            "law": lambda: rng.choice(LAWS),
            "work": lambda: rng.choice(WORKS),
            "dept": lambda: rng.choice(DEPARTMENTS),
            "product": lambda: rng.choice(PRODUCTS),
            "event": lambda: rng.choice(EVENTS),
            "phrase": lambda: rng.choice(TITLE_CASE_PHRASES),
            "abbr": lambda: rng.choice(ABBREVIATIONS),
            "common": lambda: rng.choice(COMMON_WORDS),
            "money": self.money,
            "job": lambda: self.en.job(),
            "n": lambda: str(rng.randint(2, 400)),
            "hh": lambda: f"{rng.randint(0, 23):02d}",
            "mm": lambda: f"{rng.randint(0, 59):02d}",
            "version": lambda: f"{rng.randint(1, 12)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
            "weekday": lambda: rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
            "month": lambda: rng.choice(["January", "March", "May", "June", "August", "October", "December"]),
            "field": lambda: rng.choice(FIELD_LABELS),
            "value": lambda: rng.choice(FIELD_VALUES),
            "sentence": lambda: self.en.sentence(nb_words=rng.randint(5, 14)),
            "kin": lambda: rng.choice(KINSHIP),
            "kin_lc": lambda: rng.choice(KINSHIP).lower(),
            "lang": lambda: rng.choice(LANGUAGES),
            "cuisine": lambda: rng.choice(CUISINES),
            "title_phrase": lambda: rng.choice(LAWS + WORKS + TITLE_CASE_PHRASES),
        }  # fmt: skip
        return pools[key]()

    def _person_slot(self, doc: DocBuilder, p: Person, field: str) -> None:
        rng = self.rng
        name = "full person name"
        if field in ("full", "first", "last"):
            value = getattr(p, field)
            doc.pii(_case(value, rng, 0.08), name)
        elif field in ("full_lc", "first_lc", "last_lc"):
            doc.pii(getattr(p, field[:-3]).lower(), name)
        elif field == "full_uc":
            doc.pii(p.full.upper(), name)
        elif field == "initial":  # J. Smith
            doc.pii(f"{p.first[:1]}. {p.last}", name)
        elif field == "last_first":  # Smith, John
            doc.pii(f"{p.last}, {p.first}", name) if rng.random() < 0.5 else doc.pii(
                f"{p.last.upper()} {p.first}", name
            )
        elif field == "nick":
            doc.pii(_case(p.nick, rng, 0.3), name)
        elif field == "first_uc":  # speaker labels in transcripts
            doc.pii(_upper_same_length(p.first), name)
        elif field == "any":  # the same person named again, in whichever form comes to hand
            form = rng.choice(
                [
                    "full",
                    "first",
                    "first",
                    "nick",
                    "first_lc",
                    "last_first",
                    "initial",
                    "title_last",
                ]
            )
            if form == "title_last":
                doc.text(p.title + " ")
                doc.pii(p.last, name)
            else:
                self._person_slot(doc, p, form)
        elif field == "title":
            doc.text(p.title)
        elif field == "email":
            doc.pii(p.email, "email address")
        elif field == "phone":
            doc.pii(p.phone, "phone number")
        elif field == "user":
            doc.pii(p.username, "handle")
        elif field == "handle":
            doc.pii("@" + p.username.replace(".", "_").replace("-", "_"), "handle")
        elif field == "block":
            _address_block(doc, p.address, rng)
        elif field == "addr":
            _address_inline(doc, p.address, rng)
        elif field == "street":
            doc.pii(p.address.street, "street address")
        elif field == "city":
            doc.pii(p.address.city, "location")
        elif field == "zip":
            codes = [t for line in p.address.lines for t, c in line if c == "postal code"]
            doc.pii(codes[0] if codes else f"{rng.randint(10000, 99999)}", "postal code")
        elif field == "age":
            doc.pii(str(p.age), "age")
        elif field in ("age_years_old", "age_year_old"):  # the guideline puts the unit inside
            unit = rng.choice(
                [" years old", " yrs old"]
                if field == "age_years_old"
                else ["-year-old", " year old", "-yr-old"]
            )
            doc.pii(f"{p.age}{unit}", "age")
        elif field == "dob":
            doc.pii(p.dob.strftime(rng.choice(["%d/%m/%Y", "%Y-%m-%d", "%d %B %Y", "%B %d, %Y"])),
                    "date of birth")  # fmt: skip
        elif field == "nat":
            doc.pii(p.nationality if rng.random() < 0.7 else p.nationality.lower(),
                    "nationality or group")  # fmt: skip
        else:
            raise KeyError(field)


def _case(value: str, rng: random.Random, p_lower: float) -> str:
    roll = rng.random()
    if roll < p_lower:
        return value.lower()
    if roll < p_lower + 0.02:
        return _upper_same_length(value)
    return value


def _upper_same_length(value: str) -> str:
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in value)


def _address_block(doc: DocBuilder, address: Address, rng: random.Random) -> None:
    indent = rng.choice(["", "", "", "  ", "\t"])
    for i, line in enumerate(address.lines):
        if i:
            doc.text(rng.choice(["\n", "\n", "\n", ",\n"]) + indent)
        else:
            doc.text(indent)
        for text, category in line:
            doc.pii(text, category) if category else doc.text(text)


def _address_inline(doc: DocBuilder, address: Address, rng: random.Random) -> None:
    for i, line in enumerate(address.lines):
        if i:
            doc.text(rng.choice([", ", ", ", " ", " - "]))
        for text, category in line:
            doc.pii(text, category) if category else doc.text(text)


def _noise(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Casing noise that keeps every offset: all lower (chat style), all upper (forms)."""
    roll = rng.random()
    text = doc["text"]
    if roll < 0.07:
        text = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    elif roll < 0.09:
        text = _upper_same_length(text)
    return {"text": text, "spans": doc["spans"]}


# ---------------------------------------------------------------------- genres
# Each genre writes one document. Sentences are drawn from pools and shuffled so that no
# layout dominates.


def _pick(gen: SynthGenerator, pool: list[str], low: int, high: int) -> list[str]:
    return gen.rng.sample(pool, k=min(len(pool), gen.rng.randint(low, high)))


def _lines(
    gen: SynthGenerator, doc: DocBuilder, pool: list[str], low: int, high: int
) -> Iterator[tuple[int, str]]:
    """Between `low` and `high` lines drawn from `pool`, each after a line break but the first."""
    for i, line in enumerate(_pick(gen, pool, low, high)):
        if i:
            doc.text("\n")
        yield i, line


def _sep(gen: SynthGenerator) -> str:
    return gen.rng.choice([" ", " ", "  ", "\n", "\n\n"])


def _sentences(
    gen: SynthGenerator,
    doc: DocBuilder,
    people: list[Person],
    pool: list[str],
    low: int,
    high: int,
) -> None:
    """Between `low` and `high` sentences drawn from `pool`, with varied separators."""
    for i, sentence in enumerate(_pick(gen, pool, low, high)):
        if i:
            doc.text(_sep(gen))
        gen.render(doc, sentence, people)


NEGATIVE_SENTENCES = [
    "The {law} applies here, see section {n}.",
    "We watched {work} on {weekday}.",
    "Forward it to {dept} please.",
    "The {dept} team will pick this up after the {event}.",
    "I updated {product} to version {version}.",
    "The total came to {money} including {abbr}.",
    "Please note the {phrase} was revised in {month}.",
    "Our {abbr} number is on the {phrase} form.",
    "Refund of {money} approved by {dept}.",
    "The {common} said it would take {n} days.",
    "Ask the {common} at the front desk.",
    "{work} is still my favourite.",
    "Did you read the {phrase} before the {event}?",
    "It was a {common} deal for everyone.",
    "{sentence}",
    "{sentence}",
    "{sentence}",
    "She speaks {lang} and a little {lang}.",
    "We ordered {cuisine} food and watched {work}.",
    "The {cuisine} place on the corner closes at {hh}:{mm}.",
    "My {kin_lc} says hi.",
    "{kin} is picking us up at {hh}:{mm}.",
    "Letter from {authority} about the council tax.",
    "We reported it to {authority} on {weekday}.",
    "I will mark the bill as paid.",
    "There is hope the {common} will grace us with a reply in may.",
    "The {abbr} team moved the {product} licences to {dept}.",
    "Under {law}, the {job} must respond within {n} days.",
    "The song {work} was playing in the {phrase} meeting.",
    "Amount due: {money}.",
    "{field}: {value}",
    "Sent via {product}.",
    *WORDS_THAT_ARE_NAMES,
]

CHAT_LINES = [
    "{A.first_lc}: hey {B.first_lc} are you around?",
    "{B.first_lc}: yeah, call me on {B.phone}",
    "{A.first}: can you send it to {A.email}",
    "{B.first}: i'm in {loc} till {weekday}",
    "{A.first_lc}: lol {C.first_lc} just turned {C.age}",
    "{C.first}: my address is {C.addr}",
    "{A.first_lc}: reach me at {A.phone} after {hh}:{mm}",
    "{B.first_lc}: {D.first_lc} from {org} said no",
    "{A.first}: ok ping {D.first} then",
    "{B.first_lc}: the {common} at the shop was rude lol",
    "{C.first_lc}: total was {money}, splitting it?",
    "{A.first_lc}: my username is {A.user}",
    "{B.first}: she's {nat_lc} btw, moved here from {country}",
    "{D.first_lc}: meet at {D.street}?",
    "{A.first_lc}: {sentence}",
    "{B.first_lc}: watching {work} tonight",
    "{C.first_lc}: ask {A.first_lc}, he knows",
    "{D.full}: hi all, it's {D.first_lc} here",
    "{A.first_lc}: {B.full_lc} owes me {money}",
    "{B.first}: wifi at {org} is down again",
]


def _chat(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    style = rng.choice(["plain", "stamp", "bracket", "angle", "dash"])
    for _i, line in _lines(gen, doc, CHAT_LINES, 5, 12):
        if style == "stamp":
            doc.text(f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} ")
        elif style == "bracket":
            doc.text(f"[{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}] ")
        elif style == "dash":
            doc.text(
                f"{rng.randint(1, 28)}/{rng.randint(1, 12)}/24, {rng.randint(0, 23)}:{rng.randint(10, 59)} - "
            )
        if style == "angle":
            line = re.sub(r"^(\{[\w.]+\}):", r"<\1>", line)
        gen.render(doc, line, people)


LETTER_BODY = [
    "I am writing on behalf of my client, {C.full}, regarding the property at {C.addr}.",
    "{C.title} {C.last} has asked me to confirm the appointment on {date}.",
    "Please contact {D.full} on {D.phone} if anything is unclear.",
    "The amount of {money} is due within {n} days.",
    "My son {D.first} will collect the documents.",
    "We met {D.first} {D.last} from {org} at the {event}.",
    "You can reach me at {A.phone} or {A.email}.",
    "{C.first} is {C.age_years_old} and lives with her sister {D.first}.",
    "At the age of {C.age}, {C.first} moved to {loc}.",
    "My husband, {D.first}, is {D.nat} and a practising {rel}.",
    "Our records show {C.full} was born in {loc}.",
    "The {dept} of {org} will be in touch.",
    "Payment should go to IBAN {iban}.",
    "Kind thanks to {D.initial} for the introduction.",
    "The {common} at {org} was very helpful.",
    "{C.full} ({C.email}) has agreed to act as a referee.",
]


def _letter(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    if rng.random() < 0.6:
        gen.render(doc, rng.choice(["{A.full}\n", "{A.title} {A.full}\n", "{A.full_uc}\n"]), people)
        _address_block(doc, people[0].address, rng)
        doc.text("\n\n")
    if rng.random() < 0.5:
        gen.render(doc, rng.choice(["{B.full}\n{org}\n", "{org}\nAttn: {B.full}\n"]), people)
        _address_block(doc, people[1].address, rng)
        doc.text("\n\n")
    gen.render(doc, rng.choice(["{date}\n\n", ""]), people)
    gen.render(doc, rng.choice(["Dear {B.title} {B.last},\n\n", "Dear {B.first},\n\n",
                                "Dear Sir or Madam,\n\n", "To whom it may concern,\n\n",
                                "Hello {B.first},\n\n"]), people)  # fmt: skip
    _sentences(gen, doc, people, LETTER_BODY + NEGATIVE_SENTENCES[:8], 3, 7)
    gen.render(doc, rng.choice(["\n\nYours sincerely,\n\n{A.full}", "\n\nKind regards,\n{A.first}",
                                "\n\nBest wishes,\n{A.full}\n{job}", "\n\nYours faithfully,\n{A.initial}",
                                "\n\nRegards\n{A.full}\n{A.phone}"]), people)  # fmt: skip


CV_PARTS = [
    "Experience\n{org} — {job}, {loc} ({n} months)\n{org} — {job}\n",
    "Education\nUniversity of {loc}, BSc ({month} {n})\n",
    "Languages: English, {nat} (native)\n",
    "References available from {D.full}, {D.email}\n",
    "Date of birth: {A.dob} | Nationality: {A.nat}\n",
    "Skills: {product}, {product}, {abbr} reporting\n",
    "Referee: {C.title} {C.full}, {org}, {C.phone}\n",
    "Volunteering: {dept} at {org}\n",
]


def _cv(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(doc, rng.choice(["{A.full_uc}\n", "{A.full}\n", "CURRICULUM VITAE\n{A.full}\n",
                                "Name: {A.full}\n"]), people)  # fmt: skip
    if rng.random() < 0.5:
        _address_inline(doc, people[0].address, rng)
        doc.text("\n")
    else:
        _address_block(doc, people[0].address, rng)
        doc.text("\n")
    gen.render(doc, rng.choice(["{A.phone} | {A.email}\n\n", "Tel: {A.phone}\nEmail: {A.email}\n\n",
                                "{A.email} · {A.phone} · linkedin.com/in/{A.user}\n\n"]), people)  # fmt: skip
    for part in _pick(gen, CV_PARTS, 3, 6):
        gen.render(doc, part + "\n", people)


LOG_LINES = [
    "{date} {hh}:{mm}:12 INFO login ok user={A.user} src={ip}",
    "{date}T{hh}:{mm}:03Z WARN failed password for {A.user} from {ip} port {n}",
    '{hh}:{mm}:44 ERROR payment declined card={card} customer="{A.full}"',
    "[{date} {hh}:{mm}] audit: {B.email} changed role of {C.user} to admin",
    "{hh}:{mm}:09 DEBUG MAC: {mac} Gateway: {ip} VLAN: {n}",
    "{date} {hh}:{mm}:51 INFO shipped order {ref} to {B.full}, {B.addr}",
    "{hh}:{mm}:30 INFO Build: {version} Branch: main Status: {value}",
    "{date} {hh}:{mm}:20 WARN device serial checks failed for host {A.user}-laptop",
    "{hh}:{mm}:02 INFO {A.first_lc} ({A.email}) opened ticket {ref}",
    "{hh}:{mm}:59 INFO Region: {value} Queue: {value} Owner: {D.full}",
]


def _log(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    for _i, line in _lines(gen, doc, LOG_LINES, 4, 9):
        gen.render(doc, line, people)


TICKET_FIELDS = [
    "Reporter: {A.full}\n",
    "Assignee: {B.first_lc}\n",
    "{field}: {value}\n",
    "{field}: {value}\n",
    "Desk: {n}B\n",
    "ZIP: {A.zip}\n",
    "Customer phone: {A.phone}\n",
    "Contact: {C.full} <{C.email}>\n",
    "Location: {loc}\n",
    "Company: {org}\n",
]
TICKET_BODY = [
    "Customer {A.full} says the {product} app crashes on start.",
    "{A.first} called again, reach them at {A.phone}.",
    "Spoke with {C.first} from {org}; they want a refund of {money}.",
    "The parcel for {A.full} was sent to {A.addr} instead of {B.addr}.",
    "User {A.user} cannot log in since the {event}.",
    "Escalated to {D.first} in {dept}.",
    "{B.first_lc} fixed it, closing.",
    "Caller gave DOB {A.dob} and postcode {A.zip}.",
    "Please do not share the {phrase} with {common}s outside {dept}.",
]


def _ticket(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(
        doc,
        rng.choice(["Ticket {ref}\n", "Case {ref} — {value}\n", "[{ref}] {sentence}\n"]),
        people,
    )
    for f in _pick(gen, TICKET_FIELDS, 3, 6):
        gen.render(doc, f, people)
    doc.text("\n")
    _sentences(gen, doc, people, TICKET_BODY + NEGATIVE_SENTENCES[:6], 2, 5)


CLINICAL = [
    "Re: {A.full}, DOB {A.dob}, {A.addr}",
    "I saw this {A.age_year_old} {nat_lc} gentleman in clinic today.",
    "{A.first} lives alone in {loc}; her daughter {B.first} visits daily.",
    "He was diagnosed with {phrase} at the age of {A.age}.",
    "Seen by {C.title} {C.last} in the {phrase}.",
    "Mrs {A.last} has just turned {A.age} and remains independent.",
    "Next of kin: {B.full} ({B.phone}).",
    "Discussed with {D.first} {D.last}, the on-call registrar.",
    "The patient is a practising {rel_lc} and declines blood products.",
    "Plan reviewed with {A.first_lc}'s GP at {org}.",
    "Observations stable. {sentence}",
]


def _clinical(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(doc, rng.choice(["Dear {C.title} {C.last},\n\n", "{org}\n{date}\n\n", ""]), people)
    _sentences(gen, doc, people, CLINICAL, 3, 7)
    gen.render(
        doc,
        rng.choice(["\n\nYours sincerely\n{D.title} {D.full}", "\n\n{D.full}, {job}", ""]),
        people,
    )


LEGAL = [
    "The defendant, {A.full}, of {A.addr}, appeared before the court.",
    "{A.last} was arrested on {date} in {loc}.",
    "The witness, {B.full_uc}, aged {B.age}, gave evidence.",
    "Officer {C.last} (badge {n}) attended {C.addr}.",
    "The claimant relies on the {law}.",
    "{B.first} {B.last} told police that {A.first} had left for {country}.",
    "The accused, a {A.age_year_old} {nat} national, was represented by {org}.",
    "Judgment was given by {D.title} {D.last} in the {phrase}.",
    "The vehicle, registration {plate}, belongs to {C.full}.",
    "Costs of {money} are awarded against {org}.",
]


def _legal(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(
        doc,
        rng.choice(["IN THE {phrase}\n\n", "POLICE REPORT {ref}\n\n", "Case {ref}\n\n", ""]),
        people,
    )
    _sentences(gen, doc, people, LEGAL, 3, 7)


def _invoice(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(
        doc, rng.choice(["INVOICE {ref}\n\n", "Invoice no. {ref}\nDate: {date}\n\n"]), people
    )
    gen.render(doc, "{org}\n", people)
    _address_block(doc, gen.address(), rng)
    gen.render(
        doc,
        rng.choice(
            ["\n\nBill to:\n{A.full}\n", "\n\nCustomer: {A.full}\n", "\n\nSold to {A.full_uc}\n"]
        ),
        people,
    )
    _address_block(doc, people[0].address, rng)
    for _ in range(rng.randint(1, 4)):
        gen.render(doc, rng.choice(["\n{product} licence x{n}   {money}", "\nConsulting ({n} h)   {money}",
                                    "\nShipping   {money}"]), people)  # fmt: skip
    gen.render(
        doc,
        rng.choice(["\nTotal: {money}\n", "\nSubtotal {money}\nVAT {money}\nTotal {money}\n"]),
        people,
    )
    gen.render(
        doc,
        rng.choice(
            ["Pay to IBAN {iban}\n", "Questions? Call {B.phone} or write to {B.email}.\n", ""]
        ),
        people,
    )


FORM_FIELDS = [
    ("Full name", "{A.full}"), ("First name", "{A.first}"), ("Surname", "{A.last}"),
    ("Address", "{A.addr}"), ("City", "{A.city}"), ("Phone", "{A.phone}"), ("Mobile", "{A.phone}"),
    ("Email", "{A.email}"), ("Date of birth", "{A.dob}"), ("Age", "{A.age}"),
    ("Nationality", "{A.nat}"), ("Religion", "{rel}"), ("Employer", "{org}"),
    ("Emergency contact", "{B.full}"), ("Relationship", "{common}"), ("Desk", "{n}"),
    ("Gateway", "{ip}"), ("MAC", "{mac}"), ("Status", "{value}"), ("Amount", "{money}"),
]  # fmt: skip


def _form(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    fields = rng.sample(FORM_FIELDS, k=rng.randint(4, 9))
    sep = rng.choice([": ", ":\t", " - ", ": "])
    for i, (label, value) in enumerate(fields):
        if i:
            doc.text("\n")
        doc.text(label.upper() if rng.random() < 0.2 else label)
        doc.text(sep)
        gen.render(doc, value, people)


POST_LINES = [
    "Huge thanks to {A.first} and the whole {dept} crew!",
    "Just moved to {loc} with {B.first_lc} and the kids.",
    "{A.full} is the best {common} I've ever had, ask for her at {org}.",
    "Does anyone know {C.full_lc}? She used to live on {C.street}.",
    "Listening to {work} on repeat.",
    "Avoid {org}, they charged me {money} for nothing.",
    "Happy birthday {D.first}!! {D.age} looks good on you",
    "As a {nat_lc} {rel_lc} living in {country}, I found this moving.",
    "My neighbour {B.first} keeps parking across my drive on {A.street}.",
    "{sentence}",
]


def _post(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    _sentences(gen, doc, people, POST_LINES + NEGATIVE_SENTENCES, 2, 6)


EMAIL_BODY = [
    "Could you ask {C.first} to call me back on {A.phone}?",
    "I'll be in {loc} from {date} — {B.first_lc} has the keys.",
    "{C.full} from {org} will join the call.",
    "Please send the contract to {C.title} {C.last} at {C.addr}.",
    "Thanks to {D.first} for covering while I was away.",
    "The new starter, {D.full}, begins on {weekday}.",
    "My number without the country code is {A.phone}.",
    "{B.first} and {C.first} both said yes.",
    "Heads up: {A.user} is my login on the portal.",
]


def _email(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(doc, rng.choice(["From: {A.full} <{A.email}>\nTo: {B.email}\nSubject: {event}\n\n",
                                "Subject: {phrase}\n\n", "", "From: {A.email}\nCc: {C.full}\n\n"]), people)  # fmt: skip
    gen.render(doc, rng.choice(["Hi {B.first},\n\n", "hey {B.first_lc}\n\n", "{B.first} -\n\n",
                                "Good morning all,\n\n", "Hello team,\n\n"]), people)  # fmt: skip
    _sentences(gen, doc, people, EMAIL_BODY + NEGATIVE_SENTENCES, 3, 7)
    gen.render(doc, rng.choice(["\n\nCheers,\n{A.first}", "\n\n{A.first_lc}", "\n\nThanks\n{A.full}\n{job}, {org}",
                                "\n\n-- \n{A.full} | {A.phone}", "\n\nSent from my iPhone"]), people)  # fmt: skip


def _addresses(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """Bare address blocks, as pasted into forms or labels."""
    rng = gen.rng
    for i, person in enumerate(people[: rng.randint(1, 3)]):
        if i:
            doc.text("\n\n")
        if rng.random() < 0.7:
            gen.render(
                doc, rng.choice(["{A.full}\n", "{A.title} {A.full}\n", "c/o {A.full}\n"]), [person]
            )
        _address_block(doc, person.address if rng.random() < 0.7 else gen.address(), rng)


NARRATIVE = [
    "Yesterday {A.first} and I drove to {loc} to see her brother {B.first}.",
    "When {A.first_lc} was {A.age}, the family moved from {country} to {loc}.",
    "{B.full} has worked at {org} since {month}, mostly in {dept}.",
    "I asked {C.first} whether {D.first} would come, but she said no.",
    "Will {A.first} be at the {event}? Mark it in the calendar.",
    "Grace said the {common} was late again, so we left without {B.first}.",
    "My grandmother, {D.full}, was born in {loc} and raised {rel_lc}.",
    "{A.last} and {B.last} founded {org} in a garage in {loc}.",
    "According to {C.title} {C.last}, the results came back normal.",
    "The {nat} couple next door, {A.first} and {B.first}, invited us over.",
    "{D.first_lc} told me {A.first_lc} had quit {org}.",
    "Three of us met {B.full} outside {org} on {weekday}.",
    "She is {A.age} now and still calls {C.first} every {weekday}.",
    "We stayed with {C.first} {C.last} at {C.addr} for a week.",
    "Big thanks to {A.first}, {B.first} and {C.first} for the help.",
    "It was {B.first}'s idea to call {org} about the {money} refund.",
]


def _narrative(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    _sentences(gen, doc, people, NARRATIVE + NEGATIVE_SENTENCES[:10], 3, 7)


SMS_LINES = [
    "hi its {A.first_lc}, new number. save it",
    "running late, tell {B.first} sorry",
    "ok {B.nick} see u at {A.street} at {hh}",
    "{kin} wants to know if {C.first_lc} is coming sunday",
    "can u transfer {money} to {A.full_lc}",
    "Your code is {n}. Do not share it. - {product}",
    "who is this? {C.first}?",
    "im at {loc} station, where r u",
    "call {D.first} back on {D.phone} pls",
    "{B.first_lc} and {C.first_lc} already left",
    "Reminder: appointment with {C.title} {C.last} on {weekday} at {hh}:{mm}. Reply STOP to opt out",
    "thx {A.nick}!!",
]


def _sms(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    for _i, line in _lines(gen, doc, SMS_LINES, 2, 6):
        if rng.random() < 0.4:
            gen.render(
                doc, rng.choice(["{A.phone}: ", "From {B.phone}: ", "[{date} {hh}:{mm}] "]), people
            )
        gen.render(doc, line, people)


SLACK_LINES = [
    "can someone from {dept} look at the {product} outage?",
    "@{B.user} the deploy for {org} is done",
    "{C.first} is out today, ping {D.first} instead",
    "thanks {A.nick} :pray:",
    "fyi {B.full} joins the {abbr} team on {weekday}",
    "who owns the {phrase} doc? {C.first_lc}?",
    "lunch at the {cuisine} place?",
    "customer {C.full} from {loc} called about invoice {ref}",
    "{D.first_lc} said the {field} field is wrong",
    "ooo until {weekday}, {B.first} covers",
]


def _slack(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    style = rng.choice(["slack", "irc", "teams"])
    if style == "irc":
        gen.render(
            doc, rng.choice(["* {A.user} has joined #support\n", "-- topic: {phrase}\n"]), people
        )
    for i, line in enumerate(_pick(gen, SLACK_LINES, 3, 8)):
        speaker = rng.choice("ABCD")
        if i:
            doc.text("\n")
        if style == "slack":
            gen.render(
                doc, f"{{{speaker}.full}}  {{hh}}:{{mm}} {rng.choice(['AM', 'PM'])}\n", people
            )
        elif style == "irc":
            gen.render(doc, f"[{{hh}}:{{mm}}] <{{{speaker}.first_lc}}> ", people)
        else:
            gen.render(doc, f"{{{speaker}.last_first}}  {{date}} {{hh}}:{{mm}}\n", people)
        gen.render(doc, line, people)


def _email_thread(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """A reply above a quoted message, and a signature block."""
    rng = gen.rng
    gen.render(
        doc,
        rng.choice(["Hi {B.nick},\n\n", "{B.first} -\n\n", "Thanks {B.first}!\n\n", ""]),
        people,
    )
    _sentences(gen, doc, people, EMAIL_BODY + NEGATIVE_SENTENCES[-15:], 1, 3)
    gen.render(doc, rng.choice(["\n\n{A.first}\n", "\n\n{A.full}\n{job} | {org}\n{A.phone}\n",
                                "\n\n--\n{A.full}\n{dept}, {org}\n{A.block}\n"]), people)  # fmt: skip
    quote = rng.choice(["> ", ">", "| "])
    gen.render(doc, rng.choice(["\nOn {weekday}, {date}, {B.full} <{B.email}> wrote:\n",
                                "\n-----Original Message-----\nFrom: {B.last_first}\nSent: {date}\nTo: {A.full}\nSubject: {phrase}\n\n",
                                "\nAm {date} schrieb {B.full}:\n"]), people)  # fmt: skip
    for sentence in _pick(gen, EMAIL_BODY + NEGATIVE_SENTENCES[-15:], 2, 4):
        doc.text(quote)
        gen.render(doc, sentence + "\n", people)
    gen.render(doc, quote + rng.choice(["{B.first}", "{B.nick}", "{B.full}"]), people)


TRANSCRIPT_LINES = [
    "So when did you first meet {B.first}?",
    "It was in {loc}, through my {kin_lc}.",
    "And {B.first} was working at {org} then?",
    "Yes, she'd been there since {month}. {C.first} introduced us.",
    "Did {C.nick} know about the {money}?",
    "I don't think so. Only {D.full} knew.",
    "Can you spell the name for the record?",
    "{D.last}. {D.first} {D.last}.",
    "Thank you. Let's take a break.",
    "My {kin_lc} is {nat} but we grew up {rel_lc}.",
    "We moved to {country} when I was {n}.",
    "I never heard of the {law} before that.",
]


def _transcript(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """Interviews and hearings: the speaker labels are names (upper-case, first, full) or roles."""
    rng = gen.rng
    interviewer = rng.choice(["INTERVIEWER", "Q", "COUNSEL", "{C.title} {C.last}", "{C.first_uc}"])
    witness = rng.choice(["{A.first_uc}", "{A.full_uc}", "A", "WITNESS", "{A.first}", "{A.full}"])
    stamp = rng.random() < 0.3
    for i, line in _lines(gen, doc, TRANSCRIPT_LINES, 4, 9):
        gen.render(
            doc,
            (interviewer if i % 2 == 0 else witness)
            + (" ({hh}:{mm}:{mm})" if stamp else "")
            + ": ",
            people,
        )
        gen.render(doc, line, people)


STORY = [
    "{A.full} grew up in {loc}.",
    'Everyone called {A.any} "{A.nick}" at school.',
    "{A.any} met {B.full} at {org} in {month}.",
    "Later {B.any} told {A.any} about the job.",
    "{A.any} and {kin_name} drove to {loc} that weekend.",
    "When {B.any} rang, {A.any} was out.",
    "The {nat} family of {C.full}, {C.any}'s parents, ran a {cuisine} restaurant.",
    "{C.any} is {eth_lc} and {rel_lc}, and speaks {lang}.",
    "Ask {D.any}. {D.any} always knows.",
    "Nobody said anything; {A.any} laughed.",
    "{A.any}'s {kin_lc} lives with {B.any} now.",
    "It was the {eth} community centre in {loc} that helped {C.any}.",
]


def _story(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """One person named again and again, each time in another form."""
    _sentences(gen, doc, people, STORY, 4, 8)


POLICE = [
    "On {date} at about {hh}:{mm} I attended {A.addr} following a call from {B.full}.",
    "I spoke to the occupant, who identified {A.any} as {A.full}.",
    "{A.any} stated that {C.full} had taken the {product} from the kitchen.",
    "The suspect is described as a {eth_lc} male, about {n} years old, {nat} accent.",
    "I informed {authority} and the duty sergeant.",
    "Witness {D.last_first}, of {D.addr}, gave a statement.",
    '{B.any} was visibly upset and said "{A.first} did it".',
    "Referred to {authority} under the {law}.",
    "The van was last seen heading towards {loc}.",
    "Property: {money} in cash, one {product}.",
]


def _police(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(doc, rng.choice(["WITNESS STATEMENT\nName: {D.full}\nOccupation: {job}\n\n",
                                "Incident {ref}\nOfficer: PC {n} {C.last}\n\n", ""]), people)  # fmt: skip
    _sentences(gen, doc, people, POLICE, 3, 7)


FORUM = [
    "Has anyone dealt with {org}? They still owe me {money}.",
    "Quote from {A.user}: the {product} update broke it again",
    "{B.handle} try calling {authority}, that worked for my {kin_lc}.",
    "As a {nat_lc} living in {loc} I can confirm.",
    "My landlord {C.full} refuses to return the deposit.",
    "{B.first_lc} is right, the {law} covers this.",
    "Edit: {D.first} from {dept} got back to me.",
    "Moved from {country} to {loc} last year, happy to help.",
    "Watching {work} with {B.first} tonight, no spoilers pls",
    "Thanks {A.nick}!! solved",
]


def _forum(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    rng = gen.rng
    gen.render(
        doc,
        rng.choice(
            ["Re: {phrase}\n", "Posted by {A.user} » {date}\n", "Thread: {title_phrase}\n", ""]
        ),
        people,
    )
    for i, line in enumerate(_pick(gen, FORUM, 2, 6)):
        if i:
            doc.text(rng.choice(["\n\n", "\n", "\n---\n"]))
        if rng.random() < 0.3:
            gen.render(doc, rng.choice(["{B.user} wrote:\n> ", "Reply from {C.first}: "]), people)
        gen.render(doc, line, people)


NOTES = [
    "Attendees: {dept}, {dept}, {abbr}",
    "Action: {dept} to review the {phrase} by {weekday}.",
    "{product} migration slips to {month}; {abbr} signed off.",
    "Budget: {money} approved; {money} pending.",
    "The {law} and the {law} both apply.",
    "{field}: {value} | {field}: {value}",
    "Team social: {cuisine} dinner after the {event}.",
    "Song for the ad: {work}.",
    "Big ideas welcome.",
    "Ask the {common} in {dept}.",
    "Escalate to {authority} if unresolved.",
    "Thanks to {A.first} for the notes.",
]


def _notes(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """Meeting notes: almost all title-case words in them are not PII."""
    rng = gen.rng
    gen.render(
        doc, rng.choice(["{title_phrase} - minutes\n", "NOTES {date}\n", "Agenda\n"]), people
    )
    for i, line in _lines(gen, doc, NOTES, 4, 9):
        doc.text(rng.choice(["- ", "* ", "• ", "", f"{i + 1}. "]))
        gen.render(doc, line, people)


def _foreign_chat(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """A chat in another language, or code-switched with English lines (`codeswitch.py`)."""
    rng = gen.rng
    language = rng.choice(list(codeswitch.LINES))
    english = rng.random() < 0.5
    stamp = rng.random() < 0.4
    for i in range(rng.randint(4, 10)):
        if i:
            doc.text("\n")
        if stamp:
            doc.text(f"[{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}] ")
        if english and rng.random() < 0.3:
            gen.render(doc, rng.choice(CHAT_LINES), people)
            continue
        speaker = rng.choice("ABCD")
        gen.render(
            doc, rng.choice([f"{{{speaker}.first}}: ", f"{{{speaker}.first_lc}}: ", ""]), people
        )
        gen.render(doc, rng.choice(codeswitch.LINES[language]), people)


def _community(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """School letters, parish and club news, GP and tenancy notes (`community.py`)."""
    _sentences(gen, doc, people, community.COMMUNITY_LINES + NEGATIVE_SENTENCES[:12], 3, 7)


def _breadth(gen: SynthGenerator, doc: DocBuilder, people: list[Person]) -> None:
    """Word-like, short, capitalised and honorific-marked names, associations, real towns,
    lower-case groups (`breadth.py`)."""
    breadth.breadth_document(
        gen, doc, people, lambda: _sep(gen) if gen.rng.random() < 0.5 else "\n"
    )


GENRES: dict[str, tuple[int, Callable[[SynthGenerator, DocBuilder, list[Person]], None]]] = {
    "chat": (14, _chat),
    "letter": (10, _letter),
    "cv": (6, _cv),
    "log": (7, _log),
    "ticket": (10, _ticket),
    "clinical": (8, _clinical),
    "legal": (8, _legal),
    "invoice": (7, _invoice),
    "form": (8, _form),
    "post": (8, _post),
    "email": (10, _email),
    "addresses": (6, _addresses),
    "narrative": (10, _narrative),
    "sms": (6, _sms),
    "workchat": (7, _slack),
    "email_thread": (7, _email_thread),
    "transcript": (6, _transcript),
    "story": (8, _story),
    "police": (5, _police),
    "forum": (6, _forum),
    "notes": (6, _notes),
    "foreign_chat": (10, _foreign_chat),
    "community": (8, _community),
    "breadth": (14, _breadth),
}


def _sort_city_lists(fake: Any) -> None:
    """Sort the providers' city lists: some are built from a set (Faker's it_IT), whose order
    changes with PYTHONHASHSEED, so a seed gave other documents in every process."""
    for provider in fake.providers:
        cities = getattr(provider, "cities", None)
        if isinstance(cities, list):
            provider.cities = sorted(cities)


def generate(n: int, seed: int) -> list[dict[str, Any]]:
    """`n` documents with gold spans ({start, end, label} in our categories)."""
    gen = SynthGenerator(seed)
    return [{"id": f"synth-{seed}-{i}", **gen.document()} for i in range(n)]
