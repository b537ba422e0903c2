"""Tests of course_lib.confusion: syllabus facts F-01..F-07, scikit-learn agreement,
properties, zero denominators and bad input."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

from course_lib import UndefinedMetricWarning
from course_lib.confusion import (
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

N_CASES = 500

# S's accuracy-paradox clinic: 1075 patients, rows true (sick, healthy) as counts.
CLINIC = matrix_from_counts(tp=20, fp=50, fn=5, tn=1000)
ALL_HEALTHY = matrix_from_counts(tp=0, fp=0, fn=25, tn=1050)
# S's 4-class averaging example, rows = true classes A..D, columns = predictions.
FOUR_CLASS = np.array([[100, 80, 10, 10], [0, 9, 0, 1], [0, 1, 8, 1], [0, 1, 0, 9]])


def _as_fraction(x, max_den=10_000):
    return Fraction(x).limit_denominator(max_den)


def _labels_from_counts(tp, fp, fn, tn):
    """Label vectors realizing a binary confusion matrix (class 1 = positive)."""
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


# ------------------------------------------------------------------------- facts


def test_F01_accuracy_paradox_accuracy_is_9488():
    """F-01: TP=20, TN=1000, FN=5, FP=50 of 1075 patients: accuracy 1020/1075 = 94.88%."""
    assert _as_fraction(accuracy(matrix=CLINIC)) == Fraction(1020, 1075)
    assert round(100 * accuracy(matrix=CLINIC), 2) == 94.88
    y_true, y_pred = _labels_from_counts(20, 50, 5, 1000)
    assert accuracy(y_true, y_pred) == accuracy(matrix=CLINIC)


def test_F02_everybody_healthy_scores_9767():
    """F-02: the rule "everybody is healthy" gets 1050/1075 = 97.67%, more than F-01."""
    y_true, _ = _labels_from_counts(20, 50, 5, 1000)
    trivial = accuracy(y_true, np.zeros_like(y_true))
    assert trivial == accuracy(matrix=ALL_HEALTHY)
    assert _as_fraction(trivial) == Fraction(1050, 1075)
    assert round(100 * trivial, 2) == 97.67
    assert trivial > accuracy(matrix=CLINIC)


def test_F03_clinic_precision_2857_recall_08():
    """F-03: precision 20/70 = 0.2857 and recall 20/25 = 0.8 for the clinic matrix."""
    assert _as_fraction(precision(matrix=CLINIC)) == Fraction(2, 7)
    assert round(precision(matrix=CLINIC), 4) == 0.2857
    assert recall(matrix=CLINIC) == 0.8
    y_true, y_pred = _labels_from_counts(20, 50, 5, 1000)
    assert precision(y_true, y_pred) == precision(matrix=CLINIC)
    assert recall(y_true, y_pred) == recall(matrix=CLINIC)
    # The trivial rule: no positive answer, so precision is undefined (0.0 + warning).
    with pytest.warns(UndefinedMetricWarning, match="precision"):
        assert precision(matrix=ALL_HEALTHY) == 0.0
    assert recall(matrix=ALL_HEALTHY) == 0.0


def test_F04_search_engine_precision_two_thirds_recall_one_third():
    """F-04: 30 pages returned, 20 relevant, 40 relevant missed: P = 2/3, R = 1/3."""
    m = matrix_from_counts(tp=20, fp=10, fn=40, tn=0)
    assert _as_fraction(precision(matrix=m)) == Fraction(2, 3)
    assert _as_fraction(recall(matrix=m)) == Fraction(1, 3)


def test_F05_four_class_averages_macro_micro_weighted_and_tp_weighted():
    """F-05: macro recall 0.775, micro recall 126/230 = 0.5478; support-weighted recall
    equals micro; S's "weighted" 0.576 weights the classes by their TP counts."""
    per_class = recall(matrix=FOUR_CLASS, average=None)
    np.testing.assert_allclose(per_class, [0.5, 0.9, 0.8, 0.9])
    macro = recall(matrix=FOUR_CLASS, average="macro")
    micro = recall(matrix=FOUR_CLASS, average="micro")
    weighted = recall(matrix=FOUR_CLASS, average="weighted")
    assert macro == pytest.approx(0.775, abs=1e-15)
    assert _as_fraction(micro) == Fraction(126, 230)
    assert round(micro, 4) == 0.5478
    # Support-weighted recall: sum_k n_k (tp_k / n_k) / n = sum_k tp_k / n = micro.
    assert weighted == pytest.approx(micro, abs=1e-15)
    # S's value: weights = TP counts (100, 9, 8, 9) out of 126, not the supports.
    c = per_class_counts(FOUR_CLASS)
    tp_weighted = float(np.dot(c.tp, per_class) / c.tp.sum())
    assert _as_fraction(tp_weighted) == Fraction(726, 1260)
    assert round(tp_weighted, 3) == 0.576
    # TP weighting favours well-recalled classes (0.9 weighs by 9, 0.5 by 100 of 200
    # objects), so it exceeds the support-weighted value.
    assert tp_weighted > weighted
    # Labels give the same numbers as the matrix.
    y_true = np.repeat(np.repeat(list("ABCD"), 4), FOUR_CLASS.ravel())
    y_pred = np.repeat(np.tile(list("ABCD"), 4), FOUR_CLASS.ravel())
    np.testing.assert_array_equal(confusion_matrix(y_true, y_pred), FOUR_CLASS)
    assert recall(y_true, y_pred, average="macro") == macro
    assert recall(y_true, y_pred, average="micro") == micro


