"""Score models: two class densities, and every curve of the book in closed form.

A *score model* describes a classifier by the densities of its scores: ``p0`` on the
negatives (label 0) and ``p1`` on the positives (label 1), on an interval ``support``.
The rule "answer 1 when the score is at least theta" has

    TPR(theta) = integral of p1 from theta to the top of the support,
    FPR(theta) = integral of p0 from theta to the top of the support,

and everything else follows: the ROC curve and its area, precision and the PR curve
for a share ``pi`` of positives, the gain (CAP), lift and KS curves, the best accuracy.
sympy does the calculus, so the answers are exact expressions: ``auc()`` of the
linear-density model of the book is the rational number 5/6, not 0.8333.

Conventions
-----------
* Expressions are in the threshold symbol :data:`THETA` (``ScoreModel.theta``) and the
  positive share :data:`PI` (``ScoreModel.pi``); an explicit curve ``y(x)`` is written
  in :data:`U` (``ScoreModel.u``), which stands for its abscissa (FPR for the ROC
  curve, recall for the PR curve, the positive rate for gain and lift).
* Methods taking ``theta`` or ``pi`` accept a number or leave the symbol in place.
  Floats are read as the decimals they print as (0.1 -> 1/10), so results stay exact.
* Derived quantities are cached per model, so repeated calls are cheap.
* Where sympy finds no closed form the model says so: an explicit curve is ``None``,
  a maximum falls back to numerical optimisation (a ``sympy.Float``), and sampling
  inverts the CDF by bisection.

The class is composed of parts, one module each, all building on
:class:`~course_lib.models.core.ModelBase` (the densities, their validation and
integrals): :mod:`~course_lib.models.rates` (one threshold),
:mod:`~course_lib.models.curves` (ROC, PR, gain, lift, KS curves),
:mod:`~course_lib.models.areas` (AUC, Gini, AUC-PR), :mod:`~course_lib.models.optima`
(KS distance, best accuracy) and :mod:`~course_lib.models.numeric` (points for plotting,
sampling).
"""

from __future__ import annotations

import sympy

from .areas import AreasPart
from .core import PI, THETA, CurvePoints, ModelCurve, ModelKS, ModelOptimum, U
from .curves import CurvesPart
from .numeric import NumericPart
from .optima import OptimaPart

__all__ = [
    "THETA",
    "PI",
    "U",
    "ModelCurve",
    "CurvePoints",
    "ModelKS",
    "ModelOptimum",
    "ScoreModel",
    "LINEAR_DENSITIES",
]


class ScoreModel(CurvesPart, AreasPart, OptimaPart, NumericPart):
    """Class-conditional score densities and their exact curves.

    Parameters
    ----------
    p0, p1 : sympy expression (or a string sympy can parse)
        Densities of the scores of the negatives (label 0) and of the positives
        (label 1), in one symbol.
    support : (lo, hi), default (0, 1)
        The interval of the scores; ``sympy.oo`` is allowed at either end.
    symbol : sympy.Symbol, optional
        The score variable; by default the one free symbol of the densities.

    Raises
    ------
    ValueError
        If a density uses other symbols, is negative at one of 1000 points spread over
        the support, or does not integrate to 1 over it.

    Examples
    --------
    The linear-density model of the book (source D): negatives ``2 - 2b``, positives
    ``2b``. TPR(theta) is the area of p1 above theta, 1 - theta^2.

    >>> b = sympy.Symbol("b")
    >>> model = ScoreModel(2 - 2 * b, 2 * b)
    >>> model.tpr()
    1 - theta**2
    >>> model.tpr(0.5), model.auc()
    (3/4, 5/6)
    >>> ScoreModel(2 - 2 * b, b)
    Traceback (most recent call last):
    ...
    ValueError: p1 must integrate to 1 over the support (0, 1); it integrates to 1/2
    """

    theta = THETA
    pi = PI
    u = U

_b = sympy.Symbol("b")
LINEAR_DENSITIES = ScoreModel(2 - 2 * _b, 2 * _b)
"""The model of sources D and S: negatives' scores have density 2 - 2b, positives' 2b."""
