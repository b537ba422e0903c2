"""Tests of course_lib.gains: gain, lift and KS curves, the gains table, profit (ch. 8)."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from course_lib import UndefinedMetricWarning
from course_lib.gains import (
    campaign_profit,
    gain_at,
    gain_auc,
    gain_curve,
    gains_table,
    gains_table_from_counts,
    ks_curve,
    ks_statistic,
    lift_at,
    lift_curve,
    population_stability_index,
    profit_curve,
)

COLUMNS = [
    "N", "%", "cum_%", "Prob", "N_1", "%_1", "cum_N1", "cum_%1",
    "N_0", "%_0", "cum_N0", "cum_%0", "K-S", "Lift",
]  # fmt: skip

# The gains table printed in source D ("Табл. Статистика доходности"), typed as printed.
D_TABLE = """
11238 10.0% 10.0% 0.229 2572 49.0% 2572 49.0% 8666 8.1% 8666 8.1% 40.9% 4.902
11237 10.0% 20.0% 0.081 912 17.4% 3484 66.4% 10325 9.6% 18991 17.7% 48.7% 3.320
11238 10.0% 30.0% 0.050 565 10.8% 4049 77.2% 10673 10.0% 29664 27.7% 49.5% 2.572
11237 10.0% 40.0% 0.037 413 7.9% 4462 85.0% 10824 10.1% 40488 37.8% 47.2% 2.126
11238 10.0% 50.0% 0.025 282 5.4% 4744 90.4% 10956 10.2% 51444 48.0% 42.4% 1.808
11237 10.0% 60.0% 0.018 197 3.8% 4941 94.2% 11040 10.3% 62484 58.3% 35.8% 1.569
11237 10.0% 70.0% 0.013 146 2.8% 5087 97.0% 11091 10.4% 73575 68.7% 28.3% 1.385
11238 10.0% 80.0% 0.008 94 1.8% 5181 98.7% 11144 10.4% 84719 79.1% 19.7% 1.234
11237 10.0% 90.0% 0.005 51 1.0% 5232 99.7% 11186 10.4% 95905 89.5% 10.2% 1.108
11238 10.0% 100.0% 0.001 15 0.3% 5247 100.0% 11223 10.5% 107128 100.0% 0.0% 1.000
"""
# decimals of each printed column
D_DECIMALS = [0, 1, 1, 3, 0, 1, 0, 1, 0, 1, 0, 1, 1, 3]


def d_table() -> np.ndarray:
    rows = [line.split() for line in D_TABLE.strip().splitlines()]
    return np.array([[float(v.rstrip("%")) for v in row] for row in rows])


# --------------------------------------------------------------------- helpers


def random_problem(rng, *, weights=False):
    """Random labels with both classes, scores with heavy ties, optional weights."""
    n = int(rng.integers(2, 60))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[: 2] = [True, False]
    rng.shuffle(y)
    levels = int(rng.integers(1, n + 1))
    s = rng.integers(0, levels, n) + 0.5 * y * rng.random(n).round(1)
    w = None
    if weights:
        w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.5], n)
        w[np.flatnonzero(y)[0]] = 1.0
        w[np.flatnonzero(~y)[0]] = 1.0
    return y.astype(int), s, w


def sk_vertices(y, s, w=None):
    """Every ROC vertex from scikit-learn, with the positive rate of each."""
    fpr, tpr, thr = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    ww = np.ones(len(y)) if w is None else np.asarray(w, float)
    m1, m0 = ww[np.asarray(y) == 1].sum(), ww[np.asarray(y) == 0].sum()
    rate = (tpr * m1 + fpr * m0) / (m1 + m0)
    return rate, tpr, fpr, thr


# hypothesis: rows (label, integer score, integer weight)
rows = st.lists(
    st.tuples(st.booleans(), st.integers(-5, 5), st.integers(0, 4)), min_size=2, max_size=40
).filter(
    lambda r: any(lab and w for lab, _, w in r) and any(not lab and w for lab, _, w in r)
)


def unpack(r):
    y = np.array([lab for lab, _, _ in r], dtype=int)
    s = np.array([sc for _, sc, _ in r], dtype=float)
    w = np.array([wt for _, _, wt in r], dtype=float)
    return y, s, w


# -------------------------------------------------------------- syllabus facts


def test_F40_gain_area_table1_is_two_thirds(table1):
    """F-40: the area under the gain curve of Table 1 is (4 * 19/24 + 3/2) / 7 = 2/3."""
    y, b = table1
    assert gain_auc(y, b, exact=True) == Fraction(2, 3)
    assert gain_auc(y, b) == pytest.approx(2 / 3, abs=1e-15)
    auc = roc_auc_score(y, b)
    assert auc == pytest.approx(19 / 24)
    assert (4 * auc + 3 / 2) / 7 == pytest.approx(gain_auc(y, b), abs=1e-15)


@given(rows, st.booleans())
def test_F40_gain_area_identity(r, weighted):
    """F-40: area under the gain curve = (m0 AUC + m1/2) / (m0 + m1), with ties and weights."""
    y, s, w = unpack(r)
    if not weighted:
        w = np.ones_like(w)
    m1, m0 = w[y == 1].sum(), w[y == 0].sum()
    auc = roc_auc_score(y, s, sample_weight=w)
    expected = (m0 * auc + m1 / 2) / (m0 + m1)
    assert gain_auc(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-12)
    exact = gain_auc(y, s, sample_weight=w.astype(int), exact=True)
    assert isinstance(exact, Fraction)
    assert float(exact) == pytest.approx(expected, abs=1e-12)


def test_F40_gain_area_is_p_positive_above_random_object():
    """F-40 read as a probability: a random positive scores above a random object (ties 1/2)."""
    rng = np.random.default_rng(40)
    y = rng.random(30) < 0.4
    s = rng.integers(0, 6, 30).astype(float)
    pos = s[y]
    wins = (pos[:, None] > s[None, :]).sum() + 0.5 * (pos[:, None] == s[None, :]).sum()
    assert gain_auc(y, s, exact=True) == Fraction(int(2 * wins), 2 * pos.size * s.size)


def test_F41_source_D_table_is_consistent():
    """F-41: every printed column of D's gains table follows from its N_1 and N_0 counts.

    The table is rebuilt with gains_table_from_counts and rounded as printed. D's text
    defines Lift as cum_%1 / %, but the printed Lift is cum_%1 / cum_% (Errata).
    """
    printed = d_table()
    rebuilt = gains_table_from_counts(printed[:, 4].astype(int), printed[:, 8].astype(int))
    assert list(rebuilt.columns) == COLUMNS
    for j, (name, decimals) in enumerate(zip(COLUMNS, D_DECIMALS)):
        np.testing.assert_allclose(
            rebuilt[name].to_numpy(float).round(decimals), printed[:, j], atol=1e-9, err_msg=name
        )
    assert rebuilt["N"].sum() == 112375
    assert (rebuilt["cum_N1"].iloc[-1], rebuilt["cum_N0"].iloc[-1]) == (5247, 107128)
    # the text's definition "cum_%1 / %" would give 6.64 in row 2, not the printed 3.320
    wrong = (rebuilt["cum_%1"] / rebuilt["%"]).round(3)
    assert wrong.iloc[1] == pytest.approx(6.640) and printed[1, 13] == pytest.approx(3.320)


def test_F41_profit_of_top_deciles_of_D_table():
    """F-41: cost 1 per contact, 5 per response: top 10% earns 1,622, top 20% loses."""
    printed = d_table()
    table = gains_table_from_counts(printed[:, 4].astype(int), printed[:, 8].astype(int))
    top10 = campaign_profit(
        table["N"].iloc[:1].sum(), table["cum_N1"].iloc[0], cost=1, revenue=5
    )
    assert top10 == (11238.0, 12860.0, 1622.0)
    top20 = campaign_profit(
        table["N"].iloc[:2].sum(), table["cum_N1"].iloc[1], cost=1, revenue=5
    )
    assert top20 == (22475.0, 17420.0, -5055.0)
    assert top20.profit < 0
    assert all(isinstance(v, float) for v in top10 + top20)


def test_F41_best_cut_is_the_first_decile_and_the_breakeven_prob():
    """F-41: of D's deciles only the first has Prob above cost/revenue = 1/5, so the profit
    over the top k deciles is largest at k = 1."""
    printed = d_table()
    table = gains_table_from_counts(printed[:, 4].astype(int), printed[:, 8].astype(int))
    profits = [
        campaign_profit(table["N"].iloc[:k].sum(), table["cum_N1"].iloc[k - 1],
                        cost=1, revenue=5).profit
        for k in range(1, 11)
    ]  # fmt: skip
    assert int(np.argmax(profits)) == 0
    assert profits[0] == 1622.0 and profits[-1] == 5 * 5247 - 112375
    assert list(table["Prob"] > 1 / 5) == [True] + [False] * 9


def test_F41_profit_curve_on_a_sample_like_D_table():
    """F-41: a sample with D's decile counts (scores constant within a decile) gives the
    profit curve through D's numbers, and its best cut-off is the first decile."""
    printed = d_table()
    n1, n0 = printed[:, 4].astype(int), printed[:, 8].astype(int)
    y = np.concatenate([np.r_[np.ones(a), np.zeros(b)] for a, b in zip(n1, n0)])
    s = np.repeat(np.arange(10, 0, -1, dtype=float), n1 + n0)
    c = profit_curve(y, s, cost=1, revenue=5)
    assert c.profit[:3].tolist() == [0.0, 1622.0, 17420.0 - 22475.0]
    assert (c.best_profit, c.best_threshold) == (1622.0, 10.0)
    assert c.best_rate == pytest.approx(0.1, abs=1e-4)


