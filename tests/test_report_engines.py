"""The report's engines: DuckDB and Spark give MemoryEngine's summary and groups exactly.

Random tables (ties, integer and fractional weights, a segment column with a missing
value, two scores, missing labels and scores, text labels with ``pos_label``, int64
scores beyond 2**53) go through :class:`MemoryEngine` and :class:`DuckDBEngine`, read
from a DataFrame and from Parquet; every chunk of groups, of segment groups and of pair
groups must be equal, and the report made through DuckDB must equal the report made in
memory. The sources (files, globs, CSV, ``db.duckdb:table``) record each file's SHA-256
and rows. Column names that need quoting work; names that try to inject SQL are only
missing columns. Every bad input is a ValueError that names the problem. Spark
(local[2], conftest.py's session) agrees with DuckDB on a few small tables.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from course_lib.report import MemoryEngine
from course_lib.report._duckdb import DuckDBEngine, _rechunk
from course_lib.report._engine import Groups

SCORES = ("s1", "s2")


# ------------------------------------------------------------------------ the tables


def make_table(seed: int) -> tuple[pd.DataFrame, dict]:
    """A random table and the engine arguments for it.

    Kinds by ``seed % 4``: 0/1 labels, text labels with ``pos_label``, bool labels,
    labels 0/1 as floats; weights none / integer / fractional by ``seed % 3``; scores on
    coarse grids (ties), one of them int64 (sometimes beyond 2**53) every other seed."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    y[0], y[1] = True, False
    levels = int(rng.choice([2, 7, 50, 10**6]))
    s1 = np.floor((rng.random(n) + 0.7 * y) * levels) / levels
    if seed % 2:
        s2 = rng.integers(-5, 5, n).astype(np.int64) + 3 * y
        if seed % 4 == 1:
            s2 = s2 + 2**62  # int64 that float64 cannot hold: must stay exact
    else:
        s2 = np.round(rng.normal(size=n) + y, 1)
    kind = seed % 4
    label: object
    kwargs: dict = {}
    if kind == 0:
        label = y.astype(np.int64)
    elif kind == 1:
        label = np.where(y, "bad", "good")
        kwargs["pos_label"] = "bad"
    elif kind == 2:
        label = y
    else:
        label = y.astype(np.float64)
    frame = pd.DataFrame({"y": label, "s1": s1, "s2": s2,
                          "seg": rng.choice(["north", "south", "east"], n)})
    frame["seg"] = frame["seg"].where(rng.random(n) > 0.1, None)
    if seed % 3 == 1:
        frame["w"] = rng.integers(0, 5, n).astype(np.float64)
        frame.loc[0, "w"] = frame.loc[1, "w"] = 2.0
        kwargs["weight"] = "w"
    elif seed % 3 == 2:
        frame["w"] = rng.gamma(1.0, size=n)
        kwargs["weight"] = "w"
    if seed % 5 == 0 and n > 10:  # missing labels and scores, dropped and counted
        frame["s1"] = frame["s1"].astype(object)
        frame.loc[5, "s1"] = None
        frame["y"] = frame["y"].astype(object)
        frame.loc[6, "y"] = None
    return frame, kwargs


SEEDS = range(48)


def assert_chunks_equal(ours: list, theirs: list, weighted: bool) -> None:
    """Equal chunk by chunk: scores exactly (and their dtypes, see below), counts
    exactly, float weight sums to 1e-12 relative (another order of addition)."""
    assert len(ours) == len(theirs) > 0
    for a, b in zip(ours, theirs):
        assert type(a) is type(b)
        for name, x, z in zip(a._fields, a, b):
            if x is None or z is None:
                assert x is None and z is None, name
            elif name in ("pos", "neg") and weighted:
                assert x.dtype == z.dtype == np.float64
                np.testing.assert_allclose(x, z, rtol=1e-12, atol=1e-12, err_msg=name)
            else:
                # integer scores are int64 in every engine (the score policy of _checks)
                assert x.dtype == z.dtype, (name, x.dtype, z.dtype)
                assert x.tolist() == z.tolist(), name


