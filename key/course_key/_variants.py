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

from collections.abc import Callable
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


# ------------------------------------------------ helpers of chapters 6-10 (numbers in words)
__all__ += ["and_join", "approx_text", "decimal_text", "fraction_code", "number_word",
            "ordinal_word", "ratio_text", "redraw", "table_sentence", "tenths_or_hundredths"]

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_word(n: int, *, capital: bool = False) -> str:
    """``n`` in words (0 to 99), digits beyond: ``number_word(15) == "fifteen"``.

    >>> number_word(42), number_word(15, capital=True), number_word(250)
    ('forty-two', 'Fifteen', '250')
    """
    if n < 0 or n > 99:
        word = str(n)
    elif n < 20:
        word = _UNITS[n]
    else:
        word = _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _UNITS[n % 10])
    return word[:1].upper() + word[1:] if capital else word


_ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth "
             "eleventh twelfth").split()


def ordinal_word(n: int) -> str:
    """``n`` (1 to 12) as an ordinal word.

    >>> ordinal_word(8)
    'eighth'
    """
    if not 1 <= n < len(_ORDINALS):
        raise ValueError(f"ordinal_word knows 1..{len(_ORDINALS) - 1}, got {n}")
    return _ORDINALS[n]


def and_join(items: Any) -> str:
    """``["a", "b", "c"]`` as ``"a, b and c"``.

    >>> and_join(["1"]), and_join(["1", "2"]), and_join(["1", "2", "3"])
    ('1', '1 and 2', '1, 2 and 3')
    """
    items = [str(v) for v in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def decimal_text(value: Any) -> str:
    """A number with a short decimal expansion as the book writes it: ``3/10`` -> ``0.3``.

    >>> decimal_text("15/100"), decimal_text(Fraction(7, 8)), decimal_text(1)
    ('0.15', '0.875', '1')
    """
    return f"{float(Fraction(value)):g}"


def approx_text(value: Fraction, digits: int = 2) -> str:
    """``about 0.074`` for 2/27, ``that is 0.25`` when ``digits`` digits are exact.

    >>> approx_text(Fraction(2, 27)), approx_text(Fraction(1, 4)), approx_text(Fraction(11, 18), 3)
    ('about 0.074', 'that is 0.25', 'about 0.611')
    """
    shown = f"{float(value):.{digits}g}"
    return f"that is {shown}" if Fraction(shown) == value else f"about {shown}"


def ratio_text(num: int, den: int) -> str:
    """``16/216 = 2/27``: the counts as a fraction, then reduced when that differs.

    >>> ratio_text(16, 216), ratio_text(30, 37)
    ('16/216 = 2/27', '30/37')
    """
    value = Fraction(num, den)
    return f"{num}/{den}" + ("" if value.denominator == den else f" = {value}")


def fraction_code(text: str) -> str:
    """``"8/10"`` as the code ``Fraction(8, 10)``, keeping the fraction as written.

    >>> fraction_code("8/10"), fraction_code("3/4")
    ('Fraction(8, 10)', 'Fraction(3, 4)')
    """
    num, den = (int(v) for v in str(text).split("/"))
    return f"Fraction({num}, {den})"


def tenths_or_hundredths(k: int) -> str:
    """``k/100`` written as the book writes such data: ``"7/10"`` when ``k`` is a
    multiple of ten, else ``"15/100"``.

    >>> tenths_or_hundredths(70), tenths_or_hundredths(15)
    ('7/10', '15/100')
    """
    return f"{k // 10}/10" if k % 10 == 0 else f"{k}/100"


def redraw(rng: np.random.Generator, draw: Callable[[np.random.Generator], Any],
           accept: Callable[[Any], bool], *, tries: int = 1000) -> Any:
    """Data from ``draw`` until ``accept`` holds (at most ``tries`` draws).

    >>> redraw(np.random.default_rng(0), lambda r: int(r.integers(10)), lambda v: v > 7) > 7
    True
    """
    for _ in range(tries):
        data = draw(rng)
        if accept(data):
            return data
    raise RuntimeError(f"no acceptable draw in {tries} tries")


def table_sentence(table: dict[str, Any], book: dict[str, Any], book_text: str) -> str:
    """The book's own sentence for its table (``book_text``), :func:`table_text` for
    any other table."""
    same = (tuple(table["y"]), tuple(table["b"])) == (tuple(book["y"]), tuple(book["b"]))
    return book_text if same else table_text(table)


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
