"""Values in the columns of a table whose header says what they hold: a CSV or TSV export, a
pipe table, or an SQL dump (`CREATE TABLE clientes (nombres ..., comuna ...)` then `INSERT
INTO clientes VALUES (...)`).

The model reads a cell without its sentence, and "Huenchullán Painemal", "Ñuñoa" or "641012"
alone carry little evidence; the header says what every cell below it is, in any language,
as a human redactor reads it. A cell is taken only when its shape fits its column's category
(a name without digits, a postcode with one), so a note or an empty cell stays as it is.
No maintained library reads PII off table headers, hence this module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.cjk_names import cjk_full_name
from anonymizer.detection.gazetteer import country_and_province_names
from anonymizer.detection.names import is_known_name, zipf
from anonymizer.detection.regex import CJK
from anonymizer.types import Detection

SCORE = 0.9
SOURCE = "table"
RULE_ID = "table_column"
MAX_LINE_CHARS = 2000  # a longer line is no table row (bounds the work per line)
MAX_HEADER_CELL_CHARS = 40
MIN_COLUMNS = 3
COMMON_WORD_ZIPF = 5.0  # a one-word cell this common ("none", "freelance" is 3.4) is no name
COMMON_KEYED_WORD_ZIPF = 4.0  # a keyed value's word this common is no name ("Default Wallet")

PERSON = "full person name"
# A header, lower-cased with its separators as "_", and the category of its column.
_HEADERS: dict[str, str] = {
    **dict.fromkeys(
        "name full_name fullname first_name firstname last_name lastname surname given_name "
        "given_names family_name middle_name forename customer_name client_name contact_name "
        "patient_name guest_name employee_name member_name student_name owner_name patient "
        "employee mitarbeiter mitarbeiterin staff_member customer client guest passenger "
        "lead_owner account_owner holder account_holder nombre nombres apellido apellidos "
        "nombre_completo vorname nachname nom prenom prénom cognome nome sobrenome naam "
        "voornaam achternaam imie imię nazwisko fornavn etternavn efternamn förnamn "
        "ad soyad".split(),
        PERSON,
    ),
    **dict.fromkeys(
        "city town suburb district municipality comuna ciudad localidad municipio stadt ort "
        "wohnort ville commune città citta comune cidade poststed kommune stad plaats "
        "miasto miejscowość region state province county country".split(),
        "location",
    ),
    **dict.fromkeys(
        "address street street_address address1 address_1 address_line1 address_line_1 line1 "
        "addr home_address direccion dirección domicilio calle adresse anschrift strasse "
        "straße indirizzo via endereço endereco morada adres adresa ulica".split(),
        "street address",
    ),
    **dict.fromkeys(
        "zip zipcode zip_code postcode post_code postal postal_code pincode pin_code plz cp "
        "cep postnr postnummer postleitzahl codigo_postal código_postal code_postal "
        "kod_pocztowy".split(),
        "postal code",
    ),
    **dict.fromkeys(
        "phone phone_number mobile mobile_number mobile_no cell cellphone telephone tel "
        "contact_number whatsapp fono telefono teléfono celular movil móvil handy "
        "telefon telefoon telefone portable cellulare".split(),
        "phone number",
    ),
    **dict.fromkeys("email e_mail email_address mail correo courriel".split(), "email address"),
    **dict.fromkeys(
        "dob birth birthdate birth_date date_of_birth birthday fecha_nac fecha_nacimiento "
        "geburtsdatum date_naissance data_nascita data_nascimento geboortedatum".split(),
        "date of birth",
    ),
    **dict.fromkeys(
        "rut run dni nie nif pan aadhaar cpf pesel bsn nino ni_number national_id nric "
        "tax_id tin steuer_id codice_fiscale curp ahv ahv_nr avs svnr "
        "sozialversicherungsnummer".split(),
        "national id",
    ),
    **dict.fromkeys(["ssn", "social_security_number"], "ssn"),
    **dict.fromkeys(
        ["mrn", "medical_record_number", "hospital_number", "nhs_number"], "medical record number"
    ),
    **dict.fromkeys(
        "company employer organisation organization org company_name employer_name empresa "
        "firma entreprise società azienda school university".split(),
        "organization",
    ),
    **dict.fromkeys(
        "username user_name login user_login usuario benutzername handle".split(), "handle"
    ),
    **dict.fromkeys(
        "bib bib_no bib_number employee_id emp_id staff_id staff_no member_id member_no "
        "customer_id customer_no student_id badge badge_no persnr pers_nr personalnummer "
        "personalnr personnel_no scr scr_# screening_id screening_no subject_id participant_id "
        "matricola".split(),
        "internal id",
    ),
    **dict.fromkeys("age edad alter età eta idade leeftijd wiek".split(), "age"),
    **dict.fromkeys(
        "nationality nacionalidad nationalität nationalite nationalité ethnicity ethnic_group "
        "religion nationalitaet nationalität staatsangehörigkeit staatsangehoerigkeit "
        "staatsbürgerschaft konfession bekenntnis religionsbekenntnis nazionalità nacionalidade "
        "nationaliteit narodowość obywatelstwo uyruk".split(),
        "nationality or group",
    ),
}
_HEADER_WORD = re.compile(
    r"(?i)\b(?:" + "|".join(sorted({k.split("_")[-1] for k in _HEADERS}, key=len)[::-1]) + r")"
)
_MARKDOWN_RULE = re.compile(r"[\s|:+-]*")
_SEPARATORS = re.compile(r"[\s_./-]+")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_EMPTY = frozenset({"", "null", "none", "n/a", "na", "-", "--", "—", "nil", "tbc", "?"})
_SQL_CREATE = re.compile(
    r"(?i)\bCREATE[ \t]+TABLE[ \t]+(?:IF[ \t]+NOT[ \t]+EXISTS[ \t]+)?[`\"\[]?([\w.]+)[`\"\]]?"
    r"[ \t]*\("
)
_SQL_INSERT = re.compile(
    r"(?i)\bINSERT[ \t]+INTO[ \t]+[`\"\[]?([\w.]+)[`\"\]]?[ \t]*(\([^)]*\))?[ \t\n]*VALUES\b"
)
_SQL_CONSTRAINT = frozenset({"primary", "key", "constraint", "unique", "index", "foreign"})


def column_category(header: str) -> str | None:
    """The category a column header announces, if any ("Last Name", "`comuna`", "Pincode",
    "emp #")."""
    number = _NUMBER_OF.fullmatch(header.strip().strip("`\"'[]*").strip())
    if number is not None and number.group(1).lower() in _NUMBERED:
        return "internal id"  # "emp #", "Staff No.", "member number"
    key = _SEPARATORS.sub("_", header.strip().strip("`\"'[]#*").strip().lower()).strip("_")
    if key in _HEADERS:
        return _HEADERS[key]
    party, _, rest = key.partition("_")
    if party in _PARTY_PREFIXES and rest in _PARTY_FIELDS:
        return _HEADERS[rest]  # "Shipping Name", "Billing Zip", "Buyer Phone"; not "Ship Via"
    return None


# Whose field a header's first word says it is in an order or CRM export.
_PARTY_PREFIXES = frozenset("shipping billing delivery buyer recipient sender ship bill".split())
_PARTY_FIELDS = frozenset(
    "name first_name last_name zip zipcode zip_code postcode postal_code address address1 "
    "address_1 address2 street city province state country phone email company".split()
)


# Whose number a header of the form "<word> #" / "<word> no." names: an identifier of ours.
_NUMBER_OF = re.compile(r"(?i)([^\W\d_]+)[ ._-]*(?:#|no\.?|nr\.?|num(?:ber)?)")
_NUMBERED = frozenset(
    "emp employee staff member customer client student badge personnel bib participant "
    "subject patient".split()
)


# A prepared statement's parameter ("VALUES ($1, $2)", "(?, ?)", "%s", ":name"), not a value.
_QUERY_PARAMETER = re.compile(r"\$\d{1,3}|\?|%s|:[A-Za-z_]\w*")


def _cell_fits(value: str, category: str) -> bool:
    """Whether a cell's value has the shape of its column's category."""
    if value.lower() in _EMPTY or len(value) > 120 or _QUERY_PARAMETER.fullmatch(value):
        return False
    digits = len(_DIGIT.findall(value))
    if category in (PERSON, "location", "organization", "nationality or group"):
        if digits or "@" in value or not _LETTER.search(value) or len(value.split()) > 6:
            return False
        words = value.split()
        return not (len(words) == 1 and zipf(value.lower()) >= COMMON_WORD_ZIPF)
    if category == "street address":
        return bool(_LETTER.search(value))
    if category == "phone number":
        return digits >= 7
    if category == "email address":
        return "@" in value
    if category == "age":
        return value.isdecimal() and 0 < int(value) <= 120
    if category == "handle":
        return " " not in value and len(value) >= 2
    return digits > 0


_TITLE = re.compile(r"(?i)(?:mr|mrs|ms|miss|mx|dr|prof|sr|sra|herr|frau|mme)\.?[ ]+|M\.[ ]+")


def _detection(text: str, start: int, end: int, category: str) -> Detection:
    if category == PERSON:
        title = _TITLE.match(text, start, end)
        start = title.end() if title and title.end() < end else start
    return Detection(start, end, category, placeholder_for(category), SOURCE, SCORE, RULE_ID)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The cell's bounds without the white space and quotes around its value."""
    while start < end and text[start] in " \t\"'`":
        start += 1
    while end > start and text[end - 1] in " \t\"'`\r":
        end -= 1
    return start, end


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a delimited line; double quotes protect delimiters."""
    cells, start, quoted = [], 0, False
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == delimiter and not quoted:
            cells.append((start, i))
            start = i + 1
    cells.append((start, len(line)))
    return cells


def _row_cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The cells of one table row; a pipe row's empty outer cells ("| a | b |") dropped."""
    cells = _cells(line, delimiter)
    if delimiter == "|" and not line[: cells[0][1]].strip():
        cells = cells[1:-1] if not line[cells[-1][0] :].strip() else cells[1:]
    return cells


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def _header_columns(line: str, delimiter: str) -> list[str | None] | None:
    """The category of each column when `line` reads as a header with one known column."""
    cells = _row_cells(line, delimiter)
    if len(cells) < MIN_COLUMNS:
        return None
    names = [line[a:b].strip() for a, b in cells]
    if any(not n or len(n) > MAX_HEADER_CELL_CHARS or _DIGIT.search(n[:1]) for n in names):
        return None
    columns = [column_category(n) for n in names]
    return columns if any(columns) else None


