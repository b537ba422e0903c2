"""course_lib.sql: the SQL gives the oracles' numbers, on DuckDB and on Spark.

The oracles are tests/oracles.py (the definitions in exact fractions: AUC by pairs, KS,
ROC points, the gains table's bins object by object), scipy's Mann-Whitney U and Spark
MLlib itself, never course_lib's own functions (sql_evaluation feeds their accumulators).

DuckDB (embedded) is checked on Table 1, on aSAH and on 240 random cases with ties and
weights; identifiers and data are validated before any SQL runs. The same SQL then runs
on Spark local[2] (conftest.py's session, one for every Spark test of the run) on a subset
of the cases, and the reproductions of Spark MLlib's binned AUC and of its areaUnderPR are
checked against Spark itself.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import duckdb
import numpy as np
import oracles
import pandas as pd
import pytest
from scipy.stats import mannwhitneyu

from course_lib import UndefinedMetricWarning
from course_lib.sql import (
    DuckDBRunner,
    SparkRunner,
    auc_sql,
    compute,
    cumulative_counts_sql,
    gains_table_sql,
    ks_sql,
    relation,
    score_counts_sql,
    score_groups_sql,
    sql_binned_auc,
    sql_binned_pr_auc,
    sql_checks,
    sql_evaluation,
    sql_gain_curve,
    sql_gains_table,
    sql_gini,
    sql_ks,
    sql_lift_curve,
    sql_roc_auc,
    sql_roc_curve,
)

ROOT = Path(__file__).resolve().parents[1]
TOL = 1e-12


# ------------------------------------------------------------------------ the cases


def make_case(seed: int) -> dict:
    """A random case: ties (scores on a coarse grid), weights none / integer / float,
    sometimes a single positive or heavy imbalance."""
    rng = np.random.default_rng(seed)
    kind = seed % 6
    n = int(rng.integers(2, 400))
    if kind == 4:  # a single positive
        y = np.zeros(n, dtype=np.int64)
        y[rng.integers(n)] = 1
    elif kind == 5:  # heavy imbalance: about 1% positives, at least one
        y = (rng.random(n) < 0.01).astype(np.int64)
        y[rng.integers(n)] = 1
        n = y.size
    else:
        y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(np.int64)
    if y.min() == y.max():  # keep both classes
        y[0] = 1 - y[0]
    levels = int(rng.choice([2, 5, 20, 1000, 10**9]))
    s = np.round(rng.random(n) + 0.6 * y, 0) if levels == 2 else np.floor(
        (rng.random(n) + rng.uniform(0, 1.5) * y) * levels) / levels
    weight = ["none", "int", "float"][seed % 3]
    if weight == "int":
        w = rng.integers(0, 6, n).astype(np.float64)
        w[np.flatnonzero(y)[0]] = max(w[np.flatnonzero(y)[0]], 1)  # both classes weigh
        w[np.flatnonzero(1 - y)[0]] = max(w[np.flatnonzero(1 - y)[0]], 1)
    elif weight == "float":
        w = rng.exponential(1.0, n)
    else:
        w = None
    return {"id": seed, "y": y, "s": s, "w": w}


CASES = [make_case(seed) for seed in range(240)]


@pytest.fixture(scope="module")
def duck():
    """One DuckDB connection holding every case in one table ``cases``."""
    frame = pd.concat(
        [
            pd.DataFrame({"case_id": c["id"], "y": c["y"], "s": c["s"],
                          "w": c["w"] if c["w"] is not None else np.ones(c["y"].size)})
            for c in CASES
        ],
        ignore_index=True,
    )
    con = duckdb.connect()
    con.register("cases_frame", frame)
    con.execute("CREATE TABLE cases AS SELECT * FROM cases_frame")
    con.unregister("cases_frame")
    return DuckDBRunner(con)


def source(case: dict) -> str:
    return f"SELECT * FROM cases WHERE case_id = {int(case['id'])}"


def weight_col(case: dict) -> str | None:
    return None if case["w"] is None else "w"


def integral(case: dict) -> bool:
    return case["w"] is None or bool(np.all(case["w"] == np.round(case["w"])))


def oracle_curves(y, s, w=None) -> list[tuple]:
    """The ROC, gain and lift curves of the rules score >= t (t = inf first), from the
    exact ROC points: (fpr, tpr, t), (rate, tpr, t), (rate, lift, t), the lift at the
    origin repeating the first vertex's."""
    fpr, tpr, ts = oracles.roc_points(y, s, w)
    g = oracles.groups(y, s, w)
    total = sum(p + n for _, p, n in g)
    rate, chosen = [Fraction(0)], 0
    for _, p, n in g:
        chosen += p + n
        rate.append(Fraction(chosen) / total)
    lift = [t / r for t, r in zip(tpr[1:], rate[1:])]
    lift.insert(0, lift[0])
    f = [np.array([float(v) for v in a]) for a in (fpr, tpr, rate, lift)]
    big = np.asarray(s).dtype.kind in "iu" and max(abs(v) for v in ts[1:]) > 2**53
    t = np.array(ts, dtype=object if big else float)  # Python ints beyond 2**53
    return [(f[0], f[1], t), (f[2], f[1], t), (f[2], f[3], t)]


def oracle_gains_table(y, s, n_bins: int = 10) -> pd.DataFrame:
    """The gains table of oracles.gains_table as a DataFrame: counts int64, shares float."""
    rows = oracles.gains_table(y, s, n_bins)
    frame = pd.DataFrame([{k: (v if isinstance(v, int) else float(v)) for k, v in r.items()}
                          for r in rows])
    return frame.set_index("bin")


def assert_gains_equal(ours: pd.DataFrame, y, s, n_bins: int) -> None:
    pd.testing.assert_frame_equal(ours, oracle_gains_table(y, s, n_bins), check_exact=False,
                                  rtol=0, atol=TOL, check_index_type=False)


# --------------------------------------------------------------- comparing with the oracles


