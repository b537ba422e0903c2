"""Figures of the ROC grid (chapter 2, source D's figures XA.1-XA.4) and of the ROC
convex hull: randomized rules between two thresholds, iso-performance lines."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..roc import pair_matrix, roc_point, roc_steps
from ._style import COLORS, _axes, _finish, _no_spines, _unit_square

__all__ = ["plot_roc_grid", "plot_roc_mixture", "plot_iso_performance"]

def _frac_label(x: Fraction) -> str:
    return str(x) if x.denominator != 1 else str(x.numerator)


def plot_roc_grid(y_true: Any, y_score: Any, *, ids: Sequence | None = None, ax=None,
                  show_ids: bool = True, number_steps: bool = False, shade: bool = False,
                  cell_values: bool = False, threshold: float | None = None,
                  title: str | None = None):
    """Draw the ROC curve as a path on the ``m1 x m0`` grid (source D, figs. XA.1-XA.4).

    One step per group of equal scores: up by ``k1/m1`` and right by ``k0/m0``. A group
    that holds both classes (a tie) makes a diagonal step, drawn in the tie colour.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.
    ids : sequence of length n, optional
        Names of the objects (default 1..n, as in the book's tables).
    show_ids : bool
        Label the columns by the negatives and the rows by the positives, in decreasing
        score order (fig. XA.3).
    number_steps : bool
        Write the step number next to the end of each step.
    shade : bool
        Shade the area under the path: a cell is fully shaded when its pair is ordered
        correctly, half (cut by a diagonal) when the two scores tie (fig. XA.3).
    cell_values : bool
        Write in each cell the value of its pair: 1, 1/2 or 0 (from :func:`pair_matrix`).
    threshold : float, optional
        Mark the grid node of the rule ``[score >= threshold]`` (fig. XA.4).

    Examples
    --------
    >>> ax = plot_roc_grid([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.4], shade=True)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['4', '1']
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true)
    names = list(range(1, len(y) + 1)) if ids is None else list(ids)
    steps = roc_steps(y_true, y_score, ids=names)
    m1 = sum(st.k1 for st in steps)
    m0 = sum(st.k0 for st in steps)
    ax = _axes(ax)

    for i in range(m0 + 1):
        ax.plot([i / m0, i / m0], [0, 1], color=COLORS["grid"], lw=0.6, zorder=1)
    for j in range(m1 + 1):
        ax.plot([0, 1], [j / m1, j / m1], color=COLORS["grid"], lw=0.6, zorder=1)

    xs = [0.0] + [st.end_float[0] for st in steps]
    ys = [0.0] + [st.end_float[1] for st in steps]
    if shade:
        ax.fill_between(xs, ys, 0, color=COLORS["shade"], lw=0, zorder=0)
    for k, st in enumerate(steps, start=1):
        tie = st.k0 > 0 and st.k1 > 0
        (x0, y0), (x1, y1) = st.start_float, st.end_float
        ax.plot([x0, x1], [y0, y1], color=COLORS["tie" if tie else "curve"], lw=2.4,
                solid_capstyle="round", zorder=3)
        if number_steps:
            ax.annotate(str(k), (x1, y1), xytext=(4, -10), textcoords="offset points",
                        fontsize=8, color=COLORS["text"])
    ax.plot(xs, ys, "o", color=COLORS["curve"], ms=3.5, zorder=4)

    if cell_values:
        pm = pair_matrix(y_true, y_score, ids=names)
        for j in range(m1):
            for i in range(m0):
                v = pm.matrix[j, i]
                text = "1" if v == 1 else ("½" if v == 0.5 else "0")
                # A tied pair's cell is cut by the diagonal: write in its shaded half.
                dx, dy = (0.72, 0.28) if v == 0.5 else (0.5, 0.5)
                ax.text((i + dx) / m0, (j + dy) / m1, text, ha="center", va="center",
                        fontsize=9, color=COLORS["text"], zorder=5)

    if threshold is not None:
        fpr, tpr = roc_point(y_true, y_score, threshold)
        ax.plot([float(fpr)], [float(tpr)], "o", ms=9, mfc="none", mec=COLORS["point"],
                mew=2, zorder=6)
        ax.annotate(
            f"θ = {threshold:g}: ({_frac_label(fpr)}, {_frac_label(tpr)})",
            (float(fpr), float(tpr)), xytext=(10, -4), textcoords="offset points",
            color=COLORS["point"], fontsize=9, va="top",
        )

    if show_ids:
        pm = pair_matrix(y_true, y_score, ids=names)
        ax.set_xticks([(i + 0.5) / m0 for i in range(m0)], [str(c) for c in pm.col_ids])
        ax.set_yticks([(j + 0.5) / m1 for j in range(m1)], [str(r) for r in pm.row_ids])
        ax.tick_params(length=0)
        ax.set_xlabel("negatives, by decreasing score (FPR →)")
        ax.set_ylabel("positives, by decreasing score (TPR →)")
    else:
        for axis, m in ((ax.xaxis, m0), (ax.yaxis, m1)):
            ticks = [Fraction(i, m) for i in range(m + 1)] if m <= 6 else [
                Fraction(i, 4) for i in range(5)]
            axis.set_ticks([float(t) for t in ticks], [_frac_label(t) for t in ticks])
        ax.set_xlabel("FPR")
        ax.set_ylabel("TPR")
    _unit_square(ax)
    _no_spines(ax)
    return _finish(ax, title)


