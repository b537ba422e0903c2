"""Groups of equal scores: the one pass every ranking curve is built from.

A group is a set of objects with the same score. The ROC, PR, gain, lift and KS curves
and the AUC are all cumulative sums over groups taken in decreasing score order, so the
expensive part (sorting) is done once, here. Inputs are assumed validated
(see :mod:`course_lib._checks`): bool labels, finite float64 scores, weights or None.

Without weights the work is two ``numpy.sort`` calls (all scores, then the scores of the
smaller class) and a binary search, several times faster than an ``argsort``; see
:func:`score_groups` for the weighted case.

:func:`cumulative_counts` is the one core every curve and area is built on (ROC, PR,
gain, lift, KS, profit and CAP curves, the AUC, average precision, the Gini
coefficients): it drops the groups of zero weight and takes the running sums, once.
Scores may be float64, or int64 / uint64 / long double when float64 cannot hold them
exactly (see :func:`course_lib._checks.check_scores`): everything here only sorts and
compares them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = [
    "ScoreGroups",
    "Cumulative",
    "score_groups",
    "cumulative_counts",
    "cumulative_sums",
    "with_origin",
]


class ScoreGroups(NamedTuple):
    """Distinct scores in decreasing order and the weight of each class per score.

    ``pos`` and ``neg`` are int64 counts without weights, float64 sums with weights.
    """

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


def _distinct_ascending(s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted copy of ``s``, its distinct values and the size of each value's group."""
    asc = np.sort(s)
    new = np.empty(asc.size, dtype=bool)
    new[0] = True
    np.not_equal(asc[1:], asc[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return asc, asc[starts], np.diff(starts, append=asc.size)


def score_groups(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> ScoreGroups:
    """Group validated scores by value, in decreasing score order.

    Without weights: one sort of all scores gives the distinct values and the group
    sizes; one sort of the smaller class's scores, located among the distinct values
    (or the distinct values among them, whichever array is shorter), gives that class's
    count per group. With weights: a hash table codes the scores, one ``numpy.bincount``
    sums the weights of each class per code, and only the distinct values are sorted
    (see ``_sums_per_value``).

    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]))
    >>> g.scores.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.5, 0.2, 0.1], [1, 1, 0], [0, 1, 1])
    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]),
    ...                  np.array([1.0, 2.0, 0.5, 3.0]))
    >>> g.pos.tolist(), g.neg.tolist()
    ([2.0, 0.5, 0.0], [0.0, 1.0, 3.0])
    """
    if w is not None:
        return _sums_per_value(s, y, w, w)
    asc, values, total = _distinct_ascending(s)
    m1 = int(np.count_nonzero(y))
    count_positives = m1 <= y.size - m1
    smaller = np.sort(s[y] if count_positives else s[~y])
    if values.size <= smaller.size:
        counts = np.diff(np.searchsorted(smaller, values, side="right"), prepend=0)
    else:
        counts = np.bincount(np.searchsorted(values, smaller), minlength=values.size)
    pos = counts if count_positives else total - counts
    neg = total - pos
    return ScoreGroups(values[::-1].copy(), pos[::-1].copy(), neg[::-1].copy())


def _sums_per_value(
    s: np.ndarray, y: np.ndarray | None, a: np.ndarray, b: np.ndarray
) -> ScoreGroups:
    """Distinct scores in decreasing order with the sums of ``a`` and of ``b`` over the
    objects of each. With bool ``y`` given, ``a`` is summed where ``y`` and ``b`` where
    not (``a`` and ``b`` may then be the same weights).

    float64 scores are coded by a hash table (``pandas.factorize``, one O(n) pass, -0.0
    and 0.0 one value as comparisons say), the sums taken by ``numpy.bincount`` and
    only the distinct values sorted: with heavy ties that is a small sort. Other dtypes
    (integers float64 cannot hold, long doubles) take an ``argsort`` and
    ``numpy.add.reduceat``.
    """
    if s.dtype == np.float64:
        codes, uniques = pd.factorize(s)
        distinct = np.asarray(uniques)
        k = distinct.size
        if y is not None and a is b:
            sums = np.bincount(2 * codes + y, weights=a, minlength=2 * k).reshape(k, 2)
            sum_a, sum_b = sums[:, 1], sums[:, 0]
        else:
            if y is not None:
                a, b = np.where(y, a, 0.0), np.where(y, 0.0, b)
            sum_a = np.bincount(codes, weights=a, minlength=k)
            sum_b = np.bincount(codes, weights=b, minlength=k)
        order = np.argsort(distinct)[::-1]
        return ScoreGroups(distinct[order], sum_a[order], sum_b[order])
    order = np.argsort(s)
    asc = s[order]
    new = np.empty(asc.size, dtype=bool)
    new[0] = True
    np.not_equal(asc[1:], asc[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    if y is not None:
        yy = y[order]
        a, b = np.where(yy, a[order], 0.0), np.where(yy, 0.0, b[order])
    else:
        a, b = a[order], b[order]
    return ScoreGroups(
        asc[starts][::-1], np.add.reduceat(a, starts)[::-1], np.add.reduceat(b, starts)[::-1]
    )


def _cumulate(g: ScoreGroups, drop_empty: bool) -> Cumulative:
    if drop_empty:
        keep = (g.pos + g.neg) > 0
        if not keep.all():
            g = ScoreGroups(g.scores[keep], g.pos[keep], g.neg[keep])
    return Cumulative(g.scores, g.pos, g.neg, np.cumsum(g.pos), np.cumsum(g.neg))


class Cumulative(NamedTuple):
    """Running totals at every distinct score, in decreasing score order.

    ``thresholds[k]`` is the k-th largest distinct score (groups of zero weight left
    out); ``pos[k]``, ``neg[k]`` the weight of each class scoring exactly
    ``thresholds[k]``; ``tp[k]``, ``fp[k]`` the weight of each class scoring at least
    ``thresholds[k]``. All arrays are empty when every weight is zero.
    """

    thresholds: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    tp: np.ndarray
    fp: np.ndarray

    @property
    def m1(self) -> float:
        """Total weight (count) of the positives."""
        return self.tp[-1].item() if self.tp.size else 0

    @property
    def m0(self) -> float:
        """Total weight (count) of the negatives."""
        return self.fp[-1].item() if self.fp.size else 0


def cumulative_counts(
    y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None
) -> Cumulative:
    """Group validated scores and take the running sums of each class.

    Groups whose objects all have zero weight are dropped (they add no vertex to any
    curve), so every ``tp[k] + fp[k]`` is positive. Counts are int64 without weights;
    with weights they are float64 sums of the weights as given (callers that only need
    ratios pass :func:`course_lib._checks.scale_weights` of them, which can neither
    overflow nor underflow).

    >>> c = cumulative_counts(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist(), c.m1, c.m0
    ([0.5, 0.2, 0.1], [1, 2, 2], [0, 1, 2], 2, 2)
    >>> cumulative_counts(np.array([1, 0], bool), np.array([0.3, 0.1]),
    ...                   np.array([0.0, 0.0])).tp.size
    0
    """
    return _cumulate(score_groups(y, s, w), drop_empty=w is not None)


def cumulative_sums(s: np.ndarray, a: np.ndarray, b: np.ndarray) -> Cumulative:
    """:func:`cumulative_counts` for any two non-negative quantities per object.

    ``a`` takes the place of the positives' weight and ``b`` of the negatives'; the
    CAP curve of a real target (the regression Gini) passes the target mass ``t w``
    and the weight ``w``. Groups where both sum to zero are dropped.

    >>> c = cumulative_sums(np.array([0.1, 0.5, 0.1]), np.array([2.0, 5.0, 0.0]),
    ...                     np.array([1.0, 1.0, 1.0]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([0.5, 0.1], [5.0, 7.0], [1.0, 3.0])
    """
    return _cumulate(_sums_per_value(s, None, a, b), drop_empty=True)


def with_origin(c: Cumulative) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tp, fp, thresholds)`` with the empty selection first: ``0, 0, inf``.

    The curves that start at (0, 0) (ROC, gain, lift, KS, profit, CAP) read these.
    Float scores give float thresholds; integer scores that float64 cannot hold
    exactly give an object array of Python ints (and ``inf``), so no threshold is
    rounded.

    >>> c = cumulative_counts(np.array([0, 1], bool), np.array([0.2, 0.5]))
    >>> [a.tolist() for a in with_origin(c)]
    [[0, 1, 1], [0, 0, 1], [inf, 0.5, 0.2]]
    """
    scores = c.thresholds
    if scores.dtype.kind in "iu":
        thresholds = np.empty(scores.size + 1, dtype=object)
        thresholds[0] = np.inf
        thresholds[1:] = scores.tolist()
    else:
        thresholds = np.concatenate((np.array([np.inf], dtype=scores.dtype), scores))
    zero = np.zeros(1, dtype=c.tp.dtype)
    return np.concatenate((zero, c.tp)), np.concatenate((zero, c.fp)), thresholds



def counts_at_class_scores(
    y: np.ndarray, s: np.ndarray, positives: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Unweighted ``(tp, fp)`` at the vertices next to one class's groups, in
    increasing score; that class must be present.

    ``positives=True``: the rules ``score >= v`` for every distinct score ``v`` of a
    positive (the vertices that end a group holding a positive); ``False``: the rules
    ``score > u`` for every distinct score ``u`` of a negative (the vertices just
    before a group holding a negative). A quantity that grows with the positives and
    shrinks with the negatives (the KS gap ``TPR - FPR``) peaks at the empty selection
    or at both kinds of vertex, so either class will do: the smaller is the cheaper.
    One ``numpy.sort`` of each class's scores and a binary search, with no sort of all
    the scores: about one sort of the n scores in all. Counts are int64.

    >>> y, s = np.array([0, 1, 1, 0, 1], bool), np.array([0.2, 0.5, 0.2, 0.1, 0.5])
    >>> [a.tolist() for a in counts_at_class_scores(y, s, positives=True)]
    [[3, 2], [1, 0]]
    >>> [a.tolist() for a in counts_at_class_scores(y, s, positives=False)]
    [[3, 2], [1, 0]]
    """
    own, values, sizes = _distinct_ascending(s[y] if positives else s[~y])
    other = np.sort(s[~y] if positives else s[y])
    if positives:  # score >= v
        return own.size - (np.cumsum(sizes) - sizes), other.size - np.searchsorted(
            other, values, side="left"
        )
    # score > u
    return other.size - np.searchsorted(other, values, side="right"), own.size - np.cumsum(sizes)


def counts_at_cuts(
    y: np.ndarray, s: np.ndarray, ranks: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Unweighted: for positions ``ranks`` (0 to n, in decreasing score order), the
    first cut at or after each that does not split a group of equal scores: the number
    of objects above that cut and the number of positives among them.

    A group of ties that starts before position ``r`` and runs past it moves the cut
    to the group's end. One ``numpy.sort`` of all scores and one of the positives'
    scores, then binary searches for the ``ranks`` only.

    >>> cut, tp = counts_at_cuts(np.array([1, 0, 1, 0], bool), np.array([0.9, 0.5, 0.5, 0.1]),
    ...                          np.array([0, 1, 2, 4]))
    >>> cut.tolist(), tp.tolist()
    ([0, 1, 3, 4], [0, 1, 2, 2])
    """
    ascending = np.sort(s)
    positives = np.sort(s[y])
    n = s.size
    inside = ranks < n
    score = ascending[n - 1 - np.where(inside, ranks, 0)]  # the object at each position
    above = n - np.searchsorted(ascending, score, side="right")  # where its group starts
    through = n - np.searchsorted(ascending, score, side="left")  # where its group ends
    cut = np.where(~inside, n, np.where(above == ranks, ranks, through))
    lowest = ascending[n - np.maximum(cut, 1)]  # the lowest score above the cut
    tp = np.where(cut > 0, positives.size - np.searchsorted(positives, lowest, side="left"), 0)
    return cut, tp
