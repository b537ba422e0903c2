"""Engine runners: where the SQL of :mod:`course_lib.sql.generate` runs.

:class:`DuckDBRunner` (embedded, the default: nothing to start) and :class:`SparkRunner`
(a local session or a cluster) have the same methods, those of :class:`Runner`: run one
statement and return its rows (``fetch``), name a source's columns and their types
(``columns``), keep a result in the engine and drop it (``keep``, ``release``), and
check a caller's query before it is placed in a ``FROM`` clause (``check_query``).
duckdb and pyspark are imported only when a runner is made.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import uuid
import warnings
from typing import Any, Protocol

from .generate import DUCKDB, SPARK, Dialect, _quote

__all__ = ["DuckDBRunner", "SparkRunner"]


class Runner(Protocol):
    """What the ``sql_*`` functions ask of an engine (:class:`DuckDBRunner`,
    :class:`SparkRunner`)."""

    dialect: Dialect

    def fetch(self, sql: str) -> list[tuple]: ...

    def columns(self, source_sql: str, query: str | None = None) -> list[tuple[str, str]]: ...

    def keep(self, sql: str) -> str: ...

    def release(self, name: str) -> None: ...

    def check_query(self, query: str) -> None: ...


#: The least address space (bytes) under which a local Spark session is started: its Java
#: runtime reserves a 1 GB class space and a heap of half the cap, and fails below 4 GB.
SPARK_ADDRESS_SPACE = 8 << 30


def _address_space_cap() -> int | None:
    """This process's soft ``RLIMIT_AS`` in bytes, None where there is none (or no
    ``resource`` module)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def _temporary_name(d: Dialect) -> str:
    """A fresh quoted name for a temporary table (never shown in a result)."""
    return _quote(f"course_lib_groups_{uuid.uuid4().hex}", d)


class DuckDBRunner:
    """Runs SQL on DuckDB, embedded: nothing to start.

    Parameters
    ----------
    connection : duckdb.DuckDBPyConnection, optional
        An open connection (default: a new in-memory database). Set a memory limit and
        a spill directory on it for data larger than memory
        (``SET memory_limit = '2GB'; SET temp_directory = '...'``).

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> run.fetch("SELECT 19 // 2 AS a, 7 AS b")
    [(9, 7)]
    """

    dialect = DUCKDB

    def __init__(self, connection: Any = None) -> None:
        if connection is None:
            import duckdb

            connection = duckdb.connect()
        self.connection = connection

    def fetch(self, sql: str) -> list[tuple]:
        """Execute one statement and return its rows."""
        statements = self.connection.extract_statements(sql)
        if len(statements) != 1:
            raise ValueError(f"expected one SQL statement, got {len(statements)}")
        return [tuple(row) for row in self.connection.execute(sql).fetchall()]

    def columns(self, source_sql: str, query: str | None = None) -> list[tuple[str, str]]:
        """Names and types of the columns of a FROM-clause source.

        For a query the names are read from the query itself: placed in a subquery,
        DuckDB renames columns whose names differ only in case (``S`` becomes ``S_1``),
        and the name asked for would then quietly mean the other column.
        """
        import duckdb

        try:
            if query is not None:
                rows = self.connection.execute(f"DESCRIBE {query}").fetchall()
                return [(row[0], str(row[1])) for row in rows]
            cur = self.connection.execute(f"SELECT * FROM {source_sql} LIMIT 0")
        except duckdb.Error as exc:
            raise ValueError(f"cannot read the source {source_sql}: {exc}") from None
        return [(name, str(kind)) for name, kind, *_ in cur.description]

    def keep(self, sql: str) -> str:
        """Store the result of a query in a new temporary table; return its quoted name.

        DuckDB spills the table to its temporary directory when it exceeds the
        connection's ``memory_limit``. :meth:`release` drops it. Raises MemoryError when
        the query does not fit the limit (a window over one huge partition does not
        spill).
        """
        import duckdb

        name = _temporary_name(self.dialect)
        try:
            self.connection.execute(f"CREATE TEMPORARY TABLE {name} AS {sql}")
        except duckdb.OutOfMemoryException as exc:
            raise MemoryError(str(exc).splitlines()[0]) from exc
        return name

    def release(self, name: str) -> None:
        """Drop a table made by :meth:`keep`."""
        self.connection.execute(f"DROP TABLE IF EXISTS {name}")

    def check_query(self, query: str) -> None:
        """Raise ValueError unless ``query`` is exactly one SELECT statement."""
        import duckdb

        try:
            statements = self.connection.extract_statements(query)
        except duckdb.Error as exc:
            raise ValueError(f"the query does not parse: {exc}") from None
        kinds = [s.type.name for s in statements]
        if kinds != ["SELECT"]:
            raise ValueError(f"the query must be one SELECT statement, got {kinds}")


