"""A learned classifier for identifiers that carry no keyword: `004102` in a table, a user
name `dfurlong` in a log line, a plate `CX 77 QL`, an age `34` in a sentence.

The regex rules find identifiers by keyword or checksum; what is left is read from context,
as a human redactor does. `candidate_spans` proposes short spans with identifier shapes
(digits, letters mixed with digits, user-name shapes, number words, payment addresses,
lower-case words that are a chat speaker's name, numbers with an age unit in many languages and
digits spoken one by one), `span_features` describes each by its shape
and its context: the words around it and cue words for each kind of identifier in several
languages, the key before it (`label:`, `user=`, `"owner": "`, `--user`) or the form label on
the line above, the header above its table column (pipes, tabs, aligned spaces, CSV) and
whether the cells above and below have its shape, the line's layout, and whether it names a
speaker of the chat. A multinomial logistic regression over hashed features predicts a
category or none. Training: `python -m anonymizer.detection.training.idspans_train`
(scikit-learn); at run time the shipped weights are applied with numpy alone, so the detector
needs no training library.
"""

from __future__ import annotations

import json
import re
import zlib
from bisect import bisect_left, bisect_right, insort
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import NamedTuple

import numpy as np

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.line_language import LANGUAGES, word_zipf
from anonymizer.detection.names import is_known_name
from anonymizer.detection.regex import NUMBER_WORD
from anonymizer.types import Detection

MODEL_DIR = Path(__file__).resolve().parent / "idspans_model"
SOURCE = "idspans"
NONE = "none"
HASH_BITS = 18
MAX_LEN = 64
MAX_RUN_TOKENS = 6
BATCH = 4096  # candidates featurised at a time (bounded memory on a 2 MB document)
# The categories this classifier never adds (the NER's and the rules' own); it learns them
# only to tell them apart from identifiers.
NOT_EMITTED = frozenset(
    {"full person name", "organization", "location", "street address", "nationality or group"}
)

