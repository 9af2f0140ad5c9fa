"""Count encoder tokens with the encoder's own tokenizer, without importing torch.

`plan()` and the rewrite both segment with this counter, so they cut the same K chunks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from anonymizer.models.resolver import ResolvedModel

TokenCounter = Callable[[str], int]

_COUNTERS: dict[str, TokenCounter] = {}
_LOCK = threading.Lock()


def encoder_token_counter(encoder: ResolvedModel | None) -> TokenCounter | None:
    """Tokens per text, end-of-sequence token included, as the encoder sees them; None when
    the encoder's `tokenizer.json` is not on this machine (callers then use a heuristic)."""
    if encoder is None or not (encoder.path / "tokenizer.json").is_file():
        return None
    key = str(encoder.path / "tokenizer.json")
    with _LOCK:
        if key not in _COUNTERS:
            _COUNTERS[key] = _load_counter(Path(key))
        return _COUNTERS[key]


def _load_counter(tokenizer_json: Path) -> TokenCounter:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_json))
    tokenizer.no_truncation()  # a stored truncation limit would undercount long texts
    tokenizer.no_padding()

    def count_tokens(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=True).ids)

    return count_tokens