def test_F28_marketing_example_of_source_G():
    """F-28 (G): 100 users, 30 return, contact 2, return 5: all -> cost 200, income 150;
    the top 50% holding 90% of the returners -> cost 100, income 135."""
    everyone = campaign_profit(100, 30, cost=2, revenue=5)
    assert everyone == (200.0, 150.0, -50.0)
    half = campaign_profit(0.5 * 100, 0.9 * 30, cost=2, revenue=5)
    assert half.cost == 100.0
    assert half.income == pytest.approx(135.0, abs=1e-12)
    assert half.profit == pytest.approx(35.0, abs=1e-12)


def test_F28_marketing_example_as_a_scored_sample():
    """F-28 on a sample: 100 scored users whose top half holds 27 of the 30 returners."""
    y = np.r_[np.ones(27), np.zeros(23), np.ones(3), np.zeros(47)]
    s = np.arange(100, 0, -1, dtype=float)
    assert gain_at(y, s, 0.5) == pytest.approx(0.9, abs=1e-15)
    c = profit_curve(y, s, cost=2, revenue=5)
    assert c.profit[50] == 135.0 - 100.0 and c.profit[-1] == 150.0 - 200.0
    # the best cut-off contacts only the top 27, all returners: 27 * (5 - 2)
    assert (c.best_profit, c.best_rate, c.best_threshold) == (81.0, 0.27, 74.0)


