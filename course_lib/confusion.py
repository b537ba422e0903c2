"""Metrics of one threshold: confusion matrices and the numbers read off them (ch. 1).

Convention: ``matrix[i, j]`` counts the objects of TRUE class ``i`` that were PREDICTED
as class ``j`` (rows = truth, columns = prediction), as in scikit-learn. The slides of
source S print the transpose (rows = the algorithm's answer), except for their 4-class
averaging example. For two classes with labels ``[0, 1]`` the matrix is::

    [[TN, FP],
     [FN, TP]]

Two ways to call every metric
-----------------------------
* from labels: ``precision(y_true, y_pred)``;
* from a matrix: ``precision(matrix=m)``; for a binary problem given as counts,
  ``precision(matrix=matrix_from_counts(tp=20, fp=50, fn=5, tn=1000))``.

Averaging over classes (``average=``, where a metric is per class)
-----------------------------------------------------------------
``"binary"`` (default)
    The positive class only: label 1 (labels must be 0/1 or bool), or the second of two
    ``labels``, or the second row of a 2 x 2 matrix.
``"macro"``
    The plain mean over classes: every class weighs the same.
``"micro"``
    Pool the counts ``tp, fp, fn, tn`` of all classes, then divide once.
``"weighted"``
    The mean over classes weighted by support (the number of true objects of each
    class). For recall this always equals the micro value, since
    ``sum_k n_k (tp_k / n_k) / n = sum_k tp_k / n``.
``None``
    The per-class values, as a 1-D array in the order of the labels.

Zero denominators
-----------------
A ratio with a zero denominator (precision of a class never predicted, say) is set to
0.0 and an :class:`UndefinedMetricWarning` is issued, as scikit-learn does by default
(``zero_division="warn"``); macro and weighted means include those zeros.
:func:`balanced_accuracy` is the exception: it averages recall over the classes that
occur in ``y_true`` only (a class without true objects is skipped, with a warning).
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    UndefinedMetricWarning,
    check_labels,
    check_weights,
    scale_weights,
)
from ._labels import check_classes as _check_classes
from ._labels import check_label_list as _check_label_list
from ._labels import encode_labels as _encode
from ._labels import label_kind as _kind
from .calibration import log_loss  # moved beside the Brier score; its old path still works

__all__ = [
    "ClassCounts",
    "confusion_matrix",
    "matrix_from_counts",
    "per_class_counts",
    "accuracy",
    "precision",
    "recall",
    "specificity",
    "f_beta",
    "balanced_accuracy",
    "mcc",
    "chance_agreement",
    "cohen_kappa",
    "log_loss",  # defined in course_lib.calibration
]

_AVERAGES = ("binary", "macro", "micro", "weighted", None)


class ClassCounts(NamedTuple):
    """Per-class counts of an n x n confusion matrix, one entry per class.

    For class ``k``: ``tp`` = objects of class ``k`` predicted ``k``; ``fp`` = other
    objects predicted ``k``; ``fn`` = objects of class ``k`` predicted otherwise;
    ``tn`` = all the rest.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray


# ------------------------------------------------------------------------ validation


def confusion_matrix(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None
) -> np.ndarray:
    """Confusion matrix: rows are TRUE classes, columns are PREDICTED classes.

    ``matrix[i, j]`` is the number (or total weight) of objects of true class
    ``labels[i]`` predicted as ``labels[j]``. Note that the slides of source S print
    the transpose (their rows are the algorithm's answers).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted class labels (numbers, strings or bools), 2 or more classes.
    labels : array-like, optional
        The classes, in the order of the rows and columns. Default: the sorted union of
        the values in ``y_true`` and ``y_pred``. Every value must be listed.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    numpy.ndarray of shape (k, k)
        int64 counts, or float64 total weights when ``sample_weight`` is given.

    Raises
    ------
    ValueError
        If the lengths differ, a value is missing from ``labels``, ``labels`` has
        duplicates, or the input is otherwise invalid.

    Examples
    --------
    For labels 0/1 the layout is ``[[TN, FP], [FN, TP]]``:

    >>> confusion_matrix([0, 0, 1, 1, 1], [0, 1, 1, 1, 0]).tolist()
    [[1, 1], [1, 2]]
    >>> confusion_matrix(["a", "b", "c"], ["a", "c", "c"], labels=["c", "b", "a"]).tolist()
    [[1, 0, 0], [1, 0, 0], [0, 0, 1]]
    """
    return _confusion_matrix(y_true, y_pred, labels, sample_weight, scale=False)


