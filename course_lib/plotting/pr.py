"""Figures of precision-recall curves (chapter 7; source D's figure XA.8, source C's
comparisons after Davis & Goadrich, 2006)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..evaluation import evaluate
from ..pr import pr_auc_trapezoid, pr_curve
from ._style import COLORS, _axes, _finish, _legend_below, _unit_square

__all__ = [
    "plot_pr_curve",
    "plot_pr_areas",
    "plot_pr_interpolation",
    "plot_roc_curves",
    "plot_pr_curves",
    "plot_pr_unachievable",
    "plot_prg_curves",
]

#: Colours of several curves on one Axes, in order.
_SERIES = (COLORS["curve"], COLORS["tie"], COLORS["point"], COLORS["text"])


def _frac_label(x: Fraction) -> str:
    return str(x) if x.denominator != 1 else str(x.numerator)


def _draw_series(ax, curves: Mapping[str, tuple[Any, Any]],
                 series: Callable[[Any, Any], tuple[Any, Any, str]], *, zorder: int = 2,
                 **style) -> None:
    """One line per entry of ``curves``, in the colours of ``_SERIES`` in turn.

    ``series(y, s)`` gives the line's x and y data and the text after its name in the
    legend; ``style`` goes to ``ax.plot``.
    """
    for k, (name, (y, s)) in enumerate(curves.items()):
        xs, ys, score = series(y, s)
        ax.plot(xs, ys, color=_SERIES[k % len(_SERIES)], zorder=zorder + k,
                label=f"{name} ({score})", **style)


def _roc_series(y: Any, s: Any) -> tuple[Any, Any, str]:
    """The ROC curve and its AUC, from one grouping of the scores."""
    e = evaluate(y, s)
    c = e.roc_curve()
    return c.fpr, c.tpr, f"AUC {e.roc_auc():.3f}"


def _pr_series(y: Any, s: Any) -> tuple[Any, Any, str]:
    """The PR curve and its average precision, from one grouping of the scores."""
    e = evaluate(y, s)
    c = e.pr_curve()
    return c.recall, c.precision, f"AP {e.average_precision():.3f}"


def plot_pr_curve(y_true: Any, y_score: Any, *, ax=None, threshold: float | None = None,
                  label: str | None = None, title: str | None = None):
    """Draw a PR curve: the point of every threshold, joined in order by segments.

    Lowering the threshold through the distinct scores gives one point
    ``(recall, precision)`` per score (:func:`course_lib.pr_curve`); the points are
    joined by straight segments in that order, as in source D's figure XA.8. No point
    is drawn at recall 0, where precision is 0/0.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; at least one positive.
    threshold : float, optional
        Mark the point of the rule ``[score >= threshold]``, labelled with its exact
        recall and precision.
    label : str, optional
        Legend label of the curve.

    Examples
    --------
    >>> ax = plot_pr_curve([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5], threshold=0.45)
    >>> ax.lines[0].get_xydata().tolist()
    [[0.5, 1.0], [0.5, 0.5], [1.0, 0.6666666666666666], [1.0, 0.5]]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('recall R', 'precision P')
    >>> plt.close(ax.get_figure())
    """
    c = pr_curve(y_true, y_score)
    ax = _axes(ax)
    ax.plot(c.recall, c.precision, "-o", color=COLORS["curve"], lw=2, ms=4,
            label=label, zorder=3)
    if threshold is not None:
        # the curve's own point; its rates are ratios of counts up to n, so the exact
        # fractions are the closest ones with denominators up to n
        n = int(np.size(y_score))
        r, p = (Fraction(v).limit_denominator(n) for v in c.at_threshold(threshold))
        ax.plot([float(r)], [float(p)], "o", ms=10, mfc="none", mec=COLORS["point"],
                mew=2, zorder=4)
        right = float(r) > 0.6  # near the right edge: write the label to the left
        ax.annotate(f"θ = {threshold:g}: ({_frac_label(r)}, {_frac_label(p)})",
                    (float(r), float(p)), xytext=(-10 if right else 10, -6),
                    textcoords="offset points", ha="right" if right else "left",
                    color=COLORS["point"], fontsize=9, va="top")
    _unit_square(ax, "recall R", "precision P")
    if label:
        ax.legend(loc="lower left")
    return _finish(ax, title)


def plot_pr_areas(y_true: Any, y_score: Any, *, kind: str = "step", ax=None,
                  title: str | None = None):
    """Shade one of the two areas under a PR curve: average precision or trapezoids.

    ``kind="step"`` shades the average precision ``sum_n (R_n - R_{n-1}) P_n``: each
    rise in recall is a rectangle at the precision reached at its end.
    ``kind="trapezoid"`` shades the area under the points joined by straight segments,
    starting at recall 0 with the precision of the first point
    (:func:`course_lib.pr_auc_trapezoid`). The PR points are drawn on top.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; at least one positive.
    kind : {"step", "trapezoid"}
        Which area to shade.
    title : str, optional
        Axes title; by default the name of the area and its value.

    Examples
    --------
    >>> ax = plot_pr_areas([1, 0, 1], [0.9, 0.8, 0.7], kind="trapezoid")
    >>> ax.get_title()
    'trapezoids: 0.7917'
    >>> plt.close(ax.get_figure())
    """
    if kind not in ("step", "trapezoid"):
        raise ValueError(f"kind must be 'step' or 'trapezoid', got {kind!r}")
    e = evaluate(y_true, y_score)  # the curve and its average precision: one grouping
    c = e.pr_curve()
    x = np.r_[0.0, c.recall]
    p = np.r_[c.precision[0], c.precision]
    ax = _axes(ax)
    if kind == "step":
        ax.fill_between(x, p, 0, step="pre", color=COLORS["shade"], lw=0, zorder=1)
        ax.step(x, p, where="pre", color=COLORS["curve"], lw=1.2, zorder=2)
        default = f"average precision: {e.average_precision():.4f}"
    else:
        ax.fill_between(x, p, 0, color=COLORS["shade"], lw=0, zorder=1)
        ax.plot(x, p, color=COLORS["curve"], lw=1.2, zorder=2)
        default = f"trapezoids: {pr_auc_trapezoid(y_true, y_score):.4f}"
    ax.plot(c.recall, c.precision, "o", color=COLORS["curve"], ms=4, zorder=3)
    _unit_square(ax, "recall R", "precision P")
    ax.set_title(default if title is None else title)
    return ax


def plot_pr_interpolation(recall_linear: Any, precision_linear: Any, recall_achievable: Any,
                          precision_achievable: Any, *, ax=None, unit_square: bool = True,
                          title: str | None = None):
    """Compare straight lines between PR points with the achievable PR curve.

    The first pair of arrays are PR points joined by straight segments (dashed); the
    second pair is the achievable curve between the same points (solid, with markers),
    e.g. from :func:`course_lib.achievable_pr`. The gap between them, the area that
    straight lines add, is shaded.

    Parameters
    ----------
    recall_linear, precision_linear : array-like
        Points joined by straight segments, by increasing recall.
    recall_achievable, precision_achievable : array-like
        The achievable curve, by increasing recall.
    unit_square : bool
        Show the whole unit square; if False, zoom on the points (equal aspect).

    Examples
    --------
    >>> ax = plot_pr_interpolation([0.25, 0.5], [0.5, 0.25],
    ...                            [0.25, 0.375, 0.5], [0.5, 0.3, 0.25])
    >>> [line.get_label() for line in ax.get_lines()]
    ['straight line', 'achievable']
    >>> plt.close(ax.get_figure())
    """
    rl = np.asarray(recall_linear, dtype=float)
    pl = np.asarray(precision_linear, dtype=float)
    ra = np.asarray(recall_achievable, dtype=float)
    pa = np.asarray(precision_achievable, dtype=float)
    ax = _axes(ax)
    lo, hi = max(rl[0], ra[0]), min(rl[-1], ra[-1])
    grid = np.union1d(rl, ra)
    grid = grid[(grid >= lo) & (grid <= hi)]
    ax.fill_between(grid, np.interp(grid, rl, pl), np.interp(grid, ra, pa),
                    color=COLORS["tie"], alpha=0.25, lw=0, zorder=1)
    ax.plot(rl, pl, "--o", color=COLORS["tie"], lw=1.6, ms=4, label="straight line",
            zorder=2)
    ax.plot(ra, pa, "-", color=COLORS["curve"], lw=2, marker="o", ms=3,
            label="achievable", zorder=3)
    if unit_square:
        _unit_square(ax, "recall R", "precision P")
    else:
        xs, ys = np.r_[rl, ra], np.r_[pl, pa]
        half = 0.55 * max(np.ptp(xs), np.ptp(ys))
        cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
        ax.set_xlim(cx - half, cx + half)
        ax.set_ylim(cy - half, cy + half)
        ax.set_aspect("equal")
        ax.set_xlabel("recall R")
        ax.set_ylabel("precision P")
    return _finish(ax, title, loc="upper right")


def plot_roc_curves(curves: Mapping[str, tuple[Any, Any]], *, ax=None,
                    title: str | None = None):
    """Draw several ROC curves on one Axes, the AUC of each in a legend below.

    Parameters
    ----------
    curves : mapping of str to (y_true, y_score)
        One curve per entry; the key names it in the legend. Different entries may
        have different labels (a thinned sample, say).

    Examples
    --------
    >>> ax = plot_roc_curves({"a": ([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5])})
    >>> ax.get_legend().get_texts()[0].get_text()
    'a (AUC 0.750)'
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax)
    ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1, zorder=1)
    _draw_series(ax, curves, _roc_series, lw=1.8)
    _unit_square(ax, "FPR", "TPR")
    _legend_below(ax)
    ax.set_title("ROC" if title is None else title)
    return ax


