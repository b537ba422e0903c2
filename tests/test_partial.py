"""Tests of course_lib.partial: the partial AUC and the H-measure.

Oracles: scikit-learn's ``roc_auc_score(max_fpr=...)`` (McClish-standardized partial
AUC over [0, max_fpr]); the values in pROC's own test suite on the aSAH data
(xrobin/pROC, tests/testthat/test-auc.R and tests/testthat/print_output/, commit
ee2877e858bcd2757c05ce797ea64ade2c05885b, 2025-07-31); the R package hmeasure's
vignette (CRAN hmeasure 1.0-2, vignettes/hmeasure.Rnw, output kept in
canagnos/hmeasure vignettes/hmeasure.tex) on MASS's Pima.te data; and an independent
numerical integral (scipy.integrate.quad) of the minimum-loss curve over the Beta
density.
"""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import integrate, stats

from course_lib import UndefinedMetricWarning
from course_lib.partial import auc_cost_weights, h_measure, minimum_loss, partial_roc_auc
from course_lib.roc import roc_auc, roc_convex_hull, roc_curve

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def asah():
    frame = pd.read_csv(DATA / "asah.csv")
    y = (frame["outcome"] == "Poor").to_numpy().astype(int)
    return y, {c: frame[c].to_numpy() for c in ("wfns", "s100b", "ndka")}


# ---------------------------------------------------------------- partial AUC: facts


def test_table1_partial_areas_exact(table1):
    """Table 1: the curve holds TPR 1/3 from FPR 0 to 1/4, so pAUC(0, 1/4) = 1/12;
    McClish: min = 1/32, max = 1/4, (1 + (1/12 - 1/32) / (7/32)) / 2 = 13/21."""
    y, b = table1
    assert partial_roc_auc(y, b, max_fpr=0.25, exact=True) == Fraction(1, 12)
    assert partial_roc_auc(y, b, max_fpr=Fraction(1, 4), standardized="mcclish",
                           exact=True) == Fraction(13, 21)
    # the tie (objects 3 and 5) is the diagonal segment (1/4, 2/3) -> (1/2, 1)
    assert partial_roc_auc(y, b, fpr_range=(0.25, 0.5), exact=True) == Fraction(5, 24)
    assert partial_roc_auc(y, b, fpr_range=(0, 1), exact=True) == Fraction(19, 24)
    assert partial_roc_auc(y, b, tpr_range=(0.5, 1), exact=True) == Fraction(1, 3)
    assert partial_roc_auc(y, b, fpr_range=(0.25, 0.5)) == pytest.approx(5 / 24, abs=1e-15)


# (predictor, pROC's partial.auc, focus, correct, pROC's value)
PROC_VALUES = [
    ("wfns", (1, 0.9), "sp", False, 0.0334417344173442),
    ("wfns", (0.9, 0.8), "sp", False, 0.0598373983739837),
    ("wfns", (0.5, 0), "sp", False, 0.488134475939354),
    ("ndka", (1, 0.9), "sp", False, 0.0107046070460705),
    ("ndka", (0.9, 0.8), "sp", False, 0.0277777777777778),
    ("ndka", (0.5, 0), "sp", False, 0.416836043360434),
    ("wfns", (1, 0.9), "se", False, 0.0400999322493225),
    ("wfns", (0.9, 0.8), "se", False, 0.0609953703703703),
    ("wfns", (0.5, 0), "se", False, 0.483358739837398),
    ("ndka", (1, 0.9), "se", False, 0.0037940379403794),
    ("ndka", (0.9, 0.8), "se", False, 0.0242547425474255),
    ("ndka", (0.5, 0), "se", False, 0.428523035230352),
    ("wfns", (1, 0.9), "sp", True, 0.649693339038653),
    ("wfns", (0.9, 0.8), "sp", True, 0.763749402199904),
    ("wfns", (0.5, 0), "sp", True, 0.952537903757416),
    ("ndka", (1, 0.9), "sp", True, 0.530024247610897),
    ("ndka", (0.9, 0.8), "sp", True, 0.575163398692811),
    ("ndka", (0.5, 0), "sp", True, 0.667344173441734),
    ("wfns", (1, 0.9), "se", True, 0.68473648552275),
    ("wfns", (0.9, 0.8), "se", True, 0.770561002178649),
    ("wfns", (0.5, 0), "se", True, 0.933434959349593),
    ("ndka", (0.9, 0.8), "se", True, 0.554439662043679),
    ("ndka", (0.5, 0), "se", True, 0.714092140921409),
    ("wfns", (1, 0), "sp", True, 0.823678861788618),
    ("ndka", (1, 0), "se", True, 0.611957994579946),
]


