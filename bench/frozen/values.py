"""Value sources for the independent generator: mimesis plus small formats mimesis lacks.

Everything draws from one `random.Random` and mimesis providers seeded from it, so a seed fixes
every value. Formats with check digits (IBAN, NHS number, card numbers via mimesis, NPI) are
computed, so a checksum-validating detector sees valid values.
"""

from __future__ import annotations

import base64
import json
import random
import string
import unicodedata
from dataclasses import dataclass

from mimesis import Generic
from mimesis.enums import Gender
from mimesis.locales import Locale

# Latin-script mimesis locales whose names, streets and cities we use, with the country they
# stand for and how that country writes a street line ("after": house number after the name).
LATIN_LOCALES: dict[Locale, tuple[str, str]] = {
    Locale.EN_GB: ("United Kingdom", "before"),
    Locale.EN: ("United States", "before"),
    Locale.EN_AU: ("Australia", "before"),
    Locale.EN_CA: ("Canada", "before"),
    Locale.DE: ("Germany", "after"),
    Locale.DE_AT: ("Austria", "after"),
    Locale.FR: ("France", "before"),
    Locale.IT: ("Italy", "after"),
    Locale.ES: ("Spain", "after"),
    Locale.NL: ("Netherlands", "after"),
    Locale.PL: ("Poland", "after"),
    Locale.TR: ("Turkey", "after"),
    Locale.PT_BR: ("Brazil", "after"),
    Locale.CS: ("Czech Republic", "after"),
    Locale.DA: ("Denmark", "after"),
    Locale.SV: ("Sweden", "after"),
    Locale.FI: ("Finland", "after"),
    Locale.HU: ("Hungary", "after"),
    Locale.HR: ("Croatia", "after"),
}
NATIVE_SCRIPT_LOCALES = (Locale.RU, Locale.EL, Locale.JA, Locale.KO, Locale.AR_EG, Locale.UK)

# Romanised names mimesis has no locale for (hand-picked, common in each language).
ROMANISED_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "arabic": (
        "Yusuf Fatima Omar Layla Hamza Noor Khalid Amal Tariq Rania Bilal Huda Samir Dalia".split(),
        "Haddad Al-Masri Nasser Khoury Mansour Saleh Qasim El-Amin Bakr Hijazi Darwish".split(),
    ),
    "chinese": (
        "Wei Jing Hao Xinyi Ming Yan Jun Meiling Lei Ying Zihan Qiang Xiu Bo".split(),
        "Zhang Wang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Guo He".split(),
    ),
    "indian": (
        "Aarav Ananya Vikram Priyanka Rohan Kavya Arjun Meenakshi Sanjay Deepika Harpreet "
        "Lakshmi Siddharth Nandini".split(),
        "Iyer Sharma Reddy Patel Nair Gupta Banerjee Menon Chauhan Kulkarni Bhattacharya Gill "
        "Pillai".split(),
    ),
    "nigerian": (
        "Chinedu Ngozi Emeka Funmilayo Oluwaseun Adaeze Tunde Chiamaka Ifeanyi Bolanle Kelechi "
        "Yetunde Obinna Zainab".split(),
        "Okafor Adeyemi Nwosu Balogun Eze Okonkwo Adebayo Obi Afolabi Nnamdi Oyelaran Bello "
        "Onyekachi".split(),
    ),
    "vietnamese": (
        "Linh Minh Huong Quang Thao Duc Lan Tuan Hai Trang Khanh Phuong Bao Ngoc".split(),
        "Nguyen Tran Le Pham Hoang Vu Dang Bui Do Ngo Duong Ly".split(),
    ),
    "east african": (
        "Wanjiru Kiprop Amani Baraka Nia Otieno Zawadi Juma Halima Abebe Tigist".split(),
        "Mwangi Odhiambo Kamau Wafula Njoroge Achieng Tesfaye Haile Mutua".split(),
    ),
}

# First names that are also ordinary English words: the trap "common words that are names".
WORD_NAMES = "Will Rose Bill Summer Grace Hope Faith Joy Mark April Dawn Sky Rich Jay".split()
NICKNAMES = "Bex Tommo Kiki Jojo Dee Bubba Smudge Leo Mo Pip Gaz Lulu Benji Nando Tash".split()

