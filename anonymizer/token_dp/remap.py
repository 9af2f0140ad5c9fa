"""Bayesian remapping of a token mechanism's output: post-processing, so no privacy cost.

Chatzikokolakis, ElSalamouny and Palamidessi (PETS 2017); seed 004, Step ④. Given a drawn
output y and a public prior π over inputs, the remapped output is
f(y) = argmin_{y′} Σ_x Pr[x | y]·c(x, y′) with Pr[x | y] ∝ π(x)·Pr[y | x]: the output that
minimises the expected loss under the posterior. f depends on y and public data only, so
f ∘ M keeps every guarantee M has (post-processing; seed 004 Prop. 1 for joint mPL).

The product uses a uniform prior over the category's public candidates, the mechanism's own
`log_probs` as the likelihood, the cosine loss c(x, y′) = (1 − cos(x, y′))/2 of seed 004's
appendix E.2, and the public candidates as the remapped outputs, so a remapped output is
still a public candidate of the same category.
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_softmax


def log_posterior(log_likelihood: np.ndarray, log_prior: np.ndarray | None = None) -> np.ndarray:
    """log Pr[x | y] for every output column y of `log_likelihood[x, y]` = log Pr[y | x].

    Rows are inputs x, columns outputs y; each column is normalised over x. An output no
    input can produce gets a uniform column (it is never drawn, so its value is moot).
    """
    scores = np.asarray(log_likelihood, dtype=np.float64)
    if log_prior is not None:
        scores = scores + np.asarray(log_prior, dtype=np.float64)[:, None]
    unreachable = ~np.isfinite(scores).any(axis=0)
    scores = np.where(unreachable[None, :], 0.0, scores)
    return log_softmax(scores, axis=0)


def remap_table(
    log_likelihood: np.ndarray, loss: np.ndarray, log_prior: np.ndarray | None = None
) -> np.ndarray:
    """f(y) for every output y: argmin over columns y′ of `loss[x, y′]` of the expected loss.

    `log_likelihood[x, y]` = log Pr[y | x]; `loss[x, y′]` = c(x, y′). Ties go to the first y′.
    """
    posterior = np.exp(log_posterior(log_likelihood, log_prior))
    expected = posterior.T @ np.asarray(loss, dtype=np.float64)  # [y, y′]
    return np.argmin(expected, axis=1)


def cosine_loss(inputs: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    """Seed 004's utility loss c(x, y′) = 1 − (cos(x, y′) + 1)/2, in [0, 1]."""
    return (1.0 - _unit(inputs) @ _unit(outputs).T) / 2.0


def public_remap_table(log_likelihood: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
    """The product's table over one category's public candidates: uniform prior, cosine loss,
    remapped outputs among the same candidates. `log_likelihood` is the mechanism's
    `log_probs` with the candidates themselves as inputs (square).

    Under the cosine loss the expected loss of y′ is (1 − m(y)·ŷ′)/2 with m(y) the posterior
    mean of the unit embeddings, so f(y) = argmax_{y′} m(y)·ŷ′: two n × dim products instead
    of an n × n × n one (same result as `remap_table` with `cosine_loss`).
    """
    unit = _unit(embeddings)
    posterior = np.exp(log_posterior(log_likelihood))  # [x, y]
    means = posterior.T @ unit  # [y, dim]
    return np.argmax(means @ unit.T, axis=1)


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float64)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
