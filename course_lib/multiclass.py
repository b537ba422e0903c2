"""More than two classes: one-vs-rest and one-vs-one AUC (chapter 16).

A classifier of ``c`` classes gives every object a row of ``c`` scores, one column per
class (for a probabilistic model, the estimated probabilities of the classes). Two ways
turn that into binary ROC problems, each solved by :func:`course_lib.roc.roc_auc`:

one-vs-rest (ovr)
    For class ``j``: positives are the objects of class ``j``, negatives all the others,
    scores the column ``j``. Averages of the ``c`` areas: ``"macro"`` (plain mean),
    ``"weighted"`` (weighted by the prevalence of each class, Provost and Domingos 2000,
    section 6.2; Fawcett 2006, section 9.2), and ``"micro"`` (one binary AUC of all
    ``n c`` entries: the flattened one-hot labels against the flattened scores).
one-vs-one (ovo)
    For the pair of classes ``(i, j)``, only the objects of the two classes:
    ``A(i|j)`` is the AUC of column ``i`` separating class ``i`` (positive) from class
    ``j`` (negative); Hand and Till (2001) average the two directions,
    ``A(i, j) = (A(i|j) + A(j|i)) / 2``, and their ``M`` is the plain mean of
    ``A(i, j)`` over the ``c (c - 1) / 2`` pairs. ``"weighted"`` weighs the pair
    ``(i, j)`` by the prevalence of its two classes, ``n_i + n_j``, as scikit-learn
    does.

Both agree with :func:`sklearn.metrics.roc_auc_score` (``multi_class="ovr"`` /
``"ovo"``, ``average="macro"`` / ``"weighted"``; the micro average is scikit-learn's
``roc_auc_score(label_binarize(y, classes=labels), P, average="micro")``, which
scikit-learn 1.9 also accepts as ``multi_class="ovr", average="micro"``).

The ovr area of class ``i`` is the prevalence-weighted mean of the one-vs-one areas
``A(i|j)`` over the other classes ``j`` (its negatives are the union of those classes),
so it moves when the mix of the other classes changes; every ``A(i|j)``, and so ``M``,
depends on two classes only and does not change when a whole class is given more or
less weight.

Probabilities or scores
-----------------------
scikit-learn requires each row of ``y_score`` to sum to 1 (``numpy.allclose``) for
multi-class AUCs; ``probabilities=True`` (the default) checks the same, and also that no
entry is negative. Every per-class and pairwise AUC only ranks the scores of one column,
so they are defined for any real scores: ``probabilities=False`` accepts them (the
micro average then compares scores of different columns with one another, which makes
sense only when the columns are on one scale).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal, NamedTuple, overload

import numpy as np
import pandas as pd

from ._checks import check_flag, check_scores, check_weights, integer_weights, scale_weights
from ._labels import check_classes
from .roc import RocCurve, roc_auc, roc_curve

__all__ = [
    "OVR_AVERAGES",
    "OVO_AVERAGES",
    "PairwiseAuc",
    "ovr_auc",
    "ovo_auc",
    "pairwise_auc",
    "ovr_roc_curves",
]

#: The averages of :func:`ovr_auc` (``None``: the per-class areas).
OVR_AVERAGES = ("macro", "weighted", "micro", None)
#: The averages of :func:`ovo_auc`.
OVO_AVERAGES = ("macro", "weighted")

Number = float | Fraction


class PairwiseAuc(NamedTuple):
    """Hand and Till's pairwise areas, one row and one column per class.

    ``directed[i, j]`` is ``A(i|j)``: the AUC of the scores of class ``i`` (column
    ``i``) separating the objects of class ``i`` from those of class ``j``.
    ``averaged[i, j] = averaged[j, i] = (A(i|j) + A(j|i)) / 2``, Hand and Till's
    ``A(i, j)``. Diagonals are ``nan``. ``weights`` is the number (or total weight) of
    objects of each class. Entries are floats, or :class:`~fractions.Fraction` objects
    (object arrays) when computed with ``exact=True``.
    """

    labels: tuple
    directed: np.ndarray
    averaged: np.ndarray
    weights: np.ndarray


class _Prepared(NamedTuple):
    labels: tuple
    codes: np.ndarray  # class index of each object
    scores: np.ndarray  # (n, c) float64
    w: np.ndarray | None
    totals: np.ndarray  # number or weight of each class (int64, float64, or int64 exact)


def _label_list(labels: Any) -> list:
    if isinstance(labels, (str, bytes)):
        raise ValueError(f"labels must be a sequence of classes, got the string {labels!r}")
    arr = np.asarray(labels, dtype=object) if not isinstance(labels, np.ndarray) else labels
    if arr.ndim != 1:
        raise ValueError(f"labels must be 1-D, got an array of shape {arr.shape}")
    out = [v.item() if isinstance(v, np.generic) else v for v in arr.tolist()]
    for v in out:
        try:
            hash(v)
        except TypeError:
            raise ValueError(f"labels must be hashable; got {v!r}") from None
    if len(set(out)) != len(out):
        raise ValueError(f"labels contains duplicates: {out}")
    return out


def _prepare(y_true: Any, y_score: Any, labels: Any, sample_weight: Any, exact: Any,
             probabilities: Any) -> _Prepared:
    """Validate every argument; return class codes, float scores, weights, class totals."""
    exact = check_flag(exact, "exact")
    probabilities = check_flag(probabilities, "probabilities")
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"y_true must be 1-D, got an array of shape {y.shape}")
    if y.size == 0:
        raise ValueError("y_true is empty")
    if labels is None:
        lab = [v.item() if isinstance(v, np.generic) else v
               for v in np.unique(check_classes(y, "y_true")).tolist()]
    else:
        lab = _label_list(labels)
    c = len(lab)
    if c < 2:
        raise ValueError(f"a multi-class AUC needs at least 2 classes; got {c}: {lab}")
    if np.ndim(y_score) != 2:
        raise ValueError(
            "y_score must be 2-D, one column per class; got an array of shape "
            f"{np.shape(y_score)}"
        )
    s = check_scores(
        y_score,
        ndim=2,
        # probabilities are computed with (their rows must sum to 1); other scores are
        # only ranked, so integers float64 cannot hold keep their dtype and exact order
        on_inexact="convert" if probabilities else "keep",
    )
    if s.shape[0] != y.size:
        raise ValueError(
            f"y_true and y_score have different lengths: {y.size} and {s.shape[0]}"
        )
    if s.shape[1] != c:
        raise ValueError(
            f"y_score has {s.shape[1]} columns, but there are {c} classes: {lab}"
        )
    codes = pd.Index(lab, dtype=object).get_indexer(
        pd.Index([v.item() if isinstance(v, np.generic) else v for v in y.tolist()],
                 dtype=object))
    if (codes < 0).any():
        missing = list(dict.fromkeys(y[codes < 0].tolist()))[:5]
        raise ValueError(f"y_true contains values not in labels: {missing}")
    # the class totals are returned (PairwiseAuc.weights): in the weights' own units;
    # the areas are ratios, computed from the weights rescaled (exactly)
    given = check_weights(sample_weight, y.size, scale=False)
    w = given if exact else scale_weights(given)
    if exact:
        wi = integer_weights(given)
        totals = np.bincount(codes, weights=wi, minlength=c).astype(np.int64) if (
            wi is not None) else np.bincount(codes, minlength=c)
    else:
        totals = np.bincount(codes, weights=given, minlength=c) if given is not None else (
            np.bincount(codes, minlength=c))
    empty = np.flatnonzero(totals == 0)
    if empty.size:
        what = "no samples" if w is None else "no samples of positive weight"
        raise ValueError(
            f"every class needs samples: class {lab[int(empty[0])]!r} has {what} in y_true"
        )
    if probabilities:
        if (s < 0).any():
            raise ValueError(
                "y_score must hold probabilities, but it has negative entries; pass "
                "probabilities=False for other scores"
            )
        sums = s.sum(axis=1)
        bad = np.flatnonzero(~np.isclose(1.0, sums))
        if bad.size:
            raise ValueError(
                f"rows of y_score must sum to 1 (probabilities); row {int(bad[0])} sums to "
                f"{float(sums[bad[0]])!r}; pass probabilities=False for other scores"
            )
    return _Prepared(tuple(lab), codes, s, w, totals)


def _mean(values: list, weights: Any, exact: bool) -> Number:
    """Weighted mean: exact (Fraction) with integer weights, else float64."""
    if exact:
        num = sum((int(wt) * v for v, wt in zip(values, weights)), Fraction(0))
        return num / sum(int(wt) for wt in weights)
    wts = np.asarray(weights, dtype=np.float64)
    return float(np.dot(np.asarray(values, dtype=np.float64), wts) / wts.sum())


def _ovr_areas(p: _Prepared, exact: bool) -> list:
    return [
        roc_auc(p.codes == j, p.scores[:, j], sample_weight=p.w, exact=exact)
        for j in range(len(p.labels))
    ]


@overload
def ovr_auc(y_true: Any, y_score: Any, *, average: None, labels: Any = None,
            sample_weight: Any = None, exact: bool = False,
            probabilities: bool = True) -> np.ndarray: ...
@overload
def ovr_auc(y_true: Any, y_score: Any, *,
            average: Literal["macro", "weighted", "micro"] = "macro", labels: Any = None,
            sample_weight: Any = None, exact: bool = False,
            probabilities: bool = True) -> float | Fraction: ...
def ovr_auc(y_true: Any, y_score: Any, *, average: str | None = "macro", labels: Any = None,
            sample_weight: Any = None, exact: bool = False,
            probabilities: bool = True) -> float | Fraction | np.ndarray:
    """One-vs-rest AUC: each class against all the others, then averaged.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class labels (numbers, strings, or other hashable values with ``labels``).
    y_score : array-like of shape (n, c)
        Scores, column ``j`` for class ``labels[j]``; a larger score means "more likely
        this class". Probabilities by default (see ``probabilities``).
    average : {"macro", "weighted", "micro", None}, default "macro"
        ``"macro"``: the plain mean of the ``c`` per-class areas; ``"weighted"``: their
        mean weighted by the number (total weight) of objects of each class;
        ``"micro"``: the binary AUC of the flattened one-hot labels against the
        flattened scores (all ``n c`` entries as one ranking); ``None``: the
        per-class areas as an array.
    labels : sequence, optional
        The classes, in the order of the columns of ``y_score``. Default: the sorted
        distinct values of ``y_true`` (which must then be orderable).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (a pair weighs ``w_a w_b``).
    exact : bool, default False
        Return :class:`~fractions.Fraction` values; needs no weights or integer weights.
    probabilities : bool, default True
        Require non-negative rows summing to 1 (``numpy.isclose``), as scikit-learn
        does; ``False`` accepts any finite scores.

    Returns
    -------
    float, Fraction, or numpy.ndarray
        The average; with ``average=None`` an array of the per-class areas (dtype
        object when exact).

    Raises
    ------
    ValueError
        If fewer than two classes are given, a class has no samples (or zero weight),
        ``y_score`` does not have one column per class, its rows are not probabilities
        (with ``probabilities=True``), ``y_true`` holds a value not in ``labels``, or
        any argument is otherwise invalid.

    Examples
    --------
    Three classes of 3, 2 and 1 objects; ties count 1/2:

    >>> y = ["a", "a", "a", "b", "b", "c"]
    >>> P = [[0.5, 0.3, 0.2], [0.4, 0.4, 0.2], [0.2, 0.4, 0.4],
    ...      [0.4, 0.4, 0.2], [0.2, 0.6, 0.2], [0.2, 0.4, 0.4]]
    >>> [str(a) for a in ovr_auc(y, P, average=None, exact=True)]
    ['13/18', '13/16', '9/10']
    >>> [str(ovr_auc(y, P, average=a, exact=True)) for a in ("macro", "weighted", "micro")]
    ['1753/2160', '563/720', '37/48']
    >>> round(ovr_auc(y, P), 6)
    0.811574
    """
    p = _prepare(y_true, y_score, labels, sample_weight, exact, probabilities)
    if average not in OVR_AVERAGES:
        raise ValueError(
            f"average must be 'macro', 'weighted', 'micro' or None; got {average!r}"
        )
    if average == "micro":
        onehot = p.codes[:, None] == np.arange(len(p.labels))[None, :]
        w = None if p.w is None else np.repeat(p.w, len(p.labels))
        return roc_auc(onehot.ravel(), p.scores.ravel(), sample_weight=w, exact=exact)
    areas = _ovr_areas(p, exact)
    if average is None:
        return np.array(areas, dtype=object if exact else np.float64)
    weights = np.ones(len(areas), dtype=np.int64) if average == "macro" else p.totals
    return _mean(areas, weights, exact)


def _pairwise(p: _Prepared, exact: bool) -> PairwiseAuc:
    c = len(p.labels)
    dtype = object if exact else np.float64
    directed = np.full((c, c), np.nan, dtype=dtype)
    averaged = np.full((c, c), np.nan, dtype=dtype)
    for i in range(c):
        for j in range(i + 1, c):
            mask = (p.codes == i) | (p.codes == j)
            yy = p.codes[mask]
            w = None if p.w is None else p.w[mask]
            a_ij = roc_auc(yy == i, p.scores[mask, i], sample_weight=w, exact=exact)
            a_ji = roc_auc(yy == j, p.scores[mask, j], sample_weight=w, exact=exact)
            directed[i, j], directed[j, i] = a_ij, a_ji
            averaged[i, j] = averaged[j, i] = (a_ij + a_ji) / 2
    return PairwiseAuc(p.labels, directed, averaged, p.totals.copy())


def pairwise_auc(y_true: Any, y_score: Any, *, labels: Any = None, sample_weight: Any = None,
                 exact: bool = False, probabilities: bool = True) -> PairwiseAuc:
    """Hand and Till's table: ``A(i|j)`` and ``A(i, j)`` for every pair of classes.

    Parameters
    ----------
    y_true, y_score, labels, sample_weight, exact, probabilities
        As in :func:`ovr_auc`.

    Returns
    -------
    PairwiseAuc
        ``(labels, directed, averaged, weights)``, see :class:`PairwiseAuc`.

    Raises
    ------
    ValueError
        As :func:`ovr_auc`.

    Examples
    --------
    >>> y = ["a", "a", "a", "b", "b", "c"]
    >>> P = [[0.5, 0.3, 0.2], [0.4, 0.4, 0.2], [0.2, 0.4, 0.4],
    ...      [0.4, 0.4, 0.2], [0.2, 0.6, 0.2], [0.2, 0.4, 0.4]]
    >>> t = pairwise_auc(y, P, exact=True)
    >>> str(t.directed[0, 1]), str(t.directed[1, 0]), str(t.averaged[0, 1])
    ('2/3', '5/6', '3/4')
    >>> [[str(v) for v in row] for row in t.averaged]
    [['nan', '3/4', '5/6'], ['3/4', 'nan', '7/8'], ['5/6', '7/8', 'nan']]
    """
    p = _prepare(y_true, y_score, labels, sample_weight, exact, probabilities)
    return _pairwise(p, exact)


def ovo_auc(y_true: Any, y_score: Any, *, average: str = "macro", labels: Any = None,
            sample_weight: Any = None, exact: bool = False,
            probabilities: bool = True) -> float | Fraction:
    """One-vs-one AUC: Hand and Till's ``M`` (``"macro"``) or its weighted version.

    Parameters
    ----------
    y_true, y_score, labels, sample_weight, exact, probabilities
        As in :func:`ovr_auc`.
    average : {"macro", "weighted"}, default "macro"
        ``"macro"``: ``M``, the plain mean of ``A(i, j)`` over the ``c (c - 1) / 2``
        pairs of classes (Hand and Till 2001); ``"weighted"``: the mean weighted
        by ``n_i + n_j``, the number (total weight) of objects of the pair, as
        :func:`sklearn.metrics.roc_auc_score` with ``multi_class="ovo"`` does.

    Returns
    -------
    float or Fraction

    Raises
    ------
    ValueError
        As :func:`ovr_auc`, and for an unknown ``average``.

    Examples
    --------
    >>> y = ["a", "a", "a", "b", "b", "c"]
    >>> P = [[0.5, 0.3, 0.2], [0.4, 0.4, 0.2], [0.2, 0.4, 0.4],
    ...      [0.4, 0.4, 0.2], [0.2, 0.6, 0.2], [0.2, 0.4, 0.4]]
    >>> ovo_auc(y, P, exact=True), ovo_auc(y, P, average="weighted", exact=True)
    (Fraction(59, 72), Fraction(233, 288))
    >>> round(ovo_auc(y, P), 6)
    0.819444
    """
    p = _prepare(y_true, y_score, labels, sample_weight, exact, probabilities)
    if average not in OVO_AVERAGES:
        raise ValueError(f"average must be 'macro' or 'weighted'; got {average!r}")
    table = _pairwise(p, exact)
    c = len(p.labels)
    iu, ju = np.triu_indices(c, k=1)
    values = [table.averaged[i, j] for i, j in zip(iu, ju)]
    if average == "macro":
        weights: Any = np.ones(len(values), dtype=np.int64)
    else:
        weights = p.totals[iu] + p.totals[ju]
    return _mean(values, weights, exact)


def ovr_roc_curves(y_true: Any, y_score: Any, *, labels: Any = None, sample_weight: Any = None,
                   probabilities: bool = True) -> dict[Any, RocCurve]:
    """The one-vs-rest ROC curve of every class, keyed by class label.

    Parameters
    ----------
    y_true, y_score, labels, sample_weight, probabilities
        As in :func:`ovr_auc`.

    Returns
    -------
    dict
        ``{label: RocCurve}`` in the order of the columns.

    Examples
    --------
    >>> curves = ovr_roc_curves([0, 1, 2, 2], [[0.8, 0.1, 0.1], [0.3, 0.4, 0.3],
    ...                                        [0.2, 0.2, 0.6], [0.1, 0.5, 0.4]])
    >>> {k: c.tpr.tolist() for k, c in curves.items()}
    {0: [0.0, 1.0, 1.0, 1.0, 1.0], 1: [0.0, 0.0, 1.0, 1.0, 1.0], 2: [0.0, 0.5, 1.0, 1.0, 1.0]}
    >>> curves[1].fpr.tolist()[:3]  # class 2's 0.5 outranks class 1's 0.4
    [0.0, 0.3333333333333333, 0.3333333333333333]
    """
    p = _prepare(y_true, y_score, labels, sample_weight, False, probabilities)
    return {
        lab: roc_curve(p.codes == j, p.scores[:, j], sample_weight=p.w)
        for j, lab in enumerate(p.labels)
    }
