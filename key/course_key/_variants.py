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

from fractions import Fraction
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


# ------------------------------------------------------------ numbers in texts and code
# Helpers for the variants of chapters 1, 2, 4 and 5 (a rate written "7/10" in the data
# is shown as 0.7 in a question and as Fraction(7, 10) in the worked code).
__all__ += ["book_or_table_text", "decimal_text", "draw_hundredths", "fraction_code",
            "grouped", "number_word", "parse_ratio", "points_text", "ratio_text"]

_SMALL_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                "sixteen", "seventeen", "eighteen", "nineteen", "twenty")


def parse_ratio(text: str) -> tuple[int, int]:
    """``"6/10"`` as the pair ``(6, 10)``, not reduced (an int string is over 1).

    >>> parse_ratio("6/10"), parse_ratio("3")
    ((6, 10), (3, 1))
    """
    num, _, den = str(text).partition("/")
    p, q = int(num), int(den or 1)
    if q <= 0:
        raise ValueError(f"not a ratio with a positive denominator: {text!r}")
    return p, q


def fraction_code(text: str) -> str:
    """The Python code of a ratio as written, e.g. ``"6/10"`` -> ``Fraction(6, 10)``.

    >>> fraction_code("6/10")
    'Fraction(6, 10)'
    """
    p, q = parse_ratio(text)
    return f"Fraction({p}, {q})"


def decimal_text(value: Any) -> str:
    """A ratio (``"7/10"``, a Fraction) as the short decimal a question shows.

    >>> decimal_text("7/10"), decimal_text("73/100"), decimal_text(Fraction(13, 20))
    ('0.7', '0.73', '0.65')
    """
    if isinstance(value, str):
        p, q = parse_ratio(value)
        value = Fraction(p, q)
    return f"{float(value):g}"


def ratio_text(num: int, den: int) -> str:
    """``a/b``, followed by its reduced form when it reduces.

    >>> ratio_text(120, 130), ratio_text(5, 7), ratio_text(20, 20)
    ('120/130 = 12/13', '5/7', '20/20 = 1')
    """
    reduced = Fraction(num, den)
    text = f"{num}/{den}"
    if (reduced.numerator, reduced.denominator) == (num, den):
        return text
    return f"{text} = {reduced}"


def grouped(n: int) -> str:
    """An integer with its thousands separated by spaces, as the book writes big counts.

    >>> grouped(1000000), grouped(999)
    ('1 000 000', '999')
    """
    return f"{int(n):,}".replace(",", " ")


def number_word(n: int) -> str:
    """Zero to twenty as a word, larger numbers as digits.

    >>> number_word(10), number_word(21)
    ('ten', '21')
    """
    return _SMALL_WORDS[n] if 0 <= n < len(_SMALL_WORDS) else str(n)


def points_text(points: Any) -> str:
    """``[(0, 0), (Fraction(1, 4), Fraction(1, 3))]`` as ``(0, 0), (1/4, 1/3)``.

    >>> points_text([(Fraction(0), Fraction(1, 3))])
    '(0, 1/3)'
    """
    return ", ".join(f"({Fraction(x)}, {Fraction(y)})" for x, y in points)


def draw_hundredths(rng: np.random.Generator, low: int, high: int) -> str:
    """A rate in hundredths drawn from ``low/100 .. high/100`` (both included), written
    as the data of a variant write it: ``"73/100"``."""
    return f"{int(rng.integers(low, high + 1))}/100"


def book_or_table_text(data: dict[str, Any], book: dict[str, Any], book_text: str) -> str:
    """The book's own sentence for its table, :func:`table_text` for a variant's table."""
    same = all(tuple(data[k]) == tuple(book[k]) for k in ("y", "b"))
    return book_text if same else table_text(data)


__all__ += ["cross_tie", "ids_text"]


def cross_tie(table: dict[str, Any]) -> tuple[int, int, float]:
    """The first tie across the classes: (index of the positive, index of the negative,
    their score); ValueError when there is none.

    >>> cross_tie(dict(y=(0, 0, 0, 1, 1, 1, 0), b=(0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)))
    (4, 2, 0.2)
    """
    y, b = table["y"], table["b"]
    for i, (yi, bi) in enumerate(zip(y, b)):
        for j, (yj, bj) in enumerate(zip(y, b)):
            if yi == 1 and yj == 0 and bi == bj:
                return i, j, bi
    raise ValueError("the table has no tie between a positive and a negative")


def ids_text(ids: Any, *, last: str = " and ") -> str:
    """``[4, 1, 6]`` as ``4, 1 and 6`` (``last=", "`` gives ``4, 1, 6``).

    >>> ids_text([0.1, 0.0]), ids_text([4]), ids_text([4, 1, 6], last=", ")
    ('0.1 and 0.0', '4', '4, 1, 6')
    """
    items = [str(i) for i in ids]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]