def assert_rows_equal(a, b) -> None:
    """The rows of two engines in their canonical order (Engine.rows): labels, scores
    (values and dtypes) and weights exactly, the segments as multisets per row."""
    assert a.y.dtype == b.y.dtype == np.bool_ and a.y.tolist() == b.y.tolist()
    assert a.scores.keys() == b.scores.keys()
    for name in a.scores:
        assert a.scores[name].dtype == b.scores[name].dtype, name
        assert a.scores[name].tolist() == b.scores[name].tolist(), name
    assert (a.weight is None) == (b.weight is None)
    if a.weight is not None:
        assert a.weight.dtype == b.weight.dtype == np.float64
        assert a.weight.tolist() == b.weight.tolist()
    assert (a.segment is None) == (b.segment is None)
    if a.segment is not None:
        def key(v):
            return "\x00missing" if v is None else str(v)
        assert sorted(map(key, a.segment)) == sorted(map(key, b.segment))


def assert_summaries_equal(a, b, integral: bool) -> None:
    for name, x, z in zip(a._fields, a, b):
        if name in ("positives", "negatives") and not integral:
            assert x == pytest.approx(z, rel=1e-12), name
        else:
            assert x == z, name
            assert type(x) is type(z), name


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    out = {}
    for seed in SEEDS:
        frame, kwargs = make_table(seed)
        path = folder / f"t{seed}.parquet"
        con = duckdb.connect()
        con.register("f", frame)
        con.execute(f"COPY f TO '{path.as_posix()}' (FORMAT parquet)")
        con.close()
        out[seed] = (frame, kwargs, path)
    return out


# A wiring test, kept: both engines feed the same accumulators (course_lib._stream), so
# what is compared is not two implementations of a number but the groups each engine
# reads (label kinds, pos_label, missing values, weights, dtypes, chunk boundaries,
# segment and pair streams); the numbers themselves are checked against oracles in
# tests/test_report_core.py.
@pytest.mark.parametrize("seed", SEEDS)
def test_duckdb_equals_memory(tables, seed):
    frame, kwargs, path = tables[seed]
    memory = MemoryEngine(frame, label="y", scores=SCORES, by="seg", **kwargs)
    source = frame if seed % 2 else str(path)
    with DuckDBEngine(source, label="y", scores=SCORES, by="seg", **kwargs) as engine:
        assert engine.scores == SCORES and engine.by == "seg"
        summary = engine.summary()
        assert_summaries_equal(summary, memory.summary(), summary.integral)
        assert_rows_equal(engine.rows(chunk=7), memory.rows())
        weighted = summary.weighted
        chunk = [1, 3, 64, 2**20][seed % 4]
        for score in SCORES:
            for by in (None, "seg"):
                assert_chunks_equal(list(engine.groups(score, by=by, chunk=chunk)),
                                    list(memory.groups(score, by=by, chunk=chunk)), weighted)
            # a second pass reads the kept groups again, identically
            assert_chunks_equal(list(engine.groups(score, chunk=chunk)),
                                list(memory.groups(score, chunk=chunk)), weighted)
        assert_chunks_equal(list(engine.pair_groups("s1", "s2", chunk=chunk)),
                            list(memory.pair_groups("s1", "s2", chunk=chunk)), weighted)
        assert_chunks_equal(list(engine.pair_groups("s2", "s1", chunk=chunk)),
                            list(memory.pair_groups("s2", "s1", chunk=chunk)), weighted)


def test_groups_are_in_decreasing_order_and_chunks_have_the_size_asked(tables):
    frame, kwargs, path = tables[3]
    with DuckDBEngine(path, label="y", scores=SCORES, **kwargs) as engine:
        chunks = list(engine.groups("s1", chunk=4))
    sizes = [c.score.size for c in chunks]
    assert sizes[:-1] == [4] * (len(sizes) - 1) and 1 <= sizes[-1] <= 4
    scores = np.concatenate([c.score for c in chunks])
    assert (np.diff(scores) < 0).all()


def test_streams_can_be_read_at_once(tables):
    # the report merges the pair groups with the groups of the first score
    frame, kwargs, path = tables[7]
    memory = MemoryEngine(frame, label="y", scores=SCORES, by="seg", **kwargs)
    with DuckDBEngine(path, label="y", scores=SCORES, by="seg", **kwargs) as engine:
        streams = [engine.pair_groups("s1", "s2", chunk=3), engine.groups("s1", chunk=2),
                   engine.groups("s2", by="seg", chunk=5)]
        out: list[list] = [[], [], []]
        live = set(range(3))
        while live:
            for i in sorted(live):
                try:
                    out[i].append(next(streams[i]))
                except StopIteration:
                    live.discard(i)
    assert_chunks_equal(out[0], list(memory.pair_groups("s1", "s2", chunk=3)), False)
    assert_chunks_equal(out[1], list(memory.groups("s1", chunk=2)), False)
    assert_chunks_equal(out[2], list(memory.groups("s2", by="seg", chunk=5)), False)


