"""The ``sql_*`` functions: the library's numbers computed where the data live.

Each function does the same four things: check the source and its columns against the
engine (the query parses, the columns exist and are numeric), check the data in one
pass (:func:`checks_sql`: labels 0/1, finite scores, non-negative weights), run one
statement of :mod:`course_lib.sql.generate` and turn its rows into the object the rest
of :mod:`course_lib` returns (:mod:`course_lib.sql.convert`). :func:`sql_evaluation`
instead reads the score groups of :func:`score_counts_sql` back, highest score first,
and computes on them with the library's engine (:mod:`course_lib._stream`). A missing
class follows the undefined-case policy of :mod:`course_lib._checks`: curves raise,
numbers warn and return nan.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from .. import _stream
from .._checks import need_classes
from .._stream import AucAcc, Cumulator, GainsAcc, KsAcc, Totals, seqsum
from ..gains import GainCurve, LiftCurve
from ..roc import RocCurve
from . import convert, generate
from .convert import SqlChecks, SqlEvaluation, SqlKs
from .generate import Relation, _check_bins
from .runners import DuckDBRunner, Runner  # noqa: F401 (DuckDBRunner: the examples' engine)

__all__ = [
    "sql_checks",
    "sql_roc_curve",
    "sql_roc_auc",
    "sql_gini",
    "sql_ks",
    "sql_gain_curve",
    "sql_lift_curve",
    "sql_gains_table",
    "sql_binned_auc",
    "sql_binned_pr_auc",
    "sql_evaluation",
]

#: Table 1 of the book as a query, the data of the examples: 9.5 of its 12
#: (positive, negative) pairs are ordered correctly.
TABLE_1 = (
    "SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), (1, 0.3), "
    "(0, 0.0)) v(y, s)"
)

#: Buckets of :func:`cumulative_counts_sql` that :func:`sql_evaluation` used when it
#: cumulated in SQL and ran out of memory; it no longer cumulates in SQL (kept as a name
#: of the package).
BUCKETS = 1024

#: Score groups per fetch when :func:`sql_evaluation` reads the grouped table back.
GROUPS_PER_FETCH = 2**18

# ------------------------------------------------------------ the shared parameters

#: The Parameters entries that every ``sql_*`` function shares, written into its
#: docstring where the line ``{shared}`` stands (by :func:`_parameters`): one entry per
#: parameter of its signature that the docstring does not describe itself.
_SHARED = {
    "run": """run : DuckDBRunner or SparkRunner
    The engine that runs the SQL.""",
    "source": """source : str
    A table name or one SELECT query (see :func:`relation`).""",
    "label": """label : str
    Column of 0/1 (or boolean) labels.""",
    "score": """score : str
    Column of scores, numeric; it keeps its type in the engine, so integers are
    ranked exactly (BIGINT ``2**62 + k`` included).""",
    "weight": """weight : str, optional
    Column of non-negative sample weights; none by default.""",
    "n_bins": """n_bins : int, default 10
    Number of bins of the gains table, from 1 to the number of rows.""",
    "num_bins": """num_bins : int, default 1000
    Number of bins of Spark MLlib's down-sampling (0: every distinct score is a point).""",
    "exact": """exact : bool, default False
    Return the result as a :class:`fractions.Fraction` (needs no weights or
    integer weights).""",
}

_F = TypeVar("_F", bound=Callable[..., Any])
_ENTRY = re.compile(r"^(\w+(?:, \w+)*) :", re.MULTILINE)


