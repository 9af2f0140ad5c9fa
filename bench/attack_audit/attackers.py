"""The attackers: the exact single-span Bayes attacker and three learned joint attackers.

Every attacker outputs, for each record, a prior and a posterior over its candidate set as
logits; mPL uses their difference, the log-likelihood ratio the observation contributed.

- Exact Bayes (one span): posterior ∝ prior × Pr[y | x] from the sanitizer's own
  `log_probs`, public prior uniform over the candidate set. Seed 004 Prop. 2: its mPL is
  bounded by the mechanism's ε·d, so it checks the mechanism and this audit's plumbing.
- Learned (whole document): a network reads every record of a document at once (its
  surrogate's embedding, its context and its category) and scores each candidate of each
  record. Its prior head reads the same document with every surrogate masked (what a
  placeholder-redacted copy shows, seed 004's "prior approximation"), and the posterior is
  prior + an observation term, so the two share one context model and training noise does
  not enter the mPL as a spurious prior/posterior gap. The observation term sees the
  mechanism's likelihood of the record's own surrogate and of the document's other
  surrogates of the category under each candidate (an attacker who knows the mechanism can
  compute them) and the candidates' similarity to every surrogate. Encoders, all CPU-sized:
  a bag-of-embeddings MLP, a BiLSTM and a small Transformer over the document's records.
  Trained with cross-entropy (seed 004 Prop. 5) on the training split, early-stopped on a
  held-out tenth of it, evaluated on the evaluation sets.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from bench.attack_audit.data import Split
from bench.attack_audit.features import N_FEATURES, Observation

ARCHITECTURES = ("mlp", "bilstm", "transformer")


@dataclass
class Scores:
    """Per record: prior and posterior logits over its candidates (rows align with records)."""

    prior: np.ndarray  # [R, K]
    posterior: np.ndarray  # [R, K]

    @property
    def observation(self) -> np.ndarray:
        """The log-likelihood ratio the observation added (posterior − prior logits)."""
        with np.errstate(invalid="ignore"):
            return self.posterior - self.prior


def exact_bayes(observation: Observation) -> Scores:
    """Posterior ∝ Pr[y | x] under a uniform prior over the candidate set."""
    loglik = observation.log_likelihood
    return Scores(np.zeros_like(loglik), loglik.copy())


# --- learned attackers ------------------------------------------------------------------


@dataclass
class Tensors:
    """A split's attacker inputs, one row per record, grouped into documents."""

    documents: list[np.ndarray]  # record indices of each document with at least one record
    surrogate: np.ndarray  # [R] string ids
    context: np.ndarray  # [R, D] float32
    category: np.ndarray  # [R]
    candidates: np.ndarray  # [R, K] string ids
    features: np.ndarray  # [R, K, F]
    truth: np.ndarray  # [R]


def tensors(
    split: Split,
    observation: Observation,
    context: np.ndarray,
    categories: dict[str, int],
    string_ids,  # type: ignore[no-untyped-def]
) -> Tensors:
    records = split.records
    return Tensors(
        documents=[np.array(v) for _, v in sorted(split.records_by_doc().items())],
        surrogate=string_ids(observation.surrogate),
        context=context,
        category=np.array([categories[r.category] for r in records]),
        candidates=np.array([string_ids(list(r.candidates)) for r in records]).reshape(
            len(records), -1
        ),
        features=observation.features,
        truth=np.array([r.truth for r in records]),
    )


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 20
    batch_documents: int = 64
    learning_rate: float = 1e-3
    weight_decay: float = 1e-2
    width: int = 64
    dropout: float = 0.3
    patience: int = 3
    seed: int = 0


