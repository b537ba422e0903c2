"""Figures of score models in closed form (chapter 10; source D's figures XX.7, XA.9-XA.11,
XA.16, XA.18 and XA.19, the theoretical curves only).

The functions take a :class:`course_lib.ScoreModel` and draw its exact curves, evaluated
with :meth:`ScoreModel.points`. ``course_lib.models`` needs sympy, which is slow to
import, so it is imported only when a figure is drawn.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ._kinds import curve_kind
from ._style import COLORS, _axes, _finish, _unit_square

__all__ = [
    "SHARE_STYLES",
    "plot_score_densities",
    "plot_model_curve",
    "plot_binarized_roc",
    "plot_ks_chart",
    "plot_auc_pr_by_share",
]

#: Colour and line style for curves drawn at several shares of positives, in order.
SHARE_STYLES = (
    {"color": COLORS["tie"], "linestyle": "--"},
    {"color": COLORS["curve"], "linestyle": "-"},
    {"color": COLORS["point"], "linestyle": ":"},
)

def _number(value: Any) -> str:
    """A short label for a number: 1/2 stays a fraction, 0.1 stays a decimal."""
    if isinstance(value, float):
        return f"{value:g}"
    try:
        frac = Fraction(str(value))
    except ValueError:
        return f"{float(value):.4g}"
    return str(frac) if frac.denominator != 1 else str(frac.numerator)


def plot_score_densities(model, *, theta: float | None = None, ax=None,
                         title: str | None = None):
    """Draw the two class densities of a score model (source D, fig. XX.7).

    Parameters
    ----------
    model : course_lib.ScoreModel
        A model with a finite support.
    theta : float, optional
        A threshold: shade the area of each density above it. The area under the
        positives' density is TPR(theta), under the negatives' density FPR(theta).

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> ax = plot_score_densities(LINEAR_DENSITIES, theta=0.5)
    >>> [line.get_label() for line in ax.get_lines()][:2]
    ['class 0: $p_0(b) = 2 - 2 b$', 'class 1: $p_1(b) = 2 b$']
    >>> plt.close(ax.get_figure())
    """
    import sympy

    ax = _axes(ax, size=4.2)
    lo, hi = (float(v) for v in model.support)
    b = np.linspace(lo, hi, 401)
    styles = (("class 0", model.p0, COLORS["tie"], "0", "FPR"),
              ("class 1", model.p1, COLORS["curve"], "1", "TPR"))
    for _name, density, color, k, rate in styles:
        f = sympy.lambdify(model.symbol, density, modules="numpy")
        values = np.broadcast_to(np.asarray(f(b), dtype=float), b.shape)
        tex = sympy.latex(density)
        ax.plot(b, values, color=color, lw=2.2,
                label=f"class {k}: $p_{k}({model.symbol}) = {tex}$")
        if theta is not None:
            above = b >= theta
            ax.fill_between(b[above], values[above], 0, color=color, alpha=0.18,
                            lw=0, label=f"area = {rate}(θ)")
    if theta is not None:
        ax.axvline(theta, color=COLORS["grid"], lw=1, ls="--")
        ax.annotate(f"θ = {theta:g}", (theta, 0), xytext=(4, 4),
                    textcoords="offset points", color=COLORS["text"], fontsize=9)
    ax.set_xlim(lo, hi)
    ax.set_ylim(0, None)
    ax.set_xlabel(f"score {model.symbol}")
    ax.set_ylabel("density")
    return _finish(ax, title, loc="upper center", fontsize=8.5)


def plot_model_curve(model, curve, *, kind: str, ax=None, label: str | None = None,
                     pi: Any = None, shade: bool = False, reference: bool = True,
                     n: int = 201, title: str | None = None, **style: Any):
    """Draw one exact curve of a score model.

    Parameters
    ----------
    model : course_lib.ScoreModel
    curve : course_lib.ModelCurve
        A curve of ``model`` with no free ``pi`` (e.g. ``model.roc()``,
        ``model.pr(0.1)``, ``model.gain(0.5)``, ``model.lift(0.9)``,
        ``model.ks_curve(0.1)``).
    kind : {"roc", "pr", "gain", "lift", "ks"}
        Sets the axis labels and the reference line: the diagonal of a random scorer
        for ROC and gain, lift 1, and for PR the precision ``pi`` of a random scorer
        (drawn when ``pi`` is given).
    label : str, optional
        Legend entry of the curve.
    pi : number, optional
        The share of positives the curve was built for (PR reference line).
    shade : bool
        Shade the area under the curve.
    reference : bool
        Draw the reference line.
    n : int
        Number of points (passed to :meth:`ScoreModel.points`).
    **style
        Passed to ``Axes.plot`` (``color``, ``linestyle``, ...).

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES as model
    >>> ax = plot_model_curve(model, model.roc(), kind="roc", n=5)
    >>> ax.get_lines()[-1].get_xydata().round(4).tolist()[:3]
    [[0.0, 0.0], [0.0625, 0.4375], [0.25, 0.75]]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('FPR', 'TPR')
    >>> plt.close(ax.get_figure())
    """
    info = curve_kind(kind)
    ax = _axes(ax, size=4.2)
    pts = model.points(curve, n=n)
    xlabel, ylabel, square = info.xlabel, info.ylabel, info.unit_square
    if reference:
        info.reference(ax, pi, dict(color=COLORS["grid"], lw=1, ls="-", zorder=1))
    style = {"color": COLORS["curve"], "lw": 2.2, **style}
    (line,) = ax.plot(pts.x, pts.y, label=label, zorder=3, **style)
    if shade:
        ax.fill_between(pts.x, pts.y, 0, color=line.get_color(), alpha=0.15, lw=0,
                        zorder=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if square:
        _unit_square(ax, quarter_ticks=True)
    else:
        ax.set_xlim(0, 1)
        ax.set_ylim(0, None)
    if label is not None:
        ax.legend(fontsize=9)
    return _finish(ax, title)


def plot_binarized_roc(model, theta: Any, *, ax=None, n: int = 201,
                       title: str | None = None):
    """The ROC curve of the scores and that of the 0/1 answer at one threshold.

    The answer ``[score >= theta]`` has only two distinct values, so its ROC curve is
    the broken line (0, 0) - (FPR, TPR) - (1, 1); its area (shaded) is
    (1 + TPR - FPR) / 2, the balanced accuracy of the answer.

    Parameters
    ----------
    model : course_lib.ScoreModel
    theta : number
        The threshold.
    n : int
        Number of points of the model's ROC curve.

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> ax = plot_binarized_roc(LINEAR_DENSITIES, 0.5)
    >>> ax.get_lines()[-1].get_xydata().tolist()
    [[0.0, 0.0], [0.25, 0.75], [1.0, 1.0]]
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax, size=4.2)
    plot_model_curve(model, model.roc(), kind="roc", ax=ax, n=n,
                     label=f"scores: area {_number(model.auc())}")
    fpr, tpr = model.fpr(theta), model.tpr(theta)
    xs, ys = [0.0, float(fpr), 1.0], [0.0, float(tpr), 1.0]
    ax.fill_between(xs, ys, 0, color=COLORS["shade"], alpha=0.6, lw=0, zorder=0)
    ax.plot(xs, ys, color=COLORS["tie"], lw=2, marker="o", ms=4, zorder=4,
            label=f"answer at θ = {_number(theta)}: "
                  f"area {_number(model.binarized_auc(theta))}")
    return _finish(ax, title, loc="lower right", fontsize=9)