# A token: anything between spaces and the quotes, brackets and separators around values.
_TOKEN = re.compile(r"[^\s\"'`,;()\[\]{}<>|=*]+")
_LEAD = ":.-–—/\\"
_TRAIL = ".:!?+-–—/\\"
_DIGIT = re.compile(r"\d")
# URLs, paths and file names are the rules' (url) or nobody's: "s3://bucket/x", "a/b/c.txt"
_NOT_AN_ID = re.compile(
    r"://|^~?/|/[^/]*/[a-z]|\w\.(?:txt|csv|xml|json|pdf|docx?|xlsx?|pptx?|py|js|ts|log|zip|gz"
    r"|tar|png|jpe?g|gif|svg|html?|md|ya?ml|sql|sh|exe|dll|conf|cfg|ini|bak|tmp|pem|crt|lock)$"
)
_NUMBER_WORD = re.compile(rf"(?i:{NUMBER_WORD})(?:-(?i:{NUMBER_WORD}))?")
# user names: "d.furlong", "kev_99", "@wendy", and those ending in underscores ("lanternfish_")
_HANDLE_SHAPE = re.compile(r"@?[a-z0-9]+(?:[._-][a-z0-9]+)+|@\w+|@?[a-z][a-z0-9._-]*[a-z0-9]_+")
# An age with its unit, in the languages people write ages in: "9 años", "52 ans", "86 anni",
# "64 yaşında", "3歳", "10 months", "56 yrs" (annotated with the unit, which the token
# candidates cut off).
_AGE_UNIT_WORDS = (
    r"years?(?:[ ]old)?|yrs?(?:[ ]old)?|y/o|y\.o\.?|yo|months?(?:[ ]old)?|mths?|mos"
    r"|(?:weeks?|days?)[ ]old|años|año|añitos|anos|aninhos|ans|anni|anno|jahre|jahren|j\."
    r"|jährig|jährige[nr]?|lat|lata|latka|roki|років|рок[иі]в?|лет|года?|jaar|år|ani|de[ ]ani"
    r"|tahun|tuổi|yaş|yaşında|yaşındaki|oed|ετών|taong[ ]gulang|gulang|saal|vuotta|éves|anys"
    r"|urte|godina|let"
)
_AGE_UNIT_AFTER = re.compile(rf"[ \u00a0](?:{_AGE_UNIT_WORDS})(?!\w)", re.IGNORECASE)
_AGE_WITH_UNIT = re.compile(
    rf"(?:\d{{1,3}}|{NUMBER_WORD})(?:[ \u00a0]?(?:{_AGE_UNIT_WORDS})(?!\w)|[ ]?[歲歳岁才])",
    re.IGNORECASE,
)
# Digits spoken one by one, as a call transcript writes a code or reference: "four four nine
# one", "d c four four nine one seven", "m a l s two five dash oh three".
_SPOKEN_DIGIT = "zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple"
_SPOKEN_RUN = re.compile(
    rf"(?<![\w'-])(?:(?:{_SPOKEN_DIGIT}|dash|[a-z])[ ]){{2,15}}(?:{_SPOKEN_DIGIT}|[a-z])(?![\w'-])"
)
_SPOKEN_COUNTED = frozenset(_SPOKEN_DIGIT.split("|")) - {"oh", "double", "triple"}
_SPOKEN_NOT_FIRST = frozenset({"a", "i", "dash"})
MIN_SPOKEN_DIGITS = 3
SPOKEN_SPREAD = 60  # at most this many characters from the first to the third spoken digit
_AGE_NUMBER = re.compile(rf"(?:\d{{1,3}}|{NUMBER_WORD})[ \u00a0]?", re.IGNORECASE)
_LOWER_WORD = re.compile(r"[a-z]{4,20}")
_INNER_UPPER = re.compile(r"[a-z].*[A-Z]|[A-Z]{2}.*[a-z]")
_RUN_PIECE = re.compile(r"[A-Z0-9]{1,5}\.?")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_KEY_BEFORE = re.compile(r"([^\W\d_][\w .'/#-]{0,40}?)[\"']?\s*[:=#]\s*[\"'`]?$")
_TIME_START = re.compile(r"\s*\[?\d{1,2}:\d{2}")
_FLAG_BEFORE = re.compile(r"(?<!\S)--?([a-z][\w-]{0,24})[ =]$")
_LABEL_LINE = re.compile(r"([^\W\d_][\w .'/#()-]{0,40}?)\s*[:#]\s*$")
# A chat or log line's speaker: "dfurlong: ...", "[10:02] kev_99: ...", "<bally-nights> ...",
# "12:01 - @wendy.ng: ..." (the name is kept; a speaker elsewhere in the text is a user name)
_SPEAKER = re.compile(
    r"^[ \t]*+(?:[\[(]?[\d/.,-]*[ \t]*\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?[\])]?"
    r"[ \t]*[-–—]?[ \t]*)?(?:<@?([^\s<>]{2,40})>|@?([\w.\-]{2,40})[ \t]*:(?!//|\d))",
    re.MULTILINE,
)
_NEWLINE = re.compile("\n")
_SPEAKER_CANDIDATE = re.compile(r"[a-z][a-z0-9._-]{2,39}")
_UPI = re.compile(r"[a-z0-9][\w.-]{1,40}@[a-z]{2,12}", re.IGNORECASE)
RARE_ZIPF = 2.0
CUE_WINDOW = 6  # words before a candidate read for cue words
MAX_TABLE_LINE = 4096  # a longer line is not read as a table row (bounds the work per cell)

# Words that announce one kind of identifier, in the languages we read. They are features,
# not rules: the model learns how much each tells (a "code" may be a secret or an id).
_CUE_WORDS = {
    "age": "age aged ages years yrs yr y/o old turned turns turning birthday bday "
    "alter jahre jahren jährig alt ans âge âgé âgée años edad anni anno età lat lata wiek "
    "jaar jaren leeftijd år ålder vuotta idade anos",
    "id": "id ids no nr nº n° number num member membership customer client account acct "
    "badge employee emp staff personnel student patient pupil matricule nummer numéro "
    "número numero kundennummer mitglied socio tenant uid userid sku serial asset card "
    "contract policy meter zähler relatienummer klantnummer lidnummer kundnummer "
    "asiakasnumero",
    "reference": "ref reference case ticket order invoice claim booking incident docket "
    "tracking confirmation conf dossier aktenzeichen référence referencia pedido commande "
    "bestellung rechnung factura facture rx prescription file application reservation",
    "handle": "user username usr login handle nick nickname owner author assignee reporter "
    "cn dm benutzer benutzername kennung benutzerkennung utilisateur usuario utente pseudo "
    "upi vpa admin committer "
    "actor profile instagram twitter telegram discord github gitlab slack skype",
    "secret": "password passwd pwd pass passphrase passcode pin token secret key apikey "
    "bearer auth credential credentials otp code codes wifi wlan passwort kennwort mot "
    "clave contraseña código senha hasło parola salasana lösenord",
    "plate": "plate plates reg registration vehicle car van truck lorry index "
    "kennzeichen immatriculation matrícula matricula targa rejestracja kenteken",
}
# The same in Cyrillic and Greek (words between spaces) and in scripts written without spaces
# between words (Chinese, Japanese, Korean), where the cue is found inside the run of text.
_CUE_WORDS_OTHER_SCRIPTS = {
    "age": "возраст лет года годиков років рокiв ετών ηλικία 歳 岁 歲 나이",
    "id": "номер αριθμός 番号 号码 號碼 编号 編號 会员 會員 社員 번호 회원",
    "reference": "заказ заявка дело 订单 訂單 注文 予約 案件 주문 예약",
    "handle": "логин пользователь ник ユーザー 用户 用戶 账号 帳號 아이디 닉네임",
    "secret": "пароль код пин κωδικός パスワード 暗証 コード 密码 密碼 验证码 驗證碼 口令 "
    "비밀번호 인증번호 암호",
    "plate": "номер госномер 车牌 車牌 ナンバー 번호판",
}
CUES: dict[str, tuple[str, ...]] = {}
for _kind, _words in (*_CUE_WORDS.items(), *_CUE_WORDS_OTHER_SCRIPTS.items()):
    for _word in _words.split():
        CUES[_word] = (*CUES.get(_word, ()), _kind)
