"""Runs the accumulators of :mod:`course_lib.report._stream` over an engine and builds
the report: a plain, JSON-able dict (see ``REPORT.md`` for its keys).

Passes over the score groups of each score column: one for every number that needs
only the class totals (given up front by the engine's summary), a second for the
DeLong variance (it needs the AUC) and the score-distribution figure (it needs the
range); with ``by``, two over the segment groups; with two or more scores, for each
pair one over its pair groups joined with one more over the groups of the score with
more distinct values (the other score's placements are held as a table, one row per
distinct score: the only memory that grows with the data); with a baseline, two over
the baseline's groups and one more over the data's.

Counts (no weights or integer weights, which are frequency weights) give exact
fractions and DeLong intervals; fractional weights give floats and no interval. The
KS is ``max(TPR - FPR)`` as :func:`course_lib.ks_statistic` defines it (not the
absolute value), so Youden's J point and the KS point are the same threshold.

Exact fractions are written ``{"fraction": "p/q", "value": float}``; a number that is
undefined is ``None`` (with a note in ``"notes"``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from importlib import metadata
from itertools import chain, groupby
from typing import Any

import numpy as np
import pandas as pd

from .._checks import check_integer
from .._stream import (
    CLIP,
    ApAcc,
    AucAcc,
    BandAcc,
    CalibrationAcc,
    Cumulator,
    CurvesAcc,
    DeLongAcc,
    DistributionAcc,
    GainsAcc,
    HullAcc,
    KsAcc,
    OperatingAcc,
    PartialAcc,
    PlacementTable,
    Totals,
    citl_counts,
    decile_lows,
    delong_cut,
    delong_interval,
    hosmer_lemeshow_counts,
    logistic_recalibration,
    paired_delong,
    psi,
    psi_value,
    run,
    unpaired_delong,
)
from ..calibration import band_rule, bands_frame, binomial_interval, recalibration
from ..partial import h_measure_from_hull, range_end
from ._engine import CHUNK, Engine, Groups, Summary, is_missing, plain_segment, segment_key
from ._refuse import refuse
from ._weights import (
    REPLICATES,
    SEED,
    Bootstrap,
    apply_bootstrap,
    check_bootstrap,
    weight_kind_of,
    weights_block,
)

__all__ = ["compute", "LINKS", "number", "check_options", "check_guards", "too_few", "PSI_EPS",
           "MIN_CLASS", "MAX_LEVELS", "H_PRIORS", "PSI_BINS"]

#: Fewest positives and fewest negatives a subgroup (segment, period) needs for an
#: interval: below, its numbers are given without one, and a note says why.
MIN_CLASS = 10

#: Most distinct values a segment column may have (``--by``); more is refused.
MAX_LEVELS = 50

#: The H-measure's Beta(alpha, beta) cost density, by name: ``"r"`` is the R package
#: hmeasure's default Beta(2, 1 + pi0/pi1) (mode at c = pi1); ``"hand"`` is Hand's
#: (2009) symmetric Beta(2, 2).
H_PRIORS: dict[str, str] = {
    "r": "Beta(2, 1 + π0/π1), the default of the R package hmeasure",
    "hand": "Beta(2, 2), Hand's (2009) symmetric prior",
}

#: How the PSI's bins are cut, as the report states it.
PSI_BINS = ("ten bins cut at the baseline's deciles of the score, a group of tied scores "
            "kept whole in one bin (so a bin may hold more or less than a tenth)")


def check_guards(min_class: Any, max_levels: Any, h_prior: Any) -> tuple[int, int, str]:
    """Validated ``(min_class, max_levels, h_prior)``; a ValueError names a bad one.

    >>> check_guards(10, 50, "hand")
    (10, 50, 'hand')
    >>> check_guards(10, 0, "r")
    Traceback (most recent call last):
    ...
    ValueError: max_levels must be a positive integer, got 0
    """
    min_class = check_integer(min_class, "min_class", low=0)
    max_levels = check_integer(max_levels, "max_levels", low=1)
    if h_prior not in H_PRIORS:
        raise ValueError(f"h_prior must be one of {', '.join(map(repr, H_PRIORS))}, "
                         f"got {h_prior!r}")
    return min_class, max_levels, str(h_prior)


def too_few(what: str, m1: Any, m0: Any, min_class: int) -> str | None:
    """The note for a subgroup (``what``: "p: segment 'A'", "p: period 2024-03") with
    fewer than ``min_class`` positives or negatives (counts, or frequency weights):
    its numbers are given without an interval. None when it has enough.

    >>> too_few("p: segment 'A'", 3, 40, 10)
    "p: segment 'A' has 3 positives and 40 negatives, fewer than 10 of a class: no interval"
    >>> too_few("p: segment 'B'", 12, 40, 10) is None
    True
    """
    if m1 >= min_class and m0 >= min_class:
        return None
    return (f"{what} has {_shown_count(m1)} positives and {_shown_count(m0)} negatives, "
            f"fewer than {min_class} of a class: no interval")


def _shown_count(x: Any) -> str:
    v = float(x)
    return str(int(v)) if v.is_integer() else f"{v:.6g}"


def split_segments(chunks: Iterable[Groups]) -> Iterator[tuple[Any, Groups]]:
    """Pieces of the chunks of a ``by`` stream, one segment each, in stream order."""
    for ch in chunks:
        seg = ch.segment
        if seg is None:
            yield None, ch
            continue
        n = len(seg)
        if n == 0:
            continue
        change = np.flatnonzero(np.asarray(seg[1:] != seg[:-1], dtype=bool)) + 1
        if change.size:  # two missing values (NaN != NaN) are one segment
            both = np.asarray(pd.isna(seg[change]), dtype=bool) & np.asarray(
                pd.isna(seg[change - 1]), dtype=bool)
            change = change[~both]
        bounds = np.concatenate(([0], change, [n]))
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            yield seg[lo], Groups(ch.score[lo:hi], ch.pos[lo:hi], ch.neg[lo:hi], seg[lo:hi])


def _segment_runs(chunks: Iterable[Groups]) -> Iterator[tuple[Any, Iterator[Groups]]]:
    """Each segment of a ``by`` stream once, in stream order: its value (as its first
    piece has it) and its pieces (a segment over two chunks is one run)."""
    for _, run_ in groupby(split_segments(chunks), key=lambda item: segment_key(item[0])):
        items = iter(run_)
        seg, piece = next(items)
        yield seg, chain([piece], (p for _, p in items))


#: The share a PSI bin counts when it is empty (see :func:`course_lib._stream.psi`).
PSI_EPS = 1e-4

#: Each metric's section of the book (relative to the book's root): the one table of
#: the report's links (the page's ``_html.BOOK_SECTIONS`` is this dict;
#: ``tests/test_report_page.py`` checks each against the chapters' headings).
LINKS: dict[str, str] = {
    "auc": "notebooks/03_auc_pairs.html#one-number-three-ways",
    "auc_ci": "notebooks/11_sampling.html#confidence-intervals-for-the-auc",
    "gini": "notebooks/06_gini_ml.html#gini-2-auc-1",
    "ks": "notebooks/08_gain_lift_ks.html#the-kolmogorov-smirnov-chart",
    "average_precision": "notebooks/07_pr_curves.html#two-areas-under-the-curve",
    "pr_baseline": "notebooks/07_pr_curves.html#the-floor-of-pr-space",
    "partial_auc": "notebooks/17_partial_auc_h_measure.html#mcclish-s-standardization",
    "h_measure": "notebooks/17_partial_auc_h_measure.html#the-h-measure",
    "roc": "notebooks/02_roc_grid.html#the-walk",
    "hull": "notebooks/02_roc_grid.html#sec-roc-hull",
    "pr": "notebooks/07_pr_curves.html#two-areas-under-the-curve",
    "gain": "notebooks/08_gain_lift_ks.html#the-gain-curve-of-table-1",
    "lift": "notebooks/08_gain_lift_ks.html#the-gain-curve-of-table-1",
    "gains_table": "notebooks/08_gain_lift_ks.html#the-decile-gains-table",
    "ties": "notebooks/14_warehouse.html#the-decile-table-without-splitting-a-tie",
    "brier": "notebooks/15_calibration.html#the-brier-score-and-murphy-s-decomposition",
    "ece": "notebooks/15_calibration.html#the-expected-calibration-error-and-its-bins",
    "reliability": "notebooks/15_calibration.html#the-reliability-diagram",
    "operating_points": "notebooks/02_roc_grid.html#choosing-a-threshold",
    "cost": "notebooks/09_cost_curves.html#operating-conditions-in-one-number",
    "comparison": "notebooks/18_validation_report.html"
                  "#two-scores-of-the-same-people-the-paired-test",
    "segments": "notebooks/18_validation_report.html"
                "#segments-and-a-pooled-auc-that-no-segment-reaches",
    "stability": "notebooks/18_validation_report.html#stability-has-the-population-moved",
    "cost_optimal": "notebooks/02_roc_grid.html"
                    "#iso-performance-lines-and-the-best-operating-point",
    "weights": "notebooks/03_auc_pairs.html#weights-a-grid-of-unequal-cells",
    "imbalance": "notebooks/11_sampling.html#imbalanced-classes",
    "gains_ties": "notebooks/14_warehouse.html#the-decile-table-without-splitting-a-tie",
    "calibration_bands": "notebooks/15_calibration.html#calibration-is-not-ranking",
    "recalibration": "notebooks/15_calibration.html"
                     "#recalibration-platt-scaling-and-isotonic-regression",
    "baseline_test": "notebooks/11_sampling.html#confidence-intervals-for-the-auc",
    "periods": "notebooks/18_validation_report.html#stability-has-the-population-moved",
}


def number(value: Any) -> Any:
    """A number as JSON: a Fraction as ``{"fraction", "value"}``, nan as None.

    >>> number(Fraction(3, 4))
    {'fraction': '3/4', 'value': 0.75}
    >>> number(float("nan")) is None
    True
    """
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    v = float(value)
    return v if math.isfinite(v) else None


def _ratio(a: Any, b: Any, integral: bool) -> Any:
    """``a / b``: an exact fraction for counts, else a float."""
    return Fraction(int(a), int(b)) if integral else float(a) / float(b)


def _in_units(x: Any, t: Totals) -> Any:
    """A sum of the accumulators in the weights' own units (fractional weights are scaled)."""
    return x if t.integral else x / t.scale


