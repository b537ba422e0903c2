"""The numeric side of a score model: curves evaluated at thresholds for plotting, and
exact samples of scores by the inverse CDF of each class (sympy's inverse, or bisection).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from functools import cached_property

import numpy as np
import sympy

from .._checks import check_integer
from .core import PI, THETA, CurvePoints, ModelBase, ModelCurve, U, _numeric

__all__ = ["NumericPart"]


class NumericPart(ModelBase):
    """Numbers from the formulas: points of a curve, samples of scores."""

    def _quantile_function(self, cdf: sympy.Expr) -> Callable[[np.ndarray], np.ndarray]:
        """Inverse of an increasing CDF(theta): symbolic when sympy solves it, else bisection."""
        root = self._inverse(cdf)
        if root is not None:
            return _numeric(root, U)
        f = _numeric(cdf, THETA)

        def bisect(levels: np.ndarray) -> np.ndarray:
            low, high = np.zeros_like(levels), np.ones_like(levels)
            for _ in range(64):
                mid = (low + high) / 2
                with np.errstate(all="ignore"):
                    below = f(self._from_unit(mid)) < levels
                low, high = np.where(below, mid, low), np.where(below, high, mid)
            return self._from_unit((low + high) / 2)

        return bisect

    @cached_property
    def _quantiles(self) -> tuple[Callable, Callable, Callable]:
        """Quantile functions of class 0, class 1 and the 50/50 mixture."""
        return (
            self._quantile_function(1 - self._fpr),
            self._quantile_function(1 - self._tpr),
            self._quantile_function(1 - (self._tpr + self._fpr) / 2),
        )

    def points(self, curve: ModelCurve, n: int = 201) -> CurvePoints:
        """Evaluate a curve at ``n`` thresholds, for plotting (numpy arrays, x increasing).

        The thresholds are quantiles of the 50/50 mixture of the classes, from the top of
        the support down, so the points spread along the whole curve; at the ends, where
        a formula may read 0/0, the one-sided limit is used.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> pts = LINEAR_DENSITIES.points(LINEAR_DENSITIES.roc(), n=3)
        >>> pts.theta.tolist(), pts.x.tolist(), pts.y.tolist()
        ([1.0, 0.5, 0.0], [0.0, 0.25, 1.0], [0.0, 0.75, 1.0])
        """
        if curve.x.has(PI) or curve.y.has(PI):
            raise ValueError("the curve depends on the symbol pi: build it with a numeric pi")
        n = check_integer(n, "n", low=2)
        lo, hi = self.support
        theta = np.empty(n)
        theta[0], theta[-1] = float(hi), float(lo)
        theta[1:-1] = self._quantiles[2](np.linspace(1, 0, n)[1:-1])
        coords = []
        for expr in (curve.x, curve.y):
            with np.errstate(all="ignore"):
                values = _numeric(expr, THETA)(theta)
            for k, end, side in ((0, hi, "-"), (n - 1, lo, "+")):
                if not np.isfinite(values[k]):
                    values[k] = float(sympy.limit(expr, THETA, end, side))
            coords.append(values)
        return CurvePoints(theta, coords[0], coords[1])

    def sample(
        self, n: int, pi: float, *, seed: int | np.random.Generator | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw a sample of ``n`` objects with ``round(n * pi)`` positives.

        Scores are drawn exactly, by the inverse CDF of each class applied to uniform
        numbers (the inverse is derived by sympy when it can, otherwise found by
        bisection to machine precision). Labels are in random order.

        Returns
        -------
        y_true : ndarray of int64, shape (n,)
        y_score : ndarray of float64, shape (n,)

        Examples
        --------
        >>> from course_lib.models import LINEAR_DENSITIES
        >>> y, s = LINEAR_DENSITIES.sample(10, 0.3, seed=1)
        >>> int(y.sum()), bool(((0 <= s) & (s <= 1)).all())
        (3, True)
        """
        n = check_integer(n, "n", low=1)
        if not isinstance(pi, numbers.Real) or not 0 <= pi <= 1:
            raise ValueError(f"pi (the share of positives) must lie in [0, 1], got {pi!r}")
        rng = np.random.default_rng(seed)
        m1 = round(n * pi)
        y = np.zeros(n, dtype=np.int64)
        y[:m1] = 1
        y = rng.permutation(y)
        q0, q1, _ = self._quantiles
        scores = np.empty(n)
        scores[y == 1] = q1(rng.random(m1))
        scores[y == 0] = q0(rng.random(n - m1))
        return y, scores
