"""Cells under a table header that names their category (CSV, TSV, pipe tables, SQL dumps).
Every example was written for this test; none comes from an evaluation set. The positive
cases fail on the detector of the last landed release (067bf91), which had no table reader."""

from __future__ import annotations

from anonymizer.detection.table_columns import (
    column_category,
    delimited_table_detections,
    keyed_value_detections,
    non_pii_keyed_numbers,
    sql_dump_detections,
    table_column_detections,
)


def _found(text: str) -> set[tuple[str, str]]:
    return {(text[d.start : d.end], d.category) for d in table_column_detections(text)}


def test_headers_in_several_languages_name_their_category() -> None:
    assert column_category("Last Name") == "full person name"
    assert column_category("`apellidos`") == "full person name"
    assert column_category("Nachname") == "full person name"
    assert column_category("comuna") == "location"
    assert column_category("Pincode") == "postal code"
    assert column_category("fecha_nac") == "date of birth"
    assert column_category("Bib") == "internal id"
    assert column_category("notes") is None
    assert column_category("id") is None


def test_csv_cells_are_read_by_their_column() -> None:
    text = (
        "lead_id,full_name,company,city,pincode,notes\n"
        'LD-1,Tomasz Wierzbicki,Wierzbicki Meble,Radom,26-600,"call after 5, not before"\n'
        "LD-2,Oyelaran Bisi,,Ibadan,200284,\n"
    )
    found = _found(text)
    assert {
        ("Tomasz Wierzbicki", "full person name"),
        ("Wierzbicki Meble", "organization"),
        ("Radom", "location"),
        ("26-600", "postal code"),
        ("Oyelaran Bisi", "full person name"),
        ("Ibadan", "location"),
        ("200284", "postal code"),
    } <= found
    assert not any("call after" in surface for surface, _ in found)


def test_pipe_tables_with_a_markdown_rule_and_titles_outside_names() -> None:
    text = (
        "| Bib | Name | Mobile | Notes |\n"
        "|-----|------|--------|-------|\n"
        "| 2207 | Dr. Ines Carvalho | 912 448 031 | asthma |\n"
    )
    found = _found(text)
    assert ("2207", "internal id") in found
    assert ("Ines Carvalho", "full person name") in found
    assert ("912 448 031", "phone number") in found
    assert not any(surface == "asthma" for surface, _ in found)


def test_sql_inserts_take_their_columns_from_create_table() -> None:
    text = (
        "CREATE TABLE `socios` (`id` int, `nombres` varchar(80), `ciudad` varchar(60), "
        "`fono` varchar(20), PRIMARY KEY (`id`));\n"
        "INSERT INTO `socios` VALUES (1,'Araceli Quispe','Arequipa','+51 954 120 388'),"
        "(2,'O\\'Brien Tadhg','Cusco',NULL);\n"
        "INSERT INTO contacts (first_name, town) VALUES ('Eero', 'Tampere');\n"
    )
    found = {(text[d.start : d.end], d.category) for d in sql_dump_detections(text)}
    assert {
        ("Araceli Quispe", "full person name"),
        ("Arequipa", "location"),
        ("+51 954 120 388", "phone number"),
        ("O\\'Brien Tadhg", "full person name"),
        ("Cusco", "location"),
        ("Eero", "full person name"),
        ("Tampere", "location"),
    } <= found
    assert not any(surface in ("1", "2", "NULL") for surface, _ in found)


def test_prose_and_tables_without_known_headers_give_nothing() -> None:
    assert delimited_table_detections("We met Anna, Bea, and Carl in town, then left.\n") == []
    assert _found("sku,qty,price\nA-1,3,4.50\nB-7,1,12.00\n") == set()
    assert sql_dump_detections("INSERT INTO logs VALUES (1,'boot','ok');") == []


def test_a_cell_that_does_not_fit_its_column_is_left() -> None:
    text = "name,city,phone\nnone,12345,call me\n"
    assert _found(text) == set()


def test_a_row_with_another_number_of_cells_ends_the_table() -> None:
    text = "name,city,phone\nLiesel Haag,Chur,079 441 22 10\n\nSee you, Bernd, at noon\n"
    found = _found(text)
    assert ("Liesel Haag", "full person name") in found
    assert not any("Bernd" in surface for surface, _ in found)


def test_a_number_column_named_after_its_holder_holds_internal_ids() -> None:
    assert column_category("emp #") == "internal id"
    assert column_category("Staff No.") == "internal id"
    assert column_category("member number") == "internal id"
    assert column_category("Invoice #") is None  # a document's number, not a person's
    assert column_category("Employee") == "full person name"
    text = "| emp # | name | shift |\n| 0419 | Ana Ruiz | late |\n| 0422 | Tom Best | early |"
    assert {("0419", "internal id"), ("0422", "internal id")} <= _found(text)


def test_quoted_values_of_keys_that_name_their_category() -> None:
    """Session 18: a JSON payload or a key=value log line is one record whose keys are its
    headers. These cases fail on 622d3fa, which read keys only as table headers."""
    text = (
        '{"shipping": {"line1": "4/18 Kooyong Rd", "city": "Armadale", "state": "NSW",\n'
        '  "birth_date": "1988-02-29", "customer_name": "Ifeoma Chukwu"}}\n'
        '09:12:04 form.input address1="大阪府大阪市北区梅田2-4-9" name="田中 美咲"\n'
    )
    found = keyed_value_detections(text)
    assert {(text[d.start : d.end], d.category) for d in found} >= {
        ("4/18 Kooyong Rd", "street address"),
        ("NSW", "location"),
        ("1988-02-29", "date of birth"),
        ("Ifeoma Chukwu", "full person name"),
        ("大阪府大阪市北区梅田2-4-9", "street address"),
        ("田中 美咲", "full person name"),
    }


def test_keyed_values_that_are_things_or_record_states_are_left_alone() -> None:
    text = (
        '{"name": "checkout.session.completed", "name": "Blue Widget", "state": "active",\n'
        '"country": "AU", "address": "10.0.0.5", "customer": "cus_9s8d7f", "region": "eu"}\n'
        'job name="Nightly Backup" status="ok"\n'
        'run: "python -m pytest -n 4"\nname: "Deploy Staging"\naddr="localhost:8080" '
        'via="1.1 varnish"\n{"first_name": "string", "patient": "stable", "ad": "Summer Sale", '
        '"holder": "Default Wallet", "state": "Queued", "cp": "1252", "pan": "0.5"}\n'
    )
    assert keyed_value_detections(text) == []


def test_numbers_of_keys_that_hold_no_pii() -> None:
    text = '{"created": 1733972114, "card": {"last4": "4409"}, "port": 5432, "postal": "3071"}'
    spans = {text[a:b] for a, b in non_pii_keyed_numbers(text)}
    assert spans == {"1733972114", "4409", "5432"}


def test_the_combined_detector_leaves_counts_times_and_card_ends_alone() -> None:
    """A Unix time and a card's last four digits were read as an id and a postcode on 622d3fa."""
    from anonymizer.detection.combined import CombinedDetector

    text = (
        '{"id": "evt_7Hq2", "created": 1733972114, "payment_method_details": {"card": '
        '{"brand": "visa", "last4": "4409"}}, "billing": {"postal_code": "3071"}}'
    )
    found = {text[d.start : d.end] for d in CombinedDetector().detect(text)}
    assert "1733972114" not in found and "4409" not in found
    assert "3071" in found
