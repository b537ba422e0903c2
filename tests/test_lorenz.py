"""Tests of course_lib.lorenz: syllabus facts F-20..F-28, Gini = 2 AUC - 1 against
scikit-learn, invariances, inversion counting, bad input."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from course_lib import UndefinedMetricWarning, roc_auc
from course_lib.lorenz import (
    bubble_sort_swaps,
    cap_curve,
    count_inversions,
    gini_brown,
    gini_normalized,
    gini_unnormalized,
    lorenz_curve,
)

# G's 15-object example.
ACTUAL = np.array([1] * 6 + [0] * 9)
PREDICT = np.array(
    [0.9, 0.3, 0.8, 0.75, 0.65, 0.6, 0.78, 0.7, 0.05, 0.4, 0.4, 0.05, 0.5, 0.1, 0.1]
)
# G's redistribution example.
TEN_PEOPLE = [1, 1, 1, 1, 1, 1, 1, 1, 20, 72]


def _vertex(curve_x, curve_y, x):
    """The y of the vertex at abscissa x (which must be a vertex)."""
    k = np.flatnonzero(np.isclose(curve_x, x))
    assert k.size >= 1, f"{x} is not a vertex"
    return curve_y[k[0]]


def _brute_inversions(seq):
    return sum(a > b for a, b in itertools.combinations(list(seq), 2))


def _mean_difference_gini(values):
    """Gini as the mean absolute difference over twice the mean (an independent oracle)."""
    v = np.asarray(values, dtype=float)
    return np.abs(v[:, None] - v[None, :]).sum() / (2 * v.size**2 * v.mean())


# ------------------------------------------------------------------------- facts


def test_F20_incomes_11223_gini_two_ninths_curve_through_06_four_ninths():
    """F-20: incomes 1, 1, 2, 2, 3: Gini = 2/9, the Lorenz curve passes (0.6, 4/9)."""
    assert gini_brown([1, 1, 2, 2, 3], exact=True) == Fraction(2, 9)
    assert gini_brown([1, 1, 2, 2, 3]) == pytest.approx(2 / 9, abs=1e-15)
    c = lorenz_curve([1, 1, 2, 2, 3])
    assert _vertex(c.population, c.share, 0.6) == pytest.approx(4 / 9, abs=1e-15)


def test_F21_three_villages_gini_0_021_071():
    """F-21: three villages of 10 people with 100 roubles each: Gini 0, 0.21, 0.71."""
    villages = [[10] * 10, [5, 5, 5, 10, 10, 10, 10, 15, 15, 15], [1] * 7 + [10, 33, 50]]
    assert [sum(v) for v in villages] == [100, 100, 100]
    exact = [gini_brown(v, exact=True) for v in villages]
    assert exact == [0, Fraction(21, 100), Fraction(71, 100)]
    assert [round(gini_brown(v), 2) for v in villages] == [0.0, 0.21, 0.71]
    # G's geometric check: twice the area between the diagonal and the Lorenz curve.
    x, y = lorenz_curve(villages[2])
    assert (0.5 - np.trapezoid(y, x)) / 0.5 == pytest.approx(0.71, abs=1e-12)


def test_F22_redistributing_the_20_does_not_keep_gini_0772():
    """F-22: Gini of [1]*8 + [20, 72] is 0.772. G says it stays 0.772 after the "20" is
    redistributed; it does not, however the 20 is shared out (Errata)."""
    before = gini_brown(TEN_PEOPLE, exact=True)
    assert before == Fraction(193, 250)  # 0.772
    # G's after-vector read literally: nine times 1 + 11.1/20 and 72 + 8.9/20.
    literal = [1 + 11.1 / 20] * 9 + [72 + 8.9 / 20]
    assert sum(literal) == pytest.approx(86.44)  # the total of 100 is not kept
    assert round(gini_brown(literal), 3) == 0.738
    # The person who had 20 keeps 0, ten people. Proportionally to income: everybody
    # else gets 20/80 more per rouble, i.e. times 5/4: [1.25]*8 + [0, 90].
    assert gini_brown([5] * 8 + [0, 360], exact=True) == Fraction(81, 100)  # x4
    # Equally: 20/9 each: [29/9]*8 + [0, 668/9].
    assert gini_brown([29] * 8 + [0, 668], exact=True) == Fraction(167, 250)  # x9
    # The same if that person leaves the village (nine people).
    assert gini_brown([5] * 8 + [360], exact=True) == Fraction(71, 90)
    assert gini_brown([29] * 8 + [668], exact=True) == Fraction(142, 225)
    proportional, equal = [1.25] * 8 + [0, 90], [1 + 20 / 9] * 8 + [0, 72 + 20 / 9]
    assert sum(proportional) == pytest.approx(100) and sum(equal) == pytest.approx(100)
    assert gini_brown(proportional) == pytest.approx(0.81, abs=1e-12)
    assert gini_brown(equal) == pytest.approx(0.668, abs=1e-12)
    # One split does keep 0.772: 56/9 to the eight poorest, 124/9 to the richest.
    assert gini_brown([16] * 8 + [0, 772], exact=True) == before  # x9


def test_F23_table1_cap_through_two_sevenths_one_third_gini_seven_twelfths(table1):
    """F-23: Table 1's CAP curve passes (2/7, 1/3) at theta = 0.4; Gini = 7/12."""
    y, b = table1
    c = cap_curve(y, b)
    at_04 = np.flatnonzero(c.thresholds >= 0.4)[-1]  # the rule b >= 0.4
    assert (c.rate[at_04], c.share[at_04]) == pytest.approx((2 / 7, 1 / 3), abs=1e-15)
    assert gini_normalized(y, b, exact=True) == Fraction(7, 12)
    assert gini_normalized(y, b) == pytest.approx(7 / 12, abs=1e-15)


