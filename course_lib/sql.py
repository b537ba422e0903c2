"""Exact ROC, AUC, Gini, KS, gain/lift curves and the gains table as SQL (Part VII).

The curves of this library are cumulative sums over *groups of equal scores* taken in
decreasing score order. In SQL that is two steps, and the order matters for speed:

1. ``GROUP BY score``: one row per distinct score with the count (or weight) of each
   class, ``pos`` and ``neg``. Tied scores are one row, so a tie can never be split.
2. a window over those groups, ``SUM(pos) OVER (ORDER BY score DESC ...)``: the
   cumulative counts ``tp`` and ``fp`` of the rule ``score >= threshold``.

The window runs over the distinct scores, not over all rows. The AUC with ties is
``sum_g neg_g (2 (tp_g - pos_g) + pos_g) / (2 m1 m0)``: ``tp_g - pos_g`` positives score
above the group and its own ``pos_g`` count one half. Without weights (or with integer
weights) every term is an integer, so the numerator is summed in a 128-bit integer type
and the result is returned as an exact :class:`fractions.Fraction`.

This module has three layers:

* :func:`relation` validates and quotes a source (a table name or a ``SELECT`` query)
  and its label, score and weight columns; nothing else goes into the SQL.
* ``*_sql`` functions turn a :class:`Relation` into one SQL statement (pure functions).
* :class:`DuckDBRunner` (embedded, the default) and :class:`SparkRunner` execute it, and
  the ``sql_*`` functions return the same objects as the rest of :mod:`course_lib`
  (``Fraction``, :class:`~course_lib.roc.RocCurve`, a gains ``DataFrame``, ...).

The two SQL dialects differ in four places, all kept in :class:`Dialect`: identifier
quotes, the exact integer type, integer division and the finiteness test.
"""

from __future__ import annotations

import os
import re
import sys
import uuid
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._checks import need_classes
from .gains import GAINS_TABLE_COLUMNS, GainCurve, LiftCurve
from .roc import RocCurve

__all__ = [
    "Dialect",
    "DUCKDB",
    "SPARK",
    "Relation",
    "SqlChecks",
    "SqlKs",
    "SqlEvaluation",
    "DuckDBRunner",
    "SparkRunner",
    "relation",
    "checks_sql",
    "score_groups_sql",
    "score_counts_sql",
    "cumulative_counts_sql",
    "roc_points_sql",
    "auc_sql",
    "ks_sql",
    "gain_curve_sql",
    "gains_table_sql",
    "binned_auc_sql",
    "sql_checks",
    "sql_roc_curve",
    "sql_roc_auc",
    "sql_gini",
    "sql_ks",
    "sql_gain_curve",
    "sql_lift_curve",
    "sql_gains_table",
    "sql_binned_auc",
    "sql_evaluation",
]


class Dialect(NamedTuple):
    """What differs between two SQL engines, and nothing else.

    ``int_div`` and ``is_finite`` are templates with ``{a}``, ``{b}`` and ``{x}``.
    """

    name: str
    quote: str
    exact_int: str
    int_div: str
    is_finite: str


DUCKDB = Dialect(
    name="duckdb",
    quote='"',
    exact_int="HUGEINT",
    int_div="({a}) // ({b})",
    is_finite="isfinite({x})",
)
SPARK = Dialect(
    name="spark",
    quote="`",
    exact_int="DECIMAL(38,0)",
    int_div="({a}) DIV ({b})",
    is_finite="(NOT isnan({x}) AND abs({x}) < CAST('Infinity' AS DOUBLE))",
)
_DIALECTS = {"duckdb": DUCKDB, "spark": SPARK}


class Relation(NamedTuple):
    """A validated source: ``source`` is SQL for a ``FROM`` clause, the rest are quoted
    column identifiers (``weight`` may be ``None``). Build it with :func:`relation`."""

    source: str
    label: str
    score: str
    weight: str | None
    dialect: Dialect
    #: True when ``source`` is the table of :func:`score_groups_sql` (one row per
    #: distinct score) rather than the rows themselves.
    grouped: bool = False


class SqlChecks(NamedTuple):
    """Counts read by :func:`checks_sql`: rows, class totals and invalid values."""

    n: int
    m1: float
    m0: float
    bad_labels: int
    bad_scores: int
    bad_weights: int
    fractional_weights: int


class SqlKs(NamedTuple):
    """The KS statistic ``max(TPR - FPR)``, its threshold and positive rate.

    ``threshold`` is ``inf`` (and ``rate`` 0) when no threshold beats selecting nobody.
    """

    ks: float | Fraction
    threshold: float
    rate: float


#: Buckets of :func:`cumulative_counts_sql` when :func:`sql_evaluation` must cumulate
#: in parts (the engine ran out of memory on one window over every distinct score).
BUCKETS = 1024


class SqlEvaluation(NamedTuple):
    """What :func:`sql_evaluation` computes from one grouping of the scores."""

    auc: float | Fraction
    gini: float | Fraction
    ks: SqlKs
    gains_table: pd.DataFrame
    checks: SqlChecks


# ------------------------------------------------------------------------ identifiers

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUERY_START = re.compile(r"\s*(\(|select\b|with\b|from\b|values\b)", re.IGNORECASE)


def _dialect(dialect: str | Dialect) -> Dialect:
    if isinstance(dialect, Dialect):
        return dialect
    if dialect not in _DIALECTS:
        raise ValueError(f"dialect must be one of {sorted(_DIALECTS)}, got {dialect!r}")
    return _DIALECTS[dialect]


def _quote(name: str, d: Dialect) -> str:
    """Quote one identifier, doubling the quote character inside it."""
    return d.quote + name.replace(d.quote, d.quote * 2) + d.quote


def _check_column_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what} must be a non-empty column name, got {name!r}")
    if "\x00" in name or "\n" in name or "\r" in name:
        raise ValueError(f"{what} {name!r} contains a control character")
    return name


def _closing_quote(query: str, i: int, backslash: bool) -> int:
    """Index of the quote that ends the literal opened at ``query[i]``, or -1.

    A doubled quote stays inside the literal; with ``backslash`` (Spark's string
    literals) a backslash escapes the character after it, so ``'\\''`` is one
    literal holding a quote, as Spark reads it.
    """
    c, j, n = query[i], i + 1, len(query)
    while j < n:
        if backslash and query[j] == "\\":
            j += 2
            continue
        if query[j] == c:
            if j + 1 < n and query[j + 1] == c:  # doubled quote
                j += 2
                continue
            return j
        j += 1
    return -1


