"""Chapter 2 as the reader sees it: the syllabus facts in the stored notebook's glue."""

import re

from notebook_tools import cell_text, chapter, glued, stored

CH2 = chapter("02_roc_grid")


def test_F10_chapter2_threshold_point_is_quarter_two_thirds():
    """F-10: threshold c = 0.25 on Table 1 gives (FPR, TPR) = (1/4, 2/3) in the book."""
    g = glued(CH2)
    assert g["theta"] == "0.25"
    assert (g["fpr_theta"], g["tpr_theta"]) == ("'1/4'", "'2/3'")


def test_F11_chapter2_one_class_auc_is_nan_and_curve_refuses():
    """F-11: labels (0,0,0) have no ROC curve: the chapter shows nan, a warning, an error."""
    text = cell_text(CH2)
    assert "roc_auc: nan" in text
    assert "warning: UndefinedMetricWarning" in text
    assert "roc_curve: ValueError" in text


def test_F12_chapter2_auc_is_19_24_three_ways():
    """F-12: AUC(Table 1) = 19/24 ~ 0.7917, the same by area, pairs and ranks."""
    g = glued(CH2)
    assert g["auc_exact"] == "'19/24'"
    assert float(g["auc_float"]) == stored(19 / 24)
    assert float(g["auc_pairs_num"]) == 9.5 and g["n_pairs"] == "12"
    text = cell_text(CH2)
    for label in ("area of the path", "pairs counted", "Mann-Whitney U/(m1m0)"):
        assert re.search(rf"{re.escape(label)}\s+0\.791667", text), label


def test_chapter2_walk_has_one_diagonal_step_for_the_tie():
    g = glued(CH2)
    assert g["n_steps"] == "6" and g["tie_ids"] == "'3 and 5'"
    assert (g["tie_from"], g["tie_to"]) == ("'(1/4, 2/3)'", "'(1/2, 1)'")


def test_chapter2_prose_values_are_pinned():
    """The counts, the threshold's node and the answers the prose reads from glue."""
    g = glued(CH2)
    assert (g["m"], g["m1"], g["m0"]) == ("7", "3", "4")
    assert (g["tie_step"], g["tie_score"]) == ("4", "0.2")
    assert (g["n_correct"], g["n_tied"], g["n_wrong"]) == ("9", "1", "2")
    assert (g["fp"], g["tp"], g["called_ids"]) == ("1", "2", "'1, 4, 6'")
    assert (g["node_step"], g["next_score"], g["node_score"]) == ("3", "0.2", "0.3")
    assert g["auc_moved"] == "'5/6'"
    # the prose says the random scorer's area "is not one half"
    assert abs(float(g["auc_random"]) - 0.5) > 0.05


def test_chapter2_exercise_solutions_read_their_numbers_from_glue():
    """The worked solutions' numbers: θ = 0.2 gives (1/2, 1); seven vertices; 5/6."""
    g = glued(CH2)
    assert (g["ex_fpr_02"], g["ex_tpr_02"]) == ("'1/2'", "'1'")
    assert (g["ex_called_02"], g["ex_tp_02"], g["ex_fp_02"]) == ("'1, 3, 4, 5, 6'", "3", "2")
    assert g["ex_step_02"] == "4"
    assert g["ex_n_vertices"] == "7"
    assert g["ex_vertices"] == ("'(0, 0), (0, 1/3), (1/4, 1/3), (1/4, 2/3), (1/2, 1), "
                                "(3/4, 1), (1, 1)'")
    assert g["n_half"] == "10"


def test_chapter2_hull_section_mixture_lands_on_the_segment():
    """Fawcett (2006, sec. 6): choosing θ = 0.6 or θ = 0.3 with probability 1/2 each gives
    the midpoint (1/8, 1/2) of their nodes exactly; 4000 seeded draws land near it."""
    g = glued(CH2)
    assert (g["mix_a"], g["mix_b"], g["mix_exact"]) == ("'(0, 1/3)'", "'(1/4, 2/3)'",
                                                       "'(1/8, 1/2)'")
    assert g["n_draws"] == "4000"
    assert abs(float(g["mix_mean_fpr"]) - 1 / 8) < 0.01
    assert abs(float(g["mix_mean_tpr"]) - 1 / 2) < 0.01
    text = cell_text(CH2)
    assert "expected point:  (1/8, 1/2)" in text
    assert "mean of draws:   (0.1261, 0.4967)" in text


def test_chapter2_hull_of_table1_and_its_area():
    """The hull joins (0,0), (0,1/3), (1/2,1), (1,1); its area exceeds the AUC 19/24 by
    1/24 (the chapter does not print the area, 5/6: it is the answer of two exercises)."""
    g = glued(CH2)
    assert g["hull_vertices"] == "'(0, 0), (0, 1/3), (1/2, 1), (1, 1)'"
    assert (g["hull_gain"], g["dent"]) == ("'1/24'", "'(1/4, 1/3)'")
    assert "hull_area" not in g
    assert (g["ex_mix_b"], g["ex_mix"]) == ("'(1/2, 1)'", "'(3/8, 5/6)'")


def test_chapter2_iso_performance_optima():
    """Equal costs: S = m0/m1 = 4/3 runs along the hull edge, thresholds 0.6, 0.3, 0.2 all
    have accuracy 5/7; a miss costing 2 gives S = 2/3 and θ = 0.2; a false alarm costing 3
    gives S = 4 and θ = 0.6."""
    g = glued(CH2)
    assert (g["slope_equal"], g["acc_edge"]) == ("'4/3'", "'5/7'")
    assert (g["best_cheap_miss"], g["best_cheap_alarm"]) == ("'0.2'", "'0.6'")
    text = cell_text(CH2)
    assert re.search(r"equal costs\s+4/3\s+\(0, 1/3\)\s+0\.6, 0\.3, 0\.2", text)
    assert re.search(r"a miss costs 2\s+2/3\s+\(1/2, 1\)\s+0\.2", text)
    assert re.search(r"a false alarm costs 3\s+4\s+\(0, 1/3\)\s+0\.6", text)
