"""Chapter 12 as the reader sees it: the syllabus fact F-60 and the chapter's other
numbers in the stored notebook's glue, and the chapter's figures."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued, load, stored

from course_lib import plotting, roc_curve

CH12 = chapter("12_pitfalls")


def test_F60_search_ranking_auc_is_0_9999_and_balanced_0_9998():
    """F-60: 10^6 objects, 10 positives after 100 negatives: AUC = 0.9999; with
    500,000 positives and the same top: 0.9998 (exact fractions in the book)."""
    g = glued(CH12)
    assert g["n_pages"] == "1000000" and g["n_first"] == "100"
    assert g["auc_rare"] == "'99989/99999'"
    assert float(g["auc_rare_float"]) == stored(1 - 100 / 999_990)
    assert round(float(g["auc_rare_float"]), 4) == 0.9999
    assert g["n_half"] == "500000"
    assert g["auc_half"] == "'4999/5000'"
    assert float(g["auc_half_float"]) == stored(0.9998)


def test_F60_the_top_of_both_rankings_is_empty():
    """F-60's point: precision at 10 is 0 in both rankings; average precision is low
    for the rare positives only."""
    g = glued(CH12)
    assert float(g["p10_both"]) == 0.0
    assert float(g["ap_rare"]) == pytest.approx(np.mean([j / (100 + j) for j in range(1, 11)]))
    assert float(g["ap_half"]) > 0.99
    text = cell_text(CH12)
    assert "AUC = 99989/99999 = 0.9998999990" in text
    assert "AUC = 4999/5000 = 0.9998000000" in text


def test_chapter12_auc_at_k():
    """AUC of the top k alone: 40 of the 140 negatives in the top 150 are beaten."""
    g = glued(CH12)
    assert float(g["auck_rare_150"]) == pytest.approx(40 / 140)
    assert float(g["auck_rare_1000"]) == pytest.approx(890 / 990)
    assert float(g["auck_half_10000"]) == 0.0
    # AUC@k is undefined (one class only) at k = 10 and 100 in both rankings.
    assert g["n_undefined"] == "4"


def test_chapter12_auc_against_best_accuracy_on_the_linear_model():
    """D's remark: AUC 5/6 against the best accuracy 3/4 (at 1/2); KS 1/2, Gini 2/3;
    with one positive in ten the best accuracy is 91/100."""
    g = glued(CH12)
    assert (g["model_auc"], g["model_best_acc"], g["model_best_theta"]) == (
        "'5/6'", "'3/4'", "'1/2'")
    assert (g["model_ks"], g["model_gini"]) == ("'1/2'", "'2/3'")
    assert g["acc_pi01"] == "'91/100'"
    assert float(g["sample_auc_big"]) == pytest.approx(5 / 6, abs=0.01)
    assert float(g["sample_acc_big"]) == pytest.approx(3 / 4, abs=0.01)


def test_chapter12_modest_auc_useful_shapes():
    """Dyakonov's remark 4: AUCs near 0.6, yet no defaulter in the credit model's
    bottom 16% and no miss in the churn model's top 4%."""
    g = glued(CH12)
    for key in ("shape_auc_credit", "shape_auc_churn", "shape_auc_evenly"):
        assert 0.55 < float(g[key]) < 0.65
    assert float(g["bottom_pos_credit"]) == 0.0
    assert float(g["bottom_pos_even"]) > 100
    assert float(g["top_prec_churn"]) == 1.0
    assert float(g["top_prec_even"]) < 0.5
    assert g["q2_auc"] == "'3/5'"


def test_chapter12_feature_screening_misses_the_bump():
    """2|AUC - 1/2| sees monotone features, not the one with positives in the middle;
    -|x - c| makes that one perfect."""
    g = glued(CH12)
    assert float(g["screen_exp"]) > 0.2 and abs(float(g["corr_exp"])) < 0.1
    assert float(g["auc_dec"]) < 0.5 and float(g["screen_dec"]) > 0.2
    assert float(g["screen_mid"]) < 0.05
    assert float(g["mid_screen_x"]) < 0.05
    assert float(g["mid_auc_dist"]) == 1.0
    assert float(g["screen_mid_hat"]) > 0.3
    # Out of sample (centre from one half, AUC on the other) the screen holds up.
    assert float(g["screen_mid_out"]) > 0.3
    assert abs(float(g["screen_mid_out"]) - float(g["screen_mid_hat"])) < 0.05
    assert float(g["q3_auc_dist"]) == 1.0


