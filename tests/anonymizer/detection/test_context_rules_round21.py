"""Session 17: the text as the detector reads it (`view.py`): line breaks written as escapes
(`\\n` in JSON strings, logs and exports), Windows and old Mac line ends, and no-break and
typographic spaces read as plain breaks and spaces at the same offsets; the lines below a
street line that end its address block (a suite, a town, a country, each with its postcode);
a phone number after a comma (a CSV cell) or labelled right after (555 123 4567 (office),
374 780 163-Fax); Asian legal forms written "Co.,Ltd." and company names in capitals.
Every example was written for this test; none comes from an evaluation set. Each positive
case fails on the detector of the last landed release (7a000bc), and each negative case
guards a reading the rule must not take."""

from __future__ import annotations

import pytest

from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import RegexDetector
from anonymizer.detection.view import detection_view, escaped_breaks_as_breaks

RULES = RegexDetector()


@pytest.fixture(scope="module")
def combined():
    from anonymizer.detection.combined import CombinedDetector

    return CombinedDetector()


def _found(detections, text: str, category: str) -> list[str]:
    return [text[d.start : d.end] for d in detections if d.category == category]


def test_escaped_breaks_become_breaks_at_the_same_offsets():
    text = r"Hanna Berg\n14 Mill Lane\r\nLeeds\tUK"
    view = escaped_breaks_as_breaks(text)
    assert len(view) == len(text)
    assert view.splitlines()[1].strip() == "14 Mill Lane"
    assert view == "Hanna Berg \n14 Mill Lane \r \nLeeds \tUK"


@pytest.mark.parametrize("path", [r"C:\new\temp\notes.txt", r"C:\Users\nina\tools"])
def test_an_escape_before_a_lower_case_letter_is_left_alone(path):
    assert escaped_breaks_as_breaks(path) == path


def test_a_text_escaped_throughout_has_its_lower_case_lines_and_quotes_undone():
    text = r'{"body": "Hi,\nthe key for \"Halima Yusuf\" is at desk 4.\nbtw call her"}'
    view = escaped_breaks_as_breaks(text)
    assert len(view) == len(text)
    assert view.splitlines()[1:] == [
        'the key for  "Halima Yusuf"  is at desk 4. ',
        'btw call her"}',
    ]


def test_one_escape_alone_does_not_make_a_text_escaped():
    text = r"Logs in C:\temp\nightly and one line\n"
    assert escaped_breaks_as_breaks(text) == text.replace("line\\n", "line \n")


def test_windows_line_ends_and_unusual_spaces_become_plain_at_the_same_offsets():
    text = "Dr\u00a0Ana Lima\r\n12\u202fRua Augusta\rLisboa\u2009Portugal"
    view = detection_view(text)
    assert len(view) == len(text)
    assert view == "Dr Ana Lima \n12 Rua Augusta\nLisboa Portugal"
    assert detection_view("plain text\twith a tab\n") == "plain text\twith a tab\n"


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        (
            "Please\u00a0contact\u00a0Jarosław\u00a0Wójcik\u00a0at\u00a014\u00a0Mill\u00a0Lane.",
            "street address",
            "14\u00a0Mill\u00a0Lane",
        ),
        ("To: Grace Mbeki\r\n22 Acacia Avenue\r\nSuite 5\r\nMOKOPANE\r\n", "location", "MOKOPANE"),
    ],
)
def test_text_with_no_break_spaces_and_windows_line_ends_is_read_as_plain_text(
    combined, text, category, value
):
    found = combined.detect(text)
    start = text.index(value)
    assert any(
        d.category == category and d.start <= start and start + len(value) <= d.end for d in found
    )


LETTER = """Dear Ms Halvorsen,

Your parcel for Rukmini Iyer was returned to our depot at 41 Sandown Road, Deal CT14 6PQ.
Please call Tobias Engström on 020 7946 0321 or write to t.engstrom@example.net.

Reference: RMA-448120
Kind regards,
Bogdan Petrescu
"""


