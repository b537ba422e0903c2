"""Chapter 8 as the reader sees it: the syllabus facts in the stored notebook's glue."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued

import course_lib as cl
from course_lib import plotting

CH8 = chapter("08_gain_lift_ks")

Y1 = np.array([0, 0, 0, 1, 1, 1, 0])
B1 = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])


def test_F40_chapter8_gain_area_of_table1_is_two_thirds():
    """F-40: the area under Table 1's gain curve is (4 * 19/24 + 3/2) / 7 = 2/3, exactly."""
    g = glued(CH8)
    assert g["auc1"] == "'19/24'"
    assert g["gain_area1"] == "'2/3'"
    text = cell_text(CH8)
    assert re.search(r"area under the gain curve 2/3", text)
    assert re.search(r"\(m0 AUC \+ m1/2\)/\(m0 \+ m1\) 2/3", text)


def test_F40_chapter8_formula_checked_on_random_samples():
    """F-40: the chapter checks the formula exactly on a few hundred random samples."""
    g = glued(CH8)
    assert int(g["n_checked"]) > 200
    assert f"{g['n_checked']} random samples: area = (m0 AUC + m1/2)/(m0 + m1)" in cell_text(CH8)


def test_F40_chapter8_area_difference_under_imbalance_is_pi_auc_minus_half():
    """F-40 (G): with 3% positives the ROC and gain areas differ by pi (AUC - 1/2), about
    0.005 for a weak model, and the curves by at most pi KS horizontally."""
    g = glued(CH8)
    auc, area = float(g["rare_auc"]), float(g["rare_area"])
    diff, formula = float(g["rare_diff"]), float(g["rare_formula"])
    # each of the three is stored to 10 significant digits (course_lib.notebook)
    assert diff == pytest.approx(auc - area, abs=1e-10)
    assert diff == pytest.approx(0.03 * (auc - 0.5), abs=1e-12)
    assert formula == pytest.approx(diff, abs=1e-12)
    assert 0.003 < diff < 0.007
    assert 0 < float(g["rare_gap"]) < 0.03
    assert float(g["even_diff"]) > 10 * diff


def test_F41_chapter8_profit_of_top_deciles_of_source_D():
    """F-41: cost 1 per contact, 5 per response on D's table: top 10% cost 11,238,
    income 12,860, profit 1,622; top 20% cost 22,475, income 17,420, profit -5,055."""
    g = glued(CH8)
    assert [float(g[k]) for k in ("cost10", "income10", "profit10")] == [11238, 12860, 1622]
    assert [float(g[k]) for k in ("cost20", "income20", "profit20")] == [22475, 17420, -5055]
    assert (g["resp10"], g["resp20"]) == ("2572", "3484")
    assert g["d_total"] == "112375"


def test_F41_chapter8_D_lift_is_cumulative():
    """F-41: D's printed lift of row 2 (3.320) is cum_%1 / cum_%; the text's cum_%1 / %
    would give 6.640."""
    g = glued(CH8)
    assert float(g["d_lift2"]) == pytest.approx(3.320, abs=5e-4)
    assert float(g["d_lift2_text"]) == pytest.approx(6.640, abs=5e-4)


def test_F41_chapter8_best_decile_depth_and_profit_curve():
    """F-41: only D's first decile pays; on the simulated sample the profit curve's best
    cut-off beats the best whole number of deciles."""
    g = glued(CH8)
    assert g["d_best_depth"] == "1" and g["d_paying"] == "1"
    assert float(g["d_all_loss"]) == 112375 - 5 * 5247
    assert float(g["best_profit"]) > float(g["decile_best_profit"]) > 0
    assert 0 < float(g["best_rate"]) < 0.2


def test_chapter8_gain_lift_ks_of_the_sample():
    """Gain-Top-10%, Lift-Top-10% and KS of the simulated sample are consistent."""
    g = glued(CH8)
    gain, lift = float(g["gain_top10"]), float(g["lift_top10"])
    assert lift == pytest.approx(gain / 0.1)
    assert float(g["ks_column"]) <= float(g["ks"]) + 1e-12
    assert "ks1" not in g  # Table 1's KS is exercise ks-table1's answer (issue 28, item 2)
    assert (g["tie_dpr"], g["tie_dtpr"]) == ("'2/7'", "'1/3'")


