"""Optimizing the AUC (syllabus ch. 4): a smooth surrogate, its gradient, rank averaging.

The AUC is a mean over (positive, negative) pairs of an indicator,
``I[b_i > b_j]`` (1/2 for a tie). As a function of the scores it is piecewise constant:
its derivative is zero wherever it exists, so gradient methods cannot climb it. The
sigmoid surrogate replaces each indicator by ``sigma(beta (b_i - b_j))`` with
``sigma(u) = 1 / (1 + exp(-u))``:

    soft_auc = (1 / (W1 W0)) sum_{i: y_i = 1} sum_{j: y_j = 0} w_i w_j sigma(beta (b_i - b_j)),

with ``W1``, ``W0`` the total weights of the classes (``m1``, ``m0`` without weights).
A tied pair gives ``sigma(0) = 1/2``, the tie convention of the AUC, and as
``beta -> inf`` every other pair tends to 1 or 0, so ``soft_auc -> roc_auc``. The
surrogate is smooth, and :func:`soft_auc_gradient` gives its exact gradient with
respect to every score. Both are sums over all ``m1 m0`` pairs, taken in blocks so that
memory stays bounded, as in :func:`course_lib.roc.auc_pairwise`.

:func:`rank_average` is source D's advice for ensembles: since the AUC depends only on
the order of the scores, average the models' *ranks*, not their raw scores, so that no
model dominates the average just because its scores are spread wider.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._checks import check_binary, check_scores, has_both_classes

__all__ = ["soft_auc", "soft_auc_gradient", "rank_average"]

# Pairs evaluated at once: 2**20 pairs make float64 blocks of 8 MiB.
_PAIR_BLOCK = 2**20


def _check_beta(beta: Any) -> float:
    """Return ``beta`` as a positive finite float, or raise ValueError."""
    try:
        b = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"beta must be a positive number, got {beta!r}") from None
    if not (math.isfinite(b) and b > 0):
        raise ValueError(f"beta must be positive and finite, got {b!r}")
    return b


def _sigmoid_and_slope(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sigma(u)`` and ``sigma'(u) = sigma(u) (1 - sigma(u))``, without overflow.

    With ``e = exp(-|u|)`` in (0, 1]: ``sigma(u) = 1 / (1 + e)`` for ``u >= 0`` and
    ``e / (1 + e)`` for ``u < 0``; ``sigma'(u) = e / (1 + e)**2`` for both.
    """
    e = np.exp(-np.abs(u))
    inv = 1.0 / (1.0 + e)
    sig = np.where(u >= 0, inv, e * inv)
    return sig, e * inv * inv


def _classes(y_true: Any, y_score: Any, sample_weight: Any):
    """Validated scores and weights of each class: ``(pos, neg, wp, wn, y, w)``.

    The sigmoid needs score differences in float64, so scores that float64 cannot hold
    exactly are refused. Weights come rescaled by a power of two (exact: both functions
    are ratios of them; :func:`course_lib._checks.check_weights`), so that no product
    of weights overflows or underflows.
    """
    y, s, w = check_binary(y_true, y_score, sample_weight, on_inexact="raise")
    wy = np.ones(y.size) if w is None else w
    return s[y], s[~y], wy[y], wy[~y], y, w


