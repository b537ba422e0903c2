"""Exact ROC, AUC, Gini, KS, gain/lift curves and the gains table as SQL (Part VII).

The curves of this library are cumulative sums over *groups of equal scores* taken in
decreasing score order. In SQL that is two steps, and the order matters for speed:

1. ``GROUP BY score``: one row per distinct score with the count (or weight) of each
   class, ``pos`` and ``neg``. Tied scores are one row, so a tie can never be split.
2. a window over those groups, ``SUM(pos) OVER (ORDER BY score DESC ...)``: the
   cumulative counts ``tp`` and ``fp`` of the rule ``score >= threshold``.

The window runs over the distinct scores, not over all rows. The AUC with ties is
``sum_g neg_g (2 (tp_g - pos_g) + pos_g) / (2 m1 m0)``: ``tp_g - pos_g`` positives score
above the group and its own ``pos_g`` count one half. Without weights (or with integer
weights) every term is an integer, so the numerator is summed in a 128-bit integer type
and the result is returned as an exact :class:`fractions.Fraction`.

The package has one module per job; every public name is importable from here:

* :mod:`course_lib.sql.generate` -- SQL generation: :func:`relation` validates and
  quotes a source (a table name or a ``SELECT`` query) and its label, score and weight
  columns, nothing else goes into the SQL; the ``*_sql`` functions turn a
  :class:`Relation` into one statement (pure functions); the two dialects
  (:class:`Dialect`, :data:`DUCKDB`, :data:`SPARK`).
* :mod:`course_lib.sql.runners` -- the engines: :class:`DuckDBRunner` (embedded, the
  default) and :class:`SparkRunner` execute a statement and return its rows.
* :mod:`course_lib.sql.convert` -- fetched rows into the objects of the rest of
  :mod:`course_lib` (``Fraction``, :class:`~course_lib.roc.RocCurve`, a gains
  ``DataFrame``, ...) and the result types :class:`SqlChecks`, :class:`SqlKs`,
  :class:`SqlEvaluation`.
* :mod:`course_lib.sql.compute` -- the ``sql_*`` functions, which check the source,
  run a statement and convert its rows: the library's numbers computed in the engine.
"""

from __future__ import annotations

# Each module's __all__ names its public names once; the package re-exports them all.
from . import compute, convert, generate, runners
from .compute import *  # noqa: F403
from .compute import BUCKETS  # noqa: F401 (the bucket count of sql_evaluation)
from .convert import *  # noqa: F403
from .generate import *  # noqa: F403
from .runners import *  # noqa: F403

__all__ = [*generate.__all__, *runners.__all__, *convert.__all__, *compute.__all__]