def test_gain_and_roc_curves_nearly_coincide_under_imbalance():
    """Ch. 8 (G, 3% positives): PR = pi TPR + (1 - pi) FPR, so each gain vertex lies at most
    pi to the right of its ROC vertex, and the areas differ by pi (AUC - 1/2) (from F-40)."""
    rng = np.random.default_rng(3)
    y = rng.random(20_000) < 0.03
    s = np.round(rng.normal(size=20_000) + 0.8 * y, 2)
    pi = y.mean()
    g = gain_curve(y, s)
    fpr, tpr, _ = sk_roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(g.tpr, tpr, atol=1e-12)
    np.testing.assert_allclose(g.rate - fpr, pi * (tpr - fpr), atol=1e-12)
    assert np.abs(g.rate - fpr).max() <= pi
    auc = roc_auc_score(y, s)
    assert gain_auc(y, s) - auc == pytest.approx(pi * (0.5 - auc), abs=1e-12)
    assert abs(gain_auc(y, s) - auc) < 0.01


def test_gain_top_10_and_lift_top_10_table1(table1):
    """Ch. 8: Gain-Top-10% and Lift-Top-10% of Table 1, and the curve at PR = 0, ..., 1."""
    y, b = table1
    assert gain_at(y, b, 0.1) == pytest.approx(0.7 / 3, abs=1e-15)
    assert lift_at(y, b, 0.1) == pytest.approx(7 / 3, abs=1e-14)
    grid = gain_at(y, b, np.linspace(0, 1, 11))
    # rates in 7ths: vertices 0, 1, 2, 3, 5, 6, 7 with TPR 0, 1/3, 1/3, 2/3, 1, 1, 1
    expected = np.interp(np.linspace(0, 7, 11), [0, 1, 2, 3, 5, 6, 7], [0, 1, 1, 2, 3, 3, 3]) / 3
    np.testing.assert_allclose(grid, expected, atol=1e-15)
    assert grid[5] == pytest.approx(0.75, abs=1e-15)  # a quarter into the tie at 0.2


