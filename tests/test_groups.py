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
    # the plain count of the rows repeated w times (not score_groups again)
    keys, pos, neg = brute_force(np.repeat(y, w), np.repeat(s, w).tolist(), None)
    keep = (g.pos + g.neg) > 0
    assert g.scores[keep].tolist() == keys
    assert g.pos[keep].tolist() == pos and g.neg[keep].tolist() == neg


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


def _scores_of_kind(kind, n, rng):
    if kind == "probabilities":  # [0, 2): the bits are the key
        return np.round(rng.random(n), 2)
    if kind == "signed":  # the order-preserving map of the bits, -0.0 as 0.0
        s = np.round(rng.normal(size=n), 1)
        s[rng.random(n) < 0.1] = -0.0
        return s
    if kind == "extreme floats":  # codes span more than 2**62: one sort and a search
        return rng.choice([-1.7e308, -5e-324, -0.0, 0.0, 5e-324, 2.0, 1.7e308], n)
    if kind == "int64 beyond 2**53":
        return 2**62 + rng.integers(-3, 3, n)
    if kind == "int64 full range":
        return rng.choice(np.array([-(2**63), -1, 0, 2**63 - 1], dtype=np.int64), n)
    if kind == "uint64 above 2**63":
        return np.uint64(2**63) + rng.integers(0, 4, n).astype(np.uint64) * np.uint64(3)
    raise AssertionError(kind)


@pytest.mark.parametrize("n", [7, 5000])  # 5000: runs found from every 64th element
@pytest.mark.parametrize(
    "kind",
    ["probabilities", "signed", "extreme floats", "int64 beyond 2**53", "int64 full range",
     "uint64 above 2**63"],
)
def test_unweighted_groups_from_labelled_keys_every_kind_of_score(kind, n):
    """One sort of the keys 2c + y (or the fallback) counts each class per score exactly,
    and the scores come back in their own dtype."""
    rng = np.random.default_rng(n)
    s = _scores_of_kind(kind, n, rng)
    y = rng.random(n) < 0.3
    g = score_groups(y, s)
    keys, pos, neg = brute_force(y, s.tolist(), None)
    assert g.scores.dtype == s.dtype
    assert g.scores.tolist() == keys
    assert g.pos.tolist() == pos and g.neg.tolist() == neg


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("distinct", [1, 40, 4000, "40 and rare", "40 and signed zeros"])
def test_groups_by_numpy_hash_are_the_sums_in_input_order(distinct, weighted, monkeypatch):
    """Many objects, few distinct scores: the numpy hash table. Its sums are the weights
    added one by one in input order, to the last bit, including the objects that share
    a slot with another score or whose score the sample missed (summed apart: with
    4,000 distinct scores, or 40 common ones and 1% of scores seen once, some are)."""
    import pandas as pd

    from course_lib import _groups

    sizes = []
    factorize = pd.factorize

    def spy(values, *args, **kwargs):
        sizes.append(len(values))
        return factorize(values, *args, **kwargs)

    monkeypatch.setattr(_groups.pd, "factorize", spy)
    rng = np.random.default_rng(len(str(distinct)))
    n = 2**17
    s = rng.integers(0, 40 if isinstance(distinct, str) else distinct, n) / 7.0 - 3.0
    if distinct == "40 and signed zeros":  # one value, one sum in input order
        s[rng.random(n) < 0.1], s[rng.random(n) < 0.1] = -0.0, 0.0
    if distinct == "40 and rare":
        rare = rng.random(n) < 0.01
        s[rare] = 10.0 + rng.random(int(np.count_nonzero(rare)))  # each seen once
    y = rng.random(n) < 0.4
    w = rng.random(n) * (rng.random(n) < 0.9) if weighted else None
    assert _groups._hashed_groups(y, s, w) is not None
    g = score_groups(y, s, w)
    keys, pos, neg = brute_force(y, s.tolist(), None if w is None else w.tolist())
    assert g.scores.tolist() == keys
    assert g.pos.tolist() == pos and g.neg.tolist() == neg
    if not weighted:  # counts, as the sorts give them
        assert g.pos.dtype == np.int64 and g.neg.dtype == np.int64
        monkeypatch.setattr(_groups, "_hashed_groups", lambda y, s, w: None)
        sorted_ = score_groups(y, s)  # the sorting path, against the plain count too
        assert sorted_.scores.tolist() == keys
        assert sorted_.pos.tolist() == pos and sorted_.neg.tolist() == neg
    if distinct == "40 and rare":  # (a sample of 2**16 finds all 4,000 values)
        assert sizes and max(sizes) < n // 8  # some strays, summed apart


