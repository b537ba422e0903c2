"""What the report reads: files, a table of a DuckDB database, a DataFrame, a Spark table.

A DATA argument is turned into a *view* of an engine, under a fresh name that passes the
quoting rules of :func:`course_lib.sql.relation`, so every engine then reads the rows the
same way (``SELECT ... FROM "course_lib_src_<hex>"``) and nothing the user typed is ever
pasted into SQL unquoted:

* a Parquet or CSV file, or a glob of them (``data/part-*.parquet``), all of one format;
* ``path/to/db.duckdb:table`` (or ``:schema.table``): a table of a DuckDB database file,
  attached read-only;
* a :class:`pandas.DataFrame` (the Python API);
* with Spark, a table or view name, or a Spark DataFrame passed directly (no temporary
  view needed from the user).

Each input *file* is recorded (path, SHA-256 of its bytes, rows) for the reproducibility
footer of the report. A DataFrame is not a file: it is recorded with ``sha256`` None.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ._refuse import refuse

__all__ = [
    "InputFile",
    "FileSource",
    "DatabaseTable",
    "classify",
    "sha256_of",
    "frame_sha256",
    "duckdb_reader",
    "check_csv_options",
    "read_frame",
    "sql_string",
    "fresh_name",
    "first_line",
    "PARQUET_SUFFIXES",
    "CSV_SUFFIXES",
    "DATABASE_SUFFIXES",
]

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
CSV_SUFFIXES = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".csv.zst")
DATABASE_SUFFIXES = (".duckdb", ".ddb", ".db")
_TABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")
_GLOB = re.compile(r"[*?\[]")


class InputFile(NamedTuple):
    """One input for the reproducibility footer: its path, the SHA-256 of its bytes
    (None for data that is not a file, such as a DataFrame) and its row count."""

    path: str | None
    sha256: str | None
    rows: int

    def as_dict(self) -> dict[str, Any]:
        """The JSON form used by the report: ``{"path", "sha256", "rows"}``."""
        return {"path": self.path, "sha256": self.sha256, "rows": self.rows}


class FileSource(NamedTuple):
    """Parquet or CSV files, sorted by name, all of one ``kind`` ("parquet" or "csv")."""

    paths: tuple[str, ...]
    kind: str


class DatabaseTable(NamedTuple):
    """A table of a DuckDB database file: ``path`` and ``table`` (``name`` or
    ``schema.name``)."""

    path: str
    table: str


def fresh_name(prefix: str = "course_lib_src") -> str:
    """A new unquoted identifier (letters, digits, ``_``) for a view or an attached
    database, unique in this process.

    >>> fresh_name().startswith("course_lib_src_")
    True
    """
    return f"{prefix}_{uuid.uuid4().hex}"


def first_line(exc: BaseException) -> str:
    """The first line of an engine's error message (its type when it has none), for a
    one-line error of the report."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def sql_string(text: str) -> str:
    """A SQL string literal holding ``text`` (quotes doubled; control characters refused).

    >>> sql_string("it's")
    "'it''s'"
    """
    if "\x00" in text:
        raise ValueError(f"a path cannot contain a NUL character: {text!r}")
    return "'" + text.replace("'", "''") + "'"


def _kind(path: str) -> str | None:
    low = path.lower()
    if low.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if low.endswith(CSV_SUFFIXES):
        return "csv"
    return None


def _database_table(text: str) -> DatabaseTable | None:
    """``db.duckdb:table`` split at its last colon, when the left part names a database
    file (by its suffix, or because it exists and is not Parquet or CSV)."""
    if ":" not in text:
        return None
    path, table = text.rsplit(":", 1)
    if not path or not (path.lower().endswith(DATABASE_SUFFIXES) or (
            os.path.isfile(path) and _kind(path) is None)):
        return None
    if not _TABLE.fullmatch(table):
        raise ValueError(
            f"{text!r}: after the database file comes a table name (letters, digits and "
            f"'_', optionally schema.table), got {table!r}"
        )
    if not os.path.isfile(path):
        raise ValueError(f"cannot read the database file {path!r}: no such file")
    return DatabaseTable(path, table)


