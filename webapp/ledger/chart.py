"""A small server-rendered SVG step chart of a user's cumulative ε over time (no JavaScript).

The ε lines cover the formally private releases only; releases without a formal guarantee
are marked on the time axis (×) and counted in the title and legend, never added to ε.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.html import escape

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44
EXACT_COLOUR, BASIC_COLOUR, CAP_COLOUR = "#1d4ed8", "#9ca3af", "#b91c1c"
NONE_COLOUR = "#b45309"


@dataclass(frozen=True)
class Point:
    at: datetime
    epsilon_exact: float
    epsilon_basic: float
    job_id: int


@dataclass(frozen=True)
class Unguaranteed:
    """A release without a formal guarantee: shown on the time axis, never in ε."""

    at: datetime
    job_id: int


PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


def visible_releases(release_times: Sequence[float], other_times: Sequence[float]) -> list[int]:
    """Indexes of the releases a step line must keep to look the same at the chart's width.

    `release_times` ascend. Within one pixel column only the column's last release shows
    (the cumulative ε only grows, so the earlier ones lie on its vertical jump); keeping those
    bounds the ε solves of a long history by the plot's width instead of the number of jobs.
    """
    every = list(release_times) + list(other_times)
    if len(release_times) <= 2 or len(every) < 2:
        return list(range(len(release_times)))
    t0, span = min(every), (max(every) - min(every)) or 1.0
    columns = [int((t - t0) / span * PLOT_W) for t in release_times]
    return [
        i for i, column in enumerate(columns) if i == len(columns) - 1 or columns[i + 1] != column
    ]


def cumulative_epsilon_svg(
    points: Sequence[Point],
    cap: float | None,
    delta: float,
    unguaranteed: Sequence[Unguaranteed] = (),
    n_releases: int | None = None,
) -> str:
    """Exact and basic-composition ε after each release, with the cap as a dashed line and
    the releases without a formal guarantee as marks on the time axis.

    `points` may be thinned by `visible_releases`; `n_releases` is then the full count."""
    plot_w, plot_h = PLOT_W, PLOT_H
    n_releases = len(points) if n_releases is None else n_releases
    top_value = max(
        [p.epsilon_exact for p in points]
        + [p.epsilon_basic for p in points]
        + ([cap] if cap is not None else [])
        + [0.0]
    )
    y_max = top_value * 1.08 or 1.0
    times = [p.at.timestamp() for p in points]
    every = times + [u.at.timestamp() for u in unguaranteed]
    t0, t1 = (min(every), max(every)) if every else (0.0, 1.0)
    span = (t1 - t0) or 1.0

    def x(t: float) -> float:
        return LEFT + (t - t0) / span * plot_w if len(every) > 1 else LEFT + plot_w / 2

    def y(v: float) -> float:
        return TOP + plot_h - v / y_max * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" font-family="sans-serif" font-size="11">',
        f"<title>Cumulative ε at δ = {delta:g} after each release: covers {n_releases} "
        f"formally private release{'s' if n_releases != 1 else ''}; {len(unguaranteed)} "
        "without a formal guarantee marked × on the time axis, not in ε</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fff" '
        'stroke="#d1d5db"/>',
    ]
    for i in range(5):
        value = y_max * i / 4
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#eef0f3"/><text x="{LEFT - 6}" y="{y(value) + 4:.1f}" '
            f'text-anchor="end">{value:.3g}</text>'
        )
    if cap is not None:
        parts.append(
            f'<line class="cap" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(cap):.1f}" '
            f'y2="{y(cap):.1f}" stroke="{CAP_COLOUR}" stroke-dasharray="6 4"/>'
        )
    for name, colour, values in (
        ("basic", BASIC_COLOUR, [p.epsilon_basic for p in points]),
        ("exact", EXACT_COLOUR, [p.epsilon_exact for p in points]),
    ):
        if points:
            parts.append(
                _step_line(name, colour, [x(t) for t in times], [y(v) for v in values], y(0.0))
            )
    for u in unguaranteed:
        ux, uy = x(u.at.timestamp()), TOP + plot_h
        parts.append(
            f'<path class="no-guarantee" d="M{ux - 4:.1f},{uy - 4:.1f}l8,8m0,-8l-8,8" '
            f'stroke="{NONE_COLOUR}" stroke-width="2"><title>job {u.job_id}: no formal '
            "guarantee (not in ε)</title></path>"
        )
    if points:
        first, last = points[0].at, points[-1].at
        parts.append(f'<text x="{LEFT}" y="{HEIGHT - BOTTOM + 16}">{first:%Y-%m-%d %H:%M}</text>')
        parts.append(
            f'<text x="{LEFT + plot_w}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="end">{last:%Y-%m-%d %H:%M}</text>'
        )
    else:
        parts.append(
            f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h / 2}" '
            'text-anchor="middle">no charged releases yet</text>'
        )
    legend = [
        (f"exact composition of {n_releases} formally private", EXACT_COLOUR),
        ("basic sum Σεᵢ", BASIC_COLOUR),
    ]
    if cap is not None:
        legend.append((f"cap ε = {cap:g}", CAP_COLOUR))
    legend.append((f"× {len(unguaranteed)} without guarantee", NONE_COLOUR))
    lx = LEFT
    for label, colour in legend:
        parts.append(
            f'<rect x="{lx}" y="{HEIGHT - 16}" width="12" height="4" fill="{colour}"/>'
            f'<text x="{lx + 16}" y="{HEIGHT - 11}">{escape(label)}</text>'
        )
        lx += 24 + 6 * len(label)
    parts.append("</svg>")
    return "\n".join(parts)


def _step_line(name: str, colour: str, xs: list[float], ys: list[float], y0: float) -> str:
    """A step line that starts at 0 and jumps at each release."""
    coords = [(xs[0], y0)]
    for i, (px, py) in enumerate(zip(xs, ys, strict=True)):
        if i:
            coords.append((px, coords[-1][1]))
        coords.append((px, py))
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in coords)
    dots = "".join(
        f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="{colour}"/>'
        for px, py in zip(xs, ys, strict=True)
    )
    return (
        f'<polyline class="{name}" points="{points}" fill="none" stroke="{colour}" '
        f'stroke-width="2"/>{dots}'
    )