def check_case(run, case: dict, *, gains: bool = True, curves: bool = True) -> None:
    """Every SQL result of one case against the oracles."""
    y, s, w = case["y"], case["s"], case["w"]
    src, wc = source(case), weight_col(case)
    exact = integral(case)
    auc = sql_roc_auc(run, src, label="y", score="s", weight=wc, exact=exact)
    expected = oracles.auc(y, s, w)  # exact, for float weights too
    if exact:
        assert isinstance(auc, Fraction) and auc == expected
        assert sql_gini(run, src, label="y", score="s", weight=wc, exact=True) == 2 * expected - 1
        assert sql_roc_auc(run, src, label="y", score="s", weight=wc) == float(expected)
    else:
        assert auc == pytest.approx(float(expected), abs=TOL)
        assert sql_gini(run, src, label="y", score="s", weight=wc) == pytest.approx(
            float(2 * expected - 1), abs=TOL)
    ks = sql_ks(run, src, label="y", score="s", weight=wc)
    ks_value, ks_t, ks_rate = oracles.ks(y, s, w)
    assert ks.ks == pytest.approx(float(ks_value), abs=TOL)
    if exact:
        assert (ks.threshold, ks.rate) == (ks_t, pytest.approx(float(ks_rate), abs=TOL))
    else:  # float sums may order two equal gaps differently: the gap there is maximal
        fpr, tpr, ts = oracles.roc_points(y, s, w)
        k = ts.index(ks.threshold)
        assert float(tpr[k] - fpr[k]) == pytest.approx(float(ks_value), abs=TOL)
    if curves:
        for ours, theirs in zip(
            (sql_roc_curve(run, src, label="y", score="s", weight=wc),
             sql_gain_curve(run, src, label="y", score="s", weight=wc),
             sql_lift_curve(run, src, label="y", score="s", weight=wc)),
            oracle_curves(y, s, w),
        ):
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=0, atol=TOL)
    if gains:
        for n_bins in sorted({1, 3, 10, min(y.size, 10 + case["id"] % 37)}):
            if n_bins <= y.size:
                ours = sql_gains_table(run, src, label="y", score="s", n_bins=n_bins)
                assert_gains_equal(ours, y, s, n_bins)


class _Groups(NamedTuple):
    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


def _plain_groups(y, s, w) -> _Groups:
    """oracles.groups (a plain count by distinct score, decreasing, scores of zero
    weight kept: Spark counts them among the distinct scores) as float arrays."""
    g = oracles.groups(y, s, w, empty=True)
    return _Groups(*(np.array([float(r[i]) for r in g]) for i in range(3)))


def spark_binned_reference(y, s, w, num_bins: int) -> float:
    """Spark's down-sampling rule, written from its description in plain Python loops:
    chunks of floor(D / numBins) distinct scores (one partition), trapezoid area."""
    g = _plain_groups(y, s, w)
    grouping = len(g.scores) // num_bins
    points = [(0.0, 0.0)]
    tp = fp = 0.0
    for start in range(0, len(g.scores), grouping if grouping >= 2 else 1):
        stop = start + (grouping if grouping >= 2 else 1)
        tp += float(np.sum(g.pos[start:stop]))
        fp += float(np.sum(g.neg[start:stop]))
        points.append((fp, tp))
    m1, m0 = points[-1][1], points[-1][0]
    area = 0.0
    for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
        area += (x1 / m0 - x0 / m0) * (y1 / m1 + y0 / m1) / 2
    return area


def spark_pr_reference(y, s, w, num_bins: int) -> float:
    """Spark's areaUnderPR from its description, in plain Python loops: the chunks of
    spark_binned_reference (numBins = 0: one per distinct score), one point (recall,
    precision) per chunk, (0, first precision) in front, trapezoid area."""
    g = _plain_groups(y, s, w)
    grouping = len(g.scores) // num_bins if num_bins else 1
    step = grouping if grouping >= 2 else 1
    m1 = float(np.sum(g.pos))
    points = []
    tp = fp = 0.0
    for start in range(0, len(g.scores), step):
        tp += float(np.sum(g.pos[start:start + step]))
        fp += float(np.sum(g.neg[start:start + step]))
        points.append((tp / m1, tp / (tp + fp) if tp + fp else 1.0))
    points.insert(0, (0.0, points[0][1]))
    return sum((r1 - r0) * (p1 + p0) / 2 for (r0, p0), (r1, p1) in zip(points, points[1:]))


# -------------------------------------------------------------------------- DuckDB


def test_there_are_enough_cases_with_ties_weights_and_imbalance():
    assert len(CASES) >= 200
    assert sum(c["w"] is None for c in CASES) >= 60
    assert sum(c["w"] is not None and integral(c) for c in CASES) >= 60
    assert sum(not integral(c) for c in CASES) >= 60
    assert sum(int(c["y"].sum()) == 1 for c in CASES) >= 30
    assert sum(np.unique(c["s"]).size < c["s"].size / 2 for c in CASES) >= 100
    assert sum(c["y"].mean() < 0.05 for c in CASES) >= 30


def test_table1_on_duckdb(table1):
    labels, scores = table1
    run = DuckDBRunner()
    run.connection.register("t1", pd.DataFrame({"y": labels, "b": scores}))
    assert sql_roc_auc(run, "t1", label="y", score="b", exact=True) == Fraction(19, 24)
    assert sql_gini(run, "t1", label="y", score="b", exact=True) == Fraction(7, 12)
    ks = sql_ks(run, "t1", label="y", score="b", exact=True)
    assert ks == (Fraction(1, 2), 0.2, 5 / 7)
    case = {"id": 0, "y": labels, "s": scores, "w": None}
    run.connection.execute("CREATE TABLE cases AS SELECT 0 AS case_id, y, b AS s FROM t1")
    check_case(run, case)
    for n_bins in range(1, 8):
        assert_gains_equal(sql_gains_table(run, "t1", label="y", score="b", n_bins=n_bins),
                           labels, scores, n_bins)


@pytest.mark.parametrize("column", ["wfns", "s100b", "ndka"])
def test_asah_on_duckdb(column):
    asah = pd.read_csv(ROOT / "data" / "asah.csv")
    y = (asah["outcome"] == "Poor").astype(int).to_numpy()
    run = DuckDBRunner()
    path = (ROOT / "data" / "asah.csv").as_posix().replace("'", "''")
    q = f"SELECT CASE WHEN outcome = 'Poor' THEN 1 ELSE 0 END AS y, {column} AS s FROM read_csv('{path}')"
    run.connection.execute(f"CREATE TABLE cases AS SELECT 0 AS case_id, * FROM ({q})")
    check_case(run, {"id": 0, "y": y, "s": asah[column].to_numpy(), "w": None})
    assert sql_roc_auc(run, q, label="y", score="s", exact=True) == oracles.auc(
        y, asah[column])