_UNSPACED_CUE = re.compile(
    "|".join(sorted((w for w in CUES if any("\u3040" <= c <= "\ud7af" for c in w)), key=len)[::-1])
)


@lru_cache(maxsize=65536)
def cue_kinds(word: str) -> tuple[str, ...]:
    """The kinds of identifier a word announces: the lower-case word itself, or, in a run of
    Chinese, Japanese or Korean text, a cue inside it ("パスワード再設定コード" → secret)."""
    lower = word.lower()
    found = CUES.get(lower)
    if found is not None:
        return found
    if lower.isascii():
        return ()
    return tuple(dict.fromkeys(k for w in _UNSPACED_CUE.findall(lower) for k in CUES[w]))


@lru_cache(maxsize=65536)
def max_zipf(word: str) -> float:
    """The lower-case word's highest frequency (Zipf scale) over the languages we read."""
    return max(word_zipf(word, language) for language in LANGUAGES)


@lru_cache(maxsize=65536)
def is_rare_word(word: str) -> bool:
    """Rare in every language we read (as `max_zipf(word) < RARE_ZIPF`, stopping early)."""
    return all(word_zipf(word, language) < RARE_ZIPF for language in LANGUAGES)


@dataclass(frozen=True)
class Candidate:
    """A proposed span (character offsets into the document)."""

    start: int
    end: int


def _is_candidate_token(token: str, speakers: frozenset[str] = frozenset()) -> bool:
    if speakers and token in speakers and _SPEAKER_CANDIDATE.fullmatch(token):
        return _may_be_identifier(token)
    return _has_identifier_shape(token)


def _may_be_identifier(token: str) -> bool:
    return 1 <= len(token) <= MAX_LEN and not _NOT_AN_ID.search(token)


@lru_cache(maxsize=65536)  # words recur: one look-up instead of half a dozen patterns
def _has_identifier_shape(token: str) -> bool:
    if not _may_be_identifier(token):
        return False
    if _UPI.fullmatch(token) or _DIGIT.search(token):
        return True
    if _NUMBER_WORD.fullmatch(token) or _HANDLE_SHAPE.fullmatch(token):
        return True
    if _LOWER_WORD.fullmatch(token) and is_rare_word(token):
        return True
    return len(token) >= 4 and bool(_INNER_UPPER.search(token))


class LineLayout(NamedTuple):
    """A line's text, how its table cells are separated (`_separator`), its layout features
    and how many white-space characters it starts with."""

    text: str
    separator: str | None
    features: list[str]
    indent: int


class Lines:
    """A document's lines, found by bisection (no scan back to the line start per candidate,
    which is quadratic on a long line), and each line's layout, read once per line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ends = [m.start() for m in _NEWLINE.finditer(text)] + [len(text)]
        self.starts = [0] + [e + 1 for e in self.ends[:-1]]
        self._layouts: dict[int, LineLayout] = {}

    def number(self, offset: int) -> int:
        """The index of the line holding `offset`."""
        return bisect_right(self.starts, offset) - 1

    def length(self, k: int) -> int:
        """The length of line `k`."""
        return self.ends[k] - self.starts[k]

    def line(self, k: int) -> str:
        """The text of line `k` (without its newline)."""
        return self.text[self.starts[k] : self.ends[k]]

    def layout(self, k: int) -> LineLayout:
        """Line `k`'s text and layout (see `LineLayout`)."""
        found = self._layouts.get(k)
        if found is None:
            line = self.line(k)
            feats = []
            if _TIME_START.match(line):
                feats.append("line_timestamp")
            feats.append("line_rare=" + _rare_share(line))
            if line.lstrip()[:1] in "{[" or '":' in line:
                feats.append("line_json")
            if "|" in line:
                feats.append("line_piped")
            indent = len(line) - len(line.lstrip())
            found = self._layouts[k] = LineLayout(line, _separator(line), feats, indent)
        return found