def check_options(
    max_fpr: Any, costs: Any, top: Any, level: Any
) -> tuple[float | Fraction, tuple[float, float] | None, tuple[float, ...], float]:
    """Validated ``(max_fpr, costs, top, level)``; a ValueError names a bad one."""
    b = range_end(max_fpr, "max_fpr")
    if b == 0:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    pair: tuple[float, float] | None = None
    if costs is not None:
        if isinstance(costs, (str, bytes)) or not hasattr(costs, "__len__") or len(costs) != 2:
            raise ValueError(f"costs must be a pair (FP cost, FN cost), got {costs!r}")
        vals = []
        for c in costs:
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, (numbers.Real, np.number)):
                raise ValueError(f"costs must be non-negative numbers, got {costs!r}")
            v: Any = int(c) if isinstance(c, (numbers.Integral, np.integer)) else float(c)
            if not (math.isfinite(v) and v >= 0):
                raise ValueError(f"costs must be finite non-negative numbers, got {costs!r}")
            vals.append(v)
        if vals[0] == 0 and vals[1] == 0:
            raise ValueError("costs must not both be zero")
        pair = (vals[0], vals[1])
    if isinstance(top, (numbers.Real, np.number)):
        top = (top,)
    shares = []
    for q in top:
        if isinstance(q, (bool, np.bool_)) or not isinstance(q, (numbers.Real, np.number)):
            raise ValueError(f"top must hold percentages in (0, 100], got {top!r}")
        if not 0 < float(q) <= 100:
            raise ValueError(f"top must hold percentages in (0, 100], got {q!r}")
        shares.append(float(q))
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0 < float(level) < 1:
        raise ValueError(f"level must be a number strictly between 0 and 1, got {level!r}")
    return b, pair, tuple(shares), float(level)