def delimited_table_detections(text: str) -> list[Detection]:
    """Cells under a known header in CSV, TSV, semicolon or pipe tables."""
    found: list[Detection] = []
    columns: list[str | None] | None = None
    delimiter = ""
    for offset, line in _lines(text):
        if columns is not None:
            cells = _row_cells(line, delimiter) if len(line) <= MAX_LINE_CHARS else []
            if _MARKDOWN_RULE.fullmatch(line) and "-" in line:
                continue  # a markdown rule under the header
            if len(cells) != len(columns):
                columns = None
            else:
                for (a, b), category in zip(cells, columns, strict=True):
                    a, b = _trimmed(line, a, b)
                    if category and a < b and _cell_fits(line[a:b], category):
                        found.append(_detection(text, offset + a, offset + b, category))
                continue
        if len(line) > MAX_LINE_CHARS or not _HEADER_WORD.search(line):
            continue
        for candidate in ("\t", "|", ",", ";"):
            if line.count(candidate) >= MIN_COLUMNS - 1:
                columns = _header_columns(line, candidate)
                if columns is not None:
                    delimiter = candidate
                    break
    return found


def _sql_values(text: str, start: int) -> Iterator[list[tuple[int, int]]]:
    """The value bounds of each `( ... )` tuple from `start`, up to the statement's `;`."""
    i, n = start, len(text)
    while i < n:
        char = text[i]
        if char == ";":
            return
        if char != "(":
            i += 1
            continue
        values, cell_start, depth, i = [], i + 1, 1, i + 1
        while i < n and depth:
            char = text[i]
            if char == "'":
                i += 1
                while i < n and not (text[i] == "'" and text[i - 1] != "\\"):
                    i += 1
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if not depth:
                    values.append((cell_start, i))
            elif char == "," and depth == 1:
                values.append((cell_start, i))
                cell_start = i + 1
            i += 1
        yield values


