"""The spec's §5 vectors (privacy-mechanisms.md: mPL / PBmPL / remapping / sample size) against
the audit's leakage functions and the product's Bayesian remapping."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anonymizer.token_dp.remap import (
    cosine_loss,
    log_posterior,
    public_remap_table,
    remap_table,
)
from anonymizer.token_dp.sampling import santext_log_probs
from bench.attack_audit.leakage import (
    clopper_pearson_upper,
    hoeffding_confidence,
    hoeffding_upper,
    log_odds_shift,
    pair_indices,
    release_violation_probability,
    samples_needed,
    sup_mpl_per_output,
)

X = np.array([0.0, 1.0, 3.0])
DISTANCES = np.abs(X[:, None] - X[None, :])
LOG_LIKELIHOOD = santext_log_probs(DISTANCES, 2.0)  # [x, y]: SanText, ε = 2, outputs = X
UNIFORM = np.full(3, 1 / 3)
SKEWED = np.array([0.6, 0.3, 0.1])


def test_sup_mpl_per_output_matches_the_spec_for_any_prior() -> None:
    sup = sup_mpl_per_output(LOG_LIKELIHOOD, DISTANCES)
    np.testing.assert_allclose(sup, [1.058594, 0.941406, 1.118880], atol=1e-6)
    assert sup.max() <= 2.0  # ε·d-privacy ⇔ sup-mPL ≤ ε (seed 004 Prop. 2)


def test_sup_mpl_from_posteriors_equals_the_likelihood_form_for_any_prior() -> None:
    """Definition 2 computed from posteriors and priors, for two priors, equals Prop. 2's form."""
    for prior in (UNIFORM, SKEWED):
        posterior = np.exp(log_posterior(LOG_LIKELIHOOD, np.log(prior)))  # [x, y]
        first, second = pair_indices(3)
        for y in range(3):
            shifts = np.abs(
                np.log(posterior[first, y] / posterior[second, y])
                - np.log(prior[first] / prior[second])
            )
            mpl = (shifts / DISTANCES[first, second]).max()
            assert mpl == pytest.approx(sup_mpl_per_output(LOG_LIKELIHOOD, DISTANCES)[y])


@pytest.mark.parametrize(
    ("prior", "target", "expected"),
    [
        (UNIFORM, 1.0, 0.653689),
        (UNIFORM, 1.1, 0.322981),
        (SKEWED, 1.0, 0.633310),
        (SKEWED, 1.1, 0.132460),
    ],
)
def test_violation_probabilities_match_the_spec(prior, target, expected) -> None:  # type: ignore[no-untyped-def]
    value = release_violation_probability(LOG_LIKELIHOOD, DISTANCES, prior, target)
    assert value == pytest.approx(expected, abs=1e-6)


def test_remapping_matches_the_spec() -> None:
    grid = np.arange(0.0, 3.01, 0.5)
    loss = (X[:, None] - grid[None, :]) ** 2
    table = remap_table(LOG_LIKELIHOOD, loss)
    assert [grid[table[y]] for y in range(3)] == [0.5, 1.0, 2.5]
    posterior = np.exp(log_posterior(LOG_LIKELIHOOD))[:, 0]
    np.testing.assert_allclose(posterior, [0.710985, 0.246671, 0.042344], atol=1e-6)


def test_remapping_minimises_the_expected_loss_over_every_alternative() -> None:
    rng = np.random.default_rng(0)
    embeddings = rng.normal(size=(30, 8))
    distances = np.linalg.norm(embeddings[:, None] - embeddings[None], axis=2)
    loglik = santext_log_probs(distances, 3.0)
    loss = cosine_loss(embeddings, embeddings)
    table = remap_table(loglik, loss)
    posterior = np.exp(log_posterior(loglik))
    expected = posterior.T @ loss
    for y in range(30):
        assert expected[y, table[y]] == pytest.approx(expected[y].min())
        assert expected[y, table[y]] <= expected[y, y] + 1e-12  # never worse than no remap


def test_sample_size_and_confidence_match_the_spec() -> None:
    assert samples_needed(delta=0.05, xi=0.5, beta=0.05) == 2952
    assert hoeffding_confidence(1000, delta=0.1, xi=0.5) == pytest.approx(0.986524, abs=1e-6)


def test_the_one_sided_hoeffding_bound_and_clopper_pearson() -> None:
    assert hoeffding_upper(0.02, 1000, 0.01) == pytest.approx(
        0.02 + math.sqrt(math.log(100) / 2000)
    )
    assert hoeffding_upper(0.0, 0) == 1.0
    bound = clopper_pearson_upper(0, 1000, 0.99)
    assert bound == pytest.approx(1 - 0.01 ** (1 / 1000), rel=1e-6)  # the exact k = 0 bound
    assert clopper_pearson_upper(20, 1000) > 0.02


def test_log_odds_shift_handles_impossible_candidates() -> None:
    observation = np.array([[0.0, -1.0, -np.inf, -np.inf]])
    shift = log_odds_shift(observation, pair_indices(4))
    # pairs: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    assert shift.tolist() == [[1.0, np.inf, np.inf, np.inf, np.inf, 0.0]]


def test_the_public_remap_table_equals_the_general_one_under_the_cosine_loss() -> None:
    rng = np.random.default_rng(1)
    embeddings = rng.normal(size=(40, 6))
    distances = np.linalg.norm(embeddings[:, None] - embeddings[None], axis=2)
    loglik = santext_log_probs(distances, 2.0)
    general = remap_table(loglik, cosine_loss(embeddings, embeddings))
    np.testing.assert_array_equal(public_remap_table(loglik, embeddings), general)


def _row(epsilon: float, sets: dict[str, tuple[float, int]]) -> dict:  # type: ignore[type-arg]
    """A result row whose one attacker has these (rate, documents) per set at its own ε."""
    key = f"{epsilon:g}"
    return {
        "epsilon": epsilon,
        "attackers": {
            "mlp": {
                "sets": {
                    name: {"violation": {key: {"rate": r, "documents": n, "pair_rate": r}}}
                    for name, (r, n) in sets.items()
                }
            }
        },
    }


def test_pooling_weights_sets_by_documents_and_bounds_over_all_of_them() -> None:
    from bench.attack_audit.ampl import pooled

    row = _row(2.0, {"big": (0.01, 900), "small": (0.10, 100)})
    result = pooled(row["attackers"]["mlp"], 2.0)
    assert result["rate"] == pytest.approx((0.01 * 900 + 0.10 * 100) / 1000)
    assert result["documents"] == 1000
    assert result["bound99"] == pytest.approx(result["rate"] + math.sqrt(math.log(100) / 2000))
    assert result["max_set_pair_rate"] == 0.10


def test_ampl_takes_the_largest_epsilon_whose_pooled_bound_meets_the_target() -> None:
    from bench.attack_audit.ampl import largest_meeting

    rows = [
        _row(1.0, {"a": (0.0, 1000), "b": (0.0, 300)}),
        _row(2.0, {"a": (0.002, 1000), "b": (0.0, 300)}),  # bound ≈ 4.3 %
        _row(4.0, {"a": (0.02, 1000), "b": (0.0, 300)}),  # bound ≈ 5.7 %
    ]
    assert largest_meeting(rows, 0.05)["epsilon"] == 2.0
    assert largest_meeting(rows, 0.06)["epsilon"] == 4.0
    assert largest_meeting(rows, 0.04)["epsilon"] is None