def _interval(what: str, auc: Any, variance: float, level: float,
              notes: list[str]) -> tuple[float, float]:
    """DeLong's interval of ``auc``; where the normal interval reaches below 0 or past
    1 it is cut there (:func:`course_lib._stream.delong_interval`), and a note says so.

    >>> notes = []
    >>> _interval("p", 0.99, 1e-4, 0.95, notes), notes
    ((0.9704..., 1.0), ['p: the DeLong interval reaches past 1 and is cut there ...'])
    """
    edges = delong_cut(float(auc), variance, level)
    if edges:
        notes.append(f"{what}: the DeLong interval reaches past {' and '.join(map(str, edges))} "
                     "and is cut there (a normal interval is poor this close to the edge)")
    return delong_interval(float(auc), variance, level)


def _version() -> str:
    try:
        return metadata.version("course_lib")
    except metadata.PackageNotFoundError:  # pragma: no cover - not installed
        return "unknown"


def _point(name: str, score: Any, tp: Any, fp: Any, t: Totals) -> dict[str, Any]:
    """An operating point: select the objects scoring at least ``threshold``."""
    return {
        "name": name,
        "threshold": None if score is None else _thr(score),
        "tp": number(_in_units(tp, t)),
        "fp": number(_in_units(fp, t)),
        "tpr": number(_ratio(tp, t.m1, t.integral)),
        "fpr": number(_ratio(fp, t.m0, t.integral)),
        "precision": number(_ratio(tp, tp + fp, t.integral) if tp + fp > 0 else None),
        "rate": number(_ratio(tp + fp, t.n, t.integral)),
    }


def _score_report(
    engine: Engine,
    name: str,
    summary: Summary,
    *,
    max_fpr: float | Fraction,
    costs: tuple[float, float] | None,
    top: tuple[float, ...],
    level: float,
    chunk: int,
    keep_placements: bool,
    notes: list[str],
    h_prior: str = "r",
    delong_ok: bool = True,
) -> tuple[dict[str, Any], int | None, PlacementTable | None]:
    t = Totals.of(summary.positives, summary.negatives, summary.integral)
    cum = Cumulator(t)
    auc, ks, ap = AucAcc(t), KsAcc(t), ApAcc(t)
    part, hull, gains = PartialAcc(t, max_fpr), HullAcc(t), GainsAcc(t)
    prob = summary.probabilities[name]
    calib = CalibrationAcc(t) if prob else None
    ops = OperatingAcc(t, costs, top)
    curves = CurvesAcc(t, gains)
    high: Any = None
    low: Any = None
    for g in engine.groups(name, chunk=chunk):
        st = cum.step(g)
        if st.score.size == 0:
            continue
        if high is None:
            high = st.score[0]
        low = st.score[-1]
        auc.update(st)
        ks.update(st)
        ap.update(st)
        part.update(st)
        hull.update(st)
        gains.update(st)
        if calib is not None:
            calib.update(st)
        ops.update(st)
        curves.update(st)
    a = auc.result()
    # second pass: DeLong (needs the AUC) and the distribution (needs the range)
    lo_f, hi_f = (0.0, 1.0) if prob else (float(low), float(high))
    dist = DistributionAcc(t, lo_f, hi_f)
    delong = (DeLongAcc(t, int(auc.num), keep=keep_placements) if t.integral and delong_ok
              else None)
    cum2 = Cumulator(t)
    for g in engine.groups(name, chunk=chunk):
        st = cum2.step(g)
        dist.update(st)
        if delong is not None:
            delong.update(st)
    variance = delong.variance() if delong is not None else math.nan
    if delong is None and delong_ok:
        notes.append(
            f"{name}: no DeLong interval: the weights are not integers (the interval "
            "counts objects; fractional weights have no sample size)"
        )
    elif delong_ok and math.isnan(variance):
        notes.append(f"{name}: no DeLong interval: fewer than two objects of a class")
    lo, hi = _interval(name, a, variance, level, notes)
    hx, hy, harea = hull.result()
    pi1 = float(t.m1) / float(t.n)
    pa, pm = part.result()
    ksv = ks.result()
    ks2, ks_direction, ks2_score = ks.two_sided()
    h_beta: Any = None if h_prior == "r" else 2
    h_value = h_measure_from_hull(hx, hy, pi1, beta=h_beta)
    points = [
        dict(_point("youden", ks.score, ks.tp, ks.fp, t), j=number(ksv)),
        dict(_point("ks", ks.score, ks.tp, ks.fp, t), ks=number(ksv)),
    ]
    op = ops.result()
    if costs is not None:
        s, tp, fp = op["cost"]
        point = _point("cost", s, tp, fp, t)
        point["costs"] = list(costs)
        point["cost"] = number(_in_units(op["cost_value"], t))
        points.append(point)
    for q in top:
        if q in op["top"]:
            s, tp, fp = op["top"][q]
            point = _point(f"top {q:g}%", s, tp, fp, t)
            point["top"] = q
            points.append(point)
    gini = 2 * a - 1
    if gains.result() is None:
        notes.append(f"{name}: no gains table: fewer objects ({t.n}) than its ten bins")
    out: dict[str, Any] = {
        "auc": number(a),
        "auc_ci": [number(lo), number(hi)],
        "auc_se": number(math.sqrt(variance) if math.isfinite(variance) else None),
        "auc_variance": number(variance),
        "gini": number(gini),
        "gini_ci": [number(2 * lo - 1), number(2 * hi - 1)],
        "ks": number(ksv),
        "ks_score": ks.threshold(),
        "ks_two_sided": {"value": number(ks2), "direction": ks_direction,
                         "threshold": ks2_score},
        "average_precision": number(ap.result()),
        "pr_baseline": number(_ratio(t.m1, t.n, t.integral)),
        "partial_auc": {"max_fpr": number(max_fpr), "value": number(pa),
                        "mcclish": number(pm)},
        "h_measure": number(h_value),
        "h_measure_prior": {"name": h_prior, "alpha": 2,
                            "beta": number(2 if h_prior == "hand" else 1 + (1 - pi1) / pi1),
                            "text": H_PRIORS[h_prior]},
        "hull_auc": number(harea),
        "brier": None,
        "ece": None,
        "gains_table": gains.result(),
        "operating_points": points,
        "curves": {},
    }
    c = curves.result()
    c["ks"]["ks_rate"] = points[1]["rate"]["value"] if isinstance(
        points[1]["rate"], dict) else points[1]["rate"]
    c["hull"] = {"fpr": hx.tolist(), "tpr": hy.tolist()}
    c["distribution"] = dist.result()
    if calib is not None:
        cr = calib.result()
        out["brier"], out["ece"] = number(cr["brier"]), number(cr["ece"])
        c["reliability"] = _reliability(cr["reliability"], t, level, counts=delong_ok)
    else:
        c["reliability"] = None
    out["curves"] = c
    table = delong.table() if delong is not None and keep_placements else None
    return out, (int(auc.num) if t.integral else None), table


