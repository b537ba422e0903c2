"""Figures of the calibration chapter (chapter 15).

``plot_reliability`` draws a reliability diagram; ``plot_expected_scores`` the expected
Brier score and log-loss of a forecast against the true probability (proper scoring
rules); ``plot_calibration_maps`` fitted calibration maps over the labelled scores;
``plot_hull_calibration`` the ROC curve, its convex hull and the isotonic probability of
each hull segment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..calibration import Strategy, calibration_curve, isotonic_calibration
from ..roc import roc_convex_hull, roc_curve
from ._style import COLORS, _axes, _diagonal, _legend_below, _one_length, _unit_square

__all__ = [
    "plot_reliability",
    "plot_expected_scores",
    "plot_calibration_maps",
    "plot_hull_calibration",
]


def plot_reliability(y_true: Any, y_prob: Any, *, n_bins: int = 10,
                     strategy: Strategy = "uniform", sample_weight: Any = None, ax=None,
                     label: str | None = None, color: str | None = None, marker: str = "o",
                     title: str | None = None):
    """Draw a reliability diagram: share of positives against mean probability per bin.

    The points come from :func:`course_lib.calibration_curve`; a marker's area is
    proportional to its bin's share of the objects, and the dashed diagonal is perfect
    calibration. Call it again on the same Axes to compare models.

    Parameters
    ----------
    y_true, y_prob : array-like of shape (n,)
        Labels 0/1 and probabilities of class 1.
    n_bins, strategy, sample_weight
        As in :func:`course_lib.calibration_curve`.
    label, color, marker : optional
        Legend label, colour (default: the curve colour) and marker of the points.

    Examples
    --------
    >>> ax = plot_reliability([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9], n_bins=2, label="m")
    >>> ax.get_lines()[-1].get_xydata().round(2).tolist()
    [[0.2, 0.0], [0.75, 1.0]]
    >>> plt.close(ax.get_figure())
    """
    c = calibration_curve(y_true, y_prob, n_bins=n_bins, strategy=strategy,
                          sample_weight=sample_weight)
    ax = _axes(ax)
    if not any(line.get_label() == "perfect calibration" for line in ax.get_lines()):
        _diagonal(ax, label="perfect calibration")
    colour = COLORS["curve"] if color is None else color
    share = c.counts / c.counts.sum()
    ax.scatter(c.prob_pred, c.prob_true, s=12 + 400 * share, color=colour, marker=marker,
               alpha=0.55, zorder=3, linewidths=0)
    ax.plot(c.prob_pred, c.prob_true, color=colour, lw=1.4, marker=marker, ms=3,
            zorder=4, label=label if label is not None else "_model")
    _unit_square(ax, "mean probability in the bin", "share of positives in the bin",
                 title=title)
    if label is not None:
        _legend_below(ax, ncols=2, offset=0.17)
    return ax


def plot_expected_scores(q: float, *, n_points: int = 199, ax=None,
                         title: str | None = None):
    """Draw the expected Brier score, log-loss and absolute error of a forecast ``p``
    when the event has probability ``q``.

    ``E[(p - Y)**2] = q (1 - p)**2 + (1 - q) p**2`` and
    ``E[-ln p(Y)] = -q ln p - (1 - q) ln (1 - p)`` are smallest at ``p = q`` (proper
    scoring rules); ``E|p - Y| = q (1 - p) + (1 - q) p`` is smallest at 0 or 1, so it
    rewards exaggeration. Each curve is marked at its minimum.

    Parameters
    ----------
    q : float
        The true probability, in (0, 1).
    n_points : int
        Points of the grid of forecasts on (0, 1).

    Examples
    --------
    >>> ax = plot_expected_scores(0.3, n_points=9)
    >>> [line.get_label() for line in ax.get_lines()[:3]]
    ['Brier score', 'log-loss', 'absolute error']
    >>> plt.close(ax.get_figure())
    """
    if not 0 < q < 1:
        raise ValueError(f"q must lie in (0, 1), got {q!r}")
    p = np.linspace(0, 1, n_points + 2)[1:-1]
    curves = {
        "Brier score": (q * (1 - p) ** 2 + (1 - q) * p**2, COLORS["curve"], "-"),
        "log-loss": (-q * np.log(p) - (1 - q) * np.log(1 - p), COLORS["tie"], "--"),
        "absolute error": (q * (1 - p) + (1 - q) * p, COLORS["alt"], ":"),
    }
    ax = _axes(ax)
    for name, (values, colour, style) in curves.items():
        ax.plot(p, values, style, color=colour, lw=1.6, label=name)
    for values, colour, _ in curves.values():
        k = int(np.argmin(values))
        ax.plot(p[k], values[k], "o", color=colour, ms=6, zorder=5)
    ax.axvline(q, color=COLORS["grid"], lw=1, ls="-", zorder=1)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.2)
    ax.set_xlabel("forecast p")
    ax.set_ylabel("expected score (lower is better)")
    if title:
        ax.set_title(title)
    _legend_below(ax, ncols=2, offset=0.17)
    return ax


def plot_calibration_maps(y_true: Any, y_score: Any,
                          maps: Mapping[str, Callable[[Any], np.ndarray]], *,
                          n_points: int = 400, seed: int = 0, ax=None, xlabel: str = "score",
                          title: str | None = None):
    """Draw calibration maps over the labelled scores they were fitted on.

    The objects are dots at height 1 (positives) or 0 (negatives), jittered a little
    (with ``seed``) so that ties stay visible; each map is drawn over the range of the
    scores.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores.
    maps : mapping of name -> callable
        Calibration maps (e.g. :class:`course_lib.PlattMap`, :class:`course_lib.IsotonicMap`).
    n_points : int
        Points of the grid each map is drawn on.
    seed : int
        Seed of the vertical jitter.
    xlabel, title : str, optional
        Axis label and title.

    Examples
    --------
    >>> ax = plot_calibration_maps([0, 1, 1], [1.0, 2.0, 3.0], {"half": lambda s: 0 * s + 0.5})
    >>> [line.get_label() for line in ax.get_lines()]
    ['half']
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true, dtype=float)
    s = np.asarray(y_score, dtype=float)
    _one_length(y, s)
    ax = _axes(ax, size=5.0)
    jitter = np.random.default_rng(seed).uniform(-0.03, 0.03, y.size)
    ax.scatter(s, y + jitter, s=10, color=COLORS["grid"], alpha=0.7, zorder=2,
               linewidths=0)
    grid = np.linspace(s.min(), s.max(), n_points)
    palette = [COLORS["curve"], COLORS["tie"], COLORS["alt"], COLORS["point"]]
    styles = ["-", "--", "-.", ":"]
    for k, (name, func) in enumerate(maps.items()):
        ax.plot(grid, func(grid), styles[k % 4], color=palette[k % 4], lw=1.8,
                label=name, zorder=3)
    ax.set_ylim(-0.06, 1.06)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability of class 1")
    if title:
        ax.set_title(title)
    _legend_below(ax, ncols=min(3, max(1, len(maps))), offset=0.14)
    return ax


