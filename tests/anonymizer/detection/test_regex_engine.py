"""The matching engine's shortcuts (one anchor scan for all rules, shared trigger windows,
a prefix-tree name alternation) give exactly what the plain per-rule scans give."""

from __future__ import annotations

import dataclasses
import gc
import re
from collections.abc import Iterator

import pytest

from anonymizer.detection import prefilter, regex
from anonymizer.detection.prefilter import RUN_LIMIT, opens_with_word_boundary
from anonymizer.detection.propagation import name_mentions, name_words
from anonymizer.detection.regex import (
    CJK_RULES,
    RULES,
    SUPERSET_GATED_RULES,
    AnchorIndex,
    RegexDetector,
    Rule,
    _bare,
    anchor_sets,
    collector_paused,
    lower_same_length,
    runs_at_anchors,
)
from anonymizer.detection.view import detection_view
from anonymizer.types import Detection
from bench import dev_sets


def reference_matches(rule: Rule, text: str) -> Iterator[re.Match[str]]:
    """One rule on its own: a full `finditer`, or its trigger's windows computed afresh."""
    if rule.trigger is None:
        yield from rule.pattern.finditer(text)
        return
    last_end = 0
    for low, high in rule.trigger.windows(text):
        for match in rule.pattern.finditer(text, low, high):
            if match.start() >= last_end:
                last_end = max(match.end(), match.start() + 1)
                yield match


def reference_detect(text: str) -> list[Detection]:
    """Every rule run independently, with nothing shared or precomputed between rules (the
    CJK rules over the whole text, not only the lines that hold CJK characters), on the text
    as the detector reads it (`view.detection_view`: same length, same offsets)."""
    text = detection_view(text)
    lowered = lower_same_length(text)
    found = []
    for rule in RULES + CJK_RULES:
        if rule.requires and not any(word in lowered for word in rule.requires):
            continue
        for match in reference_matches(rule, text):
            start, end = match.span(rule.group)
            if start < 0 or end <= start:
                continue
            if rule.validate is not None and not rule.validate(text[start:end]):
                continue
            if rule.refine is not None:
                refined = rule.refine(text, start, end)
                if refined is None:
                    continue
                start, end = refined
            found.append(
                Detection(
                    start,
                    end,
                    rule.category,
                    rule.placeholder,
                    "regex",
                    rule.confidence,
                    rule.rule_id,
                )
            )
    return found


def dev_documents() -> list[str]:
    hand = dev_sets.handwritten_dev() + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
    return [d["text"] for d in hand + dev_sets.corpus_dev(100)]


def test_the_detector_gives_what_each_rule_alone_gives_on_every_dev_document() -> None:
    detector = RegexDetector()
    for text in dev_documents():
        assert sorted(detector.detect(text), key=repr) == sorted(reference_detect(text), key=repr)


def test_the_detector_gives_what_each_rule_alone_gives_on_one_long_document() -> None:
    text = "\n\n".join(dev_documents())
    found = RegexDetector().detect(text)
    assert len(found) > 3000
    assert sorted(found, key=repr) == sorted(reference_detect(text), key=repr)


def woken_rules(detector: RegexDetector, text: str) -> set[str]:
    anchor_positions = detector.anchor_index.positions(lower_same_length(text))
    gates = detector.prefilter.gates(text)
    return {detector.rules[i].rule_id for i in detector.candidates(anchor_positions, gates)}


def test_every_rule_that_matches_a_dev_document_is_woken_for_it() -> None:
    detector = RegexDetector()
    for text in dev_documents()[:120]:
        matching = {rule.rule_id for rule in RULES if next(reference_matches(rule, text), None)}
        assert matching <= woken_rules(detector, text)


def test_a_short_text_wakes_only_the_rules_it_can_match() -> None:
    detector = RegexDetector()
    woken = woken_rules(detector, "Hi.")
    assert len(woken) < len(RULES) // 10
    assert "email" not in woken and "email" in woken_rules(detector, "Hi a@b.org.")


