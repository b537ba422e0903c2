"""The core of a score model: two class densities, validated, and their integrals.

:class:`ModelBase` holds what every part of :class:`~course_lib.models.ScoreModel`
reads: the densities ``p0``, ``p1`` and their ``support`` (validated: one symbol,
non-negative, integrating to 1), the threshold quantities in closed form (``_tpr``,
``_fpr``: integrals of the densities above ``theta``), the cache of derived results, the
checks of ``theta`` and ``pi``, and the inversion of a curve's abscissa ``x(theta) = u``
that makes a parametric curve explicit. It also defines the symbols and the result types
of :mod:`course_lib.models`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import sympy

__all__ = ["THETA", "PI", "U", "ModelCurve", "CurvePoints", "ModelKS", "ModelOptimum", "ModelBase"]

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



class ModelBase:
    """Two class densities on a support, validated; the parts of
    :class:`~course_lib.models.ScoreModel` build on it (see there for the parameters)."""

    theta = THETA
    pi = PI
    u = U

    def __init__(self, p0: Any, p1: Any, *, support: tuple[Any, Any] = (0, 1),
                 symbol: sympy.Symbol | None = None) -> None:
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
        total = _definite(density, _X, lo, hi)
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
        return sympy.simplify(_definite(integrand, THETA, *self.support))

    # ------------------------------------------------------------------ inversion
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


def _definite(expr: sympy.Expr, var: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr) -> sympy.Expr:
    """The integral of ``expr`` over ``var`` from ``lo`` to ``hi``.

    A polynomial in ``var`` alone with rational coefficients, between finite numbers, is
    integrated term by term (``sympy.Poly``): the same exact number as
    ``sympy.integrate`` gives, about forty times sooner (0.8 against 35 ms for the AUC
    integrand of :data:`~course_lib.models.LINEAR_DENSITIES`; the variants of chapter
    10's exercises build a model each). Anything else goes to ``sympy.integrate``.

    >>> b = sympy.Symbol("b")
    >>> _definite(2 * b, b, sympy.Integer(0), sympy.Rational(1, 2))
    1/4
    """
    if (expr.free_symbols <= {var} and lo.is_number and hi.is_number and lo.is_finite
            and hi.is_finite and expr.is_polynomial(var)):
        poly = sympy.Poly(expr, var)
        if all(c.is_Rational for c in poly.coeffs()):
            antiderivative = poly.integrate()
            return antiderivative.eval(hi) - antiderivative.eval(lo)
    return sympy.integrate(expr, (var, lo, hi))


def _numeric(expr: sympy.Expr, symbol: sympy.Symbol) -> Callable[[np.ndarray], np.ndarray]:
    """A numpy function of one array argument; constants broadcast to the input's shape."""
    f = sympy.lambdify(symbol, expr, modules=["scipy", "numpy"])

    def evaluate(values: np.ndarray) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        return np.broadcast_to(np.asarray(f(values), dtype=float), values.shape).copy()

    return evaluate


