"""The common view of every empirical curve: ``.xy``, ``.at(x)`` and ``.at_threshold(t)``.

Each curve of :mod:`course_lib` is a named tuple with fields of its own (``fpr, tpr``
for ROC, ``recall, precision`` for PR, ``rate, tpr`` for gain, ...). :class:`CurveView`
gives them one reading, so code that draws or reads a curve needs no switch on its
kind and never recomputes it:

* ``c.xy``: the pair ``(x, y)`` of arrays the curve is drawn from;
* ``c.at(x)``: ``y`` read off the broken line through the vertices (linear between
  two vertices, which for a group of ties is the expected value when the ties are
  broken at random); where the line is vertical (several vertices share ``x``), the
  value after the last of them, i.e. at the lowest threshold;
* ``c.at_threshold(t)``: the vertex ``(x, y)`` of the rule ``score >= t``.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

__all__ = ["CurveView", "read_line", "vertex_of_threshold"]


def read_line(xp: np.ndarray, fp: np.ndarray, x: Any) -> float | np.ndarray:
    """``fp`` read at ``x`` along the broken line through ``(xp[k], fp[k])``.

    ``xp`` is non-decreasing; where it repeats, the last of the equal vertices counts.
    ``x`` outside ``[xp[0], xp[-1]]`` is a ValueError.

    >>> read_line(np.array([0, 0, 0.5, 1]), np.array([0, 0.5, 1, 1]), [0, 0.25, 1]).tolist()
    [0.5, 0.75, 1.0]
    """
    xs = np.asarray(x, dtype=np.float64)
    if not np.isfinite(xs).all() or (xs < xp[0]).any() or (xs > xp[-1]).any():
        raise ValueError(f"x must lie in [{xp[0]:g}, {xp[-1]:g}]; got {x!r}")
    right = np.searchsorted(xp, xs, side="right")  # first vertex beyond x
    last = right - 1  # last vertex at or before x
    nxt = np.minimum(right, xp.size - 1)
    x0, x1 = xp[last], xp[nxt]
    rising = x1 > x0
    # numpy.interp's own formula, so that strictly increasing xp give its values exactly
    slope = np.where(rising, (fp[nxt] - fp[last]) / np.where(rising, x1 - x0, 1.0), 0.0)
    out = np.where(xs == x0, fp[last], slope * (xs - x0) + fp[last])
    return float(out) if out.ndim == 0 else out


def vertex_of_threshold(thresholds: np.ndarray, threshold: Any) -> int:
    """Index of the vertex of the rule ``score >= threshold`` (thresholds decreasing).

    That is the last vertex whose threshold is at least ``threshold``; a ValueError if
    there is none (nobody is called positive and the curve has no such vertex).

    >>> vertex_of_threshold(np.array([np.inf, 0.9, 0.5, 0.1]), 0.45)
    2
    """
    t = float(threshold)
    if not np.isfinite(t):
        raise ValueError(f"threshold must be finite, got {threshold!r}")
    k = int(np.count_nonzero(thresholds >= t)) - 1
    if k < 0:
        raise ValueError(f"no object has a score >= {threshold}: the curve has no such vertex")
    return k


class CurveView:
    """Mixin of the curve named tuples: ``xy``, ``at`` and ``at_threshold``.

    A subclass names its coordinate fields in ``_x`` and ``_y``.
    """

    __slots__ = ()
    _x: ClassVar[str]
    _y: ClassVar[str]

    @property
    def xy(self) -> tuple[np.ndarray, np.ndarray]:
        """The curve as drawn: ``(x, y)``."""
        return getattr(self, self._x), getattr(self, self._y)

    def at(self, x: Any) -> float | np.ndarray:
        """``y`` at ``x`` along the curve (see the module's docstring)."""
        xp, fp = self.xy
        return read_line(xp, fp, x)

    def at_threshold(self, threshold: Any) -> tuple[float, float]:
        """The vertex ``(x, y)`` of the rule ``score >= threshold``."""
        xp, fp = self.xy
        k = vertex_of_threshold(cast(Any, self).thresholds, threshold)
        return float(xp[k]), float(fp[k])
