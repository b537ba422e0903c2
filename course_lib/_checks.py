"""Input validation shared by every function of :mod:`course_lib`.

Every public function validates its arguments first, with the helpers below, and
raises a :class:`ValueError` that names the problem. The helpers never modify their
inputs: they return new arrays (or read-only views) in a canonical form.

Canonical forms
---------------
* labels -> 1-D ``bool`` array (``True`` = positive class, label 1); every value must be
  the number 0 or 1 (or a bool), whatever the array's dtype (object arrays included);
* scores -> ``float64`` array of finite values (1-D, or 2-D for one column per class).

Score policy
------------
The exact order of the scores is kept. Integer or long-double scores that float64
cannot hold exactly (int64 beyond ``2**53``, say) would become ties if cast, so:

* every function that only *ranks* scores (binary, multi-class with
  ``probabilities=False``, isotonic calibration, partial AUC, the H-measure, the
  inference functions) validates them with ``on_inexact="keep"`` and sorts and
  compares them in their own dtype (:func:`check_binary` does by default); its
  thresholds are then Python ints, never rounded;
* a function that must compute *with* the values (Platt scaling, the soft AUC)
  refuses them with ``on_inexact="raise"``: a ValueError that says so;
* probabilities (calibration curves, Brier score, log-loss, multi-class
  probabilities) are values in [0, 1], checked as such, and converted;
* in SQL (:mod:`course_lib.sql`) the score column keeps its type in the engine.
* weights -> ``None`` or a 1-D ``float64`` array of finite, non-negative values.

Undefined cases
---------------
A metric that needs both classes (or the positives, or any weight) either raises
(curves, maps, fits: there is nothing to draw) or warns with
:class:`UndefinedMetricWarning` and returns ``nan`` (numbers, as scikit-learn does):
the table :data:`UNDEFINED` says which, function by function. :func:`undefined` does
both, with one of two wordings: :data:`MISSING_CLASS` (``"<what> is undefined: there
are no <class> samples (only one class present)"``) or :data:`ZERO_WEIGHTS`
(``"<what> is undefined: every sample weight is zero"``).
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, Literal, overload

import numpy as np

__all__ = [
    "UndefinedMetricWarning",
    "check_labels",
    "check_scores",
    "check_weights",
    "check_binary",
    "check_flag",
    "check_seed",
    "class_totals",
    "undefined",
    "need_classes",
    "has_both_classes",
    "integer_weights",
    "check_binary_exact",
    "scale_weights",
    "weight_exponent",
    "check_threshold",
    "at_or_above",
    "WEIGHT_UNITS",
    "SCALE_DEPENDENT",
    "UNDEFINED",
    "MISSING_CLASS",
    "ZERO_WEIGHTS",
    "need_weight",
]

#: Weighted results that are *sums* of weights, by public function: they are returned
#: in the weights' own units (multiplying the weights by ``k`` multiplies them by
#: ``k``). A path names a field (``"counts"``), a key of a result's data
#: (``"rows.tp"``), or the whole result (``""``). Every other weighted result is a
#: ratio of weights and does not depend on their scale.
WEIGHT_UNITS: dict[str, tuple[str, ...]] = {
    "confusion_matrix": ("",),
    "calibration_curve": ("counts",),
    "profit_curve": ("profit", "best_profit"),
    "pairwise_auc": ("weights",),
    "threshold_explorer": ("totals.m1", "totals.m0", "rows.tp", "rows.fp", "rows.fn",
                           "rows.tn"),
    "calibration_bands": ("obligors", "positives"),
    # sum_g (O_g - E_g)^2 / (E_g (1 - E_g / n_g)) is linear in the weights (its p-value
    # needs counts: nan for fractional weights)
    "hosmer_lemeshow": ("statistic",),
    "calibration_slope": ("clipped",),
}

#: Weighted functions whose result depends on the weights' scale by definition, and why.
SCALE_DEPENDENT: dict[str, str] = {
    "platt_scaling": (
        "with targets='platt' (the default) the smoothed targets (m1 + 1) / (m1 + 2) and "
        "1 / (m0 + 2) add one pseudo-object per class in units of the weights, as Platt "
        "(1999) and scikit-learn do; targets='labels' does not depend on the scale"
    ),
}


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the data given (for example, only one class).

    The function that warns returns ``nan`` instead of raising, as scikit-learn does.
    """