def plot_pr_curves(curves: Mapping[str, tuple[Any, Any]], *, ax=None,
                   title: str | None = None):
    """Draw several PR curves on one Axes, the average precision of each below.

    Each curve is its PR points joined in order by segments (as
    :func:`plot_pr_curve`, without markers).

    Parameters
    ----------
    curves : mapping of str to (y_true, y_score)
        One curve per entry; the key names it in the legend.

    Examples
    --------
    >>> ax = plot_pr_curves({"a": ([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5])})
    >>> ax.get_legend().get_texts()[0].get_text()
    'a (AP 0.833)'
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax)
    _draw_series(ax, curves, _pr_series, lw=1.8)
    _unit_square(ax, "recall R", "precision P")
    _legend_below(ax)
    ax.set_title("PR" if title is None else title)
    return ax


def plot_pr_unachievable(positive_share: float,
                         curves: Mapping[str, tuple[Any, Any]] | None = None, *, ax=None,
                         title: str | None = None):
    """Shade the unachievable region of PR space (Boyd et al., 2012), with PR curves.

    Below ``P = pi R / (pi R + 1 - pi)`` no ranking of a sample with a share ``pi`` of
    positives can go; the dotted horizontal line is ``P = pi``, where a scorer that
    ignores the objects lies.

    Parameters
    ----------
    positive_share : float in (0, 1)
        The share of positives ``pi``.
    curves : mapping of str to (y_true, y_score), optional
        PR curves to draw over the region.

    Examples
    --------
    >>> ax = plot_pr_unachievable(0.2)
    >>> ax.get_legend().get_texts()[0].get_text()
    'unachievable (area 0.107)'
    >>> plt.close(ax.get_figure())
    """
    from ..pr import min_pr_auc, min_precision

    area = min_pr_auc(positive_share=positive_share)
    ax = _axes(ax)
    r = np.linspace(0, 1, 401)
    p = min_precision(r, positive_share=positive_share)
    ax.fill_between(r, 0, p, color=COLORS["grid"], alpha=0.45, lw=0, zorder=1,
                    label=f"unachievable (area {area:.3f})")
    ax.plot(r, p, color=COLORS["grid"], lw=1.2, zorder=2)
    ax.plot([0, 1], [positive_share] * 2, ":", color=COLORS["text"], lw=1, zorder=2,
            label=f"P = π = {positive_share:.3g}")
    _draw_series(ax, curves or {}, _pr_series, zorder=3, lw=1.6)
    _unit_square(ax, "recall R", "precision P")
    _legend_below(ax)
    return _finish(ax, title)


def plot_prg_curves(curves: Mapping[str, tuple[Any, Any]], *, ax=None,
                    title: str | None = None):
    """Draw precision-recall-gain curves (Flach & Kull, 2015), AUPRG in the legend.

    The unit square of PRG space: recall gain from 0 to 1 (recall from ``pi`` to 1),
    precision gain up to 1; a part with negative precision gain (precision below
    ``pi``) runs below the square and is cut at -0.25. The always-positive rule is the
    point (1, 0).

    Parameters
    ----------
    curves : mapping of str to (y_true, y_score)
        One curve per entry; the key names it in the legend.

    Examples
    --------
    >>> ax = plot_prg_curves({"a": ([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])})
    >>> ax.get_legend().get_texts()[0].get_text()
    'a (AUPRG 0.708)'
    >>> plt.close(ax.get_figure())
    """
    from ..pr import precision_recall_gain_curve, prg_auc

    ax = _axes(ax)
    ax.axhline(0, color=COLORS["grid"], lw=1, zorder=1)
    def series(y: Any, s: Any) -> tuple[Any, Any, str]:
        c = precision_recall_gain_curve(y, s)
        return c.recall_gain, c.precision_gain, f"AUPRG {prg_auc(y, s):.3f}"

    _draw_series(ax, curves, series, lw=1.8, marker="o", ms=2.5)
    _unit_square(ax, "recall gain", "precision gain")
    ax.set_ylim(-0.25, 1.02)
    ax.set_aspect("auto")
    _legend_below(ax)
    return _finish(ax, title)
