"""Groups of equal scores: the one pass every ranking curve is built from.

A group is a set of objects with the same score. The ROC, PR, gain, lift and KS curves
and the AUC are all cumulative sums over groups taken in decreasing score order, so the
expensive part (sorting) is done once, here. Inputs are assumed validated
(see :mod:`course_lib._checks`): bool labels, finite float64 scores, weights or None.

Without weights the work is one ``numpy.sort`` of int64 keys that hold each object's
score order and label (no ``argsort``, no split by class), then runs of equal keys;
so too with weights of a few distinct values, coded into the keys beside the label
(:class:`group_chunks`); with weights, for many objects with few distinct scores, one
pass of a hash table made of numpy operations and one ``numpy.bincount`` (no sort of
the objects at all). See :func:`score_groups`; ``tests/benchmarks/bench_ranking.py``
times them against one
``numpy.sort`` of the scores.

:func:`cumulative_counts` is the one core every curve and area is built on (ROC, PR,
gain, lift, KS, profit and CAP curves, the AUC, average precision, the Gini
coefficients): it drops the groups of zero weight and takes the running sums, once.
Scores may be float64, or int64 / uint64 / long double when float64 cannot hold them
exactly (see :func:`course_lib._checks.check_scores`): everything here only sorts and
compares them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._checks import class_totals, scale_weights

__all__ = [
    "ScoreGroups",
    "Cumulative",
    "score_groups",
    "group_chunks",
    "cumulative_counts",
    "cumulative_sums",
    "with_origin",
]


class DistinctGroups(NamedTuple):
    """:class:`ScoreGroups` of one object each (``pos + neg == 1`` in every group),
    as :func:`group_chunks` gives chunks of distinct scores."""

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


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
    starts = _run_starts(asc)
    return asc, asc[starts], np.diff(starts, append=asc.size)


#: Block length of :func:`_run_starts`: one sample per block is read first.
_RUN_BLOCK = 64


def _run_starts(a: np.ndarray) -> np.ndarray:
    """Positions where a new value starts in the sorted array ``a`` (0 first).

    With few distinct values most blocks of ``_RUN_BLOCK`` elements hold one value,
    which their first elements show: every ``_RUN_BLOCK``-th element is compared
    first, and only the blocks where the value changes are read in full. With many
    distinct values it is the plain comparison of neighbours.

    >>> _run_starts(np.repeat([1, 2, 5], [100, 1, 300])).tolist()
    [0, 100, 101]
    """
    n = a.size
    block = _RUN_BLOCK
    if n > 8 * block:
        samples = a[::block]
        changes = np.empty(samples.size, dtype=bool)
        np.not_equal(samples[1:], samples[:-1], out=changes[:-1])
        changes[-1] = samples[-1] != a[-1]
        blocks = np.flatnonzero(changes)
        if blocks.size * 8 < samples.size:
            candidates = (blocks[:, None] * block + np.arange(1, block + 1)).ravel()
            candidates = candidates[candidates < n]
            new_value = candidates[a[candidates] != a[candidates - 1]]
            return np.concatenate((np.zeros(1, dtype=np.intp), new_value))
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(a[1:], a[:-1], out=new[1:])
    return np.flatnonzero(new)


#: Elements per step of the loops that keep their data in cache.
_CHUNK = 2**16

#: Codes of :func:`_labelled_keys` stay below this, so that ``2 c + y`` is a
#: non-negative int64 (numpy sorts int64 faster than uint64).
_SPAN = 2**62


#: The largest finite float64's bits: keys ``top - (2 c + y)`` up to it are the bits
#: of non-negative floats, in the same order as the floats.
_FLOAT_TOP = 0x7FEFFFFFFFFFFFFF


class _Sorted(NamedTuple):
    """Keys ``top - (2**bits c + j)``, ``c`` a score's order code, the map from codes
    ``c`` back to scores, and the weight a key's low ``bits`` bits stand for in each
    class (rows: positives, negatives; ``top``'s low bits are all ones, so they are
    ``2**bits - 1 - j``); ``table`` None: ``bits`` is 1 and ``j`` the label (counts).
    See :func:`_labelled_keys` and :func:`_coded_keys`."""

    key: np.ndarray
    decode: Callable[[np.ndarray], np.ndarray]
    top: int
    bits: int = 1
    table: np.ndarray | None = None


def _labelled_keys(y: np.ndarray, s: np.ndarray) -> _Sorted | None:
    """One int64 key per object, ``top - (2 c + y)`` with ``0 <= c < 2**62`` in the
    order of the scores, the map from codes ``c`` back to scores, and ``top``; None
    when no such code exists. ``top`` is :data:`_FLOAT_TOP` when every key is then a
    non-negative float64's bits (probabilities below 1.5, and codes that span less
    than about ``2**61.999``): the keys are then sorted as float64 (:func:`_sort_keys`),
    the sort numpy tunes most; else 0 (sorted as int64).

    Sorting the keys sorts by decreasing score and, among equal scores, puts the
    positives first, so the runs of equal keys of the sorted array are the counts of
    each class per score, already in the order every curve walks them (contiguous, so
    numpy's loops over them run at full speed): one ``numpy.sort`` of plain numbers,
    no ``argsort`` and no split by class. The code is exact: float64 scores in [0, 2)
    (probabilities) are their own bit patterns, which order them; other float64
    scores take the usual order-preserving map of their bits to integers (-0.0 made
    0.0 first), and integer scores themselves, shifted down by the smallest code,
    when the codes span less than ``2**62`` (always, but for integers or floats spread
    over nearly their whole type).
    Long doubles get None.
    """
    if s.dtype == np.float64:
        keyed = _probability_keys(y, s)
        if keyed is not None:
            return _Sorted(keyed[0], _code_to_float, keyed[1])
        code = np.add(s, 0.0).view(np.int64)  # a copy, with -0.0 made 0.0
        flip = np.right_shift(code, 63).view(np.uint64)  # all ones for the negatives
        np.right_shift(flip, np.uint64(1), out=flip)  # ... but the sign bit
        np.bitwise_xor(code, flip.view(np.int64), out=code)
        to_scores: Callable[[np.ndarray], np.ndarray] = _ordered_to_float
    elif s.dtype == np.int64 or s.dtype == np.uint64:
        code = s.copy()
        dtype = s.dtype

        def to_scores(i: np.ndarray) -> np.ndarray:
            return i.astype(dtype)
    else:
        return None
    lowest, highest = int(code.min()), int(code.max())
    if highest - lowest >= _SPAN:
        return None
    u = code.view(np.uint64)
    np.subtract(u, np.uint64(lowest % 2**64), out=u)  # modulo 2**64: exact below 2**62
    key = u.view(np.int64)
    top = _FLOAT_TOP if 2 * (highest - lowest) + 1 <= _FLOAT_TOP else 0
    np.multiply(key, -2, out=key)
    np.subtract(key, y.view(np.uint8), out=key)
    if top:
        np.add(key, top, out=key)
    return _Sorted(key, lambda c: to_scores(_code_to_int(c, lowest)), top)


def _sort_keys(key: np.ndarray, top: int) -> None:
    """Sort the keys of :func:`_labelled_keys` in place (as float64 where ``top``)."""
    if top:
        key.view(np.float64).sort()
    else:
        key.sort()


def _probability_keys(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(top - (2 bits + y), top)`` when every float64 score is in [0.0, 2.0) (bits
    below ``2**62``, which order them), else None; ``top`` as :func:`_labelled_keys`
    says (:data:`_FLOAT_TOP` while every score is below 1.5). Chunk by chunk: the
    check, the arithmetic and the label work on data in cache, and a score out of
    range stops it at its chunk."""
    bits = s.view(np.int64)
    key = np.empty(s.size, dtype=np.int64)
    label = y.view(np.uint8)
    top = _FLOAT_TOP
    for i in range(0, s.size, _CHUNK):
        chunk = bits[i : i + _CHUNK]
        high = int(np.bitwise_or.reduce(chunk))  # at least the largest bits
        if not 0 <= high < _SPAN:
            return None
        if top and 2 * high + 1 > _FLOAT_TOP:  # a score of 1.5 or more: int64 keys
            np.subtract(key[:i], top, out=key[:i])
            top = 0
        part = key[i : i + _CHUNK]
        np.multiply(chunk, -2, out=part)
        np.subtract(part, label[i : i + _CHUNK], out=part)
        if top:
            np.add(part, top, out=part)
    return key, top


#: Weights of at most this many distinct values are coded into the sort keys
#: (:func:`_coded_keys`); other weights follow an ``argsort`` of the keys.
_WEIGHT_CODES = 16


def _coded_keys(
    y: np.ndarray, s: np.ndarray, w: np.ndarray, units: bool = False
) -> tuple[_Sorted, tuple[float, float]] | None:
    """Keys ``top - (2**bits c + j)`` of float64 scores and weights of few distinct
    values, and the class totals ``(m1, m0)``; None for other scores or weights.

    ``c`` is the score's order code (its bits, made order-preserving as in
    :func:`_labelled_keys`, less the lowest score's; where the scores run from 0.0,
    0.0 takes the code just below the smallest positive score's) and ``j = 2**(bits -
    1) y + a``, ``a`` the weight's index among the distinct weights (those of a sample
    of about ``_HASH_SAMPLE``, at most :data:`_WEIGHT_CODES`, checked on every
    weight): one ``numpy.sort`` of the keys as float64 orders the objects as those of
    :func:`_labelled_keys` do, and each object's label and weight are read back from
    its key (the ``table`` of the result), as the class totals are from the count of
    each ``j``. With ``units`` (for results that are ratios of weights) the weights
    are the int64 multiples of their largest common power of two where the totals
    stay small enough for int64 sums of products (as counts: exact, and integer
    running sums are several times faster than float ones), else they are scaled
    (:func:`course_lib._checks.scale_weights`); without, the weights.
    None also when the codes span too much to leave ``bits`` bits free. Chunk by
    chunk, in cache.
    """
    if s.dtype != np.float64 or s.size == 0:
        return None
    values = np.unique(w[:: max(1, w.size // _HASH_SAMPLE)])
    if values.size > _WEIGHT_CODES:
        return None
    bits = (values.size - 1).bit_length() + 1
    low, high = _ordered_to_float(np.array([s.min(), s.max()]) + 0.0).view(np.int64).tolist()
    zero = low == 0 < high and (high + 1 << bits) - 1 > _FLOAT_TOP
    if zero:  # 0.0 takes the code just below the smallest positive score's
        low = int(np.min(s, where=s > 0.0, initial=np.inf).view(np.int64)) - 1
    if (high - low + 1 << bits) - 1 > _FLOAT_TOP:
        return None
    key = np.empty(s.size, dtype=np.int64)
    code, equal = np.empty(min(s.size, _CHUNK), np.uint8), np.empty(min(s.size, _CHUNK), bool)
    counts = np.zeros((2, values.size), dtype=np.int64)  # objects, positives per weight
    for i in range(0, s.size, _CHUNK):
        part, weights, label = key[i : i + _CHUNK], w[i : i + _CHUNK], y[i : i + _CHUNK]
        j, eq = code[: part.size], equal[: part.size]
        np.multiply(label.view(np.uint8), np.uint8(2 ** (bits - 1)), out=j)
        for a, v in enumerate(values.tolist()):
            np.equal(weights, v, out=eq)
            counts[0, a] += np.count_nonzero(eq)
            counts[1, a] += np.count_nonzero(eq & label)
            j += eq.view(np.uint8) * np.uint8(a)
        if counts[0].sum() < i + part.size:  # a weight the sample missed
            return None
        np.add(s[i : i + _CHUNK], 0.0, out=part.view(np.float64))
        if low < 0:
            part[:] = _ordered_to_float(part).view(np.int64)
        if zero:
            np.maximum(part, low, out=part)
        part -= low
        part <<= bits
        np.subtract(_FLOAT_TOP, part, out=part)  # its low bits all ones: less j is xor j
        part ^= j
    weight: np.ndarray = values
    if units:
        ratios = [v.as_integer_ratio() for v in values.tolist()]
        unit = max(q for _, q in ratios)
        ints = [p * (unit // q) for p, q in ratios]
        small = 2 * sum(n * m for n, m in zip(counts[0].tolist(), ints)) ** 2 < 2**62
        weight = np.array(ints, dtype=np.int64) if small else scale_weights(values)
    half = 2 ** (bits - 1)
    table = np.zeros((2, 2**bits), dtype=weight.dtype)
    table[0, half : half + weight.size] = weight
    table[1, : weight.size] = weight  # by j; by the key's low bits, 2**bits - 1 - j:
    table = table[:, ::-1].copy()
    m1, m0 = counts[1] * weight, (counts[0] - counts[1]) * weight
    totals = (int(m1.sum()), int(m0.sum())) if weight.dtype.kind == "i" else (
        math.fsum(m1.tolist()), math.fsum(m0.tolist()))

    def decode(c: np.ndarray) -> np.ndarray:
        scores = _ordered_to_float(_code_to_int(c, low))
        return np.where(c == 0, 0.0, scores) if zero else scores

    return _Sorted(key, decode, _FLOAT_TOP, bits, table), totals


def _code_to_float(c: np.ndarray) -> np.ndarray:
    return c.view(np.float64)


def _code_to_int(c: np.ndarray, lowest: int) -> np.ndarray:
    """``c + lowest`` (``c`` non-negative int64) as int64, or as uint64 when above
    the int64 range."""
    u = c.view(np.uint64) + np.uint64(lowest % 2**64)  # modulo 2**64
    return u.view(np.int64) if lowest < 0 or int(u.max()) < 2**63 else u


def _ordered_to_float(i: np.ndarray) -> np.ndarray:
    """The inverse of the order-preserving map of :func:`_labelled_keys` (an involution)."""
    i = i.view(np.int64)
    flip = np.right_shift(np.right_shift(i, 63).view(np.uint64), np.uint64(1))
    return np.bitwise_xor(i, flip.view(np.int64)).view(np.float64)


def _groups_from_keys(keyed: _Sorted) -> ScoreGroups:
    """Sort the keys of :func:`_labelled_keys` (in place) and count each class per score."""
    _sort_keys(keyed.key, keyed.top)
    return _groups_of_sorted(keyed.key, keyed.decode, keyed.top)


def _groups_of_sorted(
    key: np.ndarray,
    decode: Callable[[np.ndarray], np.ndarray],
    top: int = 0,
    weights: np.ndarray | None = None,
    bits: int = 1,
    table: np.ndarray | None = None,
) -> ScoreGroups:
    """Each class's count (or the sum of ``weights``, in the keys' order, or of the
    weights ``table`` codes) per score from sorted keys ``top - (2**bits c + j)`` (see
    :func:`_labelled_keys`, :func:`_coded_keys`; decreasing score): a score has one run
    of equal keys per ``j`` present, the label the top bit of ``j``."""
    starts = _run_starts(key)
    rel = top - key[starts]  # 2**bits c + j
    sizes = np.diff(starts, append=key.size) if weights is None else np.add.reduceat(
        weights, starts)
    j = rel & (2**bits - 1)
    if table is None:
        positive = j >> (bits - 1) == 1
        pos, neg = np.where(positive, sizes, 0), np.where(positive, 0, sizes)
    else:
        low = key[starts] & 2**bits - 1
        pos, neg = sizes * table[0][low], sizes * table[1][low]
    codes = rel >> bits  # c, decreasing
    new = np.empty(codes.size, dtype=bool)  # a score's first run
    new[0] = True
    np.not_equal(codes[1:], codes[:-1], out=new[1:])
    first = np.flatnonzero(new)
    return ScoreGroups(decode(codes[first]), np.add.reduceat(pos, first),
                       np.add.reduceat(neg, first))


def score_groups(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> ScoreGroups:
    """Group validated scores by value, in decreasing score order.

    Without weights: one sort of integer keys that hold the score's order and the label
    (see ``_labelled_keys``) gives every group and its count of each class as runs of
    equal keys; scores no key can code (long doubles, integers spanning nearly their
    whole type) take one sort of all scores and one of the smaller class's, located
    among the distinct values. With weights: a hash table codes the scores, one
    ``numpy.bincount`` sums the weights of each class per code, and only the distinct
    values are sorted (see ``_sums_per_value``).

    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]))
    >>> g.scores.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.5, 0.2, 0.1], [1, 1, 0], [0, 1, 1])
    >>> g = score_groups(np.array([0, 1, 1, 0], bool), np.array([0.2, 0.5, 0.2, 0.1]),
    ...                  np.array([1.0, 2.0, 0.5, 3.0]))
    >>> g.pos.tolist(), g.neg.tolist()
    ([2.0, 0.5, 0.0], [0.0, 1.0, 3.0])
    """
    hashed = _hashed_groups(y, s, w)
    if hashed is not None:
        return hashed
    if w is not None:
        return _sums_per_value(s, y, w, w)
    keyed = _labelled_keys(y, s)
    if keyed is not None:
        return _groups_from_keys(keyed)
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


#: Objects per chunk of :func:`group_chunks` (its arrays stay in cache); where the
#: scores are heavily tied a chunk holds few groups, and the chunks grow up to
#: ``GROUP_CHUNK_MAX`` objects.
GROUP_CHUNK = 2**16
GROUP_CHUNK_MAX = 2**18


class group_chunks:  # noqa: N801 - used as the function it replaced
    """:func:`score_groups` in pieces: the groups in decreasing score order, a chunk of
    about ``chunk`` objects at a time (a group is never split), for the accumulators of
    :mod:`course_lib._stream`. Iterable as often as needed: the sort is done once, on
    the first pass (a second pass, as DeLong's variance takes, costs no sort).

    Without weights (scores a key can code, see ``_labelled_keys``) the keys are sorted
    once and each chunk's groups are read off its slice of sorted keys while they are in
    cache; a chunk of distinct scores (the common case of continuous scores) needs no
    search for runs. With weights and nearly distinct scores, the same with the weights
    coded into the keys (see ``_coded_keys``; ``units=True``, for results that are
    ratios of weights, takes them as integer multiples of a common unit where it can:
    then :meth:`class_totals` are ints), else with the weights in the order of an
    ``argsort`` of the keys. With ``units``, weights of any scale may come: they are
    scaled where they are not integer units. Other inputs give :func:`score_groups` as
    one chunk.
    ``scores=False`` is for the numbers that never read the scores (the AUC): a chunk
    of distinct scores then leaves them undecoded (NaN).

    >>> y, s = np.array([0, 1, 1, 0, 1], bool), np.array([0.2, 0.5, 0.2, 0.1, 0.9])
    >>> [(g.scores.tolist(), g.pos.tolist(), g.neg.tolist()) for g in group_chunks(y, s, chunk=2)]
    [([0.9, 0.5], [1, 1], [0, 0]), ([0.2], [1], [1]), ([0.1], [0], [1])]
    """

    def __init__(
        self,
        y: np.ndarray,
        s: np.ndarray,
        w: np.ndarray | None = None,
        *,
        chunk: int = GROUP_CHUNK,
        scores: bool = True,
        units: bool = False,
    ) -> None:
        self.y, self.s, self.w = y, s, w
        self.chunk, self.scores, self.units = chunk, scores, units
        self.sorted: _Sorted | None = None
        self.weights: np.ndarray | None = None  # in the order of the sorted keys
        self.whole: ScoreGroups | None = None
        self.totals: tuple[float, float] | None = None

    def _group(self) -> None:
        """The one grouping: sort the keys (with weights, where nearly every score is
        distinct: the keys that code them, else an argsort of the keys), or
        :func:`score_groups` as one chunk."""
        y, s, w = self.y, self.s, self.w
        keyed = coded = None
        if _distinct_share(s) > (0.9 if w is not None else 0.25):
            if w is not None and s.size >= _HASH_MIN_SIZE:  # below, an argsort costs less
                coded = _coded_keys(y, s, w, self.units)
            keyed = _labelled_keys(y, s) if coded is None else coded[0]
        if w is not None and self.units and coded is None:  # ratios: weights of any scale
            self.w = w = scale_weights(w)
        if keyed is None:
            self.whole = score_groups(y, s, w)
            if w is not None:
                self.totals = float(self.whole.pos.sum()), float(self.whole.neg.sum())
            return
        if w is not None and coded is None:  # the weights follow the keys
            order = np.argsort(keyed.key.view(np.float64) if keyed.top else keyed.key)
            self.weights = w[order]
            keyed = keyed._replace(key=keyed.key[order])
        else:
            _sort_keys(keyed.key, keyed.top)
        self.sorted = keyed
        self.totals = None if coded is None else coded[1]

    def class_totals(self) -> tuple[float, float]:
        """:func:`course_lib._checks.class_totals` of the data, with weights taken
        from the grouping (done first): the sums of the groups, or the count of each
        weight coded into the keys times the weight, no pass over the weights (the
        same up to rounding); ints for counts, and for the weights' integer ``units``
        (see :func:`_coded_keys`), in which the groups then come (with ``units``, else
        in the scaled weights)."""
        if self.w is not None and self.sorted is None and self.whole is None:
            self._group()
        return self.totals or class_totals(self.y, self.w)

    def __iter__(self) -> Iterator[ScoreGroups | DistinctGroups]:
        if self.sorted is None and self.whole is None:
            self._group()
        if self.whole is not None:
            yield self.whole
            return
        assert self.sorted is not None
        key, top, bits = self.sorted.key, self.sorted.top, self.sorted.bits
        n, chunk, lo = key.size, self.chunk, 0
        while lo < n:
            hi = min(n, lo + chunk)
            if hi < n:  # end the chunk where a score ends: at its key of j = 0
                last = top - ((top - int(key[hi - 1])) >> bits << bits)
                hi = int(np.searchsorted(key, last, side="right"))
            weights = None if self.weights is None else self.weights[lo:hi]
            groups = _chunk_groups(key[lo:hi], self.sorted, self.scores, weights)
            if 64 * groups.pos.size < hi - lo:
                chunk = min(4 * chunk, GROUP_CHUNK_MAX)
            yield groups
            lo = hi


def _chunk_groups(
    k: np.ndarray, keyed: _Sorted, scores: bool, weights: np.ndarray | None = None
) -> ScoreGroups | DistinctGroups:
    """The groups of a slice of sorted keys ``top - (2**bits c + j)`` (``keyed``'s)
    that starts and ends on score boundaries, in decreasing score order (the scores
    left undecoded, NaN, unless ``scores``), with each object's weight in the keys'
    order, if any."""
    top, bits, table = keyed.top, keyed.bits, keyed.table
    if k.size < 2:
        gap = 2**bits
    elif (k[1:65] == k[: min(64, k.size - 1)]).any():  # a tie among the first keys
        gap = 0
    else:  # keys of one score are less than 2**bits apart; two equal keys: a tie
        gap = int(np.subtract(k[1:], k[:-1]).min())
    if gap >= 2**bits or (gap and bool((top - k[1:] >> bits != top - k[:-1] >> bits).all())):
        if table is not None:
            low = k & 2**bits - 1
            pos, neg = table[0].take(low), table[1].take(low)
        else:
            low = k & 1  # the label, or (top odd) its complement
            flip = 1 - low
            pos, neg = (flip, low) if top else (low, flip)
            if weights is not None:
                pos = pos * weights
                neg = weights - pos
        group = DistinctGroups if weights is None and table is None else ScoreGroups
        if not scores:
            return group(np.broadcast_to(np.float64(np.nan), k.size), pos, neg)
        codes = np.subtract(top, k)
        np.right_shift(codes, bits, out=codes)
        return group(keyed.decode(codes), pos, neg)
    return _groups_of_sorted(k, keyed.decode, top, weights, bits, table)


def _distinct_share(s: np.ndarray) -> float:
    """The share of distinct float64 scores in a sample of ``_HASH_SAMPLE`` (1 for other
    scores, or too few for :func:`_hashed_groups`, which then never takes them)."""
    n = s.size
    if n < _HASH_MIN_SIZE or s.dtype != np.float64:
        return 1.0
    known, size = _sampled_values(s)
    return known.size / size


def _sampled_values(s: np.ndarray) -> tuple[np.ndarray, int]:
    """The distinct bit patterns (sorted, -0.0 made 0.0) of about ``_HASH_SAMPLE``
    float64 scores taken at even steps, and the sample's size."""
    sample = np.sort(np.add(s[:: s.size // _HASH_SAMPLE], 0.0).view(np.uint64))
    return sample[np.r_[True, sample[1:] != sample[:-1]]], sample.size


#: Fibonacci hashing: the odd multiplier nearest 2**64 / golden ratio.
_FIBONACCI = np.uint64(0x9E3779B97F4A7C15)
#: Below this many objects, or with more distinct scores in the sample than a quarter
#: of it, :func:`_hashed_groups` leaves the work to the sorts; below it, weights
#: follow an argsort of the keys (no :func:`_coded_keys`, whose fixed costs dominate).
_HASH_MIN_SIZE = 2**16
_HASH_SAMPLE = 2**16
_NAN_BITS = np.uint64(0x7FF8000000000001)


def _hashed_groups(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> ScoreGroups | None:
    """:func:`score_groups` for many objects sharing few distinct float64 scores (None
    otherwise): the objects (or their weights) counted per (score, label) in one pass
    through a hash table made of numpy operations, no sort of the objects.

    The distinct scores of a sample of ``_HASH_SAMPLE`` objects fill a table about 32
    times larger than their number: score ``d`` owns slots ``h(d)`` and ``h(d) xor 1``
    (``h`` the top bits of its 64 bits times :data:`_FIBONACCI`; the label picks one).
    Each object goes to slot ``h(score) xor label``; where that slot's owner is its own
    score its weight is added there (``numpy.add.at``, in input order, as
    ``_sums_per_value``'s ``bincount`` adds them), otherwise (a score the sample
    missed, or two scores in one slot) the object is a stray, summed apart with
    ``pandas.factorize``. Only the distinct scores are sorted. Without weights the
    counts are int64, exact in any order.
    """
    n = s.size
    if n < _HASH_MIN_SIZE or s.dtype != np.float64:
        return None
    # scores are hashed by their bits, -0.0 made 0.0 first (s + 0.0): one value, one key
    known, size = _sampled_values(s)
    if 4 * known.size > size:
        return None
    width = min(22, max(10, known.size.bit_length() + 6))  # slots: 2**width
    drop = np.uint64(64 - width)
    owner = np.full(2**width, _NAN_BITS)  # no finite score has these bits: slot unused
    home = np.right_shift(np.multiply(known, _FIBONACCI), drop).view(np.int64)
    owner[home] = known
    owner[home ^ 1] = known
    # each object's slot (the last slot takes the strays, left out), then one bincount
    label = y.view(np.uint8)
    chunk = min(n, _CHUNK)
    slots = np.empty(n, np.uint64)
    seen, stray = np.empty(chunk, np.uint64), np.empty(chunk, bool)
    zero_free = np.empty(chunk, np.float64)
    strays = []
    for i in range(0, n, chunk):  # chunk by chunk, so that each step works in cache
        m = min(chunk, n - i)
        part_bits = np.add(s[i : i + m], 0.0, out=zero_free[:m]).view(np.uint64)
        part = slots[i : i + m]
        np.multiply(part_bits, _FIBONACCI, out=part)
        np.right_shift(part, drop, out=part)
        np.bitwise_xor(part, label[i : i + chunk], out=part)  # the label flips bit 0
        index = part.view(np.int64)
        np.take(owner, index, out=seen[:m], mode="clip")  # slots are in range
        np.not_equal(seen[:m], part_bits, out=stray[:m])
        if stray[:m].any():
            where = np.flatnonzero(stray[:m])
            index[where] = 2**width
            strays.append(where + i)
            if 8 * sum(x.size for x in strays) > n:
                return None
    # bincount adds each slot's weights in input order (as a running sum would)
    sums = np.bincount(slots.view(np.int64), weights=w, minlength=2**width + 1)
    if w is None:
        sums = sums.astype(np.int64)
    used = np.flatnonzero(owner != _NAN_BITS)
    values = owner[used]
    h = np.right_shift(np.multiply(values, _FIBONACCI), drop).view(np.int64)
    labels = (used ^ h).astype(bool)
    totals = sums[used]
    if strays:
        where = np.concatenate(strays)
        codes, uniques = pd.factorize(np.add(s[where], 0.0).view(np.uint64))
        k = uniques.size
        pairs = np.bincount(
            2 * codes + y[where], weights=None if w is None else w[where], minlength=2 * k
        )
        values = np.concatenate((values, np.repeat(np.asarray(uniques), 2)))
        labels = np.concatenate((labels, np.tile([False, True], k)))
        totals = np.concatenate((totals, pairs))
    floats = values.view(np.float64)
    order = np.argsort(floats)[::-1]  # a few thousand distinct (score, label) pairs
    floats, labels, totals = floats[order], labels[order], totals[order]
    new = np.empty(floats.size, dtype=bool)
    new[0] = True
    np.not_equal(floats[1:], floats[:-1], out=new[1:])
    group = np.cumsum(new) - 1
    k = int(group[-1]) + 1
    pos = np.bincount(group, weights=np.where(labels, totals, 0.0), minlength=k)
    neg = np.bincount(group, weights=np.where(labels, 0.0, totals), minlength=k)
    if w is None:  # counts below 2**53: exact through float64
        pos, neg = pos.astype(np.int64), neg.astype(np.int64)
    return ScoreGroups(floats[new], pos, neg)


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
