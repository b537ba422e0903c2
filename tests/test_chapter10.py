"""Chapter 10 as the reader sees it: the closed forms of the linear-density model.

The facts F-50 to F-54 are read from the stored notebook's glue (numbers and exact
fractions as text, formulas as the LaTeX the prose shows); the figures of
``course_lib.plotting.models`` are checked against the model's curves.
"""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy  # noqa: E402
from notebook_tools import GLUE_MIME, cell_text, chapter, glued, load, stored  # noqa: E402

from course_lib import LINEAR_DENSITIES as MODEL  # noqa: E402
from course_lib import plotting  # noqa: E402

CH10 = chapter("10_closed_forms")
MD_MIME = GLUE_MIME.replace("text/plain", "text/markdown")


def glued_markdown(path):
    """The text/markdown of every glued Markdown object (the formulas in the prose)."""
    values = {}
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            key = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if key is not None and MD_MIME in out.get("data", {}):
                values[key] = out["data"][MD_MIME]
    return values


def markdown_source(path):
    return "\n".join(
        "".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown"
    )


def test_F50_chapter10_tpr_fpr_roc_and_auc_five_sixths():
    """F-50: TPR = 1 - theta^2, FPR = (1 - theta)^2, TPR = 2 sqrt(FPR) - FPR, AUC = 5/6."""
    md = glued_markdown(CH10)
    assert md["tpr_tex"] == r"$1 - \theta^{2}$"
    assert md["fpr_tex"] == r"$\left(\theta - 1\right)^{2}$"
    assert md["roc_tex"] == r"$2 \sqrt{\mathrm{FPR}} - \mathrm{FPR}$"
    g = glued(CH10)
    assert g["auc"] == "'5/6'"
    assert float(g["auc_float"]) == stored(5 / 6)
    assert (g["tpr_half"], g["fpr_half"]) == ("'3/4'", "'1/4'")
    text = cell_text(CH10)
    assert r"Eq(\mathrm{TPR}(\theta), 1 - theta**2)" in text
    assert "2*sqrt(u) - u" in text


def test_F50_chapter10_identities_probability_and_gini():
    """AUC = P(positive outscores negative) = 5/6; Gini = 2 AUC - 1 = 2/3 for every pi."""
    g = glued(CH10)
    assert g["gini"] == "'2/3'"
    assert glued_markdown(CH10)["gain_area_tex"] == r"$\frac{5}{6} - \frac{\pi}{3}$"
    assert r"Eq(\mathbf{P}(b(x_+) > b(x_-)), 5/6)" in cell_text(CH10)


def test_F51_chapter10_best_accuracy_and_binarized_auc_three_quarters():
    """F-51: best accuracy 3/4 at theta = 1/2; the binarized answer's ROC AUC is 3/4."""
    g = glued(CH10)
    assert (g["best_acc"], g["best_theta"]) == ("'3/4'", "'1/2'")
    assert g["binarized_auc"] == "'3/4'"
    assert "ModelOptimum(value=3/4, threshold=1/2)" in cell_text(CH10)


def test_F52_chapter10_precision_recall_and_balanced_auc_pr():
    """F-52: R = 1 - theta^2, P = (1 + theta)/2, P = (1 + sqrt(1 - R))/2, AUC_PR = 5/6."""
    md = glued_markdown(CH10)
    assert md["recall_tex"] == r"$1 - \theta^{2}$"
    assert md["precision_half_tex"] == r"$\frac{\theta}{2} + \frac{1}{2}$"
    assert md["pr_tex"] == r"$\frac{\sqrt{1 - R}}{2} + \frac{1}{2}$"
    assert glued(CH10)["auc_pr_half"] == "'5/6'"


def test_F53_chapter10_auc_pr_as_a_function_of_the_share():
    """F-53: AUC_PR(0.1) ~ 0.4441, AUC_PR(0.9) ~ 0.9758; Piecewise at pi = 1/2; errata."""
    g = glued(CH10)
    assert float(g["aucpr_01"]) == stored(45 * math.log(5) / 64 - 11 / 16)
    assert float(g["aucpr_01"]) == pytest.approx(0.4441, abs=5e-5)
    assert float(g["aucpr_09"]) == pytest.approx(0.9758, abs=5e-5)
    assert (g["aucpr_lim0"], g["aucpr_lim1"]) == ("'0'", "'1'")
    md = glued_markdown(CH10)
    assert md["aucpr_01_tex"] == r"$- \frac{11}{16} + \frac{45 \log{\left(5 \right)}}{64}$"
    text = cell_text(CH10)
    assert "Piecewise((5/6, Eq(pi, 1/2))" in text
    assert "smallest slope: 0.2302" in text
    prose = markdown_source(CH10)
    assert "{doc}`../book/errata`" in prose
    assert "nine times *rarer*" in prose


def test_F54_chapter10_ks_exercise_and_independence_of_balance():
    """F-54: with pi = 0.1, max(TPR - FPR) = 1/2 at theta = 1/2, positive rate 3/10; the
    KS distance is the same for every pi."""
    g = glued(CH10)
    assert (g["ks_value"], g["ks_theta"], g["ks_rate"]) == ("'1/2'", "'1/2'", "'3/10'")
    assert glued_markdown(CH10)["ks_rate_tex"] == r"$\frac{\pi}{2} + \frac{1}{4}$"
    text = cell_text(CH10)
    assert "ModelKS(value=1/2, threshold=1/2, positive_rate=3/10)" in text
    for share, rate in (("0.10", "3/10"), ("0.25", "3/8"), ("0.50", "1/2"),
                        ("0.75", "5/8"), ("0.90", "7/10")):
        assert any(line.split() == [share, "1/2", "1/2", rate] for line in text.splitlines())


