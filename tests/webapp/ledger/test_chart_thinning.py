"""The audit chart solves ε only for the releases it can show: the last one per pixel column.
The picture must not change: every column's top value and the final value stay."""

import random
import re
from datetime import UTC, datetime, timedelta
from itertools import accumulate

from webapp.ledger.chart import PLOT_W, Point, cumulative_epsilon_svg, visible_releases


def _history(n: int, seed: int = 7) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    times = list(accumulate(rng.expovariate(1 / 60) for _ in range(n)))
    epsilons = list(accumulate(rng.uniform(0.0, 0.5) for _ in range(n)))  # cumulative: grows
    return times, epsilons


def _column(t: float, t0: float, t1: float) -> int:
    return int((t - t0) / (t1 - t0) * PLOT_W)


def test_a_long_history_keeps_at_most_one_release_per_pixel_column():
    times, _ = _history(10_000)
    kept = visible_releases(times, [])
    assert len(kept) <= PLOT_W + 1 and kept[-1] == len(times) - 1
    assert kept == sorted(kept)


def test_every_column_keeps_its_highest_epsilon():
    times, epsilons = _history(5_000)
    unguaranteed = [times[0] - 3_600.0]  # widens the time axis, as marks on it do
    t0, t1 = unguaranteed[0], times[-1]
    kept = visible_releases(times, unguaranteed)
    top_all: dict[int, float] = {}
    for t, eps in zip(times, epsilons, strict=True):
        top_all[_column(t, t0, t1)] = max(top_all.get(_column(t, t0, t1), 0.0), eps)
    top_kept = {_column(times[i], t0, t1): epsilons[i] for i in kept}
    assert top_kept == top_all


def test_short_histories_are_drawn_whole():
    assert visible_releases([1.0, 2.0], []) == [0, 1]
    assert visible_releases([5.0, 5.0, 5.0], []) == [2]  # one instant: the last one shows


def test_the_thinned_chart_counts_every_release_and_ends_where_the_full_one_does():
    times, epsilons = _history(2_000)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    points = [
        Point(start + timedelta(seconds=t), eps, eps * 1.5, job_id=i)
        for i, (t, eps) in enumerate(zip(times, epsilons, strict=True))
    ]
    kept = [points[i] for i in visible_releases(times, [])]
    full = cumulative_epsilon_svg(points, 1_000.0, 1e-6)
    thin = cumulative_epsilon_svg(kept, 1_000.0, 1e-6, n_releases=len(points))
    assert "covers 2000 formally private releases" in thin
    assert "exact composition of 2000 formally private" in thin

    def exact_line_end(svg: str) -> str:
        return re.search(r'class="exact" points="([^"]*)"', svg).group(1).split()[-1]

    assert exact_line_end(thin) == exact_line_end(full)
    assert len(thin) < len(full) / 2
