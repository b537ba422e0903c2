"""The DuckDB engine of the report (the embedded default), and what it shares with Spark.

The rows stay in the engine. Two scans validate them (the label's extreme values and the
counts of rows read and dropped; then the label's other values, the class totals, NaN
or infinite scores, bad weights, the score ranges). Then, for each score column, DuckDB
runs **one** ``GROUP BY score`` over the rows used (label and every score present),
sorts the groups by decreasing score and writes them once to an uncompressed Parquet
file of the engine's temporary folder, all three steps spilling to ``temp_directory``
beyond ``memory_limit``. The summary's distinct and tied counts are read from that file,
and every pass of :meth:`SqlEngine.groups` streams it back in its order, in chunks of
numpy arrays, on a cursor of its own (the report reads two streams at once): Python
holds one chunk at a time, so a table of 10^8 distinct scores never sits in Python
memory, and no window runs over every distinct score. Segments (``by``) and the pairs of
two scores (:meth:`SqlEngine.pair_groups`) are grouped, sorted and kept the same way.

The score keeps its type: integer columns are read as BIGINT (int64 in numpy), floating
and decimal columns as DOUBLE (``+ 0`` turns -0.0 into 0.0, so the two are one group, as
numpy compares them). Every column name goes through :func:`course_lib.sql.relation`'s
quoting, so a name that needs quoting works and a name that tries to inject SQL is only
a column that does not exist.

:class:`SqlEngine` is the part written once for both SQL dialects; :class:`DuckDBEngine`
adds reading the data and streaming a query's result with ``fetch_df_chunk``.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any, Self

import numpy as np
import pandas as pd

from .._checks import need_classes
from ..sql import DUCKDB, Dialect, relation
from ._engine import (
    CHUNK,
    Groups,
    PairGroups,
    Rows,
    Summary,
    check_chunk,
    match_column,
    plain_label,
    positive_class,
    refuse,
    score_names,
)
from ._sources import (
    DatabaseTable,
    FileSource,
    InputFile,
    classify,
    csv_only,
    duckdb_reader,
    first_line,
    frame_sha256,
    fresh_name,
    sha256_of,
    sql_string,
)

__all__ = ["SqlEngine", "DuckDBEngine", "DEFAULT_MEMORY_LIMIT"]

#: DuckDB's memory limit when the caller gives none (DuckDB's own default is 80 % of the
#: machine's memory): beyond it, grouping and sorting spill to the temporary directory.
DEFAULT_MEMORY_LIMIT = "2GB"

_INTEGER = re.compile(
    r"(tinyint|smallint|integer|int|bigint|long|short|byte|int[1248]|utinyint|usmallint"
    r"|uinteger|ubigint|hugeint|uhugeint)", re.IGNORECASE)
_FLOAT = re.compile(r"(float|double|real|float[48])", re.IGNORECASE)
_DECIMAL = re.compile(r"(decimal|numeric)(\(\s*\d+\s*,\s*\d+\s*\))?", re.IGNORECASE)
_BOOLEAN = re.compile(r"(boolean|bool)", re.IGNORECASE)


def _kind(sql_type: str) -> str | None:
    """"int", "float" (also decimal), "bool", or None for a type that is not numeric."""
    t = sql_type.strip()
    if _INTEGER.fullmatch(t):
        return "int"
    if _FLOAT.fullmatch(t) or _DECIMAL.fullmatch(t):
        return "float"
    if _BOOLEAN.fullmatch(t):
        return "bool"
    return None


def _literal(value: Any, dialect: Dialect) -> str:
    """A SQL literal for a label value (``pos_label``): a string, a bool or a number.

    >>> _literal("it's", DUCKDB), _literal(1, DUCKDB), _literal(True, DUCKDB)
    ("'it''s'", '1', 'TRUE')
    """
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise ValueError(f"pos_label must be finite, got {value!r}")
        return repr(float(value))
    if isinstance(value, str):
        if dialect.name == "spark":  # a backslash escapes the next character
            if "\x00" in value:
                raise ValueError(f"pos_label cannot contain a NUL character: {value!r}")
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return sql_string(value)
    raise ValueError(
        f"pos_label must be a string, a bool or a number, got {type(value).__name__}"
    )


def _rechunk(parts: Iterator[dict[str, np.ndarray]], chunk: int) -> Iterator[dict[str, np.ndarray]]:
    """Cut a stream of column chunks (dicts of equal-length arrays) into chunks of
    exactly ``chunk`` rows (the last may be shorter); empty parts are skipped."""
    held: list[dict[str, np.ndarray]] = []
    size = 0
    for part in parts:
        n = len(next(iter(part.values())))
        if n == 0:
            continue
        held.append(part)
        size += n
        while size >= chunk:
            whole = held[0] if len(held) == 1 else {
                k: np.concatenate([h[k] for h in held]) for k in held[0]}
            yield {k: v[:chunk] for k, v in whole.items()}
            rest = {k: v[chunk:] for k, v in whole.items()}
            size -= chunk
            held = [rest] if size else []
    if size:
        yield held[0] if len(held) == 1 else {
            k: np.concatenate([h[k] for h in held]) for k in held[0]}


class SqlEngine:
    """An engine over rows kept in a SQL engine (the part DuckDB and Spark share).

    A subclass sets ``dialect`` and implements ``_fetch`` (one statement, all its rows),
    ``_stream`` (one statement over kept groups, its rows as chunks of numpy columns;
    several streams may be read at once), ``_keep_sorted``
    (store a query's result; return SQL for it as a table and SQL that reads it in a
    given order), ``_drop`` (forget what ``_keep_sorted`` stored) and
    ``_columns`` (the source's column names and SQL types), then calls
    :meth:`_prepare` with the name of a view of the rows.
    """

    dialect: Dialect = DUCKDB
    scores: tuple[str, ...]
    by: str | None
    _inputs: list[InputFile]

    # --------------------------------------------------------------- engine specific

    def _fetch(self, sql: str) -> list[tuple]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _stream(self, sql: str, chunk: int) -> Iterator[dict[str, np.ndarray]]:  # pragma: no cover
        raise NotImplementedError

    def _keep_sorted(self, select: str, order: str) -> tuple[str, str]:  # pragma: no cover
        raise NotImplementedError

    def _drop(self, name: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _columns(self, view: str) -> list[tuple[str, str]]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read(self, data: Any) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def inputs(self) -> list[dict[str, Any]]:
        """What was read, one dict per input: ``{"path", "sha256", "rows"}`` (a Spark
        table has its name as path and no SHA-256; a Spark DataFrame neither)."""
        return [i.as_dict() for i in self._inputs]

    def close(self) -> None:
        """Drop the temporary tables of the groups."""
        for table, _ in self._tables.values():
            self._drop(table)
        self._tables.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _open(self, data: Any, **columns: Any) -> None:
        """Read DATA (:meth:`_read`, a view of it) and validate it (:meth:`_prepare`
        with ``label, scores, weight, by, pos_label``); on any error close what was
        made and raise."""
        try:
            if isinstance(data, pd.DataFrame):  # the names as the frame has them, before
                # the engine renames columns that differ only in case (y, Y -> y, Y_1)
                stored = [str(c) for c in data.columns]
                for what, key in (("label", "label"), ("weight", "weight"), ("segment", "by"),
                                  ("bands", "bands"), ("period", "period")):
                    if columns.get(key) is not None:
                        match_column(what, columns[key], stored)
                for name in score_names(columns["scores"]):
                    match_column("score", name, stored)
            self._prepare(self._read(data), **columns)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------- validation

    def _prepare(self, view: str, *, label: str, scores: str | Sequence[str],
                 weight: str | None, by: str | None, pos_label: Any,
                 bands: str | None = None, period: str | None = None) -> None:
        """Check the columns and the data, and build the SQL of the rows used."""
        names = score_names(scores)
        self.scores = names
        self.by = by
        self._tables: dict[tuple[str, str | None], tuple[str, str]] = {}
        self._summary: Summary | None = None
        d = self.dialect
        cols = self._columns(view)
        stored = [c for c, _ in cols]
        types = {c: t for c, t in cols}

        def quoted(name: str, what: str) -> tuple[str, str]:
            """The column's quoted identifier (by relation()'s rules) and its SQL type."""
            real = match_column(what, name, stored)
            return relation(view, label=real, score=f"{real}_", dialect=d).label, types[real]

        self._view = relation(view, label="y", score="s", dialect=d).source
        self._label, _ = quoted(label, "label")
        self._score_sql: dict[str, str] = {}
        self._score_kind: dict[str, str] = {}
        used = [f"{self._label} IS NOT NULL"]
        dropped = []
        for name in names:
            q, t = quoted(name, "score")
            kind = _kind(t)
            if kind is None:
                raise refuse.not_numeric("score", name, f"its type is {t}")
            self._score_kind[name] = "float" if kind == "float" else "int"
            self._score_sql[name] = (
                f"(CAST({q} AS DOUBLE) + 0)" if kind == "float" else f"CAST({q} AS BIGINT)")
            dropped.append(f"{' AND '.join(used)} AND {q} IS NULL")
            used.append(f"{q} IS NOT NULL")
        self._weight = None
        if weight is not None:
            q, t = quoted(weight, "weight")
            if _kind(t) is None:
                raise refuse.not_numeric("weight", weight, f"its type is {t}")
            self._weight = f"CAST({q} AS DOUBLE)"
        self._by = None
        if by is not None:
            self._by, _ = quoted(by, "segment")
        # the other columns the groups can be split by (bands, period), by name
        self.bands, self.period = bands, period
        self._split_sql = {c: quoted(c, what)[0] for c, what in ((bands, "bands"),
                                                                  (period, "period"))
                           if c is not None}
        self._used = " AND ".join(used)
        self._aliases = {name: f"s{i}_" for i, name in enumerate(names)}

        self._check_values(dropped, pos_label)

    def _rows_sql(self, *scores: str, by: bool | str = False) -> str:
        """The rows used: y (0/1), the scores asked for, w and the segment b_."""
        cols = [f"{self._y} AS y"]
        cols += [f"{self._score_sql[n]} AS {self._aliases[n]}" for n in scores]
        if self._weight is not None:
            cols.append(f"{self._weight} AS w")
        if by:
            cols.append(f"{self._by if by is True else self._split_sql[str(by)]} AS b_")
        return f"SELECT {', '.join(cols)} FROM {self._view} WHERE {self._used}"

    def _class_sums(self) -> tuple[str, str]:
        if self._weight is None:
            return "CAST(SUM(y) AS BIGINT)", "CAST(COUNT(*) - SUM(y) AS BIGINT)"
        return ("SUM(CASE WHEN y = 1 THEN w ELSE 0.0 END)",
                "SUM(CASE WHEN y = 1 THEN 0.0 ELSE w END)")

    def _check_values(self, dropped: list[str], pos_label: Any) -> None:
        """Two passes over the rows: counts and the label's extreme values, then the
        label's other values, the class totals, bad scores and weights, score ranges."""
        d, lab, used = self.dialect, self._label, self._used
        head = self._fetch(
            f"SELECT COUNT(*), COUNT(*) FILTER (WHERE {lab} IS NULL), "
            f"{''.join(f'COUNT(*) FILTER (WHERE {c}), ' for c in dropped)}"
            f"MIN({lab}) FILTER (WHERE {used}), MAX({lab}) FILTER (WHERE {used}) "
            f"FROM {self._view}")[0]
        self._rows, self._dropped_label = int(head[0]), int(head[1])
        self._dropped_score = {n: int(v) for n, v in zip(self.scores, head[2:-2])}
        if self._rows == 0:
            raise refuse.no_rows()
        lo, hi = (float(v) if isinstance(v, Decimal) else v for v in head[-2:])
        if lo is None:
            raise refuse.no_used_rows(self._rows, self._dropped_label)
        if any(isinstance(v, float) and math.isnan(v) for v in (lo, hi)):
            raise ValueError("the label has NaN values (a missing label is NULL)")
        lo_sql, hi_sql = _literal(lo, d), _literal(hi, d)
        w = self._weight if self._weight is not None else "1"
        cols = [f"COUNT(*) FILTER (WHERE {lab} <> {lo_sql} AND {lab} <> {hi_sql})",
                f"SUM(CASE WHEN {lab} = {hi_sql} THEN {w} ELSE 0 END)",
                f"SUM(CASE WHEN {lab} = {hi_sql} THEN 0 ELSE {w} END)",
                f"COUNT(*) FILTER (WHERE {lab} = {hi_sql})", "COUNT(*)"]
        for n in self.scores:
            x = self._score_sql[n]
            if self._score_kind[n] == "float":
                cols.append(f"COUNT(*) FILTER (WHERE NOT {d.is_finite.format(x=x)})")
            else:
                cols.append("0")
            cols += [f"MIN({x})", f"MAX({x})"]
        if self._weight is not None:
            finite = d.is_finite.format(x=self._weight)
            cols += [f"COUNT(*) FILTER (WHERE {self._weight} IS NULL)",
                     f"COUNT(*) FILTER (WHERE {self._weight} IS NOT NULL AND "
                     f"(NOT {finite} OR {self._weight} < 0))",
                     f"COUNT(*) FILTER (WHERE {finite} AND {self._weight} <> FLOOR({self._weight}))"]
        row = self._fetch(f"SELECT {', '.join(cols)} FROM {self._view} WHERE {used}")[0]
        if row[0]:
            (k,), = self._fetch(f"SELECT COUNT(DISTINCT {lab}) FROM {self._view} WHERE {used}")
            some = self._fetch(f"SELECT DISTINCT {lab} FROM {self._view} WHERE {used} "
                               f"ORDER BY {lab} LIMIT 5")
            raise refuse.not_binary(int(k), [v[0] for v in some])
        positive = positive_class([lo] if lo == hi else [lo, hi], pos_label)
        high, other = row[1], row[2]
        rows_hi, rows_all = int(row[3]), int(row[4])
        if positive is None:  # 0/1 numbers or bools: 1 (True) is positive, if present
            m1, m0 = (high, other) if hi == 1 else (0, high)
            r1 = rows_hi if hi == 1 else 0
            positive = hi
        else:
            m1, m0 = (high, other) if positive == hi else (other, high)
            r1 = rows_hi if positive == hi else rows_all - rows_hi
        self.positive_label: Any = plain_label(positive)
        self.class_rows: tuple[int, int] = (r1, rows_all - r1)
        self._y = f"CASE WHEN {lab} = {_literal(positive, d)} THEN 1 ELSE 0 END"
        self._prob: dict[str, bool] = {}
        for i, n in enumerate(self.scores):
            bad, smin, smax = row[5 + 3 * i: 8 + 3 * i]
            if bad:
                raise refuse.not_finite(n, int(bad))
            self._prob[n] = bool(smin >= 0 and smax <= 1)
        self._integral = True
        if self._weight is not None:
            missing, bad, fractional = row[-3:]
            if missing:
                raise refuse.missing_weight(int(missing))
            if bad:
                raise refuse.bad_weight(int(bad))
            self._m1: int | float = float(m1 or 0.0)
            self._m0: int | float = float(m0 or 0.0)
            self._integral = not fractional and self._m1 + self._m0 < 2**53
        else:
            self._m1, self._m0 = int(m1 or 0), int(m0 or 0)
        need_classes(self._m1, self._m0, "the report", warn=False)

    # ------------------------------------------------------------------- the protocol

    def _grouped(self, score: str, by: bool | str) -> tuple[str, str]:
        """One score's groups (s, pos, neg[, n][, b_]), made once by one ``GROUP BY``:
        SQL for their table and SQL that reads them in the order of :meth:`groups`."""
        key = (score, (self._by if by is True else self._split_sql[str(by)]) if by else None)
        if key not in self._tables:
            a = self._aliases[score]
            pos, neg = self._class_sums()
            keys = f"b_, {a}" if by else a
            count = ", COUNT(*) AS n" if self._weight is not None else ""
            select = (f"SELECT {'b_, ' if by else ''}{a} AS s, {pos} AS pos, {neg} AS neg"
                      f"{count} FROM ({self._rows_sql(score, by=by)}) AS r_ GROUP BY {keys}")
            order = "b_ ASC NULLS LAST, s DESC" if by else "s DESC"
            self._tables[key] = self._keep_sorted(select, order)
        return self._tables[key]

    def _score_name(self, score: str) -> str:
        if score not in self._aliases:
            raise refuse.not_a_score(score, self.scores)
        return score

    def summary(self) -> Summary:
        """Rows read, used and dropped, class totals, distinct and tied scores.

        Runs the ``GROUP BY`` of each score (kept for :meth:`groups`)."""
        if self._summary is None:
            distinct, tied = {}, {}
            for n in self.scores:
                size = "n" if self._weight is not None else "pos + neg"
                ((k, t),) = self._fetch(
                    f"SELECT COUNT(*), COALESCE(SUM(CASE WHEN {size} > 1 THEN {size} ELSE 0 "
                    f"END), 0) FROM {self._grouped(n, False)[0]}")
                distinct[n], tied[n] = int(k), int(t)
            self._summary = Summary(
                rows=self._rows,
                used=self._used_rows(),
                dropped_label=self._dropped_label,
                dropped_score=dict(self._dropped_score),
                positives=self._m1,
                negatives=self._m0,
                weighted=self._weight is not None,
                integral=self._integral,
                distinct=distinct,
                tied_rows=tied,
                probabilities=dict(self._prob),
            )
        return self._summary

    def _used_rows(self) -> int:
        return self._rows - self._dropped_label - sum(self._dropped_score.values())

    def groups(self, score: str, *, by: str | None = None, chunk: int = CHUNK) -> Iterator[Groups]:
        """Score groups in decreasing score order (per segment with ``by``: segments in
        increasing order, a missing segment last), in chunks of ``chunk`` groups."""
        chunk = check_chunk(chunk)
        a = self._score_name(score)
        if by is not None and by != self.by and by not in self._split_sql:
            raise refuse.other_by(by, self.by)
        _, sql = self._grouped(a, True if by is not None and by == self.by else (by or False))
        kind = self._score_kind[a]
        last: tuple[Any, Any] | None = None
        for part in _rechunk(self._stream(sql, chunk), chunk):
            g = Groups(_as(part["s"], kind), self._counts(part["pos"]),
                       self._counts(part["neg"]), _segments(part["b_"]) if by else None)
            last = _check_order(g, last)
            yield g

    def pair_groups(
        self, score_a: str, score_b: str, *, chunk: int = CHUNK
    ) -> Iterator[PairGroups]:
        """Groups of equal ``(score_a, score_b)``, by ``score_a`` then ``score_b``
        decreasing, in chunks."""
        chunk = check_chunk(chunk)
        a, b = self._score_name(score_a), self._score_name(score_b)
        if a == b:
            raise refuse.same_pair(a)
        pos, neg = self._class_sums()
        ca, cb = self._aliases[a], self._aliases[b]
        select = (f"SELECT {ca} AS sa, {cb} AS sb, {pos} AS pos, {neg} AS neg "
                  f"FROM ({self._rows_sql(a, b)}) AS r_ GROUP BY {ca}, {cb}")
        table, sql = self._keep_sorted(select, "sa DESC, sb DESC")
        try:
            for part in _rechunk(self._stream(sql, chunk), chunk):
                yield PairGroups(_as(part["sa"], self._score_kind[a]),
                                 _as(part["sb"], self._score_kind[b]),
                                 self._counts(part["pos"]), self._counts(part["neg"]))
        finally:
            self._drop(table)

    def rows(self, *, chunk: int = CHUNK) -> Rows:
        """The rows used in the canonical order (see :class:`~._engine.Rows`): sorted
        by every score, the label, the weight (kept as the groups are, spilling beyond
        the memory limit), then read in chunks into numpy arrays."""
        chunk = check_chunk(chunk)
        keys = [self._aliases[n] for n in self.scores] + ["y"]
        if self._weight is not None:
            keys.append("w")
        by = self._by is not None
        table, sql = self._keep_sorted(f"SELECT * FROM ({self._rows_sql(*self.scores, by=by)}) "
                                       "AS r_", ", ".join(f"{k} ASC" for k in keys))
        try:
            parts = list(self._stream(sql, chunk))
        finally:
            self._drop(table)

        def column(name: str) -> np.ndarray:
            if not parts:
                return np.empty(0)
            return np.concatenate([np.asarray(p[name]) for p in parts])

        y = column("y").astype(np.int64) == 1
        scores = {n: _as(column(self._aliases[n]), self._score_kind[n]) for n in self.scores}
        weight = column("w").astype(np.float64) if self._weight is not None else None
        segment = _segments(column("b_")) if by else None
        return Rows(y, scores, weight, segment)

    def _counts(self, values: np.ndarray) -> np.ndarray:
        return np.asarray(values, dtype=np.float64 if self._weight is not None else np.int64)