def test_F05_per_class_counts_follow_S_formulas():
    """F-05 (setup): tp/fp/fn/tn per class from the 4 x 4 matrix (S's formulas)."""
    c = per_class_counts(FOUR_CLASS)
    np.testing.assert_array_equal(c.tp, [100, 9, 8, 9])
    np.testing.assert_array_equal(c.fn, [100, 1, 2, 1])
    np.testing.assert_array_equal(c.fp, [0, 82, 10, 12])
    np.testing.assert_array_equal(c.tp + c.fp + c.fn + c.tn, [230] * 4)


def test_F06_spam_mcc_is_089999_and_f1_is_09():
    """F-06: TP=90, FP=10, FN=10, TN=999890: MCC = 8999/9999 = 0.89999, F1 = 0.9."""
    m = matrix_from_counts(tp=90, fp=10, fn=10, tn=999890)
    value = mcc(matrix=m)
    assert value == pytest.approx(8999 / 9999, rel=1e-14)
    assert round(value, 5) == 0.89999
    assert f_beta(matrix=m) == pytest.approx(0.9, abs=1e-15)
    assert precision(matrix=m) == recall(matrix=m) == 0.9
    assert round(specificity(matrix=m), 4) == 1.0


def test_F07_credit_committee_kappa_is_04():
    """F-07: two experts on 50 applications, 20/5/10/15: p0 = 0.7, pe = 0.5, kappa 0.4."""
    m = np.array([[20, 5], [10, 15]])
    assert accuracy(matrix=m) == 0.7
    assert chance_agreement(matrix=m) == 0.5
    assert cohen_kappa(matrix=m) == pytest.approx(0.4, abs=1e-15)
    # The same from the two experts' decisions (1 = give the loan).
    expert1 = np.repeat([1, 1, 0, 0], [20, 5, 10, 15])
    expert2 = np.repeat([1, 0, 1, 0], [20, 5, 10, 15])
    assert cohen_kappa(expert1, expert2) == pytest.approx(0.4, abs=1e-15)
    assert cohen_kappa(expert2, expert1) == pytest.approx(0.4, abs=1e-15)


