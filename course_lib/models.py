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
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import sympy
from scipy.optimize import minimize_scalar

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

THETA = sympy.Symbol("theta", real=True)
"""The threshold: the answer is 1 when the score is at least theta."""
PI = sympy.Symbol("pi", positive=True)
"""The share of positives in the population (a symbol, not the number 3.14...)."""
U = sympy.Symbol("u", positive=True)
"""The abscissa of an explicit curve (FPR, recall or positive rate)."""

_X = sympy.Dummy("x", real=True)  # integration variable, never clashes with a user's symbol
_CHECK_POINTS = (sympy.Rational(1, 7), sympy.Rational(1, 2), sympy.Rational(6, 7))
_CHECK_SHARES = (sympy.Rational(1, 10), sympy.Rational(1, 2), sympy.Rational(9, 10))


class ModelCurve(NamedTuple):
    """A curve of a score model.

    ``x`` and ``y`` are the curve in parametric form, expressions in ``theta`` (and
    ``pi`` when the curve depends on the class shares); ``explicit`` is ``y`` as an
    expression in ``u`` (standing for ``x``), or ``None`` when sympy cannot invert
    ``x(theta)``.
    """

    x: sympy.Expr
    y: sympy.Expr
    explicit: sympy.Expr | None


class CurvePoints(NamedTuple):
    """A curve evaluated numerically: thresholds and the points ``(x, y)``, x increasing."""

    theta: np.ndarray
    x: np.ndarray
    y: np.ndarray


class ModelKS(NamedTuple):
    """KS distance max(TPR - FPR), the threshold reaching it, the positive rate there."""

    value: sympy.Expr
    threshold: sympy.Expr
    positive_rate: sympy.Expr


class ModelOptimum(NamedTuple):
    """The maximum of a quantity over thresholds and the threshold reaching it."""

    value: sympy.Expr
    threshold: sympy.Expr


def _exact(value: Any) -> sympy.Expr:
    """A sympy number or expression; floats become the rational they print as."""
    if isinstance(value, (float, np.floating)):
        return sympy.Rational(repr(float(value)))
    return sympy.sympify(value)


