"""The one engine: every ranking and calibration number from sorted score groups.

Score groups (distinct scores with the weight of each class) arrive in decreasing
score order, in one chunk or many (``(score, pos, neg)`` tuples): from numpy in memory
(:func:`course_lib._groups.group_chunks`), or from DuckDB and Spark through the
report's engines (:class:`~course_lib.report._engine.Groups`). A :class:`Cumulator`
turns each chunk into running totals (:class:`Step`: the positives and negatives at
or above each group's score, and before it) with the carry of the chunks before; each
accumulator below reads the steps and keeps only what its number needs (a few
integers, ten bins, the ROC hull, a thinned curve). The library's public functions
(:func:`course_lib.roc_auc`, :func:`course_lib.ks_statistic`, ...), the report and
:func:`course_lib.sql.sql_evaluation` all compute their numbers here, and nowhere else.
Totals that a number needs first (the class totals) are known before the first chunk,
and the DeLong variance takes a second pass once the AUC is known.

Arithmetic
----------
Counts (no weights, or integer weights with a total below ``2**53``) are int64 and
the AUC, Gini, KS and partial AUC are exact :class:`fractions.Fraction` s built from
Python integers. Fractional weights are float64, scaled by a power of two (exact) so
that no product overflows; their running sums are taken *sequentially* (an
accumulation with the carry prepended) and the sums over groups by :class:`Sum`
(pairwise within blocks counted from the first value, the blocks in order), so the
result does not depend on the chunk size, bit for bit.

Scores are only compared (int64 scores beyond ``2**53`` stay int64, their thresholds
Python ints), except by the calibration numbers (probabilities) and the bins of the
score-distribution figure.

Examples
--------
Table 1 of the book in chunks of two score groups, against the library:

>>> from course_lib import auc_ci_delong, ks_statistic, partial_roc_auc
>>> y = np.array([0, 0, 0, 1, 1, 1, 0], dtype=bool)
>>> b = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
>>> chunks = [(np.array([0.6, 0.5]), np.array([1, 0]), np.array([0, 1])),
...           (np.array([0.3, 0.2]), np.array([1, 1]), np.array([0, 1])),
...           (np.array([0.1, 0.0]), np.array([0, 0]), np.array([1, 1]))]
>>> t = Totals.of(3, 4, True)
>>> cum, auc, ks, part = Cumulator(t), AucAcc(t), KsAcc(t), PartialAcc(t, 0.25)
>>> for c in chunks:
...     step = cum.step(c)
...     auc.update(step); ks.update(step); part.update(step)
>>> auc.result(), ks.result(), ks.threshold()
(Fraction(19, 24), Fraction(1, 2), 0.2)
>>> part.result()[0] == partial_roc_auc(y, b, max_fpr=0.25, exact=True)
True
>>> delong, cum2 = DeLongAcc(t, int(auc.num)), Cumulator(t)
>>> for c in chunks:
...     delong.update(cum2.step(c))
>>> bool(np.isclose(delong.variance(), auc_ci_delong(y, b).variance, rtol=1e-12))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy.special import betainc, chdtrc, expit, log_expit, logit, ndtr, ndtri

from ._checks import check_scores, class_totals, need_classes
from ._groups import DistinctGroups, group_chunks

__all__ = [
    "in_memory",
    "run",
    "Totals",
    "Step",
    "Cumulator",
    "stream_rows",
    "AucAcc",
    "KsAcc",
    "ApAcc",
    "PartialAcc",
    "HullAcc",
    "GainsAcc",
    "CalibrationAcc",
    "OperatingAcc",
    "CurveAcc",
    "CurvesAcc",
    "DistributionAcc",
    "DeLongAcc",
    "PlacementTable",
    "paired_delong",
    "psi",
    "psi_terms",
    "psi_value",
    "decile_lows",
    "delong_cut",
    "delong_interval",
    "THIN",
    "BandAcc",
    "BandCounts",
    "band_tests",
    "hosmer_lemeshow_counts",
    "citl_counts",
    "logistic_recalibration",
    "unpaired_delong",
]

# Collinearity tolerance of the hull: for ROC rates i/m0, j/m1 the cross product of
# two chords is a multiple of 1/(m0 m1), so a gap of 1e-14 separates rounding error
# (about 1e-16) from a real turn whenever m0 * m1 < 1e13.
COLLINEAR_TOL = 1e-14


#: Curves for figures are thinned to the first point entering each cell of a grid of
#: ``1 / THIN`` on each axis (see :class:`CurvesAcc`).
THIN = 1000


class Totals(NamedTuple):
    """The class totals of a stream and how to count.

    ``integral``: counts are integers (int64 arithmetic, exact fractions); otherwise
    the weight sums are float64, multiplied by ``scale`` (a power of two).
    """

    m1: int | float
    m0: int | float
    integral: bool
    scale: float = 1.0

    @classmethod
    def of(cls, m1: float, m0: float, integral: bool) -> Totals:
        """Totals of a stream whose positives weigh ``m1`` and negatives ``m0``."""
        if integral:
            return cls(int(m1), int(m0), True, 1.0)
        total = float(m1) + float(m0)
        exponent = int(np.frexp(total)[1]) if total > 0 else 0
        scale = math.ldexp(1.0, -exponent)
        return cls(float(m1) * scale, float(m0) * scale, False, scale)

    @property
    def n(self) -> int | float:
        """The total weight (count) of both classes."""
        return self.m1 + self.m0


class Step(NamedTuple):
    """One chunk as running totals; groups of zero weight left out.

    ``tp0, fp0``: positives and negatives scoring above the group; ``tp1, fp1``: at
    or above it (through the group). ``single``: every group is one object (counts),
    which lets a number take a shorter formula.
    """

    score: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    tp0: np.ndarray
    fp0: np.ndarray
    tp1: np.ndarray
    fp1: np.ndarray
    single: bool = False


def _running(carry: Any, values: np.ndarray) -> np.ndarray:
    """``carry`` followed by the running sums of ``values`` from it (sequential).

    (``numpy.cumsum`` into an array it reads from copies it first: five times slower
    than into a fresh one.)"""
    out = np.empty(values.size + 1, dtype=values.dtype)
    out[0] = carry
    if values.dtype.kind in "iu":  # exact: the carry can come last
        np.add.accumulate(values, out=out[1:])
        if carry:
            np.add(out[1:], carry, out=out[1:])
        return out
    out[1:] = values  # floats: the carry first, as one sequence from it
    return np.add.accumulate(out)


#: Values per block of :class:`Sum`.
SUM_BLOCK = 2048


class Sum:
    """A float sum with the same bits however its values come in chunks, and at the
    speed of ``numpy.sum``: the values are cut into blocks of :data:`SUM_BLOCK`
    counted from the first value, each block summed pairwise (``numpy.sum``), and the
    block sums added in order; a block split between chunks waits for its end.
    (A left-to-right ``numpy.cumsum`` also gives the same bits for any chunking, but
    is ten to twenty times slower: each addition waits for the one before.)

    >>> a, b = Sum(), Sum()
    >>> x = np.random.default_rng(0).random(5000)
    >>> a.add(x); b.add(x[:1234]); b.add(x[1234:])
    >>> float(a) == float(b)
    True
    """

    __slots__ = ("total", "pending")

    def __init__(self) -> None:
        self.total = 0.0
        self.pending = np.empty(0)

    def add(self, values: np.ndarray) -> None:
        """Add the next values."""
        v = values.astype(np.float64, copy=False)
        if self.pending.size:
            v = np.concatenate((self.pending, v))
        whole = v.size - v.size % SUM_BLOCK
        if whole:
            for block in v[:whole].reshape(-1, SUM_BLOCK).sum(axis=1).tolist():
                self.total += block
        self.pending = v[whole:].copy()

    def __float__(self) -> float:
        return self.total + float(self.pending.sum()) if self.pending.size else self.total


def seqsum(values: np.ndarray, carry: Any = 0) -> Any:
    """``carry + sum(values)`` with the same bits for any chunking: exact for integers,
    added to a :class:`Sum` carry (returned) for floats, else left to right."""
    if isinstance(carry, Sum):
        carry.add(values)
        return carry
    if values.size == 0:
        return carry
    if values.dtype.kind in "iu":
        return carry + int(values.sum())
    if values.dtype == object:
        return carry + sum(values.tolist())
    return float(_running(carry, values.astype(np.float64, copy=False))[-1])


class Cumulator:
    """Running totals over the chunks of one stream (one score, one segment)."""

    def __init__(self, totals: Totals) -> None:
        self.totals = totals
        self.tp: Any = 0 if totals.integral else 0.0
        self.fp: Any = 0 if totals.integral else 0.0
        self.wide = totals.integral and 2 * int(totals.n) ** 2 >= 2**62

    def step(self, g: Any) -> Step:
        """The chunk ``g`` (score, pos, neg) as running totals."""
        score, pos, neg = g[0], g[1], g[2]
        single = isinstance(g, DistinctGroups) and self.totals.integral and not self.wide
        if self.totals.integral:
            dtype: Any = object if self.wide else np.int64
            pos = np.asarray(pos).astype(dtype, copy=False)
            neg = np.asarray(neg).astype(dtype, copy=False)
        else:
            pos = np.asarray(pos, dtype=np.float64) * self.totals.scale
            neg = np.asarray(neg, dtype=np.float64) * self.totals.scale
        if not single:
            live = (pos + neg) > 0
            if not live.all():
                score, pos, neg = score[live], pos[live], neg[live]
        tp = _running(self.tp, pos)
        fp = _running(self.fp, neg)
        self.tp, self.fp = tp[-1], fp[-1]
        return Step(score, pos, neg, tp[:-1], fp[:-1], tp[1:], fp[1:], single)


def in_memory(
    y: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None = None,
    *,
    integral: bool | None = None,
    scores: bool = True,
) -> tuple[Iterable[Any], Totals]:
    """Validated data as the engine's input: its score groups in chunks (decreasing
    score) and its totals. Counts without weights; ``integral=True`` counts integer
    weights exactly (the caller checked them), else weights are float sums.
    ``scores=False``: the accumulators fed never read the scores (see
    :func:`course_lib._groups.group_chunks`)."""
    m1, m0 = class_totals(y, w)
    exact = w is None if integral is None else integral
    return group_chunks(y, s, w, scores=scores), Totals.of(m1, m0, exact)


def run(chunks: Iterable[Any], totals: Totals, *accumulators: Any) -> None:
    """Feed every chunk, as running totals, to each accumulator (one pass)."""
    cumulator = Cumulator(totals)
    for chunk in chunks:
        step = cumulator.step(chunk)
        for acc in accumulators:
            acc.update(step)
        del chunk, step  # freed before the next chunk is made: its memory is reused hot


def _threshold(value: Any) -> int | float:
    """A score as a JSON-able threshold: Python int for integer scores, else float."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    return float(value)


