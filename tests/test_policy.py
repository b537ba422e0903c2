"""One policy for scores, weights and undefined cases (issue 20).

Each row of the issue's table is a test here (the SQL rows, on DuckDB and on Spark,
are in ``tests/test_sql.py``), with the right answer.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.isotonic import IsotonicRegression

import course_lib as cl
from course_lib import UndefinedMetricWarning
from course_lib._checks import (
    MISSING_CLASS,
    SCALE_DEPENDENT,
    UNDEFINED,
    WEIGHT_UNITS,
    ZERO_WEIGHTS,
)
from course_lib.inference import INTERVAL_COLUMNS

BIG = 2**62

# ------------------------------------------------------------------------ item 1: scores


def _multiclass_case():
    rng = np.random.default_rng(20)
    y = np.tile([0, 1, 2], 8)
    small = rng.integers(0, 12, size=(y.size, 3)).astype(np.int64)
    return y, small, small + BIG


def test_multiclass_auc_ranks_integers_beyond_2_53_exactly():
    """ovr_auc / ovo_auc with probabilities=False: the order of int64 scores 2**62 + k
    is their order (float64 would make every score of a column one tie: 0.5)."""
    y, small, big = _multiclass_case()
    per_class = cl.ovr_auc(y, big, probabilities=False, average=None)
    np.testing.assert_array_equal(per_class,
                                  cl.ovr_auc(y, small, probabilities=False, average=None))
    assert not np.any(per_class == 0.5)
    for j in range(3):  # each class against the rest, as the binary AUC of the column
        assert per_class[j] == cl.roc_auc(y == j, small[:, j])
    assert cl.ovo_auc(y, big, probabilities=False) == cl.ovo_auc(y, small, probabilities=False)
    assert cl.ovo_auc(y, big, probabilities=False) != 0.5
    exact = cl.ovr_auc(y, big, probabilities=False, exact=True)
    assert exact == cl.ovr_auc(y, small, probabilities=False, exact=True)
    curves = cl.ovr_roc_curves(y, big, probabilities=False)
    assert curves[0].thresholds[1] == int(big[:, 0].max())


def test_isotonic_calibration_keeps_the_exact_order_of_big_integers():
    """As scikit-learn's IsotonicRegression on the same order (scores shifted by 2**62,
    which float64 holds exactly): not one pooled value."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    k = 2 * rng.integers(0, 25, 40).astype(np.int64)  # even: midpoints are integers
    m = cl.isotonic_calibration(y, k + BIG)
    sk = IsotonicRegression(out_of_bounds="clip").fit(k.astype(float), y)
    np.testing.assert_allclose(m.values, sk.predict(np.unique(k).astype(float)),
                               rtol=0, atol=1e-15)
    assert np.unique(m.values).size > 1
    assert m.thresholds.dtype == np.int64 and m.thresholds[0] == BIG + k.min()
    probe = np.arange(-2, 52, dtype=np.int64)
    np.testing.assert_allclose(m(probe + BIG), sk.predict(probe.astype(float)),
                               rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="call it on integer scores too"):
        m([0.5])


def test_functions_that_compute_with_the_scores_say_so():
    y = [0, 1, 0, 1]
    big = np.array([BIG, BIG + 3, BIG + 1, BIG + 2], dtype=np.int64)
    for f in (cl.platt_scaling, cl.soft_auc):
        with pytest.raises(ValueError, match="float64 cannot represent exactly"):
            f(y, big)


def test_thresholds_compare_exactly_with_big_integer_scores():
    y = [0, 1, 0, 1]
    big = np.array([BIG, BIG + 3, BIG + 1, BIG + 2], dtype=np.int64)
    small = big - BIG
    assert cl.roc_point(y, big, BIG + 2) == cl.roc_point(y, small, 2)
    assert cl.roc_point(y, big, float(BIG)) == cl.roc_point(y, small, 0)
    assert cl.roc_point(y, big, float(BIG + 2**11)) == (0, 0)
    assert cl.randomized_roc_point(y, big, BIG + 3, BIG + 1, q=0.5) == (
        cl.randomized_roc_point(y, small, 3, 1, q=0.5))
    np.testing.assert_array_equal(cl.randomized_rule(big, BIG + 3, BIG + 1, q=0.5, rng=1),
                                  cl.randomized_rule(small, 3, 1, q=0.5, rng=1))
    np.testing.assert_array_equal(cl.rank_average([big, big[::-1]]),
                                  cl.rank_average([small, small[::-1]]))
    assert cl.ks_curve(y, big).ks_threshold == BIG + 2


