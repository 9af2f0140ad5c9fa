"""Given names and surnames from many locales, to tell a name from a common word.

"kofi" and "salesperson" are equally rare in English text, and "Will" or "Grace" are common
words that are also names, so word frequency alone cannot say whether a lone word is a
name. The list (`data/names.txt.gz`, ~56,000 lower-case names from Faker's person providers
in every locale it has) is rebuilt with `python -m anonymizer.detection.training names`.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

NAMES_FILE = Path(__file__).resolve().parent / "data" / "names.txt.gz"


@cache
def known_names() -> frozenset[str]:
    """Lower-case given names and surnames (empty when the file is missing)."""
    try:
        with gzip.open(NAMES_FILE, "rt", encoding="utf-8") as handle:
            return frozenset(line.strip() for line in handle if line.strip())
    except OSError:
        return frozenset()


@cache
def zipf(word: str) -> float:
    """English word frequency on wordfreq's Zipf scale (0 when wordfreq is missing)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        return 0.0
    return zipf_frequency(word, "en")


COMMON_ZIPF = 2.7


def is_common_non_name(word: str) -> bool:
    """A word seen often in English that is not a known name ("salesperson", "big", "desk")."""
    folded = word.casefold()
    return zipf(folded) >= COMMON_ZIPF and folded not in known_names()


_COLLECTIONS = (dict, tuple, list, set, frozenset)


def is_known_name(surface: str) -> bool:
    """Every word of `surface` is a known given name or surname."""
    words = surface.casefold().split()
    return bool(words) and all(w in known_names() for w in words)


def build_names_file(path: Path = NAMES_FILE) -> int:
    """Collect the names from Faker's person providers (all locales); returns the count."""
    import importlib
    import pkgutil

    import faker.providers.person as people

    names: set[str] = set()
    for module in pkgutil.iter_modules(people.__path__):
        provider = importlib.import_module(f"{people.__name__}.{module.name}").Provider
        for attr, value in vars(provider).items():
            if "names" in attr and "language" not in attr and isinstance(value, _COLLECTIONS):
                names.update(
                    n.strip().casefold() for n in value if isinstance(n, str) and n.strip()
                )
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(sorted(names)) + "\n")
    return len(names)