def _query_structure(query: str, dialect: Dialect | None = None) -> None:
    """Reject a query that could end the subquery it is placed in.

    Outside string literals, quoted identifiers and comments there must be no ``;``
    and no ``)`` closing more than was opened: either would let the text run a second
    statement or change the query around it. Literals are read as the engine reads
    them: on Spark a backslash escapes the next character of a string literal (``'``
    or ``"``), on DuckDB it is an ordinary character. Without a dialect the query must
    pass both readings.
    """
    if dialect is None:
        for d in _DIALECTS.values():
            _query_structure(query, d)
        return
    backslash = dialect.name == "spark"
    depth, i, n = 0, 0, len(query)
    while i < n:
        c = query[i]
        if c in "'\"`":
            end = _closing_quote(query, i, backslash and c != "`")
            if end == -1:
                raise ValueError(f"the query has an unterminated {c}...{c}: {query!r}")
            i = end + 1
            continue
        if query.startswith("--", i):
            end = query.find("\n", i)
            i = n if end == -1 else end + 1
            continue
        if query.startswith("/*", i):
            end = query.find("*/", i + 2)
            if end == -1:
                raise ValueError(f"the query has an unterminated comment: {query!r}")
            i = end + 2
            continue
        if c == ";":
            raise ValueError("the query must be one statement, without ';'")
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"the query closes a parenthesis it did not open: {query!r}")
        i += 1
    if depth != 0:
        raise ValueError(f"the query has an unclosed parenthesis: {query!r}")


def _source_sql(source: Any, d: Dialect) -> str:
    """SQL for the FROM clause: a quoted (dotted) table name or a wrapped query."""
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"source must be a table name or a SELECT query, got {source!r}")
    if _QUERY_START.match(source):
        _query_structure(source, d)
        # new lines, so that a trailing '--' comment cannot swallow the parenthesis
        return f"(\n{source}\n) AS src_"
    parts = source.split(".")
    if len(parts) > 3 or not all(_NAME.fullmatch(p) for p in parts):
        raise ValueError(
            f"source {source!r} is neither a table name (letters, digits and '_', "
            "optionally qualified as schema.table) nor a query starting with SELECT, "
            "WITH, FROM, VALUES or '('"
        )
    return ".".join(_quote(p, d) for p in parts)


def _resolve(name: str, columns: list[str], what: str) -> str:
    """The stored spelling of ``name`` among ``columns``, matched without case (as the
    engines do); a name matching two columns is ambiguous."""
    matches = [c for c in columns if c.lower() == name.lower()]
    if not matches:
        shown = ", ".join(columns[:20]) + (", ..." if len(columns) > 20 else "")
        raise ValueError(f"{what} column {name!r} is not in the source; its columns: {shown}")
    if len(matches) > 1:
        raise ValueError(
            f"{what} column {name!r} is ambiguous: the source has columns {matches} that "
            "differ only in case (SQL names are case-insensitive); rename them"
        )
    return matches[0]


def relation(
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    dialect: str | Dialect = "duckdb",
    columns: list[str] | None = None,
) -> Relation:
    """Validate and quote a source and its columns for the ``*_sql`` functions.

    Parameters
    ----------
    source : str
        A table or view name (``name`` or ``schema.name``: letters, digits, ``_``), or a
        single ``SELECT`` query (it may start with ``WITH``, ``FROM``, ``VALUES`` or a
        parenthesis). A query is the caller's own SQL: it is checked to be one statement
        that cannot close the subquery it is placed in, not rewritten.
    label, score : str
        Columns of 0/1 (or boolean) labels and of scores.
    weight : str, optional
        Column of non-negative sample weights.
    dialect : {"duckdb", "spark"} or Dialect, default "duckdb"
    columns : list of str, optional
        The source's column names as the engine reports them (the runners pass them):
        every column must then exist, matched without case, and match only one.

    Returns
    -------
    Relation

    Raises
    ------
    ValueError
        For a source that is neither a plain table name nor one query, an empty or
        repeated column name, or, with ``columns``, a column that is missing or
        ambiguous.

    Examples
    --------
    >>> r = relation("scores", label="y", score='odd"name')
    >>> r.source, r.label, r.score, r.weight
    ('"scores"', '"y"', '"odd""name"', None)
    >>> relation("scores; DROP TABLE scores", label="y", score="s")
    Traceback (most recent call last):
    ...
    ValueError: source 'scores; DROP TABLE scores' is neither a table name (letters, digits and '_', optionally qualified as schema.table) nor a query starting with SELECT, WITH, FROM, VALUES or '('
    """
    d = _dialect(dialect)
    src = _source_sql(source, d)
    names = {"label": label, "score": score}
    if weight is not None:
        names["weight"] = weight
    for what, name in names.items():
        _check_column_name(name, what)
    if columns is not None:
        names = {what: _resolve(name, list(columns), what) for what, name in names.items()}
    seen: dict[str, str] = {}
    for what, name in names.items():
        if name.lower() in seen:
            raise ValueError(f"{what} and {seen[name.lower()]} are the same column {name!r}")
        seen[name.lower()] = what
    q = {what: _quote(name, d) for what, name in names.items()}
    return Relation(src, q["label"], q["score"], q.get("weight"), d)


# ------------------------------------------------------------------------- SQL pieces

_CUMULATIVE = "OVER (ORDER BY s DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"


def _rows(r: Relation, exact_weights: bool) -> str:
    """The source reduced to y (0/1), s (the score in its own type, -0.0 as 0.0) and w.

    The score keeps its column's type (``+ 0`` changes no type: BIGINT stays BIGINT,
    DOUBLE stays DOUBLE, and turns -0.0 into 0.0), so integers that a DOUBLE cannot
    hold (``2**62 + k``) are grouped and ordered exactly, as :func:`course_lib.roc_auc`
    orders them (the score policy of :mod:`course_lib._checks`)."""
    cols = [f"CAST({r.label} AS INTEGER) AS y", f"{r.score} + 0 AS s"]
    if r.weight is not None:
        wtype = "BIGINT" if exact_weights else "DOUBLE"
        cols.append(f"CAST({r.weight} AS {wtype}) AS w")
    return f"SELECT {', '.join(cols)} FROM {r.source}"


def _group_columns(r: Relation) -> str:
    if r.weight is None:
        return "SUM(y) AS pos, COUNT(*) - SUM(y) AS neg"
    return "SUM(y * w) AS pos, SUM((1 - y) * w) AS neg"


# The class totals are the running sums at the lowest score, not sums of their own:
# with float weights another order of addition could differ in the last bit, and the
# last vertex would then not be exactly (1, 1) nor its KS gap exactly 0 (as the
# curves of course_lib take them from the same running sums).
_TOTALS = "SELECT tp AS m1, fp AS m0 FROM cum_ ORDER BY s ASC LIMIT 1"


