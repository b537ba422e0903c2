"""Chapter 16 as the reader sees it: the numbers glued into the prose, recomputed here
with scikit-learn and scipy as oracles (never with course_lib.multiclass itself).

The two models are refitted exactly as the chapter fits them (five-fold
cross-validation with a fixed seed on the wine data bundled with scikit-learn).
"""

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued
from scipy.stats import mannwhitneyu
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, recall_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

CH16 = chapter("16_many_classes")
TOL = 1e-9  # glued values keep 10 significant digits


@pytest.fixture(scope="module")
def data():
    wine = load_wine()
    y = wine.target
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    models = {}
    for key, column in {"alc": 0, "od": 11}.items():
        pipe = make_pipeline(StandardScaler(), LogisticRegression())
        models[key] = cross_val_predict(pipe, wine.data[:, [column]], y, cv=folds,
                                        method="predict_proba")
    return y, models


def g(key):
    return float(glued(CH16)[key])


def u_auc(pos, neg):
    """Exact AUC of two samples from scipy's Mann-Whitney U (ties count 1/2)."""
    u = mannwhitneyu(pos, neg, alternative="two-sided").statistic
    return Fraction(int(round(2 * u)), 2 * len(pos) * len(neg))


def directed(y, P, i, j):
    """Hand and Till's A(i|j) from the Mann-Whitney U of column i."""
    return u_auc(P[y == i, i], P[y == j, i])


def test_the_wine_data():
    """scikit-learn's load_wine documentation: 178 wines, classes of 59, 71 and 48."""
    gl = glued(CH16)
    assert (gl["n_wines"], gl["n0"], gl["n1"], gl["n2"]) == ("178", "59", "71", "48")
    assert "wines per cultivar: [59 71 48]" in cell_text(CH16)


def test_confusion_matrix_numbers(data):
    """sklearn.metrics.accuracy_score and recall_score of the most probable class."""
    y, models = data
    pred = models["alc"].argmax(axis=1)
    assert g("acc_alc") == pytest.approx(accuracy_score(y, pred), abs=TOL)
    recall = recall_score(y, pred, average=None)
    assert g("recall1_alc") == pytest.approx(recall[1], abs=TOL)
    assert g("recall2_alc") == pytest.approx(recall[2], abs=TOL) == 0.25


def test_one_vs_rest_areas(data):
    """sklearn.metrics.roc_auc_score(multi_class="ovr", average=None), per cultivar."""
    y, models = data
    for key, P in models.items():
        per = roc_auc_score(y, P, multi_class="ovr", average=None)
        for k in range(3):
            assert g(f"ovr{k}_{key}") == pytest.approx(per[k], abs=TOL)
    assert g("ovr1_alc") > g("ovr0_alc") > g("ovr2_alc")
    assert g("ovr2_od") > g("ovr0_od") > g("ovr1_od")


def test_the_averages_and_their_disagreement(data):
    """roc_auc_score(multi_class="ovr"/"ovo", average="macro"/"weighted"/"micro")
    (scikit-learn 1.9.1); Hand and Till (2001) eq. for M. The ovr averages prefer the
    alcohol model, M the ratio model."""
    y, models = data
    for key, P in models.items():
        for name, mc, av in [("macro", "ovr", "macro"), ("weighted", "ovr", "weighted"),
                             ("micro", "ovr", "micro"), ("m", "ovo", "macro"),
                             ("ovow", "ovo", "weighted")]:
            assert g(f"{name}_{key}") == pytest.approx(
                roc_auc_score(y, P, multi_class=mc, average=av), abs=TOL), (name, key)
    for name in ("macro", "weighted", "micro"):
        assert g(f"{name}_alc") > g(f"{name}_od")
    assert g("m_od") > g("m_alc")
    assert g("share1") == pytest.approx(71 / 178, abs=TOL)


