"""Chapter 1 as the reader sees it: the syllabus facts in the stored notebook's glue,
and the chapter's figures (course_lib/plotting/confusion.py) against the library."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from notebook_tools import cell_text, chapter, glued, stored  # noqa: E402

import course_lib as cl  # noqa: E402
from course_lib import plotting  # noqa: E402

CH1 = chapter("01_threshold_metrics")


@pytest.fixture(scope="module")
def g():
    return glued(CH1)


def test_F01_accuracy_of_the_patients_classifier(g):
    """F-01: TP=20, TN=1000, FN=5, FP=50 of 1075 patients: accuracy 0.9488."""
    assert float(g["acc_patients"]) == stored(1020 / 1075)
    assert round(float(g["acc_patients"]), 4) == 0.9488


def test_F02_everyone_healthy_has_higher_accuracy(g):
    """F-02: the rule "everyone is healthy" gets 1050/1075 = 0.9767, more than F-01."""
    assert float(g["acc_all_healthy"]) == stored(1050 / 1075)
    assert round(float(g["acc_all_healthy"]), 4) == 0.9767
    assert float(g["acc_all_healthy"]) > float(g["acc_patients"])


def test_F03_precision_and_recall_of_the_patients_classifier(g):
    """F-03: precision 20/70 = 0.2857, recall 20/25 = 0.8."""
    assert float(g["prec_patients"]) == stored(2 / 7)
    assert round(float(g["prec_patients"]), 4) == 0.2857
    assert float(g["rec_patients"]) == stored(0.8)


def test_F04_search_engine_exact_fractions(g):
    """F-04: 30 returned, 20 relevant, 40 relevant missed: P = 2/3, R = 1/3 exactly."""
    assert g["search_p"] == "'2/3'"
    assert g["search_r"] == "'1/3'"


def test_F05_macro_micro_weighted_recall_of_the_four_classes(g):
    """F-05: macro recall 0.775, micro 126/230 = 0.5478 = support-weighted; S's
    TP-weighted "weighted" recall 0.576."""
    assert float(g["recall_macro"]) == stored(0.775)
    assert float(g["recall_micro"]) == stored(126 / 230)
    assert round(float(g["recall_micro"]), 4) == 0.5478
    assert g["micro_counts"] == "'126/230'"
    assert float(g["recall_weighted"]) == stored(126 / 230)
    assert float(g["recall_tp_weighted"]) == stored(72.6 / 126)
    assert round(float(g["recall_tp_weighted"]), 3) == 0.576


def test_F06_spam_filter_mcc_and_f1(g):
    """F-06: TP=90, FP=10, FN=10, TN=999890: MCC = 0.89999 (~0.9), F1 = 0.9."""
    assert float(g["spam_mcc"]) == stored(89990000 / 99990000)
    assert round(float(g["spam_mcc"]), 5) == 0.89999
    assert float(g["spam_f1"]) == stored(0.9)


def test_F07_credit_committee_kappa(g):
    """F-07: committee table 20/5/10/15 of 50: p0 = 0.7, pe = 0.5, kappa = 0.4."""
    assert float(g["kappa_p0"]) == stored(0.7)
    assert float(g["kappa_pe"]) == stored(0.5)
    assert float(g["kappa"]) == stored(0.4)


def test_chapter1_slide_pairs_of_precision_and_recall(g):
    """S's worked pairs: F1(0.05, 1) ~ 0.095, F1(0.2, 1) = 1/3, F1(0.2, 0.3) = 0.24;
    the arithmetic mean and P + R - 1 cannot tell pair a from pair c."""
    assert round(float(g["f1_a"]), 3) == 0.095
    assert g["f1_b"] == "'1/3'"
    assert float(g["f1_d"]) == stored(0.24)
    assert float(g["amean_a"]) == stored(float(g["amean_c"]))
    assert float(g["amean_b"]) == stored(0.6)
    assert float(g["prm1_a"]) == stored(float(g["prm1_c"]))


def test_chapter1_mcc_ignores_nothing_f1_ignores_tn(g):
    """Shrinking TN leaves F1 at 0.9 while MCC falls to 0.4 (TN=10) and -0.1 (TN=0)."""
    assert float(g["mcc_tn10"]) == stored(0.4)
    assert float(g["mcc_tn0"]) == stored(-0.1)


def test_chapter1_balanced_accuracy_and_warnings(g):
    assert float(g["ba_patients"]) == stored((0.8 + 1000 / 1050) / 2)
    assert float(g["ba_all_healthy"]) == 0.5
    assert float(g["ba_four"]) == stored(0.775)
    text = cell_text(CH1)
    assert "UndefinedMetricWarning" in text
    assert "eps = 0:     inf" in text


def test_chapter1_log_loss_punishes_the_confident_mistake(g):
    assert float(g["ll_confident"]) > float(g["ll_hesitant"])
    assert float(g["ll_one_mistake"]) == stored(-np.log(0.01))


# ------------------------------------------------------------------- figures


def test_confusion_heat_map_writes_every_count():
    m = np.array([[100, 80, 10, 10], [0, 9, 0, 1], [0, 1, 8, 1], [0, 1, 0, 9]])
    ax = plotting.plot_confusion_matrix(m, labels="ABCD")
    try:
        assert [t.get_text() for t in ax.texts] == [str(v) for v in m.ravel()]
        assert [t.get_text() for t in ax.get_yticklabels()] == list("ABCD")
        # Colour by row share: the image holds each row divided by its sum.
        image = ax.get_images()[0].get_array()
        assert np.allclose(image, m / m.sum(axis=1, keepdims=True))
    finally:
        plt.close(ax.get_figure())


def test_confusion_heat_map_rejects_bad_input():
    with pytest.raises(ValueError, match="square"):
        plotting.plot_confusion_matrix([[1, 2, 3]])
    with pytest.raises(ValueError, match="color_by"):
        plotting.plot_confusion_matrix([[1, 2], [3, 4]], color_by="column")


def test_means_along_recall_lines_are_the_library_f_scores():
    ax = plotting.plot_means_along_recall(0.2, means=["F1", "F2", "arithmetic"],
                                          n_points=11)
    try:
        lines = {line.get_label(): line for line in ax.get_lines()}
        recall = lines["F1"].get_xdata()
        assert np.allclose(recall, np.linspace(0, 1, 11))
        # R = 0.3 at P = 0.2 is S's pair d: 3 hits, 12 false alarms, 7 misses.
        d = cl.matrix_from_counts(tp=3, fp=12, fn=7, tn=0)
        assert lines["F1"].get_ydata()[3] == pytest.approx(cl.f_beta(matrix=d))
        assert lines["F2"].get_ydata()[3] == pytest.approx(cl.f_beta(matrix=d, beta=2))
        assert lines["arithmetic"].get_ydata()[3] == pytest.approx(0.25)
    finally:
        plt.close(ax.get_figure())


def test_f1_contour_lines_lie_on_their_level():
    ax = plotting.plot_pr_mean_contours("F1", levels=[0.5], n_grid=61)
    try:
        contour = [c for c in ax.collections if hasattr(c, "allsegs")][-1]
        segment = np.concatenate(contour.allsegs[0])
        recall, precision = segment[:, 0], segment[:, 1]
        f1 = 2 * precision * recall / (precision + recall)
        assert np.allclose(f1, 0.5, atol=2e-3)
    finally:
        plt.close(ax.get_figure())


def test_log_loss_curve_is_minus_log_p():
    ax = plotting.plot_log_loss(points=[0.1], n_points=50, show_error=False)
    try:
        line = ax.get_lines()[0]
        p, loss = line.get_xdata(), line.get_ydata()
        assert np.allclose(loss, -np.log(p), rtol=0, atol=1e-12)
        assert ax.texts[0].get_text() == "p = 0.1: 2.30"
    finally:
        plt.close(ax.get_figure())


def test_chapter1_explorer_and_patient_counts_in_prose(g):
    """The explorer section's numbers: aSAH has 113 patients, 41 with a poor outcome;
    accuracy has two equal peaks, at 0.52 (12 found, no false alarm) and 0.22 (26 found,
    14 false alarms); balanced accuracy prefers the second, where the slider starts."""
    assert (g["asah_n"], g["asah_poor"]) == ("113", "41")
    assert float(g["asah_acc_max"]) == stored(84 / 113)
    assert (g["asah_acc_hi"], g["asah_tp_hi"], g["asah_fp_hi"]) == ("0.52", "12", "0")
    assert (g["asah_acc_lo"], g["asah_tp_lo"], g["asah_fp_lo"]) == ("0.22", "26", "14")
    assert float(g["asah_ba_lo"]) > float(g["asah_ba_hi"])
    assert g["asah_start"] == g["asah_ba_at"] == g["asah_acc_lo"]
    assert (g["n_patients"], g["n_ill"], g["n_healthy"]) == ("1075", "25", "1050")
    assert (g["tp_patients"], g["fp_patients"]) == ("20", "50")


def test_chapter1_exercise_solutions_read_their_numbers_from_glue(g):
    assert float(g["sys1_mean"]) == float(g["sys2_mean"]) == stored(0.65)
    assert float(g["sys1_f1"]) > float(g["sys2_f1"])
    assert float(g["sys1_f2"]) > float(g["sys2_f2"])
    assert float(g["sys2_f05"]) > float(g["sys1_f05"])
    assert g["f1_sys1"] == "'42/65'"
    assert (g["thin_acc"], g["thin_prec"], g["thin_rec"], g["thin_ba"]) == (
        "'12/13'", "'4/5'", "'4/5'", "'92/105'")
    assert (g["all_rec"], g["all_prec"], g["all_f1"]) == ("'1'", "'1/10000'", "'2/10001'")
    assert float(g["all_mcc"]) == 0.0
    assert (g["m3_recalls"], g["m3_macro"], g["m3_micro"]) == ("'5/6, 2/3, 1/2'", "'2/3'", "'3/4'")
