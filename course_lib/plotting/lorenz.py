"""Figures of the Lorenz and CAP curves (chapters 5-6, source D's figs. XA.5-XA.7).

Economics: the Lorenz curve of incomes runs *below* the diagonal, and twice the area
between them is Brown's Gini coefficient. Machine learning: the CAP curve of a scorer
runs *above* the diagonal, and the area between them, over the same area for the ideal
ranking, is the normalized Gini.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..lorenz import cap_curve, gini_brown, lorenz_curve
from ._style import COLORS, _axes, _diagonal, _unit_square

__all__ = ["plot_lorenz", "plot_lorenz_curves", "plot_cap"]

# Several curves on one Axes: colour and line style both differ, so the curves stay
# apart in print and for colour-blind readers.
_SERIES = (
    (COLORS["curve"], "-", "o"),
    (COLORS["tie"], "--", "s"),
    (COLORS["text"], "-.", "^"),
    (COLORS["point"], ":", "D"),
)


def _is_integral(arr: np.ndarray) -> bool:
    return bool(np.all(arr == np.floor(arr))) and float(np.abs(arr).sum()) < 2**53


def _label(num: float, den: float, exact: bool) -> str:
    """``num / den`` as a fraction (exact integers) or a short decimal."""
    if exact:
        f = Fraction(int(num), int(den))
        return str(f.numerator) if f.denominator == 1 else str(f)
    return f"{num / den:.3g}"


def plot_lorenz(values: Any, *, ax=None, shade: bool = True, mark: int | None = None,
                label: str | None = None, title: str | None = None):
    """Draw the Lorenz curve of incomes and shade the area to the diagonal (fig. XA.5).

    The people are taken poorest first; the vertex ``k`` is (share of the ``k``
    poorest in the population, their share of the total income). Twice the shaded
    area is the Gini coefficient (:func:`course_lib.gini_brown`).

    Parameters
    ----------
    values : array-like of shape (n,)
        Non-negative incomes with a positive total, in any order.
    shade : bool
        Shade the area between the diagonal and the curve.
    mark : int, optional
        Mark and label the vertex of the ``mark`` poorest people, as an exact fraction
        when the incomes are integers.
    label : str, optional
        Legend label of the curve (default: ``"Lorenz curve, Gini = ..."``).

    Examples
    --------
    >>> ax = plot_lorenz([1, 1, 2, 2, 3], mark=3)
    >>> ax.lines[1].get_ydata().tolist() == [0, 1/9, 2/9, 4/9, 6/9, 1]
    True
    >>> [t.get_text() for t in ax.texts]
    ['(3/5, 4/9)']
    >>> plt.close(ax.get_figure())
    """
    v = np.asarray(values, dtype=float)
    x, y = lorenz_curve(v)
    ax = _axes(ax)
    if label is None:
        label = f"Lorenz curve, Gini = {gini_brown(v):.3g}"
    _diagonal(ax, "equality")
    ax.plot(x, y, "-o", color=COLORS["curve"], lw=2.2, ms=4, label=label, zorder=3)
    if shade:
        ax.fill_between(x, x, y, color=COLORS["shade"], lw=0, zorder=0)
    if mark is not None:
        if not 0 <= mark <= v.size:
            raise ValueError(f"mark must be between 0 and {v.size}, got {mark}")
        total = v.sum()
        held = np.sort(v)[:mark].sum()
        exact = _is_integral(v)
        ax.plot([x[mark]], [y[mark]], "o", ms=9, mfc="none", mec=COLORS["point"],
                mew=2, zorder=4)
        ax.annotate(
            f"({_label(mark, v.size, True)}, {_label(held, total, exact)})",
            (x[mark], y[mark]), xytext=(8, -4), textcoords="offset points",
            color=COLORS["point"], va="top", fontsize=10,
        )
    ax.legend(loc="upper left")
    _unit_square(ax, "share of the population, poorest first",
                 "share of the total income", quarter_ticks=True, title=title)
    return ax


def plot_lorenz_curves(groups: Mapping[str, Any], *, ax=None, title: str | None = None):
    """Draw several Lorenz curves on one Axes, with their Gini in the legend.

    Parameters
    ----------
    groups : mapping of str to array-like
        Name of a population -> its incomes (non-negative, positive total); at most
        four populations.

    Examples
    --------
    >>> ax = plot_lorenz_curves({"equal": [10] * 10, "unequal": [1] * 9 + [91]})
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['equality', 'equal (Gini = 0.00)', 'unequal (Gini = 0.81)']
    >>> plt.close(ax.get_figure())
    """
    if not 1 <= len(groups) <= len(_SERIES):
        raise ValueError(
            f"groups must hold 1 to {len(_SERIES)} populations, got {len(groups)}"
        )
    ax = _axes(ax)
    _diagonal(ax, "equality")
    for (name, values), (color, ls, marker) in zip(groups.items(), _SERIES):
        x, y = lorenz_curve(values)
        ax.plot(x, y, ls=ls, marker=marker, color=color, lw=2, ms=4, zorder=3,
                label=f"{name} (Gini = {gini_brown(values):.2f})")
    ax.legend(loc="upper left")
    _unit_square(ax, "share of the population, poorest first",
                 "share of the total income", quarter_ticks=True, title=title)
    return ax


def _vertex_label(t: np.ndarray, s: np.ndarray, threshold: float) -> tuple[float, float, str]:
    """The CAP vertex of the rule ``[score >= threshold]`` and its text."""
    taken = s >= threshold
    mass = float(t[taken].sum())
    exact = _is_integral(t)
    text = (f"θ = {threshold:g}: ({_label(taken.sum(), t.size, True)}, "
            f"{_label(mass, t.sum(), exact)})")
    return taken.sum() / t.size, mass / float(t.sum()), text


def plot_cap(y_true: Any, y_score: Any, *, ax=None, ideal: bool = True, shade: bool = True,
             threshold: float | None = None, label: str = "model", title: str | None = None):
    """Draw the CAP (Lorenz, gain) curve of a scorer with the ideal and random ones.

    The objects are taken by decreasing score, a group of equal scores at once
    (:func:`course_lib.cap_curve`); the ideal curve ranks them by the target itself,
    and the diagonal is a random ranking. The area between the curve and the diagonal
    is shaded; the area between the ideal curve and the model's is shaded lighter, as
    in source D's figs. XA.6 and XA.7. Their ratio is the normalized Gini.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1, or a non-negative target (the regression Gini).
    y_score : array-like of shape (n,)
        Scores.
    ideal : bool
        Draw the ideal curve (and shade the area between it and the model's).
    shade : bool
        Shade the areas.
    threshold : float, optional
        Mark the vertex of the rule ``[score >= threshold]`` (exact fractions for
        integer targets).
    label : str
        Legend label of the model's curve.

    Examples
    --------
    Table 1 of the book at the threshold 0.4:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> ax = plot_cap(y, [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], threshold=0.4)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['random', 'ideal', 'model']
    >>> [t.get_text() for t in ax.texts]
    ['θ = 0.4: (2/7, 1/3)']
    >>> plt.close(ax.get_figure())
    """
    rate, share, _ = cap_curve(y_true, y_score)
    t = np.asarray(y_true, dtype=float)
    labels = bool(np.isin(t, (0, 1)).all())
    ax = _axes(ax)
    _diagonal(ax, "random")
    if ideal:
        best_rate, best_share, _ = cap_curve(y_true, t)
        ax.plot(best_rate, best_share, color=COLORS["tie"], lw=1.8, label="ideal",
                zorder=2)
    if shade:
        xs = np.union1d(rate, best_rate) if ideal else rate
        model = np.interp(xs, rate, share)  # exact: both curves are piecewise linear
        ax.fill_between(xs, xs, model, color=COLORS["shade"], lw=0, zorder=0)
        if ideal:
            ax.fill_between(xs, model, np.interp(xs, best_rate, best_share),
                            color=COLORS["tie"], alpha=0.15, lw=0, zorder=0)
    ax.plot(rate, share, "-o", color=COLORS["curve"], lw=2.2, ms=3.5, label=label,
            zorder=3)
    if threshold is not None:
        x, y, text = _vertex_label(t, np.asarray(y_score, dtype=float), threshold)
        ax.plot([x], [y], "o", ms=9, mfc="none", mec=COLORS["point"], mew=2, zorder=4)
        ax.annotate(text, (x, y), xytext=(8, -6), textcoords="offset points",
                    color=COLORS["point"], va="top", fontsize=9)
    ax.legend(loc="lower right")
    _unit_square(
        ax,
        "share of objects taken (RPP)" if labels else "share of objects taken",
        "share of positives (TPR)" if labels else "share of the target",
        quarter_ticks=True,
        title=title,
    )
    return ax
