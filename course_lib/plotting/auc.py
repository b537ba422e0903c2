"""Figures of AUC as a share of pairs (chapter 3): the weighted grid, the invariance of
the ROC curve under increasing maps of the scores, and class thinning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..evaluation import evaluate
from ..roc import pair_matrix, roc_curve
from ._style import COLORS, _axes, _finish, _no_spines, _unit_square

__all__ = ["plot_weighted_grid", "plot_score_scales", "plot_roc_overlay", "plot_thinning"]

# Line styles of overlaid curves: the first is wide and pale, the next ones thin and
# dashed on top of it, so that curves which coincide stay visible.
_OVERLAY = (
    dict(color=COLORS["shade"], lw=6.0, ls="-"),
    dict(color=COLORS["curve"], lw=1.8, ls="--"),
    dict(color=COLORS["tie"], lw=1.8, ls=":"),
    dict(color=COLORS["point"], lw=1.4, ls="-."),
)
_CLASS_COLORS = {1: COLORS["curve"], 0: COLORS["tie"]}


def _fmt(v: float) -> str:
    return f"{v:g}"


def plot_weighted_grid(y_true: Any, y_score: Any, sample_weight: Any, *,
                       ids: Sequence | None = None, ax=None, cell_weights: bool = True,
                       title: str | None = None):
    """Draw the weighted ROC curve on its grid of unequal cells (source D).

    Column ``j`` belongs to the ``j``-th negative and has width ``w_j / W0``; row ``i``
    belongs to the ``i``-th positive and has height ``w_i / W1`` (``W0``, ``W1``: the
    total weight of each class; both classes in decreasing score order). The cell of a
    pair has area ``w_i w_j / (W1 W0)``. The area under the path is shaded: correctly
    ordered cells fully, a block of tied cells half (below its diagonal).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores; both classes must be present.
    sample_weight : array-like of shape (n,)
        Non-negative weights.
    ids : sequence of length n, optional
        Names of the objects (default 1..n).
    cell_weights : bool
        Write the product ``w_i w_j`` in each cell.

    Examples
    --------
    Two negatives of weights 3 and 1: the first column is three times wider.

    >>> ax = plot_weighted_grid([0, 1, 0], [0.9, 0.5, 0.1], [3, 1, 1])
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['1\\nw=3', '3\\nw=1']
    >>> ax.get_xticks().round(3).tolist()
    [0.375, 0.875]
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true)
    w = np.asarray(sample_weight, dtype=float)
    names = list(range(1, len(y) + 1)) if ids is None else list(ids)
    pm = pair_matrix(y_true, y_score, ids=range(len(y)))
    rows, cols = list(pm.row_ids), list(pm.col_ids)
    x_edges = np.concatenate(([0.0], np.cumsum(w[cols]))) / w[cols].sum()
    y_edges = np.concatenate(([0.0], np.cumsum(w[rows]))) / w[rows].sum()
    curve = roc_curve(y_true, y_score, sample_weight=sample_weight)
    ax = _axes(ax)

    for x in x_edges:
        ax.plot([x, x], [0, 1], color=COLORS["grid"], lw=0.6, zorder=1)
    for v in y_edges:
        ax.plot([0, 1], [v, v], color=COLORS["grid"], lw=0.6, zorder=1)
    ax.fill_between(curve.fpr, curve.tpr, 0, color=COLORS["shade"], lw=0, zorder=0)
    for x0, y0, x1, y1 in zip(curve.fpr[:-1], curve.tpr[:-1], curve.fpr[1:], curve.tpr[1:]):
        tie = x1 > x0 and y1 > y0
        ax.plot([x0, x1], [y0, y1], color=COLORS["tie" if tie else "curve"], lw=2.4,
                solid_capstyle="round", zorder=3)
    ax.plot(curve.fpr, curve.tpr, "o", color=COLORS["curve"], ms=3.5, zorder=4)

    if cell_weights:
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                ax.text((x_edges[j] + x_edges[j + 1]) / 2, (y_edges[i] + y_edges[i + 1]) / 2,
                        _fmt(w[r] * w[c]), ha="center", va="center", fontsize=9,
                        color=COLORS["text"], zorder=5)

    ax.set_xticks((x_edges[:-1] + x_edges[1:]) / 2,
                  [f"{names[c]}\nw={_fmt(w[c])}" for c in cols])
    ax.set_yticks((y_edges[:-1] + y_edges[1:]) / 2,
                  [f"{names[r]}, w={_fmt(w[r])}" for r in rows])
    ax.tick_params(length=0, labelsize=9)
    ax.set_xlabel("negatives, width ∝ weight (wFPR →)")
    ax.set_ylabel("positives, height ∝ weight (wTPR →)")
    _unit_square(ax)
    _no_spines(ax)
    return _finish(ax, title)