def _build_model(  # type: ignore[no-untyped-def]
    architecture: str,
    strings: np.ndarray,
    context_dim: int,
    n_categories: int,
    width: int,
    dropout: float,
):
    import torch
    from torch import nn

    class Attacker(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            dim = strings.shape[1]
            self.strings = nn.Embedding.from_pretrained(torch.from_numpy(strings), freeze=True)
            self.category = nn.Embedding(n_categories, 16)
            self.item = nn.Sequential(
                nn.Dropout(dropout), nn.Linear(dim + context_dim + 16 + 1, width), nn.GELU()
            )
            if architecture == "mlp":
                self.encoder = nn.Sequential(nn.Linear(2 * width, width), nn.GELU())
            elif architecture == "bilstm":
                self.encoder = nn.LSTM(width, width // 2, batch_first=True, bidirectional=True)
            elif architecture == "transformer":
                layer = nn.TransformerEncoderLayer(
                    width, 4, 2 * width, dropout=dropout, batch_first=True, norm_first=True
                )
                self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            else:
                raise ValueError(f"unknown architecture {architecture!r}")
            self.candidate = nn.Linear(dim, width)
            self.prior_query = nn.Linear(width, width)
            self.obs_query = nn.Linear(width, width)
            self.obs_linear = nn.Linear(N_FEATURES, 1)
            self.obs_mlp = nn.Sequential(nn.Linear(N_FEATURES + 1, 32), nn.GELU(), nn.Linear(32, 1))
            with torch.no_grad():  # start from the single-span Bayes attacker
                self.obs_linear.weight.zero_()
                self.obs_linear.weight[0, 0] = 1.0
                self.obs_linear.bias.zero_()

        def encode(self, items, mask):  # type: ignore[no-untyped-def]
            if architecture == "mlp":
                weights = mask.unsqueeze(-1).float()
                pooled = (items * weights).sum(1) / weights.sum(1).clamp(min=1.0)
                return self.encoder(torch.cat([items, pooled.unsqueeze(1).expand_as(items)], -1))
            if architecture == "bilstm":
                lengths = mask.sum(1).cpu()
                packed = nn.utils.rnn.pack_padded_sequence(
                    items, lengths, batch_first=True, enforce_sorted=False
                )
                out, _ = self.encoder(packed)
                out, _ = nn.utils.rnn.pad_packed_sequence(
                    out, batch_first=True, total_length=items.shape[1]
                )
                return out
            return self.encoder(items, src_key_padding_mask=~mask)

        def forward(self, batch):  # type: ignore[no-untyped-def]
            surrogate, context, category, candidates, features, mask = batch
            cats = self.category(category)
            shown = self.strings(surrogate)
            ones = torch.ones_like(mask, dtype=torch.float32).unsqueeze(-1)
            full = self.item(torch.cat([shown, context, cats, ones], -1))
            masked = self.item(torch.cat([torch.zeros_like(shown), context, cats, 0 * ones], -1))
            h_prior = self.encode(masked, mask)
            h_obs = self.encode(full, mask)
            cand = self.candidate(self.strings(candidates))  # [B, N, K, W]
            scale = 1.0 / math.sqrt(cand.shape[-1])
            prior = torch.einsum("bnw,bnkw->bnk", self.prior_query(h_prior), cand) * scale
            bilinear = torch.einsum("bnw,bnkw->bnk", self.obs_query(h_obs), cand) * scale
            obs = (
                self.obs_linear(features).squeeze(-1)
                + bilinear
                + self.obs_mlp(torch.cat([features, bilinear.unsqueeze(-1)], -1)).squeeze(-1)
            )
            return prior, prior + obs

    return Attacker()


def _batches(data: Tensors, documents: list[np.ndarray], size: int, rng=None):  # type: ignore[no-untyped-def]
    """Batches of whole documents, similar lengths together (little padding); shuffled
    batch order when `rng` is given."""
    import torch

    order = sorted(range(len(documents)), key=lambda i: len(documents[i]))
    groups = [order[start : start + size] for start in range(0, len(order), size)]
    if rng is not None:
        rng.shuffle(groups)
    for group in groups:
        chosen = [documents[i] for i in group]
        longest = max(len(d) for d in chosen)
        index = np.zeros((len(chosen), longest), dtype=np.int64)
        mask = np.zeros((len(chosen), longest), dtype=bool)
        for b, rows in enumerate(chosen):
            index[b, : len(rows)] = rows
            mask[b, : len(rows)] = True
        yield (
            (
                torch.from_numpy(data.surrogate[index]),
                torch.from_numpy(data.context[index]),
                torch.from_numpy(data.category[index]),
                torch.from_numpy(data.candidates[index]),
                torch.from_numpy(data.features[index]),
                torch.from_numpy(mask),
            ),
            torch.from_numpy(data.truth[index]),
            index,
            mask,
        )


def _loss(model, batch, truth):  # type: ignore[no-untyped-def]
    """Cross-entropy of the posterior and of the prior head (summed over records)."""
    import torch.nn.functional as F

    prior, posterior = model(batch)
    keep = batch[-1]
    return F.cross_entropy(posterior[keep], truth[keep], reduction="sum") + F.cross_entropy(
        prior[keep], truth[keep], reduction="sum"
    )


@dataclass
class Trained:
    architecture: str
    model: object
    epochs: int
    seconds: float
    validation_loss: float


def train(
    architecture: str,
    data: Tensors,
    strings: np.ndarray,
    n_categories: int,
    config: TrainConfig = TrainConfig(),
) -> Trained:
    """Fit one attacker; the last tenth of the training documents is the early-stopping set."""
    import torch

    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    started = time.perf_counter()
    order = rng.permutation(len(data.documents))
    cut = max(1, len(order) // 10)
    held = [data.documents[i] for i in order[:cut]]
    fit = [data.documents[i] for i in order[cut:]]
    model = _build_model(
        architecture, strings, data.context.shape[1], n_categories, config.width, config.dropout
    )
    optimiser = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad],
        lr=config.learning_rate,
        weight_decay=config.weight_decay,
    )
    best, best_state, stale, epochs = math.inf, None, 0, 0
    for _ in range(config.epochs):
        epochs += 1
        model.train()
        for batch, truth, _, mask in _batches(data, fit, config.batch_documents, rng):
            optimiser.zero_grad()
            loss = _loss(model, batch, truth) / max(1, int(mask.sum()))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimiser.step()
        model.eval()
        with torch.no_grad():
            total, count = 0.0, 0
            for batch, truth, _, mask in _batches(data, held, 256):
                total += float(_loss(model, batch, truth))
                count += int(mask.sum())
        value = total / max(1, count)
        if value < best - 1e-4:
            best, stale = value, 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            stale += 1
            if stale >= config.patience:
                break
    if best_state is not None:
        model.load_state_dict(best_state)
    return Trained(architecture, model, epochs, time.perf_counter() - started, best)


def score(trained: Trained, data: Tensors) -> Scores:
    """The trained attacker's prior and posterior logits for every record of a split."""
    import torch

    size = data.candidates.shape[1]
    prior = np.zeros((len(data.truth), size))
    posterior = np.zeros((len(data.truth), size))
    model = trained.model
    model.eval()  # type: ignore[attr-defined]
    with torch.no_grad():
        for batch, _, index, mask in _batches(data, data.documents, 256):
            p, q = model(batch)  # type: ignore[operator]
            prior[index[mask]] = p.numpy()[mask]
            posterior[index[mask]] = q.numpy()[mask]
    return Scores(prior, posterior)