def plot_ks_chart(model, pi: Any, *, ax=None, n: int = 201, title: str | None = None):
    """The KS chart: TPR and FPR against the rate of positive predictions, and their largest gap.

    Source D, figs. XA.11 (balanced classes) and XA.19 (``pi = 0.1``). The gap is
    marked where :meth:`ScoreModel.ks` puts it.

    Parameters
    ----------
    model : course_lib.ScoreModel
    pi : number
        The share of positives.
    n : int
        Number of points of each curve.
    title : str, optional
        Axes title (default: the share of positives and the rate of the KS gap).

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> ax = plot_ks_chart(LINEAR_DENSITIES, 0.1)
    >>> ax.get_lines()[-1].get_xydata().tolist()
    [[0.3, 0.25], [0.3, 0.75]]
    >>> plt.close(ax.get_figure())
    """
    from ..models import ModelCurve

    ax = _axes(ax, size=4.2)
    gain = model.gain(pi)
    fpr = ModelCurve(gain.x, model.fpr(), None)
    ax.plot([0, 1], [0, 1], color=COLORS["grid"], lw=1, zorder=1)
    for curve, name, color in ((gain, "TPR", COLORS["curve"]),
                               (fpr, "FPR", COLORS["tie"])):
        pts = model.points(curve, n=n)
        ax.plot(pts.x, pts.y, color=color, lw=2.2, label=name, zorder=3)
    ks = model.ks(pi)
    rate = float(ks.positive_rate)
    low, high = float(model.fpr(ks.threshold)), float(model.tpr(ks.threshold))
    ax.plot([rate, rate], [low, high], color=COLORS["point"], lw=2, zorder=4,
            label=f"KS = {_number(ks.value)}")
    _unit_square(ax, quarter_ticks=True)
    ax.set_xlabel("RPP (share answered 1)")
    ax.set_ylabel("TPR, FPR")
    ax.legend(loc="best", fontsize=9)
    if title is None:
        title = f"π = {_number(pi)}: KS at RPP {_number(ks.positive_rate)}"
    ax.set_title(title)
    return ax


