"""Input validation shared by every function of :mod:`course_lib`.

Every public function validates its arguments first, with the helpers below, and
raises a :class:`ValueError` that names the problem. The helpers never modify their
inputs: they return new arrays (or read-only views) in a canonical form.

Canonical forms
---------------
* labels -> 1-D ``bool`` array (``True`` = positive class, label 1);
* scores -> 1-D ``float64`` array of finite values;
* weights -> ``None`` or a 1-D ``float64`` array of finite, non-negative values.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

__all__ = [
    "UndefinedMetricWarning",
    "check_labels",
    "check_scores",
    "check_weights",
    "check_binary",
    "has_both_classes",
    "integer_weights",
]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the data given (for example, only one class).

    The function that warns returns ``nan`` instead of raising, as scikit-learn does.
    """


def _as_1d(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    return arr


def _show(values: np.ndarray, limit: int = 5) -> str:
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    return shown + (", ..." if len(values) > limit else "")


def check_labels(y_true: Any, *, name: str = "y_true") -> np.ndarray:
    """Return binary labels as a 1-D bool array (``True`` = label 1).

    Accepts bool arrays and numeric arrays whose values are all 0 or 1.

    >>> check_labels([0, 1, 1]).tolist()
    [False, True, True]
    >>> check_labels([0, 2])
    Traceback (most recent call last):
    ...
    ValueError: y_true must contain only 0 and 1 (or bool); found other values: 2
    """
    arr = _as_1d(y_true, name)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        uniq = np.unique(arr.astype(object).astype(str))
        raise ValueError(
            f"{name} must contain only 0 and 1 (or bool); found values of type "
            f"{arr.dtype}: {_show(uniq)}"
        )
    bad = ~((arr == 0) | (arr == 1))
    if bad.any():
        raise ValueError(
            f"{name} must contain only 0 and 1 (or bool); found other values: "
            f"{_show(np.unique(arr[bad]))}"
        )
    return arr == 1


def check_scores(y_score: Any, *, name: str = "y_score") -> np.ndarray:
    """Return scores as a 1-D float64 array, rejecting NaN and infinite values.

    >>> check_scores([0.5, 1]).tolist()
    [0.5, 1.0]
    >>> check_scores([0.5, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: y_score contains NaN or infinite values (1 of 2)
    """
    arr = _as_1d(y_score, name)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    finite = np.isfinite(arr)
    if not finite.all():
        raise ValueError(
            f"{name} contains NaN or infinite values ({int((~finite).sum())} of {arr.size})"
        )
    return arr


def check_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Return ``None`` or weights as a 1-D float64 array of length ``n``.

    >>> check_weights(None, 3) is None
    True
    >>> check_weights([1, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight must be non-negative; found -1.0
    """
    if sample_weight is None:
        return None
    arr = _as_1d(sample_weight, "sample_weight")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"sample_weight must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if arr.size != n:
        raise ValueError(f"sample_weight has length {arr.size}, but there are {n} samples")
    if not np.isfinite(arr).all():
        raise ValueError("sample_weight contains NaN or infinite values")
    if (arr < 0).any():
        raise ValueError(f"sample_weight must be non-negative; found {float(arr[arr < 0].min())!r}")
    return arr


def check_binary(
    y_true: Any, y_score: Any, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate ``(y_true, y_score, sample_weight)`` together.

    Returns ``(y, s, w)`` in canonical form (bool labels, float64 scores, float64
    weights or ``None``).

    >>> y, s, w = check_binary([0, 1], [0.2, 0.9])
    >>> y.tolist(), s.tolist(), w
    ([False, True], [0.2, 0.9], None)
    >>> check_binary([0, 1, 1], [0.2, 0.9])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_score have different lengths: 3 and 2
    """
    y = check_labels(y_true)
    s = check_scores(y_score)
    if y.size != s.size:
        raise ValueError(f"y_true and y_score have different lengths: {y.size} and {s.size}")
    w = check_weights(sample_weight, y.size)
    return y, s, w


def has_both_classes(y: np.ndarray, w: np.ndarray | None, what: str) -> bool:
    """True when both classes carry positive weight; otherwise warn and return False.

    ``what`` names the metric in the warning, e.g. ``"ROC AUC"``.
    """
    if w is None:
        m1 = int(np.count_nonzero(y))
        m0 = y.size - m1
    else:
        m1 = float(w[y].sum())
        m0 = float(w[~y].sum())
    if m1 > 0 and m0 > 0:
        return True
    missing = "positive" if m1 == 0 else "negative"
    warnings.warn(
        f"{what} is undefined: there are no {missing} samples (only one class present)",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return False


def integer_weights(w: np.ndarray | None) -> np.ndarray | None:
    """Return integer weights as int64 (or ``None``); raise if a weight is fractional
    or if the weights add up to ``2**53`` or more (beyond that, float64 sums of the
    weights are no longer exact).

    Used by the exact (``Fraction``) results, which need counts.

    >>> integer_weights(np.array([1.0, 2.0])).tolist()
    [1, 2]
    >>> integer_weights(np.array([0.5]))
    Traceback (most recent call last):
    ...
    ValueError: exact=True needs integer sample weights; found 0.5
    """
    if w is None:
        return None
    frac = w != np.floor(w)
    if frac.any():
        raise ValueError(f"exact=True needs integer sample weights; found {float(w[frac][0])!r}")
    if float(w.sum()) >= 2**53:
        raise ValueError("exact=True needs a total sample weight below 2**53")
    return w.astype(np.int64)
