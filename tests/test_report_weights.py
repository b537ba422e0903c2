"""Weights that mean what the user says (issue 27, item 3).

Frequency weights are integer counts; sampling weights get bootstrap percentile
intervals over the rows. The bootstrap (course_lib.bootstrap_intervals) is checked
against a plain loop written here: the same draws of numpy's generator, each
replicate's weights ``w * (times drawn)``, scikit-learn's AUC and ROC curve. The
report's intervals are checked against the library's on the rows sorted here; memory
and DuckDB give the same JSON (Spark gives DuckDB's canonical rows:
tests/test_report_engines.py).
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import auc, roc_auc_score, roc_curve

from course_lib import auc_ci_bootstrap, bootstrap_intervals
from course_lib.report import report


def table(seed: int, n: int | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(8, 60))
    y = rng.random(n) < rng.uniform(0.2, 0.8)
    y[:2] = [True, False]
    levels = int(rng.choice([3, 10, 1000]))
    a = np.floor((rng.random(n) + 0.5 * y) / 1.5 * levels) / levels
    b = rng.integers(0, 6, n) + y * rng.integers(0, 2, n)
    w = np.round(rng.gamma(2.0, size=n), 2)
    seg = rng.choice(["north", "south"], n)
    return pd.DataFrame({"y": y.astype(int), "a": a, "b": b, "w": w, "seg": seg})


# ------------------------------------------------------------------- the oracle


def oracle(y: np.ndarray, scores: dict[str, np.ndarray], w: np.ndarray, n_boot: int,
           seed: int, level: float = 0.95) -> dict[str, Any]:
    """The stratified bootstrap as a loop: the positives' positions for every replicate
    drawn in one call, then the negatives' (the draws of bootstrap_intervals for
    n_boot * n <= 10**6), each replicate scored by scikit-learn."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    pos_draws = rng.integers(0, pos.size, (n_boot, pos.size))
    neg_draws = rng.integers(0, neg.size, (n_boot, neg.size))
    values: dict[str, dict[str, list[float]]] = {
        k: {"auc": [], "ks": [], "ks2": []} for k in scores}
    for r in range(n_boot):
        times = np.zeros(y.size)
        np.add.at(times, pos[pos_draws[r]], 1)
        np.add.at(times, neg[neg_draws[r]], 1)
        keep = times > 0
        for name, s in scores.items():
            sw = (w * times)[keep]
            fpr, tpr, _ = roc_curve(y[keep], s[keep], sample_weight=sw,
                                    drop_intermediate=False)
            values[name]["auc"].append(auc(fpr, tpr))
            values[name]["ks"].append(max(0.0, float(np.max(tpr - fpr))))
            values[name]["ks2"].append(float(np.max(np.abs(tpr - fpr))))
    q = [(1 - level) / 2, (1 + level) / 2]
    out = {name: {k: np.quantile(v, q) for k, v in d.items()} for name, d in values.items()}
    names = list(scores)
    out["differences"] = [
        np.quantile(np.subtract(values[a]["auc"], values[b]["auc"]), q)
        for i, a in enumerate(names) for b in names[i + 1:]]
    return out


@pytest.mark.parametrize(("block", "weighted"),
                         [(b, True) for b in range(4)] + [(b, False) for b in range(2)])
def test_bootstrap_against_a_loop_with_scikit_learn(block: int, weighted: bool) -> None:
    """200 random tables (ties, fractional weights, two scores), 12 replicates each;
    100 of them without weights (the draws counted in integers, all replicates at once)."""
    for seed in range(50 * block, 50 * block + 50):
        df = table(seed)
        y = df["y"].to_numpy() == 1
        scores = {"a": df["a"].to_numpy(), "b": df["b"].to_numpy()}
        w = df["w"].to_numpy() if weighted else np.ones(y.size)
        got = bootstrap_intervals(y, scores, sample_weight=w if weighted else None,
                                  n_boot=12, seed=seed)
        want = oracle(y, scores, w, 12, seed)
        for name in scores:
            g = got["scores"][name]
            np.testing.assert_allclose(g["auc"], want[name]["auc"], rtol=0, atol=1e-12)
            np.testing.assert_allclose(g["gini"], 2 * want[name]["auc"] - 1, atol=1e-12)
            np.testing.assert_allclose(g["ks"], want[name]["ks"], atol=1e-12)
            np.testing.assert_allclose(g["ks_two_sided"], want[name]["ks2"], atol=1e-12)
        np.testing.assert_allclose(got["differences"][0]["ci"], want["differences"][0],
                                   atol=1e-12)
        assert got["rows"] == y.size and got["positive_rows"] == int(y.sum())
        assert got["used"] == 12