def _confusion_matrix(
    y_true: Any, y_pred: Any, labels: Any, sample_weight: Any, *, scale: bool
) -> np.ndarray:
    """:func:`confusion_matrix`, the weights rescaled (exactly) when ``scale``: the
    matrix of the metrics, which are ratios of its entries."""
    yt = _check_classes(y_true, "y_true")
    yp = _check_classes(y_pred, "y_pred")
    if yt.size != yp.size:
        raise ValueError(f"y_true and y_pred have different lengths: {yt.size} and {yp.size}")
    w = check_weights(sample_weight, yt.size, scale=scale)
    if labels is None:
        if _kind(yt) != _kind(yp):
            raise ValueError(
                f"y_true and y_pred hold labels of different kinds: {_kind(yt)} and "
                f"{_kind(yp)}"
            )
        try:
            lab = np.unique(np.concatenate((yt, yp)))
        except TypeError:
            raise ValueError("y_true and y_pred hold labels of different kinds") from None
    else:
        lab = _check_label_list(labels)
    k = lab.size
    cells = _encode(yt, lab, "y_true") * k + _encode(yp, lab, "y_pred")
    return np.bincount(cells, weights=w, minlength=k * k).reshape(k, k)


def matrix_from_counts(*, tp: float, fp: float, fn: float, tn: float) -> np.ndarray:
    """The 2 x 2 confusion matrix ``[[tn, fp], [fn, tp]]`` (rows true, labels [0, 1]).

    For facts given as counts: ``recall(matrix=matrix_from_counts(tp=..., ...))``.

    Examples
    --------
    >>> matrix_from_counts(tp=20, fp=50, fn=5, tn=1000).tolist()
    [[1000, 50], [5, 20]]
    """
    return _check_matrix([[tn, fp], [fn, tp]])


def _check_matrix(matrix: Any) -> np.ndarray:
    m = np.asarray(matrix)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.size == 0:
        raise ValueError(f"matrix must be square and non-empty, got shape {m.shape}")
    if m.dtype.kind not in "biuf":
        raise ValueError(f"matrix must be numeric, got dtype {m.dtype}")
    if not np.isfinite(m).all():
        raise ValueError("matrix contains NaN or infinite values")
    if (m < 0).any():
        raise ValueError(f"matrix entries must be non-negative; found {m.min().item()!r}")
    return m


def per_class_counts(matrix: Any) -> ClassCounts:
    """Per-class ``tp, fp, fn, tn`` of an n x n matrix (rows true, columns predicted).

    ``tp_k = c_kk``, ``fp_k`` = column sum - ``tp_k``, ``fn_k`` = row sum - ``tp_k``,
    ``tn_k`` = total - ``tp_k - fp_k - fn_k`` (S writes the same with rows and columns
    swapped, as its matrix is the transpose).

    Examples
    --------
    S's 4-class example (rows = true A..D):

    >>> c = per_class_counts([[100, 80, 10, 10], [0, 9, 0, 1], [0, 1, 8, 1], [0, 1, 0, 9]])
    >>> c.tp.tolist(), c.fn.tolist(), c.fp.tolist(), c.tn.tolist()
    ([100, 9, 8, 9], [100, 1, 2, 1], [0, 82, 10, 12], [30, 138, 210, 208])
    """
    m = _check_matrix(matrix)
    tp = np.diagonal(m).copy()
    fp = m.sum(axis=0) - tp
    fn = m.sum(axis=1) - tp
    return ClassCounts(tp, fp, fn, m.sum() - tp - fp - fn)


