"""The report's numbers (course_lib.report, core): every number equals its oracle.

Each random table has ties, a segment column, two scores (probabilities, floats, int64
scores beyond 2**53, small integers), and no weights, integer weights or fractional
weights; a few rows miss a label or a score. Integer weights are frequency weights:
the exact numbers must equal the oracles' exactly. The oracles (tests/oracles.py) are
the definitions computed pair by pair or object by object in exact fractions, DeLong's
placements by definition, and scikit-learn's Brier score; the report and the library's
functions run the same accumulators (course_lib._stream), so comparing the two would
test nothing but the wiring.
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import oracles
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu
from sklearn.metrics import brier_score_loss, roc_curve

from course_lib._stream import THIN
from course_lib.report import MemoryEngine, report
from course_lib.report._engine import Groups

N_TABLES = 200
REL = 1e-12


def close(a: Any, b: Any, rel: float = REL, abs_tol: float = 1e-13) -> bool:
    if a is None or b is None:
        return a is None and (b is None or (isinstance(b, float) and math.isnan(b)))
    return math.isclose(float(a), float(b), rel_tol=rel, abs_tol=abs_tol)


def value(x: Any) -> Any:
    """A report number as a Fraction (exact) or a float."""
    if isinstance(x, dict):
        return Fraction(x["fraction"])
    return x


def _scores(rng: np.random.Generator, kind: int, n: int) -> np.ndarray:
    if kind == 0:  # probabilities with ties
        return np.round(rng.uniform(size=n), int(rng.integers(1, 3)))
    if kind == 1:  # floats with a few ties
        s = rng.normal(size=n)
        s[rng.integers(0, n, n // 4)] = s[0]
        return s
    if kind == 2:  # int64 beyond 2**53: float64 would merge them
        return 2**62 + rng.integers(0, max(2, n // 3), n).astype(np.int64)
    return rng.integers(-3, 4, n).astype(np.int64)


def random_table(seed: int) -> tuple[pd.DataFrame, str]:
    """A table with columns y, a, b, seg (and w); the weight mode."""
    rng = np.random.default_rng(seed)
    mode = ("none", "int", "float")[seed % 3]
    while True:
        n = int(rng.integers(10, 70))
        y = rng.uniform(size=n) < rng.uniform(0.2, 0.8)
        df = pd.DataFrame({
            "y": y.astype(np.int64),
            "a": _scores(rng, seed % 4, n),
            "b": _scores(rng, (seed // 4) % 4, n),
            "seg": rng.choice(["north", "south", "east"], n),
        })
        if mode == "int":
            df["w"] = rng.integers(0, 4, n)
        elif mode == "float":
            w = rng.uniform(0, 3, n)
            w[rng.uniform(size=n) < 0.1] = 0.0
            df["w"] = w
        wt = df["w"].to_numpy() if mode != "none" else np.ones(n)
        m1, m0 = wt[y].sum(), wt[~y].sum()
        reps = wt.astype(np.int64) if mode == "int" else np.ones(n, dtype=np.int64)
        pos_rows = int(reps[y].sum())
        neg_rows = int(reps[~y].sum())
        if m1 > 0 and m0 > 0 and pos_rows + neg_rows >= 10 and min(pos_rows, neg_rows) >= 2:
            break
    if seed % 5 == 0:  # rows without a label or a score: dropped and counted
        df = pd.concat([df, pd.DataFrame({"y": [None, 1], "a": [df["a"].iloc[0], None],
                                          "b": [df["b"].iloc[0], df["b"].iloc[1]],
                                          "seg": ["north", "south"],
                                          **({"w": [1, 1]} if mode != "none" else {})})],
                       ignore_index=True)
        df["y"] = df["y"].astype("Int64")
        if df["a"].dtype == object:
            df["a"] = df["a"].astype("Int64")
    return df, mode


def used_rows(df: pd.DataFrame, mode: str) -> tuple[Any, ...]:
    """The used rows as library arrays: repeated for integer weights."""
    keep = df["y"].notna() & df["a"].notna() & df["b"].notna()
    d = df[keep]
    y = d["y"].to_numpy(dtype=np.int64).astype(bool)

    def col(c: str) -> np.ndarray:
        s = d[c]
        if isinstance(s.dtype, pd.Int64Dtype):
            return s.to_numpy(dtype=np.int64)
        return s.to_numpy()

    a, b, seg = col("a"), col("b"), d["seg"].to_numpy()
    w = d["w"].to_numpy(dtype=np.float64) if mode != "none" else None
    if mode == "int":
        assert w is not None
        r = w.astype(np.int64)
        return np.repeat(y, r), np.repeat(a, r), np.repeat(b, r), np.repeat(seg, r), None
    return y, a, b, seg, w


def make(df: pd.DataFrame, mode: str, chunk: int = 7, **kw: Any) -> dict[str, Any]:
    # min_class=2: every segment with two of each class gets its DeLong interval, so the
    # oracle checks each (the default, 10, guards real reports; tests/test_report_guards.py)
    kw.setdefault("min_class", 2)
    if mode == "float":  # fractional weights must say what they are: sampling weights
        kw.setdefault("weight_kind", "sampling")
        kw.setdefault("replicates", 30)
    return report(df, label="y", scores=["a", "b"], weight="w" if mode != "none" else None,
                  by="seg", chunk=chunk, costs=(1, 3), **kw).data


def check_score(r: dict[str, Any], y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                exact: bool) -> None:
    """Every number of one score's report against the oracles on the rows: exact
    numbers exactly, floats to REL (the H-measure's oracle integrates numerically:
    to 1e-12 absolute)."""
    auc = oracles.auc(y, s, w)
    ks, ks_t, _ = oracles.ks(y, s, w)
    partial = oracles.partial_auc(y, s, w, Fraction(1, 10))
    if exact:
        assert value(r["auc"]) == auc
        assert value(r["gini"]) == 2 * auc - 1
        assert value(r["ks"]) == ks
        assert value(r["partial_auc"]["value"]) == partial
        assert value(r["partial_auc"]["mcclish"]) == oracles.mcclish(partial, Fraction(1, 10))
        _, var, low, high = oracles.delong(y, s)
        assert close(r["auc_variance"], float(var))
        assert close(r["auc_ci"][0], low) and close(r["auc_ci"][1], high)
        assert r["ks_score"] == (None if math.isinf(ks_t) else ks_t)
        table = oracles.gains_table(y, s)
        assert [row["bin"] for row in r["gains_table"]] == [o["bin"] for o in table]
        for row, ref in zip(r["gains_table"], table):
            for col, v in ref.items():
                if isinstance(v, int):
                    assert row[col] == v, col
                else:
                    assert close(row[col], float(v)), col
    else:
        assert close(value(r["auc"]), float(auc))
        assert close(r["ks"], float(ks))
        assert close(r["partial_auc"]["mcclish"], float(oracles.mcclish(partial, Fraction(1, 10))))
        assert r["interval"] == "bootstrap"  # fractional weights: sampling weights here
        assert 0 <= r["auc_ci"][0] <= r["auc_ci"][1] <= 1
    assert close(r["average_precision"], float(oracles.average_precision(y, s, w)))
    assert close(r["h_measure"], oracles.h_measure(y, s, w), rel=0, abs_tol=1e-12)
    fpr, tpr, _ = oracles.roc_points(y, s, w)
    hx, _, harea = oracles.upper_hull(fpr, tpr)
    assert close(r["hull_auc"], float(harea))
    assert len(r["curves"]["hull"]["fpr"]) == len(hx)
    if 0 <= s.min() and s.max() <= 1:
        assert close(r["brier"], brier_score_loss(y, s, sample_weight=w))
        assert close(r["ece"], float(oracles.ece(y, s, w)))
        assert np.allclose(r["curves"]["reliability"]["prob_true"],
                           [float(b[1]) for b in oracles.calibration_bins(y, s, w)],
                           rtol=REL, atol=1e-14)
    else:
        assert r["brier"] is None and r["ece"] is None


def brute_points(y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                 costs: tuple[float, float], top: float) -> tuple[Any, Any]:
    """The cost-optimal and top-k % thresholds by trying every one."""
    w = np.ones(y.size) if w is None else w
    ts = sorted(set(s.tolist()), reverse=True)
    m1 = w[y].sum()
    best, best_t = costs[1] * m1, None
    top_t = None
    for t in ts:
        sel = s >= t
        cost = costs[0] * w[sel & ~y].sum() + costs[1] * (m1 - w[sel & y].sum())
        if cost < best - 1e-9:
            best, best_t = cost, t
        if top_t is None and w[sel].sum() * 100 >= top * w.sum() - 1e-9:
            top_t = t
    return best_t, top_t


@pytest.mark.parametrize("seed", range(N_TABLES))
def test_every_number_equals_its_oracle(seed: int) -> None:
    df, mode = random_table(seed)
    r = make(df, mode)
    y, a, b, seg, w = used_rows(df, mode)
    exact = mode != "float"
    assert r["summary"]["integral"] == exact
    assert r["summary"]["used"] == int((df["y"].notna() & df["a"].notna() & df["b"].notna()).sum())
    assert r["summary"]["dropped_label"] == int(df["y"].isna().sum())
    for name, s in (("a", a), ("b", b)):
        check_score(r["scores"][name], y, s, w, exact)
        ops = {p["name"]: p for p in r["scores"][name]["operating_points"]}
        cost_t, top_t = brute_points(y, s, w, (1, 3), 10)
        assert ops["cost"]["threshold"] == cost_t
        assert ops["top 10%"]["threshold"] == top_t
        assert ops["youden"]["threshold"] == r["scores"][name]["ks_score"]
        for op in ops.values():  # every point's rates, exact, from the rows
            if exact and op["threshold"] is not None:
                called = s >= op["threshold"]
                fpr = Fraction(int((called & ~y).sum()), int((~y).sum()))
                tpr = Fraction(int((called & y).sum()), int(y.sum()))
                assert (value(op["fpr"]), value(op["tpr"])) == (fpr, tpr), op["name"]
                assert value(op["rate"]) == Fraction(int(called.sum()), y.size)
                assert value(op["precision"]) == Fraction(int((called & y).sum()),
                                                          int(called.sum()))
    # the paired DeLong test
    comp = r["comparison"][0]
    if exact:
        diff, z, p, low, high = oracles.delong_paired(y, a, b)
        assert value(comp["auc_difference"]) == diff
        assert close(comp["z"], z, abs_tol=1e-9) and close(comp["p_value"], p, abs_tol=1e-9)
        assert close(comp["ci"][0], low) and close(comp["ci"][1], high)
    else:
        assert comp["z"] is None
    # segments: AUC with its interval, Gini, KS on each segment's rows
    for row in r["segments"]:
        s = a if row["score"] == "a" else b
        m = seg == row["segment"]
        ys, ss, ws = y[m], s[m], (w[m] if w is not None else None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if row["auc"] is None:
                assert ys.all() or not ys.any() or (ws is not None and (
                    ws[ys].sum() == 0 or ws[~ys].sum() == 0))
                continue
            if exact:
                assert row["n"] == m.sum() and row["positives"] == ys.sum()
                assert value(row["auc"]) == oracles.auc(ys, ss)
                assert value(row["ks"]) == oracles.ks(ys, ss)[0]
                if 2 <= ys.sum() <= ys.size - 2:  # DeLong's variance needs two of each
                    _, _, low, high = oracles.delong(ys, ss)
                    assert close(row["auc_ci"][0], low) and close(row["auc_ci"][1], high)
                else:
                    assert row["auc_ci"] == [None, None]
            else:
                assert close(value(row["auc"]), float(oracles.auc(ys, ss, ws)))
                assert close(value(row["ks"]), float(oracles.ks(ys, ss, ws)[0]))
    json.dumps(r, allow_nan=False)  # JSON-able


@pytest.mark.parametrize("seed", range(0, N_TABLES, 7))
def test_chunk_size_changes_nothing(seed: int) -> None:
    df, mode = random_table(seed)
    base = df.sample(frac=0.7, random_state=seed)
    reports = [json.dumps(make(df, mode, chunk=c, baseline=base)) for c in (1, 7, 2**20)]
    assert reports[0] == reports[1] == reports[2]


def test_integer_weights_are_repeated_rows() -> None:
    df, mode = random_table(1)  # integer weights
    assert mode == "int"
    y, a, b, seg, _ = used_rows(df, mode)
    rep = pd.DataFrame({"y": y.astype(int), "a": a, "b": b, "seg": seg})
    r1, r2 = make(df, mode), make(rep, "none")
    for k in ("scores", "comparison", "segments"):
        assert json.dumps(r1[k]) == json.dumps(r2[k])


def test_streaming_accumulators_never_see_all_groups() -> None:
    """The engine is asked for chunks; a chunk of 7 groups is all the accumulators get."""
    df, mode = random_table(3)
    seen: list[int] = []
    engine = MemoryEngine(df, label="y", scores=["a", "b"], by="seg")
    original = engine.groups

    def spy(*args: Any, **kw: Any) -> Any:
        for g in original(*args, **kw):
            seen.append(len(g.score))
            yield g

    engine.groups = spy  # type: ignore[method-assign]
    report(None, label="y", scores=["a", "b"], engine=engine, chunk=7)
    assert max(seen) <= 7 and len(seen) > 4


def test_one_grouping_per_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without weights the summary and every section of a score (two passes, the
    calibration by band, the recalibration's Newton passes, the paired test) read one
    grouping of its rows: one sort of keys per score (issue 29: no re-sort per section)."""
    from course_lib import _groups

    grouped: list[int] = []
    original = _groups.group_chunks._group

    def counted(self: Any) -> None:
        grouped.append(self.s.size)
        original(self)

    monkeypatch.setattr(_groups.group_chunks, "_group", counted)
    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.3
    df = pd.DataFrame({"y": y, "p": np.round(0.8 * rng.random(3000) + 0.2 * y, 3),
                       "q": rng.random(3000)})
    r = report(df, label="y", scores=["p", "q"])
    assert r["scores"]["p"]["calibration_bands"] is not None
    assert grouped == [3000, 3000]


