"""Gini's coefficient twice: inequality of incomes, and quality of a ranking (ch. 5-6).

Economics (source G, D): sort the incomes in non-decreasing order; the Lorenz curve joins
``(k/n, share of the k poorest)`` for ``k = 0..n``, and Brown's formula

    G = 1 - sum_k (X_k - X_{k-1}) (Y_k + Y_{k-1})

is twice the area between the diagonal and the curve.

Machine learning (D, G): sort the objects by non-increasing score; the CAP curve (also
called the Lorenz, gain or "lift" curve) joins ``(share of objects taken, share of the
positives among them)``, or share of a non-negative target (insurance payments, say) for
the regression Gini. Tied scores move together: a group of equal scores is one straight
(diagonal) step, as on the ROC grid. The normalized Gini is the area between the curve
and the diagonal over the same area for the perfect ranking (by the target itself); for
0/1 labels it equals ``2 AUC - 1`` exactly, ties included.

The bubble-sort reading (G): in the labels listed by increasing score, every pair
"positive before negative" is one swap of bubble sort and one wrongly ordered pair;
:func:`count_inversions` counts them in O(n log n), :func:`bubble_sort_swaps` by doing
the O(n^2) sort.

Areas come from the groups in one pass. With ``c_g`` objects (or weight) and target mass
``t_g`` in group ``g``, cumulative mass ``S_g``, total weight ``N`` and total mass ``T``,
the area between the CAP curve and the diagonal is

    (sum_g c_g (S_{g-1} + S_g) - N T) / (2 N T),

an exact ratio of integers for counts and integer targets, hence ``exact=True``.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    UndefinedMetricWarning,
    check_flag,
    check_labels,
    check_scores,
    check_weights,
    integer_weights,
    undefined,
)
from ._curves import CurveView
from ._groups import Cumulative, cumulative_counts, cumulative_sums, with_origin
from ._stream import AucAcc, in_memory, run

__all__ = [
    "LorenzCurve",
    "CapCurve",
    "lorenz_curve",
    "gini_brown",
    "cap_curve",
    "gini_unnormalized",
    "gini_normalized",
    "count_inversions",
    "bubble_sort_swaps",
]

# Integers up to 2**53 are exact in float64: the bound for exact=True on float input.
_EXACT_FLOAT_LIMIT = 2**53


class _LorenzFields(NamedTuple):
    population: np.ndarray
    share: np.ndarray


class LorenzCurve(CurveView, _LorenzFields):
    """Lorenz curve: ``share[k]`` of the total is held by the poorest ``population[k]``.

    ``c.xy`` is ``(population, share)`` and ``c.at(p)`` the share of the poorest ``p``.
    """

    __slots__ = ()
    _x, _y = "population", "share"


class _CapFields(NamedTuple):
    rate: np.ndarray
    share: np.ndarray
    thresholds: np.ndarray


class CapCurve(CurveView, _CapFields):
    """CAP curve: taking the objects with ``score >= thresholds[k]``, a share ``rate[k]``
    of all objects, captures a share ``share[k]`` of the positives (or of the target).

    ``c.xy`` is ``(rate, share)``.
    """

    __slots__ = ()
    _x, _y = "rate", "share"


# --------------------------------------------------------------------------- economics


def _check_incomes(values: Any, *, exact: bool = False) -> np.ndarray:
    """Non-negative finite values with a positive total, as float64 (or int64 if exact)."""
    v = check_scores(values, name="values")
    if (v < 0).any():
        raise ValueError(
            f"values must be non-negative (incomes); found {float(v.min())!r}"
        )
    total = float(v.max())
    if total == 0:
        raise ValueError("values sum to zero: the Lorenz curve and Gini are undefined")
    if exact:
        if (v != np.floor(v)).any():
            frac = v[v != np.floor(v)][0]
            raise ValueError(f"exact=True needs integer values; found {float(frac)!r}")
        if float(v.sum()) >= _EXACT_FLOAT_LIMIT:
            raise ValueError("exact=True needs values summing to less than 2**53")
        return v.astype(np.int64)
    return v


def lorenz_curve(values: Any) -> LorenzCurve:
    """The Lorenz curve of non-negative values (incomes), one vertex per person.

    Parameters
    ----------
    values : array-like of shape (n,)
        Non-negative incomes, in any order, with a positive total.

    Returns
    -------
    LorenzCurve
        ``(population, share)``: ``n + 1`` points from (0, 0) to (1, 1);
        ``population[k] = k / n`` and ``share[k]`` is the share of the total held by the
        ``k`` smallest values.

    Raises
    ------
    ValueError
        If a value is negative, NaN or infinite, or all values are zero.

    Examples
    --------
    Incomes 1, 1, 2, 2, 3 (source D): the three poorest hold 4 of the 9:

    >>> c = lorenz_curve([3, 1, 2, 1, 2])
    >>> c.population.tolist()
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> (9 * c.share).round(10).tolist()
    [0.0, 1.0, 2.0, 4.0, 6.0, 9.0]
    """
    v = np.sort(_check_incomes(values))
    with np.errstate(over="ignore"):
        cum = np.cumsum(v)
    if not np.isfinite(cum[-1]):  # values near the float limit: shares of the largest
        cum = np.cumsum(v / v[-1])
    cum = np.concatenate(([0.0], cum))
    return LorenzCurve(np.arange(v.size + 1) / v.size, cum / cum[-1])


def gini_brown(values: Any, *, exact: bool = False) -> float | Fraction:
    """Gini coefficient of non-negative values by Brown's formula.

    ``G = 1 - sum_k (X_k - X_{k-1}) (Y_k + Y_{k-1})`` over the vertices of the Lorenz
    curve: twice the area between the diagonal and the curve. 0 means everybody has
    the same; ``1 - 1/n`` is the most unequal value for ``n`` people (one holds all).

    Parameters
    ----------
    values : array-like of shape (n,)
        Non-negative incomes with a positive total.
    exact : bool, default False
        Return a :class:`fractions.Fraction`; needs integer values.

    Returns
    -------
    float or Fraction
        The Gini coefficient, in ``[0, 1 - 1/n]``.

    Raises
    ------
    ValueError
        If a value is negative, NaN or infinite, or all values are zero (the share of
        the total is then undefined; this is an error, not a ``nan``).

    Examples
    --------
    Incomes 1, 1, 2, 2, 3 (source D), and one of G's villages:

    >>> gini_brown([1, 1, 2, 2, 3], exact=True)
    Fraction(2, 9)
    >>> round(gini_brown([5, 5, 5, 10, 10, 10, 10, 15, 15, 15]), 2)
    0.21
    """
    if check_flag(exact, "exact"):
        v = np.sort(_check_incomes(values, exact=True)).astype(object)  # Python ints
        cum = np.cumsum(v)
        # X_k - X_{k-1} = 1/n and Y_k + Y_{k-1} = (2 S_k - v_k) / T, summed exactly.
        return 1 - Fraction(int((2 * cum - v).sum()), v.size * int(cum[-1]))
    x, y = lorenz_curve(values)
    return float(1.0 - np.sum(np.diff(x) * (y[1:] + y[:-1])))


# -------------------------------------------------------------------- machine learning


def _check_target(y_true: Any, regression: Any, stacklevel: int) -> np.ndarray:
    """Labels -> bool array; a real target -> non-negative float64 array.

    ``regression=False``: 0/1 labels only. ``True``: a non-negative target (0/1
    included). ``None``: labels if every value is 0 or 1, a target otherwise; a target
    with two values, neither of them 0 (labels {1, 2}, say), is read as a target with a
    warning, since it looks like class labels coded otherwise.
    """
    if regression is not None:
        regression = check_flag(regression, "regression")
    if regression is False:
        return check_labels(y_true)
    arr = np.asarray(y_true)
    if regression is None and (
        arr.dtype == bool or (arr.dtype.kind in "iuf" and np.isin(arr, (0, 1)).all())
    ):
        return check_labels(arr)
    t = check_scores(arr, name="y_true")
    if (t < 0).any():
        raise ValueError(
            "y_true must be 0/1 labels or a non-negative target; "
            f"found {float(t.min())!r}"
        )
    if regression is None:
        distinct = np.unique(t)
        if distinct.size == 2 and distinct[0] > 0:
            warnings.warn(
                f"y_true holds two values, {distinct[0]:g} and {distinct[1]:g}: read as a "
                "numeric target (the regression Gini), not as class labels; pass "
                "regression=True to say so, or code the classes as 0/1 "
                "(regression=False refuses anything else)",
                UserWarning,
                stacklevel=stacklevel + 1,
            )
    return t


def _validate(y_true: Any, y_score: Any, sample_weight: Any, regression: Any, *,
              stacklevel: int = 3,
              scale: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    t = _check_target(y_true, regression, stacklevel + 1)
    s = check_scores(y_score, on_inexact="keep")
    if t.size != s.size:
        raise ValueError(f"y_true and y_score have different lengths: {t.size} and {s.size}")
    return t, s, check_weights(sample_weight, s.size, scale=scale)


def _cap_groups(t: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> Cumulative:
    """Groups of equal score in decreasing order, read for the CAP curve: ``pos`` is
    the target mass of each group and ``neg`` its weight (every object's), ``tp`` and
    ``fp`` their running sums.

    Labels (bool ``t``) go through :func:`~course_lib._groups.cumulative_counts`, a
    real target through :func:`~course_lib._groups.cumulative_sums` (mass ``t w`` and
    weight ``w``); groups of zero weight are dropped, as they add no vertex. Counts
    are int64 without weights and with labels.
    """
    if t.dtype == bool:
        c = cumulative_counts(t, s, w)
        weight = c.pos + c.neg  # the rate counts every object
        return c._replace(neg=weight, fp=np.cumsum(weight))
    weight = np.ones(s.size) if w is None else w
    return cumulative_sums(s, t * weight, weight)


def _area_numerator(weight: np.ndarray, mass: np.ndarray) -> Any:
    """``sum_g c_g (S_{g-1} + S_g) - N T``: 2 N T times the area above the diagonal."""
    cum = np.cumsum(mass)
    return np.dot(weight, 2 * cum - mass) - weight.sum() * cum[-1]


def _as_exact(arr: np.ndarray, what: str) -> np.ndarray:
    """Integer-valued array -> object array of Python ints (exact, no overflow)."""
    if arr.dtype.kind == "f":
        if (arr != np.floor(arr)).any():
            bad = arr[arr != np.floor(arr)][0]
            raise ValueError(f"exact=True needs integer {what}; found {float(bad)!r}")
        if float(arr.sum()) >= _EXACT_FLOAT_LIMIT:
            raise ValueError(f"exact=True needs a total of {what} below 2**53")
    return arr.astype(np.int64).astype(object)


def cap_curve(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, regression: bool | None = None
) -> CapCurve:
    """The CAP (Lorenz, gain) curve: share of objects taken vs share of positives.

    The objects are taken in non-increasing score order, a group of equal scores at
    once (one straight, usually diagonal, step). For 0/1 labels the share is the TPR
    and the curve is the gain curve; for a non-negative target (the regression Gini)
    it is the share of the total target.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool, or a non-negative real target; positive total needed.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights: an object counts ``w`` times on both axes.
    regression : bool, optional
        ``False``: ``y_true`` must be 0/1 labels; ``True``: ``y_true`` is a
        non-negative target (the regression reading). By default labels when every
        value is 0 or 1 and a target otherwise, with a warning when the target has
        two values neither of which is 0 (labels {1, 2} are not read as classes).

    Returns
    -------
    CapCurve
        ``(rate, share, thresholds)``: ``thresholds[0] = inf`` gives (0, 0), then one
        vertex per distinct score in decreasing order; the last vertex is (1, 1).

    Raises
    ------
    ValueError
        If there is no positive (the target sums to zero), all weights are zero, a
        target is negative, or the input is otherwise invalid.

    Examples
    --------
    Table 1 of the book: at the threshold 0.4 two objects of seven are taken, and they
    hold one of the three positives:

    >>> c = cap_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [round(7 * r) for r in c.rate], [round(3 * s) for s in c.share]
    ([0, 1, 2, 3, 5, 6, 7], [0, 1, 1, 2, 3, 3, 3])
    >>> c.thresholds.tolist()
    [inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0]
    """
    c = _cap_groups(*_validate(y_true, y_score, sample_weight, regression))
    if not c.fp.size or c.fp[-1] == 0:
        undefined("the CAP curve", None, warn=False)
    if c.tp[-1] == 0:  # no positive (for a real target: it sums to zero)
        undefined("the CAP curve", "positive", warn=False)
    share, rate, thresholds = with_origin(c)
    return CapCurve(rate / rate[-1], share / share[-1], thresholds)


def _ratio(num: Any, den: Any, exact: bool) -> float | Fraction:
    if exact:
        return Fraction(int(num), int(den))
    if isinstance(num, np.integer) and isinstance(den, np.integer):
        return int(num) / int(den)  # a correctly rounded ratio of exact integers
    return float(num) / float(den)


def _cap_parts(
    y_true: Any, y_score: Any, sample_weight: Any, exact: bool, what: str, regression: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """Validated input for the Gini functions, or None (after a warning) if there is
    no positive (no target mass), so the CAP curve is undefined."""
    exact = check_flag(exact, "exact")
    t, s, w = _validate(y_true, y_score, sample_weight, regression, stacklevel=4,
                        scale=not exact)
    if exact:
        if w is not None:
            integer_weights(w)
        if t.dtype != bool:
            _as_exact(t, "targets")
    tf = t.astype(np.float64)
    if (tf.sum() if w is None else np.dot(tf, w)) == 0:
        # every weight zero, or no positive (for a real target: it sums to zero)
        zero = w is not None and not w.sum() > 0
        undefined(what, None if zero else "positive", warn=True, stacklevel=3)
        return None
    return t, s, w


def _numerator_and_total(
    t: np.ndarray, s: np.ndarray, w: np.ndarray | None, exact: bool
) -> tuple[Any, Any]:
    """(2 N T times the area between CAP curve and diagonal, 2 N T).

    Float weights come rescaled by a power of two (exact; the ratios the Gini
    functions return are unchanged: :func:`course_lib._checks.check_weights`), so that
    no product overflows or underflows.
    """
    c = _cap_groups(t, s, w)
    weight, mass = c.neg, c.pos
    if exact:
        weight, mass = _as_exact(weight, "weights"), _as_exact(mass, "targets")
    return _area_numerator(weight, mass), 2 * weight.sum() * mass.sum()


def gini_unnormalized(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                      exact: bool = False, regression: bool | None = None) -> float | Fraction:
    """Area between the CAP curve and the diagonal (G's "Gini of the model").

    Its value for the perfect ranking, ``gini_unnormalized(y_true, y_true)``, depends
    only on the data: ``m0 / (2 n)`` for labels (G: "the number of class-0 objects over
    two", as a share). :func:`gini_normalized` divides one by the other.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool, or a non-negative real target.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    exact : bool, default False
        Return a :class:`fractions.Fraction`; needs integer targets and weights.
    regression : bool, optional
        How ``y_true`` is read, as in :func:`cap_curve`.

    Returns
    -------
    float or Fraction
        The signed area (negative when the curve runs below the diagonal); ``nan`` with
        an :class:`UndefinedMetricWarning` when there are no positives (the target sums
        to zero).

    Examples
    --------
    G's 15-object example: 17/90 for the model, 0.3 for the perfect ranking:

    >>> actual = [1] * 6 + [0] * 9
    >>> predict = [0.9, 0.3, 0.8, 0.75, 0.65, 0.6, 0.78, 0.7, 0.05, 0.4, 0.4,
    ...            0.05, 0.5, 0.1, 0.1]
    >>> gini_unnormalized(actual, predict, exact=True)
    Fraction(17, 90)
    >>> gini_unnormalized(actual, actual)
    0.3
    """
    parts = _cap_parts(y_true, y_score, sample_weight, exact, "the Gini of the CAP curve", regression)
    if parts is None:
        return float("nan")
    num, total = _numerator_and_total(*parts, exact)
    return _ratio(num, total, exact)


def gini_normalized(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                    exact: bool = False, regression: bool | None = None) -> float | Fraction:
    """Normalized Gini: area between CAP curve and diagonal over that of the perfect model.

    The perfect model ranks by the target itself. For 0/1 labels the result equals
    ``2 AUC - 1`` exactly (ties counting 1/2 in the AUC, a diagonal step in the CAP
    curve); for a non-negative target it is D's regression Gini.

    Parameters are those of :func:`gini_unnormalized`.

    Returns
    -------
    float or Fraction
        The normalized Gini in ``[-1, 1]``; ``nan`` with an
        :class:`UndefinedMetricWarning` when it is undefined: one class only, a target
        summing to zero, or a constant target (the perfect model has zero area).

    Examples
    --------
    Table 1 of the book, with the AUC counted pair by pair (ties count 1/2):

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> pairs = [(p > q) + (p == q) / 2
    ...          for p, yp in zip(b, y) if yp for q, yq in zip(b, y) if not yq]
    >>> auc = Fraction(int(2 * sum(pairs)), 2 * len(pairs))
    >>> auc, 2 * auc - 1, gini_normalized(y, b, exact=True)
    (Fraction(19, 24), Fraction(7, 12), Fraction(7, 12))

    The regression Gini of D: payments 5, 2, 10, 3, 0, 5, 0, 0 by decreasing score:

    >>> gini_normalized([5, 2, 10, 3, 0, 5, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1], exact=True)
    Fraction(21, 37)
    """
    parts = _cap_parts(y_true, y_score, sample_weight, exact, "the normalized Gini", regression)
    if parts is None:
        return float("nan")
    t, s, w = parts
    if t.dtype == bool:  # labels: 2 AUC - 1, the engine's AUC (one home for both)
        chunks, totals = in_memory(t, s, w, integral=w is None or exact, scores=False)
        if totals.m0 > 0:
            auc = AucAcc(totals)
            run(chunks, totals, auc)
            if not totals.integral:
                return 2 * float(auc.result()) - 1
            twice = 2 * int(totals.m1) * int(totals.m0)  # AUC = num / twice
            gini = Fraction(2 * int(auc.num) - twice, twice)
            return gini if exact else gini.numerator / gini.denominator
        perfect = 0
    else:
        num, _ = _numerator_and_total(t, s, w, exact)
        perfect, _ = _numerator_and_total(t, t.astype(np.float64), w, exact)
    if perfect == 0:
        warnings.warn(
            "the normalized Gini is undefined: every object has the same target (for "
            "labels: there are no negative samples), so no ranking beats a random one",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float("nan")
    return _ratio(num, perfect, exact)


# ------------------------------------------------------------------- bubble-sort view


def _check_sequence(seq: Any) -> np.ndarray:
    """1-D, non-empty, comparable values without NaN."""
    arr = np.asarray(seq)
    if arr.ndim != 1:
        raise ValueError(f"seq must be 1-D, got an array of shape {arr.shape}")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError("seq contains NaN, which cannot be ordered")
    if arr.dtype.kind == "O" and any(v != v for v in arr.tolist()):  # NaN != NaN
        raise ValueError("seq contains NaN, which cannot be ordered")
    if arr.dtype.kind not in "biufUS":
        try:
            sorted(arr.tolist())
        except TypeError as err:
            raise ValueError(f"seq must hold mutually comparable values: {err}") from None
    return arr


def count_inversions(seq: Any) -> int:
    """Number of pairs ``i < j`` with ``seq[i] > seq[j]`` (equal values are no inversion).

    It equals the number of swaps bubble sort makes (:func:`bubble_sort_swaps`), in
    O(n log n): one sort turns the values into ranks ``0..K-1``, then a stable sort on
    the binary digits of the ranks, from the highest, is done in one linear pass per
    digit. An inverted pair is counted at the highest digit where the two ranks differ:
    there the ranks agree on all higher digits (so they are in the same block) and the
    earlier one has digit 1, the later one digit 0.

    Parameters
    ----------
    seq : array-like of shape (n,)
        Mutually comparable values (numbers, strings, bools); no NaN.

    Returns
    -------
    int
        The inversion count, between 0 and ``n (n - 1) / 2``.

    Examples
    --------
    G's 15 labels listed by increasing score: every 1 before a 0 is a positive scored
    below a negative:

    >>> count_inversions([0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1])
    10
    >>> count_inversions([3, 1, 2, 2])
    3
    """
    arr = _check_sequence(seq)
    n = arr.size
    if n < 2:
        return 0
    ranks = np.unique(arr, return_inverse=True)[1].astype(np.int64).ravel()
    order = np.arange(n)  # positions, stably sorted by the rank digits seen so far
    position = np.arange(n)
    inversions = 0
    for bit in reversed(range(int(ranks.max()).bit_length())):
        r = ranks[order]
        block = r >> (bit + 1)
        digit = (r >> bit) & 1
        starts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
        sizes = np.diff(starts, append=n)
        start = np.repeat(starts, sizes)  # first position of each element's block
        ones_before = np.cumsum(digit) - digit
        ones_before -= ones_before[start]
        inversions += int(ones_before[digit == 0].sum())
        zeros_in_block = np.repeat(sizes - np.add.reduceat(digit, starts), sizes)
        zeros_before = position - start - ones_before
        target = np.where(digit == 0, start + zeros_before, start + zeros_in_block + ones_before)
        new_order = np.empty_like(order)
        new_order[target] = order
        order = new_order
    return inversions


def bubble_sort_swaps(seq: Any) -> int:
    """Sort a copy of ``seq`` by bubble sort and return the number of swaps made.

    The teaching version of :func:`count_inversions` (G's code): adjacent elements are
    swapped when the left one is strictly greater, so equal values are never swapped.
    Time O(n^2): for small examples only.

    Parameters
    ----------
    seq : array-like of shape (n,)
        Mutually comparable values; no NaN.

    Returns
    -------
    int
        The number of swaps, equal to the number of inversions.

    Examples
    --------
    >>> bubble_sort_swaps([0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1])
    10
    >>> bubble_sort_swaps([3, 1, 2, 2])
    3
    """
    items = _check_sequence(seq).tolist()
    n = len(items)
    swaps = 0
    for i in range(1, n):
        swapped = False
        for j in range(n - i):
            if items[j] > items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
                swapped = True
                swaps += 1
        if not swapped:
            break
    return swaps
