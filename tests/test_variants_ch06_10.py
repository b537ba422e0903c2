"""Per-student variants of chapters 6-10 keep what each question is about.

``tests/test_variants.py`` checks that every variant is a sound exercise. These tests
check what the variants of chapters 6 to 10 must keep from the book's question (a table
like Table 1, the tie at the best KS threshold, a negative above every score, a best
campaign depth inside the deciles, linear densities on [0, 1], rare positives), recompute
their answers independently (scikit-learn, brute force, closed forms), check that a copy
of the book's tuple answer earns nothing (or exactly the part that cannot change), and
that bad data are refused with a clear ValueError.
"""

from fractions import Fraction

import numpy as np
import pytest
import sympy
from sklearn.metrics import average_precision_score, roc_auc_score

from course_key import ch07, ch08, ch09, ch10
from course_key._variants import number_word, ordinal_word, ratio_code
from course_lib.exercises import REGISTRY

SEEDS = range(12)

TABLE_IDS = ["gini-normalized-table1", "gini-duplicated-negatives", "ap-table1",
             "auc-ap-eighth-object", "ks-table1"]

#: tuple answers drawn so that no part of the book's answer is right
NO_PART_KEPT = ["gini-duplicated-negatives", "auc-ap-eighth-object", "campaign-deciles",
                "operating-range", "operating-range-reversed", "best-accuracy-rare"]

#: tuple answers with one part that no data can change: (id, index of that part)
ONE_PART_FIXED = [("bubble-swaps", 0), ("uniform-auc-pr", 0), ("linear-ks", 1)]


def _variants(exercise_id, seeds=SEEDS):
    book = REGISTRY[exercise_id]
    return [book.variant(seed) for seed in seeds]


def _cross_ties(y, b):
    return {v for v, c in zip(b, y) if c == 1} & {v for v, c in zip(b, y) if c == 0}


@pytest.mark.parametrize("exercise_id", TABLE_IDS)
def test_table_variants_look_like_table1(exercise_id):
    for v in _variants(exercise_id):
        y, b = v.data["y"], v.data["b"]
        assert len(y) == len(b) == 7 and sum(y) == 3
        assert all(round(10 * s) == 10 * s and 0 <= s < 1 for s in b)
        assert len(_cross_ties(y, b)) == 1 and len(set(b)) == 6
        assert f"$b = ({', '.join(map(str, b))})$" in v.question


@pytest.mark.parametrize("exercise_id", NO_PART_KEPT)
def test_no_part_of_the_books_tuple_is_right(exercise_id):
    book = REGISTRY[exercise_id]
    for v in _variants(exercise_id, range(6)):
        for part, copied in zip(v.checker.parts, book.solution):
            assert part.verdict(copied)[0] == 0, (v.data, copied)
        assert v.check(book.solution).points == 0


@pytest.mark.parametrize(("exercise_id", "fixed"), ONE_PART_FIXED)
def test_a_part_no_data_can_change_is_the_only_one_a_copy_gets(exercise_id, fixed):
    book = REGISTRY[exercise_id]
    for v in _variants(exercise_id, range(4)):
        assert v.solution[fixed] == book.solution[fixed]
        assert v.check(book.solution).points == pytest.approx(book.points / 2)


def test_gini_and_ap_of_table_variants_agree_with_scikit_learn():
    for v in _variants("gini-normalized-table1"):
        y, b = v.data["y"], v.data["b"]
        assert float(v.solution) == pytest.approx(2 * roc_auc_score(y, b) - 1, abs=1e-12)
    for v in _variants("ap-table1"):
        y, b = v.data["y"], v.data["b"]
        assert float(v.solution) == pytest.approx(average_precision_score(y, b), abs=1e-12)
    for v in _variants("auc-ap-eighth-object"):
        y, b = list(v.data["y"]) + [0], list(v.data["b"]) + [v.data["extra"]]
        assert v.data["extra"] > max(v.data["b"])  # the new negative tops the list
        assert [float(x) for x in v.solution] == pytest.approx(
            [roc_auc_score(y, b), average_precision_score(y, b)], abs=1e-12)
        assert "Add an eighth object, a negative with score" in v.question


def test_ks_variants_peak_only_at_the_tie():
    for v in _variants("ks-table1"):
        y, b = np.array(v.data["y"]), np.array(v.data["b"])
        gaps = {t: Fraction(int(y[b >= t].sum()), 3) - Fraction(int((1 - y)[b >= t].sum()), 4)
                for t in set(b.tolist())}
        best = max(gaps.values())
        (tie,) = _cross_ties(v.data["y"], v.data["b"])
        assert v.solution == best > 0
        assert [t for t, g in gaps.items() if g == best] == [tie]
        assert v.worked.startswith(f"At theta = {tie}: ")


def test_campaign_variants_stop_inside_the_deciles():
    for v in _variants("campaign-deciles"):
        r, rev = v.data["responders"], v.data["revenue"]
        assert len(r) == 10 and all(a > c for a, c in zip(r, r[1:])) and r[-1] >= 1
        profits = [rev * sum(r[:d]) - 100 * d for d in range(1, 11)]
        depth = profits.index(max(profits)) + 1
        assert profits.count(max(profits)) == 1 and 2 <= depth <= 8
        assert v.solution == (depth, max(profits))
        assert f"the first {number_word(depth)} do" in v.worked