def _resolve(y_true: Any, y_pred: Any, matrix: Any, labels: Any, sample_weight: Any,
             binary: bool = False) -> np.ndarray:
    """The float64 confusion matrix from labels or from ``matrix=``.

    With ``binary=True`` the matrix is 2 x 2 with the positive class second: labels 0/1
    (or bool) when ``labels`` is None, else the two given labels.
    """
    if matrix is not None:
        if y_true is not None or y_pred is not None or labels is not None or (
            sample_weight is not None
        ):
            raise ValueError(
                "pass either y_true and y_pred (with labels, sample_weight) or matrix, "
                "not both"
            )
        m = _check_matrix(matrix)
        if binary and m.shape != (2, 2):
            raise ValueError(
                f"average='binary' needs a 2 x 2 matrix, got {m.shape[0]} x {m.shape[1]}; "
                "use average='macro', 'micro', 'weighted' or None"
            )
        # every metric of a matrix is a ratio of its entries: rescaled exactly
        return scale_weights(m.astype(np.float64))
    if y_true is None or y_pred is None:
        raise ValueError("pass y_true and y_pred, or matrix=")
    if binary:
        if labels is None:
            y_true = check_labels(y_true, name="y_true")
            y_pred = check_labels(y_pred, name="y_pred")
            labels = [False, True]
        elif len(_check_label_list(labels)) != 2:
            raise ValueError(
                f"average='binary' needs exactly 2 labels, got {len(labels)}; "
                "use average='macro', 'micro', 'weighted' or None"
            )
    # every metric of a matrix is a ratio of its entries: rescaled exactly, as weights
    # are (course_lib._checks.check_weights), so no sum or product of entries overflows
    m = _confusion_matrix(y_true, y_pred, labels, sample_weight, scale=True)
    return scale_weights(m.astype(np.float64))


# ------------------------------------------------------------------------- ratios


