"""course_lib.notebook: what the chapters store is rounded, whatever the processor."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from course_lib.notebook import SIGNIFICANT_DIGITS, round_significant


def test_ten_significant_digits_by_default():
    assert SIGNIFICANT_DIGITS == 10
    assert round_significant(0.9961601145884208) == 0.9961601146
    assert round_significant(0.9961601145884205) == 0.9961601146
    assert round_significant(21.626031779295452) == 21.62603178
    assert round_significant(-0.005087922915021711) == -0.005087922915


def test_types_are_kept_or_made_plain():
    assert type(round_significant(np.float64(1 / 3))) is float
    assert type(round_significant(np.float32(1 / 3))) is float
    assert round_significant(np.int64(7)) == 7 and type(round_significant(np.int64(7))) is int
    assert round_significant(np.bool_(True)) is True
    assert round_significant(Fraction(19, 24)) == Fraction(19, 24)
    assert round_significant("0.12345678901234") == "0.12345678901234"
    assert round_significant(12345678901234567) == 12345678901234567


def test_special_values_pass_through():
    assert round_significant(0.0) == 0.0
    assert math.isnan(round_significant(float("nan")))
    assert round_significant(float("-inf")) == float("-inf")


def test_containers_are_rounded_elementwise_without_touching_the_input():
    class Point(NamedTuple):
        x: float
        y: float

    values = [1 / 3, (2 / 3, 5), {"a": 1 / 7}]
    assert round_significant(values, 3) == [0.333, (0.667, 5), {"a": 0.143}]
    assert values[0] == 1 / 3
    assert round_significant(Point(1 / 3, 2 / 3), 2) == Point(0.33, 0.67)
    arr = np.array([[1 / 3, 2 / 3]])
    out = round_significant(arr, 2)
    assert out.shape == (1, 2) and out.dtype == arr.dtype and out.tolist() == [[0.33, 0.67]]
    assert arr[0, 0] == 1 / 3
    frame = pd.DataFrame({"auc": [19 / 24], "n": [7]})
    rounded = round_significant(frame, 4)
    assert rounded["auc"].iloc[0] == 0.7917 and rounded["n"].iloc[0] == 7
    assert frame["auc"].iloc[0] == 19 / 24


@pytest.mark.parametrize("digits", [0, 18, 2.5, True, "10"])
def test_bad_digits_are_refused(digits):
    with pytest.raises(ValueError, match="digits"):
        round_significant(0.5, digits)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300))
def test_a_last_bit_change_rarely_moves_the_stored_value_and_never_by_more_than_a_digit(x):
    """Rounding is idempotent and within half a unit of the 10th significant digit."""
    r = round_significant(x)
    assert round_significant(r) == r
    if x != 0:
        assert abs(r - x) <= 0.5 * 10 ** (math.floor(math.log10(abs(x))) - 9) * (1 + 1e-12)


def test_a_change_in_the_eighth_digit_changes_the_stored_value():
    x = 0.2222222222
    assert round_significant(x * (1 + 1e-7)) != round_significant(x)
