"""Optima of a score model over the thresholds: the KS distance and the best accuracy,
exact when sympy solves for the stationary points, else a bounded numerical search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy
from scipy.optimize import minimize_scalar

from .core import PI, THETA, ModelKS, ModelOptimum, _numeric
from .rates import RatesPart

__all__ = ["OptimaPart"]


class OptimaPart(RatesPart):
    """Maxima over the thresholds: exact when sympy solves the stationarity equation."""

    def _argmax(self, objective: sympy.Expr, stationary: sympy.Expr) -> ModelOptimum:
        """Maximum of ``objective(theta)`` over the support; ``stationary`` = 0 at extrema.

        Exact when sympy solves ``stationary = 0``; otherwise a bounded numerical search
        started from the best of 2001 grid points (results are ``sympy.Float``).
        """
        lo, hi = self.support
        try:
            roots = sympy.solve(stationary, THETA)
        except NotImplementedError:
            return self._argmax_numeric(objective)
        inside = [r for r in roots if r.is_real and lo < r < hi]
        candidates = [(r, sympy.simplify(objective.subs(THETA, r))) for r in inside]
        candidates += [
            (lo, sympy.limit(objective, THETA, lo, "+")),
            (hi, sympy.limit(objective, THETA, hi, "-")),
        ]
        threshold, value = max(candidates, key=lambda c: float(c[1]))
        return ModelOptimum(value, threshold)

    def _argmax_numeric(self, objective: sympy.Expr) -> ModelOptimum:
        f = _numeric(objective, THETA)
        t = np.linspace(0, 1, 2001)
        with np.errstate(all="ignore"):
            values = f(self._from_unit(t))
        k = int(np.nanargmax(values))
        bounds = self._from_unit(t[[max(k - 1, 0), min(k + 1, t.size - 1)]])
        found = minimize_scalar(
            lambda v: -float(f(np.array(v))),
            bounds=(float(bounds[0]), float(bounds[1])),
            method="bounded",
            options={"xatol": 1e-12},
        )
        threshold = sympy.Float(found.x)
        return ModelOptimum(sympy.Float(objective.subs(THETA, threshold).evalf()), threshold)

    def ks(self, pi: Any = PI) -> ModelKS:
        """KS distance max(TPR - FPR), its threshold, and the positive rate there.

        The distance and threshold do not depend on the class shares; the positive rate
        at which the KS chart shows the maximum does.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.ks(0.1)
        ModelKS(value=1/2, threshold=1/2, positive_rate=3/10)
        """
        pi = self._pi_value(pi)
        best = self._memo(("ks",), lambda: self._argmax(self._tpr - self._fpr, self._d0 - self._d1))
        rate = sympy.simplify(self.positive_rate(best.threshold, pi))
        if isinstance(best.threshold, sympy.Float):
            rate = rate.evalf()
        return ModelKS(best.value, best.threshold, rate)

    def best_accuracy(self, pi: Any = sympy.Rational(1, 2)) -> ModelOptimum:  # noqa: B008 (immutable)
        """The best accuracy over thresholds for a (numeric) share ``pi`` of positives.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.best_accuracy()
        ModelOptimum(value=3/4, threshold=1/2)
        """
        pi = self._pi_value(pi)
        if not pi.is_number:
            raise ValueError(f"best_accuracy needs a numeric pi, got {pi}")
        return self._memo(
            ("best_accuracy", pi),
            lambda: self._argmax(self.accuracy(THETA, pi), (1 - pi) * self._d0 - pi * self._d1),
        )
