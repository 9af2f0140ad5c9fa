"""Each regex category: what it must find, and look-alikes it must leave alone."""

from __future__ import annotations

import time

import pytest

from anonymizer.detection.categories import PLACEHOLDERS
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import (
    RULES,
    RegexDetector,
    iter_matches,
    lower_same_length,
    rule_table,
)
from bench.corpus import generate_corpus

DETECTOR = RegexDetector()
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"


def found(text: str) -> dict[str, str]:
    """Surface -> category after overlap resolution."""
    return {text[d.start : d.end]: d.category for d in resolve_overlaps(DETECTOR.detect(text))}


def assert_finds(text: str, surface: str, category: str) -> None:
    result = found(text)
    assert result.get(surface) == category, f"{surface!r} not found as {category!r} in {result}"


def assert_no(text: str, category: str) -> None:
    result = found(text)
    assert category not in result.values(), f"unexpected {category!r}: {result}"


POSITIVE = [
    ("Write to jane.doe+news@example.co.uk today.", "jane.doe+news@example.co.uk", "email address"),
    ("Call +44 20 7946 0958 now.", "+44 20 7946 0958", "phone number"),
    ("Call (415) 555-0188 now.", "(415) 555-0188", "phone number"),
    ("Call +49 30 901820 now.", "+49 30 901820", "phone number"),
    ("Call 0044 20 7946 0958 now.", "0044 20 7946 0958", "phone number"),
    ("Call +33 (0)3 87 17 77 63 now.", "+33 (0)3 87 17 77 63", "phone number"),
    ("Call 217-977-6317x066 now.", "217-977-6317x066", "phone number"),
    ("My new number is 606 167 513, thanks.", "606 167 513", "phone number"),
    ("SSN 123-45-6789 on file.", "123-45-6789", "ssn"),
    ("Hosts 192.168.1.20 and", "192.168.1.20", "ip address"),
    ("Seen from 2001:db8::1 again.", "2001:db8::1", "ip address"),
    ("Seen from fe80::1ff:fe23:4567:890a again.", "fe80::1ff:fe23:4567:890a", "ip address"),
    ("Device 00:1A:2B:3C:4D:5E joined.", "00:1A:2B:3C:4D:5E", "mac address"),
    ("See https://example.org/a?b=1.", "https://example.org/a?b=1", "url"),
    ("See www.example.com, thanks", "www.example.com", "url"),
    ("passport no. X1234567 expires", "X1234567", "passport number"),
    ("He was born on 3 May 1980 in a village.", "3 May 1980", "date of birth"),
    ("DOB: 1980-05-03", "1980-05-03", "date of birth"),
    ("Acme Corp. hired him.", "Acme Corp.", "organization"),
    ("He works for Müller GmbH now.", "Müller GmbH", "organization"),
    ("Invoices from Foo Ltd arrive monthly.", "Foo Ltd", "organization"),
    ("Qux S.A. signed.", "Qux S.A.", "organization"),
    ("She studied at the University of Leeds.", "University of Leeds", "organization"),
    ("She lives at 123 Main Street with her dog.", "123 Main Street", "street address"),
    ("Deliver to 10 Downing St today.", "10 Downing St", "street address"),
    ("Er wohnt in der Hauptstraße 5 seit Mai.", "Hauptstraße 5", "street address"),
    ("Elle habite 12, rue de la Paix depuis mars.", "12, rue de la Paix", "street address"),
    ("Springfield, IL 62704-1234", "62704-1234", "postal code"),
    ("London SW1A 2AA is the postcode.", "SW1A 2AA", "postal code"),
    ("Hauptstraße 5\n10115 Berlin", "10115", "postal code"),
    ("He is 42 years old.", "42 years old", "age"),
    ("A 42-year-old man.", "42-year-old", "age"),
    ("Patient aged 42 presented.", "42", "age"),
    ("routing number 021000021 for the wire", "021000021", "routing number"),
    ("account number: 12345678 at the bank", "12345678", "bank account number"),
    ("IBAN DE89 3704 0044 0532 0130 00 please", "DE89 3704 0044 0532 0130 00", "iban"),
    ("pay GB82WEST12345698765432 today", "GB82WEST12345698765432", "iban"),
    ("SWIFT: DEUTDEFF for the transfer", "DEUTDEFF", "swift/bic"),
    ("via COBADEFFXXX today", "COBADEFFXXX", "swift/bic"),
    ("card 4111 1111 1111 1111 expires", "4111 1111 1111 1111", "card number"),
    ("EIN 12-3456789 of the firm", "12-3456789", "ein"),
    ("Driver's license D1234-5678 was scanned.", "D1234-5678", "driver's license"),
    ("license plate: 7ABC123 was seen", "7ABC123", "license plate"),
    ("MRN: 00123456 admitted", "00123456", "medical record number"),
    ("see ticket #INC-12345 for details", "INC-12345", "reference id"),
    ("ref: ABC-2024-0012 attached", "ABC-2024-0012", "reference id"),
    ("Employee ID: E12345 started", "E12345", "internal id"),
    (
        "pay 1BoatSLRHtKNngkdXEeobR76b53LETtpyT now",
        "1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
        "crypto wallet",
    ),
    (
        "pay bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq now",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "crypto wallet",
    ),
    (
        "to 0x52908400098527886E0F7030069857D2E4169EE7 now",
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "crypto wallet",
    ),
    ("ping @jdoe42 about it", "@jdoe42", "handle"),
    ("my username is gsegarra584.", "gsegarra584", "handle"),
    (
        "key sk-proj-abcdefghijklmnopqrstuvwx123 leaked",
        "sk-proj-abcdefghijklmnopqrstuvwx123",
        "secret",
    ),
    (
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "secret",
    ),
    (
        "token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv leaked",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
        "secret",
    ),
    ("slack xoxb-123456789012-abcdefghij leaked", "xoxb-123456789012-abcdefghij", "secret"),
    ("aws AKIAIOSFODNN7EXAMPLE leaked", "AKIAIOSFODNN7EXAMPLE", "secret"),
    (
        "maps AIzaSyA-1234567890abcdefghijklmnopqrstu leaked",
        "AIzaSyA-1234567890abcdefghijklmnopqrstu",
        "secret",
    ),
    ("gitlab glpat-abcdefghij1234567890 leaked", "glpat-abcdefghij1234567890", "secret"),
    (
        f"jwt {JWT} ok",
        JWT,
        "secret",
    ),
    (
        "client_secret = Zx9Kq2LmP7vR4tY8wB3nH6jF1sD5gA0c",
        "Zx9Kq2LmP7vR4tY8wB3nH6jF1sD5gA0c",
        "secret",
    ),
    ("random Zx9Kq2LmP7vR4tY8wB3nH6jF1sD5gA0c here", "Zx9Kq2LmP7vR4tY8wB3nH6jF1sD5gA0c", "secret"),
    ("the wifi password is Orbit*9318Q", "Orbit*9318Q", "secret"),
    ("the password was set to Autumn#643.", "Autumn#643", "secret"),
    ("IBAN GB77-BGGJ-6480-9438-8823-13, SWIFT", "GB77-BGGJ-6480-9438-8823-13", "iban"),
    ("IBAN GB82 WEST 1234 5698 7654 32 OK", "GB82 WEST 1234 5698 7654 32", "iban"),
    ("Charge the card 6763 8378 7998, expiry 09/28.", "6763 8378 7998", "card number"),
    ("Insurance ID DC087317D; SSN withheld", "DC087317D", "national id"),
    (
        "Requests came from 6b10:e53a:9145:de05:b3ab:1b2d:df26:f517.",
        "6b10:e53a:9145:de05:b3ab:1b2d:df26:f517",
        "ip address",
    ),
    ("a scan of my passport (K31783929) for the booking", "K31783929", "passport number"),
    ("Send it to 香港路S座, 151995 太原县.", "151995", "postal code"),
    ("Dr. Ana Müller will see you.", "Ana Müller", "full person name"),
    ("We wrote to Mr O'Neil yesterday.", "O'Neil", "full person name"),
    ("I came with my wife Maria.", "Maria", "full person name"),
    ("Patient: Jose Alvarez", "Jose Alvarez", "full person name"),
    ("patient: jose alvarez, 42", "jose alvarez", "full person name"),
    ("Signed, Kim Lee", "Kim Lee", "full person name"),
    ("Best regards,\nKim Lee\nAnalyst", "Kim Lee", "full person name"),
    ("Yesterday Maria Smith called.", "Maria Smith", "full person name"),
    ("Meeting with Łukasz Wiśniewski and", "Łukasz Wiśniewski", "full person name"),
    ("Иван Петров пришёл.", "Иван Петров", "full person name"),
    ("We met 王伟 in the lobby.", "王伟", "full person name"),
    ("[10:42] maria: see you soon", "maria", "full person name"),
    ("hey its me, my wife maria said hi", "maria", "full person name"),
]


