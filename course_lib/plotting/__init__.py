"""Figures of the book, made with matplotlib.

Every function draws on the Axes it is given (``ax=None`` makes a new figure), sets the
Axes title ``title`` where it takes one, and returns that Axes, so figures can be
combined into panels and restyled in one place. Their docstrings leave ``ax``, ``title``
and the returned Axes unsaid.
The colours and sizes of the whole book are set in ``_style.py``; the figures of each
topic live in a module of their own and are re-exported here, so notebooks write
``from course_lib import plotting`` and ``plotting.plot_roc_grid(...)``.

Call :func:`use_book_style` once at the top of a notebook: it sets the matplotlib style
of the book and makes the notebook store its figures as SVG, which stay sharp at any
zoom in the HTML book.
"""

# Each topic's module names its figures once, in its ``__all__``; the package
# re-exports them all (as course_lib re-exports its modules' names).
from . import (
    _style,
    auc,
    calibration,
    confusion,
    cost,
    gains,
    lorenz,
    models,
    multiclass,
    optimize,
    partial,
    pitfalls,
    pr,
    roc,
    sampling,
)
from ._style import *  # noqa: F403
from .auc import *  # noqa: F403
from .calibration import *  # noqa: F403
from .confusion import *  # noqa: F403
from .cost import *  # noqa: F403
from .gains import *  # noqa: F403
from .lorenz import *  # noqa: F403
from .models import *  # noqa: F403
from .multiclass import *  # noqa: F403
from .optimize import *  # noqa: F403
from .partial import *  # noqa: F403
from .pitfalls import *  # noqa: F403
from .pr import *  # noqa: F403
from .roc import *  # noqa: F403
from .sampling import *  # noqa: F403

__all__ = [
    *_style.__all__,
    *roc.__all__,
    *lorenz.__all__,
    *confusion.__all__,
    *models.__all__,
    *auc.__all__,
    *gains.__all__,
    *pr.__all__,
    *cost.__all__,
    *pitfalls.__all__,
    *optimize.__all__,
    *sampling.__all__,
    *calibration.__all__,
    *multiclass.__all__,
    *partial.__all__,
]