def plot_hull_calibration(y_true: Any, y_score: Any, *, ax=None, title: str | None = None):
    """Draw the ROC curve, its convex hull and, on each hull segment, the isotonic
    calibrated probability of the scores that segment covers.

    The label of a segment is the value :func:`course_lib.isotonic_calibration` gives
    the scores of that segment, which is ``dTP / (dTP + dFP)``, the share of positives
    among them (Fawcett & Niculescu-Mizil 2007).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores (no weights).

    Examples
    --------
    >>> ax = plot_hull_calibration([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0])
    >>> [t.get_text() for t in ax.texts]
    ['1', '0.5', '0']
    >>> plt.close(ax.get_figure())
    """
    curve = roc_curve(y_true, y_score)
    hull = roc_convex_hull(curve.fpr, curve.tpr)
    iso = isotonic_calibration(y_true, y_score)
    ax = _axes(ax, size=5.0)
    _diagonal(ax, ls=":", lw=1)
    ax.plot(curve.fpr, curve.tpr, color=COLORS["curve"], lw=1.4, label="ROC curve")
    ax.plot(hull.fpr, hull.tpr, "--", color=COLORS["point"], lw=1.8, label="convex hull")
    ax.plot(hull.fpr, hull.tpr, "o", ms=5, color=COLORS["point"], zorder=4)
    # one distinct value per hull segment, the highest first (the top of the ranking)
    values = np.unique(iso.values)[::-1]
    for k in range(1, hull.fpr.size):
        x = (hull.fpr[k] + hull.fpr[k - 1]) / 2
        yy = (hull.tpr[k] + hull.tpr[k - 1]) / 2
        # above and to the left of the hull, away from the curve under it; near the
        # top edge (under the title) below the hull instead
        label = f"{values[k - 1]:.3g}"
        if hull.fpr[k] - hull.fpr[k - 1] <= 0.02:  # vertical: to its right
            ax.text(x + 0.03, yy, label, fontsize=8, color=COLORS["point"],
                    ha="left", va="center")
        elif yy > 0.9:
            ax.text(x, yy - 0.05, label, fontsize=8, color=COLORS["point"],
                    ha="center", va="top")
        else:
            ax.text(x - 0.03, yy + 0.03, label, fontsize=8, color=COLORS["point"],
                    ha="right", va="bottom")
    _unit_square(ax, "FPR", "TPR", title=title)
    _legend_below(ax, ncols=2, offset=0.14)
    return ax
