"""Figures of chapter 17: the partial AUC and the H-measure.

``plot_partial_area`` draws a ROC curve over a range of false positive rates with the
partial area shaded and McClish's two reference areas marked; ``plot_cost_weights``
draws the cost distributions that the AUC implies for several scorers next to a Beta
density; ``plot_min_loss`` draws Hand's minimum-loss curves ``L(c)`` of several scorers
with the Beta density that the H-measure averages them over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from .._curves import read_line
from ._style import COLORS, _axes, _legend_below

__all__ = ["plot_partial_area", "plot_cost_weights", "plot_min_loss"]

_SERIES = (COLORS["curve"], COLORS["tie"], COLORS["alt"], COLORS["point"])


def _beta_pdf(alpha: float, beta: float, c: np.ndarray) -> np.ndarray:
    """The Beta(alpha, beta) density at ``c``; scipy.stats is imported here, not with the
    module: it takes about 0.3 s, which every kernel that imports ``course_lib.plotting``
    would pay."""
    from scipy import stats

    return stats.beta(alpha, beta).pdf(c)


def _check_pair(lo: float, hi: float) -> tuple[float, float]:
    a, b = float(lo), float(hi)
    if not 0 <= a < b <= 1:
        raise ValueError(f"fpr_range must be a pair (a, b) with 0 <= a < b <= 1, got {(lo, hi)!r}")
    return a, b


def plot_partial_area(fpr: Any, tpr: Any, *, fpr_range: tuple[float, float],
                      xmax: float | None = None, label: str = "ROC curve", ax=None):
    """A ROC curve with its partial area over ``fpr_range`` and McClish's references.

    The partial area (under the curve, between the two FPR ends) is shaded; the area
    under the diagonal over the same range (McClish's ``min``) is hatched; the whole
    strip ``[a, b] x [0, 1]`` (``max``) is outlined with a dashed line.

    Parameters
    ----------
    fpr, tpr : array-like
        Vertices of the ROC curve (e.g. a :class:`course_lib.RocCurve`'s).
    fpr_range : pair (a, b)
        The range of false positive rates, ``0 <= a < b <= 1``.
    xmax : float, optional
        Right end of the x-axis (default: ``min(1, 2 b)``, a zoom on the range).
    label : str
        Legend entry of the curve.

    Examples
    --------
    >>> ax = plot_partial_area([0, 0, 0.5, 1], [0, 0.5, 1, 1], fpr_range=(0, 0.25))
    >>> float(ax.get_xlim()[1])
    0.5
    >>> plt.close(ax.get_figure())
    """
    f = np.asarray(fpr, dtype=float)
    t = np.asarray(tpr, dtype=float)
    a, b = _check_pair(*fpr_range)
    ax = _axes(ax)
    right = min(1.0, 2 * b) if xmax is None else float(xmax)
    inside = (f > a) & (f < b)
    xs = np.r_[a, f[inside], b]
    ys = np.r_[read_line(f, t, a), t[inside], read_line(f, t, b)]
    ax.fill_between(xs, 0, ys, color=COLORS["shade"], lw=0, label="partial area", zorder=1)
    ax.fill_between([a, b], 0, [a, b], facecolor="none", edgecolor=COLORS["grid"],
                    hatch="///", lw=0, label="under the diagonal (min)", zorder=2)
    ax.plot([a, a, b, b], [0, 1, 1, 0], ls="--", lw=1.2, color=COLORS["text"],
            label="the strip (max)", zorder=3)
    ax.plot([0, 1], [0, 1], ls=":", lw=1, color=COLORS["grid"], zorder=2)
    ax.plot(f, t, color=COLORS["curve"], lw=2, label=label, zorder=4)
    ax.set_xlim(0, right)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("FPR")
    ax.set_ylabel("TPR")
    _legend_below(ax, ncols=2, offset=0.16)
    return ax


def _cost_axes(ax, ylabel: str):
    """The cost ``c`` on [0, 1] along x, ``ylabel`` from 0 up, the legend below: ``ax``."""
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("cost of a false positive, $c$")
    ax.set_ylabel(ylabel)
    _legend_below(ax, ncols=2, offset=0.18)
    return ax


def plot_cost_weights(weights: Mapping[str, Any], *, alpha: float = 2.0, beta: float = 2.0,
                      bins: int = 20, ax=None):
    """The cost distributions implied by the AUC of several scorers, and a Beta density.

    Each entry of ``weights`` is a :class:`course_lib.CostWeights` (``cost``,
    ``weight``), drawn as a histogram of density (weights summed per bin, divided by
    the bin width) in a colour of its own; the Beta(alpha, beta) density, the same for
    every scorer, is the dashed grey curve.

    Parameters
    ----------
    weights : mapping of name -> CostWeights
        One implied cost distribution per scorer.
    alpha, beta : float
        Parameters of the Beta density drawn for comparison.
    bins : int
        Number of equal bins on [0, 1].

    Examples
    --------
    >>> from course_lib import CostWeights
    >>> ax = plot_cost_weights({"A": CostWeights(np.array([0.9, 0.5, 0.1]),
    ...                                         np.array([0.2, 0.6, 0.2]))}, bins=10)
    >>> len(ax.get_lines()), len(ax.patches)
    (1, 1)
    >>> plt.close(ax.get_figure())
    """
    if bins < 1:
        raise ValueError(f"bins must be a positive int, got {bins!r}")
    ax = _axes(ax, size=4.6)
    edges = np.linspace(0, 1, bins + 1)
    for color, (name, cw) in zip(_SERIES, weights.items()):
        mass, _ = np.histogram(np.asarray(cw.cost), bins=edges, weights=np.asarray(cw.weight))
        ax.stairs(mass * bins, edges, color=color, lw=2, label=name)
    c = np.linspace(0, 1, 401)
    ax.plot(c, _beta_pdf(alpha, beta, c), ls="--", lw=1.5, color=COLORS["grid"],
            label=f"Beta({alpha:g}, {beta:g})")
    return _cost_axes(ax, "density")


def plot_min_loss(cost: Any, losses: Mapping[str, Any], *, alpha: float = 2.0,
                  beta: float = 2.0, ax=None):
    """Minimum-loss curves ``L(c)`` of several scorers over the Beta density of ``c``.

    The curves share the left axis; the Beta(alpha, beta) density, shaded in the
    background, has a scale of its own on the right.

    Parameters
    ----------
    cost : array-like of shape (k,)
        Costs ``c`` in [0, 1] (increasing).
    losses : mapping of name -> array-like of shape (k,)
        ``L(c)`` of each scorer at ``cost`` (e.g. :func:`course_lib.minimum_loss`).
    alpha, beta : float
        Parameters of the Beta density.

    Returns
    -------
    matplotlib Axes
        The Axes of the curves (the density's twin Axes shares its x-axis).

    Examples
    --------
    >>> c = np.linspace(0, 1, 5)
    >>> ax = plot_min_loss(c, {"A": np.minimum(c, 1 - c) / 2})
    >>> len(ax.get_lines())
    1
    >>> plt.close(ax.get_figure())
    """
    c = np.asarray(cost, dtype=float)
    ax = _axes(ax, size=4.6)
    twin = ax.twinx()
    twin.fill_between(c, 0, _beta_pdf(alpha, beta, c), color=COLORS["grid"], alpha=0.25,
                      lw=0)
    twin.set_ylim(bottom=0)
    twin.set_ylabel(f"Beta({alpha:g}, {beta:g}) density (shaded)")
    twin.spines["right"].set_visible(True)
    ax.set_zorder(twin.get_zorder() + 1)
    ax.patch.set_visible(False)
    for color, (name, loss) in zip(_SERIES, losses.items()):
        ax.plot(c, np.asarray(loss, dtype=float), color=color, lw=2, label=name)
    return _cost_axes(ax, "minimum loss $L(c)$")