@dataclass(frozen=True)
class DocumentContext:
    """What the features read from the whole document once: how often each token occurs, the
    speakers of its chat or log lines (lower case) and its lines."""

    counts: Counter[str]
    speakers: frozenset[str]
    lines: Lines


def document_context(text: str) -> DocumentContext:
    """The document-wide facts `span_features` reads (see `DocumentContext`)."""
    speakers = frozenset(
        (m.group(1) or m.group(2)).lower().strip(".-") for m in _SPEAKER.finditer(text)
    )
    return DocumentContext(document_counts(text), speakers, Lines(text))


class Coverage:
    """Spans already detected, to test in O(log n) whether a span overlaps any of them."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.max_end = list(accumulate((e for _, e in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_left(self.starts, end)  # the spans starting before `end`
        return i > 0 and self.max_end[i - 1] > start


@lru_cache(maxsize=65536)  # words recur: one look-up instead of half a dozen patterns
def _token_kind(token: str) -> tuple[str, int, int, bool, bool, bool, bool]:
    """What `candidate_spans` needs of one token: the token without the punctuation around
    it, the characters trimmed off its start and end, whether it has an identifier shape,
    whether the untrimmed token is a run piece, whether it is a number an age unit may follow
    (1-3 digits or number words) and whether it is a digit spoken as a word."""
    lead = token.lstrip(_LEAD)
    trimmed = lead.rstrip(_TRAIL)
    is_candidate = bool(trimmed) and _has_identifier_shape(trimmed)
    is_number = is_candidate and (
        (len(trimmed) <= 3 and trimmed.isdigit()) or _NUMBER_WORD.fullmatch(trimmed) is not None
    )
    is_piece = _RUN_PIECE.fullmatch(token) is not None
    trail = len(lead) - len(trimmed)
    is_spoken = trimmed in _SPOKEN_COUNTED
    return trimmed, len(token) - len(lead), trail, is_candidate, is_piece, is_number, is_spoken


def candidate_spans(
    text: str, covered: Coverage | None = None, speakers: frozenset[str] = frozenset()
) -> list[Candidate]:
    """Single tokens with an identifier shape (or lower-case ones that are a chat speaker's
    name elsewhere in the text), such a number with the age unit after it ("9 años"), runs of
    2-6 short upper-case/digit groups separated by single spaces ("CX 77 QL", "985 112 004
    736", "JT 48 17 22 C") and digits spoken one by one ("d c four four nine one seven");
    none that overlaps a `covered` span."""
    out: list[Candidate] = []
    run: list[tuple[int, int]] = []
    spoken_at: list[int] = []  # where the digits spoken as words start

    def close_run() -> None:
        if len(run) >= 2 and any(_DIGIT.search(text, s, e) for s, e in run):
            if covered is None or not covered.overlaps(run[0][0], run[-1][1]):
                out.append(Candidate(run[0][0], run[-1][1]))
        run.clear()

    for m in _TOKEN.finditer(text):
        token = m.group()
        trimmed, lead, trail, is_candidate, is_piece, is_number, is_spoken = _token_kind(token)
        if speakers and trimmed in speakers:
            is_candidate = _is_candidate_token(trimmed, speakers)
        if is_candidate:
            start, end = m.start() + lead, m.end() - trail
            if covered is None or not covered.overlaps(start, end):
                out.append(Candidate(start, end))
            if is_number and not trail and (start == 0 or text[start - 1] not in ",."):
                unit = _AGE_UNIT_AFTER.match(text, end)  # "9 años", not "10,5 years"
                if unit and (covered is None or not covered.overlaps(start, unit.end())):
                    out.append(Candidate(start, unit.end()))
            if is_spoken:
                spoken_at.append(start)
        if not is_piece:
            if run:
                close_run()
        elif not run or text[run[-1][1] : m.start()] == " ":
            run.append((m.start(), m.end() - (token[-1] == ".")))
            if len(run) > MAX_RUN_TOKENS:
                run.clear()
        else:
            close_run()
            run.append((m.start(), m.end()))
    close_run()
    for c in _spoken_digit_spans(text, spoken_at):
        if covered is None or not covered.overlaps(c.start, c.end):
            out.append(c)
    return out


def _spoken_digit_spans(text: str, spoken_at: Sequence[int]) -> list[Candidate]:
    """Runs of digits spoken one by one (at least MIN_SPOKEN_DIGITS of them), with the
    letters spelled among them: "d c four four nine one seven". Only the lines where three
    spoken digits lie within SPOKEN_SPREAD characters (`spoken_at`: where they start) are
    searched, each once."""
    out: list[Candidate] = []
    searched = 0
    for first, third in zip(spoken_at, spoken_at[MIN_SPOKEN_DIGITS - 1 :], strict=False):
        if third - first > SPOKEN_SPREAD or first < searched:
            continue
        low = max(searched, text.rfind("\n", 0, first) + 1)
        high = text.find("\n", third)
        searched = len(text) if high < 0 else high
        for m in _SPOKEN_RUN.finditer(text, low, searched):
            words = m.group().split(" ")
            if sum(w in _SPOKEN_COUNTED for w in words) < MIN_SPOKEN_DIGITS:
                continue
            # "a", "i" or "dash" before the first digit are speech around it: "it's a four…"
            skip = next(i for i, w in enumerate(words) if w not in _SPOKEN_NOT_FIRST)
            out.append(Candidate(m.start() + sum(len(w) + 1 for w in words[:skip]), m.end()))
    return out


_SHAPE_MAP = str.maketrans(
    {**{c: "d" for c in "0123456789"}, **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"}}
    | {c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
)


def word_shape(token: str) -> str:
    """Digits as d, lower case as x, capitals as X (other letters as a or A), punctuation
    kept: "KH-0112" → "XX-dddd"."""
    out = token.translate(_SHAPE_MAP)
    if out.isascii():
        return out
    return "".join(
        ("A" if c.isupper() else "a") if c.isalpha() and ord(c) > 127 else c for c in out
    )


_REPEATS = re.compile(r"(.)\1+")


@lru_cache(maxsize=16384)
def _compressed(shape: str) -> str:
    """Runs of one class cut to two: "XX-dddd" → "XX-dd"."""
    return _REPEATS.sub(lambda m: m.group(1) * 2, shape)


def _bucket(n: int) -> str:
    return str(n) if n < 8 else ("8-11" if n < 12 else ("12-19" if n < 20 else "20+"))


@lru_cache(maxsize=65536)
def _context_word(word: str) -> str:
    lower = word.lower()
    if _DIGIT.search(lower):
        return "#" + _compressed(word_shape(word))
    return lower


def _char_class(c: str) -> str:
    if c.isspace():
        return "_"
    if c.isdigit():
        return "d"
    if c.isalpha():
        return "a"
    return c


def _separator(line: str) -> str | None:
    """How a table line separates its cells: pipes, tabs, commas without a space after them
    (CSV), runs of spaces (aligned columns); None for a line of prose or one too long to be a
    table row."""
    if len(line) > MAX_TABLE_LINE:
        return None
    if "|" in line:
        return "|"
    if "\t" in line:
        return "\t"
    if "  " in line.strip():
        return "  "
    if line.count(",") >= 2 and ", " not in line:
        return ","
    return None


def _cell(line: str, separator: str, index: int, column: int) -> str:
    """The cell of `line` in field `index` (or, for aligned columns, at character `column`)."""
    if separator != "  ":
        fields = line.split(separator)
        return fields[index] if index < len(fields) else ""
    if column >= len(line) or line[column] == " ":
        return ""
    left = line.rfind("  ", 0, column + 1)
    right = line.find("  ", column)
    return line[left + 1 if left >= 0 else 0 : right if right >= 0 else len(line)]


def _is_rule(line: str) -> bool:
    return set(line.strip()) <= set("-=|+: \t")


def _table_context(lines: Lines, k: int, start: int, shape: str) -> list[str]:
    """Features of a table cell on line `k`: the header words above its column (the nearest
    line within 12 with no digits and the same separator), and whether the cells above and
    below it in the same column have its shape (a column of similar ids)."""
    line, separator = lines.layout(k)[:2]
    if separator is None:
        return []
    column = start - lines.starts[k]
    index = line[:column].count(separator) if separator != "  " else 0
    feats = ["column=yes"]
    seen_above = header_done = False
    for step in range(12):
        if k - step - 1 < 0:
            break
        if lines.length(k - step - 1) > MAX_TABLE_LINE:
            break
        prev = lines.line(k - step - 1)
        if not prev.strip() or _is_rule(prev) or (separator != "  " and separator not in prev):
            continue
        if separator == "," and prev.count(",") != line.count(","):
            continue
        cell = _cell(prev, separator, index, column).strip()
        if step < 2 and not seen_above and cell and _DIGIT.search(prev):
            seen_above = True
            feats.append("colnb=" + ("same" if _compressed(word_shape(cell)) == shape else "other"))
        if not _DIGIT.search(prev):
            words = _WORD.findall(cell)
            for w in words[:3]:
                feats.append("colhdr=" + _context_word(w))
                feats.extend("cuecol=" + kind for kind in cue_kinds(w))
            header_done = True
            break
    if not header_done:
        feats.append("colhdr=none")
    if k + 1 < len(lines.starts) and lines.length(k + 1) <= MAX_TABLE_LINE:
        nxt = lines.line(k + 1)
        if nxt.strip() and (separator == "  " or separator in nxt):
            cell = _cell(nxt, separator, index, column).strip()
            if cell:
                same = _compressed(word_shape(cell)) == shape
                feats.append("colnb_below=" + ("same" if same else "other"))
    return feats


def _cue_features(prefix: str, words: Sequence[str]) -> list[str]:
    # most words are ASCII and no cue: one dict look-up, not a cached call (~300k a document)
    return [
        prefix + kind
        for w in words
        for kind in (CUES.get(w.lower()) or (() if w.isascii() else cue_kinds(w)))
    ]


def _label_above(text: str, line_start: int) -> list[str]:
    """The label of a form layout, on one of the two lines above: "Username:\n  dfurlong"."""
    end = line_start - 1
    for _ in range(2):
        if end <= 0:
            return []
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end]
        if line.strip():
            label = _LABEL_LINE.search(line)
            if not label:
                return []
            words = _WORD.findall(label.group(1).lower())[-2:]
            return ["keyabove=" + _context_word(w) for w in words] + _cue_features(
                "cueabove=", words
            )
        end = begin - 1
    return []


def _may_end_with_key(before: str) -> bool:
    """Whether `before` ends as `_KEY_BEFORE` needs (a `:`, `=` or `#`, then spaces and at most
    a quote): the cheap test that spares most candidates that pattern's search."""
    if before.endswith(('"', "'", "`")):
        before = before[:-1]
    return before.rstrip().endswith((":", "=", "#"))


@lru_cache(maxsize=16384)  # ids, numbers and user names recur across a document
def _surface_features(surface: str) -> tuple[str, ...]:
    """The features of a candidate's own characters: shape, character classes, affixes, the
    number it spells and its words' frequencies."""
    shape = word_shape(surface)
    compressed = _compressed(shape)
    lower = surface.lower()
    digits = sum(c.isdigit() for c in surface)
    letters = sum(c.isalpha() for c in surface)
    pieces = surface.split()
    feats = [
        "bias",
        "shape=" + compressed[:16],
        "len=" + _bucket(len(surface)),
        "digits=" + _bucket(digits),
        "letters=" + _bucket(letters),
        "pieces=" + str(min(len(pieces), 6)),
        "pre=" + lower[:2],
        "pre3=" + lower[:3],
        "suf=" + lower[-2:],
        "suf3=" + lower[-3:],
        "first=" + shape[:1],
        "last=" + shape[-1:],
    ]
    if len(shape) <= 20:
        feats.append("fullshape=" + shape)
    for c in dict.fromkeys(surface):  # in order, not in the hash seed's
        if not c.isalnum():
            feats.append("punct=" + c)
    kinds = (
        ("D" if digits else "")
        + ("U" if any(c.isupper() for c in surface) else "")
        + ("L" if any(c.islower() for c in surface) else "")
    )
    feats.append("kinds=" + kinds)
    if surface.isdecimal():  # not "113¹": int() refuses superscripts
        value = int(surface[:9])
        feats.append("num_len=" + str(len(surface)))
        if surface[0] == "0":
            feats.append("num_leading_zero")
        elif len(surface) == 4 and 1900 <= value <= 2099:
            feats.append("num_year")
        elif value <= 120:
            feats.append("num_le_120")
            feats.append("num_tens=" + str(value // 10))
    elif _NUMBER_WORD.fullmatch(surface):
        feats.append("number_word")
    if len(pieces) > 1 or not surface.isascii():
        if _AGE_WITH_UNIT.fullmatch(surface):
            number = _AGE_NUMBER.match(lower)
            feats.append("age_unit=" + lower[number.end() if number else 0 :][:8])
        elif len(pieces) > 2 and _SPOKEN_RUN.fullmatch(surface):
            spoken = sum(w in _SPOKEN_COUNTED for w in pieces)
            feats.append("spoken_digits=" + _bucket(spoken))
    words = [w for w in _WORD.findall(lower) if not _DIGIT.search(w)]
    if words:
        zipfs = [max_zipf(w) for w in words]
        feats.append("zipf_min=" + str(int(min(zipfs))))
        feats.append("zipf_max=" + str(int(max(zipfs))))
        if len(words) > 1:
            feats.append(f"words={len(words)},common={sum(z >= 3.0 for z in zipfs)}")
        if len(words) == 1 and zipfs[0] >= 3.0 and not digits:
            feats.append("common_word=" + words[0])
        if any(len(w) > 2 and is_known_name(w) for w in words):
            feats.append("has_name_word")
    return tuple(feats)


def span_features(
    text: str, start: int, end: int, context: DocumentContext | None = None
) -> list[str]:
    """The features of one candidate: its shape and character classes, affixes, word
    frequency, and its context (neighbouring words and cue words, the key before a colon or
    `=`, a form label above, the column header and neighbouring cells of a table, the line's
    layout, chat speakers and repetitions in the document)."""
    surface = text[start:end]
    feats = list(_surface_features(surface))
    compressed = _compressed(word_shape(surface))
    lower = surface.lower()
    lines = context.lines if context is not None else Lines(text)
    k = lines.number(start)
    line_start, line_end = lines.starts[k], lines.ends[k]
    before = text[max(line_start, start - 80) : start]
    after = text[end : min(line_end, end + 40)]
    window = _WORD.findall(before)[-CUE_WINDOW:]
    prev_words = window[-3:]
    next_words = _WORD.findall(after)[:3]
    for i, w in enumerate(reversed(prev_words)):
        feats.append(f"w-{i + 1}=" + _context_word(w))
        feats.append("w-any=" + _context_word(w))
    for i, w in enumerate(next_words[:2]):
        feats.append(f"w+{i + 1}=" + _context_word(w))
    feats.extend(dict.fromkeys(_cue_features("cue<=", window)))
    feats.extend(dict.fromkeys(_cue_features("cue>=", next_words)))
    if not prev_words and line_start > 0:
        above = text[max(0, line_start - 40) : line_start - 1]
        above_words = _WORD.findall(above)
        if above_words:
            feats.append("w-above=" + _context_word(above_words[-1]))
        feats.extend(_label_above(text, line_start))
    char_before = _char_class(text[start - 1]) if start > line_start else "^"
    char_after = _char_class(text[end]) if end < line_end else "$"
    feats.append("pb=" + (before.rstrip()[-1:] or "^"))
    feats.append("cb=" + char_before)
    feats.append("ca=" + char_after)
    feats.append(f"cba={char_before}{char_after}")
    layout = lines.layout(k)
    if start - line_start <= layout.indent:
        feats.append("line_first")
    if after.strip() == "" and end <= line_end:
        feats.append("line_last")
    key = _KEY_BEFORE.search(before) if _may_end_with_key(before) else None
    if key:
        key_words = _WORD.findall(key.group(1).lower())[-3:]
        feats.extend("key=" + _context_word(w) for w in key_words)
        feats.extend(_cue_features("cuekey=", key_words))
    flag = _FLAG_BEFORE.search(before) if before.endswith((" ", "=")) and "-" in before else None
    if flag:
        flag_words = _WORD.findall(flag.group(1).lower())
        feats.extend("key=" + _context_word(w) for w in flag_words)
        feats.extend(_cue_features("cuekey=", flag_words))
    feats.extend(layout.features)
    feats.extend(_table_context(lines, k, start, compressed))
    if context is not None:
        feats.append("repeats=" + _bucket(context.counts[surface] - 1))
        if lower in context.speakers:
            feats.append("speaker")
    return feats


_LINE_WORD = re.compile(r"(?<![\w@.-])[a-z]{2,}(?![\w@.-])")


@lru_cache(maxsize=4096)
def _rare_share(line: str) -> str:
    """How many of the line's lower-case words are rare in every language we read: a user
    name stands out among common words, not in a line of romanised Hindi."""
    words = _LINE_WORD.findall(line)
    if len(words) < 3:
        return "few"
    share = sum(map(is_rare_word, words)) / len(words)
    return "0" if share == 0 else ("low" if share < 0.25 else "high")


@lru_cache(maxsize=1 << 16)  # the same features recur in every document (bounded: ~35 MB)
def feature_index(feature: str) -> int:
    """The hashed column of a feature string (crc32: stable across processes, unlike hash)."""
    return zlib.crc32(feature.encode("utf-8")) & ((1 << HASH_BITS) - 1)


def document_counts(text: str) -> Counter[str]:
    """How often each token occurs in the document (repeated ids and user names)."""
    return Counter(_TOKEN.findall(text))


class IdSpanModel:
    """The shipped weights: the used hashed columns, their coefficients per label, the
    intercepts, and a probability threshold per emitted category."""

    def __init__(self, directory: Path = MODEL_DIR) -> None:
        meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
        if meta["hash_bits"] != HASH_BITS:
            raise ValueError(f"{directory}: weights hashed to {meta['hash_bits']} bits")
        arrays = np.load(directory / "weights.npz")
        self.labels: list[str] = meta["labels"]
        self.thresholds: dict[str, float] = meta["thresholds"]
        self.columns = arrays["columns"]
        self.coef = arrays["coef"].astype(np.float32)  # (n_columns, n_labels)
        self.intercept = arrays["intercept"].astype(np.float32)
        self.none_index = self.labels.index(NONE)
        self.default_threshold: float = meta.get("default_threshold", 1.0)

    def decide(self, row: np.ndarray) -> tuple[str, float]:
        """The category of one candidate and the probability that it is PII at all (1 - P(none)).
        Names, organisations and places are the NER's; where one of them wins, the most probable
        identifier category is taken instead."""
        order = np.argsort(row)[::-1]
        label = next(
            self.labels[i]
            for i in order
            if self.labels[i] != NONE and self.labels[i] not in NOT_EMITTED
        )
        return label, float(1.0 - row[self.none_index])

    def probabilities(self, feature_lists: Sequence[Sequence[str]]) -> np.ndarray:
        """Softmax probabilities, one row per candidate, one column per label."""
        from scipy.sparse import csr_matrix

        # a feature (or hash collision) counts once per row, as in the training matrix
        rows_of_columns = [{feature_index(f) for f in feats} for feats in feature_lists]
        lengths = np.fromiter(map(len, rows_of_columns), np.int64, len(rows_of_columns))
        hashed = np.fromiter((i for row in rows_of_columns for i in row), np.int64, lengths.sum())
        rows = np.repeat(np.arange(len(feature_lists)), lengths)
        pos = np.minimum(np.searchsorted(self.columns, hashed), len(self.columns) - 1)
        known = self.columns[pos] == hashed
        matrix = csr_matrix(
            (np.ones(int(known.sum()), np.float32), (rows[known], pos[known])),
            shape=(len(feature_lists), len(self.columns)),
        )
        logits = matrix @ self.coef + self.intercept
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)


@lru_cache(maxsize=1)
def shipped_model() -> IdSpanModel:
    """The weights shipped with the package, loaded once per process."""
    return IdSpanModel()


def classify_spans(
    text: str,
    covered: Sequence[Detection] = (),
    model: IdSpanModel | None = None,
) -> list[Detection]:
    """Identifier spans the classifier finds above its category's threshold, among the
    candidates that no detection in `covered` overlaps; of overlapping candidates the most
    probable is kept."""
    model = model or shipped_model()
    context = document_context(text)
    candidates = candidate_spans(
        text, Coverage([(d.start, d.end) for d in covered]), context.speakers
    )
    if not candidates:
        return []
    found: list[tuple[float, Candidate, str]] = []
    for low in range(0, len(candidates), BATCH):
        batch = candidates[low : low + BATCH]
        probs = model.probabilities([span_features(text, c.start, c.end, context) for c in batch])
        for c, row in zip(batch, probs, strict=True):
            label, score = model.decide(row)
            if score >= model.thresholds.get(label, model.default_threshold):
                found.append((score, c, label))
    found.sort(key=lambda item: -item[0])
    kept: list[Detection] = []
    intervals: list[tuple[int, int]] = []  # kept so far, sorted by start
    for prob, c, label in found:
        i = bisect_left(intervals, (c.start, c.end))
        if (i > 0 and intervals[i - 1][1] > c.start) or (
            i < len(intervals) and intervals[i][0] < c.end
        ):
            continue  # the kept spans are disjoint, so only the two neighbours can overlap
        insort(intervals, (c.start, c.end))
        kept.append(
            Detection(c.start, c.end, label, placeholder_for(label), SOURCE, round(prob, 3), SOURCE)
        )
    return sorted(kept, key=lambda d: d.start)