def test_F24_gini_equals_two_auc_minus_one_exactly(table1):
    """F-24: Gini = 2 AUC - 1, exactly as fractions (here Table 1 and random integer
    weights with ties; the float version is a property test below)."""
    y, b = table1
    assert gini_normalized(y, b, exact=True) == 2 * roc_auc(y, b, exact=True) - 1
    rng = np.random.default_rng(24)
    for _ in range(200):
        n = int(rng.integers(2, 30))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = rng.integers(0, 4, n)
        w = rng.integers(1, 5, n)
        assert gini_normalized(y, s, sample_weight=w, exact=True) == (
            2 * roc_auc(y, s, sample_weight=w, exact=True) - 1
        )


def test_F25_G_fifteen_objects_auc_gini_unnormalized_perfect_normalized():
    """F-25: AUC = 22/27, unnormalized Gini 17/90 ~ 0.1889, perfect 0.3, normalized
    17/27 ~ 0.63."""
    assert roc_auc_score(ACTUAL, PREDICT) == pytest.approx(22 / 27, abs=1e-15)
    model = gini_unnormalized(ACTUAL, PREDICT, exact=True)
    perfect = gini_unnormalized(ACTUAL, ACTUAL, exact=True)
    assert model == Fraction(17, 90)
    assert round(float(model), 4) == 0.1889
    assert perfect == Fraction(3, 10)  # m0 / (2 n) = 9 / 30
    assert gini_normalized(ACTUAL, PREDICT, exact=True) == model / perfect == Fraction(17, 27)
    assert (gini_normalized(ACTUAL, PREDICT) + 1) / 2 == pytest.approx(22 / 27, abs=1e-15)


def test_F26_bubble_sort_10_swaps_27_at_random_gini_063():
    """F-26: the labels sorted by increasing score need 10 swaps; a random order needs
    6*9/2 = 27 on average; (27 - 10)/27 = 17/27 = 0.63 = the normalized Gini."""
    by_score = ACTUAL[np.argsort(PREDICT, kind="stable")]
    swaps = bubble_sort_swaps(by_score)
    assert swaps == count_inversions(by_score) == 10
    random_swaps = Fraction(6 * 9, 2)
    assert random_swaps == 27
    # A random order puts each (positive, negative) pair the wrong way with chance 1/2:
    # the mean over all orders of 6 ones and 9 zeros (5005 orders) is 27.
    orders = [np.isin(np.arange(15), c).astype(int) for c in itertools.combinations(range(15), 6)]
    assert Fraction(sum(count_inversions(o) for o in orders), len(orders)) == random_swaps
    assert (random_swaps - swaps) / random_swaps == gini_normalized(ACTUAL, PREDICT, exact=True)
    assert round(float((random_swaps - swaps) / random_swaps), 2) == 0.63


