"""Figures of one threshold (chapter 1, source S): confusion matrices, means of
precision and recall, the log-loss of one object."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np
from matplotlib.colors import LinearSegmentedColormap

from ..confusion import f_beta, log_loss, matrix_from_counts
from ._style import COLORS, _axes, _finish, _no_spines

__all__ = [
    "plot_confusion_matrix",
    "plot_pr_mean_contours",
    "plot_means_along_recall",
    "plot_log_loss",
]

#: Names of the means of precision P and recall R that the figures know.
PR_MEANS = ("arithmetic", "P + R - 1", "minimum", "F1", "F2", "F0.5")

_F_NAME = re.compile(r"F(\d+(?:\.\d+)?)")


def _heat_cmap() -> LinearSegmentedColormap:
    return LinearSegmentedColormap.from_list("book_heat", ["#ffffff", COLORS["curve"]])


def _dark(rgba: Sequence[float]) -> bool:
    """True when black text would be hard to read on this colour."""
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b < 0.55


def plot_confusion_matrix(matrix: Any, *, labels: Sequence | None = None,
                          cell_names: Any = None, color_by: str = "row", ax=None,
                          fontsize: float | None = None, title: str | None = None):
    """Draw a confusion matrix as a heat map with the count written in every cell.

    Rows are the TRUE classes and columns the PREDICTED ones, as in
    :func:`course_lib.confusion_matrix` (source S prints the transpose).

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Counts (or total weights), rows true, columns predicted.
    labels : sequence of length k, optional
        Class names for the ticks (default 0..k-1).
    cell_names : array-like of shape (k, k) of str, optional
        A name written above each count, e.g. ``[["TN", "FP"], ["FN", "TP"]]``.
    color_by : {"row", "count"}, default "row"
        Colour a cell by its share of its row (the share of the true class that got
        this answer: small classes stay visible) or by the raw count.
    fontsize : float, optional
        Size of the cell text (default 10 for up to 4 classes, else 8).

    Examples
    --------
    >>> ax = plot_confusion_matrix([[1000, 50], [5, 20]],
    ...                            cell_names=[["TN", "FP"], ["FN", "TP"]])
    >>> [t.get_text() for t in ax.texts]
    ['TN\\n1,000', 'FP\\n50', 'FN\\n5', 'TP\\n20']
    >>> ax.get_ylabel(), ax.get_xlabel()
    ('true class', 'predicted class')
    >>> plt.close(ax.get_figure())
    """
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
        raise ValueError(f"matrix must be square and non-empty, got shape {m.shape}")
    if color_by not in ("row", "count"):
        raise ValueError(f"color_by must be 'row' or 'count', got {color_by!r}")
    k = m.shape[0]
    names = [str(v) for v in (range(k) if labels is None else labels)]
    if len(names) != k:
        raise ValueError(f"labels has {len(names)} names for {k} classes")
    cells = None if cell_names is None else np.asarray(cell_names, dtype=object)
    if cells is not None and cells.shape != m.shape:
        raise ValueError(f"cell_names has shape {cells.shape}, the matrix {m.shape}")
    ax = _axes(ax, size=4.2 if k <= 4 else 6.0)
    if color_by == "row":
        rows = m.sum(axis=1, keepdims=True)
        shade = np.divide(m, rows, out=np.zeros_like(m), where=rows > 0)
        vmax = 1.0
    else:
        shade, vmax = m, max(float(m.max()), 1.0)
    cmap = _heat_cmap()
    ax.imshow(shade, cmap=cmap, vmin=0.0, vmax=vmax)
    size = fontsize if fontsize is not None else (10 if k <= 4 else 8)
    integral = bool(np.all(m == np.round(m)))
    for i in range(k):
        for j in range(k):
            count = f"{int(m[i, j]):,}" if integral else f"{m[i, j]:,.3g}"
            text = count if cells is None else f"{cells[i, j]}\n{count}"
            colour = "white" if _dark(cmap(shade[i, j] / vmax)) else COLORS["text"]
            ax.text(j, i, text, ha="center", va="center", fontsize=size, color=colour)
    ax.set_xticks(range(k), names)
    ax.set_yticks(range(k), names)
    ax.tick_params(length=0)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    _no_spines(ax)
    return _finish(ax, title)


def _f_of_pr(precision: float, recall: float, beta: float) -> float:
    """F-beta of a precision and a recall, through :func:`course_lib.f_beta`.

    Any counts with these ratios give the same score; ``tp = P R``,
    ``fp = R (1 - P)``, ``fn = P (1 - R)`` are such counts.
    """
    counts = matrix_from_counts(
        tp=precision * recall,
        fp=recall * (1 - precision),
        fn=precision * (1 - recall),
        tn=0.0,
    )
    return float(f_beta(matrix=counts, beta=beta))


def _pr_mean(name: str, precision: Any, recall: Any) -> np.ndarray:
    """The mean ``name`` (one of :data:`PR_MEANS`) of arrays P and R, elementwise."""
    p, r = np.broadcast_arrays(np.asarray(precision, float), np.asarray(recall, float))
    if name == "arithmetic":
        return (p + r) / 2
    if name == "P + R - 1":
        return p + r - 1
    if name == "minimum":
        return np.minimum(p, r)
    match = _F_NAME.fullmatch(name)
    if match is None:
        raise ValueError(f"unknown mean {name!r}; use one of {PR_MEANS} or 'F<beta>'")
    beta = float(match.group(1))
    if np.any((p == 0) & (r == 0)):
        raise ValueError("F-beta is undefined at P = R = 0")
    values = [_f_of_pr(pi, ri, beta) for pi, ri in zip(p.ravel(), r.ravel())]
    return np.array(values).reshape(p.shape)


def plot_pr_mean_contours(
    mean: str = "F1",
    *,
    points: Mapping[str, tuple[float, float]] | None = None,
    levels: Sequence[float] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
    n_grid: int = 81,
    ax=None,
    title: str | None = None,
):
    """Level lines of one mean of precision and recall over the unit square.

    Recall is on the horizontal axis and precision on the vertical one, as in a PR
    curve. F-scores are computed with :func:`course_lib.f_beta`.

    Parameters
    ----------
    mean : str, default "F1"
        ``"arithmetic"`` (P + R)/2, ``"P + R - 1"``, ``"minimum"`` min(P, R), or
        ``"F<beta>"`` such as ``"F1"``, ``"F2"``, ``"F0.5"``.
    points : mapping of label -> (precision, recall), optional
        Points to mark, each labelled with its name and the value of the mean.
    levels : sequence of float
        The values of the level lines.
    n_grid : int, default 81
        Grid points per side (the grid avoids P = R = 0, where F is undefined).
    title : str, optional
        Axes title (default: the name of the mean).

    Examples
    --------
    >>> ax = plot_pr_mean_contours("minimum", levels=[0.5], n_grid=11)
    >>> ax.get_xlabel(), ax.get_ylabel(), ax.get_title()
    ('recall R', 'precision P', 'minimum')
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax)
    grid = np.linspace(1.0 / (2 * n_grid), 1.0, n_grid)
    r, p = np.meshgrid(grid, grid)
    z = _pr_mean(mean, p, r)
    bands = [min(float(z.min()), 0.0), *levels, max(float(z.max()), 1.0)]
    ax.contourf(r, p, z, levels=bands, cmap=_heat_cmap(), vmin=0.0, vmax=1.0,
                alpha=0.45)
    lines = ax.contour(r, p, z, levels=list(levels), colors=COLORS["curve"],
                       linewidths=1.0)
    ax.clabel(lines, fmt="%.1f", fontsize=8)
    for name, (pp, rr) in (points or {}).items():
        value = float(_pr_mean(mean, pp, rr))
        ax.plot([rr], [pp], "o", ms=6, color=COLORS["point"], zorder=5,
                clip_on=False)
        right = rr > 0.6
        ax.annotate(f"{name}: {value:.3g}", (rr, pp),
                    xytext=(-7 if right else 6, 5), textcoords="offset points",
                    ha="right" if right else "left", fontsize=9,
                    color=COLORS["point"], zorder=6,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white",
                          "ec": "none", "alpha": 0.8})
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("recall R")
    ax.set_ylabel("precision P")
    ax.set_title(title if title is not None else mean)
    return ax