def _groups(r: Relation, exact_weights: bool = False, *, keep_empty: bool = False) -> str:
    """CTEs ``groups_`` (s, pos, neg), ``cum_`` (s, pos, neg, tp, fp) and ``tot_``
    (m1, m0), after ``rows_`` unless ``r`` is already grouped. Groups of zero weight are
    dropped unless ``keep_empty``."""
    if r.grouped:
        # the table of score_groups_sql, cumulated once: no window to run again
        if r.weight is not None:
            cols, where = "pos, neg, tp, fp", "" if keep_empty else " WHERE pos + neg > 0"
        else:
            cols, where = "n1 AS pos, n0 AS neg, cn1 AS tp, cn0 AS fp", ""
        return (
            f"WITH cum_ AS (SELECT s, {cols} FROM {r.source}{where}),\n"
            "groups_ AS (SELECT s, pos, neg FROM cum_),\n"
            f"tot_ AS ({_TOTALS})"
        )
    # objects of zero weight add no vertex
    having = "" if r.weight is None or keep_empty else " HAVING SUM(w) > 0"
    return (
        f"WITH rows_ AS ({_rows(r, exact_weights)}),\n"
        f"groups_ AS (SELECT s, {_group_columns(r)} FROM rows_ GROUP BY s{having}),\n"
        f"cum_ AS (SELECT s, pos, neg, SUM(pos) {_CUMULATIVE} AS tp, "
        f"SUM(neg) {_CUMULATIVE} AS fp FROM groups_),\n"
        f"tot_ AS ({_TOTALS})"
    )


def _exact(expr: str, r: Relation, exact: bool) -> str:
    return f"CAST({expr} AS {r.dialect.exact_int})" if exact else expr


def _is_exact(r: Relation, exact_weights: bool) -> bool:
    return r.weight is None or exact_weights


def score_counts_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row per distinct score: ``s, n1, n0`` (the count of each class), and before
    them ``pos, neg`` (the weight of each class) when there is a weight column.

    >>> print(score_counts_sql(relation("t", label="y", score="s")).splitlines()[-1])
    FROM rows_ GROUP BY s
    """
    if r.grouped:
        raise ValueError("the relation is already grouped by score")
    # counts as BIGINT (DuckDB would sum them in HUGEINT): fewer bytes to sort
    counts = "CAST(SUM(y) AS BIGINT) AS n1, CAST(COUNT(*) - SUM(y) AS BIGINT) AS n0"
    columns = counts if r.weight is None else f"{_group_columns(r)}, {counts}"
    return (
        f"WITH rows_ AS ({_rows(r, exact_weights)})\n"
        f"SELECT s, {columns}\n"
        "FROM rows_ GROUP BY s"
    )


def cumulative_counts_sql(source: str, r: Relation, *, buckets: int | None = None) -> str:
    """The table of :func:`score_groups_sql` from ``source``, a table (or parenthesized
    query) of :func:`score_counts_sql` for ``r``.

    With ``buckets=k`` the cumulative sums are taken in ``k + 1`` buckets of the score
    range, each a partition of its own, plus the totals of the buckets above: the same
    sums (exact for counts and integer weights), but no window runs over all the scores
    at once. DuckDB keeps a window's single partition in memory, so on about 10^8
    distinct scores only the bucketed form fits a memory limit of a few GB. The bucket
    ``floor((hi/2 - s/2) / (hi/2 - lo/2) k)`` never decreases as the score does, so the
    buckets keep the order of the scores.

    >>> r = relation("t", label="y", score="s")
    >>> "PARTITION BY bucket_" in cumulative_counts_sql("counts", r, buckets=8)
    True
    """
    pairs = [("n1", "cn1"), ("n0", "cn0")]
    if r.weight is None:  # the weights are the counts: two windows, not four
        extra = "n1 AS pos, n0 AS neg, cn1 AS tp, cn0 AS fp"
    else:
        extra = "pos, neg, tp, fp"
        pairs += [("pos", "tp"), ("neg", "fp")]
    if buckets is None:
        sums = ", ".join(f"SUM({a}) {_CUMULATIVE} AS {b}" for a, b in pairs)
        return (
            f"WITH cum_ AS (SELECT *, {sums} FROM {source})\n"
            f"SELECT s, {extra}, n1, n0, cn1, cn0\n"
            "FROM cum_"
        )
    k = _check_bins(buckets, "buckets")
    cols = [a for a, _ in pairs]
    within = ("OVER (PARTITION BY bucket_ ORDER BY s DESC "
              "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)")
    above = "OVER (ORDER BY bucket_ ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
    return (
        f"WITH c_ AS (SELECT * FROM {source}),\n"
        "mm_ AS (SELECT MIN(s) AS lo_, MAX(s) AS hi_ FROM c_),\n"
        "b_ AS (SELECT c_.*, CASE WHEN hi_ > lo_ THEN CAST(floor((hi_ / 2 - s / 2) / "
        f"(hi_ / 2 - lo_ / 2) * {k}) AS INTEGER) ELSE 0 END AS bucket_ "
        "FROM c_ CROSS JOIN mm_),\n"
        f"bt_ AS (SELECT bucket_, {', '.join(f'SUM({a}) AS t_{a}' for a in cols)} "
        "FROM b_ GROUP BY bucket_),\n"
        "bo_ AS (SELECT bucket_, "
        + ", ".join(f"COALESCE(SUM(t_{a}) {above}, 0) AS o_{a}" for a in cols)
        + " FROM bt_),\n"
        "cum_ AS (SELECT b_.*, "
        + ", ".join(f"o_{a} + SUM({a}) {within} AS {b}" for a, b in pairs)
        + " FROM b_ JOIN bo_ USING (bucket_))\n"
        f"SELECT s, {extra}, n1, n0, cn1, cn0\n"
        "FROM cum_"
    )


def score_groups_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row per distinct score with its class weights and their cumulative sums:
    ``s, pos, neg, tp, fp, n1, n0, cn1, cn0``.

    ``pos``, ``neg`` weigh (or count) each class at score ``s``, ``tp``, ``fp`` sum them
    over the scores ``>= s``; ``n1``, ``n0``, ``cn1``, ``cn0`` are the same for counts
    (equal to the former without weights). Every curve of this module reads this table,
    so an engine can compute it once, keep it (:meth:`DuckDBRunner.keep`) and answer
    several questions from it without another sort (:func:`sql_evaluation`).

    >>> print(score_groups_sql(relation("t", label="y", score="s")).splitlines()[-1])
    FROM cum_
    """
    counts = score_counts_sql(r, exact_weights=exact_weights)
    return cumulative_counts_sql(f"({counts}) AS counts_", r)


