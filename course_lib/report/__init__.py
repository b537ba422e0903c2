"""The validation report of a scoring model (issue 21).

:func:`report` reads a table of labels and scores through an *engine* (pandas in
memory, DuckDB, Spark: see :mod:`course_lib.report._engine`), reduces it to groups of
equal scores, and computes every number from those groups in one or two streaming
passes (:mod:`course_lib.report._stream`): exact AUC, Gini and KS with DeLong
intervals, average precision, partial AUC, the H-measure, the tie-aware gains table,
Brier score and ECE, operating points, curves, segments, the paired DeLong test and
the population stability index. The result is a :class:`Report`: a JSON-able dict.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from ._compute import LINKS, MAX_LEVELS, MIN_CLASS, compute
from ._engine import CHUNK, Engine, Groups, MemoryEngine, PairGroups, Summary
from ._header import header
from ._weights import REPLICATES, SEED

__all__ = [
    "CHUNK",
    "LINKS",
    "Engine",
    "Groups",
    "MemoryEngine",
    "PairGroups",
    "Report",
    "Summary",
    "make_engine",
    "report",
]

#: Engines by name: module (in this package) and class; imported when asked for.
ENGINES: dict[str, tuple[str, str]] = {
    "memory": ("._engine", "MemoryEngine"),
    "duckdb": ("._duckdb", "DuckDBEngine"),
    "spark": ("._spark", "SparkEngine"),
}


class Report:
    """A validation report: :attr:`data` is the plain dict (see ``REPORT.md``).

    >>> import pandas as pd
    >>> r = report(pd.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]}),
    ...            label="y", scores="p")
    >>> r.data["scores"]["p"]["auc"]
    {'fraction': '3/4', 'value': 0.75}
    >>> r.to_json()[:12]
    '{"version": '
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def to_json(self, indent: int | None = None) -> str:
        """The report as JSON (no NaN: undefined numbers are null)."""
        return json.dumps(self.data, indent=indent, allow_nan=False)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __repr__(self) -> str:
        names = ", ".join(self.data.get("scores", {}))
        return f"Report(scores: {names}; {self.data['summary']['used']} rows used)"


def make_engine(kind: str | Engine, data: Any, *, label: str, scores: str | Sequence[str],
                weight: str | None = None, by: str | None = None,
                pos_label: Any = None, sep: str | None = None,
                decimal: str | None = None, bands: str | None = None,
                period: str | None = None) -> Engine:
    """The engine ``kind`` ("memory", "duckdb", "spark") over ``data``.

    Every engine class takes ``(data, *, label, scores, weight, by, pos_label, sep,
    decimal, bands, period)``; the DuckDB and Spark engines are imported only when asked
    for.
    """
    if not isinstance(kind, str):
        if isinstance(kind, Engine):
            return kind
        raise ValueError(
            f"engine must be 'memory', 'duckdb', 'spark' or an Engine, got {kind!r}"
        )
    if kind not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {kind!r}")
    module_name, class_name = ENGINES[kind]
    try:
        module = importlib.import_module(module_name, __name__)
    except ModuleNotFoundError as err:
        if err.name is not None and err.name.startswith(__name__):
            raise ValueError(
                f"the {kind} engine is not available in this version of course_lib "
                f"({__name__}{module_name} is missing)"
            ) from None
        raise ValueError(
            f"the {kind} engine needs the package {err.name!r}: install it first"
        ) from None
    cls = getattr(module, class_name)
    csv = {k: v for k, v in (("sep", sep), ("decimal", decimal), ("bands", bands),
                             ("period", period)) if v is not None}
    engine: Engine = cls(data, label=label, scores=scores, weight=weight, by=by,
                         pos_label=pos_label, **csv)
    return engine