@pytest.mark.parametrize("name, bounds, focus, correct, expected", PROC_VALUES)
def test_matches_proc_test_suite_on_asah(asah, name, bounds, focus, correct, expected):
    """pROC's published values (tests/testthat/test-auc.R, "partial auc works on
    arbitrary intervals", "... with focus on SE", "... with correction enabled", "...
    focus on SE and correction enabled"), to 1e-13: a specificity range (sp) is the FPR
    range (1 - hi, 1 - lo); a sensitivity range (se) is the TPR band."""
    y, scores = asah
    lo, hi = sorted(bounds)
    kw = {"fpr_range": (1 - hi, 1 - lo)} if focus == "sp" else {"tpr_range": (lo, hi)}
    got = partial_roc_auc(y, scores[name], standardized="mcclish" if correct else False,
                          **kw)
    assert got == pytest.approx(expected, abs=1e-13)


def test_matches_proc_printed_s100b_values(asah):
    """pROC's tests/testthat/print_output/r.s100b.partial1 and r.s100b.partial2 print
    0.02983 (specificity 0.99-0.9) and 0.01376 (sensitivity 0.99-0.9) for s100b."""
    y, scores = asah
    s = scores["s100b"]
    assert round(partial_roc_auc(y, s, fpr_range=(0.01, 0.1)), 5) == 0.02983
    assert round(partial_roc_auc(y, s, tpr_range=(0.9, 0.99)), 5) == 0.01376


def test_proc_below_diagonal_case_is_a_number_below_half(asah):
    """pROC returns NA (with a warning) for ndka's corrected pAUC over sensitivity
    0.9-1, whose curve lies below the diagonal there; this library returns McClish's
    formula's value, below 1/2, as scikit-learn would."""
    y, scores = asah
    v = partial_roc_auc(y, scores["ndka"], tpr_range=(0.9, 1), standardized="mcclish")
    assert 0 < v < 0.5


# ---------------------------------------------------------------- against scikit-learn


@pytest.mark.parametrize("profile", PROFILES)
def test_mcclish_over_0_m_agrees_with_sklearn_max_fpr(profile):
    """Differential, 6 x 200 cases with ties and weights: standardized="mcclish" with
    max_fpr=m equals sklearn.metrics.roc_auc_score(..., max_fpr=m) to 1e-12, with m
    random or on a vertex of the curve."""
    from sklearn import metrics

    rng = np.random.default_rng(1700 + PROFILES.index(profile))
    for i in range(200):
        y, s, w = random_case(rng, profile)
        if i % 3 == 0:
            fpr = roc_curve(y, s, sample_weight=w).fpr
            m = float(rng.choice(fpr[fpr > 0]))
        else:
            m = float(rng.uniform(0.001, 1.0))
        expected = metrics.roc_auc_score(y, s, sample_weight=w, max_fpr=m)
        got = partial_roc_auc(y, s, max_fpr=m, standardized="mcclish", sample_weight=w)
        assert got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("profile", ["ties", "int_weights"])