def _blocks(n_pos: int, n_neg: int):
    """Row and column slices covering an ``n_pos x n_neg`` matrix in bounded blocks."""
    col_block = max(1, min(n_neg, _PAIR_BLOCK))
    row_block = max(1, _PAIR_BLOCK // col_block)
    for r in range(0, n_pos, row_block):
        for c in range(0, n_neg, col_block):
            yield slice(r, r + row_block), slice(c, c + col_block)


def soft_auc(y_true: Any, y_score: Any, *, beta: float = 1.0, sample_weight: Any = None) -> float:
    """The sigmoid surrogate of the AUC: the mean over (positive, negative) pairs of
    ``sigma(beta (b_i - b_j))``.

    Every pair is evaluated, in blocks of about ``2**20`` pairs, so memory stays bounded
    whatever the size; time is O(m1 m0).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool, and scores.
    beta : float, default 1.0
        Steepness of the sigmoid, positive and finite. The surrogate depends on
        ``beta * y_score`` only: doubling the scores is doubling ``beta``.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights; the pair ``(i, j)`` weighs ``w_i w_j``.

    Returns
    -------
    float
        A number in [0, 1]; ``nan`` with an :class:`UndefinedMetricWarning` if one
        class is missing. It tends to :func:`course_lib.roc.roc_auc` as
        ``beta -> inf`` (a tie gives ``sigma(0) = 1/2`` for every ``beta``) and to 1/2
        as ``beta -> 0``.

    Examples
    --------
    One positive scored ``ln 3`` above one negative: ``sigma(ln 3) = 1/(1 + 1/3)``.

    >>> import math
    >>> round(soft_auc([0, 1], [0.0, math.log(3)]), 12)
    0.75

    A tied pair counts 1/2, whatever ``beta``:

    >>> soft_auc([0, 1], [0.2, 0.2], beta=100.0)
    0.5
    """
    b = _check_beta(beta)
    pos, neg, wp, wn, y, w = _classes(y_true, y_score, sample_weight)
    if not has_both_classes(y, w, "soft AUC"):
        return float("nan")
    total = 0.0
    for rows, cols in _blocks(pos.size, neg.size):
        sig, _ = _sigmoid_and_slope(b * (pos[rows, None] - neg[None, cols]))
        total += float(wp[rows] @ sig @ wn[cols])
    return total / (float(wp.sum()) * float(wn.sum()))


def soft_auc_gradient(
    y_true: Any, y_score: Any, *, beta: float = 1.0, sample_weight: Any = None
) -> np.ndarray:
    """The exact gradient of :func:`soft_auc` with respect to every score.

    With ``d_ij = beta (b_i - b_j)`` and ``sigma' = sigma (1 - sigma)``:

    * for a positive ``k``: ``beta w_k / (W1 W0) * sum_{j: y_j = 0} w_j sigma'(d_kj)``;
    * for a negative ``k``: ``-beta w_k / (W1 W0) * sum_{i: y_i = 1} w_i sigma'(d_ik)``.

    Raising a positive's score can only help, raising a negative's can only hurt; the
    push is largest for the pairs near a tie, where the sigmoid is steepest. The
    entries add up to zero (adding a constant to every score changes nothing).

    Parameters are those of :func:`soft_auc`.

    Returns
    -------
    numpy.ndarray of shape (n,)
        ``d soft_auc / d y_score[k]`` in input order (float64); all ``nan`` with an
        :class:`UndefinedMetricWarning` if one class is missing.

    Examples
    --------
    One pair scored ``ln 3`` apart: ``sigma' = (3/4)(1/4) = 3/16``.

    >>> import math
    >>> soft_auc_gradient([0, 1], [0.0, math.log(3)]).round(12).tolist()
    [-0.1875, 0.1875]

    A tie is where the sigmoid is steepest: ``sigma'(0) = 1/4``, times ``beta``:

    >>> soft_auc_gradient([1, 0], [0.5, 0.5], beta=2.0).tolist()
    [0.5, -0.5]
    """
    b = _check_beta(beta)
    pos, neg, wp, wn, y, w = _classes(y_true, y_score, sample_weight)
    if not has_both_classes(y, w, "soft AUC"):
        return np.full(y.size, np.nan)
    g_pos = np.zeros(pos.size)
    g_neg = np.zeros(neg.size)
    for rows, cols in _blocks(pos.size, neg.size):
        _, slope = _sigmoid_and_slope(b * (pos[rows, None] - neg[None, cols]))
        g_pos[rows] += slope @ wn[cols]
        g_neg[cols] += wp[rows] @ slope
    scale = b / (float(wp.sum()) * float(wn.sum()))
    grad = np.empty(y.size)
    grad[y] = scale * wp * g_pos
    grad[~y] = -scale * wn * g_neg
    return grad


def _check_scorer_weights(weights: Any, k: int) -> np.ndarray:
    """Return the weights of ``k`` scorers as float64, or raise ValueError."""
    w = np.asarray(weights)
    if w.ndim != 1 or w.size != k:
        raise ValueError(f"weights must have one entry per scorer ({k}), got shape {w.shape}")
    if w.dtype.kind not in "biuf":
        raise ValueError(f"weights must be numeric, got dtype {w.dtype}")
    w = w.astype(np.float64)
    if not np.isfinite(w).all():
        raise ValueError("weights contain NaN or infinite values")
    if (w < 0).any():
        raise ValueError(f"weights must be non-negative; found {float(w[w < 0].min())!r}")
    if w.sum() == 0:
        raise ValueError("weights must not all be zero")
    return w


def rank_average(scores: Any, *, weights: Any = None) -> np.ndarray:
    """Average of the normalized ranks of several scorers' scores, for ensembling.

    Each scorer's scores are replaced by their ranks divided by ``n`` (rank 1 for the
    smallest score, tied scores sharing their average rank, as
    :func:`scipy.stats.rankdata` and ``pandas.Series.rank(pct=True)`` do), so each
    scorer's values run over (0, 1] whatever its scale; then the ranks are averaged.
    A strictly increasing map of any one scorer's scores leaves the result unchanged.

    Parameters
    ----------
    scores : sequence of k array-likes of shape (n,), or array of shape (k, n)
        The scores of each scorer on the same ``n`` objects (one row per scorer).
    weights : array-like of shape (k,), optional
        Non-negative weights of the scorers, not all zero (default: equal).

    Returns
    -------
    numpy.ndarray of shape (n,)
        The (weighted) mean of the normalized ranks, in (0, 1].

    Examples
    --------
    Two scorers on very different scales: ranks 1, 2, 3 and 2, 1, 3, over n = 3.

    >>> rank_average([[0.1, 0.4, 0.9], [20.0, -5.0, 300.0]]).round(6).tolist()
    [0.5, 0.5, 1.0]

    Tied scores share their average rank; weights favour the first scorer here:

    >>> rank_average([[1, 1, 2, 3], [4, 3, 2, 1]], weights=[3, 1]).tolist()
    [0.53125, 0.46875, 0.6875, 0.8125]
    """
    if isinstance(scores, np.ndarray):
        if scores.ndim != 2:
            raise ValueError(
                f"scores must be a sequence of 1-D score arrays or a 2-D array, "
                f"got an array of shape {scores.shape}"
            )
        rows = list(scores)
    else:
        rows = list(scores)
    if not rows:
        raise ValueError("scores is empty: give at least one scorer")
    checked = [check_scores(r, name=f"scores[{k}]", on_inexact="keep") for k, r in enumerate(rows)]
    n = checked[0].size
    for k, r in enumerate(checked):
        if r.size != n:
            raise ValueError(
                f"every scorer must score the same objects: scores[0] has {n}, "
                f"scores[{k}] has {r.size}"
            )
    w = None if weights is None else _check_scorer_weights(weights, len(checked))
    from scipy.stats import rankdata  # here: importing scipy.stats costs 0.4 s

    ranks = np.array([rankdata(r) / n for r in checked])
    if w is None:
        return ranks.mean(axis=0)
    return (w @ ranks) / w.sum()