def test_rechunk_cuts_exactly():
    parts = [{"a": np.arange(k)} for k in (0, 5, 1, 0, 7, 2)]
    out = list(_rechunk(iter(parts), 4))
    assert [c["a"].size for c in out] == [4, 4, 4, 3]
    assert np.concatenate([c["a"] for c in out]).tolist() == [
        *range(5), 0, *range(7), 0, 1]


def test_int64_scores_keep_their_type_and_order():
    big = 2**62
    frame = pd.DataFrame({"y": [1, 0, 1, 0, 1], "s": np.array(
        [big + 3, big + 2, big + 1, big + 1, big], dtype=np.int64)})
    with DuckDBEngine(frame, label="y", scores="s") as engine:
        (g,) = engine.groups("s")
        assert g.score.dtype == np.int64
        assert g.score.tolist() == [big + 3, big + 2, big + 1, big]  # float64: all one
        assert g.pos.tolist() == [1, 0, 1, 1] and g.neg.tolist() == [0, 1, 1, 0]
        assert engine.summary().distinct == {"s": 4}


# A wiring test, kept: the same accumulators on both sides; it checks that the report
# reads a file through DuckDB as it reads a DataFrame in memory (and records the input).
@pytest.mark.parametrize("seed", range(12))
def test_report_through_duckdb_equals_report_in_memory(tables, seed):
    from course_lib.report import report

    frame, kwargs, path = tables[seed]
    args = dict(label="y", scores=list(SCORES), by="seg", **kwargs)
    if kwargs.get("weight") and seed % 3 == 2:  # fractional weights: sampling weights
        args.update(weight_kind="sampling", replicates=30, min_class=2)
    ours = report(str(path), engine="duckdb", **args).data
    theirs = report(frame, engine="memory", **args).data
    for key in ("summary", "scores", "comparison", "segments"):
        if kwargs.get("weight") and seed % 3 == 2:
            assert _close(ours[key], theirs[key]), key
        else:
            assert ours[key] == theirs[key], key
    assert ours["inputs"] == [{"path": str(path), "sha256": sha256(path),
                               "rows": len(frame)}]


