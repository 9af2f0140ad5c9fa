"""The shared prefilter (`prefilter.py`) never drops a match: a gated pattern finds exactly
what `finditer` finds, on hand-picked and generated text, with and without Hyperscan; and no
rule in `RULES` searches every document from end to end unless it is allowed to below."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonymizer.detection import prefilter
from anonymizer.detection.prefilter import (
    BLOCK,
    OVERLAP,
    RUN_LIMIT,
    NotConvertible,
    Prefilter,
    superset_pattern,
)
from anonymizer.detection.regex import RULES, Rule, unrestricted_rules

# Rules allowed to search the whole text of every document, each with its reason. Empty: every
# rule has anchors or a pattern (and trigger) the prefilter can gate. A new rule that cannot
# be gated (its first characters cannot be told apart without a lookaround, or it can match
# the empty string) needs anchors=, a trigger=, or an entry here saying why it must scan.
ALLOWED_FULL_SCANS: dict[str, str] = {}

requires_hyperscan = pytest.mark.skipif(prefilter.hyperscan is None, reason="no Hyperscan")


def test_no_rule_searches_every_document_from_end_to_end() -> None:
    assert sorted(set(unrestricted_rules()) - set(ALLOWED_FULL_SCANS)) == []
    assert set(ALLOWED_FULL_SCANS) <= {rule.rule_id for rule in RULES}  # no stale entries


def test_a_rule_that_cannot_be_gated_is_reported() -> None:
    anywhere = Rule("lookbehind_only", "custom", re.compile(r"(?<=x)\w*"), 0.5, "empty match")
    keyword = Rule("with_anchor", "custom", re.compile(r"(?<=x)\w*"), 0.5, "x", anchors=("x",))
    assert unrestricted_rules((anywhere, keyword)) == ["lookbehind_only"]


# Patterns in the shapes the rules use: leading lookbehinds (both forms), back-references,
# case-insensitive keywords, line anchors, unbounded runs, lookaheads, non-ASCII classes.
PATTERNS = [
    r"\d(?<![\w.-].)\d{2}-\d{2}-\d{4}(?![\w-])",
    r"(?<![\w.,-])\d{1,3}[ -]?(?:years?|yrs?)[ -]old\b",
    r"[A-ZÀ-Þ](?<![\w'’-].)[a-zß-ÿ]{1,30}(?:[ \t]+[A-ZÀ-Þ][a-zß-ÿ]{1,30}){1,3}(?![\w-])",
    r"(?i:\b(?:ref|ticket)(?:[ ]no\.?)?)[ \t]*[:#]?[ \t]*([A-Z0-9-]{4,20})\b",
    r"^[ \t]*([A-Z][a-z]+(?:[ ][A-Z][a-z]+)?):[ ]",
    r"\d{4}([-/])\d{1,2}\1\d{1,2}(?![\w/-])",
    r"[0-9A-Fa-f](?<![\w:-].)(?:[0-9A-Fa-f]{2}([:-])){5}[0-9A-Fa-f]{2}(?![\w:-])",
    r"\d(?<![\w,-].)\d{0,3}[ ]+[A-Z][a-z]+[ ]+(?:Street|St\.|Road|Rd\.)",
    r"[\w.+-](?<![\w.+-].)[\w.+-]{0,63}@(?:[\w-]{1,63}\.){1,8}[^\W\d_]{2,24}(?![\w-])",
    r"(?<!\w)[А-ЯЁ][а-яё]+[ ]«[^»\n]{1,60}»",
    r"[一-鿿]{1,8}(?:株式会社|有限公司)",
    r"(?<![\w])İ?[A-Z][a-z]+(?=[ ]\d)",
    r"(?:Mr|Dr|Prof)\.?[ ]+[A-Z][a-z]+(?:(?:[ ]+[A-Z][a-z]+)+|-\d+)",
    r"(?:Ann|Anna)(?:[ ]Lee)?",  # leftmost-first: "Ann" in "Anna Lee", not the longest match
    r"(?i:\bkilo|\bsize|\bpin)[ ]?\d+",  # caseless k, s, i also match 'K', 'ſ', 'İ', 'ı'
    r"(?m)^[ \t]*([A-Z][a-z]+):[ ]",  # no short superset: a long run needs a whole-text scan
]
FRAGMENTS = [
    "123-45-6789",
    "42 years old",
    "41-yr-old",
    "Ana Maria Costa",
    "ticket no. AB-1234",
    "Ref: X12-99",
    "Maria Silva: hi",
    "2024-05-03",
    "2024/5/3",
    "00:1A:2B:3C:4D:5E",
    "12 Baker Street",
    "7  High   Road",
    "jane.doe+x@mail.example.co.uk",
    "ООО «Ромашка»",
    "王伟株式会社",
    "İlker 5",
    "Dr. Who-12",
    "Prof Ana Lima Rocha",
    "Anna Lee",
    "\u212ailo 5",
    "ſize9",
    "pİn 7",
    "PıN42",
    "SIZE 3",
    " ",
    "  ",
    "\t",
    "\n",
    ".",
    "-",
    ",",
    "x",
    "É",
    "’",
    "ß",
    "\u212a",
    "a",
    "Z",
    "9",
    "0",
    ":",
    "@",
    "«",
    "»",
    " " * (RUN_LIMIT + 3),
    "\t" * RUN_LIMIT,
    "word " * 3,
]
TEXTS = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(alphabet="aZ9 -.:\n\tÉé’İ@王Я/", max_size=6),
    ),
    max_size=80,
).map("".join)


def gated_matches(gates: prefilter.Gates, pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in gates.matches(pattern, text)]


def plain_matches(pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


COMPILED = [re.compile(p) for p in PATTERNS]
SHARED = Prefilter(COMPILED)


def test_every_pattern_here_gets_a_superset() -> None:
    assert set(SHARED.supersets) == set(COMPILED)


@requires_hyperscan
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_gated_patterns_find_exactly_what_finditer_finds(text: str) -> None:
    gates = SHARED.gates(text)
    for pattern in COMPILED:
        assert gated_matches(gates, pattern, text) == plain_matches(pattern, text), pattern


@requires_hyperscan
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.integers(0, 2 * BLOCK))
def test_matches_across_block_boundaries_are_kept(text: str, shift: int) -> None:
    text = "x" * shift + text + " " + text  # matches fall on every side of a block's edge
    gates = SHARED.gates(text)
    for pattern in COMPILED:
        assert gated_matches(gates, pattern, text) == plain_matches(pattern, text), pattern


@requires_hyperscan
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.lists(st.tuples(st.integers(0, 3000), st.integers(1, 3000)), max_size=4))
def test_trigger_windows_give_what_finditer_gives_in_each_window(
    text: str, cuts: list[tuple[int, int]]
) -> None:
    text = text * 3
    windows, last = [], 0
    for start, length in sorted(cuts):  # sorted, disjoint windows, as `Trigger.windows` gives
        low = max(start, last)
        windows.append((low, min(len(text), low + length)))
        last = low + length + 1
    windows = [(low, high) for low, high in windows if low < high]
    gates = SHARED.gates(text)
    for pattern in COMPILED:
        expected, last_end = [], 0
        for low, high in windows:
            for m in pattern.finditer(text, low, high):
                if m.start() >= last_end:
                    last_end = max(m.end(), m.start() + 1)
                    expected.append(m.span())
        found = [m.span() for m in gates.finditer_in_windows(pattern, text, windows)]
        assert found == expected, pattern


@pytest.fixture(params=["starts", "regions"])
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways a gated pattern is searched: tried where its superset starts, or (forced
    here by allowing no start at all) searched with `re` in the blocks where it occurs."""
    if request.param == "regions":
        monkeypatch.setattr(prefilter, "SLACK", -1)
        monkeypatch.setattr(prefilter, "SPARSE", 10**9)
    return str(request.param)


