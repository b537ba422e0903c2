"""Chapter 9 as the reader sees it: the numbers glued into the stored notebook.

The syllabus lists no F-nn fact for chapter 9; these tests pin the chapter's worked
examples (the two axes, the duality, the envelope, the aSAH comparison, the averaging
and the bootstrap) and check its figures against the library.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from notebook_tools import ROOT, cell_text, chapter, glued, load

import course_lib as cl
from course_lib import plotting

CH9 = chapter("09_cost_curves")


def _prose() -> str:
    """The chapter's markdown, white space made single spaces."""
    return " ".join(" ".join("".join(c["source"]) for c in load(CH9)["cells"]
                             if c["cell_type"] == "markdown").split())


def _asah():
    asah = pd.read_csv(ROOT / "data" / "asah.csv")
    y = (asah["outcome"] == "Poor").astype(int).to_numpy()
    return y, asah["s100b"].to_numpy(), asah["ndka"].to_numpy()


def test_chapter9_pcf_and_nec_of_the_worked_example():
    """10% positives, a miss costing 9 false alarms: PCF = 1/2; the ROC point (0.2, 0.7)
    has NEC = 0.25 = E[C] / E_max = 0.45 / 1.8, the error rate at balanced equal costs."""
    g = glued(CH9)
    assert float(g["pcf_ex"]) == pytest.approx(0.5)
    assert float(g["nec_ex"]) == pytest.approx(0.25)
    assert float(g["cost_ex"]) == pytest.approx(0.45)
    assert float(g["cost_max"]) == pytest.approx(1.8)
    assert float(g["err_ex"]) == pytest.approx(0.25)
    assert "PCF(+) = 0.5000, NEC = 0.2500" in cell_text(CH9)


def test_chapter9_roc_line_through_a_and_b_is_the_crossing_of_their_cost_lines():
    """A = (0.1, 0.5), B = (0.4, 0.9): the ROC line of slope 4/3 is the cost point
    PCF = 1/(1 + 4/3) = 3/7, where both lines cost (1 - 11/30) 3/7 = 19/70."""
    g = glued(CH9)
    assert g["slope_ab"] == "'4/3'"
    assert g["meet_pcf"] == "'3/7'"
    assert float(g["meet_nec"]) == pytest.approx(float(Fraction(19, 70)))
    text = cell_text(CH9)
    assert "its cost point: PCF = 0.4286, NEC = 0.2714" in text
    assert "back to ROC space: TPR = 1.3333 FPR + 0.3667" in text


def test_chapter9_operating_ranges():
    """The range FPR/(FPR+TPR) < PCF < (1-FPR)/(2-TPR-FPR) of A, B and C."""
    g = glued(CH9)
    for name, (f, t) in {"A": (0.1, 0.5), "B": (0.4, 0.9), "C": (0.5, 0.6)}.items():
        assert float(g[f"range_{name}_from"]) == pytest.approx(f / (f + t))
        assert float(g[f"range_{name}_to"]) == pytest.approx((1 - f) / (2 - t - f))


def test_chapter9_envelope_is_made_of_hull_vertices():
    """Of the 41 ROC points of the sample, the 5 hull vertices other than (0, 0) and
    (1, 1) make the cost curve."""
    g = glued(CH9)
    assert (g["n_roc_s"], g["n_hull_s"], g["n_env_s"]) == ("41", "7", "5")
    assert "hull vertices not on the envelope: [(0.0, 0.0), (1.0, 1.0)]" in cell_text(CH9)
    assert (g["theta_first"], g["tp_first"]) == ("1.85", "7")
    assert float(g["nec_read"]) == pytest.approx(0.128)


def test_chapter9_asah_s100b_against_ndka():
    """aSAH: AUC 0.7314 against 0.6120; the cost curves cross once, S100beta better
    below the crossing; at equal costs the curves are error rates, 29/113 and 38/113."""
    g = glued(CH9)
    text = cell_text(CH9)
    assert "s100b  AUC 0.7314" in text and "ndka   AUC 0.6120" in text
    y, s1, s2 = _asah()
    r1, r2 = cl.roc_curve(y, s1), cl.roc_curve(y, s2)
    cross = float(g["cross"])
    assert 0.8 < cross < 0.9
    # the crossing is stored to 10 significant digits (course_lib.notebook)
    assert cl.cost_difference(r1, r2, cross) == pytest.approx(0, abs=1e-10)
    assert cl.cost_difference(r1, r2, cross - 0.01) < 0 < cl.cost_difference(r1, r2, cross + 0.01)
    assert float(g["pcf_equal"]) == pytest.approx(41 / 113)
    assert float(g["nec_equal_s100b"]) == pytest.approx(29 / 113)
    assert float(g["nec_equal_ndka"]) == pytest.approx(38 / 113)
    assert float(g["n_fewer"]) == pytest.approx(9)
    assert float(g["n_err_s100b"]) == pytest.approx(29)
    assert float(g["n_err_ndka"]) == pytest.approx(38)
    assert (g["top_s100b"], g["top_ndka"], g["m1_a"]) == ("12", "1", "41")
    assert float(g["diff_in_max"]) < 0  # S100beta better on the whole clinical range


