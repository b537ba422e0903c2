"""Fetched rows into the library's objects: checks, exact numbers, curves and tables.

The engines return rows of Python numbers (DuckDB's HUGEINT as ``int``, Spark's
``DECIMAL(38,0)`` as :class:`~decimal.Decimal`); the functions here turn the rows of the
statements of :mod:`course_lib.sql.generate` into what the rest of :mod:`course_lib`
returns: a :class:`fractions.Fraction` where the counts are integers, a
:class:`~course_lib.roc.RocCurve` or a gain or lift curve with the threshold ``inf`` of
the empty selection in front, the gains ``DataFrame``. Nothing here runs SQL.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..gains import GAINS_TABLE_COLUMNS

__all__ = ["SqlChecks", "SqlKs", "SqlEvaluation"]


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


class SqlEvaluation(NamedTuple):
    """What :func:`sql_evaluation` computes from one grouping of the scores."""

    auc: float | Fraction
    gini: float | Fraction
    ks: SqlKs
    gains_table: pd.DataFrame
    checks: SqlChecks


# ------------------------------------------------------------------------- numbers


def thresholds(values: list) -> np.ndarray:
    """Fetched scores as :func:`course_lib.roc_curve` gives thresholds: float64, or
    Python ints in an object array when float64 cannot hold them (BIGINT ``2**62 + k``),
    so that no threshold is rounded; ``inf`` first, for the empty selection."""
    if any(isinstance(v, int) and not -(2**53) <= v <= 2**53 for v in values):
        out = np.empty(len(values) + 1, dtype=object)
        out[0] = np.inf
        out[1:] = [int(v) for v in values]
        return out
    return np.array([np.inf] + [float(v) for v in values])


def threshold(value: Any) -> float | int:
    """One fetched score: a Python int when float64 cannot hold it, else a float."""
    if isinstance(value, int) and not -(2**53) <= value <= 2**53:
        return value
    return float(value)


def integer(value: Any) -> int:
    """A fetched integer (Spark's exact type arrives as a Decimal)."""
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise ValueError(f"expected an integer, got {value}")
        return int(value)
    return int(value)


# -------------------------------------------------------------------------- checks


def checks(
    row: tuple, source: str, label: str, score: str, weight: str | None
) -> SqlChecks:
    """The row of :func:`checks_sql`; ValueError on no rows or an invalid value."""
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


# --------------------------------------------------------------------- areas, KS


def pair_counts(rows: list[tuple], integral: bool) -> tuple[Any, Any, Any, bool]:
    """``twice_area, m1, m0`` of the one row of :func:`auc_sql` or
    :func:`binned_auc_sql`: integers when the counts are (``integral``), else floats."""
    ((twice, m1, m0, *_),) = rows
    if integral:
        return integer(twice), integer(m1), integer(m0), True
    return float(twice), float(m1), float(m0), False


def auc(parts: tuple[Any, Any, Any, bool] | None, exact: bool) -> float | Fraction:
    """The AUC from :func:`pair_counts`: a Fraction of the integer pair count when the
    counts are integral (returned as such when ``exact``), nan for ``None`` (a class
    is missing)."""
    if parts is None:
        return float("nan")
    twice, m1, m0, integral = parts
    if integral:
        f = Fraction(twice, 2 * m1 * m0)
        return f if exact else float(f)
    return twice / 2 / (m1 * m0)


def ks(rows: list[tuple], integral: bool, exact: bool) -> SqlKs:
    """The one row of :func:`ks_sql` as :class:`SqlKs`; KS 0 at threshold ``inf`` when
    no gap is positive."""
    ((thr, _tp, _fp, gap, m1, m0, _ks, rate),) = rows
    if (integer(gap) if integral else float(gap)) <= 0:
        return SqlKs(Fraction(0) if exact else 0.0, float("inf"), 0.0)
    if integral:
        f = Fraction(integer(gap), integer(m1) * integer(m0))
        value: float | Fraction = f if exact else float(f)
    else:
        value = float(gap) / (float(m1) * float(m0))
    return SqlKs(value, threshold(thr), float(rate))


def binned_pr_area(rows: list[tuple], counts: bool, exact: bool) -> float | Fraction:
    """Spark's trapezoid area under the PR points of :func:`binned_pr_points_sql`:
    ``(0, P_1)`` in front, precision 1 where nothing is selected. With ``counts`` the
    area is summed as a Fraction (returned as such when ``exact``), rounded once."""
    area: Any = Fraction(0) if counts else 0.0
    recall_prev: Any = 0
    precision_prev: Any = None
    for tp_raw, fp_raw, m1_raw in rows:
        if counts:
            tp, fp, m1 = integer(tp_raw), integer(fp_raw), integer(m1_raw)
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


# ------------------------------------------------------------------ curves, tables


def curve(
    rows: list[tuple], x: int, y: int, *, y_first: float | None = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Columns ``x`` and ``y`` of per-score rows (:func:`roc_points_sql`,
    :func:`gain_curve_sql`: the threshold first, highest first) and the thresholds, each
    behind the point of the empty selection: x 0, y ``y_first`` (``None``: the y of the
    top group) and the threshold ``inf``."""
    xs = [0.0] + [float(row[x]) for row in rows]
    ys = [float(row[y]) for row in rows]
    ys.insert(0, ys[0] if y_first is None else y_first)
    return np.array(xs), np.array(ys), thresholds([row[0] for row in rows])


def gains_frame(rows: list[tuple]) -> pd.DataFrame:
    """The rows of :func:`gains_table_sql` as :func:`course_lib.gains_table` returns them."""
    data = {name: [row[i + 1] for row in rows] for i, name in enumerate(GAINS_TABLE_COLUMNS)}
    return pd.DataFrame(
        {
            name: np.array([integer(v) for v in values], dtype=np.int64)
            if name in ("N", "N_1", "cum_N1", "N_0", "cum_N0")
            else np.array(values, dtype=np.float64)
            for name, values in data.items()
        },
        index=pd.Index(np.array([integer(row[0]) for row in rows], dtype=np.int64), name="bin"),
    )