@pytest.mark.parametrize(("text", "surface", "category"), POSITIVE)
def test_it_finds_each_category(text: str, surface: str, category: str) -> None:
    assert_finds(text, surface, category)


NEGATIVE = [
    ("Meeting on 2024-05-03 at 10:30.", "phone number"),
    ("The years 2019-2024 were good.", "phone number"),
    ("Revenue was 1 250 000 EUR and 1,250,000 USD.", "phone number"),
    ("Version 1.2.3 and pi 3.14159 and room 101.", "phone number"),
    ("Invoice 03/05/2024 was paid.", "phone number"),
    ("ref ABC-2024-0012 closed", "phone number"),
    ("SSN 123-45-6789 on file.", "phone number"),
    ("Area codes 000-12-3456 and 666-12-3456 are never issued.", "ssn"),
    ("bad card 4111 1111 1111 1112 here", "card number"),
    ("bad account DE89 3704 0044 0532 0130 01 here", "iban"),
    ("routing number 021000022 for the wire", "routing number"),
    ("The time was 10:30:00 and the ratio 3:2.", "ip address"),
    ("Version 999.1.2.3 shipped.", "ip address"),
    ("The password is required for login.", "secret"),
    ("snake_case_identifier_name_here is a variable", "secret"),
    ("see test_it_returns_404_for_other_users_job and jxm/gtr__nq__32__correct", "secret"),
    ("Token-level DP sanitizers are research code.", "secret"),
    ("People paste documents into LLMs every day.", "location"),
    ("The Privacy Policy and Customer Service Team.", "full person name"),
    ("In January we met in New York.", "full person name"),
    ("Terms and Conditions apply to Quarterly Business Review.", "full person name"),
    ("It took 5 years to finish.", "age"),
    ("PASSWORD DOCUMENT INFORMATION", "swift/bic"),
    ("The hash 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy is fine.", "full person name"),
]