def test_asah_s100b_is_procs_auc():
    run = DuckDBRunner()
    path = (ROOT / "data" / "asah.csv").as_posix()
    q = f"SELECT outcome = 'Poor' AS poor, s100b FROM read_csv('{path}')"  # a boolean label
    assert round(sql_roc_auc(run, q, label="poor", score="s100b"), 4) == 0.7314


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"case{c['id']}")
def test_random_case_on_duckdb(duck, case):
    check_case(duck, case, curves=case["id"] % 2 == 0)


@pytest.mark.parametrize("num_bins", [1, 2, 3, 7, 50])
@pytest.mark.parametrize("case", CASES[:24], ids=lambda c: f"case{c['id']}")
def test_binned_auc_follows_the_chunk_rule(duck, case, num_bins):
    ours = sql_binned_auc(duck, source(case), label="y", score="s", weight=weight_col(case),
                          num_bins=num_bins)
    assert ours == pytest.approx(
        spark_binned_reference(case["y"], case["s"], case["w"], num_bins), abs=TOL)


@pytest.mark.parametrize("num_bins", [0, 1, 2, 3, 7, 50])
@pytest.mark.parametrize("case", CASES[:24], ids=lambda c: f"case{c['id']}")
def test_binned_pr_area_follows_the_chunk_rule(duck, case, num_bins):
    ours = sql_binned_pr_auc(duck, source(case), label="y", score="s",
                             weight=weight_col(case), num_bins=num_bins)
    assert ours == pytest.approx(
        spark_pr_reference(case["y"], case["s"], case["w"], num_bins), abs=TOL)


def test_pr_area_without_binning_is_the_trapezoid_not_the_ap(duck):
    """numBins = 0: the trapezoid area of chapter 7 (exactly, as a Fraction), which
    differs from the average precision when precision moves between PR points."""
    differ = 0
    for case in CASES[:60:3]:
        if case["y"].sum() == 0:
            continue
        ours = sql_binned_pr_auc(duck, source(case), label="y", score="s", num_bins=0,
                                 exact=case["w"] is None)
        assert float(ours) == pytest.approx(  # chapter 7's trapezoid, written above
            spark_pr_reference(case["y"], case["s"], case["w"], 0), abs=TOL)
        ap = float(oracles.average_precision(case["y"], case["s"], case["w"]))
        differ += abs(float(ours) - ap) > 1e-9
    assert differ >= 10


def test_binned_areas_reject_a_negative_num_bins(duck):
    for f in (sql_binned_auc, sql_binned_pr_auc):
        for bad in (-1, 1.5, True):
            with pytest.raises(ValueError, match="num_bins must be a non-negative integer"):
                f(duck, "cases", label="y", score="s", num_bins=bad)


def test_binned_auc_without_binning_is_the_exact_auc(duck):
    """With numBins = 0 (or D < 2 numBins) the trapezoid over all groups is the AUC with
    ties counting 1/2."""
    for case in CASES[:30:3]:
        exact = sql_roc_auc(duck, source(case), label="y", score="s", exact=True)
        assert sql_binned_auc(duck, source(case), label="y", score="s",
                              num_bins=10**6, exact=True) == exact
        assert sql_binned_auc(duck, source(case), label="y", score="s",
                              num_bins=0, exact=True) == exact


def test_one_class_gives_nan_with_a_warning_or_an_error():
    run = DuckDBRunner()
    q = "SELECT 1 AS y, i * 0.1 AS s FROM range(5) t(i)"
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert np.isnan(sql_roc_auc(run, q, label="y", score="s"))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(sql_ks(run, q, label="y", score="s").ks)
    with pytest.raises(ValueError, match="no negative samples"):
        sql_roc_curve(run, q, label="y", score="s")
    with pytest.raises(ValueError, match="no negative samples"):
        sql_gains_table(run, q, label="y", score="s", n_bins=2)
    assert sql_gain_curve(run, q, label="y", score="s").tpr[-1] == 1.0  # needs positives only


def test_ks_of_a_reversed_scorer_selects_nobody():
    run = DuckDBRunner()
    q = "SELECT CAST(i < 3 AS INTEGER) AS y, i AS s FROM range(6) t(i)"
    assert sql_ks(run, q, label="y", score="s") == (0.0, float("inf"), 0.0)
    assert oracles.ks(*np.array(run.fetch(q)).T)[0] == 0


def test_the_gains_table_never_splits_a_tie_whatever_the_row_order():
    """NTILE splits ties by row order; the bins here depend on the scores only."""
    run = DuckDBRunner()
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 1000)
    s = rng.integers(0, 7, 1000).astype(float)
    run.connection.register("a", pd.DataFrame({"y": y, "s": s}))
    order = rng.permutation(1000)
    run.connection.register("b", pd.DataFrame({"y": y[order], "s": s[order]}))
    ta = sql_gains_table(run, "a", label="y", score="s")
    pd.testing.assert_frame_equal(ta, sql_gains_table(run, "b", label="y", score="s"))
    assert_gains_equal(ta, y, s, 10)
    assert ta["N"].sum() == 1000 and len(ta) <= 7


def test_scores_of_any_numeric_type_and_negative_zero():
    run = DuckDBRunner()
    q = ("SELECT * FROM (VALUES (1, CAST(0.5 AS DECIMAL(4,2))), (0, 0.0), (1, -0.0), "
         "(0, 0.25)) v(y, s)")
    assert sql_roc_auc(run, q, label="y", score="s", exact=True) == oracles.auc(
        [1, 0, 1, 0], [0.5, 0.0, -0.0, 0.25]) == Fraction(5, 8)  # -0.0 ties 0.0


# ------------------------------------------------------------------- validation


@pytest.fixture
def run_t():
    run = DuckDBRunner()
    run.connection.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.9, 1.0, 'a'), (0, 0.1, 2.0, 'b'), "
        "(1, 0.4, 0.5, 'c')) v(y, s, w, name)")
    return run


