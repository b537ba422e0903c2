"""Chapter 15 as the reader sees it: every number the chapter states, in the stored
notebook's glue and printed outputs, each checked against an independent reference."""

import json
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from notebook_tools import ROOT, cell_text, chapter, glued, load, stored
from scipy.special import expit
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score

from course_lib import plotting

CH15 = chapter("15_calibration")


def _simulation():
    """The chapter's simulation, rebuilt here (seed 15, 5000 objects)."""
    rng = np.random.default_rng(15)
    x = rng.normal(-1.0, 1.5, 5000)
    y = (rng.uniform(size=5000) < expit(x)).astype(int)
    models = {"calibrated": expit(x), "overconfident": expit(2.5 * x),
              "underconfident": expit(0.4 * x), "too_high": expit(x + 1.0)}
    return y, models


def _asah():
    asah = pd.read_csv(ROOT / "data" / "asah.csv")
    return (asah["outcome"] == "Poor").to_numpy().astype(int), asah["s100b"].to_numpy()


def test_one_ranking_one_auc_different_brier_and_log_loss():
    """Four strictly increasing maps of x: one AUC (sklearn.metrics.roc_auc_score),
    Brier and log-loss from sklearn.metrics.brier_score_loss and log_loss."""
    g = glued(CH15)
    y, models = _simulation()
    assert g["sim_n"] == "5000"
    assert float(g["sim_pos_share"]) == stored(y.mean())
    assert float(g["sim_auc"]) == stored(roc_auc_score(y, models["calibrated"]))
    for name, p in models.items():
        assert float(g["sim_auc"]) == stored(roc_auc_score(y, p))
        assert float(g[f"brier_{name}"]) == pytest.approx(brier_score_loss(y, p), rel=1e-9)
        assert float(g[f"logloss_{name}"]) == pytest.approx(log_loss(y, p), rel=1e-9)
    briers = {name: float(g[f"brier_{name}"]) for name in models}
    losses = {name: float(g[f"logloss_{name}"]) for name in models}
    assert min(briers, key=briers.get) == "calibrated" == min(losses, key=losses.get)
    assert max(briers, key=briers.get) == "too_high"
    assert max(losses, key=losses.get) == "overconfident"


def test_reliability_of_the_overconfident_model():
    """Top and bottom bins of sklearn.calibration.calibration_curve (10 uniform bins)."""
    g = glued(CH15)
    y, models = _simulation()
    true, pred = sk_calibration_curve(y, models["overconfident"], n_bins=10)
    assert float(g["over_top_pred"]) == stored(pred[-1])
    assert float(g["over_top_true"]) == stored(true[-1])
    assert float(g["over_bottom_pred"]) == stored(pred[0])
    assert float(g["over_bottom_true"]) == stored(true[0])
    assert pred[-1] > true[-1] and pred[0] < true[0]  # crosses from above to below



def test_reliability_of_the_underconfident_model_is_an_s():
    """The underconfident model's curve is the S the prose explains: below the diagonal
    in its bottom bin, above it in its top bin, steeper than the diagonal in between
    (sklearn's calibration_curve as the oracle)."""
    g = glued(CH15)
    y, models = _simulation()
    true, pred = sk_calibration_curve(y, models["underconfident"], n_bins=10)
    assert float(g["under_top_pred"]) == stored(pred[-1])
    assert float(g["under_top_true"]) == stored(true[-1])
    assert float(g["under_bottom_pred"]) == stored(pred[0])
    assert float(g["under_bottom_true"]) == stored(true[0])
    assert true[0] < pred[0] and true[-1] > pred[-1]
    assert (true[-1] - true[0]) / (pred[-1] - pred[0]) > 1
    prose = " ".join("".join(c["source"]) for c in load(CH15)["cells"]
                     if c["cell_type"] == "markdown")
    assert "S-shaped" in prose and "underconfident model's S" not in prose

def test_murphy_decomposition_of_the_four_models():
    """Murphy (1973) on sklearn's ten bins: uncertainty o(1 - o) of the labels; the
    terms recomputed from sklearn's reliability points and bin counts."""
    g = glued(CH15)
    y, models = _simulation()
    o = y.mean()
    assert float(g["unc"]) == stored(o * (1 - o))
    rel, res = {}, {}
    for name, p in models.items():
        true, pred = sk_calibration_curve(y, p, n_bins=10)
        counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], p), minlength=10)
        counts = counts[counts > 0]
        rel[name] = np.dot(counts, (pred - true) ** 2) / y.size
        res[name] = np.dot(counts, (true - o) ** 2) / y.size
    assert float(g["rel_calibrated"]) == pytest.approx(rel["calibrated"], rel=1e-9)
    assert float(g["rel_too_high"]) == pytest.approx(rel["too_high"], rel=1e-9)
    assert float(g["res_min"]) == pytest.approx(min(res.values()), rel=1e-9)
    assert float(g["res_max"]) == pytest.approx(max(res.values()), rel=1e-9)
    within = max(abs(brier_score_loss(y, p) - (rel[k] - res[k] + o * (1 - o)))
                 for k, p in models.items())
    assert float(g["within_max"]) == pytest.approx(within, rel=1e-6)


