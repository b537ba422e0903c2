"""The Spark engine of the report: the same SQL as DuckDB's, in Spark's dialect.

:class:`SparkEngine` reads a Spark table or view by name, a Spark DataFrame passed
directly (it makes the temporary view itself, under a fresh name, and drops it on
:meth:`~SparkEngine.close`), Parquet or CSV files, or a pandas DataFrame. Each score is
grouped once (``CACHE TABLE``: the groups stay in the executors), and the groups come to
the driver sorted by decreasing score through ``toLocalIterator``, one partition at a
time, cut into chunks of numpy arrays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..sql import SPARK, relation
from ._duckdb import SqlEngine
from ._engine import BOOLEAN_TEXT
from ._refuse import refuse
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
)

__all__ = ["SparkEngine"]


class SparkEngine(SqlEngine):
    """The report's engine on Apache Spark (``pyspark``).

    Parameters
    ----------
    data : str, pyspark.sql.DataFrame, pandas.DataFrame, or paths
        A table or view name of the session (``name`` or ``db.name``), a Spark
        DataFrame, a pandas DataFrame, or Parquet or CSV files (a path, a glob, a list).
    label, scores, weight, by, pos_label
        As for :class:`~course_lib.report._duckdb.DuckDBEngine`.
    session : pyspark.sql.SparkSession, optional
        The session (default: the active one, else a new ``local[2]`` session).
    sep, decimal : str, optional
        The separator and the decimal mark of CSV files (refused for other data).

    CSV files are read as DuckDB reads them (:func:`_as_duckdb_reads`): the same
    column names (a quote doubled inside a quoted header is one quote), and a column
    DuckDB reads as booleans (``yes``/``no``, ``t``/``f``) or as numbers with a decimal
    comma is turned into booleans or numbers here too, so the engines see the same
    label values and the same scores.

    Raises
    ------
    ValueError
        As :class:`~course_lib.report._duckdb.DuckDBEngine` does, and for a table the
        session does not have.
    """

    dialect = SPARK

    def __init__(self, data: Any, *, label: str, scores: str | Sequence[str],
                 weight: str | None = None, by: str | None = None, pos_label: Any = None,
                 session: Any = None, sep: str | None = None,
                 decimal: str | None = None, bands: str | None = None,
                 period: str | None = None) -> None:
        from pyspark.errors import PySparkException
        from pyspark.sql import SparkSession

        self._error = PySparkException
        self._csv = {"sep": sep, "decimal": decimal}
        self._tables = {}
        self._views: list[str] = []
        self._inputs: list[InputFile] = []
        if session is None:
            session = SparkSession.getActiveSession()
        if session is None:
            from ..sql import SparkRunner

            session = SparkRunner.start("local[2]", quiet=True).session
        self.session = session
        self._open(data, label=label, scores=scores, weight=weight, by=by,
                   pos_label=pos_label, bands=bands, period=period)

    def _read(self, data: Any) -> str:
        from pyspark.sql import DataFrame

        source = classify(data)
        csv_only(source, **self._csv)
        view = fresh_name()
        csv = {"header": True, "inferSchema": True, "escape": '"',
               "sep": self._csv["sep"] or ","}
        if isinstance(source, pd.DataFrame):
            self._inputs = [InputFile(None, frame_sha256(source), len(source))]
            if len(source) == 0 or not len(source.columns):
                raise refuse.no_rows()
            frame = _missing_as_null(self.session.createDataFrame(_none_for_missing(source)))
        elif isinstance(source, DataFrame):
            frame = source
        elif isinstance(source, FileSource):
            reader = self.session.read
            try:
                for path in source.paths:
                    one = reader.parquet(path) if source.kind == "parquet" else reader.csv(
                        path, **csv)
                    self._inputs.append(InputFile(path, sha256_of(path), int(one.count())))
                paths = list(source.paths)
                frame = reader.parquet(*paths) if source.kind == "parquet" else reader.csv(
                    paths, **csv)
            except self._error as exc:
                raise ValueError(f"cannot read the data: {first_line(exc)}") from None
            if source.kind == "csv":
                frame = _as_duckdb_reads(frame, source.paths, **self._csv)
        elif isinstance(source, DatabaseTable):
            raise ValueError("a DuckDB database file is read with engine='duckdb'")
        elif isinstance(source, str):
            table = relation(source, label="y", score="s", dialect=SPARK).source  # validated
            try:
                frame = self.session.sql(f"SELECT * FROM {table}")
                rows = int(frame.count())
            except self._error as exc:
                raise ValueError(f"cannot read the table {source!r}: {first_line(exc)}") from None
            self._inputs = [InputFile(source, None, rows)]
        else:
            raise ValueError(
                "DATA must be a Spark table name or DataFrame, a pandas DataFrame, or Parquet "
                f"or CSV files, got {type(source).__name__}")
        frame.createOrReplaceTempView(view)
        self._views.append(view)
        if not self._inputs:
            self._inputs = [InputFile(None, None, int(frame.count()))]
        return view

    # ------------------------------------------------------------------- SqlEngine

    def _columns(self, view: str) -> list[tuple[str, str]]:
        schema = self.session.table(view).schema
        return [(f.name, f.dataType.simpleString()) for f in schema.fields]

    def _fetch(self, sql: str) -> list[tuple]:
        try:
            return [tuple(r) for r in self.session.sql(sql).collect()]
        except self._error as exc:
            raise ValueError(f"cannot read the data: {first_line(exc)}") from None

    def _stream(self, sql: str, chunk: int) -> Iterator[dict[str, np.ndarray]]:
        frame = self.session.sql(sql)
        names = frame.columns
        rows: list[tuple] = []
        for row in frame.toLocalIterator(prefetchPartitions=True):
            rows.append(tuple(row))
            if len(rows) == chunk:
                yield _columns(names, rows)
                rows = []
        if rows:
            yield _columns(names, rows)

    def _keep_sorted(self, select: str, order: str) -> tuple[str, str]:
        """Cache the groups in the executors (``CACHE TABLE``); each pass sorts them."""
        name = relation(fresh_name("course_lib_groups"), label="y", score="s",
                        dialect=SPARK).source
        self.session.sql(f"CACHE TABLE {name} AS {select}")
        return name, f"SELECT * FROM {name} ORDER BY {order}"

    def _drop(self, name: str) -> None:
        self.session.sql(f"UNCACHE TABLE IF EXISTS {name}")
        self.session.sql(f"DROP VIEW IF EXISTS {name}")

    def close(self) -> None:
        """Uncache and drop the groups and the temporary view made for the data."""
        super().close()
        for view in self._views:
            self.session.catalog.dropTempView(view)
        self._views.clear()


def _none_for_missing(frame: pd.DataFrame) -> pd.DataFrame:
    """The DataFrame with None for the missing values of its non-numeric columns:
    Spark would otherwise read a missing value of a text column as the text 'nan'."""
    out = frame.copy(deep=False)
    for name in frame.columns:
        col = frame[name]
        if col.dtype.kind not in "iufb" and bool(col.isna().any()):
            out[name] = pd.Series(
                [None if m else v for v, m in zip(col.tolist(), col.isna().tolist())],
                index=col.index, dtype=object)
    return out


def _missing_as_null(frame: Any) -> Any:
    """A Spark DataFrame made from pandas with its NaN as NULL: in pandas NaN is the
    missing value, and the memory and DuckDB engines read it so."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, FloatType

    cols = []
    for field in frame.schema.fields:
        col = F.col("`" + field.name.replace("`", "``") + "`")
        if isinstance(field.dataType, (DoubleType, FloatType)):
            col = F.when(F.isnan(col), F.lit(None)).otherwise(col).alias(field.name)
        cols.append(col)
    return frame.select(*cols)