def test_calibration_curve_quantile_bins_do_not_depend_on_the_weights_scale():
    """w / w.sum() (weights summing to 1) gives the bins of w, not a single bin."""
    rng = np.random.default_rng(7)
    p = np.round(rng.random(60), 2)
    y = (rng.random(60) < p).astype(int)
    w = rng.integers(1, 5, 60).astype(float)
    ref = cl.calibration_curve(y, p, strategy="quantile", n_bins=5, sample_weight=w)
    assert ref.prob_true.size == 5
    for scaled in (w / w.sum(), w * 1e-170, w * 1e160):
        got = cl.calibration_curve(y, p, strategy="quantile", n_bins=5, sample_weight=scaled)
        np.testing.assert_allclose(got.prob_true, ref.prob_true, rtol=1e-12)
        np.testing.assert_allclose(got.prob_pred, ref.prob_pred, rtol=1e-12)


def test_prg_with_all_zero_weights_is_the_clear_error_of_pr_curve():
    y, s, w = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], np.zeros(4)
    with pytest.raises(ValueError) as pr_error:
        cl.pr_curve(y, s, sample_weight=w)
    for f in (cl.prg_auc, cl.precision_recall_gain_curve):
        with pytest.raises(ValueError) as error:
            f(y, s, sample_weight=w)
        assert str(error.value) == "the PRG curve is undefined: every sample weight is zero"
    assert str(pr_error.value) == "the PR curve is undefined: every sample weight is zero"


def test_interval_coverage_refuses_what_is_not_a_table():
    with pytest.raises(TypeError, match="intervals must be a pandas DataFrame"):
        cl.interval_coverage(None, 0.7)
    table = pd.DataFrame([[0.7, 0.6, 0.8, 0.65, 0.75]], columns=list(INTERVAL_COLUMNS))
    with pytest.raises(TypeError, match="truth must be a number"):
        cl.interval_coverage(table, None)
    assert cl.interval_coverage(table, 0.7).tolist() == pytest.approx([1.0, 0.2, 1.0, 0.1])


# ----------------------------------------------------------------------- item 2: weights
def public_functions() -> dict[str, object]:
    """Every public function of course_lib: the package's names and the ``__all__`` of
    its public modules (the figures of ``plotting`` and the exercises aside)."""
    found = {n: getattr(cl, n) for n in cl.__all__ if inspect.isfunction(getattr(cl, n))}
    for info in pkgutil.iter_modules(cl.__path__):
        if info.name.startswith("_") or info.name in ("plotting", "exercises"):
            continue
        module = importlib.import_module(f"course_lib.{info.name}")
        for n in getattr(module, "__all__", []):
            obj = getattr(module, n)
            if inspect.isfunction(obj):
                found.setdefault(n, obj)
    return found


PUBLIC = public_functions()
WEIGHTED = sorted(n for n, f in PUBLIC.items()
                  if "sample_weight" in inspect.signature(f).parameters)
# values for the parameters (by name) that a call needs besides the data
REQUIRED = {"rate": 0.3, "cost": 0.3, "revenue": 3.0, "max_fpr": 0.5}
# a scale-invariant option of the functions _checks.SCALE_DEPENDENT names, and a fixed
# seed for the functions whose default seed is None (fresh randomness on each call)
INVARIANT_OPTION = {"platt_scaling": {"targets": "labels"}, "auc_ci_bootstrap": {"seed": 0}}
SCALES = [1e-300, 1e-170, 1.0, 1e160, 1e300]


def _data(seed: int = 11, n: int = 40):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 1)  # ties
    w = np.round(rng.random(n) * 3, 2) + 0.01
    m = np.r_[0, 1, 2, rng.integers(0, 3, n - 3)]
    probs = rng.dirichlet(np.ones(3), n)
    return y, p, w, m, probs