NATIONALITIES = (
    "british|irish|german|french|italian|spanish|portuguese|polish|romanian|bulgarian|greek|"
    "turkish|syrian|lebanese|egyptian|moroccan|algerian|nigerian|ghanaian|kenyan|ethiopian|"
    "somali|eritrean|south african|indian|pakistani|bangladeshi|sri lankan|nepali|chinese|"
    "japanese|korean|vietnamese|filipino|thai|indonesian|brazilian|colombian|mexican|peruvian|"
    "venezuelan|american|canadian|australian|ukrainian|russian|iranian|afghan|iraqi|kurdish"
).split("|")
RELIGIONS = (
    "muslim|christian|catholic|protestant|hindu|sikh|jewish|buddhist|orthodox christian|"
    "evangelical|shia muslim|sunni muslim|jain|quaker|mormon|baptist|anglican|atheist"
).split("|")
ETHNIC_GROUPS = "yoruba|igbo|hausa|tamil|punjabi|roma|berber|hmong|maori|somali bantu".split("|")

EMAIL_DOMAINS = (
    "gmail.com outlook.com yahoo.co.uk web.de gmx.net libero.it orange.fr proton.me icloud.com "
    "hotmail.es wp.pl seznam.cz yandex.ru naver.com qq.com fastmail.com mail.ee"
).split()
COUNTRY_CODES = {
    "United Kingdom": "44",
    "United States": "1",
    "Australia": "61",
    "Canada": "1",
    "Germany": "49",
    "Austria": "43",
    "France": "33",
    "Italy": "39",
    "Spain": "34",
    "Netherlands": "31",
    "Poland": "48",
    "Turkey": "90",
    "Brazil": "55",
    "Czech Republic": "420",
    "Denmark": "45",
    "Sweden": "46",
    "Finland": "358",
    "Hungary": "36",
    "Croatia": "385",
    "Portugal": "351",
    "Nigeria": "234",
    "India": "91",
    "Kenya": "254",
}

# National phone layouts, digits only as `#`; the first group is the trunk/area part as written
# inside the country (no country prefix).
NATIONAL_PHONE_LAYOUTS: dict[str, list[str]] = {
    "United Kingdom": ["07### ######", "07### ### ###", "020 #### ####", "0161 ### ####"],
    "United States": ["(###) ###-####", "###-###-####", "###.###.####"],
    "Australia": ["04## ### ###", "(02) #### ####"],
    "Canada": ["(###) ###-####"],
    "Germany": ["0151 ########", "0176 ### ####", "030 #######", "089 ### ### ##"],
    "Austria": ["0664 ### ####", "01 ### ## ##"],
    "France": ["06 ## ## ## ##", "07 ## ## ## ##", "01 ## ## ## ##"],
    "Italy": ["3## ### ####", "3## #######", "02 #### ####"],
    "Spain": ["6## ### ###", "6## ## ## ##", "91 ### ## ##"],
    "Netherlands": ["06-########", "06 ## ## ## ##", "020 ### ####"],
    "Poland": ["### ### ###"],
    "Turkey": ["05## ### ## ##", "0212 ### ## ##"],
    "Brazil": ["(11) 9####-####", "(21) ####-####"],
    "Czech Republic": ["### ### ###"],
    "Denmark": ["## ## ## ##"],
    "Sweden": ["07#-### ## ##", "08-### ### ##"],
    "Finland": ["04# ### ####"],
    "Hungary": ["06 30 ### ####", "06 1 ### ####"],
    "Croatia": ["09# ### ####"],
    "Portugal": ["9## ### ###"],
    "Nigeria": ["080# ### ####", "070# ### ####"],
    "India": ["9#### #####", "08# #### ####"],
    "Kenya": ["07## ######"],
}

STREET_TEMPLATES: dict[Locale, list[str]] = {
    Locale.DE: ["{s} {n}", "{s} {n}a", "{s} {n}, {m}. OG"],
    Locale.DE_AT: ["{s} {n}/{m}", "{s} {n}"],
    Locale.IT: ["Via {s} {n}", "Viale {s} {n}", "Piazza {s} {n}", "Corso {s} {n}/{b}"],
    Locale.ES: ["{s} {n}, {m}º {l}", "{s}, {n}", "{s} {n}"],
    Locale.FR: ["{n} rue {s}", "{n} avenue {s}", "{n} bis, boulevard {s}", "Rue {s} {n}"],
    Locale.NL: ["{s} {n}", "{s} {n}-{m}", "{s} {n} bis"],
    Locale.PL: ["ul. {s} {n}/{m}", "al. {s} {n}", "ul. {s} {n} m. {m}"],
    Locale.TR: ["{s} Cad. No: {n}/{m}", "{s} Sok. No {n} D:{m}"],
    Locale.PT_BR: ["{s}, {n}", "{s}, {n}, apto {m}"],
    Locale.CS: ["{s} {n}/{m}"],
    Locale.DA: ["{s} {n}, {m}. tv", "{s} {n}"],
    Locale.SV: ["{s} {n}", "{s} {n} lgh {m}01"],
    Locale.FI: ["{s} {n} B {m}", "{s} {n}"],
    Locale.HU: ["{s} utca {n}. {m}/{b}"],
    Locale.HR: ["{s} ulica {n}"],
    Locale.EN_GB: ["{n} {s} Road", "Flat {m}, {n} {s} Street", "{n} {s} Close"],
    Locale.EN: ["{n} {s} St", "{n} {s} Ave, Apt {m}{l}", "{n} N {s} Blvd"],
    Locale.EN_AU: ["{m}/{n} {s} Street", "{n} {s} Parade"],
    Locale.EN_CA: ["{n} {s} Avenue, Unit {m}", "{n}-{m} {s} Street"],
}
PO_BOXES = [
    "PO Box {n}",
    "P.O. Box {n}",
    "Postfach {n}",
    "Apartado de Correos {n}",
    "BP {n}",
    "Casella Postale {n}",
    "Skrytka pocztowa {n}",
    "Postbus {n}",
]
HOUSE_NAMES = [
    "The Old Forge",
    "Ty Gwyn",
    "Ivy Cottage",
    "Hillcrest",
    "Meadow View",
    "Cnoc na Gaoithe",
    "Villa Serena",
    "Casa Azul",
    "Heatherlea",
    "The Granary",
]

