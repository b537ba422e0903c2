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
    RocOptimum,
    RocStep,
    auc_pairwise,
    iso_performance_optimum,
    pair_matrix,
    randomized_roc_point,
    randomized_rule,
    roc_auc,
    roc_convex_hull,
    roc_curve,
    roc_dominates,
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
    "roc_dominates",
    "roc_point",
    "roc_steps",
    "trapezoid_area",
    "RocOptimum",
    "iso_performance_optimum",
    "randomized_roc_point",
    "randomized_rule",
]

from .pr import (
    EXACT_AP_LIMIT,
    AchievablePr,
    HullPr,
    PrCurve,
    PrgCurve,
    achievable_pr,
    average_precision,
    hull_pr,
    min_pr_auc,
    min_precision,
    pr_auc_trapezoid,
    pr_curve,
    pr_dominates,
    precision_recall_gain_curve,
    prg_auc,
)

__all__ += [
    "EXACT_AP_LIMIT",
    "AchievablePr",
    "HullPr",
    "PrCurve",
    "achievable_pr",
    "average_precision",
    "hull_pr",
    "pr_auc_trapezoid",
    "pr_curve",
    "pr_dominates",
    "PrgCurve",
    "min_pr_auc",
    "min_precision",
    "precision_recall_gain_curve",
    "prg_auc",
]

from .confusion import (
    ClassCounts,
    accuracy,
    balanced_accuracy,
    chance_agreement,
    cohen_kappa,
    confusion_matrix,
    f_beta,
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
    bootstrap_intervals,
    delong_test,
    delong_test_unpaired,
    interval_coverage,
    simulate_intervals,
)

__all__ += [
    "BootstrapCI",
    "DeLongCI",
    "DeLongTest",
    "auc_ci_bootstrap",
    "auc_ci_delong",
    "bootstrap_intervals",
    "delong_test",
    "delong_test_unpaired",
    "interval_coverage",
    "simulate_intervals",
]

from .gains import (
    CampaignProfit,
    GainCurve,
    KsCurve,
    KsTwoSided,
    LiftCurve,
    ProfitCurve,
    campaign_profit,
    gain_at,
    gain_auc,
    gain_curve,
    gains_table,
    gains_table_from_counts,
    ks_curve,
    ks_statistic,
    ks_two_sided,
    lift_at,
    lift_curve,
    lift_of_gain,
    population_stability_index,
    profit_curve,
)

__all__ += [
    "CampaignProfit",
    "GainCurve",
    "KsCurve",
    "KsTwoSided",
    "LiftCurve",
    "ProfitCurve",
    "campaign_profit",
    "gain_at",
    "gain_auc",
    "gain_curve",
    "gains_table",
    "gains_table_from_counts",
    "ks_curve",
    "ks_statistic",
    "ks_two_sided",
    "lift_at",
    "lift_curve",
    "lift_of_gain",
    "population_stability_index",
    "profit_curve",
]

from .cost import (
    CostCurve,
    CostEnvelope,
    CostLine,
    CostPoint,
    RocLine,
    RocPoint,
    cost_curve,
    cost_difference,
    cost_line_to_roc_point,
    cost_lower_envelope,
    cost_point_to_roc_line,
    iso_performance_slope,
    normalized_expected_cost,
    probability_cost,
    roc_line_to_cost_point,
    roc_point_to_cost_line,
    trivial_cost,
    vertical_average,
)

__all__ += [
    "CostCurve",
    "CostEnvelope",
    "CostLine",
    "CostPoint",
    "RocLine",
    "RocPoint",
    "cost_curve",
    "cost_difference",
    "cost_line_to_roc_point",
    "cost_lower_envelope",
    "cost_point_to_roc_line",
    "normalized_expected_cost",
    "probability_cost",
    "roc_line_to_cost_point",
    "roc_point_to_cost_line",
    "trivial_cost",
    "vertical_average",
    "iso_performance_slope",
]

