"""The threshold explorer: move the threshold and watch every curve and metric follow.

:func:`threshold_explorer` computes, with the functions of :mod:`course_lib`, one row per
distinct threshold (the rule is ``score >= threshold``): the cumulative class counts
``TP, FP, FN, TN`` and the metrics TPR, FPR, precision, recall, F1, accuracy, balanced
accuracy, MCC, the positive rate and, given costs, the profit. The result renders as HTML
with a slider over those rows, the scores of both classes with the threshold line, a
marker on the ROC, PR, gain (and KS, profit) charts, and the confusion matrix.

Division of labour
------------------
Every number shown is computed here, in Python, and shipped as a JSON payload inside the
HTML. The JavaScript (``course_lib/_static/threshold-explorer.js``) only picks the row of the
chosen threshold, formats its numbers and moves the markers; no metric is computed twice.

Where it renders
----------------
* The module and its style sheet are files of this package (``course_lib/_static``,
  package data): an installed ``course_lib`` has them, with or without the book's
  repository (a student install, the grader's sandbox). The book serves the same files
  (``html_static_path`` and ``html_js_files`` in ``_config.yml``): there is one copy.
* In the built book the module is loaded once for the whole book from the book's static
  files; the book's ``threshold_explorer`` extension removes the inline copy of the
  module from every output (see below).
* In JupyterLab, where the book's files are absent, each output also carries the module
  inline, wrapped in ``if (!window.ThresholdExplorer)``, so the first output defines it
  and the others reuse it. The copy is the same text every time: the stored output is
  identical between runs (nbval), and its element id is a hash of the data, never random.
* Where scripts do not run (an untrusted notebook, a text console), the plain-text summary
  at the default threshold is shown instead.
"""

from __future__ import annotations

import hashlib
import html
import json
import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._checks import (
    UndefinedMetricWarning,
    check_binary,
    check_integer,
    need_classes,
    scale_weights,
)
from ._groups import cumulative_counts, with_origin
from .confusion import (
    accuracy,
    balanced_accuracy,
    f_beta,
    matrix_from_counts,
    mcc,
    recall,
)
from .gains import _gain_of, _ks_of, _non_negative, _profit_of
from .plotting._style import COLORS

__all__ = ["ThresholdExplorer", "threshold_explorer", "MODULE_PATH", "STYLE_PATH"]

#: The JavaScript module and its style sheet: package data, which the book serves too.
MODULE_PATH = Path(__file__).resolve().parent / "_static" / "threshold-explorer.js"
STYLE_PATH = MODULE_PATH.with_name("threshold-explorer.css")

CURVES = ("roc", "pr", "gain", "ks", "profit")
#: Metric columns of the payload, in the order the page lists them.
METRICS = ("tpr", "fpr", "precision", "recall", "f1", "accuracy", "balanced_accuracy", "mcc")
#: At most this many objects are drawn one by one (a strip of dots); more make a histogram.
STRIP_LIMIT = 300
HISTOGRAM_BINS = 40
MAX_PAYLOAD_BYTES = 200_000
_DIGITS = 10  # significant digits of every float in the payload (processor-independent)


def _round(value: float) -> float | int:
    """A float rounded to ``_DIGITS`` significant digits (an int stays an int)."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    v = float(value)
    if v == int(v) and abs(v) < 2**53:
        return int(v)
    return float(f"{v:.{_DIGITS}g}")


def _finite(value: float) -> float | int | None:
    """A threshold for the payload: None stands for ``inf`` (nobody selected)."""
    return _round(value) if np.isfinite(value) else None


def _column(values: Any) -> list:
    return [None if v is None else _round(v) for v in values]


def _defined(metric: Any, m: np.ndarray, **kwargs: Any) -> float | None:
    """``metric(matrix=m)``, or None where the metric is undefined (0/0) there."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedMetricWarning)
        value = metric(matrix=m, **kwargs)
    if any(issubclass(w.category, UndefinedMetricWarning) for w in caught):
        return None
    return float(value)


def _check_curves(curves: Any, costs: Any) -> tuple[str, ...]:
    if isinstance(curves, str) or not isinstance(curves, Sequence):
        raise ValueError(f"curves must be a sequence of names from {CURVES}, got {curves!r}")
    unknown = [c for c in curves if c not in CURVES]
    if unknown:
        raise ValueError(f"unknown curves {unknown!r}; choose from {CURVES}")
    if len(set(curves)) != len(curves):
        raise ValueError(f"curves repeats a name: {list(curves)!r}")
    if "profit" in curves and costs is None:
        raise ValueError("the profit curve needs costs=(contact cost, income per response)")
    out = tuple(curves)
    if costs is not None and "profit" not in out:
        out += ("profit",)
    return out


