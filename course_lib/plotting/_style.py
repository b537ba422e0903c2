"""The book's matplotlib style: one palette, one size, one place to change them."""

from __future__ import annotations

from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["COLORS", "BOOK_RC", "use_book_style", "new_axes"]

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

BOOK_RC = {
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
    mpl.rcParams.update(BOOK_RC)
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