def test_thinned_curves_are_small_and_on_the_curve() -> None:
    rng = np.random.default_rng(5)
    n = 60_000
    y = rng.uniform(size=n) < 0.3
    s = rng.normal(size=n) + y
    r = report(pd.DataFrame({"y": y.astype(int), "s": s}), label="y", scores="s").data
    c = r["scores"]["s"]["curves"]
    for name, curve in c.items():
        if name in ("roc", "pr", "gain", "lift", "ks"):
            assert 100 < len(next(iter(curve.values()))) <= 2 * THIN + 12, name
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)  # scikit-learn's vertices
    pts = set(zip(fpr.tolist(), tpr.tolist()))
    assert all(p in pts for p in zip(c["roc"]["fpr"], c["roc"]["tpr"]))
    assert (c["roc"]["fpr"][-1], c["roc"]["tpr"][-1]) == (1.0, 1.0)
    # the exact AUC from the Mann-Whitney U (ranks with ties averaged: U is a multiple
    # of 1/2 far below 2**53, exact in float64)
    u = mannwhitneyu(s[y], s[~y]).statistic
    assert value(r["scores"]["s"]["auc"]) == Fraction(u) / (int(y.sum()) * int((~y).sum()))


def test_psi_bins_at_the_baseline_deciles() -> None:
    rng = np.random.default_rng(2)
    base = pd.DataFrame({"y": rng.integers(0, 2, 400), "s": np.round(rng.uniform(size=400), 2)})
    data = pd.DataFrame({"y": rng.integers(0, 2, 300),
                         "s": np.round(rng.uniform(size=300) ** 1.5, 2)})
    st_ = report(data, label="y", scores="s", baseline=base).data["stability"][0]
    # by hand: the baseline's tie-aware deciles, then every data row compared
    bs = np.sort(base["s"].to_numpy())[::-1]
    lows: list[float] = []
    last = -1
    for i, v in enumerate(bs):
        if i > 0 and bs[i - 1] == v:
            continue
        k = i * 10 // bs.size
        if k != last:
            lows.append(v)
            last = k
        lows[-1] = v
    def bin_of(v: float) -> int:
        return min(sum(low > v for low in lows), len(lows) - 1)
    e = np.bincount([bin_of(v) for v in base["s"]], minlength=len(lows)) / len(base)
    a = np.bincount([bin_of(v) for v in data["s"]], minlength=len(lows)) / len(data)
    e, a = np.maximum(e, 1e-4), np.maximum(a, 1e-4)
    assert close(st_["psi"], float(np.sum((a - e) * np.log(a / e))))
    assert [b_["low"] for b_ in st_["bins"]][:-1] == [float(v) for v in lows[:-1]]