def test_chapter12_exercise_solutions():
    g = glued(CH12)
    assert g["q1_auc"] == "'195/199'"
    assert float(g["q1_auc_float"]) == stored(195 / 199)
    assert float(g["q1_p10"]) == 0.0
    assert float(g["q1_p25"]) == stored(5 / 25) and float(g["q1_r25"]) == 1.0
    assert float(g["q3_screen"]) < 0.1


def test_plot_ranking_strip_colours_follow_the_ranking():
    y = np.array([0, 1, 0, 0, 1, 1])
    s = np.array([0.9, 0.1, 0.8, 0.3, 0.7, 0.2])  # order: 0, 2, 4, 3, 5, 1
    ax = plotting.plot_ranking_strip(y, s, n_top=4, per_row=3)
    faces = ax.collections[0].get_facecolor()
    pos = matplotlib.colors.to_rgba(plotting.COLORS["point"])
    assert [tuple(f) == pos for f in faces] == [False, False, True, False]
    with pytest.raises(ValueError):
        plotting.plot_ranking_strip(y, s, n_top=7, ax=ax)
    plt.close(ax.get_figure())


def test_plot_roc_shape_draws_the_curve_and_both_edge_runs():
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0, 0, 0])
    s = np.arange(10, 0, -1)
    ax = plotting.plot_roc_shape(y, s, min_share=0.1)
    curve = roc_curve(y, s)
    line = ax.get_lines()[1]
    assert np.allclose(line.get_xdata(), curve.fpr)
    assert np.allclose(line.get_ydata(), curve.tpr)
    assert [t.get_text() for t in ax.texts] == [
        "top 20% of objects:\npositives only", "bottom 40% of objects:\nnegatives only"]
    n_lines = len(ax.get_lines())
    plotting.plot_roc_shape(y, s, ax=ax, highlight=False, label="again")
    assert len(ax.get_lines()) == n_lines + 1  # no second diagonal
    plt.close(ax.get_figure())


def test_plot_feature_classes_counts_each_class():
    x = np.array([0.1, 0.2, 0.6, 0.9, 0.5])
    y = np.array([0, 0, 1, 0, 1])
    ax = plotting.plot_feature_classes(x, y, bins=2)
    heights = [p.get_height() for p in ax.patches if hasattr(p, "get_height")]
    assert sum(heights[:2]) == 3  # the negatives' bars
    plt.close(ax.get_figure())


def test_chapter12_binarized_answer_refers_back_to_chapter3():
    """The binarized answer's area is derived once, in chapter 3; chapter 12 refers back."""
    markdown = "\n".join("".join(c["source"]) for c in load(CH12)["cells"]
                         if c["cell_type"] == "markdown")
    assert "{ref}`sec-binarized-auc`" in markdown


def _prose(path) -> str:
    return " ".join(" ".join("".join(c["source"]) for c in load(path)["cells"]
                             if c["cell_type"] == "markdown").split())


def test_chapter12_writes_the_number_of_pages_m():
    """RPP = k/m beside m1 recall@k / k: the book's m objects, not n (issue 26)."""
    prose = _prose(CH12)
    assert r"$\mathrm{RPP} = k/m$ ($m$ pages in all)" in prose
    assert "k/n" not in re.sub(r"\{doc\}`[^`]*`", "", prose)  # not in ../book/notation


def test_chapter12_binarized_figure_redraws_chapter10s():
    """fig-12-binarized is chapter 10's figure drawn again: the same model (the linear
    densities) at the same threshold, the best one, 1/2."""
    prose = _prose(CH12)
    assert "a figure of chapter 10" not in prose
    assert "It redraws chapter 10's {numref}`fig-10-binarized`" in prose
    ch10 = load(chapter("10_closed_forms"))
    code10 = "\n".join("".join(c["source"]) for c in ch10["cells"] if c["cell_type"] == "code")
    code12 = "\n".join("".join(c["source"]) for c in load(CH12)["cells"]
                       if c["cell_type"] == "code")
    assert "model = cl.LINEAR_DENSITIES" in code10 and "model = cl.LINEAR_DENSITIES" in code12
    assert "plotting.plot_binarized_roc(model, 0.5," in code10
    assert "plotting.plot_binarized_roc(model, best.threshold," in code12
    assert glued(CH12)["model_best_theta"] == "'1/2'"
