"""The book's matplotlib style: one palette, one size, one place to change them."""

from __future__ import annotations

from typing import Any, cast

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["COLORS", "BOOK_RC", "use_book_style", "new_axes"]

# The helpers below are shared by the figure modules (not part of the public API).

#: The palette of the book: one colour per role, used by every figure.
COLORS = {
    "curve": "#1f5aa6",  # the curve being discussed
    "tie": "#d9480f",  # diagonal steps made by tied scores
    "shade": "#a5c8ef",  # area under a curve, correctly ordered pairs
    "grid": "#9aa5b1",  # grid lines, reference diagonals
    "point": "#c92a2a",  # a chosen operating point
    "text": "#212529",
    "alt": "#2b8a3e",  # a second series next to the curve, far from the reds
}

BOOK_RC: dict[str, Any] = {
    "figure.figsize": (4.2, 4.2),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "svg.fonttype": "path",
    "svg.hashsalt": "course_lib",  # stable ids in stored SVG outputs
}


def use_book_style(*, svg: bool = True) -> None:
    """Apply the book's matplotlib style; in a notebook, store figures as SVG.

    This changes matplotlib's global settings, so call it once, in the first code cell
    of a notebook, not from library code.
    """
    mpl.rcParams.update(cast(Any, BOOK_RC))
    if svg:
        try:
            from matplotlib_inline.backend_inline import set_matplotlib_formats
        except ImportError:  # pragma: no cover - outside Jupyter
            return
        set_matplotlib_formats("svg")


def new_axes(ncols: int = 1, *, size: float = 4.2, **kwargs: Any):
    """A row of ``ncols`` square Axes; returns ``(fig, axes)`` (a single Axes if 1).

    >>> fig, ax = new_axes()
    >>> ax.get_figure() is fig
    True
    >>> plt.close(fig)
    """
    fig, axes = plt.subplots(1, ncols, figsize=(size * ncols, size), layout="constrained", **kwargs)
    return fig, axes


def _axes(ax: Any, size: float = 4.2) -> Any:
    """``ax``, or the Axes of a new figure (:func:`new_axes` of side ``size``) if it is None."""
    return new_axes(size=size)[1] if ax is None else ax


#: Tick positions and labels of a unit square drawn with ``quarter_ticks=True``.
QUARTERS = (0.0, 0.25, 0.5, 0.75, 1.0)
QUARTER_LABELS = ("0", "1/4", "1/2", "3/4", "1")


def _unit_square(
    ax: Any,
    xlabel: str | None = None,
    ylabel: str | None = None,
    *,
    quarter_ticks: bool = False,
    title: str | None = None,
) -> None:
    """Frame ``ax`` as the unit square (a small margin, equal aspect), with labels.

    ``quarter_ticks=True`` puts ticks at 0, 1/4, 1/2, 3/4, 1 labelled as fractions.

    >>> fig, ax = new_axes()
    >>> _unit_square(ax, "FPR", "TPR", quarter_ticks=True)
    >>> [float(v) for v in ax.get_xlim()], [t.get_text() for t in ax.get_xticklabels()]
    ([-0.02, 1.02], ['0', '1/4', '1/2', '3/4', '1'])
    >>> plt.close(fig)
    """
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    if quarter_ticks:
        ax.set_xticks(QUARTERS, QUARTER_LABELS)
        ax.set_yticks(QUARTERS, QUARTER_LABELS)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)


def _legend_below(ax: Any, *, ncols: int = 1, offset: float = 0.16, **kwargs: Any) -> None:
    """A legend under the Axes, where it can hide no curve (``offset``: how far below,
    as a share of the Axes' height; other keywords go to ``ax.legend``)."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -offset), ncols=ncols, **kwargs)


def _diagonal(
    ax: Any, label: str = "_diagonal", *, ls: str = "--", lw: float = 1.2, zorder: float = 1
) -> None:
    """The diagonal from (0, 0) to (1, 1), in the grid colour (under the curves)."""
    ax.plot([0, 1], [0, 1], ls=ls, lw=lw, color=COLORS["grid"], label=label, zorder=zorder)


def _one_length(a: Any, b: Any, names: str = "y_true and y_score") -> None:
    """Raise a ValueError unless the arrays ``a`` and ``b`` are 1-d of one length."""
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"{names} must be 1-d of one length, got {a.shape} and {b.shape}")


def _no_spines(ax: Any) -> None:
    """Hide the four spines (for grids and matrices drawn as cells)."""
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)


def _finish(ax: Any, title: str | None = None, **legend: Any) -> Any:
    """The last steps of every figure: the legend (``ax.legend(**legend)``, only when
    keywords are given), then the title (if any); returns ``ax``."""
    if legend:
        ax.legend(**legend)
    if title:
        ax.set_title(title)
    return ax
