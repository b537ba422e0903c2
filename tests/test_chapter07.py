"""Chapter 7 as the reader sees it: PR curves, their areas, and their link to ROC curves.

The facts F-30 and F-31 and the chapter's other claims are read from the stored
notebook's glue and printed outputs; the chapter's figures are checked against the
curves they draw.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from notebook_tools import cell_text, chapter, glued, stored  # noqa: E402

import course_lib as cl  # noqa: E402
from course_lib import plotting  # noqa: E402

CH7 = chapter("07_pr_curves")
Y1 = [0, 0, 0, 1, 1, 1, 0]
B1 = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]


def test_F30_chapter7_table1_point_at_threshold_04_is_third_half():
    """F-30: on Table 1 the rule b >= 0.4 gives (R, P) = (1/3, 1/2), in the prose."""
    g = glued(CH7)
    assert g["theta"] == "0.4"
    assert (g["r_theta"], g["p_theta"]) == ("'1/3'", "'1/2'")
    assert (g["n_called_theta"], g["tp_theta"]) == ("2", "1")
    assert "recall    = 0.3333 = 1/3" in cell_text(CH7)
    assert "precision = 0.5000 = 1/2" in cell_text(CH7)


def test_F31_chapter7_achievable_rows_of_source_c():
    """F-31: A (5, 5) to B (10, 30), 20 positives: the five rows of source C's table."""
    g = glued(CH7)
    assert [g[f"c_row{i}"] for i in range(1, 6)] == [
        "'6, 10, 0.30, 0.375'",
        "'7, 15, 0.35, 0.318'",
        "'8, 20, 0.40, 0.286'",
        "'9, 25, 0.45, 0.265'",
        "'10, 30, 0.50, 0.250'",
    ]
    assert (g["c_rows_agree"], g["c_rows"]) == ("5", "5")
    assert float(g["c_fp_per_tp"]) == 5.0


def test_chapter7_achievable_curve_is_below_the_straight_line():
    """Straight lines in PR space overstate the area: the segment of C and a whole hull."""
    g = glued(CH7)
    assert float(g["area_line"]) == pytest.approx(0.09375)
    assert float(g["area_ach"]) == pytest.approx(0.0809301, abs=1e-6)
    assert float(g["overstate"]) == pytest.approx(0.09375 / 0.0809301 - 1, abs=1e-5)
    assert float(g["area_hull_line"]) > float(g["area_hull_ach"])


def test_chapter7_six_objects_of_source_s_end_at_one_half():
    """Source S's six objects: the curve ends at (1, 1/2), the share of positives."""
    g = glued(CH7)
    assert (g["s_r_end"], g["s_p_end"]) == ("'1'", "'1/2'")
    assert (g["s_m1"], g["s_m"]) == ("3", "6")
    assert "lowest threshold: everyone is positive, (R, P) = (1, 1/2)" in cell_text(CH7)


def test_chapter7_precision_zigzags_on_table1():
    """Table 1's curve is not monotone: precision 1, 1/2, 2/3, 3/5, 1/2, 3/7."""
    g = glued(CH7)
    assert g["prec_sequence"] == "'1, 1/2, 2/3, 3/5, 1/2, 3/7'"


def test_chapter7_average_precision_and_trapezoid_differ():
    """AP (step sum) and the trapezoid area, glued for S's six objects: positives found at
    precisions 1, 1 and 3/5. Table 1's AP, 34/45, is the answer of exercise ap-table1 and
    is glued only in its folded solution (issue 28, item 2)."""
    g = glued(CH7)
    assert "ap_exact" not in g and "ap_float" not in g
    assert g["ex_ap"] == "'34/45'"
    assert g["ap_s_found"] == "'1, 1 and 3/5'"
    assert g["ap_s_exact"] == "'13/15'"
    assert float(g["ap_s_float"]) == stored(13 / 15)
    assert float(g["trap_s"]) == stored(0.85)
    assert "smallest AP - trapezoid: 0.0000" in cell_text(CH7)


def test_chapter7_thinning_moves_pr_not_roc():
    """Keeping 50 of 500 positives: ROC AUC stays, AP and precision fall, recall stays."""
    g = {k: float(v) for k, v in glued(CH7).items() if k in {
        "auc_full", "auc_thin", "ap_full", "ap_thin", "r_full", "r_thin",
        "p_full", "p_thin", "p_predicted"}}
    assert abs(g["auc_thin"] - g["auc_full"]) < 0.01
    assert g["ap_full"] - g["ap_thin"] > 0.3
    assert abs(g["r_thin"] - g["r_full"]) < 0.02
    assert g["p_full"] - g["p_thin"] > 0.4
    assert g["p_thin"] == pytest.approx(g["p_predicted"], abs=0.01)


