"""The redact mechanism and the regex detector basics it relies on."""

import json

from anonymizer import Settings, rewrite
from anonymizer.cli import main
from anonymizer.detection.regex import RegexDetector, luhn_valid

REGEX = {"mechanism": "redact", "detector": "regex"}


def test_luhn_accepts_valid_and_rejects_invalid_cards():
    assert luhn_valid("4111 1111 1111 1111")
    assert not luhn_valid("4111 1111 1111 1112")


def test_regex_detector_finds_email_phone_ip_url_and_card():
    text = (
        "Mail jane@example.com, call +1 415-555-0188, host 10.0.0.12, "
        "see https://example.org/x and pay 4111-1111-1111-1111."
    )
    found = {d.category for d in RegexDetector().detect(text)}
    assert {"email address", "phone number", "ip address", "url", "card number"} <= found


def test_redact_replaces_detected_spans_and_keeps_the_rest():
    result = rewrite("Write to jane@example.com today.", **REGEX)
    assert result.output == "Write to [EMAIL] today."
    assert [s.is_pii for s in result.spans] == [False, True, False]
    assert "".join(s.text for s in result.spans) == result.original


def test_redact_receipt_claims_no_guarantee():
    receipt = rewrite("Write to jane@example.com today.", **REGEX).receipt
    assert receipt.notion == "none" and receipt.sigma is None and receipt.n_chunks == 0
    assert any("No formal privacy guarantee" in c for c in receipt.caveats)
    assert len(receipt.input_sha256) == 64 and receipt.seeded is False


def test_allow_and_deny_lists_and_whitelist_apply():
    text = "Ping ops@example.com or Project Falcon at +44 20 7946 0958."
    settings = Settings(
        mechanism="redact",
        detector="regex",
        allow_list=("ops@example.com",),
        deny_list=("project falcon",),
        whitelist_categories=("phone number",),
    )
    result = rewrite(text, settings)
    assert result.output == "Ping ops@example.com or [REDACTED] at +44 20 7946 0958."


def test_cli_prints_the_seed_json_format(capsys):
    assert (
        main(["--mechanism", "redact", "--detector", "regex", "--text", "a@b.co hi", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["output"] == "[EMAIL] hi"
    for key in (
        "original",
        "spans",
        "epsilon_total",
        "delta_total",
        "epsilon_per_chunk",
        "delta_per_chunk",
        "sigma",
        "clip_radius",
        "n_chunks",
        "receipt",
    ):
        assert key in data
    assert data["receipt"]["mechanism"] == "redact"


def test_cli_text_format_ends_with_the_receipt_line(capsys):
    assert main(["--mechanism", "redact", "--detector", "regex", "--text", "a@b.co hi"]) == 0
    out = capsys.readouterr().out
    assert "=== ORIGINAL ===" in out and "=== OUTPUT ===" in out
    assert "[DP] mechanism=redact notion=none" in out


def test_cli_rejects_bad_input_with_status_2_and_one_line(capsys):
    assert main(["--mechanism", "redact", "--epsilon", "nan", "--text", "x"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: epsilon") and "\n" not in err
    assert main(["--mechanism", "nope", "--text", "x"]) == 2
    assert main(["--mechanism", "redact", "--text", "   "]) == 2