def test_S_f1_worked_pairs():
    """S's pairs: P=0.05,R=1 -> F1 ~ 0.095; P=0.2,R=1 -> 1/3; P=0.2,R=0.3 -> 0.24."""
    cases = [
        ((1, 19, 0), Fraction(2, 21)),
        ((1, 4, 0), Fraction(1, 3)),
        ((3, 12, 7), Fraction(6, 25)),
    ]
    for (tp, fp, fn), expected in cases:
        m = matrix_from_counts(tp=tp, fp=fp, fn=fn, tn=0)
        p, r = precision(matrix=m), recall(matrix=m)
        assert f_beta(matrix=m) == pytest.approx(float(expected), abs=1e-15)
        assert f_beta(matrix=m) == pytest.approx(2 * p * r / (p + r), abs=1e-15)
    assert round(f_beta(matrix=matrix_from_counts(tp=1, fp=19, fn=0, tn=0)), 3) == 0.095


def test_slides_print_the_transpose():
    """S's binary tables have rows = the algorithm's answer; ours rows = the truth."""
    slide = np.array([[20, 50], [5, 1000]])  # rows a(x)=1, a(x)=0; columns y=1, y=0
    y_true, y_pred = _labels_from_counts(20, 50, 5, 1000)
    ours = confusion_matrix(y_true, y_pred, labels=[1, 0])
    np.testing.assert_array_equal(ours, slide.T)
    np.testing.assert_array_equal(confusion_matrix(y_true, y_pred), CLINIC)


# ------------------------------------------------------------- scikit-learn agreement


def _random_case(rng, k):
    """Random labels with heavy ties (k classes) and, half the time, weights."""
    n = int(rng.integers(1, 40))
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, k, n))
    w = None
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            w = rng.integers(0, 4, n).astype(float)
        else:
            w = rng.random(n) * (rng.random(n) > 0.2)
        if w.sum() == 0:
            w[0] = 1.0
    return y_true, y_pred, w


def _cases(kind):
    rng = np.random.default_rng(2024 if kind == "binary" else 4202)
    for _ in range(N_CASES):
        k = 2 if kind == "binary" else int(rng.integers(3, 7))
        yield _random_case(rng, k)


@pytest.fixture(autouse=True)
def _quiet_sklearn():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", skm._classification.UndefinedMetricWarning)
        warnings.filterwarnings("ignore", "A single label was found", UserWarning)
        warnings.filterwarnings("ignore", "y_pred contains classes not in y_true", UserWarning)
        yield


