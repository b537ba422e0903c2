"""Tests of course_lib.multiclass: one-vs-rest and one-vs-one AUC.

Oracle: :func:`sklearn.metrics.roc_auc_score` with ``multi_class="ovr"`` / ``"ovo"`` on
random probability matrices built with deliberate ties (rows are small integer vectors
divided by their sum, so equal vectors, and equal ratios such as 1/2 and 2/4, give equal
probabilities) and with weights (scikit-learn's ovo takes no weights: integer weights
are checked against rows repeated that many times). Properties with hypothesis.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import label_binarize

import course_lib as cl
from course_lib.multiclass import ovo_auc, ovr_auc, ovr_roc_curves, pairwise_auc

TOL = 1e-12


def tied_case(rng, c, n, *, top=3):
    """Labels 0..c-1 (every class present) and a probability matrix with many ties."""
    y = np.concatenate([np.arange(c), rng.integers(0, c, n - c)])
    rng.shuffle(y)
    counts = rng.integers(0, top + 1, size=(n, c)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1.0
    return y, counts / counts.sum(axis=1, keepdims=True)


# ------------------------------------------------------------- against scikit-learn
def test_ovr_matches_sklearn_on_random_tied_weighted_cases():
    """roc_auc_score(multi_class="ovr", average=macro/weighted/None, sample_weight) and
    the micro average of label_binarize (scikit-learn 1.9.1), 250 cases, within 1e-12."""
    rng = np.random.default_rng(1601)
    for case in range(200):
        c = int(rng.integers(3, 7))
        y, P = tied_case(rng, c, int(rng.integers(c + 2, 60)), top=int(rng.integers(1, 5)))
        w = None if case % 3 == 0 else rng.choice([0.0, 0.5, 1.0, 2.5], size=y.size)
        for j in range(c):  # every class keeps a positive total weight
            if w is not None and w[y == j].sum() == 0:
                w[np.flatnonzero(y == j)[0]] = 1.0
        for average in ("macro", "weighted", "micro"):
            ours = ovr_auc(y, P, average=average, sample_weight=w)
            theirs = roc_auc_score(y, P, multi_class="ovr", average=average, sample_weight=w)
            assert ours == pytest.approx(theirs, abs=TOL), (case, average)
        if case % 5:
            continue  # scikit-learn is slow: the two other spellings on every fifth case
        micro = roc_auc_score(label_binarize(y, classes=np.arange(c)), P, average="micro",
                              sample_weight=w)
        assert ovr_auc(y, P, average="micro", sample_weight=w) == pytest.approx(micro, abs=TOL)
        per_class = roc_auc_score(y, P, multi_class="ovr", average=None, sample_weight=w)
        np.testing.assert_allclose(ovr_auc(y, P, average=None, sample_weight=w), per_class,
                                   rtol=0, atol=TOL)


def test_ovo_matches_sklearn_on_random_tied_cases_weights_as_repeats():
    """roc_auc_score(multi_class="ovo", average="macro"/"weighted") (scikit-learn
    1.9.1), 200 cases with ties; integer weights equal rows repeated that many times
    (every fourth case unweighted, compared directly)."""
    rng = np.random.default_rng(1602)
    for case in range(200):
        c = int(rng.integers(3, 6))
        y, P = tied_case(rng, c, int(rng.integers(c + 2, 40)), top=int(rng.integers(1, 5)))
        w = rng.integers(0, 4, size=y.size) if case % 4 else np.ones(y.size, dtype=int)
        for j in range(c):
            if w[y == j].sum() == 0:
                w[np.flatnonzero(y == j)[0]] = 1
        rep_y, rep_P = np.repeat(y, w), np.repeat(P, w, axis=0)
        for average in ("macro", "weighted"):
            repeated = roc_auc_score(rep_y, rep_P, multi_class="ovo", average=average)
            if case % 4 == 0:
                assert ovo_auc(y, P, average=average) == pytest.approx(repeated, abs=TOL)
            weighted = ovo_auc(y, P, average=average, sample_weight=w)
            assert weighted == pytest.approx(repeated, abs=TOL), (case, average)
            exact = ovo_auc(y, P, average=average, sample_weight=w, exact=True)
            assert exact == ovo_auc(rep_y, rep_P, average=average, exact=True)
            assert float(exact) == pytest.approx(repeated, abs=TOL)


def test_string_labels_and_label_order_follow_sklearn():
    """Columns follow the sorted labels, as in scikit-learn; explicit labels reorder."""
    rng = np.random.default_rng(3)
    y, P = tied_case(rng, 4, 40)
    names = np.array(["ant", "bee", "cat", "dog"])
    ys = names[y]
    for multi_class in ("ovr", "ovo"):
        theirs = roc_auc_score(ys, P, multi_class=multi_class, labels=names)
        func = ovr_auc if multi_class == "ovr" else ovo_auc
        assert func(ys, P) == pytest.approx(theirs, abs=TOL)
        order = [2, 0, 3, 1]
        assert func(ys, P[:, order], labels=names[order]) == pytest.approx(theirs, abs=TOL)


def test_any_hashable_labels_with_explicit_labels():
    """Labels that cannot be sorted (None next to strings) work when listed."""
    y = np.array([None, "x", "x", None, 3, 3], dtype=object)
    P = np.array([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.5, 0.25, 0.25],
                  [0.25, 0.25, 0.5], [0.25, 0.25, 0.5], [0.0, 0.5, 0.5]])
    got = ovr_auc(y, P, labels=[None, "x", 3], average=None, exact=True)
    codes = np.array([0, 1, 1, 0, 2, 2])
    assert list(got) == [cl.roc_auc(codes == j, P[:, j], exact=True) for j in range(3)]
    with pytest.raises(ValueError, match="cannot be ordered"):
        ovr_auc(y, P)


# ------------------------------------------------------------------ exact results
def test_exact_fractions_agree_with_floats_and_the_binary_auc():
    rng = np.random.default_rng(5)
    y, P = tied_case(rng, 4, 30)
    w = rng.integers(1, 4, size=y.size)
    per = ovr_auc(y, P, average=None, exact=True, sample_weight=w)
    assert all(isinstance(v, Fraction) for v in per)
    for j in range(4):
        assert per[j] == cl.roc_auc(y == j, P[:, j], sample_weight=w, exact=True)
    for average in ("macro", "weighted", "micro"):
        e = ovr_auc(y, P, average=average, exact=True, sample_weight=w)
        assert isinstance(e, Fraction)
        assert float(e) == pytest.approx(ovr_auc(y, P, average=average, sample_weight=w),
                                         abs=1e-15)
    table = pairwise_auc(y, P, exact=True)
    assert table.directed.dtype == object and isinstance(table.averaged[0, 1], Fraction)
    with pytest.raises(ValueError, match="integer sample weights"):
        ovo_auc(y, P, sample_weight=np.full(y.size, 0.5), exact=True)


def test_weighted_ovr_is_prevalence_weighted_mean():
    """Provost and Domingos (2000, section 6.2): weights = class frequencies."""
    rng = np.random.default_rng(6)
    y, P = tied_case(rng, 5, 80)
    per = ovr_auc(y, P, average=None, exact=True)
    n = np.bincount(y)
    assert ovr_auc(y, P, average="weighted", exact=True) == sum(
        Fraction(int(k)) * a for k, a in zip(n, per)) / y.size
    assert ovr_auc(y, P, exact=True) == sum(per) / 5


# ------------------------------------------------------------------- properties
@st.composite
def grid_cases(draw, min_classes=3, max_classes=5):
    """Labels (every class present), scores on the grid k/16 (many ties), integer
    weights; rows are NOT normalised (use probabilities=False)."""
    c = draw(st.integers(min_classes, max_classes))
    extra = draw(st.lists(st.integers(0, c - 1), min_size=0, max_size=25))
    y = np.array(list(range(c)) + extra)
    k = draw(st.lists(st.lists(st.integers(0, 16), min_size=c, max_size=c),
                      min_size=y.size, max_size=y.size))
    w = draw(st.lists(st.integers(1, 4), min_size=y.size, max_size=y.size))
    return y, np.array(k, dtype=float) / 16, np.array(w)


@given(grid_cases(), st.randoms(use_true_random=False))
def test_permuting_classes_consistently_changes_nothing(case, random):
    """Relabelling the classes (the labels and the columns together) leaves M, the
    three ovr averages and the per-class areas (permuted) unchanged, exactly."""
    y, S, w = case
    c = S.shape[1]
    perm = list(range(c))
    random.shuffle(perm)
    inverse = np.argsort(perm)  # new class of old class j is inverse[j]
    y2, S2 = inverse[y], S[:, perm]
    kw = {"exact": True, "probabilities": False, "sample_weight": w}
    for average in ("macro", "weighted"):
        assert ovo_auc(y, S, average=average, **kw) == ovo_auc(y2, S2, average=average, **kw)
    for average in ("macro", "weighted", "micro"):
        assert ovr_auc(y, S, average=average, **kw) == ovr_auc(y2, S2, average=average, **kw)
    assert list(ovr_auc(y, S, average=None, **kw)[perm]) == list(
        ovr_auc(y2, S2, average=None, **kw))


@given(grid_cases(2, 2), st.booleans())
def test_two_classes_reduce_to_the_binary_auc(case, weighted):
    """Hand and Till (2001): M reduces to the AUC for two classes; so do the macro and
    weighted ovr averages. Scores on the grid k/16, so 1 - s is exact."""
    y, S, w = case
    s = S[:, 1]
    P = np.column_stack([1 - s, s])
    sw = w if weighted else None
    auc = cl.roc_auc(y == 1, s, sample_weight=sw, exact=True)
    kw = {"exact": True, "sample_weight": sw}
    assert ovo_auc(y, P, **kw) == auc
    assert ovo_auc(y, P, average="weighted", **kw) == auc
    assert list(ovr_auc(y, P, average=None, **kw)) == [auc, auc]
    assert ovr_auc(y, P, **kw) == ovr_auc(y, P, average="weighted", **kw) == auc


@given(grid_cases(), st.lists(st.integers(1, 5), min_size=5, max_size=5),
       st.lists(st.integers(-3, 3), min_size=5, max_size=5))
def test_classwise_increasing_transforms_keep_everything_but_micro(case, a, b):
    """A strictly increasing map of each column (its own map per class) keeps every
    A(i|j), every per-class ovr area, M and the macro/weighted averages: they only rank
    within a column."""
    y, S, w = case
    c = S.shape[1]
    k = np.rint(S * 16)
    T = np.column_stack([a[j] * k[:, j] ** 3 + b[j] * 100 for j in range(c)])
    kw = {"exact": True, "probabilities": False, "sample_weight": w}
    before, after = pairwise_auc(y, S, **kw), pairwise_auc(y, T, **kw)
    assert all(before.directed[i, j] == after.directed[i, j]
               for i in range(c) for j in range(c) if i != j)
    for average in ("macro", "weighted"):
        assert ovo_auc(y, S, average=average, **kw) == ovo_auc(y, T, average=average, **kw)
    for average in ("macro", "weighted"):
        assert ovr_auc(y, S, average=average, **kw) == ovr_auc(y, T, average=average, **kw)


def test_micro_average_is_not_invariant_to_classwise_transforms():
    """The micro average ranks entries of different columns against each other."""
    y = np.array([0, 0, 1, 1])
    S = np.array([[0.6, 0.4], [0.7, 0.3], [0.2, 0.8], [0.1, 0.9]])
    T = S.copy()
    T[:, 1] = T[:, 1] / 4  # increasing in column 1
    kw = {"exact": True, "probabilities": False}
    assert ovr_auc(y, S, average="macro", **kw) == ovr_auc(y, T, average="macro", **kw) == 1
    assert ovr_auc(y, S, average="micro", **kw) == 1
    assert ovr_auc(y, T, average="micro", **kw) == Fraction(31, 32)


@given(grid_cases())
def test_ovr_area_is_weighted_mean_of_directed_pairwise_areas(case):
    """The negatives of class i are the union of the other classes, so
    AUC_ovr(i) = sum_j W_j A(i|j) / sum_j W_j (j != i), exactly."""
    y, S, w = case
    kw = {"exact": True, "probabilities": False, "sample_weight": w}
    per = ovr_auc(y, S, average=None, **kw)
    t = pairwise_auc(y, S, **kw)
    c = S.shape[1]
    for i in range(c):
        others = [j for j in range(c) if j != i]
        total = sum(int(t.weights[j]) for j in others)
        assert per[i] == sum(int(t.weights[j]) * t.directed[i, j] for j in others) / total


@given(grid_cases(), st.integers(0, 4), st.integers(2, 6))
def test_reweighting_one_class_keeps_m(case, target, factor):
    """Multiplying the weight of every object of one class by the same factor keeps
    every A(i|j) and M exactly (Hand and Till: M does not depend on class sizes)."""
    y, S, w = case
    target %= S.shape[1]
    w2 = np.where(y == target, w * factor, w)
    kw = {"exact": True, "probabilities": False}
    a = pairwise_auc(y, S, sample_weight=w, **kw)
    b = pairwise_auc(y, S, sample_weight=w2, **kw)
    c = S.shape[1]
    assert all(a.directed[i, j] == b.directed[i, j]
               for i in range(c) for j in range(c) if i != j)
    assert ovo_auc(y, S, sample_weight=w, **kw) == ovo_auc(y, S, sample_weight=w2, **kw)


def test_reweighting_one_class_moves_the_ovr_area_of_another():
    """... while the ovr area of a class follows the mix of the others."""
    y = np.array([0, 0, 1, 1, 2, 2])
    S = np.array([[0.9, 0, 0], [0.5, 0, 0], [0.7, 0, 0], [0.1, 0, 0],
                  [0.2, 0, 0], [0.3, 0, 0]]) + np.array([0, 0.5, 0.5])
    kw = {"exact": True, "probabilities": False}
    base = ovr_auc(y, S, average=None, **kw)[0]
    heavier_1 = ovr_auc(y, S, average=None, sample_weight=[1, 1, 5, 5, 1, 1], **kw)[0]
    assert base == Fraction(7, 8) and heavier_1 == Fraction(19, 24)
    assert ovo_auc(y, S, **kw) == ovo_auc(y, S, sample_weight=[1, 1, 5, 5, 1, 1], **kw)


def test_ovr_roc_curves_are_the_binary_curves():
    rng = np.random.default_rng(8)
    y, P = tied_case(rng, 3, 30)
    curves = ovr_roc_curves(y, P)
    assert list(curves) == [0, 1, 2]
    for j, curve in curves.items():
        ref = cl.roc_curve(y == j, P[:, j])
        assert np.array_equal(curve.fpr, ref.fpr) and np.array_equal(curve.tpr, ref.tpr)


# ------------------------------------------------------------------- validation
def test_inputs_are_not_modified():
    rng = np.random.default_rng(9)
    y, P = tied_case(rng, 3, 20)
    w = rng.random(20)
    copies = (y.copy(), P.copy(), w.copy())
    ovr_auc(y, P, sample_weight=w, average="micro")
    ovo_auc(y, P, sample_weight=w)
    pairwise_auc(y, P, sample_weight=w)
    ovr_roc_curves(y, P, sample_weight=w)
    for before, after in zip(copies, (y, P, w)):
        assert np.array_equal(before, after)


P3 = np.array([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])


@pytest.mark.parametrize("kwargs, message", [
    ({"y_true": [0, 1, 2], "y_score": P3[:, :2]}, "2 columns, but there are 3 classes"),
    ({"y_true": [0, 1, 2], "y_score": P3[0]}, "must be 2-D, one column per class"),
    ({"y_true": [0, 1], "y_score": P3}, "different lengths: 2 and 3"),
    ({"y_true": [0, 0, 0], "y_score": P3[:, :1]}, "at least 2 classes"),
    ({"y_true": [0, 1, 1], "y_score": P3, "labels": [0, 1, 2]},
     "class 2 has no samples"),
    ({"y_true": [0, 1, 2], "y_score": P3, "sample_weight": [1, 0, 1]},
     "class 1 has no samples of positive weight"),
    ({"y_true": [0, 1, 5], "y_score": P3, "labels": [0, 1, 2]}, r"not in labels: \[5\]"),
    ({"y_true": [0, 1, 2], "y_score": P3, "labels": [0, 1, 1]}, "duplicates"),
    ({"y_true": [0, 1, 2], "y_score": P3, "labels": "abc"}, "the string"),
    ({"y_true": [0, 1, 2], "y_score": P3 * 2}, "row 0 sums to 2.0"),
    ({"y_true": [0, 1, 2], "y_score": P3 - 0.25 * np.eye(3)[[1, 2, 0]] * 2},
     "negative entries"),
    ({"y_true": [0, 1, 2], "y_score": np.where(P3 == 0.5, np.nan, P3)}, "NaN or infinite"),
    ({"y_true": [0, 1, 2], "y_score": P3.astype(str)}, "must be numeric"),
    ({"y_true": [[0, 1, 2]], "y_score": P3}, "y_true must be 1-D"),
    ({"y_true": [], "y_score": np.zeros((0, 2))}, "y_true is empty"),
    ({"y_true": [0, 1, 2], "y_score": P3, "sample_weight": [1, -1, 1]}, "non-negative"),
    ({"y_true": [0, 1, 2], "y_score": P3, "exact": "yes"}, "exact must be True or False"),
    ({"y_true": [0, 1, 2], "y_score": P3, "probabilities": 1},
     "probabilities must be True or False"),
])
def test_validation_messages(kwargs, message):
    for func in (ovr_auc, ovo_auc, pairwise_auc):
        with pytest.raises(ValueError, match=message):
            func(**kwargs)


def test_unknown_average_is_named():
    with pytest.raises(ValueError, match="'macro', 'weighted', 'micro' or None; got 'samples'"):
        ovr_auc([0, 1, 2], P3, average="samples")
    with pytest.raises(ValueError, match="'macro' or 'weighted'; got 'micro'"):
        ovo_auc([0, 1, 2], P3, average="micro")


def test_probabilities_false_accepts_any_scores():
    S = np.array([[3.0, -1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 7.0]])
    assert ovo_auc([0, 1, 2], S, probabilities=False) == 1.0
    assert ovr_auc([0, 1, 2], S, probabilities=False) == 1.0


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        ovr_auc([0, 1, 2], P3, "macro")  # type: ignore[misc]
    with pytest.raises(TypeError):
        ovo_auc([0, 1, 2], P3, "macro")  # type: ignore[misc]


def test_micro_can_lose_pairs_while_every_class_is_ranked_perfectly():
    """Chapter 16's claim, on probabilities (rows sum to 1): every one-vs-rest area is 1,
    yet a timid probability of the right class (0.4) sits below a confident one of a
    wrong class elsewhere (0.45), so the micro average is below 1. Oracle: scikit-learn."""
    y = np.array([0, 1, 2])
    P = np.array([[0.4, 0.3, 0.3], [0.05, 0.5, 0.45], [0.0, 0.1, 0.9]])
    assert ovr_auc(y, P) == 1.0 == roc_auc_score(y, P, multi_class="ovr")
    micro = ovr_auc(y, P, average="micro", exact=True)
    assert micro < 1
    assert float(micro) == pytest.approx(
        roc_auc_score(y, P, multi_class="ovr", average="micro"), abs=TOL)
