"""The sort-and-search helpers of course_lib._groups against counting by brute force.

``counts_at_class_scores`` (the KS statistic without weights) and ``counts_at_cuts``
(the gains table's bins) count with two sorts and binary searches; here every count is
taken object by object, on tied, distinct and big-integer scores.
"""

from __future__ import annotations

import numpy as np
import pytest

from course_lib._groups import counts_at_class_scores, counts_at_cuts


def _cases():
    rng = np.random.default_rng(20)
    for k in range(60):
        n = int(rng.integers(2, 40))
        y = rng.integers(0, 2, n).astype(bool)
        y[0], y[1] = True, False  # both classes
        if k % 3 == 0:
            s = np.round(rng.random(n), 1)  # ties
        elif k % 3 == 1:
            s = rng.random(n)  # distinct
        else:
            s = (2**62 + rng.integers(0, 5, n)).astype(np.int64)  # not exact in float64
        yield y, s


@pytest.mark.parametrize("positives", [True, False])
def test_counts_at_class_scores_count_every_object(positives):
    for y, s in _cases():
        tp, fp = counts_at_class_scores(y, s, positives=positives)
        values = np.unique(s[y] if positives else s[~y]).tolist()  # increasing
        chosen = [(s >= v) if positives else (s > v) for v in values]
        assert tp.tolist() == [int(np.count_nonzero(c & y)) for c in chosen]
        assert fp.tolist() == [int(np.count_nonzero(c & ~y)) for c in chosen]


def test_counts_at_cuts_never_split_a_tie():
    for y, s in _cases():
        n = s.size
        order = sorted(range(n), key=lambda i: s[i], reverse=True)
        ranks = np.arange(n + 1)
        cut, tp = counts_at_cuts(y, s, ranks)
        for r, c, t in zip(ranks.tolist(), cut.tolist(), tp.tolist()):
            # the first position at or after r that ends a group of equal scores
            expected = r
            while 0 < expected < n and s[order[expected - 1]] == s[order[expected]]:
                expected += 1
            assert c == expected
            assert t == sum(bool(y[i]) for i in order[:c])
