"""A realistic Report dict built from the library's in-memory functions.

The page (``course_lib.report._html``) renders whatever ``course_lib.report`` produces;
this builds the same shape (REPORT.md) from ``roc_curve``, ``gains_table``,
``auc_ci_delong`` and friends, so the page's tests do not depend on an engine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

import course_lib as cl


def _frac(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
    return float(value)


def sample_frame(n: int = 4000, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.18).astype(int)
    signal = rng.normal(size=n) + 1.3 * y
    p = 1 / (1 + np.exp(-(signal - 1.6)))
    p2 = np.clip(p + rng.normal(scale=0.12, size=n), 0, 1)
    return pd.DataFrame(
        {
            "y": y,
            "p": np.round(p, 3),  # ties
            "p2": np.round(p2, 4),
            "segment": rng.choice(["retail", "small business", "corporate"], size=n, p=[0.6, 0.3, 0.1]),
        }
    )


def _score_block(y: np.ndarray, s: np.ndarray, *, max_fpr: float, costs: tuple[float, float]) -> dict:
    ci = cl.auc_ci_delong(y, s)
    auc = cl.roc_auc(y, s, exact=True)
    roc = cl.roc_curve(y, s)
    hull = cl.roc_convex_hull(roc.fpr, roc.tpr)
    pr = cl.pr_curve(y, s)
    gain = cl.gain_curve(y, s)
    lift = cl.lift_curve(y, s)
    ks = cl.ks_curve(y, s)
    m1, m0 = int(y.sum()), int(len(y) - y.sum())
    fp_cost, fn_cost = costs
    # operating points over the ROC thresholds
    tpr, fpr, thr = np.asarray(roc.tpr), np.asarray(roc.fpr), np.asarray(roc.thresholds)
    tp, fp = tpr * m1, fpr * m0
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(tp + fp > 0, tp / (tp + fp), np.nan)

    def point(name: str, i: int) -> dict:
        return {
            "name": name,
            "threshold": float(thr[i]),
            "tpr": float(tpr[i]),
            "fpr": float(fpr[i]),
            "precision": float(prec[i]),
            "rate": float((tp[i] + fp[i]) / len(y)),
            "tp": int(round(tp[i])),
            "fp": int(round(fp[i])),
            "fn": int(round(m1 - tp[i])),
            "tn": int(round(m0 - fp[i])),
            "cost": float(fp_cost * fp[i] + fn_cost * (m1 - tp[i])),
        }

    j = int(np.argmax(tpr - fpr))
    c = int(np.argmin(fp_cost * fp + fn_cost * (m1 - tp)))
    top = int(np.searchsorted((tp + fp) / len(y), 0.10))
    cal = cl.calibration_curve(y, s, n_bins=10)
    edges = np.linspace(float(s.min()), float(s.max()), 31)
    hist_pos, _ = np.histogram(s[y == 1], bins=edges)
    hist_neg, _ = np.histogram(s[y == 0], bins=edges)
    gains = cl.gains_table(y, s).to_dict("records")
    # each bin's highest and lowest score (a tied group goes whole to the bin of its first row)
    order = np.sort(s)[::-1]
    distinct, first = np.unique(-order, return_index=True)
    bin_of = (first * 10) // len(s)
    for b, row in zip(sorted(set(bin_of.tolist())), gains):
        members = -distinct[bin_of == b]
        row["bin"], row["max_score"], row["min_score"] = b + 1, float(members.max()), float(members.min())
    return {
        "auc": _frac(auc),
        "auc_ci": [ci.low, ci.high],
        "auc_se": float(np.sqrt(ci.variance)),
        "gini": _frac(2 * auc - 1),
        "gini_ci": [2 * ci.low - 1, 2 * ci.high - 1],
        "ks": float(ks.ks),
        "ks_score": float(ks.ks_threshold),
        "average_precision": _frac(cl.average_precision(y, s, exact=True)),
        "pr_baseline": _frac(Fraction(m1, len(y))),
        "partial_auc": {
            "max_fpr": max_fpr,
            "value": float(cl.partial_roc_auc(y, s, max_fpr=max_fpr)),
            "mcclish": float(cl.partial_roc_auc(y, s, max_fpr=max_fpr, standardized="mcclish")),
        },
        "h_measure": float(cl.h_measure(y, s)),
        "brier": float(cl.brier_score(y, s)),
        "ece": float(cl.expected_calibration_error(y, s)),
        "gains_table": [
            {k: (float(v) if isinstance(v, float) else int(v)) for k, v in row.items()} for row in gains
        ],
        "operating_points": [
            point("Youden's J", j),
            point("KS", j),
            point(f"cost-optimal (FP {fp_cost:g}, FN {fn_cost:g})", c),
            point("top 10 %", min(top, len(thr) - 1)),
        ],
        "curves": {
            "roc": {"fpr": list(map(float, roc.fpr)), "tpr": list(map(float, roc.tpr))},
            "hull": {"fpr": list(map(float, hull.fpr)), "tpr": list(map(float, hull.tpr))},
            "pr": {"recall": list(map(float, pr.recall)), "precision": list(map(float, pr.precision))},
            "gain": {"rate": list(map(float, gain.rate)), "tpr": list(map(float, gain.tpr))},
            "lift": {"rate": list(map(float, lift.rate)), "lift": list(map(float, lift.lift))},
            "ks": {
                "rate": list(map(float, ks.rate)),
                "tpr": list(map(float, ks.tpr)),
                "fpr": list(map(float, ks.fpr)),
                "ks_rate": float(ks.ks_rate),
            },
            "reliability": {
                "prob_pred": list(map(float, cal.prob_pred)),
                "prob_true": list(map(float, cal.prob_true)),
                "counts": list(map(float, cal.counts)),
            },
            "distribution": {
                "edges": list(map(float, edges)),
                "positives": hist_pos.tolist(),
                "negatives": hist_neg.tolist(),
            },
        },
    }


def sample_report(
    scores: tuple[str, ...] = ("p",),
    *,
    by: str | None = None,
    baseline: bool = False,
    n: int = 4000,
    max_fpr: float = 0.2,
    costs: tuple[float, float] = (1.0, 5.0),
) -> dict:
    """The Report dict of ``sample_frame`` for the given score columns."""
    df = sample_frame(n)
    y = df["y"].to_numpy()
    command = ["classifier-report", "data/sample.parquet", "--label", "y"]
    for s in scores:
        command += ["--score", s]
    if by:
        command += ["--by", by]
    if baseline:
        command += ["--baseline", "data/baseline.parquet"]
    report: dict[str, Any] = {
        "version": "0.1.0",
        "command": command,
        "inputs": [{"path": "data/sample.parquet", "sha256": "ab" * 32, "rows": n}],
        "options": {
            "label": "y",
            "pos_label": 1,
            "weight": None,
            "by": by,
            "max_fpr": max_fpr,
            "costs": list(costs),
            "engine": "memory",
        },
        "summary": {
            "rows": n,
            "used": n,
            "dropped_label": 0,
            "dropped_score": {s: 0 for s in scores},
            "positives": int(y.sum()),
            "negatives": int(n - y.sum()),
            "weighted": False,
            "integral": True,
            "distinct": {s: int(df[s].nunique()) for s in scores},
            "tied_rows": {s: int(df[s].duplicated(keep=False).sum()) for s in scores},
            "probabilities": {s: True for s in scores},
        },
        "scores": {s: _score_block(y, df[s].to_numpy(), max_fpr=max_fpr, costs=costs) for s in scores},
        "comparison": [],
        "segments": [],
        "stability": [],
    }
    if baseline:
        report["inputs"].append({"path": "data/baseline.parquet", "sha256": "cd" * 32, "rows": n})
    for i, a in enumerate(scores):
        for b in scores[i + 1 :]:
            t = cl.delong_test(y, df[a].to_numpy(), df[b].to_numpy())
            report["comparison"].append(
                {
                    "a": a,
                    "b": b,
                    "auc_difference": t.difference,
                    "z": t.z,
                    "p_value": t.p_value,
                    "ci": [t.low, t.high],
                }
            )
    if by:
        for s in scores:
            for seg, part in df.groupby(by):
                yy, ss = part["y"].to_numpy(), part[s].to_numpy()
                ci = cl.auc_ci_delong(yy, ss)
                report["segments"].append(
                    {
                        "score": s,
                        "segment": seg,
                        "n": len(part),
                        "positives": int(yy.sum()),
                        "auc": float(ci.auc),
                        "auc_ci": [ci.low, ci.high],
                        "gini": 2 * float(ci.auc) - 1,
                        "ks": float(cl.ks_statistic(yy, ss)),
                    }
                )
    if baseline:
        base = sample_frame(n, seed=11)
        for s in scores:
            edges = np.quantile(base[s], np.linspace(0, 1, 11))
            edges[0], edges[-1] = -np.inf, np.inf
            e = np.histogram(base[s], bins=edges)[0] / n
            a = np.histogram(df[s], bins=edges)[0] / n
            a, e = np.maximum(a, 1e-4), np.maximum(e, 1e-4)  # as core's psi_value
            terms = (a - e) * np.log(a / e)
            report["stability"].append(
                {
                    "score": s,
                    "psi": float(terms.sum()),
                    "bins": [
                        {
                            "low": float(lo),
                            "high": float(hi),
                            "expected": float(ee),
                            "actual": float(aa),
                            "psi": float(t),
                        }
                        for lo, hi, ee, aa, t in zip(edges[:-1], edges[1:], e, a, terms)
                    ],
                }
            )
    return report
