"""Figures of cost space (chapter 9; source C after Drummond & Holte, 2006).

Cost space has the probability cost ``PCF(+)`` on the x-axis and the normalized expected
cost ``NEC`` on the y-axis. A ROC point is the line from ``(0, FPR)`` to
``(1, 1 - TPR)``, the two trivial classifiers are the diagonals, and the cost curve of
a scorer is the lower envelope of the lines of its ROC points. The numbers come from
:mod:`course_lib.cost` and :mod:`course_lib.roc`; these functions only draw them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..cost import cost_curve, cost_lower_envelope, roc_point_to_cost_line
from ..roc import roc_convex_hull
from ._style import COLORS, _axes, _finish, _legend_below, _unit_square

__all__ = [
    "plot_roc_points",
    "plot_cost_lines",
    "plot_roc_hull",
    "plot_cost_envelope",
    "plot_cost_curves",
    "plot_cost_band",
    "plot_cost_difference",
]

#: Colours of several lines or curves on one Axes, in order.
_SERIES = (COLORS["curve"], COLORS["tie"], COLORS["point"], COLORS["text"])
_PCF_LABEL = "probability cost PCF(+)"
_NEC_LABEL = "normalized expected cost"


def _cost_axes(ax, ymax: float) -> None:
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, ymax)
    ax.set_xlabel(_PCF_LABEL)
    ax.set_ylabel(_NEC_LABEL)


def _done(ax, title: str | None):
    """The legend below in two columns, the title: the Axes, finished."""
    _legend_below(ax, ncols=2, offset=0.17)
    return _finish(ax, title)


def _trivial(ax, *, labels: bool = True) -> None:
    """The two trivial classifiers: always negative (NEC = PCF), always positive."""
    ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1.2, zorder=1,
            label="always negative" if labels else None)
    ax.plot([0, 1], [1, 0], "--", color=COLORS["grid"], lw=1.2, zorder=1,
            label="always positive" if labels else None)


def _points(fpr: Any, tpr: Any) -> tuple[np.ndarray, np.ndarray]:
    f = np.atleast_1d(np.asarray(fpr, dtype=float))
    t = np.atleast_1d(np.asarray(tpr, dtype=float))
    if f.shape != t.shape or f.ndim != 1:
        raise ValueError(f"fpr and tpr must be 1-D of one length, got {f.shape} and {t.shape}")
    return f, t


def _names(labels: Sequence[str] | None, k: int) -> list[str]:
    if labels is None:
        return [chr(ord("A") + i) for i in range(k)]
    if len(labels) != k:
        raise ValueError(f"{len(labels)} labels for {k} points")
    return [str(s) for s in labels]


def _envelope_xy(curve: Any) -> tuple[np.ndarray, np.ndarray]:
    e = cost_lower_envelope(curve[0], curve[1])
    return e.pcf, e.nec


def plot_roc_points(fpr: Any, tpr: Any, *, labels: Sequence[str] | None = None,
                    roc_line: tuple[float, float] | None = None, ax=None,
                    title: str | None = None):
    """Draw ROC points, each in its own colour and named, with the ROC diagonal.

    Parameters
    ----------
    fpr, tpr : array-like of shape (k,)
        The points.
    labels : sequence of str, optional
        Their names (default A, B, C, ...).
    roc_line : (slope, intercept), optional
        Also draw the ROC line ``TPR = slope FPR + intercept`` inside the unit square
        (dashed): the line whose points all cost the same at ``PCF = 1/(1 + slope)``.

    Examples
    --------
    >>> ax = plot_roc_points([0.1, 0.4], [0.5, 0.9], roc_line=(4 / 3, 0.3666))
    >>> [t.get_text() for t in ax.texts]
    ['A', 'B']
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('FPR', 'TPR')
    >>> plt.close(ax.get_figure())
    """
    f, t = _points(fpr, tpr)
    names = _names(labels, f.size)
    ax = _axes(ax)
    ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1, zorder=1)
    if roc_line is not None:
        s, b = float(roc_line[0]), float(roc_line[1])
        xs = np.linspace(0, 1, 201)
        ys = s * xs + b
        inside = (ys >= 0) & (ys <= 1)
        ax.plot(xs[inside], ys[inside], "--", color=COLORS["grid"], lw=1.4, zorder=2,
                label="ROC line")
    for k, (x, y, name) in enumerate(zip(f.tolist(), t.tolist(), names)):
        color = _SERIES[k % len(_SERIES)]
        ax.plot([x], [y], "o", color=color, ms=7, zorder=3)
        ax.text(x + 0.03, y - 0.035, name, color=color, fontsize=11, va="top")
    _unit_square(ax, "FPR", "TPR")
    return _finish(ax, title)


def plot_cost_lines(fpr: Any, tpr: Any, *, labels: Sequence[str] | None = None,
                    points: Sequence[tuple[float, float]] | None = None,
                    shade_worse: bool = False, ax=None, title: str | None = None):
    """Draw the cost line of each ROC point, with the two trivial classifiers.

    The ROC point ``(FPR, TPR)`` is the line ``NEC = (1 - TPR - FPR) PCF + FPR``, from
    ``(0, FPR)`` to ``(1, 1 - TPR)``; "always negative" is the diagonal ``NEC = PCF``
    and "always positive" the diagonal ``NEC = 1 - PCF``.

    Parameters
    ----------
    fpr, tpr : array-like of shape (k,)
        The ROC points.
    labels : sequence of str, optional
        Their names (default A, B, C, ...), written at the right end of each line.
    points : sequence of (pcf, nec), optional
        Cost points to mark (for example where two lines cross).
    shade_worse : bool
        Shade the region above both diagonals, where a classifier costs more than the
        better trivial one.

    Examples
    --------
    >>> ax = plot_cost_lines([0.25], [0.5], shade_worse=True)
    >>> ax.get_lines()[-1].get_xydata().tolist()
    [[0.0, 0.25], [1.0, 0.5]]
    >>> plt.close(ax.get_figure())
    """
    f, t = _points(fpr, tpr)
    names = _names(labels, f.size)
    ax = _axes(ax)
    if shade_worse:
        xs = np.linspace(0, 1, 201)
        ax.fill_between(xs, np.minimum(xs, 1 - xs), 1, color=COLORS["shade"], alpha=0.45,
                        lw=0, zorder=0, label="worse than trivial")
    _trivial(ax)
    for k, (x, y, name) in enumerate(zip(f.tolist(), t.tolist(), names)):
        line = roc_point_to_cost_line(x, y)
        color = _SERIES[k % len(_SERIES)]
        ax.plot([0, 1], [line.intercept, line.slope + line.intercept], color=color,
                lw=2, zorder=3)
        ax.text(1.03, line.slope + line.intercept, name, color=color, fontsize=11,
                va="center")
    for x, y in points or []:
        ax.plot([x], [y], "o", ms=9, mfc="none", mec=COLORS["text"], mew=1.6, zorder=4)
    _unit_square(ax, _PCF_LABEL, _NEC_LABEL)
    return _done(ax, title)


def plot_roc_hull(fpr: Any, tpr: Any, *, envelope: bool = True, ax=None,
                  title: str | None = None):
    """Draw a ROC curve, its convex hull (dashed) and the hull's vertices (circled).

    With ``envelope=True`` the vertices whose cost lines make the cost curve (all of
    them but a dominated end, see :func:`course_lib.cost_lower_envelope`) are filled.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n,)
        The vertices of the ROC curve, in order (e.g. a :class:`course_lib.RocCurve`).
    envelope : bool
        Fill the vertices whose lines make the cost curve.

    Examples
    --------
    >>> ax = plot_roc_hull([0, 0, 0.5, 0.5, 1], [0, 0.5, 0.5, 1, 1])
    >>> [line.get_label() for line in ax.get_lines()][1:]
    ['ROC curve', 'convex hull', 'hull vertices', 'make the cost curve']
    >>> ax.get_lines()[-1].get_xydata().tolist()
    [[0.0, 0.5], [0.5, 1.0]]
    >>> plt.close(ax.get_figure())
    """
    f, t = _points(fpr, tpr)
    h = roc_convex_hull(f, t)
    ax = _axes(ax)
    ax.plot([0, 1], [0, 1], ":", color=COLORS["grid"], lw=1, zorder=1)
    ax.plot(f, t, color=COLORS["curve"], lw=1.6, zorder=2, label="ROC curve")
    ax.plot(h.fpr, h.tpr, "--", color=COLORS["point"], lw=1.6, zorder=3, label="convex hull")
    ax.plot(h.fpr, h.tpr, "o", ms=9, mfc="none", mec=COLORS["point"], mew=1.6, zorder=4,
            label="hull vertices")
    if envelope:
        e = cost_lower_envelope(f, t)
        ax.plot(e.fpr, e.tpr, "o", ms=5, color=COLORS["tie"], ls="none", zorder=5,
                label="make the cost curve")
    _unit_square(ax, "FPR", "TPR")
    return _done(ax, title)


def plot_cost_envelope(fpr: Any, tpr: Any, *, ax=None, title: str | None = None):
    """Draw the cost lines of ROC points (thin) and their lower envelope (bold).

    Every ROC point is a line in cost space; the lines that form the envelope (of
    vertices of the ROC convex hull) are drawn in colour, the others in grey, and the
    envelope's breakpoints are marked. The envelope is the cost curve: at each
    ``PCF`` the cost of the best threshold.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n,)
        The ROC points (e.g. the vertices of a ROC curve).

    Examples
    --------
    >>> ax = plot_cost_envelope([0, 0.25, 0.5, 1], [0, 0.75, 0.25, 1])
    >>> envelope = [ln for ln in ax.get_lines() if ln.get_label() == "cost curve"][0]
    >>> envelope.get_xydata().tolist()
    [[0.0, 0.0], [0.25, 0.25], [0.75, 0.25], [1.0, 0.0]]
    >>> plt.close(ax.get_figure())
    """
    f, t = _points(fpr, tpr)
    e = cost_lower_envelope(f, t)
    ax = _axes(ax)
    on_envelope = {(x, y) for x, y in zip(e.fpr.tolist(), e.tpr.tolist())}
    first_other = True
    for x, y in zip(f.tolist(), t.tolist()):
        if (x, y) in on_envelope:
            continue
        ax.plot([0, 1], [x, 1 - y], color=COLORS["grid"], lw=0.7, alpha=0.8, zorder=1,
                label="other ROC points" if first_other else None)
        first_other = False
    _trivial(ax)
    for k, (x, y) in enumerate(zip(e.fpr.tolist(), e.tpr.tolist())):
        ax.plot([0, 1], [x, 1 - y], color=COLORS["tie"], lw=1.1, zorder=2,
                label="lines that make it" if k == 0 else None)
    ax.plot(e.pcf, e.nec, "-o", color=COLORS["curve"], lw=2.6, ms=4, zorder=3,
            label="cost curve")
    _unit_square(ax, _PCF_LABEL, _NEC_LABEL)
    return _done(ax, title)


def plot_cost_curves(curves: Mapping[str, Any], *, shade_better: bool = False,
                     ymax: float = 0.55, ax=None, title: str | None = None):
    """Draw the cost curves of several scorers with the trivial classifiers.

    Parameters
    ----------
    curves : mapping of str to ROC curve
        Each value is a sequence whose first two items are the FPR and TPR arrays (a
        ``(fpr, tpr)`` pair or a :class:`course_lib.RocCurve`); the key names it.
    shade_better : bool
        With two curves: shade the gap between them in the colour of the better
        (lower) one, so the ranges of ``PCF`` where each wins stand out.
    ymax : float
        Upper limit of the cost axis (cost curves never exceed 1/2).

    Examples
    --------
    >>> ax = plot_cost_curves({"a": ([0.25], [0.75]), "b": ([0.5], [1.0])})
    >>> [line.get_label() for line in ax.get_lines()]
    ['always negative', 'always positive', 'a', 'b']
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax)
    _trivial(ax)
    xy = {}
    for k, (name, curve) in enumerate(curves.items()):
        xy[name] = _envelope_xy(curve)
        ax.plot(*xy[name], color=_SERIES[k % len(_SERIES)], lw=2, zorder=3 + k, label=name)
    if shade_better:
        if len(curves) != 2:
            raise ValueError(f"shade_better needs exactly two curves, got {len(curves)}")
        (na, ca), (nb, cb) = curves.items()
        xs = np.linspace(0, 1, 1001)
        ya, yb = cost_curve(ca[0], ca[1], xs), cost_curve(cb[0], cb[1], xs)
        ax.fill_between(xs, ya, yb, where=ya < yb, interpolate=True, color=_SERIES[0],
                        alpha=0.25, lw=0, zorder=2)
        ax.fill_between(xs, ya, yb, where=yb < ya, interpolate=True, color=_SERIES[1],
                        alpha=0.35, lw=0, zorder=2)
    _cost_axes(ax, ymax)
    return _done(ax, title)