def _as_1d(values: Any, name: str, ndim: int = 1) -> np.ndarray:
    if values is None:
        raise ValueError(f"{name} is None; expected an array of {ndim} dimension(s)")
    arr = np.asarray(values)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    return arr


def _show(values: np.ndarray, limit: int = 5) -> str:
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    return shown + (", ..." if len(values) > limit else "")


def check_labels(y_true: Any, *, name: str = "y_true") -> np.ndarray:
    """Return binary labels as a 1-D bool array (``True`` = label 1).

    Accepts any array whose values are all the number 0 or 1 (or bools): bool, integer
    and float arrays, and object arrays of numbers (e.g. a pandas column of Python
    ints). Strings are refused, ``"1"`` included: they are names of classes, not the
    numbers 0 and 1.

    >>> check_labels([0, 1, 1]).tolist()
    [False, True, True]
    >>> check_labels(np.array([0, 1], dtype=object)).tolist()
    [False, True]
    >>> check_labels([0, 2])
    Traceback (most recent call last):
    ...
    ValueError: y_true must contain only 0 and 1 (or bool); found other values: 2
    >>> check_labels(["0", "1"])
    Traceback (most recent call last):
    ...
    ValueError: y_true must contain only 0 and 1 (the numbers, or bool); found values of type str: '0', '1'
    """
    arr = _as_1d(y_true, name)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind == "O" and all(
        isinstance(v, (numbers.Real, np.bool_)) for v in arr.tolist()
    ):
        arr = np.array(arr.tolist())
        if arr.dtype.kind == "O":  # pragma: no cover - numbers numpy cannot hold
            arr = arr.astype(np.float64)
        if arr.dtype == bool:
            return arr
    if arr.dtype.kind not in "iuf":
        values = arr.tolist()
        kinds = sorted({type(v).__name__ for v in values})
        uniq = sorted({repr(v) for v in values})
        shown = ", ".join(uniq[:5]) + (", ..." if len(uniq) > 5 else "")
        raise ValueError(
            f"{name} must contain only 0 and 1 (the numbers, or bool); found values of "
            f"type {', '.join(kinds)}: {shown}"
        )
    bad = ~((arr == 0) | (arr == 1))
    if bad.any():
        raise ValueError(
            f"{name} must contain only 0 and 1 (or bool); found other values: "
            f"{_show(np.unique(arr[bad]))}"
        )
    return arr == 1


def _float64_exact(arr: np.ndarray) -> bool:
    """True when every value of a numeric array converts to float64 without rounding."""
    if arr.dtype.kind == "b" or arr.dtype.itemsize <= 4 or arr.dtype == np.float64:
        return True
    if arr.dtype.kind in "iu":
        return bool(-(2**53) <= int(arr.min()) and int(arr.max()) <= 2**53)
    if arr.dtype.kind == "f" and arr.dtype.itemsize < 8:  # pragma: no cover - float16/32
        return True
    with np.errstate(invalid="ignore", over="ignore"):
        back = arr.astype(np.float64).astype(arr.dtype)
    finite = np.isfinite(arr)
    return bool(np.all((back == arr) | ~finite))


def check_scores(
    y_score: Any,
    *,
    name: str = "y_score",
    on_inexact: Literal["convert", "keep", "raise"] = "convert",
    ndim: int = 1,
) -> np.ndarray:
    """Return scores as a 1-D float64 array, rejecting NaN and infinite values.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Numbers (bool, integer or float).
    name : str
        The argument's name, for the error messages.
    on_inexact : {"convert", "keep", "raise"}
        What to do with integers or long doubles that float64 cannot hold exactly
        (int64 scores ``2**62 + k``, say, which float64 would turn into ties):
        ``"convert"`` rounds them to float64 (for functions whose result is a float
        computation anyway), ``"keep"`` returns the array in its own dtype (for
        functions that only sort and compare the scores, so they rank exactly), and
        ``"raise"`` refuses them with a ValueError.
    ndim : int, default 1
        The number of dimensions required (2 for a score matrix, one column per class).

    >>> check_scores([0.5, 1]).tolist()
    [0.5, 1.0]
    >>> check_scores([0.5, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: y_score contains NaN or infinite values (1 of 2)
    >>> check_scores(np.array([2**62, 2**62 + 1]), on_inexact="keep").dtype
    dtype('int64')
    """
    arr = _as_1d(y_score, name, ndim)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    if not _float64_exact(arr):
        if on_inexact == "keep":
            if arr.dtype.kind == "f" and not np.isfinite(arr).all():
                bad = int((~np.isfinite(arr)).sum())
                raise ValueError(f"{name} contains NaN or infinite values ({bad} of {arr.size})")
            return arr
        if on_inexact == "raise":
            raise ValueError(
                f"{name} holds values that float64 cannot represent exactly "
                f"(dtype {arr.dtype}); this function computes in float64, so they would "
                "be rounded (and may become ties): convert or rescale them first"
            )
    arr = arr.astype(np.float64, copy=False)
    if not _all_finite(arr):
        finite = np.isfinite(arr)
        raise ValueError(
            f"{name} contains NaN or infinite values ({int((~finite).sum())} of {arr.size})"
        )
    return arr


