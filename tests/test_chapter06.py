"""Chapter 6 as the reader sees it: the syllabus facts in the stored notebook's glue."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued, stored
from scipy.stats import somersd

import course_lib as cl
from course_lib import plotting

CH6 = chapter("06_gini_ml")


def test_F23_chapter6_table1_cap_point_and_gini():
    """F-23: Table 1's CAP curve passes (2/7, 1/3) at theta = 0.4; Gini = 7/12."""
    g = glued(CH6)
    assert g["theta"] == "0.4"
    assert (g["cap_pr"], g["cap_tpr"]) == ("'2/7'", "'1/3'")
    assert g["gini_t1"] == "'7/12'"
    assert (g["s_model_t1"], g["s_ideal_t1"]) == ("'1/6'", "'2/7'")
    assert float(g["gini_t1_float"]) == stored(7 / 12)


def test_F24_chapter6_gini_is_two_auc_minus_one():
    """F-24: Gini = 2 AUC - 1 symbolically, on Table 1 and on random samples."""
    g = glued(CH6)
    assert g["auc_t1"] == "'19/24'" and g["gini_t1"] == "'7/12'"
    text = cell_text(CH6)
    assert "Gini = 7/12; AUC = 19/24, 2 AUC - 1 = 7/12" in text
    assert "distribution argument: 2*AUC - 1" in text
    assert "integral argument:    2*AUC - 1" in text
    assert int(g["n_checked"]) > 400 and int(g["n_ties"]) > 0
    assert "exactly in all" in text


def test_F25_chapter6_habr_fifteen_objects():
    """F-25: AUC 22/27, unnormalized Gini 17/90, perfect 0.3, normalized 17/27."""
    g = glued(CH6)
    assert g["auc15"] == "'22/27'"
    assert float(g["auc15_float"]) == pytest.approx(0.8148, abs=5e-5)
    assert g["s_model15"] == "'17/90'"
    assert float(g["s_model15_float"]) == pytest.approx(0.1889, abs=5e-5)
    assert float(g["s_ideal15"]) == stored(0.3)
    assert g["gini15"] == "'17/27'"
    assert float(g["gini15_float"]) == pytest.approx(0.63, abs=5e-3)
    assert "Gini of the reversed scores: -17/27" in cell_text(CH6)


def test_F26_chapter6_bubble_sort_swaps():
    """F-26: 10 swaps for the model, 27 for a random order, (27 - 10)/27 = 17/27."""
    g = glued(CH6)
    assert (g["swaps15"], g["swaps_random15"]) == ("10", "27")
    assert g["swaps_formula"] == "'(27 - 10) / 27'"
    assert g["swaps_ratio"] == "'17/27'"
    assert float(g["swaps_ratio_float"]) == pytest.approx(0.63, abs=5e-3)
    assert float(g["shuffled_mean"]) == pytest.approx(27, abs=0.5)
    text = cell_text(CH6)
    # the O(n log n) count agrees with the exact Gini on 200,000 objects
    assert "1 - 2 swaps / (m1 m0) = 0.747157" in text
    assert "gini_normalized       = 0.747157" in text


def test_F27_chapter6_regression_gini():
    """F-27: payouts 5,2,10,3,0,5,0,0: the curve passes (0.5, 0.8), Gini 21/37."""
    g = glued(CH6)
    assert (float(g["reg_x"]), float(g["reg_y"])) == (0.5, 0.8)
    assert g["gini_reg"] == "'21/37'"
    assert float(g["gini_reg_float"]) == pytest.approx(0.57, abs=5e-3)


def test_F28_chapter6_marketing_campaign():
    """F-28: all 100 contacted: cost 200, income 150; top 50%: cost 100, income 135."""
    g = glued(CH6)
    assert (float(g["all_cost"]), float(g["all_income"])) == (200, 150)
    assert (float(g["half_cost"]), float(g["half_income"])) == (100, 135)
    assert float(g["half_profit"]) == 35


def test_chapter6_exercise_solutions():
    g = glued(CH6)
    assert float(g["auc_from_gini"]) == pytest.approx(0.7)
    assert g["gini_ex_t1"] == "'7/12'"
    assert (g["auc_dup"], g["gini_dup"], g["s_model_dup"]) == (
        "'19/24'", "'7/12'", "'7/33'")
    assert (g["swaps_ideal"], g["swaps_worst"]) == ("0", "54")
    assert float(g["gini_fn_15"]) == stored(17 / 27)
    text = cell_text(CH6)
    from course_lib.exercises import exercises_for

    for ex in exercises_for(6):
        assert f"{ex.id}: passed" in text, ex.id


def test_plot_cap_draws_model_and_ideal_curves():
    payout = [5, 2, 10, 3, 0, 5, 0, 0]
    score = [8, 7, 6, 5, 4, 3, 2, 1]
    ax = plotting.plot_cap(payout, score, threshold=5)
    model = cl.cap_curve(payout, score)
    ideal = cl.cap_curve(payout, payout)
    lines = {line.get_label(): line for line in ax.lines}
    assert np.array_equal(lines["model"].get_ydata(), model.share)
    assert np.array_equal(lines["ideal"].get_xdata(), ideal.rate)
    assert np.array_equal(lines["ideal"].get_ydata(), ideal.share)
    assert [t.get_text() for t in ax.texts] == ["θ = 5: (1/2, 4/5)"]
    assert ax.get_ylabel() == "share of the target"
    plt.close(ax.get_figure())


def test_plot_cap_without_ideal_or_shading():
    ax = plotting.plot_cap([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.4], ideal=False,
                           shade=False)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["random", "model"]
    assert len(ax.collections) == 0
    assert ax.get_ylabel() == "share of positives (TPR)"
    plt.close(ax.get_figure())


def test_chapter6_accuracy_ratio_and_somers_d_are_the_gini():
    """Names met elsewhere: the accuracy ratio (CAP areas) and Somers' D of the score
    given the label, scipy's somersd(y_true, y_score), both equal 2 AUC - 1 in the
    chapter (Table 1 has a positive and a negative tied at 0.2); the other direction
    does not."""
    g = glued(CH6)
    assert float(g["ar_t1"]) == stored(7 / 12)
    assert float(g["somers_t1"]) == stored(7 / 12)
    assert float(g["somers_15"]) == stored(17 / 27)
    # D(label | score): the same 9 - 2 = 7 net pairs over the 20 pairs of different scores
    assert float(g["somers_t1_rev"]) == stored(7 / 20)
    text = cell_text(CH6)
    assert "D(score | label)" in text and "D(label | score)" in text


def test_somers_d_of_score_given_label_is_gini_on_random_data_with_ties():
    """scipy.stats.somersd(y_true, y_score) = gini_normalized = 2 AUC - 1, many ties."""
    rng = np.random.default_rng(612)
    n_tied = 0
    for _ in range(200):
        n = int(rng.integers(2, 40))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        b = rng.integers(0, 5, n).astype(float)
        if np.unique(b).size == 1:
            continue  # scipy returns nan for a constant score (Gini is 0 there)
        n_tied += bool(np.intersect1d(b[y == 1], b[y == 0]).size)
        gini = float(cl.gini_normalized(y, b, exact=True))
        assert somersd(y, b).statistic == pytest.approx(gini, abs=1e-12)
        assert 2 * cl.roc_auc(y, b) - 1 == pytest.approx(gini, abs=1e-12)
    assert n_tied > 100