def plot_auc_pr_by_share(model, *, ax=None, n: int = 99,
                         marks: tuple = (0.1, 0.5, 0.9), title: str | None = None):
    """AUC-PR of a score model against the share of positives pi (source D, fig. XA.18).

    The closed form :meth:`ScoreModel.auc_pr` is evaluated exactly at ``n`` rational
    shares ``k / (n + 1)``, at a few shares near 0 and 1, and (as one-sided limits)
    at the ends when the limits are finite, so the removable singularity of the
    linear-density model at ``pi = 1/2`` causes no rounding trouble. The chance level (precision ``pi`` at
    every recall, area ``pi``) and the ROC AUC, which does not depend on ``pi``, are
    drawn for comparison; the shares in ``marks`` are marked with their values.

    Parameters
    ----------
    model : course_lib.ScoreModel
    n : int
        Number of evenly spread shares.
    marks : tuple of numbers
        Shares at which the value is marked and written.

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> ax = plot_auc_pr_by_share(LINEAR_DENSITIES, n=9, marks=(0.5,))
    >>> xy = ax.get_lines()[0].get_xydata()
    >>> xy[0].tolist(), xy[8].round(4).tolist(), xy[-1].tolist()
    ([0.0, 0.0], [0.5, 0.8333], [1.0, 1.0])
    >>> plt.close(ax.get_figure())
    """
    import sympy

    from ..models import PI

    ax = _axes(ax, size=4.2)
    general = model.auc_pr()
    # The curve is steep near the ends: add a few shares close to 0 and 1.
    near_ends = [sympy.Rational(1, d) for d in (1000, 500, 200)]
    shares = sorted({sympy.Rational(k, n + 1) for k in range(1, n + 1)}
                    | set(near_ends) | {1 - s for s in near_ends})
    x = [float(s) for s in shares]
    values = [float(general.subs(PI, s)) for s in shares]
    formula = general.args[-1][0] if isinstance(general, sympy.Piecewise) else general
    for end, side in ((0, "+"), (1, "-")):
        limit = sympy.limit(formula, PI, end, side)
        if limit.is_finite:
            position = 0 if end == 0 else len(x)
            x.insert(position, float(end))
            values.insert(position, float(limit))
    ax.plot(x, values, color=COLORS["curve"], lw=2.2,
            label="$\\mathrm{AUC}_{PR}(\\pi)$", zorder=3)
    ax.plot([0, 1], [0, 1], color=COLORS["grid"], lw=1, zorder=1,
            label="random scores: $\\pi$")
    ax.axhline(float(model.auc()), color=COLORS["tie"], lw=1.2, ls="--", zorder=2,
               label=f"ROC AUC = {_number(model.auc())}")
    for share in marks:
        value = float(model.auc_pr(share))
        ax.plot([share], [value], "o", color=COLORS["point"], ms=6, zorder=4)
        ax.annotate(f"{value:.4f}", (share, value), xytext=(6, -12),
                    textcoords="offset points", fontsize=9, color=COLORS["point"])
    _unit_square(ax, quarter_ticks=True)
    ax.set_xticks([0, 0.1, 0.5, 0.9, 1], ["0", "0.1", "0.5", "0.9", "1"])
    ax.set_xlabel("share of positives π")
    ax.set_ylabel("area under the PR curve")
    return _finish(ax, title, loc="lower right", fontsize=9)