def test_int64_scores_beyond_2_53_are_not_merged() -> None:
    y = np.array([1, 0, 1, 0, 0, 1])
    s = 2**62 + np.array([1, 0, 3, 2, 2, 5], dtype=np.int64)
    r = report(pd.DataFrame({"y": y, "s": s}), label="y", scores="s").data
    assert r["summary"]["distinct"]["s"] == 5
    assert value(r["scores"]["s"]["auc"]) == oracles.auc(y, s) == Fraction(7, 9)
    assert r["scores"]["s"]["ks_score"] == int(2**62 + 3)


@pytest.mark.parametrize(
    ("df", "kw", "message"),
    [
        (pd.DataFrame({"y": [0, 1]}), {"scores": "p"}, "no score column 'p'"),
        (pd.DataFrame({"y": [0, 1, 2], "p": [0.1, 0.2, 0.3]}), {}, "binary"),
        (pd.DataFrame({"y": [0, 1], "p": [0.1, np.inf]}), {}, "NaN or infinite"),
        (pd.DataFrame({"y": [1, 1], "p": [0.1, 0.2]}), {}, "only one class"),
        (pd.DataFrame({"y": [], "p": []}), {}, "no rows"),
        (pd.DataFrame({"y": [0, 1], "p": ["a", "b"]}), {}, "numeric"),
        (pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2], "w": [1, -1]}), {"weight": "w"},
         "non-negative"),
        (pd.DataFrame({"y": [None, None], "p": [0.1, 0.2]}), {}, "no row has a label"),
        (pd.DataFrame({"y": ["n", "y"], "p": [0.1, 0.2]}), {"pos_label": "x"}, "pos_label"),
        (pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2]}), {"max_fpr": 0}, "max_fpr"),
        (pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2]}), {"costs": (1,)}, "costs"),
        (pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2]}), {"engine": "oracle"}, "engine"),
    ],
)
def test_bad_input_is_refused(df: pd.DataFrame, kw: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"label": "y", "scores": "p"}
    args.update(kw)
    with pytest.raises(ValueError, match=message):
        report(df, **args)