def _remove_folders(folders: list[str]) -> None:
    """Remove the engine's temporary folders (the list is emptied)."""
    while folders:
        shutil.rmtree(folders.pop(), ignore_errors=True)


def _check_order(g: Groups, last: tuple[Any, Any] | None) -> tuple[Any, Any] | None:
    """Raise unless the groups come in decreasing score order within each segment, from
    one chunk to the next too; return the last (segment, score) seen. A guard: the
    engine reads the groups back in the order it wrote them."""
    s = g.score
    if s.size == 0:
        return last
    if g.segment is None:
        same = np.ones(s.size - 1, dtype=bool)
        first_same = last is not None
    else:
        same = g.segment[1:] == g.segment[:-1]
        first_same = last is not None and _same_segment(last[0], g.segment[0])
    bad = bool(np.any(same & (s[1:] >= s[:-1]))) or bool(first_same and last is not None
                                                         and not s[0] < last[1])
    if bad:
        raise RuntimeError("the engine returned the score groups out of order")
    return (None if g.segment is None else g.segment[-1], s[-1])


def _same_segment(a: Any, b: Any) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a == b)


def _as(values: np.ndarray, kind: str) -> np.ndarray:
    return np.asarray(values, dtype=np.float64 if kind == "float" else np.int64)


def _segments(values: Any) -> np.ndarray:
    """Segment values as an object array, a missing value as None."""
    out = np.asarray(pd.Series(values).astype(object).tolist(), dtype=object)
    if out.ndim != 1:  # pragma: no cover - tuples as segment values
        out = np.array(list(values) + [None], dtype=object)[:-1]
    missing = pd.isna(out)
    if missing.any():
        out[missing] = None
    return out


