"""Oracles for the ranking and calibration numbers, written from their definitions.

Nothing here imports course_lib: the numbers are computed object by object (or pair of
distinct scores by pair) in exact arithmetic, Python integers and ``fractions.Fraction``
(a float weight or score is converted exactly), so a test can hold any of the library's
implementations (the in-memory functions, the report, the SQL) against them. Scores are
only compared, never converted, so int64 scores beyond 2**53 keep their order.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import integrate
from scipy.stats import beta as beta_dist
from scipy.stats import norm


def _rows(y: Any, s: Any, w: Any = None) -> list[tuple[bool, Any, Any]]:
    y = [bool(v) for v in np.asarray(y).tolist()]
    s = np.asarray(s).tolist()
    if w is None:
        ws: list[Any] = [1] * len(y)
    else:
        ws = [int(v) if float(v).is_integer() else Fraction(v) for v in np.asarray(w).tolist()]
    return list(zip(y, s, ws))


def groups(y: Any, s: Any, w: Any = None, *, empty: bool = False
           ) -> list[tuple[Any, Any, Any]]:
    """(score, positive weight, negative weight) per distinct score, decreasing; a
    score whose objects all weigh 0 is no rule's boundary and is left out (unless
    ``empty``)."""
    g: dict[Any, list[Any]] = {}
    for label, score, weight in _rows(y, s, w):
        g.setdefault(score, [0, 0])[0 if label else 1] += weight
    return [(k, g[k][0], g[k][1]) for k in sorted(g, reverse=True)
            if empty or g[k][0] + g[k][1]]


def roc_points(y: Any, s: Any, w: Any = None) -> tuple[list[Any], list[Any], list[Any]]:
    """Exact (fpr, tpr) of the rules ``score >= t`` (t = inf first), and the t."""
    g = groups(y, s, w)
    m1 = sum(p for _, p, _ in g)
    m0 = sum(n for _, _, n in g)
    fpr, tpr, ts = [Fraction(0)], [Fraction(0)], [math.inf]
    tp = fp = 0
    for score, p, n in g:
        tp, fp = tp + p, fp + n
        fpr.append(Fraction(fp) / m0)
        tpr.append(Fraction(tp) / m1)
        ts.append(score)
    return fpr, tpr, ts


def auc(y: Any, s: Any, w: Any = None) -> Fraction:
    """P(score of a positive > score of a negative), a tie counting 1/2: every pair of
    a positive and a negative (taken by distinct score, weights multiplied).

    The weights are counted in units of their common denominator (a float weight is a
    fraction whose denominator is a power of two), so that every product and sum is one
    of Python integers, exact as the fractions are and some 40 times faster; the
    scale cancels in the ratio. Scores that hold no positive (no negative) weight add
    nothing and are left out of the pairs."""
    g = groups(y, s, w)
    scale = math.lcm(*(Fraction(v).denominator for _, p, n in g for v in (p, n)))
    pos = [(a, int(p * scale)) for a, p, _ in g if p]
    neg = [(b, int(n * scale)) for b, _, n in g if n]
    won = sum(p * n * (2 if a > b else 1 if a == b else 0)
              for a, p in pos for b, n in neg)
    m1 = sum(p for _, p in pos)
    m0 = sum(n for _, n in neg)
    return Fraction(won, 2 * m1 * m0)


def ks(y: Any, s: Any, w: Any = None) -> tuple[Fraction, Any, Fraction]:
    """(max TPR - FPR over the rules score >= t, its first (highest) t, the share of
    the weight selected there); the empty rule (t = inf) gives 0."""
    fpr, tpr, ts = roc_points(y, s, w)
    gaps = [b - a for a, b in zip(fpr, tpr)]
    k = gaps.index(max(gaps))
    total = sum(p + n for _, p, n in groups(y, s, w))
    chosen = sum(p + n for score, p, n in groups(y, s, w) if k and score >= ts[k])
    return gaps[k], ts[k], Fraction(chosen) / total


def partial_auc(y: Any, s: Any, w: Any = None, max_fpr: Any = Fraction(1, 10)) -> Fraction:
    """The area under the ROC polyline from FPR 0 to ``max_fpr`` (interpolated)."""
    x = Fraction(max_fpr)
    fpr, tpr, _ = roc_points(y, s, w)
    area = Fraction(0)
    for (x0, y0), (x1, y1) in zip(zip(fpr, tpr), zip(fpr[1:], tpr[1:])):
        if x0 >= x:
            break
        if x1 > x:
            y1, x1 = y0 + (y1 - y0) * (x - x0) / (x1 - x0), x
        area += (x1 - x0) * (y0 + y1) / 2
    return area


def mcclish(partial: Fraction, max_fpr: Any = Fraction(1, 10)) -> Fraction:
    """McClish's standardization: (1 + (A - min) / (max - min)) / 2, min = x^2 / 2."""
    x = Fraction(max_fpr)
    low = x * x / 2
    return (1 + (partial - low) / (x - low)) / 2