@pytest.mark.parametrize(("text", "category"), NEGATIVE)
def test_it_leaves_look_alikes_alone(text: str, category: str) -> None:
    assert_no(text, category)


def test_it_rejects_card_numbers_failing_luhn() -> None:
    assert_finds("card 4111 1111 1111 1111 ok", "4111 1111 1111 1111", "card number")
    assert_no("card 4111 1111 1111 1112 ok", "card number")


def test_it_rejects_ibans_failing_mod_97() -> None:
    assert_finds("paid to GB82 WEST 1234 5698 7654 32", "GB82 WEST 1234 5698 7654 32", "iban")
    assert_no("paid to GB82 WEST 1234 5698 7654 33", "iban")
    assert_no("paid to GB83 WEST 1234 5698 7654 32", "iban")


def test_after_the_word_iban_a_mistyped_iban_still_counts() -> None:
    # People type IBANs by hand; after the keyword the layout is evidence enough.
    assert_finds("IBAN GB82 WEST 1234 5698 7654 33", "GB82 WEST 1234 5698 7654 33", "iban")
    assert_no("IBAN GB82 WEST 1234", "iban")  # too short for any country


def test_it_rejects_crypto_addresses_with_bad_checksums() -> None:
    assert_no("pay 1BoatSLRHtKNngkdXEeobR76b53LETtpyX now", "crypto wallet")
    assert_no("pay bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx now", "crypto wallet")


