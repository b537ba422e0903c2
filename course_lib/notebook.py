"""Values that the book's notebooks store: rounded so that they do not depend on the processor.

The chapters are stored executed, and ``make test`` re-executes them with nbval and compares
every output with the stored one. Floating-point results legitimately differ in their last
bits from one processor to another (numpy's SIMD loops, OpenBLAS kernels and libm pick
different code paths), so a stored float with all its 17 digits would make the comparison
fail on another machine. Every float a chapter glues into its prose or prints is therefore
rounded to :data:`SIGNIFICANT_DIGITS` significant digits first: a last-bit difference then
changes the stored text only when the value sits within about 1e-16 of a rounding boundary
(about one value in a million), while a real change of a value in its 8th significant digit
still changes the stored text and fails the comparison.

The prose formats these values further (``{glue:text}`auc:.4f```), so the ten digits are
never shown to a reader; they are what nbval and the fact tests compare.

:func:`glue` writes the output that :func:`myst_nb.glue` writes (the book's build reads it)
without importing myst-nb: a student install (``requirements-student.txt``) runs the
chapters without the book's build tools (myst-nb brings Sphinx with it).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["SIGNIFICANT_DIGITS", "glue", "round_significant"]

#: Significant digits kept in every stored float of the book.
SIGNIFICANT_DIGITS = 10

#: The prefix of a glued value's MIME types when it is not displayed (myst-nb's
#: ``myst_nb.ext.glue.GLUE_PREFIX``, which the book's build recognises).
GLUE_PREFIX = "application/papermill.record/"


def _round_float(x: float, digits: int) -> float:
    if not np.isfinite(x) or x == 0.0:
        return float(x)
    return float(f"{x:.{digits}g}")


def round_significant(value: Any, digits: int = SIGNIFICANT_DIGITS) -> Any:
    """Round every float in ``value`` to ``digits`` significant digits.

    Python and numpy floats become Python floats, numpy integers and booleans become
    Python ones; lists, tuples (named tuples included), dicts, numpy arrays and pandas
    objects are rounded element by element and keep their type. Integers, fractions,
    strings and everything else (figures, sympy expressions, ...) are returned unchanged.

    Parameters
    ----------
    value : object
        What a notebook is about to glue or print.
    digits : int, default 10
        Significant digits to keep, from 1 to 17.

    Returns
    -------
    object
        ``value`` with its floats rounded; the input is not modified.

    Examples
    --------
    >>> round_significant(0.1 + 0.2)
    0.3
    >>> round_significant(2 / 3, 4)
    0.6667
    >>> round_significant({"auc": 19 / 24, "n": 7})
    {'auc': 0.7916666667, 'n': 7}
    >>> round_significant(np.array([1 / 3, 2.0]), 3)
    array([0.333, 2.   ])
    """
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 1 <= digits <= 17:
        raise ValueError(f"digits must be an integer from 1 to 17, got {digits!r}")
    digits = int(digits)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        return _round_float(float(value), digits)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        if np.issubdtype(value.dtype, np.floating):
            flat = [_round_float(float(v), digits) for v in value.ravel()]
            return np.array(flat, dtype=value.dtype).reshape(value.shape)
        return value.copy()
    if isinstance(value, tuple):
        items = [round_significant(v, digits) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [round_significant(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: round_significant(v, digits) for k, v in value.items()}
    try:  # pandas is a dependency of the book, not of this function
        import pandas as pd
    except ImportError:  # pragma: no cover
        return value
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return value.map(lambda v: round_significant(v, digits))
    return value


def glue(name: str, value: Any, *, display: bool = False, digits: int = SIGNIFICANT_DIGITS) -> None:
    """Glue ``value`` into the book's prose under ``name``, floats rounded first.

    The one way the chapters glue a value: what :func:`myst_nb.glue` does, after
    :func:`round_significant`, so that the stored glue record is the same on every
    processor. Unlike :func:`myst_nb.glue`, nothing is displayed by default. The output
    is the one myst-nb writes (tests/test_student_requirements.py compares them), made
    here so that running a chapter needs IPython only, not myst-nb and Sphinx.

    Parameters
    ----------
    name : str
        The key used in the prose (``{glue:text}`name```).
    value : object
        A number, string, fraction, table or figure.
    display : bool, default False
        Also show the value in the notebook's output.
    digits : int, default 10
        Significant digits kept in floats.
    """
    from IPython.core.formatters import format_display_data
    from IPython.display import display as ipy_display

    mimebundle, metadata = format_display_data(round_significant(value, digits))
    prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    ipy_display({prefix + k: v for k, v in mimebundle.items()}, raw=True, metadata=metadata)
