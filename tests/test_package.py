"""The public contract: every name importable from the package itself.

The contract comes from the project's design notes (DESIGN.md), which are not part of
this repository: they live in the project's shared folder, next to the syllabus. The
list below is what this repository needs of them.
"""

import importlib

import pytest

import course_lib

CONTRACT = """
roc_steps roc_curve roc_auc auc_pairwise pair_matrix roc_convex_hull trapezoid_area
pr_curve average_precision pr_auc_trapezoid achievable_pr
lorenz_curve gini_brown cap_curve gini_normalized count_inversions bubble_sort_swaps
gain_curve lift_curve ks_curve ks_statistic gains_table profit_curve
confusion_matrix accuracy precision recall specificity f_beta balanced_accuracy mcc
cohen_kappa log_loss
probability_cost normalized_expected_cost cost_lower_envelope vertical_average
auc_ci_delong auc_ci_bootstrap delong_test
hull_pr roc_dominates pr_dominates simulate_intervals interval_coverage
ScoreModel LINEAR_DENSITIES UndefinedMetricWarning
""".split()

# The sympy symbols of models.py are used as course_lib.models.THETA etc.: at the top of
# the package a name like PI would mislead.
MODULE_ONLY = {"THETA", "PI", "U"}
MODULES = ["roc", "pr", "confusion", "lorenz", "gains", "cost", "inference", "models", "optimize", "sql"]


@pytest.mark.parametrize("name", CONTRACT)
def test_contract_name_is_exported(name):
    assert name in course_lib.__all__
    assert getattr(course_lib, name) is not None


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_of_a_module_is_exported(module):
    mod = importlib.import_module(f"course_lib.{module}")
    for name in set(mod.__all__) - MODULE_ONLY:
        assert getattr(course_lib, name) is getattr(mod, name), name
        assert name in course_lib.__all__


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'roc_aucc'"):
        course_lib.roc_aucc