def test_F27_regression_gini_curve_through_05_08_gini_21_37():
    """F-27: payments 5, 2, 10, 3, 0, 5, 0, 0 by decreasing score: the curve passes
    (0.5, 0.8); normalized Gini = 21/37 ~ 0.57."""
    target = [5, 2, 10, 3, 0, 5, 0, 0]
    score = [8, 7, 6, 5, 4, 3, 2, 1]
    c = cap_curve(target, score)
    assert _vertex(c.rate, c.share, 0.5) == pytest.approx(0.8, abs=1e-15)
    assert gini_normalized(target, score, exact=True) == Fraction(21, 37)
    assert round(gini_normalized(target, score), 2) == 0.57


def test_F28_marketing_top_half_reaches_90_percent_cost_100_income_135():
    """F-28: 100 users, 30 come back; contact costs 2, a return brings 5. All: cost 200,
    income 150; the top 50% by score hold 90% of the returners: cost 100, income 135."""
    returns = np.array([1] * 27 + [0] * 23 + [1] * 3 + [0] * 47)  # by decreasing score
    score = np.arange(100, 0, -1)
    c = cap_curve(returns, score)
    users, returners, cost, value = 100, int(returns.sum()), 2, 5
    assert returners == 30
    assert (cost * users, value * returners) == (200, 150)
    share = _vertex(c.rate, c.share, 0.5)
    assert share == pytest.approx(0.9, abs=1e-15)
    contacted = 0.5 * users
    assert cost * contacted == 100
    assert value * share * returners == pytest.approx(135, abs=1e-12)


# -------------------------------------------------------- Gini = 2 AUC - 1 (random)


@st.composite
def scored_labels(draw, weighted=False):
    n = draw(st.integers(2, 40))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[1] = 0, 1  # both classes
    s = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))  # heavy ties
    w = None
    if weighted:
        w = draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n))
    return np.array(y), np.array(s) / 5.0, w


@given(scored_labels(weighted=False))
def test_F24_gini_is_two_auc_minus_one_against_sklearn(case):
    """F-24 on random data with ties: sklearn's roc_auc_score is the AUC oracle."""
    y, s, _ = case
    assert gini_normalized(y, s) == pytest.approx(2 * roc_auc_score(y, s) - 1, abs=1e-12)


@given(scored_labels(weighted=True))
def test_F24_gini_is_two_auc_minus_one_with_weights(case):
    y, s, w = case
    expected = 2 * roc_auc_score(y, s, sample_weight=w) - 1
    assert gini_normalized(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-10)


@given(scored_labels())
def test_unnormalized_gini_is_m0_share_times_auc_minus_half(case):
    """The area between CAP and diagonal is m0 / n * (AUC - 1/2) (D's derivation)."""
    y, s, _ = case
    m0, n = int((y == 0).sum()), y.size
    expected = m0 / n * (roc_auc_score(y, s) - 0.5)
    assert gini_unnormalized(y, s) == pytest.approx(expected, abs=1e-12)


@given(
    st.lists(st.floats(0.0, 100.0), min_size=1, max_size=30).filter(lambda v: sum(v) > 0),
    st.floats(0.01, 1000.0),
    st.randoms(use_true_random=False),
)
def test_brown_gini_invariant_under_scaling_and_permutation(values, factor, rnd):
    g = gini_brown(values)
    shuffled = list(values)
    rnd.shuffle(shuffled)
    assert gini_brown(shuffled) == pytest.approx(g, abs=1e-12)
    assert gini_brown(np.array(values) * factor) == pytest.approx(g, abs=1e-12)
    assert g == pytest.approx(_mean_difference_gini(values), abs=1e-12)
    assert -1e-12 <= g <= 1 - 1 / len(values) + 1e-12