def _all_finite(arr: np.ndarray) -> bool:
    """Whether every float64 is finite: one sum (NaN and infinities carry through it,
    and no array is allocated), and the element-wise test only when the sum is not
    finite (a NaN, an infinity, or finite values whose sum overflows)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if math.isfinite(float(np.add.reduce(arr, axis=None))):
            return True
    return bool(np.isfinite(arr).all())


def check_weights(sample_weight: Any, n: int, *, scale: bool = True) -> np.ndarray | None:
    """Return ``None`` or weights as a 1-D float64 array of length ``n``, validated and
    (by default) rescaled: the one place where weights are checked and scaled.

    Weight policy: every weighted result is a ratio of sums of weights, or a sum of
    weights itself. With ``scale=True`` (every ratio) the weights come back multiplied
    by the power of two that brings the largest into [0.5, 1) (:func:`scale_weights`):
    exact, so every ratio is what the weights as given would give, while no sum or
    product of them can overflow (weights near 1e300) or underflow (near 1e-300).
    ``scale=False`` returns them as given, for the results that are sums of weights
    (a weighted confusion matrix, the counts of a reliability curve, a profit) and for
    ``exact=True``, which needs the integers themselves.

    >>> check_weights(None, 3) is None
    True
    >>> check_weights([4.0, 2.0], 2).tolist(), check_weights([4.0, 2.0], 2, scale=False).tolist()
    ([0.5, 0.25], [4.0, 2.0])
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
    lowest, top = float(arr.min()), float(arr.max())  # NaN makes both NaN
    if not (lowest >= 0.0 and top < np.inf):
        if not np.isfinite(arr).all():
            raise ValueError("sample_weight contains NaN or infinite values")
        raise ValueError(f"sample_weight must be non-negative; found {float(arr[arr < 0].min())!r}")
    return _scale_by_top(arr, top) if scale else arr


def check_threshold(value: Any, name: str = "threshold") -> float | int:
    """A finite threshold: a Python int for an integer (so it compares exactly with
    integer scores beyond ``2**53``), else a float; ValueError otherwise.

    >>> check_threshold(2**62 + 1)
    4611686018427387905
    >>> check_threshold(float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: threshold must be finite, got inf
    """
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    ):
        return int(value)
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(t):
        raise ValueError(f"{name} must be finite, got {t!r}")
    return t


def at_or_above(s: np.ndarray, threshold: float | int) -> np.ndarray:
    """``s >= threshold`` compared exactly, whatever the dtypes (the score policy).

    numpy would compare int64 scores with a float threshold in float64, rounding the
    scores; for integer scores the threshold becomes the integer ``ceil(threshold)``
    and is compared as an integer.

    >>> at_or_above(np.array([2**62, 2**62 + 1]), 2**62 + 1).tolist()
    [False, True]
    """
    if s.dtype.kind not in "iu":
        return s >= threshold
    t = threshold if isinstance(threshold, int) else math.ceil(threshold)
    info = np.iinfo(s.dtype)
    if t > info.max:
        return np.zeros(s.shape, dtype=bool)
    if t <= info.min:
        return np.ones(s.shape, dtype=bool)
    return s >= s.dtype.type(t)