def test_hand_till_m_exact_fraction(data):
    """Hand and Till (2001), their definition: M = mean over pairs of (A(i|j) + A(j|i))/2, the
    A from scipy's Mann-Whitney U; the chapter's fraction is exactly this."""
    y, models = data
    for key, P in models.items():
        pairs = [(directed(y, P, i, j) + directed(y, P, j, i)) / 2
                 for i, j in combinations(range(3), 2)]
        m = sum(pairs) / 3
        assert g(f"m_{key}") == pytest.approx(float(m), abs=TOL)
        if key == "alc":
            assert glued(CH16)["m_alc_exact"] == f"'{m}'" == "'1011023/1206432'"


def test_pairwise_table_values(data):
    """A(i|j) = roc_auc_score of column i on the objects of classes i and j (Hand and
    Till 2001, their definition)."""
    y, models = data

    def a(key, i, j):
        P = models[key]
        m = (y == i) | (y == j)
        return roc_auc_score(y[m] == i, P[m, i])

    assert g("a01_alc") == pytest.approx(a("alc", 0, 1), abs=TOL)
    assert g("a02_alc") == pytest.approx(a("alc", 0, 2), abs=TOL)
    assert g("a20_alc") == pytest.approx(a("alc", 2, 0), abs=TOL)
    assert g("pair02_alc") == pytest.approx((a("alc", 0, 2) + a("alc", 2, 0)) / 2, abs=TOL)
    assert g("a02_od") == pytest.approx(a("od", 0, 2), abs=TOL) and g("a02_od") < 1
    assert g("a20_od") == 1.0 == a("od", 2, 0)
    assert g("a01_od") == pytest.approx(a("od", 0, 1), abs=TOL)
    assert g("a10_od") == pytest.approx(a("od", 1, 0), abs=TOL)
    assert g("pair01_od") == pytest.approx((a("od", 0, 1) + a("od", 1, 0)) / 2, abs=TOL)
    # the weakest pair of each model, as the text and the caption say
    pair = {k: {(i, j): (a(k, i, j) + a(k, j, i)) / 2 for i, j in combinations(range(3), 2)}
            for k in models}
    assert min(pair["alc"], key=pair["alc"].get) == (0, 2)
    assert min(pair["od"], key=pair["od"].get) == (0, 1)


def test_ovr_area_is_the_mixture_of_pairwise_areas(data):
    """The one-vs-rest area of cultivar 0 (Mann-Whitney U on class 0 against the rest)
    equals (n_1 A(0|1) + n_2 A(0|2)) / (n_1 + n_2), exactly."""
    y, models = data
    P = models["alc"]
    ovr0 = u_auc(P[y == 0, 0], P[y != 0, 0])
    mix = (71 * directed(y, P, 0, 1) + 48 * directed(y, P, 0, 2)) / 119
    assert ovr0 == mix
    assert f"AUC_0 = {ovr0} = {float(ovr0):.6f}" in cell_text(CH16)
    assert f"mixture of A(0|1), A(0|2): {mix}, equal: True" in cell_text(CH16)


def test_cultivar_2_four_times_as_common(data):
    """Weights 4 on cultivar 2 = its rows repeated four times in
    sklearn.metrics.roc_auc_score (ovr per class, macro, weighted, micro; ovo). M does
    not move; the ovr ranking of the two models turns over."""
    y, models = data
    w = np.where(y == 2, 4, 1)
    ry = np.repeat(y, w)
    for key, P in models.items():
        rP = np.repeat(P, w, axis=0)
        per = roc_auc_score(ry, rP, multi_class="ovr", average=None)
        assert g(f"w4_ovr0_{key}") == pytest.approx(per[0], abs=TOL)
        assert g(f"w4_ovr2_{key}") == pytest.approx(per[2], abs=TOL)
        assert g(f"w4_ovr2_{key}") == pytest.approx(g(f"ovr2_{key}"), abs=TOL)
        for name, av in [("macro", "macro"), ("weighted", "weighted"), ("micro", "micro")]:
            assert g(f"w4_{name}_{key}") == pytest.approx(
                roc_auc_score(ry, rP, multi_class="ovr", average=av), abs=TOL)
        assert g(f"w4_ovow_{key}") == pytest.approx(
            roc_auc_score(ry, rP, multi_class="ovo", average="weighted"), abs=TOL)
        m4 = roc_auc_score(ry, rP, multi_class="ovo", average="macro")
        assert g(f"w4_m_{key}") == pytest.approx(m4, abs=TOL)
        assert m4 == pytest.approx(roc_auc_score(y, P, multi_class="ovo"), abs=1e-12)
    assert g("w4_ovr0_alc") < g("ovr0_alc")
    for name in ("macro", "weighted", "micro"):
        assert g(f"w4_{name}_od") > g(f"w4_{name}_alc")
    assert glued(CH16)["m_same"] == "'True'"


