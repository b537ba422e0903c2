"""Known wrong answers to the function exercises: the typical mistakes a student makes.

Written here, in the tests, independently of the answer key's own ``wrong_versions``
(which name mistakes in the feedback), so that the public cases are measured against
mistakes they were not chosen from. ``KNOWN_WRONG[exercise_id](ex)`` gives the wrong
functions of one exercise instance (the book's or a variant, whose data some mistakes
depend on) as ``(name, function)`` pairs, each called with the exercise's keyword
arguments like a student's answer.

Some entries are right on some instances (ignoring the limit of ``k`` positives is the
book's own answer, the variant's mistake); the tests judge every entry by its outputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

Wrong = tuple[str, Callable[..., Any]]

NAN = float("nan")


# ----------------------------------------------------------------- pair counting
def _split(y_true: Any, y_score: Any) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(y_true).astype(bool)
    b = np.asarray(y_score, dtype=float)
    return b[y], b[~y]


def _won(pos: np.ndarray, neg: np.ndarray, tie: float = 0.5) -> float:
    d = pos[:, None] - neg[None, :]
    return float(((d > 0) + tie * (d == 0)).sum())


def _auc(y_true: Any, y_score: Any, tie: float = 0.5, *, missing: float = NAN,
         reverse: bool = False, raw: bool = False, all_pairs: bool = False) -> float:
    pos, neg = _split(y_true, y_score)
    if reverse:
        pos, neg = -pos, -neg
    if pos.size == 0 or neg.size == 0:
        return missing
    won = _won(pos, neg, tie)
    if raw:
        return won
    n = pos.size + neg.size
    return won / (n * (n - 1) / 2 if all_pairs else pos.size * neg.size)


def _auc_ordinal_ranks(y_true: Any, y_score: Any) -> float:
    """Mann-Whitney with ranks from argsort: ties broken by position."""
    y = np.asarray(y_true).astype(bool)
    b = np.asarray(y_score, dtype=float)
    m1, m0 = int(y.sum()), int((~y).sum())
    if m1 == 0 or m0 == 0:
        return NAN
    ranks = np.empty(b.size)
    ranks[np.argsort(b, kind="stable")] = np.arange(1, b.size + 1)
    return float((ranks[y].sum() - m1 * (m1 + 1) / 2) / (m1 * m0))


def _auc_wrong(ex: Any) -> list[Wrong]:
    return [
        ("raw pair count", lambda y_true, y_score: _auc(y_true, y_score, raw=True)),
        ("0.0 for a missing class", lambda y_true, y_score: _auc(y_true, y_score,
                                                                  missing=0.0)),
        ("ZeroDivisionError for a missing class", _auc_zero_division),
        ("ties count 0", lambda y_true, y_score: _auc(y_true, y_score, 0.0)),
        ("ties count 1", lambda y_true, y_score: _auc(y_true, y_score, 1.0)),
        ("ascending order", lambda y_true, y_score: _auc(y_true, y_score, reverse=True)),
        ("divided by all n(n-1)/2 pairs", lambda y_true, y_score: _auc(
            y_true, y_score, all_pairs=True)),
        ("ranks from argsort", _auc_ordinal_ranks),
        ("2 AUC - 1", lambda y_true, y_score: 2 * _auc(y_true, y_score) - 1),
    ]


def _auc_zero_division(y_true: Any, y_score: Any) -> float:
    pos, neg = _split(y_true, y_score)
    return _won(pos, neg) / (pos.size * neg.size)  # raises on a missing class: accepted


# ----------------------------------------------------------------- weighted AUC
def _wauc(y_true: Any, y_score: Any, sample_weight: Any, tie: float = 0.5, *,
          weigh: str = "both", missing: float = NAN, raw: bool = False,
          by_count: bool = False) -> float:
    y = np.asarray(y_true).astype(bool)
    b = np.asarray(y_score, dtype=float)
    w = np.asarray(sample_weight, dtype=float)
    if y.all() or not y.any():
        return missing
    d = b[y][:, None] - b[~y][None, :]
    wp, wn = w[y][:, None], w[~y][None, :]
    ww = {"both": wp * wn, "positives": wp * np.ones_like(wn),
          "sum": wp + wn, "none": np.ones_like(d)}[weigh]
    won = float((((d > 0) + tie * (d == 0)) * ww).sum())
    if raw:
        return won
    return won / (d.size if by_count else float(ww.sum()))


def _weighted_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., float]:
        return lambda y_true, y_score, sample_weight: _wauc(y_true, y_score, sample_weight,
                                                            **kw)

    return [
        ("weights ignored", make(weigh="none")),
        ("only the positive's weight", make(weigh="positives")),
        ("pair weight w_i + w_j", make(weigh="sum")),
        ("ties count 0", make(tie=0.0)),
        ("ties count 1", make(tie=1.0)),
        ("0.0 for a missing class", make(missing=0.0)),
        ("raw weighted count", make(raw=True)),
        ("divided by m1 m0", make(by_count=True)),
    ]


# ----------------------------------------------------------------- ROC point
def _point(y_true: Any, y_score: Any, threshold: float, *, strict: bool = False,
           below: bool = False, counts: bool = False, by_n: bool = False,
           missing: Any = NAN, swap: bool = False) -> Any:
    y = np.asarray(y_true).astype(bool)
    b = np.asarray(y_score, dtype=float)
    called = b > threshold if strict else b >= threshold
    if below:
        called = b <= threshold
    if y.all() or not y.any():
        if missing is None:
            fpr = float(called[~y].sum()) / max(1, int((~y).sum()))
            tpr = float(called[y].sum()) / max(1, int(y.sum()))
            return (fpr, tpr)
        return missing
    fp, tp = float(called[~y].sum()), float(called[y].sum())
    if counts:
        out = (fp, tp)
    elif by_n:
        out = (fp / y.size, tp / y.size)
    else:
        out = (fp / (~y).sum(), tp / y.sum())
    return (out[1], out[0]) if swap else (float(out[0]), float(out[1]))


def _point_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., Any]:
        return lambda y_true, y_score, threshold: _point(y_true, y_score, threshold, **kw)

    return [
        ("strict threshold", make(strict=True)),
        ("positive below the threshold", make(below=True)),
        ("(tpr, fpr)", make(swap=True)),
        ("counts, not rates", make(counts=True)),
        ("divided by n", make(by_n=True)),
        ("0 for a missing class", make(missing=None)),
    ]


# ----------------------------------------------------------------- rank averaging
def _ranks(row: np.ndarray, method: str) -> np.ndarray:
    import scipy.stats

    if method == "ordinal":
        out = np.empty(row.size)
        out[np.argsort(row, kind="stable")] = np.arange(1, row.size + 1)
        return out
    return scipy.stats.rankdata(row, method=method)


def _rank_average(scores: Any, *, method: str = "average", descending: bool = False,
                  scale: str = "n", raw: bool = False, axis: int = 0) -> list[float]:
    arr = np.asarray(scores, dtype=float)
    n = arr.shape[1]
    if raw:
        return arr.mean(axis=0).tolist()
    rows = []
    for row in arr:
        r = _ranks(-row if descending else row, method)
        rows.append({"n": r / n, "none": r, "n+1": r / (n + 1), "zero": (r - 1) / n}[scale])
    return np.mean(rows, axis=axis).tolist()


def _rank_wrong(ex: Any) -> list[Wrong]:
    return [
        ("ties broken by position", lambda scores: _rank_average(scores, method="ordinal")),
        ("ties get the lowest rank", lambda scores: _rank_average(scores, method="min")),
        ("ties get the highest rank", lambda scores: _rank_average(scores, method="max")),
        ("ranks not divided by n", lambda scores: _rank_average(scores, scale="none")),
        ("divided by n + 1", lambda scores: _rank_average(scores, scale="n+1")),
        ("ranks from 0", lambda scores: _rank_average(scores, scale="zero")),
        ("rank 1 for the largest", lambda scores: _rank_average(scores, descending=True)),
        ("raw scores averaged", lambda scores: _rank_average(scores, raw=True)),
        ("mean over the objects", lambda scores: _rank_average(scores, axis=1)),
    ]


# ----------------------------------------------------------------- Gini of incomes
def _lorenz(incomes: Any, order: str = "ascending", lead: bool = True) -> np.ndarray:
    v = np.asarray(incomes, dtype=float)
    if order == "ascending":
        v = np.sort(v)
    elif order == "descending":
        v = np.sort(v)[::-1]
    y = np.cumsum(v) / v.sum()
    return np.concatenate([[0.0], y]) if lead else y


def _gini_incomes(incomes: Any, *, order: str = "ascending", rule: str = "trapezoid",
                  half: bool = False, lead: bool = True) -> float:
    y = _lorenz(incomes, order, lead)
    n = len(incomes)
    if rule == "trapezoid":
        area = float(np.sum(y[1:] + y[:-1]) / n)
    elif rule == "right":
        area = float(np.sum(2 * y[1:]) / n)
    else:  # left rectangles
        area = float(np.sum(2 * y[:-1]) / n)
    g = 1 - area
    return g / 2 if half else g


def _gini_mean_difference(incomes: Any, *, unbiased: bool = True) -> float:
    v = np.asarray(incomes, dtype=float)
    n = v.size
    diff = np.abs(v[:, None] - v[None, :]).sum()
    if unbiased:
        return float(diff / (2 * n * (n - 1) * v.mean())) if n > 1 else 0.0
    return float(diff / (2 * n * n * v.mean()))


def _income_wrong(ex: Any) -> list[Wrong]:
    return [
        ("right rectangles", lambda incomes: _gini_incomes(incomes, rule="right")),
        ("left rectangles", lambda incomes: _gini_incomes(incomes, rule="left")),
        ("half the Gini", lambda incomes: _gini_incomes(incomes, half=True)),
        ("sorted from the richest", lambda incomes: _gini_incomes(incomes,
                                                                   order="descending")),
        ("not sorted", lambda incomes: _gini_incomes(incomes, order="given")),
        ("no leading 0", lambda incomes: _gini_incomes(incomes, lead=False)),
        ("mean difference over n(n-1)", _gini_mean_difference),
    ]


# ----------------------------------------------------------------- normalized Gini
def _gini_wrong(ex: Any) -> list[Wrong]:
    def make(form: Callable[[float], float], **kw: Any) -> Callable[..., float]:
        return lambda y_true, y_score: form(_auc(y_true, y_score, **kw))

    def cap_gap(y_true: Any, y_score: Any) -> float:
        import course_lib as cl

        try:
            return float(cl.gini_unnormalized(y_true, y_score))
        except Exception:  # noqa: BLE001 - a student's function may raise
            return NAN

    return [
        ("the AUC", make(lambda a: a)),
        ("1 - AUC", make(lambda a: 1 - a)),
        ("unnormalized (the CAP gap)", cap_gap),
        ("ties count 0", make(lambda a: 2 * a - 1, tie=0.0)),
        ("ties count 1", make(lambda a: 2 * a - 1, tie=1.0)),
        ("sign reversed", make(lambda a: 1 - 2 * a)),
        ("0.0 for a missing class", make(lambda a: 2 * a - 1 if a == a else 0.0)),
        ("raw pair count", make(lambda a: 2 * a - 1, raw=True)),
    ]


# ----------------------------------------------------------------- precision at k
def _precision_at_k(y_true: Any, y_score: Any, k: int, *, ties: str = "expected",
                    descending: bool = True, shift: int = 0, denominator: str = "k") -> float:
    y = np.asarray(y_true, dtype=float)
    b = np.asarray(y_score, dtype=float)
    if not descending:
        b = -b
    k = k + shift
    if k < 1:
        return NAN
    k = min(k, y.size)
    order = np.argsort(-b, kind="stable")
    if ties == "stable":
        top = float(y[order[:k]].sum())
    else:
        cut = b[order[k - 1]]
        above, at = b > cut, b == cut
        need = k - int(above.sum())
        if ties == "expected":
            top = float(y[above].sum() + need * y[at].mean())
        elif ties == "whole":
            top = float(y[above | at].sum())
            k = int((above | at).sum())
        elif ties == "optimistic":
            top = float(y[above].sum() + min(need, y[at].sum()))
        else:  # pessimistic
            top = float(y[above].sum() + max(0.0, need - (1 - y[at]).sum()))
    if denominator == "positives":
        return top / y.sum() if y.sum() else NAN
    if denominator == "n":
        return top / y.size
    return top / k


def _precision_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., float]:
        return lambda y_true, y_score, k: _precision_at_k(y_true, y_score, k, **kw)

    return [
        ("recall at k", make(denominator="positives")),
        ("divided by n", make(denominator="n")),
        ("ascending order", make(descending=False)),
        ("ties in the given order", make(ties="stable")),
        ("the whole tie group", make(ties="whole")),
        ("ties: positives first", make(ties="optimistic")),
        ("ties: negatives first", make(ties="pessimistic")),
        ("top k + 1", make(shift=1)),
        ("top k - 1", make(shift=-1)),
    ]


# ----------------------------------------------------------------- KS statistic
def _ks(y_true: Any, y_score: Any, *, form: str = "tpr-fpr", ties: str = "whole",
        missing: float = NAN, reverse: bool = False) -> float:
    y = np.asarray(y_true).astype(bool)
    b = np.asarray(y_score, dtype=float)
    if reverse:
        b = -b
    if y.all() or not y.any():
        return missing
    if ties == "split":
        order = np.argsort(-b, kind="stable")
        ys = y[order]
        tpr = np.cumsum(ys) / ys.sum()
        fpr = np.cumsum(~ys) / (~ys).sum()
        rpp = np.arange(1, y.size + 1) / y.size
    else:
        ts = np.unique(b)
        called = b[None, :] >= ts[:, None]
        tpr = called[:, y].mean(axis=1)
        fpr = called[:, ~y].mean(axis=1)
        rpp = called.mean(axis=1)
    gap = {"tpr-fpr": tpr - fpr, "abs": np.abs(tpr - fpr), "tpr-rpp": tpr - rpp}[form]
    return float(max(0.0, gap.max()))


def _ks_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., float]:
        return lambda y_true, y_score: _ks(y_true, y_score, **kw)

    return [
        ("TPR - RPP", make(form="tpr-rpp")),
        ("ascending order", make(reverse=True)),
        ("|TPR - FPR|", make(form="abs")),
        ("ties split", make(ties="split")),
        ("0.0 for a missing class", make(missing=0.0)),
    ]


# ----------------------------------------------------------------- NEC
def _nec_wrong(ex: Any) -> list[Wrong]:
    return [
        ("TPR and FPR swapped", lambda fpr, tpr, pcf: (1 - fpr) * pcf + tpr * (1 - pcf)),
        ("PCF on the false alarms", lambda fpr, tpr, pcf: (1 - tpr) * (1 - pcf) + fpr * pcf),
        ("no 1 - PCF", lambda fpr, tpr, pcf: (1 - tpr) * pcf + fpr),
        ("TPR for the miss rate", lambda fpr, tpr, pcf: tpr * pcf + fpr * (1 - pcf)),
        ("PCF ignored", lambda fpr, tpr, pcf: (1 - tpr + fpr) / 2),
    ]


# ----------------------------------------------------------------- inverse CDF
def _inverse_wrong(ex: Any) -> list[Wrong]:
    return [
        ("the negatives' inverse", lambda u: [1 - math.sqrt(1 - v) for v in u]),
        ("F1 itself", lambda u: [v * v for v in u]),
        ("u unchanged", lambda u: [float(v) for v in u]),
        ("1 - sqrt(u)", lambda u: [1 - math.sqrt(v) for v in u]),
        ("sorted output", lambda u: sorted(math.sqrt(v) for v in u)),
        ("sqrt(u) / 2", lambda u: [math.sqrt(v) / 2 for v in u]),
    ]


# ----------------------------------------------------------------- unimodal score
def _unimodal_wrong(ex: Any) -> list[Wrong]:
    return [
        ("the feature itself", lambda x: [float(v) for v in x]),
        ("minus the distance", lambda x: [-abs(v - 5) for v in x]),
        ("the square of x", lambda x: [v * v for v in x]),
        ("x - 5", lambda x: [v - 5 for v in x]),
        ("distance from 4", lambda x: [abs(v - 4) for v in x]),
    ]


# ----------------------------------------------------------------- pair scores
def _pair_scores(w: Any, reference: Any, objects: Any, *, form: str) -> list[float]:
    wv = np.asarray(w, dtype=float)
    obj = np.asarray(objects, dtype=float)
    if form == "abs":
        return (obj @ np.abs(wv)).tolist()
    if form == "sum":
        return obj.sum(axis=1).tolist()
    if form == "first":
        return obj[:, 0].tolist()
    ref = np.asarray(reference, dtype=float) @ wv
    s = obj @ wv
    return [float(np.mean(1 / (1 + np.exp(-(r - v))))) for v in s for r in [ref]]


def _pair_wrong(ex: Any) -> list[Wrong]:
    def make(form: str) -> Callable[..., list[float]]:
        return lambda w, reference, objects: _pair_scores(w, reference, objects, form=form)

    return [
        ("sigma(<w, x_r - x>)", make("reversed")),
        ("|w|", make("abs")),
        ("sum of the features", make("sum")),
        ("first feature", make("first")),
    ]


# ----------------------------------------------------------------- largest AUC below 1
def _max_auc_wrong(ex: Any) -> list[Wrong]:
    k = (ex.data or {}).get("positives")
    limit = (lambda m: m // 2) if k is None else (lambda m: min(int(k), m // 2))

    def make(rule: Callable[[int], Fraction]) -> Callable[[int], Fraction]:
        return lambda m: rule(m)

    return [
        ("no ties", make(lambda m: 1 - Fraction(1, limit(m) * (m - limit(m))))),
        ("one positive", make(lambda m: 1 - Fraction(1, 2 * (m - 1)))),
        ("m1 = m0 = floor(m/2)", make(lambda m: 1 - Fraction(1, 2 * (m // 2) ** 2))),
        ("1 - 2/m^2", make(lambda m: 1 - Fraction(2, m * m))),
        ("(m - 1)/m", make(lambda m: Fraction(m - 1, m))),
        ("the limit of positives ignored", make(
            lambda m: 1 - Fraction(1, 2 * (m // 2) * (m - m // 2)))),
        ("m1 = k whenever m > k", make(lambda m: _m1_is_k(m, k))),
    ]


def _m1_is_k(m: int, k: int | None) -> Fraction:
    """Takes k positives whenever it can, even past m/2 (or floor(m/2) in the book)."""
    m1 = m // 2 if k is None or int(k) >= m else int(k)
    return 1 - Fraction(1, 2 * m1 * (m - m1))


# ----------------------------------------------------------------- thinning
def _thinning_wrong(ex: Any) -> list[Wrong]:
    data = ex.data or {}
    r = data.get("copies") or 1
    a, b = (r, 1) if data.get("side") == "positives" else (1, r)

    def prec(p: float, k1: float, k0: float, ca: float = 1, cb: float = 1) -> float:
        tp, fp = p * k1 * ca, (1 - p) * k0 * cb
        return tp / (tp + fp) if tp + fp else NAN

    return [
        ("unchanged", lambda precision, keep_pos, keep_neg: precision),
        ("keep rates swapped", lambda precision, keep_pos, keep_neg:
            prec(precision, keep_neg, keep_pos, a, b)),
        ("times keep_pos", lambda precision, keep_pos, keep_neg: precision * keep_pos),
        ("keep_pos share", lambda precision, keep_pos, keep_neg:
            keep_pos / (keep_pos + keep_neg)),
        ("copies ignored", lambda precision, keep_pos, keep_neg:
            prec(precision, keep_pos, keep_neg)),
        ("copies on the other side", lambda precision, keep_pos, keep_neg:
            prec(precision, keep_pos, keep_neg, b, a)),
    ]


# ----------------------------------------------------------------- ROC condition
def _roc_points(points: Any) -> list[tuple[Any, Any]]:
    import sympy

    return [(sympy.sympify(str(x)), sympy.sympify(str(y))) for x, y in points]


def _is_roc(points: Any, *, start: bool = True, end: bool = True, left: bool = True,
            down: bool = True, rational: str = "corners") -> bool:
    import sympy

    if len(points) < 2:
        return False
    pts = _roc_points(points)
    if start and pts[0] != (0, 0):
        return False
    if end and pts[-1] != (1, 1):
        return False
    for p, q in zip(pts, pts[1:]):
        if (left and bool(q[0] < p[0])) or (down and bool(q[1] < p[1])):
            return False
    if rational == "none":
        return True
    if rational == "all":
        return all(c.is_rational for p in pts for c in p)
    distinct = [pts[0]]
    for p in pts[1:]:
        if p != distinct[-1]:
            distinct.append(p)
    corners = [distinct[0]]
    for k in range(1, len(distinct) - 1):
        a, b, c = corners[-1], distinct[k], distinct[k + 1]
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        if sympy.simplify(cross) != 0:
            corners.append(b)
    corners.append(distinct[-1])
    if rational == "axis":  # no diagonal pieces at all
        if any(p[0] != q[0] and p[1] != q[1] for p, q in zip(corners, corners[1:])):
            return False
    return all(bool(c.is_rational) for p in corners for c in p)


def _roc_wrong(ex: Any) -> list[Wrong]:
    return [
        ("monotone only", lambda points: _is_roc(points, rational="none")),
        ("every point rational", lambda points: _is_roc(points, rational="all")),
        ("no diagonal pieces", lambda points: _is_roc(points, rational="axis")),
        ("start not checked", lambda points: _is_roc(points, start=False)),
        ("end not checked", lambda points: _is_roc(points, end=False)),
        ("may go left", lambda points: _is_roc(points, left=False)),
        ("may go down", lambda points: _is_roc(points, down=False)),
        ("always True", lambda points: True),
    ]


# ----------------------------------------------------------------- grouped AUC
def _grouped(scores: Any, positives: Any, negatives: Any, *, tie: float = 0.5,
             order: str = "descending", missing: float = NAN, raw: bool = False) -> float:
    rows = list(zip(scores, positives, negatives))
    if order == "descending":
        rows.sort(reverse=True)
    elif order == "ascending":
        rows.sort()
    m1, m0 = sum(positives), sum(negatives)
    if m1 == 0 or m0 == 0:
        return missing
    above, won = 0, 0.0
    for _, p, q in rows:
        won += q * (above + tie * p)
        above += p
    return won if raw else won / (m1 * m0)


def _warehouse_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., float]:
        return lambda scores, positives, negatives: _grouped(scores, positives, negatives,
                                                             **kw)

    return [
        ("ties count 0", make(tie=0.0)),
        ("ties count 1", make(tie=1.0)),
        ("ascending order", make(order="ascending")),
        ("groups taken in the given order", make(order="given")),
        ("0.0 for a missing class", make(missing=0.0)),
        ("raw pair count", make(raw=True)),
    ]


# ----------------------------------------------------------------- Hand and Till's M
def _binary_auc(y: np.ndarray, s: np.ndarray, tie: float = 0.5) -> float:
    return _auc(y, s, tie)


def _hand_till(y: Any, P: Any, *, form: str = "M", tie: float = 0.5) -> float:
    y, P = np.asarray(y), np.asarray(P, dtype=float)
    c = P.shape[1]
    if form == "ovr":
        return float(np.mean([_binary_auc(y == i, P[:, i], tie) for i in range(c)]))
    vals = []
    for i, j in combinations(range(c), 2):
        both = (y == i) | (y == j)
        a_ij = _binary_auc(y[both] == i, P[both, i], tie)
        a_ji = _binary_auc(y[both] == j, P[both, j], tie)
        vals.append({"M": (a_ij + a_ji) / 2, "one": a_ij, "max": max(a_ij, a_ji),
                     "diff": (a_ij + _binary_auc(y[both] == j, P[both, i], tie)) / 2}[form])
    return float(np.mean(vals))


def _hand_till_wrong(ex: Any) -> list[Wrong]:
    def make(**kw: Any) -> Callable[..., float]:
        return lambda y, P: _hand_till(y, P, **kw)

    return [
        ("one-vs-rest macro", make(form="ovr")),
        ("one direction", make(form="one")),
        ("the larger direction", make(form="max")),
        ("ties count 0", make(tie=0.0)),
        ("ties count 1", make(tie=1.0)),
        ("column i for both directions", make(form="diff")),
    ]


#: exercise id -> the known wrong answers of an instance of it
KNOWN_WRONG: dict[str, Callable[[Any], list[Wrong]]] = {
    "roc-point-function": _point_wrong,
    "auc-pairs-function": _auc_wrong,
    "auc-weighted-function": _weighted_wrong,
    "rank-average-function": _rank_wrong,
    "gini-lorenz-function": _income_wrong,
    "gini-normalized-function": _gini_wrong,
    "precision-at-k-function": _precision_wrong,
    "ks-statistic-function": _ks_wrong,
    "nec-function": _nec_wrong,
    "inverse-cdf-positive": _inverse_wrong,
    "unimodal-score-function": _unimodal_wrong,
    "d-q2-pair-scores": _pair_wrong,
    "d-q4-max-auc": _max_auc_wrong,
    "d-q7-thinning-precision": _thinning_wrong,
    "d-q8-roc-condition": _roc_wrong,
    "warehouse-auc-function": _warehouse_wrong,
    "hand-till-m-function": _hand_till_wrong,
}
