"""Do drawn outputs follow a known distribution? A goodness-of-fit test that keeps its level.

Pearson's chi-square is only valid where every expected count is about 5 or more: one draw of
an output expected 0.007 times adds ~140 to the statistic (p ≈ 1e-28) although such a draw
happens in 2–3 % of correct runs. So outputs expected fewer than MIN_EXPECTED times are pooled
and their total is tested exactly (binomial); the rest take the chi-square, conditional on their
total. The two p-values are combined by Bonferroni, so a correct sampler fails at most α.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest, chisquare

MIN_EXPECTED = 5.0


def frequency_pvalue(counts: np.ndarray, probs: np.ndarray) -> float:
    """p-value of 'counts were drawn from probs' (probs need not be normalised)."""
    counts = np.asarray(counts, dtype=np.int64)
    probs = np.asarray(probs, dtype=np.float64) / np.sum(probs)
    n = int(counts.sum())
    common = probs * n >= MIN_EXPECTED
    rare_count, rare_prob = int(counts[~common].sum()), float(probs[~common].sum())
    pvalues = []
    if common.sum() >= 2:
        in_common = counts[common].sum()
        expected = probs[common] / probs[common].sum() * in_common
        pvalues.append(float(chisquare(counts[common], expected).pvalue))
    if rare_prob > 0.0 and rare_prob < 1.0:
        pvalues.append(float(binomtest(rare_count, n, rare_prob).pvalue))
    if not pvalues:
        return 1.0
    return min(1.0, len(pvalues) * min(pvalues))