@pytest.mark.parametrize("shift", [1, 333, 1000])
def test_block_edges_and_long_runs_change_nothing(shift: int) -> None:
    """Matches that straddle the prefilter's blocks, and runs of spaces and tabs long enough
    to switch rules to their short supersets or to full scans, give the same detections."""
    docs = dev_documents()[:80]
    runs = [" " * (RUN_LIMIT + 6), "\t" * RUN_LIMIT, " \t" * RUN_LIMIT]
    text = "x" * shift + "\n".join(doc + runs[i % 3] * (i % 5 == 0) for i, doc in enumerate(docs))
    found = RegexDetector().detect(text)
    assert sorted(found, key=repr) == sorted(reference_detect(text), key=repr)


def test_without_hyperscan_the_detector_gives_the_same_detections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "\n\n".join(dev_documents()[:60])
    with_hyperscan = RegexDetector().detect(text)
    monkeypatch.setattr(prefilter, "hyperscan", None)
    detector = RegexDetector()
    detector.prefilter = prefilter.Prefilter(detector.prefilter.supersets)
    detector.anchor_index = AnchorIndex(rule.anchors for rule in RULES)
    assert detector.prefilter.database is None and detector.anchor_index.scanner.database is None
    assert sorted(detector.detect(text), key=repr) == sorted(with_hyperscan, key=repr)


def brute_force_positions(lowered: str, anchors: tuple[str, ...]) -> list[int]:
    return [i for i in range(len(lowered)) if any(lowered.startswith(a, i) for a in anchors)]


NESTED_ANCHORS = [("my", "my name"), ("name", "am"), ("a",), ("aaa", "aa"), ("my name is",)]


@pytest.mark.parametrize(
    "text",
    [
        "My name is Ana; my name's Aaa. Call me, my naMe-aaaa amy.",
        "aaaaaa my my namename",
        "İstanbul: my name İs İlker, a Name",
        "",
    ],
)
def test_anchor_index_finds_every_offset_where_an_anchor_starts(text: str) -> None:
    lowered = lower_same_length(text)
    found = AnchorIndex(NESTED_ANCHORS).positions(lowered)
    for anchors in NESTED_ANCHORS:
        assert found.get(anchors, []) == brute_force_positions(lowered, anchors), anchors


WORD_START_ANCHORS = [("he", "she's", "she"), ("ул.", "né"), ("n°", "tél"), ("to", "to ")]


@pytest.mark.parametrize(
    "text",
    [
        "He said she's here; the chef_he went to Tom. Tél: 5, n° 7, ул. Ленина, Рене́ né",
        "éhe ßhe 1he _he -he\the\nhe ?he «he Heé",
        "hehehe to tototo to",
        "",
    ],
)
def test_word_start_anchors_are_found_where_no_ascii_word_character_stands_before(
    text: str,
) -> None:
    lowered = lower_same_length(text)
    index = AnchorIndex(WORD_START_ANCHORS, word_start=set(WORD_START_ANCHORS))
    found = index.positions(lowered)
    for anchors in WORD_START_ANCHORS:
        expected = [
            p
            for p in brute_force_positions(lowered, anchors)
            if p == 0 or not re.fullmatch(r"\w", lowered[p - 1], re.ASCII)
        ]
        assert found.get(anchors, []) == expected, anchors


NON_ASCII_ANCHORS = [("ул.", "вул.", "улица"), ("nº", "n°"), ("né", "née"), ("ş", "aş"), ("ba",)]


@pytest.mark.parametrize(
    "text",
    [
        "ул. Ленина, вул. Шевченка, вулиця, улица; nº 5 n° 6 ñº; né, née, Renée; ş aş başka",
        "ул.ул.вул.xул. _ул. 1né ené -né ş",
        "ş",
        "",
    ],
)
@pytest.mark.parametrize("word_start", [True, False])
def test_anchors_holding_non_ascii_characters_are_found_by_that_character(
    text: str, word_start: bool
) -> None:
    """Found in one pass for the non-ASCII characters they hold, at any offset inside them,
    with overlapping occurrences ("ул." inside "вул.") and at the text's start."""
    lowered = lower_same_length(text)
    index = AnchorIndex(
        NON_ASCII_ANCHORS, word_start=set(NON_ASCII_ANCHORS) if word_start else set()
    )
    scanner = index.scanner
    if scanner.database is not None:
        assert not scanner.by_find and scanner.by_char  # the one-pass search runs
    found = index.positions(lowered)
    for anchors in NON_ASCII_ANCHORS:
        expected = [
            p
            for p in brute_force_positions(lowered, anchors)
            if not word_start or p == 0 or not re.fullmatch(r"\w", lowered[p - 1], re.ASCII)
        ]
        assert found.get(anchors, []) == expected, anchors


