"""The shared grouping of equal scores, against a plain dictionary count.

score_groups takes different paths by the number of distinct scores, the size of each
class and the presence of weights; every path must give the same groups.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from course_lib._groups import score_groups


def brute_force(y, s, w):
    groups = {}
    for label, score, weight in zip(y, s, w if w is not None else np.ones(len(y), int)):
        pos, neg = groups.get(score, (0, 0))
        groups[score] = (pos + weight, neg) if label else (pos, neg + weight)
    keys = sorted(groups, reverse=True)
    return keys, [groups[k][0] for k in keys], [groups[k][1] for k in keys]


@given(
    n=st.integers(1, 300),
    levels=st.sampled_from([1, 2, 5, 40, 10**6]),  # heavy ties ... all distinct
    share=st.floats(0, 1),
    weighted=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_score_groups_equals_a_plain_count(n, levels, share, weighted, seed):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, levels, n) / levels
    y = rng.random(n) < share
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    g = score_groups(y, s, w)
    keys, pos, neg = brute_force(y, s, w)
    assert g.scores.tolist() == keys
    assert g.pos.tolist() == pos and g.neg.tolist() == neg
    if w is None:
        assert g.pos.dtype == np.int64 and g.neg.dtype == np.int64


@pytest.mark.parametrize("n_distinct", [3, 500])  # the bincount and the argsort paths
def test_weighted_paths_agree_with_replication(n_distinct):
    rng = np.random.default_rng(n_distinct)
    s = rng.integers(0, n_distinct, 1000) / n_distinct
    y = rng.random(1000) < 0.4
    w = rng.integers(0, 3, 1000)
    g = score_groups(y, s, w.astype(float))
    rep = score_groups(np.repeat(y, w), np.repeat(s, w))
    keep = (g.pos + g.neg) > 0
    assert np.array_equal(g.scores[keep], rep.scores)
    assert np.array_equal(g.pos[keep], rep.pos) and np.array_equal(g.neg[keep], rep.neg)


@pytest.mark.parametrize("seed", range(6))
def test_weighted_groups_by_hash_equal_groups_by_sorting(seed):
    # heavy ties and -0.0 next to 0.0
    """Heavy ties go through pandas.factorize; the result equals a sort-based grouping,
    -0.0 and 0.0 included (one value, as comparisons say)."""
    from course_lib._groups import score_groups

    rng = np.random.default_rng(seed)
    n = 5000
    s = rng.integers(-20, 20, n) / 4.0
    s[rng.random(n) < 0.05] = -0.0
    y = rng.random(n) < 0.4
    w = rng.uniform(0, 3, n)
    g = score_groups(y, s, w)
    values = np.unique(s)[::-1]
    np.testing.assert_array_equal(g.scores, values)
    np.testing.assert_allclose(g.pos, [w[y & (s == v)].sum() for v in values], rtol=1e-12)
    np.testing.assert_allclose(g.neg, [w[~y & (s == v)].sum() for v in values], rtol=1e-12)