def _sql_column_names(text: str, start: int) -> list[str]:
    """The column names of a `CREATE TABLE ... (` body that starts at `start`."""
    end = text.find(");", start)
    body = text[start : end if end >= 0 else min(len(text), start + 5000)]
    names = []
    for item in re.split(r",(?![^()]*\))", body):
        words = item.strip().split()
        if words and words[0].strip('`"[]').lower() not in _SQL_CONSTRAINT:
            names.append(words[0].strip('`"[]'))
    return names


def sql_dump_detections(text: str) -> list[Detection]:
    """Values of INSERT statements whose columns (listed, or from the table's CREATE TABLE)
    have known headers."""
    if _SQL_INSERT.search(text) is None:
        return []
    tables = {
        m.group(1).lower(): _sql_column_names(text, m.end()) for m in _SQL_CREATE.finditer(text)
    }
    found: list[Detection] = []
    for m in _SQL_INSERT.finditer(text):
        listed = m.group(2)
        names = (
            [n.strip().strip('`"[]') for n in listed[1:-1].split(",")]
            if listed
            else tables.get(m.group(1).lower(), [])
        )
        columns = [column_category(n) for n in names]
        if not any(columns):
            continue
        for values in _sql_values(text, m.end()):
            if len(values) != len(columns):
                continue
            for (a, b), category in zip(values, columns, strict=True):
                a, b = _trimmed(text, a, b)
                if category and a < b and _cell_fits(text[a:b], category):
                    found.append(_detection(text, a, b, category))
    return found