def test_counting_variants_recomputed():
    for v in _variants("bubble-swaps"):
        m1, m0 = v.data["positives"], v.data["negatives"]
        assert v.solution == (0, m1 * m0) and m1 < m0
    for v in _variants("precision-from-roc-point"):
        tp = Fraction(v.data["tpr"]) * v.data["positives"]
        fp = Fraction(v.data["fpr"]) * v.data["negatives"]
        assert tp.denominator == fp.denominator == 1 and v.solution == tp / (tp + fp)
        assert v.solution < Fraction(1, 2)  # a good-looking point, a poor precision
    for v in _variants("precision-thinned-negatives"):
        d = v.data
        assert v.solution == Fraction(d["tp"], d["tp"] + d["fp"] // d["keep"])
        assert d["fp"] % d["keep"] == 0 and d["fp"] >= 2 * d["tp"]
    for v in _variants("auc-from-gain-area"):
        m1, m0, area = v.data["positives"], v.data["negatives"], Fraction(v.data["area"])
        assert area == (m0 * v.solution + Fraction(m1, 2)) / (m0 + m1)
        assert Fraction(55, 100) <= v.solution <= Fraction(95, 100)


def _nec(fpr, tpr, pcf):
    """The normalized expected cost: misses weighted by PCF(+), false alarms by the rest."""
    return (1 - tpr) * pcf + fpr * (1 - pcf)


def test_cost_variants_recomputed():
    for v in _variants("nec-roc-point"):
        pcf, fpr, tpr = (Fraction(v.data[k]) for k in ("pcf", "fpr", "tpr"))
        assert v.solution == _nec(fpr, tpr, pcf) < min(pcf, 1 - pcf)  # beats both trivial
    for exercise_id in ("operating-range", "operating-range-reversed"):
        for v in _variants(exercise_id):
            fpr, tpr = Fraction(v.data["fpr"]), Fraction(v.data["tpr"])
            if exercise_id == "operating-range-reversed":
                assert tpr < fpr  # the book's point is under the diagonal: reverse it
                fpr, tpr = 1 - fpr, 1 - tpr
            low, high = v.solution
            # the classifier beats both trivial ones inside (low, high), not outside
            inside = [low + (high - low) * k / 10 for k in range(1, 10)]
            assert all(_nec(fpr, tpr, p) < min(p, 1 - p) for p in inside)
            for p in (low - Fraction(1, 1000), high + Fraction(1, 1000)):
                assert _nec(fpr, tpr, p) > min(p, 1 - p)


def _slopes(v):
    return Fraction(v.data["s1"]), Fraction(v.data["s0"])


def test_linear_variants_are_densities_and_their_answers_closed_forms():
    b, t = sympy.Symbol("b"), sympy.Symbol("theta", real=True)
    for v in _variants("linear-tpr-formula", range(4)):
        s1, s0 = _slopes(v)
        assert 0 < s1 <= 2 and 0 < s0 <= 2 and (s1, s0) != (2, 2)
        p1 = 1 + sympy.Rational(str(s1)) * (b - sympy.Rational(1, 2))
        assert sympy.integrate(p1, (b, 0, 1)) == 1 and p1.subs(b, 0) >= 0
        assert sympy.simplify(v.solution - sympy.integrate(p1, (b, t, 1))) == 0
        c1 = 1 - s1 / 2
        assert f"$p_1(b) = {float(c1):g} + {float(s1):g}b$" in v.question
    for v in _variants("linear-ks", range(4)):
        s1, s0 = _slopes(v)
        assert v.solution == ((s1 + s0) / 8, Fraction(1, 2))
    for v in _variants("swapped-densities", range(3)):
        s1, s0 = _slopes(v)
        # AUC of the original model: P(B1 > B0) for p1 = 1 + s1 (b - 1/2),
        # p0 = 1 - s0 (b - 1/2), in closed form 1/2 + (s1 + s0)/12
        auc = Fraction(1, 2) + (s1 + s0) / 12
        assert v.solution == (1 - auc, 1 - 2 * auc)


def test_best_accuracy_variants_closed_form():
    for v in _variants("best-accuracy-rare"):
        pi = Fraction(v.data["pi"])
        assert Fraction(2, 100) <= pi <= Fraction(20, 100)
        # pi 2 theta = (1 - pi)(2 - 2 theta): theta = 1 - pi, accuracy 1 - pi + pi^2
        assert v.solution == (1 - pi, 1 - pi + pi**2)


def test_rationals_are_read_exactly():
    # nsimplify writes 45471/1000000 as a product of powers of 2, 3, 5 and 7
    assert ch10._fr(sympy.Rational(45471, 1000000)) == Fraction(45471, 1000000)
    with pytest.raises(ValueError, match="rational"):
        ch10._fr(sympy.sqrt(2))


def test_bad_data_are_refused():
    with pytest.raises(ValueError, match="ordinal_word"):
        ordinal_word(13)
    with pytest.raises(ValueError):
        ratio_code("0.5")
    with pytest.raises(ValueError, match="counts"):
        ch07._precision_point({"fpr": "1/3", "tpr": "8/10", "positives": 20,
                               "negatives": 2000})
    with pytest.raises(ValueError, match="top the list"):
        ch07._eighth({"y": (0, 0, 0, 1, 1, 1, 0), "b": (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0),
                      "extra": 0.4})
    with pytest.raises(ValueError, match="decreasing"):
        ch08._campaign({"responders": (2, 3, 12, 9, 7, 6, 5, 4, 3, 1), "revenue": 15})
    with pytest.raises(ValueError, match="under the diagonal"):
        ch09._flipped_range({"fpr": "1/10", "tpr": "2/10"})
    with pytest.raises(ValueError, match="slopes"):
        ch10._tpr_formula({"s1": "3", "s0": "2"})