def _share(value: float) -> float:
    """A float share of weight sums kept in [0, 1]: the weights' sums are taken in
    different orders (the running sums, the class totals), so an AUC or KS of exactly
    1 may come out one unit in the last place above it.

    >>> _share(1.0000000000000002), _share(0.25), _share(float("nan"))
    (1.0, 0.25, nan)
    """
    if value > 1.0:
        return 1.0
    return 0.0 if value < 0.0 else value


def _ratio(num: Any, den: Any, exact: bool) -> Fraction | float:
    if exact:
        return Fraction(int(num), int(den))
    return float(num) / float(den)


def trapezoid_area(x: Any, y: Any) -> float:
    """Area under the broken line through ``(x[k], y[k])``, by trapezoids.

    Parameters
    ----------
    x : array-like of shape (n,)
        Non-decreasing abscissae.
    y : array-like of shape (n,)
        Ordinates.

    Returns
    -------
    float
        ``sum_k (x[k] - x[k-1]) (y[k] + y[k-1]) / 2``.

    Examples
    --------
    >>> trapezoid_area([0, 0.5, 1], [0, 1, 1])
    0.75
    """
    xs = check_scores(x, name="x")
    ys = check_scores(y, name="y")
    if xs.size != ys.size:
        raise ValueError(f"x and y have different lengths: {xs.size} and {ys.size}")
    dx = np.diff(xs)
    if (dx < 0).any():
        raise ValueError("x must be non-decreasing")
    return float(np.dot(dx, ys[1:] + ys[:-1]) / 2)


def mcclish(area: Any, axis: str, a: Any, b: Any) -> Any:
    """McClish's standardization of a partial area over ``[a, b]`` on ``axis`` ("fpr"
    or "tpr"): exact for Fractions. The one formula, used by :func:`partial_roc_auc`
    and by the report's streaming partial AUC.

    >>> mcclish(Fraction(7, 24), "fpr", Fraction(0), Fraction(1, 2))
    Fraction(13, 18)
    """
    width = b - a
    under_diagonal = (b * b - a * a) / 2 if axis == "fpr" else width - (b * b - a * a) / 2
    return (1 + (area - under_diagonal) / (width - under_diagonal)) / 2


def _need_class(count: float, name: str, what: str) -> None:
    """Raise the one-class ValueError when ``count`` (of class ``name``) is zero."""
    if name == "positive":
        need_classes(count, 1, f"the {what}", warn=False, negatives=False)
    else:
        need_classes(1, count, f"the {what}", warn=False)


def gains_table_from_counts(n_pos: Any, n_neg: Any) -> pd.DataFrame:
    """The gains table from the counts of positives and negatives per bin.

    Columns, as in source D (percentages are numbers from 0 to 100):

    - ``N``: objects in the bin; ``%``: their share of all objects;
      ``cum_%``: the share of this bin and the bins above it.
    - ``Prob``: share of positives in the bin, ``N_1 / N`` (a fraction, not a %).
    - ``N_1``: positives in the bin; ``%_1``: their share of all positives;
      ``cum_N1``, ``cum_%1``: the same for this bin and the bins above it
      (``cum_%1`` is the gain, the TPR in %).
    - ``N_0``, ``%_0``, ``cum_N0``, ``cum_%0``: the same for the negatives
      (``cum_%0`` is the FPR in %).
    - ``K-S``: ``cum_%1 - cum_%0``, in percentage points.
    - ``Lift``: ``cum_%1 / cum_%``, the cumulative lift. Source D's text says
      ``cum_%1 / %``, but its printed numbers are ``cum_%1 / cum_%``.

    Parameters
    ----------
    n_pos, n_neg : array-like of non-negative integers, shape (k,)
        Counts per bin, top bin (highest scores) first; every bin must be non-empty
        and there must be positives and negatives.

    Returns
    -------
    pandas.DataFrame
        One row per bin, indexed ``1..k`` (index name ``"bin"``).

    Examples
    --------
    Two bins: the top one holds 3 positives and 1 negative, the other 1 and 5:

    >>> t = gains_table_from_counts([3, 1], [1, 5])
    >>> t[["N", "Prob", "cum_%1", "cum_%0", "K-S", "Lift"]].round(2)
    ... # doctest: +NORMALIZE_WHITESPACE
         N  Prob  cum_%1  cum_%0   K-S  Lift
    bin
    1    4  0.75    75.0    16.67  58.33  1.88
    2    6  0.17   100.0   100.00   0.00  1.00
    """
    n1 = _counts(n_pos, "n_pos")
    n0 = _counts(n_neg, "n_neg")
    if n1.size != n0.size:
        raise ValueError(f"n_pos and n_neg have different lengths: {n1.size} and {n0.size}")
    n = n1 + n0
    if (n == 0).any():
        empty = int(np.argmax(n == 0)) + 1
        raise ValueError(f"every bin must hold an object; bin {empty} is empty")
    _need_class(int(n1.sum()), "positive", "gains table")
    _need_class(int(n0.sum()), "negative", "gains table")
    table = _gains_frame(n1, n0)
    table.index = pd.RangeIndex(1, n.size + 1, name="bin")
    return table


def _gains_frame(n1: np.ndarray, n0: np.ndarray) -> pd.DataFrame:
    """The gains table's columns from the counts (or weight sums) of each bin."""
    n = n1 + n0
    m1, m0 = n1.sum(), n0.sum()
    total = m1 + m0
    cum_n, cum_n1, cum_n0 = np.cumsum(n), np.cumsum(n1), np.cumsum(n0)
    cum_pct1, cum_pct0, cum_pct = 100 * cum_n1 / m1, 100 * cum_n0 / m0, 100 * cum_n / total
    return pd.DataFrame({
        "N": n, "%": 100 * n / total, "cum_%": cum_pct, "Prob": n1 / n,
        "N_1": n1, "%_1": 100 * n1 / m1, "cum_N1": cum_n1, "cum_%1": cum_pct1,
        "N_0": n0, "%_0": 100 * n0 / m0, "cum_N0": cum_n0, "cum_%0": cum_pct0,
        "K-S": cum_pct1 - cum_pct0, "Lift": cum_pct1 / cum_pct,
    })