@pytest.mark.parametrize(
    "source, message",
    [
        ("t; DROP TABLE t", "neither a table name"),
        ("t --", "neither a table name"),
        ('"t"', "neither a table name"),
        ("a.b.c.d", "neither a table name"),
        ("", "table name or a SELECT query"),
        ("SELECT * FROM t; DROP TABLE t", "one statement"),
        ("SELECT * FROM t) AS x; DROP TABLE t; --", "closes a parenthesis"),
        ("SELECT * FROM t) AS x, (SELECT 1", "closes a parenthesis"),
        ("SELECT * FROM (t", "unclosed parenthesis"),
        ("SELECT 'x FROM t", "unterminated"),
        ("SELECT * FROM t /* x", "unterminated comment"),
    ],
)
def test_bad_sources_are_rejected_before_any_sql_runs(run_t, source, message):
    with pytest.raises(ValueError, match=message):
        sql_roc_auc(run_t, source, label="y", score="s")
    assert run_t.fetch("SELECT COUNT(*) FROM t") == [(3,)]  # still there


def test_strings_and_comments_in_a_query_are_not_structure(run_t):
    q = "SELECT y, s FROM t WHERE name <> ';)' -- a comment; with )\n AND name <> 'it''s'"
    assert sql_roc_auc(run_t, q, label="y", score="s") == 1.0
    assert sql_roc_auc(run_t, "SELECT y, s FROM t -- trailing", label="y", score="s") == 1.0


def test_missing_table_and_columns(run_t):
    with pytest.raises(ValueError, match="cannot read the source"):
        sql_roc_auc(run_t, "no_such_table", label="y", score="s")
    with pytest.raises(ValueError, match="score column 'p' is not in the source; its columns: y, s, w, name"):
        sql_roc_auc(run_t, "t", label="y", score="p")
    with pytest.raises(ValueError, match="weight column"):
        sql_roc_auc(run_t, "t", label="y", score="s", weight="weights")
    with pytest.raises(ValueError, match="must be numeric, its type is VARCHAR"):
        sql_roc_auc(run_t, "t", label="y", score="name")
    with pytest.raises(ValueError, match="the same column"):
        sql_roc_auc(run_t, "t", label="y", score="Y")
    with pytest.raises(ValueError, match="non-empty column name"):
        sql_roc_auc(run_t, "t", label="y", score=" ")
    with pytest.raises(ValueError, match="does not parse"):
        sql_roc_auc(run_t, "SELECT FROM WHERE", label="y", score="s")


def test_names_are_matched_without_case_and_ambiguity_is_an_error(run_t):
    assert sql_roc_auc(run_t, "T", label="Y", score="S") == 1.0
    q = 'SELECT y, s, 1 - s AS "S" FROM t'
    with pytest.raises(ValueError, match="ambiguous.*'s', 'S'"):
        sql_roc_auc(run_t, q, label="y", score="s")


def test_odd_column_names_are_quoted(run_t):
    run_t.connection.execute('CREATE TABLE odd AS SELECT y AS "la""bel", s AS "my score" FROM t')
    assert sql_roc_auc(run_t, "odd", label='la"bel', score="my score") == 1.0
    r = relation("odd", label='la"bel', score="x`y", dialect="spark")
    assert (r.source, r.label, r.score) == ("`odd`", '`la"bel`', "`x``y`")


@pytest.mark.parametrize(
    "query, message",
    [
        ("SELECT 2 AS y, 0.5 AS s", "only 0 and 1"),
        ("SELECT NULL::INT AS y, 0.5 AS s", "only 0 and 1"),
        ("SELECT 0.5 AS y, 0.5 AS s", "only 0 and 1"),
        ("SELECT 1 AS y, NULL::DOUBLE AS s", "NULL, NaN or infinite"),
        ("SELECT 1 AS y, 'nan'::DOUBLE AS s", "NULL, NaN or infinite"),
        ("SELECT 1 AS y, '-inf'::DOUBLE AS s", "NULL, NaN or infinite"),
        ("SELECT 1 AS y, 0.5 AS s, -1.0 AS w", "non-negative"),
        ("SELECT 1 AS y, 0.5 AS s, 'inf'::DOUBLE AS w", "non-negative"),
        ("SELECT 1 AS y, 0.5 AS s WHERE false", "has no rows"),
    ],
)
def test_bad_data_is_a_value_error(query, message):
    run = DuckDBRunner()
    weight = "w" if " w" in query else None
    with pytest.raises(ValueError, match=message):
        sql_checks(run, query, label="y", score="s", weight=weight)


def test_exact_needs_integer_weights_and_n_bins_must_fit(run_t):
    with pytest.raises(ValueError, match="integer sample weights"):
        sql_roc_auc(run_t, "t", label="y", score="s", weight="w", exact=True)
    with pytest.raises(ValueError, match="between 1 and the number of samples 3"):
        sql_gains_table(run_t, "t", label="y", score="s", n_bins=4)
    for bad in (0, 2.5, True, "10"):
        with pytest.raises(ValueError, match="positive integer"):
            gains_table_sql(relation("t", label="y", score="s"), n_bins=bad)
    with pytest.raises(ValueError, match="dialect"):
        relation("t", label="y", score="s", dialect="oracle")


def check_evaluation(run, case: dict) -> None:
    """sql_evaluation (one grouping kept in the engine) gives the oracles' AUC, Gini, KS
    and gains table, exact where the counts are integers."""
    y, s, w = case["y"], case["s"], case["w"]
    exact = integral(case)
    n_bins = min(10, y.size)
    if y.sum() in (0, y.size):
        with pytest.raises(ValueError, match="only one class present"):
            sql_evaluation(run, source(case), label="y", score="s", weight=weight_col(case))
        return
    e = sql_evaluation(run, source(case), label="y", score="s", weight=weight_col(case),
                       n_bins=n_bins, exact=exact)
    auc = oracles.auc(y, s, w)
    if exact:
        assert (e.auc, e.gini) == (auc, 2 * auc - 1)
    else:
        assert (e.auc, e.gini) == (pytest.approx(float(auc), abs=TOL),
                                   pytest.approx(float(2 * auc - 1), abs=TOL))
    ks_value, ks_t, ks_rate = oracles.ks(y, s, w)
    assert float(e.ks.ks) == pytest.approx(float(ks_value), abs=TOL)
    if exact and ks_value > 0:
        assert (e.ks.threshold, e.ks.rate) == (ks_t, pytest.approx(float(ks_rate), abs=TOL))
    assert_gains_equal(e.gains_table, y, s, n_bins)
    assert (e.checks.n, e.checks.m1) == (y.size, pytest.approx(float(np.sum(y * (1 if w is None else w)))))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"case{c['id']}")