def _unit(v: np.ndarray) -> np.ndarray:
    """Scale to [0, 1] (a constant maps to 1/2)."""
    lo, hi = float(v.min()), float(v.max())
    return np.full(v.shape, 0.5) if hi == lo else (v - lo) / (hi - lo)


def plot_score_scales(y_true: Any, y_score: Any, y_score_new: Any, *,
                      labels: tuple[str, str] = ("b", "f(b)"), ax=None,
                      title: str | None = None):
    """Two scales of the same scores side by side, each object joined across.

    Each scale is drawn from its minimum (bottom) to its maximum (top). The new scores
    keep the order of the old ones exactly when no two lines cross and no two lines
    merge: lines that cross swap a pair, lines that meet make a new tie.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 (they colour the objects).
    y_score, y_score_new : array-like of shape (n,)
        The scores on the old and on the new scale.
    labels : (str, str)
        Names of the two scales.

    Examples
    --------
    >>> ax = plot_score_scales([0, 1, 1], [0.1, 0.5, 0.9], [1.0, 2.0, 2.0])
    >>> len(ax.lines), [t.get_text() for t in ax.get_xticklabels()]
    (5, ['b', 'f(b)'])
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true).astype(int)
    old = np.asarray(y_score, dtype=float)
    new = np.asarray(y_score_new, dtype=float)
    if old.shape != new.shape or old.shape != y.shape:
        raise ValueError("y_true, y_score and y_score_new must have the same length")
    u, v = _unit(old), _unit(new)
    ax = _axes(ax)
    for x in (0, 1):
        ax.plot([x, x], [0, 1], color=COLORS["grid"], lw=1.0, zorder=1)
    for cls in (1, 0):
        mask = y == cls
        for a, b in zip(u[mask], v[mask]):
            ax.plot([0, 1], [a, b], color=_CLASS_COLORS[cls], lw=1.2, alpha=0.8, zorder=2)
        ax.scatter(np.r_[np.zeros(mask.sum()), np.ones(mask.sum())], np.r_[u[mask], v[mask]],
                   s=28, color=_CLASS_COLORS[cls], zorder=3,
                   label="positive" if cls == 1 else "negative")
    for x, vals, ha, dx in ((0, old, "right", -0.04), (1, new, "left", 0.04)):
        for pos, val in ((0.0, vals.min()), (1.0, vals.max())):
            ax.text(x + dx, pos, f"{val:.3g}", ha=ha, va="center", fontsize=8,
                    color=COLORS["text"])
    ax.set_xticks([0, 1], list(labels))
    ax.set_yticks([])
    ax.set_xlim(-0.35, 1.35)
    ax.set_ylim(-0.06, 1.06)
    ax.set_ylabel("score (each scale: min to max)")
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return _finish(ax, title, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)


def plot_roc_overlay(y_true: Any, scores: Mapping[str, Any], *,
                     sample_weights: Mapping[str, Any] | None = None, ax=None,
                     show_auc: bool = True, title: str | None = None):
    """Several ROC curves of the same labels on one Axes (up to four).

    The first curve is drawn wide and pale, the others thin and dashed on top of it, so
    that curves which coincide stay visible.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1; both classes must be present.
    scores : mapping of str to array-like of shape (n,)
        A legend label and the scores of each curve.
    sample_weights : mapping of str to array-like, optional
        Weights for some of the curves (same keys as ``scores``).
    show_auc : bool
        Add the AUC of each curve to its legend label.

    Examples
    --------
    >>> y, b = [0, 1, 0, 1], [0.1, 0.8, 0.4, 0.3]
    >>> ax = plot_roc_overlay(y, {"b": b, "b³": [v ** 3 for v in b]})
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['b (AUC 0.750)', 'b³ (AUC 0.750)']
    >>> plt.close(ax.get_figure())
    """
    if len(scores) > len(_OVERLAY):
        raise ValueError(f"at most {len(_OVERLAY)} curves, got {len(scores)}")
    weights = dict(sample_weights or {})
    ax = _axes(ax)
    ax.plot([0, 1], [0, 1], color=COLORS["grid"], lw=0.8, ls="--", zorder=1)
    for k, (name, s) in enumerate(scores.items()):
        e = evaluate(y_true, s, sample_weight=weights.get(name))  # the curve and its AUC
        c = e.roc_curve()
        label = name
        if show_auc:
            label += f" (AUC {e.roc_auc():.3f})"
        ax.plot(c.fpr, c.tpr, label=label, zorder=2 + k, solid_capstyle="round",
                **_OVERLAY[k])
    ax.set_xlabel("FPR")
    ax.set_ylabel("TPR")
    _unit_square(ax)
    return _finish(ax, title, loc="lower right", fontsize=9)


def plot_thinning(shares: Any, aucs: Mapping[str, Any], *, reference: float | None = None,
                  band: tuple[float, float] = (5, 95), ax=None, title: str | None = None):
    """ROC AUC after thinning a class: mean and spread against the share kept.

    Parameters
    ----------
    shares : array-like of shape (k,)
        Shares of the class kept, in (0, 1]; drawn on a logarithmic axis.
    aucs : mapping of str to array-like of shape (k, r)
        For each series (e.g. "negatives thinned"), the AUCs of ``r`` random thinnings
        at each share. With one series the legend leaves out its name.
    reference : float, optional
        The AUC of the full sample, drawn as a horizontal line.
    band : (float, float)
        Percentiles of the shaded band.

    Examples
    --------
    >>> ax = plot_thinning([1.0, 0.5], {"thinned": [[0.7, 0.7], [0.6, 0.8]]},
    ...                    reference=0.7)
    >>> ax.lines[0].get_ydata().tolist()
    [0.7, 0.7]
    >>> ax.get_xlabel()
    'share of the class kept'
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['mean', '5-95% of runs', 'full sample']
    >>> plt.close(ax.get_figure())
    """
    x = np.asarray(shares, dtype=float)
    ax = _axes(ax, size=4.6)
    colors = (COLORS["curve"], COLORS["tie"], COLORS["point"])
    for k, (name, values) in enumerate(aucs.items()):
        prefix = f"{name}: " if len(aucs) > 1 else ""
        v = np.asarray(values, dtype=float)
        if v.ndim != 2 or v.shape[0] != x.size:
            raise ValueError(f"aucs[{name!r}] must have shape ({x.size}, r), got {v.shape}")
        lo, hi = np.percentile(v, band, axis=1)
        color = colors[k % len(colors)]
        ax.plot(x, v.mean(axis=1), "o-", color=color, ms=4, lw=1.6, zorder=3,
                label=f"{prefix}mean")
        ax.fill_between(x, lo, hi, color=color, alpha=0.18, lw=0, zorder=2,
                        label=f"{prefix}{band[0]:g}-{band[1]:g}% of runs")
    if reference is not None:
        ax.axhline(reference, color=COLORS["grid"], ls="--", lw=1.0, zorder=1,
                   label="full sample")
    ax.set_xscale("log")
    ax.set_xticks(x, [f"{s:g}" for s in x])
    ax.minorticks_off()
    ax.set_xlabel("share of the class kept")
    ax.set_ylabel("ROC AUC")
    return _finish(ax, title, loc="lower right", fontsize=9)