def test_proper_scoring_rules_minimise_at_the_true_probability():
    """Expected Brier and log-loss are minimised at p = q = 0.3 (Gneiting & Raftery's
    definition of proper); the absolute error at p = 0 (it is linear in p)."""
    g = glued(CH15)
    assert float(g["argmin_brier"]) == 0.3
    assert float(g["argmin_log"]) == 0.3
    assert float(g["argmin_abs"]) == 0.0


def test_ece_depends_on_the_bins():
    """ECE = sum_k n_k/n |o_k - f_k| (Naeini et al. 2015; Guo et al. 2017, eq. 3),
    recomputed from sklearn's calibration_curve and the bins' counts."""
    g = glued(CH15)
    y, models = _simulation()
    y500, p500 = y[:500], models["calibrated"][:500]

    def ece(yy, pp, n_bins, strategy):
        true, pred = sk_calibration_curve(yy, pp, n_bins=n_bins, strategy=strategy)
        edges = (np.linspace(0, 1, n_bins + 1) if strategy == "uniform"
                 else np.percentile(pp, np.linspace(0, 1, n_bins + 1) * 100))
        counts = np.bincount(np.searchsorted(edges[1:-1], pp), minlength=n_bins)
        counts = counts[counts > 0]
        return np.dot(counts, np.abs(true - pred)) / yy.size

    values = [ece(y500, p500, k, s) for k in (5, 10, 20, 50, 100)
              for s in ("uniform", "quantile")]
    assert float(g["ece_min"]) == pytest.approx(min(values), rel=1e-9)
    assert float(g["ece_max"]) == pytest.approx(max(values), rel=1e-9)
    assert float(g["ece_10_uniform"]) == pytest.approx(ece(y500, p500, 10, "uniform"),
                                                       rel=1e-9)
    assert float(g["ece_10_quantile"]) == pytest.approx(ece(y500, p500, 10, "quantile"),
                                                        rel=1e-9)
    assert float(g["ece_full"]) == pytest.approx(ece(y, models["calibrated"], 10, "uniform"),
                                                 rel=1e-9)
    assert float(g["ece_max"]) > 4 * float(g["ece_min"])


def test_asah_platt_and_isotonic():
    """S100beta of the aSAH data: AUC 0.7314 (pROC's documented value, Robin et al. 2011);
    Platt's a, b against sklearn's _sigmoid_calibration (A = -a, B = -b); the isotonic
    levels against sklearn.isotonic.IsotonicRegression; its AUC = the hull's area."""
    from sklearn.calibration import _sigmoid_calibration

    g = glued(CH15)
    y, s = _asah()
    assert round(float(g["auc_s100b"]), 4) == 0.7314
    assert float(g["auc_s100b"]) == stored(roc_auc_score(y, s))
    assert float(g["auc_platt_asah"]) == float(g["auc_s100b"])
    big_a, big_b = _sigmoid_calibration(s, y)
    assert float(g["platt_a"]) == pytest.approx(-big_a, rel=1e-5)
    assert float(g["platt_b"]) == pytest.approx(-big_b, rel=1e-5)
    iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
    levels = sorted(set(iso.predict(s).tolist()))
    assert g["iso_levels"] == "4"
    assert g["iso_values"] == "'1/11, 7/31, 1/2, 1'"
    np.testing.assert_allclose(levels, [1 / 11, 7 / 31, 1 / 2, 1], atol=1e-12)
    assert float(g["auc_iso_asah"]) == stored(roc_auc_score(y, iso.predict(s)))
    assert float(g["auc_iso_asah"]) == stored(55 / 72)  # 0.76388..., the hull's area
    assert float(g["brier_iso_asah"]) == stored(brier_score_loss(y, iso.predict(s)))
    platt = expit(-(big_a * s + big_b))
    assert float(g["brier_platt_asah"]) == pytest.approx(brier_score_loss(y, platt),
                                                         rel=1e-6)
    assert float(g["ece_iso_asah"]) == 0.0
    assert 0.07 < float(g["ece_platt_asah"]) < 0.08


