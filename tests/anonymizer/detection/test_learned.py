"""The shipped NER model: loads offline from the package, finds names, runs on any size."""

from __future__ import annotations

import socket

import pytest

from anonymizer.detection import learned
from anonymizer.detection.combined import CombinedDetector
from anonymizer.detection.learned import MODEL_DIR, LearnedNerDetector, model_meta
from anonymizer.errors import MechanismUnavailable


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    attempts: list[tuple] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network access attempted in an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return attempts


def found(detector, text: str) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in detector.detect(text)}


def test_the_weights_ship_inside_the_package_and_are_small() -> None:
    size = sum(f.stat().st_size for f in MODEL_DIR.rglob("*") if f.is_file())
    assert size < 10_000_000
    meta = model_meta()
    assert {"PERSON", "ORG", "GPE", "ADDRESS", "POSTCODE", "NORP"} <= set(meta["labels"])


def test_the_shipped_weights_learnt_from_hand_written_documents_too() -> None:
    meta = model_meta()
    assert meta["hand_docs"] >= 100 and meta["hand_pieces"] >= meta["hand_docs"]
    assert all(path.startswith("bench/train_hand/") for path in meta["hand_files"])
    selected = meta["best"]["selected"]
    assert selected["sets"] == ["dev-hand-hard", "dev-hand-wild"]
    assert selected["best"]["cost"] <= selected["history"][0]["cost"]  # no worse than the start


def test_the_model_loads_offline_and_finds_names_places_and_addresses(no_network) -> None:
    detector = LearnedNerDetector()
    text = (
        "Yesterday Amara Okonkwo flew from Lagos to see her cousin Tobias.\n"
        "hey it's wanjiru, call me later\n"
        "Please send the form to 14 Cherry Lane, Bristol BS1 4DJ."
    )
    result = found(detector, text)
    assert result.get("Amara Okonkwo") == "full person name"
    assert result.get("Tobias") == "full person name"
    assert result.get("wanjiru") == "full person name"
    assert result.get("Lagos") == "location"
    # a statistical model gets a few plain street lines wrong ("to 14 Cherry Lane" reads as a
    # person to the cut model: Cherry is a first name in its corpus); most must be right
    streets = ["14 Cherry Lane", "22 Oak Street", "7 Mill Road", "118 Rosewood Avenue",
               "3 Birch Close", "41 Station Road"]  # fmt: skip
    lines = [
        f"Please send the form to {streets[0]}, Bristol BS1 4DJ.",
        f"Send it to {streets[1]}, Leeds LS6 2AB.",
        f"The parcel went to {streets[2]}, Cambridge CB1 2AD.",
        f"Deliver to {streets[3]}, Manchester M20 3FJ please.",
        f"Our new address is {streets[4]}, Norwich NR2 4PL.",
        f"She moved to {streets[5]}, Crewe CW1 2DB, last spring.",
    ]
    hits = [found(detector, line).get(street) for line, street in zip(lines, streets, strict=True)]
    assert hits.count("street address") >= 5, hits
    assert no_network == []


def test_batched_and_single_detection_agree() -> None:
    detector = LearnedNerDetector()
    texts = ["Ask Priya Raman about it.", "Mail goes to Dmitri in Odesa."]
    assert detector.detect_many(texts) == [detector.detect(t) for t in texts]


def test_missing_weights_make_it_unavailable_with_the_rebuild_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setattr(learned, "MODEL_DIR", tmp_path)
    with pytest.raises(MechanismUnavailable, match="python -m anonymizer.detection.training train"):
        learned._build_pipeline()


def test_a_document_over_a_million_characters_runs_with_offsets_right() -> None:
    """spaCy refuses texts over nlp.max_length (E088); chunking must make this work."""
    block = "The shipment left the warehouse on time and arrived without damage. " * 40 + "\n"
    text = block * 400 + "Please call Svetlana Morozova on +44 20 7946 0321.\n"
    assert len(text) > 1_000_000
    detections = CombinedDetector().detect(text)
    by_surface = {text[d.start : d.end]: d for d in detections}
    assert "Svetlana Morozova" in by_surface and "+44 20 7946 0321" in by_surface
    name = by_surface["Svetlana Morozova"]
    assert name.start == text.index("Svetlana Morozova")


def test_batches_are_bounded_in_documents_and_characters_and_keep_the_order() -> None:
    texts = ["a" * 10, "b" * 30, "c" * 5, "d" * 100, "e", "f", "g"]
    batches = learned.char_batches(texts, max_docs=2, max_chars=40)
    assert [t for batch in batches for t in batch] == texts
    assert batches == [["a" * 10, "b" * 30], ["c" * 5], ["d" * 100], ["e", "f"], ["g"]]
    assert learned.char_batches([], 32, 60_000) == []
