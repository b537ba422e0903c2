"""Figures of the pitfalls chapter (chapter 12; source D's figures XA.14 and XA.15).

``plot_ranking_strip`` shows the top of a ranking as a strip of coloured squares, as a
search user sees it; ``plot_roc_shape`` draws a ROC curve and marks the parts of it that
run along an edge of the unit square, where a group of objects is ranked without a single
error; ``plot_feature_classes`` shows where each class lies along one feature.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.patches import Patch, Rectangle

from ..evaluation import evaluate
from ._style import COLORS, _axes, _finish, _no_spines, _one_length, _unit_square

__all__ = ["plot_ranking_strip", "plot_roc_shape", "plot_feature_classes"]

_POS, _NEG = COLORS["point"], COLORS["shade"]


def plot_ranking_strip(y_true: Any, y_score: Any, *, n_top: int = 150, per_row: int = 15,
                       ax=None, legend: bool = True, title: str | None = None):
    """Draw the first ``n_top`` places of a ranking as coloured squares (fig. XA.14).

    The objects are sorted by decreasing score (tied scores keep their input order) and
    laid out row by row, ``per_row`` to a row, like the lines of a results page:
    positives in the point colour, negatives in the pale shade colour. The row labels
    are the places of the first square of each row.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores.
    n_top : int
        Number of places shown (at most ``n``).
    per_row : int
        Squares per row.
    legend : bool
        Add a legend of the two colours below the strip.

    Examples
    --------
    >>> ax = plot_ranking_strip([0, 1, 0, 1, 0], [5, 4, 3, 2, 1], n_top=5, per_row=2)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['1', '3', '5']
    >>> [c.get_facecolor() for c in ax.collections][0].shape
    (5, 4)
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    _one_length(y, s)
    if not 1 <= n_top <= y.size:
        raise ValueError(f"n_top must lie in [1, {y.size}], got {n_top}")
    if per_row < 1:
        raise ValueError(f"per_row must be positive, got {per_row}")
    top = y[np.argsort(-s, kind="stable")[:n_top]]
    rows = -(-n_top // per_row)
    ax = _axes(ax, size=4.2)
    squares, colors = [], []
    for place, label in enumerate(top):
        r, c = divmod(place, per_row)
        squares.append(Rectangle((c + 0.08, -r - 0.92), 0.84, 0.84))
        colors.append(_POS if label else _NEG)
    ax.add_collection(PatchCollection(squares, facecolors=colors, edgecolors="none"))
    ax.set_xlim(-0.2, per_row + 0.2)
    ax.set_ylim(-rows - 0.2, 0.2)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([-r - 0.5 for r in range(rows)],
                  [str(r * per_row + 1) for r in range(rows)])
    ax.tick_params(length=0)
    ax.set_ylabel("place in the ranking")
    _no_spines(ax)
    if legend:
        ax.legend(handles=[Patch(color=_POS, label="positive (relevant)"),
                           Patch(color=_NEG, label="negative")],
                  loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=9,
                  handlelength=1.0)
    return _finish(ax, title)


def plot_roc_shape(y_true: Any, y_score: Any, *, ax=None, label: str = "model",
                   color: str | None = None, highlight: bool = True, min_share: float = 0.01,
                   legend_loc: Any = "lower right", title: str | None = None):
    """Draw a ROC curve and mark where it runs along the edge of the square (fig. XA.15).

    A vertical run on ``FPR = 0`` is a group at the top of the ranking that holds
    positives only; a horizontal run on ``TPR = 1`` is a group at the bottom that holds
    negatives only. With ``highlight`` each run that holds at least ``min_share`` of all
    objects is drawn thick and labelled with that share; the labels stand in the upper
    left part of the square, which a curve with a modest AUC leaves empty. Call the
    function again on the same Axes to add more curves; the diagonal is drawn once.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.
    label : str
        Legend label of the curve; its AUC is appended.
    color : str, optional
        Colour of the curve (default: the book's curve colour).
    highlight : bool
        Mark the runs along the edges.
    min_share : float
        Smallest share of all objects for a run to be marked.
    legend_loc : str or (float, float)
        Where the legend goes, as matplotlib's ``loc`` (a pair is the legend's lower
        left corner in Axes coordinates).

    Examples
    --------
    The three lowest scores are negatives, half of the six objects:

    >>> ax = plot_roc_shape([0, 1, 1, 0, 0, 0], [6, 5, 4, 3, 2, 1])
    >>> len(ax.texts)
    1
    >>> print(ax.texts[0].get_text())
    bottom 50% of objects:
    negatives only
    >>> ax.get_legend().get_texts()[0].get_text()
    'model (AUC 0.750)'
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true)
    e = evaluate(y_true, y_score)  # one grouping for the curve and its AUC
    curve, auc = e.roc_curve(), e.roc_auc()
    n = y.size
    m1 = int(np.count_nonzero(y))
    m0 = n - m1
    ax = _axes(ax)
    if not ax.lines:
        ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1, zorder=1)
    color = COLORS["curve"] if color is None else color
    # A curve of many objects is drawn through at most 400 of its vertices, evenly
    # spread with both ends kept: the same picture, a much smaller stored figure.
    keep = np.arange(curve.fpr.size)
    if keep.size > 400:
        keep = np.unique(np.linspace(0, keep.size - 1, 400).round().astype(int))
    ax.plot(curve.fpr[keep], curve.tpr[keep], color=color, lw=1.8, zorder=3,
            label=f"{label} (AUC {auc:.3f})")
    if highlight:
        style = dict(color=COLORS["point"], lw=5, alpha=0.45, solid_capstyle="butt",
                     zorder=2)
        note = dict(textcoords="data", fontsize=9, color=COLORS["point"], va="center",
                    arrowprops=dict(arrowstyle="->", color=COLORS["point"], lw=0.8))
        top_run = float(curve.tpr[np.flatnonzero(curve.fpr == 0)[-1]])
        share_top = top_run * m1 / n
        if share_top >= min_share:
            ax.plot([0, 0], [0, top_run], **style)
            ax.annotate(f"top {share_top:.0%} of objects:\npositives only",
                        (0.01, top_run / 2), xytext=(0.1, 0.62), **note)
        start = float(curve.fpr[np.flatnonzero(curve.tpr == 1)[0]])
        share_bottom = (1 - start) * m0 / n
        if share_bottom >= min_share:
            ax.plot([start, 1], [1, 1], **style)
            ax.annotate(f"bottom {share_bottom:.0%} of objects:\nnegatives only",
                        ((start + 1) / 2, 0.99), xytext=(0.1, 0.86), **note)
    _unit_square(ax)
    ax.set_xlabel("FPR")
    ax.set_ylabel("TPR")
    return _finish(ax, title, loc=legend_loc, fontsize=9)


def plot_feature_classes(x: Any, y_true: Any, *, bins: int = 30, ax=None,
                         xlabel: str = "feature value", title: str | None = None):
    """Histograms of one feature for each class, on common bins.

    Shows at a glance whether the positives sit at one end of the feature's range (a
    monotone dependence, which the AUC of the feature detects) or somewhere inside it.

    Parameters
    ----------
    x : array-like of shape (n,)
        Feature values.
    y_true : array-like of shape (n,)
        Labels 0/1.
    bins : int
        Number of equal-width bins over the range of ``x``.
    xlabel : str
        Label of the horizontal axis.

    Examples
    --------
    >>> ax = plot_feature_classes([0.1, 0.5, 0.9, 0.4], [0, 1, 0, 1], bins=2)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['negatives', 'positives']
    >>> plt.close(ax.get_figure())
    """
    v = np.asarray(x, dtype=float)
    y = np.asarray(y_true)
    _one_length(v, y, "x and y_true")
    edges = np.histogram_bin_edges(v, bins=bins)
    ax = _axes(ax)
    ax.hist(v[y == 0], bins=edges, color=_NEG, label="negatives")
    ax.hist(v[y == 1], bins=edges, histtype="step", lw=2, color=_POS, label="positives")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("objects per bin")
    return _finish(ax, title, loc="upper right", fontsize=9)
