"""Chapter 17 as the reader sees it: every number glued into the prose or printed,
recomputed here and checked against its reference (pROC, scikit-learn, the hmeasure
package's vignette, or an exact derivation)."""

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from notebook_tools import cell_text, chapter, glued, load, stored
from scipy import integrate, stats

import course_lib as cl
from course_lib.exercises import exercises_for

CH17 = chapter("17_partial_auc_h_measure")
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def g():
    return glued(CH17)


@pytest.fixture(scope="module")
def asah():
    frame = pd.read_csv(DATA / "asah.csv")
    y = (frame["outcome"] == "Poor").to_numpy().astype(int)
    return y, {c: frame[c].to_numpy() for c in ("wfns", "s100b", "ndka")}


def test_asah_counts(g):
    """The aSAH data as distributed with pROC (Robin et al. 2011): 113 patients, 41 with
    a poor and 72 with a good outcome (pROC prints "72 controls < 41 cases")."""
    assert (g["n_sah"], g["n_poor"], g["n_good"]) == ("113", "41", "72")


def test_s100b_partial_area_exact(g, asah):
    """pAUC of S100B over FPR 0-0.1 (specificity 100-90%) = 967/29520: the exact area
    under the ROC path; pROC's auc(roc(aSAH$outcome, aSAH$s100b), partial.auc=c(1, .9))
    computes the same trapezoids (checked in float against pROC on WFNS and NDKA,
    tests/test_partial.py)."""
    y, m = asah
    exact = cl.partial_roc_auc(y, m["s100b"], max_fpr=Fraction(1, 10), exact=True)
    assert exact == Fraction(967, 29520)
    assert g["pauc_s100b_exact"] == "'967/29520'"
    assert g["pauc_s100b"] == repr(stored(float(exact)))
    # McClish's min and max over [0, 0.1], and the ratio to chance
    assert (g["mc_max"], g["mc_min"]) == ("0.1", "0.005")
    assert g["mc_ratio"] == repr(stored(float(exact / Fraction(1, 200))))


# pROC's tests/testthat/test-auc.R (commit ee2877e8, 2025-07-31): full AUC, pAUC over
# specificity 1-0.9 and its McClish correction
PROC = {
    "wfns": (0.823678861788618, 0.0334417344173442, 0.649693339038653),
    "ndka": (0.611957994579946, 0.0107046070460705, 0.530024247610897),
}


def test_table_of_the_three_markers_matches_proc(g, asah):
    """The AUC, pAUC(0, 0.1) and McClish columns of the table equal pROC's published
    test-suite values for WFNS and NDKA (tests/testthat/test-auc.R: "full auc works",
    "partial auc works on arbitrary intervals", "partial auc works with correction
    enabled") and scikit-learn's roc_auc_score / roc_auc_score(max_fpr=0.1) for all
    three."""
    from sklearn.metrics import roc_auc_score

    y, m = asah
    for name, (auc, pauc, mcclish) in PROC.items():
        assert float(g[f"auc_{name}"]) == pytest.approx(auc, abs=1e-9)
        assert float(g[f"pauc_{name}"]) == pytest.approx(pauc, abs=1e-11)
        assert float(g[f"mcclish_{name}"]) == pytest.approx(mcclish, abs=1e-9)
    for name, s in m.items():
        assert g[f"auc_{name}"] == repr(stored(roc_auc_score(y, s)))
        assert float(g[f"mcclish_{name}"]) == pytest.approx(
            roc_auc_score(y, s, max_fpr=0.1), abs=1e-9)
    text = cell_text(CH17)
    assert "largest difference from pROC below 1e-13: True" in text
    for name in m:
        assert f"{name:6} course_lib" in text
    assert text.count("equal to 1e-12: True") == 4


def test_wfns_and_s100b_nearly_level_in_the_high_specificity_region(g):
    """The chapter's reading of the table: WFNS's AUC exceeds S100B's by about 0.09, its
    McClish index over FPR 0-0.1 by less than 0.004 (values as in the previous test)."""
    assert float(g["auc_wfns"]) - float(g["auc_s100b"]) > 0.09
    assert 0 < float(g["mcclish_wfns"]) - float(g["mcclish_s100b"]) < 0.004


def test_sensitivity_band(g, asah):
    """pAUC of S100B over the TPR band 0.9-1 (pROC's partial.auc.focus="sensitivity");
    pROC's print_output/r.s100b.partial2 prints 0.01376 for the band 0.9-0.99, and this
    library reproduces that (tests/test_partial.py); the glued value is recomputed."""
    y, m = asah
    assert g["band_s100b"] == repr(stored(cl.partial_roc_auc(y, m["s100b"],
                                                             tpr_range=(0.9, 1))))
    assert round(float(g["band_s100b"]), 4) == 0.0138


