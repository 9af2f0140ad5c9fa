"""Employers and schools on the dated lines of a CV ("Allied Irish Banks — Customer Advisor
(2016–2019)", "Spotify, Stockholm — Data Engineer, 2018–2021", "MSc Data Science, Chalmers
tekniska högskola, 2018").

The model misses employers whose names are ordinary brands or foreign words, but a CV line
says what each of its fields is: a line that starts or ends with a year or a span of years is
split at dashes, bars, arrows, "at" and commas; a field holding a job title or a degree is the
role, and a capitalised field beside it that is no role, town, country or work pattern is the
organisation. A line without a role field gives nothing.
"""

from __future__ import annotations

import re

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.gazetteer import city_names
from anonymizer.detection.names import is_known_name
from anonymizer.types import Detection

ORGANIZATION = "organization"
LOCATION = "location"
SCORE = 0.8
MAX_WORDS = 6
MAX_LINE_CHARS = 120  # the fields of one CV line; a longer one is prose
MAX_RAW_LINE_CHARS = 200  # the same with its dates and bullet
MAX_YEARS_CHARS = 60  # "(September 2015 – September 2017)." at a line's end
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")

_MONTH = r"(?:[A-Z][a-z]{2,8}\.?[ ]|(?:0?[1-9]|1[0-2])/)"
_YEAR = rf"(?:{_MONTH})?(?:19|20)\d{{2}}"
_SPAN = (
    rf"\(?{_YEAR}(?:[ ]?[–—-][ ]?(?:{_YEAR}|(?i:present|now|current|today|date|heute"
    r"|actualidad|presente)))?\)?"
)
_YEARS_AT_END = re.compile(rf"[ ,;]*{_SPAN}[ .]*$")
_YEARS_AT_START = re.compile(rf"{_SPAN}[ \t:,|–—-]*")
_BULLET = re.compile(r"^[ \t]*(?:[•*·▪►–-][ \t]+)?")
_SEPARATOR = re.compile(r"[ \t]+[—–|→-][ \t]+|,[ \t]+|[ \t]+(?:at|@)[ \t]+")
_WORD = re.compile(r"[^\W\d_][\w'’&.-]*")

JOB_WORDS = frozenset(
    """
    engineer developer programmer analyst scientist researcher designer architect manager
    director head lead officer assistant associate advisor adviser consultant specialist
    coordinator administrator technician nurse teacher lecturer professor tutor intern
    trainee apprentice clerk paralegal solicitor lawyer attorney accountant auditor
    cashier receptionist driver chef cook waiter waitress bartender barista secretary
    editor writer journalist translator interpreter pharmacist physician doctor surgeon
    therapist midwife carer caregiver worker operator supervisor founder co-founder owner
    partner president vice-president ceo cto cfo coo vp executive representative agent
    salesperson buyer planner strategist marketer recruiter volunteer fellow postdoc
    student instructor coach mechanic electrician plumber welder labourer laborer
    """.split()
)
DEGREE_WORDS = frozenset(
    """
    bsc msc ba ma mba phd dphil md llb llm beng meng bed med bcom mres mphil bachelor
    bachelor's master master's doctorate diploma certificate degree a-levels gcse hnd
    licenciatura grado máster laurea magistrale triennale licence mestrado
    """.split()
)
NOT_AN_EMPLOYER = frozenset(
    """
    remote hybrid full-time part-time contract freelance self-employed internship
    temporary permanent honours honors distinction merit gpa summa magna cum laude
    present current various
    """.split()
)


# Words of a sentence, not of a name: a line of prose that ends in a year is no CV line.
PROSE_WORDS = frozenset(
    "on in at by with from to was were is are be been gave told said me my we i he she they it"
    " you your his her their our this that which who".split()
)


def _fields(line: str, start: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) of each separator-delimited field of `line[start:end]`, trimmed."""
    bounds, position = [], start
    for m in _SEPARATOR.finditer(line, start, end):
        bounds.append((position, m.start()))
        position = m.end()
    bounds.append((position, end))
    out = []
    for a, b in bounds:
        while a < b and line[a] in " \t()":
            a += 1
        while b > a and line[b - 1] in " \t().;:|–—-":
            b -= 1
        bracket = line.find(" (", a, b)  # "Wrocław (5G Test Automation team)"
        if bracket > a:
            b = bracket
        if b > a:
            out.append((a, b))
    return out


def _is_role(field: str) -> bool:
    words = {w.casefold().strip(".") for w in _WORD.findall(field)}
    return bool(words & JOB_WORDS or words & DEGREE_WORDS)


def _is_employer(field: str) -> bool:
    words = _WORD.findall(field)
    if not words or not field[0].isupper() or len(words) > MAX_WORDS:
        return False
    folded = {w.casefold() for w in words}
    if folded & NOT_AN_EMPLOYER or folded & PROSE_WORDS or any(c.isdigit() for c in field):
        return False
    return field not in city_names() and not is_known_name(field) and not _is_role(field)


def cv_employers(text: str) -> list[Detection]:
    """The organisation fields of every dated CV line that also names a role or degree."""
    found: list[Detection] = []
    seen: set[int] = set()
    for year in _YEAR_IN_TEXT.finditer(text):  # only lines with a year are read at all
        line_start = text.rfind("\n", 0, year.start()) + 1
        if line_start in seen:
            continue
        seen.add(line_start)
        line_end = text.find("\n", year.end())
        line_end = len(text) if line_end < 0 else line_end
        if line_end - line_start <= MAX_RAW_LINE_CHARS:
            found.extend(_line_employers(text[line_start:line_end].rstrip("\r"), line_start))
    return found


def _line_employers(body: str, offset: int) -> list[Detection]:
    start = _BULLET.match(body).end()
    end = len(body)
    tail = _YEARS_AT_END.search(body, max(start, len(body) - MAX_YEARS_CHARS))
    head = _YEARS_AT_START.match(body, start)
    if tail is None and head is None:
        return []
    if tail is not None:
        end = tail.start()
    if head is not None:
        start = head.end()
    fields = _fields(body, start, end)
    if end - start > MAX_LINE_CHARS or len(fields) < 2:
        return []
    if not any(_is_role(body[a:b]) for a, b in fields):
        return []
    return _employer_and_town(fields, body, offset)


def _employer_and_town(fields: list[tuple[int, int]], line: str, offset: int) -> list[Detection]:
    """An organisation for each employer field; one right after another is its town
    ("Volvo Cars, Torslanda")."""
    out: list[Detection] = []
    previous_was_employer = False
    for a, b in fields:
        if not _is_employer(line[a:b]):
            previous_was_employer = False
            continue
        category = LOCATION if previous_was_employer else ORGANIZATION
        out.append(
            Detection(
                offset + a,
                offset + b,
                category,
                placeholder_for(category),
                "cv",
                SCORE,
                "cv_employer" if category == ORGANIZATION else "cv_town",
            )  # fmt: skip
        )
        previous_was_employer = category == ORGANIZATION
    return out