def test_chapter7_roc_and_pr_dominance_agree():
    """On fixed data a ROC curve dominates another iff it does in PR space (C, D&G)."""
    text = cell_text(CH7)
    assert "A dominates B: in ROC space True, in PR space True" in text
    assert "B dominates A: in ROC space False, in PR space False" in text
    assert "I dominates II: in ROC space False, in PR space False" in text
    assert "II dominates I: in ROC space False, in PR space False" in text


def test_chapter7_higher_roc_auc_lower_pr_area_as_in_source_c():
    """C's warning, same direction: II has the larger ROC AUC and the much smaller PR area."""
    g = {k: float(v) for k, v in glued(CH7).items()
         if k in {"roc_i", "roc_ii", "ap_i", "ap_ii", "trap_i", "trap_ii"}}
    assert g["roc_ii"] > g["roc_i"]
    assert g["ap_i"] > 10 * g["ap_ii"]
    assert g["trap_i"] > 10 * g["trap_ii"]


def test_chapter7_exercise_solutions():
    """The worked solutions of the chapter's exercises glue the checked answers."""
    g = glued(CH7)
    assert (g["ex_tp"], g["ex_fp"]) == ("16", "200")
    assert g["ex_prec"] == "'2/27'"
    assert float(g["ex_prec_f"]) == pytest.approx(16 / 216)
    assert g["ex_ap"] == "'34/45'"
    assert (g["ex8_auc_old"], g["ex8_auc"], g["ex8_ap"]) == ("'19/24'", "'19/30'", "'1/2'")
    assert (g["ex_thin_p"], g["ex_thin_p0"]) == ("'5/7'", "'1/5'")
    assert g["ex_pk"] == "'5/8'"


def test_chapter7_has_the_table1_explorer_at_theta():
    """The threshold explorer of Table 1 starts at Dyakonov's threshold 0.4."""
    import json

    nb = json.loads(CH7.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    explorer = [c for c in cells if c.startswith("threshold_explorer(")]
    assert len(explorer) == 1 and "threshold=theta" in explorer[0]
    assert float(glued(CH7)["theta"]) == 0.4


# --- the chapter's figures -------------------------------------------------------------


def test_plot_pr_curve_draws_the_points_and_the_threshold():
    ax = plotting.plot_pr_curve(Y1, B1, threshold=0.4)
    c = cl.pr_curve(Y1, B1)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.column_stack([c.recall, c.precision]))
    assert ax.lines[1].get_xydata().tolist() == [[1 / 3, 0.5]]
    assert ax.texts[0].get_text() == "θ = 0.4: (1/3, 1/2)"
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="no object"):
        plotting.plot_pr_curve(Y1, B1, threshold=0.9)
    plt.close("all")


@pytest.mark.parametrize("kind", ["step", "trapezoid"])
def test_plot_pr_areas_shades_the_area_it_names(kind):
    ax = plotting.plot_pr_areas(Y1, B1, kind=kind)
    # The outline drawn over the shading encloses the named area.
    x, p = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    if kind == "step":
        # matplotlib's step outline: the area is the sum of its horizontal runs.
        area = float(np.sum(np.diff(x) * p[1:]))
        assert area == pytest.approx(cl.average_precision(Y1, B1))
    else:
        assert cl.trapezoid_area(x, p) == pytest.approx(cl.pr_auc_trapezoid(Y1, B1))
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="kind"):
        plotting.plot_pr_areas(Y1, B1, kind="mean")
    plt.close("all")


def test_plot_pr_interpolation_zoom_keeps_the_points_in_view():
    seg = cl.achievable_pr(5, 5, 10, 30, 20)
    ax = plotting.plot_pr_interpolation([0.25, 0.5], [0.5, 0.25], np.r_[0.25, seg.recall],
                                        np.r_[0.5, seg.precision], unit_square=False)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 < 0.25 and x1 > 0.5 and y0 < 0.25 and y1 > 0.5
    assert x1 - x0 == pytest.approx(y1 - y0)
    np.testing.assert_allclose(ax.get_lines()[1].get_ydata()[1:], seg.precision)
    plt.close(ax.get_figure())