def plot_means_along_recall(
    precision: float,
    *,
    means: Sequence[str] = ("arithmetic", "minimum", "F1", "F2", "F0.5"),
    n_points: int = 201,
    ax=None,
    title: str | None = None,
):
    """Means of a fixed precision and a varying recall, one line per mean.

    Source S's slide "F1 as a function of recall at a fixed precision", with the
    other means for comparison. F-scores come from :func:`course_lib.f_beta`.

    Parameters
    ----------
    precision : float
        The fixed precision, in (0, 1].
    means : sequence of str
        Names as in :func:`plot_pr_mean_contours`.
    n_points : int, default 201
        Recall values, evenly spaced on [0, 1].
    title : str, optional
        Axes title (default names the precision).

    Returns
    -------
    matplotlib Axes
        One line per mean, labelled with its name, x = recall.

    Examples
    --------
    >>> ax = plot_means_along_recall(0.2, means=["minimum", "F1"], n_points=3)
    >>> [line.get_label() for line in ax.get_lines()]
    ['minimum', 'F1']
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.0, 0.2, 0.2]
    >>> plt.close(ax.get_figure())
    """
    if not 0 < precision <= 1:
        raise ValueError(f"precision must be in (0, 1], got {precision!r}")
    ax = _axes(ax, size=4.6)
    recall = np.linspace(0.0, 1.0, n_points)
    styles = ["-", "--", ":", "-.", (0, (5, 1, 1, 1))]
    palette = [COLORS["curve"], COLORS["grid"], COLORS["point"], COLORS["tie"],
               COLORS["text"]]
    for k, name in enumerate(means):
        ax.plot(recall, _pr_mean(name, precision, recall), label=name,
                color=palette[k % len(palette)], ls=styles[k % len(styles)], lw=1.8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("recall R")
    ax.set_ylabel("value of the mean")
    ax.legend(loc="upper left")
    ax.set_title(title if title is not None else f"precision fixed at {precision:g}")
    return ax


def plot_log_loss(*, points: Sequence[float] = (0.9, 0.5, 0.1, 0.01), p_min: float = 0.005,
                  n_points: int = 400, show_error: bool = True, ax=None,
                  title: str | None = None):
    """The log-loss of one object against the probability given to its true class.

    The curve is ``-ln p``, computed with :func:`course_lib.log_loss`; it is small for
    a confident right answer and grows without bound for a confident wrong one.

    Parameters
    ----------
    points : sequence of float
        Probabilities to mark and label with their loss.
    p_min : float, default 0.005
        The curve is drawn on ``[p_min, 1]``.
    n_points : int, default 400
        Number of points of the curve.
    show_error : bool, default True
        Also draw the 0/1 error of the rule "answer the class with probability at
        least 1/2" (1 when ``p < 1/2``), for comparison.

    Returns
    -------
    matplotlib Axes
        The first line is the log-loss curve (x = p, y = loss).

    Examples
    --------
    >>> ax = plot_log_loss(points=[0.5], n_points=3, p_min=0.5)
    >>> line = ax.get_lines()[0]
    >>> line.get_label(), line.get_ydata().round(4).tolist()
    ('log-loss  −ln p', [0.6931, 0.2877, 0.0])
    >>> plt.close(ax.get_figure())
    """
    if not 0 < p_min < 1:
        raise ValueError(f"p_min must be in (0, 1), got {p_min!r}")
    ax = _axes(ax, size=4.6)
    p = np.linspace(p_min, 1.0, n_points)
    # One object of class 1 that gets probability p: its loss is -ln p.
    loss = np.array([log_loss([1], [pi]) for pi in p])
    ax.plot(p, loss, color=COLORS["curve"], lw=2, label="log-loss  −ln p")
    if show_error:
        ax.plot([p_min, 0.5, 0.5, 1.0], [1, 1, 0, 0], color=COLORS["grid"], ls="--",
                lw=1.5, label="0/1 error of the answer")
    for pt in points:
        value = log_loss([1], [pt])
        ax.plot([pt], [value], "o", color=COLORS["point"], ms=5, zorder=5)
        ax.annotate(f"p = {pt:g}: {value:.2f}", (pt, value), xytext=(8, 4),
                    textcoords="offset points", fontsize=8, color=COLORS["point"])
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, float(loss.max()) * 1.05)
    ax.set_xlabel("probability given to the true class, p")
    ax.set_ylabel("loss of one object")
    return _finish(ax, title, loc="upper right")