def plot_cost_band(pcf: Any, nec: Any, *, lower: Any = None, upper: Any = None,
                   members: Any = None, label: str = "cost curve",
                   band_label: str = "95% band", member_label: str = "fold",
                   ymax: float = 0.55, ax=None, title: str | None = None):
    """Draw a cost curve with a band around it and, thin, the curves it summarises.

    Use it for the vertical average of several cost curves (``members``, one row per
    curve) or for a bootstrap band (``lower`` and ``upper``).

    Parameters
    ----------
    pcf : array-like of shape (n,)
        Operating conditions.
    nec : array-like of shape (n,)
        The curve (an average, or the curve of the whole sample).
    lower, upper : array-like of shape (n,), optional
        The band, shaded.
    members : array-like of shape (k, n), optional
        Individual curves, drawn thin.
    label, band_label, member_label : str
        Legend labels.
    ymax : float
        Upper limit of the cost axis.

    Examples
    --------
    >>> x = [0, 0.5, 1]
    >>> ax = plot_cost_band(x, [0, 0.2, 0], members=[[0, 0.1, 0], [0, 0.3, 0]])
    >>> len(ax.get_lines()), ax.get_lines()[-1].get_label()
    (5, 'cost curve')
    >>> plt.close(ax.get_figure())
    """
    x = np.asarray(pcf, dtype=float)
    ax = _axes(ax)
    _trivial(ax)
    if lower is not None and upper is not None:
        ax.fill_between(x, np.asarray(lower, dtype=float), np.asarray(upper, dtype=float),
                        color=COLORS["shade"], alpha=0.8, lw=0, zorder=1, label=band_label)
    if members is not None:
        for k, row in enumerate(np.atleast_2d(np.asarray(members, dtype=float))):
            ax.plot(x, row, color=COLORS["tie"], lw=0.9, alpha=0.75, zorder=2,
                    label=member_label if k == 0 else None)
    ax.plot(x, np.asarray(nec, dtype=float), color=COLORS["curve"], lw=2.4, zorder=3,
            label=label)
    _cost_axes(ax, ymax)
    return _done(ax, title)


