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
__all__ += ["and_join", "approx_text", "decimal_text", "number_word",
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


# ------------------------------------------------- helpers of chapters 11-12 and 14-17
__all__ += [
    "count_table",
    "draw_count_groups",
    "exact_text",
    "fraction_code",
    "share_words",
    "transposed_table",
    "wrap_items",
]

_SHARE_ORDINALS = {2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"),
             5: ("fifth", "fifths"), 6: ("sixth", "sixths"), 7: ("seventh", "sevenths"),
             8: ("eighth", "eighths"), 9: ("ninth", "ninths"), 10: ("tenth", "tenths")}
_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", **_WORDS}


def exact_text(value: Any) -> str:
    """A fraction as a decimal when its expansion ends (at most 6 digits), else ``p/q``.

    >>> from fractions import Fraction
    >>> exact_text(Fraction(33, 40)), exact_text(Fraction(27, 35))
    ('0.825', '27/35')
    """
    f = Fraction(value)
    if (f * 10**6).denominator == 1:
        return decimal_text(f)
    return str(f)


def fraction_code(value: Any) -> str:
    """A fraction as Python code: ``Fraction(1, 5)``, or the integer when it is one.

    >>> from fractions import Fraction
    >>> fraction_code(Fraction(2, 10)), fraction_code(Fraction(4, 2))
    ('Fraction(1, 5)', '2')
    """
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else \
        f"Fraction({f.numerator}, {f.denominator})"


def share_words(value: Any) -> str:
    """A share in words: ``1/5`` -> ``'a fifth'``, ``3/10`` -> ``'three tenths'``.

    >>> from fractions import Fraction
    >>> share_words(Fraction(1, 5)), share_words(Fraction(2, 3)), share_words(Fraction(1, 2))
    ('a fifth', 'two thirds', 'half')
    """
    f = Fraction(value)
    if f == Fraction(1, 2):
        return "half"
    if not 0 < f < 1 or f.denominator not in _SHARE_ORDINALS:
        raise ValueError(f"no words for the share {f}")
    one, many = _SHARE_ORDINALS[f.denominator]
    if f.numerator == 1:
        return f"a {one}"
    return f"{_COUNT_WORDS[f.numerator]} {many}"


def count_table(header: Any, rows: Any) -> str:
    """A markdown table with right-aligned columns (a ``GROUP BY`` result).

    >>> print(count_table(("score", "n"), [(3, 2), (1, 4)]))
    | score | n |
    |------:|--:|
    | 3 | 2 |
    | 1 | 4 |
    """
    head = "| " + " | ".join(header) + " |"
    rule = "|" + "|".join("-" * (len(h) + 1) + ":" for h in header) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return "\n".join([head, rule, *body])


def transposed_table(table: dict[str, Any]) -> str:
    """A Table-1-like table with one column per object (labels, then scores).

    >>> print(transposed_table({"y": (0, 1), "b": (0.5, 0.0)}))
    | object | 1 | 2 |
    |---|---|---|
    | label $y$ | 0 | 1 |
    | score $b$ | 0.5 | 0.0 |
    """
    n = len(table["y"])
    return "\n".join([
        "| object | " + " | ".join(str(i + 1) for i in range(n)) + " |",
        "|" + "---|" * (n + 1),
        "| label $y$ | " + " | ".join(str(v) for v in table["y"]) + " |",
        "| score $b$ | " + " | ".join(str(v) for v in table["b"]) + " |",
    ])


def wrap_items(prefix: str, items: Any, suffix: str = "", *, width: int = 88) -> str:
    """``prefix + ", ".join(items) + suffix``, broken after a comma before ``width``
    characters, the next lines indented under the first item.

    >>> print(wrap_items("x = [", ["111", "222", "333"], "]", width=14))
    x = [111, 222,
         333]
    """
    items = list(items)
    indent = " " * len(prefix)
    lines, line = [], prefix
    for i, item in enumerate(items):
        last = i == len(items) - 1
        piece = item + (suffix if last else ",")
        if line not in (prefix, indent) and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent + piece
        else:
            line += ("" if line in (prefix, indent) else " ") + piece
    lines.append(line)
    return "\n".join(lines)


def draw_count_groups(rng: np.random.Generator, *, groups: int = 3, low: int = 1,
                      high: int = 4) -> tuple[tuple[int, int], ...]:
    """``groups`` pairs (positives, negatives), each count in ``low..high``: the rows of a
    ``GROUP BY score`` result, highest score first.

    >>> g = draw_count_groups(np.random.default_rng(0))
    >>> len(g), all(1 <= v <= 4 for row in g for v in row)
    (3, True)
    """
    counts = rng.integers(low, high + 1, size=(groups, 2))
    return tuple((int(p), int(q)) for p, q in counts)


__all__ += ["draw_ranking_table"]


def draw_ranking_table(rng: np.random.Generator, **kwargs: Any) -> dict[str, tuple]:
    """:func:`draw_table` redrawn until its AUC (ties one half) is above 1/2: a model that
    ranks better than chance, as the book's Table 1 (AUC 19/24) does.

    >>> t = draw_ranking_table(np.random.default_rng(3))
    >>> pos = [b for b, y in zip(t["b"], t["y"]) if y == 1]
    >>> neg = [b for b, y in zip(t["b"], t["y"]) if y == 0]
    >>> sum((p > q) + (p == q) / 2 for p in pos for q in neg) > len(pos) * len(neg) / 2
    True
    """
    while True:
        table = draw_table(rng, **kwargs)
        pos = [b for b, y in zip(table["b"], table["y"]) if y == 1]
        neg = [b for b, y in zip(table["b"], table["y"]) if y == 0]
        twice = sum(2 * (p > q) + (p == q) for p in pos for q in neg)
        if twice > len(pos) * len(neg):
            return table

# ------------------------------------------------------------ numbers in texts and code
# Helpers for the variants of chapters 1, 2, 4 and 5 (a rate written "7/10" in the data
# is shown as 0.7 in a question and as Fraction(7, 10) in the worked code).
__all__ += ["book_or_table_text", "draw_hundredths", "ratio_code",
            "grouped", "parse_ratio", "points_text", "small_number_word"]

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


def ratio_code(text: str) -> str:
    """The Python code of a ratio as written, e.g. ``"6/10"`` -> ``Fraction(6, 10)``.

    >>> ratio_code("6/10")
    'Fraction(6, 10)'
    """
    p, q = parse_ratio(text)
    return f"Fraction({p}, {q})"


def grouped(n: int) -> str:
    """An integer with its thousands separated by spaces, as the book writes big counts.

    >>> grouped(1000000), grouped(999)
    ('1 000 000', '999')
    """
    return f"{int(n):,}".replace(",", " ")


def small_number_word(n: int) -> str:
    """Zero to twenty as a word, larger numbers as digits.

    >>> small_number_word(10), small_number_word(21)
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