def test_table1_curves(table1):
    """Ch. 8: the gain, lift and KS curves of Table 1, vertex by vertex."""
    y, b = table1
    g = gain_curve(y, b)
    np.testing.assert_allclose(g.rate * 7, [0, 1, 2, 3, 5, 6, 7], atol=1e-13)
    np.testing.assert_allclose(g.tpr * 3, [0, 1, 1, 2, 3, 3, 3], atol=1e-13)
    assert g.thresholds.tolist() == [np.inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0]
    lift = lift_curve(y, b)
    np.testing.assert_allclose(lift.lift, [7 / 3, 7 / 3, 7 / 6, 14 / 9, 7 / 5, 7 / 6, 1])
    ks = ks_curve(y, b)
    np.testing.assert_allclose(ks.fpr * 4, [0, 0, 1, 1, 2, 3, 4], atol=1e-13)
    assert (ks.ks, ks.ks_threshold) == (0.5, 0.2)
    assert ks.ks_rate == pytest.approx(5 / 7, abs=1e-15)
    assert ks_statistic(y, b) == 0.5
    assert all(isinstance(v, float) for v in (ks.ks, ks.ks_rate, ks.ks_threshold))


# ----------------------------------------------------- differential: scikit-learn


def test_curves_match_sklearn_on_random_data():
    """Gain, lift and KS curves and the KS statistic against scikit-learn's ROC vertices,
    600 random problems with heavy ties, half of them weighted (zero weights included)."""
    for seed in range(600):
        rng = np.random.default_rng(seed)
        y, s, w = random_problem(rng, weights=seed % 2 == 1)
        rate, tpr, fpr, thr = sk_vertices(y, s, w)
        g = gain_curve(y, s, sample_weight=w)
        np.testing.assert_allclose(g.rate, rate, atol=1e-12)
        np.testing.assert_allclose(g.tpr, tpr, atol=1e-12)
        np.testing.assert_array_equal(g.thresholds, thr)
        lift = lift_curve(y, s, sample_weight=w)
        np.testing.assert_allclose(lift.lift[1:], tpr[1:] / rate[1:], rtol=1e-12)
        assert lift.lift[0] == lift.lift[1]
        k = ks_curve(y, s, sample_weight=w)
        np.testing.assert_allclose(k.fpr, fpr, atol=1e-12)
        gap = tpr - fpr
        first = int(np.argmax(gap >= gap.max() - 1e-12))
        assert k.ks == pytest.approx(gap.max(), abs=1e-12)
        assert k.ks_threshold == thr[first]
        assert ks_statistic(y, s, sample_weight=w) == pytest.approx(gap.max(), abs=1e-12)


def test_ks_statistic_matches_scipy_ks_2samp():
    """KS = max(F_neg - F_pos) = scipy's one-sided two-sample statistic, 500 random problems
    (unweighted, so the fast path through the two classes' sorted scores is used)."""
    for seed in range(500):
        rng = np.random.default_rng(10_000 + seed)
        y, s, _ = random_problem(rng)
        expected = ks_2samp(s[y == 0], s[y == 1], alternative="greater", method="asymp").statistic
        assert ks_statistic(y, s) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("share", [0.01, 0.5, 0.99])
def test_ks_statistic_fast_path_both_branches(share):
    """The unweighted KS searches from the smaller class; both ways agree with the curve."""
    rng = np.random.default_rng(7)
    y = rng.random(5000) < share
    s = np.round(rng.normal(size=5000) + y, 1)
    assert ks_statistic(y, s) == ks_curve(y, s).ks
    assert ks_statistic(y, s) == ks_statistic(y, s, sample_weight=np.ones(5000))