def plot_cost_difference(pcf: Any, difference: Any, *, lower: Any = None, upper: Any = None,
                         mark: float | None = None, ylabel: str = "NEC(A) − NEC(B)", ax=None,
                         title: str | None = None):
    """Draw the difference of two cost curves, its band and the zero line.

    Where the band (``lower`` to ``upper``) does not contain 0 it is shaded darker:
    there the difference is significant at the band's level, one ``PCF`` at a time.

    Parameters
    ----------
    pcf : array-like of shape (n,)
        Operating conditions.
    difference : array-like of shape (n,)
        Cost of A minus cost of B (negative where A is better).
    lower, upper : array-like of shape (n,), optional
        A pointwise confidence band of the difference.
    mark : float, optional
        A ``PCF`` to mark with a vertical line (a chosen operating condition).
    ylabel : str
        Label of the y-axis.

    Examples
    --------
    >>> x = np.linspace(0, 1, 5)
    >>> ax = plot_cost_difference(x, -0.1 * x * (1 - x), lower=-0.2 * x * (1 - x),
    ...                           upper=0.05 - 0.1 * x, mark=0.4)
    >>> [line.get_label() for line in ax.get_lines()]
    ['no difference', 'difference', 'operating condition']
    >>> plt.close(ax.get_figure())
    """
    x = np.asarray(pcf, dtype=float)
    d = np.asarray(difference, dtype=float)
    ax = _axes(ax)
    ax.axhline(0, color=COLORS["grid"], lw=1.2, zorder=1, label="no difference")
    if lower is not None and upper is not None:
        lo = np.asarray(lower, dtype=float)
        hi = np.asarray(upper, dtype=float)
        ax.fill_between(x, lo, hi, color=COLORS["shade"], alpha=0.8, lw=0, zorder=1,
                        label="95% band")
        ax.fill_between(x, lo, hi, where=(hi < 0) | (lo > 0), color=COLORS["curve"],
                        alpha=0.3, lw=0, zorder=1, label="band excludes 0")
    ax.plot(x, d, color=COLORS["curve"], lw=2.2, zorder=3, label="difference")
    if mark is not None:
        ax.axvline(float(mark), color=COLORS["point"], lw=1.2, ls="--", zorder=2,
                   label="operating condition")
    ax.set_xlim(-0.01, 1.01)
    ax.set_xlabel(_PCF_LABEL)
    ax.set_ylabel(ylabel)
    return _done(ax, title)
