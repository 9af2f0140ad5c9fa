"""Check digits and shape checks that turn number-like regex matches into confident detections.

National ids (US SSN, Italian codice fiscale, Brazilian CPF, Aadhaar, Spanish DNI/NIE,
PESEL, fødselsnummer, personnummer, and the keyword-less shapes of `national_id_by_shape`)
are checked by python-stdnum, a core dependency. The
others are published algorithms small enough to carry here, written so that a match's layout
(spaces, a minimum length) is checked with the digits: Luhn (cards), ISO 7064 mod-97 (IBAN),
ABA 3-7-1 (routing numbers), Base58Check and Bech32/Bech32m (bitcoin addresses), Shannon
entropy (secrets).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
from collections import Counter
from functools import cache

from stdnum.be import nn as be_nn
from stdnum.br import cpf
from stdnum.ch import ssn as ch_ssn
from stdnum.cn import ric as cn_ric
from stdnum.cz import rc as cz_rc
from stdnum.ee import ik as ee_ik
from stdnum.es import ccc as es_ccc
from stdnum.es import dni, nie
from stdnum.fi import hetu as fi_hetu
from stdnum.fr import nir as fr_nir
from stdnum.ie import pps as ie_pps
from stdnum.in_ import aadhaar
from stdnum.it import codicefiscale
from stdnum.kr import rrn as kr_rrn
from stdnum.lt import asmens as lt_asmens
from stdnum.no import fodselsnummer
from stdnum.pl import pesel
from stdnum.ro import cnp as ro_cnp
from stdnum.se import personnummer
from stdnum.us import ssn


def luhn_valid(candidate: str) -> bool:
    """Luhn checksum over the digits of a 13–19 digit card number."""
    return 13 <= sum(c.isdigit() for c in candidate) <= 19 and luhn_checksum_ok(candidate)


def luhn_checksum_ok(candidate: str) -> bool:
    """The Luhn (mod 10) check over all digits of the candidate, at least 12 of them."""
    digits = [int(c) for c in candidate if c.isdecimal()]
    return 12 <= len(digits) <= 19 and _luhn_sum(digits) % 10 == 0


def _luhn_sum(digits: list[int]) -> int:
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total


# ISO 13616 IBAN lengths per country (SWIFT IBAN registry).
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24,
    "AE": 23,
    "AL": 28,
    "AT": 20,
    "AZ": 28,
    "BA": 20,
    "BE": 16,
    "BG": 22,
    "BH": 22,
    "BR": 29,
    "BY": 28,
    "CH": 21,
    "CR": 22,
    "CY": 28,
    "CZ": 24,
    "DE": 22,
    "DK": 18,
    "DO": 28,
    "EE": 20,
    "EG": 29,
    "ES": 24,
    "FI": 18,
    "FO": 18,
    "FR": 27,
    "GB": 22,
    "GE": 22,
    "GI": 23,
    "GL": 18,
    "GR": 27,
    "GT": 28,
    "HR": 21,
    "HU": 28,
    "IE": 22,
    "IL": 23,
    "IQ": 23,
    "IS": 26,
    "IT": 27,
    "JO": 30,
    "KW": 30,
    "KZ": 20,
    "LB": 28,
    "LC": 32,
    "LI": 21,
    "LT": 20,
    "LU": 20,
    "LV": 21,
    "MC": 27,
    "MD": 24,
    "ME": 22,
    "MK": 19,
    "MR": 27,
    "MT": 31,
    "MU": 30,
    "NL": 18,
    "NO": 15,
    "PK": 24,
    "PL": 28,
    "PS": 29,
    "PT": 25,
    "QA": 29,
    "RO": 24,
    "RS": 22,
    "SA": 24,
    "SC": 31,
    "SE": 24,
    "SI": 19,
    "SK": 24,
    "SM": 27,
    "ST": 25,
    "SV": 28,
    "TL": 23,
    "TN": 24,
    "TR": 26,
    "UA": 29,
    "VA": 22,
    "VG": 24,
    "XK": 20,
}


def iban_valid(candidate: str) -> bool:
    """IBAN mod-97 check (ISO 7064), plus the registry length for known countries; spaces,
    dashes, dots and line breaks between the groups and any letter case are accepted."""
    iban = re.sub(r"[\s.-]", "", candidate).upper()
    if not 15 <= len(iban) <= 34 or not iban.isascii() or not iban.isalnum():
        return False
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def aba_routing_valid(candidate: str) -> bool:
    """ABA routing transit number checksum: 3-7-1 weights over nine digits, sum ≡ 0 mod 10."""
    digits = [int(c) for c in candidate if c.isdecimal()]
    if len(digits) != 9 or not any(digits):
        return False
    weights = (3, 7, 1) * 3
    return sum(w * d for w, d in zip(weights, digits, strict=True)) % 10 == 0


B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check_valid(candidate: str) -> bool:
    """Bitcoin legacy/P2SH address: Base58 payload whose last 4 bytes are a double SHA-256."""
    number = 0
    for char in candidate:
        index = B58_ALPHABET.find(char)
        if index < 0:
            return False
        number = number * 58 + index
    pad = len(candidate) - len(candidate.lstrip("1"))
    raw = b"\0" * pad + number.to_bytes((number.bit_length() + 7) // 8, "big")
    if len(raw) != 25:
        return False
    payload, checksum = raw[:-4], raw[-4:]
    return hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum


BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
BECH32_CONSTANT, BECH32M_CONSTANT = 1, 0x2BC830A3


def bech32_polymod(values: list[int]) -> int:
    """The BCH checksum of BIP-173 over 5-bit values."""
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            checksum ^= _BECH32_GENERATOR[i] if (top >> i) & 1 else 0
    return checksum


def bech32_hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def bech32_valid(candidate: str) -> bool:
    """Bech32/Bech32m checksum (BIP-173/BIP-350) of a segwit address such as bc1q…."""
    if candidate != candidate.lower() and candidate != candidate.upper():
        return False  # mixed case is invalid by the spec
    text = candidate.lower()
    hrp, sep, data = text.rpartition("1")
    if not sep or not hrp or len(data) < 6:
        return False
    values = [BECH32_CHARSET.find(c) for c in data]
    if min(values) < 0:
        return False
    return bech32_polymod(bech32_hrp_expand(hrp) + values) in (BECH32_CONSTANT, BECH32M_CONSTANT)


def shannon_entropy(value: str) -> float:
    """Bits per character of the string's own character distribution."""
    terms = _entropy_terms(len(value))
    return -sum(map(terms.__getitem__, Counter(value).values()))