def report(data: Any, *, label: str, scores: str | Sequence[str], weight: str | None = None,
           by: str | None = None, baseline: Any = None, engine: str | Engine = "memory",
           pos_label: Any = None, max_fpr: Any = 0.1, costs: Any = None,
           top: Any = (1, 5, 10, 20), level: float = 0.95, chunk: int = CHUNK,
           command: str | Sequence[str] | None = None,
           progress: Callable[[str], None] | None = None, min_class: int = MIN_CLASS,
           max_levels: int = MAX_LEVELS, h_prior: str = "r", sep: str | None = None,
           decimal: str | None = None, title: str | None = None, model: str | None = None,
           window: str | None = None, run_date: Any = None, bands: str | None = None,
           period: str | None = None, weight_kind: str | None = None,
           replicates: int = REPLICATES, seed: int = SEED) -> Report:
    """The validation report of one or more score columns.

    Parameters
    ----------
    data : pandas.DataFrame, or what the engine reads
        The rows: a DataFrame, Parquet or CSV files (a path, a glob) or
        ``FILE.duckdb:TABLE`` for every engine (read by
        :mod:`course_lib.report._sources`), Spark tables and DataFrames with Spark.
        Ignored (pass None) when ``engine`` is an :class:`Engine` object.
    label : str
        The label column: 0/1 numbers or booleans, or two other values with
        ``pos_label`` naming the positive one.
    scores : str or sequence of str
        The score columns; with two or more, the paired DeLong test of each pair.
    weight : str, optional
        A column of non-negative weights; say what they mean with ``weight_kind``.
    by : str, optional
        A segment column: AUC (with its interval), Gini and KS per segment.
    baseline : same kind as ``data``, or an Engine, optional
        A second sample with the same columns (the development sample, say): the PSI
        of each score against it, and the unpaired DeLong test of the data's AUC
        against the baseline's (two independent samples).
    bands : str, optional
        A column of bands (grades, pools) for the calibration table of probability
        scores; default: one band per distinct score when there are at most 20, else
        the score deciles (ties kept whole).
    period : str, optional
        A period column: rows, positives, positive rate, AUC and Gini with DeLong
        intervals, KS and PSI per period, in the column's order (PSI against the first
        period, or against ``baseline`` when given).
    engine : "memory", "duckdb", "spark" or an Engine, default "memory"
        An engine named here is made, used and closed (DuckDB's temporary folders
        removed) before :func:`report` returns; an Engine object passed in is left
        open, for its owner to close.
    pos_label : optional
        The positive class. Needed unless the label is 0/1 numbers or booleans (then
        1, True, is positive): any other two values (``"good"``/``"bad"``, 1/2, -1/1,
        text ``"yes"``/``"no"``) are refused without it, with the values found. A text
        such as ``"yes"`` names True of a boolean label. The report states the
        positive value (``summary.positive_label``) and its rows.
    max_fpr : number in (0, 1], default 0.1
        The end of the partial AUC's FPR range.
    costs : pair (FP cost, FN cost), optional
        Adds the cost-optimal operating point.
    top : percentages, default (1, 5, 10, 20)
        The "top k %" operating points.
    level : float, default 0.95
        Confidence level of the DeLong intervals.
    weight_kind : "frequency", "sampling" or None
        What the weights are. ``"frequency"``: a row of weight k counts as k rows
        (integers only; DeLong intervals and exact fractions as without weights).
        ``"sampling"``: survey or inverse-probability weights; the intervals of the
        AUC, Gini, KS and the paired differences (per score and per segment) are
        bootstrap percentile intervals over the rows. None: integer weights are read
        as frequency weights (the page says so), other weights are refused.
    replicates : int, default 1000
        Bootstrap replicates (sampling weights only).
    seed : int, default 0
        Seed of the bootstrap (``numpy.random.default_rng``); the same seed gives the
        same intervals on every engine.
    chunk : int
        Score groups per chunk (the streaming; the numbers do not depend on it).
    command : str or sequence of str, optional
        The command line, recorded in the report.
    progress : callable, optional
        Called with the name of each stage as it starts (for a progress bar).
    min_class : int, default 10
        A segment with fewer positives or negatives gets its numbers without an
        interval, and a note.
    max_levels : int, default 50
        A ``by`` column of more distinct values is refused (bin it first).
    h_prior : "r" or "hand", default "r"
        The H-measure's cost density: the R package hmeasure's Beta(2, 1 + pi0/pi1),
        or Hand's (2009) Beta(2, 2).
    sep, decimal : str, optional
        The separator and the decimal mark of CSV input (``";"`` and ``","`` for the
        European way); refused for other data.
    title, model, window : str, optional
        What the page's header states (the report's ``"header"``): the title (default
        "Validation report"), the model validated and the window of the data (e.g.
        "2025-01 to 2025-12"); one line each, at most 120 characters.
    run_date : datetime.date or ISO date string, optional
        The run date in the header; default today (UTC), or the date of the
        environment variable ``SOURCE_DATE_EPOCH`` when it is set (reproducible runs).

    Returns
    -------
    Report

    Raises
    ------
    ValueError
        For input the engine refuses (missing column, non-binary label, two label
        values other than 0/1 without ``pos_label``, text, NaN or infinite scores, no
        rows, one class), a ``by`` column of more than ``max_levels`` values, a
        baseline whose score range does not overlap the data's, or a bad option.

    Notes
    -----
    Counts (no weights, or integer weights: frequency weights, the report of the rows
    repeated) give exact fractions and DeLong intervals; fractional weights give
    floats and no interval (DeLong's variance needs a number of objects).

    Examples
    --------
    Table 1 of the book, with the positive class named:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["no", "no", "no", "yes", "yes", "yes", "no"],
    ...                    "b": [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]})
    >>> r = report(df, label="y", scores="b", pos_label="yes")
    >>> r.data["scores"]["b"]["auc"], r.data["scores"]["b"]["ks"]["fraction"]
    ({'fraction': '19/24', 'value': 0.7916666666666666}, '1/2')
    >>> r.data["summary"]["positive_label"], r.data["summary"]["positive_rows"]
    ('yes', 3)
    >>> r.data["scores"]["b"]["gains_table"] is None  # seven objects: no ten bins
    True
    """
    head = header(title=title, model=model, window=window, date=run_date)  # refused early
    options = {"label": label, "pos_label": _plain(pos_label), "weight": weight,
               "engine": engine if isinstance(engine, str) else type(engine).__name__,
               "sep": sep, "decimal": decimal}
    with contextlib.ExitStack() as made:  # closes the engines made here, not the caller's
        if isinstance(engine, str) and progress is not None:
            progress("reading the data")
        eng = _opened(made, engine, data, label=label, scores=scores, weight=weight, by=by,
                      pos_label=pos_label, sep=sep, decimal=decimal, bands=bands,
                      period=period)
        base: Engine | None = None
        if baseline is not None:
            kind = engine if isinstance(engine, str) else "memory"
            base = _opened(made, baseline if isinstance(baseline, Engine) else kind,
                           baseline, label=label, scores=scores, weight=weight,
                           pos_label=pos_label, sep=sep, decimal=decimal)
        return _headed(head, compute(eng, baseline=base, max_fpr=max_fpr, costs=costs, top=top,
                              level=level, chunk=chunk, command=command, options=options,
                              progress=progress, min_class=min_class,
                              max_levels=max_levels, h_prior=h_prior,
                              weight_kind=weight_kind, replicates=replicates, seed=seed))


def _headed(head: dict[str, Any], data: dict[str, Any]) -> Report:
    """The Report of ``data`` with its ``header`` second, after the version."""
    return Report({"version": data.get("version"), "header": head, **data})


def _opened(made: contextlib.ExitStack, kind: str | Engine, data: Any, **kwargs: Any) -> Engine:
    """:func:`make_engine`; an engine made here (not one passed in) is closed when
    ``made`` ends (DuckDB's temporary folders, Spark's cached groups)."""
    engine = make_engine(kind, data, **kwargs)
    close = getattr(engine, "close", None)
    if isinstance(kind, str) and callable(close):
        made.callback(close)
    return engine


def _plain(value: Any) -> Any:
    """A label value as JSON: numpy scalars as Python ones, others as text."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "item"):
        return value.item()
    return str(value)