def test_ks_statistic_exact_fraction_of_counts():
    """Without weights the KS is an exact ratio of counts, correctly rounded."""
    y = [1, 0, 1, 1, 0, 0, 1, 0, 0]
    s = [9, 8, 7, 7, 6, 5, 4, 3, 3]
    # >= 7: 3 of 4 positives, 1 of 5 negatives: 3/4 - 1/5 = 11/20
    assert ks_statistic(y, s) == 11 / 20


def test_gain_at_matches_random_tie_breaking():
    """gain_at at k/n is the expected TPR of the top k when ties are broken at random:
    positives above the tie plus the tie's share of positives for the part taken."""
    for seed in range(200):
        rng = np.random.default_rng(20_000 + seed)
        y, s, _ = random_problem(rng)
        n, m1 = len(y), y.sum()
        values = np.unique(s)[::-1]
        expected = []
        for k in range(n + 1):
            caught, taken = 0.0, 0
            for v in values:
                members = y[s == v]
                part = min(members.size, k - taken)
                caught += part * members.mean()
                taken += part
            expected.append(caught / m1)
        np.testing.assert_allclose(gain_at(y, s, np.arange(n + 1) / n), expected, atol=1e-12)


def test_profit_curve_matches_brute_force():
    """profit_curve against the profit of every rule score >= t computed directly."""
    for seed in range(300):
        rng = np.random.default_rng(30_000 + seed)
        y, s, w = random_problem(rng, weights=seed % 2 == 1)
        ww = np.ones(len(y)) if w is None else w
        cost, revenue = rng.uniform(0.1, 3), rng.uniform(0.1, 10)
        c = profit_curve(y, s, cost=cost, revenue=revenue, sample_weight=w)
        keep = np.r_[True, [ww[s == t].sum() > 0 for t in c.thresholds[1:]]]
        assert keep.all()  # zero-weight groups add no vertex
        direct = [
            revenue * ww[(s >= t) & (y == 1)].sum() - cost * ww[s >= t].sum()
            for t in c.thresholds
        ]
        np.testing.assert_allclose(c.profit, direct, atol=1e-9)
        best = int(np.argmax(np.asarray(direct) >= max(direct) - 1e-9))
        assert c.best_profit == pytest.approx(max(direct), abs=1e-9)
        assert c.best_threshold == c.thresholds[best]


# ------------------------------------------------------------------- properties


@given(rows)
def test_lift_times_rate_is_gain(r):
    """lift * rate = TPR at every vertex but the first, and the last lift is 1."""
    y, s, w = unpack(r)
    g = gain_curve(y, s, sample_weight=w)
    lift = lift_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(lift.lift[1:] * g.rate[1:], g.tpr[1:], atol=1e-12)
    assert lift.lift[-1] == pytest.approx(1.0, abs=1e-12)
    assert lift_at(y, s, 0.0, sample_weight=w) == lift.lift[0]


@given(rows)
def test_ks_is_max_tpr_minus_fpr_over_roc_vertices(r):
    """KS equals max(TPR - FPR) over the ROC vertices (scikit-learn's roc_curve)."""
    y, s, w = unpack(r)
    fpr, tpr, _ = sk_roc_curve(y, s, sample_weight=w)
    assert ks_statistic(y, s, sample_weight=w) == pytest.approx(max(tpr - fpr), abs=1e-12)
    y1 = np.repeat(y, w.astype(int))
    s1 = np.repeat(s, w.astype(int))
    assert ks_statistic(y1, s1) == pytest.approx(max(tpr - fpr), abs=1e-12)


@given(rows)
def test_ks_invariant_under_increasing_maps(r):
    """KS depends on the order of the scores only."""
    y, s, _ = unpack(r)
    assert ks_statistic(y, s) == ks_statistic(y, s**3 + 2 * s + 100)
    assert ks_statistic(y, s) == ks_curve(y, s).ks


@given(rows)
def test_integer_weights_equal_replication(r):
    """Integer weights give the same gain curve as replicating the objects."""
    y, s, w = unpack(r)
    g = gain_curve(y, s, sample_weight=w)
    g1 = gain_curve(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)))
    np.testing.assert_allclose(g.rate, g1.rate, atol=1e-12)
    np.testing.assert_allclose(g.tpr, g1.tpr, atol=1e-12)
    np.testing.assert_array_equal(g.thresholds, g1.thresholds)