def test_evaluation_on_duckdb(duck, case):
    check_evaluation(duck, case)


@pytest.mark.parametrize("buckets", [1, 3, 1024])
def test_cumulating_in_buckets_gives_the_same_table(duck, buckets):
    """The bucketed form (partitioned windows plus the totals of the buckets above) gives
    the table of the single window: exactly with counts and integer weights, to 1e-12
    with float weights."""
    for case in CASES[:60]:
        r = relation(source(case), label="y", score="s", weight=weight_col(case))
        ew = case["w"] is not None and integral(case)
        counts = f"({score_counts_sql(r, exact_weights=ew)}) AS counts_"
        order = "SELECT * FROM ({}) ORDER BY s DESC"
        one = duck.fetch(order.format(score_groups_sql(r, exact_weights=ew)))
        parts = duck.fetch(order.format(cumulative_counts_sql(counts, r, buckets=buckets)))
        if integral(case):
            assert [tuple(map(float, a)) for a in one] == [tuple(map(float, b)) for b in parts]
        else:
            np.testing.assert_allclose(np.array(one, float), np.array(parts, float), rtol=0,
                                       atol=1e-12 * float(np.sum(case["w"])))


class _NoWindow(DuckDBRunner):
    """A DuckDB runner that refuses any window (DuckDB runs out of memory on the single
    window over about 10^8 distinct scores under a limit of a few GB) and counts the
    statements it runs."""

    def __init__(self, connection) -> None:
        super().__init__(connection)
        self.statements = 0

    def keep(self, sql: str) -> str:
        if " OVER (" in sql:
            raise MemoryError("Out of Memory Error (simulated)")
        self.statements += 1
        return super().keep(sql)

    def fetch(self, sql: str) -> list[tuple]:
        if " OVER (" in sql:
            raise MemoryError("Out of Memory Error (simulated)")
        self.statements += 1
        return super().fetch(sql)