def test_loss_curve_is_chapter_9s_cost_curve_and_hands_identity():
    """Printed checks: L(c) rescaled equals cl.cost_curve (Drummond & Holte's cost curve,
    chapter 9); Hand (2009) section 4's identity AUC_hull = 1 - E[L]/(2 pi0 pi1) on
    S100B, whose hull area 0.763889 (= 55/72) exceeds its AUC 0.731369 (pROC: 0.7314)."""
    text = cell_text(CH17)
    assert "L(c) / scale equals the cost curve: True" in text
    assert "area under the hull    0.763889" in text
    assert "1 - E[L] / (2 pi0 pi1) 0.763889" in text
    assert "AUC                    0.731369" in text



def _exact_hull(y, s):
    """Vertices (F_k, T_k) of the ROC convex hull in fractions, from (0, 0) to (1, 1)."""
    m1, m0 = int(y.sum()), int(y.size - y.sum())
    points = [(Fraction(0), Fraction(0))]
    tp = fp = 0
    for v in sorted(set(s.tolist()), reverse=True):
        tp += int(((s == v) & (y == 1)).sum())
        fp += int(((s == v) & (y == 0)).sum())
        points.append((Fraction(fp, m0), Fraction(tp, m1)))
    hull: list = []
    for p in points:  # upper hull, left to right
        while len(hull) >= 2 and ((hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1])
                                  - (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])) >= 0:
            hull.pop()
        hull.append(p)
    return hull


def test_hands_identity_line_by_line(asah):
    """Each line of the chapter's derivation of Hand's identity, in exact fractions on
    S100B: c_k p_k and (1 - c_k) p_k, L(c_k) at vertex k (a brute-force minimum over all
    thresholds), the sum by parts, and the trapezoid rule over the hull."""
    y, markers = asah
    s = markers["s100b"]
    hull = _exact_hull(y, s)
    pi1 = Fraction(int(y.sum()), y.size)
    pi0 = 1 - pi1
    m1, m0 = int(y.sum()), int(y.size - y.sum())
    thresholds = [(Fraction(0), Fraction(0))] + [
        (Fraction(int(((s >= v) & (y == 0)).sum()), m0), Fraction(int(((s >= v) & (y == 1)).sum()), m1))
        for v in sorted(set(s.tolist()), reverse=True)]
    lines = [Fraction(0)] * 4
    area = Fraction(0)
    for k in range(1, len(hull)):
        (f0, t0), (f1, t1) = hull[k - 1], hull[k]
        dF, dT = f1 - f0, t1 - t0
        p_k = pi0 * dF + pi1 * dT
        c_k = pi1 * dT / p_k
        assert c_k * p_k == pi1 * dT and (1 - c_k) * p_k == pi0 * dF
        loss = min(c_k * pi0 * f + (1 - c_k) * pi1 * (1 - t) for f, t in thresholds)
        assert loss == c_k * pi0 * f1 + (1 - c_k) * pi1 * (1 - t1)
        lines[0] += p_k * loss
        lines[1] += pi0 * pi1 * (dT * f1 + dF * (1 - t1))
        lines[2] += pi0 * pi1 * (- dF * t0 - dF * t1)
        area += dF * (t0 + t1) / 2
    lines[2] += 2 * pi0 * pi1
    lines[3] = 2 * pi0 * pi1 * (1 - area)
    assert lines[0] == lines[1] == lines[2] == lines[3]
    assert area == Fraction(55, 72)
    prose = "\n".join("".join(c["source"]) for c in load(CH17)["cells"])
    derivation = prose.index("T_K F_K - \\sum_k T_{k-1}")
    assert derivation < prose.index("1 - E[L] / (2 pi0 pi1)")  # the lines, then the check
    assert "few lines of algebra (expand" not in prose

def _scorers():
    rng = np.random.default_rng(3)
    n = 1000
    y = np.r_[np.ones(n, int), np.zeros(n, int)]
    a = np.r_[rng.normal(1.5, 1.0, n), rng.normal(0, 1, n)]
    b = np.r_[rng.normal(2.5, 2.5, n), rng.normal(0, 1, n)]
    return y, a, b


def _h_quad(y, s):
    """H with Beta(2, 2) by quadrature of min over all ROC vertices (independent)."""
    c = cl.roc_curve(y, s)
    pi1 = y.mean()
    pdf = stats.beta(2, 2).pdf
    slope, icpt = (1 - pi1) * c.fpr - pi1 * (1 - c.tpr), pi1 * (1 - c.tpr)
    knots = np.linspace(0, 1, 401)
    num = sum(integrate.quad(lambda t: np.min(t * slope + icpt) * pdf(t), lo, hi)[0]
              for lo, hi in zip(knots[:-1], knots[1:]))
    den = 2 * integrate.quad(lambda t: t * (1 - pi1) * pdf(t), 0, 0.5)[0]
    return 1 - num / den