@given(
    st.lists(st.integers(0, 20), min_size=2, max_size=25).filter(lambda v: len(set(v)) > 1),
    st.floats(0.1, 100.0),
    st.randoms(use_true_random=False),
)
def test_regression_gini_invariant_under_target_scaling_and_permutation(target, factor, rnd):
    """Scaling the target or listing the objects in another order changes nothing;
    the perfect score (the target itself) gives 1; 0/1 targets as floats are labels."""
    t = np.array(target, dtype=float)
    s = np.arange(t.size)[::-1] % 4  # ties
    g = gini_normalized(t, s)
    perm = np.array(rnd.sample(range(t.size), t.size))
    assert gini_normalized(t[perm], s[perm]) == pytest.approx(g, abs=1e-12)
    assert gini_normalized(t * factor, s) == pytest.approx(g, abs=1e-12)
    assert gini_normalized(t, t) == pytest.approx(1.0, abs=1e-12)
    assert gini_normalized(t, -t) <= g + 1e-12


def test_integer_weights_equal_replicated_objects():
    rng = np.random.default_rng(3)
    t = rng.integers(0, 6, 40).astype(float)
    s = rng.integers(0, 5, 40)
    w = rng.integers(0, 4, 40)
    c = cap_curve(t, s, sample_weight=w)
    r = cap_curve(np.repeat(t, w), np.repeat(s, w))
    for a, b in zip(c, r):
        np.testing.assert_allclose(a, b, rtol=1e-14)
    assert gini_normalized(t, s, sample_weight=w, exact=True) == gini_normalized(
        np.repeat(t, w), np.repeat(s, w), exact=True
    )


def test_zero_weight_groups_add_no_vertex():
    c = cap_curve([1, 0, 1], [0.9, 0.5, 0.1], sample_weight=[1, 0, 1])
    assert c.thresholds.tolist() == [np.inf, 0.9, 0.1]
    assert c.share.tolist() == [0.0, 0.5, 1.0]


def test_labels_as_a_zero_one_target_give_the_same_curve():
    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.3, 0.3, 0.9, 0.1, 0.5, 0.5])
    as_target = np.array([0.0, 3.0, 3.0, 0.0, 3.0, 0.0])  # a real target, three times y
    for a, b in zip(cap_curve(y, s), cap_curve(as_target, s)):
        np.testing.assert_allclose(a, b, rtol=1e-15)
    # Ties move together: four distinct scores, so four steps after (0, 0).
    c = cap_curve(y, s)
    assert c.rate.tolist() == [0, 1 / 6, 0.5, 5 / 6, 1]
    assert c.share.tolist() == [0, 1 / 3, 2 / 3, 1, 1]


# ----------------------------------------------------------- inversion counting


@given(st.lists(st.integers(0, 4), max_size=40))
def test_count_inversions_equals_bubble_sort_and_brute_force_with_ties(seq):
    expected = _brute_inversions(seq)
    assert count_inversions(seq) == expected
    assert bubble_sort_swaps(seq) == expected


@given(st.lists(st.floats(-5, 5, allow_nan=False), max_size=40))
def test_count_inversions_on_floats(seq):
    assert count_inversions(seq) == _brute_inversions(seq)


def test_count_inversions_large_and_other_types():
    rng = np.random.default_rng(11)
    seq = rng.integers(0, 300, 3000)
    brute = sum(int(np.count_nonzero(seq[i] > seq[i + 1 :])) for i in range(seq.size))
    assert count_inversions(seq) == brute
    assert count_inversions(seq[::-1]) == seq.size * (seq.size - 1) // 2 - brute - sum(
        int(k) * (int(k) - 1) // 2 for k in np.unique(seq, return_counts=True)[1]
    )
    assert count_inversions(["b", "a", "c", "a"]) == bubble_sort_swaps(["b", "a", "c", "a"]) == 3
    assert count_inversions([True, False, True]) == 1
    assert count_inversions([]) == count_inversions([7]) == 0
    assert count_inversions(np.arange(10**5)) == 0
    assert count_inversions(np.arange(10**5)[::-1]) == 10**5 * (10**5 - 1) // 2