@pytest.mark.parametrize("per_fetch", [1, 3])
def test_evaluation_runs_no_window_and_reads_the_groups_in_fetches(duck, monkeypatch, per_fetch):
    """sql_evaluation keeps score_counts_sql's GROUP BY (no window) and reads it back in
    fetches of GROUPS_PER_FETCH groups, each below the last score seen: the same
    results, one fetch per GROUPS_PER_FETCH groups and pass (one pass, two with float
    weights), and no table left behind."""
    monkeypatch.setattr(compute, "GROUPS_PER_FETCH", per_fetch)
    run = _NoWindow(duck.connection)
    before = duck.fetch("SELECT COUNT(*) FROM duckdb_tables()")
    for case in CASES[:36]:
        run.statements = 0
        check_evaluation(run, case)
        if 0 < case["y"].sum() < case["y"].size:
            d = len(np.unique(case["s"]))
            # the checks and the kept GROUP BY; with weights the class counts, and for
            # float weights a first pass (their totals); per pass d // per_fetch + 1 fetches
            weighted, passes = case["w"] is not None, 1 + (not integral(case))
            assert run.statements == 2 + weighted + passes * (d // per_fetch + 1)
    assert duck.fetch("SELECT COUNT(*) FROM duckdb_tables()") == before


SCORE_TYPES = {
    "DOUBLE": "CAST(v AS DOUBLE) / 7",
    "FLOAT": "CAST(CAST(v AS DOUBLE) / 7 AS FLOAT)",
    "DECIMAL(12,3)": "CAST(CAST(v AS DOUBLE) / 7 AS DECIMAL(12,3))",
    "BIGINT": "CAST(4611686018427387904 AS BIGINT) + v",  # 2**62 + v: beyond a double
    "HUGEINT": "CAST(v AS HUGEINT) * 170141183460469231731687303715884105",
}


@pytest.mark.parametrize("kind", sorted(SCORE_TYPES))
@pytest.mark.parametrize("weighted", [False, True])
def test_evaluation_reads_every_score_type_back_exactly(monkeypatch, kind, weighted):
    """Each fetch after the first starts below the last score seen, written as a literal
    of the score's type: with one group per fetch, every type gives the results of one
    fetch for all (no group skipped or read twice)."""
    run = DuckDBRunner()
    run.fetch(f"CREATE TABLE t AS SELECT CAST(hash(i) % 3 = 0 AS INTEGER) AS y, "
              f"{SCORE_TYPES[kind].replace('v', '(CAST(hash(i + 7) % 23 AS INTEGER) - 11)')} AS s, "
              f"CAST(1 + hash(i + 9) % 4 AS DOUBLE) / 2 AS w FROM range(200) r(i)")
    w = "w" if weighted else None
    whole = sql_evaluation(run, "t", label="y", score="s", weight=w)
    monkeypatch.setattr(compute, "GROUPS_PER_FETCH", 1)
    assert run.fetch("SELECT COUNT(DISTINCT s) FROM t") == [(23,)]
    one = sql_evaluation(run, "t", label="y", score="s", weight=w)
    assert (one.auc, one.gini, one.ks) == (whole.auc, whole.gini, whole.ks)
    pd.testing.assert_frame_equal(one.gains_table, whole.gains_table, check_exact=True)


def test_a_query_beyond_the_memory_limit_is_refused_with_memory_error(tmp_path):
    """A statement that does not fit DuckDB's memory limit is a MemoryError naming it,
    never a wrong number."""
    con = duckdb.connect()
    con.execute(f"SET temp_directory = '{(tmp_path / 'spill').as_posix()}'")
    con.execute("CREATE TABLE t AS SELECT CAST(hash(2 * i + 1) % 5 = 0 AS INTEGER) AS y, "
                "hash(2 * i) / 18446744073709551616.0 AS s FROM range(2000000) t(i)")
    con.execute("SET memory_limit = '16MB'")
    with pytest.raises(MemoryError, match="Out of Memory"):
        DuckDBRunner(con).keep(score_groups_sql(relation("t", label="y", score="s")))


def test_evaluation_leaves_no_table_behind_and_checks_first(duck):
    before = duck.fetch("SELECT COUNT(*) FROM duckdb_tables()")
    sql_evaluation(duck, source(CASES[0]), label="y", score="s")
    assert duck.fetch("SELECT COUNT(*) FROM duckdb_tables()") == before
    with pytest.raises(ValueError, match="n_bins must be between 1"):
        sql_evaluation(duck, source(CASES[0]), label="y", score="s", n_bins=10**6)
    with pytest.raises(ValueError, match="n_bins must be a positive integer"):
        sql_evaluation(duck, source(CASES[0]), label="y", score="s", n_bins=0)


# --------------------------------------------------------------------------- Spark

SPARK_CASES = CASES[:20]


@pytest.fixture(scope="module")
def spark_run(spark_session, tmp_path_factory):
    """The run's local[2] Spark session (conftest.py; skipped without Java or pyspark,
    except in CI) with one shuffle partition, reading the cases from Parquet."""
    path = tmp_path_factory.mktemp("spark") / "cases.parquet"
    con = duckdb.connect()
    frame = pd.concat(
        [pd.DataFrame({"case_id": c["id"], "y": c["y"], "s": c["s"],
                       "w": c["w"] if c["w"] is not None else np.ones(c["y"].size)})
         for c in SPARK_CASES], ignore_index=True)
    con.register("f", frame)
    con.execute(f"COPY f TO '{path.as_posix()}' (FORMAT parquet)")
    before = spark_session.conf.get("spark.sql.shuffle.partitions")
    spark_session.conf.set("spark.sql.shuffle.partitions", "1")
    run = SparkRunner(spark_session)
    cases = run.session.read.parquet(str(path)).cache()
    cases.createOrReplaceTempView("cases")
    yield run
    run.session.catalog.dropTempView("cases")
    cases.unpersist()
    spark_session.conf.set("spark.sql.shuffle.partitions", before)


def check_case_spark(run, case: dict) -> None:
    """The statements of one case run on Spark: the exact AUC, and the KS vertex or
    the gains table, against the oracles."""
    y, s, w = case["y"], case["s"], case["w"]
    exact = integral(case)
    r = relation(source(case), label="y", score="s", weight=weight_col(case), dialect="spark")
    ((twice, m1, m0, auc, gini),) = run.fetch(auc_sql(r, exact_weights=exact and w is not None))
    expected = oracles.auc(y, s, w)
    if exact:
        assert Fraction(int(twice), 2 * int(m1) * int(m0)) == expected
    assert auc == pytest.approx(float(expected), abs=TOL)
    assert gini == pytest.approx(2 * float(expected) - 1, abs=TOL)
    if case["id"] % 2 == 0:  # half the cases check the KS, the other half the table
        ((thr, *_, ks, rate),) = run.fetch(ks_sql(r, exact_weights=exact and w is not None))
        ks_value, ks_t, ks_rate = oracles.ks(y, s, w)
        assert max(ks, 0.0) == pytest.approx(float(ks_value), abs=TOL)
        if exact and ks_value > 0:
            assert (thr, rate) == (ks_t, pytest.approx(float(ks_rate), abs=TOL))
    elif y.size >= 10:
        rows = run.fetch(gains_table_sql(r, n_bins=10))
        table = oracle_gains_table(y, s, n_bins=10)
        assert [int(row[0]) for row in rows] == table.index.tolist()
        np.testing.assert_allclose(np.array(rows, dtype=float)[:, 1:], table.to_numpy(float),
                                   rtol=0, atol=TOL)


@pytest.mark.parametrize("case", SPARK_CASES, ids=lambda c: f"case{c['id']}")
def test_random_case_on_spark(spark_run, case):
    check_case_spark(spark_run, case)


def test_evaluation_on_spark(spark_run):
    """The grouping kept with CACHE TABLE gives the same results on Spark."""
    for case in SPARK_CASES[:8]:
        check_evaluation(spark_run, case)
    assert not [t for t in spark_run.session.catalog.listTables() if "course_lib" in t.name]


@pytest.mark.parametrize("kind", ["double", "float", "decimal(12,3)", "bigint"])
def test_evaluation_reads_every_score_type_back_exactly_on_spark(spark_run, monkeypatch, kind):
    """One group per fetch on Spark (each fetch below a literal of the score's type):
    DuckDB's results for all the groups at once."""
    values = ", ".join(f"({(3 * i) % 5 % 2}, {i % 7 - 3}, {1 + i % 3})" for i in range(30))
    score = "CAST(4611686018427387904 AS BIGINT) + v" if kind == "bigint" else (
        f"CAST(CAST(v AS DOUBLE) / 7 AS {kind})")
    spark_q = f"SELECT y, {score} AS s, CAST(w AS DOUBLE) / 2 AS w FROM VALUES {values} AS t(y, v, w)"
    duck_q = (f"SELECT y, {score.replace('(12,3)', '(12, 3)')} AS s, CAST(w AS DOUBLE) / 2 AS w "
              f"FROM (VALUES {values}) t(y, v, w)")
    monkeypatch.setattr(compute, "GROUPS_PER_FETCH", 1)
    for w in (None, "w"):
        one = sql_evaluation(spark_run, spark_q, label="y", score="s", weight=w, n_bins=3)
        whole = sql_evaluation(DuckDBRunner(), duck_q, label="y", score="s", weight=w, n_bins=3)
        assert (one.auc, one.gini, one.ks) == (whole.auc, whole.gini, whole.ks)
        pd.testing.assert_frame_equal(one.gains_table, whole.gains_table, check_exact=True)


def test_curves_through_the_runner_on_spark(spark_run):
    for case in SPARK_CASES[:2]:
        src, wc = source(case), weight_col(case)
        for a, b in zip(sql_roc_curve(spark_run, src, label="y", score="s", weight=wc),
                        oracle_curves(case["y"], case["s"], case["w"])[0]):
            np.testing.assert_allclose(a, b, rtol=0, atol=TOL)
    case = SPARK_CASES[2]
    for a, b in zip(sql_lift_curve(spark_run, source(case), label="y", score="s"),
                    oracle_curves(case["y"], case["s"])[2]):
        np.testing.assert_allclose(a, b, rtol=0, atol=TOL)


def test_table1_on_spark(spark_run, table1):
    labels, scores = table1
    rows = ", ".join(f"({int(a)}, {float(b)!r})" for a, b in zip(labels, scores))
    q = f"SELECT * FROM VALUES {rows} AS v(y, b)"
    assert sql_roc_auc(spark_run, q, label="y", score="b", exact=True) == Fraction(19, 24)
    assert sql_ks(spark_run, q, label="y", score="b", exact=True) == (Fraction(1, 2), 0.2, 5 / 7)
    assert_gains_equal(sql_gains_table(spark_run, q, label="y", score="b", n_bins=4),
                       labels, scores, 4)


def test_spark_rejects_bad_names_and_statements(spark_run):
    with pytest.raises(ValueError, match="cannot read the source"):
        sql_roc_auc(spark_run, "no_such_table", label="y", score="s")
    with pytest.raises(ValueError, match="ambiguous"):
        sql_roc_auc(spark_run, "SELECT y, s, s AS S FROM cases", label="y", score="s")
    with pytest.raises(ValueError, match="one statement"):
        sql_roc_auc(spark_run, "SELECT * FROM cases; DROP VIEW cases", label="y", score="s")
    assert sql_roc_auc(spark_run, "CASES", label="Y", score="S") > 0.5  # no case


def _spark_auc(run, case, num_bins, metric="areaUnderROC"):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    df = run.session.sql(
        f"SELECT CAST(y AS DOUBLE) AS y, CAST(s AS DOUBLE) AS s, w FROM cases "
        f"WHERE case_id = {case['id']}").coalesce(1)
    ev = BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="y", numBins=num_bins,
                                       metricName=metric)
    if case["w"] is not None:
        ev.setWeightCol("w")
    return ev.evaluate(df)


