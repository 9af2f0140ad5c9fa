"""Session 18: dates as mail clients write them in other languages ("wt., 8 kwi 2025") and
lower-case months before an ordinal day ("nov. 3rd"); the owner of a repository in an SSH
remote (git@github.com:owner/repo.git), which is not an e-mail address; the PNC number and the
Dutch "kenmerk" as reference keys; GPO Box, Locked Bag, Private Bag and PMB addresses; a name
alone on its line below a sign-off of another language (nga mihi, Pozdrawiam), not a team; and
three false readings: a key taken for its value (User: uid=...), what a speaker says taken for
a name (Customer: good afternoon), and a German word taken for a login.
Every example was written for this test; none comes from an evaluation set. Each positive
case fails on the detector of the last landed release (622d3fa) except the "kenmerk" one,
whose value that release already found by its shape (the nationality and signature cases by
the rule that now finds them); each negative case guards a reading the rule must not take."""

from __future__ import annotations

import pytest

from anonymizer.detection.regex import RegexDetector
from tests.anonymizer.detection.span_helpers import found_spans as _found
from tests.anonymizer.detection.span_helpers import raw_spans as _raw

RULES = RegexDetector()


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Od: Ola Nowak\nDate: pt., 14 lut 2025 o 09:05\nTemat: faktura", "14 lut 2025"),
        ("Le mar. 8 avr. 2025 à 10:12, Lucie a écrit :", "8 avr. 2025"),
        ("El jue, 3 de abr. de 2025, 17:40, Pilar escribió:", "3 de abr. de 2025"),
        ("Op wo 12 mrt 2025 om 08:15 schreef Daan:", "12 mrt 2025"),
        ("Am Mo., 6. Okt. 2025 um 09:00 schrieb Jens:", "6. Okt. 2025"),
    ],
)
def test_a_day_and_an_abbreviated_month_of_another_language_with_a_year(text, date):
    assert date in _raw(RULES.detect(text), text, "date")


@pytest.mark.parametrize("text", ["we need 3 mar 4 sie now", "kwi 2025 plan", "lis 12 2025"])
def test_an_abbreviation_without_a_day_and_a_year_is_no_date(text):
    found = [
        d for d in RULES.detect(text) if d.category == "date" and d.rule_id == "date_intl_abbrev"
    ]
    assert found == []


@pytest.mark.parametrize(
    ("text", "date"),
    [("Mpls\nnov. 3rd\n\nDear Ruth,", "nov. 3rd"), ("party is june 14th at mine", "june 14th")],
)
def test_a_lower_case_month_before_an_ordinal_day(text, date):
    assert date in _found(RULES.detect(text), text, "date")


def test_may_before_an_ordinal_stays_a_verb_reading_only_when_written_may():
    text = "you may 3rd-party the job"
    assert _found(RULES.detect(text), text, "date") == []


def test_the_owner_of_a_repository_in_an_ssh_remote_is_a_handle_not_an_email():
    text = "git clone git@github.com:tkowalczyk/ledger-api.git && cd ledger-api"
    detections = RULES.detect(text)
    assert _found(detections, text, "handle") == ["tkowalczyk"]
    assert _found(detections, text, "email address") == []


def test_an_email_address_of_a_git_user_stays_an_email():
    text = "send it to git@example.org today"
    assert _found(RULES.detect(text), text, "email address") == ["git@example.org"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("CRN: X118204\nPNC: 2021/0338812M\n", "2021/0338812M"),
        ("Ons kenmerk      BZV-2024-0071\n", "BZV-2024-0071"),
    ],
)
def test_pnc_and_kenmerk_are_reference_keys(text, value):
    assert value in _found(RULES.detect(text), text, "reference id")


@pytest.mark.parametrize(
    "box", ["Locked Bag 7012", "Private Bag 3019", "GPO Box 1144", "PMB 2210", "P.M.B. 1007"]
)
def test_bag_and_mail_boxes_are_postal_addresses(box):
    text = f"Harbour Services\n{box}, Wellington 6140"
    assert box in _found(RULES.detect(text), text, "street address")


