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

from ._style import BOOK_RC, COLORS, new_axes, use_book_style
from .roc import plot_iso_performance, plot_roc_grid, plot_roc_mixture

__all__ = ["BOOK_RC", "COLORS", "new_axes", "use_book_style", "plot_roc_grid"]
__all__ += ["plot_iso_performance", "plot_roc_mixture"]

# Each topic adds its block below:
#   from .topic import plot_a, plot_b
#   __all__ += ["plot_a", "plot_b"]

from .lorenz import plot_cap, plot_lorenz, plot_lorenz_curves

__all__ += ["plot_cap", "plot_lorenz", "plot_lorenz_curves"]

from .confusion import (
    plot_confusion_matrix,
    plot_log_loss,
    plot_means_along_recall,
    plot_pr_mean_contours,
)

__all__ += [
    "plot_confusion_matrix",
    "plot_log_loss",
    "plot_means_along_recall",
    "plot_pr_mean_contours",
]

from .models import (
    SHARE_STYLES,
    plot_auc_pr_by_share,
    plot_binarized_roc,
    plot_ks_chart,
    plot_model_curve,
    plot_score_densities,
)

__all__ += [
    "SHARE_STYLES",
    "plot_auc_pr_by_share",
    "plot_binarized_roc",
    "plot_ks_chart",
    "plot_model_curve",
    "plot_score_densities",
]

from .auc import plot_roc_overlay, plot_score_scales, plot_thinning, plot_weighted_grid

__all__ += ["plot_roc_overlay", "plot_score_scales", "plot_thinning", "plot_weighted_grid"]

from .gains import (
    plot_gain_curve,
    plot_gain_vs_roc,
    plot_ks_curve,
    plot_lift_curve,
    plot_profit_curve,
)

__all__ += [
    "plot_gain_curve",
    "plot_gain_vs_roc",
    "plot_ks_curve",
    "plot_lift_curve",
    "plot_profit_curve",
]

from .pr import (
    plot_pr_areas,
    plot_pr_curve,
    plot_pr_curves,
    plot_pr_interpolation,
    plot_pr_unachievable,
    plot_prg_curves,
    plot_roc_curves,
)

__all__ += ["plot_pr_areas", "plot_pr_curve", "plot_pr_curves", "plot_pr_interpolation", "plot_roc_curves"]
__all__ += ["plot_pr_unachievable", "plot_prg_curves"]

from .cost import (
    plot_cost_band,
    plot_cost_curves,
    plot_cost_difference,
    plot_cost_envelope,
    plot_cost_lines,
    plot_roc_hull,
    plot_roc_points,
)

__all__ += [
    "plot_cost_band",
    "plot_cost_curves",
    "plot_cost_difference",
    "plot_cost_envelope",
    "plot_cost_lines",
    "plot_roc_hull",
    "plot_roc_points",
]

from .pitfalls import plot_feature_classes, plot_ranking_strip, plot_roc_shape

__all__ += ["plot_feature_classes", "plot_ranking_strip", "plot_roc_shape"]

from .optimize import (
    plot_auc_landscape,
    plot_linear_scorers,
    plot_sigmoid_surrogates,
    plot_surrogate_gap,
    plot_training_curves,
)

__all__ += [
    "plot_auc_landscape",
    "plot_linear_scorers",
    "plot_sigmoid_surrogates",
    "plot_surrogate_gap",
    "plot_training_curves",
]

from .sampling import (
    plot_auc_spread,
    plot_empirical_curves,
    plot_intervals,
    plot_mean_sd,
    plot_sample_histogram,
)

__all__ += [
    "plot_auc_spread",
    "plot_empirical_curves",
    "plot_intervals",
    "plot_mean_sd",
    "plot_sample_histogram",
]

from .calibration import (
    plot_calibration_maps,
    plot_expected_scores,
    plot_hull_calibration,
    plot_reliability,
)

__all__ += [
    "plot_calibration_maps",
    "plot_expected_scores",
    "plot_hull_calibration",
    "plot_reliability",
]

from .multiclass import plot_ovr_roc, plot_pairwise_auc

__all__ += ["plot_ovr_roc", "plot_pairwise_auc"]

from .partial import plot_cost_weights, plot_min_loss, plot_partial_area

__all__ += ["plot_cost_weights", "plot_min_loss", "plot_partial_area"]