def _close(a, b) -> bool:
    """Equal, floats to 1e-9 relative (fractional weights add up in another order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, z) for x, z in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-12, nan_ok=True)
    return a == b


# --------------------------------------------------------------------------- sources


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write(frame: pd.DataFrame, path: Path, fmt: str = "parquet") -> Path:
    con = duckdb.connect()
    con.register("f", frame)
    option = "FORMAT parquet" if fmt == "parquet" else "FORMAT csv, HEADER true"
    con.execute(f"COPY f TO '{path.as_posix()}' ({option})")
    con.close()
    return path


SMALL = pd.DataFrame({"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.9, 0.4, 0.4, 0.7, 0.2]})


def test_a_glob_of_parquet_files_records_each_file(tmp_path):
    a = write(SMALL.iloc[:4], tmp_path / "part-1.parquet")
    b = write(SMALL.iloc[4:], tmp_path / "part-2.parquet")
    with DuckDBEngine(str(tmp_path / "part-*.parquet"), label="y", scores="p") as engine:
        assert engine.summary().rows == 6
        assert engine.inputs() == [
            {"path": str(a), "sha256": sha256(a), "rows": 4},
            {"path": str(b), "sha256": sha256(b), "rows": 2},
        ]
        (g,) = engine.groups("p")
        assert g.score.tolist() == [0.9, 0.7, 0.4, 0.2, 0.1]
        assert g.pos.tolist() == [1, 1, 1, 0, 0] and g.neg.tolist() == [0, 0, 1, 1, 1]


def test_csv_and_a_table_of_a_duckdb_file(tmp_path):
    csv = write(SMALL, tmp_path / "scores.csv", "csv")
    db = tmp_path / "models.duckdb"
    con = duckdb.connect(str(db))
    con.register("f", SMALL)
    con.execute("CREATE SCHEMA risk; CREATE TABLE risk.scores AS SELECT * FROM f")
    con.close()
    expected = MemoryEngine(SMALL, label="y", scores="p").summary()
    for data, path in ((csv, str(csv)), (f"{db}:risk.scores", f"{db}:risk.scores")):
        with DuckDBEngine(data, label="y", scores="p") as engine:
            assert engine.summary() == expected
            source = csv if path == str(csv) else db
            assert engine.inputs() == [{"path": path, "sha256": sha256(source), "rows": 6}]
    with pytest.raises(ValueError, match="cannot read the table 'nope'"):
        DuckDBEngine(f"{db}:nope", label="y", scores="p")


def test_a_dataframe_is_recorded_as_the_memory_engine_records_it():
    with DuckDBEngine(SMALL, label="y", scores="p") as engine:
        assert engine.inputs() == MemoryEngine(SMALL, label="y", scores="p").inputs()


def test_nothing_is_left_on_a_given_connection():
    con = duckdb.connect()
    con.execute("CREATE TABLE scores AS SELECT * FROM SMALL")
    before = con.execute("SELECT table_name FROM duckdb_tables() UNION ALL "
                         "SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()
    with DuckDBEngine("scores", label="y", scores="p", connection=con) as engine:
        list(engine.groups("p"))
        assert engine.inputs() == [{"path": "scores", "sha256": None, "rows": 6}]
    after = con.execute("SELECT table_name FROM duckdb_tables() UNION ALL "
                        "SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()
    assert before == after


# ------------------------------------------------------------------- names and quoting


ODD = 'risk "score", v2 -- final'
INJECT = 'y" FROM scores; DROP TABLE scores; --'


def test_a_name_that_needs_quoting_works(tmp_path):
    frame = SMALL.rename(columns={"p": ODD, "y": "Default Flag"})
    path = write(frame, tmp_path / "odd.parquet")
    for data in (frame, str(path)):
        with DuckDBEngine(data, label="default flag", scores=ODD) as engine:
            (g,) = engine.groups(ODD)
            assert g.score.tolist() == [0.9, 0.7, 0.4, 0.2, 0.1]
            assert engine.summary().positives == 3


def test_a_name_that_tries_to_inject_sql_is_only_a_missing_column():
    con = duckdb.connect()
    con.execute("CREATE TABLE scores AS SELECT * FROM SMALL")
    for kwargs in ({"label": INJECT, "scores": "p"}, {"label": "y", "scores": INJECT},
                   {"label": "y", "scores": "p", "weight": INJECT},
                   {"label": "y", "scores": "p", "by": INJECT}):
        with pytest.raises(ValueError, match="no .* column 'y\" FROM scores"):
            DuckDBEngine("scores", connection=con, **kwargs)
    with pytest.raises(ValueError, match="neither a table name"):
        DuckDBEngine("scores; DROP TABLE scores", label="y", scores="p", connection=con)
    assert con.execute("SELECT COUNT(*) FROM scores").fetchone() == (6,)
    # and a column that really has that name is read like any other
    frame = SMALL.rename(columns={"p": INJECT})
    with DuckDBEngine(frame, label="y", scores=INJECT) as engine:
        assert engine.summary().distinct == {INJECT: 5}
    assert con.execute("SELECT COUNT(*) FROM scores").fetchone() == (6,)


# ------------------------------------------------------------------------- bad input


def bad_parquet(tmp_path: Path, frame: pd.DataFrame, name: str = "bad.parquet") -> str:
    return str(write(frame, tmp_path / name))


@pytest.mark.parametrize(
    "frame, kwargs, message",
    [
        (SMALL, {"scores": "q"}, r"no score column 'q' in the data \(its columns: 'y', 'p'\)"),
        (SMALL, {"label": "target"}, "no label column 'target'"),
        (SMALL, {"weight": "w"}, "no weight column 'w'"),
        (SMALL.assign(y=[0, 1, 2, 0, 1, 0]), {}, "the label must be binary: found 3"),
        (SMALL.assign(y=["a", "b", "c", "a", "b", "a"]), {"pos_label": "a"},
         "the label must be binary"),
        (SMALL.assign(y=["no", "yes"] * 3), {"pos_label": "maybe"},
         "pos_label 'maybe' is not a value of the label"),
        (SMALL.assign(p=[0.1, np.inf, 0.3, 0.4, 0.5, 0.6]), {}, "NaN or infinite"),
        (SMALL.assign(p=[0.1, -np.inf, 0.3, 0.4, 0.5, 0.6]), {}, "NaN or infinite"),
        (SMALL.assign(y=0), {}, "no positive samples"),
        (SMALL.assign(y=1), {}, "no negative samples"),
        (SMALL.assign(y=["yes"] * 6), {}, "the label has one value only"),
        (SMALL.iloc[:0], {}, "the data has no rows"),
        (SMALL.assign(p=np.nan), {}, "no row has a label and every score"),
        (SMALL.assign(p=["a", "b", "c", "d", "e", "f"]), {}, "must be numeric; its type is VARCHAR"),
        (SMALL.assign(w=[1, 2, -1, 1, 1, 1.0]), {"weight": "w"}, "negative, NaN or infinite"),
        (SMALL.assign(w=[1, 2, None, 1, 1, 1.0]), {"weight": "w"}, "weight is missing in 1 used"),
        (SMALL.assign(w=0.0), {"weight": "w"}, "every sample weight is zero"),
    ],
)
def test_bad_input_is_a_clear_value_error(tmp_path, frame, kwargs, message):
    args = {"label": "y", "scores": "p", **kwargs}
    for data in (frame, bad_parquet(tmp_path, frame)):
        with pytest.raises(ValueError, match=message):
            DuckDBEngine(data, **args)


BAD_FRAMES = [
    (SMALL, {"scores": "q"}),
    (SMALL, {"label": "target"}),
    (SMALL, {"weight": "w"}),
    (SMALL, {"scores": ["p", "p"]}),
    (SMALL.assign(y=[0, 1, 2, 0, 1, 0]), {}),
    (SMALL.assign(y=["a", "b", "c", "a", "b", "a"]), {"pos_label": "a"}),
    (SMALL.assign(y=list("abcdefg")[:6]), {"pos_label": "a"}),
    (SMALL.assign(y=["no", "yes"] * 3), {"pos_label": "maybe"}),
    (SMALL.assign(p=[0.1, np.inf, 0.3, 0.4, 0.5, -np.inf]), {}),
    (SMALL.assign(y=0), {}),
    (SMALL.assign(y=["yes"] * 6), {}),
    (SMALL.iloc[:0], {}),
    (SMALL.assign(p=np.nan), {}),
    (SMALL.assign(w=[1, 2, -1, 1, np.inf, 1.0]), {"weight": "w"}),
    (SMALL.assign(w=[1, 2, None, 1, 1, 1.0]), {"weight": "w"}),
    (SMALL.assign(w=0.0), {"weight": "w"}),
    (SMALL.assign(Y=1), {"label": "y"}),  # SQL engines do not tell y from Y
]


@pytest.mark.parametrize("case", range(len(BAD_FRAMES)))
def test_memory_and_duckdb_refuse_bad_input_in_the_same_words(case):
    """One wording per refusal (course_lib.report._engine.refuse): the memory engine and
    DuckDB say the same thing of the same DataFrame; a label of three values is not
    binary even with pos_label."""
    frame, kwargs = BAD_FRAMES[case]
    args = {"label": "y", "scores": "p", **kwargs}
    with pytest.raises(ValueError) as memory:
        MemoryEngine(frame, **args)
    with pytest.raises(ValueError) as sql:
        DuckDBEngine(frame, **args)
    assert str(memory.value) == str(sql.value)


def test_every_engine_matches_column_names_without_case():
    frame = SMALL.rename(columns={"y": "Target", "p": "Score"})
    memory = MemoryEngine(frame, label="target", scores="SCORE")
    with DuckDBEngine(frame, label="target", scores="SCORE") as engine:
        assert engine.scores == memory.scores == ("SCORE",)
        assert_summaries_equal(memory.summary(), engine.summary(), True)
        assert_chunks_equal(list(memory.groups("SCORE")), list(engine.groups("SCORE")), False)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.uint32, "Int64", bool])
def test_integer_scores_are_int64_in_every_engine(dtype):
    frame = SMALL.assign(p=pd.array([3, 1, 2, 0, 1, 1], dtype=dtype))
    memory = MemoryEngine(frame, label="y", scores="p")
    with DuckDBEngine(frame, label="y", scores="p") as engine:
        assert_chunks_equal(list(engine.groups("p")), list(memory.groups("p")), False)
        assert next(memory.groups("p")).score.dtype == np.int64
    pairs = next(MemoryEngine(frame.assign(q=frame["p"]), label="y",
                              scores=["p", "q"]).pair_groups("p", "q"))
    assert pairs.score_a.dtype == pairs.score_b.dtype == np.int64


def test_nan_in_a_file_is_refused_not_dropped(tmp_path):
    # in pandas NaN is the missing value (dropped and counted); in Parquet it is a value
    frame = SMALL.assign(p=[0.1, np.nan, 0.3, 0.4, 0.5, 0.6])
    with DuckDBEngine(frame, label="y", scores="p") as engine:
        assert engine.summary().dropped_score == {"p": 1}
    con = duckdb.connect()
    path = tmp_path / "nan.parquet"
    con.execute(f"COPY (SELECT * FROM (VALUES (0, 0.1::DOUBLE), (1, 'nan'::DOUBLE), "
                f"(1, 0.3::DOUBLE)) t(y, p)) TO '{path.as_posix()}' (FORMAT parquet)")
    with pytest.raises(ValueError, match="the score 'p' has 1 NaN or infinite values"):
        DuckDBEngine(str(path), label="y", scores="p")


def test_unreadable_and_missing_files(tmp_path):
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"this is not parquet")
    with pytest.raises(ValueError, match="cannot read .*garbage.parquet"):
        DuckDBEngine(str(garbage), label="y", scores="p")
    with pytest.raises(ValueError, match="cannot read .*missing.parquet.*no such file"):
        DuckDBEngine(str(tmp_path / "missing.parquet"), label="y", scores="p")
    with pytest.raises(ValueError, match="no file matches"):
        DuckDBEngine(str(tmp_path / "none-*.parquet"), label="y", scores="p")
    (tmp_path / "zero.parquet").write_bytes(b"")
    with pytest.raises(ValueError, match="cannot read .*zero.parquet.*too small"):
        DuckDBEngine(str(tmp_path / "zero.parquet"), label="y", scores="p")
    for name, text in (("zero.csv", ""), ("header.csv", "y,p\n")):
        (tmp_path / name).write_text(text)
        with pytest.raises(ValueError, match="the data has no rows"):
            DuckDBEngine(str(tmp_path / name), label="y", scores="p")
    other = tmp_path / "scores.xlsx"
    other.write_bytes(b"x")
    with pytest.raises(ValueError, match="must be Parquet"):
        DuckDBEngine(str(other), label="y", scores="p")
    empty = tmp_path / "empty.parquet"
    write(SMALL.iloc[:0], empty)
    with pytest.raises(ValueError, match="the data has no rows"):
        DuckDBEngine(str(empty), label="y", scores="p")
    locked = write(SMALL, tmp_path / "locked.parquet")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):  # running as root: every file is readable
            pytest.skip("root reads files without permission")
        with pytest.raises(ValueError, match="cannot read .*locked.parquet"):
            DuckDBEngine(str(locked), label="y", scores="p")
    finally:
        locked.chmod(0o644)


def test_bad_arguments_of_groups():
    with DuckDBEngine(SMALL, label="y", scores="p") as engine:
        with pytest.raises(ValueError, match="'q' is not a score"):
            list(engine.groups("q"))
        with pytest.raises(ValueError, match="chunk must be a positive integer"):
            list(engine.groups("p", chunk=0))
        with pytest.raises(ValueError, match="made with by=None"):
            list(engine.groups("p", by="y"))


# --------------------------------------------------------------------------- Spark


@pytest.fixture(scope="module")
def spark_run(spark_session):
    """The run's local[2] Spark session (conftest.py; skipped without Java or pyspark,
    except in CI), with two shuffle partitions."""
    from course_lib.sql import SparkRunner

    before = spark_session.conf.get("spark.sql.shuffle.partitions")
    spark_session.conf.set("spark.sql.shuffle.partitions", "2")
    yield SparkRunner(spark_session)
    spark_session.conf.set("spark.sql.shuffle.partitions", before)


# A wiring test, kept: Spark's groups against DuckDB's (the same accumulators read both).
def test_spark_agrees_with_duckdb(spark_run, tables):
    """Three tables (fractional and integer weights, text labels, int64 scores), each
    read from a Spark DataFrame passed directly (no view made by the user): summary,
    groups, segment and pair groups, rows. Table 1 is also read from a pandas DataFrame
    and from Parquet files; the engine runs the same SQL on whatever view it made of
    them, so there the view itself is compared: the summary and every row (values and
    types) equal DuckDB's, and the inputs recorded (issue 29: the groups of the same SQL
    on the same rows were compared three times)."""
    from course_lib.report._spark import SparkEngine

    session = spark_run.session
    for seed in (1, 5, 6):  # fractional and integer weights, text labels, int64 scores
        frame, kwargs, path = tables[seed]
        # a Spark DataFrame passed directly (no view made by the user), a pandas one,
        # and Parquet files
        sources = (session.read.parquet(str(path)), frame, str(path))
        with DuckDBEngine(frame, label="y", scores=SCORES, by="seg", **kwargs) as duck:
            summary = duck.summary()
            for k, data in enumerate(sources[: 3 if seed == 1 else 1]):
                with SparkEngine(data, label="y", scores=SCORES, by="seg", session=session,
                                 **kwargs) as spark:
                    assert_summaries_equal(spark.summary(), summary, summary.integral)
                    assert_rows_equal(spark.rows(chunk=11), duck.rows())
                    if k > 0:  # the same SQL as for sources[0], on the rows just compared
                        assert spark.scores == SCORES and spark.by == "seg"
                    else:
                        for score in SCORES:
                            for by in (None, "seg"):
                                assert_chunks_equal(
                                    list(spark.groups(score, by=by, chunk=5)),
                                    list(duck.groups(score, by=by, chunk=5)),
                                    summary.weighted)
                        assert_chunks_equal(list(spark.pair_groups("s1", "s2", chunk=7)),
                                            list(duck.pair_groups("s1", "s2", chunk=7)),
                                            summary.weighted)
                    if isinstance(data, str):
                        assert spark.inputs() == [{"path": str(path), "sha256": sha256(path),
                                                   "rows": len(frame)}]
    assert not [t for t in session.catalog.listTables() if "course_lib" in t.name]


def _new_parts_tables(folder: Path) -> tuple[str, str]:
    """Two small Parquet files (issue 27, items 4-5): data with integer weights, bands
    and periods (one period with 3 positive rows), and a baseline."""
    rng = np.random.default_rng(27)
    n = 360
    y = (rng.random(n) < 0.3).astype(int)
    p = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.3 * y - 1.2))), 2)
    when = rng.choice(["2024-H1", "2024-H2", "2025-H1"], n)
    y[(when == "2025-H1") & (np.cumsum((when == "2025-H1") & (y == 1)) > 3)] = 0
    data = pd.DataFrame({"y": y, "p": p, "w": rng.integers(1, 4, n), "when": when,
                         "pool": rng.choice(["x", "y", "z"], n)})
    m = 240
    yb = (rng.random(m) < 0.25).astype(int)
    base = pd.DataFrame({"y": yb, "w": rng.integers(1, 4, m),
                         "p": np.round(1 / (1 + np.exp(-(rng.normal(size=m) + 1.6 * yb - 1.3))), 2)})
    return str(write(data, folder / "data.parquet")), str(write(base, folder / "base.parquet"))


def test_spark_gives_the_memory_engines_json_for_the_new_parts(spark_run, tmp_path):
    """One Spark report with the new options at once (bands, periods, a baseline, integer
    weights) against the memory engine's on the same files: the whole JSON but the
    engine's name. One report only (each costs a dozen Spark jobs): the segments'
    groups are checked above; the bootstrap of sampling weights reads only the engine's
    canonical rows, which ``test_spark_agrees_with_duckdb`` checks, and is the same on
    memory and DuckDB (tests/test_report_weights.py)."""
    from course_lib.report import report

    data, base = _new_parts_tables(tmp_path)
    args = dict(label="y", scores="p", weight="w", bands="pool", period="when",
                baseline=base, min_class=10)
    memory = report(data, engine="memory", **args).data
    spark = report(data, engine="spark", **args).data
    for r in (memory, spark):
        r["options"].pop("engine", None)
    assert spark == memory
    block = memory["scores"]["p"]["calibration_bands"]
    assert block["rule"] == "given" and [b["band"] for b in block["bands"]] == ["x", "y", "z"]
    assert block["omitted"] is None and block["hosmer_lemeshow"]["p_value"] is not None
    assert memory["baseline_test"][0]["p_value"] is not None
    assert [p["interval"] for p in memory["periods"]] == ["delong", "delong", None]
    assert memory["period_psi_reference"] == "baseline"

def test_spark_table_names_quoting_and_bad_input(spark_run):
    from course_lib.report._spark import SparkEngine

    session = spark_run.session
    frame = SMALL.rename(columns={"p": ODD}).assign(y=["no", "yes", "yes", "no", "yes", "no"])
    session.createDataFrame(frame).createOrReplaceTempView("report_scores")
    with SparkEngine("report_scores", label="y", scores=ODD, pos_label="yes",
                     session=session) as engine:
        (g,) = engine.groups(ODD)
        assert g.score.tolist() == [0.9, 0.7, 0.4, 0.2, 0.1]
        assert g.pos.tolist() == [1, 1, 1, 0, 0]
        assert engine.inputs() == [{"path": "report_scores", "sha256": None, "rows": 6}]
    with pytest.raises(ValueError, match="no score column 'y\" FROM"):
        SparkEngine("report_scores", label="y", scores=INJECT, session=session)
    with pytest.raises(ValueError, match="cannot read the table 'no_such_table'"):
        SparkEngine("no_such_table", label="y", scores="p", session=session)
    with pytest.raises(ValueError, match="the label must be binary"):
        SparkEngine(SMALL.assign(y=[0, 1, 2, 0, 1, 0]), label="y", scores="p",
                    session=session)
    with pytest.raises(ValueError, match="NaN or infinite"):
        SparkEngine(SMALL.assign(p=[0.1, np.inf, 0.3, 0.4, 0.5, 0.6]), label="y",
                    scores="p", session=session)
    assert session.catalog.tableExists("report_scores")


def test_groups_type_is_the_protocols():
    with DuckDBEngine(SMALL, label="y", scores="p") as engine:
        assert all(isinstance(g, Groups) for g in engine.groups("p"))


def test_report_closes_the_engines_it_makes_and_leaves_the_callers_open(monkeypatch):
    """report(engine="duckdb") closes its engines (data and baseline: the temporary
    folders go at once, not when the garbage collector finds them); an engine passed in
    stays open for its owner."""
    from course_lib.report import report

    made: list[DuckDBEngine] = []
    original = DuckDBEngine.__init__

    def keep(self, *args, **kwargs):
        made.append(self)  # a reference held: the finalizer cannot be what cleans up
        original(self, *args, **kwargs)

    monkeypatch.setattr(DuckDBEngine, "__init__", keep)
    report(SMALL, label="y", scores="p", engine="duckdb", baseline=SMALL)
    assert len(made) == 2
    for engine in made:
        assert engine._folders == [] and engine._cleanup == [] and engine._tables == {}
    with DuckDBEngine(SMALL, label="y", scores="p") as mine:
        report(None, label="y", scores="p", engine=mine)
        assert mine._folders and all(os.path.isdir(f) for f in mine._folders)
        assert next(mine.groups("p")).score.size == SMALL["p"].nunique()  # still usable
    assert mine._folders == []
    with pytest.raises(ValueError, match="no score column"):  # closed on error too
        report(SMALL, label="y", scores="q", engine="duckdb")
    assert made[-1]._folders == []


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_the_memory_engine_reads_files_as_duckdb_does(tmp_path, fmt):
    """One reader of DATA for every engine (course_lib.report._sources): the memory engine
    reads files, records the same inputs, and refuses NaN in a file in the same words."""
    path = write(SMALL.assign(q=SMALL["p"] * 2), tmp_path / f"d.{fmt}", fmt)
    memory = MemoryEngine(str(path), label="y", scores=["p", "q"])
    with DuckDBEngine(str(path), label="y", scores=["p", "q"]) as engine:
        assert memory.inputs() == engine.inputs()
        assert memory.inputs()[0]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert_summaries_equal(memory.summary(), engine.summary(), True)
        assert_chunks_equal(list(memory.groups("q")), list(engine.groups("q")), False)
    con = duckdb.connect()
    bad = tmp_path / f"nan.{fmt}"
    option = "FORMAT parquet" if fmt == "parquet" else "FORMAT csv, HEADER true"
    con.execute(f"COPY (SELECT * FROM (VALUES (0, 0.1::DOUBLE), (1, 'nan'::DOUBLE), "
                f"(NULL, 'inf'::DOUBLE), (1, 0.3::DOUBLE)) t(y, p)) TO '{bad.as_posix()}' "
                f"({option})")
    with pytest.raises(ValueError) as sql:
        DuckDBEngine(str(bad), label="y", scores="p")
    with pytest.raises(ValueError) as mem:
        MemoryEngine(str(bad), label="y", scores="p")
    assert str(mem.value) == str(sql.value) == (
        "the score 'p' has 1 NaN or infinite values among the rows used; scores must be "
        "finite (a missing score is NULL, or an empty cell)")