def test_auc_and_h_order_the_two_scorers_differently(g):
    """A: AUC 0.8608 > B: 0.8175 (scikit-learn's roc_auc_score), but H (Beta(2, 2),
    Hand 2009) A 0.4308 < B 0.4520; H checked by quadrature to 1e-6; the large-sample
    values keep the order."""
    from sklearn.metrics import roc_auc_score

    y, a, b = _scorers()
    assert g["n_ab"] == "2000"
    assert g["auc_a"] == repr(stored(roc_auc_score(y, a)))
    assert g["auc_b"] == repr(stored(roc_auc_score(y, b)))
    assert g["h_a"] == repr(stored(cl.h_measure(y, a)))
    assert g["h_b"] == repr(stored(cl.h_measure(y, b)))
    assert float(g["h_a"]) == pytest.approx(_h_quad(y, a), abs=1e-6)
    assert float(g["h_b"]) == pytest.approx(_h_quad(y, b), abs=1e-6)
    assert float(g["auc_a"]) > float(g["auc_b"]) and float(g["h_a"]) < float(g["h_b"])
    assert g["n_big"] == "400000"
    assert float(g["auc_a_big"]) > float(g["auc_b_big"])
    assert float(g["h_a_big"]) < float(g["h_b_big"])
    # population AUCs: Phi(1.5 / sqrt 2) and Phi(2.5 / sqrt(1 + 2.5^2))
    assert float(g["auc_a_big"]) == pytest.approx(stats.norm.cdf(1.5 / np.sqrt(2)), abs=3e-3)
    assert float(g["auc_b_big"]) == pytest.approx(
        stats.norm.cdf(2.5 / np.sqrt(1 + 2.5**2)), abs=3e-3)


def test_hmeasure_vignette_numbers(g):
    """hmeasure vignette (CRAN hmeasure 1.0-2): LDA on Pima, H = 0.4802968 with the
    default severity ratio and 0.4401067 with severity.ratio = 1; 221 test cases with
    74 positives (pi1 = 74/221)."""
    assert g["n_pima"] == "221"
    assert g["pi1_pima"] == repr(stored(74 / 221))
    assert round(float(g["h_pima_default"]), 7) == 0.4802968
    assert round(float(g["h_pima_sr1"]), 7) == 0.4401067
    text = cell_text(CH17)
    assert "H, default severity ratio: 0.4802968" in text
    assert "H, severity ratio 1:       0.4401067" in text


def test_exercise_answers(g):
    """Exact answers derived in ch17.py: pAUC(0, 1/2) of Table 1 = 7/24, McClish 13/18,
    H of the single point (0.2, 0.8) on balanced classes with Beta(2, 2) = 1269/3125
    (E[L] = 58/625, trivial 5/32), the R package's default Beta for pi1 = 0.2 is
    Beta(2, 5), L(pi1) of Table 1 = 6/49 = pi0 pi1 (1 - KS)."""
    assert g["ex_pauc_half"] == "'7/24'"
    assert g["ex_mcclish_half"] == "'13/18'"
    assert g["ex_h_expected"] == "'58/625'"
    assert g["ex_h_worst"] == "'5/32'"
    assert g["ex_h_point"] == "'1269/3125'"
    assert g["ex_beta_default"] == "'5'"
    assert g["ex_loss_pi1"] == "'6/49'"
    # the one-point H agrees with the library on data with that hull
    y = np.r_[np.ones(5, int), np.zeros(5, int)]
    s = np.r_[[1, 1, 1, 1, 0], [1, 0, 0, 0, 0]]
    assert cl.h_measure(y, s, beta=2) == pytest.approx(1269 / 3125, abs=1e-12)
    # KS of Table 1 is 1/2
    yt, bt = [0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    assert cl.ks_statistic(yt, bt) == pytest.approx(0.5, abs=1e-15)


def test_every_exercise_is_checked_and_passes():
    """The chapter's solution cells call check() on every registered exercise."""
    checked = []
    for cell in load(CH17)["cells"]:
        if cell["metadata"].get("exercise"):
            out = "".join("".join(o.get("data", {}).get("text/plain", ""))
                          for o in cell.get("outputs", []))
            assert "passed (1/1 points)" in out
            checked.append(cell["metadata"]["exercise"])
    assert checked == [ex.id for ex in exercises_for(17)]
    assert len(checked) >= 4


def test_the_auc_is_an_expected_minimum_loss_only_for_a_concave_roc_curve(asah):
    """Hand's identity holds for the area under the hull; the AUC equals it when the ROC
    curve is concave (isotonic scores, whose curve is the hull) and not otherwise
    (S100B): every sentence that calls the AUC an expected minimum loss says so."""
    y, scores = asah
    s100b = scores["s100b"]
    pi1 = y.mean()
    pi0 = 1 - pi1

    def identity(score):
        weights = cl.auc_cost_weights(y, score)
        expected = np.dot(weights.weight, cl.minimum_loss(y, score, weights.cost))
        return 1 - expected / (2 * pi0 * pi1)

    concave = cl.isotonic_calibration(y, s100b)(s100b)
    assert identity(concave) == pytest.approx(cl.roc_auc(y, concave), abs=1e-12)
    assert identity(s100b) > cl.roc_auc(y, s100b) + 1e-3
    prose = " ".join(" ".join("".join(c["source"]) for c in load(CH17)["cells"]
                              if c["cell_type"] == "markdown").split())
    claims = [m.start() for m in re.finditer(
        r"AUC (?:\([^()]*\) )?\*?is\*? an expected minimum", prose)]
    assert len(claims) == 2
    for at in claims:
        assert "concave ROC curve" in prose[at - 40:at + 60], prose[at - 40:at + 60]