from .multiclass import (
    OVO_AVERAGES,
    OVR_AVERAGES,
    PairwiseAuc,
    ovo_auc,
    ovr_auc,
    ovr_roc_curves,
    pairwise_auc,
)

__all__ += [
    "OVO_AVERAGES",
    "OVR_AVERAGES",
    "PairwiseAuc",
    "ovo_auc",
    "ovr_auc",
    "ovr_roc_curves",
    "pairwise_auc",
]

from .optimize import rank_average, soft_auc, soft_auc_gradient

__all__ += ["rank_average", "soft_auc", "soft_auc_gradient"]

from .calibration import (
    BinomialInterval,
    BrierDecomposition,
    CalibrationInTheLarge,
    HosmerLemeshow,
    IsotonicMap,
    PlattMap,
    Recalibration,
    ReliabilityCurve,
    binomial_interval,
    brier_decomposition,
    brier_score,
    calibration_bands,
    calibration_curve,
    calibration_in_the_large,
    calibration_slope,
    expected_calibration_error,
    hosmer_lemeshow,
    isotonic_calibration,
    log_loss,
    platt_scaling,
)

__all__ += [
    "BinomialInterval",
    "BrierDecomposition",
    "CalibrationInTheLarge",
    "HosmerLemeshow",
    "IsotonicMap",
    "PlattMap",
    "Recalibration",
    "ReliabilityCurve",
    "binomial_interval",
    "brier_decomposition",
    "brier_score",
    "calibration_bands",
    "calibration_curve",
    "calibration_in_the_large",
    "calibration_slope",
    "expected_calibration_error",
    "hosmer_lemeshow",
    "isotonic_calibration",
    "log_loss",
    "platt_scaling",
]

# sql.py imports duckdb (and pyspark) only when a runner is made
from .sql import (
    DUCKDB,
    SPARK,
    Dialect,
    DuckDBRunner,
    Relation,
    SparkRunner,
    SqlChecks,
    SqlEvaluation,
    SqlKs,
    auc_sql,
    binned_auc_sql,
    binned_pr_points_sql,
    checks_sql,
    cumulative_counts_sql,
    gain_curve_sql,
    gains_table_sql,
    ks_sql,
    relation,
    roc_points_sql,
    score_counts_sql,
    score_groups_sql,
    sql_binned_auc,
    sql_binned_pr_auc,
    sql_checks,
    sql_evaluation,
    sql_gain_curve,
    sql_gains_table,
    sql_gini,
    sql_ks,
    sql_lift_curve,
    sql_roc_auc,
    sql_roc_curve,
)

__all__ += [
    "DUCKDB",
    "SPARK",
    "Dialect",
    "DuckDBRunner",
    "Relation",
    "SparkRunner",
    "SqlChecks",
    "SqlEvaluation",
    "SqlKs",
    "auc_sql",
    "binned_auc_sql",
    "binned_pr_points_sql",
    "checks_sql",
    "gain_curve_sql",
    "gains_table_sql",
    "ks_sql",
    "relation",
    "roc_points_sql",
    "cumulative_counts_sql",
    "score_counts_sql",
    "score_groups_sql",
    "sql_binned_auc",
    "sql_binned_pr_auc",
    "sql_checks",
    "sql_evaluation",
    "sql_gain_curve",
    "sql_gains_table",
    "sql_gini",
    "sql_ks",
    "sql_lift_curve",
    "sql_roc_auc",
    "sql_roc_curve",
]

from .partial import CostWeights, auc_cost_weights, h_measure, minimum_loss, partial_roc_auc

__all__ += ["CostWeights", "auc_cost_weights", "h_measure", "minimum_loss", "partial_roc_auc"]

from .evaluation import Evaluation, evaluate

__all__ += ["Evaluation", "evaluate"]

from .report import report  # the function shadows the subpackage's name, as designed

__all__ += ["report"]

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