def _reliability(r: dict[str, Any], t: Totals, level: float,
                 counts: bool = True) -> dict[str, Any]:
    """The reliability bins with the Jeffreys interval of each bin's observed rate
    (:func:`course_lib.binomial_interval`); counts only: a weight sum is not a number
    of objects, so with fractional weights, or sampling weights (``counts`` false),
    the bounds are None."""
    n = len(r["weight"])
    counts = counts and t.integral
    if counts and n:
        low, high = binomial_interval(r["positives"], r["weight"], level=level)
        lows, highs = low.tolist(), high.tolist()
    else:
        lows, highs = [None] * n, [None] * n
    return {**r, "ci_low": lows, "ci_high": highs,
            "interval": {"method": "jeffreys", "level": level} if counts else None}


def _segments(
    engine: Engine, name: str, by: str, summary: Summary, level: float, chunk: int,
    notes: list[str], min_class: int = MIN_CLASS,
    warnings: list[dict[str, Any]] | None = None, delong_ok: bool = True,
    what: str = "segment",
) -> list[dict[str, Any]]:
    """Per value of ``by`` (a ``what``: segment, period, as the notes name it): its
    weight, positives, AUC with DeLong's interval (unless ``delong_ok`` is false, or it
    has fewer than ``min_class`` of a class), Gini and the two KS."""
    g_totals = Totals.of(summary.positives, summary.negatives, summary.integral)
    scale = g_totals.scale
    first: dict[Any, tuple[Any, Any, Any]] = {}  # segment -> (m1, m0, numerator)
    order: list[Any] = []
    for seg, pieces in _segment_runs(engine.groups(name, by=by, chunk=chunk)):
        order.append(seg)
        cum, acc = Cumulator(g_totals), AucAcc(g_totals)
        for piece in pieces:
            acc.update(cum.step(piece))
        first[segment_key(seg)] = (cum.tp, cum.fp, acc.num)
    # second pass: KS (needs the segment's totals) and DeLong (needs its AUC)
    state: dict[Any, tuple[Totals, Cumulator, KsAcc, DeLongAcc | None]] = {}
    for seg, piece in split_segments(engine.groups(name, by=by, chunk=chunk)):
        k = segment_key(seg)
        if k not in state:
            m1, m0, num = first[k]
            t = Totals(m1, m0, summary.integral, scale)
            ok = m1 > 0 and m0 > 0
            dl = DeLongAcc(t, int(num)) if ok and summary.integral and delong_ok else None
            state[k] = (t, Cumulator(t), KsAcc(t), dl)
        t, c, ksa, dl = state[k]
        if not (t.m1 > 0 and t.m0 > 0):
            continue
        st = c.step(piece)
        ksa.update(st)
        if dl is not None:
            dl.update(st)
    rows = []
    for seg in order:
        k = segment_key(seg)
        m1, m0, num = first[k]
        t, _, ksa, dl = state[k]
        row: dict[str, Any] = {
            "score": name,
            "segment": plain_segment(seg),
            "n": number(_in_units(m1 + m0, g_totals)),
            "positives": number(_in_units(m1, g_totals)),
        }
        if not (m1 > 0 and m0 > 0):
            notes.append(f"{name}: {what} {seg!r} has one class only: no AUC")
            row.update(auc=None, auc_ci=[None, None], gini=None, ks=None,
                       ks_two_sided=None, ks_direction=None)
        else:
            a = AucAcc(t)
            a.num = num
            auc = a.result()
            variance = dl.variance() if dl is not None else math.nan
            few = too_few(f"{name}: {what} {seg!r}", _in_units(m1, g_totals),
                          _in_units(m0, g_totals), min_class)
            if few is not None:
                notes.append(few)
                variance = math.nan
            lo, hi = _interval(f"{name}: {what} {seg!r}", auc, variance, level, notes)
            ks2, direction, _ = ksa.two_sided()
            row.update(auc=number(auc), auc_ci=[number(lo), number(hi)],
                       gini=number(2 * auc - 1), ks=number(ksa.result()),
                       ks_two_sided=number(ks2), ks_direction=direction)
            if warnings is not None and auc < Fraction(1, 2):
                warnings.append(_warning(
                    "auc_below_half", name,
                    f"{name}: in {what} {seg!r} the AUC is {float(auc):.4f}, below 0.5: "
                    "the score ranks this segment backwards", segment=plain_segment(seg)))
        rows.append(row)
    return rows


def _same(a: Any, b: Any) -> bool:
    return bool((is_missing(a) and is_missing(b)) or (not is_missing(a) and a == b))


def _reference_bins(stream: Callable[[], Iterable[Groups]],
                    n: int | float) -> tuple[list[Any], np.ndarray]:
    """The tie-aware decile bins of a reference's groups (``stream()``, read twice; ``n``
    its total count or weight): each bin's lowest score, top bin first, and its counts."""
    lows = decile_lows(stream(), n)
    return lows, psi(stream(), lows)["counts"]