FIELD_LABELS = [
    "Desk:",
    "ZIP:",
    "MAC:",
    "Gateway:",
    "Subnet:",
    "Floor:",
    "Ext:",
    "Shift:",
    "Badge:",
    "Status:",
    "Priority:",
    "Owner:",
    "Region:",
    "Room:",
]
LAW_TITLES = [
    "Civil Rights Act",
    "Data Protection Act 2018",
    "Equality Act 2010",
    "Freedom of Information Act",
    "Road Traffic Act 1988",
    "Consumer Rights Act 2015",
    "Fair Labor Standards Act",
    "Digital Markets Act",
    "Clean Air Act",
    "Americans with Disabilities Act",
    "Employment Rights Act 1996",
]
SONGS_AND_FILMS = [
    "Bohemian Rhapsody",
    "Here Comes the Sun",
    "Purple Rain",
    "Dancing Queen",
    "Sweet Caroline",
    "Hotel California",
    "The Shawshank Redemption",
    "Pulp Fiction",
    "Lost in Translation",
    "Good Will Hunting",
    "Jolene",
    "Waterloo",
    "Mamma Mia",
    "Roman Holiday",
    "Casablanca",
    "Paris, Texas",
]
PRODUCTS = [
    "ThinkPad X1 Carbon",
    "Galaxy Tab S9",
    "iPhone 15 Pro",
    "Pixel 8",
    "Surface Go 3",
    "Kindle Paperwhite",
    "PlayStation 5",
    "AirPods Pro",
    "Dyson V15",
    "Office 365",
    "Microsoft Teams",
    "Google Sheets",
    "Excel",
    "Jira",
    "Slack",
    "Zoom",
]
ABBREVIATIONS = ["HR", "IT", "NI", "QA", "PR", "VAT", "CEO", "CFO", "ETA", "FYI", "SLA", "ASAP"]
CURRENCIES = ["EUR", "GBP", "USD", "CHF", "PLN", "SEK"]
CITIES_EN = [
    "London",
    "Manchester",
    "Glasgow",
    "Cardiff",
    "Dublin",
    "Lisbon",
    "Madrid",
    "Barcelona",
    "Milan",
    "Naples",
    "Lyon",
    "Marseille",
    "Berlin",
    "Hamburg",
    "Munich",
    "Vienna",
    "Zurich",
    "Amsterdam",
    "Rotterdam",
    "Brussels",
    "Warsaw",
    "Krakow",
    "Prague",
    "Budapest",
    "Istanbul",
    "Izmir",
    "Lagos",
    "Abuja",
    "Nairobi",
    "Accra",
    "Cairo",
    "Casablanca",
    "Dubai",
    "Karachi",
    "Mumbai",
    "Chennai",
    "Dhaka",
    "Hanoi",
    "Ho Chi Minh City",
    "Manila",
    "Shanghai",
    "Seoul",
    "Osaka",
    "Toronto",
    "Chicago",
    "Houston",
    "Sao Paulo",
    "Bogota",
    "Lima",
    "Melbourne",
    "Auckland",
]
COUNTRIES_EN = [
    "Portugal",
    "Spain",
    "France",
    "Italy",
    "Germany",
    "Poland",
    "Romania",
    "Greece",
    "Turkey",
    "Egypt",
    "Morocco",
    "Nigeria",
    "Ghana",
    "Kenya",
    "Ethiopia",
    "India",
    "Pakistan",
    "Bangladesh",
    "Vietnam",
    "Philippines",
    "China",
    "Japan",
    "Brazil",
    "Colombia",
    "Mexico",
    "Canada",
    "Australia",
    "Ireland",
    "Scotland",
    "Ukraine",
]