def checks_sql(r: Relation) -> str:
    """One row: ``n, m1, m0, bad_labels, bad_scores, bad_weights, fractional_weights``.

    Labels must be 0 or 1 (``TRUE``/``FALSE``), scores finite, weights finite and
    non-negative; NULL is invalid everywhere. ``m1`` and ``m0`` are the class totals
    (weighted when there is a weight column).

    >>> print(checks_sql(relation("t", label="y", score="s")))  # doctest: +ELLIPSIS
    SELECT COUNT(*) AS n, ...
    """
    fin = r.dialect.is_finite
    y = f"CAST({r.label} AS DOUBLE)"
    s = f"CAST({r.score} AS DOUBLE)"
    bad_label = f"({y} IS NULL OR {y} NOT IN (0, 1))"
    bad_score = f"({s} IS NULL OR NOT {fin.format(x=s)})"
    if r.weight is None:
        w = "1"
        bad_w = frac_w = "0"
    else:
        w = f"CAST({r.weight} AS DOUBLE)"
        bad_w = f"SUM(CASE WHEN {w} IS NULL OR NOT {fin.format(x=w)} OR {w} < 0 THEN 1 ELSE 0 END)"
        frac_w = f"SUM(CASE WHEN {w} <> floor({w}) THEN 1 ELSE 0 END)"
    return (
        f"SELECT COUNT(*) AS n, "
        f"SUM(CASE WHEN {y} = 1 THEN {w} ELSE 0 END) AS m1, "
        f"SUM(CASE WHEN {y} = 0 THEN {w} ELSE 0 END) AS m0, "
        f"SUM(CASE WHEN {bad_label} THEN 1 ELSE 0 END) AS bad_labels, "
        f"SUM(CASE WHEN {bad_score} THEN 1 ELSE 0 END) AS bad_scores, "
        f"{bad_w} AS bad_weights, {frac_w} AS fractional_weights "
        f"FROM {r.source}"
    )


def roc_points_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row per distinct score, highest first: ``threshold, pos, neg, tp, fp, fpr, tpr``.

    ``tp`` and ``fp`` count the objects (sum the weights) with ``score >= threshold``;
    ``fpr = fp / m0`` and ``tpr = tp / m1``. Groups of zero total weight are left out.
    ``exact_weights`` reads the weights as integers (BIGINT), for exact counts.

    >>> sql = roc_points_sql(relation("t", label="y", score="s"))
    >>> "GROUP BY s" in sql and "ORDER BY s DESC" in sql
    True
    """
    return (
        _groups(r, exact_weights) + "\n"
        "SELECT s AS threshold, pos, neg, tp, fp, "
        "CAST(fp AS DOUBLE) / m0 AS fpr, CAST(tp AS DOUBLE) / m1 AS tpr\n"
        "FROM cum_ CROSS JOIN tot_ ORDER BY s DESC"
    )


def auc_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row: ``twice_area, m1, m0, auc, gini``.

    ``twice_area = sum_g neg_g (2 (tp_g - pos_g) + pos_g)``, twice the number of
    correctly ordered (positive, negative) pairs with ties counting 1/2 (weighted pairs
    ``w_i w_j`` with weights). ``AUC = twice_area / (2 m1 m0)`` and
    ``Gini = 2 AUC - 1 = (twice_area - m1 m0) / (m1 m0)``. Without weights, or with
    ``exact_weights``, ``twice_area``, ``m1`` and ``m0`` are exact integers.

    >>> print(auc_sql(relation("t", label="y", score="s")).splitlines()[-2])
    SELECT twice_area, m1, m0, CAST(twice_area AS DOUBLE) / (2.0 * m1 * m0) AS auc, \
CAST(twice_area - m1 * m0 AS DOUBLE) / (1.0 * m1 * m0) AS gini
    """
    exact = _is_exact(r, exact_weights)
    term = _exact("neg", r, exact) + " * (2 * (tp - pos) + pos)"
    return (
        _groups(r, exact_weights) + ",\n"
        f"area_ AS (SELECT SUM({term}) AS twice_area FROM cum_),\n"
        f"tot2_ AS (SELECT {_exact('m1', r, exact)} AS m1, {_exact('m0', r, exact)} AS m0 "
        "FROM tot_)\n"
        "SELECT twice_area, m1, m0, CAST(twice_area AS DOUBLE) / (2.0 * m1 * m0) AS auc, "
        "CAST(twice_area - m1 * m0 AS DOUBLE) / (1.0 * m1 * m0) AS gini\n"
        "FROM area_ CROSS JOIN tot2_"
    )


def ks_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row: ``threshold, tp, fp, scaled_gap, m1, m0, ks, rate``, the group of largest
    ``TPR - FPR``.

    The gap is compared as ``m0 m1 (TPR - FPR) = tp m0 - fp m1``, exact in integers
    without weights, so equal gaps compare equal; of equal gaps the highest threshold
    wins (as :func:`course_lib.ks_curve`). When the largest gap is not positive the
    row is still returned; :func:`sql_ks` then reports selecting nobody (KS 0).

    >>> "ORDER BY scaled_gap DESC, s DESC" in ks_sql(relation("t", label="y", score="s"))
    True
    """
    exact = _is_exact(r, exact_weights)
    gap = f"{_exact('tp', r, exact)} * m0 - {_exact('fp', r, exact)} * m1"
    return (
        _groups(r, exact_weights) + ",\n"
        f"gap_ AS (SELECT s, tp, fp, {gap} AS scaled_gap, m1, m0 FROM cum_ CROSS JOIN tot_)\n"
        "SELECT s AS threshold, tp, fp, scaled_gap, m1, m0, "
        "CAST(scaled_gap AS DOUBLE) / (1.0 * m1 * m0) AS ks, "
        "CAST(tp + fp AS DOUBLE) / (m1 + m0) AS rate\n"
        "FROM gap_ ORDER BY scaled_gap DESC, s DESC LIMIT 1"
    )


def gain_curve_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row per distinct score, highest first: ``threshold, tp, selected, rate, tpr,
    lift`` with ``rate = selected / n``, ``tpr = tp / m1`` and ``lift = tpr / rate``.

    >>> "AS lift" in gain_curve_sql(relation("t", label="y", score="s"))
    True
    """
    return (
        _groups(r, exact_weights) + "\n"
        "SELECT s AS threshold, tp, tp + fp AS selected, "
        "CAST(tp + fp AS DOUBLE) / (m1 + m0) AS rate, CAST(tp AS DOUBLE) / m1 AS tpr, "
        "(CAST(tp AS DOUBLE) / m1) / (CAST(tp + fp AS DOUBLE) / (m1 + m0)) AS lift\n"
        "FROM cum_ CROSS JOIN tot_ ORDER BY s DESC"
    )


def _check_bins(n_bins: Any, name: str) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"{name} must be a positive integer, got {n_bins!r}")
    return int(n_bins)


def _check_num_bins(num_bins: Any) -> int:
    """Spark's ``numBins``: a non-negative integer, 0 for no down-sampling."""
    if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins < 0:
        raise ValueError(f"num_bins must be a non-negative integer, got {num_bins!r}")
    return int(num_bins)


