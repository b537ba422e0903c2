"""Figures of the ROC grid (chapter 2, source D's figures XA.1-XA.4)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..roc import pair_matrix, roc_point, roc_steps
from ._style import COLORS, _no_spines, _unit_square, new_axes

__all__ = ["plot_roc_grid"]

def _frac_label(x: Fraction) -> str:
    return str(x) if x.denominator != 1 else str(x.numerator)


def plot_roc_grid(
    y_true: Any,
    y_score: Any,
    *,
    ids: Sequence | None = None,
    ax=None,
    show_ids: bool = True,
    number_steps: bool = False,
    shade: bool = False,
    cell_values: bool = False,
    threshold: float | None = None,
    title: str | None = None,
):
    """Draw the ROC curve as a path on the ``m1 x m0`` grid (source D, figs. XA.1-XA.4).

    One step per group of equal scores: up by ``k1/m1`` and right by ``k0/m0``. A group
    that holds both classes (a tie) makes a diagonal step, drawn in the tie colour.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.
    ids : sequence of length n, optional
        Names of the objects (default 1..n, as in the book's tables).
    ax : matplotlib Axes, optional
        Where to draw; a new figure if None.
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
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib Axes

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
    if ax is None:
        _, ax = new_axes()

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
    if title:
        ax.set_title(title)
    return ax