def average_precision(y: Any, s: Any, w: Any = None) -> Fraction:
    """sum over the rules score >= t of (recall step) x precision."""
    total = Fraction(0)
    tp = fp = 0
    g = groups(y, s, w)
    m1 = sum(p for _, p, _ in g)
    for _, p, n in g:
        tp, fp = tp + p, fp + n
        if p:
            total += Fraction(p) / m1 * Fraction(tp) / (tp + fp)
    return total


def upper_hull(fpr: list[Fraction], tpr: list[Fraction]) -> tuple[list[Fraction],
                                                                   list[Fraction], Fraction]:
    """The upper convex hull of exact points (increasing FPR, collinear points
    removed), from the lowest point of the smallest FPR, and the area under it."""
    pts = sorted(set(zip(fpr, tpr)))
    hull: list[tuple[Fraction, Fraction]] = []
    for p in pts:
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= 0:  # b not above
                hull.pop()
            else:
                break
        hull.append(p)
    xs, ys = [p[0] for p in hull], [p[1] for p in hull]
    area = sum(((x1 - x0) * (y0 + y1) / 2 for x0, y0, x1, y1 in
                zip(xs, ys, xs[1:], ys[1:])), Fraction(0))
    return xs, ys, area


def h_measure(y: Any, s: Any, w: Any = None) -> float:
    """Hand's H: 1 - L / L_max with L = int min_t [c pi0 FPR_t + (1 - c) pi1 (1 - TPR_t)]
    u(c) dc over every ROC point t, u the Beta(2, 1 + pi0 / pi1) density (the R
    package's default severity ratio pi1 / pi0), and L_max the loss of the best of the
    two trivial rules. Integrated numerically (scipy.integrate.quad) piece by piece
    between the costs where the best rule changes."""
    fpr, tpr, _ = roc_points(y, s, w)
    g = groups(y, s, w)
    m1 = sum(p for _, p, _ in g)
    pi1 = Fraction(m1) / sum(p + n for _, p, n in g)
    pi0 = 1 - pi1
    a, b = 2.0, float(1 + pi0 / pi1)
    hx, hy, _ = upper_hull(fpr, tpr)
    if len(hx) == 2:
        return 0.0
    # the best rule changes where two neighbouring hull vertices lose the same
    breaks = sorted({float(pi1 * (y1 - y0) / (pi1 * (y1 - y0) + pi0 * (x1 - x0)))
                     for x0, y0, x1, y1 in zip(hx, hy, hx[1:], hy[1:])} | {0.0, 1.0})
    f0, f1 = float(pi0), float(pi1)
    points = [(float(x), float(t)) for x, t in zip(fpr, tpr)]
    u = beta_dist(a, b).pdf

    def loss(c: float) -> float:
        return min(c * f0 * x + (1 - c) * f1 * (1 - t) for x, t in points) * u(c)

    def trivial(c: float) -> float:
        return min(c * f0, (1 - c) * f1) * u(c)

    opts = dict(epsabs=0.0, epsrel=1e-13, limit=200)
    total = sum(integrate.quad(loss, lo, hi, **opts)[0] for lo, hi in zip(breaks, breaks[1:]))
    worst = (integrate.quad(trivial, 0.0, f1, **opts)[0]
             + integrate.quad(trivial, f1, 1.0, **opts)[0])
    return 1 - total / worst


def placements(y: Any, s: Any) -> tuple[list[Fraction], list[Fraction]]:
    """DeLong's placement values by definition: for each positive the share of the
    negatives it beats (ties 1/2), for each negative the share of the positives that
    beat it."""
    rows = _rows(y, s)
    pos = [v for lab, v, _ in rows if lab]
    neg = [v for lab, v, _ in rows if not lab]

    def kernel(a: Any, b: Any) -> int:
        return 2 if a > b else 1 if a == b else 0

    v10 = [Fraction(sum(kernel(a, b) for b in neg), 2 * len(neg)) for a in pos]
    v01 = [Fraction(sum(kernel(a, b) for a in pos), 2 * len(pos)) for b in neg]
    return v10, v01


def _cov(a: list[Fraction], b: list[Fraction]) -> Fraction:
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    return sum((x - ma) * (z - mb) for x, z in zip(a, b)) / (len(a) - 1)