def _baseline_bins(baseline: Engine, name: str, chunk: int) -> tuple[list[Any], np.ndarray]:
    """:func:`_reference_bins` of the baseline's groups of ``name``."""
    s = baseline.summary()
    n = int(s.positives) + int(s.negatives) if s.integral else float(s.positives) + float(s.negatives)
    return _reference_bins(lambda: baseline.groups(name, chunk=chunk), n)


def _stability(engine: Engine, baseline: Engine, name: str, chunk: int) -> dict[str, Any]:
    lows, expected = _baseline_bins(baseline, name, chunk)
    actual = psi(engine.groups(name, chunk=chunk), lows)["counts"]
    e_share, a_share = expected / expected.sum(), actual / actual.sum()
    bins = []
    for j, low in enumerate(lows):
        bins.append({
            "bin": j + 1,
            "low": None if j == len(lows) - 1 else _thr(low),
            "high": None if j == 0 else _thr(lows[j - 1]),
            "baseline": number(expected[j]),
            "data": number(actual[j]),
            "baseline_share": number(e_share[j]),
            "data_share": number(a_share[j]),
        })
    return {"score": name, "psi": number(psi_value(actual, expected, PSI_EPS)), "bins": bins,
            "eps": PSI_EPS, "binning": PSI_BINS}


def _warning(code: str, score: str, message: str, **more: Any) -> dict[str, Any]:
    """One entry of the report's ``"warnings"``: a code, the score, the message."""
    return {"code": code, "score": score, **more, "message": message}


def _score_warnings(name: str, block: dict[str, Any], summary: Summary) -> list[dict[str, Any]]:
    """What may mislead in one score's numbers: a constant score, a score that
    separates the classes perfectly (it equals or determines the label), an AUC
    below 1/2 (the score runs the wrong way, or the positive class is the other)."""
    auc = block["auc"]
    value = auc["value"] if isinstance(auc, dict) else auc
    out = []
    if summary.distinct[name] == 1:
        out.append(_warning(
            "constant_score", name,
            f"{name}: the score is constant (one distinct value): it ranks nothing, "
            "its AUC is 0.5 by ties alone"))
    elif value is not None and value in (0.0, 1.0):
        out.append(_warning(
            "perfect_separation", name,
            f"{name}: the AUC is exactly {value:g}: the score separates the classes "
            "perfectly; is it the label itself, or computed from it (a leak)?"))
    if value is not None and value < 0.5:
        out.append(_warning(
            "auc_below_half", name,
            f"{name}: the AUC is {value:.4f}, below 0.5: the score ranks the negatives "
            "above the positives; check the positive class (pos_label) and whether "
            "larger scores should mean more likely positive"))
    return out


def _class_rows(engine: Engine, k: int) -> int | None:
    rows = getattr(engine, "class_rows", None)
    return None if rows is None else int(rows[k])


def _score_range(engine: Engine, name: str, chunk: int) -> tuple[Any, Any]:
    """The lowest and the highest score of ``name`` (one pass over its groups)."""
    high: Any = None
    low: Any = None
    for g in engine.groups(name, chunk=chunk):
        if g.score.size:
            if high is None:
                high = g.score[0]
            low = g.score[-1]
    return low, high


def _check_overlap(engine: Engine, baseline: Engine, name: str, chunk: int) -> None:
    """Refuse a baseline whose range of the score ``name`` does not overlap the data's:
    the PSI would put every row in one bin and read a shift of scale as a shift of
    population (points against probabilities, a score rescaled)."""
    lo, hi = _score_range(engine, name, chunk)
    blo, bhi = _score_range(baseline, name, chunk)
    if None in (lo, hi, blo, bhi):
        return
    if hi < blo or bhi < lo:
        raise ValueError(
            f"the baseline's scores of {name!r} lie in [{_thr(blo):g}, {_thr(bhi):g}] and "
            f"the data's in [{_thr(lo):g}, {_thr(hi):g}]: the ranges do not overlap, so the "
            "two are not on one scale (points against probabilities?); rescale one of them")


def _check_levels(engine: Engine, name: str, by: str, max_levels: int, chunk: int) -> None:
    """Refuse a segment column of more than ``max_levels`` values (counted on the
    segment groups of one score, stopping as soon as there are too many)."""
    for count, _ in enumerate(_segment_runs(engine.groups(name, by=by, chunk=chunk)), start=1):
        if count > max_levels:  # a segment over two chunks counts once
            raise refuse.too_many_levels(by, max_levels)


def _auc_value(x: Any) -> float:
    """An AUC of the report's blocks (a float, or an exact fraction's dict) as a float."""
    return float(x["value"]) if isinstance(x, dict) else float(x)


def _thr(v: Any) -> int | float:
    return int(v) if isinstance(v, (int, np.integer)) else float(v)


#: How the calibration table's bands are cut, as the report states it (by rule).
BAND_TEXT: dict[str, str] = {
    "deciles": "ten bands cut at the deciles of the score as the gains table cuts them "
               "(sorted by decreasing score, a group of tied scores kept whole in one band)",
    "grades": "one band per distinct score (a rating scale: at most 20 distinct scores)",
    "given": "the values of the bands column",
}

#: Why the tests that count objects (binomial, Jeffreys, Hosmer-Lemeshow, the z of
#: calibration-in-the-large, Wald and DeLong intervals) are left out, by the weights.
NO_COUNT_TESTS: dict[str, str] = {
    "sampling": "the weights are sampling weights: the binomial, Jeffreys, Hosmer-Lemeshow "
                "and DeLong tests and the Wald intervals count objects, and a sampling "
                "weight is not a count of objects",
    "fractional": "the weights are not integers: the tests count objects",
}

#: What the band tests test, as the report states it.
BAND_TESTS_TEXT = (
    "one-sided: H0 the band's PD (its mean score) is right, the alternative that its true "
    "default rate is higher; Jeffreys (the test of the ECB's instructions for reporting IRB "
    "validation results): the CDF at the PD of the posterior Beta(d + 1/2, n - d + 1/2); "
    "binomial (the classical exact test of the same question): P(X >= d) for "
    "X ~ Binomial(n, PD)")