def test_exact_fraction_agrees_with_float(profile):
    """Differential, 2 x 200 cases: exact=True (a float end read as its decimal) and the
    float result agree to 1e-12, on FPR ranges and TPR bands."""
    rng = np.random.default_rng(1717 + PROFILES.index(profile))
    for _ in range(200):
        y, s, w = random_case(rng, profile)
        a, b = sorted(np.round(rng.uniform(0, 1, size=2), 3).tolist())
        assume_ok = a < b
        if not assume_ok:
            continue
        for kw in ({"fpr_range": (a, b)}, {"tpr_range": (a, b)}):
            for std in (False, "mcclish"):
                exact = partial_roc_auc(y, s, sample_weight=w, standardized=std, exact=True,
                                        **kw)
                assert isinstance(exact, Fraction)
                approx = partial_roc_auc(y, s, sample_weight=w, standardized=std, **kw)
                assert float(exact) == pytest.approx(approx, abs=1e-12)


# ---------------------------------------------------------------- partial AUC: properties

rows = st.lists(
    st.tuples(st.booleans(), st.integers(-5, 5), st.integers(0, 3)), min_size=2, max_size=40
)
ends = st.fractions(min_value=0, max_value=1, max_denominator=20)


def unpack(data):
    y = np.array([r[0] for r in data])
    s = np.array([float(r[1]) for r in data])
    w = np.array([r[2] for r in data])
    return y, s, w


@given(rows, ends, ends, ends)
def test_property_partial_areas_add_up(data, a, b, c):
    """pAUC(a, b) + pAUC(b, c) = pAUC(a, c) exactly; [0, 1] gives the AUC; every
    pAUC lies between 0 and the range's width."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    a, b, c = sorted((a, b, c))
    assume(a < b < c)
    left = partial_roc_auc(y, s, fpr_range=(a, b), exact=True)
    right = partial_roc_auc(y, s, fpr_range=(b, c), exact=True)
    assert left + right == partial_roc_auc(y, s, fpr_range=(a, c), exact=True)
    assert 0 <= left <= b - a
    assert partial_roc_auc(y, s, fpr_range=(0, 1), exact=True) == roc_auc(y, s, exact=True)
    assert partial_roc_auc(y, s, tpr_range=(0, 1), exact=True) == roc_auc(y, s, exact=True)


@given(rows, ends, ends)
def test_property_tpr_band_is_the_fpr_range_of_the_swapped_problem(data, a, b):
    """A TPR band [a, b] is the FPR range [1 - b, 1 - a] once the classes are swapped
    and the scores negated (the ROC curve reflected in the anti-diagonal)."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    a, b = sorted((a, b))
    assume(a < b)
    band = partial_roc_auc(y, s, tpr_range=(a, b), exact=True)
    assert band == partial_roc_auc(~y, -s, fpr_range=(1 - b, 1 - a), exact=True)


@given(rows, ends, ends)
def test_property_integer_weights_equal_replicated_rows(data, a, b):
    """Weight k equals k copies of the row, for the exact and the float areas."""
    y, s, w = unpack(data)
    a, b = sorted((a, b))
    assume(a < b and (w * y).sum() > 0 and (w * ~y).sum() > 0)
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    exact = partial_roc_auc(y, s, sample_weight=w, fpr_range=(a, b), exact=True)
    assert exact == partial_roc_auc(yr, sr, fpr_range=(a, b), exact=True)
    assert partial_roc_auc(y, s, sample_weight=w, fpr_range=(a, b)) == pytest.approx(
        float(exact), abs=1e-12)


@given(st.integers(1, 30), st.integers(1, 30), ends, ends)
def test_property_mcclish_anchors(m1, m0, a, b):
    """McClish: a perfect ranking gives 1 and a constant score 1/2, on any range."""
    a, b = sorted((a, b))
    assume(a < b)
    y = np.r_[np.ones(m1, bool), np.zeros(m0, bool)]
    perfect = np.r_[np.ones(m1), np.zeros(m0)]
    for kw in ({"fpr_range": (a, b)}, {"tpr_range": (a, b)}):
        assert partial_roc_auc(y, perfect, standardized="mcclish", exact=True, **kw) == 1
        assert partial_roc_auc(y, np.zeros(m1 + m0), standardized="mcclish", exact=True,
                               **kw) == Fraction(1, 2)


# ---------------------------------------------------------------- H-measure: facts