def check_binary(
    y_true: Any,
    y_score: Any,
    sample_weight: Any = None,
    *,
    on_inexact: Literal["convert", "keep", "raise"] = "keep",
    scale: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate ``(y_true, y_score, sample_weight)`` together.

    Returns ``(y, s, w)`` in canonical form (bool labels, float64 scores, float64
    weights or ``None``). Scores that float64 cannot hold exactly are kept in their
    own dtype by default (every ranking function only sorts and compares them); see
    :func:`check_scores` for ``on_inexact`` and :func:`check_weights` for ``scale``.

    >>> y, s, w = check_binary([0, 1], [0.2, 0.9])
    >>> y.tolist(), s.tolist(), w
    ([False, True], [0.2, 0.9], None)
    >>> check_binary([0, 1, 1], [0.2, 0.9])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_score have different lengths: 3 and 2
    """
    y = check_labels(y_true)
    s = check_scores(y_score, on_inexact=on_inexact)
    if y.size != s.size:
        raise ValueError(f"y_true and y_score have different lengths: {y.size} and {s.size}")
    w = check_weights(sample_weight, y.size, scale=scale)
    return y, s, w


def class_totals(y: np.ndarray, w: np.ndarray | None) -> tuple[float, float]:
    """``(m1, m0)``: the number (int) or total weight (float) of each class."""
    if w is None:
        m1 = int(np.count_nonzero(y))
        return m1, y.size - m1
    return float(w[y].sum()), float(w[~y].sum())


#: The two wordings of an undefined case: a class is missing, or every weight is zero.
MISSING_CLASS = "{what} is undefined: there are no {missing} samples (only one class present)"
ZERO_WEIGHTS = "{what} is undefined: every sample weight is zero"

#: The undefined-case policy, one row per public function whose result needs a class
#: (or any weight at all): whether it raises a ValueError (curves, maps, fits: there is
#: nothing to return) or warns with :class:`UndefinedMetricWarning` and returns nan
#: (numbers, as scikit-learn does; every number of a returned tuple or array is nan),
#: with :data:`MISSING_CLASS` or :data:`ZERO_WEIGHTS`.
#: "positives" marks the functions that need only the positives (a gain curve exists
#: without negatives); "weights" those that need only some weight (a reliability curve,
#: a Brier score exist with one class). The confusion-matrix metrics are not here:
#: they are defined cell by cell (0.0 with a warning where a denominator is zero, as
#: scikit-learn's ``zero_division``). ``tests/test_policy.py`` checks every row.
UNDEFINED: dict[str, tuple[Literal["raise", "warn"], Literal["both", "positives", "weights"]]] = {
    # curves, maps and fits: raise
    "roc_curve": ("raise", "both"),
    "roc_steps": ("raise", "both"),
    "roc_point": ("raise", "both"),
    "randomized_roc_point": ("raise", "both"),
    "pair_matrix": ("raise", "both"),
    "hull_pr": ("raise", "both"),
    "ks_curve": ("raise", "both"),
    "precision_recall_gain_curve": ("raise", "both"),
    "prg_auc": ("raise", "both"),
    "threshold_explorer": ("raise", "both"),
    "gains_table": ("raise", "both"),
    "roc_dominates": ("raise", "both"),
    "pr_dominates": ("raise", "positives"),
    "platt_scaling": ("raise", "both"),
    "minimum_loss": ("raise", "both"),
    "auc_cost_weights": ("raise", "both"),
    "pr_curve": ("raise", "positives"),
    "gain_curve": ("raise", "positives"),
    "lift_curve": ("raise", "positives"),
    "gain_at": ("raise", "positives"),
    "lift_at": ("raise", "positives"),
    "gain_auc": ("raise", "positives"),
    "cap_curve": ("raise", "positives"),
    "profit_curve": ("raise", "weights"),
    "isotonic_calibration": ("raise", "weights"),
    "calibration_curve": ("raise", "weights"),
    "brier_score": ("raise", "weights"),
    "brier_decomposition": ("raise", "weights"),
    "expected_calibration_error": ("raise", "weights"),
    "log_loss": ("raise", "weights"),
    # numbers: warn and return nan
    "roc_auc": ("warn", "both"),
    "auc_pairwise": ("warn", "both"),
    "ks_statistic": ("warn", "both"),
    "partial_roc_auc": ("warn", "both"),
    "h_measure": ("warn", "both"),
    "soft_auc": ("warn", "both"),
    "soft_auc_gradient": ("warn", "both"),
    "auc_ci_delong": ("warn", "both"),
    "auc_ci_bootstrap": ("warn", "both"),
    "delong_test": ("warn", "both"),
    "average_precision": ("warn", "positives"),
    "pr_auc_trapezoid": ("warn", "positives"),
    "gini_normalized": ("warn", "positives"),
    "gini_unnormalized": ("warn", "positives"),
}


def undefined(
    what: str,
    missing: str | None,
    *,
    warn: bool,
    stacklevel: int = 3,
) -> float:
    """The undefined-case policy: raise a ValueError, or warn and return ``nan``.

    The message is :data:`MISSING_CLASS` (``missing`` names the class) or, with
    ``missing=None``, :data:`ZERO_WEIGHTS`. ``stacklevel`` is the one
    ``warnings.warn`` would take if it were called where this is called: 2 from a
    public function, 3 from its helper.

    >>> undefined("the ROC curve", "positive", warn=False)
    Traceback (most recent call last):
    ...
    ValueError: the ROC curve is undefined: there are no positive samples (only one class present)
    >>> undefined("the Brier score", None, warn=False)
    Traceback (most recent call last):
    ...
    ValueError: the Brier score is undefined: every sample weight is zero
    """
    if missing is None:
        message = ZERO_WEIGHTS.format(what=what)
    else:
        message = MISSING_CLASS.format(what=what, missing=missing)
    if not warn:
        raise ValueError(message)
    warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel + 1)
    return float("nan")


def need_classes(
    m1: float,
    m0: float,
    what: str,
    *,
    warn: bool,
    negatives: bool = True,
    stacklevel: int = 3,
) -> bool:
    """True when the positives (and, with ``negatives=True``, the negatives) carry
    positive weight; otherwise apply :func:`undefined` (raise, or warn and return False):
    :data:`ZERO_WEIGHTS` when neither class has weight, else :data:`MISSING_CLASS`.

    >>> need_classes(3, 0, "the gain curve", warn=False, negatives=False)
    True
    """
    if m1 > 0 and (m0 > 0 or not negatives):
        return True
    if not (m1 > 0 or m0 > 0):
        missing = None
    else:
        missing = "positive" if not m1 > 0 else "negative"
    undefined(what, missing, warn=warn, stacklevel=stacklevel + 1)
    return False


def need_weight(w: np.ndarray | None, what: str) -> None:
    """A ValueError in the :data:`ZERO_WEIGHTS` wording when every weight is zero."""
    if w is not None and not w.sum() > 0:
        undefined(what, None, warn=False)


def has_both_classes(y: np.ndarray, w: np.ndarray | None, what: str) -> bool:
    """True when both classes carry positive weight; otherwise warn and return False.

    ``what`` names the metric in the warning, e.g. ``"ROC AUC"``.
    """
    m1, m0 = class_totals(y, w)
    return need_classes(m1, m0, what, warn=True, stacklevel=3)


def check_flag(value: Any, name: str) -> bool:
    """A real bool (Python or numpy), or a ValueError: ``exact="no"`` is not False.

    >>> check_flag(True, "exact")
    True
    >>> check_flag("no", "exact")
    Traceback (most recent call last):
    ...
    ValueError: exact must be True or False, got 'no'
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r}")


