"""Tiny random-weight stand-ins of the dp-embed-invert models (T5 encoder + tokenizer, vec2text
hypothesiser and corrector), saved with `save_pretrained` to a temporary directory and found
through `ANONYMIZER_MODEL_DIR`: the same resolver and loader that serve the published weights.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from anonymizer.settings import Settings

ROLE_ENV_VARS = (
    "ANONYMIZER_ENCODER",
    "ANONYMIZER_INVERTER",
    "ANONYMIZER_CORRECTOR",
    "ANONYMIZER_BACKBONE",
)


@dataclass
class TinyModels:
    directory: Path
    standins: object  # anonymizer.models.standins.Standins, kept to compare loaded weights
    generation_kwargs: dict | None = None  # the unpatched GENERATION_KWARGS


@pytest.fixture(scope="session")
def tiny_model_files(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    pytest.importorskip("vec2text")
    from anonymizer.models.standins import build_standins, save_standins

    standins = build_standins("tiny", seed=0)
    directory = save_standins(standins, tmp_path_factory.mktemp("tiny-models"))
    return TinyModels(directory, standins)


@pytest.fixture(scope="module")
def tiny_models(tiny_model_files: TinyModels) -> Iterator[TinyModels]:
    """Point the resolver at the stand-ins for one test module, with the hub off.

    Random weights almost never emit `</s>`, so every generation would run to vec2text's
    128-token limit; 16 tokens keep the suite fast and leave every code path as it is. One
    torch thread: the tiny matrices gain nothing from more, and on a busy 2-core machine
    thread hand-offs made each rewrite ~10x slower.
    """
    import torch

    from anonymizer.models import gtr_vec2text

    original = dict(gtr_vec2text.GENERATION_KWARGS)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    with pytest.MonkeyPatch.context() as mp:
        for var in ROLE_ENV_VARS:
            mp.delenv(var, raising=False)
        mp.setenv("ANONYMIZER_MODEL_DIR", str(tiny_model_files.directory))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setitem(gtr_vec2text.GENERATION_KWARGS, "max_length", 16)
        yield TinyModels(tiny_model_files.directory, tiny_model_files.standins, original)
    torch.set_num_threads(threads)


@pytest.fixture
def no_models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty model directory and an empty Hugging Face cache: nothing is installed."""
    for var in ROLE_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    empty = tmp_path / "no-models"
    empty.mkdir()
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(empty))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))
    return empty


@pytest.fixture
def invert_settings() -> Settings:
    return Settings(mechanism="dp-embed-invert", detector="regex", num_steps=2, batch_size=8)


@pytest.fixture(scope="session")
def contact_text() -> str:
    return (
        "Contact Jane Doe at jane.doe@example.com or call 415-555-0188 about the merger.\n\n"
        "Our office is downtown, next to the old bank -- we meet every Monday."
    )


@pytest.fixture(scope="session")
def long_text() -> str:
    """About 2,000 words in paragraphs, with email addresses sprinkled in."""
    pytest.importorskip("transformers")
    from anonymizer.models.standins import standin_sentences

    rng = random.Random(7)
    sentences: list[str] = []
    words = 0
    for sentence in standin_sentences(20_000, seed=7):
        if words >= 2000:
            break
        if rng.random() < 0.05:
            sentence += f" Write to user{rng.randint(1, 99)}@example.org today."
        sentences.append(sentence)
        words += len(sentence.split())
    paragraphs = [" ".join(sentences[i : i + 6]) for i in range(0, len(sentences), 6)]
    return "\n\n".join(paragraphs)