def classify(data: Any) -> FileSource | DatabaseTable | Any:
    """Read a DATA argument: files (a path, a glob, or a list of paths), a table of a
    DuckDB database file, or anything else (a DataFrame, a table name), returned as is.

    Parameters
    ----------
    data : str, os.PathLike, list of them, or an object
        A string that names no file, no glob match and no database table is returned
        unchanged (with Spark it is a table name); a string that *looks* like a file
        (by its suffix) but does not exist is an error.

    Returns
    -------
    FileSource, DatabaseTable, or ``data`` itself

    Raises
    ------
    ValueError
        No file matches, a file of an unknown format, Parquet and CSV mixed, or a
        directory.

    Examples
    --------
    >>> classify("no_such_dir/*.parquet")
    Traceback (most recent call last):
    ...
    ValueError: no file matches 'no_such_dir/*.parquet'
    """
    if isinstance(data, (list, tuple)) and data and all(
            isinstance(p, (str, os.PathLike)) for p in data):
        found: list[str] = []
        for p in data:
            found.extend(_expand(os.fspath(p)))
        return _files(sorted(set(found)), repr(list(data)))
    if not isinstance(data, (str, os.PathLike)):
        return data
    text = os.fspath(data)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"DATA must be a path, a glob, a table or a DataFrame, got {data!r}")
    table = _database_table(text)
    if table is not None:
        return table
    if _GLOB.search(text) or os.path.exists(text) or _kind(text) is not None \
            or os.sep in text or isinstance(data, Path):
        return _files(_expand(text), repr(text))
    return data


def _expand(text: str) -> list[str]:
    if _GLOB.search(text):
        paths = sorted(p for p in glob.glob(text, recursive=True))
        if not paths:
            raise ValueError(f"no file matches {text!r}")
        return paths
    if os.path.isdir(text):
        raise ValueError(f"{text!r} is a directory; pass a glob such as {text}/*.parquet")
    if not os.path.isfile(text):
        raise ValueError(f"cannot read {text!r}: no such file")
    return [text]


def _files(paths: list[str], shown: str) -> FileSource:
    kinds = {_kind(p) for p in paths}
    if None in kinds:
        bad = next(p for p in paths if _kind(p) is None)
        raise ValueError(
            f"cannot read {bad!r}: a data file must be Parquet ({', '.join(PARQUET_SUFFIXES)}) "
            f"or CSV ({', '.join(CSV_SUFFIXES)}), or a DuckDB database as FILE.duckdb:TABLE"
        )
    if len(kinds) > 1:
        raise ValueError(f"{shown} mixes Parquet and CSV files; pass one format")
    for p in paths:
        if os.path.isdir(p):
            raise ValueError(f"{p!r} is a directory, not a data file")
    return FileSource(tuple(paths), kinds.pop())  # type: ignore[arg-type]


def sha256_of(path: str, *, block: int = 1 << 20) -> str:
    """The SHA-256 of a file's bytes, read in blocks of ``block`` bytes.

    Raises
    ------
    ValueError
        When the file cannot be read.
    """
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(block):
                digest.update(chunk)
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    return digest.hexdigest()


def frame_sha256(frame: Any, *, rows: int = 1 << 17) -> str:
    """The SHA-256 of a pandas DataFrame's row hashes (``pd.util.hash_pandas_object``,
    without the index): the fingerprint of data that is not a file. A row's hash is
    its own values', so the rows are hashed ``rows`` at a time (in cache) and the
    digest fed block by block: the same digest as of all the hashes at once."""
    import pandas as pd

    digest = hashlib.sha256()
    for i in range(0, len(frame), rows):
        digest.update(pd.util.hash_pandas_object(frame.iloc[i : i + rows], index=False)
                      .to_numpy())
    return digest.hexdigest()


def check_csv_options(sep: Any = None, decimal: Any = None) -> tuple[str | None, str | None]:
    """``sep`` (one character, not a quote or a line break) and ``decimal`` ("." or
    ","), validated; None is the reader's own choice (DuckDB sniffs the separator).

    >>> check_csv_options(";", ",")
    (';', ',')
    >>> check_csv_options(",", ",")
    Traceback (most recent call last):
    ...
    ValueError: the CSV separator and the decimal mark are both ','; give another sep
    """
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n'):
        raise ValueError(f"sep must be one character (not a quote or a line break), got {sep!r}")
    if decimal is not None and decimal not in (".", ","):
        raise ValueError(f"decimal must be '.' or ',', got {decimal!r}")
    if decimal == "," and sep in (None, ","):
        raise ValueError("the CSV separator and the decimal mark are both ','; give another sep")
    return sep, decimal