def gains_table_sql(r: Relation, *, n_bins: int = 10) -> str:
    """The gains table of :func:`course_lib.gains_table`: one row per non-empty bin.

    The rule of :func:`course_lib.gains_table`, stated per group: a group of equal
    scores with ``above`` objects scoring higher goes, whole, to bin
    ``floor(above * n_bins / n) + 1``, the bin of its first member. No row numbering
    (``NTILE``, ``ROW_NUMBER``) is used, so ties are never split and the table does not
    depend on the order of the rows. Columns: ``bin`` and those of
    :func:`course_lib.gains_table_from_counts`. Unweighted (weights are ignored).

    >>> print(gains_table_sql(relation("t", label="y", score="s"), n_bins=4).splitlines()[4])
    bins_ AS (SELECT (((tp + fp - pos - neg) * 4) // (m1 + m0)) + 1 AS bin, pos, neg FROM cum_ CROSS JOIN tot_),
    """
    k = _check_bins(n_bins, "n_bins")
    r = r._replace(weight=None)
    binned = r.dialect.int_div.format(a=f"(tp + fp - pos - neg) * {k}", b="m1 + m0")
    pct = "CAST(100 * {} AS DOUBLE) / {}"
    cols = {
        "N": "n_",
        "%": pct.format("n_", "total_"),
        "cum_%": pct.format("cum_n_", "total_"),
        "Prob": "CAST(n1_ AS DOUBLE) / n_",
        "N_1": "n1_",
        "%_1": pct.format("n1_", "m1"),
        "cum_N1": "cum_n1_",
        "cum_%1": pct.format("cum_n1_", "m1"),
        "N_0": "n0_",
        "%_0": pct.format("n0_", "m0"),
        "cum_N0": "cum_n0_",
        "cum_%0": pct.format("cum_n0_", "m0"),
        "K-S": f"{pct.format('cum_n1_', 'm1')} - {pct.format('cum_n0_', 'm0')}",
        "Lift": f"({pct.format('cum_n1_', 'm1')}) / ({pct.format('cum_n_', 'total_')})",
    }
    assert tuple(cols) == GAINS_TABLE_COLUMNS
    window = "OVER (ORDER BY bin ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
    select = ", ".join(f"{expr} AS {_quote(name, r.dialect)}" for name, expr in cols.items())
    return (
        _groups(r) + ",\n"
        f"bins_ AS (SELECT ({binned}) + 1 AS bin, pos, neg FROM cum_ CROSS JOIN tot_),\n"
        "table_ AS (SELECT bin, SUM(pos + neg) AS n_, SUM(pos) AS n1_, SUM(neg) AS n0_ "
        "FROM bins_ GROUP BY bin),\n"
        f"cumt_ AS (SELECT bin, n_, n1_, n0_, SUM(n_) {window} AS cum_n_, "
        f"SUM(n1_) {window} AS cum_n1_, SUM(n0_) {window} AS cum_n0_ FROM table_)\n"
        f"SELECT bin, {select}\n"
        "FROM cumt_ CROSS JOIN (SELECT m1, m0, m1 + m0 AS total_ FROM tot_) ORDER BY bin"
    )


def _chunks_sql(r: Relation, k: int) -> str:
    """CTEs up to ``ccum_`` (chunk_, p_, q_, tp, fp): the distinct scores, highest first,
    cut into Spark MLlib's chunks (see :func:`binned_auc_sql`), with each chunk's class
    weights and their cumulative sums; and ``tot_`` (m1, m0). ``k = 0`` cuts nothing."""
    grouping = r.dialect.int_div.format(a="d_", b=str(k)) if k else "0"
    chunk = r.dialect.int_div.format(a="k_ - 1", b=f"({grouping})") if k else "k_"
    cum = "OVER (ORDER BY chunk_ ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
    return (
        _groups(r, keep_empty=True) + ",\n"  # Spark counts scores of zero weight too
        "ranked_ AS (SELECT pos, neg, ROW_NUMBER() OVER (ORDER BY s DESC) AS k_ FROM groups_),\n"
        "nd_ AS (SELECT COUNT(*) AS d_ FROM groups_),\n"
        f"chunked_ AS (SELECT CASE WHEN ({grouping}) < 2 THEN k_ ELSE {chunk} END AS chunk_, "
        "pos, neg FROM ranked_ CROSS JOIN nd_),\n"
        "csum_ AS (SELECT chunk_, SUM(pos) AS p_, SUM(neg) AS q_ FROM chunked_ GROUP BY chunk_),\n"
        f"ccum_ AS (SELECT chunk_, p_, q_, SUM(p_) {cum} AS tp, SUM(q_) {cum} AS fp FROM csum_)"
    )


def binned_auc_sql(r: Relation, *, num_bins: int = 1000) -> str:
    """Spark MLlib's down-sampled ROC AUC (``BinaryClassificationMetrics(numBins)``), one
    row: ``twice_area, m1, m0, chunks, auc``.

    The rule of Spark's source (``mllib/evaluation/BinaryClassificationMetrics.scala``)
    for data in one partition: the ``D`` distinct scores, highest first, are cut into
    consecutive chunks of ``grouping = floor(D / num_bins)`` scores (the last chunk may
    be smaller); when ``grouping < 2`` (or ``num_bins = 0``) nothing is cut. Each chunk becomes one point of
    the ROC curve, and the area is the trapezoid rule through ``(0, 0)`` and those
    points. A chunk thus acts as one tie: its pairs count 1/2. With several partitions
    Spark restarts the chunks in each partition of the sorted scores.

    ``twice_area`` is exact (an integer without weights): twice the trapezoid area times
    ``m1 m0``.

    >>> "ROW_NUMBER() OVER (ORDER BY s DESC)" in binned_auc_sql(
    ...     relation("t", label="y", score="s"))
    True
    """
    k = _check_num_bins(num_bins)
    exact = r.weight is None
    return (
        _chunks_sql(r, k) + ",\n"
        # trapezoid: width q_ = fp - fp_prev, heights tp - p_ (the previous point) and tp
        f"area_ AS (SELECT SUM({_exact('q_', r, exact)} * (2 * tp - p_)) AS twice_area, "
        "COUNT(*) AS chunks FROM ccum_),\n"
        f"tot2_ AS (SELECT {_exact('m1', r, exact)} AS m1, {_exact('m0', r, exact)} AS m0 "
        "FROM tot_)\n"
        "SELECT twice_area, m1, m0, chunks, CAST(twice_area AS DOUBLE) / (2.0 * m1 * m0) AS auc\n"
        "FROM area_ CROSS JOIN tot2_"
    )