@cache
def _entropy_terms(n: int) -> dict[int, float]:
    """`c / n * log2(c / n)` for every count c of a string of length n, computed once per n
    (summed in the same order, so the entropy is the same float as computing them afresh)."""
    return {c: c / n * math.log2(c / n) for c in range(1, n + 1)}


_ASCII_DIGIT = re.compile(r"[0-9]")
_WORDLIKE_RUN = re.compile(r"[a-z]{8,}|[A-Z]{8,}")
_HEX = re.compile(r"[0-9a-fA-F]+")
_SEPARATORS = re.compile(r"[_/.+=-]+")

SECRET_MIN_LENGTH = 20
SECRET_MIN_ENTROPY = 3.5  # bits/char; random base62 of length 20 scores ≈ 4.1
SECRET_MIN_ENTROPY_HEX = 3.0  # hex has only 16 symbols (max 4 bits/char)


def looks_like_secret(token: str) -> bool:
    """High-entropy token: long, mixed character classes, no dictionary-like letter runs."""
    if len(token) < SECRET_MIN_LENGTH:
        return False
    if token.isascii():  # the same character tests, by whole-string operations
        if _ASCII_DIGIT.search(token) is None:
            return False
        has_lower, has_upper = token != token.upper(), token != token.lower()
    else:
        if not any(map(str.isdigit, token)):
            return False
        has_lower, has_upper = any(map(str.islower, token)), any(map(str.isupper, token))
    if not (has_lower or has_upper) or _WORDLIKE_RUN.search(token):
        return False
    parts = [p for p in _SEPARATORS.split(token) if p]
    if len(parts) >= 3 and sum(p.isalpha() and p.islower() for p in parts) * 2 >= len(parts):
        return False  # snake_case or path-like words: test_it_returns_404_for_users
    threshold = SECRET_MIN_ENTROPY_HEX if _HEX.fullmatch(token) else SECRET_MIN_ENTROPY
    return shannon_entropy(token) >= threshold