def test_chapter10_gain_lift_and_answers():
    g = glued(CH10)
    assert glued_markdown(CH10)["top_lift_tex"] == r"$\frac{1}{\pi}$"
    assert g["top_lift_01"] == "'10'"
    assert (g["q1_auc"], g["q1_aucpr"]) == ("'1/2'", "'1/10'")
    assert (g["q2_theta"], g["q2_acc"], g["q2_zero"]) == ("'9/10'", "'91/100'", "'9/10'")
    assert (g["q3_auc"], g["q3_gini"]) == ("'1/6'", "'-2/3'")
    assert float(g["q1_ratio"]) == pytest.approx(
        10 * (45 * math.log(5) / 64 - 11 / 16), rel=1e-9)
    assert float(g["q2_acc_float"]) == 0.91
    # exercises linear-tpr-formula and linear-ks use the warm-up model 1/2 + b, 3/2 - b:
    # the chapter derives the book model's TPR and KS above them (issue 28, item 2)
    assert g["ex_tpr_half"] == "'5/8'"
    assert (g["ex_ks_value"], g["ex_ks_theta"]) == ("'1/4'", "'1/2'")
    md = glued_markdown(CH10)
    assert md["ex_tpr_tex"] == r"$- \frac{\theta^{2}}{2} - \frac{\theta}{2} + 1$"
    assert md["ex_distance_tex"] == r"$\theta \left(1 - \theta\right)$"
    assert r"Eq(\text{gain}(u), 1 - (sqrt(80*u + 1) - 9)**2/64)" in cell_text(CH10)


# ------------------------------------------------------------------------- figures
@pytest.mark.parametrize("share", [0.1, 0.5, 0.9])
def test_plot_model_curve_draws_the_explicit_gain_curve(share):
    curve = MODEL.gain(share)
    ax = plotting.plot_model_curve(MODEL, curve, kind="gain", n=51)
    x, y = ax.get_lines()[-1].get_xydata().T
    expected = sympy.lambdify(MODEL.u, curve.explicit)(x)
    plt.close(ax.get_figure())
    assert np.all(np.diff(x) > 0)
    np.testing.assert_allclose(y, expected, atol=1e-12)


def test_plot_model_curve_labels_and_reference_lines():
    ax = plotting.plot_model_curve(MODEL, MODEL.pr(0.1), kind="pr", pi=0.1)
    reference = ax.get_lines()[0].get_xydata().tolist()
    labels = ax.get_xlabel(), ax.get_ylabel()
    plt.close(ax.get_figure())
    assert reference == [[0.0, 0.1], [1.0, 0.1]]
    assert labels == ("recall R", "precision P")
    with pytest.raises(ValueError, match="kind must be one of"):
        plotting.plot_model_curve(MODEL, MODEL.roc(), kind="cap")


def test_plot_score_densities_draws_the_densities():
    ax = plotting.plot_score_densities(MODEL)
    (b0, p0), (b1, p1) = (line.get_xydata().T for line in ax.get_lines()[:2])
    plt.close(ax.get_figure())
    np.testing.assert_allclose(p0, 2 - 2 * b0)
    np.testing.assert_allclose(p1, 2 * b1)


def test_plot_ks_chart_marks_the_gap_where_ks_puts_it():
    for share in (0.5, 0.9):
        ax = plotting.plot_ks_chart(MODEL, share)
        segment = ax.get_lines()[-1].get_xydata()
        title = ax.get_title()
        plt.close(ax.get_figure())
        rate = float(MODEL.ks(share).positive_rate)
        np.testing.assert_allclose(segment, [[rate, 0.25], [rate, 0.75]])
        assert title.startswith(f"π = {share}: KS at RPP ")


def test_plot_auc_pr_by_share_matches_the_closed_form():
    ax = plotting.plot_auc_pr_by_share(MODEL, n=19, marks=())
    x, y = ax.get_lines()[0].get_xydata().T
    plt.close(ax.get_figure())
    assert x[0] == 0 and x[-1] == 1 and np.all(np.diff(x) > 0)
    for share in (0.1, 0.5, 0.9):
        k = int(np.flatnonzero(np.isclose(x, share))[0])
        assert y[k] == pytest.approx(float(MODEL.auc_pr(share)), abs=1e-12)


def test_chapter10_binarized_answer_refers_back_to_chapter3():
    """The binarized-AUC = balanced-accuracy derivation lives in chapter 3; chapter 10
    refers to it and keeps the symbolic check on the model (identity 0, AUC 3/4)."""
    markdown = "\n".join("".join(c["source"]) for c in load(CH10)["cells"]
                         if c["cell_type"] == "markdown")
    assert "{ref}`sec-binarized-auc`" in markdown
    assert "triangle and a trapezoid" not in markdown
    assert "(3/4, 0)" in cell_text(CH10)