def test_auc_ci_bootstrap_with_weights_is_the_same_bootstrap() -> None:
    df = table(7, n=80)
    y, s, w = df["y"].to_numpy(), df["a"].to_numpy(), df["w"].to_numpy()
    one = auc_ci_bootstrap(y, s, sample_weight=w, n_boot=300, seed=3)
    many = bootstrap_intervals(y, s, sample_weight=w, n_boot=300, seed=3)
    assert [one.low, one.high] == many["scores"]["score"]["auc"]
    assert one.auc == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    # unit weights draw the same resamples as no weights
    assert auc_ci_bootstrap(y, s, sample_weight=np.ones(y.size), n_boot=300, seed=3)[1:] == \
        auc_ci_bootstrap(y, s, n_boot=300, seed=3)[1:]


def test_interval_holds_the_sample_auc_and_narrows_with_rows() -> None:
    """Sanity: on 400 rows the 95 % interval holds the sample AUC, and on 1600 rows of
    the same kind it is narrower (half as wide in the limit: rows, not weights, count)."""
    widths = []
    for n in (400, 1600):
        df = table(11, n=n)
        y, s, w = df["y"].to_numpy() == 1, df["a"].to_numpy(), df["w"].to_numpy()
        r = bootstrap_intervals(y, s, sample_weight=w, n_boot=400, seed=0)["scores"]["score"]
        auc = roc_auc_score(y, s, sample_weight=w)
        assert r["auc"][0] < auc < r["auc"][1]
        assert r["ks"][0] <= r["ks_two_sided"][1]
        widths.append(r["auc"][1] - r["auc"][0])
        # scaling every weight changes nothing: the rows are what count
        r10 = bootstrap_intervals(y, s, sample_weight=10 * w, n_boot=400, seed=0)
        np.testing.assert_allclose(r10["scores"]["score"]["auc"], r["auc"], atol=1e-12)
    assert 0.3 < widths[1] / widths[0] < 0.85  # 1/2 in the limit


def test_bad_arguments_of_the_bootstrap() -> None:
    with pytest.raises(ValueError, match="n_boot must be a positive integer"):
        bootstrap_intervals([0, 1], [0.1, 0.2], n_boot=0)
    with pytest.raises(ValueError, match="both classes"):
        bootstrap_intervals([0, 1], [0.1, 0.2], sample_weight=[1, 0])
    with pytest.raises(ValueError, match="different lengths"):
        bootstrap_intervals([0, 1], {"a": [0.1, 0.2, 0.3]})
    y, s = np.array([0, 1, 1, 0]), np.array([0.2, 0.8, 0.5, 0.1])
    before = y.copy(), s.copy()
    bootstrap_intervals(y, s, n_boot=5)
    assert (y == before[0]).all() and (s == before[1]).all()


# ------------------------------------------------------------------- the report


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_refusals(engine: str) -> None:
    df = table(1)
    with pytest.raises(ValueError, match="weights are not all integers.*--weight-kind sampling"):
        report(df, label="y", scores="a", weight="w", engine=engine)
    with pytest.raises(ValueError, match="frequency weights must be integers"):
        report(df, label="y", scores="a", weight="w", engine=engine, weight_kind="frequency")
    with pytest.raises(ValueError, match="no weight column"):
        report(df, label="y", scores="a", engine=engine, weight_kind="sampling")
    with pytest.raises(ValueError, match="weight_kind must be 'frequency' or 'sampling'"):
        report(df, label="y", scores="a", weight="w", engine=engine, weight_kind="survey")
    with pytest.raises(ValueError, match="replicates must be a positive integer"):
        report(df, label="y", scores="a", weight="w", engine=engine, weight_kind="sampling",
               replicates=0)


def test_integer_weights_default_to_frequency_and_the_page_says_so() -> None:
    df = table(2).assign(w=lambda d: np.ceil(d["w"]).astype(int))
    r = report(df, label="y", scores="a", weight="w").data
    assert r["weights"]["kind"] == "frequency" and r["weights"]["stated"] is False
    assert "--weight-kind sampling" in r["weights"]["text"]
    assert r["scores"]["a"]["interval"] == "delong" and r["bootstrap"] is None
    stated = report(df, label="y", scores="a", weight="w", weight_kind="frequency").data
    assert stated["weights"]["stated"] is True and stated["scores"] == r["scores"]
    # the same integer weights as sampling weights: bootstrap, no DeLong
    s = report(df, label="y", scores="a", weight="w", weight_kind="sampling",
               replicates=50).data
    assert s["scores"]["a"]["interval"] == "bootstrap" and s["scores"]["a"]["auc_se"] is None
    assert s["scores"]["a"]["auc"] == r["scores"]["a"]["auc"]  # the point is the same
    assert s["bootstrap"]["rows"] == len(df) and s["bootstrap"]["replicates"] == 50