@pytest.fixture(scope="module")
def pima_lda():
    """The hmeasure vignette's example: LDA trained on every third row of MASS's
    Pima.te (rows 1, 4, 7, ...), scored on the other 221; the posterior P(Yes)."""
    frame = pd.read_csv(DATA / "pima_te.csv")
    x = frame[["npreg", "glu", "bp", "skin", "bmi", "ped", "age"]].to_numpy(float)
    y = (frame["type"] == "Yes").to_numpy()
    train = np.arange(0, len(frame), 3)
    test = np.setdiff1d(np.arange(len(frame)), train)
    xt, yt = x[train], y[train]
    mu1, mu0 = xt[yt].mean(axis=0), xt[~yt].mean(axis=0)
    resid = np.vstack([xt[yt] - mu1, xt[~yt] - mu0])
    cov = resid.T @ resid / (train.size - 2)  # MASS::lda's pooled covariance
    coef = np.linalg.solve(cov, mu1 - mu0)
    prior = yt.mean()
    logit = (x[test] - (mu1 + mu0) / 2) @ coef + np.log(prior / (1 - prior))
    return y[test].astype(int), 1 / (1 + np.exp(-logit))


def test_h_measure_matches_hmeasure_vignette(pima_lda):
    """R package hmeasure, vignette "Measuring classification performance: the hmeasure
    package" (section on the severity ratio): for LDA on Pima, H = 0.4802968 with the
    default severity ratio pi1/pi0 and H = 0.4401067 with severity.ratio = 1; the same
    output shows the first posteriors 0.02199222, 0.02612837, 0.61755047, the 221 test
    cases (147 No, 74 Yes), FP 25 and FN 24 at threshold 0.5 and KS 0.6335723."""
    from course_lib import ks_statistic

    y, post = pima_lda
    assert (y.size, int(y.sum())) == (221, 74)
    np.testing.assert_allclose(post[:3], [0.02199222, 0.02612837, 0.61755047], atol=5e-9)
    called = post > 0.5
    assert (int((called & (y == 0)).sum()), int((~called & (y == 1)).sum())) == (25, 24)
    assert ks_statistic(y, post) == pytest.approx(0.6335723, abs=5e-8)
    assert h_measure(y, post) == pytest.approx(0.4802968, abs=5e-8)
    assert h_measure(y, post, severity_ratio=1) == pytest.approx(0.4401067, abs=5e-8)
    # severity ratio 1 is Hand's (2009) Beta(2, 2)
    assert h_measure(y, post, severity_ratio=1) == h_measure(y, post, beta=2)


def test_h_measure_matches_python_port_readme_example():
    """The Python port of hmeasure (PyPI hmeasure 0.1.6, README) prints H for ten
    objects: 0.18889596344769588 (default), 0.13502616807120948 (SR 0.7),
    0.001212529211507385 (SR 0.1), 0.10750123502531805 (SR 0.5) and
    0.18310946512079307 for a negative SR, the R code's Beta(pi1 + 1, pi0 + 1)."""
    y = np.array([1, 1, 0, 1, 1, 0, 1, 1, 1, 0])
    s = np.array([0.84901876, 0.10282827, 0.43752488, 0.46004468, 0.90878931,
                  0.79177719, 0.5297229, 0.13803906, 0.73166264, 0.22959056])
    assert h_measure(y, s) == pytest.approx(0.18889596344769588, abs=1e-12)
    assert h_measure(y, s, severity_ratio=0.7) == pytest.approx(0.13502616807120948, abs=1e-12)
    assert h_measure(y, s, severity_ratio=0.1) == pytest.approx(0.001212529211507385,
                                                                abs=1e-12)
    assert h_measure(y, s, severity_ratio=0.5) == pytest.approx(0.10750123502531805, abs=1e-12)
    assert h_measure(y, s, alpha=1.7, beta=1.3) == pytest.approx(0.18310946512079307,
                                                                 abs=1e-12)