def duckdb_reader(kind: str, paths: tuple[str, ...] | list[str], *, sep: str | None = None,
                  decimal: str | None = None) -> str:
    """DuckDB's table function reading ``paths`` (all of one ``kind``, "parquet" or
    "csv", CSV with a header row, ``sep`` and ``decimal`` as
    :func:`check_csv_options` takes them); several files are read by column name.

    >>> duckdb_reader("csv", ["a.csv"])
    "read_csv(['a.csv'], header = true)"
    >>> duckdb_reader("csv", ["a.csv"], sep=";", decimal=",")
    "read_csv(['a.csv'], header = true, sep = ';', decimal_separator = ',')"
    """
    sep, decimal = check_csv_options(sep, decimal)
    reader = "read_parquet" if kind == "parquet" else "read_csv"
    options = "" if kind == "parquet" else ", header = true"
    if kind != "parquet":
        options += f", sep = {sql_string(sep)}" if sep is not None else ""
        options += f", decimal_separator = {sql_string(decimal)}" if decimal is not None else ""
    options += ", union_by_name = true" if len(paths) > 1 else ""
    return f"{reader}([{', '.join(sql_string(p) for p in paths)}]{options})"


def read_frame(
    data: Any, label: str | None = None, scores: Sequence[str] = (), *,
    sep: str | None = None, decimal: str | None = None,
) -> tuple[Any, list[InputFile]]:
    """DATA (files or ``FILE.duckdb:TABLE``, see :func:`classify`) read into a pandas
    DataFrame by DuckDB, for the memory engine, with its inputs (path, SHA-256, rows).

    A floating ``scores`` column holding NaN or infinite values in a row used (one
    with a ``label`` and every score) is refused before the conversion, in the SQL
    engines' words: pandas would read NaN as a missing value and drop it, while in a
    file it is a value. A DataFrame is returned as it is, with its fingerprint
    (:func:`frame_sha256`) as input. ``sep`` and ``decimal`` are for CSV files
    (:func:`duckdb_reader`); with other data they are refused.
    """
    import duckdb

    source = classify(data)
    csv_only(source, sep, decimal)
    if isinstance(source, FileSource):
        parts = [(p, duckdb_reader(source.kind, [p], sep=sep, decimal=decimal), p)
                 for p in source.paths]
    elif isinstance(source, DatabaseTable):
        parts = [(f"{source.path}:{source.table}", f"db_.{source.table}", source.path)]
    elif type(source).__name__ == "DataFrame" and hasattr(source, "columns"):
        return source, [InputFile(None, frame_sha256(source), len(source))]
    else:
        raise ValueError(
            "DATA must be a Parquet or CSV file (or a glob of them), FILE.duckdb:TABLE or a "
            f"pandas DataFrame, got {type(source).__name__}")
    con = duckdb.connect()
    frames, inputs = [], []
    try:
        if isinstance(source, DatabaseTable):
            try:
                con.execute(f"ATTACH {sql_string(source.path)} AS db_ (READ_ONLY)")
            except duckdb.Error as exc:
                raise ValueError(f"cannot read the database {source.path!r}: "
                                 f"{first_line(exc)}") from None
        for shown, rel, file in parts:
            try:
                types = dict(con.execute(
                    f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {rel})"
                ).fetchall())
                present = [n for n in (label, *scores) if n is not None and n in types]
                used = " AND ".join(f"{_quote(n)} IS NOT NULL" for n in present) or "TRUE"
                for name in scores:
                    if types.get(name) not in ("DOUBLE", "FLOAT", "REAL"):
                        continue
                    q = _quote(name)
                    ((bad,),) = con.execute(
                        f"SELECT COUNT(*) FROM {rel} WHERE {used} AND (isnan({q}) OR isinf({q}))"
                    ).fetchall()
                    if bad:
                        raise refuse.not_finite(name, int(bad))
                frame = con.execute(f"SELECT * FROM {rel}").df()
            except duckdb.Error as exc:
                raise ValueError(f"cannot read {shown!r}: {first_line(exc)}") from None
            frames.append(frame)
            inputs.append(InputFile(shown, sha256_of(file), len(frame)))
    finally:
        con.close()
    import pandas as pd

    out = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    return out, inputs


def csv_only(source: Any, sep: Any, decimal: Any) -> None:
    """Refuse ``sep`` or ``decimal`` for data that is not CSV files (they would be
    ignored, and a number read differently from what the user asked)."""
    check_csv_options(sep, decimal)
    if (sep is not None or decimal is not None) and not (
            isinstance(source, FileSource) and source.kind == "csv"):
        raise ValueError("sep and decimal (--sep, --decimal) apply to CSV files only")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