@pytest.mark.parametrize("num_bins", [0, 3])
def test_reproduced_binning_matches_spark_mllib(spark_run, num_bins):
    """The binned AUC of sql_binned_auc is what Spark's evaluator returns (one
    partition), and numBins = 0 gives the exact AUC."""
    for case in SPARK_CASES[:4]:
        theirs = _spark_auc(spark_run, case, num_bins)
        src, wc = source(case), weight_col(case)
        if num_bins == 0:
            assert theirs == pytest.approx(
                float(oracles.auc(case["y"], case["s"], case["w"])), abs=TOL)
            continue
        ours = sql_binned_auc(spark_run, src, label="y", score="s", weight=wc,
                              num_bins=num_bins)
        assert ours == pytest.approx(theirs, abs=TOL)


@pytest.mark.parametrize("num_bins", [0, 3])
def test_reproduced_pr_area_matches_spark_mllib(spark_run, num_bins):
    """sql_binned_pr_auc is Spark's areaUnderPR (one partition), with and without
    binning, weighted or not; numBins = 0 is chapter 7's trapezoid area."""
    cases = [c for c in SPARK_CASES if c["y"].sum() > 0][:6]
    assert any(c["w"] is not None for c in cases) and any(c["w"] is None for c in cases)
    for case in cases:
        theirs = _spark_auc(spark_run, case, num_bins, "areaUnderPR")
        ours = sql_binned_pr_auc(spark_run, source(case), label="y", score="s",
                                 weight=weight_col(case), num_bins=num_bins)
        assert ours == pytest.approx(theirs, abs=TOL)
        if num_bins == 0:
            assert theirs == pytest.approx(  # chapter 7's trapezoid, written above
                spark_pr_reference(case["y"], case["s"], case["w"], 0), abs=TOL)


def test_reproduced_binning_matches_spark_on_many_distinct_scores(spark_run, tmp_path):
    """5000 rows with about 4000 distinct scores: numBins = 1000 merges chunks of 4
    scores, and the binned AUC differs from the exact one; the reproduction does not
    differ from Spark."""
    rng = np.random.default_rng(7)
    y = (rng.random(5000) < 0.3).astype(np.int64)
    s = np.round(rng.random(5000) + 0.3 * y, 4)
    path = tmp_path / "many.parquet"
    con = duckdb.connect()
    con.register("f", pd.DataFrame({"case_id": 999, "y": y, "s": s, "w": 1.0}))
    con.execute(f"COPY f TO '{path.as_posix()}' (FORMAT parquet)")
    spark_run.session.read.parquet(str(path)).createOrReplaceTempView("many")
    case = {"id": 999, "y": y, "s": s, "w": None}
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    frame = spark_run.session.sql("SELECT CAST(y AS DOUBLE) AS y, s FROM many").coalesce(1)
    theirs = BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="y").evaluate(frame)
    theirs_pr = BinaryClassificationEvaluator(
        rawPredictionCol="s", labelCol="y", metricName="areaUnderPR").evaluate(frame)
    pr = sql_binned_pr_auc(spark_run, "many", label="y", score="s", exact=True)
    assert float(pr) == pytest.approx(theirs_pr, abs=TOL)
    assert abs(float(pr) - float(oracles.average_precision(y, s))) > 1e-6
    ours = sql_binned_auc(spark_run, "many", label="y", score="s", exact=True)
    assert float(ours) == pytest.approx(theirs, abs=TOL)
    assert float(ours) == pytest.approx(spark_binned_reference(y, s, None, 1000), abs=TOL)
    # the exact AUC from the Mann-Whitney U (ranks with ties averaged: a multiple of 1/2)
    exact = Fraction(mannwhitneyu(s[y == 1], s[y == 0]).statistic) / (
        int(y.sum()) * int((1 - y).sum()))
    assert abs(float(ours) - float(exact)) > 1e-6  # binning moved the AUC
    duck = DuckDBRunner()
    duck.connection.register("many", pd.DataFrame({"y": y, "s": s}))
    assert sql_binned_auc(duck, "many", label="y", score="s", exact=True) == ours
    assert case["s"].size == 5000


# ------------------------------------------------- the score policy (issue 20, item 1)
# BIGINT scores 2**62 + k: a DOUBLE cannot hold them (they would all tie); the score
# column keeps its type, so the order is exact and the AUC is roc_auc's 1/4.
BIG_LABELS = [1, 0, 0, 1]
BIG_OFFSETS = [0, 1, 3, 2]
BIG_VALUES = ", ".join(f"({a}, CAST({2**62 + k} AS BIGINT))"
                       for a, k in zip(BIG_LABELS, BIG_OFFSETS))
