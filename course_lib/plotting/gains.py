"""Figures of the business curves (chapter 8, source D's figures XA.9-XA.11).

Every curve here is drawn against the rate of positive predictions ``RPP``, the share of objects
selected from the top of the ranking. The curves come from :mod:`course_lib.gains` and
:mod:`course_lib.roc`; these functions only draw them.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..evaluation import evaluate
from ..gains import (
    _lift_from_gain,
    gain_area,
    gain_curve,
    ks_curve,
    lift_of_gain,
    profit_curve,
)
from ._style import COLORS, _axes, _diagonal, _finish, _unit_square

__all__ = [
    "plot_gain_curve",
    "plot_lift_curve",
    "plot_ks_curve",
    "plot_profit_curve",
    "plot_gain_vs_roc",
]

_DECILES = np.linspace(0, 1, 11)
_RPP_LABEL = "RPP, share of objects selected"


def _positive_share(y_true: Any) -> float:
    y = np.asarray(y_true)
    return float(np.count_nonzero(y) / y.size)


def _ring(ax, x: Any, y: Any, label: str) -> None:
    """An open circle in the point colour at ``(x, y)``."""
    ax.plot([x], [y], "o", ms=8, mfc="none", mec=COLORS["point"], mew=2, label=label)


def _mark_rate(ax, rate: float, value: Any, name: str, xytext: tuple[int, int],
               **text: Any) -> None:
    """Ring the curve at ``rate`` and write ``"{name} at RPP = rate: value"`` beside it."""
    _ring(ax, rate, value, "_mark")
    ax.annotate(f"{name} at RPP = {rate:g}: {value:.2f}", (rate, value), xytext=xytext,
                textcoords="offset points", color=COLORS["point"], fontsize=9, **text)


def plot_gain_curve(y_true: Any, y_score: Any, *, ax=None, reference: bool = True,
                    deciles: bool = False, mark_rate: float | None = None,
                    label: str = "model", color: str | None = None, title: str | None = None):
    """Draw the gain curve ``TPR(RPP)`` with the random and the ideal curves (fig. XA.9).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; there must be positives.
    reference : bool
        Also draw the random scorer's diagonal and the ideal curve, which climbs to 1
        at ``RPP`` = the share of positives.
    deciles : bool
        Mark the curve at ``RPP = 0, 0.1, ..., 1``.
    mark_rate : float, optional
        Mark and label the gain at this rate (e.g. 0.1 for Gain-Top-10%).
    label : str
        Legend label of the curve.
    color : str, optional
        Colour of the curve (default: the book's curve colour).

    Examples
    --------
    >>> ax = plot_gain_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['random', 'ideal', 'model']
    >>> ax.get_lines()[-1].get_xydata()[:3].round(4).tolist()
    [[0.0, 0.0], [0.1429, 0.3333], [0.2857, 0.3333]]
    >>> plt.close(ax.get_figure())
    """
    curve = gain_curve(y_true, y_score)
    ax = _axes(ax)
    color = COLORS["curve"] if color is None else color
    if reference:
        pi = _positive_share(y_true)
        ax.plot([0, 1], [0, 1], "--", color=COLORS["grid"], lw=1.2, label="random")
        ax.plot([0, pi, 1], [0, 1, 1], ":", color=COLORS["text"], lw=1.4, label="ideal")
    ax.plot(curve.rate, curve.tpr, color=color, lw=2, label=label)
    if deciles:
        ax.plot(_DECILES, curve.at(_DECILES), "o", color=color, ms=4, label="_deciles")
    if mark_rate is not None:
        _mark_rate(ax, mark_rate, curve.at(mark_rate), "gain", (8, -4), va="top")
    _unit_square(ax, _RPP_LABEL, "TPR (gain)")
    return _finish(ax, title, loc="lower right")


def plot_lift_curve(y_true: Any, y_score: Any, *, ax=None, reference: bool = True,
                    deciles: bool = False, mark_rate: float | None = None,
                    title: str | None = None):
    """Draw the lift curve ``TPR / RPP`` against ``RPP`` (source D, fig. XA.10).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; there must be positives.
    reference : bool
        Also draw the random scorer's lift 1 and the ideal lift ``min(1/pi, 1/RPP)``,
        with ``pi`` the share of positives.
    deciles : bool
        Mark the curve at ``RPP = 0, 0.1, ..., 1`` (at 0: the lift of the top group).
    mark_rate : float, optional
        Mark and label the lift at this rate (e.g. 0.1 for Lift-Top-10%).

    Examples
    --------
    >>> ax = plot_lift_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['random', 'ideal', 'model']
    >>> float(ax.get_lines()[-1].get_ydata()[-1])
    1.0
    >>> plt.close(ax.get_figure())
    """
    gain = gain_curve(y_true, y_score)
    curve = _lift_from_gain(gain)
    ax = _axes(ax)
    if reference:
        pi = _positive_share(y_true)
        ax.axhline(1, ls="--", color=COLORS["grid"], lw=1.2, label="random")
        rates = np.linspace(pi, 1, 200)
        ax.plot(np.r_[0, rates], np.r_[1 / pi, 1 / rates], ":", color=COLORS["text"],
                lw=1.4, label="ideal")
    ax.plot(curve.rate, curve.lift, color=COLORS["curve"], lw=2, label="model")
    if deciles:
        ax.plot(_DECILES, lift_of_gain(gain, _DECILES), "o", color=COLORS["curve"],
                ms=4, label="_deciles")
    if mark_rate is not None:
        _mark_rate(ax, mark_rate, lift_of_gain(gain, mark_rate), "lift", (8, 4))
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(_RPP_LABEL)
    ax.set_ylabel("lift = TPR / RPP")
    return _finish(ax, title, loc="upper right")


def plot_ks_curve(y_true: Any, y_score: Any, *, ax=None, title: str | None = None):
    """Draw the KS chart: ``TPR(RPP)`` and ``FPR(RPP)``, the largest gap marked (fig. XA.11).

    The curves are those of :func:`course_lib.ks_curve` on a sample (for a score
    model's theoretical chart see ``plot_ks_chart``). The gap is a vertical segment at
    the rate of :func:`course_lib.ks_curve`'s ``ks_rate``, labelled with the KS distance.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.

    Examples
    --------
    Table 1: the gap 1/2 is at RPP = 5/7, from FPR = 1/2 to TPR = 1:

    >>> ax = plot_ks_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['TPR (class 1)', 'FPR (class 0)', 'largest gap']
    >>> ax.texts[0].get_text()
    'KS = 0.50'
    >>> ax.get_lines()[-1].get_xydata().round(4).tolist()
    [[0.7143, 0.5], [0.7143, 1.0]]
    >>> plt.close(ax.get_figure())
    """
    c = ks_curve(y_true, y_score)
    ax = _axes(ax)
    _diagonal(ax, lw=1, zorder=2)
    ax.plot(c.rate, c.tpr, color=COLORS["curve"], lw=2, label="TPR (class 1)")
    ax.plot(c.rate, c.fpr, color=COLORS["tie"], lw=2, label="FPR (class 0)")
    k = int(np.flatnonzero(c.rate == c.ks_rate)[0])
    ax.plot([c.ks_rate, c.ks_rate], [c.fpr[k], c.tpr[k]], color=COLORS["point"], lw=2.2,
            marker="_", ms=10, mew=2, label="largest gap")
    ax.annotate(f"KS = {c.ks:.2f}", (c.ks_rate, (c.fpr[k] + c.tpr[k]) / 2), xytext=(6, 0),
                textcoords="offset points", va="center", color=COLORS["point"], fontsize=9)
    _unit_square(ax, _RPP_LABEL, "share of the class selected")
    return _finish(ax, title, loc="lower right")


def plot_profit_curve(y_true: Any, y_score: Any, *, cost: float, revenue: float, ax=None,
                      max_rate: float = 1.0, title: str | None = None):
    """Draw the profit of contacting the top ``RPP`` share, and mark the best cut-off.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 (1 = responds) and scores.
    cost, revenue : float
        Cost of one contact and income from one response, as in
        :func:`course_lib.profit_curve`.
    max_rate : float, default 1
        Show ``RPP`` from 0 to ``max_rate`` only (a zoom on the top of the ranking,
        where the best cut-off usually is); the vertical axis fits the part shown.

    Examples
    --------
    >>> ax = plot_profit_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],
    ...                        cost=1, revenue=3)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 2.0]
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['profit', 'best: 4 at RPP = 0.71']
    >>> plt.close(ax.get_figure())
    """
    c = profit_curve(y_true, y_score, cost=cost, revenue=revenue)
    ax = _axes(ax)
    ax.plot(c.rate, c.profit, color=COLORS["curve"], lw=2, label="profit")
    ax.axhline(0, color=COLORS["grid"], lw=1, ls="--", label="_zero")
    _ring(ax, c.best_rate, c.best_profit,
          f"best: {c.best_profit:,.0f} at RPP = {c.best_rate:.2f}")
    ax.set_xlim(-0.02 * max_rate, 1.02 * max_rate)
    if max_rate < 1:
        shown = c.profit[c.rate <= max_rate]
        low, high = min(float(shown.min()), 0.0), max(float(shown.max()), 0.0)
        pad = 0.06 * (high - low) if high > low else 1.0
        ax.set_ylim(low - pad, high + pad)
    ax.set_xlabel(_RPP_LABEL)
    ax.set_ylabel(f"profit (contact {cost:g}, response {revenue:g})")
    return _finish(ax, title, loc="lower left")


def plot_gain_vs_roc(y_true: Any, y_score: Any, *, ax=None, title: str | None = None):
    """Draw the ROC curve ``TPR(FPR)`` and the gain curve ``TPR(RPP)`` on one square.

    At every threshold ``RPP = pi TPR + (1 - pi) FPR`` with ``pi`` the share of
    positives, so the two curves are at most ``pi`` apart horizontally: under strong
    imbalance they nearly coincide (source G). The legend gives each curve's area.

    Parameters are those of :func:`plot_ks_curve`.

    Examples
    --------
    >>> ax = plot_gain_vs_roc([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['ROC: TPR(FPR), area 0.792', 'gain: TPR(RPP), area 0.667']
    >>> plt.close(ax.get_figure())
    """
    e = evaluate(y_true, y_score)  # one validation and one grouping for both curves
    roc, gain = e.roc_curve(), e.gain_curve()
    ax = _axes(ax)
    _diagonal(ax, lw=1, zorder=2)
    ax.plot(roc.fpr, roc.tpr, color=COLORS["tie"], lw=2.2,
            label=f"ROC: TPR(FPR), area {e.roc_auc():.3f}")
    ax.plot(gain.rate, gain.tpr, color=COLORS["curve"], lw=1.4, ls=(0, (4, 2)),
            label=f"gain: TPR(RPP), area {gain_area(gain):.3f}")
    _unit_square(ax, "FPR (ROC) or RPP (gain)", "TPR")
    return _finish(ax, title, loc="lower right")