def naive_gains_counts(y, s, n_bins):
    """Bins by the documented rule, object by object: a tie group goes to the bin of its
    first member, whose position i (in decreasing score order) gives bin i * n_bins // n."""
    n = len(y)
    order = sorted(range(n), key=lambda i: -s[i])
    bins = {}
    position = 0
    while position < n:
        value = s[order[position]]
        group = [i for i in order if s[i] == value]
        b = position * n_bins // n
        pos, neg = bins.get(b, (0, 0))
        bins[b] = (pos + sum(y[i] for i in group), neg + sum(1 - y[i] for i in group))
        position += len(group)
    return bins


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40).filter(
        lambda r: any(lab for lab, _ in r) and not all(lab for lab, _ in r)
    ),
    st.integers(1, 40),
)
def test_gains_table_follows_the_tie_rule(r, n_bins):
    """The gains table against a direct implementation of its rule for bins and ties."""
    y = np.array([lab for lab, _ in r], dtype=int)
    s = np.array([sc for _, sc in r], dtype=float)
    n_bins = min(n_bins, len(y))
    table = gains_table(y, s, n_bins=n_bins)
    bins = naive_gains_counts(y, s, n_bins)
    assert list(table.index) == [b + 1 for b in sorted(bins)]
    assert table["N_1"].tolist() == [bins[b][0] for b in sorted(bins)]
    assert table["N_0"].tolist() == [bins[b][1] for b in sorted(bins)]
    assert list(table.columns) == COLUMNS
    last = table.iloc[-1]
    assert (last["cum_%"], last["cum_%1"], last["cum_%0"]) == (100.0, 100.0, 100.0)
    assert last["K-S"] == 0.0 and last["Lift"] == 1.0


def test_gains_table_matches_the_ks_chart_at_its_boundaries():
    """Each row's cumulative shares are the KS chart's vertex at the bin's lowest score."""
    rng = np.random.default_rng(8)
    y = rng.random(1000) < 0.2
    s = np.round(rng.normal(size=1000) + y, 1)
    table = gains_table(y, s, n_bins=10)
    chart = ks_curve(y, s)
    order = np.sort(s)[::-1]
    ends = np.cumsum(table["N"].to_numpy()) - 1
    k = np.searchsorted(-chart.thresholds, -order[ends])  # vertex of each bin's lowest score
    np.testing.assert_allclose(table["cum_%1"] / 100, chart.tpr[k], atol=1e-12)
    np.testing.assert_allclose(table["cum_%0"] / 100, chart.fpr[k], atol=1e-12)
    np.testing.assert_allclose(table["cum_%"] / 100, chart.rate[k], atol=1e-12)
    np.testing.assert_allclose(table["Lift"], chart.tpr[k] / chart.rate[k], atol=1e-12)


def test_gains_table_deciles_of_distinct_scores():
    """Without ties the bins hold n // 10 or n // 10 + 1 objects: 105 objects -> 11 x 5, 10 x 5."""
    rng = np.random.default_rng(3)
    s = rng.permutation(105).astype(float)
    y = (s % 3 == 0).astype(int)
    table = gains_table(y, s)
    assert table["N"].tolist() == [11, 10, 11, 10, 11, 10, 11, 10, 11, 10]
    assert table.index.tolist() == list(range(1, 11))
    assert table["N"].dtype.kind == "i" and table["N_1"].dtype.kind == "i"


def test_gains_table_big_tie_leaves_empty_bins_out():
    """A tie covering several deciles stays in one bin; the bins it swallowed are omitted."""
    y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    s = [9, 8, 5, 5, 5, 5, 5, 5, 1, 0]
    table = gains_table(y, s, n_bins=10)
    assert table.index.tolist() == [1, 2, 3, 9, 10]
    assert table["N"].tolist() == [1, 1, 6, 1, 1]
    assert table.loc[3, "Prob"] == pytest.approx(2 / 6)


def test_gains_table_single_bin_and_one_object_bins():
    """n_bins = 1 is one row of everything; n_bins = n without ties is one object per row."""
    y = [0, 1, 1, 0, 1]
    s = [0.1, 0.9, 0.4, 0.3, 0.8]
    one = gains_table(y, s, n_bins=1)
    assert one["N"].tolist() == [5] and one["Prob"].tolist() == [0.6]
    each = gains_table(y, s, n_bins=5)
    assert each["N_1"].tolist() == [1, 1, 1, 0, 0]
    assert gains_table([0, 1, 1], [0.5, 0.5, 0.5], n_bins=3)["N"].tolist() == [3]