# A double-quoted value after a key in JSON, YAML or a key=value log line ("state": "VIC",
# address1="東京都渋谷区神宮前4-12-8", name="佐藤 健太"): the key is a header of one record.
_KEYED_VALUE = re.compile(
    r"""(?<![\w.-])["']?([A-Za-z][\w-]{1,30})["']?[ \t]*[:=][ \t]*"([^"\n\\]{1,120})"(?![\w])"""
)
# Short keys that mean other things in configs and logs (run: "pytest", via="1.1 varnish").
_KEYS_TOO_AMBIGUOUS = frozenset("run pan tin cp via addr ad dm cn".split())
# The categories a keyed value is taken for (an id needs its own rule's checksum or shape).
_KEYED_CATEGORIES = frozenset(
    {PERSON, "location", "street address", "postal code", "date of birth"}
)
# Location keys whose values are often states of a record, not places ("state": "Queued").
_RECORD_STATE_KEYS = frozenset({"state", "region", "country", "county"})
_STATE_CODE = re.compile(r"[A-Z]{2,3}")
_NOT_AN_ADDRESS = re.compile(r"\d\.\d|:|0x|@|://")
_NAME_WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*")
_CJK = re.compile(f"[{CJK}]")


def _written_as_a_person(value: str) -> bool:
    """Two to four capitalised name-like words, the first a known given name and none common
    ("Ana Costa"), or a name in CJK script ("佐藤 健太", "林冠宇")."""
    words = value.split()
    if not 1 <= len(words) <= 4 or not all(_NAME_WORD.fullmatch(w) for w in words):
        return False
    if _CJK.search(value):
        # a known surname and a given name apart ("佐藤 健太": 健太 is also a word)
        return cjk_full_name(value) or (len(words) == 2 and is_known_name(words[0]))
    return (
        len(words) >= 2
        and is_known_name(words[0].lower())
        and all(w[:1].isupper() and zipf(w.lower()) < COMMON_KEYED_WORD_ZIPF for w in words)
    )


def _keyed_value_fits(key: str, value: str, category: str) -> bool:
    """Whether a keyed value has its category's shape, more strictly than a table cell: a
    payload's keys name things as often as people and places."""
    if key in _KEYS_TOO_AMBIGUOUS or category not in _KEYED_CATEGORIES:
        return False
    if not _cell_fits(value, category):
        return False
    if category == PERSON:
        return _written_as_a_person(value)
    if category == "location":
        if key in _RECORD_STATE_KEYS:
            state_code = key == "state" and _STATE_CODE.fullmatch(value) is not None
            return state_code or value in country_and_province_names()
        return value[:1].isupper() and not any(c in value for c in "._/:@#")
    if category == "street address":
        return (
            bool(_DIGIT.search(value))
            and len(_LETTER.findall(value)) >= 3
            and (not _NOT_AN_ADDRESS.search(value))
        )
    return True


def keyed_value_detections(text: str) -> list[Detection]:
    """Quoted values after a key that names their category, in JSON and key=value logs."""
    found = []
    for m in _KEYED_VALUE.finditer(text):
        key = m.group(1).lower().replace("-", "_")
        category = _HEADERS.get(key)
        if category is None:
            continue
        a, b = _trimmed(text, *m.span(2))
        if a < b and _keyed_value_fits(key, text[a:b], category):
            found.append(_detection(text, a, b, category))
    return found


# Keys whose values are counts, times, amounts or the masked end of a card in payloads and
# logs, never PII ("created": 1733972114, "last4": "4409", port=5432).
NON_PII_KEYS = frozenset(
    "last4 last_4 created updated created_at updated_at timestamp ts time expires expires_at "
    "exp iat nbf amount amount_total total subtotal count quantity qty port pid status version "
    "build size bytes duration latency elapsed exp_month exp_year attempts retries".split()
)
_NUMBER_AFTER_KEY = re.compile(
    r"""(?<![\w.-])["']?([A-Za-z][\w-]{1,30})["']?[ \t]*[:=][ \t]*["']?(\d[\d.]{0,30})(?![\w.-])"""
)


def non_pii_keyed_numbers(text: str) -> set[tuple[int, int]]:
    """The spans of numbers given as the value of a key that holds no PII (`NON_PII_KEYS`)."""
    return {
        m.span(2)
        for m in _NUMBER_AFTER_KEY.finditer(text)
        if m.group(1).lower().replace("-", "_") in NON_PII_KEYS
    }


def table_column_detections(text: str) -> list[Detection]:
    """Cells of delimited tables and SQL dumps whose column header names their category, and
    quoted values of keys that do."""
    return (
        delimited_table_detections(text) + sql_dump_detections(text) + keyed_value_detections(text)
    )