def test_inversions_of_labels_by_score_give_the_auc():
    """With no tie between a positive and a negative, AUC = 1 - swaps / (m1 m0)."""
    rng = np.random.default_rng(8)
    for _ in range(50):
        n = int(rng.integers(2, 60))
        s = rng.permutation(n).astype(float)
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        m1, m0 = int(y.sum()), int(n - y.sum())
        swaps = count_inversions(y[np.argsort(s)])
        assert 1 - swaps / (m1 * m0) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


# ------------------------------------------------------------ undefined / bad input


def test_undefined_gini_is_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="no positive"):
        assert np.isnan(gini_normalized([0, 0, 0], [0.2, 0.5, 0.6]))
    with pytest.warns(UndefinedMetricWarning, match="no positive"):
        assert np.isnan(gini_unnormalized([0.0, 0.0], [1, 2]))
    with pytest.warns(UndefinedMetricWarning, match="same target"):
        assert np.isnan(gini_normalized([1, 1, 1], [0.2, 0.5, 0.6]))
    with pytest.warns(UndefinedMetricWarning, match="same target"):
        assert np.isnan(gini_normalized([2.5, 2.5], [0.2, 0.5]))
    # With no negatives the CAP curve is the diagonal: the unnormalized area is 0.
    assert gini_unnormalized([1, 1, 1], [0.2, 0.5, 0.6]) == 0.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: lorenz_curve([1, -2, 3]), "non-negative"),
        (lambda: gini_brown([1, -2, 3]), "non-negative"),
        (lambda: gini_brown([0, 0, 0]), "sum to zero"),
        (lambda: gini_brown([1, np.nan]), "NaN"),
        (lambda: gini_brown([]), "empty"),
        (lambda: gini_brown([[1, 2]]), "1-D"),
        (lambda: gini_brown([1.5, 2], exact=True), "integer values; found 1.5"),
        (lambda: cap_curve([0, 0, 0], [0.2, 0.5, 0.6]), "no positive"),
        (lambda: cap_curve([1, 0], [0.2, 0.5], sample_weight=[0, 0]), "every sample weight is zero"),
        (lambda: cap_curve([1, -1, 2], [0.2, 0.5, 0.6]), "non-negative target"),
        (lambda: cap_curve([1, 0, 1], [0.2, 0.5]), "different lengths"),
        (lambda: cap_curve(["a", "b"], [0.2, 0.5]), "numeric"),
        (lambda: cap_curve([1, 0], [0.2, np.inf]), "infinite"),
        (lambda: gini_normalized([1.5, 0, 2], [1, 2, 3], exact=True), "integer targets"),
        (lambda: gini_normalized([1, 0], [1, 2], sample_weight=[0.5, 1], exact=True), "integer"),
        (lambda: count_inversions([[1, 2]]), "1-D"),
        (lambda: count_inversions([1.0, np.nan]), "NaN"),
        (lambda: count_inversions(np.array([1, "a"], dtype=object)), "comparable"),
        (lambda: bubble_sort_swaps([1.0, np.nan]), "NaN"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_inputs_are_not_modified():
    incomes = np.array([3.0, 1.0, 2.0])
    y = np.array([0, 1, 1, 0])
    s = np.array([0.4, 0.9, 0.1, 0.4])
    w = np.array([1.0, 2.0, 1.0, 3.0])
    seq = np.array([3, 1, 2, 2])
    copies = [a.copy() for a in (incomes, y, s, w, seq)]
    lorenz_curve(incomes)
    gini_brown(incomes)
    cap_curve(y, s, sample_weight=w)
    gini_normalized(y, s, sample_weight=w)
    gini_unnormalized(y * 2.5, s)
    count_inversions(seq)
    bubble_sort_swaps(seq)
    for a, c in zip((incomes, y, s, w, seq), copies):
        np.testing.assert_array_equal(a, c)


def test_results_are_python_numbers():
    y, s = [0, 1, 1, 0], [0.4, 0.9, 0.1, 0.4]
    assert type(gini_brown([1, 2])) is float
    assert type(gini_normalized(y, s)) is float
    assert type(gini_unnormalized(y, s)) is float
    assert type(gini_normalized([2.0, 0.5, 0.0], [3, 2, 1])) is float
    assert type(count_inversions([2, 1])) is int
    assert type(bubble_sort_swaps([2, 1])) is int
