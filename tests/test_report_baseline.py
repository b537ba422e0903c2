"""The baseline and time compared (issue 27, item 5): the unpaired DeLong test of two
independent samples' AUCs (course_lib.delong_test_unpaired and the report's
"baseline_test") against DeLong's placements by definition (tests/oracles.py) on 200
random tables, and the report's "periods" (rows, positives, positive rate, Gini with
its DeLong interval, PSI against the first period or the baseline) against brute force,
on the memory and DuckDB engines; Spark gives the memory engine's JSON for the periods,
the baseline test and the calibration by band in one run
(tests/test_report_engines.py, with the other Spark tests)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from oracles import delong
from scipy import stats

import course_lib as cl
from course_lib.report import report


def unpaired_oracle(ya, sa, yb, sb, level=0.95):
    a, va, _, _ = delong(ya, sa)
    b, vb, _, _ = delong(yb, sb)
    diff = float(a - b)
    se = math.sqrt(float(va + vb))
    z = diff / se
    half = stats.norm.ppf((1 + level) / 2) * se
    return diff, z, 2 * stats.norm.sf(abs(z)), diff - half, diff + half


def sample(rng, n, shift):
    y = (rng.random(n) < rng.uniform(0.2, 0.7)).astype(int)
    y[:2] = [1, 0]
    y[2:4] = [1, 0]
    s = np.round(rng.normal(size=n) + shift * y, int(rng.integers(0, 2)))  # ties
    return y, s


def test_unpaired_delong_against_placements():
    rng = np.random.default_rng(27)
    for _ in range(200):
        ya, sa = sample(rng, int(rng.integers(6, 50)), rng.uniform(0, 2))
        yb, sb = sample(rng, int(rng.integers(6, 50)), rng.uniform(0, 2))
        r = cl.delong_test_unpaired(ya, sa, yb, sb)
        diff, z, p, lo, hi = unpaired_oracle(ya, sa, yb, sb)
        assert r.difference == pytest.approx(diff, abs=1e-14)
        assert r.z == pytest.approx(z, rel=1e-9, abs=1e-12)
        assert r.p_value == pytest.approx(p, rel=1e-9, abs=1e-14)
        assert [r.low, r.high] == pytest.approx([lo, hi], rel=1e-9, abs=1e-12)
    same = cl.delong_test_unpaired([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1],
                                   [1, 2, 3, 4])
    assert (same.z, same.p_value, same.difference) == (0.0, 1.0, 0.0)
    with pytest.warns(cl.UndefinedMetricWarning):
        assert math.isnan(cl.delong_test_unpaired([0, 1], [0.1, 0.9], [0, 1, 1], [1, 2, 3]).z)


def frames():
    rng = np.random.default_rng(5)
    n = 700
    y = (rng.random(n) < 0.3).astype(int)
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 1.2)))
    period = rng.choice(["2023-H2", "2024-H1", "2024-H2", "2025-H1"], n, p=[.3, .3, .3, .1])
    frame = pd.DataFrame({"y": y, "p": np.round(p, 2), "when": period,
                          "pool": rng.choice(["a", "b"], n)})
    frame.loc[(frame["when"] == "2025-H1").to_numpy() & (frame["y"] == 1).to_numpy()
              & (rng.random(n) < 0.8), "y"] = 0  # few positives in the last period
    m = 400
    yb = (rng.random(m) < 0.25).astype(int)
    pb = 1 / (1 + np.exp(-(rng.normal(size=m) + 1.6 * yb - 1.3)))
    base = pd.DataFrame({"y": yb, "p": np.round(pb, 2)})
    return frame, base


def psi_oracle(ref: np.ndarray, data: np.ndarray) -> float:
    """PSI by definition: the reference's ten tie-aware decile bins (a tie group whole
    in bin floor(before * 10 / n)), each data score in the bin of the lowest reference
    low at or below it (the top bin takes what lies above, the last what lies below),
    shares floored at 1e-4."""
    order = np.sort(ref)[::-1]
    lows, before = {}, 0
    for v in np.unique(order)[::-1]:
        lows[int(before * 10 // ref.size)] = v
        before += int((ref == v).sum())
    low = [lows[k] for k in sorted(lows)]

    def bins(x):
        out = np.zeros(len(low))
        for s in x:
            j = next((j for j, lo in enumerate(low) if s >= lo), len(low) - 1)
            out[j] += 1
        return np.maximum(out / x.size, 1e-4)

    a, e = bins(data), bins(ref)
    return float(((a - e) * np.log(a / e)).sum())


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_report_baseline_test_and_periods(engine):
    frame, base = frames()
    r = report(frame, label="y", scores="p", engine=engine, period="when").data
    assert r["period_psi_reference"] == "first period" and r["options"]["period"] == "when"
    rows = r["periods"]
    assert [x["period"] for x in rows] == ["2023-H2", "2024-H1", "2024-H2", "2025-H1"]
    first = frame[frame["when"] == "2023-H2"]
    for row in rows:
        part = frame[frame["when"] == row["period"]]
        y, s = part["y"].to_numpy(), part["p"].to_numpy()
        assert row["n"] == len(part) and row["positives"] == int(y.sum())
        assert row["positive_rate"]["value"] == pytest.approx(y.mean(), rel=1e-15)
        a, var, lo, hi = delong(y, s)
        assert row["gini"]["value"] == pytest.approx(float(2 * a - 1), rel=1e-15)
        assert row["psi"] == pytest.approx(psi_oracle(first["p"].to_numpy(), s), rel=1e-9,
                                           abs=1e-15)
        if y.sum() >= 10 and (1 - y).sum() >= 10:
            assert row["gini_ci"] == pytest.approx([2 * lo - 1, 2 * hi - 1], rel=1e-9)
        else:  # too few positives: the Gini without an interval, and a note
            assert row["gini_ci"] == [None, None]
            assert any("2025-H1" in note for note in r["notes"])
    assert rows[0]["psi"] == 0.0
    # with a baseline: the unpaired DeLong test, and the periods' PSI against it
    r = report(frame, label="y", scores="p", engine=engine, period="when", baseline=base).data
    assert r["period_psi_reference"] == "baseline"
    (t,) = r["baseline_test"]
    diff, z, p, lo, hi = unpaired_oracle(frame["y"], frame["p"], base["y"], base["p"])
    assert t["difference"] == pytest.approx(diff, abs=1e-14)
    assert t["z"] == pytest.approx(z, rel=1e-9) and t["p_value"] == pytest.approx(p, rel=1e-9)
    assert t["ci"] == pytest.approx([lo, hi], rel=1e-9)
    assert t["baseline_auc"]["value"] == pytest.approx(float(delong(base["y"], base["p"])[0]))
    for row in r["periods"]:
        s = frame.loc[frame["when"] == row["period"], "p"].to_numpy()
        assert row["psi"] == pytest.approx(psi_oracle(base["p"].to_numpy(), s), rel=1e-9,
                                           abs=1e-15)


def test_bands_and_periods_on_too_many_levels():
    frame, _ = frames()
    frame["id"] = np.arange(len(frame))
    for option in ("bands", "period"):
        with pytest.raises(ValueError, match="id"):
            report(frame, label="y", scores="p", **{option: "id"})
    with pytest.raises(ValueError, match="no period column 'nope'|no .* column 'nope'"):
        report(frame, label="y", scores="p", period="nope")