def test_scale_weights_multiplies_exactly_as_ldexp():
    from course_lib._checks import scale_weights

    rng = np.random.default_rng(0)
    for e in [*range(-1074, 1024, 13), -1074, -1023, -1022, 1022, 1023]:
        w = np.r_[rng.random(500) * 2.0**e, 5e-324, 0.0]
        w = w[np.isfinite(w)]
        exponent = int(np.frexp(w.max())[1])
        np.testing.assert_array_equal(scale_weights(w), np.ldexp(w, -exponent))


@pytest.mark.parametrize("units", [False, True])
@pytest.mark.parametrize(
    "weights", ["four values", "one value", "zeros and thirds", "many values", "a rare value"]
)
@pytest.mark.parametrize("kind", ["distinct", "from 0.0", "signed", "tied"])
def test_weighted_chunks_are_the_plain_sums(kind, weights, units):
    """Weights in the chunks, in every path of nearly distinct scores: coded into the
    sort keys (a few distinct values; integer units or the weights themselves; scores
    from 0.0 or not), following an argsort of the keys (many values, a value the
    sample of 2**16 missed), or one chunk (signed scores: no key; tied scores: the
    hash table). Each class's sum per score, chunk after chunk, and the class totals
    are the plain ones: in integer units, the same up to one common factor."""
    from course_lib._checks import class_totals
    from course_lib._groups import group_chunks

    rng = np.random.default_rng(len(kind) + 7 * len(weights))
    n = 2**17 if weights == "a rare value" else 2**16  # smaller: an argsort
    s = {
        "distinct": rng.random(n) + 1.0,
        "from 0.0": rng.random(n) * (np.arange(n) != 2),
        "signed": rng.normal(size=n),
        "tied": np.round(rng.random(n), 2),
    }[kind]
    s[::97] = s[1::97]  # ties among distinct scores too
    y = rng.random(n) < 0.3
    w = {
        "four values": rng.integers(1, 5, n) / 8.0,
        "one value": np.full(n, 3.0),
        "zeros and thirds": rng.choice([0.0, 1 / 3, 2 / 3, 0.1], n),
        "many values": rng.random(n),
        "a rare value": rng.integers(1, 5, n) / 8.0,
    }[weights]
    if weights == "a rare value":
        w[12345] = 0.625  # odd: not in the sample of every other weight
    chunks = group_chunks(y, s, w, chunk=64, units=units)
    m1, m0 = chunks.class_totals()
    parts = list(chunks)
    coded = chunks.sorted is not None and chunks.sorted.table is not None
    few = weights not in ("many values", "a rare value")
    assert coded == (few and kind in ("distinct", "from 0.0"))
    scores = np.concatenate([p.scores for p in parts])
    pos, neg = (np.concatenate([getattr(p, a) for p in parts]) for a in ("pos", "neg"))
    keys, bf_pos, bf_neg = brute_force(y, s.tolist(), w.tolist())
    assert scores.tolist() == keys
    t1, t0 = class_totals(y, w)
    unit = 2.0 ** round(np.log2((t1 + t0) / (m1 + m0)))  # units: ints, or the weights
    assert units or unit == 1.0  # scaled by a power of two
    if isinstance(m1, int):
        assert units and weights in ("four values", "one value", "a rare value")
        assert pos.dtype.kind == "i" and neg.dtype.kind == "i"
    np.testing.assert_allclose(pos * unit, bf_pos, rtol=1e-13, atol=0)
    np.testing.assert_allclose(neg * unit, bf_neg, rtol=1e-13, atol=0)
    np.testing.assert_allclose([m1 * unit, m0 * unit], [t1, t0], rtol=1e-13)
