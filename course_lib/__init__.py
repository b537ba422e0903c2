"""course_lib: the companion library of the book.

Small, pure functions over numpy arrays for judging a binary classifier by its scores.
Every public name is importable from the package itself, e.g.
``from course_lib import roc_auc``.
"""

from ._checks import UndefinedMetricWarning

__all__ = ["UndefinedMetricWarning"]

# Each module adds its public names below, in a block of its own:
#   from .module import a, b
#   __all__ += ["a", "b"]

from .roc import (
    PairMatrix,
    RocCurve,
    RocHull,
    RocStep,
    auc_pairwise,
    pair_matrix,
    roc_auc,
    roc_convex_hull,
    roc_curve,
    roc_point,
    roc_steps,
    trapezoid_area,
)
__all__ += [
    "PairMatrix",
    "RocCurve",
    "RocHull",
    "RocStep",
    "auc_pairwise",
    "pair_matrix",
    "roc_auc",
    "roc_convex_hull",
    "roc_curve",
    "roc_point",
    "roc_steps",
    "trapezoid_area",
]

from .pr import AchievablePr, PrCurve, achievable_pr, average_precision, pr_auc_trapezoid, pr_curve
__all__ += [
    "AchievablePr",
    "PrCurve",
    "achievable_pr",
    "average_precision",
    "pr_auc_trapezoid",
    "pr_curve",
]

from .confusion import (
    ClassCounts,
    accuracy,
    balanced_accuracy,
    chance_agreement,
    cohen_kappa,
    confusion_matrix,
    f_beta,
    log_loss,
    matrix_from_counts,
    mcc,
    per_class_counts,
    precision,
    recall,
    specificity,
)
__all__ += [
    "ClassCounts",
    "accuracy",
    "balanced_accuracy",
    "chance_agreement",
    "cohen_kappa",
    "confusion_matrix",
    "f_beta",
    "log_loss",
    "matrix_from_counts",
    "mcc",
    "per_class_counts",
    "precision",
    "recall",
    "specificity",
]

from .lorenz import (
    CapCurve,
    LorenzCurve,
    bubble_sort_swaps,
    cap_curve,
    count_inversions,
    gini_brown,
    gini_normalized,
    gini_unnormalized,
    lorenz_curve,
)
__all__ += [
    "CapCurve",
    "LorenzCurve",
    "bubble_sort_swaps",
    "cap_curve",
    "count_inversions",
    "gini_brown",
    "gini_normalized",
    "gini_unnormalized",
    "lorenz_curve",
]

from .inference import (
    BootstrapCI,
    DeLongCI,
    DeLongTest,
    auc_ci_bootstrap,
    auc_ci_delong,
    delong_test,
)
__all__ += [
    "BootstrapCI",
    "DeLongCI",
    "DeLongTest",
    "auc_ci_bootstrap",
    "auc_ci_delong",
    "delong_test",
]

from .models import LINEAR_DENSITIES, CurvePoints, ModelCurve, ModelKS, ModelOptimum, ScoreModel
__all__ += [
    "LINEAR_DENSITIES",
    "CurvePoints",
    "ModelCurve",
    "ModelKS",
    "ModelOptimum",
    "ScoreModel",
]