def _as_duckdb_reads(frame: Any, paths: Sequence[str], *, sep: str | None,
                     decimal: str | None) -> Any:
    """The Spark DataFrame of CSV ``paths`` with DuckDB's reading of them: DuckDB's
    column names (when the two readers found as many columns), DuckDB's booleans
    (a text column DuckDB reads as BOOLEAN is mapped by :data:`BOOLEAN_TEXT`) and
    numbers (a text column DuckDB reads as a number, a decimal comma made a point).
    DuckDB only sniffs the files here (``DESCRIBE``); the rows stay in Spark."""
    import duckdb
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    con = duckdb.connect()
    try:
        described = con.execute(
            f"DESCRIBE SELECT * FROM {duckdb_reader('csv', list(paths), sep=sep, decimal=decimal)}"
        ).fetchall()
    except duckdb.Error:  # DuckDB cannot read them: leave Spark's reading alone
        return frame
    finally:
        con.close()
    names = [str(r[0]) for r in described]
    types = [str(r[1]).upper() for r in described]
    fields = frame.schema.fields
    if len(fields) != len(names):
        return frame
    cols = []
    for field, name, kind in zip(fields, names, types):
        col = F.col("`" + field.name.replace("`", "``") + "`")
        if isinstance(field.dataType, StringType):
            if kind == "BOOLEAN":
                text = F.lower(F.trim(col))
                mapped = F.lit(None).cast("boolean")
                for word, value in BOOLEAN_TEXT.items():
                    mapped = F.when(text == word, F.lit(value)).otherwise(mapped)
                col = mapped
            elif kind in ("BIGINT", "INTEGER", "SMALLINT", "TINYINT", "HUGEINT") or kind.startswith(
                    ("DOUBLE", "FLOAT", "DECIMAL")):
                text = F.trim(col)
                if decimal == ",":
                    text = F.regexp_replace(text, ",", ".")
                col = text.cast("bigint" if "INT" in kind else "double")
        cols.append(col.alias(name))
    return frame.select(*cols)


def _columns(names: list[str], rows: list[tuple]) -> dict[str, np.ndarray]:
    columns = list(zip(*rows))
    out: dict[str, np.ndarray] = {}
    for name, values in zip(names, columns):
        if name == "b_":
            out[name] = np.array(list(values) + [None], dtype=object)[:-1]
        else:
            out[name] = np.array(values)
    return out