@requires_hyperscan
@pytest.mark.parametrize("edge", [BLOCK, 2 * BLOCK, 3 * BLOCK + OVERLAP])
def test_a_match_across_the_end_of_a_block_is_found_whole(search: str, edge: int) -> None:
    for fragment in FRAGMENTS:
        for offset in range(edge - len(fragment) - 2, edge + 2):
            text = " " * offset + fragment + " " + "." * (2 * BLOCK + OVERLAP)
            gates = SHARED.gates(text)
            for pattern in COMPILED:
                expected = plain_matches(pattern, text)
                assert gated_matches(gates, pattern, text) == expected, (pattern, offset)
                windows = [(max(0, offset - 40), len(text))]
                expected_in_window = [m.span() for m in pattern.finditer(text, *windows[0])]
                found = [m.span() for m in gates.finditer_in_windows(pattern, text, windows)]
                assert found == expected_in_window, (pattern, offset)


@requires_hyperscan
def test_a_long_run_of_spaces_falls_back_to_a_version_that_holds() -> None:
    pattern = COMPILED[2]  # names joined by [ \t]+
    text = ("Ana" + " " * (RUN_LIMIT * 3) + "Costa and Rui Lima. ") * 50
    superset = superset_pattern(pattern)
    assert superset.runs and superset.long is not None
    gates = SHARED.gates(text)
    assert gated_matches(gates, pattern, text) == plain_matches(pattern, text)
    assert len(plain_matches(pattern, text)) == 100


