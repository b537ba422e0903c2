"""The engine protocol of the validation report, and the in-memory engine.

An *engine* reduces a table of rows (a label, one or more score columns, an optional
weight and an optional segment column) to **score groups**: one row per distinct
score (per segment with ``by``), with the count (or weight sum) of the positives and
of the negatives, handed to Python in decreasing score order, in chunks
(:class:`Groups`). Every number of the report is computed from those chunks by the
accumulators of :mod:`course_lib.report._stream`, so an engine that keeps the rows
(DuckDB, Spark) never brings them into Python.

The engine also validates: it refuses bad input with a :class:`ValueError` that names
the problem (a missing column, a label that is not binary, even with ``pos_label``, NaN
or infinite scores, negative or missing weights, no rows, one class only), worded once
for every engine by :class:`refuse`, and it drops, **and counts** (:class:`Summary`),
the rows with a missing label or a missing score.

:class:`MemoryEngine` is the engine over a pandas DataFrame; it validates with the
library's own checks (:mod:`course_lib._checks`): scores by the score policy (integer
scores are int64, never cast to float), weights by the weight policy. It reads files
too, through :func:`course_lib.report._sources.read_frame` (DuckDB reads them, the rows
then live in pandas).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from .._checks import are_counts, check_integer, check_labels, check_scores, check_weights, need_classes
from .._groups import group_chunks
from ._refuse import refuse
from ._sources import read_frame

__all__ = [
    "CHUNK",
    "Summary",
    "Groups",
    "PairGroups",
    "Rows",
    "Engine",
    "MemoryEngine",
    "positive_class",
    "plain_label",
    "BOOLEAN_TEXT",
    "score_names",
    "refuse",
    "check_chunk",
    "match_column",
    "is_missing",
    "segment_key",
    "plain_segment",
]

#: Default number of groups per chunk.
CHUNK = 2**20


class Summary(NamedTuple):
    """What an engine read: the rows, the rows used and dropped, the class totals.

    ``positives`` and ``negatives`` are counts (int) without weights, weight sums
    (float) with them; ``integral`` is True when there are no weights, or every weight
    is an integer and their total is below ``2**53`` (then the float sums are exact
    and the report's fractions are exact too).
    """

    rows: int
    used: int
    dropped_label: int
    dropped_score: dict[str, int]
    positives: int | float
    negatives: int | float
    weighted: bool
    integral: bool
    distinct: dict[str, int]
    tied_rows: dict[str, int]
    probabilities: dict[str, bool]


class Groups(NamedTuple):
    """One chunk of score groups, in decreasing score order (within a segment).

    ``score`` is int64 for an integer (or bool) column, in every engine (never cast to
    float, so int64 beyond ``2**53`` keeps its order), else float64; ``pos`` and ``neg`` are
    int64 counts without weights, float64 weight sums with them; ``segment`` holds
    each group's segment value when grouped ``by`` a column (each segment's groups are
    contiguous, across chunks too), else None.
    """

    score: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    segment: np.ndarray | None = None


class PairGroups(NamedTuple):
    """One chunk of the groups of equal ``(score_a, score_b)`` pairs.

    Ordered by ``score_a`` decreasing, then ``score_b`` decreasing; ``pos`` and
    ``neg`` as in :class:`Groups`.
    """

    score_a: np.ndarray
    score_b: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


class Rows(NamedTuple):
    """The rows used, one entry per row, in the **canonical order**: by the score
    columns (in the engine's order), then the label, then the weight, each
    increasing. Rows equal in all of these are interchangeable, so every engine
    gives the same arrays for the same data (the segment, which is not a sort key,
    may differ in order among such rows, and nothing computed depends on it). The
    bootstrap (:func:`course_lib.bootstrap_intervals`) draws rows by position in this
    order, which is why its intervals are the same on every engine.

    ``y`` is bool (True positive); ``scores`` maps each score column to its values
    (int64 or float64, as :class:`Groups`); ``weight`` float64 or None; ``segment`` an
    object array (None for a missing value) when the engine has ``by``, else None.
    """

    y: np.ndarray
    scores: dict[str, np.ndarray]
    weight: np.ndarray | None
    segment: np.ndarray | None


@runtime_checkable
class Engine(Protocol):
    """What the report needs from an engine (in memory, DuckDB, Spark).

    ``scores`` names the score columns, ``by`` the segment column (or None);
    ``inputs()`` describes what was read, one dict per input:
    ``{"path": str | None, "sha256": str | None, "rows": int}``.
    """

    scores: tuple[str, ...]
    by: str | None

    def summary(self) -> Summary: ...

    def groups(
        self, score: str, *, by: str | None = None, chunk: int = CHUNK
    ) -> Iterator[Groups]: ...

    def pair_groups(
        self, score_a: str, score_b: str, *, chunk: int = CHUNK
    ) -> Iterator[PairGroups]: ...

    def rows(self, *, chunk: int = CHUNK) -> Rows: ...

    def inputs(self) -> list[dict[str, Any]]: ...


def match_column(what: str, name: Any, columns: Sequence[str]) -> str:
    """The column of ``columns`` that ``name`` means, as every engine matches it: the
    one column equal to it but for case (SQL engines, DuckDB and Spark, do not tell case
    apart in names); none, or several that differ only in case, is an error.

    >>> match_column("label", "Y", ["y", "p"])
    'y'
    >>> match_column("label", "y", ["y", "Y"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the label column 'y' is ambiguous: the data has columns ['y', 'Y'] that ...rename them
    """
    hits = [c for c in columns if c.lower() == name.lower()] if isinstance(name, str) else []
    if not hits:
        raise refuse.no_column(what, name, columns)
    if len(hits) > 1:
        raise ValueError(
            f"the {what} column {name!r} is ambiguous: the data has columns {hits} "
            "that differ only in case; rename them")
    return hits[0]


def score_names(scores: str | Sequence[str]) -> tuple[str, ...]:
    """The score columns as a tuple: at least one, none twice."""
    names = (scores,) if isinstance(scores, str) else tuple(scores)
    if not names:
        raise ValueError("at least one score column is needed")
    if len(set(names)) != len(names):
        raise ValueError(f"a score column is named twice: {list(names)}")
    return names


#: The texts DuckDB's CSV reader takes for booleans (case aside): a ``pos_label`` given
#: as one of them names the matching value of a boolean label (``--pos-label yes``).
BOOLEAN_TEXT: dict[str, bool] = {"true": True, "t": True, "yes": True, "y": True,
                                 "false": False, "f": False, "no": False, "n": False}


def positive_class(values: Sequence[Any], pos_label: Any = None) -> Any:
    """The positive class among the distinct (non-missing) label values.

    More than two values is not a binary label, with or without ``pos_label``. With
    ``pos_label`` given it must be one of the values (for a boolean label, a text of
    :data:`BOOLEAN_TEXT` such as ``"yes"`` names True). Without it only labels that are
    all 0/1 (numbers or bools) are read, 1 (True) positive: any other two values
    (``"good"``/``"bad"``, 1/2, -1/1, ``"yes"``/``"no"`` as text) are refused with the
    values found, as scikit-learn refuses them, because the report cannot know which
    is positive and a wrong guess turns every number around. Returns the positive
    value, or None when the values are 0/1 numbers or bools (the caller then reads
    them with :func:`course_lib._checks.check_labels`).

    >>> positive_class(["bad", "good"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the label takes the values {'bad', 'good'} and pos_label is not specified: ...
    >>> positive_class(["bad", "good"], pos_label="bad")
    'bad'
    >>> positive_class([1, 2])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the label takes the values {1, 2} and pos_label is not specified: ...
    >>> positive_class([0, 1]) is None, positive_class([False, True]) is None
    (True, True)
    >>> positive_class([False, True], pos_label="yes")
    True
    >>> positive_class(["a", "b", "c"])
    Traceback (most recent call last):
    ...
    ValueError: the label must be binary: found 3 distinct values: 'a', 'b', 'c'
    >>> positive_class(["a", "b", "c"], pos_label="a")
    Traceback (most recent call last):
    ...
    ValueError: the label must be binary: found 3 distinct values: 'a', 'b', 'c'
    >>> positive_class(["no", "yes"], pos_label="maybe")
    Traceback (most recent call last):
    ...
    ValueError: pos_label 'maybe' is not a value of the label (its values: 'no', 'yes')
    """
    distinct = list(dict.fromkeys(values))
    shown = refuse.shown(distinct)
    if len(distinct) > 2:  # with or without pos_label: a label of two classes
        raise refuse.not_binary(len(distinct), distinct)
    if pos_label is not None:
        if (isinstance(pos_label, str) and distinct
                and all(isinstance(v, (bool, np.bool_)) for v in distinct)
                and pos_label.strip().lower() in BOOLEAN_TEXT):
            pos_label = BOOLEAN_TEXT[pos_label.strip().lower()]
        if not any(v == pos_label for v in distinct):
            raise ValueError(
                f"pos_label {pos_label!r} is not a value of the label (its values: {shown})"
            )
        return pos_label
    try:
        check_labels(np.array(distinct, dtype=object), name="the label")
        return None
    except ValueError:
        pass
    if len(distinct) < 2:
        raise ValueError(
            f"the label has one value only ({shown}): pass pos_label to say which class "
            "is positive (with one class present the report is undefined anyway)"
        )
    raise refuse.no_pos_label(distinct)


def plain_label(value: Any) -> Any:
    """A label value as JSON shows it: bools as bools, whole numbers as int, other
    numbers as float, text as text (numpy and Decimal values turned into these).

    >>> plain_label(np.float64(1.0)), plain_label(np.bool_(True)), plain_label("bad")
    (1, True, 'bad')
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, str):
        return value
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    return int(v) if v.is_integer() else v


def is_missing(value: Any) -> bool:
    """A missing segment (band, period) value: None or a float NaN."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def segment_key(value: Any) -> Any:
    """A segment value as a key: a missing value (None, NaN) as ``("<missing>",)``."""
    return ("<missing>",) if is_missing(value) else value


def plain_segment(value: Any) -> Any:
    """A segment value as the report shows it: None when missing, numpy scalars as
    Python ones, text, numbers and bools as they are, anything else as text."""
    if is_missing(value):
        return None
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _column(data: pd.DataFrame, name: str, what: str) -> pd.Series:
    return data[match_column(what, name, [str(c) for c in data.columns])]


def _score_values(col: pd.Series, name: str) -> np.ndarray:
    """A score column without its missing values, validated by the score policy:
    integer (and bool) columns become int64, never float (thresholds print as integers,
    as SQL's BIGINT gives them, and int64 beyond 2**53 keeps its order); every other
    numeric column float64. NaN or infinite values are refused, as the SQL engines do."""
    if isinstance(col.dtype, pd.api.extensions.ExtensionDtype) and col.dtype.kind in "iu":
        arr = col.to_numpy(dtype=col.dtype.numpy_dtype)  # nullable ints, NA dropped already
    elif col.dtype.kind == "b" or str(col.dtype) == "boolean":
        arr = col.to_numpy(dtype=np.int64)
    else:
        arr = col.to_numpy()
        if arr.dtype == object:
            values = col.tolist()
            text = sorted({type(v).__name__ for v in values if isinstance(v, (str, bytes))})
            if text:  # as DuckDB and Spark refuse a VARCHAR score: never cast text
                raise refuse.not_numeric("score", name, f"it holds text ({', '.join(text)})")
            kind = np.int64 if all(isinstance(v, (int, np.integer)) for v in values) \
                else np.float64
            try:
                arr = np.asarray(values, dtype=kind)
            except (TypeError, ValueError, OverflowError):
                found = ", ".join(sorted({type(v).__name__ for v in values}))
                raise refuse.not_numeric("score", name, f"found values of type {found}") from None
    if arr.dtype.kind not in "biuf":
        raise refuse.not_numeric("score", name, f"its type is {arr.dtype}")
    if arr.dtype.kind in "biu":
        if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            raise ValueError(
                f"the score {name!r} has unsigned integers beyond the int64 range "
                "(as SQL's BIGINT); rescale them")
        return arr.astype(np.int64, copy=False)
    finite = np.isfinite(arr)
    if not finite.all():
        raise refuse.not_finite(name, int((~finite).sum()))
    return check_scores(arr, name=f"the score {name!r}", on_inexact="keep")


def _plain_array(col: pd.Series) -> np.ndarray:
    """A column without missing values as a numpy array of its own dtype (nullable
    integers and booleans to their numpy dtype)."""
    numpy_dtype = getattr(col.dtype, "numpy_dtype", None)
    if isinstance(col.dtype, pd.api.extensions.ExtensionDtype) and numpy_dtype is not None:
        return col.to_numpy(dtype=numpy_dtype)
    return col.to_numpy()


def _descending(s: np.ndarray, keys: np.ndarray | None = None) -> np.ndarray:
    """Order by ``keys`` (ascending codes) then by the score decreasing, stably."""
    if s.dtype.kind == "f":
        neg = -s
    else:
        # ~x reverses the order of int64 (and uint64) exactly, without overflow
        neg = ~s
    if keys is None:
        return np.argsort(neg, kind="stable")
    return np.lexsort((neg, keys))


def _distinct_and_tied(chunks: group_chunks) -> tuple[int, int]:
    """The number of groups and the rows in groups of two or more (groups of counts)."""
    distinct = tied = 0
    for g in chunks:
        sizes = g.pos + g.neg
        distinct += sizes.size
        tied += int(sizes[sizes > 1].sum())
    return distinct, tied


def _group_starts(*columns: np.ndarray) -> np.ndarray:
    n = columns[0].size
    new = np.zeros(n, dtype=bool)
    if n:
        new[0] = True
    for c in columns:
        new[1:] |= c[1:] != c[:-1]
    return np.flatnonzero(new)


class MemoryEngine:
    """The engine over a pandas DataFrame (everything in numpy).

    Parameters
    ----------
    data : pandas.DataFrame, or files
        The rows: a DataFrame, or what :func:`course_lib.report._sources.read_frame`
        reads into one (Parquet or CSV files, a glob, ``FILE.duckdb:TABLE``).
    label : str
        The label column: 0/1 numbers or bools, or any two values (see ``pos_label``).
    scores : str or sequence of str
        One or more score columns (numeric; int64 scores are kept exact).
    weight : str, optional
        A column of non-negative finite weights (a missing weight is refused).
    by : str, optional
        A segment column; a missing segment value is a segment of its own (None).
    pos_label : optional
        The positive class: needed unless the label is 0/1 (numbers) or boolean, where
        1 (True) is positive (see :func:`positive_class`).
    sep, decimal : str, optional
        The separator and the decimal mark of CSV files (refused for other data).
    bands, period : str, optional
        Two more columns the groups can be split by, as by ``by`` (``groups(score,
        by=bands)``): the bands of the calibration table and the periods of the trend.

    Rows with a missing label, or a missing value in any score column, are dropped
    and counted in :meth:`summary`. :attr:`positive_label` is the positive value (as
    :func:`plain_label` shows it), :attr:`class_rows` the rows of each class
    (positives, negatives), weighted or not.

    Examples
    --------
    >>> df = pd.DataFrame({"y": ["bad", "good", "good", None], "p": [0.2, 0.9, 0.2, 0.5]})
    >>> e = MemoryEngine(df, label="y", scores="p", pos_label="good")
    >>> s = e.summary()
    >>> s.rows, s.used, s.dropped_label, s.positives, s.negatives, s.tied_rows
    (4, 3, 1, 2, 1, {'p': 2})
    >>> g = next(e.groups("p"))
    >>> g.score.tolist(), g.pos.tolist(), g.neg.tolist()
    ([0.9, 0.2], [1, 1], [0, 1])
    >>> MemoryEngine(df, label="y", scores="q")
    Traceback (most recent call last):
    ...
    ValueError: no score column 'q' in the data (its columns: 'y', 'p')
    """

    def __init__(self, data: pd.DataFrame, *, label: str, scores: str | Sequence[str],
                 weight: str | None = None, by: str | None = None,
                 pos_label: Any = None, sep: str | None = None,
                 decimal: str | None = None, bands: str | None = None,
                 period: str | None = None) -> None:
        names = score_names(scores)
        # files are read by DuckDB (sep and decimal: CSV only)
        data, inputs = read_frame(data, label, names, sep=sep, decimal=decimal)
        if len(data) == 0:
            raise refuse.no_rows()
        self.scores: tuple[str, ...] = names
        self.by: str | None = by
        self.bands: str | None = bands
        self.period: str | None = period
        self._rows = len(data)
        y_col = _column(data, label, "label")
        s_cols = {n: _column(data, n, "score") for n in names}
        w_col = _column(data, weight, "weight") if weight is not None else None
        b_col = _column(data, by, "segment") if by is not None else None
        x_cols = {c: _column(data, c, what) for c, what in ((bands, "bands"), (period, "period"))
                  if c is not None}
        label_ok = y_col.notna().to_numpy()
        self._dropped_label = int((~label_ok).sum())
        keep = label_ok.copy()
        self._dropped_score: dict[str, int] = {}
        for n, c in s_cols.items():
            present = c.notna().to_numpy()
            # counted among the rows that have a label, in column order: a row missing
            # two scores counts for the first
            self._dropped_score[n] = int((keep & ~present).sum())
            keep &= present
        self._used = int(keep.sum())
        if self._used == 0:
            raise refuse.no_used_rows(self._rows, self._dropped_label)
        y_values = y_col[keep]
        distinct_labels = pd.unique(y_values).tolist()
        pos_value = positive_class(distinct_labels, pos_label)
        if pos_value is None:
            self._y = check_labels(_plain_array(y_values), name="the label")
            pos_value = next((v for v in distinct_labels if v == 1), 1)
        else:
            self._y = (y_values == pos_value).to_numpy(dtype=bool)
        self.positive_label: Any = plain_label(pos_value)
        n_pos = int(np.count_nonzero(self._y))
        self.class_rows: tuple[int, int] = (n_pos, int(self._y.size) - n_pos)
        self._s = {n: _score_values(c[keep], n) for n, c in s_cols.items()}
        self._w: np.ndarray | None = None
        if w_col is not None:
            w = w_col[keep]
            if w.isna().any():
                raise refuse.missing_weight(int(w.isna().sum()))
            try:
                wv = w.to_numpy(dtype=np.float64)
            except (TypeError, ValueError):
                raise refuse.not_numeric("weight", str(weight),
                                         f"its dtype is {w.dtype}") from None
            bad = int((~np.isfinite(wv) | (wv < 0)).sum())
            if bad:
                raise refuse.bad_weight(bad)
            self._w = check_weights(wv, self._used, scale=False)
        self._b = b_col[keep].to_numpy(dtype=object) if b_col is not None else None
        # the other columns the groups can be split by (bands, period), by name
        self._splits = {c: col[keep].to_numpy(dtype=object) for c, col in x_cols.items()}
        self._cache: dict[tuple[str, str | None], Any] = {}
        self._rows_grouped: dict[str, group_chunks] = {}
        m1, m0 = self._totals()
        need_classes(m1, m0, "the report", warn=False)
        self._inputs = inputs

    def _totals(self) -> tuple[int | float, int | float]:
        if self._w is None:
            m1 = int(np.count_nonzero(self._y))
            return m1, self._y.size - m1
        return float(self._w[self._y].sum()), float(self._w[~self._y].sum())

    def _integral(self) -> bool:
        return are_counts(self._w)

    def summary(self) -> Summary:
        """Rows read, used and dropped, class totals, distinct and tied scores."""
        m1, m0 = self._totals()
        distinct, tied, prob = {}, {}, {}
        for n, s in self._s.items():
            distinct[n], tied[n] = _distinct_and_tied(self._counted(n))
            prob[n] = bool(s.min() >= 0 and s.max() <= 1)
        return Summary(
            rows=self._rows,
            used=self._used,
            dropped_label=self._dropped_label,
            dropped_score=dict(self._dropped_score),
            positives=m1,
            negatives=m0,
            weighted=self._w is not None,
            integral=self._integral(),
            distinct=distinct,
            tied_rows=tied,
            probabilities=prob,
        )

    def _counted(self, name: str) -> group_chunks:
        """The groups of the rows of score ``name``, each row counted once (the
        weights aside): sorted on the first read, then kept for the next ones."""
        if name not in self._rows_grouped:
            self._rows_grouped[name] = group_chunks(self._y, self._s[name])
        return self._rows_grouped[name]

    def _score(self, name: str) -> np.ndarray:
        if name not in self._s:
            raise refuse.not_a_score(name, list(self._s))
        return self._s[name]

    def _class_weights(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        y = self._y[idx]
        if self._w is None:
            return y.astype(np.int64), (~y).astype(np.int64)
        w = self._w[idx]
        return np.where(y, w, 0.0), np.where(y, 0.0, w)

    def _segment_codes(self, by: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        values = self._b if by is None or by == self.by else self._splits[by]
        assert values is not None
        missing = pd.isna(values)
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
        try:
            order = np.argsort(np.asarray(uniques, dtype=object), kind="stable")
        except TypeError:
            order = np.arange(len(uniques))
        rank = np.empty(len(uniques), dtype=np.int64)
        rank[order] = np.arange(len(uniques))
        seg_codes = np.where(missing, len(uniques), rank[np.where(missing, 0, codes)])
        seg_values = np.empty(len(uniques) + 1, dtype=object)
        seg_values[: len(uniques)] = np.asarray(uniques, dtype=object)[order]
        seg_values[len(uniques)] = None
        return seg_codes, seg_values

    def groups(
        self, score: str, *, by: str | None = None, chunk: int = CHUNK
    ) -> Iterator[Groups]:
        """Score groups in decreasing score order (per segment with ``by``), in chunks."""
        chunk = check_chunk(chunk)
        s = self._score(score)
        if by is not None and by != self.by and by not in self._splits:
            raise refuse.other_by(by, self.by)
        if by is None and self._w is None:  # counts: the summary's grouping, in chunks
            for g in self._counted(score):
                for i in range(0, g.pos.size, chunk):
                    part = slice(i, i + chunk)
                    yield Groups(g.scores[part], g.pos[part], g.neg[part])
            return
        key = (score, by)
        if key not in self._cache:  # the report reads each stream two or three times
            self._cache[key] = self._grouped(s, by)
        gs, gp, gn, gseg = self._cache[key]
        for i in range(0, gs.size, chunk):
            part = slice(i, i + chunk)
            yield Groups(gs[part], gp[part], gn[part], None if gseg is None else gseg[part])

    def _grouped(
        self, s: np.ndarray, by: str | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        if by is None:
            order = _descending(s)
            keys = None
        else:
            codes, seg_values = self._segment_codes(by)
            order = _descending(s, codes)
            keys = codes[order]
        ss = s[order]
        pos, neg = self._class_weights(order)
        cols = (ss,) if keys is None else (keys, ss)
        starts = _group_starts(*cols)
        gs, gp, gn = ss[starts], np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
        gseg = seg_values[keys[starts]] if keys is not None else None
        return gs, gp, gn, gseg

    def pair_groups(
        self, score_a: str, score_b: str, *, chunk: int = CHUNK
    ) -> Iterator[PairGroups]:
        """Groups of equal ``(score_a, score_b)``, by ``score_a`` then ``score_b`` decreasing."""
        chunk = check_chunk(chunk)
        if score_a == score_b:
            raise refuse.same_pair(score_a)
        a, b = self._score(score_a), self._score(score_b)
        order = np.lexsort((~b if b.dtype.kind in "iu" else -b, ~a if a.dtype.kind in "iu" else -a))
        sa, sb = a[order], b[order]
        pos, neg = self._class_weights(order)
        starts = _group_starts(sa, sb)
        ga, gb = sa[starts], sb[starts]
        gp, gn = np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
        for i in range(0, starts.size, chunk):
            part = slice(i, i + chunk)
            yield PairGroups(ga[part], gb[part], gp[part], gn[part])

    def rows(self, *, chunk: int = CHUNK) -> Rows:
        """The rows used in the canonical order (see :class:`Rows`)."""
        check_chunk(chunk)
        keys: list[np.ndarray] = []
        if self._w is not None:
            keys.append(self._w)
        keys.append(self._y)
        keys += [self._s[n] for n in reversed(self.scores)]  # lexsort: the last key first
        order = np.lexsort(keys)
        segment = None
        if self._b is not None:
            segment = self._b[order]
            missing = np.asarray(pd.isna(segment), dtype=bool)
            if missing.any():
                segment = segment.copy()
                segment[missing] = None
        return Rows(self._y[order], {n: self._s[n][order] for n in self.scores},
                    None if self._w is None else self._w[order], segment)

    def inputs(self) -> list[dict[str, Any]]:
        """What was read: each file (path, SHA-256 of its bytes, rows), or a DataFrame
        (no path; the SHA-256 of pandas' row hashes)."""
        return [i.as_dict() for i in self._inputs]

    def close(self) -> None:
        """Nothing to release (the rows are numpy arrays); here for the protocol."""

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def check_chunk(chunk: Any) -> int:
    """``chunk`` as a positive int (a ValueError otherwise)."""
    return check_integer(chunk, "chunk", low=1)