def test_sklearn_agreement_is_printed():
    text = cell_text(CH16)
    assert text.count("|difference| < 1e-12: True") == 8
    assert "False" not in text.split("|difference|")[-1]


def test_exercise_values():
    """Exercise answers recomputed by counting pairs (Mann-Whitney U, scipy)."""
    gl = glued(CH16)
    y = np.array(["a", "a", "b", "b", "b", "c"])
    P = np.array([[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2],
                  [0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.4, 0.2, 0.4]])
    auc_a = u_auc(P[y == "a", 0], P[y != "a", 0])
    assert auc_a == Fraction(13, 16) and gl["q1_auc"] == "'13/16'" and gl["q1_wins"] == "6.5"
    code = {"a": 0, "b": 1, "c": 2}
    yi = np.array([code[v] for v in y])
    pairs = [(directed(yi, P, i, j) + directed(yi, P, j, i)) / 2
             for i, j in combinations(range(3), 2)]
    assert sum(pairs) / 3 == Fraction(31, 36) and gl["q2_m"] == "'31/36'"
    assert [gl[k] for k in ("q2_pab", "q2_pac", "q2_pbc")] == ["'23/24'", "'5/8'", "'1'"]
    macro = sum(u_auc(P[yi == k, k], P[yi != k, k]) for k in range(3)) / 3
    assert gl["q2_macro"] == f"'{macro}'" == "'217/240'"
    assert gl["q3"] == "'33/40'" and gl["q4"] == "'27/40'"


def test_function_exercise_on_the_wine_data(data):
    """The reference solution of hand-till-m-function reproduces
    roc_auc_score(multi_class="ovo") on both models."""
    y, models = data
    assert g("q5_alc") == pytest.approx(roc_auc_score(y, models["alc"], multi_class="ovo"),
                                        abs=TOL)
    assert g("q5_od") == pytest.approx(roc_auc_score(y, models["od"], multi_class="ovo"),
                                       abs=TOL)


def test_equal_rows_hold_within_a_fold(data):
    """Wines of equal alcohol content get equal probability rows exactly when the same
    fold's model scores them; the glued counts of repeated contents and rows."""
    y, models = data
    wine = load_wine()
    alcohol = wine.data[:, 0]
    fold = np.empty(y.size, dtype=int)
    for k, (_, test) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0)
                                   .split(wine.data, y)):
        fold[test] = k
    rows = {}
    for i, row in enumerate(map(tuple, models["alc"])):
        rows.setdefault(row, []).append(i)
    for members in rows.values():  # equal rows: one content, one fold
        assert len({(alcohol[i], fold[i]) for i in members}) == 1
    pairs = {(a, f) for a, f in zip(alcohol, fold)}
    assert len(rows) == len(pairs)  # and every (content, fold) is one row
    repeats_alc = y.size - len(set(alcohol))
    repeats_row = y.size - len(rows)
    assert glued(CH16)["alc_repeats"] == str(repeats_alc) == "52"
    assert glued(CH16)["row_repeats"] == str(repeats_row) == "22"