def test_without_hyperscan_every_pattern_runs_over_the_whole_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prefilter, "hyperscan", None)
    plain = Prefilter(COMPILED)
    text = " ".join(FRAGMENTS) * 5
    gates = plain.gates(text)
    for pattern in COMPILED:
        assert gates.regions(pattern) is None
        assert gated_matches(gates, pattern, text) == plain_matches(pattern, text)


@pytest.mark.parametrize(
    "pattern",
    [r"(?<=a)", r"\b", r"x*", r"(?:a|)"],
)
def test_patterns_that_can_match_the_empty_string_are_not_gated(pattern: str) -> None:
    with pytest.raises(NotConvertible):
        superset_pattern(re.compile(pattern))


def test_a_superset_covers_at_most_the_overlap_between_blocks() -> None:
    wide = re.compile(r"[A-Z][a-z]{1,400}[ ][A-Z][a-z]{1,400}")
    superset = superset_pattern(wide)
    assert superset.long is not None
    assert superset.reach is not None and superset.reach > OVERLAP  # the whole reads further
    text = "Ab" + "c" * 450 + " Xy" + "z" * 300 + " and Qq Rr"
    gates = Prefilter([wide]).gates(text)
    assert gated_matches(gates, wide, text) == plain_matches(wide, text)


def test_case_partners_are_the_non_ascii_characters_a_caseless_ascii_class_matches() -> None:
    ascii_caseless = re.compile("(?i)[\x00-\x7f]")
    found = {chr(c) for c in range(128, 0x110000) if ascii_caseless.fullmatch(chr(c))}
    assert found == set(prefilter.CASE_PARTNERS)


def test_caseless_letters_other_than_i_k_s_stand_for_no_non_ascii_character() -> None:
    superset = superset_pattern(re.compile(r"(?i:phone|kiss)[ ]?\d"))
    assert superset.long is not None
    classes = re.findall(r"\[([^]]*)\]", superset.long[0].decode())  # in source order
    phone, kiss = classes[:5], classes[5:9]
    assert phone == [r"\x50\x70", r"\x48\x68", r"\x4f\x6f", r"\x4e\x6e", r"\x45\x65"]
    assert all(c.startswith(r"\x3f") for c in kiss)  # '?' may stand for 'K', 'ı', 'İ', 'ſ'


@requires_hyperscan
def test_a_long_run_without_a_short_superset_scans_the_whole_text_backwards() -> None:
    pattern = COMPILED[-1]  # ^[ \t]*Name:
    superset = superset_pattern(pattern)
    assert superset.short is None and superset.runs and superset.long is not None
    text = ("x\n" + " " * (RUN_LIMIT * 2) + "Ana: hi\n\tRui: yo\n" + "." * 5000) * 3
    gates = SHARED.gates(text)
    assert gates.regions(pattern) == [(0, len(text))]
    assert gated_matches(gates, pattern, text) == plain_matches(pattern, text)
    assert len(plain_matches(pattern, text)) == 6