def plot_roc_mixture(y_true: Any, y_score: Any, threshold_a: float, threshold_b: float, *,
                     q: float, simulated: tuple[float, float] | None = None, ax=None,
                     title: str | None = None):
    """Draw a ROC path with its convex hull and a randomized rule between two nodes.

    The path is drawn on its grid (:func:`plot_roc_grid`), the hull dashed, the nodes
    A and B of the two thresholds circled and joined by a segment, the exact expected
    point of the mix ``q A + (1 - q) B`` as a filled dot and, when given, the mean of
    simulated draws of the rule as a cross.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.
    threshold_a, threshold_b : float
        The two thresholds (A uses ``threshold_a``).
    q : float
        Probability of using ``threshold_a``.
    simulated : (float, float), optional
        Mean ``(FPR, TPR)`` of simulated draws, marked with a cross.

    Examples
    --------
    >>> ax = plot_roc_mixture([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5], 0.9, 0.4, q=0.5)
    >>> ax.get_legend().get_texts()[0].get_text()
    'convex hull'
    >>> plt.close(ax.get_figure())
    """
    from ..roc import randomized_roc_point, roc_convex_hull, roc_curve

    ax = plot_roc_grid(y_true, y_score, ax=ax, show_ids=False, title=title)
    c = roc_curve(y_true, y_score)
    h = roc_convex_hull(c.fpr, c.tpr)
    ax.plot(h.fpr, h.tpr, "--", color=COLORS["alt"], lw=2, zorder=4, label="convex hull")
    a = [float(v) for v in roc_point(y_true, y_score, threshold_a)]
    b = [float(v) for v in roc_point(y_true, y_score, threshold_b)]
    ax.plot([a[0], b[0]], [a[1], b[1]], color=COLORS["point"], lw=1, zorder=5)
    for name, (x, yv), t in (("A", a, threshold_a), ("B", b, threshold_b)):
        ax.plot([x], [yv], "o", ms=9, mfc="none", mec=COLORS["point"], mew=1.8, zorder=6)
        ax.annotate(f"{name}: θ = {t:g}", (x, yv), xytext=(8, -12),
                    textcoords="offset points", color=COLORS["point"], fontsize=9)
    mix = [float(v) for v in randomized_roc_point(y_true, y_score, threshold_a,
                                                    threshold_b, q=q)]
    ax.plot([mix[0]], [mix[1]], "o", ms=9, color=COLORS["point"], zorder=7,
            label=f"expected point, q = {q:g}")
    if simulated is not None:
        ax.plot([simulated[0]], [simulated[1]], "x", ms=9, mew=1.8, color=COLORS["text"],
                zorder=8, label="mean of the draws")
    ax.legend(loc="lower right", fontsize=8)
    return ax


def plot_iso_performance(fpr: Any, tpr: Any, slopes: Sequence[float], *,
                         labels: Sequence[str] | None = None, ax=None,
                         title: str | None = None):
    """Draw a ROC curve, its convex hull and, for each slope, the highest
    iso-performance line that still meets the curve, with the point it touches.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n,)
        The vertices of the ROC curve.
    slopes : sequence of float
        Slopes of the iso-performance lines (non-negative).
    labels : sequence of str, optional
        A legend entry per slope (default ``"slope S"``).

    Examples
    --------
    >>> ax = plot_iso_performance([0, 0, 0.5, 1], [0, 0.5, 1, 1], [0.5])
    >>> ax.get_lines()[-1].get_xydata().tolist()
    [[0.5, 1.0]]
    >>> plt.close(ax.get_figure())
    """
    from ..roc import iso_performance_optimum, roc_convex_hull

    f = np.asarray(fpr, dtype=float)
    t = np.asarray(tpr, dtype=float)
    names = [f"slope {s:g}" for s in slopes] if labels is None else list(labels)
    if len(names) != len(slopes):
        raise ValueError(f"{len(names)} labels for {len(slopes)} slopes")
    ax = _axes(ax)
    h = roc_convex_hull(f, t)
    ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1, zorder=1)
    ax.plot(f, t, color=COLORS["curve"], lw=1.8, zorder=2, label="ROC curve")
    ax.plot(h.fpr, h.tpr, "--", color=COLORS["alt"], lw=1.6, zorder=3, label="convex hull")
    colours = (COLORS["point"], COLORS["tie"], COLORS["text"])
    styles = ("-", "-.", "--")
    xs = np.array([-0.05, 1.05])
    for k, (s, name) in enumerate(zip(slopes, names)):
        opt = iso_performance_optimum(f, t, slope=s)
        colour = colours[k % len(colours)]
        ax.plot(xs, opt.intercept + s * xs, styles[k % len(styles)], color=colour,
                lw=1.5, zorder=4 + k, label=name)
        # later dots are smaller, so that optima at the same point all show
        ax.plot([opt.fpr], [opt.tpr], "o", ms=max(11 - 3 * k, 4), color=colour,
                zorder=10 + k)
    _unit_square(ax, "FPR", "TPR")
    return _finish(ax, title, loc="lower right", fontsize=8)