def _same(ours, theirs):
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_confusion_matrix_and_accuracy_match_sklearn(kind):
    for y_true, y_pred, w in _cases(kind):
        np.testing.assert_array_equal(
            confusion_matrix(y_true, y_pred, sample_weight=w),
            skm.confusion_matrix(y_true, y_pred, sample_weight=w),
        )
        _same(
            accuracy(y_true, y_pred, sample_weight=w),
            skm.accuracy_score(y_true, y_pred, sample_weight=w),
        )


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_precision_recall_fbeta_match_sklearn_for_every_average(kind):
    averages = ["binary", "macro", "micro", "weighted", None]
    if kind == "multiclass":
        averages.remove("binary")
    for i, (y_true, y_pred, w) in enumerate(_cases(kind)):
        beta = (0.5, 1.0, 2.0)[i % 3]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            for average in averages:
                p, r, f, _ = skm.precision_recall_fscore_support(
                    y_true, y_pred, average=average, beta=beta, sample_weight=w
                )
                kw = dict(average=average, sample_weight=w)
                _same(precision(y_true, y_pred, **kw), p)
                _same(recall(y_true, y_pred, **kw), r)
                _same(f_beta(y_true, y_pred, beta=beta, **kw), f)


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_specificity_matches_sklearn_multilabel_confusion_matrix(kind):
    for y_true, y_pred, w in _cases(kind):
        mcm = skm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=w)
        tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            per_class = specificity(y_true, y_pred, sample_weight=w, average=None)
            micro = specificity(y_true, y_pred, sample_weight=w, average="micro")
        expected = np.divide(tn, tn + fp, out=np.zeros(tn.size), where=(tn + fp) > 0)
        _same(per_class, expected)
        pooled = (tn + fp).sum()
        _same(micro, tn.sum() / pooled if pooled > 0 else 0.0)
        if kind == "binary":
            # Binary specificity is the recall of class 0.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                binary = specificity(y_true, y_pred, sample_weight=w)
            _same(binary, skm.recall_score(y_true, y_pred, pos_label=0, sample_weight=w))


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_balanced_accuracy_mcc_kappa_match_sklearn(kind):
    for y_true, y_pred, w in _cases(kind):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            ours = [
                balanced_accuracy(y_true, y_pred, sample_weight=w),
                mcc(y_true, y_pred, sample_weight=w),
                cohen_kappa(y_true, y_pred, sample_weight=w),
            ]
        _same(ours[0], skm.balanced_accuracy_score(y_true, y_pred, sample_weight=w))
        _same(ours[1], skm.matthews_corrcoef(y_true, y_pred, sample_weight=w))
        kappa = skm.cohen_kappa_score(y_true, y_pred, sample_weight=w)
        # scikit-learn gives nan when p_e = 1; our documented value is 0.0.
        _same(ours[2], 0.0 if np.isnan(kappa) else kappa)


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_log_loss_matches_sklearn(kind):
    rng = np.random.default_rng(77 if kind == "binary" else 78)
    for _ in range(N_CASES):
        n = int(rng.integers(1, 40))
        w = rng.random(n) + 0.01 if rng.random() < 0.5 else None
        if kind == "binary":
            y = rng.integers(0, 2, n)
            prob = rng.choice([0.0, 0.1, 0.5, 0.9, 1.0, rng.random()], n)
            ours = log_loss(y, prob, sample_weight=w)
            theirs = skm.log_loss(y, prob, sample_weight=w, labels=[0, 1])
        else:
            k = int(rng.integers(3, 7))
            y = rng.integers(0, k, n)
            prob = rng.dirichlet(np.full(k, 0.5), n)
            prob[rng.random((n, k)) < 0.2] = 0.0  # exact zeros, clipped
            empty = prob.sum(axis=1) == 0
            prob[empty, 0] = 1.0
            prob /= prob.sum(axis=1, keepdims=True)
            ours = log_loss(y, prob, labels=np.arange(k), sample_weight=w)
            theirs = skm.log_loss(y, prob, sample_weight=w, labels=np.arange(k))
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


# -------------------------------------------------------------------- properties


@st.composite
def label_pairs(draw, max_classes=5):
    k = draw(st.integers(1, max_classes))
    n = draw(st.integers(1, 30))
    y_true = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return np.array(y_true), np.array(y_pred)


@given(label_pairs())
def test_micro_precision_recall_f_equal_accuracy_and_weighted_recall_equals_micro(pair):
    y_true, y_pred = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        acc = accuracy(y_true, y_pred)
        for metric in (precision, recall, f_beta):
            assert metric(y_true, y_pred, average="micro") == pytest.approx(acc, abs=1e-12)
        assert recall(y_true, y_pred, average="weighted") == pytest.approx(acc, abs=1e-12)


@given(label_pairs())
def test_kappa_and_mcc_are_symmetric_and_bounded(pair):
    y_true, y_pred = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        k1, k2 = cohen_kappa(y_true, y_pred), cohen_kappa(y_pred, y_true)
        m1, m2 = mcc(y_true, y_pred), mcc(y_pred, y_true)
    assert k1 == pytest.approx(k2, abs=1e-12)
    assert m1 == pytest.approx(m2, abs=1e-12)
    assert -1 - 1e-12 <= k1 <= 1 + 1e-12
    assert -1 - 1e-12 <= m1 <= 1 + 1e-12


