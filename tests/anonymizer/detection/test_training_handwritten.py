"""Hand-written training documents as NER examples, their mix with the generated corpus, and
the checkpoint selection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from anonymizer.detection.training import handwritten
from anonymizer.detection.training.handwritten import (
    boosted,
    example_labels,
    hand_examples,
    hand_files,
    load_hand_docs,
    oversampled,
    split_long,
)
from anonymizer.detection.training.select import Selection, selection_cost, selection_sets
from anonymizer.detection.training.synth import NER_LABELS

BUILT = """=== trna-001 letter
Dear [[Ms Okonkwo|PER]],
Your visit to [[Riverside Clinic|ORG]] in [[Leeds|LOC]] is on [[12 March 2025|DATE]].
Call [[0113 496 0000|PHONE]] or write to [[r.okonkwo@example.org|EMAIL]].
She is [[Nigerian|NRP]], lives at [[14 Mill Lane|ADDR]], [[LS6 2AB|ZIP]].
=== trnb-001 chat
[[kev|PER]]: u coming? ask [[TJ|PER]], he is [[31|AGE]] now
"""


@pytest.fixture
def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "handwritten_train_a.txt"
    path.write_text(BUILT, encoding="utf-8")
    (tmp_path / "handwritten_train_b.txt").write_text("", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def blank() -> Any:
    spacy = pytest.importorskip("spacy")
    return spacy.blank("en")


def token_tags(example: Any) -> dict[str, str]:
    """token text -> IOB tag of the reference ("-" where the annotation is missing)."""
    return {
        t.text: "-" if not t.ent_iob_ else t.ent_iob_ + (f"-{t.ent_type_}" if t.ent_type_ else "")
        for t in example.reference
    }


def test_only_built_files_with_documents_are_read(hand_file: Path) -> None:
    assert hand_files(hand_file.parent) == [hand_file]
    docs = load_hand_docs(hand_files(hand_file.parent))
    assert [d["id"] for d in docs] == ["trna-001", "trnb-001"]
    doc = docs[0]
    assert {doc["text"][s["start"] : s["end"]] for s in doc["spans"]} >= {"Leeds", "LS6 2AB"}


def test_the_default_directory_is_the_repository_s_train_hand_folder() -> None:
    assert handwritten.HAND_DIR.name == "train_hand"
    assert (handwritten.HAND_DIR / "README.md").is_file()


def test_ner_categories_become_labels_and_the_others_are_missing(
    hand_file: Path, blank: Any
) -> None:
    letter, chat = hand_examples(blank, load_hand_docs([hand_file]), annotator=blank)
    tags = token_tags(letter)
    assert (tags["Ms"], tags["Okonkwo"]) == ("B-PERSON", "I-PERSON")
    assert (tags["Riverside"], tags["Clinic"]) == ("B-ORG", "I-ORG")
    assert tags["Leeds"] == "B-GPE"
    assert tags["Nigerian"] == "B-NORP"
    assert (tags["14"], tags["Lane"]) == ("B-ADDRESS", "I-ADDRESS")
    assert (tags["LS6"], tags["2AB"]) == ("B-POSTCODE", "I-POSTCODE")
    # emails, phones, dates: not the NER's job, and not "not an entity" either
    assert tags["r.okonkwo@example.org"] == "-"
    assert tags["0113"] == tags["496"] == tags["March"] == tags["2025"] == "-"
    assert tags["Dear"] == tags["Call"] == tags["visit"] == "O"
    chat_tags = token_tags(chat)
    assert chat_tags["kev"] == chat_tags["TJ"] == "B-PERSON"
    assert chat_tags["31"] == "-"
    assert chat_tags["ask"] == "O"


def test_entity_offsets_match_the_gold_surfaces(hand_file: Path, blank: Any) -> None:
    docs = load_hand_docs([hand_file])
    examples = hand_examples(blank, docs, annotator=blank)
    for doc, example in zip(docs, examples, strict=True):
        assert example.reference.text == doc["text"]
        entities = {(e.start_char, e.end_char) for e in example.reference.ents}
        gold = {(s["start"], s["end"]) for s in doc["spans"] if s["label"] in NER_LABELS}
        assert entities == gold


def test_a_gold_name_inside_another_word_marks_only_its_own_tokens(
    tmp_path: Path, blank: Any
) -> None:
    path = tmp_path / "handwritten_train_k.txt"
    path.write_text(
        "=== trnk-001 chat\n[[Cal|PER]]: call me, [[Al|PER]] broke the Algorithm, [[Cal|PER]]\n",
        encoding="utf-8",
    )
    docs = load_hand_docs([path])
    (example,) = hand_examples(blank, docs, annotator=blank)
    entities = [(e.start_char, e.end_char, e.text) for e in example.reference.ents]
    gold = [
        (s["start"], s["end"], docs[0]["text"][s["start"] : s["end"]]) for s in docs[0]["spans"]
    ]
    assert entities == gold
    assert [e[2] for e in entities] == ["Cal", "Al", "Cal"]
    tags = token_tags(example)
    assert tags["call"] == tags["Algorithm"] == "O"


def test_pieces_holding_a_boosted_label_count_factor_times(hand_file: Path, blank: Any) -> None:
    docs = load_hand_docs([hand_file])
    letter, chat = hand_examples(blank, docs, annotator=blank)
    assert "NORP" in example_labels(letter) and "NORP" not in example_labels(chat)
    pool = boosted([letter, chat], example_labels, ["NORP"], 3)
    assert pool == [letter, letter, letter, chat]
    assert boosted([letter, chat], example_labels, ["NORP"], 1) == [letter, chat]
    # repeated, not rebuilt: the gold offsets are those of the document
    for example in pool[:3]:
        assert example is letter
        assert [e.text for e in example.reference.ents if e.label_ == "NORP"] == ["Nigerian"]
    mixed = oversampled([f"g{i}" for i in range(400)], pool, 0.35, seed=1)
    n_hand = mixed.count(letter) + mixed.count(chat)
    assert n_hand / len(mixed) == pytest.approx(0.35, abs=0.005)
    assert mixed.count(letter) == pytest.approx(3 * mixed.count(chat), abs=3)
    with pytest.raises(ValueError):
        boosted([letter], example_labels, ["NORP"], 0)


def test_long_documents_are_cut_at_line_breaks_outside_every_span() -> None:
    lines = [f"Line {i} mentions [[Name{i} Person|PER]] here." for i in range(200)]
    lines.insert(50, "A span [[crossing\nthe break|ADDR]] stays whole.")
    from bench.dev_sets import parse_marked

    text, spans = parse_marked("\n".join(lines))
    doc = {"id": "trna-009", "genre": "log", "text": text, "spans": spans}
    pieces = split_long(doc, max_chars=500)
    assert len(pieces) > 5
    assert "".join(p["text"] for p in pieces) == text
    assert all(len(p["text"]) <= 500 for p in pieces)
    surfaces = [p["text"][s["start"] : s["end"]] for p in pieces for s in p["spans"]]
    assert surfaces == [text[s["start"] : s["end"]] for s in spans]
    assert "crossing\nthe break" in surfaces
    assert len({p["id"] for p in pieces}) == len(pieces)
    assert split_long(doc, max_chars=len(text)) == [doc]


def test_hand_examples_make_up_the_asked_share_of_the_mix() -> None:
    generated = [f"g{i}" for i in range(800)]
    hand = [f"h{i}" for i in range(30)]
    mixed = oversampled(generated, hand, 0.2, seed=1)
    n_hand = sum(x.startswith("h") for x in mixed)
    assert n_hand / len(mixed) == pytest.approx(0.2, abs=0.005)
    assert sorted(x for x in mixed if x.startswith("g")) == sorted(generated)
    counts = [mixed.count(h) for h in hand]
    assert max(counts) - min(counts) <= 1  # every hand document repeated about equally
    assert oversampled(generated, [], 0.2, seed=1) == generated
    assert set(oversampled(generated[:5], hand, 0.2, seed=1)) >= set(hand)  # each at least once
    with pytest.raises(ValueError):
        oversampled(generated, hand, 1.0, seed=1)


def test_the_same_seed_gives_the_same_mix_and_another_seed_another_order() -> None:
    generated = [f"g{i}" for i in range(300)]
    hand = [f"h{i}" for i in range(7)]
    assert oversampled(generated, hand, 0.3, seed=5) == oversampled(generated, hand, 0.3, seed=5)
    assert oversampled(generated, hand, 0.3, seed=5) != oversampled(generated, hand, 0.3, seed=6)


def test_selection_prefers_lower_leak_and_weighs_precision() -> None:
    good = {"a": {"leak": 0.05, "precision": 0.85}, "b": {"leak": 0.10, "precision": 0.85}}
    leakier = {"a": {"leak": 0.07, "precision": 0.85}, "b": {"leak": 0.10, "precision": 0.85}}
    sloppier = {"a": {"leak": 0.045, "precision": 0.70}, "b": {"leak": 0.10, "precision": 0.85}}
    assert selection_cost(good) < selection_cost(leakier)
    assert selection_cost(good) < selection_cost(sloppier)


def test_checkpoints_are_never_selected_on_blind_or_frozen_sets(tmp_path: Path) -> None:
    for sets in (("dev-hand-hard", "dev-hand-wild-blind"), ("frozen-hand",), ("dev-hand-blind",)):
        with pytest.raises(ValueError):
            Selection(tmp_path, log=None, set_names=sets)  # type: ignore[arg-type]


def test_a_misspelt_set_name_is_refused_never_read_as_a_frozen_set(tmp_path: Path) -> None:
    """load_set used to read frozen-independent for any name it did not know."""
    from bench.detection_bench import load_set

    with pytest.raises(ValueError, match="unknown evaluation set"):
        load_set("dev-hand-wlid", 0)
    with pytest.raises(ValueError):
        selection_sets(("dev-hand-hard", "dev-hand-wlid"))
    with pytest.raises(ValueError, match="no documents"):
        selection_sets(("dev-corpus",))  # generated: nothing to score with n = 0
    assert set(selection_sets(("dev-hand-hard",))) == {"dev-hand-hard"}


def test_the_training_command_refuses_frozen_selection_sets_before_preparing(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "anonymizer.detection.training", "train"]
    command += ["--select-every", "1", "--select-sets", "dev-hand-hard,frozen-hand"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "model")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2
    assert "studyable dev sets only" in done.stderr
    assert not (tmp_path / "model").exists()


def test_the_recorded_hand_argument_names_files_read_from_elsewhere(hand_file: Path) -> None:
    from anonymizer.detection.training.train import hand_argument

    assert hand_argument(hand_files()) == "default"
    assert hand_argument([]) == "none"
    assert hand_argument([hand_file]) == str(hand_file.resolve())
