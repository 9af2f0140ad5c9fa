"""Name propagation: a name found once is redacted wherever else it is mentioned."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import tracemalloc
from dataclasses import replace

import pytest

from anonymizer.detection import propagation
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import CombinedDetector
from anonymizer.detection.propagation import name_mentions, propagate_names
from anonymizer.detection.regex import RegexDetector, word_alternation
from anonymizer.types import Detection


def person(text: str, surface: str, score: float = 0.8) -> Detection:
    start = text.index(surface)
    return Detection(
        start,
        start + len(surface),
        "full person name",
        placeholder_for("full person name"),
        "test",
        score,
    )


def surfaces(text: str, detections: list[Detection]) -> list[str]:
    return [text[d.start : d.end] for d in detections]


def test_other_mentions_of_a_found_name_are_detected_in_any_case() -> None:
    text = "[10:42] Aaron Sato: hi\nit's aaron here, AARON said. Aaronson is someone else."
    found = propagate_names(text, [person(text, "Aaron Sato")])
    assert surfaces(text, found) == ["Aaron", "Sato", "aaron", "AARON"]
    assert all(d.source == "propagation" and d.category == "full person name" for d in found)


def test_possessives_count_but_longer_words_do_not() -> None:
    text = "Dr. Ana Müller called. Müller's notes; Müllerstraße is a street."
    found = propagate_names(text, [person(text, "Ana Müller")])
    assert surfaces(text, found) == ["Ana", "Müller", "Müller"]


def test_weak_seeds_common_words_and_other_categories_do_not_propagate() -> None:
    text = "Thanks Team. The team met. Kim went home; kim is a name."
    weak = person(text, "Kim", score=0.5)
    common = person(text, "Team")
    email = Detection(0, 6, "email address", "[EMAIL]", "test", 1.0)
    assert propagate_names(text, [weak, common, email]) == []


class NoModel:
    """Stands in for the NER model, so that the rules and propagation are tested alone."""

    def all_many(self, texts: list[str]) -> list[list[Detection]]:
        return [[] for _ in texts]


def test_common_words_do_not_spread_and_word_names_spread_only_as_written() -> None:
    text = "Big Three, Salesperson Mo, Grace Hart. the big three, a salesperson, grace. Grace?"
    seeds = [person(text, "Big Three"), person(text, "Salesperson Mo"), person(text, "Grace Hart")]
    assert surfaces(text, propagate_names(text, seeds)) == ["Grace", "Hart", "Grace"]


def test_combined_detector_redacts_unmarked_mentions_of_a_speaker() -> None:
    text = "[10:42] aaron: see you soon\n[10:43] bea: it's aaron's car, tell aaron"
    detector = CombinedDetector(RegexDetector(), NoModel())
    combined = surfaces(text, detector.detect_resolved(text))
    assert combined.count("aaron") == 3


_PIECES = [
    "Anna", "anna", "ANNA", "Annabel", "Anna's", "Anna’s", "Anna'ss", "Anna-Lena", "anna_b",
    "Anna2", "O'Neil", "o'neil", "O'Neil's", "Jean-Luc", "jean", "Will", "will", "WILL",
    "Strauß", "STRAUSS", "strauss", "Γαρυφαλίδης", "ΓΑΡΥΦΑΛΊΔΗΣ", "İrem", "irem", "Kelvin",
    "Kelvin", "-Anna", "'anna", "x", "7", " ", " ", "\n", ", ", ". ", "’", "'", "-", "_",
]  # fmt: skip


_BEFORE = r"(?<![\w'’-])"
_AFTER = r"(?![\w-]|['’]\w\w)"


def compiled_mentions(text: str, rare: set[str], common: set[str]) -> list[tuple[int, int]]:
    """The reference the word search is checked against: one compiled alternation per word
    set (rare words in any case, common ones as written), whole words, longest first."""
    spans = []
    for words, flags in ((rare, re.IGNORECASE), (common, 0)):
        if words:
            alternation = word_alternation(frozenset(words))
            pattern = re.compile(f"{_BEFORE}(?:{alternation}){_AFTER}", flags)
            spans += [m.span() for m in pattern.finditer(text)]
    return sorted(spans)


@pytest.mark.parametrize("budget", [propagation.FIND_BUDGET, 0])  # 0: the one-pass path
def test_the_word_search_finds_what_a_compiled_alternation_finds_on_random_text(
    monkeypatch, budget: int
) -> None:
    monkeypatch.setattr(propagation, "FIND_BUDGET", budget)
    rng = random.Random(12)
    rare = {"anna", "o'neil", "jean-luc", "strauss", "γαρυφαλίδησ", "irem", "kelvin"}
    common = {"Will", "Anna"}
    for _ in range(400):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
        words = set(rng.sample(sorted(rare), rng.randint(0, len(rare))))
        commons = set(rng.sample(sorted(common), rng.randint(0, len(common))))
        expected = compiled_mentions(text, words, commons)
        assert name_mentions(text, words, commons) == expected, text


@pytest.mark.parametrize("budget", [propagation.FIND_BUDGET, 0])  # 0: the one-pass path
def test_a_long_run_of_apostrophes_costs_memory_linear_in_its_length(
    monkeypatch, budget: int
) -> None:
    # "a's" 20,000 times is one word; its parts before each apostrophe, taken whole, held
    # 600 MB (and a 2 MB upload of it hundreds of GB); only parts as long as a name count
    monkeypatch.setattr(propagation, "FIND_BUDGET", budget)
    text = "Anna said " + "a's" * 20_000 + " to Anna's friend"
    tracemalloc.start()
    try:
        found = name_mentions(text, {"anna", "asa"}, set())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [text[s:e] for s, e in found] == ["Anna", "Anna"]
    assert peak < 50_000_000  # 600 MB before


def test_a_word_of_another_language_spreads_only_as_written() -> None:
    text = "IMPORTE SALDO Saldo\nsaldo anterior, Saldo final. Kwabenyah paid; kwabenyah left."
    seeds = [person(text, "Saldo"), person(text, "Kwabenyah")]
    assert surfaces(text, propagate_names(text, seeds)) == [
        "Saldo",
        "Saldo",
        "Kwabenyah",
        "kwabenyah",
    ]


_ID_PIECES = [
    "mausi_87", "mausi_876", "MAUSI_87", "ab-12345", "ab-1234", "x.mausi_87", "@", ".", "-",
    " ", "\n", "a", "7", ".com", "@mail", "ab-12345.", "_",
]  # fmt: skip


@pytest.mark.parametrize("budget", [0, 10**9])
def test_identifier_search_finds_what_the_alternation_finds(monkeypatch, budget: int) -> None:
    monkeypatch.setattr(propagation, "FIND_BUDGET", budget)
    rng = random.Random(14)
    values = ["mausi_87", "ab-12345", "ab-1234", "mausi_876"]
    for _ in range(400):
        text = "".join(rng.choice(_ID_PIECES) for _ in range(rng.randint(1, 30)))
        chosen = set(rng.sample(values, rng.randint(1, len(values))))
        pattern = rf"(?<![\w@.-])(?:{word_alternation(frozenset(chosen))})(?![\w@-]|\.\w)"
        expected = [m.span() for m in re.finditer(pattern, text)]
        assert propagation.identifier_mentions(text, chosen) == expected, text


def new_mentions(text: str, seeds: list[Detection]) -> list[str]:
    """The propagated mentions outside the seeds themselves."""
    found = propagate_names(text, seeds)
    return [
        text[d.start : d.end]
        for d in found
        if not any(s.start <= d.start and d.end <= s.end for s in seeds)
    ]


def test_short_and_pet_forms_of_a_given_name_are_redacted() -> None:
    text = "Kevin Walsh moved out. We miss kev already, Kev said bye and kevvy left his bike."
    assert new_mentions(text, [person(text, "Kevin Walsh")]) == ["kev", "Kev", "kevvy"]


def test_a_pet_form_of_a_short_seed_and_a_foreign_short_form_are_redacted() -> None:
    text = "08:30 - kev: morning\n08:33 - dawn: we'll miss u kevvy\nSvetlana Ivanova: sveta here"
    seeds = [person(text, "kev"), person(text, "Svetlana Ivanova")]
    assert new_mentions(text, seeds) == ["kevvy", "sveta"]


def test_common_words_that_start_like_a_name_are_not_short_forms() -> None:
    text = (
        "Christopher Moore, Patricia Reid, Jamal Okoro and Thomas Hale called. The car is in "
        "the jam, tho we parked near the patio for christmas; Chris and Pat said so. Summer "
        "Term starts soon for Summer-Rose."
    )
    names = ("Christopher Moore", "Patricia Reid", "Jamal Okoro", "Thomas Hale", "Summer-Rose")
    found = new_mentions(text, [person(text, n) for n in names])
    assert found == ["Chris"]  # not car, jam, tho, patio, christmas; Pat, Summer are words


def test_a_short_form_inside_an_address_or_identifier_is_left_to_its_own_detector() -> None:
    text = "Olumide Bankole wrote from olu.bankole@example.com and signed olu."
    seeds = [person(text, "Olumide Bankole")]
    found = [d.start for d in propagate_names(text, seeds) if text[d.start : d.end] == "olu"]
    assert found == [text.rindex("olu")]


def test_initials_of_a_full_name_written_in_capitals_are_redacted() -> None:
    text = "Pupil: Tyler-James Mcbride\nTJ arrived late. TJ's mum phoned; tj is a word here."
    assert new_mentions(text, [person(text, "Tyler-James Mcbride")]) == ["TJ", "TJ"]


def test_initials_that_are_common_abbreviations_are_not_redacted() -> None:
    text = "Nadia Brown and Greta Price came. NB the GP letter is attached; NB and GP again."
    seeds = [person(text, "Nadia Brown"), person(text, "Greta Price")]
    assert new_mentions(text, seeds) == []


def test_short_forms_need_a_confident_seed() -> None:
    text = "Kevin Walsh moved out. We miss kev already."
    assert propagate_names(text, [person(text, "Kevin Walsh", score=0.5)]) == []


def test_short_forms_stay_linear_when_every_word_starts_like_the_name() -> None:
    """17,000 different words that all start with "kev" (100 kB), in a child process."""
    script = (
        "import itertools, string\n"
        "from anonymizer.types import Detection\n"
        "from anonymizer.detection.propagation import propagate_names\n"
        "tails = itertools.product(string.ascii_lowercase, repeat=3)\n"
        "words = ['kev' + ''.join(t) for t, _ in zip(tails, range(17_000))]\n"
        "text = 'Kevin Walsh ' + ' '.join(words)\n"
        "seed = Detection(0, 11, 'full person name', '[PERSON]', 'test', 0.9)\n"
        "assert len(text) > 100_000\n"
        "propagate_names(text, [seed])\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)


def test_a_chat_speaker_s_common_word_name_spreads_to_its_other_mentions() -> None:
    text = (
        "21:07 - priya: omg did u see what kev posted\n"
        "08:30 - kev: morning all\n"
        "08:31 - kev: yes it's true\n"
        "08:33 - dawn: we'll miss u kevvy\n"
    )
    speaker = person(text, "kev: morning")
    speaker = replace(speaker, end=speaker.start + 3)
    assert new_mentions(text, [speaker]) == ["kevvy"]  # "kev" is a common word elsewhere
    found = propagate_names(text, [speaker], speakers=[speaker])
    assert [d.start for d in found if text[d.start : d.end] == "kev"] == [
        m.start() for m in re.finditer(r"\bkev\b", text)
    ]


def test_the_default_detector_spreads_a_speaker_s_name_but_not_a_one_off_word() -> None:
    detector = CombinedDetector()
    chat = (
        "12/05/2024, 21:07 - priya: omg did u see what kev posted in the group\n"
        "13/05/2024, 08:30 - kev: morning all, yes it's true\n"
        "13/05/2024, 08:31 - kev: fwd his email again\n"
    )
    found = {(d.start, d.end) for d in detector.detect(chat) if d.category == "full person name"}
    first = chat.index("kev")
    assert (first, first + 3) in found
    once = "what kev posted was odd."
    assert not [d for d in detector.detect(once) if once[d.start : d.end] == "kev"]


def test_plurals_and_common_words_are_not_short_forms() -> None:
    text = "Bill Foster, Carol Ames and Mark Dunne came. Bills for March; carols; Marks were out."
    names = ("Bill Foster", "Carol Ames", "Mark Dunne")
    assert new_mentions(text, [person(text, n) for n in names]) == []


def test_initials_written_by_a_number_or_as_a_clinical_abbreviation_are_not_names() -> None:
    text = (
        "Tyler-James Mcbride used 0.5 TJ of energy; TJ said so.\n"
        "Helen Byrne: HB 10.2, repeat HB.\nBrian Doyle: amoxicillin 500 mg BD; BD again."
    )
    names = ("Tyler-James Mcbride", "Helen Byrne", "Brian Doyle")
    assert new_mentions(text, [person(text, n) for n in names]) == []


def entity(text: str, surface: str, category: str, score: float = 0.8) -> Detection:
    start = text.index(surface)
    return Detection(start, start + len(surface), category, placeholder_for(category), "t", score)


def test_a_name_missing_from_the_name_list_spreads_where_it_is_only_written_as_a_name() -> None:
    # "Rami" and "Rommel" are frequent enough in English text to look like words
    text = "Nour & Rami - wedding planning\nSamir can borrow from Rami's brother."
    found = propagate_names(text, [person(text, "Rami")])
    assert surfaces(text, found) == ["Rami", "Rami"]


@pytest.mark.parametrize(
    "text, seed",
    [
        # written in lower case elsewhere: a word
        (
            "Salesperson: Tom\nThe salesperson at the desk was kind. Ask Salesperson Kim.",
            "Salesperson",
        ),
        # never after a lower-case word: no sign it is a name rather than a heading
        ("Salesperson\nSalesperson of the month: Kim Lee", "Salesperson"),
        ("Visited Mrs. Smt Rao. The form says Smt in full.", "Smt"),  # too short: a title
        ("Mere came in. She said Mere is her name.", "Mere"),  # too frequent in English
    ],
)
def test_a_frequent_word_that_is_not_written_only_as_a_name_does_not_spread(
    text: str, seed: str
) -> None:
    assert propagate_names(text, [person(text, seed)]) == []


@pytest.mark.parametrize(
    "text, seed, expected",
    [
        (
            "Kateryna Bondar starts.\n- Katerynan kulkukortti hävisi.",
            "Kateryna Bondar",
            ["Katerynan"],
        ),
        ("Тарас Коваль прийшов. Тарасе, привіт!", "Тарас Коваль", ["Тарасе"]),
        (
            "Ilyas Amrani (15 ans)\n- attestation de fréquentation d'Ilyas",
            "Ilyas Amrani",
            ["Ilyas"],
        ),
        ("Oleg Savchuk, a co z Olegiem?", "Oleg Savchuk", ["Olegiem"]),
    ],
)
def test_a_name_with_a_case_ending_or_after_an_elided_article_is_redacted(
    text: str, seed: str, expected: list[str]
) -> None:
    assert new_mentions(text, [person(text, seed)]) == expected


@pytest.mark.parametrize(
    "text, seed",
    [
        ("Aaron Sato called; Aaronson is someone else.", "Aaron Sato"),  # no case ending
        ("Pari Shah flew to Paris.", "Pari Shah"),  # the longer word is a word
        ("Małoletni Nowak\nna rzecz małoletnich dzieci", "Małoletni Nowak"),  # lower case
        ("Kateryna Bondar\nKaterynastraße 4", "Kateryna Bondar"),  # a longer ending
    ],
)
def test_longer_words_that_are_no_inflection_of_the_name_are_not_redacted(
    text: str, seed: str
) -> None:
    assert new_mentions(text, [person(text, seed)]) == []


def test_names_in_cjk_script_are_found_inside_the_words_they_are_written_in() -> None:
    text = (
        "拓海's fiancée.\n弟の拓海は26歳。\n[카카오톡] 서윤 어머님\n쌤 서윤이 수업\n어서윤 어머님께"
    )
    seeds = [person(text, "拓海"), person(text, "서윤 어머님")]
    # "어머님" (mother) came with a wrong span: a word, not spread; "서윤" inside "어서윤"
    # is no name (Korean names start a word, before their particle)
    assert new_mentions(text, seeds) == ["拓海", "서윤"]


def test_a_cjk_name_that_is_also_a_frequent_word_is_not_spread_inside_words() -> None:
    text = "王建国先生\n建国记念日は休みです。"
    assert new_mentions(text, [person(text, "建国")]) == []


def test_confident_places_and_organisations_are_redacted_at_their_other_mentions() -> None:
    text = (
        "über die Grenze nach Kasachstan. Dann hatte ich Angst, dass Kasachstan mich "
        "ausliefert.\nPaid by Lloyds Bank. Lloyds called; DIGI SPAIN TELECOM (cliente 1)\n"
        "17/03 DIGI SPAIN TELECOM 650,00"
    )
    kept = [
        entity(text, "Kasachstan", "location", 0.75),
        entity(text, "Lloyds Bank", "organization", 0.9),
        entity(text, "DIGI SPAIN TELECOM", "organization", 0.9),
    ]
    found = propagation.propagate_entities(text, kept)
    assert [(text[d.start : d.end], d.category) for d in found] == [
        ("Kasachstan", "location"),
        ("Lloyds", "organization"),
        ("DIGI SPAIN TELECOM", "organization"),
    ]
    assert all(d.source == "propagation" for d in found)


@pytest.mark.parametrize(
    "text, surface, category, score",
    [
        ("Paid via EcoCash. EcoCash to 0774", "EcoCash", "organization", 0.7),  # model alone
        ("Clarks Summit, PA 18411. PA tag LKT-4928", "PA", "location", 0.95),  # two letters
        ("She lives in Reading.\nReading the file, I saw", "Reading", "location", 0.9),
        ("moved to reading. then reading more", "reading", "location", 0.9),  # lower case
    ],
)
def test_weak_short_or_common_word_places_are_not_spread(
    text: str, surface: str, category: str, score: float
) -> None:
    assert propagation.propagate_entities(text, [entity(text, surface, category, score)]) == []


def test_the_default_detector_redacts_every_mention_of_a_place_it_found_once() -> None:
    text = (
        "F: Was geschah dann?\nA: Ich fuhr mit dem Bus nach Kasachstan und blieb ein Jahr.\n"
        "Dann hatte ich Angst, dass Kasachstan mich ausliefert."
    )
    found = [d for d in CombinedDetector().detect(text) if d.category == "location"]
    for mention in re.finditer("Kasachstan", text):
        assert any(d.start <= mention.start() and mention.end() <= d.end for d in found)


def test_inflected_and_cjk_mentions_are_every_case_form_and_every_run_offset() -> None:
    text = (
        "Kateryna Bondar, Katerynan kortti; Katerynalle soitto. katerynan ei.\n"
        "d'Ilyas, l'Ilyas, Ilyasta. 弟の拓海は。拓海拓海. 서윤이 어서윤"
    )
    found = propagation.inflected_mentions(text, {"kateryna", "ilyas", "拓海", "서윤"})
    assert [text[a:b] for a, b in sorted(found)] == [
        "Katerynan", "Katerynalle", "Ilyas", "Ilyas", "Ilyasta", "拓海", "拓海", "拓海", "서윤",
    ]  # fmt: skip


def test_a_name_its_context_proves_spreads_as_written_whatever_the_word_means() -> None:
    text = "Rosa (Bear to all of us) is home. Bear's sister rang about the bear."
    nickname = person(text, "Bear")
    assert surfaces(text, propagate_names(text, [nickname])) == []  # a common word
    found = propagate_names(text, [nickname], named=[nickname])
    assert text.index("Bear's") in {d.start for d in found}
    assert set(surfaces(text, found)) == {"Bear"}  # not "the bear"


def test_a_nickname_in_brackets_is_redacted_at_its_other_mentions() -> None:
    text = (
        "My brother Chidi (Peanut to all of us) is in hospital.\n"
        "Peanut was admitted on Monday and Peanut's wife is with him."
    )
    found = {
        (d.start, d.end)
        for d in CombinedDetector().detect(text)
        if d.category == "full person name" and text[d.start : d.end] == "Peanut"
    }
    assert len(found) == 3
