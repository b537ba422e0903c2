"""The variants of chapters 11, 12 and 14-17 against independent computations.

``tests/test_variants.py`` checks that each variant's worked code passes its own check;
where that code follows the same formula as the reference, a wrong formula would pass
both. Here each variant's reference is recomputed another way, on its own data: from
the raw objects with ``course_lib``, with scikit-learn, by brute force or by a float
formula, for several seeds.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import course_lib as cl
from course_lib.exercises import REGISTRY
from course_lib.partial import _shape

SEEDS = [0, 1, 2, 3, 17, 99]


def variants(exercise_id):
    book = REGISTRY[exercise_id]
    assert book.variants is not None, exercise_id
    return [book.variant(seed) for seed in SEEDS]


def test_ch11_n_for_sd_by_float_formula():
    a, q = 5 / 6, 11 / 15

    def sd(n):
        m = n // 2
        return math.sqrt((a * (1 - a) + 2 * (m - 1) * (q - a * a)) / (m * m))

    for v in variants("n-for-sd-001"):
        target = float(Fraction(v.data["sd"]))
        n = v.solution
        assert n % 2 == 0 and sd(n) <= target + 1e-15 < sd(n - 2)


def test_ch11_sd_300_by_float_formula():
    a, q = 5 / 6, 11 / 15
    for v in variants("auc-sd-300"):
        m1, m0 = v.data["m1"], v.data["m0"]
        assert m1 + m0 == 300
        var = (a * (1 - a) + (m1 - 1) * (q - a * a) + (m0 - 1) * (q - a * a)) / (m1 * m0)
        assert v.solution == pytest.approx(math.sqrt(var), abs=1e-12)


def test_ch12_search_ranking_from_the_objects():
    for name in ("auc-search-ranking", "precision-at-10-search"):
        for v in variants(name):
            n, p, k = v.data["n"], v.data["p"], v.data["k"]
            y = [0] * k + [1] * p + [0] * (n - p - k)
            score = list(range(n, 0, -1))  # the ranking, best first
            if name == "auc-search-ranking":
                assert cl.roc_auc(y, score, exact=True) == v.solution
            else:
                assert Fraction(sum(y[:10]), 10) == v.solution > 0


def test_ch12_sure_group_from_the_objects():
    for v in variants("credit-share-auc"):
        f = Fraction(v.data["f"])
        m0 = f.denominator * 3
        sure = int(f * m0)
        y = [0] * m0 + [1] * 7
        score = [0] * sure + [1] * (m0 - sure) + [1] * 7
        assert cl.roc_auc(y, score, exact=True) == v.solution


def test_ch12_screen_on_a_fine_grid():
    for v in variants("unimodal-screen"):
        c, d = v.data["c"], v.data["d"]
        x = (np.arange(100_000) + 0.5) / 10_000
        y = (np.abs(x - c) > d).astype(int)
        screen = 2 * abs(cl.roc_auc(y, x) - 0.5)
        assert screen == pytest.approx(v.solution, abs=1e-3)
        assert v.solution > 0.01  # not the book's 0


def _expand(groups):
    y, s = [], []
    for score, p, q in groups:
        y += [1] * p + [0] * q
        s += [score] * (p + q)
    return y, s


def test_ch14_grouped_table_from_the_objects():
    for v in variants("warehouse-auc-groups"):
        y, s = _expand(v.data["groups"])
        assert cl.roc_auc(y, s, exact=True) == v.solution
    for v in variants("warehouse-tied-pairs"):
        y, s = _expand(v.data["groups"])
        tied = sum(1 for i in range(len(y)) for j in range(len(y))
                   if y[i] == 1 and y[j] == 0 and s[i] == s[j])
        assert tied == v.solution


def test_ch14_tie_group_bin_and_ntile():
    for v in variants("warehouse-tie-decile"):
        n, above, size = v.data["n"], v.data["above"], v.data["size"]
        ntile = [r * 10 // n + 1 for r in range(n)]  # NTILE(10) with n divisible by 10
        group = set(ntile[above:above + size])
        assert len(group) == 2  # NTILE would split the group
        assert v.solution == ntile[above] == min(group)


def test_ch14_spark_binned_auc_from_roc_points():
    """Spark: the ROC points at the end of every chunk of 2 distinct scores."""
    for v in variants("spark-binned-auc-tiny"):
        rows = v.data["rows"]
        scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
        y, s = _expand([(sc, p, q) for sc, (p, q) in zip(scores, rows)])
        curve = cl.roc_curve(y, s)  # vertex 0 is (0, 0), then one per score
        fpr = np.r_[0.0, curve.fpr[2::2]]
        tpr = np.r_[0.0, curve.tpr[2::2]]
        area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
        assert area == pytest.approx(float(v.solution), abs=1e-12)
        assert v.solution != cl.roc_auc(y, s, exact=True)


def test_ch15_table_exercises_by_library():
    for v in variants("brier-table1"):
        assert cl.brier_score(v.data["y"], v.data["b"]) == pytest.approx(float(v.solution))
    for v in variants("auc-cubed-table1"):
        b = np.asarray(v.data["b"])
        assert roc_auc_score(v.data["y"], b**3) == pytest.approx(float(v.solution))
    for v in variants("ece-one-bin-table1"):
        ece = cl.expected_calibration_error(v.data["y"], v.data["b"], n_bins=1)
        assert ece == pytest.approx(float(v.solution), abs=1e-12)


def test_ch15_isotonic_value_by_scikit_learn():
    from sklearn.isotonic import IsotonicRegression

    for v in variants("isotonic-table1"):
        fit = IsotonicRegression().fit(v.data["b"], v.data["y"])
        assert fit.predict([v.data["s"]])[0] == pytest.approx(float(v.solution))
        assert 0 < v.solution < 1


def test_ch15_hull_segment_by_counting_objects():
    """1000 objects: the segment holds pi n dTPR positives and (1 - pi) n dFPR negatives."""
    for v in variants("hull-segment-probability"):
        pi = Fraction(v.data["pi"])
        (f0, t0), (f1, t1) = ([Fraction(x) for x in p] for p in (v.data["start"],
                                                                  v.data["end"]))
        pos, neg = 3600 * pi * (t1 - t0), 3600 * (1 - pi) * (f1 - f0)
        assert pos.denominator == neg.denominator == 1
        assert v.solution == pos / (pos + neg)


def test_ch16_by_scikit_learn():
    for v in variants("ovr-auc-one-class"):
        y, P = np.asarray(v.data["y"]), np.asarray(v.data["P"])
        assert roc_auc_score(y == "a", P[:, 0]) == pytest.approx(float(v.solution))
    for v in variants("hand-till-m-small"):
        y, P = np.asarray(v.data["y"]), np.asarray(v.data["P"])
        m = roc_auc_score(y, P, multi_class="ovo", average="macro")
        assert m == pytest.approx(float(v.solution))


def test_ch16_one_vs_rest_from_pairs_on_objects():
    """Objects that realize A(a|b) and A(a|c): 100 objects of class a, n_b of b and n_c
    of c; the a-scores beat a share A of each class's pairs."""
    for name in ("ovr-from-pairwise", "ovr-more-of-c"):
        for v in variants(name):
            a_b, a_c = Fraction(v.data["a_b"]), Fraction(v.data["a_c"])
            n_b = v.data["n_b"]
            n_c = v.data["n_c"] * v.data.get("factor", 1)
            # 100 a-objects at scores 1..100; a b-object at 100 (1 - A) + 0.5 loses to
            # exactly 100 A of them, and so every b-object: A(a|b) = A exactly
            y = [1] * 100 + [0] * (n_b + n_c)
            s = (list(range(1, 101)) + [100 * (1 - a_b) + 0.5] * n_b
                 + [100 * (1 - a_c) + 0.5] * n_c)
            assert cl.roc_auc(y, s, exact=True) == v.solution


