"""Data of per-student variants: small tables like the book's Table 1, drawn at random.

A variant keeps the question and changes its numbers. The book's worked tables are small
on purpose (seven objects, scores on a 0.1 grid, one tie between a positive and a
negative), so a variant table keeps those features: the same size, the same number of
positives, scores with one decimal, and at least one tie across the classes (the case
every chapter asks about). Everything here is plain Python (tuples of ints and floats),
so a variant's data can be recorded and shown.

>>> import numpy as np
>>> t = draw_table(np.random.default_rng(1))
>>> len(t["y"]), sum(t["y"]), has_cross_tie(t)
(7, 3, True)
>>> table_text(dict(y=(0, 0, 0, 1, 1, 1, 0), b=(0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)))[-86:]
'$y = (0, 0, 0, 1, 1, 1, 0)$: objects 4, 5, 6 are positive, objects 3 and 5 tie at 0.2.'
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["draw_table", "has_cross_tie", "numbers_text", "table_code", "table_text"]

_WORDS = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def draw_table(rng: np.random.Generator, *, n: int = 7, positives: int = 3,
               cross_tie: bool = True, grid: int = 10) -> dict[str, tuple]:
    """``{"y": labels, "b": scores}``: ``n`` objects, ``positives`` of them positive,
    distinct-or-tied scores on a ``1/grid`` grid in [0, 1), with (by default) at least one
    tie between a positive and a negative and no other tie."""
    for _ in range(1000):
        y = np.zeros(n, dtype=int)
        y[rng.choice(n, size=positives, replace=False)] = 1
        levels = rng.choice(grid, size=n - 1 if cross_tie else n, replace=False)
        if cross_tie:
            pos = int(rng.choice(np.flatnonzero(y == 1)))
            neg = int(rng.choice(np.flatnonzero(y == 0)))
            scores = np.empty(n, dtype=int)
            others = [i for i in range(n) if i != neg]
            scores[others] = levels
            scores[neg] = scores[pos]
        else:
            scores = levels
        table = {"y": tuple(int(v) for v in y),
                 "b": tuple(round(int(v) / grid, 2) for v in scores)}
        if not cross_tie or has_cross_tie(table):
            return table
    raise RuntimeError("could not draw a table")  # pragma: no cover - 1000 tries


def has_cross_tie(table: dict[str, Any]) -> bool:
    """Whether a positive and a negative share a score."""
    pos = {b for b, y in zip(table["b"], table["y"]) if y == 1}
    neg = {b for b, y in zip(table["b"], table["y"]) if y == 0}
    return bool(pos & neg)


def numbers_text(values: Any) -> str:
    """``(0.5, 0.1, 0.2)`` as the book writes a tuple of numbers."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def table_text(table: dict[str, Any], *, name: str = "The table") -> str:
    """One sentence describing a table like the book's Table 1 (ids, scores, labels, ties)."""
    y, b = table["y"], table["b"]
    n = len(y)
    positives = [str(i + 1) for i, v in enumerate(y) if v == 1]
    groups: dict[float, list[int]] = {}
    for i, v in enumerate(b):
        groups.setdefault(v, []).append(i + 1)
    ties = [(v, ids) for v, ids in groups.items() if len(ids) > 1]
    tie_text = "; ".join(
        f"objects {' and '.join(str(i) for i in ids)} tie at {v}" for v, ids in ties)
    count = _WORDS.get(n, str(n))
    text = (f"{name} has {count} objects with ids 1..{n}, scores "
            f"$b = {numbers_text(b)}$ and labels $y = {numbers_text(y)}$: objects "
            f"{', '.join(positives)} are positive")
    return text + (f", {tie_text}." if ties else ".")


def table_code(table: dict[str, Any]) -> str:
    """The table as two Python lists, for a question that wants code."""
    return f"y = {list(table['y'])}\nb = {list(table['b'])}"
