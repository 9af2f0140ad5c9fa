"""What the attackers see, as arrays: embeddings, context vectors and the mechanism's own
likelihoods of every candidate.

Everything here is computable by the threat model's attacker (seed 004 §2.1: it knows the
mechanism, its parameters and the public candidate sets, and holds an auxiliary corpus):
- string embeddings: all-MiniLM-L6-v2, the mechanism's own space (inputs embedded exactly as
  the rewrite embeds them: a public candidate's cached row, else the string's own vector);
- context: the mean of MiniLM's static word-piece embeddings over the text around a record
  with every span shown as its placeholder (what a redacted copy shows; cheap enough for
  thousands of documents on a CPU, unlike running the encoder on every window);
- the likelihood log Pr[y | x] of a record's surrogate y under each candidate x, from a
  sanitizer's `log_probs` (the function the rewrite samples from), and the same for the
  surrogates of the document's other records of that category ("cross" evidence);
- cosine similarities between each candidate and the document's surrogates.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import cache_dir
from anonymizer.token_dp.sanitizer import PublicDomain, TokenSanitizer
from bench.attack_audit.data import Split

FLOOR = -30.0  # relative log-likelihoods below this (and impossible candidates) are clipped
N_FEATURES = 6
REDUCED_DIM = 64


class StringSpace:
    """Row ids and embeddings for every string the audit touches (inputs and outputs).

    Embeddings of strings the audit embeds itself are kept on disk next to the candidate
    sets (`$ANONYMIZER_CACHE_DIR/token_dp/attack_audit_strings__<model>.npz`), so a rerun
    does not embed its documents' strings again.
    """

    def __init__(self, embedder) -> None:  # type: ignore[no-untyped-def]
        self.embedder = embedder
        self.index: dict[str, int] = {}
        self.rows: list[np.ndarray] = []
        self._reduced: tuple[int, np.ndarray] | None = None

    def _cache_path(self) -> Path:
        model = re.sub(r"[^A-Za-z0-9]+", "-", self.embedder.name).strip("-").lower()
        return cache_dir() / f"attack_audit_strings__{model}.npz"

    def _encode(self, strings: list[str]) -> np.ndarray:
        path = self._cache_path()
        known: dict[str, np.ndarray] = {}
        if path.exists():
            try:
                with np.load(path, allow_pickle=False) as data:
                    known = dict(
                        zip((str(s) for s in data["strings"]), data["vectors"], strict=True)
                    )
            except (OSError, KeyError, ValueError):
                known = {}
        todo = [s for s in strings if s not in known]
        if todo:
            fresh = np.asarray(self.embedder.encode(todo), dtype=np.float32)
            known.update(zip(todo, fresh, strict=True))
            _save(path, list(known), np.vstack(list(known.values())))
        return np.vstack([known[s] for s in strings]).astype(np.float64)

    def add(self, strings: list[str], vectors: np.ndarray | None = None) -> None:
        todo = [s for s in dict.fromkeys(strings) if s not in self.index]
        if not todo:
            return
        if vectors is None:
            vectors = self._encode(todo)
        else:
            lookup = dict(zip(strings, vectors, strict=True))
            vectors = np.vstack([lookup[s] for s in todo])
        for string, vector in zip(todo, vectors, strict=True):
            self.index[string] = len(self.rows)
            self.rows.append(vector)

    def ids(self, strings: list[str]) -> np.ndarray:
        return np.array([self.index[s] for s in strings], dtype=np.int64)

    def matrix(self) -> np.ndarray:
        return np.vstack(self.rows).astype(np.float32)

    def reduced(self, dim: int = REDUCED_DIM) -> np.ndarray:
        """The embeddings projected on their top `dim` principal axes (float32): what the
        learned attackers read, small enough to score many candidates on a CPU."""
        if self._reduced is None or self._reduced[0] != len(self.rows):
            matrix = self.matrix()
            centred = matrix - matrix.mean(axis=0)
            _, _, axes = np.linalg.svd(
                centred[:: max(1, len(centred) // 5000)], full_matrices=False
            )
            self._reduced = (len(self.rows), (centred @ axes[:dim].T).astype(np.float32))
        return self._reduced[1]


def _save(path: Path, strings: list[str], vectors: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(tmp, strings=np.array(strings, dtype=str), vectors=vectors.astype(np.float32))
    os.replace(tmp, path)


class ContextEncoder:
    """Mean of MiniLM's static word-piece embeddings over a string (special tokens dropped)."""

    def __init__(self) -> None:
        from anonymizer.token_dp.embedding import load_minilm

        model = load_minilm()
        self.tokenizer = model.tokenizer
        table = model[0].auto_model.embeddings.word_embeddings.weight
        self.table = table.detach().cpu().numpy().astype(np.float32)
        self.dim = self.table.shape[1]

    def encode(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer(texts, add_special_tokens=False)["input_ids"]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, ids in enumerate(encoded):
            if ids:
                out[i] = self.table[ids].mean(axis=0)
        return out


@dataclass
class Inputs:
    """One category's candidate strings as the rewrite would embed them."""

    strings: list[str]
    embeddings: np.ndarray  # float64, rows as the rewrite embeds them
    row: dict[str, int]


def category_inputs(public: PublicDomain, strings: list[str], space: StringSpace) -> Inputs:
    """Mirror `sanitizer._embedding`: a public candidate's cached row, else its own vector."""
    rows = []
    for s in strings:
        index = public.index.get(s)
        rows.append(public.embeddings[index] if index is not None else space.rows[space.index[s]])
    return Inputs(strings, np.vstack(rows), {s: i for i, s in enumerate(strings)})


@dataclass
class Observation:
    """One mechanism run over a split: each record's surrogate and its likelihood features."""

    surrogate: list[str]  # per record
    surrogate_index: np.ndarray  # position of the surrogate among its category's public strings
    log_likelihood: np.ndarray  # [R, K] log Pr[y_r | candidate k] (−inf where impossible)
    features: np.ndarray  # [R, K, N_FEATURES] float32


def likelihood_tables(
    sanitizer: TokenSanitizer,
    settings: Settings,
    publics: dict[str, PublicDomain],
    inputs: dict[str, Inputs],
) -> dict[str, np.ndarray]:
    """log Pr[y | x] for every candidate string x (rows) and public output y, per category."""
    return {
        c: sanitizer.log_probs(publics[c], inputs[c].embeddings, settings).astype(np.float32)
        for c in inputs
    }


def observe(
    split: Split,
    surrogates: list[str],
    tables: dict[str, np.ndarray],
    publics: dict[str, PublicDomain],
    inputs: dict[str, Inputs],
    space: StringSpace,
) -> Observation:
    """Likelihood and similarity features of every record's candidates given the surrogates."""
    records = split.records
    size = len(records[0].candidates) if records else 0
    surrogate_index = np.array(
        [publics[r.category].index[s] for r, s in zip(records, surrogates, strict=True)]
    )
    loglik = np.empty((len(records), size), dtype=np.float64)
    cross = np.zeros((len(records), size), dtype=np.float64)
    has_cross = np.zeros(len(records), dtype=bool)
    rows = {
        i: np.array([inputs[r.category].row[c] for c in r.candidates])
        for i, r in enumerate(records)
    }
    by_doc = split.records_by_doc()
    for i, record in enumerate(records):
        table = tables[record.category]
        loglik[i] = table[rows[i], surrogate_index[i]]
        others = [
            j for j in by_doc[record.doc] if j != i and records[j].category == record.category
        ]
        if others:
            has_cross[i] = True
            cross[i] = table[rows[i][:, None], surrogate_index[others][None, :]].max(axis=1)

    matrix = space.matrix()
    sur_ids = space.ids(surrogates)
    cand_ids = np.array([space.ids(list(r.candidates)) for r in records]).reshape(-1, size)
    own_sim = np.zeros((len(records), size))
    other_sim = np.zeros((len(records), size))
    for doc_records in by_doc.values():
        idx = np.array(doc_records)
        cand_vectors = matrix[cand_ids[idx]]  # [r, K, D]
        sims = np.einsum("rkd,md->rkm", cand_vectors, matrix[sur_ids[idx]])
        own_sim[idx] = sims[np.arange(len(idx)), :, np.arange(len(idx))]
        if len(idx) > 1:
            sims[np.arange(len(idx)), :, np.arange(len(idx))] = -np.inf
            other_sim[idx] = sims.max(axis=2)

    features = np.zeros((len(records), size, N_FEATURES), dtype=np.float32)
    features[..., 0] = _relative(loglik)
    features[..., 1] = ~np.isfinite(loglik)
    features[..., 2] = np.where(has_cross[:, None], _relative(cross), 0.0)
    features[..., 3] = has_cross[:, None]
    features[..., 4] = own_sim - own_sim.mean(axis=1, keepdims=True)
    features[..., 5] = other_sim - other_sim.mean(axis=1, keepdims=True)
    return Observation(list(surrogates), surrogate_index, loglik, features)


def _relative(loglik: np.ndarray) -> np.ndarray:
    """Log-likelihoods relative to the record's best candidate, clipped at FLOOR."""
    best = np.max(np.where(np.isfinite(loglik), loglik, -np.inf), axis=1, keepdims=True)
    best = np.where(np.isfinite(best), best, 0.0)
    relative = np.where(np.isfinite(loglik), loglik - best, FLOOR)
    return np.maximum(relative, FLOOR)


def candidate_strings(splits: dict[str, Split]) -> dict[str, list[str]]:
    """Every candidate string per category, over all splits (sorted, for stable rows)."""
    found: dict[str, set[str]] = defaultdict(set)
    for split in splits.values():
        for record in split.records:
            found[record.category].update(record.candidates)
    return {c: sorted(s) for c, s in sorted(found.items())}