def test_ch17_by_library_and_scikit_learn():
    for v in variants("pauc-table1-half"):
        area = cl.partial_roc_auc(v.data["y"], v.data["b"], max_fpr=0.5)
        assert area == pytest.approx(float(v.solution))
    for v in variants("mcclish-table1-half"):
        mcclish = roc_auc_score(v.data["y"], v.data["b"], max_fpr=0.5)
        assert mcclish == pytest.approx(float(v.solution))
    for v in variants("min-loss-at-pi1"):
        pi1 = sum(v.data["y"]) / len(v.data["y"])
        loss = cl.minimum_loss(v.data["y"], v.data["b"], pi1)
        assert float(loss) == pytest.approx(float(v.solution))


def test_ch17_h_measure_of_one_point_by_library():
    for v in variants("h-one-point"):
        f, t = Fraction(v.data["fpr"]), Fraction(v.data["tpr"])
        y = [1] * 100 + [0] * 100
        s = [1] * int(100 * t) + [0] * int(100 * (1 - t)) + \
            [1] * int(100 * f) + [0] * int(100 * (1 - f))
        assert cl.h_measure(y, s, alpha=2, beta=2) == pytest.approx(float(v.solution))
    for v in variants("severity-ratio-beta"):
        pi1 = float(Fraction(v.data["pi1"]))
        assert _shape(None, 2, None, pi1)[1] == pytest.approx(float(v.solution))