def _calibration_bands(
    engine: Engine, name: str, summary: Summary, level: float, chunk: int,
    notes: list[str], sampling: bool = False,
) -> dict[str, Any] | None:
    """The calibration table of a probability score: per band the obligors, positives,
    mean score, observed rate and the one-sided binomial and Jeffreys tests; over the
    bands Hosmer-Lemeshow; over everything calibration-in-the-large and the logistic
    recalibration (intercept and slope with Wald intervals).

    The tests and the intervals count obligors: with sampling weights, or weights that
    are not integers, they are left out (None) and ``"omitted"`` says why; the bands'
    numbers, the observed and expected rates and the fitted slope and intercept stay."""
    if not summary.probabilities[name]:
        notes.append(f"{name}: no calibration by band: the scores are not all in [0, 1] "
                     "(not probabilities)")
        return None
    t = Totals.of(summary.positives, summary.negatives, summary.integral)
    column = getattr(engine, "bands", None)
    rule = band_rule(summary.distinct[name], given=column is not None)
    acc = BandAcc(t, rule)
    if column is not None:
        cum = Cumulator(t)
        for seg, piece in split_segments(engine.groups(name, by=column, chunk=chunk)):
            acc.update(cum.step(piece), segment_key(seg))
    else:
        run(engine.groups(name, chunk=chunk), t, acc)
    counts = acc.result()
    counted = summary.integral and not sampling  # the weights count obligors
    omitted = None if counted else NO_COUNT_TESTS["sampling" if sampling else "fractional"]
    frame = bands_frame(counts, counted)
    rows = []
    for key, rec in zip(counts.keys, frame.to_dict("records")):
        row = {k: number(v) if k not in ("band", "max_score", "min_score") else v
               for k, v in rec.items()}
        row["band"] = plain_segment(None if key == ("<missing>",) else key)
        if not counted:
            row["binomial_p"] = row["jeffreys_p"] = None
        rows.append(row)
    stat, df, p_hl = hosmer_lemeshow_counts(counts.obligors, counts.positives, counts.sum_p)
    citl = citl_counts(counts.obligors.sum(), counts.positives.sum(), counts.sum_p.sum(),
                       counts.sum_pq.sum())
    if not counted:  # the statistic too: with weights it scales with their sum
        stat = p_hl = math.nan
        citl.update(z=math.nan, p_value=math.nan)
        notes.append(f"{name}: no tests of calibration by band: {omitted}")
    fit = logistic_recalibration(_reread(engine, name, None, summary, chunk), t, clip=CLIP)
    rec = recalibration(fit, level, counted)
    if not rec.converged:
        notes.append(f"{name}: no calibration slope: the score is constant or separates "
                     "the classes (the logistic fit has no maximum)")
    if rec.clipped:
        notes.append(f"{name}: {number(rec.clipped)} scores of exactly 0 or 1 were taken as "
                     f"{CLIP:g} or 1 - {CLIP:g} for the calibration slope (their logit is "
                     "infinite)")
    return {
        "rule": rule,
        "column": column,
        "cut": BAND_TEXT[rule],
        "tests": BAND_TESTS_TEXT,
        "omitted": omitted,
        "bands": rows,
        "hosmer_lemeshow": {"statistic": number(stat), "df": df, "p_value": number(p_hl),
                            "bands": len(rows)},
        "in_the_large": {k: number(v) for k, v in citl.items()},
        "recalibration": {
            "intercept": number(rec.intercept),
            "intercept_ci": [number(rec.intercept_low), number(rec.intercept_high)],
            "slope": number(rec.slope),
            "slope_ci": [number(rec.slope_low), number(rec.slope_high)],
            "converged": rec.converged,
            "clip": CLIP,
            "clipped": number(rec.clipped),
        },
    }


def _auc_variance(engine: Engine, name: str, chunk: int,
                  variance: bool = True) -> tuple[Any, float]:
    """The AUC (exact for counts) and DeLong's variance of a score of ``engine``
    (nan for fractional weights, fewer than two of a class, or ``variance`` false):
    two passes, one without the variance."""
    s = engine.summary()
    t = Totals.of(s.positives, s.negatives, s.integral)
    auc = AucAcc(t)
    run(engine.groups(name, chunk=chunk), t, auc)
    if not t.integral or not variance:
        return auc.result(), math.nan
    dl = DeLongAcc(t, int(auc.num))
    run(engine.groups(name, chunk=chunk), t, dl)
    return auc.result(), dl.variance()


def _baseline_test(engine: Engine, baseline: Engine, name: str, block: dict[str, Any],
                   level: float, chunk: int, notes: list[str],
                   sampling: bool = False) -> dict[str, Any]:
    """The unpaired DeLong test of the data's AUC of ``name`` against the baseline's
    (two independent samples, as pROC's ``roc.test(paired = FALSE)``). With sampling
    weights only the two AUCs and their difference: DeLong's variance counts objects,
    so the test and the intervals are None and ``"omitted"`` says why."""
    auc = block["auc"]
    var_a = math.nan if sampling or block["auc_variance"] is None else block["auc_variance"]
    b_auc, var_b = _auc_variance(baseline, name, chunk, variance=not sampling)
    r = unpaired_delong(_auc_value(auc), var_a, float(b_auc), var_b, level)
    b_lo, b_hi = delong_interval(float(b_auc), var_b, level)
    omitted = None
    if sampling:
        omitted = NO_COUNT_TESTS["sampling"]
        notes.append(f"{name}: no test of the AUC against the baseline: {omitted}")
    elif not math.isfinite(r["p_value"]):
        omitted = ("a DeLong variance is undefined (weights that are not integers, or "
                   "fewer than two of a class)")
        notes.append(f"{name}: no test of the AUC against the baseline: {omitted}")
    return {"score": name, "test": "unpaired DeLong (two independent samples)",
            "auc": auc, "baseline_auc": number(b_auc),
            "baseline_auc_ci": [number(b_lo), number(b_hi)],
            "difference": number(r["difference"]), "z": number(r["z"]),
            "p_value": number(r["p_value"]), "ci": [number(r["low"]), number(r["high"])],
            "omitted": omitted}


