"""course_lib: the companion library of the book.

Small, pure functions over numpy arrays for judging a binary classifier by its scores.
Every public name is importable from the package itself, e.g.
``from course_lib import roc_auc``.
"""

# Each module's public names (its ``__all__``) are the package's, re-exported as numpy
# and scipy re-export theirs: ``from .roc import *`` binds them here and
# ``__all__ += roc.__all__`` lists them, so a name is written once, in its module.
# (sql imports duckdb, and pyspark, only when a runner is made.)
from . import (
    calibration,
    confusion,
    cost,
    evaluation,
    gains,
    inference,
    lorenz,
    multiclass,
    optimize,
    partial,
    pr,
    roc,
    sql,
)
from ._checks import UndefinedMetricWarning
from .calibration import *  # noqa: F403
from .confusion import *  # noqa: F403
from .cost import *  # noqa: F403
from .evaluation import *  # noqa: F403
from .gains import *  # noqa: F403
from .inference import *  # noqa: F403
from .lorenz import *  # noqa: F403
from .multiclass import *  # noqa: F403
from .optimize import *  # noqa: F403
from .partial import *  # noqa: F403
from .pr import *  # noqa: F403
from .report import report  # the function shadows the subpackage's name, as designed
from .roc import *  # noqa: F403
from .sql import *  # noqa: F403

__all__ = ["UndefinedMetricWarning", "report"]
__all__ += roc.__all__
__all__ += pr.__all__
__all__ += [n for n in confusion.__all__ if n != "log_loss"]  # calibration's, listed there
__all__ += lorenz.__all__
__all__ += inference.__all__
__all__ += gains.__all__
__all__ += cost.__all__
__all__ += multiclass.__all__
__all__ += optimize.__all__
__all__ += calibration.__all__
__all__ += sql.__all__
__all__ += partial.__all__
__all__ += evaluation.__all__

# ---------------------------------------------------------------- lazy: the models
# models.py needs sympy, which takes most of a second to import: its names are loaded
# on first use (PEP 562), so `import course_lib` stays fast. This comes last, after
# every eager import above, so that the module's names are all defined by then.
_MODEL_NAMES = (
    "LINEAR_DENSITIES",
    "CurvePoints",
    "ModelCurve",
    "ModelKS",
    "ModelOptimum",
    "ScoreModel",
)
__all__ += list(_MODEL_NAMES)


def __getattr__(name: str) -> object:
    if name in _MODEL_NAMES:
        from . import models

        return getattr(models, name)
    raise AttributeError(f"module 'course_lib' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