def test_chapter9_cost_space_average_beats_roc_space_average():
    """The cost curve of the ROC-averaged folds is never below the vertical average in
    cost space; the gap reaches a few hundredths."""
    g = glued(CH9)
    assert 0.01 < float(g["excess_max"]) < 0.1
    assert "smallest -0.0000" in cell_text(CH9) or "smallest 0.0000" in cell_text(CH9)


def test_chapter9_bootstrap_band_and_difference_test():
    """2000 stratified paired resamples: the band at equal costs contains the curve; the
    difference at equal costs is not significant (its interval contains 0), but the band
    excludes 0 at small PCF; DeLong's p for the AUCs is 0.164."""
    g = glued(CH9)
    assert g["n_boot"] == "2000"
    assert float(g["band_eq_lo"]) < float(g["nec_eq"]) < float(g["band_eq_hi"])
    assert float(g["ci_eq_lo"]) < 0 < float(g["ci_eq_hi"])
    assert 0.05 < float(g["p_boot"]) < 0.2
    assert float(g["sig_from"]) < float(g["sig_to"]) < float(g["pcf_equal"])
    assert float(g["delong_p"]) == pytest.approx(0.1643, abs=1e-4)


def test_chapter9_exercise_solutions():
    """The worked solutions of the chapter's exercises glue the checked answers."""
    g = glued(CH9)
    assert g["ex_pcf"] == "'1/2'"
    assert g["ex_nec"] == "'9/40'" and g["ex_trivial"] == "'1/2'"
    assert (g["ex_range_from"], g["ex_range_to"]) == ("'1/4'", "'7/8'")
    assert (g["ex_below_from"], g["ex_below_to"]) == ("'2/3'", "'8/17'")
    assert (g["ex_flip_from"], g["ex_flip_to"]) == ("'8/17'", "'2/3'")
    assert float(g["ex_nec_fn"]) == pytest.approx(0.25)


# ------------------------------------------------------------- the figures


def test_cost_lines_figure_draws_each_point_as_its_line():
    ax = plotting.plot_cost_lines([0.1, 0.4], [0.5, 0.9], labels=["A", "B"])
    lines = ax.get_lines()
    assert lines[0].get_xydata().tolist() == [[0, 0], [1, 1]]  # always negative
    assert lines[1].get_xydata().tolist() == [[0, 1], [1, 0]]  # always positive
    np.testing.assert_allclose(lines[2].get_ydata(), [0.1, 0.5])
    np.testing.assert_allclose(lines[3].get_ydata(), [0.4, 0.1])
    assert [t.get_text() for t in ax.texts] == ["A", "B"]
    plt.close(ax.get_figure())


def test_envelope_figure_draws_the_cost_curve_and_hull_figure_its_points():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(16, int), np.zeros(32, int)]
    s = rng.normal(size=48) + y
    roc = cl.roc_curve(y, s)
    env = cl.cost_lower_envelope(roc.fpr, roc.tpr)
    ax = plotting.plot_cost_envelope(roc.fpr, roc.tpr)
    curve = [ln for ln in ax.get_lines() if ln.get_label() == "cost curve"][0]
    np.testing.assert_allclose(curve.get_xydata(), np.column_stack([env.pcf, env.nec]))
    plt.close(ax.get_figure())
    ax = plotting.plot_roc_hull(roc.fpr, roc.tpr)
    made = [ln for ln in ax.get_lines() if ln.get_label() == "make the cost curve"][0]
    np.testing.assert_allclose(made.get_xydata(), np.column_stack([env.fpr, env.tpr]))
    hull = cl.roc_convex_hull(roc.fpr, roc.tpr)
    vertices = [ln for ln in ax.get_lines() if ln.get_label() == "hull vertices"][0]
    np.testing.assert_allclose(vertices.get_xydata(), np.column_stack([hull.fpr, hull.tpr]))
    plt.close(ax.get_figure())


