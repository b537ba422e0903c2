"""Groups of equal scores: the one pass every ranking curve is built from.

A group is a set of objects with the same score. The ROC, PR, gain, lift and KS curves
and the AUC are all cumulative sums over groups taken in decreasing score order, so the
expensive part (sorting) is done once, here. Inputs are assumed validated
(see :mod:`course_lib._checks`): bool labels, finite float64 scores, weights or None.

Without weights the work is two ``numpy.sort`` calls (all scores, then the positives'
scores) and a binary search of the distinct scores, which is several times faster than
an ``argsort``; with weights an ``argsort`` and ``numpy.add.reduceat`` are used.
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


def score_groups(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> ScoreGroups:
    """Group validated scores by value, in decreasing score order.

    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]))
    >>> g.scores.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.5, 0.2, 0.1], [1, 1, 0], [0, 1, 1])
    """
    if w is None:
        asc = np.sort(s)
        new = np.empty(asc.size, dtype=bool)
        new[0] = True
        np.not_equal(asc[1:], asc[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        values = asc[starts]
        total = np.diff(starts, append=asc.size)
        pos_asc = np.sort(s[y])
        cum_pos = np.searchsorted(pos_asc, values, side="right")
        pos = np.diff(cum_pos, prepend=0)
        neg = total - pos
    else:
        order = np.argsort(s, kind="stable")
        asc = s[order]
        new = np.empty(asc.size, dtype=bool)
        new[0] = True
        np.not_equal(asc[1:], asc[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        values = asc[starts]
        wy = w[order]
        yy = y[order]
        pos = np.add.reduceat(np.where(yy, wy, 0.0), starts)
        neg = np.add.reduceat(np.where(yy, 0.0, wy), starts)
    return ScoreGroups(values[::-1].copy(), pos[::-1].copy(), neg[::-1].copy())