def binned_pr_points_sql(r: Relation, *, num_bins: int = 1000) -> str:
    """The points of Spark MLlib's down-sampled PR curve (``BinaryClassificationMetrics``
    with ``numBins``, the curve of its ``areaUnderPR``), one row per chunk of distinct
    scores, highest first: ``tp, fp, m1``, the cumulative class weights (counts) at the
    chunk's end and the weight of the positives. The chunks are those of
    :func:`binned_auc_sql`; :func:`sql_binned_pr_auc` turns the rows into the area.

    >>> "ORDER BY chunk_" in binned_pr_points_sql(relation("t", label="y", score="s"))
    True
    """
    k = _check_num_bins(num_bins)
    return _chunks_sql(r, k) + "\nSELECT tp, fp, m1 FROM ccum_ CROSS JOIN tot_ ORDER BY chunk_"


# ---------------------------------------------------------------------------- runners


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


# ------------------------------------------------------------------ running the SQL

_NUMERIC = re.compile(
    r"(tinyint|smallint|integer|int|bigint|hugeint|ubigint|uinteger|usmallint|utinyint"
    r"|uhugeint|float|double|real|decimal.*|long|short|byte)",
    re.IGNORECASE,
)


def _relation_on(run: Any, source: str, label: str, score: str, weight: str | None) -> Relation:
    """:func:`relation` checked against the engine: the query parses, the columns exist
    and are numeric (labels may be boolean)."""
    d = run.dialect
    if not isinstance(source, str):
        raise ValueError(f"source must be a table name or a SELECT query, got {source!r}")
    query = None
    if _QUERY_START.match(source):
        _query_structure(source, d)
        run.check_query(source)
        query = source
    src = _source_sql(source, d)
    cols = run.columns(src, query)
    names = [c for c, _ in cols]
    r = relation(source, label=label, score=score, weight=weight, dialect=d, columns=names)
    types = {c.lower(): t for c, t in cols}
    for what, name in (("label", label), ("score", score), ("weight", weight)):
        if name is None:
            continue
        t = types[name.lower()]
        ok = _NUMERIC.fullmatch(t) or (what == "label" and t.lower() in ("boolean", "bool"))
        if not ok:
            raise ValueError(f"{what} column {name!r} must be numeric, its type is {t}")
    return r


def _scores(values: list) -> np.ndarray:
    """Fetched scores as :func:`course_lib.roc_curve` gives thresholds: float64, or
    Python ints in an object array when float64 cannot hold them (BIGINT ``2**62 + k``),
    so that no threshold is rounded; ``inf`` first, for the empty selection."""
    if any(isinstance(v, int) and not -(2**53) <= v <= 2**53 for v in values):
        out = np.empty(len(values) + 1, dtype=object)
        out[0] = np.inf
        out[1:] = [int(v) for v in values]
        return out
    return np.array([np.inf] + [float(v) for v in values])


def _score(value: Any) -> float | int:
    """One fetched score: a Python int when float64 cannot hold it, else a float."""
    if isinstance(value, int) and not -(2**53) <= value <= 2**53:
        return value
    return float(value)


def _int(value: Any) -> int:
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise ValueError(f"expected an integer, got {value}")
        return int(value)
    return int(value)


def sql_checks(
    run: Any, source: str, *, label: str, score: str, weight: str | None = None
) -> SqlChecks:
    """Validate the data in the engine: raise ValueError on a bad label, score or weight.

    Returns the counts of :func:`checks_sql`.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.

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
    return _run_checks(run, _relation_on(run, source, label, score, weight), source, label,
                       score, weight)


def _run_checks(
    run: Any, r: Relation, source: str, label: str, score: str, weight: str | None
) -> SqlChecks:
    (row,) = run.fetch(checks_sql(r))
    n, m1, m0, bad_l, bad_s, bad_w, frac_w = row
    c = SqlChecks(int(n), float(m1 or 0), float(m0 or 0), int(bad_l or 0), int(bad_s or 0),
                  int(bad_w or 0), int(frac_w or 0))
    if c.n == 0:
        raise ValueError(f"the source {source!r} has no rows")
    if c.bad_labels:
        raise ValueError(
            f"{label} must contain only 0 and 1 (or booleans), without NULL: "
            f"{c.bad_labels} of {c.n} rows are not"
        )
    if c.bad_scores:
        raise ValueError(f"{score} contains NULL, NaN or infinite values ({c.bad_scores} of {c.n})")
    if c.bad_weights:
        raise ValueError(
            f"{weight} must be finite and non-negative, without NULL ({c.bad_weights} of {c.n})"
        )
    return c


def _exact_weights(c: SqlChecks, weight: str | None, exact: bool) -> bool:
    if weight is None or not exact:
        return False
    if c.fractional_weights:
        raise ValueError(f"exact=True needs integer sample weights; {weight} has fractions")
    if c.m1 + c.m0 >= 2**53:
        raise ValueError("exact=True needs a total sample weight below 2**53")
    return True


def _prepare(
    run: Any, source: str, label: str, score: str, weight: str | None, exact: bool = False
) -> tuple[SqlChecks, Relation, bool]:
    r = _relation_on(run, source, label, score, weight)
    c = _run_checks(run, r, source, label, score, weight)
    return c, r, _exact_weights(c, weight, exact)


def _need(c: SqlChecks, what: str, *, negatives: bool = True) -> None:
    """The undefined-case policy of :mod:`course_lib._checks` for a curve: raise."""
    need_classes(c.m1, c.m0, f"the {what}", warn=False, negatives=negatives)


def _one_class(c: SqlChecks, what: str) -> bool:
    """The undefined-case policy for a number: warn (True) when a class is missing."""
    return not need_classes(c.m1, c.m0, what, warn=True, stacklevel=3)


def sql_roc_curve(
    run: Any, source: str, *, label: str, score: str, weight: str | None = None
) -> RocCurve:
    """The ROC curve computed in the engine, as :func:`course_lib.roc_curve` returns it.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.

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
    c, r, ew = _prepare(run, source, label, score, weight)
    _need(c, "ROC curve")
    rows = run.fetch(roc_points_sql(r, exact_weights=ew))
    fpr = np.array([0.0] + [float(row[5]) for row in rows])
    tpr = np.array([0.0] + [float(row[6]) for row in rows])
    thresholds = _scores([row[0] for row in rows])
    return RocCurve(fpr, tpr, thresholds)


def _auc_parts(
    run: Any, source: str, label: str, score: str, weight: str | None, exact: bool, what: str
) -> tuple[Any, Any, Any, bool] | None:
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    if _one_class(c, what):
        return None
    return _auc_row(run.fetch(auc_sql(r, exact_weights=ew)), weight is None or ew)


def _auc_row(rows: list[tuple], integral: bool) -> tuple[Any, Any, Any, bool]:
    ((twice, m1, m0, *_),) = rows
    if integral:
        return _int(twice), _int(m1), _int(m0), True
    return float(twice), float(m1), float(m0), False