def ascii_fold(text: str) -> str:
    """Latin text without diacritics, for e-mail local parts and handles."""
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in folded if c.isascii() and (c.isalnum() or c in "-'")).replace("'", "")


@dataclass
class Persona:
    """One person in a document: name parts and the contact data derived from them."""

    first: str
    last: str
    culture: str
    country: str
    locale: Locale | None
    latin: bool
    birth: tuple[int, int, int]  # year, month, day
    home: Locale | None = None  # where they live; drawn when an address is first asked for

    @property
    def full(self) -> str:
        if self.culture in {"chinese", "vietnamese"} and self.latin:
            return f"{self.last} {self.first}"  # family name first
        if not self.latin and self.locale in {Locale.JA, Locale.KO}:
            return f"{self.last}{self.first}"
        return f"{self.first} {self.last}"


class Values:
    """Every value the templates ask for, drawn from one seeded RNG and mimesis providers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.generics: dict[Locale, Generic] = {}
        self.en = self.generic(Locale.EN)

    def generic(self, locale: Locale) -> Generic:
        if locale not in self.generics:
            self.generics[locale] = Generic(locale, seed=self.rng.randrange(2**32))
        return self.generics[locale]

    # -- people --------------------------------------------------------------------------

    def persona(self) -> Persona:
        rng = self.rng
        roll = rng.random()
        gender = rng.choice([Gender.FEMALE, Gender.MALE])
        birth = (rng.randint(1938, 2008), rng.randint(1, 12), rng.randint(1, 28))
        if roll < 0.50:
            locale = rng.choice(list(LATIN_LOCALES))
            person = self.generic(locale).person
            first, last = person.first_name(gender), person.last_name(gender)
            country = LATIN_LOCALES[locale][0]
            return Persona(first, last, locale.value, country, locale, True, birth)
        if roll < 0.82:
            culture = rng.choice(list(ROMANISED_NAMES))
            firsts, lasts = ROMANISED_NAMES[culture]
            country = {
                "arabic": rng.choice(["Egypt", "Jordan", "Lebanon", "Morocco"]),
                "chinese": "China",
                "indian": "India",
                "nigerian": "Nigeria",
                "vietnamese": "Vietnam",
                "east african": "Kenya",
            }[culture]
            return Persona(
                rng.choice(firsts), rng.choice(lasts), culture, country, None, True, birth
            )
        if roll < 0.92:
            locale = rng.choice([Locale.EN_GB, Locale.EN])
            last = self.generic(locale).person.last_name()
            country = LATIN_LOCALES[locale][0]
            return Persona(rng.choice(WORD_NAMES), last, "word-name", country, locale, True, birth)
        locale = rng.choice(NATIVE_SCRIPT_LOCALES)
        person = self.generic(locale).person
        first, last = person.first_name(gender), person.last_name(gender)
        return Persona(first, last, locale.value, "", locale, False, birth)

    def nickname(self) -> str:
        return self.rng.choice(NICKNAMES)

    def email(self, p: Persona) -> str:
        rng = self.rng
        if p.latin:
            first, last = ascii_fold(p.first).lower(), ascii_fold(p.last).lower()
            local = rng.choice(
                [
                    f"{first}.{last}",
                    f"{first[0]}{last}",
                    f"{first}_{last}{rng.randint(1, 99)}",
                    f"{last}.{first}",
                    f"{first}{rng.randint(1970, 2005)}",
                ]
            )
        else:
            local = self.en.person.username(mask="l_d")
        return f"{local}@{rng.choice(EMAIL_DOMAINS)}"

    def work_email(self, p: Persona, company_domain: str) -> str:
        first = ascii_fold(p.first).lower() if p.latin else self.en.person.username(mask="l")
        last = ascii_fold(p.last).lower() if p.latin else "x"
        return f"{first}.{last}@{company_domain}"

    def handle(self, p: Persona | None = None) -> str:
        rng = self.rng
        if p is not None and p.latin and rng.random() < 0.6:
            first, last = ascii_fold(p.first).lower(), ascii_fold(p.last).lower()
            return rng.choice(
                [
                    f"{first}-{last}",
                    f"{first[0]}-{last}-{rng.randint(1, 99)}",
                    f"{first}.{last[:3]}",
                    f"the-real-{first}",
                    f"{first}_{last}",
                ]
            )
        return self.en.person.username(mask=rng.choice(["l-l", "l_d", "l.l", "U-d", "l-l-d"]))

    # -- contact -------------------------------------------------------------------------

    def phone_national(self, country: str) -> str:
        layout = self.rng.choice(NATIONAL_PHONE_LAYOUTS.get(country, ["### ### ###"]))
        return "".join(str(self.rng.randint(0, 9)) if c == "#" else c for c in layout)

    def phone_international(self, country: str) -> str:
        code = COUNTRY_CODES.get(country, "44")
        national = self.phone_national(country).lstrip("0(").replace(")", "")
        if national.startswith("0"):
            national = national[1:]
        style = self.rng.random()
        if style < 0.5:
            return f"+{code} {national}"
        if style < 0.75:
            return f"00{code} {national}"
        return f"+{code}{national.replace(' ', '').replace('-', '')}"

    # -- places --------------------------------------------------------------------------

    def address_locale(self) -> Locale:
        return self.rng.choice(list(STREET_TEMPLATES))

    def street_line(self, locale: Locale) -> str:
        rng = self.rng
        template = rng.choice(STREET_TEMPLATES[locale])
        stem = self.generic(locale).address.street_name()
        return template.format(
            s=stem,
            n=rng.randint(1, 240),
            m=rng.randint(1, 12),
            b=rng.randint(1, 9),
            l=rng.choice("ABCD"),
        )

    def city(self, locale: Locale) -> str:
        return self.generic(locale).address.city()

    def postal_code(self, locale: Locale) -> str:
        return self.generic(locale).address.postal_code()

    def region(self, locale: Locale) -> str:
        return self.generic(locale).address.state()

    def po_box(self) -> str:
        return self.rng.choice(PO_BOXES).format(n=self.rng.randint(2, 9999))

    def house_name(self) -> str:
        return self.rng.choice(HOUSE_NAMES)

    def military_address(self) -> tuple[str, str, str]:
        """(unit/box line, 'APO AE'-style line, ZIP) of a US military or diplomatic address."""
        rng = self.rng
        line = rng.choice(
            ["PSC {a} Box {b}", "Unit {a} Box {b}", "CMR {a} Box {b}", "USS {ship}"]
        ).format(
            a=rng.randint(100, 9999),
            b=rng.randint(1, 9999),
            ship=rng.choice(["Nimitz", "Truman", "Bataan", "Carl Vinson", "Wasp"]),
        )
        kind = rng.choice(["APO", "FPO", "DPO"])
        region = rng.choice(["AE", "AP", "AA"])
        prefix = {"AE": "09", "AP": "96", "AA": "340"}[region]
        zip_code = prefix + "".join(str(rng.randint(0, 9)) for _ in range(5 - len(prefix)))
        if rng.random() < 0.3:
            zip_code += f"-{rng.randint(1000, 9999)}"
        return line, f"{kind} {region}", zip_code

    def gps(self) -> str:
        rng = self.rng
        lat, lon = rng.uniform(-60, 70), rng.uniform(-170, 170)
        style = rng.random()
        if style < 0.4:
            return f"{lat:.5f}, {lon:.5f}"
        if style < 0.6:
            return f"lat {lat:.4f} lon {lon:.4f}"
        if style < 0.8:
            coords = self.en.address.coordinates(dms=True)
            return f"{coords['latitude']} {coords['longitude']}"
        ns, ew = ("N" if lat >= 0 else "S"), ("E" if lon >= 0 else "W")
        return f"{abs(lat):.4f}° {ns}, {abs(lon):.4f}° {ew}"

    # -- identifiers ---------------------------------------------------------------------

    def _digits(self, k: int) -> str:
        return "".join(str(self.rng.randint(0, 9)) for _ in range(k))

    def _letters(self, k: int, alphabet: str = string.ascii_uppercase) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(k))

    def uk_driving_licence(self, p: Persona) -> str:
        """DVLA layout: surname(5) decade month(+5 for women) day year initials 9 check 2."""
        surname = (ascii_fold(p.last).upper().replace("-", "") + "99999")[:5]
        year, month, day = p.birth
        month_code = month + (50 if self.rng.random() < 0.5 else 0)
        first = ascii_fold(p.first).upper() or "X"
        return (
            f"{surname}{str(year)[2]}{month_code:02d}{day:02d}{str(year)[3]}"
            f"{first[0]}9{self.rng.randint(0, 9)}{self._letters(2)}"
        )

    def uk_plate(self) -> str:
        letters = "ABCDEFGHJKLMNOPRSTUVWXY"
        age = self.rng.choice(["19", "69", "20", "70", "21", "71", "22", "72", "23", "73"])
        return f"{self._letters(2, letters)}{age} {self._letters(3, letters)}"

    def eu_plate(self) -> str:
        rng = self.rng
        style = rng.choice(["de", "fr", "it", "nl", "pl", "es"])
        if style == "de":
            return f"{self._letters(rng.randint(1, 3))}-{self._letters(2)} {rng.randint(1, 9999)}"
        if style in {"fr", "it"}:
            return f"{self._letters(2)}-{self._digits(3)}-{self._letters(2)}"
        if style == "nl":
            return f"{self._digits(2)}-{self._letters(3)}-{self._digits(1)}"
        if style == "pl":
            return f"{self._letters(2)} {self._digits(5)}"
        return f"{self._digits(4)} {self._letters(3, 'BCDFGHJKLMNPRSTVWXYZ')}"

    def medicare_mbi(self) -> str:
        """CMS MBI: C A AN N A AN N A A N N, letters without S L O I B Z; dashed or not."""
        alpha = "ACDEFGHJKMNPQRTUVWXY"
        alnum = alpha + string.digits
        rng = self.rng
        chars = [
            str(rng.randint(1, 9)),
            rng.choice(alpha),
            rng.choice(alnum),
            str(rng.randint(0, 9)),
            rng.choice(alpha),
            rng.choice(alnum),
            str(rng.randint(0, 9)),
            rng.choice(alpha),
            rng.choice(alpha),
            str(rng.randint(0, 9)),
            str(rng.randint(0, 9)),
        ]
        mbi = "".join(chars)
        return f"{mbi[:4]}-{mbi[4:7]}-{mbi[7:]}" if rng.random() < 0.5 else mbi

    def eu_vat(self) -> str:
        rng = self.rng
        country = rng.choice(["DE", "FR", "IT", "ES", "NL", "PL", "BE", "AT", "IE", "SE", "PT"])
        body = {
            "DE": lambda: self._digits(9),
            "FR": lambda: self._letters(1) + self._digits(1) + self._digits(9),
            "IT": lambda: self._digits(11),
            "ES": lambda: self._letters(1) + self._digits(7) + self._letters(1),
            "NL": lambda: self._digits(9) + "B" + self._digits(2),
            "PL": lambda: self._digits(10),
            "BE": lambda: "0" + self._digits(9),
            "AT": lambda: "U" + self._digits(8),
            "IE": lambda: self._digits(7) + self._letters(1) + ("W" if rng.random() < 0.3 else ""),
            "SE": lambda: self._digits(10) + "01",
            "PT": lambda: self._digits(9),
        }[country]()
        return f"{country} {body}" if rng.random() < 0.25 else f"{country}{body}"

    def uk_ni_number(self) -> str:
        prefix = self._letters(2, "ABCEGHJKLMNPRSTWXYZ")
        digits = self._digits(6)
        suffix = self.rng.choice("ABCD")
        if self.rng.random() < 0.5:
            return f"{prefix} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
        return f"{prefix}{digits}{suffix}"

    def nhs_number(self) -> str:
        while True:
            digits = [self.rng.randint(0, 9) for _ in range(9)]
            check = 11 - sum(d * w for d, w in zip(digits, range(10, 1, -1), strict=True)) % 11
            if check == 11:
                check = 0
            if check != 10:
                number = "".join(map(str, digits)) + str(check)
                return f"{number[:3]} {number[3:6]} {number[6:]}"

    def iban(self) -> str:
        rng = self.rng
        country, length = rng.choice(
            [
                ("DE", 18),
                ("FR", 23),
                ("IT", 23),
                ("ES", 20),
                ("NL", 14),
                ("GB", 18),
                ("PL", 24),
                ("BE", 12),
                ("AT", 16),
                ("PT", 21),
                ("IE", 18),
            ]
        )
        if country in {"NL", "GB", "IE"}:
            bban = self._letters(4) + self._digits(length - 4)
        elif country == "IT":
            bban = self._letters(1) + self._digits(length - 1)
        else:
            bban = self._digits(length)
        rearranged = bban + country + "00"
        numeric = "".join(str(int(c, 36)) for c in rearranged)
        check = 98 - int(numeric) % 97
        iban = f"{country}{check:02d}{bban}"
        if rng.random() < 0.5:
            return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
        return iban

    def bic(self) -> str:
        country = self.rng.choice(["DE", "FR", "IT", "ES", "NL", "GB", "PL", "BE"])
        branch = self.rng.choice(["", "XXX", self._letters(1) + self._digits(2)])
        location = self._letters(1) + self.rng.choice("0123456789ABC")
        return f"{self._letters(4)}{country}{location}{branch}"

    def card_number(self) -> str:
        number = self.en.payment.credit_card_number()
        return number if self.rng.random() < 0.7 else number.replace(" ", "")

    def device_serial(self) -> str:
        """Serial numbers in the styles of laptops, phones, routers and industrial devices."""
        rng = self.rng
        upper_digits = string.ascii_uppercase + string.digits
        style = rng.random()
        if style < 0.3:
            return (
                self._letters(1)
                + "0"
                + self._letters(1)
                + self._digits(1)
                + self._letters(8, upper_digits)
            )
        if style < 0.5:
            return f"R{self._digits(2)}{self._letters(1)}{self._letters(8, upper_digits)}"
        if style < 0.7:
            return f"{self._letters(2)}-{self._digits(4)}-{self._letters(4, '0123456789ABCDEF')}"
        if style < 0.85:
            return self.en.code.imei()
        return f"SN{self._digits(10)}"

    def employee_id(self) -> str:
        return self.rng.choice(["E", "EMP-", "STF", "W-", "HR"]) + self._digits(
            self.rng.randint(4, 6)
        )

    def customer_id(self) -> str:
        return self.rng.choice(["CUST-", "C", "ACC-", "MBR", "cus_"]) + self._letters(
            self.rng.randint(5, 9), string.ascii_uppercase + string.digits
        )

    def reference(self, prefix: str | None = None) -> str:
        rng = self.rng
        prefix = prefix or rng.choice(["CASE", "INC", "ORD", "TKT", "RMA", "CLM", "BK", "INV"])
        sep = rng.choice(["-", "", "/", "#"])
        return (
            f"{prefix}{sep}{rng.randint(2019, 2026)}-{self._digits(rng.randint(4, 6))}"
            if rng.random() < 0.4
            else f"{prefix}{sep}{self._digits(rng.randint(5, 8))}"
        )

    def booking_code(self) -> str:
        return self._letters(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    def passport(self) -> str:
        return self.rng.choice(
            [
                self._letters(2) + self._digits(7),
                self._letters(1) + self._digits(8),
                self._digits(9),
            ]
        )

    def mrn(self) -> str:
        return self.rng.choice(["", "MRN ", "H", "RX"]) + self._digits(self.rng.randint(6, 9))

    def npi(self) -> str:
        """A 10-digit NPI whose last digit is the Luhn check over '80840' + the first nine."""
        body = str(self.rng.randint(1, 2)) + self._digits(8)
        digits = [int(d) for d in "80840" + body]
        total = 0
        for i, d in enumerate(reversed(digits)):
            if i % 2 == 0:
                d *= 2
                d = d - 9 if d > 9 else d
            total += d
        return body + str((10 - total % 10) % 10)

    def us_ssn(self) -> str:
        area = self.rng.choice([n for n in range(1, 900) if n != 666])
        return f"{area:03d}-{self.rng.randint(1, 99):02d}-{self.rng.randint(1, 9999):04d}"

    # -- network and secrets ---------------------------------------------------------------

    def ipv4(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            return rng.choice(
                [
                    f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
                    f"192.168.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
                    f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
                ]
            )
        while True:
            ip = self.en.internet.ip_v4()
            first = int(ip.split(".")[0])
            if first not in {0, 10, 127, 169, 172, 192, 224, 255} and first < 224:
                return ip

    def ipv6(self) -> str:
        return self.en.internet.ip_v6()

    def mac(self) -> str:
        mac = self.en.internet.mac_address()
        return mac.upper().replace(":", "-") if self.rng.random() < 0.3 else mac

    def secret(self) -> str:
        rng = self.rng
        alnum = string.ascii_letters + string.digits
        kind = rng.random()
        if kind < 0.15:
            return "sk_live_" + self._letters(rng.randint(24, 32), alnum)
        if kind < 0.3:
            return "AKIA" + self._letters(16, string.ascii_uppercase + "234567")
        if kind < 0.42:
            return "ghp_" + self._letters(36, alnum)
        if kind < 0.52:
            return f"xoxb-{self._digits(11)}-{self._digits(12)}-{self._letters(24, alnum)}"
        if kind < 0.67:
            return self.jwt()
        if kind < 0.8:
            return self._urlsafe(rng.randint(24, 40))
        return self._letters(32, "0123456789abcdef")

    def _urlsafe(self, nbytes: int) -> str:
        raw = bytes(self.rng.randrange(256) for _ in range(nbytes))
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def jwt(self) -> str:
        """An HS256-shaped JWT with a plausible payload (drawn from the RNG, not the clock)."""

        def part(obj: dict[str, object]) -> str:
            encoded = base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode())
            return encoded.rstrip(b"=").decode()

        issued = self.rng.randint(1_700_000_000, 1_780_000_000)
        payload = {"sub": self._digits(self.rng.randint(4, 8)), "iat": issued, "exp": issued + 3600}
        return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(payload)}.{self._urlsafe(32)}"

    def password(self) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return self.en.person.password(length=rng.randint(10, 16))
        word = rng.choice(["Falcon", "tulip", "Marmalade", "copper", "Nebula", "kestrel"])
        return f"{word}{rng.choice('!#$%&*')}{rng.randint(10, 9999)}{rng.choice(['', 'x', 'Q'])}"

    # -- demographics, dates, ages ---------------------------------------------------------

    def nationality(self) -> str:
        return self.rng.choice(NATIONALITIES)

    def religion(self) -> str:
        return self.rng.choice(RELIGIONS)

    def ethnic_group(self) -> str:
        return self.rng.choice(ETHNIC_GROUPS)

    def day_date(self, year: int | None = None) -> str:
        rng = self.rng
        y = year or rng.randint(2019, 2026)
        m, d = rng.randint(1, 12), rng.randint(1, 28)
        months = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ]
        style = rng.randrange(7)
        return [
            f"{d}/{m:02d}/{y}",
            f"{y}-{m:02d}-{d:02d}",
            f"{d} {months[m - 1]} {y}",
            f"{months[m - 1][:3]} {d}, {y}",
            f"{d}.{m:02d}.{y}",
            f"{m:02d}/{d:02d}/{y}",
            f"{d} {months[m - 1][:3]}",
        ][style]

    def birth_date(self, p: Persona) -> str:
        y, m, d = p.birth
        months = [
            "Jan",
            "Feb",
            "Mar",
            "Apr",
            "May",
            "Jun",
            "Jul",
            "Aug",
            "Sep",
            "Oct",
            "Nov",
            "Dec",
        ]
        return self.rng.choice(
            [
                f"{d:02d}/{m:02d}/{y}",
                f"{y}-{m:02d}-{d:02d}",
                f"{d} {months[m - 1]} {y}",
                f"{m}/{d}/{y}",
                f"{d:02d}.{m:02d}.{y}",
            ]
        )

    def age(self, low: int = 18, high: int = 94) -> int:
        return self.rng.randint(low, high)

    # -- organisations -------------------------------------------------------------------

    def company(self, locale: Locale | None = None) -> str:
        name = self.generic(locale or self.rng.choice(list(LATIN_LOCALES))).finance.company()
        return name

    def company_domain(self, company: str) -> str:
        stem = ascii_fold(company).lower().replace("-", "")[:14] or "firma"
        return f"{stem}.{self.rng.choice(['com', 'co.uk', 'de', 'it', 'eu', 'io', 'es'])}"

    def hospital(self, city: str) -> str:
        return self.rng.choice(
            [
                "{c} General Hospital",
                "St Luke's Hospital {c}",
                "{c} Royal Infirmary",
                "Klinikum {c}",
                "Ospedale di {c}",
                "Hôpital de {c}",
                "{c} Women's Clinic",
            ]
        ).format(c=city)

    def school(self, city: str) -> str:
        return self.rng.choice(
            [
                "{c} Academy",
                "{c} Grammar School",
                "University of {c}",
                "{c} College of Further Education",
                "Liceo Scientifico di {c}",
                "Gymnasium {c}",
            ]
        ).format(c=city)

    def bank(self, locale: Locale | None = None) -> str:
        return self.generic(locale or Locale.EN).finance.bank()

    # -- negatives ------------------------------------------------------------------------

    def amount(self) -> str:
        rng = self.rng
        value = rng.choice([rng.uniform(5, 999), rng.uniform(1000, 99999)])
        cur = rng.choice(CURRENCIES)
        return rng.choice(
            [
                f"{cur} {value:,.2f}",
                f"{value:,.2f} {cur}",
                f"€{value:,.2f}",
                f"£{value:,.2f}",
                f"${value:,.0f}",
            ]
        )

    def version(self) -> str:
        return self.rng.choice(["v", "", "version "]) + self.en.development.version()

    def product(self) -> str:
        return self.rng.choice(PRODUCTS)

    def law(self) -> str:
        return self.rng.choice(LAW_TITLES)

    def title(self) -> str:
        return self.rng.choice(SONGS_AND_FILMS)

    def abbreviation(self) -> str:
        return self.rng.choice(ABBREVIATIONS)

    def field_label(self) -> str:
        return self.rng.choice(FIELD_LABELS)

    def isbn(self) -> str:
        return self.en.code.isbn()

    def ean(self) -> str:
        return self.en.code.ean()