def test_the_superset_gated_rules_are_anchored_rules_run_from_the_prefilter() -> None:
    detector = RegexDetector()
    by_id = {rule.rule_id: rule for rule in RULES}
    assert SUPERSET_GATED_RULES <= set(by_id)
    anchored_sets = set(detector.anchor_index.anchor_sets)
    for rule_id in SUPERSET_GATED_RULES:
        rule = by_id[rule_id]
        assert rule.anchors and rule.trigger is None and not runs_at_anchors(rule)
        assert rule.pattern in detector.prefilter.supersets
        if not any(runs_at_anchors(r) and r.anchors == rule.anchors for r in RULES):
            assert rule.anchors not in anchored_sets  # its literals are no longer searched


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_texts_up_to_one_block_run_the_gated_rules_at_their_anchors(extra: int) -> None:
    detector = RegexDetector()
    gated = {i for i, rule in enumerate(RULES) if rule.rule_id in SUPERSET_GATED_RULES}
    if detector.prefilter.database is not None:
        assert gated <= detector.short_plan.at_anchors
        assert not gated & detector.plan.at_anchors
    block = detector.prefilter.block
    text = "\n\n".join(dev_documents())[: block + extra]
    assert len(text) == block + extra
    assert sorted(detector.detect(text), key=repr) == sorted(reference_detect(text), key=repr)


def test_a_superset_gated_rule_finds_what_it_finds_at_its_anchors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "\n\n".join(dev_documents()[:150])
    gated = RegexDetector().detect(text)
    monkeypatch.setattr(regex, "SUPERSET_GATED_RULES", frozenset())
    monkeypatch.setattr(regex, "_PREFILTERS", {})
    at_anchors = RegexDetector().detect(text)
    assert {d.rule_id for d in gated} >= set(regex.SUPERSET_GATED_RULES) - {"person_ranked"}
    assert sorted(gated, key=repr) == sorted(at_anchors, key=repr)


def test_without_hyperscan_the_superset_gated_rules_keep_to_their_anchors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "\n\n".join(dev_documents()[:60])
    with_hyperscan = RegexDetector().detect(text)
    monkeypatch.setattr(prefilter, "hyperscan", None)
    monkeypatch.setattr(regex, "_PREFILTERS", {})
    detector = RegexDetector()
    by_id = {rule.rule_id: rule for rule in RULES}
    assert all(runs_at_anchors(by_id[rule_id]) for rule_id in SUPERSET_GATED_RULES)
    assert by_id["person_label"].anchors in detector.anchor_index.anchor_sets
    assert sorted(detector.detect(text), key=repr) == sorted(with_hyperscan, key=repr)


@pytest.mark.parametrize(
    ("pattern", "guarded"),
    [
        (r"\bab", True),
        (r"(?i:\b(?:she|he)[ ]is)", True),
        (r"(?<![\w@])x", True),
        (r"(?<!\w)x", True),
        (r"(?:\ba|\bc)", True),
        (r"(?:\ba|c)", False),  # one alternative has no boundary
        (r"(?<![^\w])x", False),  # refuses non-word characters only
        (r"(?<![a-z])x", False),  # refuses only some word characters
        (r"(?a:\bx)", False),  # ASCII word boundary: 'é' is no word character there
        (r"\Bx", False),
        (r"x\b", False),
    ],
)
def test_only_patterns_opening_with_a_word_boundary_count_as_such(
    pattern: str, guarded: bool
) -> None:
    assert opens_with_word_boundary(re.compile(pattern)) is guarded


def test_word_start_anchor_sets_are_those_whose_every_rule_opens_at_a_boundary() -> None:
    opening = Rule("a", "custom", re.compile(r"(?i:\b(?:mo|tu))\w+"), 0.5, "", anchors=("mo", "tu"))
    shared = Rule("b", "custom", re.compile(r"(?i:\bhe)\d"), 0.5, "", anchors=("he",))
    inside = Rule("c", "custom", re.compile(r"(?i:he)\d"), 0.5, "", anchors=("he",))
    symbol = Rule("d", "custom", re.compile(r"\b@\w+"), 0.5, "", anchors=("@",))
    sets, word_start = anchor_sets([opening, shared, inside, symbol])
    assert sets == [("mo", "tu"), ("he",), ("he",), ("@",)]
    assert word_start == {("mo", "tu")}
    text = "the1 he2 mo3 elmo tuna"
    detector = RegexDetector((opening, shared, inside, symbol))
    found = sorted((d.rule_id, d.start, d.end) for d in detector.detect(text))
    assert found == [("a", 9, 12), ("a", 18, 22), ("b", 5, 8), ("c", 1, 4), ("c", 5, 8)]


