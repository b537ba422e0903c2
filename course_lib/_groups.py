"""Groups of equal scores: the one pass every ranking curve is built from.

A group is a set of objects with the same score. The ROC, PR, gain, lift and KS curves
and the AUC are all cumulative sums over groups taken in decreasing score order, so the
expensive part (sorting) is done once, here. Inputs are assumed validated
(see :mod:`course_lib._checks`): bool labels, finite float64 scores, weights or None.

Without weights the work is two ``numpy.sort`` calls (all scores, then the scores of the
smaller class) and a binary search, several times faster than an ``argsort``; see
:func:`score_groups` for the weighted case.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ScoreGroups", "score_groups"]


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
    count per group. With weights: when the scores have few distinct values (heavy
    ties), every score is located among them and the weights are summed with
    ``numpy.bincount``; otherwise a stable ``argsort`` and ``numpy.add.reduceat``.

    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]))
    >>> g.scores.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.5, 0.2, 0.1], [1, 1, 0], [0, 1, 1])
    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]),
    ...                  np.array([1.0, 2.0, 0.5, 3.0]))
    >>> g.pos.tolist(), g.neg.tolist()
    ([2.0, 0.5, 0.0], [0.0, 1.0, 3.0])
    """
    asc, values, total = _distinct_ascending(s)
    if w is None:
        m1 = int(np.count_nonzero(y))
        count_positives = m1 <= y.size - m1
        smaller = np.sort(s[y] if count_positives else s[~y])
        if values.size <= smaller.size:
            counts = np.diff(np.searchsorted(smaller, values, side="right"), prepend=0)
        else:
            counts = np.bincount(np.searchsorted(values, smaller), minlength=values.size)
        pos = counts if count_positives else total - counts
        neg = total - pos
    elif values.size * 16 <= s.size:
        group = np.searchsorted(values, s)
        pos = np.bincount(group, weights=np.where(y, w, 0.0), minlength=values.size)
        neg = np.bincount(group, weights=np.where(y, 0.0, w), minlength=values.size)
    else:
        order = np.argsort(s, kind="stable")
        starts = np.r_[0, np.cumsum(total)[:-1]]
        wy = w[order]
        yy = y[order]
        pos = np.add.reduceat(np.where(yy, wy, 0.0), starts)
        neg = np.add.reduceat(np.where(yy, 0.0, wy), starts)
    return ScoreGroups(values[::-1].copy(), pos[::-1].copy(), neg[::-1].copy())
