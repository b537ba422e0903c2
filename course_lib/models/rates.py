"""Threshold quantities of a score model: TPR, FPR, recall, positive rate, precision,
accuracy and the AUC of the 0/1 answer, as expressions in ``theta`` (and ``pi``).
"""

from __future__ import annotations

from typing import Any

import sympy

from .core import PI, THETA, ModelBase

__all__ = ["RatesPart"]


class RatesPart(ModelBase):
    """The quantities of one threshold: rates, precision, accuracy."""

    def tpr(self, theta: Any = THETA) -> sympy.Expr:
        """True positive rate (recall) at threshold ``theta``: P(score >= theta | y = 1).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.tpr(0.5)
        3/4
        """
        return self._tpr.subs(THETA, self._theta_value(theta))

    def fpr(self, theta: Any = THETA) -> sympy.Expr:
        """False positive rate at threshold ``theta``: P(score >= theta | y = 0).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.fpr(0.5)
        1/4
        """
        return self._fpr.subs(THETA, self._theta_value(theta))

    def recall(self, theta: Any = THETA) -> sympy.Expr:
        """Recall at threshold ``theta``: the true positive rate, whatever the class shares.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.recall()
        1 - theta**2
        """
        return self.tpr(theta)

    def positive_rate(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Share of all objects answered 1 at ``theta``: pi TPR + (1 - pi) FPR.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.positive_rate(0.5, 0.1)
        3/10
        """
        pi = self._pi_value(pi)
        return pi * self.tpr(theta) + (1 - pi) * self.fpr(theta)

    def precision(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Precision at ``theta`` for a share ``pi`` of positives: pi TPR / positive rate.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.precision(0.5, 0.5)
        3/4
        """
        pi = self._pi_value(pi)
        return sympy.cancel(pi * self.tpr(theta) / self.positive_rate(theta, pi))

    def accuracy(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Accuracy at ``theta``: pi TPR + (1 - pi)(1 - FPR).

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.accuracy(0.5, 0.5)
        3/4
        """
        pi = self._pi_value(pi)
        return pi * self.tpr(theta) + (1 - pi) * (1 - self.fpr(theta))

    def binarized_auc(self, theta: Any = THETA) -> sympy.Expr:
        """ROC AUC of the 0/1 answer at ``theta``: the area under (0,0)-(FPR,TPR)-(1,1).

        The two trapezoids add up to (1 + TPR - FPR) / 2, the balanced accuracy.

        >>> from course_lib.models import LINEAR_DENSITIES
        >>> LINEAR_DENSITIES.binarized_auc(0.5)
        3/4
        """
        f, t = self.fpr(theta), self.tpr(theta)
        return sympy.simplify(f * t / 2 + (1 - f) * (t + 1) / 2)