def test_text_labels_and_dropped_rows_are_counted() -> None:
    df = pd.DataFrame({"y": ["good", "bad", None, "good", "bad"],
                       "p": [0.9, 0.2, 0.5, np.nan, 0.4]})
    r = report(df, label="y", scores="p", pos_label="bad").data
    s = r["summary"]
    assert (s["rows"], s["used"], s["dropped_label"], s["dropped_score"]) == (5, 3, 1, {"p": 1})
    assert value(r["scores"]["p"]["auc"]) == oracles.auc([0, 1, 1], [0.9, 0.2, 0.4])


def test_the_segment_stream_stays_contiguous_across_chunks() -> None:
    df, _ = random_table(4)
    e = MemoryEngine(df, label="y", scores=["a"], by="seg")
    segs = [v for g in e.groups("a", by="seg", chunk=3) if g.segment is not None
            for v in g.segment.tolist()]
    changes = sum(1 for i in range(1, len(segs)) if segs[i] != segs[i - 1])
    assert changes == len(set(segs)) - 1


@given(st.lists(st.tuples(st.booleans(), st.integers(-5, 5), st.integers(1, 3)),
                min_size=4, max_size=40),
       st.integers(1, 9))
def test_reversed_scores_mirror_the_auc(rows: list[tuple[bool, int, int]], chunk: int) -> None:
    y = np.array([r[0] for r in rows])
    if y.all() or not y.any():
        return
    s = np.array([r[1] for r in rows], dtype=np.int64)
    w = np.array([r[2] for r in rows])
    df = pd.DataFrame({"y": y.astype(int), "s": s, "r": -s, "w": w})
    r = report(df, label="y", scores=["s", "r"], weight="w", chunk=chunk).data
    a, ar = value(r["scores"]["s"]["auc"]), value(r["scores"]["r"]["auc"])
    assert a + ar == 1
    assert a == oracles.auc(y, s, w)
    assert value(r["comparison"][0]["auc_difference"]) == a - ar