@pytest.mark.parametrize("factor", [1e-300, 1e300])
def test_sampling_weights_of_any_scale_give_the_same_report(factor: float) -> None:
    """Weights near 1e-300 or 1e300: no warning, the same intervals, calibration table
    and slope (the library's functions scale the weights by a power of two first); the
    sums of weights in the weights' units."""
    df = table(5, n=200)
    args = dict(label="y", scores="a", weight="w", weight_kind="sampling", replicates=60)
    ref = report(df, **args).data["scores"]["a"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = report(df.assign(w=df["w"] * factor), **args).data["scores"]["a"]
    for key in ("auc", "auc_ci", "gini_ci", "ks_ci", "ks_two_sided_ci"):
        assert got[key] == pytest.approx(ref[key], rel=1e-12), key
    want, have = ref["calibration_bands"], got["calibration_bands"]
    assert len(have["bands"]) == len(want["bands"]) > 1
    for a, b in zip(have["bands"], want["bands"]):
        assert a["band"] == b["band"]
        for key in ("mean_score", "observed_rate"):
            assert a[key] == pytest.approx(b[key], rel=1e-12), key
        for key in ("obligors", "positives"):
            assert a[key] == pytest.approx(b[key] * factor, rel=1e-12), key
    for key in ("intercept", "slope"):
        assert have["recalibration"][key] == pytest.approx(
            want["recalibration"][key], rel=1e-9), key
    assert have["recalibration"]["converged"] and have["hosmer_lemeshow"]["statistic"] is None


def canonical(df: pd.DataFrame, scores: list[str]) -> pd.DataFrame:
    """The rows sorted by every score, the label, the weight (the engines' order)."""
    return df.sort_values([*scores, "y", "w"], kind="stable").reset_index(drop=True)


def test_report_intervals_are_the_librarys_on_the_sorted_rows() -> None:
    df = table(5, n=300)
    r = report(df.sample(frac=1, random_state=1), label="y", scores=["a", "b"], weight="w",
               by="seg", weight_kind="sampling", replicates=100, seed=9, min_class=5).data
    rows = canonical(df, ["a", "b"])
    lib = bootstrap_intervals(rows["y"].to_numpy(), {"a": rows["a"], "b": rows["b"]},
                              sample_weight=rows["w"], n_boot=100, seed=9)
    for name in ("a", "b"):
        block, want = r["scores"][name], lib["scores"][name]
        assert block["auc_ci"] == want["auc"] and block["gini_ci"] == want["gini"]
        assert block["ks_ci"] == want["ks"] and block["ks_two_sided_ci"] == want["ks_two_sided"]
        assert block["interval_rows"] == 300
    assert r["comparison"][0]["ci"] == lib["differences"][0]["ci"]
    assert r["comparison"][0]["z"] is None and r["comparison"][0]["method"] == "bootstrap"
    for row in r["segments"]:
        part = rows[rows["seg"] == row["segment"]]
        assert row["rows"] == len(part) and row["positive_rows"] == int(part["y"].sum())
        seg = bootstrap_intervals(part["y"].to_numpy(), {"a": part["a"], "b": part["b"]},
                                  sample_weight=part["w"], n_boot=100, seed=9)
        assert row["auc_ci"] == seg["scores"][row["score"]]["auc"]
    b = r["bootstrap"]
    assert (b["method"], b["interval"], b["seed"], b["replicates"]) == (
        "bootstrap", "percentile", 9, 100)
    assert r["options"]["weight_kind"] == "sampling"


def test_a_segment_with_too_few_rows_gets_no_bootstrap_interval() -> None:
    df = table(6, n=200)
    df.loc[df.index[:6], "seg"] = "tiny"
    r = report(df, label="y", scores="a", weight="w", by="seg", weight_kind="sampling",
               replicates=20).data
    tiny = next(s for s in r["segments"] if s["segment"] == "tiny")
    assert tiny["auc_ci"] == [None, None] and tiny["rows"] == 6
    assert any("tiny" in n and "no bootstrap interval" in n for n in r["notes"])


BOOT_KEYS = ("auc_ci", "gini_ci", "ks_ci", "ks_two_sided_ci", "interval", "interval_rows")


def bootstrap_parts(r: dict[str, Any]) -> str:
    return json.dumps({
        "scores": {k: {x: v[x] for x in BOOT_KEYS} for k, v in r["scores"].items()},
        "comparison": [{x: c[x] for x in ("a", "b", "ci", "rows")} for c in r["comparison"]],
        "segments": [{x: s[x] for x in ("score", "segment", "rows", "positive_rows", *BOOT_KEYS[:4])}
                     for s in r["segments"]],
        "bootstrap": r["bootstrap"], "weights": r["weights"]})


def test_memory_and_duckdb_give_the_same_bootstrap(tmp_path: Any) -> None:
    """Bit for bit: the bootstrap reads the engine's canonical rows, which Spark gives
    as DuckDB does (tests/test_report_engines.py, test_spark_agrees_with_duckdb; no Spark
    report here: each costs a dozen Spark jobs)."""
    df = table(8, n=250)
    import duckdb

    path = tmp_path / "t.parquet"
    con = duckdb.connect()
    con.register("f", df)
    con.execute(f"COPY f TO '{path.as_posix()}' (FORMAT parquet)")
    con.close()
    args = dict(label="y", scores=["a", "b"], weight="w", by="seg", weight_kind="sampling",
                replicates=40, seed=4)
    memory = report(df, engine="memory", **args).data
    duck = report(str(path), engine="duckdb", **args).data
    assert bootstrap_parts(memory) == bootstrap_parts(duck)
