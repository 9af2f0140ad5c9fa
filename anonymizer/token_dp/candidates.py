"""Public candidate sets per PII category: Faker surrogates (or frequent English words), embedded.

A candidate set depends only on (category, size, generator seed, embedder, Faker version), never
on a document, so it is public; it is embedded once and cached on disk under
`$ANONYMIZER_CACHE_DIR/token_dp` (default `~/.cache/anonymizer/token_dp`). Categories with no
sensible surrogate generator (secrets, internal ids, ...) have no candidate set: the sanitizers
keep their placeholders.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from anonymizer.token_dp.embedding import Embedder

CANDIDATE_SEED = 0
GENERATOR_VERSION = 1
GENERAL_WORDS = "general word"
VOCABULARY_CATEGORIES = (GENERAL_WORDS, "custom")

WORD_PATTERN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

# Locale weights: mostly English-speaking, with a spread of European locales.
_EUROPE = OrderedDict(
    [
        ("en_US", 4),
        ("en_GB", 2),
        ("de_DE", 1),
        ("fr_FR", 1),
        ("es_ES", 1),
        ("it_IT", 1),
        ("nl_NL", 1),
        ("pl_PL", 1),
    ]
)
_ENGLISH = OrderedDict([("en_US", 3), ("en_GB", 1)])
_US = OrderedDict([("en_US", 1)])
_DATE_FORMATS = (
    "%Y-%m-%d",
    "%d/%m/%Y",
    "%m/%d/%Y",
    "%B %d, %Y",
    "%d %B %Y",
    "%b %d, %Y",
    "%d.%m.%Y",
)


def _date_string(fake: Any, value: dt.date) -> str:
    return value.strftime(fake.random_element(_DATE_FORMATS)).strip()


def _location(fake: Any) -> str:
    return fake["en_US"].country() if fake.random_int(0, 3) == 0 else fake.city()


@dataclass(frozen=True)
class Generator:
    """How to draw one surrogate string of a category, and from which locales."""

    locales: OrderedDict[str, int]
    draw: Callable[[Any], str]
    description: str


GENERATORS: dict[str, Generator] = {
    "full person name": Generator(
        _EUROPE, lambda f: f"{f.first_name()} {f.last_name()}", "Faker first_name + last_name"
    ),
    "email address": Generator(_EUROPE, lambda f: f.email(), "Faker email"),
    "phone number": Generator(_EUROPE, lambda f: f.phone_number(), "Faker phone_number"),
    "ssn": Generator(_US, lambda f: f.ssn(), "Faker ssn (en_US)"),
    "ip address": Generator(_US, lambda f: f.ipv4(), "Faker ipv4"),
    "mac address": Generator(_US, lambda f: f.mac_address(), "Faker mac_address"),
    "url": Generator(_EUROPE, lambda f: f.url().rstrip("/"), "Faker url"),
    "passport number": Generator(_US, lambda f: f.passport_number(), "Faker passport_number"),
    "date of birth": Generator(
        _EUROPE,
        lambda f: _date_string(f, f.date_of_birth(minimum_age=1, maximum_age=95)),
        "Faker date_of_birth in common formats",
    ),
    "date": Generator(
        _EUROPE,
        lambda f: _date_string(f, f.date_between("-40y", "+2y")),
        "Faker date_between in common formats",
    ),
    "organization": Generator(_EUROPE, lambda f: f.company(), "Faker company"),
    "street address": Generator(_EUROPE, lambda f: f.street_address(), "Faker street_address"),
    "postal code": Generator(_EUROPE, lambda f: f.postcode(), "Faker postcode"),
    "location": Generator(_EUROPE, _location, "Faker city (3/4) or country (1/4)"),
    "age": Generator(_US, lambda f: str(f.random_int(1, 99)), "integers 1-99"),
    "routing number": Generator(_US, lambda f: f.aba(), "Faker aba"),
    "bank account number": Generator(_EUROPE, lambda f: f.bban(), "Faker bban"),
    "iban": Generator(_EUROPE, lambda f: f.iban(), "Faker iban"),
    "swift/bic": Generator(_EUROPE, lambda f: f.swift(), "Faker swift"),
    "card number": Generator(_US, lambda f: f.credit_card_number(), "Faker credit_card_number"),
    "ein": Generator(_US, lambda f: f.ein(), "Faker ein (en_US)"),
    "license plate": Generator(_EUROPE, lambda f: f.license_plate(), "Faker license_plate"),
    "handle": Generator(_ENGLISH, lambda f: "@" + f.user_name(), "@ + Faker user_name"),
}


def has_candidates(category: str) -> bool:
    """True when the category gets surrogates; False means it keeps its placeholder."""
    return category in GENERATORS or category in VOCABULARY_CATEGORIES


def candidate_source(category: str) -> str:
    if category in VOCABULARY_CATEGORIES:
        return "wordfreq top_n_list('en'), alphabetic words"
    generator = GENERATORS[category]
    return f"{generator.description}; locales {','.join(generator.locales)}"


def generate_strings(category: str, size: int, seed: int = CANDIDATE_SEED) -> list[str]:
    """Up to `size` distinct surrogate strings of a category, deterministic given the seed."""
    if category in VOCABULARY_CATEGORIES:
        return vocabulary(size)
    from faker import Faker

    generator = GENERATORS[category]
    fake = Faker(generator.locales)
    fake.seed_instance(seed)
    strings: dict[str, None] = {}
    attempts = 0
    while len(strings) < size and attempts < 20 * size:
        attempts += 1
        value = " ".join(generator.draw(fake).split())
        if value:
            strings.setdefault(value)
    return list(strings)


def vocabulary(size: int) -> list[str]:
    """The `size` most frequent alphabetic English words (SanText's general vocabulary)."""
    import wordfreq

    words: list[str] = []
    for word in wordfreq.top_n_list("en", 3 * size + 100):
        if WORD_PATTERN.fullmatch(word) and word not in words:
            words.append(word)
            if len(words) == size:
                break
    return words


@dataclass(frozen=True)
class CandidateSet:
    """A public candidate set: distinct strings and their embeddings (float64, one row each)."""

    category: str
    strings: tuple[str, ...]
    embeddings: np.ndarray
    source: str
    key: str

    def __len__(self) -> int:
        return len(self.strings)


def cache_dir() -> Path:
    root = os.environ.get("ANONYMIZER_CACHE_DIR") or str(Path.home() / ".cache" / "anonymizer")
    return Path(root).expanduser() / "token_dp"


def _slug(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", value).strip("-").lower()


def cache_key(category: str, size: int, seed: int, model: str) -> str:
    try:
        faker_version = importlib.metadata.version("faker")
    except importlib.metadata.PackageNotFoundError:
        faker_version = "none"
    generator = "wordfreq" if category in VOCABULARY_CATEGORIES else f"faker{faker_version}"
    return (
        f"{_slug(category)}__n{size}__seed{seed}__{_slug(model)}__{_slug(generator)}"
        f"__v{GENERATOR_VERSION}"
    )


_MEMORY: dict[str, CandidateSet] = {}
_MEMORY_LOCK = threading.Lock()


def load_candidate_set(
    category: str,
    size: int,
    embedder: Embedder,
    *,
    seed: int = CANDIDATE_SEED,
    on_batch: Callable[[int, int], None] | None = None,
) -> CandidateSet:
    """The category's candidate set: from memory, else the disk cache, else generated.

    Generating embeds the strings in batches and calls `on_batch(done, total)` after each,
    so a long build reports progress (and a cancel check runs) every few seconds."""
    key = cache_key(category, size, seed, embedder.name)
    with _MEMORY_LOCK:
        if key in _MEMORY:
            return _MEMORY[key]
    path = cache_dir() / f"{key}.npz"
    strings: list[str] | None = None
    embeddings: np.ndarray | None = None
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                strings = [str(s) for s in data["strings"]]
                embeddings = np.asarray(data["embeddings"], dtype=np.float64)
        except (OSError, KeyError, ValueError):
            strings = None  # a corrupt or foreign file: rebuild it
    if strings is None or embeddings is None or len(strings) != len(embeddings):
        strings = generate_strings(category, size, seed)
        # Rounded to the float32 that is stored, so a cached and a fresh run agree exactly.
        embeddings = _encode_in_batches(embedder, strings, on_batch)
        _save(path, strings, embeddings)
    candidates = CandidateSet(category, tuple(strings), embeddings, candidate_source(category), key)
    with _MEMORY_LOCK:
        _MEMORY[key] = candidates
    return candidates


ENCODE_BATCH = 1024


def _encode_in_batches(
    embedder: Embedder, strings: list[str], on_batch: Callable[[int, int], None] | None
) -> np.ndarray:
    parts = []
    for start in range(0, len(strings), ENCODE_BATCH):
        parts.append(np.asarray(embedder.encode(strings[start : start + ENCODE_BATCH])))
        if on_batch is not None:
            on_batch(min(start + ENCODE_BATCH, len(strings)), len(strings))
    # Rounded to the float32 that is stored, so a cached and a fresh run agree exactly.
    return np.vstack(parts).astype(np.float32).astype(np.float64)


def _save(path: Path, strings: list[str], embeddings: np.ndarray) -> None:
    """Write atomically so concurrent workers never read half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp.npz")
    np.savez(tmp, strings=np.array(strings, dtype=str), embeddings=embeddings.astype(np.float32))
    os.replace(tmp, path)


def clear_memory_cache() -> None:
    with _MEMORY_LOCK:
        _MEMORY.clear()