def ipv4_valid(candidate: str) -> bool:
    """Four dotted decimal octets 0–255 (an optional /prefix is allowed)."""
    address = candidate.split("/", 1)[0]
    octets = address.split(".")
    return len(octets) == 4 and all(o.isdecimal() and int(o) <= 255 for o in octets)


def ssn_valid(candidate: str) -> bool:
    """US SSN AAA-GG-SSSS: area not 000, 666 or 9xx; group not 00; serial not 0000; not one
    of the published sample numbers (python-stdnum)."""
    return ssn.is_valid(candidate)


def ipv6_valid(candidate: str) -> bool:
    """Parses as IPv6 and has at least three explicit groups (rejects '::' and times)."""
    try:
        address = ipaddress.IPv6Address(candidate)
    except ValueError:
        return False
    return sum(1 for part in candidate.split(":") if part) >= 3 or address.is_loopback


_DATE_SHAPE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}[./-]\d{1,2}[./-]\d{1,2}")
# The layouts a phone number may take: +cc or 00cc, an optional (0) trunk, an optional (area)
# code, then digit groups with single separators, then an optional extension.
_PHONE_LAYOUT = re.compile(
    r"(?:(?:\+|00)\d{1,3}[ .\-\u00a0]?)?(?:\(0\)[ .-]?)?(?:\(\d{1,5}\)[ .\-\u00a0]?)?"
    r"\d{1,12}(?:[ .\-\u00a0/]\d{1,12}){0,5}"
)
_EXTENSION = re.compile(r"\s*(?:ext\.?|x|#)\s*\d{1,5}$", re.IGNORECASE)
_NANP = re.compile(r"(?:1[ .-]?)?[2-9]\d{2}[ .-]\d{3}[ .-]\d{4}")
_LOCAL_7 = re.compile(r"[2-9]\d{2}-\d{4}")
_CN_MOBILE = re.compile(r"1[3-9]\d[ -]\d{4}[ -]\d{4}")  # Chinese mobile, 3-4-4
_SSN_SHAPE = re.compile(r"\d{3}-\d{2}-\d{4}")


def looks_like_date(candidate: str) -> bool:
    return bool(_DATE_SHAPE.fullmatch(candidate.strip()))


def phone_plausible(candidate: str) -> bool:
    """Digit layouts that real phone numbers use; rejects dates, years, amounts and SSNs.

    Accepted: +cc or 00cc international numbers, trunk-0 national numbers, an (area) code,
    North American 3-3-4 and 3-4 local numbers. A bare digit run such as 1 250 000 or
    2019-2024 has none of these marks.
    """
    core = _EXTENSION.sub("", candidate.strip())
    if not _PHONE_LAYOUT.fullmatch(core):
        return False
    digits = sum(c.isdigit() for c in core)
    if not 7 <= digits <= 15 or _DATE_SHAPE.fullmatch(core) or _SSN_SHAPE.fullmatch(core):
        return False
    if core.startswith("+"):
        return digits >= 8
    if core.startswith("00"):
        return digits >= 10 and core[2:3] != "0"  # no country code starts with 0
    if core.startswith("("):
        return True
    if core.startswith("0"):
        has_groups = any(not c.isdigit() for c in core)
        return digits >= 9 and (has_groups or digits in (10, 11))
    return bool(_NANP.fullmatch(core) or _LOCAL_7.fullmatch(core) or _CN_MOBILE.fullmatch(core))


def digits_in_phone_range(candidate: str) -> bool:
    """7–15 digits and not a date: the check for numbers that follow a phone keyword."""
    return 7 <= sum(c.isdigit() for c in candidate) <= 15 and not looks_like_date(candidate)


# National ids: python-stdnum's validators (check digits, embedded birth dates, issuing
# rules), so that each country's rules are kept by the library made for them.


def codice_fiscale_valid(candidate: str) -> bool:
    """A 16-character Italian codice fiscale: check letter and embedded birth date."""
    return codicefiscale.is_valid(candidate)


def cpf_valid(candidate: str) -> bool:
    """A Brazilian CPF (11 digits) with both mod-11 check digits right; one digit repeated
    eleven times passes the check but is a placeholder ("111.111.111-11"), not a number."""
    digits = "".join(c for c in candidate if c.isdigit())
    return len(set(digits)) > 1 and cpf.is_valid(candidate)