def _divide(num: Any, den: Any, what: str, per: str, stacklevel: int = 3) -> Any:
    """``num / den`` elementwise; 0.0 and a warning where ``den == 0``.

    ``stacklevel`` points the warning at the user's call (3: called by a public function).
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    zero = den == 0
    if zero.any():
        warnings.warn(
            f"{what} is undefined where there are no {per} ({int(zero.sum())} of "
            f"{zero.size}); the value 0.0 is used",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    return np.divide(num, den, out=np.zeros_like(num), where=~zero)


def _check_average(average: Any) -> None:
    if average not in _AVERAGES:
        raise ValueError(
            f"average must be 'binary', 'macro', 'micro', 'weighted' or None; got {average!r}"
        )


def _rate(labelled: tuple[Any, Any, Any, Any, Any], average: Any, num_of: Any, den_of: Any,
          what: str, per: str) -> float | np.ndarray:
    """The per-class ratio ``num_of(c) / den_of(c)`` of the public rate metrics
    (precision, recall, specificity, F-beta), from their ``(y_true, y_pred, matrix,
    labels, sample_weight)`` and ``average``: checked, resolved and averaged (see the
    module docstring; the warnings of :func:`_divide` point at the public call)."""
    _check_average(average)
    c = per_class_counts(_resolve(*labelled, average == "binary"))
    if average == "binary":
        return float(_divide(num_of(c)[1], den_of(c)[1], what, per, 4))
    if average == "micro":
        pooled = ClassCounts(*(np.array([x.sum()]) for x in c))
        return float(_divide(num_of(pooled), den_of(pooled), what, per, 4)[0])
    values = _divide(num_of(c), den_of(c), what, per, 4)
    if average is None:
        return values
    if average == "macro":
        return float(values.mean())
    support = c.tp + c.fn
    return float(_divide(np.dot(support, values), support.sum(), what, "true samples", 4))


def accuracy(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None, labels: Any = None,
             sample_weight: Any = None) -> float:
    """Share of correct answers: the trace of the confusion matrix over its total.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,), optional
        True and predicted labels (any number of classes).
    matrix : array-like of shape (k, k), optional
        A confusion matrix instead of labels.
    labels, sample_weight : optional
        As in :func:`confusion_matrix`.

    Returns
    -------
    float
        Accuracy in [0, 1] (0.0 with a warning for an all-zero matrix).

    Examples
    --------
    S's accuracy paradox: 1075 patients, and the rule "everybody is healthy":

    >>> accuracy(matrix=matrix_from_counts(tp=20, fp=50, fn=5, tn=1000))
    0.9488372093023256
    >>> accuracy(matrix=matrix_from_counts(tp=0, fp=0, fn=25, tn=1050))
    0.9767441860465116
    """
    m = _resolve(y_true, y_pred, matrix, labels, sample_weight)
    return float(_divide(np.trace(m), m.sum(), "accuracy", "samples"))


def precision(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None,
              labels: Any = None, sample_weight: Any = None,
              average: str | None = "binary") -> float | np.ndarray:
    """Precision ``tp / (tp + fp)``: the share of true positives among the predicted.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,), optional
        True and predicted labels.
    matrix : array-like of shape (k, k), optional
        A confusion matrix instead of labels (rows true, columns predicted).
    labels, sample_weight : optional
        As in :func:`confusion_matrix`.
    average : {"binary", "macro", "micro", "weighted"} or None, default "binary"
        See the module docstring; None returns the per-class array.

    Returns
    -------
    float or numpy.ndarray
        Precision; 0.0 with an :class:`UndefinedMetricWarning` for a class that is
        never predicted.

    Examples
    --------
    S's search engine returns 30 pages, 20 of them relevant; 40 relevant pages are
    missed:

    >>> precision(matrix=matrix_from_counts(tp=20, fp=10, fn=40, tn=0))
    0.6666666666666666
    """
    return _rate((y_true, y_pred, matrix, labels, sample_weight), average,
                 lambda c: c.tp, lambda c: c.tp + c.fp, "precision", "predicted samples")


def recall(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None, labels: Any = None,
           sample_weight: Any = None, average: str | None = "binary") -> float | np.ndarray:
    """Recall (sensitivity, TPR) ``tp / (tp + fn)``: the share of a class that is found.

    Parameters are those of :func:`precision`.

    Returns
    -------
    float or numpy.ndarray
        Recall; 0.0 with an :class:`UndefinedMetricWarning` for a class without true
        samples.

    Notes
    -----
    Support-weighted recall equals micro recall (see the module docstring). S's slide
    calls 0.576 the "weighted" recall of its 4-class example: it weights each class by
    its TP count, ``sum_k tp_k R_k / sum_k tp_k``, which is not a standard average and
    is not offered here; the support-weighted value is 126/230 = 0.548.

    Examples
    --------
    S's 4-class example (rows = true classes A..D):

    >>> m = [[100, 80, 10, 10], [0, 9, 0, 1], [0, 1, 8, 1], [0, 1, 0, 9]]
    >>> recall(matrix=m, average=None).tolist()
    [0.5, 0.9, 0.8, 0.9]
    >>> recall(matrix=m, average="macro"), round(recall(matrix=m, average="micro"), 4)
    (0.775, 0.5478)
    """
    return _rate((y_true, y_pred, matrix, labels, sample_weight), average,
                 lambda c: c.tp, lambda c: c.tp + c.fn, "recall", "true samples")


def specificity(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None,
                labels: Any = None, sample_weight: Any = None,
                average: str | None = "binary") -> float | np.ndarray:
    """Specificity (TNR) ``tn / (tn + fp)``: the share of the other classes kept out.

    Parameters are those of :func:`precision`; ``"weighted"`` weighs classes by their
    support, as for the other metrics.

    Returns
    -------
    float or numpy.ndarray
        Specificity; 0.0 with an :class:`UndefinedMetricWarning` when a class has no
        negatives.

    Examples
    --------
    S's spam filter: 10 of the 999,900 good letters are flagged:

    >>> specificity(matrix=matrix_from_counts(tp=90, fp=10, fn=10, tn=999890))
    0.9999899989999
    """
    return _rate((y_true, y_pred, matrix, labels, sample_weight), average,
                 lambda c: c.tn, lambda c: c.tn + c.fp, "specificity", "negative samples")


def f_beta(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None, labels: Any = None,
           sample_weight: Any = None, beta: float = 1.0,
           average: str | None = "binary") -> float | np.ndarray:
    """F-beta score, the weighted harmonic mean of precision P and recall R.

    ``F = (1 + b^2) P R / (b^2 P + R) = (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``;
    the count form is used, so F = 0 (no warning) when tp = 0 but fp + fn > 0. A beta
    below 1 favours precision, above 1 recall; ``beta=0`` gives precision.

    Parameters
    ----------
    beta : float, default 1
        Non-negative and finite.

    Other parameters are those of :func:`precision`.

    Returns
    -------
    float or numpy.ndarray
        The score; 0.0 with an :class:`UndefinedMetricWarning` when a class is neither
        present nor predicted.

    Examples
    --------
    S's pairs: P = 0.2, R = 1 (1 hit in 5 answers) gives 1/3; P = 0.2, R = 0.3 gives
    0.24:

    >>> f_beta(matrix=matrix_from_counts(tp=1, fp=4, fn=0, tn=0))
    0.3333333333333333
    >>> f_beta(matrix=matrix_from_counts(tp=3, fp=12, fn=7, tn=0))
    0.24
    >>> f_beta(matrix=matrix_from_counts(tp=3, fp=12, fn=7, tn=0), beta=2)  # 15 / 55
    0.2727272727272727
    """
    _check_average(average)
    b2 = float(beta) ** 2
    if not (np.isfinite(b2) and float(beta) >= 0):
        raise ValueError(f"beta must be non-negative and finite, got {beta!r}")
    return _rate((y_true, y_pred, matrix, labels, sample_weight), average,
                 lambda c: (1 + b2) * c.tp, lambda c: (1 + b2) * c.tp + b2 * c.fn + c.fp,
                 "the F-score", "true or predicted samples")


def balanced_accuracy(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None,
                      labels: Any = None, sample_weight: Any = None) -> float:
    """Balanced accuracy: the mean recall over the classes present in ``y_true``.

    For two classes ``(TPR + TNR) / 2``. A class with no true objects (a row of zeros:
    it was only predicted) is left out of the mean, with an
    :class:`UndefinedMetricWarning`, as in scikit-learn.

    Parameters are those of :func:`accuracy`.

    Examples
    --------
    S's patients: (20/25 + 1000/1050) / 2; the rule "everybody is healthy" gets 1/2:

    >>> round(balanced_accuracy(matrix=matrix_from_counts(tp=20, fp=50, fn=5, tn=1000)), 4)
    0.8762
    >>> balanced_accuracy(matrix=matrix_from_counts(tp=0, fp=0, fn=25, tn=1050))
    0.5
    """
    m = _resolve(y_true, y_pred, matrix, labels, sample_weight)
    support = m.sum(axis=1)
    present = support > 0
    if not present.all():
        warnings.warn(
            f"{int((~present).sum())} class(es) have no true samples and are left out "
            "of the balanced accuracy",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if not present.any():
        return 0.0
    return float(np.mean(np.diagonal(m)[present] / support[present]))


def mcc(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None, labels: Any = None,
        sample_weight: Any = None) -> float:
    """Matthews correlation coefficient; for k classes Gorodkin's R_K.

    Binary: ``(TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))``. With
    row sums ``t`` (true), column sums ``p`` (predicted), trace ``c`` and total ``n``:
    ``(c n - t.p) / sqrt((n^2 - p.p)(n^2 - t.t))``, which reduces to the binary formula.

    Parameters are those of :func:`accuracy`.

    Returns
    -------
    float
        In [-1, 1]; 0.0 with an :class:`UndefinedMetricWarning` when a factor of the
        denominator is zero (one class only, in the truth or in the answers).

    Examples
    --------
    S's spam filter: 100 spam letters in a million, TP = 90, FP = FN = 10:

    >>> mcc(matrix=matrix_from_counts(tp=90, fp=10, fn=10, tn=999890))
    0.8999899989999
    """
    m = _resolve(y_true, y_pred, matrix, labels, sample_weight)
    t, p = m.sum(axis=1), m.sum(axis=0)
    n_t, n_p = t.sum(), p.sum()  # both n; each is exact when one class has it all
    cov_tp = np.trace(m) * n_t - np.dot(t, p)
    cov_tt = max(n_t * n_t - np.dot(t, t), 0.0)
    cov_pp = max(n_p * n_p - np.dot(p, p), 0.0)
    return float(_divide(cov_tp, np.sqrt(cov_tt * cov_pp), "MCC", "two classes present"))


def chance_agreement(y_true: Any = None, y_pred: Any = None, *, matrix: Any = None,
                     labels: Any = None, sample_weight: Any = None) -> float:
    """Expected agreement of two independent raters with the same marginals (``p_e``).

    ``p_e = sum_k (row_k / n)(col_k / n)``: the accuracy of a random answer with the
    observed frequencies. Parameters are those of :func:`accuracy`.

    Examples
    --------
    S's credit committee (rows: expert 1 says yes/no; columns: expert 2):

    >>> chance_agreement(matrix=[[20, 5], [10, 15]])
    0.5
    """
    m = _resolve(y_true, y_pred, matrix, labels, sample_weight)
    n = m.sum()
    return float(_divide(np.dot(m.sum(axis=1), m.sum(axis=0)), n * n, "p_e", "samples"))


def cohen_kappa(rater_a: Any = None, rater_b: Any = None, *, matrix: Any = None,
                labels: Any = None, sample_weight: Any = None) -> float:
    """Cohen's kappa ``(p_0 - p_e) / (1 - p_e)``: agreement corrected for chance.

    ``p_0`` is the observed agreement (:func:`accuracy`) and ``p_e`` the agreement
    expected by chance (:func:`chance_agreement`). Two raters, or truth vs prediction;
    symmetric in the two. Computed as ``1 - (1 - p_0) / (1 - p_e)`` from off-diagonal
    sums, which avoids cancellation when ``p_e`` is close to 1.

    Parameters
    ----------
    rater_a, rater_b : array-like of shape (n,), optional
        The two raters' labels (or ``y_true``, ``y_pred``).

    Other parameters are those of :func:`accuracy`.

    Returns
    -------
    float
        Kappa in [-1, 1]; 0.0 with an :class:`UndefinedMetricWarning` when
        ``p_e = 1`` (both raters always give the same single class).

    Examples
    --------
    S's credit committee: p_0 = 0.7, p_e = 0.5:

    >>> round(cohen_kappa(matrix=[[20, 5], [10, 15]]), 12)
    0.4
    """
    m = _resolve(rater_a, rater_b, matrix, labels, sample_weight)
    n = m.sum()
    expected_off = n * n - np.dot(m.sum(axis=1), m.sum(axis=0))  # n^2 (1 - p_e)
    if expected_off <= 0:
        warnings.warn(
            "Cohen's kappa is undefined: the agreement expected by chance is 1 (one "
            "class only); the value 0.0 is used",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return 0.0
    return float(1.0 - n * (n - np.trace(m)) / expected_off)