def test_cost_curves_figure_draws_the_envelopes():
    y, s1, s2 = _asah()
    rocs = {"s100b": cl.roc_curve(y, s1), "ndka": cl.roc_curve(y, s2)}
    ax = plotting.plot_cost_curves(rocs, shade_better=True)
    for name, r in rocs.items():
        line = [ln for ln in ax.get_lines() if ln.get_label() == name][0]
        e = cl.cost_lower_envelope(r.fpr, r.tpr)
        np.testing.assert_allclose(line.get_xydata(), np.column_stack([e.pcf, e.nec]))
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="exactly two"):
        plotting.plot_cost_curves({"a": rocs["s100b"]}, shade_better=True)
    plt.close("all")


def test_band_and_difference_figures():
    x = np.linspace(0, 1, 11)
    mid = np.minimum(x, 1 - x) / 2
    ax = plotting.plot_cost_band(x, mid, lower=mid / 2, upper=mid * 1.5, label="c")
    assert ax.get_lines()[-1].get_label() == "c"
    np.testing.assert_allclose(ax.get_lines()[-1].get_ydata(), mid)
    plt.close(ax.get_figure())
    ax = plotting.plot_cost_difference(x, -mid, lower=-mid - 0.05, upper=-mid + 0.05,
                                       mark=0.3)
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert labels == ["no difference", "difference", "operating condition"]
    assert ax.get_lines()[-1].get_xdata()[0] == 0.3
    plt.close(ax.get_figure())


def test_chapter9_pinned_values_of_the_prose():
    """The values the prose reports, pinned (fixed seeds and the aSAH data): where S100beta
    switches to "always positive", NDKA's largest gain, the ROC-averaging excess, the
    bootstrap shift, interval and p-value at equal costs, and where the band excludes 0."""
    g = glued(CH9)
    assert float(g["s100b_trivial_from"]) == pytest.approx(0.8506, abs=1e-4)
    assert float(g["ndka_best_gain"]) == pytest.approx(0.0021, abs=1e-4)
    assert float(g["s100b_best_gain"]) == pytest.approx(0.1096, abs=1e-4)
    assert float(g["excess_max"]) == pytest.approx(0.0432, abs=1e-4)
    assert float(g["excess_at"]) == pytest.approx(0.665)
    assert float(g["mean_shift"]) == pytest.approx(-0.0065, abs=1e-4)
    assert (float(g["ci_eq_lo"]), float(g["ci_eq_hi"])) == pytest.approx(
        (-18 / 113, 1 / 113), abs=1e-9)
    assert float(g["p_boot"]) == pytest.approx(0.108)
    assert (float(g["sig_from"]), float(g["sig_to"])) == pytest.approx((0.01, 0.30))
    assert float(g["range_C_width"]) == pytest.approx(5 / 9 - 5 / 11)


def test_chapter9_above_the_crossing_s100b_is_not_yet_always_positive():
    """Between the crossing (0.837) and 0.851 NDKA already wins while S100beta's best is
    still a threshold: the one that misses 1 of the 41 poor outcomes at FPR 62/72; NDKA's
    best flags them all at FPR 71/72. The prose says so and no longer calls S100beta
    "already always positive" above the crossing."""
    g = glued(CH9)
    y, s1, s2 = _asah()
    env_s = cl.cost_lower_envelope(*cl.roc_curve(y, s1)[:2])
    env_n = cl.cost_lower_envelope(*cl.roc_curve(y, s2)[:2])
    cross, trivial = float(g["cross"]), float(g["s100b_trivial_from"])
    assert env_s.pcf[-3] < cross < trivial == pytest.approx(env_s.pcf[-2], abs=1e-9)
    assert float(g["s100b_last_fpr"]) == pytest.approx(62 / 72) == env_s.fpr[-2]
    assert g["s100b_last_missed"] == "1" and env_s.tpr[-2] == pytest.approx(40 / 41)
    assert float(g["ndka_last_fpr"]) == pytest.approx(71 / 72) == env_n.fpr[-1]
    assert env_n.tpr[-1] == 1 and env_n.pcf[-2] < cross
    prose = _prose()
    assert "already \"always positive\"" not in prose
    assert ("S100β's best flags all but {glue:text}`s100b_last_missed` of them at "
            "$\\mathrm{FPR} =$ {glue:text}`s100b_last_fpr:.3f` up to "
            "$\\mathrm{PCF}(+) =$ {glue:text}`s100b_trivial_from:.3f`, and is "
            "\"always positive\" from there on") in prose


def test_chapter9_names_the_cost_lines_slope_and_intercept_in_words():
    """The cost line NEC = slope PCF(+) + intercept: a and b are the book's rule and score."""
    prose = _prose()
    assert r"$\mathrm{NEC} = \mathrm{slope} \cdot \mathrm{PCF}(+) + \mathrm{intercept}$" in prose
    assert r"\mathrm{FPR} = \mathrm{intercept}" in prose
    assert r"a\,\mathrm{PCF}(+) + b" not in prose