def aadhaar_valid(candidate: str) -> bool:
    """A 12-digit Aadhaar number: first digit 2-9, not a palindrome, Verhoeff check digit."""
    return aadhaar.is_valid(candidate)


def dni_nie_valid(candidate: str) -> bool:
    """A Spanish DNI (8 digits and a letter) or NIE (X/Y/Z, 7 digits, a letter) whose letter
    is the number's mod-23 check letter."""
    return dni.is_valid(candidate) or nie.is_valid(candidate)


def pesel_valid(candidate: str) -> bool:
    """A Polish PESEL: 11 digits, a real birth date (month offsets give the century) and the
    1-3-7-9 weighted check digit."""
    return len(candidate.strip()) == 11 and pesel.is_valid(candidate)


def fodselsnummer_valid(candidate: str) -> bool:
    """A Norwegian fødselsnummer (or D-number): 11 digits, a past birth date and both mod-11
    check digits."""
    return fodselsnummer.is_valid(candidate)


def personnummer_valid(candidate: str) -> bool:
    """A Swedish personnummer written YYMMDD-NNNN or YYYYMMDD-NNNN: a real date (day +60
    for samordningsnummer) and the Luhn check over the last ten digits."""
    return personnummer.is_valid(candidate)


def eleven_digit_id_valid(candidate: str) -> bool:
    """11 digits that are a valid PESEL (PL), fødselsnummer (NO), isikukood (EE) or asmens
    kodas (LT): each has an embedded birth date and check digits."""
    return (
        pesel_valid(candidate)
        or fodselsnummer_valid(candidate)
        or ee_ik.is_valid(candidate)
        or lt_asmens.is_valid(candidate)
    )


# Keyword-less national ids: a layout distinctive enough on its own (a separator in a fixed
# place, a fixed prefix, a century sign), confirmed by the number's own check digits and
# embedded birth date (python-stdnum). Bare digit runs (BSN, SIN, EGN, NHS) are left to the
# keyword rules: their check digits alone pass one random number in ten or eleven.
_NATIONAL_ID_SHAPES: tuple[tuple[re.Pattern[str], tuple[object, ...]], ...] = (
    (re.compile(r"\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]"), (fi_hetu,)),  # FI henkilötunnus
    # CZ/SK rodné číslo: only the 10-digit form, which has a check digit; the 9-digit one
    # (born before 1954) is a date and three digits, found only after its keyword
    (re.compile(r"\d{6}/\d{4}"), (cz_rc,)),
    (re.compile(r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}"), (be_nn,)),  # BE rijksregisternummer
    (re.compile(r"756\.\d{4}\.\d{4}\.\d{2}"), (ch_ssn,)),  # CH AHV/AVS
    (
        re.compile(r"[12][ ]?\d{2}[ ]?\d{2}[ ]?(?:\d{2}|2[AB])[ ]?\d{3}[ ]?\d{3}[ ]?\d{2}"),
        (fr_nir,),
    ),  # FR NIR (sécurité sociale), 15 characters
    (re.compile(r"\d{6}-\d{7}"), (kr_rrn,)),  # KR resident registration number
    (re.compile(r"[1-8]\d{12}"), (ro_cnp,)),  # RO CNP
    (re.compile(r"\d{17}[\dX]"), (cn_ric,)),  # CN resident identity card
    (re.compile(r"\d{7}[A-W][A-IW]?"), (ie_pps,)),  # IE PPS number
)


def national_id_by_shape_valid(candidate: str) -> bool:
    """A national id in one of the distinctive layouts above whose check digits (and
    embedded birth date, where it has one) are right."""
    value = candidate.strip().upper()
    return any(
        shape.fullmatch(value) and any(module.is_valid(value) for module in modules)  # type: ignore[attr-defined]
        for shape, modules in _NATIONAL_ID_SHAPES
    )


def domestic_account_valid(candidate: str) -> bool:
    """A bank account in a domestic layout with check digits: a Spanish CCC (20 digits,
    two check digits) or a Polish NRB (26 digits: the IBAN without its "PL"), or a full IBAN
    in any layout and case."""
    compact = re.sub(r"[\s./-]", "", candidate)
    if compact.isdigit() and len(compact) == 20:
        return es_ccc.is_valid(compact)
    if compact.isdigit() and len(compact) == 26:
        return iban_valid("PL" + compact)
    return iban_valid(compact)