def test_curves_without_negatives_and_constant_scores():
    """The gain curve needs positives only (no negatives: the diagonal); a constant score
    is one diagonal step."""
    g = gain_curve([1, 1, 1], [0.3, 0.2, 0.1])
    np.testing.assert_allclose(g.tpr, g.rate)
    c = gain_curve([0, 1, 0, 1], [0.5] * 4)
    assert c.rate.tolist() == [0.0, 1.0] and c.tpr.tolist() == [0.0, 1.0]
    assert gain_at([0, 1, 0, 1], [0.5] * 4, 0.3) == pytest.approx(0.3)
    assert ks_statistic([0, 1, 0, 1], [0.5] * 4) == 0.0


def test_ks_is_zero_for_a_reversed_scorer():
    """KS is max(TPR - FPR), not its absolute value: negatives ranked first give 0."""
    assert ks_statistic([1, 1, 0, 0], [1, 2, 3, 4]) == 0.0
    assert ks_curve([1, 1, 0, 0], [1, 2, 3, 4]).ks_threshold == np.inf


# ---------------------------------------------------------------- bad inputs


def test_one_class():
    """Curves raise without the classes they need; the KS statistic warns and is nan."""
    with pytest.raises(ValueError, match="gain curve is undefined: there are no positive"):
        gain_curve([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="no positive samples"):
        lift_curve([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="KS chart is undefined: there are no negative"):
        ks_curve([1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="no positive samples"):
        gain_curve([0, 1], [0.1, 0.2], sample_weight=[1, 0])
    with pytest.warns(UndefinedMetricWarning, match="KS statistic is undefined: there are no neg"):
        assert np.isnan(ks_statistic([1, 1], [0.1, 0.2]))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(ks_statistic([0, 1], [0.1, 0.2], sample_weight=[1, 0]))
    with pytest.raises(ValueError, match="gains table is undefined: there are no negative"):
        gains_table([1, 1, 1], [0.1, 0.2, 0.3], n_bins=2)
    with pytest.raises(ValueError, match="profit curve is undefined: every sample weight is zero"):
        profit_curve([0, 1], [0.1, 0.2], cost=1, revenue=2, sample_weight=[0, 0])


@pytest.mark.parametrize("n_bins", [0, -1, 8, 100])
def test_gains_table_n_bins_out_of_range(table1, n_bins):
    """n_bins below 1 or above n is a ValueError naming the range."""
    y, b = table1
    with pytest.raises(ValueError, match="n_bins must be between 1 and the number of samples 7"):
        gains_table(y, b, n_bins=n_bins)


@pytest.mark.parametrize("n_bins", [2.5, True, "10", None])
def test_gains_table_n_bins_not_an_integer(table1, n_bins):
    y, b = table1
    with pytest.raises(ValueError, match="n_bins must be an integer"):
        gains_table(y, b, n_bins=n_bins)


def test_bad_inputs(table1):
    """Bad labels, scores, rates, money and counts give ValueErrors that name the problem."""
    y, b = table1
    with pytest.raises(ValueError, match="only 0 and 1"):
        gain_curve([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="NaN or infinite"):
        ks_statistic([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="different lengths"):
        gains_table([0, 1, 1], [0.1, 0.2])
    for bad in (1.5, -0.1, [0.1, np.nan]):
        with pytest.raises(ValueError, match="rate must lie in"):
            gain_at(y, b, bad)
        with pytest.raises(ValueError, match="rate must lie in"):
            lift_at(y, b, bad)
    with pytest.raises(ValueError, match="cost must be finite and non-negative"):
        profit_curve(y, b, cost=-1, revenue=5)
    with pytest.raises(ValueError, match="revenue must be a real number"):
        profit_curve(y, b, cost=1, revenue=True)
    with pytest.raises(ValueError, match=r"responses \(31.0\) cannot exceed contacts \(30.0\)"):
        campaign_profit(30, 31, cost=1, revenue=5)
    with pytest.raises(ValueError, match="contacts must be finite"):
        campaign_profit(np.inf, 1, cost=1, revenue=5)
    with pytest.raises(ValueError, match="integer sample weights"):
        gain_auc(y, b, sample_weight=[0.5] * 7, exact=True)
    with pytest.raises(ValueError, match="n_pos must hold non-negative integers"):
        gains_table_from_counts([1, -1], [1, 1])
    with pytest.raises(ValueError, match="n_neg must hold non-negative integers"):
        gains_table_from_counts([1, 1], [1, 0.5])
    with pytest.raises(ValueError, match="different lengths: 2 and 1"):
        gains_table_from_counts([1, 1], [1])
    with pytest.raises(ValueError, match="bin 2 is empty"):
        gains_table_from_counts([1, 0], [1, 0])
    with pytest.raises(ValueError, match="no negative samples"):
        gains_table_from_counts([1, 2], [0, 0])


def test_inputs_are_not_modified():
    """No function changes its arguments."""
    rng = np.random.default_rng(5)
    y = (rng.random(50) < 0.4).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.random(50), 1)
    w = rng.random(50)
    copies = y.copy(), s.copy(), w.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gain_curve(y, s, sample_weight=w)
        lift_curve(y, s, sample_weight=w)
        ks_curve(y, s, sample_weight=w)
        ks_statistic(y, s)
        ks_statistic(y, s, sample_weight=w)
        gain_at(y, s, 0.1, sample_weight=w)
        lift_at(y, s, [0.0, 0.5], sample_weight=w)
        gain_auc(y, s, sample_weight=w)
        gains_table(y, s, n_bins=7)
        profit_curve(y, s, cost=1, revenue=4, sample_weight=w)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)
    n1, n0 = np.array([3, 1]), np.array([1, 5])
    gains_table_from_counts(n1, n0)
    assert n1.tolist() == [3, 1] and n0.tolist() == [1, 5]


def test_results_are_python_floats(table1):
    """Scalar results are Python floats, not numpy scalars or 0-d arrays."""
    y, b = table1
    for value in (ks_statistic(y, b), gain_at(y, b, 0.1), lift_at(y, b, 0.1), gain_auc(y, b)):
        assert type(value) is float
    c = profit_curve(y, b, cost=1, revenue=3)
    assert all(type(v) is float for v in (c.best_profit, c.best_rate, c.best_threshold))
    assert isinstance(gain_at(y, b, [0.1]), np.ndarray)


def _psi_brute_force(base, new, k, eps=1e-4):
    """The PSI object by object: the baseline sorted by decreasing score, object i in
    bin floor(i k / n) unless a higher tied object opened its bin; a score belongs to
    the bin whose lowest baseline score it reaches (the last bin below them all)."""
    bin_of = {}
    for i, v in enumerate(sorted(base.tolist(), reverse=True)):
        bin_of.setdefault(v, i * k // base.size)
    lows = {}
    for v, b in bin_of.items():
        lows[b] = min(lows.get(b, v), v)
    low_list = [lows[b] for b in sorted(lows)]

    def shares(x):
        counts = [0] * len(low_list)
        for v in x.tolist():
            counts[min(sum(low > v for low in low_list), len(low_list) - 1)] += 1
        return [max(c / x.size, eps) for c in counts]

    return sum((a - e) * math.log(a / e) for a, e in zip(shares(new), shares(base)))


def test_population_stability_index_against_brute_force():
    rng = np.random.default_rng(18)
    for _ in range(40):
        base = np.round(rng.normal(size=int(rng.integers(10, 120))), 1)
        new = np.round(rng.normal(0.4, 1.2, size=int(rng.integers(1, 120))), 1)
        k = int(rng.integers(1, 11))
        expected = _psi_brute_force(base, new, k)
        got = population_stability_index(base, new, n_bins=k)
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert population_stability_index(base, base) == 0.0


def test_population_stability_index_refuses_bad_options():
    with pytest.raises(ValueError, match="n_bins must be between 1 and the number"):
        population_stability_index([1, 2], [1], n_bins=3)
    with pytest.raises(ValueError, match="n_bins must be an integer"):
        population_stability_index([1, 2], [1], n_bins=1.5)
    with pytest.raises(ValueError, match="eps must be a number in"):
        population_stability_index([1, 2], [1], n_bins=2, eps=0)