def _check_costs(costs: Any) -> tuple[float, float] | None:
    if costs is None:
        return None
    if isinstance(costs, str) or not isinstance(costs, Sequence) or len(costs) != 2:
        raise ValueError(
            f"costs must be a pair (contact cost, income per response), got {costs!r}"
        )
    return (
        _non_negative(costs[0], "costs: the contact cost"),
        _non_negative(costs[1], "costs: the income per response"),
    )


def _check_max_thresholds(max_thresholds: Any) -> int:
    return check_integer(max_thresholds, "max_thresholds", low=10, high=1000)


def _thin(selected: np.ndarray, landmarks: set[int], limit: int) -> np.ndarray:
    """Indices of at most ``limit`` rows: the landmarks, then rows evenly spaced in the
    number of objects selected, so every part of every curve keeps vertices."""
    n_rows = selected.size
    if n_rows <= limit:
        return np.arange(n_rows)
    targets = np.linspace(0.0, float(selected[-1]), limit - len(landmarks))
    spread = np.searchsorted(selected, targets, side="left").clip(0, n_rows - 1)
    return np.union1d(spread, np.fromiter(landmarks, dtype=np.int64))


def _score_panel(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> dict[str, Any]:
    """The scores of both classes: every object (stacked where tied) or a histogram."""
    if s.size <= STRIP_LIMIT:
        order = np.lexsort((s, ~y))  # by class, then score
        points = []
        previous: tuple[bool, float] | None = None
        stack = 0
        for i in order:
            key = (bool(y[i]), float(s[i]))
            stack = stack + 1 if key == previous else 0
            previous = key
            points.append([_round(s[i]), int(y[i]), stack])
        return {"kind": "strip", "points": points}
    edges = np.linspace(float(s.min()), float(s.max()), HISTOGRAM_BINS + 1)
    if edges[0] == edges[-1]:
        edges = edges[0] + np.linspace(-0.5, 0.5, HISTOGRAM_BINS + 1)
    weights = np.ones_like(s) if w is None else w
    pos, _ = np.histogram(s[y], bins=edges, weights=weights[y])
    neg, _ = np.histogram(s[~y], bins=edges, weights=weights[~y])
    return {
        "kind": "hist",
        "edges": _column(edges),
        "pos": _column(pos),
        "neg": _column(neg),
    }


@dataclass(frozen=True)
class ThresholdExplorer:
    """An interactive view of one scored sample; made by :func:`threshold_explorer`.

    Attributes
    ----------
    data : dict
        The JSON payload: ``rows`` (one list per column: ``threshold`` (None for the
        empty selection), ``below`` (the next lower distinct score: every threshold in
        ``(below, threshold]`` gives the row), ``tp, fp, fn, tn``, the metrics, ``rate``,
        ``profit``), the scores, the totals, the curves asked for and the default row.
    """

    data: dict[str, Any] = field(repr=False)

    # ---------------------------------------------------------------- reading the data
    @property
    def n_rows(self) -> int:
        """Number of thresholds on the slider (the kept rows)."""
        return len(self.data["rows"]["threshold"])

    def row(self, index: int | None = None) -> dict[str, Any]:
        """The values of one kept row as a dict (the default row when ``index`` is None)."""
        i = self.data["default"] if index is None else index
        if not 0 <= i < self.n_rows:
            raise ValueError(f"index must be in [0, {self.n_rows}), got {i}")
        return {k: v[i] for k, v in self.data["rows"].items()}

    def to_json(self) -> str:
        """The payload as compact, deterministic JSON (safe inside a ``<script>``)."""
        text = json.dumps(self.data, separators=(",", ":"), sort_keys=True, allow_nan=False)
        return text.replace("</", "<\\/")

    @property
    def element_id(self) -> str:
        """The id of the explorer's element: a hash of its data, the same on every run."""
        return "te-" + hashlib.sha256(self.to_json().encode()).hexdigest()[:12]

    # -------------------------------------------------------------------- rendering
    def summary(self, index: int | None = None) -> str:
        """Plain text: the confusion matrix and the metrics at one row."""
        r = self.row(index)
        t = "inf (nobody is called positive)" if r["threshold"] is None else f"{r['threshold']:.6g}"
        lines = [
            f"{self.data['title']}" if self.data["title"] else "Threshold explorer",
            f"threshold {t}: score >= threshold -> class 1 "
            f"({self.n_rows} of {self.data['n_thresholds']} thresholds on the slider)",
            f"  TP {r['tp']:.6g}  FN {r['fn']:.6g}",
            f"  FP {r['fp']:.6g}  TN {r['tn']:.6g}",
        ]
        for k in METRICS + (("profit",) if "profit" in r else ()):
            v = r[k]
            lines.append(f"  {k:<18} " + ("undefined" if v is None else f"{v:.4f}"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return self.summary()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.summary())

    def to_html(self, *, include_module: bool = True) -> str:
        """The HTML fragment: the data, a text fallback, and a one-line mount script.

        With ``include_module=True`` (the notebook output) the JavaScript module and its
        style sheet come inline too, guarded so they are defined once per page; the book
        removes that part and loads its own static copy instead.
        """
        eid = self.element_id
        colors = ";".join(f"--te-light-{k}:{v}" for k, v in sorted(COLORS.items()))
        parts = []
        if include_module:
            parts.append(
                "<style data-te-module>" + STYLE_PATH.read_text(encoding="utf-8") + "</style>\n"
                "<script data-te-module>if(!window.ThresholdExplorer){\n"
                + MODULE_PATH.read_text(encoding="utf-8")
                + "\n}</script>\n"
            )
        parts.append(
            f'<div class="threshold-explorer" id="{eid}" style="{colors}">'
            f'<script type="application/json" class="te-data">{self.to_json()}</script>'
            f'<pre class="te-fallback">{html.escape(self.summary())}</pre></div>\n'
            f"<script>window.ThresholdExplorer&&ThresholdExplorer.mount("
            f'document.getElementById("{eid}"))</script>'
        )
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.to_html()


def threshold_explorer(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                       curves: Sequence[str] = ("roc", "pr", "gain"),
                       costs: tuple[float, float] | None = None,
                       threshold: float | None = None, max_thresholds: int = 300,
                       title: str | None = None) -> ThresholdExplorer:
    """An interactive threshold explorer for one scored sample.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes must be present (with positive weight).
    y_score : array-like of shape (n,)
        Scores; the rule is ``score >= threshold`` -> class 1.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights; counts become sums of weights.
    curves : sequence of str, default ("roc", "pr", "gain")
        Charts with a moving marker, from ``"roc"``, ``"pr"``, ``"gain"``, ``"ks"`` and
        ``"profit"`` (the profit chart is added whenever ``costs`` are given).
    costs : (float, float), optional
        ``(contact cost, income per response)``: adds the profit
        ``income * TP - cost * (TP + FP)`` of :func:`course_lib.profit_curve`.
    threshold : float, optional
        Where the slider starts: the row of the rule ``score >= threshold``. By default
        the row of largest profit with costs, else the KS point (largest TPR - FPR).
    max_thresholds : int, default 300
        At most this many thresholds on the slider (10 to 1000). A larger sample keeps
        the first and last rows, the default, KS and best-profit rows and rows evenly
        spaced in the number of objects selected; the values at kept rows are exact.
    title : str, optional
        A heading for the explorer.

    Returns
    -------
    ThresholdExplorer
        Renders as HTML in the book and in JupyterLab, as a text summary elsewhere.

    Raises
    ------
    ValueError
        If the input is invalid, one class is missing, or an option is unknown.

    Examples
    --------
    Table 1 of the book: seven objects, six distinct scores, so seven rows (the first is
    "nobody is called positive"). At the threshold 0.3 three objects are called
    positive, two of them correctly:

    >>> te = threshold_explorer([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],
    ...                         threshold=0.3)
    >>> te.data["rows"]["threshold"]
    [None, 0.6, 0.5, 0.3, 0.2, 0.1, 0]
    >>> r = te.row()
    >>> r["tp"], r["fp"], r["fn"], r["tn"], round(r["precision"], 4)
    (2, 1, 1, 3, 0.6667)
    """
    # the explorer shows counts (sums of weights): the weights as given
    y, s, w = check_binary(y_true, y_score, sample_weight, scale=False)
    cost_pair = _check_costs(costs)
    names = _check_curves(curves, cost_pair)
    limit = _check_max_thresholds(max_thresholds)
    if threshold is not None and (
        isinstance(threshold, bool) or not isinstance(threshold, numbers.Real)
        or np.isnan(threshold)
    ):
        raise ValueError(f"threshold must be a number, got {threshold!r}")
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a string, got {title!r}")

    # One grouping for every curve: the running counts of the weights rescaled by a
    # power of two (every rate is a ratio of them, as in roc_curve and the others);
    # the counts shown, and the profit, are in the units of the weights as given.
    scaled = scale_weights(w)
    c = cumulative_counts(y, s, scaled)
    need_classes(c.m1, c.m0, "the ROC curve", warn=False)
    rates_tp, rates_fp, thresholds = with_origin(c)
    tp, fp = rates_tp, rates_fp
    if w is not None and scaled is not None and scaled is not w:
        unit = float(w.max()) / float(scaled.max())  # a power of two: exact
        tp, fp = rates_tp * unit, rates_fp * unit
    m1, m0 = tp[-1], fp[-1]
    tpr, fpr = rates_tp / rates_tp[-1], rates_fp / rates_fp[-1]  # the ROC curve
    precision = rates_tp[1:] / (rates_tp[1:] + rates_fp[1:])  # the PR curve
    gain = _gain_of(rates_tp, rates_fp, thresholds)
    ks = _ks_of(rates_tp, rates_fp, thresholds)
    selected = tp + fp
    profit = None
    if cost_pair is not None:
        profit = _profit_of(tp, fp, thresholds, cost_pair[0], cost_pair[1])

    if threshold is not None:
        # the row of "score >= threshold": the smallest distinct score not below it
        default = int(np.searchsorted(-thresholds, -float(threshold), side="right")) - 1
    elif profit is not None:
        default = int(np.argmax(profit.profit))
    else:
        default = int(np.argmax(ks.tpr - ks.fpr))
    landmarks = {0, thresholds.size - 1, default, int(np.argmax(ks.tpr - ks.fpr))}
    if profit is not None:
        landmarks.add(int(np.argmax(profit.profit)))
    keep = _thin(selected, landmarks, limit)

    rows: dict[str, list] = {
        k: [] for k in ("threshold", "below", "tp", "fp", "fn", "tn", "rate")
    }
    rows.update({k: [] for k in METRICS})
    for i in keep:
        counts = {"tp": tp[i], "fp": fp[i], "fn": m1 - tp[i], "tn": m0 - fp[i]}
        m = matrix_from_counts(**counts)
        rows["threshold"].append(None if i == 0 else thresholds[i])
        # the next lower distinct score: every threshold in (below, threshold] is this row
        rows["below"].append(thresholds[i + 1] if i + 1 < thresholds.size else None)
        for k, v in counts.items():
            rows[k].append(v)
        rows["rate"].append(gain.rate[i])
        rows["tpr"].append(tpr[i])
        rows["fpr"].append(fpr[i])
        rows["recall"].append(_defined(recall, m))
        rows["precision"].append(None if i == 0 else precision[i - 1])
        rows["f1"].append(_defined(f_beta, m, beta=1.0))
        rows["accuracy"].append(_defined(accuracy, m))
        rows["balanced_accuracy"].append(_defined(balanced_accuracy, m))
        rows["mcc"].append(_defined(mcc, m))
    if profit is not None:
        rows["profit"] = list(profit.profit[keep])
    data: dict[str, Any] = {
        "title": title or "",
        "curves": list(names),
        "default": int(np.searchsorted(keep, default)),
        "n_thresholds": int(thresholds.size),
        "weighted": w is not None,
        "totals": {"m1": _round(m1), "m0": _round(m0), "prevalence": _round(m1 / (m1 + m0))},
        "ks": {"value": _round(ks.ks), "threshold": _finite(ks.ks_threshold)},
        "rows": {k: _column(v) for k, v in rows.items()},
        "scores": _score_panel(y, s, w),
    }
    if profit is not None and cost_pair is not None:
        data["costs"] = {
            "cost": _round(cost_pair[0]),
            "income": _round(cost_pair[1]),
            "best_profit": _round(profit.best_profit),
            "best_threshold": _finite(profit.best_threshold),
        }
    explorer = ThresholdExplorer(data)
    size = len(explorer.to_json().encode())
    if size > MAX_PAYLOAD_BYTES:  # pragma: no cover - bounded by max_thresholds and bins
        raise ValueError(f"the explorer's data is {size} bytes; lower max_thresholds")
    return explorer