@given(
    st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50),
    st.sampled_from([0.25, 0.5, 1.0, 2.0, 4.0]),
)
def test_binary_metrics_from_counts_obey_their_identities(tp, fp, fn, tn, beta):
    if tp + fp + fn + tn == 0:
        tn = 1
    m = matrix_from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        p, r, f = precision(matrix=m), recall(matrix=m), f_beta(matrix=m, beta=beta)
        spec = specificity(matrix=m)
        ba = balanced_accuracy(matrix=m)
    if tp > 0:
        # F-beta is a weighted harmonic mean: between P and R, formula in P and R.
        assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
        assert f == pytest.approx((1 + beta**2) * p * r / (beta**2 * p + r), rel=1e-12)
    if tp + fn > 0 and tn + fp > 0:
        assert ba == pytest.approx((r + spec) / 2, abs=1e-12)
    # Swapping the classes turns recall into specificity.
    swapped = matrix_from_counts(tp=tn, fp=fn, fn=fp, tn=tp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert recall(matrix=swapped) == spec


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_log_loss_grows_as_the_truth_gets_less_probable(p, q):
    """A smaller probability for the true class never costs less; a sure mistake costs
    -log(eps) exactly (the clip)."""
    lo, hi = min(p, q), max(p, q)
    assert log_loss([1], [lo]) >= log_loss([1], [hi])
    eps = float(np.finfo(np.float64).eps)
    assert log_loss([1], [0.0]) == pytest.approx(-np.log(eps))
    assert log_loss([0], [1.0], eps=1e-3) == pytest.approx(-np.log(1e-3))
    assert log_loss([1], [0.0], eps=0) == np.inf


def test_integer_weights_equal_replicated_objects():
    rng = np.random.default_rng(5)
    y_true, y_pred = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    w = rng.integers(0, 4, 50)
    rt, rp = np.repeat(y_true, w), np.repeat(y_pred, w)
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred, sample_weight=w), confusion_matrix(rt, rp)
    )
    for metric in (balanced_accuracy, mcc, cohen_kappa):
        assert metric(y_true, y_pred, sample_weight=w) == pytest.approx(metric(rt, rp), rel=1e-12)
    assert log_loss(y_true % 2, (y_pred + 0.5) / 4, sample_weight=w) == pytest.approx(
        log_loss(rt % 2, (rp + 0.5) / 4), rel=1e-12
    )


# ------------------------------------------------------------ zero denominators