def _parameters(function: _F) -> _F:
    """Write the shared entries of :data:`_SHARED` into the Parameters section of
    ``function``'s docstring, in place of its line ``{shared}``, for the parameters of
    its signature that the section does not describe itself; raise at import when a
    parameter stays undescribed, so every ``sql_*`` function documents all of them."""
    doc = function.__doc__ or ""
    markers = re.findall(r"^( *)\{shared\}\n", doc, re.MULTILINE)
    if len(markers) != 1:
        raise ValueError(f"{function.__name__}: the docstring needs one line {{shared}}")
    indent = markers[0]
    head, rest = doc.split(f"{indent}{{shared}}\n")
    section = inspect.cleandoc(("\n" + rest).split("\n\n")[0])  # up to a blank line
    own = {name for names in _ENTRY.findall(section) for name in names.split(", ")}
    missing = [p for p in inspect.signature(function).parameters if p not in own]
    unknown = [p for p in missing if p not in _SHARED]
    if unknown:
        raise ValueError(f"{function.__name__}: no description of the parameters {unknown}")
    entries = "".join(_SHARED[p] + "\n" for p in missing)
    function.__doc__ = head + "".join(indent + line + "\n" for line in entries.splitlines()) + rest
    return function


# ---------------------------------------------------------------- checks, prepared

_NUMERIC = re.compile(
    r"(tinyint|smallint|integer|int|bigint|hugeint|ubigint|uinteger|usmallint|utinyint"
    r"|uhugeint|float|double|real|decimal.*|long|short|byte)",
    re.IGNORECASE,
)


def _relation_on(run: Runner, source: str, label: str, score: str, weight: str | None) -> Relation:
    """:func:`relation` checked against the engine: the query parses, the columns exist
    and are numeric (labels may be boolean)."""
    d = run.dialect
    if not isinstance(source, str):
        raise ValueError(f"source must be a table name or a SELECT query, got {source!r}")
    query = None
    if generate._QUERY_START.match(source):
        generate._query_structure(source, d)
        run.check_query(source)
        query = source
    src = generate._source_sql(source, d)
    cols = run.columns(src, query)
    names = [c for c, _ in cols]
    r = generate.relation(source, label=label, score=score, weight=weight, dialect=d, columns=names)
    types = {c.lower(): t for c, t in cols}
    for what, name in (("label", label), ("score", score), ("weight", weight)):
        if name is None:
            continue
        t = types[name.lower()]
        ok = _NUMERIC.fullmatch(t) or (what == "label" and t.lower() in ("boolean", "bool"))
        if not ok:
            raise ValueError(f"{what} column {name!r} must be numeric, its type is {t}")
    return r


def _exact_weights(c: SqlChecks, weight: str | None, exact: bool) -> bool:
    if weight is None or not exact:
        return False
    if c.fractional_weights:
        raise ValueError(f"exact=True needs integer sample weights; {weight} has fractions")
    if c.m1 + c.m0 >= 2**53:
        raise ValueError("exact=True needs a total sample weight below 2**53")
    return True


def _prepare(
    run: Runner, source: str, label: str, score: str, weight: str | None, exact: bool = False
) -> tuple[SqlChecks, Relation, bool]:
    """The checked relation, the counts of its checks and whether the weights are read
    as integers (``exact`` with integer weights)."""
    r = _relation_on(run, source, label, score, weight)
    c = convert.checks(run.fetch(generate.checks_sql(r))[0], source, label, score, weight)
    return c, r, _exact_weights(c, weight, exact)


def _bins_within(k: int, c: SqlChecks) -> None:
    """A gains table has at most one bin per row."""
    if k > c.n:
        raise ValueError(f"n_bins must be between 1 and the number of samples {c.n}, got {k}")


def _need(c: SqlChecks, what: str, *, negatives: bool = True) -> None:
    """The undefined-case policy of :mod:`course_lib._checks` for a curve: raise."""
    need_classes(c.m1, c.m0, f"the {what}", warn=False, negatives=negatives)


def _one_class(c: SqlChecks, what: str) -> bool:
    """The undefined-case policy for a number: warn (True) when a class is missing."""
    return not need_classes(c.m1, c.m0, what, warn=True, stacklevel=3)


def _curve_rows(
    run: Runner, source: str, label: str, score: str, weight: str | None,
    statement: Callable[..., str], what: str, *, negatives: bool = True,
) -> list[tuple]:
    """The rows of a per-score ``statement`` (``roc_points_sql``, ``gain_curve_sql``);
    a curve needs the positives, and unless told otherwise the negatives."""
    c, r, ew = _prepare(run, source, label, score, weight)
    _need(c, what, negatives=negatives)
    return run.fetch(statement(r, exact_weights=ew))


