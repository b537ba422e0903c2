"""SQL generation: sources and columns made safe, and one SQL statement per question.

:func:`relation` validates and quotes a source (a table name or a ``SELECT`` query) and
its label, score and weight columns; nothing else goes into the SQL. The ``*_sql``
functions turn the :class:`Relation` into one statement: pure functions of strings,
which run nothing (:mod:`course_lib.sql.runners` runs them).

Every statement starts from the same skeleton of common table expressions (built once,
by ``_groups``): ``rows_`` (the source reduced to ``y``, ``s``, ``w``), ``groups_`` (one
row per distinct score), ``cum_`` (the running class sums from the top score down) and
``tot_`` (the class totals); the statements differ only in what they read from it.

The two SQL dialects differ in four places, all kept in :class:`Dialect`: identifier
quotes, the exact integer type, integer division and the finiteness test.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import numpy as np

from ..gains import GAINS_TABLE_COLUMNS

__all__ = [
    "Dialect",
    "DUCKDB",
    "SPARK",
    "Relation",
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
    "binned_pr_points_sql",
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


def relation(source: str, *, label: str, score: str, weight: str | None = None,
             dialect: str | Dialect = "duckdb", columns: list[str] | None = None) -> Relation:
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


def _per_score(r: Relation, exact_weights: bool, columns: str) -> str:
    """One row per distinct score, highest first: ``threshold`` and ``columns`` (read
    from ``cum_`` and ``tot_``)."""
    return (
        _groups(r, exact_weights) + "\n"
        f"SELECT s AS threshold, {columns}\n"
        "FROM cum_ CROSS JOIN tot_ ORDER BY s DESC"
    )


#: The positive rate and the AUC, read from ``tp, fp, m1, m0`` and ``twice_area``.
_RATE = "CAST(tp + fp AS DOUBLE) / (m1 + m0)"
_AUC = "CAST(twice_area AS DOUBLE) / (2.0 * m1 * m0) AS auc"


def _area(ctes: str, r: Relation, exact: bool, *, area: str, columns: str) -> str:
    """``ctes`` (ending with ``tot_``) and ``area_ AS (SELECT {area})``, then one row:
    ``twice_area, m1, m0`` and ``columns``; the class totals cast to the dialect's
    exact integer type when ``exact``."""
    return (
        ctes + ",\n"
        f"area_ AS (SELECT {area}),\n"
        f"tot2_ AS (SELECT {_exact('m1', r, exact)} AS m1, {_exact('m0', r, exact)} AS m0 "
        "FROM tot_)\n"
        f"SELECT twice_area, m1, m0, {columns}\n"
        "FROM area_ CROSS JOIN tot2_"
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
    several questions from it without another sort. (:func:`sql_evaluation` keeps the
    plain counts of :func:`score_counts_sql` instead and cumulates them in Python, in
    the library's one engine.)

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
    return _per_score(
        r, exact_weights,
        "pos, neg, tp, fp, CAST(fp AS DOUBLE) / m0 AS fpr, CAST(tp AS DOUBLE) / m1 AS tpr",
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
    return _area(
        _groups(r, exact_weights), r, exact,
        area=f"SUM({term}) AS twice_area FROM cum_",
        columns=f"{_AUC}, CAST(twice_area - m1 * m0 AS DOUBLE) / (1.0 * m1 * m0) AS gini",
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
        f"{_RATE} AS rate\n"
        "FROM gap_ ORDER BY scaled_gap DESC, s DESC LIMIT 1"
    )


def gain_curve_sql(r: Relation, *, exact_weights: bool = False) -> str:
    """One row per distinct score, highest first: ``threshold, tp, selected, rate, tpr,
    lift`` with ``rate = selected / n``, ``tpr = tp / m1`` and ``lift = tpr / rate``.

    >>> "AS lift" in gain_curve_sql(relation("t", label="y", score="s"))
    True
    """
    return _per_score(
        r, exact_weights,
        f"tp, tp + fp AS selected, {_RATE} AS rate, CAST(tp AS DOUBLE) / m1 AS tpr, "
        f"(CAST(tp AS DOUBLE) / m1) / ({_RATE}) AS lift",
    )


def _check_bins(n_bins: Any, name: str, *, minimum: int = 1) -> int:
    """A count of bins: an integer of at least ``minimum`` (Spark's ``numBins`` may be
    0, for no down-sampling)."""
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < minimum:
        kind = "positive" if minimum == 1 else "non-negative"
        raise ValueError(f"{name} must be a {kind} integer, got {n_bins!r}")
    return int(n_bins)


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
    k = _check_bins(num_bins, "num_bins", minimum=0)
    exact = r.weight is None
    # trapezoid: width q_ = fp - fp_prev, heights tp - p_ (the previous point) and tp
    return _area(
        _chunks_sql(r, k), r, exact,
        area=f"SUM({_exact('q_', r, exact)} * (2 * tp - p_)) AS twice_area, "
        "COUNT(*) AS chunks FROM ccum_",
        columns=f"chunks, {_AUC}",
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
    k = _check_bins(num_bins, "num_bins", minimum=0)
    return _chunks_sql(r, k) + "\nSELECT tp, fp, m1 FROM ccum_ CROSS JOIN tot_ ORDER BY chunk_"