def delong(y: Any, s: Any, level: float = 0.95) -> tuple[Fraction, Fraction, float, float]:
    """(AUC, DeLong's variance S10 / m1 + S01 / m0, and the normal interval clipped to
    [0, 1])."""
    v10, v01 = placements(y, s)
    a = sum(v10) / len(v10)
    var = _cov(v10, v10) / len(v10) + _cov(v01, v01) / len(v01)
    half = float(norm.ppf((1 + level) / 2)) * math.sqrt(var)
    return a, var, max(0.0, float(a) - half), min(1.0, float(a) + half)


def delong_paired(y: Any, a: Any, b: Any, level: float = 0.95
                  ) -> tuple[Fraction, float, float, float, float]:
    """DeLong's paired test: (difference, z, two-sided p, low, high of the Wald
    interval), with Var(A - B) from the 2 x 2 covariances of the placements."""
    a10, a01 = placements(y, a)
    b10, b01 = placements(y, b)
    diff = sum(a10) / len(a10) - sum(b10) / len(b10)
    var = ((_cov(a10, a10) + _cov(b10, b10) - 2 * _cov(a10, b10)) / len(a10)
           + (_cov(a01, a01) + _cov(b01, b01) - 2 * _cov(a01, b01)) / len(a01))
    se = math.sqrt(var)
    z = float(diff) / se if se else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    p = float(2 * norm.sf(abs(z)))
    half = float(norm.ppf((1 + level) / 2)) * se
    return diff, z, p, float(diff) - half, float(diff) + half


def gains_counts(y: Any, s: Any, n_bins: int) -> dict[int, tuple[int, int]]:
    """Bins by the gains table's rule, object by object: sorted by decreasing score, a
    tie group goes whole to the bin of its first member, at position i: bin
    i * n_bins // n (from 0). {bin: (positives, negatives)}, empty bins left out."""
    rows = _rows(y, s)
    n = len(rows)
    out: dict[int, list[int]] = {}
    position = 0
    for _score, p, q in groups(y, s):
        k = position * n_bins // n
        c = out.setdefault(k, [0, 0])
        c[0] += p
        c[1] += q
        position += p + q
    return {k: (v[0], v[1]) for k, v in out.items()}


def gains_table(y: Any, s: Any, n_bins: int = 10) -> list[dict[str, Any]]:
    """The gains table's rows (bin numbered from 1, columns as in source D: % in
    0..100, Prob and the counts), each column an exact Fraction or integer."""
    counts = gains_counts(y, s, n_bins)
    n1 = sum(p for p, _ in counts.values())
    n0 = sum(q for _, q in counts.values())
    n = n1 + n0
    rows = []
    c1 = c0 = 0
    for k in sorted(counts):
        p, q = counts[k]
        c1, c0 = c1 + p, c0 + q
        cum = Fraction(100 * (c1 + c0), n)
        rows.append({
            "bin": k + 1, "N": p + q, "%": Fraction(100 * (p + q), n), "cum_%": cum,
            "Prob": Fraction(p, p + q), "N_1": p, "%_1": Fraction(100 * p, n1),
            "cum_N1": c1, "cum_%1": Fraction(100 * c1, n1), "N_0": q,
            "%_0": Fraction(100 * q, n0), "cum_N0": c0, "cum_%0": Fraction(100 * c0, n0),
            "K-S": Fraction(100 * c1, n1) - Fraction(100 * c0, n0),
            "Lift": Fraction(100 * c1, n1) / cum,
        })
    return rows


def calibration_bins(y: Any, p: Any, w: Any = None, n_bins: int = 10
                     ) -> list[tuple[Any, Fraction, Fraction]]:
    """Equal-width bins of [0, 1] (a probability on an inner edge belongs to the bin
    below, as in scikit-learn): (weight, share of positives, mean probability) of every
    non-empty bin, in bin order."""
    edges = np.linspace(0.0, 1.0, n_bins + 1)[1:-1]
    bins: dict[int, list[Any]] = {}
    for label, prob, weight in _rows(y, p, w):
        k = int(np.searchsorted(edges, prob, side="left"))
        b = bins.setdefault(k, [0, 0, Fraction(0)])
        b[0] += weight
        b[1] += weight * label
        b[2] += weight * Fraction(prob)
    return [(b[0], Fraction(b[1]) / b[0], b[2] / b[0]) for _, b in sorted(bins.items())
            if b[0] > 0]


def ece(y: Any, p: Any, w: Any = None, n_bins: int = 10) -> Fraction:
    """sum over the bins of (bin weight / total) |share of positives - mean prob|."""
    bins = calibration_bins(y, p, w, n_bins)
    total = sum(b[0] for b in bins)
    return sum((Fraction(b[0]) / total * abs(b[1] - b[2]) for b in bins), Fraction(0))