class ScoreModel:
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

    def __init__(
        self,
        p0: Any,
        p1: Any,
        *,
        support: tuple[Any, Any] = (0, 1),
        symbol: sympy.Symbol | None = None,
    ) -> None:
        p0, p1 = sympy.sympify(p0), sympy.sympify(p1)
        free = p0.free_symbols | p1.free_symbols
        if symbol is None:
            if len(free) > 1:
                names = ", ".join(sorted(map(str, free)))
                raise ValueError(f"the densities must depend on one symbol only; found {names}")
            symbol = free.pop() if free else sympy.Symbol("b")
        elif not isinstance(symbol, sympy.Symbol):
            raise ValueError(f"symbol must be a sympy Symbol, got {symbol!r}")
        elif free - {symbol}:
            names = ", ".join(sorted(map(str, free - {symbol})))
            raise ValueError(f"the densities must depend on {symbol} only; found also {names}")
        if len(support) != 2:
            raise ValueError(f"support must be a pair (lo, hi), got {support!r}")
        lo, hi = (sympy.sympify(v) for v in support)
        if not (lo.is_extended_real and hi.is_extended_real and bool(lo < hi)):
            raise ValueError(f"support must be real numbers lo < hi, got ({lo}, {hi})")
        self.p0, self.p1, self.symbol, self.support = p0, p1, symbol, (lo, hi)
        self._cache: dict[tuple, Any] = {}
        for name, density in (("p0", p0), ("p1", p1)):
            self._check_density(name, density.subs(symbol, _X))

    def __repr__(self) -> str:
        lo, hi = self.support
        return f"ScoreModel(p0={self.p0}, p1={self.p1}, support=({lo}, {hi}))"

    # ------------------------------------------------------------------ validation
    def _check_density(self, name: str, density: sympy.Expr) -> None:
        lo, hi = self.support
        t = (np.arange(1000) + 0.5) / 1000
        points = self._from_unit(t)
        with np.errstate(all="ignore"):
            values = _numeric(density, _X)(points)
        bad = np.flatnonzero(~(values >= 0))
        if bad.size:
            raise ValueError(
                f"{name} must be non-negative on the support; it is {values[bad[0]]:.4g} "
                f"at {self.symbol} = {points[bad[0]]:.4g}"
            )
        total = sympy.integrate(density, (_X, lo, hi))
        if sympy.simplify(total - 1) != 0:
            raise ValueError(
                f"{name} must integrate to 1 over the support ({lo}, {hi}); "
                f"it integrates to {total}"
            )

    def _from_unit(self, t: np.ndarray) -> np.ndarray:
        """Map [0, 1] increasingly onto the support (infinite ends included)."""
        lo, hi = (float(v) for v in self.support)
        with np.errstate(divide="ignore"):
            if math.isfinite(lo) and math.isfinite(hi):
                return lo + (hi - lo) * t
            if math.isfinite(lo):
                return lo + t / (1 - t)
            if math.isfinite(hi):
                return hi - (1 - t) / t
            return np.log(t / (1 - t))

    def _theta_value(self, theta: Any) -> sympy.Expr:
        theta = _exact(theta)
        lo, hi = self.support
        if theta.is_number and not (bool(lo <= theta) and bool(theta <= hi)):
            raise ValueError(f"theta must lie in the support [{lo}, {hi}], got {theta}")
        return theta

    @staticmethod
    def _pi_value(pi: Any) -> sympy.Expr:
        pi = _exact(pi)
        if pi.is_number and not (bool(pi > 0) and bool(pi < 1)):
            raise ValueError(
                f"pi (the share of positives) must lie strictly between 0 and 1, got {pi}"
            )
        return pi

    def _memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    # ------------------------------------------------------------- basic quantities
    @cached_property
    def _d0(self) -> sympy.Expr:
        return self.p0.subs(self.symbol, THETA)

    @cached_property
    def _d1(self) -> sympy.Expr:
        return self.p1.subs(self.symbol, THETA)

    @cached_property
    def _tpr(self) -> sympy.Expr:
        return sympy.integrate(self.p1.subs(self.symbol, _X), (_X, THETA, self.support[1]))

    @cached_property
    def _fpr(self) -> sympy.Expr:
        return sympy.integrate(self.p0.subs(self.symbol, _X), (_X, THETA, self.support[1]))

    def _integral(self, integrand: sympy.Expr) -> sympy.Expr:
        """Integral over the support in theta, simplified."""
        return sympy.simplify(sympy.integrate(integrand, (THETA, *self.support)))

    def tpr(self, theta: Any = THETA) -> sympy.Expr:
        """True positive rate (recall) at threshold ``theta``: P(score >= theta | y = 1).

        >>> LINEAR_DENSITIES.tpr(0.5)
        3/4
        """
        return self._tpr.subs(THETA, self._theta_value(theta))

    def fpr(self, theta: Any = THETA) -> sympy.Expr:
        """False positive rate at threshold ``theta``: P(score >= theta | y = 0).

        >>> LINEAR_DENSITIES.fpr(0.5)
        1/4
        """
        return self._fpr.subs(THETA, self._theta_value(theta))

    def recall(self, theta: Any = THETA) -> sympy.Expr:
        """Recall at threshold ``theta``: the true positive rate, whatever the class shares.

        >>> LINEAR_DENSITIES.recall()
        1 - theta**2
        """
        return self.tpr(theta)

    def positive_rate(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Share of all objects answered 1 at ``theta``: pi TPR + (1 - pi) FPR.

        >>> LINEAR_DENSITIES.positive_rate(0.5, 0.1)
        3/10
        """
        pi = self._pi_value(pi)
        return pi * self.tpr(theta) + (1 - pi) * self.fpr(theta)

    def precision(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Precision at ``theta`` for a share ``pi`` of positives: pi TPR / positive rate.

        >>> LINEAR_DENSITIES.precision(0.5, 0.5)
        3/4
        """
        pi = self._pi_value(pi)
        return sympy.cancel(pi * self.tpr(theta) / self.positive_rate(theta, pi))

    def accuracy(self, theta: Any = THETA, pi: Any = PI) -> sympy.Expr:
        """Accuracy at ``theta``: pi TPR + (1 - pi)(1 - FPR).

        >>> LINEAR_DENSITIES.accuracy(0.5, 0.5)
        3/4
        """
        pi = self._pi_value(pi)
        return pi * self.tpr(theta) + (1 - pi) * (1 - self.fpr(theta))

    def binarized_auc(self, theta: Any = THETA) -> sympy.Expr:
        """ROC AUC of the 0/1 answer at ``theta``: the area under (0,0)-(FPR,TPR)-(1,1).

        The two trapezoids add up to (1 + TPR - FPR) / 2, the balanced accuracy.

        >>> LINEAR_DENSITIES.binarized_auc(0.5)
        3/4
        """
        f, t = self.fpr(theta), self.tpr(theta)
        return sympy.simplify(f * t / 2 + (1 - f) * (t + 1) / 2)

    # ---------------------------------------------------------------------- curves
    def _explicit(self, x: sympy.Expr, y: sympy.Expr) -> sympy.Expr | None:
        """``y`` as a function of ``u = x``, or None when sympy cannot invert x(theta)."""
        root = self._inverse(x)
        return None if root is None else sympy.simplify(y.subs(THETA, root))

    def _inverse(self, x: sympy.Expr) -> sympy.Expr | None:
        """The branch theta(u) of the solutions of x(theta) = u inside the support.

        A candidate is accepted when, at a few values of u (and of pi, if present), it is
        real, lies in the support and solves the equation numerically.
        """
        try:
            roots = sympy.solve(sympy.Eq(x, U), THETA)
        except NotImplementedError:
            return None
        shares = _CHECK_SHARES if x.has(PI) else (None,)
        lo, hi = (float(v) for v in self.support)
        for root in roots:
            checks = ((u, share) for u in _CHECK_POINTS for share in shares)
            if all(self._solves(root, x, u, share, lo, hi) for u, share in checks):
                return root
        return None

    @staticmethod
    def _solves(root: sympy.Expr, x: sympy.Expr, u: Any, share: Any, lo: float, hi: float) -> bool:
        values = {U: u} if share is None else {U: u, PI: share}
        try:
            t = complex(root.subs(values).evalf())
            if abs(t.imag) > 1e-9 or not lo - 1e-9 <= t.real <= hi + 1e-9:
                return False
            return abs(float(x.subs(values).subs(THETA, t.real).evalf()) - float(u)) < 1e-9
        except (TypeError, ValueError):
            return False

    def roc(self) -> ModelCurve:
        """The ROC curve: (FPR, TPR) parametric in theta, and TPR(FPR) when solvable.

        >>> LINEAR_DENSITIES.roc().explicit
        2*sqrt(u) - u
        """
        return self._memo(
            ("roc",),
            lambda: ModelCurve(self._fpr, self._tpr, self._explicit(self._fpr, self._tpr)),
        )

    def pr(self, pi: Any = PI) -> ModelCurve:
        """The PR curve for a share ``pi`` of positives: (recall, precision).

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

        >>> sympy.factor(LINEAR_DENSITIES.ks_curve(0.5).explicit)
        -2*u*(u - 1)
        """
        gain = self.gain(pi)
        distance = self._tpr - self._fpr
        return ModelCurve(gain.x, distance, self._explicit(gain.x, distance))

    # ---------------------------------------------------------------------- areas
    def auc(self) -> sympy.Expr:
        """Area under the ROC curve: the integral of TPR dFPR = of p0(theta) TPR(theta).

        >>> LINEAR_DENSITIES.auc()
        5/6
        """
        return self._memo(("auc",), lambda: self._integral(self._d0 * self._tpr))

    def auc_probability(self) -> sympy.Expr:
        """P(score of a positive > score of a negative), as the double integral of p0 p1.

        Equal to :meth:`auc` for every model; computed independently, to show it.

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

    # ------------------------------------------------------------------ optima
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

    # ------------------------------------------------------------- numeric side
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

        >>> pts = LINEAR_DENSITIES.points(LINEAR_DENSITIES.roc(), n=3)
        >>> pts.theta.tolist(), pts.x.tolist(), pts.y.tolist()
        ([1.0, 0.5, 0.0], [0.0, 0.25, 1.0], [0.0, 0.75, 1.0])
        """
        if curve.x.has(PI) or curve.y.has(PI):
            raise ValueError("the curve depends on the symbol pi: build it with a numeric pi")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
            raise ValueError(f"n must be an integer >= 2, got {n!r}")
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
        >>> y, s = LINEAR_DENSITIES.sample(10, 0.3, seed=1)
        >>> int(y.sum()), bool(((0 <= s) & (s <= 1)).all())
        (3, True)
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
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


def _numeric(expr: sympy.Expr, symbol: sympy.Symbol) -> Callable[[np.ndarray], np.ndarray]:
    """A numpy function of one array argument; constants broadcast to the input's shape."""
    f = sympy.lambdify(symbol, expr, modules=["scipy", "numpy"])

    def evaluate(values: np.ndarray) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        return np.broadcast_to(np.asarray(f(values), dtype=float), values.shape).copy()

    return evaluate


_b = sympy.Symbol("b")
LINEAR_DENSITIES = ScoreModel(2 - 2 * _b, 2 * _b)
"""The model of sources D and S: negatives' scores have density 2 - 2b, positives' 2b."""