def _one_segment(chunks: Iterable[Groups], key: Any) -> Iterator[Groups]:
    """The pieces of one segment of a ``by`` stream."""
    for seg, piece in split_segments(chunks):
        if _same(seg, key):
            yield piece


#: At most this many groups are kept in memory for a stream read many times (the
#: recalibration's Newton passes, the periods' PSI): one query instead of several.
KEEP_GROUPS = 2**20


def _reread(engine: Engine, name: str, by: str | None, summary: Summary,
            chunk: int) -> Callable[[], Iterable[Groups]]:
    """A stream of the groups of ``name`` (split ``by``) to read several times: kept
    in memory when there are at most :data:`KEEP_GROUPS` (the same chunks each time),
    else asked of the engine again at each read."""
    if summary.used > KEEP_GROUPS:
        return lambda: engine.groups(name, by=by, chunk=chunk)
    kept = list(engine.groups(name, by=by, chunk=chunk))
    return lambda: kept


def _periods(engine: Engine, baseline: Engine | None, name: str, period: str,
             summary: Summary, level: float, chunk: int, notes: list[str],
             min_class: int, sampling: bool = False) -> list[dict[str, Any]]:
    """Per period (in the column's order): rows, positives, positive rate, AUC and Gini
    with DeLong intervals and KS (the segments' numbers, :func:`_segments`), and the
    PSI against the first period, or against the baseline when there is one. A period
    without an interval says why in ``"omitted"`` (one class, too few of a class, or
    sampling weights: DeLong's variance counts objects)."""
    rows = _segments(engine, name, period, summary, level, chunk, notes, min_class,
                     delong_ok=not sampling, what="period")
    if rows and sampling:
        notes.append(f"{name}: no interval of the AUC or Gini per period: "
                     f"{NO_COUNT_TESTS['sampling']}")
    if not rows:
        return []
    stream = _reread(engine, name, period, summary, chunk)
    if baseline is not None:
        lows, expected = _baseline_bins(baseline, name, chunk)
    else:
        first = rows[0]["segment"]
        n_ref: Any = sum(float(c[1].sum()) + float(c[2].sum()) for c in
                         _one_segment(stream(), first))
        lows, expected = _reference_bins(lambda: _one_segment(stream(), first),
                                         int(n_ref) if summary.integral else n_ref)
    counts: dict[Any, np.ndarray] = {}
    for seg, piece in split_segments(stream()):
        k = segment_key(seg)
        counts[k] = psi([piece], lows, counts=counts.get(k))["counts"]
    out = []
    for row in rows:
        n, pos = row["n"], row["positives"]
        lo, hi = row["auc_ci"]
        omitted = None
        if row["auc"] is None:
            omitted = "one class only"
        elif lo is None:
            omitted = (NO_COUNT_TESTS["sampling"] if sampling else too_few(
                "the period", pos, n - pos, min_class) or "a DeLong variance is undefined")
        out.append({
            "score": name, "period": row["segment"], "n": n, "positives": pos,
            "positive_rate": number(_ratio(pos, n, summary.integral)),
            "auc": row["auc"], "auc_ci": row["auc_ci"], "gini": row["gini"],
            "gini_ci": [None if lo is None else 2 * lo - 1, None if hi is None else 2 * hi - 1],
            "ks": row["ks"], "ks_two_sided": row["ks_two_sided"],
            "ks_direction": row["ks_direction"],
            "psi": number(psi_value(counts[segment_key(row["segment"])], expected, PSI_EPS)),
            "interval": None if omitted else "delong", "omitted": omitted,
        })
    return out