def test_recalibration_on_new_objects():
    """Fit on 1000 objects, judge on 4000: sklearn's sigmoid calibration and
    IsotonicRegression as the oracles; Platt keeps the AUC, isotonic lowers it."""
    from sklearn.calibration import _sigmoid_calibration

    g = glued(CH15)
    y, models = _simulation()
    p = models["overconfident"]
    z = np.log(p / (1 - p))
    big_a, big_b = _sigmoid_calibration(z[:1000], y[:1000])
    platt = expit(-(big_a * z[1000:] + big_b))
    iso = IsotonicRegression(out_of_bounds="clip").fit(p[:1000], y[:1000]).predict(p[1000:])
    yt = y[1000:]
    assert float(g["test_auc_overconfident"]) == stored(roc_auc_score(yt, p[1000:]))
    assert float(g["test_auc_platt"]) == float(g["test_auc_overconfident"])
    assert float(g["test_auc_isotonic"]) == stored(roc_auc_score(yt, iso))
    assert float(g["test_auc_isotonic"]) < float(g["test_auc_platt"])
    assert float(g["test_brier_overconfident"]) == stored(brier_score_loss(yt, p[1000:]))
    assert float(g["test_brier_platt"]) == pytest.approx(brier_score_loss(yt, platt),
                                                         rel=1e-6)
    assert float(g["test_brier_isotonic"]) == stored(brier_score_loss(yt, iso))
    assert float(g["platt_sim_a"]) == pytest.approx(-big_a, rel=1e-5)
    assert float(g["test_ece_platt"]) < float(g["test_ece_isotonic"]) < float(
        g["test_ece_overconfident"])


def test_table1_isotonic_is_the_hull():
    """Table 1: PAV values 0, 0, 1/2, 1/2, 1/2, 1; hull segments give 1, 1/2, 0
    (Fawcett & Niculescu-Mizil 2007, the identity p = pi dTPR / (pi dTPR +
    (1 - pi) dFPR)); AUC 19/24 (F-12) rises to the hull's area 5/6."""
    g = glued(CH15)
    text = cell_text(CH15)
    assert "isotonic: ['0', '0', '1/2', '1/2', '1/2', '1']" in text
    assert "hull segment (0, 0) -> (0, 1/3): p = 1" in text
    assert "hull segment (0, 1/3) -> (1/2, 1): p = 1/2" in text
    assert "hull segment (1/2, 1) -> (1, 1): p = 0" in text
    assert g["t1_auc"] == "'19/24'"
    assert g["t1_auc_iso"] == g["t1_hull_area"] == "'5/6'"
    # the segment (0, 1/3) -> (1/2, 1): 2 positives and 2 negatives
    pi = Fraction(3, 7)
    assert pi * Fraction(2, 3) / (pi * Fraction(2, 3) + (1 - pi) * Fraction(1, 2)) == \
        Fraction(1, 2)


def test_exercise_solutions():
    """Table 1 by hand: Brier 1.59/7; ECE with one bin |3/7 - 1.9/7|; the hull segment
    (1/10) / (1/10 + 1/5); sklearn.metrics.brier_score_loss for the floats."""
    g = glued(CH15)
    y = np.array([0, 0, 0, 1, 1, 1, 0])
    b = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    assert g["q_brier"] == "'159/700'"
    assert float(g["q_brier_float"]) == stored(brier_score_loss(y, b))
    assert g["q_auc_cubed"] == "'19/24'"
    assert float(g["q_brier_cubed"]) == stored(brier_score_loss(y, b**3))
    assert g["q_ece_one"] == "'11/70'"
    assert float(g["q_ece_one_float"]) == stored(11 / 70)
    assert float(g["q_ece_unique"]) == stored(np.mean(np.abs(
        [0 - 0.0, 0 - 0.1, 0.5 - 0.2, 0.5 - 0.2, 1 - 0.3, 0 - 0.5, 1 - 0.6])))
    assert g["q_iso_03"] == "'1/2'"
    assert g["q_iso_all"] == "'0, 0, 1/2, 1/2, 1/2, 1'"
    assert g["q_segment"] == "'1/3'"


def test_the_chapter_says_which_it_is():
    assert json.dumps(load(CH15)["metadata"]["course"]) == (
        '{"chapter": 15, "summary": "Calibration is not ranking: reliability diagrams, '
        'the Brier score and its parts, the ECE, Platt scaling and isotonic regression", '
        '"track": "core"}')


def test_plot_reliability_points_are_sklearns():
    y, models = _simulation()
    ax = plotting.plot_reliability(y, models["too_high"], label="m")
    true, pred = sk_calibration_curve(y, models["too_high"], n_bins=10)
    np.testing.assert_allclose(ax.get_lines()[-1].get_xydata(), np.c_[pred, true])
    plt.close(ax.get_figure())


def test_plot_hull_calibration_labels_the_segments():
    y, s = _asah()
    ax = plotting.plot_hull_calibration(y, s)
    assert [t.get_text() for t in ax.texts] == ["1", "0.5", "0.226", "0.0909"]
    plt.close(ax.get_figure())


def test_plot_expected_scores_marks_the_minima():
    ax = plotting.plot_expected_scores(0.3, n_points=999)
    minima = [line.get_xdata()[0] for line in ax.get_lines()[3:6]]
    assert minima[0] == pytest.approx(0.3) and minima[1] == pytest.approx(0.3)
    assert minima[2] == pytest.approx(0.001)
    with pytest.raises(ValueError, match="q must lie in"):
        plotting.plot_expected_scores(1.0)
    plt.close(ax.get_figure())