def test_reply_quote_markers_become_spaces_at_line_starts_only():
    text = "> Hi Ana,\n>> flat 4, 12 Elm Rd\n> > ok\nif a > b then\n>no space"
    view = detection_view(text)
    assert len(view) == len(text)
    assert view.splitlines() == [
        "  Hi Ana,",
        "   flat 4, 12 Elm Rd",
        "    ok",
        "if a > b then",
        ">no space",
    ]


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda t: t.replace("\n", "\r\n"),
        lambda t: t.replace("\n", "\r"),
        lambda t: t.replace(" ", "\u00a0"),
        lambda t: t.replace(" ", "\u202f").replace("\n", "\r\n"),
        lambda t: "> " + t.replace("\n", "\n> "),
    ],
    ids=["crlf", "cr", "nbsp", "narrow-nbsp-crlf", "reply-quoted"],
)
def test_line_ends_and_spaces_do_not_change_what_is_found(combined, rewrite):
    """The same letter with other line ends or spaces: the same strings are found."""

    def found(text: str) -> set[tuple[str, str]]:
        return {
            (" ".join(text[d.start : d.end].split()), d.category)
            for d in resolve_overlaps(combined.detect(text))
        }

    assert found(rewrite(LETTER)) == found(LETTER)


def test_an_address_block_written_with_escaped_breaks_is_read_line_by_line(combined):
    text = (
        r'{"to": "Ilse Vandermeulen\n\n212 Kortrijksesteenweg\n Bus 4\n GENTBRUGGE\n Belgium 9050"}'
    )
    found = combined.detect_resolved(text)
    assert "212 Kortrijksesteenweg" in _found(found, text, "street address")
    assert "GENTBRUGGE" in _found(found, text, "location")
    assert "9050" in _found(found, text, "postal code")


def _covered(detections, text: str, value: str) -> bool:
    start = text.index(value)
    return any(d.start <= start and start + len(value) <= d.end for d in detections)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Ilse Vandermeulen\n212 Kortrijksesteenweg\nBus 4\nGENTBRUGGE\nBelgium 9050", "Bus 4"),
        ("Mr. Tomas Riha Apt. 14 9 Dlouhá 12\nHOLOUBKOV nan 33801", "HOLOUBKOV"),
    ],
)
def test_the_lines_of_an_address_block_below_its_street_line(combined, text, value):
    assert _covered(combined.detect(text), text, value)


@pytest.mark.parametrize(
    "text",
    [
        "Please send it to 14 Elm Road\nKind regards\nPriya",
        "Return to 14 Elm Road\nThank You\nfor shopping",
        "We met at 3 Cherry Street\nMonday Morning was busy",
    ],
)
def test_a_closing_line_below_a_street_is_no_place(combined, text):
    places = _found(combined.detect_resolved(text), text, "location")
    assert not any(w in " ".join(places) for w in ("Kind", "Thank", "Monday"))


def test_a_number_inside_a_sentence_before_a_street_stays_as_it_is(combined):
    text = "We counted 240 3 Main Street residents."
    assert "240" not in _found(combined.detect_resolved(text), text, "street address")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("id,name,mobile\n7,Ana Ruiz,+34 612 345 678\n", "+34 612 345 678"),
        ("Contacts: Tom Hale,+447700900123,Leeds", "+447700900123"),
        ("Kontakt: Mia Lund,(08) 123 456 78,Malmö", "(08) 123 456 78"),
        ("Jo Reyes 415 555 0142 (office)", "415 555 0142"),
        ("Front desk 361 442 918-Office / 361 442 919-Fax", "361 442 918"),
        ("Front desk 361 442 918-Office / 361 442 919-Fax", "361 442 919"),
    ],
)
def test_phone_numbers_after_a_comma_or_labelled_after(text, value):
    assert value in _found(RULES.detect(text), text, "phone number")


@pytest.mark.parametrize(
    "text",
    [
        "Revenue 1,234,567 and costs (2,345) this year.",
        "Working 9 - 5 / home on Fridays",
        "Room 101-Office is on the left",
        "Version 2.4.11 (office edition)",
    ],
)
def test_counts_rooms_and_versions_are_no_phone_numbers(text):
    assert _found(RULES.detect(text), text, "phone number") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Invoice from Dongguan Meisheng Plastics Co.,Ltd. received",
            "Dongguan Meisheng Plastics Co.,Ltd.",
        ),
        ("Supplier: Haneul Precision Co., Ltd. (Busan)", "Haneul Precision Co., Ltd."),
        ("She joined KAWANO SEIKI CO.LTD. in 2019", "KAWANO SEIKI CO.LTD."),
        ("Paid to BRIGHTWATER TRADING LTD. on account", "BRIGHTWATER TRADING LTD."),
    ],
)
def test_asian_legal_forms_and_names_in_capitals(text, value):
    assert value in _found(RULES.detect(text), text, "organization")


@pytest.mark.parametrize("text", ["Ticket INC-204417 was closed.", "Case LTD-88 is open"])
def test_a_ticket_prefix_in_capitals_is_no_legal_form(text):
    assert _found(RULES.detect(text), text, "organization") == []