class DuckDBEngine(SqlEngine):
    """The report's engine on DuckDB (embedded): the rows never enter Python.

    Parameters
    ----------
    data : str, os.PathLike, list of paths, pandas.DataFrame
        A Parquet or CSV file, a glob of them (or a list of paths), a table of a DuckDB
        database file as ``"path/db.duckdb:table"``, a pandas DataFrame, or (with
        ``connection``) the name of a table or view of that connection.
    label : str
        The label column: 0/1 numbers or bools, or any two values (see ``pos_label``).
    scores : str or sequence of str
        One or more numeric score columns (integers are kept as int64).
    weight : str, optional
        A column of finite non-negative weights (missing in a used row: refused).
    by : str, optional
        A segment column for :meth:`groups`; a missing segment value is a segment.
    bands, period : str, optional
        Two more columns :meth:`groups` can split by (``by=bands``), as by ``by``.
    pos_label : optional
        The positive class: needed unless the label is 0/1 numbers or boolean (then 1,
        True, is positive); see :func:`~course_lib.report._engine.positive_class`.
    connection : duckdb.DuckDBPyConnection, optional
        Run on this connection (its settings untouched); default: a new in-memory
        database with ``memory_limit``, ``temp_directory`` and ``threads`` set.
    memory_limit : str, default :data:`DEFAULT_MEMORY_LIMIT`
        DuckDB's memory limit; grouping and sorting spill to disk beyond it.
    temp_directory : str, optional
        Where DuckDB spills (default: a new temporary directory, removed by
        :meth:`close`).
    threads : int, optional
        DuckDB's threads (default: DuckDB's own, one per core).
    sep, decimal : str, optional
        The separator and the decimal mark of CSV files (refused for other data).

    Raises
    ------
    ValueError
        An unreadable file, a missing column, a label that is not binary, NaN or
        infinite scores, missing or negative weights, no rows, one class only.

    Examples
    --------
    >>> df = pd.DataFrame({"y": ["bad", "good", "good", None], "p": [0.2, 0.9, 0.2, 0.5]})
    >>> with DuckDBEngine(df, label="y", scores="p", pos_label="good") as e:
    ...     s = e.summary()
    ...     g = next(e.groups("p"))
    >>> s.rows, s.used, s.dropped_label, s.positives, s.negatives, s.tied_rows
    (4, 3, 1, 2, 1, {'p': 2})
    >>> g.score.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.9, 0.2], [1, 1], [0, 1])
    """

    dialect = DUCKDB

    def __init__(self, data: Any, *, label: str, scores: str | Sequence[str],
                 weight: str | None = None, by: str | None = None, pos_label: Any = None,
                 connection: Any = None, memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
                 temp_directory: str | None = None, threads: int | None = None,
                 sep: str | None = None, decimal: str | None = None,
                 bands: str | None = None, period: str | None = None) -> None:
        import duckdb

        self._duckdb = duckdb
        self._csv = {"sep": sep, "decimal": decimal}
        self._tables = {}
        self._own_temp: str | None = None
        self._group_dir: str | None = None
        # folders of this engine: removed by close(), or when the engine is collected
        # (course_lib.report() makes an engine and drops it), or at exit
        self._folders: list[str] = []
        self._finalizer = weakref.finalize(self, _remove_folders, self._folders)
        self._cleanup: list[str] = []
        self._inputs: list[InputFile] = []
        if connection is None:
            connection = duckdb.connect()
            if temp_directory is None:
                temp_directory = self._own_temp = tempfile.mkdtemp(prefix="course_lib_duckdb_")
                self._folders.append(temp_directory)
            settings = {"temp_directory": temp_directory, "memory_limit": memory_limit,
                        "threads": threads}
            for key, value in settings.items():
                if value is not None:
                    connection.execute(f"SET {key} = {sql_string(str(value))}")
        self.connection = connection
        self._open(data, label=label, scores=scores, weight=weight, by=by,
                   pos_label=pos_label, bands=bands, period=period)

    # ---------------------------------------------------------------------- reading

    def _execute(self, sql: str) -> Any:
        try:
            return self.connection.execute(sql)
        except self._duckdb.OutOfMemoryException as exc:
            raise MemoryError(first_line(exc)) from exc
        except (self._duckdb.IOException, self._duckdb.InvalidInputException,
                self._duckdb.ConversionException) as exc:
            raise ValueError(f"cannot read the data: {first_line(exc)}") from None

    def _read(self, data: Any) -> str:
        """Make a view of DATA on the connection and record its inputs; return its name."""
        source = classify(data)
        csv_only(source, **self._csv)
        view = fresh_name()
        if isinstance(source, pd.DataFrame):
            self.connection.register(view, source)
            self._cleanup.append(f"unregister:{view}")
            self._inputs = [InputFile(None, frame_sha256(source), len(source))]
            return view
        if isinstance(source, FileSource):
            for path in source.paths:
                rows = self._count(duckdb_reader(source.kind, [path], **self._csv), repr(path))
                self._inputs.append(InputFile(path, sha256_of(path), rows))
            if not any(i.rows for i in self._inputs):
                raise refuse.no_rows(", ".join(source.paths))
            return self._view_of(view, duckdb_reader(source.kind, source.paths, **self._csv))
        if isinstance(source, DatabaseTable):
            alias = fresh_name("course_lib_db")
            try:
                self.connection.execute(
                    f"ATTACH {sql_string(source.path)} AS {alias} (READ_ONLY)")
            except self._duckdb.Error as exc:
                raise ValueError(
                    f"cannot read the database {source.path!r}: {first_line(exc)}"
                ) from None
            self._cleanup.append(f"detach:{alias}")
            table = relation(f"{alias}.{source.table}", label="y", score="s").source
            rows = self._count(table, f"the table {source.table!r} of {source.path!r}")
            self._inputs = [InputFile(f"{source.path}:{source.table}", sha256_of(source.path), rows)]
            return self._view_of(view, table)
        if isinstance(source, str):
            table = relation(source, label="y", score="s").source  # validated name
            self._inputs = [InputFile(source, None, self._count(table, repr(source)))]
            return self._view_of(view, table)
        raise ValueError(
            "DATA must be a Parquet or CSV file (or a glob of them), FILE.duckdb:TABLE or a "
            f"pandas DataFrame, got {type(source).__name__}")

    # ------------------------------------------------------------------- SqlEngine

    def _count(self, table: str, shown: str) -> int:
        """The rows of ``table`` (SQL of a relation); a ValueError names ``shown`` when
        DuckDB cannot read it."""
        try:
            ((rows,),) = self.connection.execute(f"SELECT COUNT(*) FROM {table}").fetchall()
        except self._duckdb.Error as exc:
            raise ValueError(f"cannot read {shown}: {first_line(exc)}") from None
        return int(rows)

    def _view_of(self, view: str, table: str) -> str:
        """Make ``view`` (a fresh name) a temporary view of ``table``, dropped by :meth:`close`."""
        q = relation(view, label="y", score="s").source
        self._execute(f"CREATE TEMPORARY VIEW {q} AS SELECT * FROM {table}")
        self._cleanup.append(f"view:{q}")
        return view

    def _columns(self, view: str) -> list[tuple[str, str]]:
        q = relation(view, label="y", score="s").source
        try:
            rows = self.connection.execute(f"DESCRIBE SELECT * FROM {q}").fetchall()
        except self._duckdb.Error as exc:
            raise ValueError(f"cannot read the data: {first_line(exc)}") from None
        return [(str(r[0]), str(r[1])) for r in rows]

    def _fetch(self, sql: str) -> list[tuple]:
        return [tuple(r) for r in self._execute(sql).fetchall()]

    def _stream(self, sql: str, chunk: int) -> Iterator[dict[str, np.ndarray]]:
        """Stream a query over kept groups (Parquet files) on a cursor of its own, so
        that several streams can be read at once (the report merges two)."""
        cursor = self.connection.cursor()
        try:
            with self._insertion_order():
                result = cursor.execute(sql)
            vectors = max(1, -(-chunk // 2048))  # DuckDB hands out vectors of 2048 rows
            while True:
                try:
                    frame = result.fetch_df_chunk(vectors)
                except self._duckdb.OutOfMemoryException as exc:
                    raise MemoryError(first_line(exc)) from exc
                if len(frame) == 0:
                    return
                yield {c: frame[c].to_numpy() for c in frame.columns}
        finally:
            cursor.close()

    def _keep_sorted(self, select: str, order: str) -> tuple[str, str]:
        """Write the groups, sorted, to an uncompressed Parquet file of the engine's
        folder: DuckDB groups (spilling beyond ``memory_limit``), sorts (spilling too)
        and writes once; every pass then reads the file in its order, which DuckDB
        keeps (``preserve_insertion_order``) and :func:`_check_order` checks."""
        path = os.path.join(self._folder(), fresh_name("groups") + ".parquet")
        with self._insertion_order():
            self._execute(f"COPY ({select} ORDER BY {order}) TO {sql_string(path)} "
                          "(FORMAT parquet, COMPRESSION uncompressed)")
        sql = f"SELECT * FROM read_parquet({sql_string(path)})"
        return f"({sql}) AS g_", sql

    def _drop(self, name: str) -> None:
        path = re.search(r"read_parquet\('(.*)'\)", name)
        if path is not None:
            with contextlib.suppress(OSError):
                os.remove(path.group(1).replace("''", "'"))

    def _folder(self) -> str:
        if self._group_dir is None:
            self._group_dir = tempfile.mkdtemp(prefix="course_lib_groups_")
            self._folders.append(self._group_dir)
        return self._group_dir

    @contextlib.contextmanager
    def _insertion_order(self) -> Iterator[None]:
        """``preserve_insertion_order`` on for the statements inside (then restored)."""
        ((before,),) = self.connection.execute(
            "SELECT current_setting('preserve_insertion_order')").fetchall()
        if before:
            yield
            return
        self.connection.execute("SET preserve_insertion_order = true")
        try:
            yield
        finally:
            self.connection.execute("SET preserve_insertion_order = false")

    def close(self) -> None:
        """Drop the temporary tables and views, detach databases, remove the spill
        directory made for this engine. The connection stays open."""
        try:
            super().close()
            for item in reversed(self._cleanup):
                kind, name = item.split(":", 1)
                if kind == "view":
                    self.connection.execute(f"DROP VIEW IF EXISTS {name}")
                elif kind == "unregister":
                    self.connection.unregister(name)
                elif kind == "detach":
                    self.connection.execute(f"DETACH DATABASE IF EXISTS {name}")
            self._cleanup.clear()
        finally:
            _remove_folders(self._folders)
            self._own_temp = self._group_dir = None
