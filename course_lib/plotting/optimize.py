"""Figures of chapter 4, optimizing the AUC: the sigmoid that replaces the pair
indicator (source K), the AUC of a family of scorers as a step function of their
parameter, the gap between the surrogate and the AUC, and linear scorers learned on
two features.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ._style import COLORS, _axes, _finish

__all__ = [
    "plot_sigmoid_surrogates",
    "plot_auc_landscape",
    "plot_surrogate_gap",
    "plot_training_curves",
    "plot_linear_scorers",
]

#: Colours of several series on one Axes, in order.
_SERIES = (COLORS["curve"], COLORS["tie"], COLORS["point"], COLORS["text"], COLORS["grid"])
#: Dash patterns of the series, so they stay apart in grey print too.
_DASHES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)))
_CLASS_COLORS = {1: COLORS["curve"], 0: COLORS["tie"]}


def _sigmoid(u: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(u))
    return np.where(u >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def plot_sigmoid_surrogates(
    betas: Sequence[float], *, u_max: float = 3.0, ax=None, title: str | None = None
):
    """The credit a pair gets for the score difference ``u = b_i - b_j`` (positive
    minus negative): the AUC's step ``I'[u > 0]`` (1/2 at ``u = 0``) and the sigmoids
    ``sigma(beta u)`` that replace it (source K).

    Parameters
    ----------
    betas : sequence of float
        The steepness of each sigmoid drawn (up to five).
    u_max : float
        The horizontal axis runs from ``-u_max`` to ``u_max``.

    Examples
    --------
    The step is two segments and a dot, then one line per beta and the axis u = 0:

    >>> ax = plot_sigmoid_surrogates([1, 4])
    >>> len(ax.lines), [t.get_text() for t in ax.get_legend().get_texts()]
    (6, ['AUC: I′[u > 0]', 'σ(βu), β = 1', 'σ(βu), β = 4'])
    >>> plt.close(ax.get_figure())
    """
    if len(betas) > len(_SERIES):
        raise ValueError(f"at most {len(_SERIES)} values of beta, got {len(betas)}")
    ax = _axes(ax, size=4.4)
    step = dict(color=COLORS["text"], lw=2.2, solid_capstyle="butt", zorder=3)
    ax.plot([-u_max, 0], [0, 0], label="AUC: I′[u > 0]", **step)
    ax.plot([0, u_max], [1, 1], **step)
    ax.plot([0], [0.5], "o", color=COLORS["text"], ms=5, zorder=4)
    u = np.linspace(-u_max, u_max, 601)
    for k, beta in enumerate(betas):
        ax.plot(u, _sigmoid(beta * u), color=_SERIES[k], ls=_DASHES[k], lw=1.6,
                label=f"σ(βu), β = {beta:g}", zorder=2)
    ax.axvline(0, color=COLORS["grid"], lw=0.6, zorder=1)
    ax.set_xlim(-u_max, u_max)
    ax.set_ylim(-0.04, 1.04)
    ax.set_xlabel("u = b(positive) − b(negative)")
    ax.set_ylabel("credit for the pair")
    return _finish(ax, title, loc="upper left", fontsize=9)


def plot_auc_landscape(param: Any, auc: Any, surrogates: Mapping[str, Any] | None = None, *,
                       marks: Mapping[str, float] | None = None,
                       xlabel: str = "angle φ of the direction (degrees)", ax=None,
                       title: str | None = None):
    """The AUC of a one-parameter family of scorers against the parameter, with
    smooth surrogates over it.

    The AUC (a step function) is drawn as a thick black line; each surrogate as a
    thinner coloured dashed line; each mark as a grey vertical line.

    Parameters
    ----------
    param : array-like of shape (k,)
        Values of the parameter, increasing (a fine grid).
    auc : array-like of shape (k,)
        The AUC of the scorer at each value.
    surrogates : mapping of str to array-like of shape (k,), optional
        A legend label and the values of each surrogate (up to four).
    marks : mapping of str to float, optional
        A legend label and a parameter value to mark (up to three).
    xlabel : str
        Label of the horizontal axis.

    Examples
    --------
    >>> ax = plot_auc_landscape([0, 1, 2], [0.5, 0.5, 1.0], {"soft": [0.5, 0.6, 0.8]},
    ...                         marks={"best": 2.0})
    >>> ax.lines[0].get_ydata().tolist()
    [0.5, 0.5, 1.0]
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['AUC', 'soft', 'best']
    >>> plt.close(ax.get_figure())
    """
    x = np.asarray(param, dtype=float)
    a = np.asarray(auc, dtype=float)
    surrogates = dict(surrogates or {})
    marks = dict(marks or {})
    if a.shape != x.shape:
        raise ValueError(f"auc must have the shape of param {x.shape}, got {a.shape}")
    if len(surrogates) > 4 or len(marks) > 3:
        raise ValueError("at most four surrogates and three marks")
    if ax is None:
        fig, ax = plt.subplots(figsize=(7.0, 3.8), layout="constrained")
    ax.plot(x, a, color=COLORS["text"], lw=2.0, label="AUC", zorder=3)
    for k, (name, values) in enumerate(surrogates.items()):
        v = np.asarray(values, dtype=float)
        if v.shape != x.shape:
            raise ValueError(f"surrogates[{name!r}] must have shape {x.shape}, got {v.shape}")
        ax.plot(x, v, color=_SERIES[k], ls=_DASHES[k + 1], lw=1.6, label=name, zorder=4)
    mark_styles = ((0, (1, 1.5)), (0, (4, 2)), (0, (6, 2, 1, 2)))
    for k, (name, value) in enumerate(marks.items()):
        ax.axvline(value, color=COLORS["grid"], ls=mark_styles[k], lw=1.5, label=name,
                   zorder=2)
    ax.set_xlim(x.min(), x.max())
    ax.set_xlabel(xlabel)
    ax.set_ylabel("AUC and its surrogates")
    return _finish(ax, title, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9)


def plot_surrogate_gap(betas: Any, gaps: Mapping[str, Any], *, guide: float | None = None,
                       floor: float = 1e-16, ax=None, title: str | None = None):
    """``|soft AUC - AUC|`` against ``beta``, both axes logarithmic.

    Parameters
    ----------
    betas : array-like of shape (k,)
        Positive values of beta, increasing.
    gaps : mapping of str to array-like of shape (k,)
        A legend label and the gap at each beta, for each sample (up to four). Gaps
        below ``floor`` (zero included, which a log axis cannot show) are left out.
    guide : float, optional
        Draw the line ``guide / beta`` for comparison (a gap falling like ``1/beta``).
    floor : float
        The bottom of the vertical axis; the default is about the rounding error of a
        float near 1, below which a computed gap means nothing.

    Examples
    --------
    >>> ax = plot_surrogate_gap([1, 10, 100], {"sample": [0.1, 0.01, 0.0]}, guide=0.1)
    >>> ax.lines[0].get_xdata().tolist()
    [1.0, 10.0]
    >>> ax.get_xscale(), ax.get_yscale()
    ('log', 'log')
    >>> plt.close(ax.get_figure())
    """
    b = np.asarray(betas, dtype=float)
    if len(gaps) > 4:
        raise ValueError(f"at most four samples, got {len(gaps)}")
    ax = _axes(ax, size=4.4)
    for k, (name, values) in enumerate(gaps.items()):
        g = np.abs(np.asarray(values, dtype=float))
        if g.shape != b.shape:
            raise ValueError(f"gaps[{name!r}] must have shape {b.shape}, got {g.shape}")
        keep = g >= floor
        ax.plot(b[keep], g[keep], marker="o", ls=_DASHES[k], color=_SERIES[k], ms=3.5,
                lw=1.6, label=name)
    if guide is not None:
        ax.plot(b, guide / b, color=COLORS["grid"], ls="--", lw=1.2,
                label=f"{guide:.3g}/β")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=floor)
    ax.set_xlabel("β")
    ax.set_ylabel("|soft AUC − AUC|")
    return _finish(ax, title, loc="lower left", fontsize=9)


def plot_training_curves(curves: Mapping[str, Any], *,
                         reference: Mapping[str, float] | None = None,
                         ylabel: str = "training AUC", ax=None, title: str | None = None):
    """Values recorded at each step of an optimization, one line per run.

    Parameters
    ----------
    curves : mapping of str to array-like
        A legend label and the value after each step (steps 1, 2, ...), up to five.
    reference : mapping of str to float, optional
        Horizontal lines for comparison (up to two), e.g. a competitor's value.
    ylabel : str
        Label of the vertical axis.

    Examples
    --------
    >>> ax = plot_training_curves({"run": [0.6, 0.7, 0.75]}, reference={"other": 0.7})
    >>> ax.lines[0].get_xdata().tolist(), ax.get_xlabel()
    ([1, 2, 3], 'step')
    >>> plt.close(ax.get_figure())
    """
    reference = dict(reference or {})
    if len(curves) > len(_SERIES) or len(reference) > 2:
        raise ValueError(f"at most {len(_SERIES)} curves and two reference lines")
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.0, 3.6), layout="constrained")
    for k, (name, values) in enumerate(curves.items()):
        v = np.asarray(values, dtype=float)
        ax.plot(np.arange(1, v.size + 1).tolist(), v, color=_SERIES[k], ls=_DASHES[k],
                lw=1.6, label=name)
    for k, (name, value) in enumerate(reference.items()):
        ax.axhline(value, color=(COLORS["grid"], COLORS["point"])[k], ls=":", lw=1.6,
                   label=name)
    ax.set_xlabel("step")
    ax.set_ylabel(ylabel)
    return _finish(ax, title, loc="lower right", fontsize=9)


def plot_linear_scorers(X: Any, y_true: Any, directions: Mapping[str, Any], *, ax=None,
                        title: str | None = None):
    """Two-feature data and the directions of linear scorers ``b(x) = <w, x>``.

    Each direction is drawn as an arrow of fixed length from the centre of the data:
    the scorer ranks the objects by their projection on it.

    Parameters
    ----------
    X : array-like of shape (n, 2)
        The two features.
    y_true : array-like of shape (n,)
        Labels 0/1 (they colour the points).
    directions : mapping of str to array-like of shape (2,)
        A legend label and the weight vector ``w`` of each scorer (up to four); only
        its direction matters.

    Examples
    --------
    >>> ax = plot_linear_scorers([[0, 0], [1, 1], [2, 0]], [0, 1, 1], {"w": [3, 4]})
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['positive', 'negative', 'w']
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('feature 1', 'feature 2')
    >>> plt.close(ax.get_figure())
    """
    pts = np.asarray(X, dtype=float)
    y = np.asarray(y_true).astype(int)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] != y.size:
        raise ValueError(f"X must have shape ({y.size}, 2), got {pts.shape}")
    if len(directions) > 4:
        raise ValueError(f"at most four directions, got {len(directions)}")
    ax = _axes(ax, size=4.6)
    for cls in (1, 0):
        mask = y == cls
        ax.scatter(pts[mask, 0], pts[mask, 1], s=10, alpha=0.6, color=_CLASS_COLORS[cls],
                   marker="o" if cls == 1 else "s", lw=0,
                   label="positive" if cls == 1 else "negative", zorder=2)
    centre = pts.mean(axis=0)
    span = float(np.ptp(pts, axis=0).max())
    length = 0.3 * span if span > 0 else 1.0
    arrow_colors = (COLORS["text"], COLORS["point"], COLORS["grid"], COLORS["shade"])
    for k, (name, w) in enumerate(directions.items()):
        v = np.asarray(w, dtype=float)
        norm = float(np.hypot(*v))
        if v.shape != (2,) or norm == 0:
            raise ValueError(f"directions[{name!r}] must be a nonzero vector of 2 numbers")
        tip = centre + length * v / norm
        ax.plot([centre[0], tip[0]], [centre[1], tip[1]], color=arrow_colors[k], lw=2.2,
                label=name, zorder=4)
        ax.annotate("", xy=tip, xytext=centre,
                    arrowprops=dict(arrowstyle="-|>", color=arrow_colors[k], lw=2.2,
                                    mutation_scale=16), zorder=5)
    ax.set_aspect("equal")
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")
    return _finish(ax, title, loc="upper right", fontsize=9)