def test_anchor_index_covers_every_rule_s_anchors_on_the_dev_documents() -> None:
    lowered = lower_same_length("\n".join(dev_documents()[:60]))
    anchored = [rule.anchors for rule in RULES if rule.anchors]
    found = AnchorIndex(anchored).positions(lowered)
    for anchors in anchored:
        expected = sorted(
            {m.start() for a in anchors for m in re.finditer(f"(?={re.escape(a)})", lowered)}
        )
        assert found.get(anchors, []) == expected, anchors


def flat_propagation(text: str, detections: list[Detection]) -> list[tuple[int, int]]:
    """Name propagation with a flat longest-first alternation (the prefix tree's reference)."""
    rare, common = name_words(text, detections)
    spans = []
    for words, flags in ((rare, re.IGNORECASE), (common, 0)):
        if words:
            alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
            pattern = re.compile(rf"(?<![\w'’-])(?:{alternation})(?![\w-]|['’]\w\w)", flags)
            spans += [m.span() for m in pattern.finditer(text)]
    return sorted(spans)


def test_name_propagation_matches_a_flat_alternation_on_dev_names() -> None:
    docs = dev_sets.handwritten_dev() + dev_sets.corpus_dev(60)
    text = "\n\n".join(d["text"] for d in docs)
    offset, seeds = 0, []
    for doc in docs:
        for span in doc["spans"]:
            if span["label"] == "full person name":
                start, end = span["start"] + offset, span["end"] + offset
                seeds.append(Detection(start, end, "full person name", "[PERSON]", "ner", 0.9))
        offset += len(doc["text"]) + 2
    propagated = name_mentions(text, *name_words(text, seeds))  # short forms aside
    assert len(propagated) > 200
    assert propagated == flat_propagation(text, seeds)


@pytest.mark.parametrize(
    "token",
    ["John's", "Ana’s.", "'s", "JOHN'S", "Smith,", "...", "O'Neill", "s", "Jones's;", "İlker's"],
)
def test_a_bare_token_drops_edge_punctuation_and_a_possessive_as_the_regex_did(
    token: str,
) -> None:
    assert _bare(token) == re.sub(r"['’]s$", "", token.strip(".,;:!?")).lower()


def test_the_detector_builds_detections_equal_to_the_constructor_s_in_every_field() -> None:
    text = "Call Maria Fernandez on +44 20 7946 0958 or mail maria@example.org."
    found = RegexDetector().detect(text)
    assert len(found) >= 3
    for detection in found:
        built = Detection(*(getattr(detection, f.name) for f in dataclasses.fields(Detection)))
        assert vars(detection) == vars(built)
        assert detection == built and hash(detection) == hash(built)
        assert repr(detection) == repr(built)
        with pytest.raises(dataclasses.FrozenInstanceError):
            detection.start = 0  # type: ignore[misc]


def raising_rule() -> Rule:
    def refuse(text: str, start: int, end: int) -> tuple[int, int] | None:
        assert not gc.isenabled()  # the collector is paused while rules run
        raise RuntimeError("a refiner failed")

    return Rule("boom", "secret", re.compile(r"boom"), 0.5, "test", refine=refuse)


@pytest.mark.parametrize("enabled_before", [True, False])
def test_the_collector_is_restored_as_it_was_when_a_rule_raises(enabled_before: bool) -> None:
    detector = RegexDetector((raising_rule(),))
    was_enabled = gc.isenabled()
    try:
        if not enabled_before:
            gc.disable()
        with pytest.raises(RuntimeError, match="a refiner failed"):
            detector.detect("it went boom")
        assert gc.isenabled() is enabled_before
    finally:
        if was_enabled:
            gc.enable()


def test_a_paused_collector_is_enabled_again_after_the_block() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the inner block leaves it paused
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
