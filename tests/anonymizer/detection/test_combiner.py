"""The combiner: rule and model proposals are scored with agreement and context, not unioned."""

from __future__ import annotations

from dataclasses import replace

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import (
    THRESHOLD,
    CombinedDetector,
    combine,
    postcodes_after_places,
    score_candidate,
)
from anonymizer.detection.learned import NOT_PII_SOURCE
from anonymizer.types import Detection


def at(text: str, surface: str, category: str, source: str, score: float, rule: str = "r"):
    start = text.index(surface)
    return Detection(
        start, start + len(surface), category, placeholder_for(category), source, score, rule
    )


def kept(text: str, rules: list[Detection], ner: list[Detection]) -> set[tuple[str, str]]:
    return {(text[d.start : d.end], d.source) for d in combine(text, rules, ner)}


def test_a_weak_rule_alone_is_dropped_but_kept_when_the_model_agrees() -> None:
    text = "We spoke to Helga Brandt about it."
    rule = at(text, "Helga Brandt", "full person name", "regex", 0.6, "person_name")
    assert ("Helga Brandt", "regex") not in kept(text, [rule], [])
    ner = at(text, "Helga Brandt", "full person name", "ner", 0.8)
    both = kept(text, [rule], [ner])
    assert {("Helga Brandt", "regex"), ("Helga Brandt", "ner")} <= both
    assert score_candidate(text, rule, [rule], [ner], []) > 0.9  # noisy-or of the two


def test_a_title_case_phrase_the_model_reads_as_a_work_of_art_is_not_a_name() -> None:
    text = "We read Wuthering Heights in class."
    rule = at(text, "Wuthering Heights", "full person name", "regex", 0.75, "person_role")
    work = at(text, "Wuthering Heights", "custom", NOT_PII_SOURCE, 0.0, "ner:WORK_OF_ART")
    assert kept(text, [rule], [work]) == set()
    assert score_candidate(text, rule, [rule], [], []) >= THRESHOLD  # without the model: kept


def test_money_amounts_and_acronyms_are_not_organisations() -> None:
    text = "We paid EUR 48,500.00 to the NI fund via Brightwater Holdings."
    ner = [
        at(text, "EUR 48,500.00", "organization", "ner", 0.7),
        at(text, "NI", "organization", "ner", 0.7),
        at(text, "Brightwater Holdings", "organization", "ner", 0.7),
    ]
    assert kept(text, [], ner) == {("Brightwater Holdings", "ner")}


