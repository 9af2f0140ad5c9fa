"""Check digits and shape checks behind the number-like rules."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from anonymizer.detection.checksums import (
    aadhaar_valid,
    aba_routing_valid,
    base58check_valid,
    bech32_valid,
    cpf_valid,
    fodselsnummer_valid,
    iban_valid,
    ipv4_valid,
    ipv6_valid,
    looks_like_secret,
    luhn_valid,
    pesel_valid,
    phone_plausible,
    shannon_entropy,
    ssn_valid,
)
from bench.corpus import btc_base58, btc_bech32


def test_luhn_accepts_real_test_cards_and_rejects_one_digit_changes() -> None:
    for card in ("4111111111111111", "5500 0000 0000 0004", "3400-000000-00009"):
        assert luhn_valid(card)
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("4111")  # too short to be a card


def test_iban_needs_mod_97_and_the_country_length() -> None:
    assert iban_valid("DE89 3704 0044 0532 0130 00")
    assert iban_valid("GB82WEST12345698765432")
    assert not iban_valid("DE89 3704 0044 0532 0130 01")  # check digits
    assert not iban_valid("DE89 3704 0044 0532 0130 0")  # German IBANs have 22 characters
    assert not iban_valid("DE89-ÄÖÜ")


def test_aba_routing_checksum() -> None:
    assert aba_routing_valid("021000021")
    assert aba_routing_valid("011401533")
    assert not aba_routing_valid("021000022")
    assert not aba_routing_valid("000000000")


def test_bitcoin_checksums_accept_generated_addresses_and_reject_typos() -> None:
    rng = random.Random(3)
    for _ in range(20):
        legacy, segwit = btc_base58(rng), btc_bech32(rng)
        assert base58check_valid(legacy) and bech32_valid(segwit)
        assert not base58check_valid(legacy[:-1] + ("2" if legacy[-1] != "2" else "3"))
        assert not bech32_valid(segwit[:-1] + ("q" if segwit[-1] != "q" else "p"))
    assert not bech32_valid("bc1QAR0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")  # mixed case


def test_ip_checks() -> None:
    assert ipv4_valid("192.168.1.20") and ipv4_valid("10.0.0.0/8")
    assert not ipv4_valid("256.1.1.1")
    assert ipv6_valid("2001:db8::1") and ipv6_valid("::1")
    assert not ipv6_valid("10:30:00") and not ipv6_valid("::")


def test_ssn_rules_out_never_issued_numbers() -> None:
    assert ssn_valid("123-45-6789")
    for bad in ("000-12-3456", "666-12-3456", "912-12-3456", "123-00-4567", "123-45-0000"):
        assert not ssn_valid(bad)


def test_phone_layouts() -> None:
    for phone in (
        "+44 20 7946 0958",
        "(415) 555-0188",
        "0044 20 7946 0958",
        "030 1234567",
        "415.555.0188",
        "555-0188",
        "+1-415-555-0188 ext. 12",
    ):
        assert phone_plausible(phone), phone
    for other in (
        "2024-05-03",
        "03/05/2024",
        "1 250 000",
        "2019-2024",
        "123-45-6789",
        "12345678",
        "1.2.3.4.5.6.7",
    ):
        assert not phone_plausible(other), other


def test_secret_heuristic_wants_length_entropy_and_no_words() -> None:
    assert looks_like_secret("Zx9Kq2LmP7vR4tY8wB3nH6jF1sD5gA0c")
    assert looks_like_secret("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b")  # hex digest
    assert not looks_like_secret("Zx9Kq2LmP7")  # too short
    assert not looks_like_secret("snake_case_identifier_name_2")  # word-like runs
    assert not looks_like_secret("aaaaaaaaaaaaaaaaaaaaaaa1")  # low entropy
    assert shannon_entropy("abab") == 1.0


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aAbZ09_-+/=ÉéK", min_size=1, max_size=60))
def test_entropy_is_bit_for_bit_the_counter_based_formula(value: str) -> None:
    counts = Counter(value)  # the formula as first written: Counter order, same operations
    n = len(value)
    assert shannon_entropy(value) == -sum(c / n * math.log2(c / n) for c in counts.values())


# Edge cases where python-stdnum's validators differ from the hand-written ones they replaced.


def test_ssn_rejects_the_published_sample_numbers() -> None:
    assert not ssn_valid("078-05-1120")  # the Woolworth wallet card
    assert not ssn_valid("219-09-9999")
    assert ssn_valid("078-05-1121")


def test_a_cpf_of_one_repeated_digit_stays_rejected() -> None:
    assert not cpf_valid("111.111.111-11")  # stdnum alone accepts it
    assert cpf_valid("529.982.247-25")


def test_aadhaar_rejects_a_palindrome_even_with_a_valid_check_digit() -> None:
    assert not aadhaar_valid("2000 0990 0002")


def test_pesel_covers_every_century_its_month_offsets_encode() -> None:
    assert pesel_valid("02270803624")  # born 2002: month + 20
    assert pesel_valid("90890106380")  # born 1890: month + 80


def test_fodselsnummer_rejects_a_birth_date_in_the_future() -> None:
    assert fodselsnummer_valid("31122640003")  # individual number 400: born 1926
    assert not fodselsnummer_valid("31123950057")  # 500-999 with year 39: born 2039
