"""The wording of the report's refusals, shared by every engine and by the reader of DATA
(:mod:`course_lib.report._sources`), so that neither imports the other for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["refuse"]


class refuse:
    """The wording of every refusal, written once for the three engines (memory, DuckDB,
    Spark): each function returns the :class:`ValueError` to raise, so the same bad
    input gets the same message whatever the engine.

    >>> str(refuse.not_binary(3, ["b", "a", "c"]))
    "the label must be binary: found 3 distinct values: 'a', 'b', 'c'"
    """

    @staticmethod
    def shown(values: Sequence[Any], limit: int = 5) -> str:
        """Up to ``limit`` values, sorted by their repr, with ``...`` when there are more."""
        vals = list(values)
        text = ", ".join(repr(v) for v in sorted(vals, key=repr)[:limit])
        return text + (", ..." if len(vals) > limit else "")

    @staticmethod
    def no_column(what: str, name: Any, columns: Sequence[Any]) -> ValueError:
        if not isinstance(name, str):
            return ValueError(f"the {what} column must be named by a string, got {name!r}")
        shown = ", ".join(repr(str(c)) for c in list(columns)[:10])
        shown += ", ..." if len(columns) > 10 else ""
        return ValueError(f"no {what} column {name!r} in the data (its columns: {shown})")

    @staticmethod
    def not_binary(count: int, some: Sequence[Any]) -> ValueError:
        """``count`` distinct label values, ``some`` of them: the 5 smallest are shown
        (the SQL engines fetch those, ``ORDER BY label LIMIT 5``)."""
        try:
            ordered = sorted(some)
        except TypeError:
            ordered = sorted(some, key=repr)
        shown = ", ".join(repr(v) for v in ordered[:5])
        shown += ", ..." if count > 5 else ""
        return ValueError(f"the label must be binary: found {count} distinct values: {shown}")

    @staticmethod
    def no_pos_label(values: Sequence[Any]) -> ValueError:
        """Two label values that are not 0/1 or booleans, and no ``pos_label``."""
        try:
            ordered = sorted(values)
        except TypeError:
            ordered = sorted(values, key=repr)
        return ValueError(
            f"the label takes the values {{{', '.join(repr(v) for v in ordered)}}} and "
            "pos_label is not specified: name the positive class with pos_label "
            "(--pos-label); only 0/1 and boolean labels need none")

    @staticmethod
    def too_many_levels(by: str, limit: int) -> ValueError:
        """``--by`` on a column of more than ``limit`` distinct values."""
        return ValueError(
            f"the segment column {by!r} has more than {limit} distinct values: a segment "
            "per value is not a segment (a continuous column?); bin the column first "
            "(a few bands), or raise max_levels (--max-levels)")

    @staticmethod
    def not_numeric(what: str, name: str, found: str) -> ValueError:
        """A score or weight column that is not numeric; ``found`` says what it holds."""
        return ValueError(f"the {what} {name!r} must be numeric; {found}")

    @staticmethod
    def not_finite(name: str, count: int) -> ValueError:
        return ValueError(
            f"the score {name!r} has {count} NaN or infinite values among the rows used; "
            "scores must be finite (a missing score is NULL, or an empty cell)")

    @staticmethod
    def missing_weight(count: int) -> ValueError:
        return ValueError(f"the weight is missing in {count} used rows")

    @staticmethod
    def bad_weight(count: int) -> ValueError:
        return ValueError(
            f"the weight has {count} negative, NaN or infinite values; weights must be "
            "finite and non-negative")

    @staticmethod
    def not_a_score(name: Any, scores: Sequence[str]) -> ValueError:
        return ValueError(f"{name!r} is not a score of this engine ({list(scores)})")

    @staticmethod
    def other_by(by: Any, made: Any) -> ValueError:
        return ValueError(f"this engine was made with by={made!r}, not {by!r}")

    @staticmethod
    def same_pair(name: Any) -> ValueError:
        return ValueError(f"pair_groups needs two different scores, got {name!r} twice")

    @staticmethod
    def no_rows(where: str = "") -> ValueError:
        return ValueError("the data has no rows" + (f" ({where})" if where else ""))

    @staticmethod
    def no_used_rows(rows: int, dropped_label: int) -> ValueError:
        return ValueError(
            f"no row has a label and every score ({rows} rows read, "
            f"{dropped_label} without a label)")