def test_a_field_label_before_a_colon_is_not_a_person() -> None:
    text = "Gateway: 10.0.0.1\nOwner: Lars"
    ner = [at(text, "Gateway", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()


def test_common_words_that_are_nobodys_name_are_not_names() -> None:
    text = "the salesperson said three of them were big"
    ner = [at(text, "salesperson", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()
    text = "Civil Rights Act"
    rule = at(text, "Civil Rights Act", "full person name", "regex", 0.75, "person_role")
    assert kept(text, [rule], []) == set()


def test_structured_identifiers_keep_their_rule_confidence() -> None:
    text = "IBAN DE89 3704 0044 0532 0130 00"
    rule = at(text, "DE89 3704 0044 0532 0130 00", "iban", "regex", 0.97, "iban")
    money = at(text, "DE89 3704 0044 0532 0130 00", "custom", NOT_PII_SOURCE, 0.0, "ner:MONEY")
    assert kept(text, [rule], [money]) == {("DE89 3704 0044 0532 0130 00", "regex")}


def test_names_kept_are_propagated_to_their_other_mentions() -> None:
    text = "Dear Oyelaran Bankole,\nthanks. oyelaran will call."
    ner = [at(text, "Oyelaran Bankole", "full person name", "ner", 0.8)]
    found = combine(text, [], ner)
    assert ("oyelaran", "propagation") in {(text[d.start : d.end], d.source) for d in found}


def test_a_name_cue_lifts_a_borderline_model_name() -> None:
    text = "Hi Ngozi, the keys are on the desk."
    ner = at(text, "Ngozi", "full person name", "ner", 0.45)
    assert score_candidate(text, ner, [], [ner], []) >= THRESHOLD


def test_a_one_off_form_label_the_model_and_the_speaker_rule_agree_on_is_dropped() -> None:
    text = "Medikation: Metformin 1000 mg\nSozialanamnese: verwitwet, lebt allein"
    labels = ("Medikation", "Sozialanamnese")
    rules = [at(text, w, "full person name", "regex", 0.75, "person_speaker") for w in labels]
    ner = [at(text, w, "full person name", "ner", 0.8) for w in labels]
    assert kept(text, rules, ner) == set()


def test_a_label_after_a_column_gap_is_a_form_field_too() -> None:
    text = "Primer apellido: GÓMEZ          Nombre: RUTH ESTELA"
    ner = [at(text, "Nombre", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()


def test_chat_speakers_known_names_and_initials_before_a_colon_stay_names() -> None:
    chat = "Kwabenyah: aa gaya?\nDevika: haan\nKwabenyah: ok"
    speaker = at(chat, "Kwabenyah", "full person name", "ner", 0.8)
    assert ("Kwabenyah", "ner") in kept(chat, [], [speaker])  # speaks twice
    assert kept(chat[:20], [], [speaker]) == set()  # once: a label, as far as anyone can tell
    text = "— reacties —\nY. El Amrani: Is deze nog beschikbaar?\nFemke: Ja"
    ner = [
        at(text, "Y. El Amrani", "full person name", "ner", 0.8),
        at(text, "Femke", "full person name", "ner", 0.8),
    ]
    assert {("Y. El Amrani", "ner"), ("Femke", "ner")} <= kept(text, [], ner)
    stamped = "[10:42] Okonedo: on my way"
    assert kept(stamped, [], [at(stamped, "Okonedo", "full person name", "ner", 0.8)])


def test_a_lone_lower_case_word_common_in_some_language_is_not_a_name() -> None:
    text = "Dr A. Venkatesan signed it. Personne à prévenir : Brice. Ask kenta about it."
    ner = [
        at(text, "prévenir", "full person name", "ner", 0.8),
        at(text, "kenta", "full person name", "ner", 0.8),
    ]
    surfaces = {surface for surface, _ in kept(text, [], ner)}
    assert surfaces == {"kenta"}  # a rare word may be a name


def test_a_quantity_with_its_unit_is_not_a_street_line_or_postcode() -> None:
    text = "Medication: Atorvastatin 40 mg daily, LK 9.2 cm. Home: Ringstraße 40, 1010 Wien"
    ner = [
        at(text, "Atorvastatin 40", "street address", "ner", 0.8),
        at(text, "9.2 cm", "postal code", "ner", 0.75),
        at(text, "Ringstraße 40", "street address", "ner", 0.8),
        at(text, "1010", "postal code", "ner", 0.75),
    ]
    # the town after the postcode is an address tail (round 17)
    assert kept(text, [], ner) == {("Ringstraße 40", "ner"), ("1010", "ner"), ("Wien", "context")}


def test_a_common_word_on_a_short_line_is_judged_by_the_language_of_the_text_around() -> None:
    text = (
        "Te koop: een bakfiets, weinig gebruikt, want we hebben nu een auto en de kinderen"
        " zijn te groot.\nGeplaatst door Femke\nDe accu is nieuw en de banden zijn goed."
    )
    ner = [at(text, "Geplaatst", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()


def test_names_cities_and_numbered_streets_survive_the_foreign_words_check() -> None:
    text = (
        "Bonjour, je vous écris pour le dossier de ma fille, elle est née le 07/07/1995 à"
        " Abidjan et habite à Lyon.\nFemke: nee sorry Kees\nOficina: Av. del Puerto 112"
    )
    ner = [
        at(text, "Abidjan", "location", "ner", 0.75),
        at(text, "Kees", "full person name", "ner", 0.8),
        at(text, "Av. del Puerto 112", "street address", "ner", 0.8),
    ]
    assert {"Abidjan", "Kees", "Av. del Puerto 112"} <= {s for s, _ in kept(text, [], ner)}


def test_a_label_of_common_words_is_a_label_however_often_the_form_repeats_it() -> None:
    text = "VIAJERO 1\nNacionalidad: PERUANA\nVIAJERO 2\nNacionalidad: SUIZA"
    ner = [at(text, "Nacionalidad", "full person name", "ner", 0.8)]
    ner.append(replace(ner[0], start=text.rindex("Nacionalidad"), end=text.rindex(":")))
    assert kept(text, [], ner) == set()


def test_a_label_with_a_linking_word_before_its_colon_is_a_form_field() -> None:
    text = "Prescritto da: dr. Amato\nRitirato da: figlia Rosaria"
    rules = [
        at(text, w, "full person name", "regex", 0.75, "person_speaker")
        for w in ("Prescritto", "Ritirato")
    ]
    ner = [at(text, w, "full person name", "ner", 0.8) for w in ("Prescritto", "Ritirato")]
    assert kept(text, rules, ner) == set()


def test_spans_across_a_column_gap_or_a_line_break_are_cut_into_their_cells() -> None:
    text = "Parent 1: Nasreen Hussaini        Relationship: Mother\nNorthiam, N20\nDescription"
    ner = [
        at(text, "Nasreen Hussaini        Relationship", "full person name", "ner", 0.8),
        at(text, "N20\nDescription", "postal code", "ner", 0.75),
    ]
    surfaces = {s for s, _ in kept(text, [], ner)}
    assert {"Nasreen Hussaini", "N20"} <= surfaces
    assert "Relationship" not in surfaces  # a label before its colon once cut off


def test_people_listed_together_are_one_person_each_not_an_organisation() -> None:
    text = "Two agency workers, Mihaela and Bogdan, asked to stay. Klingel: Demirtaş / Lindqvist"
    ner = [
        at(text, "Mihaela and Bogdan", "organization", "ner", 0.7),
        at(text, "Demirtaş / Lindqvist", "full person name", "ner", 0.8),
    ]
    found = {(text[d.start : d.end], d.category) for d in combine(text, [], ner)}
    people = {(name, "full person name") for name in ("Mihaela", "Bogdan", "Demirtaş", "Lindqvist")}
    assert people <= found
    assert not any(category == "organization" for _, category in found)
    firm = "Paid to Brightwater Holdings and Partners Ltd."
    org = at(firm, "Brightwater Holdings and Partners Ltd", "organization", "ner", 0.7)
    assert kept(firm, [], [org]) == {("Brightwater Holdings and Partners Ltd", "ner")}


def test_exception_names_and_plural_forms_of_address_are_not_people() -> None:
    text = "Dear Sirs,\nTraceback (most recent call last):\nAssertionError: expected customer"
    ner = [
        at(text, "Traceback", "full person name", "ner", 0.8),
        at(text, "AssertionError", "full person name", "ner", 0.95),
    ]
    rule = at(text, "Sirs", "full person name", "regex", 0.99, "person_greeting")
    assert kept(text, [rule], ner) == set()


def test_a_postcode_in_brackets_or_after_a_dash_follows_its_place() -> None:
    text = "Né à Oyonnax (01100), il demeure à Bourg-en-Bresse (01000) depuis 2015 (2019)."
    found = {(text[d.start : d.end], d.category) for d in CombinedDetector().detect(text)}
    assert {("01100", "postal code"), ("01000", "postal code")} <= found
    place = Detection(0, 5, "location", placeholder_for("location"), "test", 0.9)
    for tail, expected in [
        (" (2019)", []),
        ("-2019", []),
        ("-1212", ["1212"]),
        (" (8010)", ["8010"]),
    ]:
        text = "Dhaka" + tail
        assert [text[d.start : d.end] for d in postcodes_after_places(text, [place])] == expected


def test_an_acronym_both_the_rules_and_the_model_read_as_a_firm_is_kept() -> None:
    text = "My son works at UOB compliance since June."
    rule = at(text, "UOB", "organization", "regex", 0.5, "organization_context")
    ner = at(text, "UOB", "organization", "ner", 0.7)
    assert ("UOB", "ner") not in kept(text, [], [ner])  # the model alone: an acronym
    assert ("UOB", "ner") in kept(text, [rule], [ner])