def test_plot_roc_and_pr_curves_draw_each_curve():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(10, dtype=int), np.zeros(15, dtype=int)]
    curves = {"a": (y, rng.random(25)), "b": (y[5:], rng.random(20))}
    ax = plotting.plot_roc_curves(curves)
    for line, (yt, s) in zip(ax.get_lines()[1:], curves.values()):
        c = cl.roc_curve(yt, s)
        np.testing.assert_allclose(line.get_xydata(), np.column_stack([c.fpr, c.tpr]))
    plt.close(ax.get_figure())
    ax = plotting.plot_pr_curves(curves)
    for line, (yt, s) in zip(ax.get_lines(), curves.values()):
        c = cl.pr_curve(yt, s)
        np.testing.assert_allclose(line.get_xydata(), np.column_stack([c.recall, c.precision]))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[1] == f"b (AP {cl.average_precision(*curves['b']):.3f})"
    plt.close(ax.get_figure())


# --- PR under imbalance: the floor, the unachievable region, PRG curves ----------------


def test_chapter7_random_scorer_ap_floor():
    """All-tied AP = pi = 1/10 exactly; 2000 random orders of 20 positives among 200
    average near pi + (1 - pi)(H_200 - 1)/199 = 0.12206, above pi."""
    g = glued(CH7)
    assert (g["rnd_m1"], g["rnd_n"], g["rnd_reps"]) == ("20", "200", "2000")
    assert g["rnd_tied"] == "'1/10'" and float(g["rnd_pi"]) == 0.1
    h = sum(1 / k for k in range(1, 201))
    assert float(g["rnd_formula"]) == pytest.approx(0.1 + 0.9 * (h - 1) / 199, abs=1e-9)
    assert float(g["rnd_formula"]) == pytest.approx(0.1220614465, abs=1e-9)
    assert abs(float(g["rnd_mean"]) - float(g["rnd_formula"])) < 0.002
    assert float(g["rnd_mean"]) > 0.115
    assert "AP, all scores tied:         1/10" in cell_text(CH7)


def test_chapter7_unachievable_region_areas():
    """Boyd et al. (2012): min AUCPR = 1 + (1 - pi) ln(1 - pi)/pi."""
    import math

    g = glued(CH7)
    for key, pi in (("min_auc_half", 0.5), ("min_auc_tenth", 0.1), ("min_auc_thin", 1 / 11)):
        assert float(g[key]) == pytest.approx(1 + (1 - pi) * math.log(1 - pi) / pi, abs=1e-9)
    assert float(g["min_auc_half"]) == pytest.approx(0.3068528194, abs=1e-9)
    assert g["pi_thin"] == "'1/11'"
    assert (g["ex_floor_tp"], g["ex_floor_fp"], g["ex_floor_p"]) == ("'1/20'", "'9/10'",
                                                                     "'1/19'")


def test_chapter7_prg_values():
    """The authors' package example gives AUPRG 0.7083 = 17/24; A above B; the 6 vertices
    of A's ROC hull with recall >= pi are vertices of its PRG hull."""
    g = glued(CH7)
    assert float(g["prg_example"]) == pytest.approx(17 / 24, abs=1e-9)
    assert "authors' example: AUPRG 0.7083" in cell_text(CH7)
    assert float(g["prg_a"]) > float(g["prg_b"])
    assert g["prg_hull_n"] == "6"


def test_chapter7_refers_back_to_the_hull_of_chapter2():
    text = CH7.read_text(encoding="utf-8")
    assert "{ref}`sec-roc-hull`" in text
    for key in ("boyd2012", "flach2015", "saito2015"):
        assert key in text


def test_plot_pr_unachievable_and_prg_curves():
    ax = plotting.plot_pr_unachievable(0.25, {"a": (Y1, B1)})
    poly = ax.collections[0].get_paths()[0].vertices
    assert poly[:, 1].max() == pytest.approx(0.25)
    assert ax.get_legend().get_texts()[0].get_text().startswith("unachievable (area 0.")
    plt.close(ax.get_figure())
    ax = plotting.plot_prg_curves({"a": (Y1, B1)})
    c = cl.precision_recall_gain_curve(Y1, B1)
    np.testing.assert_allclose(ax.get_lines()[1].get_xydata(),
                               np.column_stack([c.recall_gain, c.precision_gain]))
    plt.close(ax.get_figure())