def _counts(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of counts")
    if arr.dtype.kind not in "iuf" or not np.isfinite(arr).all():
        raise ValueError(f"{name} must hold numbers, got {arr.dtype}")
    if (arr < 0).any() or (arr != np.round(arr)).any():
        raise ValueError(f"{name} must hold non-negative integers")
    return arr.astype(np.int64)


# ------------------------------------------------------------------------------ AUC


def _auc_terms(pos: np.ndarray, neg: np.ndarray, tp0: np.ndarray) -> np.ndarray:
    """Each group's share of twice the AUC's numerator: its negatives times the
    positives above it, ties counted half (``neg (2 tp0 + pos)``)."""
    return neg * (2 * tp0 + pos)


def _ks_gaps(tp1: Any, fp1: Any, m1: Any, m0: Any) -> Any:
    """``TPR - FPR`` at each group boundary times ``m1 m0`` (exact for counts)."""
    return tp1 * m0 - fp1 * m1


def _exact_floats(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``float(Fraction(num, den))`` of int64 arrays, row by row (``nan`` where ``den``
    is 0): one float division where both fit in 53 bits (then it is the same
    correctly rounded float), Python fractions otherwise."""
    out = np.full(num.shape, np.nan)
    ok = den != 0
    if np.all(np.abs(num[ok]) < 2**53) and np.all(den[ok] < 2**53):
        out[ok] = num[ok] / den[ok]
    else:
        out[ok] = [float(Fraction(a, b)) for a, b in zip(num[ok].tolist(), den[ok].tolist())]
    return out


def stream_rows(
    pos: np.ndarray, neg: np.ndarray, *, ks: bool = True
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The AUC, KS and two-sided KS of many streams of counts at once, each the float
    of the exact fraction :class:`AucAcc`, :class:`KsAcc` and :meth:`KsAcc.two_sided`
    give for it: row ``r`` of the (B, G) integer arrays ``pos`` and ``neg`` is one
    stream's score groups in one chunk, highest score first (the bootstrap's
    resamples). A row without both classes gives ``nan``; ``ks=False`` skips the KS
    (None). Rows of at most ``2**31`` objects (int64 products).

    >>> pos = np.array([[1, 1, 0], [0, 2, 0]]); neg = np.array([[0, 1, 1], [1, 0, 0]])
    >>> stream_rows(pos, neg)
    (array([0.875, 0.   ]), array([0.5, 0. ]), array([0.5, 1. ]))
    """
    pos, neg = pos.astype(np.int64, copy=False), neg.astype(np.int64, copy=False)
    m1, m0 = pos.sum(axis=1), neg.sum(axis=1)
    if pos.size and int((m1 + m0).max()) > 2**31:
        raise ValueError("stream_rows counts at most 2**31 objects per row")
    tp1 = np.cumsum(pos, axis=1)
    auc = _exact_floats(_auc_terms(pos, neg, tp1 - pos).sum(axis=1), 2 * m1 * m0)
    if not ks:
        return auc, None, None
    gaps = _ks_gaps(tp1, np.cumsum(neg, axis=1), m1[:, None], m0[:, None])
    best, low = gaps.max(axis=1, initial=0), gaps.min(axis=1, initial=0)
    return (auc, _exact_floats(best, m1 * m0),
            _exact_floats(np.maximum(best, -low), m1 * m0))


class AucAcc:
    """Exact AUC: ``sum_g neg_g (2 tp_before_g + pos_g) / (2 m1 m0)``.

    >>> t = Totals.of(2, 2, True)
    >>> c, a = Cumulator(t), AucAcc(t)
    >>> a.update(c.step((np.array([0.9, 0.5, 0.1]), np.array([1, 1, 0]), np.array([0, 1, 1]))))
    >>> a.result()
    Fraction(7, 8)
    """

    def __init__(self, totals: Totals) -> None:
        self.totals = totals
        self.num: Any = 0 if totals.integral else Sum()

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.single and st.score.size:  # sum over negatives of 2 tp0, and tp0 = tp1 there
            k = int(st.tp1[-1] - st.tp0[0])  # the chunk's positives: tp1 = carry + 1..k
            carry = int(st.tp0[0])
            self.num += 2 * (int(st.tp1.sum()) - k * carry - k * (k + 1) // 2)
            return
        self.num = seqsum(_auc_terms(st.pos, st.neg, st.tp0), self.num)

    def result(self) -> Fraction | float:
        """The AUC (a Fraction for counts)."""
        t = self.totals
        if self.totals.integral:
            return Fraction(int(self.num), 2 * int(t.m1) * int(t.m0))
        return _share(float(self.num) / (2.0 * float(t.m1) * float(t.m0)))


# ------------------------------------------------------------------------------- KS


class KsAcc:
    """KS: ``max(TPR - FPR)`` over the group boundaries (0 at the empty selection), as
    :func:`course_lib.ks_statistic`, with the first (highest) score where it is reached;
    and the two-sided KS ``max |F1 - F0|`` (:meth:`two_sided`), as
    :func:`course_lib.ks_two_sided` and ``scipy.stats.ks_2samp`` give it.

    ``TPR - FPR`` at a threshold is ``F0 - F1`` of the class CDFs just below it, so the
    two-sided KS is the larger of ``max(TPR - FPR)`` and ``max(FPR - TPR)``; the second
    is tracked as the most negative gap (``low``, with its first score ``low_score``).
    The gap is compared as ``tp m0 - fp m1`` (exact integers for counts).
    """

    def __init__(self, totals: Totals) -> None:
        self.totals = totals
        self.best: Any = 0 if totals.integral else 0.0
        self.score: Any = None
        self.tp: Any = 0
        self.fp: Any = 0
        self.low: Any = 0 if totals.integral else 0.0
        self.low_score: Any = None

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        t = self.totals
        gap = _ks_gaps(st.tp1, st.fp1, t.m1, t.m0)
        k = int(np.argmax(gap))
        if gap[k] > self.best:
            self.best = gap[k]
            self.score = st.score[k]
            self.tp, self.fp = st.tp1[k], st.fp1[k]
        j = int(np.argmin(gap))
        if gap[j] < self.low:
            self.low = gap[j]
            self.low_score = st.score[j]

    def two_sided(self) -> tuple[Fraction | float, str, int | float | None]:
        """``(max |F1 - F0|, direction, threshold)``: the two-sided KS distance (a
        Fraction for counts); ``direction`` is ``"F0 above F1"`` when the gap is
        largest where the negatives' CDF lies above the positives' (the positives
        score higher: ``TPR - FPR`` at its largest, the one-sided KS), else
        ``"F1 above F0"`` (the positives score lower); a tie goes to the first. The
        threshold is the score ``s`` of the selection ``score >= s`` where the gap is
        reached (None: no gap, the empty selection)."""
        t = self.totals
        if -self.low > self.best:
            gap, direction, score = -self.low, "F1 above F0", self.low_score
        else:
            gap, direction, score = self.best, "F0 above F1", self.score
        if t.integral:
            value: Fraction | float = Fraction(int(gap), int(t.m1) * int(t.m0))
        else:
            value = _share(float(gap) / (float(t.m1) * float(t.m0)))
        return value, direction, None if score is None else _threshold(score)

    def result(self) -> Fraction | float:
        """The KS distance (a Fraction for counts)."""
        t = self.totals
        if t.integral:
            return Fraction(int(self.best), int(t.m1) * int(t.m0))
        return _share(float(self.best) / (float(t.m1) * float(t.m0)))

    def threshold(self) -> int | float | None:
        """The score where the KS is reached (None: the empty selection)."""
        return None if self.score is None else _threshold(self.score)


# ------------------------------------------------------------------------ precision


class ApAcc:
    """Average precision ``sum_g pos_g TP_g / (TP_g + FP_g) / m1``, as
    :func:`course_lib.average_precision`: a float summed in order (the same bits for
    any chunking), or with ``exact=True`` (counts) a Fraction whose terms are added in
    a balanced tree (pairs, then pairs of pairs), so every addition works on
    denominators of similar size instead of one ever-growing sum."""

    def __init__(self, totals: Totals, *, exact: bool = False) -> None:
        self.totals = totals
        self.total = Sum()
        self.exact = exact
        self.terms: list[Fraction] = []

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        if self.exact:
            rises = st.pos > 0
            self.terms.extend(
                Fraction(int(d) * int(t), int(t) + int(f))
                for d, t, f in zip(st.pos[rises], st.tp1[rises], st.fp1[rises])
            )
            return
        if st.single:  # the j-th positive of the chunk: TP = carry + j at its position
            where = np.flatnonzero(st.pos)
            selected = int(st.tp0[0] + st.fp0[0]) + 1
            tp = np.arange(int(st.tp0[0]) + 1, int(st.tp0[0]) + 1 + where.size, dtype=np.float64)
            self.total = seqsum(tp / (where + selected).astype(np.float64), self.total)
            return
        rises = st.pos > 0
        tp = st.tp1[rises].astype(np.float64)
        fp = st.fp1[rises].astype(np.float64)
        self.total = seqsum(st.pos[rises].astype(np.float64) * tp / (tp + fp), self.total)

    def result(self) -> float | Fraction:
        """The average precision."""
        if not self.exact:
            return float(self.total) / float(self.totals.m1)
        terms = self.terms
        while len(terms) > 1:
            paired = [a + b for a, b in zip(terms[::2], terms[1::2])]
            if len(terms) % 2:
                paired.append(terms[-1])
            terms = paired
        return terms[0] / int(self.totals.m1)


# ---------------------------------------------------------------------- partial AUC


class PartialAcc:
    """Partial AUC over FPR in ``[low, high]`` (with ``axis="tpr"``: the area right of the
    curve inside the band ``low <= TPR <= high``) and its McClish standardization, as
    :func:`course_lib.partial_roc_auc`: exact Fractions for counts (a float end read as
    the decimal it prints as), floats for weight sums.

    The area is read along the axis the points advance on, FPR (height TPR) or TPR
    (height 1 - FPR): twice the area from 0 is summed segment by segment (sequentially
    for floats), and at each end ``x`` it is read as ``T(x)``, the sum up to the last
    vertex at or before ``x`` plus the next segment read linearly up to ``x``; the area
    is ``(T(high) - T(low)) / 2``.
    """

    def __init__(self, totals: Totals, high: float | Fraction, low: float | Fraction = 0,
                 axis: str = "fpr") -> None:
        self.totals = totals
        self.axis = axis
        self.twice: Any = 0 if totals.integral else 0.0  # twice the area so far
        self.at: list[Any] = []  # T at the ends passed
        self.low: Any
        self.high: Any
        if totals.integral:
            self.low, self.high = (
                Fraction(v) if isinstance(v, (int, Fraction)) else Fraction(repr(float(v)))
                for v in (low, high))
            unit = int(totals.m0 if axis == "fpr" else totals.m1)
            self.ends: list[Any] = [self.low * unit, self.high * unit]  # in counts
        else:
            self.low, self.high = float(low), float(high)
            self.ends = [self.low, self.high]

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if len(self.at) == 2 or st.score.size == 0:
            return
        t = self.totals
        if t.integral:
            u0, u1, h0, h1 = ((st.fp0, st.fp1, st.tp0, st.tp1) if self.axis == "fpr" else
                              (st.tp0, st.tp1, int(t.m0) - st.fp0, int(t.m0) - st.fp1))
        elif self.axis == "fpr":
            u0, u1, h0, h1 = st.fp0 / t.m0, st.fp1 / t.m0, st.tp0 / t.m1, st.tp1 / t.m1
        else:
            u0, u1, h0, h1 = st.tp0 / t.m1, st.tp1 / t.m1, 1 - st.fp0 / t.m0, 1 - st.fp1 / t.m0
        seg = (u1 - u0) * (h1 + h0)
        i = 0
        while len(self.at) < 2:
            x = self.ends[len(self.at)]
            # the segments ending at or before x (for counts: at or before floor(x))
            bound = x.numerator // x.denominator if t.integral else x
            k = i + int(np.count_nonzero(u1[i:] <= bound))
            self.twice = seqsum(seg[i:k], self.twice)
            i = k
            if k == u1.size:
                return
            # the segment k crosses x: u0[k] <= x < u1[k], read linearly (numpy.interp's
            # formula, as course_lib._curves.read_line)
            a0, a1, b0, b1 = u0[k], u1[k], h0[k], h1[k]
            if t.integral:
                a0, a1, b0, b1 = int(a0), int(a1), int(b0), int(b1)
            if a0 == x:
                self.at.append(self.twice)
                continue
            slope = Fraction(b1 - b0, a1 - a0) if t.integral else (b1 - b0) / (a1 - a0)
            hx = slope * (x - a0) + b0
            self.at.append(self.twice + (x - a0) * (b0 + hx))

    def result(self) -> tuple[Fraction | float, Fraction | float]:
        """``(partial AUC, McClish-standardized)``."""
        t = self.totals
        # an end not passed lies at or after the last vertex: T is the whole sum
        t_low, t_high = (self.at + [self.twice, self.twice])[:2]
        if t.integral:
            area: Any = Fraction(t_high - t_low) / (2 * int(t.m0) * int(t.m1))
            return area, mcclish(area, self.axis, self.low, self.high)
        area = float(t_high - t_low) / 2
        return area, float(mcclish(area, self.axis, self.low, self.high))


# ----------------------------------------------------------------------- ROC hull


def _below_chords(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Inner points that are no vertex of the hull: for int64 coordinates (counts) those
    on or below the chord of their two neighbours, exactly (on a staircase of single
    objects nearly every point lies on a run), for floats those strictly below it by
    a relative margin."""
    t1 = (x[1:-1] - x[:-2]) * (y[2:] - y[:-2])
    t2 = (y[1:-1] - y[:-2]) * (x[2:] - x[:-2])
    out = np.zeros(x.size, dtype=bool)
    if x.dtype.kind in "iu":
        out[1:-1] = t1 >= t2
    else:
        out[1:-1] = t1 - t2 > 1e-12 * (np.abs(t1) + np.abs(t2))
    return out


def upper_chain(hull: list[tuple[float, float]], xs: list[float], ys: list[float]) -> None:
    """Extend the upper hull ``hull`` (Andrew's monotone chain) by the points ``(xs,
    ys)``, which come in increasing x (then y): a vertex on or below the chord of its
    neighbours (cross product within ``-COLLINEAR_TOL``) is dropped, a repeated point
    skipped. The one chain of :class:`HullAcc` and :func:`course_lib.roc_convex_hull`."""
    for px, py in zip(xs, ys):
        if hull and hull[-1] == (px, py):
            continue
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (py - ay) - (by - ay) * (px - ax) >= -COLLINEAR_TOL:
                hull.pop()  # b is on or below the chord a -> p
            else:
                break
        hull.append((px, py))


class HullAcc:
    """The ROC convex hull, by the monotone chain as the points arrive (in increasing
    FPR), with :func:`course_lib.roc_convex_hull`'s collinearity tolerance.

    Each chunk is first thinned by a vectorized filter (a point below the chord of its
    two neighbours, or for counts on it, is never a hull vertex; repeated until none
    is), and only the survivors go through the chain.
    """

    def __init__(self, totals: Totals) -> None:
        self.totals = totals
        self.hull: list[tuple[float, float]] = [(0.0, 0.0)]

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        m1, m0 = float(self.totals.m1), float(self.totals.m0)
        fp, tp = st.fp1, st.tp1
        if fp.dtype == object:  # counts beyond int64 products: filter in floats
            fp, tp = fp.astype(np.float64), tp.astype(np.float64)
        idx = np.arange(fp.size)
        while idx.size > 16:
            drop = _below_chords(fp[idx], tp[idx])
            if not drop.any():
                break
            idx = idx[~drop]
        x = st.fp1[idx].astype(np.float64) / m0
        y = st.tp1[idx].astype(np.float64) / m1
        upper_chain(self.hull, x.tolist(), y.tolist())

    def result(self) -> tuple[np.ndarray, np.ndarray, float]:
        """``(fpr, tpr, area)`` of the hull's vertices."""
        hx = np.array([p[0] for p in self.hull])
        hy = np.array([p[1] for p in self.hull])
        return hx, hy, trapezoid_area(hx, hy)


# --------------------------------------------------------------------- gains table


class GainsAcc:
    """The tie-aware gains table, as :func:`course_lib.gains_table` defines it.

    Sorted by decreasing score, the object at position ``i`` (0-based) would go to
    bin ``floor(i * n_bins / n)``; a group of tied scores goes, whole, to the bin of
    its first member, so a group goes to ``floor(before * n_bins / n)`` with
    ``before`` the objects above it. Empty bins are left out. With weights an object
    counts its weight (integer weights: the table of the rows repeated).
    """

    def __init__(self, totals: Totals, n_bins: int = 10) -> None:
        self.totals = totals
        self.n_bins = n_bins
        self.pos = np.zeros(n_bins, dtype=np.int64 if totals.integral else np.float64)
        self.neg = np.zeros(n_bins, dtype=self.pos.dtype)
        self.high: list[Any] = [None] * n_bins
        self.low: list[Any] = [None] * n_bins

    def bins(self, st: Step) -> np.ndarray:
        """The bin (0-based) of each group of a chunk."""
        t = self.totals
        before = st.tp0 + st.fp0
        if t.integral:
            ids = (before * self.n_bins) // int(t.n)
            return np.asarray(ids, dtype=np.int64)
        return np.minimum(np.floor(before * self.n_bins / float(t.n)), self.n_bins - 1).astype(
            np.int64
        )

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        ids = self.bins(st)
        _bin_add(self.pos, ids, st.pos)
        _bin_add(self.neg, ids, st.neg)
        starts = np.flatnonzero(np.diff(ids, prepend=-1))
        ends = np.append(starts[1:], ids.size) - 1
        for s, e in zip(starts.tolist(), ends.tolist()):
            b = int(ids[s])
            if self.high[b] is None:
                self.high[b] = _threshold(st.score[s])
            self.low[b] = _threshold(st.score[e])

    def result(self) -> list[dict[str, Any]] | None:
        """The table's rows (non-empty bins), as dicts of gains_table's columns; None
        for counts fewer than the bins (as :func:`course_lib.gains_table` refuses)."""
        if self.totals.integral and int(self.totals.n) < self.n_bins:
            return None
        rows = []
        table = self.table()
        for b, row in zip(table.index.tolist(), table.to_dict("records")):
            out: dict[str, Any] = {"bin": b}
            out.update({k: _plain(v) for k, v in row.items()})
            out["max_score"], out["min_score"] = self.high[b - 1], self.low[b - 1]
            rows.append(out)
        return rows

    def table(self) -> pd.DataFrame:
        """The table (:func:`gains_table_from_counts`'s columns, weight sums in the
        data's units), one row per non-empty bin, indexed by bin number from 1."""
        keep = (self.pos + self.neg) > 0
        n1: np.ndarray = self.pos[keep]
        n0: np.ndarray = self.neg[keep]
        if not self.totals.integral:
            n1, n0 = n1 / self.totals.scale, n0 / self.totals.scale
        table = _gains_frame(n1, n0)
        table.index = pd.Index(np.flatnonzero(keep) + 1, name="bin")
        return table


def _bin_add(acc: np.ndarray, ids: np.ndarray, values: np.ndarray) -> None:
    """Add ``values`` to their bins ``ids`` of ``acc`` in place, run by run of equal
    ids (the ids of sorted scores: a few runs): counts (int64 values) exactly, in a
    float ``acc`` too (whole numbers below ``2**53``: the same in any order), float
    values sequentially from each bin's total (the same bits for any chunking)."""
    if ids.size == 0:
        return
    starts = np.concatenate(([0], np.flatnonzero(ids[1:] != ids[:-1]) + 1))
    values = np.asarray(values)
    if acc.dtype == np.int64 or values.dtype.kind in "iu":
        np.add.at(acc, ids[starts], np.add.reduceat(values.astype(np.int64), starts))
        return
    values = values.astype(np.float64, copy=False)
    bounds = np.append(starts, ids.size).tolist()
    for b, lo, hi in zip(ids[starts].tolist(), bounds[:-1], bounds[1:]):
        acc[b] = seqsum(values[lo:hi], float(acc[b]))


def _plain(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return float(v)
    return v


# --------------------------------------------------------------------- calibration


class CalibrationAcc:
    """Brier score and ECE with the reliability bins, for scores in [0, 1], as
    :func:`course_lib.brier_score`, :func:`course_lib.expected_calibration_error` and
    :func:`course_lib.calibration_curve`: ``n_bins`` equal-width bins, or the bins
    between given ``edges`` (a probability on an inner edge in the bin below). Counts
    stay int64 (the bins' weights and positives exact), weight sums float64."""

    def __init__(self, totals: Totals, n_bins: int = 10, edges: np.ndarray | None = None
                 ) -> None:
        self.totals = totals
        self.edges = np.linspace(0.0, 1.0, n_bins + 1) if edges is None else edges
        k = self.edges.size - 1
        dtype = np.int64 if totals.integral else np.float64
        self.sq = 0.0
        self.total = np.zeros(k, dtype=dtype)
        self.sum_y = np.zeros(k, dtype=dtype)
        self.sum_p = np.zeros(k)

    def bin_ids(self, p: np.ndarray) -> np.ndarray:
        """The bin of each probability (the inner edge's own in the bin below)."""
        return np.searchsorted(self.edges[1:-1], p)

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        p = st.score.astype(np.float64)
        pos = st.pos.astype(np.float64)
        neg = st.neg.astype(np.float64)
        self.sq = seqsum(pos * (1 - p) ** 2 + neg * p**2, self.sq)
        ids = self.bin_ids(p)
        _bin_add(self.total, ids, st.pos + st.neg)
        _bin_add(self.sum_y, ids, st.pos)
        _bin_add(self.sum_p, ids, p * (pos + neg))

    def bins(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(keep, weight, prob_true, prob_pred)``: which bins hold weight, and of
        those the weight (the data's units), the share of positives and the mean
        probability."""
        keep = self.total > 0
        total = self.total[keep]
        weight = total if self.totals.integral else total / self.totals.scale
        return keep, weight, self.sum_y[keep] / total, self.sum_p[keep] / total

    def brier(self) -> float:
        """The Brier score."""
        return self.sq / float(self.totals.n)

    def ece(self) -> float:
        """The expected calibration error: the bins' gaps weighted by their weight."""
        _, weight, o, f = self.bins()
        return float(np.dot(weight, np.abs(o - f)) / weight.sum())

    def result(self) -> dict[str, Any]:
        """Brier, ECE and the reliability diagram's points (non-empty bins)."""
        keep, weight, o, f = self.bins()
        positives = self.sum_y[keep]
        if not self.totals.integral:
            positives = positives / self.totals.scale
        return {
            "brier": self.brier(),
            "ece": self.ece(),
            "reliability": {
                "prob_pred": f.tolist(),
                "prob_true": o.tolist(),
                "weight": weight.tolist(),
                "positives": positives.tolist(),
                "bin_low": self.edges[:-1][keep].tolist(),
                "bin_high": self.edges[1:][keep].tolist(),
            },
        }


# ------------------------------------------------------------------ whole curves


class CurveAcc:
    """Every vertex of the running totals, for the curves that show them all (ROC, PR,
    gain, lift, KS): ``tp``, ``fp`` at or above each distinct score and the scores as
    thresholds, written chunk by chunk into arrays sized for ``size`` groups (the
    objects: no more groups than that), with the empty selection ``(0, 0, inf)`` first
    when ``origin``.

    Counts stay int64 (exact); weight sums are float64 in the data's units. The rates
    are :meth:`rates`: each count over the class total (the last running total, so
    the curve ends at exactly 1); with ``rates=True`` the rates of counts are written
    as the chunks come (the class totals are then known and exact), and
    :meth:`counts` gives them in place of the counts.
    """

    def __init__(
        self, totals: Totals, size: int, *, origin: bool = True, rates: bool = False
    ) -> None:
        self.totals = totals
        # counts' rates are written as they come (the class totals are exact)
        self.divide = rates and totals.integral
        dtype = np.int64 if totals.integral and not self.divide else np.float64
        start = 1 if origin else 0
        self.tp = np.empty(size + start, dtype=dtype)
        self.fp = np.empty(size + start, dtype=dtype)
        self.thresholds: np.ndarray | list[Any] | None = None
        self.k = start
        self.origin = origin
        if origin:
            self.tp[0] = self.fp[0] = 0

    def update(self, st: Step) -> None:
        """Add one chunk."""
        m = st.score.size
        if m == 0:
            return
        k, end = self.k, self.k + m
        if st.tp1.dtype == object and self.tp.dtype != object:  # beyond int64 products
            self.tp = self.tp.astype(object)
            self.fp = self.fp.astype(object)
        if self.divide and st.tp1.dtype != object:
            np.divide(st.tp1, int(self.totals.m1), out=self.tp[k:end])
            np.divide(st.fp1, int(self.totals.m0), out=self.fp[k:end])
        elif self.totals.integral or st.tp1.dtype == object:
            self.tp[k:end], self.fp[k:end] = st.tp1, st.fp1
        else:
            scale = self.totals.scale
            np.divide(st.tp1, scale, out=self.tp[k:end])
            np.divide(st.fp1, scale, out=self.fp[k:end])
        score = st.score
        if score.dtype == np.float64:
            if self.thresholds is None:
                self.thresholds = np.empty(self.tp.size, dtype=np.float64)
                self.thresholds[0] = np.inf
            assert isinstance(self.thresholds, np.ndarray)
            self.thresholds[k:end] = score
        else:  # integers float64 cannot hold: Python ints (see with_origin)
            if self.thresholds is None:
                self.thresholds = [np.inf] if self.origin else []
            assert isinstance(self.thresholds, list)
            self.thresholds.extend(score.tolist())
        self.k = end

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(tp, fp, thresholds)`` of every vertex."""
        k = self.k
        thresholds = self.thresholds
        if thresholds is None:
            thresholds = np.array([np.inf] if self.origin else [], dtype=np.float64)
        elif isinstance(thresholds, list):
            out = np.empty(len(thresholds), dtype=object)
            out[:] = thresholds
            thresholds = out
        else:
            thresholds = thresholds[:k]
        return self.tp[:k], self.fp[:k], thresholds

    def rates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(tpr, fpr, thresholds)``: the counts over their class totals."""
        tp, fp, thresholds = self.counts()
        if self.divide and tp.dtype != object:
            return tp, fp, thresholds
        return tp / tp[-1], fp / fp[-1], thresholds


# ---------------------------------------------------------------- operating points


class OperatingAcc:
    """The cost-optimal threshold (``cost_fp FP + cost_fn FN`` least, the first, i.e.
    highest, threshold when several tie; the empty selection included) and the top
    ``k`` % points (the smallest set of whole score groups from the top holding at
    least ``k`` % of the objects)."""

    def __init__(self, totals: Totals, costs: tuple[float, float] | None,
                 top: tuple[float, ...]) -> None:
        self.totals = totals
        self.costs = costs
        self.top = top
        # the empty selection: every positive missed
        self.best: Any = None if costs is None else costs[1] * totals.m1
        self.best_point: tuple[Any, Any, Any] = (None, 0, 0)
        self.top_points: dict[float, tuple[Any, Any, Any]] = {}

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        t = self.totals
        if self.costs is not None:
            c_fp, c_fn = self.costs
            if t.integral and all(isinstance(c, int) for c in self.costs):
                cost = st.fp1 * c_fp + (int(t.m1) - st.tp1) * c_fn
            else:
                cost = st.fp1.astype(np.float64) * c_fp + (
                    float(t.m1) - st.tp1.astype(np.float64)) * c_fn
            k = int(np.argmin(cost))
            if cost[k] < self.best:
                self.best = cost[k]
                self.best_point = (st.score[k], st.tp1[k], st.fp1[k])
        sel = st.tp1 + st.fp1
        for q in self.top:
            if q in self.top_points:
                continue
            if t.integral:
                share = Fraction(str(q))  # the decimal as written: 0.1 is 1/10
                need = -(-share.numerator * int(t.n) // (100 * share.denominator))
                if not int(sel[-1]) >= need:
                    continue
                k = int(np.argmax(sel >= need))
            else:
                need_f = q / 100 * float(t.n)
                if not sel[-1] >= need_f:
                    continue
                k = int(np.argmax(sel >= need_f))
            self.top_points[q] = (st.score[k], st.tp1[k], st.fp1[k])

    def result(self) -> dict[str, Any]:
        """``{"cost": point or None, "top": {k: point}}`` as (score, tp, fp)."""
        return {"cost": self.best_point if self.costs is not None else None,
                "cost_value": self.best, "top": self.top_points}


# -------------------------------------------------------------------------- curves


class _Thinned:
    """Points of one curve, thinned on a grid of ``1 / THIN`` on the ``keys`` axes: a
    point is kept when its cell differs from the previous point's (with ``leave``, or
    the next one's), or when it ends a decile; the first and the last point are always
    kept. A monotone curve keeps at most ``THIN`` points per key axis. The last
    point of a chunk waits for the next chunk, so the result does not depend on the
    chunks."""

    def __init__(self, names: tuple[str, ...], keys: tuple[int, ...],
                 leave: bool = False) -> None:
        self.names = names
        self.keys = keys
        self.leave = leave  # also keep the last point in each cell (curves not monotone)
        self.cols: list[list[float]] = [[] for _ in names]
        self.prev_cell: np.ndarray = np.full(len(keys), -1.0)  # before the pending point
        self.pending: list[float] | None = None

    def add(self, columns: list[np.ndarray], starts: np.ndarray | None = None) -> None:
        """Add points; ``starts[i]`` says point ``i`` starts a new decile."""
        if columns[0].size == 0:
            return
        if self.pending is not None:
            columns = [np.concatenate(([v], c)) for v, c in zip(self.pending, columns)]
            if starts is not None:
                starts = np.concatenate(([False], starts))
        n = columns[0].size
        # every point but the last: kept when the next one starts a decile, or its cell
        # is new on a key axis (with leave: or the next point's is)
        keep = np.zeros(n - 1, dtype=bool) if starts is None else starts[1:].copy()
        new = np.empty(n, dtype=bool)
        for j, i in enumerate(self.keys):
            cell = np.floor(columns[i] * THIN)
            new[0] = cell[0] != self.prev_cell[j]
            np.not_equal(cell[1:], cell[:-1], out=new[1:])
            keep |= new[:-1]
            if self.leave:
                keep |= new[1:]
            if n > 1:
                self.prev_cell[j] = cell[-2]
        for out, col in zip(self.cols, columns):
            out.extend(col[:-1][keep].tolist())
        self.pending = [float(c[-1]) for c in columns]

    def result(self) -> dict[str, list[float]]:
        """The kept points, the last one included."""
        out = [list(c) for c in self.cols]
        if self.pending is not None:
            for col, v in zip(out, self.pending):
                col.append(v)
        return dict(zip(self.names, out))


class CurvesAcc:
    """The ROC, PR, gain, lift and KS curves, thinned for figures (a grid of
    ``1 / THIN``: a point is kept when it enters a new cell, or leaves one, or is a
    decile boundary of the gains table). The thinning never touches a number."""

    def __init__(self, totals: Totals, gains: GainsAcc) -> None:
        self.totals = totals
        self.gains = gains
        self.last_bin = 0
        self.roc = _Thinned(("fpr", "tpr"), (0, 1))
        self.roc.add([np.zeros(1), np.zeros(1)])
        self.pr = _Thinned(("recall", "precision"), (0,), leave=True)
        self.gain = _Thinned(("rate", "tpr"), (0, 1))
        self.gain.add([np.zeros(1), np.zeros(1)])
        self.lift = _Thinned(("rate", "lift"), (0,), leave=True)
        self.ks = _Thinned(("rate", "tpr", "fpr"), (1, 2))
        self.ks.add([np.zeros(1), np.zeros(1), np.zeros(1)])

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        t = self.totals
        m1, m0, n = float(t.m1), float(t.m0), float(t.n)
        tp, fp = st.tp1.astype(np.float64), st.fp1.astype(np.float64)
        selected = tp + fp
        tpr, fpr, rate = tp / m1, fp / m0, selected / n
        ids = self.gains.bins(st)
        force = ids != np.concatenate(([self.last_bin], ids[:-1]))
        self.last_bin = int(ids[-1])
        self.roc.add([fpr, tpr])
        first = int(np.searchsorted(tp, 0.0, side="right"))  # the first positive on
        self.pr.add([tpr[first:], tp[first:] / selected[first:]])
        self.gain.add([rate, tpr], force)
        self.lift.add([rate, tpr / rate], force)
        self.ks.add([rate, tpr, fpr], force)

    def result(self) -> dict[str, Any]:
        """The thinned curves, each a dict of coordinate lists."""
        return {"roc": self.roc.result(), "pr": self.pr.result(), "gain": self.gain.result(),
                "lift": self.lift.result(), "ks": self.ks.result()}


class DistributionAcc:
    """Histograms of the scores of each class (for the figure) on ``n_bins`` equal
    bins from ``low`` to ``high`` (scores converted to float64 for binning only)."""

    def __init__(self, totals: Totals, low: float, high: float, n_bins: int = 40) -> None:
        self.totals = totals
        if not high > low:
            high = low + 1.0
        self.edges = np.linspace(low, high, n_bins + 1)
        self.pos = np.zeros(n_bins)
        self.neg = np.zeros(n_bins)

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        s = st.score.astype(np.float64)
        ids = np.clip(np.searchsorted(self.edges, s, side="right") - 1, 0, self.pos.size - 1)
        _bin_add(self.pos, ids, st.pos)
        _bin_add(self.neg, ids, st.neg)

    def result(self) -> dict[str, list[float]]:
        """Bin edges and the weight of each class per bin (the data's units)."""
        scale = self.totals.scale
        return {"edges": self.edges.tolist(), "positives": (self.pos / scale).tolist(),
                "negatives": (self.neg / scale).tolist()}


# ------------------------------------------------------------------------- DeLong


class DeLongAcc:
    """DeLong's variance of the AUC from the score groups (counts only).

    Every positive of group ``g`` has the placement ``V10_g = (neg_below_g +
    neg_g / 2) / m0`` and every negative ``V01_g = (pos_above_g + pos_g / 2) / m1``;
    ``Var = S10 / m1 + S01 / m0`` with ``S10 = sum_g pos_g (V10_g - A)^2 / (m1 - 1)``
    (likewise ``S01``): :func:`course_lib.auc_ci_delong` on the rows. Each deviation
    is computed exactly, as the integer ``m1 (2 neg_below_g + neg_g) - C`` (``2 m0
    m1`` times the deviation), and only then rounded and squared (the sums are divided
    by ``(2 m0 m1)**2`` at the end), from a centre ``C``: the AUC's
    ``U2 = 2 m0 m1 A`` when it is known (``u2``, a second pass: the sum of squares
    never cancels), else an estimate of it (``estimate``, an AUC, e.g. of a sample;
    1/2 by default: one pass beside :class:`AucAcc`), whose offset ``e = U2 - C``
    :meth:`variance` takes out exactly in the linear term, ``sum (d - e)^2 = sum d^2 -
    2 e sum d + m e^2`` with ``sum d`` an exact integer; what cancels then is ``m e^2``
    against ``sum d^2``, a relative ``1e-16 (A - estimate)^2 / Var(V)``.

    With ``keep=True`` it also keeps each group's integer placements (for the paired
    test), one row per distinct score.
    """

    def __init__(self, totals: Totals, u2: int | None = None, keep: bool = False, *,
                 estimate: float = 0.5) -> None:
        self.totals = totals
        twice = 2 * int(totals.m0) * int(totals.m1)
        self.centre = round(estimate * twice) if u2 is None else u2
        self.s10 = Sum()
        self.s01 = Sum()
        self.t10 = 0  # sum of pos (m1 p10 - C): exact
        self.t01 = 0
        self.keep = keep
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.scratch = np.empty((4, 0), dtype=np.int64)  # reused: fresh memory faults

    def update(self, st: Step) -> None:
        """Add one chunk."""
        if st.score.size == 0:
            return
        t = self.totals
        m1, m0 = int(t.m1), int(t.m0)
        c = self.centre
        if st.single and not self.keep and 2 * (m0 + m1) ** 2 < 2**53:
            # each group one object: only its own class's term; the integers below
            # 2**53 are exact in float64, so each deviation is rounded once, as below
            # every object's deviation, its class's kept by a 0/1 factor (no boolean
            # selection, no int64 -> float64 cast: both are scalar loops without AVX-512);
            # the squares summed per object, as the groups' loop below sums them
            if self.scratch.shape[1] < st.pos.size:
                self.scratch = np.empty((4, st.pos.size), dtype=np.int64)
            ones, tmp, rows10, rows = (row[: st.pos.size] for row in self.scratch)
            np.negative(st.pos, out=ones)  # all bits set for a positive
            n1 = int(st.pos.sum())
            fp_sum = int(np.bitwise_and(st.fp1, ones, out=tmp).sum())  # over the positives
            tp_sum = int(st.tp0.sum()) - int(np.bitwise_and(st.tp0, ones, out=tmp).sum())
            self.t10 += 2 * m1 * (n1 * m0 - fp_sum) - n1 * c
            self.t01 += 2 * m0 * tp_sum - (st.pos.size - n1) * c
            keep = _exact_float(st.pos, rows)
            d10 = _exact_float(st.fp1, rows10)
            d10 *= -2.0 * m1
            d10 += float(2 * m0 * m1 - c)
            d10 *= keep
            d01 = _exact_float(st.tp0, tmp)
            d01 *= 2.0 * m0
            d01 -= float(c)
            np.subtract(1.0, keep, out=keep)
            d01 *= keep
            np.square(d10, out=d10)
            np.square(d01, out=d01)
            self.s10 = seqsum(d10, self.s10)
            self.s01 = seqsum(d01, self.s01)
            return
        p10 = 2 * (m0 - st.fp1) + st.neg  # 2 m0 V10
        p01 = 2 * st.tp0 + st.pos  # 2 m1 V01
        self.t10 += m1 * seqsum(st.pos * p10) - c * seqsum(st.pos)
        self.t01 += m0 * seqsum(st.neg * p01) - c * seqsum(st.neg)
        d10 = (np.asarray(p10 * m1 - c, dtype=object if p10.dtype == object else np.int64)
               .astype(np.float64))
        d01 = (np.asarray(p01 * m0 - c, dtype=object if p01.dtype == object else np.int64)
               .astype(np.float64))
        self.s10 = seqsum(st.pos.astype(np.float64) * d10 * d10, self.s10)
        self.s01 = seqsum(st.neg.astype(np.float64) * d01 * d01, self.s01)
        if self.keep:
            self.parts.append((st.score.copy(), np.asarray(p10, dtype=np.int64),
                               np.asarray(p01, dtype=np.int64)))

    def variance(self, u2: int | None = None) -> float:
        """DeLong's variance (nan with fewer than two of a class); ``u2``, the AUC's
        ``2 m0 m1 A``, when it was not given at the start."""
        m1, m0 = int(self.totals.m1), int(self.totals.m0)
        if m1 < 2 or m0 < 2:
            return math.nan
        den = float(2 * m0 * m1)
        e = 0 if u2 is None else u2 - self.centre
        s10, s01 = float(self.s10), float(self.s01)  # sums of the integers' squares
        if e:
            s10 += m1 * float(e) ** 2 - 2 * float(e) * float(self.t10)
            s01 += m0 * float(e) ** 2 - 2 * float(e) * float(self.t01)
        return (s10 / den / den) / (m1 - 1) / m1 + (s01 / den / den) / (m0 - 1) / m0

    def table(self) -> PlacementTable:
        """The placements of every distinct score (needs ``keep=True``)."""
        scores = np.concatenate([p[0] for p in self.parts])
        return PlacementTable(scores[::-1], np.concatenate([p[1] for p in self.parts])[::-1],
                              np.concatenate([p[2] for p in self.parts])[::-1])


#: ``2**52`` as bits: or-ed into an integer below ``2**52`` it makes ``2**52 + i``.
_TWO_52_BITS = np.int64(0x4330000000000000)


def _exact_float(i: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Non-negative int64 values below ``2**52`` as float64 (exact), in ``out``'s memory
    (int64): the bits of ``2**52 + i`` less ``2**52``, two vector operations (numpy's
    int64 to float64 cast is a scalar loop where AVX-512 is missing)."""
    f = np.bitwise_or(i, _TWO_52_BITS, out=out).view(np.float64)
    f -= 2.0**52
    return f


def delong_interval(auc: float, variance: float, level: float = 0.95) -> tuple[float, float]:
    """``auc -+ z sqrt(variance)`` clipped to [0, 1], as :func:`course_lib.auc_ci_delong`
    (:func:`delong_cut` tells where it was clipped)."""
    if not math.isfinite(variance):
        return math.nan, math.nan
    half = float(ndtri((1 + level) / 2)) * math.sqrt(variance)
    return max(0.0, auc - half), min(1.0, auc + half)


def delong_cut(auc: float, variance: float, level: float = 0.95) -> list[int]:
    """The ends (0, 1) past which ``auc -+ z sqrt(variance)`` reaches, where
    :func:`delong_interval` clips it.

    >>> delong_cut(0.99, 1e-4), delong_cut(0.5, 1e-4), delong_cut(0.5, float("nan"))
    ([1], [], [])
    """
    if not math.isfinite(variance):
        return []
    half = float(ndtri((1 + level) / 2)) * math.sqrt(variance)
    return [end for end, cut in ((0, auc - half < 0), (1, auc + half > 1)) if cut]


class PlacementTable(NamedTuple):
    """Distinct scores (increasing) with ``2 m0 V10`` and ``2 m1 V01`` of each."""

    score: np.ndarray
    p10: np.ndarray
    p01: np.ndarray

    def lookup(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The placements of the scores ``s`` (each one of the table's)."""
        k = np.searchsorted(self.score, s)
        return self.p10[k], self.p01[k]


class _Placements:
    """The placements ``2 m0 V10`` and ``2 m1 V01`` of a score's groups as they stream
    (decreasing score), read for non-increasing runs of scores: a merge join that
    keeps only the groups between the last score asked for and the stream's front."""

    def __init__(self, groups: Iterable[Any], totals: Totals) -> None:
        self.groups = iter(groups)
        self.cum = Cumulator(totals)
        self.m0 = int(totals.m0)
        empty = np.empty(0, dtype=np.int64)
        self.score: np.ndarray | None = None  # buffered groups, increasing score
        self.p10, self.p01 = empty, empty

    def _pull(self) -> bool:
        for g in self.groups:
            st = self.cum.step(g)
            if st.score.size == 0:
                continue
            p10 = np.asarray(2 * (self.m0 - st.fp1) + st.neg, dtype=np.int64)[::-1]
            p01 = np.asarray(2 * st.tp0 + st.pos, dtype=np.int64)[::-1]
            sc = st.score[::-1]
            if self.score is None:
                self.score, self.p10, self.p01 = sc, p10, p01
            else:
                self.score = np.concatenate((sc, self.score))
                self.p10 = np.concatenate((p10, self.p10))
                self.p01 = np.concatenate((p01, self.p01))
            return True
        return False

    def lookup(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Placements of the scores ``s`` (non-increasing, after those asked before)."""
        low = s[-1]
        while self.score is None or self.score[0] > low:
            if not self._pull():
                break
        assert self.score is not None
        k = np.searchsorted(self.score, s)
        out = self.p10[k], self.p01[k]
        keep = int(np.searchsorted(self.score, low, side="right"))  # scores <= low
        self.score, self.p10, self.p01 = (self.score[:keep], self.p10[:keep],
                                          self.p01[:keep])
        return out


def paired_delong(
    chunks: Iterable[Any],
    a: Iterable[Any],
    b: PlacementTable,
    totals: Totals,
    u2_a: int,
    u2_b: int,
    level: float = 0.95,
) -> dict[str, float]:
    """The paired DeLong test of AUC(a) - AUC(b) from the pair groups, as
    :func:`course_lib.delong_test`: the variance of the difference of the placements,
    each deviation an exact integer before it is squared.

    The pair groups come by ``score_a`` decreasing, so ``a``'s placements are read by
    a merge join with its score groups ``a`` (streamed once more); ``b``'s come from
    its placement table, one row per distinct score of ``b``: the memory this test
    needs (give ``b`` the score with fewer distinct values).
    """
    m1, m0 = int(totals.m1), int(totals.m0)
    den = float(2 * m0 * m1)
    s10, s01 = Sum(), Sum()
    placements_a = _Placements(a, totals)
    for ch in chunks:
        pos = np.asarray(ch.pos).astype(np.int64)
        neg = np.asarray(ch.neg).astype(np.int64)
        live = (pos + neg) > 0  # placements exist for the scores of positive weight
        if not live.any():
            continue
        pos, neg = pos[live], neg[live]
        a10, a01 = placements_a.lookup(ch.score_a[live])
        b10, b01 = b.lookup(ch.score_b[live])
        d10 = ((a10 - b10) * m1 - (u2_a - u2_b)).astype(np.float64) / den
        d01 = ((a01 - b01) * m0 - (u2_a - u2_b)).astype(np.float64) / den
        s10 = seqsum(pos.astype(np.float64) * d10 * d10, s10)
        s01 = seqsum(neg.astype(np.float64) * d01 * d01, s01)
    difference = float(Fraction(u2_a - u2_b, 2 * m0 * m1))
    nan = math.nan
    if m1 < 2 or m0 < 2:
        return {"z": nan, "p_value": nan, "difference": difference, "low": nan, "high": nan}
    variance = float(s10) / (m1 - 1) / m1 + float(s01) / (m0 - 1) / m0
    if variance == 0.0 and difference == 0.0:
        return {"z": 0.0, "p_value": 1.0, "difference": 0.0, "low": 0.0, "high": 0.0}
    se = math.sqrt(variance)
    half = float(ndtri((1 + level) / 2)) * se
    z = difference / se if se > 0 else math.copysign(math.inf, difference)
    return {"z": z, "p_value": float(2 * ndtr(-abs(z))), "difference": difference,
            "low": difference - half, "high": difference + half, "variance": variance}


# ----------------------------------------------------------------------------- PSI


def decile_lows(chunks: Iterable[Any], n: int | float, n_bins: int = 10) -> list[Any]:
    """The lowest score of each non-empty tie-aware bin of the baseline (the gains
    table's rule: a group goes whole to ``floor(before * n_bins / n)``), top bin first;
    ``n`` is the baseline's total count (or weight).

    >>> g = (np.array([0.9, 0.5, 0.2, 0.1]), np.array([1, 1, 0, 0]), np.array([0, 1, 1, 1]))
    >>> decile_lows([g], 5, n_bins=2)
    [0.5, 0.1]
    """
    lows: list[Any] = []
    last_bin = -1
    before: Any = 0
    for ch in chunks:
        w = np.asarray(ch[1]) + np.asarray(ch[2])
        live = w > 0
        s, w = ch[0][live], w[live]
        if s.size == 0:
            continue
        starts = _running(before, w)
        before = starts[-1]
        if isinstance(n, int):
            ids = (starts[:-1].astype(np.int64) * n_bins) // n
        else:
            ids = np.minimum(np.floor(starts[:-1] * n_bins / n), n_bins - 1).astype(np.int64)
        new = np.flatnonzero(ids != np.concatenate(([last_bin], ids[:-1])))
        # the last group of each bin started in this chunk
        ends = np.append(new[1:], ids.size)[: new.size] - 1
        if new.size == 0 or new[0] > 0:  # the chunk continues the previous bin
            lows[-1] = s[(new[0] if new.size else ids.size) - 1]
        lows.extend(s[ends].tolist() if s.dtype.kind == "f" else list(s[ends]))
        last_bin = int(ids[-1])
    return lows


def psi(data: Iterable[Any], lows: list[Any], eps: float = 1e-4, *,
        counts: np.ndarray | None = None) -> dict[str, Any]:
    """Population stability index of the data against the baseline's bins.

    Bins: the baseline's tie-aware deciles (:func:`decile_lows`); bin ``j`` holds the
    scores ``s`` with ``lows[j] <= s < lows[j - 1]`` (the top bin everything at or above
    ``lows[0]``, the last bin everything below ``lows[-2]``, so every data score has a
    bin). ``PSI = sum_j (a_j - e_j) ln(a_j / e_j)`` with ``a_j``, ``e_j`` the data's and
    the baseline's shares of the objects (weights); a share of 0 counts as ``eps``
    (1e-4) in the sum. ``counts``: the counts so far, added to in place (a stream
    given in pieces, the same bits as in one).
    """
    asc = np.array(lows[::-1])
    k = len(lows)
    if counts is None:
        counts = np.zeros(k)
    for ch in data:
        w = (np.asarray(ch[1]) + np.asarray(ch[2])).astype(np.float64)
        s = ch[0]
        if s.dtype != asc.dtype and not (s.dtype.kind == asc.dtype.kind):
            s, ref = s.astype(np.float64), asc.astype(np.float64)
        else:
            ref = asc
        greater = k - np.searchsorted(ref, s, side="right")  # lows strictly above s
        ids = np.minimum(greater, k - 1)
        _bin_add(counts, ids, w)
    return {"counts": counts}


def psi_terms(actual: Any, expected: Any, eps: float = 1e-4) -> Any:
    """Each bin's ``(a - e) ln(a / e)`` of the shares ``a`` and ``e``, a share below
    ``eps`` counted as ``eps``: the one PSI formula.

    >>> round(float(psi_terms(0.5, 0.0)), 4)  # 0.4999 ln(0.5 / 0.0001)
    4.2577
    """
    a = np.maximum(actual, eps)
    e = np.maximum(expected, eps)
    return (a - e) * np.log(a / e)


def psi_value(actual: np.ndarray, expected: np.ndarray, eps: float = 1e-4) -> float:
    """The PSI of the counts (weights) per bin ``actual`` against ``expected``: the sum
    of :func:`psi_terms` of their shares."""
    return float(np.sum(psi_terms(actual / actual.sum(), expected / expected.sum(), eps)))


# ------------------------------------------------------------ calibration by band


class BandCounts(NamedTuple):
    """What :class:`BandAcc` summed, one entry per band (highest scores first for
    deciles and grades, the caller's order for given bands).

    ``obligors`` and ``positives`` are int64 counts (counts or integer weights) or
    float64 weight sums; ``sum_p`` is the sum of the scores and ``sum_pq`` of
    ``p (1 - p)`` (each times its weight); ``high`` and ``low`` the band's highest and
    lowest score."""

    keys: list[Any]
    obligors: np.ndarray
    positives: np.ndarray
    sum_p: np.ndarray
    sum_pq: np.ndarray
    high: list[Any]
    low: list[Any]


#: The rules of :class:`BandAcc`.
BAND_RULES = ("deciles", "grades", "given")


class BandAcc:
    """Calibration by band: per band the obligors, the positives and the sums of the
    scores, for scores in [0, 1].

    Rules: ``"deciles"`` cuts as the gains table does (:meth:`GainsAcc.bins`: sorted by
    decreasing score, a group of tied scores goes whole to ``floor(before * n_bins /
    n)``; empty bins are left out); ``"grades"`` makes one band of each distinct score
    (a rating scale: the caller checks there are few); ``"given"``: the caller names the
    band of each chunk, ``update(step, band)``, e.g. a column's value.
    Counts stay int64, float sums are :class:`Sum` s per band (the same bits for any
    chunking).
    """

    def __init__(self, totals: Totals, rule: str = "deciles", n_bins: int = 10) -> None:
        if rule not in BAND_RULES:
            raise ValueError(f"rule must be one of {BAND_RULES}, got {rule!r}")
        self.totals = totals
        self.rule = rule
        self.gains = GainsAcc(totals, n_bins)
        self.index: dict[Any, int] = {}
        self.keys: list[Any] = []
        self.pos: list[Any] = []
        self.neg: list[Any] = []
        self.sum_p: list[Sum] = []
        self.sum_pq: list[Sum] = []
        self.high: list[Any] = []
        self.low: list[Any] = []

    def update(self, st: Step, band: Any = None) -> None:
        """Add one chunk (``band``: its band, for the rule ``"given"``)."""
        if st.score.size == 0:
            return
        if self.rule == "given":
            self._add(band, st, slice(None))
            return
        if self.rule == "deciles":
            ids = self.gains.bins(st)
            starts = np.flatnonzero(np.diff(ids, prepend=-1))
            keys = (ids[starts] + 1).tolist()
        else:
            starts = np.arange(st.score.size)
            keys = [_threshold(v) for v in st.score]
        ends = np.append(starts[1:], st.score.size)
        for key, lo, hi in zip(keys, starts.tolist(), ends.tolist()):
            self._add(key, st, slice(lo, hi))

    def _add(self, key: Any, st: Step, part: slice) -> None:
        k = self.index.get(key)
        if k is None:
            k = self.index[key] = len(self.keys)
            self.keys.append(key)
            zero: Any = 0 if self.totals.integral else Sum()
            self.pos.append(zero)
            self.neg.append(0 if self.totals.integral else Sum())
            self.sum_p.append(Sum())
            self.sum_pq.append(Sum())
            self.high.append(_threshold(st.score[part][0]))
            self.low.append(None)
        s = st.score[part]
        pos, neg = st.pos[part], st.neg[part]
        self.pos[k] = seqsum(pos, self.pos[k])
        self.neg[k] = seqsum(neg, self.neg[k])
        p = s.astype(np.float64)
        w = pos.astype(np.float64) + neg.astype(np.float64)
        self.sum_p[k].add(p * w)
        self.sum_pq[k].add(p * (1.0 - p) * w)
        self.low[k] = _threshold(s[-1])

    def result(self) -> BandCounts:
        """The bands' sums, in the data's units."""
        scale = self.totals.scale
        pos: np.ndarray
        obligors: np.ndarray
        if self.totals.integral:
            pos = np.array([int(v) for v in self.pos], dtype=np.int64)
            obligors = pos + np.array([int(v) for v in self.neg], dtype=np.int64)
        else:
            pos = np.array([float(v) for v in self.pos]) / scale
            obligors = pos + np.array([float(v) for v in self.neg]) / scale
        div = 1.0 if self.totals.integral else scale
        return BandCounts(list(self.keys), obligors, pos,
                          np.array([float(v) for v in self.sum_p]) / div,
                          np.array([float(v) for v in self.sum_pq]) / div,
                          list(self.high), list(self.low))


def band_tests(obligors: Any, positives: Any, mean_pd: Any) -> tuple[np.ndarray, np.ndarray]:
    """One-sided tests of each band's default rate against its mean PD: H0 the PD is
    right, the alternative that the true rate is *higher* (the Jeffreys test is the one
    of the ECB's instructions for reporting IRB validation results; the binomial test
    is the classical exact test of the same question).

    * binomial: ``P(X >= d)`` for ``X ~ Binomial(n, PD)`` (1 when ``d = 0``), written
      as the regularized incomplete beta ``I_PD(d, n - d + 1)``;
    * Jeffreys: the posterior of the rate under Jeffreys' prior is ``Beta(d + 1/2,
      n - d + 1/2)``; the p-value is its CDF at the PD (small when the posterior lies
      above the PD).

    ``obligors`` (n) and ``positives`` (d) are counts.

    >>> b, j = band_tests([10], [3], [0.1])
    >>> round(float(b[0]), 4), round(float(j[0]), 4)
    (0.0702, 0.0314)
    """
    n = np.asarray(obligors, dtype=np.float64)
    d = np.asarray(positives, dtype=np.float64)
    p = np.asarray(mean_pd, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        binom = np.where(d > 0, betainc(np.maximum(d, 1.0), n - d + 1.0, p), 1.0)
        jeffreys = betainc(d + 0.5, n - d + 0.5, p)
    return binom, jeffreys


def hosmer_lemeshow_counts(obligors: Any, positives: Any, expected: Any
                           ) -> tuple[float, int, float]:
    """``(statistic, df, p_value)`` of the Hosmer-Lemeshow test over bands:
    ``sum_g (O_g - E_g)^2 / (E_g (1 - E_g / n_g))`` with ``O_g`` the positives,
    ``E_g`` the sum of the PDs and ``n_g`` the obligors of band ``g``, referred to
    chi-squared with ``G - 2`` degrees of freedom (Hosmer and Lemeshow's rule for the
    sample the model was fitted on; on an independent sample ``G`` is also argued). A
    band whose PDs are all 0 or all 1 adds 0 when it agrees, infinity when not; with
    fewer than three bands there is no p-value (nan).

    The statistic is linear in the units of the counts (weights times ``k`` give ``k``
    times the statistic): it is computed on the counts divided by the power of two that
    brings the largest band into [0.5, 1) (exact), so that no square overflows (weight
    sums near 1e300) or underflows (near 1e-300), and multiplied back.

    >>> s, df, p = hosmer_lemeshow_counts([10, 10, 10], [1, 5, 8], [2.0, 5.0, 7.0])
    >>> round(s, 4), df, round(p, 4)
    (1.1012, 1, 0.294)
    """
    n = np.asarray(obligors, dtype=np.float64)
    o = np.asarray(positives, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    top = float(n.max()) if n.size else 0.0
    exponent = int(np.frexp(top)[1]) if 0.0 < top < math.inf else 0
    if exponent:
        n, o, e = np.ldexp(n, -exponent), np.ldexp(o, -exponent), np.ldexp(e, -exponent)
    var = e * (1.0 - e / n)
    gap = (o - e) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = np.where(var > 0, gap / np.where(var > 0, var, 1.0),
                         np.where(gap > 0, math.inf, 0.0))
    stat = float(terms.sum())
    if exponent and math.isfinite(stat):
        try:
            stat = math.ldexp(stat, exponent)
        except OverflowError:  # a statistic beyond float64 (only with weights)
            stat = math.inf
    df = int(n.size) - 2
    p = float(chdtrc(df, stat)) if df >= 1 else math.nan
    return stat, df, p


def citl_counts(obligors: Any, positives: Any, sum_p: Any, sum_pq: Any) -> dict[str, float]:
    """Calibration-in-the-large: the observed rate ``d / n`` against the mean PD
    ``sum p / n``, and the two-sided normal test of ``d = sum p`` with the variance
    ``sum p (1 - p)`` that the PDs imply when they are right (nan without variance).

    >>> r = citl_counts(100, 14, 10.0, 9.0)
    >>> r["observed"], r["expected"], round(r["z"], 4), round(r["p_value"], 4)
    (0.14, 0.1, 1.3333, 0.1824)
    """
    n, d = float(obligors), float(positives)
    sp, spq = float(sum_p), float(sum_pq)
    z = (d - sp) / math.sqrt(spq) if spq > 0 else math.nan
    p = float(2 * ndtr(-abs(z))) if math.isfinite(z) else math.nan
    return {"observed": d / n, "expected": sp / n, "difference": (d - sp) / n,
            "z": z, "p_value": p}


#: Scores are clipped to [CLIP, 1 - CLIP] before their logit in the recalibration.
CLIP = 1e-12


class _RecalibrationAcc:
    """One pass of Newton's method for ``logit P(y = 1) = a + b logit(p)``: the
    log-likelihood, its gradient and Hessian at ``(a, b)``, each group counted with
    its weight (Sum s: the same bits for any chunking)."""

    def __init__(self, totals: Totals, a: float, b: float, clip: float) -> None:
        self.totals, self.a, self.b, self.clip = totals, a, b, clip
        self.sums = [Sum() for _ in range(6)]  # ll, g_a, g_b, h_aa, h_ab, h_bb
        self.clipped: Any = 0
        self.xmin, self.xmax = math.inf, -math.inf

    def update(self, st: Step) -> None:
        if st.score.size == 0:
            return
        p = st.score.astype(np.float64)
        pos = st.pos.astype(np.float64)
        neg = st.neg.astype(np.float64)
        out = (p < self.clip) | (p > 1 - self.clip)
        self.clipped = seqsum((st.pos + st.neg)[out], self.clipped)
        x = logit(np.clip(p, self.clip, 1 - self.clip))
        self.xmin, self.xmax = min(self.xmin, float(x.min())), max(self.xmax, float(x.max()))
        eta = self.a + self.b * x
        mu = expit(eta)
        w = pos + neg
        r = pos - w * mu  # the score's residual
        h = w * mu * (1.0 - mu)
        for acc, v in zip(self.sums, (pos * log_expit(eta) + neg * log_expit(-eta), r, r * x,
                                      h, h * x, h * x * x)):
            acc.add(v)


def logistic_recalibration(
    stream: Any, totals: Totals, *, clip: float = CLIP, max_iter: int = 100,
) -> dict[str, Any]:
    """Fit ``logit P(y = 1) = a + b logit(p)`` by Newton's method (maximum likelihood,
    step halving when the likelihood falls), each pass a new ``stream()`` of the score
    groups: ``{"intercept", "slope", "cov", "converged", "iterations", "clipped"}`` with
    ``cov`` the inverse of the observed information (2 x 2, in the units of the
    counts) and ``clipped`` the count (weight) of scores outside ``[clip, 1 - clip]``,
    clipped before the logit. A constant score, or scores that separate the classes
    (the likelihood has no maximum), give nan with ``converged`` False.
    Starts at ``(0, 1)``: the scores as they are.

    Newton's method works in the engine's units (weights times ``totals.scale``, a
    power of two that brings their sum into [0.5, 1)): its steps do not depend on the
    units, bit for bit, and neither the Hessian's determinant nor the likelihood
    overflows or underflows, whatever the weights' scale; ``cov`` alone is brought
    back to the units of the data.
    """
    scale = totals.scale

    def evaluate(a: float, b: float) -> _RecalibrationAcc:
        acc = _RecalibrationAcc(totals, a, b, clip)
        run(stream(), totals, acc)
        return acc

    def parts(acc: _RecalibrationAcc) -> tuple[float, np.ndarray, np.ndarray]:
        v = [float(s) for s in acc.sums]
        return v[0], np.array(v[1:3]), np.array([[v[3], v[4]], [v[4], v[5]]])

    a, b = 0.0, 1.0
    acc = evaluate(a, b)
    clipped = acc.clipped if totals.integral else float(acc.clipped) / scale
    nan = {"intercept": math.nan, "slope": math.nan, "cov": np.full((2, 2), math.nan),
           "converged": False, "iterations": 0, "clipped": clipped}
    if not acc.xmin < acc.xmax:
        return nan
    ll, grad, hess = parts(acc)
    for it in range(1, max_iter + 1):
        det = hess[0, 0] * hess[1, 1] - hess[0, 1] ** 2
        if not det > 0:
            return dict(nan, iterations=it)
        step = np.array([hess[1, 1] * grad[0] - hess[0, 1] * grad[1],
                         hess[0, 0] * grad[1] - hess[0, 1] * grad[0]]) / det
        t = 1.0
        while True:
            na, nb = a + t * float(step[0]), b + t * float(step[1])
            new = evaluate(na, nb)
            nll, ngrad, nhess = parts(new)
            if nll >= ll - 1e-12 * abs(ll) or t < 1e-6:
                break
            t /= 2
        done = max(abs(t * step[0]), abs(t * step[1])) < 1e-10 * (1 + max(abs(na), abs(nb)))
        a, b, ll, grad, hess = na, nb, nll, ngrad, nhess
        if abs(b) > 1e6 or abs(a) > 1e6:
            return dict(nan, iterations=it)
        if done:
            det = hess[0, 0] * hess[1, 1] - hess[0, 1] ** 2
            cov = np.array([[hess[1, 1], -hess[0, 1]], [-hess[0, 1], hess[0, 0]]]) / det
            with np.errstate(over="ignore"):  # inverse information in the data's units
                cov = cov * scale
            return {"intercept": a, "slope": b, "cov": cov, "converged": True,
                    "iterations": it, "clipped": clipped}
    return dict(nan, iterations=max_iter)


# ------------------------------------------------------------------ unpaired DeLong


def unpaired_delong(auc_a: float, var_a: float, auc_b: float, var_b: float,
                    level: float = 0.95) -> dict[str, float]:
    """DeLong's test of two AUCs of *independent* samples (pROC's ``roc.test(paired =
    FALSE, method = "delong")``): ``z = (A_a - A_b) / sqrt(V_a + V_b)`` with each
    sample's DeLong variance, the two-sided normal p-value and the Wald interval of the
    difference (not clipped). Both variances 0 and no difference: ``z = 0, p = 1``.

    >>> r = unpaired_delong(0.8, 0.0009, 0.7, 0.0016)
    >>> round(r["z"], 4), round(r["p_value"], 4)
    (2.0, 0.0455)
    """
    difference = float(auc_a) - float(auc_b)
    variance = float(var_a) + float(var_b)
    nan = math.nan
    if not math.isfinite(variance):
        return {"z": nan, "p_value": nan, "difference": difference, "low": nan,
                "high": nan, "variance": nan}
    if variance == 0.0 and difference == 0.0:
        return {"z": 0.0, "p_value": 1.0, "difference": 0.0, "low": 0.0, "high": 0.0,
                "variance": 0.0}
    se = math.sqrt(variance)
    z = difference / se if se > 0 else math.copysign(math.inf, difference)
    half = float(ndtri((1 + level) / 2)) * se
    return {"z": z, "p_value": float(2 * ndtr(-abs(z))), "difference": difference,
            "low": difference - half, "high": difference + half, "variance": variance}