def compute(
    engine: Engine,
    *,
    baseline: Engine | None = None,
    max_fpr: Any = 0.1,
    costs: Any = None,
    top: Any = (1, 5, 10, 20),
    level: float = 0.95,
    chunk: int = CHUNK,
    command: str | Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    min_class: int = MIN_CLASS,
    max_levels: int = MAX_LEVELS,
    h_prior: str = "r",
    weight_kind: str | None = None,
    replicates: int = REPLICATES,
    seed: int = SEED,
) -> dict[str, Any]:
    """The report of the scores of ``engine`` (segments by ``engine.by``) as a dict.

    ``options`` (label, weight, pos_label, engine, ...) are recorded in the report's
    ``"options"`` with the settings used; ``progress(stage)`` is called as each stage
    starts. A segment with fewer than ``min_class`` positives or negatives gets no
    interval (a note says so); a segment column of more than ``max_levels`` values,
    and a baseline whose range of a score does not overlap the data's, are refused
    (ValueError) before any number is computed; ``h_prior`` names the H-measure's
    cost density (:data:`H_PRIORS`). What may mislead a reader (an AUC below 1/2, a
    score that determines the label, a constant score) goes to ``"warnings"``.
    ``weight_kind`` says what the weights are (:func:`._weights.weight_kind_of`:
    integer weights without it are frequency weights, other weights need it); with
    ``"sampling"`` the intervals of the AUC, Gini, KS and the paired differences, per
    score and per segment, are bootstrap percentile intervals of ``replicates``
    replicates drawn with ``seed`` (:class:`._weights.Bootstrap`), not DeLong's.
    """
    b, pair, shares, level = check_options(max_fpr, costs, top, level)
    min_class, max_levels, h_prior = check_guards(min_class, max_levels, h_prior)
    step = progress if progress is not None else (lambda stage: None)
    step("summary")
    summary = engine.summary()
    replicates, seed = check_bootstrap(replicates, seed)
    kind, kind_stated = weight_kind_of(summary, weight_kind)
    sampling = kind == "sampling"
    notes: list[str] = []
    warnings: list[dict[str, Any]] = []
    names = tuple(engine.scores)
    if engine.by is not None:
        _check_levels(engine, names[0], engine.by, max_levels, chunk)
    bands_col, period = getattr(engine, "bands", None), getattr(engine, "period", None)
    for column in (bands_col, period):  # bands and periods: as few levels as segments
        if column is not None:
            _check_levels(engine, names[0], column, max_levels, chunk)
    if baseline is not None:
        for name in names:
            _check_overlap(engine, baseline, name, chunk)
    scores: dict[str, Any] = {}
    u2: dict[str, int | None] = {}
    tables: dict[str, PlacementTable | None] = {}
    # each pair streams the score with more distinct values and looks the other's
    # placements up in a table (one row per distinct score): the smaller table
    pairs = [(x, y_) if summary.distinct[x] >= summary.distinct[y_] else (y_, x)
             for i, x in enumerate(names) for y_ in names[i + 1:]]
    tabled = {p[1] for p in pairs}
    for name in names:
        step(f"score {name}")
        scores[name], u2[name], tables[name] = _score_report(
            engine, name, summary, max_fpr=b, costs=pair, top=shares, level=level,
            chunk=chunk, keep_placements=name in tabled, notes=notes, h_prior=h_prior,
            delong_ok=not sampling,
        )
        warnings += _score_warnings(name, scores[name], summary)
        step(f"calibration by band of {name}")
        scores[name]["calibration_bands"] = _calibration_bands(engine, name, summary, level,
                                                               chunk, notes, sampling)
    comparison = []
    t = Totals.of(summary.positives, summary.negatives, summary.integral)
    for i, a in enumerate(names):
        for bname in names[i + 1:]:
            ua, ub = u2[a], u2[bname]
            if ua is None or ub is None or sampling:
                diff = _auc_value(scores[a]["auc"]) - _auc_value(scores[bname]["auc"])
                comparison.append({"a": a, "b": bname, "auc_difference": number(diff),
                                   "z": None, "p_value": None, "ci": [None, None]})
                continue
            first, second = (a, bname) if (a, bname) in pairs else (bname, a)
            table = tables[second]
            assert table is not None
            step(f"comparison {a} - {bname}")
            r = paired_delong(engine.pair_groups(first, second, chunk=chunk),
                              engine.groups(first, chunk=chunk), table, t,
                              int(u2[first] or 0), int(u2[second] or 0), level)
            z, low, high = r["z"], r["low"], r["high"]
            if first != a:  # the test of b - a, turned around (negation is exact)
                z, low, high = 0.0 - z, 0.0 - high, 0.0 - low  # 0.0 - 0.0 is not -0.0
            comparison.append({
                "a": a, "b": bname,
                "auc_difference": number(Fraction(ua - ub, 2 * int(t.m1) * int(t.m0))),
                "z": number(z), "p_value": number(r["p_value"]),
                "ci": [number(low), number(high)],
            })
    segments: list[dict[str, Any]] = []
    if engine.by is not None:
        for name in names:
            step(f"segments of {name}")
            segments += _segments(engine, name, engine.by, summary, level, chunk, notes,
                                  min_class, warnings, delong_ok=not sampling)
    boot: Bootstrap | None = None
    if sampling:
        step("bootstrap")
        boot = Bootstrap(engine, replicates=replicates, seed=seed, level=level,
                         min_class=min_class, chunk=chunk)
        apply_bootstrap(boot, scores, comparison, segments, notes)
    else:
        for block in scores.values():
            block.update(interval="delong" if block["auc_ci"][0] is not None else None,
                         ks_ci=[None, None], ks_two_sided_ci=[None, None])
    stability = []
    if baseline is not None:
        for name in names:
            step(f"stability of {name}")
            stability.append(_stability(engine, baseline, name, chunk))
    baseline_test = []
    if baseline is not None:
        for name in names:
            step(f"AUC against the baseline of {name}")
            baseline_test.append(_baseline_test(engine, baseline, name, scores[name], level,
                                                chunk, notes, sampling))
    periods: list[dict[str, Any]] = []
    if period is not None:
        for name in names:
            step(f"periods of {name}")
            periods += _periods(engine, baseline, name, period, summary, level, chunk, notes,
                                min_class, sampling)
    n = summary.positives + summary.negatives
    tied = {k: number(v) for k, v in summary.tied_rows.items()}
    return {
        "version": _version(),
        "command": command if command is None or isinstance(command, str) else list(command),
        "inputs": engine.inputs(),
        "baseline_inputs": baseline.inputs() if baseline is not None else None,
        "summary": {
            "rows": summary.rows,
            "used": summary.used,
            "dropped_label": summary.dropped_label,
            "dropped_score": dict(summary.dropped_score),
            "positives": number(int(summary.positives) if summary.integral
                                else summary.positives),
            "negatives": number(int(summary.negatives) if summary.integral
                                else summary.negatives),
            "positive_rate": number(_ratio(summary.positives, n, summary.integral)),
            "weighted": summary.weighted,
            "integral": summary.integral,
            "distinct": dict(summary.distinct),
            "tied_rows": tied,
            "tied_share": {k: number(v / summary.used) for k, v in summary.tied_rows.items()},
            "probabilities": dict(summary.probabilities),
            "positive_label": getattr(engine, "positive_label", None),
            "positive_rows": _class_rows(engine, 0),
            "negative_rows": _class_rows(engine, 1),
        },
        "options": {**(options or {}), "scores": list(names), "by": engine.by,
                    "bands": bands_col, "period": period,
                    "max_fpr": number(b), "costs": list(pair) if pair else None,
                    "top": list(shares), "level": level, "min_class": min_class,
                    "max_levels": max_levels, "h_prior": h_prior,
                    "weight_kind": kind, "replicates": replicates if sampling else None,
                    "seed": seed if sampling else None},
        "scores": scores,
        "comparison": comparison,
        "segments": segments,
        "stability": stability,
        "baseline_test": baseline_test,
        "periods": periods,
        "period_psi_reference": (None if period is None else
                                 "baseline" if baseline is not None else "first period"),
        "links": dict(LINKS),
        "notes": notes,
        "warnings": warnings,
        "weights": weights_block((options or {}).get("weight"), kind, kind_stated),
        "bootstrap": boot.statement() if boot is not None else None,
    }
