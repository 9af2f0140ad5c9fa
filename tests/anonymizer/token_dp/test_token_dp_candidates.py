"""Public candidate sets: Faker surrogates and the word vocabulary, cached on disk."""

from __future__ import annotations

import numpy as np

from anonymizer.token_dp import candidates
from anonymizer.token_dp.candidates import (
    cache_dir,
    generate_strings,
    has_candidates,
    load_candidate_set,
)


def test_generation_is_deterministic_and_distinct() -> None:
    first = generate_strings("full person name", 200, seed=4)
    assert first == generate_strings("full person name", 200, seed=4)
    assert first != generate_strings("full person name", 200, seed=5)
    assert len(first) == len(set(first)) == 200
    assert all(" " in name for name in first)


def test_small_categories_return_what_exists() -> None:
    ages = generate_strings("age", 500)
    assert len(ages) == 99 and all(a.isdigit() for a in ages)


def test_secrets_and_ids_have_no_candidates() -> None:
    for category in ("secret", "internal id", "crypto wallet", "nationality or group"):
        assert not has_candidates(category)
    assert has_candidates("email address") and has_candidates("custom")


def test_vocabulary_is_frequent_alphabetic_words() -> None:
    words = generate_strings("general word", 300)
    assert len(words) == 300 and words[0] == "the"
    assert all(w.replace("'", "").isalpha() for w in words)


def test_candidate_sets_are_cached_on_disk_by_category_size_seed_and_model(embedder) -> None:  # type: ignore[no-untyped-def]
    first = load_candidate_set("email address", 40, embedder, seed=2)
    files = list(cache_dir().glob("*.npz"))
    assert len(files) == 1
    name = files[0].name
    assert "email-address" in name and "n40" in name and "seed2" in name
    assert embedder.name in name
    calls = embedder.calls
    candidates.clear_memory_cache()
    again = load_candidate_set("email address", 40, embedder, seed=2)
    assert embedder.calls == calls  # read from disk, not re-embedded
    assert again.strings == first.strings
    np.testing.assert_array_equal(again.embeddings, first.embeddings)
    load_candidate_set("email address", 41, embedder, seed=2)
    assert len(list(cache_dir().glob("*.npz"))) == 2
