"""One table of the curve kinds the figures draw: labels, frame, reference line, and
where each curve comes from (the sample's curve and the model's exact one).

:func:`~course_lib.plotting.plot_model_curve` and
:func:`~course_lib.plotting.plot_empirical_curves` take ``kind="roc"`` (or ``"pr"``,
``"gain"``, ``"lift"``, ``"ks"``); everything that depends on the kind is read here,
so neither of them switches on the string. A sample's curve is drawn from its
``.xy`` (:class:`course_lib._curves.CurveView`), never recomputed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..gains import gain_curve, ks_curve, lift_curve
from ..pr import pr_curve
from ..roc import roc_curve

__all__ = ["CurveKind", "CURVE_KINDS", "curve_kind"]

_RATE = "RPP (share answered 1)"


def _diagonal(ax: Any, pi: Any, style: dict) -> None:
    ax.plot([0, 1], [0, 1], **style)


def _lift_one(ax: Any, pi: Any, style: dict) -> None:
    ax.axhline(1, **style)


def _precision_pi(ax: Any, pi: Any, style: dict) -> None:
    if pi is not None:
        ax.plot([0, 1], [float(pi), float(pi)], **style)


def _nothing(ax: Any, pi: Any, style: dict) -> None:
    return None


class CurveKind(NamedTuple):
    """Everything a figure needs to know about one kind of curve."""

    xlabel: str
    ylabel: str
    unit_square: bool
    #: Draws the random scorer's reference: ``reference(ax, pi, style)``.
    reference: Callable[[Any, Any, dict], None]
    #: The curve of a sample: ``empirical(y_true, y_score)``, a curve with ``.xy``.
    empirical: Callable[[Any, Any], Any]
    #: The model's exact curve: ``exact(model, pi)``, a ``ModelCurve``.
    exact: Callable[[Any, Any], Any]
    #: Where the legend goes when curves of this kind are compared.
    legend_loc: str


CURVE_KINDS: dict[str, CurveKind] = {
    "roc": CurveKind("FPR", "TPR", True, _diagonal, roc_curve,
                     lambda m, pi: m.roc(), "lower right"),
    "pr": CurveKind("recall R", "precision P", True, _precision_pi, pr_curve,
                    lambda m, pi: m.pr(pi), "best"),
    "gain": CurveKind(_RATE, "TPR", True, _diagonal, gain_curve,
                      lambda m, pi: m.gain(pi), "lower right"),
    "lift": CurveKind(_RATE, "lift = TPR / RPP", False, _lift_one, lift_curve,
                      lambda m, pi: m.lift(pi), "best"),
    "ks": CurveKind(_RATE, "TPR − FPR", False, _nothing, ks_curve,
                    lambda m, pi: m.ks_curve(pi), "best"),
}  # fmt: skip


def curve_kind(kind: Any) -> CurveKind:
    """The entry of ``kind``, or a ValueError listing the kinds.

    >>> curve_kind("roc").xlabel
    'FPR'
    >>> curve_kind("det")
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of roc, pr, gain, lift, ks; got 'det'
    """
    if kind not in CURVE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(CURVE_KINDS)}; got {kind!r}")
    return CURVE_KINDS[kind]
