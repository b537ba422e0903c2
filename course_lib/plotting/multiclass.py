"""Figures of the chapter on more than two classes (chapter 16).

``plot_ovr_roc`` draws the one-vs-rest ROC curve of every class on one Axes;
``plot_pairwise_auc`` draws Hand and Till's table of pairwise areas ``A(i|j)`` as a
heat map with the value written in every cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ..evaluation import evaluate
from ..multiclass import PairwiseAuc, _prepare
from ._style import COLORS, _axes, _diagonal, _finish, _legend_below, _no_spines, _unit_square
from .confusion import _dark, _heat_cmap

__all__ = ["plot_ovr_roc", "plot_pairwise_auc"]

#: One colour per class (up to six), from the book's palette.
CLASS_COLORS = (COLORS["curve"], COLORS["tie"], COLORS["alt"], "#7048e8", "#e8590c", "#495057")


def plot_ovr_roc(y_true: Any, y_score: Any, *, labels: Sequence | None = None,
                 names: Sequence[str] | None = None, ax=None, title: str | None = None):
    """Draw the one-vs-rest ROC curve of every class, its AUC in the legend.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class labels.
    y_score : array-like of shape (n, c)
        Class probabilities, column ``j`` for ``labels[j]``.
    labels : sequence, optional
        The classes in column order (default: the sorted values of ``y_true``).
    names : sequence of str, optional
        Legend names of the classes (default: ``"class <label>"``).

    Examples
    --------
    >>> ax = plot_ovr_roc([0, 1, 2, 2], [[0.8, 0.1, 0.1], [0.3, 0.4, 0.3],
    ...                                  [0.2, 0.2, 0.6], [0.1, 0.5, 0.4]])
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['class 0 vs rest (AUC 1.000)', 'class 1 vs rest (AUC 0.667)', 'class 2 vs rest (AUC 1.000)']
    >>> plt.close(ax.get_figure())
    """
    # each class against the rest, as ovr_roc_curves and ovr_auc(average=None) take it
    # (one validation of the classes and scores), each grouped once for its curve and AUC
    p = _prepare(y_true, y_score, labels, None, False, True)
    views = [evaluate(p.codes == j, p.scores[:, j]) for j in range(len(p.labels))]
    curves = {lab: e.roc_curve() for lab, e in zip(p.labels, views)}
    areas = [e.roc_auc() for e in views]
    if names is not None and len(names) != len(curves):
        raise ValueError(f"names has {len(names)} entries, but there are {len(curves)} classes")
    if len(curves) > len(CLASS_COLORS):
        raise ValueError(f"at most {len(CLASS_COLORS)} classes can be drawn, got {len(curves)}")
    ax = _axes(ax)
    _diagonal(ax, ls=":", lw=1)
    for k, (label, curve) in enumerate(curves.items()):
        name = f"class {label}" if names is None else names[k]
        ax.plot(curve.fpr, curve.tpr, color=CLASS_COLORS[k], lw=1.8, zorder=2 + k,
                label=f"{name} vs rest (AUC {float(areas[k]):.3f})")
    _unit_square(ax, "FPR (the rest called this class)", "TPR")
    _legend_below(ax, offset=0.18)
    return _finish(ax, title)


def plot_pairwise_auc(table: PairwiseAuc, *, names: Sequence[str] | None = None, ax=None,
                      digits: int = 3, title: str | None = None):
    """Draw the directed pairwise areas ``A(i|j)`` as a heat map (rows ``i``).

    Cell ``(i, j)`` holds ``A(i|j)``: how well the scores of class ``i`` put the objects
    of class ``i`` above those of class ``j``. Hand and Till's ``A(i, j)`` is the mean of
    the cells ``(i, j)`` and ``(j, i)``; the diagonal is left blank. The colour runs
    from white (1/2, a coin toss, or below) to the curve colour (1).

    Parameters
    ----------
    table : PairwiseAuc
        From :func:`course_lib.pairwise_auc`.
    names : sequence of str, optional
        Class names for the ticks (default: the labels).
    digits : int, default 3
        Decimals of the values written in the cells.

    Examples
    --------
    >>> from course_lib import pairwise_auc
    >>> t = pairwise_auc([0, 0, 1, 2], [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4],
    ...                                 [0.2, 0.4, 0.4], [0.5, 0.0, 0.5]])
    >>> ax = plot_pairwise_auc(t)
    >>> [t.get_text() for t in ax.texts]
    ['0.750', '0.250', '0.250', '1.000', '1.000', '1.000']
    >>> plt.close(ax.get_figure())
    """
    directed = np.array(table.directed, dtype=np.float64)
    c = directed.shape[0]
    tick_names = [str(v) for v in table.labels] if names is None else list(names)
    if len(tick_names) != c:
        raise ValueError(f"names has {len(tick_names)} entries, but there are {c} classes")
    ax = _axes(ax, size=3.6)
    cmap = _heat_cmap()
    shown = np.ma.masked_invalid(directed)
    ax.imshow(shown, cmap=cmap, vmin=0.5, vmax=1.0)
    for i in range(c):
        for j in range(c):
            if i == j:
                continue
            v = directed[i, j]
            rgba = cmap((min(max(v, 0.5), 1.0) - 0.5) / 0.5)
            ax.text(j, i, f"{v:.{digits}f}", ha="center", va="center",
                    color="white" if _dark(rgba) else COLORS["text"])
    ax.set_xticks(range(c), tick_names)
    ax.set_yticks(range(c), tick_names)
    ax.set_xlabel("j (negatives)")
    ax.set_ylabel("i (positives, scores of class i)")
    ax.tick_params(length=0)
    _no_spines(ax)
    return _finish(ax, title)