def test_groups_are_a_protocol() -> None:
    g = Groups(np.array([1.0]), np.array([1]), np.array([0]))
    assert g.segment is None


def test_counts_beyond_int64_products_take_python_integers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With more than about 1.5e9 rows the sums of products leave int64: the same
    accumulators then run on Python integers (forced here on a small table)."""
    from course_lib import _stream

    df, mode = random_table(2)
    expected = json.dumps(make(df, mode))
    original = _stream.Cumulator.__init__

    def wide(self: Any, totals: Any) -> None:
        original(self, totals)
        self.wide = totals.integral

    monkeypatch.setattr(_stream.Cumulator, "__init__", wide)
    assert json.dumps(make(df, mode)) == expected


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 3)),
                min_size=6, max_size=30),
       st.randoms(use_true_random=False))
def test_row_order_and_repeated_rows_change_nothing(
        rows: list[tuple[bool, int, int]], rnd: Any) -> None:
    y = np.array([r[0] for r in rows])
    w = np.array([r[2] for r in rows])
    if w[y].sum() == 0 or w[~y].sum() == 0:
        return
    df = pd.DataFrame({"y": y.astype(int), "s": [r[1] / 6 for r in rows], "w": w})
    shuffled = df.iloc[rnd.sample(range(len(df)), len(df))]
    repeated = df.loc[df.index.repeat(df["w"])].drop(columns="w")
    r1 = report(df, label="y", scores="s", weight="w").data
    r2 = report(shuffled, label="y", scores="s", weight="w", chunk=3).data
    r3 = report(repeated, label="y", scores="s").data
    assert json.dumps(r1["scores"]) == json.dumps(r2["scores"]) == json.dumps(r3["scores"])


def test_a_missing_segment_value_is_a_segment_of_its_own() -> None:
    df = pd.DataFrame({"y": [0, 1, 0, 1, 0, 1, 1, 0],
                       "s": [0.1, 0.9, 0.4, 0.3, 0.2, 0.8, 0.7, 0.6],
                       "g": ["a", "a", None, None, "b", "b", "a", None]})
    rows = report(df, label="y", scores="s", by="g").data["segments"]
    assert [r["segment"] for r in rows] == ["a", "b", None]
    m = df["g"].isna().to_numpy()
    assert value(rows[2]["auc"]) == oracles.auc(df["y"][m], df["s"][m])
    assert rows[1]["auc"] == {"fraction": "1/1", "value": 1.0}


def test_links_name_headings_of_the_chapters() -> None:
    """Each link is the id Sphinx gives a heading (docutils' make_id) or a label; the
    chapter 18 links are checked once that chapter is in the tree."""
    import re
    from pathlib import Path

    from docutils.nodes import make_id

    from course_lib.report import LINKS

    root = Path(__file__).resolve().parents[1]
    for metric, target in LINKS.items():
        page, anchor = target.split("#")
        nb = root / page.replace(".html", ".ipynb")
        if not nb.exists():
            assert page == "notebooks/18_validation_report.html", (metric, page)
            continue
        found = set()
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for line in "".join(cell["source"]).splitlines():
                if m := re.match(r"#{1,6}\s+(.*)", line):
                    found.add(make_id(re.sub(r"[$`*]", "", m.group(1))))
                if m := re.match(r"\((.+)\)=\s*$", line):
                    found.add(m.group(1))
        assert anchor in found, (metric, anchor)


@pytest.mark.parametrize("seed", [0, 3, 6, 9])
def test_the_paired_test_turned_around(seed: int) -> None:
    """b - a is a - b negated, whichever score the test streams and which it tables."""
    df, mode = random_table(seed)
    ab = report(df, label="y", scores=["a", "b"]).data["comparison"][0]
    ba = report(df, label="y", scores=["b", "a"]).data["comparison"][0]
    assert ab["p_value"] == ba["p_value"] and ab["z"] == -ba["z"]
    assert ab["ci"] == [-ba["ci"][1], -ba["ci"][0]]
    assert Fraction(ab["auc_difference"]["fraction"]) == -Fraction(
        ba["auc_difference"]["fraction"])


def test_the_report_uses_the_library_formulas_not_copies_of_them() -> None:
    """One formula: the report's modules import no private helper of another module of
    the library (the H-measure and McClish's standardization live in course_lib.partial,
    public to the package), and the report's H-measure is course_lib.h_measure's to the
    last digit.

    A wiring test, kept on purpose: both sides run h_measure_from_hull, and what is
    checked is that the report calls that one formula (bit for bit) rather than a copy;
    the H-measure's value is checked against its oracle in check_score above."""
    import ast
    import importlib
    from pathlib import Path

    from course_lib import h_measure, report, roc_convex_hull, roc_curve
    from course_lib.partial import h_measure_from_hull

    folder = Path(str(importlib.import_module("course_lib.report").__file__)).parent
    private = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_")]
    assert private == []
    rng = np.random.default_rng(21)
    for n in (7, 50, 400):
        y = rng.random(n) < 0.3
        y[:2] = True, False
        s = np.round(rng.normal(size=n) + y, 1)
        curve = roc_curve(y, s)
        hull = roc_convex_hull(curve.fpr, curve.tpr)
        pi1 = float(y.mean())
        assert h_measure_from_hull(hull.fpr, hull.tpr, pi1) == h_measure(y, s)
        assert h_measure_from_hull(hull.fpr, hull.tpr, pi1, beta=2) == h_measure(y, s, beta=2)
        r = report(pd.DataFrame({"y": y.astype(int), "s": s}), label="y", scores="s")
        assert r.data["scores"]["s"]["h_measure"] == h_measure(y, s)