def test_zero_denominators_give_zero_and_warn():
    only_negatives = ([0, 0, 0], [0, 1, 0])
    with pytest.warns(UndefinedMetricWarning, match="recall is undefined"):
        assert recall(*only_negatives) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="precision is undefined"):
        assert precision([0, 1, 1], [0, 0, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="F-score"):
        assert f_beta([0, 0], [0, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="specificity"):
        assert specificity([1, 1], [1, 0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="MCC"):
        assert mcc([1, 1, 1], [1, 0, 1]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="kappa"):
        assert cohen_kappa(["a", "a"], ["a", "a"]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="left out"):
        # class 2 is only predicted: the mean recall is over classes 0 and 1
        assert balanced_accuracy([0, 0, 1, 1], [0, 2, 1, 1]) == 0.75
    with pytest.warns(UndefinedMetricWarning, match="accuracy"):
        assert accuracy(matrix=[[0, 0], [0, 0]]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="precision"):
        per_class = precision([0, 1, 2], [0, 0, 2], average=None)
    np.testing.assert_allclose(per_class, [0.5, 0.0, 1.0])


def test_no_warning_when_defined():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        precision(matrix=CLINIC)
        f_beta([1, 0, 0], [0, 1, 0])  # tp = 0 but fp + fn > 0: F = 0 is defined
        assert f_beta([1, 0, 0], [0, 1, 0]) == 0.0


# ------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: accuracy([0, 1], [0]), "different lengths"),
        (lambda: accuracy(matrix=[[1, 2, 3]]), "square"),
        (lambda: accuracy(matrix=[[1, -2], [0, 1]]), "non-negative"),
        (lambda: accuracy(matrix=[[1, np.nan], [0, 1]]), "NaN"),
        (lambda: accuracy([0, 1], [0, 1], matrix=[[1, 0], [0, 1]]), "not both"),
        (lambda: accuracy(), "pass y_true and y_pred"),
        (lambda: precision([0, 1, 2], [0, 1, 1]), "0 and 1"),
        (lambda: precision(matrix=FOUR_CLASS), "2 x 2"),
        (lambda: precision([0, 1], [0, 1], average="mean"), "average must be"),
        (lambda: recall(["a", "b"], ["a", "c"], labels=["a", "b", "c"]), "exactly 2 labels"),
        (lambda: f_beta([0, 1], [0, 1], beta=-1), "beta"),
        (lambda: confusion_matrix([0, 1, 2], [0, 1, 1], labels=[0, 1]), r"not in labels: \[2\]"),
        (lambda: confusion_matrix([0, 1], [0, 1], labels=[0, 1, 1]), "duplicates"),
        (lambda: confusion_matrix([0.0, np.nan], [0, 1]), "NaN"),
        (lambda: confusion_matrix([[0, 1]], [[0, 1]]), "1-D"),
        (lambda: confusion_matrix([], []), "empty"),
        (lambda: confusion_matrix(["a", "b"], [0, 1]), "different kinds"),
        (lambda: confusion_matrix([0, 1], [0, 1], sample_weight=[1, -1]), "non-negative"),
        (lambda: log_loss([0, 1], [0.2, 1.2]), r"\[0, 1\]; found 1.2"),
        (lambda: log_loss([0, 1], [-0.1, 0.5]), "found -0.1"),
        (lambda: log_loss([0, 1], [np.nan, 0.5]), "NaN"),
        (lambda: log_loss([0, 2], [0.1, 0.5]), "0 and 1"),
        (lambda: log_loss([0, 1], [0.1, 0.5], eps=0.5), "eps"),
        (lambda: log_loss([0, 1], [[0.5, 0.4], [0.5, 0.5]]), "sum to 1"),
        (lambda: log_loss([0, 1], [[0.2, 0.3, 0.5]] * 2), "columns"),
        (lambda: log_loss([0, 1], [0.1, 0.5], labels=[0, 1]), "2-D"),
        (lambda: log_loss([0, 1], [0.1, 0.5], sample_weight=[0, 0]), "every sample weight is zero"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_inputs_are_not_modified():
    y_true = np.array([0, 1, 1, 0, 1])
    y_pred = np.array([0, 1, 0, 0, 1])
    w = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
    prob = np.array([0.0, 0.9, 0.4, 0.2, 1.0])
    m = FOUR_CLASS.copy()
    copies = [a.copy() for a in (y_true, y_pred, w, prob, m)]
    plain = (accuracy, balanced_accuracy, mcc, chance_agreement, cohen_kappa)
    averaged = (precision, recall, specificity, f_beta)
    for metric in plain + averaged:
        metric(y_true, y_pred, sample_weight=w)
    for metric in plain:
        metric(matrix=m)
    for metric in averaged:
        metric(matrix=m, average="macro")
    per_class_counts(m)
    log_loss(y_true, prob, sample_weight=w)
    for a, c in zip((y_true, y_pred, w, prob, m), copies):
        np.testing.assert_array_equal(a, c)


def test_results_are_python_floats():
    assert type(accuracy(matrix=CLINIC)) is float
    assert type(precision(matrix=CLINIC)) is float
    assert type(mcc(matrix=CLINIC)) is float
    assert type(log_loss([0, 1], [0.2, 0.7])) is float
    assert type(recall(matrix=FOUR_CLASS, average="weighted")) is float