def _auc_value(parts: Any, exact: bool) -> float | Fraction:
    """The AUC from ``_auc_parts``: a Fraction of the integer pair count when the counts
    are integral (returned as such when ``exact``), nan when a class is missing."""
    if parts is None:
        return float("nan")
    twice, m1, m0, integral = parts
    if integral:
        f = Fraction(twice, 2 * m1 * m0)
        return f if exact else float(f)
    return twice / 2 / (m1 * m0)


def sql_roc_auc(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    exact: bool = False,
) -> float | Fraction:
    """The ROC AUC with ties counting 1/2, computed in the engine.

    Without weights (or with integer weights and ``exact=True``) the pair count is an
    integer summed in the engine's exact type, so the result is exact: a
    :class:`~fractions.Fraction` with ``exact=True``, else the correctly rounded float.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.
    exact : bool, default False
        Return the result as a :class:`fractions.Fraction` (needs no weights or
        integer weights).

    Returns
    -------
    float or Fraction
        ``nan`` with an :class:`UndefinedMetricWarning` if one class is missing.

    Examples
    --------
    Table 1 of the book: 9.5 of the 12 pairs are ordered correctly:

    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> sql_roc_auc(run, q, label="y", score="s", exact=True)
    Fraction(19, 24)
    """
    return _auc_value(_auc_parts(run, source, label, score, weight, exact, "ROC AUC"), exact)


def sql_gini(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    exact: bool = False,
) -> float | Fraction:
    """The Gini coefficient ``2 AUC - 1`` (:func:`course_lib.gini_normalized` for labels).

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.
    exact : bool, default False
        Return the result as a :class:`fractions.Fraction` (needs no weights or
        integer weights).

    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> sql_gini(run, q, label="y", score="s", exact=True)
    Fraction(7, 12)
    """
    auc = _auc_value(
        _auc_parts(run, source, label, score, weight, exact, "the Gini coefficient"), True)
    gini = 2 * auc - 1  # exact while the AUC is a Fraction, rounded once below
    return gini if exact or not isinstance(gini, Fraction) else float(gini)


def sql_ks(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    exact: bool = False,
) -> SqlKs:
    """The KS statistic ``max(TPR - FPR)``, its threshold and positive rate.

    The same vertex as :func:`course_lib.ks_curve`: of equal gaps, the highest
    threshold. ``exact=True`` gives the statistic as a Fraction (needs no weights or
    integer weights). With one class missing: ``nan`` and an
    :class:`UndefinedMetricWarning`, as :func:`course_lib.ks_statistic`.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.
    exact : bool, default False
        Return the result as a :class:`fractions.Fraction` (needs no weights or
        integer weights).

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> k = sql_ks(run, q, label="y", score="s", exact=True)
    >>> k.ks, k.threshold, round(k.rate * 7, 10)
    (Fraction(1, 2), 0.2, 5.0)
    """
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    if _one_class(c, "the KS statistic"):
        return SqlKs(float("nan"), float("nan"), float("nan"))
    return _ks_row(run.fetch(ks_sql(r, exact_weights=ew)), weight is None or ew, exact)


def _ks_row(rows: list[tuple], integral: bool, exact: bool) -> SqlKs:
    ((thr, tp, fp, gap, m1, m0, ks, rate),) = rows
    if (_int(gap) if integral else float(gap)) <= 0:
        return SqlKs(Fraction(0) if exact else 0.0, float("inf"), 0.0)
    if integral:
        f = Fraction(_int(gap), _int(m1) * _int(m0))
        value: float | Fraction = f if exact else float(f)
    else:
        value = float(gap) / (float(m1) * float(m0))
    return SqlKs(value, _score(thr), float(rate))


def sql_gain_curve(
    run: Any, source: str, *, label: str, score: str, weight: str | None = None
) -> GainCurve:
    """The gain curve computed in the engine, as :func:`course_lib.gain_curve`.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.

    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> [round(t * 3) for t in sql_gain_curve(run, q, label="y", score="s").tpr]
    [0, 1, 1, 2, 3, 3, 3]
    """
    c, r, ew = _prepare(run, source, label, score, weight)
    _need(c, "gain curve", negatives=False)
    rows = run.fetch(gain_curve_sql(r, exact_weights=ew))
    rate = np.array([0.0] + [float(row[3]) for row in rows])
    tpr = np.array([0.0] + [float(row[4]) for row in rows])
    thresholds = _scores([row[0] for row in rows])
    return GainCurve(rate, tpr, thresholds)


def sql_lift_curve(
    run: Any, source: str, *, label: str, score: str, weight: str | None = None
) -> LiftCurve:
    """The lift curve computed in the engine, as :func:`course_lib.lift_curve` (the lift
    at rate 0 is that of the top group).

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.

    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> sql_lift_curve(run, q, label="y", score="s").lift.round(4).tolist()
    [2.3333, 2.3333, 1.1667, 1.5556, 1.4, 1.1667, 1.0]
    """
    c, r, ew = _prepare(run, source, label, score, weight)
    _need(c, "lift curve", negatives=False)
    rows = run.fetch(gain_curve_sql(r, exact_weights=ew))
    lift = np.array([float(rows[0][5])] + [float(row[5]) for row in rows])
    rate = np.array([0.0] + [float(row[3]) for row in rows])
    thresholds = _scores([row[0] for row in rows])
    return LiftCurve(rate, lift, thresholds)


def sql_gains_table(
    run: Any, source: str, *, label: str, score: str, n_bins: int = 10
) -> pd.DataFrame:
    """The gains table computed in the engine, equal to :func:`course_lib.gains_table`.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    n_bins : int, default 10
        Number of bins of the gains table, from 1 to the number of rows.

    Raises
    ------
    ValueError
        If ``n_bins`` is not an integer from 1 to n, one class is missing, or the data
        are invalid.

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> sql_gains_table(run, q, label="y", score="s", n_bins=4)["N"].tolist()
    [2, 3, 1, 1]
    """
    k = _check_bins(n_bins, "n_bins")
    c, r, _ = _prepare(run, source, label, score, None)
    if k > c.n:
        raise ValueError(f"n_bins must be between 1 and the number of samples {c.n}, got {k}")
    _need(c, "gains table")
    return _gains_frame(run.fetch(gains_table_sql(r, n_bins=k)))


def _gains_frame(rows: list[tuple]) -> pd.DataFrame:
    data = {name: [row[i + 1] for row in rows] for i, name in enumerate(GAINS_TABLE_COLUMNS)}
    frame = pd.DataFrame(
        {
            name: np.array([_int(v) for v in values], dtype=np.int64)
            if name in ("N", "N_1", "cum_N1", "N_0", "cum_N0")
            else np.array(values, dtype=np.float64)
            for name, values in data.items()
        },
        index=pd.Index(np.array([_int(row[0]) for row in rows], dtype=np.int64), name="bin"),
    )
    return frame