def _auc_parts(
    run: Runner, source: str, label: str, score: str, weight: str | None, exact: bool, what: str
) -> tuple[Any, Any, Any, bool] | None:
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    if _one_class(c, what):
        return None
    return convert.pair_counts(run.fetch(generate.auc_sql(r, exact_weights=ew)), weight is None or ew)


# ------------------------------------------------------------------ the functions


@_parameters
def sql_checks(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None
) -> SqlChecks:
    """Validate the data in the engine: raise ValueError on a bad label, score or weight.

    Returns the counts of :func:`checks_sql`.

    Parameters
    ----------
    {shared}

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> run.fetch("CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.5), (2, 0.1)) v(y, s)")
    [(2,)]
    >>> sql_checks(run, "t", label="y", score="s")
    Traceback (most recent call last):
    ...
    ValueError: y must contain only 0 and 1 (or booleans), without NULL: 1 of 2 rows are not
    """
    return _prepare(run, source, label, score, weight)[0]


@_parameters
def sql_roc_curve(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None
) -> RocCurve:
    """The ROC curve computed in the engine, as :func:`course_lib.roc_curve` returns it.

    Parameters
    ----------
    {shared}

    Returns
    -------
    RocCurve
        ``(fpr, tpr, thresholds)`` with ``thresholds[0] = inf`` for the vertex (0, 0).

    Raises
    ------
    ValueError
        On invalid data, or when one class is missing.

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> c = sql_roc_curve(run, "SELECT * FROM (VALUES (0, 0.1), (1, 0.4), (1, 0.35), "
    ...                   "(0, 0.8)) v(y, s)", label="y", score="s")
    >>> c.fpr.tolist(), c.tpr.tolist(), c.thresholds.tolist()
    ([0.0, 0.5, 0.5, 0.5, 1.0], [0.0, 0.0, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    rows = _curve_rows(run, source, label, score, weight, generate.roc_points_sql, "ROC curve")
    return RocCurve(*convert.curve(rows, x=5, y=6))


@_parameters
def sql_roc_auc(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    exact: bool = False,
) -> float | Fraction:
    """The ROC AUC with ties counting 1/2, computed in the engine.

    Without weights (or with integer weights and ``exact=True``) the pair count is an
    integer summed in the engine's exact type, so the result is exact: a
    :class:`~fractions.Fraction` with ``exact=True``, else the correctly rounded float.

    Parameters
    ----------
    {shared}

    Returns
    -------
    float or Fraction
        ``nan`` with an :class:`UndefinedMetricWarning` if one class is missing.

    Examples
    --------
    Table 1 of the book: 9.5 of the 12 pairs are ordered correctly:

    >>> run = DuckDBRunner()
    >>> sql_roc_auc(run, TABLE_1, label="y", score="s", exact=True)
    Fraction(19, 24)
    """
    return convert.auc(_auc_parts(run, source, label, score, weight, exact, "ROC AUC"), exact)


@_parameters
def sql_gini(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    exact: bool = False,
) -> float | Fraction:
    """The Gini coefficient ``2 AUC - 1`` (:func:`course_lib.gini_normalized` for labels).

    Parameters
    ----------
    {shared}

    >>> run = DuckDBRunner()
    >>> sql_gini(run, TABLE_1, label="y", score="s", exact=True)
    Fraction(7, 12)
    """
    auc = convert.auc(
        _auc_parts(run, source, label, score, weight, exact, "the Gini coefficient"), True)
    gini = 2 * auc - 1  # exact while the AUC is a Fraction, rounded once below
    return gini if exact or not isinstance(gini, Fraction) else float(gini)


@_parameters
def sql_ks(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    exact: bool = False,
) -> SqlKs:
    """The KS statistic ``max(TPR - FPR)``, its threshold and positive rate.

    The same vertex as :func:`course_lib.ks_curve`: of equal gaps, the highest
    threshold. ``exact=True`` gives the statistic as a Fraction (needs no weights or
    integer weights). With one class missing: ``nan`` and an
    :class:`UndefinedMetricWarning`, as :func:`course_lib.ks_statistic`.

    Parameters
    ----------
    {shared}

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> k = sql_ks(run, TABLE_1, label="y", score="s", exact=True)
    >>> k.ks, k.threshold, round(k.rate * 7, 10)
    (Fraction(1, 2), 0.2, 5.0)
    """
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    if _one_class(c, "the KS statistic"):
        return SqlKs(float("nan"), float("nan"), float("nan"))
    return convert.ks(run.fetch(generate.ks_sql(r, exact_weights=ew)), weight is None or ew, exact)


@_parameters
def sql_gain_curve(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None
) -> GainCurve:
    """The gain curve computed in the engine, as :func:`course_lib.gain_curve`.

    Parameters
    ----------
    {shared}

    >>> run = DuckDBRunner()
    >>> [round(t * 3) for t in sql_gain_curve(run, TABLE_1, label="y", score="s").tpr]
    [0, 1, 1, 2, 3, 3, 3]
    """
    rows = _curve_rows(run, source, label, score, weight, generate.gain_curve_sql, "gain curve",
                       negatives=False)
    return GainCurve(*convert.curve(rows, x=3, y=4))


@_parameters
def sql_lift_curve(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None
) -> LiftCurve:
    """The lift curve computed in the engine, as :func:`course_lib.lift_curve` (the lift
    at rate 0 is that of the top group).

    Parameters
    ----------
    {shared}

    >>> run = DuckDBRunner()
    >>> sql_lift_curve(run, TABLE_1, label="y", score="s").lift.round(4).tolist()
    [2.3333, 2.3333, 1.1667, 1.5556, 1.4, 1.1667, 1.0]
    """
    rows = _curve_rows(run, source, label, score, weight, generate.gain_curve_sql, "lift curve",
                       negatives=False)
    return LiftCurve(*convert.curve(rows, x=3, y=5, y_first=None))


@_parameters
def sql_gains_table(
    run: Runner, source: str, *, label: str, score: str, n_bins: int = 10
) -> pd.DataFrame:
    """The gains table computed in the engine, equal to :func:`course_lib.gains_table`.

    Parameters
    ----------
    {shared}

    Raises
    ------
    ValueError
        If ``n_bins`` is not an integer from 1 to n, one class is missing, or the data
        are invalid.

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> sql_gains_table(run, TABLE_1, label="y", score="s", n_bins=4)["N"].tolist()
    [2, 3, 1, 1]
    """
    k = _check_bins(n_bins, "n_bins")
    c, r, _ = _prepare(run, source, label, score, None)
    _bins_within(k, c)
    _need(c, "gains table")
    return convert.gains_frame(run.fetch(generate.gains_table_sql(r, n_bins=k)))


@_parameters
def sql_binned_auc(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    num_bins: int = 1000, exact: bool = False,
) -> float | Fraction:
    """Spark MLlib's down-sampled AUC (see :func:`binned_auc_sql`), on any engine.

    With ``exact=True`` (no weights) the trapezoid area is returned as a Fraction.

    Parameters
    ----------
    {shared}
    exact : bool, default False
        Return the trapezoid area as a :class:`fractions.Fraction` (needs no weights).

    >>> run = DuckDBRunner()
    >>> q = "SELECT i % 2 AS y, i AS s FROM range(8) t(i)"
    >>> sql_binned_auc(run, q, label="y", score="s", num_bins=2, exact=True)
    Fraction(1, 2)
    >>> sql_roc_auc(run, q, label="y", score="s", exact=True)
    Fraction(5, 8)
    """
    k = _check_bins(num_bins, "num_bins", minimum=0)
    c, r, _ = _prepare(run, source, label, score, weight)
    if _one_class(c, "ROC AUC"):
        return float("nan")
    if exact and weight is not None:
        raise ValueError("exact=True needs no weights")
    rows = run.fetch(generate.binned_auc_sql(r, num_bins=k))
    return convert.auc(convert.pair_counts(rows, weight is None), exact)


@_parameters
def sql_binned_pr_auc(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    num_bins: int = 1000, exact: bool = False,
) -> float | Fraction:
    """Spark MLlib's ``areaUnderPR`` (``BinaryClassificationEvaluator(metricName=
    "areaUnderPR", numBins=num_bins)``), on any engine.

    Spark's rule (``BinaryClassificationMetrics.pr`` and ``AreaUnderCurve``, one
    partition): one point (recall, precision) per chunk of distinct scores (chunks as in
    :func:`binned_auc_sql`; ``num_bins=0`` keeps every distinct score), the point
    ``(0, P_1)`` in front, with ``P_1`` the precision of the first chunk, and the
    trapezoid rule through them: straight lines between PR points. A point with no
    object above it has precision 1, as in Spark. With ``num_bins=0`` this is
    :func:`course_lib.pr_auc_trapezoid`, not the average precision.

    Parameters
    ----------
    {shared}
    exact : bool, default False
        Return the area as a :class:`fractions.Fraction` (needs no weights).

    Returns
    -------
    float or Fraction
        ``nan`` with an :class:`UndefinedMetricWarning` if there are no positives.

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> q = "SELECT i % 2 AS y, i AS s FROM range(8) t(i)"
    >>> sql_binned_pr_auc(run, q, label="y", score="s", num_bins=0, exact=True)
    Fraction(1121, 1680)
    >>> sql_binned_pr_auc(run, q, label="y", score="s", num_bins=2, exact=True)
    Fraction(1, 2)
    """
    k = _check_bins(num_bins, "num_bins", minimum=0)
    c, r, _ = _prepare(run, source, label, score, weight)
    if c.m1 == 0:
        _one_class(c, "PR AUC")
        return float("nan")
    if exact and weight is not None:
        raise ValueError("exact=True needs no weights")
    rows = run.fetch(generate.binned_pr_points_sql(r, num_bins=k))
    return convert.binned_pr_area(rows, weight is None, exact)


@_parameters
def sql_evaluation(
    run: Runner, source: str, *, label: str, score: str, weight: str | None = None,
    n_bins: int = 10, exact: bool = False,
) -> SqlEvaluation:
    """The AUC, Gini, KS statistic and gains table of one score, reading the data twice.

    The functions :func:`sql_roc_auc`, :func:`sql_ks` and :func:`sql_gains_table` each
    read the whole source twice: once to check it, once to group it by score. This one
    checks the source once, keeps its :func:`score_counts_sql` table (one row per
    distinct score) in the engine (``run.keep``), reads it back highest score first, in
    fetches of :data:`GROUPS_PER_FETCH` groups, computes the three results on them with
    the library's engine, as :func:`course_lib.roc_auc`, :func:`course_lib.ks_statistic`
    and :func:`course_lib.gains_table` do on arrays, and drops the table. The results
    are those of the three functions: the AUC, Gini and KS weighted when there is a
    weight column, exact as there (``exact``), and the gains table unweighted, with
    ``n_bins`` bins.

    Parameters
    ----------
    {shared}

    Raises
    ------
    ValueError
        On invalid data, a bad ``n_bins``, or when one class is missing (the gains
        table needs both).

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> e = sql_evaluation(run, TABLE_1, label="y", score="s", n_bins=4, exact=True)
    >>> e.auc, e.gini, e.ks.ks, e.gains_table["N"].tolist()
    (Fraction(19, 24), Fraction(7, 12), Fraction(1, 2), [2, 3, 1, 1])
    """
    k = _check_bins(n_bins, "n_bins")
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    _bins_within(k, c)
    _need(c, "evaluation (AUC, KS and gains table)")
    name = run.keep(generate.score_counts_sql(r, exact_weights=ew))
    try:
        auc, ks, gains = _evaluate(run, name, c, weight is not None, weight is None or ew, k)
    finally:
        run.release(name)
    area = auc.result()
    gini = 2 * area - 1  # exact while the AUC is a Fraction, rounded once below
    if not exact and isinstance(area, Fraction):
        area, gini = float(area), float(gini)
    return SqlEvaluation(area, gini, _ks(ks, exact), gains.table(), c)


def _evaluate(
    run: Runner, table: str, c: SqlChecks, weighted: bool, integral: bool, n_bins: int
) -> tuple[AucAcc, KsAcc, GainsAcc]:
    """The engine's accumulators fed with the groups of a kept :func:`score_counts_sql`
    table: the AUC and KS of the weights (``pos, neg``; ``integral``: integers), the
    gains table of the counts (``n1, n0``). Without weights the two are one stream, read
    once, with the class counts of the checks ``c``. With weights one pass feeds both
    (the weights' running totals and the counts'); float weights take a pass before
    it, which sums them in the order of the stream, so that the class totals are the
    last running sums (the last vertex is exactly (1, 1) and its KS gap exactly 0, as
    in :func:`ks_sql`)."""
    if not weighted:
        t = Totals.of(c.m1, c.m0, True)
        auc, ks, gains = AucAcc(t), KsAcc(t), GainsAcc(t, n_bins)
        _stream.run(_groups(run, table, "n1", "n0"), t, auc, ks, gains)
        return auc, ks, gains
    n1, n0 = run.fetch(f"SELECT SUM(n1), SUM(n0) FROM {table}")[0]
    counts = Totals.of(convert.integer(n1), convert.integer(n0), True)
    if integral:
        weights = Totals.of(c.m1, c.m0, True)
    else:  # the class totals as the stream's last running sums
        m1: Any = 0.0
        m0: Any = 0.0
        for _, pos, neg in _groups(run, table, "pos", "neg"):
            m1, m0 = seqsum(pos.astype(np.float64), m1), seqsum(neg.astype(np.float64), m0)
        weights = Totals.of(m1, m0, False)
    auc, ks, gains = AucAcc(weights), KsAcc(weights), GainsAcc(counts, n_bins)
    by_weight, by_count = Cumulator(weights), Cumulator(counts)
    for s, pos, neg, n1s, n0s in _groups(run, table, "pos", "neg", "n1", "n0"):
        step = by_weight.step((s, pos, neg))
        auc.update(step)
        ks.update(step)
        gains.update(by_count.step((s, n1s, n0s)))
    return auc, ks, gains


def _groups(run: Runner, table: str, *columns: str) -> Iterator[tuple[np.ndarray, ...]]:
    """The rows ``(s, *columns)`` of a kept table of :func:`score_counts_sql`, highest
    score first, as numpy columns, :data:`GROUPS_PER_FETCH` rows per fetch: each fetch
    asks for the scores below the last one seen, so no row numbering (a window over
    every distinct score) is needed, and the scores are distinct, so none is skipped."""
    s_type = {n.lower(): t for n, t in run.columns(table)}["s"]
    below = ""
    while True:
        rows = run.fetch(f"SELECT s, {', '.join(columns)} FROM {table}{below} "
                         f"ORDER BY s DESC LIMIT {GROUPS_PER_FETCH}")
        if rows:
            yield tuple(np.array([row[i] for row in rows]) for i in range(len(rows[0])))
        if len(rows) < GROUPS_PER_FETCH:
            return
        below = f" WHERE s < {_literal(rows[-1][0], s_type)}"


def _literal(value: Any, sql_type: str) -> str:
    """A fetched score as a literal of its column's type, exactly (a float's ``repr``
    reads back as the same double; a cast to FLOAT rounds back to the same single)."""
    if isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = str(int(value))
    return f"CAST('{text}' AS {sql_type})"


def _ks(acc: KsAcc, exact: bool) -> SqlKs:
    """:class:`SqlKs` of the engine's KS: threshold ``inf`` and rate 0 when no threshold
    beats selecting nobody; the rate ``(tp + fp) / (m1 + m0)`` in floats, as
    :func:`ks_sql` computes it."""
    value = acc.result()
    if acc.score is None:
        return SqlKs(Fraction(0) if exact else 0.0, float("inf"), 0.0)
    if not exact and isinstance(value, Fraction):
        value = float(value)
    t = acc.totals
    rate = float(acc.tp + acc.fp) / float(t.m1 + t.m0)
    return SqlKs(value, convert.threshold(acc.threshold()), rate)