class SparkRunner:
    """Runs SQL on Apache Spark (``pyspark``): a local session or a cluster.

    Parameters
    ----------
    session : pyspark.sql.SparkSession, optional
        A running session. Without one, :meth:`start` makes one.
    """

    dialect = SPARK

    def __init__(self, session: Any) -> None:
        self.session = session

    @staticmethod
    def unavailable() -> str | None:
        """None where a local session can start here, else why not (one sentence).

        A local session needs the ``pyspark`` package (``requirements-warehouse.txt``,
        which ``make test`` and ``make test-warehouse`` install and a student install
        lacks), a Java runtime (``java`` on ``PATH`` or ``JAVA_HOME``) and room for it:
        no address-space cap (``RLIMIT_AS``) below :data:`SPARK_ADDRESS_SPACE`. The
        grader's sandbox sets such a cap; under it the Java runtime either fails to
        start or starts and takes the memory the notebook is graded with.

        >>> why = SparkRunner.unavailable()
        >>> why is None or why.startswith(("pyspark is not installed", "no Java runtime",
        ...                               "the address space is capped"))
        True
        """
        try:
            spec = importlib.util.find_spec("pyspark")
        except ImportError:  # a finder that refuses it
            spec = None
        if spec is None:
            return ("pyspark is not installed here (pip install -r "
                    "requirements-warehouse.txt)")
        home = os.environ.get("JAVA_HOME")
        if shutil.which("java") is None and not (
                home and os.access(os.path.join(home, "bin", "java"), os.X_OK)):
            return "no Java runtime is installed here (apt-get install default-jre-headless)"
        cap = _address_space_cap()
        if cap is not None and cap < SPARK_ADDRESS_SPACE:
            return (f"the address space is capped at {cap >> 20} MB here (ulimit -v, or "
                    f"a grader's sandbox), too little for Spark's Java runtime, which "
                    f"reserves several GB")
        return None

    @classmethod
    def start_or_why(cls, master: str = "local[2]", *, config: dict | None = None,
                     quiet: bool = False) -> tuple[SparkRunner | None, str | None]:
        """``(runner, None)`` where a session starts here, else ``(None, why)``.

        For notebooks that run with Spark where it is installed and show a stand-in
        elsewhere (a student install; the grader's sandbox, whose memory cap and lack
        of network a Java process does not start under): :meth:`unavailable`, then
        :meth:`start`, whose failure is reported, not raised."""
        why = cls.unavailable()
        if why is not None:
            return None, why
        try:
            return cls.start(master, config=config, quiet=quiet), None
        except Exception as exc:  # noqa: BLE001 - Java or py4j, in any of their forms
            return None, f"Spark did not start here ({type(exc).__name__})"

    @classmethod
    def start(
        cls, master: str = "local[2]", *, config: dict | None = None, quiet: bool = False
    ) -> SparkRunner:
        """Start (or reuse) a session: ``local[k]`` runs in this process with ``k``
        threads, ``spark://host:port`` uses a cluster. ``config`` adds Spark settings.

        ``quiet=True`` (for notebooks) keeps Spark's console chatter out of the output:
        the Java process started here writes its log to ``/dev/null`` instead of this
        process's standard streams, progress bars are off and the log level is ERROR."""
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.master(master).appName("course_lib.sql")
        settings = {"spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "4"}
        if quiet:
            settings["spark.ui.showConsoleProgress"] = "false"
        settings.update(config or {})
        for key, value in settings.items():
            builder = builder.config(key, value)
        if not quiet:
            return cls(builder.getOrCreate())
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        saved = [os.dup(fd) for fd in (1, 2)]
        try:
            with open(os.devnull, "wb") as null, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pyspark's notes on the pandas version
                for fd in (1, 2):
                    os.dup2(null.fileno(), fd)  # inherited by the Java process
                session = builder.getOrCreate()
        finally:
            for fd, copy in zip((1, 2), saved):
                os.dup2(copy, fd)
                os.close(copy)
        session.sparkContext.setLogLevel("ERROR")
        return cls(session)

    def stop(self) -> None:
        self.session.stop()

    def fetch(self, sql: str) -> list[tuple]:
        """Execute one statement and return its rows."""
        return [tuple(row) for row in self.session.sql(sql).collect()]

    def columns(self, source_sql: str, query: str | None = None) -> list[tuple[str, str]]:
        """Names and types of the columns of a FROM-clause source (analysed, not run);
        names that differ only in case are kept, so :func:`relation` sees them."""
        from pyspark.errors import PySparkException

        try:
            schema = self.session.sql(f"SELECT * FROM {source_sql} LIMIT 0").schema
        except PySparkException as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(f"cannot read the source {source_sql}: {first}") from None
        return [(f.name, f.dataType.simpleString()) for f in schema.fields]

    def keep(self, sql: str) -> str:
        """Compute a query once and cache it in the executors' memory (``CACHE TABLE``)
        under a new temporary view; return its quoted name. :meth:`release` drops it."""
        name = _temporary_name(self.dialect)
        self.session.sql(f"CACHE TABLE {name} AS {sql}")
        return name

    def release(self, name: str) -> None:
        """Uncache and drop a view made by :meth:`keep`."""
        self.session.sql(f"UNCACHE TABLE IF EXISTS {name}")
        self.session.sql(f"DROP VIEW IF EXISTS {name}")

    def check_query(self, query: str) -> None:
        """Nothing to do before :meth:`columns`: Spark analyses the query placed in a
        ``FROM`` clause without running it, and a command cannot stand there."""