def call(name: str, w):
    """``name`` on the shared data with weights ``w``: binary scores, or the 3-class
    data for the functions that want a score matrix."""
    f = PUBLIC[name]
    y, p, _, m, probs = _data()
    params = inspect.signature(f).parameters
    kwargs = {k: v for k, v in REQUIRED.items() if k in params}
    kwargs.update(INVARIANT_OPTION.get(name, {}))
    first = list(params)[:2]
    if name.startswith(("ovr_", "ovo_", "pairwise_")):
        return f(m, probs, sample_weight=w, **kwargs)
    if "matrix" in params:  # the confusion metrics: labels and predictions
        return f(y, (p > 0.5).astype(int), sample_weight=w, **kwargs)
    positional = [kwargs.pop(k) for k in list(params)[2:] if k in kwargs and
                  params[k].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    assert first[0] in ("y_true", "rater_a"), name
    return f(y, p, *positional, sample_weight=w, **kwargs)


def flatten(result, prefix: str = "") -> dict[str, np.ndarray]:
    """The numbers of a result by path: fields, keys, columns."""
    if hasattr(result, "_fields"):
        out = {}
        for k in result._fields:
            out.update(flatten(getattr(result, k), f"{prefix}{k}."))
        return out
    if isinstance(result, dict):
        out = {}
        for k, v in result.items():
            out.update(flatten(v, f"{prefix}{k}."))
        return out
    if isinstance(result, pd.DataFrame):
        return flatten({c: result[c].to_numpy() for c in result.columns}, prefix)
    if hasattr(result, "data") and isinstance(result.data, dict):
        return flatten(result.data, prefix)
    if isinstance(result, str) or result is None:
        return {}
    if isinstance(result, cl.Evaluation):  # every view of its weighted data
        views = ("roc_curve", "pr_curve", "gain_curve", "lift_curve", "ks_curve", "roc_auc",
                 "gini", "ks_statistic", "average_precision", "roc_convex_hull")
        return flatten({v: getattr(result, v)() for v in views}, prefix)
    arr = np.asarray(result, dtype=object).ravel()
    if arr.size and any(isinstance(v, str) for v in arr.tolist()):
        return {}
    values = [np.nan if v is None else float(v) for v in arr.tolist()]
    return {prefix.rstrip("."): np.array(values, dtype=np.float64)}


def test_the_weighted_functions_are_found():
    """The enumeration finds every weighted function of the book's contract, and more."""
    for name in ("roc_auc", "roc_curve", "average_precision", "mcc", "confusion_matrix",
                 "isotonic_calibration", "h_measure", "ovr_auc", "threshold_explorer",
                 "gini_normalized", "profit_curve", "soft_auc", "partial_roc_auc"):
        assert name in WEIGHTED
    assert len(WEIGHTED) >= 45
    assert set(WEIGHT_UNITS) | set(SCALE_DEPENDENT) <= set(WEIGHTED)


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize("factor", SCALES)
def test_weights_of_any_scale_give_the_same_result(name, factor):
    """f(w * factor) = f(w) for every weighted public function; the results that are
    sums of weights (_checks.WEIGHT_UNITS) are ``factor`` times as large."""
    _, _, w, _, _ = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, underflow or undefined warning
        ref = flatten(call(name, w))
        got = flatten(call(name, w * factor))
    assert ref.keys() == got.keys()
    units = WEIGHT_UNITS.get(name, ())
    for path, value in ref.items():
        expected = value * factor if path in units else value
        np.testing.assert_allclose(got[path], expected, rtol=1e-12, atol=1e-300,
                                   err_msg=f"{name}: {path or 'result'} at weights * {factor}")


@pytest.mark.parametrize("factor", SCALES)
def test_the_bootstrap_drops_the_resamples_without_rows_of_a_class_at_any_scale(factor):
    """Unstratified resamples that draw no row of a class with weight are dropped:
    rows counted (a positive row of weight 0 does not count), not weight sums compared
    with 0, so the same resamples are kept at every scale of the weights."""
    y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1])
    s = np.array([0.1, 0.5, 0.3, 0.4, 0.2, 0.6, 0.7, 0.35, 0.9])
    w = np.array([1.5, 0.25, 2, 1, 0.5, 1, 2, 1.25, 0.0])
    ref = cl.bootstrap_intervals(y, s, sample_weight=w, n_boot=400, stratified=False,
                                 return_replicates=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = cl.bootstrap_intervals(y, s, sample_weight=w * factor, n_boot=400,
                                     stratified=False, return_replicates=True)
        ci = cl.auc_ci_bootstrap(y, s, sample_weight=w * factor, n_boot=400, seed=0,
                                 stratified=False)
    assert 300 < ref["used"] < 400 and got["used"] == ref["used"]
    r, g = ref["replicates"]["score"], got["replicates"]["score"]
    np.testing.assert_array_equal(g["used"], r["used"])
    np.testing.assert_array_equal(np.isnan(g["auc"]), ~r["used"])
    np.testing.assert_allclose(g["auc"], r["auc"], rtol=1e-12)
    assert ci == pytest.approx(tuple(cl.auc_ci_bootstrap(
        y, s, sample_weight=w, n_boot=400, seed=0, stratified=False)), rel=1e-12)


def test_scale_dependence_of_platt_targets_is_the_documented_one():
    _, _, w, _, _ = _data()
    y, p, *_ = _data()
    tiny = cl.platt_scaling(y, p, sample_weight=w * 1e-170)
    # (m1 + 1) / (m1 + 2) and 1 / (m0 + 2) with m1, m0 near 1e-170: both targets 1/2,
    # a flat map, as scikit-learn's _sigmoid_calibration gives
    assert tiny.a == pytest.approx(0.0, abs=1e-9)
    assert cl.platt_scaling(y, p, sample_weight=w).a > 1
    assert "pseudo-object" in SCALE_DEPENDENT["platt_scaling"]


# the table rows of the issue about weights
def test_isotonic_calibration_at_every_weight_scale():
    y = [0, 0, 0, 1, 0, 0, 1, 1, 1]
    s = np.arange(9.0)
    w = np.array([1, 1, 1, 1, 1, 2, 1, 1, 1], dtype=float)
    for factor in SCALES:
        m = cl.isotonic_calibration(y, s, sample_weight=w * factor)
        assert m.values.tolist() == [0, 0, 0, 0.25, 0.25, 0.25, 1, 1, 1], factor


@pytest.mark.parametrize("factor", [1e-170, 1e160, 1e307])
def test_agreement_and_cost_functions_at_extreme_weights(factor):
    y, p, w, _, _ = _data()
    pred = (p > 0.5).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (cl.mcc, cl.cohen_kappa, cl.chance_agreement):
            assert f(y, pred, sample_weight=w * factor) == pytest.approx(
                f(y, pred, sample_weight=w), rel=1e-12)
        for f, args in ((cl.h_measure, ()), (cl.minimum_loss, (0.3,)),
                        (cl.brier_score, ())):
            assert f(y, p, *args, sample_weight=w * factor) == pytest.approx(
                f(y, p, *args, sample_weight=w), rel=1e-12)
        got = cl.auc_cost_weights(y, p, sample_weight=w * factor)
        ref = cl.auc_cost_weights(y, p, sample_weight=w)
        np.testing.assert_allclose(got.weight, ref.weight, rtol=1e-12)


# ------------------------------------------------------------- item 3: undefined cases
ONE_CLASS = {"negative": ([1, 1, 1], [0.1, 0.2, 0.3]), "positive": ([0, 0, 0], [0.1, 0.2, 0.3])}
PROBE_REQUIRED = {**REQUIRED, "threshold": 0.3, "threshold_a": 0.3, "threshold_b": 0.5,
                  "q": 0.5, "n_bins": 2}
LABELLED = sorted(n for n, f in PUBLIC.items()
                  if list(inspect.signature(f).parameters)[:1] in (["y_true"], ["rater_a"]))


def probe(name: str, y, s, w=None, **extra):
    """``name`` on labels ``y`` and scores ``s`` (predictions for the confusion
    metrics, a column per class for the multi-class ones), weights ``w``."""
    f = PUBLIC[name]
    params = inspect.signature(f).parameters
    kwargs = {k: v for k, v in PROBE_REQUIRED.items() if k in params}
    kwargs.update(extra)
    if w is not None:
        kwargs["sample_weight"] = w
    second = list(params)[1]
    if second in ("y_pred", "rater_b") and s is not None and np.ndim(s) == 1:
        try:
            s = (np.asarray(s, dtype=float) > 0.25).astype(int)
        except (TypeError, ValueError):
            pass
    if second in ("score_a",):
        kwargs["score_b"] = s
    positional = [kwargs.pop(k) for k in list(params)[2:] if k in kwargs and
                  params[k].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    return f(y, s, *positional, **kwargs)


def test_the_table_names_public_functions():
    assert set(UNDEFINED) <= set(PUBLIC)
    assert {"roc_auc", "roc_curve", "prg_auc", "h_measure", "minimum_loss",
            "calibration_curve", "log_loss", "profit_curve"} <= set(UNDEFINED)


def _expect(name: str, call, missing: str | None):
    """The behaviour the table gives: the raise or the warning, in its one wording."""
    action, _ = UNDEFINED[name]
    what = r".+"
    wording = (ZERO_WEIGHTS.format(what=what) if missing is None
               else re.escape(MISSING_CLASS.format(what="@", missing=missing)).replace("@", what))
    if action == "raise":
        with pytest.raises(ValueError, match=f"^{wording}$"):
            call()
    else:
        with pytest.warns(UndefinedMetricWarning, match=f"^{wording}$"):
            result = call()
        assert all(np.isnan(v).all() for v in flatten(result).values())


@pytest.mark.parametrize("name", sorted(UNDEFINED))
def test_undefined_cases_follow_the_table(name):
    _, needs = UNDEFINED[name]
    f = PUBLIC[name]
    if needs in ("both", "positives"):
        _expect(name, lambda: probe(name, *ONE_CLASS["positive"]), "positive")
    if needs == "both":
        _expect(name, lambda: probe(name, *ONE_CLASS["negative"]), "negative")
    if "sample_weight" in inspect.signature(f).parameters:
        _expect(name, lambda: probe(name, [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8],
                                    np.zeros(4)), None)


def test_functions_outside_the_table_are_defined_on_one_class():
    """Every other labelled function has a value for one class (the confusion
    metrics: cell by cell, 0.0 with a warning where a denominator is zero)."""
    for name in LABELLED:
        if name in UNDEFINED or name.startswith(("ovr_", "ovo_", "pairwise_")):
            continue
        for y, s in ONE_CLASS.values():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                try:
                    probe(name, y, s)
                except ValueError as e:  # only for a reason other than the class
                    assert "is undefined" not in str(e), name


BAD_INPUTS = {
    "empty": ([], [], None),
    "one class": ([1, 1, 1], [0.1, 0.2, 0.3], None),
    "NaN score": ([0, 1, 1, 0], [0.1, np.nan, 0.3, 0.2], None),
    "inf score": ([0, 1, 1, 0], [0.1, np.inf, 0.3, 0.2], None),
    "None labels": (None, [0.1, 0.2], None),
    "None scores": ([0, 1], None, None),
    "2-D": ([[0, 1], [1, 0]], [[0.1, 0.2], [0.3, 0.4]], None),
    "mismatched lengths": ([0, 1, 1], [0.1, 0.2], None),
    "weights of another length": ([0, 1], [0.1, 0.2], [1.0]),
    "negative weight": ([0, 1], [0.1, 0.2], [1.0, -1.0]),
    "NaN weight": ([0, 1], [0.1, 0.2], [1.0, np.nan]),
    "zero weights": ([0, 1], [0.1, 0.2], [0.0, 0.0]),
    "string labels": (["a", "b"], [0.1, 0.2], None),
    "string scores": ([0, 1], ["a", "b"], None),
    "string weights": ([0, 1], [0.1, 0.2], ["a", "b"]),
}
ESCAPES = (IndexError, ZeroDivisionError, KeyError, AttributeError)


@pytest.mark.parametrize("kind", list(BAD_INPUTS))
@pytest.mark.parametrize("name", LABELLED)
def test_no_index_zero_division_key_or_attribute_error_escapes(name, kind):
    y, s, w = BAD_INPUTS[kind]
    if w is not None and "sample_weight" not in inspect.signature(PUBLIC[name]).parameters:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            probe(name, y, s, w)
        except ESCAPES as e:  # pragma: no cover - the failure this test looks for
            pytest.fail(f"{name} on {kind}: {type(e).__name__}: {e}")
        except (ValueError, TypeError):
            pass
