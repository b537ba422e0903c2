"""What the report's weights mean, and the bootstrap intervals of sampling weights.

A weight column is one of two things, and the report must not guess which:

* **frequency** weights count rows: a row of weight 3 stands for three identical rows.
  They are integers; every number, DeLong's interval included, is that of the table
  with each row repeated (exact fractions, as without weights).
* **sampling** weights (survey, inverse-probability, case-control weights) say how many
  people of the population a row represents. The number of *rows* behind an estimate
  is what it is, whatever the weights sum to, so DeLong's interval (which counts the
  objects, here the weights) does not apply: the intervals are bootstrap percentile
  intervals that resample rows (:func:`course_lib.bootstrap_intervals`).

:func:`weight_kind_of` decides: integer weights without a stated kind are read as
frequency weights (as before) and the page says so; non-integer weights without a
stated kind are refused, as are non-integer "frequency" weights.

The bootstrap draws rows by position in the engine's canonical order
(:meth:`Engine.rows <course_lib.report._engine.Engine.rows>`: every engine delivers the
same rows in the same order), with ``numpy.random.default_rng(seed)``, so the intervals
are the same, bit for bit, on every engine. Each segment is bootstrapped from its own
rows (in the same order), with the same seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._checks import check_integer
from ..inference import bootstrap_intervals
from ._engine import CHUNK, Engine, Rows, Summary, plain_segment, segment_key

__all__ = ["WEIGHT_KINDS", "REPLICATES", "SEED", "check_bootstrap", "weight_kind_of",
           "Bootstrap", "FREQUENCY_NOTE", "weights_block", "apply_bootstrap"]

#: The meanings a weight column can have.
WEIGHT_KINDS = ("frequency", "sampling")

#: Bootstrap replicates by default: the 2.5 % and 97.5 % quantiles of 1,000 replicates
#: rest on 25 replicates each, so a different seed moves an end of the 95 % interval by
#: about 0.09 standard errors (0.19 with 200 replicates); Efron and Tibshirani (1993)
#: ask for about 1,000 for percentile intervals.
REPLICATES = 1000

#: The bootstrap's seed by default (a stated seed: the same report every run).
SEED = 0

#: What the page says of integer weights read as frequency weights without a stated kind.
FREQUENCY_NOTE = ("frequency weights (integers; pass --weight-kind sampling, "
                  "weight_kind='sampling', if they are sampling weights)")


def check_bootstrap(replicates: Any, seed: Any) -> tuple[int, int]:
    """Validated ``(replicates, seed)``: a positive and a non-negative integer.

    >>> check_bootstrap(200, 0)
    (200, 0)
    >>> check_bootstrap(0, 0)
    Traceback (most recent call last):
    ...
    ValueError: replicates must be a positive integer, got 0
    """
    return check_integer(replicates, "replicates", low=1), check_integer(seed, "seed", low=0)


def weight_kind_of(summary: Summary, weight_kind: Any) -> tuple[str | None, bool]:
    """The meaning of the weights: ``(kind, stated)``, ``kind`` None without weights.

    ``stated`` is False when integer weights are read as frequency weights because no
    kind was given (the page then says so, :data:`FREQUENCY_NOTE`).

    Raises
    ------
    ValueError
        ``weight_kind`` not one of :data:`WEIGHT_KINDS`; given without a weight
        column; non-integer weights without a kind; non-integer frequency weights.
    """
    if weight_kind is not None and weight_kind not in WEIGHT_KINDS:
        raise ValueError(
            f"weight_kind must be 'frequency' or 'sampling', got {weight_kind!r}")
    if not summary.weighted:
        if weight_kind is not None:
            raise ValueError(
                f"weight_kind {weight_kind!r} is given but there is no weight column "
                "(--weight)")
        return None, False
    if summary.integral:
        return (weight_kind or "frequency"), weight_kind is not None
    if weight_kind is None:
        raise ValueError(
            "the weights are not all integers (or they sum to 2**53 or more), so the report "
            "cannot tell what they mean: pass --weight-kind sampling (weight_kind='sampling') "
            "for sampling weights (survey or inverse-probability weights: bootstrap "
            "intervals over the rows), or make them integer counts for "
            "--weight-kind frequency (a row of weight k stands for k rows)")
    if weight_kind == "frequency":
        raise ValueError(
            "frequency weights must be integers (a frequency counts rows), but the weights "
            "are not all integers (or they sum to 2**53 or more): pass --weight-kind "
            "sampling (weight_kind='sampling') if they are sampling weights")
    return "sampling", True


def _segment_keys(segment: np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """Codes of the rows' segments and the value of each code (None for missing)."""
    codes, uniques = pd.factorize(segment, use_na_sentinel=True)
    values: list[Any] = list(np.asarray(uniques, dtype=object))
    if (codes < 0).any():
        codes = np.where(codes < 0, len(values), codes)
        values.append(None)
    return codes, values