def sql_binned_auc(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    num_bins: int = 1000,
    exact: bool = False,
) -> float | Fraction:
    """Spark MLlib's down-sampled AUC (see :func:`binned_auc_sql`), on any engine.

    With ``exact=True`` (no weights) the trapezoid area is returned as a Fraction.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.
    num_bins : int, default 1000
        Number of bins of Spark MLlib's down-sampling.
    exact : bool, default False
        Return the trapezoid area as a :class:`fractions.Fraction` (needs no weights).

    >>> run = DuckDBRunner()
    >>> q = "SELECT i % 2 AS y, i AS s FROM range(8) t(i)"
    >>> sql_binned_auc(run, q, label="y", score="s", num_bins=2, exact=True)
    Fraction(1, 2)
    >>> sql_roc_auc(run, q, label="y", score="s", exact=True)
    Fraction(5, 8)
    """
    k = _check_num_bins(num_bins)
    c, r, _ = _prepare(run, source, label, score, weight)
    if _one_class(c, "ROC AUC"):
        return float("nan")
    ((twice, m1, m0, _, _),) = run.fetch(binned_auc_sql(r, num_bins=k))
    if weight is None:
        f = Fraction(_int(twice), 2 * _int(m1) * _int(m0))
        return f if exact else float(f)
    if exact:
        raise ValueError("exact=True needs no weights")
    return float(twice) / 2 / (float(m1) * float(m0))


def sql_binned_pr_auc(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    num_bins: int = 1000,
    exact: bool = False,
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

    With ``exact=True`` (no weights) the area is returned as a Fraction.

    >>> run = DuckDBRunner()
    >>> q = "SELECT i % 2 AS y, i AS s FROM range(8) t(i)"
    >>> sql_binned_pr_auc(run, q, label="y", score="s", num_bins=0, exact=True)
    Fraction(1121, 1680)
    >>> sql_binned_pr_auc(run, q, label="y", score="s", num_bins=2, exact=True)
    Fraction(1, 2)
    """
    k = _check_num_bins(num_bins)
    c, r, _ = _prepare(run, source, label, score, weight)
    if c.m1 == 0:
        _one_class(c, "PR AUC")
        return float("nan")
    if exact and weight is not None:
        raise ValueError("exact=True needs no weights")
    rows = run.fetch(binned_pr_points_sql(r, num_bins=k))
    counts = weight is None  # integers: the area as a Fraction, rounded once at the end
    area: Any = Fraction(0) if counts else 0.0
    recall_prev: Any = 0
    precision_prev: Any = None
    for tp_raw, fp_raw, m1_raw in rows:
        if counts:
            tp, fp, m1 = _int(tp_raw), _int(fp_raw), _int(m1_raw)
            precision: Any = Fraction(tp, tp + fp) if tp + fp else Fraction(1)
            recall: Any = Fraction(tp, m1)
        else:
            wtp, wfp, wm1 = float(tp_raw), float(fp_raw), float(m1_raw)
            precision = wtp / (wtp + wfp) if wtp + wfp else 1.0
            recall = wtp / wm1
        if precision_prev is None:
            precision_prev = precision
        area += (recall - recall_prev) * (precision + precision_prev) / 2
        recall_prev, precision_prev = recall, precision
    return area if exact else float(area)


def sql_evaluation(
    run: Any,
    source: str,
    *,
    label: str,
    score: str,
    weight: str | None = None,
    n_bins: int = 10,
    exact: bool = False,
) -> SqlEvaluation:
    """The AUC, Gini, KS statistic and gains table of one score, reading the data twice.

    The functions :func:`sql_roc_auc`, :func:`sql_ks` and :func:`sql_gains_table` each
    read the whole source twice: once to check it, once to group it by score. This one
    checks the source once, keeps its :func:`score_groups_sql` table (one row per
    distinct score) in the engine (``run.keep``), computes the three results from that
    small table and drops it. The results are those of the three functions: the AUC,
    Gini and KS weighted when there is a weight column, exact as there (``exact``), and
    the gains table unweighted, with ``n_bins`` bins.

    Parameters
    ----------
    run : DuckDBRunner or SparkRunner
        The engine that runs the SQL.
    source : str
        A table name or one SELECT query (see :func:`relation`).
    label : str
        Column of 0/1 (or boolean) labels.
    score : str
        Column of scores, numeric; it keeps its type in the engine, so integers are
        ranked exactly (BIGINT ``2**62 + k`` included).
    weight : str, optional
        Column of non-negative sample weights; none by default.
    n_bins : int, default 10
        Number of bins of the gains table, from 1 to the number of rows.
    exact : bool, default False
        Return the result as a :class:`fractions.Fraction` (needs no weights or
        integer weights).

    Raises
    ------
    ValueError
        On invalid data, a bad ``n_bins``, or when one class is missing (the gains
        table needs both).

    Examples
    --------
    >>> run = DuckDBRunner()
    >>> q = ("SELECT * FROM (VALUES (0, 0.5), (0, 0.1), (0, 0.2), (1, 0.6), (1, 0.2), "
    ...      "(1, 0.3), (0, 0.0)) v(y, s)")
    >>> e = sql_evaluation(run, q, label="y", score="s", n_bins=4, exact=True)
    >>> e.auc, e.gini, e.ks.ks, e.gains_table["N"].tolist()
    (Fraction(19, 24), Fraction(7, 12), Fraction(1, 2), [2, 3, 1, 1])
    """
    k = _check_bins(n_bins, "n_bins")
    c, r, ew = _prepare(run, source, label, score, weight, exact)
    if k > c.n:
        raise ValueError(f"n_bins must be between 1 and the number of samples {c.n}, got {k}")
    _need(c, "evaluation (AUC, KS and gains table)")
    try:
        name = run.keep(score_groups_sql(r, exact_weights=ew))
    except MemoryError:  # one window over every distinct score: in parts instead
        counts = run.keep(score_counts_sql(r, exact_weights=ew))
        try:
            name = run.keep(cumulative_counts_sql(counts, r, buckets=BUCKETS))
        finally:
            run.release(counts)
    try:
        g = r._replace(source=name, grouped=True)
        integral = weight is None or ew
        auc = _auc_value(_auc_row(run.fetch(auc_sql(g, exact_weights=ew)), integral), True)
        ks = _ks_row(run.fetch(ks_sql(g, exact_weights=ew)), integral, exact)
        table = _gains_frame(run.fetch(gains_table_sql(g, n_bins=k)))
    finally:
        run.release(name)
    gini = 2 * auc - 1
    if not exact and isinstance(auc, Fraction):
        auc, gini = float(auc), float(gini)
    return SqlEvaluation(auc, gini, ks, table, c)