BIG_QUERY = {"duckdb": f"SELECT * FROM (VALUES {BIG_VALUES}) v(y, s)",
             "spark": f"SELECT * FROM VALUES {BIG_VALUES} AS v(y, s)"}
# float weights where every negative scores above every positive: KS 0 (issue 20)
KS0_VALUES = "(0,0.1,0.2),(0,0.08,0.5),(0,0.07,0.2),(1,-0.92,0.7),(1,-0.91,0.4),(1,-1.0,0.4)"
KS0_QUERY = {
    "duckdb": f"SELECT y, CAST(s AS DOUBLE) AS s, CAST(w AS DOUBLE) AS w "
              f"FROM (VALUES {KS0_VALUES}) v(y, s, w)",
    "spark": f"SELECT y, CAST(s AS DOUBLE) AS s, CAST(w AS DOUBLE) AS w "
             f"FROM VALUES {KS0_VALUES} AS v(y, s, w)",
}
# a query that Spark reads differently from DuckDB: '\'' is one literal on Spark, so
# the ')' after it closes the subquery the query is placed in (issue 20)
ESCAPE_QUERY = ("SELECT * FROM cases WHERE 'x' <> '\\'' ) AS src0 JOIN "
                "(SELECT 1 AS z /* ' */")


def _check_big_scores(run, dialect):
    q = BIG_QUERY[dialect]
    big = np.array([2**62 + k for k in BIG_OFFSETS], dtype=np.int64)
    assert oracles.auc(BIG_LABELS, big) == Fraction(1, 4)
    assert sql_roc_auc(run, q, label="y", score="s") == 0.25
    assert sql_roc_auc(run, q, label="y", score="s", exact=True) == Fraction(1, 4)
    assert sql_gini(run, q, label="y", score="s", exact=True) == Fraction(-1, 2)
    c, ref = sql_roc_curve(run, q, label="y", score="s"), oracle_curves(BIG_LABELS, big)[0]
    np.testing.assert_array_equal(c.fpr, ref[0])
    np.testing.assert_array_equal(c.tpr, ref[1])
    assert c.thresholds.tolist() == ref[2].tolist()  # Python ints, not rounded
    assert c.thresholds[1] == 2**62 + 3
    k = sql_ks(run, q, label="y", score="s")
    ref_ks = oracles.ks(BIG_LABELS, big)
    assert (k.ks, k.threshold) == (ref_ks[0], ref_ks[1])
    e = sql_evaluation(run, q, label="y", score="s", n_bins=2, exact=True)
    assert e.auc == Fraction(1, 4)
    assert_gains_equal(e.gains_table, BIG_LABELS, big, 2)


def _check_ks_float_weights(run, dialect):
    y = [0, 0, 0, 1, 1, 1]
    s = [0.1, 0.08, 0.07, -0.92, -0.91, -1.0]
    w = [0.2, 0.5, 0.2, 0.7, 0.4, 0.4]
    ref = oracles.ks(y, s, w)
    assert (ref[0], ref[1]) == (0, np.inf)
    k = sql_ks(run, KS0_QUERY[dialect], label="y", score="s", weight="w")
    assert (k.ks, k.threshold, k.rate) == (0.0, np.inf, 0.0)
    e = sql_evaluation(run, KS0_QUERY[dialect], label="y", score="s", weight="w", n_bins=2)
    assert e.ks == (0.0, np.inf, 0.0)
    c = sql_roc_curve(run, KS0_QUERY[dialect], label="y", score="s", weight="w")
    assert (c.fpr[-1], c.tpr[-1]) == (1.0, 1.0)


def test_bigint_scores_keep_their_order_on_duckdb():
    _check_big_scores(DuckDBRunner(), "duckdb")


def test_ks_with_float_weights_is_zero_when_negatives_lead_on_duckdb():
    _check_ks_float_weights(DuckDBRunner(), "duckdb")


def test_float_weights_on_random_cases_end_at_one_one():
    """The class totals are the last running sums: the ROC curve ends at (1, 1) and a
    KS of a case whose negatives all lead is 0 (sql_ks and sql_evaluation), on 130
    random float-weight tables."""
    run = DuckDBRunner()
    rng = np.random.default_rng(20)
    for _ in range(130):
        n = int(rng.integers(2, 8))
        y = np.r_[0, 1, rng.integers(0, 2, n)]
        s = np.where(y == 1, -rng.random(y.size) - 0.9, rng.random(y.size) / 9)
        w = np.round(rng.random(y.size) * 0.9 + 0.1, 1)
        rows = ", ".join(f"({a}, {b!r}, {c!r})" for a, b, c in zip(y.tolist(), s.tolist(),
                                                                   w.tolist()))
        q = f"SELECT * FROM (VALUES {rows}) v(y, s, w)"
        k = sql_ks(run, q, label="y", score="s", weight="w")
        assert (k.ks, k.threshold, k.rate) == (0.0, np.inf, 0.0)
        assert sql_evaluation(run, q, label="y", score="s", weight="w", n_bins=1).ks == k


def test_escaped_quote_is_read_as_each_engine_reads_it():
    from course_lib.sql import DUCKDB, SPARK
    from course_lib.sql.generate import _query_structure

    _query_structure(ESCAPE_QUERY, DUCKDB)  # DuckDB: '\' then a literal up to /* '
    with pytest.raises(ValueError, match="closes a parenthesis it did not open"):
        _query_structure(ESCAPE_QUERY, SPARK)
    with pytest.raises(ValueError, match="closes a parenthesis it did not open"):
        relation(ESCAPE_QUERY, label="y", score="s", dialect="spark")
    with pytest.raises(ValueError, match="closes a parenthesis it did not open"):
        _query_structure(ESCAPE_QUERY)  # no dialect told: both readings must pass
    with pytest.raises(ValueError):
        sql_roc_auc(DuckDBRunner(), ESCAPE_QUERY, label="y", score="s")


def test_bigint_scores_keep_their_order_on_spark(spark_run):
    _check_big_scores(spark_run, "spark")


def test_ks_with_float_weights_is_zero_when_negatives_lead_on_spark(spark_run):
    _check_ks_float_weights(spark_run, "spark")


def test_spark_refuses_a_query_that_escapes_its_subquery(spark_run):
    with pytest.raises(ValueError, match="closes a parenthesis it did not open"):
        sql_roc_auc(spark_run, ESCAPE_QUERY, label="y", score="s")