class Bootstrap:
    """The bootstrap of one report: the rows read once (:meth:`Engine.rows`), the
    intervals of the whole table and, on demand, of each segment.

    ``result`` is :func:`course_lib.bootstrap_intervals` of all the rows and every
    score; :meth:`segment` gives a segment's (or None with fewer than ``min_class``
    positive or negative rows, or a class without weight).
    """

    def __init__(self, engine: Engine, *, replicates: int, seed: int, level: float,
                 min_class: int, chunk: int = CHUNK) -> None:
        self.replicates, self.seed, self.level = replicates, seed, level
        self.min_class = min_class
        self.scores = tuple(engine.scores)
        self.rows: Rows = engine.rows(chunk=chunk)
        self.result = self._run(np.ones(self.rows.y.size, dtype=bool))
        self._segments: dict[Any, tuple[int, int, dict[str, Any] | None]] | None = None

    def _run(self, mask: np.ndarray) -> dict[str, Any]:
        r = self.rows
        return bootstrap_intervals(
            r.y[mask], {n: r.scores[n][mask] for n in self.scores},
            sample_weight=None if r.weight is None else r.weight[mask],
            n_boot=self.replicates, level=self.level, seed=self.seed, stratified=True)

    def _by_segment(self) -> dict[Any, tuple[int, int, dict[str, Any] | None]]:
        """Per segment: its rows, its positive rows and its bootstrap (None with
        fewer than ``min_class`` rows of a class, or a class without weight)."""
        if self._segments is None:
            self._segments = {}
            seg = self.rows.segment
            if seg is not None:
                codes, values = _segment_keys(seg)
                w = self.rows.weight
                for code, v in enumerate(values):
                    mask = codes == code
                    y = self.rows.y[mask]
                    m1 = int(np.count_nonzero(y))
                    enough = min(m1, y.size - m1) >= max(self.min_class, 1)
                    if enough and w is not None:
                        wm = w[mask]
                        enough = bool(wm[y].sum() > 0 and wm[~y].sum() > 0)
                    self._segments[_seg_key(v)] = (int(y.size), m1,
                                                   self._run(mask) if enough else None)
        return self._segments

    def segment(self, value: Any) -> dict[str, Any] | None:
        """The bootstrap of the rows of one segment (None: too few rows of a class)."""
        return self._by_segment().get(_seg_key(value), (0, 0, None))[2]

    def segment_rows(self, value: Any) -> tuple[int, int]:
        """The rows of a segment: ``(rows, positive rows)``."""
        rows, pos, _ = self._by_segment().get(_seg_key(value), (0, 0, None))
        return rows, pos

    def statement(self) -> dict[str, Any]:
        """The report's ``"bootstrap"`` block: how the intervals were made."""
        r = self.result
        return {"method": "bootstrap", "interval": "percentile",
                "replicates": self.replicates, "used": r["used"], "seed": self.seed,
                "level": self.level,
                "resampling": "rows, the positive and the negative rows separately "
                              "(each replicate keeps their numbers); a row drawn k times "
                              "weighs k times its weight",
                "rng": "numpy.random.default_rng(seed), rows in the engine's canonical "
                       "order (sorted by every score, the label, the weight)",
                "rows": r["rows"], "positive_rows": r["positive_rows"],
                "negative_rows": r["negative_rows"]}


def _seg_key(v: Any) -> Any:
    """A segment value as the segments table shows it (:func:`._engine.plain_segment`),
    a missing one as ``("<missing>",)``."""
    return segment_key(plain_segment(v))


def weights_block(column: Any, kind: str | None, stated: bool) -> dict[str, Any] | None:
    """The report's ``"weights"``: the column, its meaning, whether the user stated it,
    and the sentence the page shows."""
    if kind is None:
        return None
    if kind == "sampling":
        text = ("sampling weights: every number is weighted; the intervals are bootstrap "
                "percentile intervals over the rows (DeLong's interval counts objects and "
                "does not apply)")
    elif stated:
        text = "frequency weights: a row of weight k counts as k rows"
    else:
        text = FREQUENCY_NOTE
    return {"column": column, "kind": kind, "stated": stated, "text": text}


def apply_bootstrap(boot: Bootstrap, scores: dict[str, Any], comparison: list[dict[str, Any]],
                    segments: list[dict[str, Any]], notes: list[str]) -> None:
    """Put the bootstrap's intervals in the report's blocks (in place): each score's
    ``auc_ci``, ``gini_ci``, ``ks_ci``, ``ks_two_sided_ci`` (DeLong's ``auc_se`` and
    ``auc_variance`` become None), each pair's ``ci`` (no z, no p-value), each
    segment's intervals and its ``rows`` and ``positive_rows``; ``interval`` says which
    method and ``interval_rows`` how many rows are behind it."""
    res = boot.result
    for name, block in scores.items():
        iv = res["scores"][name]
        block.update(auc_ci=iv["auc"], gini_ci=iv["gini"], auc_se=None, auc_variance=None,
                     ks_ci=iv["ks"], ks_two_sided_ci=iv["ks_two_sided"],
                     interval="bootstrap", interval_rows=res["rows"])
    diffs = {(d["a"], d["b"]): d["ci"] for d in res["differences"]}
    for c in comparison:
        c.update(ci=diffs[(c["a"], c["b"])], z=None, p_value=None, method="bootstrap",
                 rows=res["rows"])
    for row in segments:
        rows, pos = boot.segment_rows(row["segment"])
        row.update(rows=rows, positive_rows=pos, interval="bootstrap", auc_ci=[None, None],
                   gini_ci=[None, None], ks_ci=[None, None], ks_two_sided_ci=[None, None])
        if row.get("auc") is None:
            continue
        seg = boot.segment(row["segment"])
        if seg is None:
            row["interval"] = None
            notes.append(
                f"{row['score']}: segment {row['segment']!r} has {pos} positive and "
                f"{rows - pos} negative rows, fewer than {boot.min_class} of a class (or a "
                "class without weight): no bootstrap interval")
            continue
        iv = seg["scores"][row["score"]]
        row.update(auc_ci=iv["auc"], gini_ci=iv["gini"], ks_ci=iv["ks"],
                   ks_two_sided_ci=iv["ks_two_sided"])