def check_integer(
    value: Any, name: str, *, low: int, high: int | None = None, high_name: str | None = None
) -> int:
    """An integer (Python or numpy, not a bool) of at least ``low`` (and at most
    ``high``, described as ``high_name`` when given) as an int, or a ValueError that
    names the argument.

    >>> check_integer(np.int64(3), "n_bins", low=1)
    3
    >>> check_integer(2.0, "n_bins", low=1)
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be a positive integer, got 2.0
    >>> check_integer(-1, "seed", low=0)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a non-negative integer, got -1
    >>> check_integer(1, "n", low=2)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 2, got 1
    >>> check_integer(9, "n_bins", low=1, high=5, high_name="the number of samples 5")
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be between 1 and the number of samples 5, got 9
    """
    kind = ("an integer" if high is not None else "a positive integer" if low == 1
            else "a non-negative integer" if low == 0 else f"an integer >= {low}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    v = int(value)
    if high is None:
        if v < low:
            raise ValueError(f"{name} must be {kind}, got {v}")
    elif not low <= v <= high:
        raise ValueError(f"{name} must be between {low} and {high_name or high}, got {v}")
    return v


def check_seed(seed: Any, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for an int, a Generator or None; a
    ValueError naming the argument for anything else.

    >>> int(check_seed(0).integers(10)) == int(np.random.default_rng(0).integers(10))
    True
    >>> check_seed("abc")
    Traceback (most recent call last):
    ...
    ValueError: seed must be an int, a numpy Generator or None, got 'abc'
    """
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, (numbers.Integral, np.integer)) and not isinstance(seed, bool):
        if int(seed) < 0:
            raise ValueError(f"{name} must be non-negative, got {seed!r}")
        return np.random.default_rng(int(seed))
    raise ValueError(f"{name} must be an int, a numpy Generator or None, got {seed!r}")


@overload
def scale_weights(w: np.ndarray) -> np.ndarray: ...
@overload
def scale_weights(w: None) -> None: ...
@overload
def scale_weights(w: np.ndarray | None) -> np.ndarray | None: ...
def scale_weights(w: np.ndarray | None) -> np.ndarray | None:
    """Weights multiplied by a power of two that brings the largest into [0.5, 1).

    Every ratio computed from the weights is unchanged, bit for bit (multiplying by a
    power of two is exact), but sums and products of the weights can neither overflow
    (weights near 1e160) nor underflow (weights near 1e-170).

    >>> float(scale_weights(np.array([3e160, 1e160])).max()) < 1
    True
    >>> scale_weights(np.array([4.0, 2.0])).tolist()
    [0.5, 0.25]
    """
    if w is None:
        return None
    return _scale_by_top(w, float(w.max()))


def weight_exponent(w: np.ndarray | None) -> int:
    """The power of two by which :func:`scale_weights` divides: ``w`` is
    ``numpy.ldexp(scale_weights(w), weight_exponent(w))``, and a sum of the scaled
    weights ``v`` is ``numpy.ldexp(v, weight_exponent(w))`` in the weights' own units
    (0 for ``None`` or all zero).

    >>> w = np.array([3e160, 1e160])
    >>> bool((np.ldexp(scale_weights(w), weight_exponent(w)) == w).all())
    True
    >>> weight_exponent(np.array([4.0, 2.0]))
    3
    """
    if w is None:
        return 0
    top = float(w.max())
    return int(np.frexp(top)[1]) if top > 0.0 else 0


def _scale_by_top(w: np.ndarray, top: float) -> np.ndarray:
    """:func:`scale_weights` given the largest weight ``top``."""
    if not top > 0.0:  # all zero (or empty): nothing to scale
        return w
    exponent = int(np.frexp(top)[1])
    if exponent == 0:
        return w
    if -1022 <= exponent <= 1022:  # 2**-exponent is a normal float: one exact product,
        return w * 2.0**-exponent  # correctly rounded as ldexp's (and 4x faster)
    return np.ldexp(w, -exponent)


def are_counts(w: np.ndarray | None) -> bool:
    """Whether weights are counts: none, or all whole numbers with a sum below ``2**53``
    (float64 sums of them are then exact), as the exact results and the tests of
    counts (binomial, DeLong) need.

    >>> are_counts(None), are_counts(np.array([1.0, 3.0])), are_counts(np.array([0.5]))
    (True, True, False)
    """
    return w is None or bool((w == np.floor(w)).all() and float(w.sum()) < 2**53)


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


def check_binary_exact(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    exact: Any,
    *,
    int_weights: bool = False,
    scale: bool = True,
) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray | None]:
    """The opening of every function with an ``exact`` option: ``(exact, y, s, w)``.

    ``exact`` must be a bool (:func:`check_flag`); the data are checked by
    :func:`check_binary`, the weights rescaled only for a float result (an exact one
    counts them as they are) and with ``scale`` (``False``: the caller scales them
    itself, as :func:`course_lib.roc_auc`'s grouping does), and for ``exact=True``
    they must be integers (:func:`integer_weights`). ``w`` is returned as
    :func:`check_binary` gives it, or as int64 with ``int_weights=True`` and
    ``exact=True``.

    >>> exact, y, s, w = check_binary_exact([0, 1], [0.2, 0.9], [1.0, 3.0], True)
    >>> exact, w.tolist()
    (True, [1.0, 3.0])
    >>> check_binary_exact([0, 1], [0.2, 0.9], [1.0, 0.5], True)
    Traceback (most recent call last):
    ...
    ValueError: exact=True needs integer sample weights; found 0.5
    """
    exact = check_flag(exact, "exact")
    y, s, w = check_binary(y_true, y_score, sample_weight, scale=scale and not exact)
    if exact:
        iw = integer_weights(w)  # raises on fractional weights or too large a total
        if int_weights:
            w = iw
    return exact, y, s, w
