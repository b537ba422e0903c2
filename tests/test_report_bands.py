"""Calibration by band (issue 27, item 4): the library's calibration_bands,
hosmer_lemeshow, calibration_in_the_large and calibration_slope against scipy,
statsmodels and brute force written here on 200 random tables (ties, grades, integer
weights), and the report's "calibration_bands" on the memory and DuckDB engines (Spark
in tests/test_report_engines.py) against the same oracles."""

from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import course_lib as cl
from course_lib.report import report


def statsmodels_api():
    """statsmodels (requirements-test.txt, installed by `make test`): required in CI."""
    if os.environ.get("CI"):
        import statsmodels.api

        return statsmodels.api
    return pytest.importorskip("statsmodels.api")


def random_table(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Labels, probabilities with ties (a few grades, or rounded), integer weights
    every third seed."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 250))
    p = rng.beta(rng.uniform(0.5, 3), rng.uniform(1, 6), n)
    kind = seed % 3
    if kind == 0:  # a rating scale: few distinct PDs (grades)
        grid = np.sort(rng.uniform(0.005, 0.6, int(rng.integers(2, 15))))
        p = grid[np.minimum((p * grid.size).astype(int), grid.size - 1)]
    else:
        p = np.clip(np.round(p, int(rng.integers(2, 4))), 0.01, 0.99)
    y = (rng.random(n) < np.clip(p * rng.uniform(0.6, 1.5), 0, 1)).astype(int)
    y[0], y[1] = 1, 0
    w = rng.integers(1, 4, n).astype(float) if seed % 3 == 1 else None
    return y, p, w


def oracle_bands(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> pd.DataFrame:
    """The bands from their definition, one object at a time: grades (<= 20 distinct)
    highest first, else decreasing score, a tie group whole in bin floor(before*10/n)."""
    w = np.ones(y.size) if w is None else w
    distinct = np.unique(p)
    band = {}
    if distinct.size <= 20:
        for v in distinct:
            band[v] = float(v)
        keys = sorted(band.values(), reverse=True)
    else:
        n = w.sum()
        before = 0.0
        for v in distinct[::-1]:
            band[v] = int(before * 10 // n) + 1
            before += w[p == v].sum()
        keys = sorted(set(band.values()))
    rows = []
    for k in keys:
        m = np.array([band[v] == k for v in p])
        n_k, d_k = w[m].sum(), (w * y)[m].sum()
        rows.append((k, n_k, d_k, (w * p)[m].sum() / n_k))
    return pd.DataFrame(rows, columns=["band", "obligors", "positives", "mean_score"])


@pytest.mark.parametrize("block", range(4))
def test_calibration_bands_and_tests_against_scipy(block):
    for seed in range(block * 50, block * 50 + 50):  # 200 tables
        y, p, w = random_table(seed)
        t = cl.calibration_bands(y, p, sample_weight=w)
        ref = oracle_bands(y, p, w)
        assert t["band"].tolist() == ref["band"].tolist()
        assert t["obligors"].tolist() == ref["obligors"].tolist()
        assert t["positives"].tolist() == ref["positives"].tolist()
        np.testing.assert_allclose(t["mean_score"], ref["mean_score"], rtol=1e-12)
        for row in t.itertuples():
            n, d, pd_ = int(row.obligors), int(row.positives), row.mean_score
            assert row.binomial_p == pytest.approx(
                stats.binomtest(d, n, pd_, alternative="greater").pvalue, rel=1e-9, abs=1e-15)
            assert row.jeffreys_p == pytest.approx(
                stats.beta(d + 0.5, n - d + 0.5).cdf(pd_), rel=1e-9, abs=1e-15)
        # Hosmer-Lemeshow from its formula, chi2 with bands - 2 df
        hl = cl.hosmer_lemeshow(y, p, sample_weight=w)
        e = ref["obligors"] * ref["mean_score"]
        stat = float((((ref["positives"] - e) ** 2) / (e * (1 - ref["mean_score"]))).sum())
        assert hl.df == len(ref) - 2
        assert hl.statistic == pytest.approx(stat, rel=1e-9)
        if hl.df >= 1:
            assert hl.p_value == pytest.approx(stats.chi2.sf(stat, hl.df), rel=1e-8, abs=1e-15)
        # calibration-in-the-large, object by object
        ww = np.ones(y.size) if w is None else w
        c = cl.calibration_in_the_large(y, p, sample_weight=w)
        z = ((ww * y).sum() - (ww * p).sum()) / math.sqrt((ww * p * (1 - p)).sum())
        assert c.observed == pytest.approx((ww * y).sum() / ww.sum(), rel=1e-12)
        assert c.expected == pytest.approx((ww * p).sum() / ww.sum(), rel=1e-12)
        assert c.z == pytest.approx(z, rel=1e-9)
        assert c.p_value == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("block", range(2))
def test_calibration_slope_against_statsmodels(block):
    sm = statsmodels_api()
    skipped = 0
    for seed in range(block * 100, block * 100 + 100):  # 200 tables
        y, p, w = random_table(seed)
        r = cl.calibration_slope(y, p, sample_weight=w)
        x = sm.add_constant(np.log(p / (1 - p)))
        fit = sm.GLM(y, x, family=sm.families.Binomial(),
                     freq_weights=w).fit(tol=1e-12)
        if not r.converged:  # no maximum: one PD only, or a grade all of one class
            assert np.unique(p).size == 1 or min(fit.mu.min(), 1 - fit.mu.max()) < 1e-6
            assert math.isnan(r.slope)
            skipped += 1
            continue
        assert r.intercept == pytest.approx(fit.params[0], rel=1e-6, abs=1e-8)
        assert r.slope == pytest.approx(fit.params[1], rel=1e-6, abs=1e-8)
        ci = fit.conf_int(0.05)
        assert [r.intercept_low, r.intercept_high] == pytest.approx(list(ci[0]), rel=1e-5,
                                                                    abs=1e-7)
        assert [r.slope_low, r.slope_high] == pytest.approx(list(ci[1]), rel=1e-5, abs=1e-7)
    assert skipped < 10


def test_slope_edge_cases():
    # a calibrated score: slope near 1 on a large sample of its own draws
    rng = np.random.default_rng(3)
    p = rng.uniform(0.02, 0.9, 20000)
    y = (rng.random(p.size) < p).astype(int)
    r = cl.calibration_slope(y, p)
    assert r.slope_low < 1 < r.slope_high and r.intercept_low < 0 < r.intercept_high
    # a constant score, and a score that is the label: no slope
    assert not cl.calibration_slope([0, 1, 0, 1], [0.3] * 4).converged
    sep = cl.calibration_slope([0, 1, 0, 1], [0.0, 1.0, 0.0, 1.0])
    assert not sep.converged and math.isnan(sep.slope) and sep.clipped == 4
    with pytest.raises(ValueError, match="clip"):
        cl.calibration_slope([0, 1], [0.2, 0.8], clip=0.7)
    with pytest.raises(ValueError, match="probabilities"):
        cl.calibration_bands([0, 1], [0.2, 1.8])
    with pytest.raises(ValueError, match="one band per object"):
        cl.calibration_bands([0, 1, 1], [0.2, 0.8, 0.5], bands=["a", "b"])
    # fractional weights: numbers, no tests
    t = cl.calibration_bands([0, 1, 1, 0], [0.2, 0.8, 0.5, 0.1], sample_weight=[0.5, 1, 2, 1])
    assert t["binomial_p"].isna().all() and t["obligors"].sum() == pytest.approx(4.5)


def test_given_bands():
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    p = np.array([0.1, 0.7, 0.2, 0.3, 0.9, 0.4, 0.2, 0.5])
    g = np.array(["B", "A", "B", "B", "A", None, "A", "B"], dtype=object)
    t = cl.calibration_bands(y, p, bands=g)
    assert t["band"].tolist()[:2] == ["A", "B"] and pd.isna(t["band"].iloc[2])  # missing last
    assert t["obligors"].tolist() == [3, 4, 1] and t["positives"].tolist() == [2, 2, 0]
    assert t["mean_score"].tolist() == pytest.approx([(0.7 + 0.9 + 0.2) / 3,
                                                      (0.1 + 0.2 + 0.3 + 0.5) / 4, 0.4])
    assert t.attrs["rule"] == "given"


def _rows(block):
    return [{k: (v["value"] if isinstance(v, dict) else v) for k, v in r.items()}
            for r in block["bands"]]


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_report_calibration_bands(engine):
    rng = np.random.default_rng(11)
    n = 900
    p = rng.beta(2, 6, n)
    y = (rng.random(n) < p * 1.2).astype(int)
    grade = np.array([0.02, 0.05, 0.1, 0.2, 0.4])[np.minimum((p * 12).astype(int), 4)]
    frame = pd.DataFrame({"y": y, "p": np.round(p, 3), "grade": grade, "x": p * 700,
                          "pool": rng.choice(["mortgage", "card", "auto"], n)})
    r = report(frame, label="y", scores=["p", "grade", "x"], engine=engine).data
    for name, rule in (("p", "deciles"), ("grade", "grades")):
        block = r["scores"][name]["calibration_bands"]
        assert block["rule"] == rule
        lib = cl.calibration_bands(y, frame[name])
        ref = oracle_bands(y, frame[name].to_numpy(), None)
        rows = _rows(block)
        assert [x["band"] for x in rows] == ref["band"].tolist()
        assert [x["obligors"] for x in rows] == ref["obligors"].tolist()
        assert [x["binomial_p"] for x in rows] == pytest.approx(lib["binomial_p"].tolist(),
                                                                rel=1e-12)
        hl = cl.hosmer_lemeshow(y, frame[name])
        assert block["hosmer_lemeshow"]["statistic"] == pytest.approx(hl.statistic, rel=1e-12)
        assert block["hosmer_lemeshow"]["df"] == len(rows) - 2
        s = cl.calibration_slope(y, frame[name])
        assert block["recalibration"]["slope"] == pytest.approx(s.slope, rel=1e-9)
        assert block["recalibration"]["slope_ci"] == pytest.approx([s.slope_low, s.slope_high],
                                                                   rel=1e-9)
        assert block["in_the_large"]["z"] == pytest.approx(
            cl.calibration_in_the_large(y, frame[name]).z, rel=1e-12)
        assert "one-sided" in block["tests"] and block["cut"]
    assert r["scores"]["x"]["calibration_bands"] is None  # points, not probabilities
    assert any("x: no calibration by band" in note for note in r["notes"])
    # bands of a column
    r2 = report(frame, label="y", scores="p", engine=engine, bands="pool").data
    block = r2["scores"]["p"]["calibration_bands"]
    assert block["rule"] == "given" and block["column"] == "pool"
    lib = cl.calibration_bands(y, frame["p"], bands=frame["pool"])
    assert [x["band"] for x in _rows(block)] == lib["band"].tolist() == ["auto", "card",
                                                                         "mortgage"]
    assert [x["positives"] for x in _rows(block)] == lib["positives"].tolist()
    assert [x["jeffreys_p"] for x in _rows(block)] == pytest.approx(
        lib["jeffreys_p"].tolist(), rel=1e-12)
    assert r2["options"]["bands"] == "pool"
