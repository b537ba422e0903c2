"""Class labels of any kind (numbers, strings, bools): validated, and encoded as the
index of each value in a list of labels. Shared by the confusion matrices
(:mod:`course_lib.confusion`), the multi-class log-loss (:mod:`course_lib.calibration`)
and :mod:`course_lib.multiclass`.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def check_classes(values: Any, name: str) -> np.ndarray:
    """1-D, non-empty class labels of one orderable kind (numbers, strings, bools)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinite values")
    if arr.dtype.kind == "O":
        try:
            sorted(set(arr.tolist()))
        except TypeError as err:
            raise ValueError(f"{name} mixes labels that cannot be ordered: {err}") from None
    elif arr.dtype.kind not in "biufUS":
        raise ValueError(f"{name} must hold class labels, got dtype {arr.dtype}")
    return arr


def label_kind(arr: np.ndarray) -> str:
    return {"b": "numbers", "i": "numbers", "u": "numbers", "f": "numbers",
            "U": "strings", "S": "bytes"}.get(arr.dtype.kind, "objects")


def encode_labels(arr: np.ndarray, labels: np.ndarray, name: str) -> np.ndarray:
    """Index of each value in ``labels``; ValueError naming values not in ``labels``."""
    sorter = np.argsort(labels, kind="stable")
    ordered = labels[sorter]
    try:
        pos = np.searchsorted(ordered, arr)
        found = ordered[np.minimum(pos, ordered.size - 1)] == arr
    except TypeError:
        raise ValueError(f"{name} and labels hold values of different kinds") from None
    if not np.all(found):
        missing = np.unique(arr[~found])[:5].tolist()
        raise ValueError(f"{name} contains values not in labels: {missing}")
    return sorter[pos]


def check_label_list(labels: Any) -> np.ndarray:
    lab = check_classes(labels, "labels")
    if np.unique(lab).size != lab.size:
        raise ValueError(f"labels contains duplicates: {lab.tolist()}")
    return lab