def test_chapter8_exercise_solutions():
    """The worked solutions of the chapter's exercises glue the checked answers."""
    g = glued(CH8)
    assert g["ex_auc_gain"] == "'11/18'"
    assert float(g["ex_auc_gain_gap"]) == pytest.approx(0.1 * (11 / 18 - 0.5))
    assert g["ex_ks"] == "'1/2'" and g["ex_ks_fn"] == "'1/2'"
    assert g["ex_max_lift"] == "'10'"
    assert (g["ex_depth"], g["ex_profit"]) == ("5", "640")
    assert 15 * (30 + 18 + 12 + 9 + 7) - 500 == 640


def test_chapter8_has_an_explorer_with_the_chapter_prices():
    """The threshold explorer of the profit section uses cost 1 and income 5."""
    import json

    nb = json.loads(CH8.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    explorer = [c for c in cells if c.startswith("threshold_explorer(")]
    assert len(explorer) == 1 and "costs=(1, 5)" in explorer[0]


# ------------------------------------------------------------- the figures


def test_gain_figure_draws_the_gain_curve():
    ax = plotting.plot_gain_curve(Y1, B1, deciles=True, mark_rate=0.1)
    c = cl.gain_curve(Y1, B1)
    model = [ln for ln in ax.get_lines() if ln.get_label() == "model"][0]
    np.testing.assert_allclose(model.get_xydata(), np.column_stack([c.rate, c.tpr]))
    ideal = [ln for ln in ax.get_lines() if ln.get_label() == "ideal"][0]
    np.testing.assert_allclose(ideal.get_xdata(), [0, 3 / 7, 1])
    plt.close(ax.get_figure())


def test_lift_figure_draws_the_lift_curve():
    ax = plotting.plot_lift_curve(Y1, B1, mark_rate=0.1)
    c = cl.lift_curve(Y1, B1)
    model = [ln for ln in ax.get_lines() if ln.get_label() == "model"][0]
    np.testing.assert_allclose(model.get_ydata(), c.lift)
    plt.close(ax.get_figure())


def test_ks_figure_marks_the_gap_at_the_ks_rate():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300) + y, 1)
    ax = plotting.plot_ks_curve(y, s)
    c = cl.ks_curve(y, s)
    gap = [ln for ln in ax.get_lines() if ln.get_label() == "largest gap"][0]
    (x0, f), (x1, t) = gap.get_xydata()
    assert x0 == x1 == c.ks_rate
    assert t - f == pytest.approx(c.ks)
    plt.close(ax.get_figure())


def test_profit_figure_marks_the_best_cut():
    ax = plotting.plot_profit_curve(Y1, B1, cost=1, revenue=3)
    c = cl.profit_curve(Y1, B1, cost=1, revenue=3)
    best = ax.get_lines()[-1]
    assert best.get_xydata().tolist() == [[c.best_rate, c.best_profit]]
    plt.close(ax.get_figure())


def test_gain_vs_roc_figure_draws_both_curves():
    ax = plotting.plot_gain_vs_roc(Y1, B1)
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    roc, gain = cl.roc_curve(Y1, B1), cl.gain_curve(Y1, B1)
    np.testing.assert_allclose(lines[0].get_xydata(), np.column_stack([roc.fpr, roc.tpr]))
    np.testing.assert_allclose(lines[1].get_xydata(), np.column_stack([gain.rate, gain.tpr]))
    plt.close(ax.get_figure())


def test_chapter8_youden_j_maximum_is_the_ks_distance():
    """Youden's J = TPR - FPR; its maximum over the thresholds of the chapter's six objects
    (scores 0.9 ... 0.3, positives first, third and fourth) is their KS = 2/3, at the KS
    threshold 0.6 (all 3 positives, 1 of 3 negatives), where the balanced accuracy is
    (1 + J)/2 = 5/6. Table 1's KS is left to exercise ks-table1."""
    g = glued(CH8)
    y6, b6 = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.3]
    assert g["youden_max"] == "'2/3'" and float(g["youden_theta"]) == 0.6
    assert (g["ks6_tp"], g["ks6_fp"], g["m0_6"]) == ("3", "1", "3")
    assert g["youden_ba"] == "'5/6'"
    assert cl.ks_statistic(y6, b6) == pytest.approx(2 / 3)
    roc = cl.roc_curve(Y1, B1)
    assert np.max(roc.tpr - roc.fpr) == cl.ks_statistic(Y1, B1) == 0.5
    assert re.search(r"threshold +TPR +FPR +J\n", cell_text(CH8))
