"""Areas of a score model in closed form: AUC (two ways), area under the gain curve,
Gini, area under the PR curve for a share ``pi`` (symbolic ``pi`` included).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import sympy

from .core import PI, THETA
from .rates import RatesPart

__all__ = ["AreasPart"]


class AreasPart(RatesPart):
    """The areas under the curves, in closed form."""

    def auc(self) -> sympy.Expr:
        """Area under the ROC curve: the integral of TPR dFPR = of p0(theta) TPR(theta).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.auc()
        5/6
        """
        return self._memo(("auc",), lambda: self._integral(self._d0 * self._tpr))

    def auc_probability(self) -> sympy.Expr:
        """P(score of a positive > score of a negative), as the double integral of p0 p1.

        Equal to :meth:`auc` for every model; computed independently, to show it.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.auc_probability()
        5/6
        """

        def compute() -> sympy.Expr:
            s0, s1 = sympy.Dummy("s0", real=True), sympy.Dummy("s1", real=True)
            lo, hi = self.support
            joint = self.p0.subs(self.symbol, s0) * self.p1.subs(self.symbol, s1)
            return sympy.simplify(sympy.integrate(joint, (s0, lo, s1), (s1, lo, hi)))

        return self._memo(("auc_probability",), compute)

    def gain_area(self, pi: Any = PI) -> sympy.Expr:
        """Area under the gain curve: the integral of TPR d(positive rate).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.gain_area(0.5)
        2/3
        """
        pi = self._pi_value(pi)
        return self._memo(
            ("gain_area", pi),
            lambda: self._integral(self._tpr * (pi * self._d1 + (1 - pi) * self._d0)),
        )

    def gini(self, pi: Any = PI) -> sympy.Expr:
        """Normalised Gini from the gain curve: (area - 1/2) / (ideal area - 1/2).

        The ideal gain curve min(rate / pi, 1) has area 1 - pi/2. The result does not
        depend on ``pi`` and equals 2 AUC - 1.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.gini()
        2/3
        """
        pi = self._pi_value(pi)
        return sympy.simplify((self.gain_area(pi) - sympy.Rational(1, 2)) / ((1 - pi) / 2))

    def auc_pr(self, pi: Any = PI) -> sympy.Expr:
        """Area under the PR curve for a share ``pi`` of positives: integral of P dR.

        With ``pi`` left symbolic the closed form is returned as a ``Piecewise`` whose
        special branches are the limits at removable singularities inside (0, 1) (for
        the linear densities: pi = 1/2, where the general formula reads 0/0).
        Rational functions of high degree (e.g. Beta densities) can take sympy a long
        time here.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.auc_pr(0.5)
        5/6
        """
        pi = self._pi_value(pi)
        if pi.is_number:
            return self._memo(
                ("auc_pr", pi), lambda: self._integral(self.precision(THETA, pi) * self._d1)
            )
        return self._auc_pr_symbolic.subs(PI, pi)

    @cached_property
    def _auc_pr_symbolic(self) -> sympy.Expr:
        # Not simplified: simplify folds the logarithms into forms singularities() cannot read.
        general = sympy.integrate(self.precision(THETA, PI) * self._d1, (THETA, *self.support))
        try:
            points = sympy.calculus.util.singularities(general, PI, sympy.Interval.open(0, 1))
        except NotImplementedError:
            return general
        if not isinstance(points, sympy.FiniteSet) or not points:
            return general
        branches = [(sympy.limit(general, PI, s), sympy.Eq(PI, s)) for s in sorted(points)]
        return sympy.Piecewise(*branches, (general, True))