def test_a_private_bag_needs_its_number():
    text = "leave it in a private bag by the door"
    assert _found(RULES.detect(text), text, "street address") == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("if you're running late text me first\n\nnga mihi\naroha\n", "aroha"),
        ("Dziękuję za szybką odpowiedź w tej sprawie.\nPozdrawiam\nKasia\n", "Kasia"),
        ("Danke für die schnelle Antwort.\nViele Grüße\nJannik\n", "Jannik"),
    ],
)
def test_a_name_alone_below_a_sign_off_of_another_language(text, name):
    assert name in _found(RULES.detect(text), text, "full person name")


@pytest.mark.parametrize(
    "text",
    [
        "Gracias por su paciencia, estamos revisando su caso.\nSaludos cordiales,\nEquipo de "
        "soporte\n",
        "Merci pour votre message, nous revenons vers vous.\nCordialement,\nService client\n",
        "Vielen Dank für Ihre Geduld mit uns.\nMit freundlichen Grüßen\nIhr Kundenservice\n",
    ],
)
def test_a_team_below_a_sign_off_is_no_name(text):
    assert [d for d in RULES.detect(text) if d.rule_id == "person_signoff_intl"] == []


def test_a_key_after_a_user_label_is_not_taken_for_the_user():
    text = "User:                uid=jp_0048213\nLocale: ja_JP"
    handles = _found(RULES.detect(text), text, "handle")
    assert "uid" not in handles


@pytest.mark.parametrize("text", ["Customer: good afternoon. i want to know", "Agent: hello there"])
def test_what_a_speaker_says_is_no_name(text):
    assert [d for d in RULES.detect(text) if d.rule_id == "person_label"] == []


def test_a_word_of_another_language_is_no_login():
    text = "Uni-Login gesperrt, the user account gesperrt since Monday"
    assert _found(RULES.detect(text), text, "handle") == []


def test_an_unknown_lower_case_login_still_is_one():
    text = "pulled the logs for user dfurlong yesterday"
    assert _found(RULES.detect(text), text, "handle") == ["dfurlong"]


def test_the_combined_detector_keeps_a_sign_off_name_and_the_git_owner(combined):
    text = (
        "rota is up, shout if it doesnt work\n\nnga mihi\naroha\n\n"
        "fix is in git@gitlab.com:awhina-dev/rota.git"
    )
    detections = combined.detect(text)
    assert "aroha" in _found(detections, text, "full person name")
    assert "awhina-dev" in _found(detections, text, "handle")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("thanks again, see you on the 24th!\n\nTavita\n0917 842 3316\n", "Tavita"),
        ("Best of luck with it.\n\nOluwaseun Bakare\nm. +234 803 555 0142\n", "Oluwaseun Bakare"),
        ("ok see u then\n\nKoffi\nkoffi.mensah@example.com\n", "Koffi"),
    ],
)
def test_a_name_alone_above_a_phone_or_an_email_is_a_signature(text, name):
    signatures = [d for d in RULES.detect(text) if d.rule_id == "person_signature_line"]
    assert [text[d.start : d.end] for d in signatures] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "Regards\n\nCustomer Service\n+44 20 7946 0000\n",
        "Summary\n\nTotal\n1 234 567\n",
        "see below\n\nReception\nfrontdesk@example.com\n",
    ],
)
def test_a_team_or_a_label_above_a_number_is_no_signature(text):
    assert [d for d in RULES.detect(text) if d.rule_id == "person_signature_line"] == []


@pytest.mark.parametrize(
    ("text", "nationality"),
    [
        ("He was always so proud to be Norwegian, even after all those years.", "Norwegian"),
        ("being Welsh, she took the St David's Day shift", "Welsh"),
    ],
)
def test_a_nationality_said_of_a_person_after_to_be_or_being(text, nationality):
    said = [d for d in RULES.detect(text) if d.rule_id == "nationality_of_person"]
    assert [text[d.start : d.end] for d in said] == [nationality]


def test_a_nationality_before_a_thing_after_to_be_is_not_said_of_a_person():
    text = "the new menu seems to be Italian food mostly"
    assert [d for d in RULES.detect(text) if d.rule_id == "nationality_of_person"] == []


