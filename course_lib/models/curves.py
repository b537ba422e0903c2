"""Curve families of a score model: ROC, PR, gain, lift and KS, each a :class:`ModelCurve`
(parametric in ``theta``, explicit in ``u`` when sympy can invert the abscissa).
"""

from __future__ import annotations

from typing import Any

import sympy

from .core import PI, THETA, ModelCurve, U
from .rates import RatesPart

__all__ = ["CurvesPart"]


class CurvesPart(RatesPart):
    """The curves, parametric in theta and explicit in u where sympy can invert."""

    def roc(self) -> ModelCurve:
        """The ROC curve: (FPR, TPR) parametric in theta, and TPR(FPR) when solvable.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.roc().explicit
        2*sqrt(u) - u
        """
        return self._memo(
            ("roc",),
            lambda: ModelCurve(self._fpr, self._tpr, self._explicit(self._fpr, self._tpr)),
        )

    def pr(self, pi: Any = PI) -> ModelCurve:
        """The PR curve for a share ``pi`` of positives: (recall, precision).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.pr(0.5).explicit
        sqrt(1 - u)/2 + 1/2
        """
        pi = self._pi_value(pi)

        def compute() -> ModelCurve:
            precision = self.precision(THETA, pi)
            return ModelCurve(self._tpr, precision, self._explicit(self._tpr, precision))

        return self._memo(("pr", pi), compute)

    def gain(self, pi: Any = PI) -> ModelCurve:
        """The gain (CAP, Lorenz) curve: (positive rate, TPR).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.gain(0.5).explicit
        u*(2 - u)
        """
        pi = self._pi_value(pi)

        def compute() -> ModelCurve:
            rate = self.positive_rate(THETA, pi)
            return ModelCurve(rate, self._tpr, self._explicit(rate, self._tpr))

        return self._memo(("gain", pi), compute)

    def lift(self, pi: Any = PI) -> ModelCurve:
        """The lift curve: (positive rate, TPR / positive rate).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.lift(0.5).explicit
        2 - u
        """
        gain = self.gain(pi)
        explicit = None if gain.explicit is None else sympy.simplify(gain.explicit / U)
        return ModelCurve(gain.x, sympy.cancel(gain.y / gain.x), explicit)

    def ks_curve(self, pi: Any = PI) -> ModelCurve:
        """The KS chart's distance TPR - FPR against the positive rate.

        For balanced linear densities the rate is 1 - theta, and the distance
        2 theta (1 - theta) = 2 u (1 - u) peaks at u = 1/2 with the value 1/2.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> sympy.factor(LINEAR_DENSITIES.ks_curve(0.5).explicit)
        -2*u*(u - 1)
        """
        gain = self.gain(pi)
        distance = self._tpr - self._fpr
        return ModelCurve(gain.x, distance, self._explicit(gain.x, distance))