def test_context_rules_keep_the_keyword_out_of_the_span() -> None:
    text = "passport no. X1234567"
    (detection,) = [d for d in DETECTOR.detect(text) if d.category == "passport number"]
    assert text[detection.start : detection.end] == "X1234567"


def test_capitalised_pairs_lose_sentence_initial_common_words() -> None:
    assert_finds("Please ask Maria Lopez.", "Maria Lopez", "full person name")
    assert "Please ask Maria Lopez" not in found("Please ask Maria Lopez.")


def test_every_rule_has_a_known_category_and_a_unique_id() -> None:
    ids = [r.rule_id for r in RULES]
    assert len(ids) == len(set(ids))
    assert all(r.category in PLACEHOLDERS and r.rationale for r in RULES)
    rows = rule_table()
    assert len(rows) == len(RULES)
    assert {"id", "category", "placeholder", "confidence", "rationale"} <= set(rows[0])


SAMPLE = (
    "Dear Maria,\nMy wife Ana and Dr. O'Neil met at 12 rue de la Paix. Call me at +44 20 7946 "
    "0958 or my new number is 606 167 513. Ticket INC-12345, order 4829-3321, ref: AB-77. "
    "Born on 3 May 1980; DOB: 1980-05-03. Patient: jose alvarez. password: Sunflower#12. "
    "Username is kuno_65. Best regards,\nKim Lee\n[10:42] maria: my name is Tom Riddle. "
    "Keys: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv, AKIAIOSFODNN7EXAMPLE, "
    "xoxb-123456789012-abcdefghij, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijkl, "
    "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, https://x.org, www.y.com, @h_1, PO Box 12, "
    "card 6763 8378 7998, IBAN DE89 3704 0044 0532 0130 00, SWIFT DEUTDEFF, MRN 1234567, "
    "Insurance ID DC087317D, plate 7ABC123, DL D1234567, passport X1234567, routing 021000021. "
    "İstanbul and Muğla, my doctor Çelik. Thanks Jo. ул. Ленина 5, 10115 Berlin.\n"
)


def test_anchored_rules_find_the_same_matches_as_a_full_scan() -> None:
    lowered = lower_same_length(SAMPLE)
    for rule in RULES:
        if not rule.anchors:
            continue
        anchored = [m.span() for m in iter_matches(rule, SAMPLE, lowered)]
        full = [m.span() for m in rule.pattern.finditer(SAMPLE)]
        assert anchored == full, rule.rule_id


def test_anchored_rules_agree_with_a_full_scan_on_the_benchmark_corpus() -> None:
    text = "\n\n".join(doc["text"] for doc in generate_corpus(150, seed=4))
    lowered = lower_same_length(text)
    for rule in RULES:
        if rule.anchors:
            anchored = [m.span() for m in iter_matches(rule, text, lowered)]
            assert anchored == [m.span() for m in rule.pattern.finditer(text)], rule.rule_id


def test_lower_case_copy_keeps_offsets_for_dotted_capital_i() -> None:
    assert len(lower_same_length("İzmir İstanbul")) == len("İzmir İstanbul")
    assert found("Patient: İlker Yılmaz")  # anchors still work after an expanding character


@pytest.mark.parametrize(
    "text",
    [
        "1" * 100_000,
        "1 " * 50_000,
        "Ab-" * 30_000,
        "Abc " * 50_000,
        "a1" * 50_000,
        "a:" * 50_000,
        "a@" * 50_000,
        "a." * 50_000,
        "12-" * 30_000,
        "x" * 5_000 + "@",
        "my " * 30_000,
        "Dear " * 20_000,
        "王" * 50_000,
    ],
)
def test_it_stays_fast_on_pathological_input(text: str) -> None:
    start = time.process_time()
    DETECTOR.detect(text)
    assert time.process_time() - start < 3.0