def _h_by_quadrature(y, s, w, a, b):
    """H from its definition, sharing nothing with the library but the ROC curve: the
    loss minimized over every ROC vertex, integrated by quad between the costs where two
    vertices' loss lines cross (every kink of the minimum is among them)."""
    c = roc_curve(y, s, sample_weight=w)
    wy = np.ones(len(y)) if w is None else np.asarray(w, float)
    pi1 = wy[np.asarray(y) == 1].sum() / wy.sum()
    pi0 = 1 - pi1
    density = stats.beta(a, b).pdf
    # loss line of vertex k: c * (pi0 fpr_k - pi1 fnr_k) + pi1 fnr_k
    slope, icpt = pi0 * c.fpr - pi1 * (1 - c.tpr), pi1 * (1 - c.tpr)
    ds = slope[:, None] - slope[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = (icpt[None, :] - icpt[:, None]) / ds
    knots = np.unique(np.r_[0.0, 1.0, pi1, cross[np.isfinite(cross)]])
    knots = knots[(knots >= 0) & (knots <= 1)]

    # merge the pieces on which the same vertex is the best (brute force at midpoints)
    best = [int(np.argmin(m * slope + icpt)) for m in (knots[:-1] + knots[1:]) / 2]
    cuts = [0.0] + [float(knots[i + 1]) for i in range(len(best) - 1)
                    if best[i] != best[i + 1]] + [1.0]
    winners = [best[0]] + [best[i + 1] for i in range(len(best) - 1) if best[i] != best[i + 1]]
    num = sum(
        integrate.quad(lambda t, k=k: (t * slope[k] + icpt[k]) * density(t), lo, hi,
                       epsabs=1e-14)[0]
        for k, lo, hi in zip(winners, cuts[:-1], cuts[1:])
    )
    den = (integrate.quad(lambda t: t * pi0 * density(t), 0, pi1, epsabs=1e-14)[0]
           + integrate.quad(lambda t: (1 - t) * pi1 * density(t), pi1, 1, epsabs=1e-14)[0])
    return 1 - num / den


def _small_case(rng, profile):
    """A random_case cut down to at most 25 objects (both classes kept)."""
    while True:
        y, s, w = random_case(rng, profile)
        keep = rng.permutation(y.size)[:25]
        y, s = y[keep], s[keep]
        w = None if w is None else w[keep]
        wy = np.ones(y.size) if w is None else w
        if wy[y == 1].sum() > 0 and wy[y == 0].sum() > 0:
            return y, s, w


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@pytest.mark.parametrize("profile", PROFILES[:4])
def test_h_measure_agrees_with_quadrature(profile):
    """Differential, 4 x 25 random cases (up to 25 objects, ties, integer and float
    weights), each with Beta(2, 2), the R package's default Beta(2, 1 + pi0/pi1) and a
    third Beta: the exact H equals the numerical integral of the minimum-loss curve
    over the Beta density to 1e-10."""
    rng = np.random.default_rng(1790 + PROFILES.index(profile))
    for i in range(25):
        y, s, w = _small_case(rng, profile)
        wy = np.ones(len(y)) if w is None else w
        pi1 = wy[y == 1].sum() / wy.sum()
        for a, b, kw in ((2.0, 2.0, {"beta": 2}),
                         (2.0, 1 + (1 - pi1) / pi1, {}),
                         (1.5 + i % 3, 2.5, {"alpha": 1.5 + i % 3, "beta": 2.5})):
            got = h_measure(y, s, sample_weight=w, **kw)
            assert got == pytest.approx(_h_by_quadrature(y, s, w, a, b), abs=1e-10)


# ---------------------------------------------------------------- H-measure: properties


@given(rows)
def test_property_h_in_unit_interval_and_invariant(data):
    """H lies in [0, 1] and does not change under a strictly increasing map of the
    scores (it reads only the ROC curve and the class shares)."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    h = h_measure(y, s)
    assert 0 <= h <= 1
    assert h_measure(y, np.exp(s / 3) + s**3) == h
    assert h_measure(y, s, beta=2) == h_measure(y, 10 * s - 7, beta=2)


@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.2, 5.0))
def test_property_h_anchors(m1, m0, sr):
    """H = 1 for a perfect separation and H = 0 for a constant (all tied) scorer."""
    y = np.r_[np.ones(m1, int), np.zeros(m0, int)]
    assert h_measure(y, np.r_[np.full(m1, 2.0), np.zeros(m0)], severity_ratio=sr) == 1
    assert h_measure(y, np.full(m1 + m0, 0.3), severity_ratio=sr) == 0


@given(rows)
def test_property_h_integer_weights_equal_replicated_rows(data):
    """Weight k equals k copies of the row."""
    y, s, w = unpack(data)
    assume((w * y).sum() > 0 and (w * ~y).sum() > 0)
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    assert h_measure(y, s, sample_weight=w) == pytest.approx(h_measure(yr, sr), abs=1e-12)


@given(rows)
def test_property_auc_is_an_expected_minimum_loss(data):
    """Hand (2009): with c distributed as auc_cost_weights, the area under the ROC hull
    is 1 - E[L(c)] / (2 pi0 pi1); the weights add up to 1."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    cw = auc_cost_weights(y, s)
    pi1 = y.mean()
    expected_loss = float(np.dot(cw.weight, minimum_loss(y, s, cw.cost)))
    c = roc_curve(y, s)
    hull_area = roc_convex_hull(c.fpr, c.tpr).area
    assert 1 - expected_loss / (2 * pi1 * (1 - pi1)) == pytest.approx(hull_area, abs=1e-12)
    assert cw.weight.sum() == pytest.approx(1, abs=1e-12)
    assert (np.diff(cw.cost) <= 0).all()


@given(rows, st.lists(st.floats(0, 1), min_size=1, max_size=5))
def test_property_minimum_loss_is_the_best_threshold(data, costs):
    """L(c) is the minimum over every ROC vertex of c pi0 FPR + (1 - c) pi1 FNR."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    c = roc_curve(y, s)
    pi1 = y.mean()
    got = minimum_loss(y, s, costs)
    for cost, value in zip(costs, got):
        brute = np.min(cost * (1 - pi1) * c.fpr + (1 - cost) * pi1 * (1 - c.tpr))
        assert value == pytest.approx(brute, abs=1e-12)


# ---------------------------------------------------------------- degenerate and bad input


def test_one_class_is_nan_with_warning():
    """One class: the areas and H warn and return nan (as roc_auc does); the loss
    curve and the cost weights raise."""
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert np.isnan(partial_roc_auc([1, 1], [0.1, 0.2], max_fpr=0.5))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(partial_roc_auc([0, 1], [0.1, 0.2], max_fpr=0.5,
                                        sample_weight=[1, 0]))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(h_measure([0, 0], [0.1, 0.2]))
    with pytest.raises(ValueError, match="minimum loss is undefined: there are no positive"):
        minimum_loss([0, 0], [0.1, 0.2], 0.5)
    with pytest.raises(ValueError, match="cost weighting is undefined: there are no negative"):
        auc_cost_weights([1, 1], [0.1, 0.2])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, r"give exactly one of max_fpr, fpr_range, tpr_range \(got none\)"),
        ({"max_fpr": 0.5, "fpr_range": (0, 0.5)}, r"\(got max_fpr, fpr_range\)"),
        ({"max_fpr": 0}, r"max_fpr must be in \(0, 1\], got 0"),
        ({"max_fpr": 1.5}, r"max_fpr must be a number in \[0, 1\], got 1.5"),
        ({"max_fpr": "0.5"}, r"max_fpr must be a number in \[0, 1\], got '0.5'"),
        ({"max_fpr": True}, "max_fpr must be a number"),
        ({"max_fpr": float("nan")}, "max_fpr must be a number"),
        ({"fpr_range": (0.5, 0.5)}, r"fpr_range must be a pair \(a, b\) with 0 <= a < b"),
        ({"fpr_range": (0.6, 0.2)}, r"fpr_range must be a pair"),
        ({"fpr_range": 0.5}, r"fpr_range must be a pair"),
        ({"tpr_range": (0, 1, 2)}, r"tpr_range must be a pair"),
        ({"tpr_range": (-0.1, 1)}, r"tpr_range must be a number in \[0, 1\]"),
        ({"max_fpr": 0.5, "standardized": True}, 'standardized must be False or "mcclish"'),
        ({"max_fpr": 0.5, "standardized": "McClish"}, "standardized must be False or"),
        ({"max_fpr": 0.5, "exact": "yes"}, "exact must be True or False"),
        ({"max_fpr": 0.5, "exact": True, "sample_weight": [1, 0.5, 1, 1]},
         "integer sample weights; found 0.5"),
    ],
)
def test_partial_bad_options(table1, kwargs, message):
    """Each bad option is a ValueError that names it."""
    y, b = table1
    kwargs = dict(kwargs)
    if "sample_weight" in kwargs:
        y, b = y[:4], b[:4]
    with pytest.raises(ValueError, match=message):
        partial_roc_auc(y, b, **kwargs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0}, "alpha must be a positive number, got 0"),
        ({"alpha": None}, "alpha must be a positive number, got None"),
        ({"beta": -1}, "beta must be a positive number, got -1"),
        ({"beta": "2"}, "beta must be a positive number"),
        ({"severity_ratio": 0}, "severity_ratio must be a positive number, got 0"),
        ({"severity_ratio": np.inf}, "severity_ratio must be a positive number"),
        ({"severity_ratio": 1, "beta": 2}, "give severity_ratio or beta, not both"),
        ({"alpha": 0.5, "severity_ratio": 0.25}, "is not positive; choose alpha >= 1"),
    ],
)
def test_h_bad_options(table1, kwargs, message):
    """Each bad option of h_measure is a ValueError that names it."""
    y, b = table1
    with pytest.raises(ValueError, match=message):
        h_measure(y, b, **kwargs)


@pytest.mark.parametrize(
    "y, s, w, message",
    [
        ([0, 2, 1], [0.1, 0.2, 0.3], None, "found other values: 2"),
        ([0, 1], [0.1, np.nan], None, "NaN or infinite"),
        ([0, 1, 1], [0.1, 0.2], None, "different lengths: 3 and 2"),
        ([0, 1], [0.1, 0.2], [1, -1], "non-negative"),
    ],
)
def test_bad_input_raises_value_error(y, s, w, message):
    """Every public function names the problem with its input."""
    with pytest.raises(ValueError, match=message):
        partial_roc_auc(y, s, max_fpr=0.5, sample_weight=w)
    with pytest.raises(ValueError, match=message):
        h_measure(y, s, sample_weight=w)
    with pytest.raises(ValueError, match=message):
        minimum_loss(y, s, 0.5, sample_weight=w)
    with pytest.raises(ValueError, match=message):
        auc_cost_weights(y, s, sample_weight=w)


def test_minimum_loss_bad_cost(table1):
    """A cost outside [0, 1] is named."""
    y, b = table1
    with pytest.raises(ValueError, match=r"cost must lie in \[0, 1\]"):
        minimum_loss(y, b, [0.5, 1.2])


def test_inputs_are_not_modified_and_results_are_python_scalars(table1):
    """Read-only inputs are accepted and left as they were; numbers are Python floats."""
    y, b = (a.copy() for a in table1)
    w = np.arange(1.0, 8.0)
    for a in (y, b, w):
        a.flags.writeable = False
    assert type(partial_roc_auc(y, b, max_fpr=0.3, sample_weight=w)) is float
    assert type(partial_roc_auc(y, b, tpr_range=(0.2, 0.9), sample_weight=w,
                                standardized="mcclish")) is float
    assert type(h_measure(y, b, sample_weight=w)) is float
    assert type(minimum_loss(y, b, 0.3, sample_weight=w)) is float
    auc_cost_weights(y, b, sample_weight=w)
    np.testing.assert_array_equal(y, table1[0])
    np.testing.assert_array_equal(b, table1[1])
    np.testing.assert_array_equal(w, np.arange(1.0, 8.0))