def test_a_one_word_name_joined_to_a_person_is_a_name(combined):
    text = (
        "From: Mele Taufa <mele.t@example.org>\n\nrota for next week\n"
        "mon - Mele + wiremu (sorting)\ntue - hemi\n"
    )
    assert "wiremu" in _found(combined.detect(text), text, "full person name")


def test_a_word_joined_to_a_person_is_no_name(combined):
    text = "From: Mele Taufa <mele.t@example.org>\n\nMele + sorting on monday, Mele and bread run"
    names = _found(combined.detect(text), text, "full person name")
    assert "sorting" not in names and "bread" not in names


def test_a_hyphenated_given_name_spreads_in_lower_case(combined):
    text = (
        "On Thu, Jin-woo Park <jw.park@example.com> wrote:\n> can do wed\n\n"
        "ok so wed is jin-woo and me"
    )
    assert "jin-woo" in _found(combined.detect(text), text, "full person name")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Uw relatienummer 51170932\nDatum 3 maart 2025", "51170932"),
        ("Ihre Kundennummer: 7731-220-05 (bitte angeben)", "7731-220-05"),
        ("Asiakasnumero 448120, laskun päivä", "448120"),
    ],
)
def test_customer_numbers_in_dutch_german_and_finnish(text, value):
    found = [d for d in RULES.detect(text) if d.rule_id == "internal_id"]
    assert [text[d.start : d.end] for d in found] == [value]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("if ur late text me first or wiremu on 027 315 9920 ok", "wiremu"),
        ("pls ring Thandeka on +27 82 555 0199 before noon", "Thandeka"),
    ],
)
def test_a_name_before_on_and_a_phone_number(text, name):
    found = [d for d in RULES.detect(text) if d.rule_id == "person_before_phone"]
    assert [text[d.start : d.end] for d in found] == [name]


@pytest.mark.parametrize(
    "text",
    ["call later on 0800 123 456", "or maybe on 12 03 2025 instead", "and then at 0900 1230"],
)
def test_a_word_before_on_and_a_number_is_no_name(text):
    assert [d for d in RULES.detect(text) if d.rule_id == "person_before_phone"] == []


def test_the_account_holder_before_a_sort_code():
    text = "bank details for when you come: T Okafor, 30-91-22, 71920455"
    found = [d for d in RULES.detect(text) if d.rule_id == "person_before_sort_code"]
    assert [text[d.start : d.end] for d in found] == ["T Okafor"]


def test_a_label_before_a_sort_code_is_no_holder():
    text = "Account Name 30-91-22 and Sort Code 30-91-22"
    assert [d for d in RULES.detect(text) if d.rule_id == "person_before_sort_code"] == []


@pytest.mark.parametrize("number", ["0000412345", "0000 418 275"])
def test_a_number_with_four_leading_zeros_is_no_phone(number):
    from anonymizer.detection.checksums import phone_plausible

    assert not phone_plausible(number)


@pytest.mark.parametrize("number", ["0044 20 7946 0000", "0048 601 233 874"])
def test_an_international_number_after_00_stays_a_phone(number):
    from anonymizer.detection.checksums import phone_plausible

    assert phone_plausible(number)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("ACME Widgets 12-03-24 and Kick Off 12-03-24", "person_before_sort_code"),
        ("and Wellington on 2025-03-12 we met", "person_before_phone"),
        ("ok\n\nChangelog\n2024-01-15\n", "person_signature_line"),
        ("Pozdrawiam\nZespół Obsługi\n", "person_signoff_intl"),
        ("scored 10 out 1000 points", "date_intl_abbrev"),
        ("ssh://git@github.com:22/owner/repo.git", "git_remote_owner"),
    ],
)
def test_dates_ports_teams_and_counts_are_not_what_the_new_rules_read(text, rule):
    assert [d for d in RULES.detect(text) if d.rule_id == rule] == []


def test_an_email_before_a_colon_stays_an_email():
    text = "send to git@example.org: it bounced"
    assert _found(RULES.detect(text), text, "email address") == ["git@example.org"]
