"""The exercise framework: answers, checkers, feedback.

An :class:`Exercise` holds its question, its reference answer and a *checker*. A checker
never trusts anything but the answer it is given: it normalizes the answer (a numpy
scalar, an int, a :class:`~fractions.Fraction`, a string ``"19/24"``, a one-element list
all mean the same number), compares it with the reference and, when the answer is wrong,
looks for the likely mistake among values recomputed the typical wrong ways on the same
data (see :mod:`course_lib.exercises._hints`).

Function answers are run on hidden cases generated at check time
(:mod:`course_lib.exercises._cases`), each call with a time limit, and the feedback shows
the smallest failing input with the expected and the given output.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import math
import numbers
import re
import signal
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["CALL_TIME_LIMIT", "Exercise", "Feedback", "FunctionSpec", "Mistake", "decode_answer",
           "encode_answer"]

#: Seconds a function answer may spend on one hidden case.
CALL_TIME_LIMIT = 2.0

NOT_ANSWERED = "not answered yet: replace the ... with your answer"

#: How messages show the forms a number may take. Its example is no exercise's answer
#: (a test holds it against every reference, the variants' too).
FORMAT_EXAMPLE = 'a fraction like "5/11", a decimal or a percent'

#: What a decimal close to an exact answer is told (the letters, never the answer's p, q).
GIVE_EXACTLY = 'close: give it exactly, e.g. Fraction(p, q) or the string "p/q"'

#: How near an exact answer a decimal is "close" (relative to the answer when above 1):
#: a rounding to three decimals or more.
CLOSE_TOLERANCE = 5e-4


# --------------------------------------------------------------------------- feedback
@dataclass(frozen=True)
class Feedback:
    """The outcome of checking one answer: passed or not, the points, and why.

    Renders in a notebook as a small box (``_repr_html_``) and as plain text.

    ``public_only`` marks the check of a function answer that ran only the public cases
    (a student copy's ``check``): it gives no points, ``passed`` says only that the
    public cases passed, and the text says what was run instead of "passed (2/2
    points)", since the grader judges the answer on hidden cases as well.

    Examples
    --------
    >>> fb = Feedback("demo", True, 2.0, 2, "correct")
    >>> str(fb)
    'demo: passed (2/2 points). correct'
    >>> fb.to_dict()["passed"]
    True
    >>> print(Feedback("f", True, 0.0, 2, "passes the 5 public cases; graded on hidden "
    ...                "cases as well", public_only=True))
    f: passes the 5 public cases; graded on hidden cases as well (the grader decides its 2 points)
    """

    exercise_id: str
    passed: bool
    points: float
    max_points: int
    message: str
    public_only: bool = False

    def _points_text(self) -> str:
        if self.public_only:
            return f"the grader decides its {self.max_points} points"
        p = self.points
        shown = f"{p:g}" if isinstance(p, float) else str(p)
        return f"{shown}/{self.max_points} points"

    def __str__(self) -> str:
        if self.public_only:
            return f"{self.exercise_id}: {self.message} ({self._points_text()})"
        status = "passed" if self.passed else "not passed"
        return f"{self.exercise_id}: {status} ({self._points_text()}). {self.message}"

    def _repr_html_(self) -> str:
        ok = self.passed
        if self.public_only:  # neither a pass nor a failure: what was run, in blue
            colour, background, mark = "#1f5fa8", "#eef3fb", "&#8505;"
            status = "Public cases passed" if ok else "Not judged here"
        else:
            colour = "#1a7f37" if ok else "#b42318"
            background = "#eef8f0" if ok else "#fdf0ef"
            mark = "&#10004;" if ok else "&#10008;"
            status = "Passed" if ok else "Not passed"
        message = html.escape(self.message).replace("\n", "<br>")
        return (
            f'<div role="status" aria-label="{status}: {html.escape(self.exercise_id)}" '
            f'style="border:2px solid {colour};border-radius:4px;padding:0.4em 0.7em;'
            f'margin:0.3em 0;background:{background};color:#111;">'
            f'<strong style="color:{colour};"><span aria-hidden="true">{mark}</span> '
            f"{status}</strong> &middot; <code>{html.escape(self.exercise_id)}</code> "
            f"&middot; {self._points_text()}"
            f'<div style="margin-top:0.2em;white-space:pre-wrap;">{message}</div></div>'
        )

    def __repr__(self) -> str:
        return f"Feedback({str(self)!r})"

    def to_dict(self) -> dict:
        """A JSON-serializable dict of the five fields (and ``public_only`` when set)."""
        out = {
            "exercise_id": self.exercise_id,
            "passed": bool(self.passed),
            "points": float(self.points),
            "max_points": int(self.max_points),
            "message": self.message,
        }
        if self.public_only:
            out["public_only"] = True
        return out


# --------------------------------------------------------------------------- encoding
class _Callable:
    """Stands for a function answer that crossed a process boundary (it cannot)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<function {self.name}>"


def encode_answer(value: Any) -> dict:
    """Encode an answer as a JSON-serializable dict (inverse: :func:`decode_answer`).

    Handled: ``...`` (a stub), ``None``, bools, ints, floats (``nan`` and ``inf`` as
    strings), :class:`~fractions.Fraction` (``"p/q"``), strings, numpy scalars (as the
    Python number) and arrays (nested lists with dtype and shape), lists, tuples, dicts,
    sympy expressions (``srepr`` and ``str``) and callables (only their name: a function
    answer is judged on its outputs, see :meth:`Exercise.check_outputs`). Anything else
    is encoded as ``{"type": "unsupported", "repr": ...}``, which every checker rejects.

    Examples
    --------
    >>> encode_answer(Fraction(19, 24))
    {'type': 'fraction', 'value': '19/24'}
    >>> decode_answer(encode_answer((1, 0.5, "x")))
    (1, 0.5, 'x')
    """
    if value is Ellipsis:
        return {"type": "ellipsis"}
    if value is None:
        return {"type": "none"}
    if isinstance(value, (bool, np.bool_)):
        return {"type": "bool", "value": bool(value)}
    if isinstance(value, (int, np.integer)):
        return {"type": "int", "value": int(value)}
    if isinstance(value, Fraction):
        return {"type": "fraction", "value": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return {"type": "float", "value": v if math.isfinite(v) else repr(v)}
    if isinstance(value, str):
        return {"type": "str", "value": value}
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biuf":
            items = [encode_answer(v) for v in value.ravel().tolist()]
            return {"type": "ndarray", "dtype": value.dtype.str, "shape": list(value.shape),
                    "items": items}
        return {"type": "ndarray", "dtype": "O", "shape": list(value.shape),
                "items": [encode_answer(v) for v in value.ravel().tolist()]}
    if isinstance(value, (list, tuple)):
        return {"type": type(value).__name__ if type(value) in (list, tuple) else "list",
                "items": [encode_answer(v) for v in value]}
    if isinstance(value, dict):
        return {"type": "dict", "items": [[encode_answer(k), encode_answer(v)]
                                          for k, v in value.items()]}
    mod = type(value).__module__ or ""
    if mod.startswith("sympy"):
        import sympy

        return {"type": "sympy", "srepr": sympy.srepr(value), "str": str(value)}
    if callable(value):
        return {"type": "callable", "name": getattr(value, "__qualname__", repr(value))}
    return {"type": "unsupported", "repr": repr(value)[:200]}


class _Unsupported:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def decode_answer(data: Mapping[str, Any]) -> Any:
    """Rebuild an answer from :func:`encode_answer`'s dict, without evaluating code.

    sympy expressions are rebuilt from their ``srepr`` by a small parser that accepts
    only calls of sympy's own classes on literals (never ``eval``), so a hostile string
    cannot run code in the grader's process.

    Examples
    --------
    >>> decode_answer({"type": "fraction", "value": "3/4"})
    Fraction(3, 4)
    >>> decode_answer({"type": "float", "value": "nan"})
    nan
    """
    if not isinstance(data, Mapping) or "type" not in data:
        raise ValueError(f"not an encoded answer: {str(data)[:80]!r}")
    kind = data["type"]
    if kind == "ellipsis":
        return Ellipsis
    if kind == "none":
        return None
    if kind == "bool":
        return bool(data["value"])
    if kind == "int":
        return int(data["value"])
    if kind == "fraction":
        return Fraction(str(data["value"]))
    if kind == "float":
        return float(data["value"])
    if kind == "str":
        return str(data["value"])
    if kind in ("list", "tuple"):
        items = [decode_answer(v) for v in data["items"]]
        return tuple(items) if kind == "tuple" else items
    if kind == "dict":
        out = {}
        for k, v in data["items"]:
            key = decode_answer(k)
            out[key if isinstance(key, (str, int, float, bool, Fraction, tuple)) or key is None
                else repr(key)] = decode_answer(v)
        return out
    if kind == "ndarray":
        items = [decode_answer(v) for v in data["items"]]
        shape = tuple(int(s) for s in data["shape"])
        if data["dtype"] == "O":
            arr = np.empty(len(items), dtype=object)
            arr[:] = items
            return arr.reshape(shape)
        dtype = np.dtype(str(data["dtype"]))
        if dtype.kind not in "biuf" or dtype.itemsize > 16:
            raise ValueError(f"unsupported array dtype {dtype}")
        return np.array(items, dtype=dtype).reshape(shape)
    if kind == "sympy":
        return _safe_srepr(str(data["srepr"]))
    if kind == "callable":
        return _Callable(str(data.get("name", "?")))
    return _Unsupported(str(data.get("repr", "?")))


_SYMPY_NAMES = {
    "Symbol", "Integer", "Rational", "Float", "Add", "Mul", "Pow", "Half", "One", "Zero",
    "NegativeOne", "Dummy", "sqrt", "exp", "log", "Abs", "Piecewise", "ExprCondPair",
    "StrictLessThan", "LessThan", "StrictGreaterThan", "GreaterThan", "And", "Or", "Max",
    "Min", "pi", "E", "Tuple", "Eq", "BooleanTrue", "BooleanFalse", "true", "false",
    "Interval", "oo", "Infinity", "NegativeInfinity", "nan", "NaN", "sin", "cos",
}


def _refuse_huge(name: str, args: list, kwargs: dict) -> None:
    """Refuse constructions whose evaluation could take forever (a huge power, a Float
    with a huge precision)."""
    if name == "Pow" and len(args) == 2:
        exponent = args[1]
        if getattr(exponent, "is_Integer", False) and abs(int(exponent)) > 1000:
            raise ValueError("exponent too large")
    if name == "Float":
        for value in list(args[1:]) + list(kwargs.values()):
            if isinstance(value, int) and abs(value) > 1000:
                raise ValueError("precision too large")


_EXPR_FUNCTIONS = {"sqrt", "exp", "log", "Abs", "Rational"}


def safe_expression(text: str, symbols: Mapping[str, Any]) -> Any:
    """Read a formula such as ``"1 - theta**2"`` into sympy without ``eval``.

    Only numbers, the given symbols, ``pi``, ``E``, ``+ - * / **`` and the functions
    sqrt, exp, log, Abs and Rational are allowed, so a hostile string cannot run code.

    >>> import sympy
    >>> t = sympy.Symbol("theta")
    >>> safe_expression("1 - theta**2", {"theta": t})
    1 - theta**2
    """
    import operator

    import sympy

    if len(text) > 500:
        raise ValueError("expression too long")
    tree = ast.parse(text.replace("^", "**"), mode="eval")
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.Pow: operator.pow}

    def build(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return sympy.nsimplify(node.value) if isinstance(node.value, float) \
                else sympy.Integer(node.value)
        if isinstance(node, ast.Name):
            if node.id in symbols:
                return symbols[node.id]
            if node.id in ("pi", "E"):
                return getattr(sympy, node.id)
            raise ValueError(f"unknown name {node.id!r}")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = build(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            left, right = build(node.left), build(node.right)
            if isinstance(node.op, ast.Pow) and getattr(right, "is_number", False) \
                    and abs(float(right)) > 1000:
                raise ValueError("exponent too large")
            return ops[type(node.op)](left, right)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _EXPR_FUNCTIONS and not node.keywords):
            return getattr(sympy, node.func.id)(*[build(a) for a in node.args])
        raise ValueError("not a formula")

    return build(tree.body)


def _safe_srepr(text: str) -> Any:
    """Evaluate a sympy ``srepr`` string allowing only sympy constructors and literals."""
    import sympy

    if len(text) > 20000:
        raise ValueError("sympy expression too long")
    tree = ast.parse(text, mode="eval")

    def build(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -build(node.operand)
        if isinstance(node, ast.Tuple):
            return tuple(build(e) for e in node.elts)
        if isinstance(node, ast.Name) and node.id in _SYMPY_NAMES:
            return getattr(sympy, node.id)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _SYMPY_NAMES):
            func = getattr(sympy, node.func.id)
            args = [build(a) for a in node.args]
            kwargs = {k.arg: build(k.value) for k in node.keywords if k.arg is not None}
            if len(kwargs) != len(node.keywords):
                raise ValueError("** arguments are not allowed")
            _refuse_huge(node.func.id, args, kwargs)
            return func(*args, **kwargs)
        raise ValueError(f"not allowed in a sympy expression: {ast.dump(node)[:60]}")

    return build(tree.body)


# --------------------------------------------------------------------------- numbers
class Reject(Exception):
    """An answer of the wrong form; the message says why."""


def describe(value: Any) -> str:
    """A short readable rendering of a value for feedback messages."""
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    if isinstance(value, float):
        return f"{value:.10g}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {describe(v)}" for k, v in value.items()) + "}"
    if isinstance(value, np.ndarray):
        return describe(value.tolist())
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def number_list(given: Any, size: int, what: str = "numbers") -> np.ndarray:
    """A function answer's output read as ``size`` floats; :class:`Reject` saying why not
    (it raised, it is not a list of numbers, it has another length)."""
    if isinstance(given, dict) and "__error__" in given:
        raise Reject(f"raised {given['__error__']}")
    try:
        arr = np.asarray(given, dtype=float).ravel()
    except (TypeError, ValueError):
        raise Reject(f"expected a list of numbers, got {describe(given)}") from None
    if arr.size != size:
        raise Reject(f"expected {size} {what}, got {arr.size}")
    return arr


def order_reason(expected: Any, given: Any) -> str | None:
    """Whether the numbers ``given`` keep the strict order of ``expected`` (ties in
    ``expected`` may be broken either way): None when they do, else why not.

    >>> order_reason([0.2, 0.9, 0.5], [1, 7, 3]) is None
    True
    >>> order_reason([1.0, 0.0, 0.0], [0, 5, 5])
    'objects 0 and 1 are in the wrong order'
    """
    e = np.asarray(expected, dtype=float).ravel()
    try:
        g = number_list(given, e.size, "scores")
    except Reject as exc:
        return str(exc)
    de = np.sign(np.round(e[:, None] - e[None, :], 12))
    dg = np.sign(g[:, None] - g[None, :])
    bad = (de != 0) & (de != dg)
    if not bad.any():
        return None
    i, j = sorted(map(int, np.argwhere(bad)[0]))
    return f"objects {i} and {j} are in the wrong order"


def judge_number_list(case: dict, expected: Any, given: Any) -> str | None:
    """Judge of a function answer whose output is a list of numbers: equal to the
    reference within 1e-9, else the reason (``None`` when right)."""
    try:
        arr = number_list(given, len(expected))
    except Reject as exc:
        return str(exc)
    if np.allclose(arr, expected, rtol=0, atol=1e-9):
        return None
    return f"expected {describe(expected)}, got {describe(arr.tolist())}"


def as_number(answer: Any) -> Fraction | float:
    """Normalize a numeric answer to a Fraction (exact forms) or a float.

    Accepts ints, Fractions, floats, numpy scalars, sympy numbers, strings such as
    ``"19/24"``, ``"0.79"`` or ``"79%"``, and a list, tuple or array holding one number.
    Raises :class:`Reject` with a reason otherwise.

    >>> as_number("19/24"), as_number(np.float64(0.5)), as_number([3])
    (Fraction(19, 24), 0.5, Fraction(3, 1))
    """
    if answer is Ellipsis:
        raise Reject(NOT_ANSWERED)
    if isinstance(answer, (bool, np.bool_)):
        raise Reject(f"expected a number, got the truth value {bool(answer)}")
    if isinstance(answer, (int, np.integer)):
        return Fraction(int(answer))
    if isinstance(answer, Fraction):
        return answer
    if isinstance(answer, (float, np.floating)):
        v = float(answer)
        if math.isnan(v):
            raise Reject("expected a number, got nan")
        return v
    if isinstance(answer, numbers.Rational):
        return Fraction(int(answer.numerator), int(answer.denominator))
    if isinstance(answer, str):
        text = answer.strip().replace(" ", "")
        percent = text.endswith("%")
        text = text.rstrip("%")
        try:
            value: Fraction | float = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise Reject(f"could not read the string {answer!r} as a number "
                         f"(write {FORMAT_EXAMPLE})") from None
        if "." in text or "e" in text.lower():
            value = float(value)
        return value / 100 if percent else value
    if isinstance(answer, (list, tuple, np.ndarray)):
        flat = np.asarray(answer, dtype=object).ravel().tolist()
        if len(flat) == 1:
            return as_number(flat[0])
        raise Reject(f"expected one number, got {len(flat)} values")
    mod = type(answer).__module__ or ""
    if mod.startswith("sympy"):
        import sympy

        expr = sympy.sympify(answer)
        if expr.is_Rational:
            return Fraction(int(expr.p), int(expr.q))
        if expr.is_number and expr.is_real:
            return float(expr)
        raise Reject(f"expected a number, got the expression {expr}")
    if isinstance(answer, _Callable) or callable(answer):
        raise Reject("expected a number, got a function")
    raise Reject(f"expected a number, got {type(answer).__name__} {describe(answer)}")


def same_number(given: Fraction | float, expected: Fraction | float, tol: float) -> bool:
    """Equal exactly (both Fractions) or within ``tol`` (absolute, or relative if larger)."""
    if isinstance(given, Fraction) and isinstance(expected, Fraction):
        return given == expected
    g, e = float(given), float(expected)
    if math.isinf(e) or math.isinf(g):
        return g == e
    return abs(g - e) <= tol * max(1.0, abs(e))


def _float_tolerance(answer: Any) -> float:
    """The rounding error of a low-precision float answer (numpy float32, float16)."""
    if isinstance(answer, np.floating) and answer.dtype.itemsize < 8:
        return 4 * float(np.finfo(answer.dtype).eps)
    if isinstance(answer, np.ndarray) and answer.dtype.kind == "f" and answer.dtype.itemsize < 8:
        return 4 * float(np.finfo(answer.dtype).eps)
    return 0.0


@dataclass(frozen=True)
class Mistake:
    """A typical wrong answer recomputed on the exercise's data, with its hint."""

    value: Any
    hint: str


# --------------------------------------------------------------------------- checkers
Verdict = tuple[float, str]  # (share of the points in [0, 1], message)


class Checker:
    """Base class: ``verdict(answer) -> (share, message)``; may raise Reject."""

    #: True when the expected answer is a single number (used by multi-part checkers).
    def verdict(self, answer: Any) -> Verdict:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True)
class NumberChecker(Checker):
    """A single number: exact for a Fraction reference, else within ``tol``.

    A float within 1e-9 of a Fraction reference passes with a note of the exact value.
    Wrong answers are compared with the mistakes; a decimal within ``close`` (relative
    above 1) of a Fraction reference is told to give the value exactly; then the answer
    is compared with ``100 * value`` (percent).

    >>> checker = exact(Fraction(19, 24))
    >>> checker.verdict(0.7917)
    (0.0, '0.7917 is close: give it exactly, e.g. Fraction(p, q) or the string "p/q"')
    >>> checker.verdict("19/24")[0], checker.verdict(0.75)[1]
    (1.0, '0.75 is not right.')
    """

    expected: Fraction | float
    tol: float = 1e-9
    mistakes: tuple[Mistake, ...] = ()
    hint: str = ""
    close: float = CLOSE_TOLERANCE

    def verdict(self, answer: Any) -> Verdict:
        given = as_number(answer)
        exp = self.expected
        tol = max(self.tol, _float_tolerance(answer))
        if isinstance(exp, Fraction):
            if isinstance(given, Fraction):
                if given == exp:
                    return 1.0, f"correct: {describe(exp)}"
            elif abs(float(given) - float(exp)) <= max(tol, 1e-9) * max(1.0, abs(float(exp))):
                return 1.0, f"correct; the exact value is {describe(exp)}"
        elif same_number(given, exp, tol):
            return 1.0, f"correct (within {self.tol:g} of {describe(exp)})"
        for m in self.mistakes:
            try:
                if same_number(given, as_number(m.value), max(self.tol, 1e-9)):
                    return 0.0, f"{describe(given)} is not right. {m.hint}"
            except Reject:
                continue
        if (isinstance(exp, Fraction) and isinstance(given, float) and self.close > 0
                and abs(given - float(exp)) <= self.close * max(1.0, abs(float(exp)))):
            return 0.0, f"{describe(given)} is {GIVE_EXACTLY}"
        if float(exp) != 0 and same_number(given, 100 * float(exp), 1e-9):
            return 0.0, (f"{describe(given)} looks like a percent: give the value as a "
                         "fraction of 1, not in percent")
        msg = f"{describe(given)} is not right."
        return 0.0, f"{msg} {self.hint}".strip()


@dataclass(frozen=True)
class ChoiceChecker(Checker):
    """One of a few words (case-insensitive), with synonyms, e.g. yes/no, up/down."""

    expected: str
    options: Mapping[str, str]  # accepted spelling -> canonical word
    mistakes: Mapping[str, str] = field(default_factory=dict)  # canonical -> hint
    hint: str = ""

    def verdict(self, answer: Any) -> Verdict:
        if answer is Ellipsis:
            raise Reject(NOT_ANSWERED)
        if isinstance(answer, (bool, np.bool_)):
            word = "yes" if bool(answer) else "no"
        elif isinstance(answer, (int, np.integer)) and not isinstance(answer, bool):
            word = str(int(answer))
        elif isinstance(answer, str):
            word = answer.strip().lower()
        else:
            raise Reject(f"expected one of {sorted(set(self.options.values()))}, "
                         f"got {describe(answer)}")
        if word not in self.options:
            raise Reject(f"{answer!r} is not one of the possible answers "
                         f"{sorted(set(self.options.values()))}")
        canon = self.options[word]
        if canon == self.expected:
            return 1.0, f"correct: {canon}"
        hint = self.mistakes.get(canon, self.hint)
        return 0.0, f"{canon!r} is not right. {hint}".strip()


def yes_no(expected: bool, *, hint: str = "") -> ChoiceChecker:
    """A yes/no question: True/False, "yes"/"no" are accepted."""
    opts = {"yes": "yes", "y": "yes", "true": "yes", "no": "no", "n": "no", "false": "no"}
    return ChoiceChecker("yes" if expected else "no", opts, hint=hint)


def tuple_answer(answer: Any, names: Sequence[str]) -> tuple:
    """A tuple answer of ``len(names)`` parts (a dict by the names, an array, a list);
    :class:`Reject` otherwise."""
    if answer is Ellipsis:
        raise Reject(NOT_ANSWERED)
    if isinstance(answer, dict):
        try:
            answer = tuple(answer[n] for n in names)
        except KeyError as exc:
            raise Reject(f"the dict has no key {exc.args[0]!r}; expected keys "
                         f"{list(names)}") from None
    if isinstance(answer, np.ndarray):
        answer = answer.tolist()
    if not isinstance(answer, (list, tuple)) or len(answer) != len(names):
        got = len(answer) if isinstance(answer, (list, tuple)) else describe(answer)
        raise Reject(f"expected {len(names)} values ({', '.join(names)}), got {got}")
    return tuple(answer)


def judge_parts(names: Sequence[str], verdicts: Sequence[Callable[[Any], Verdict]],
                answer: Sequence[Any]) -> tuple[float, list[str]]:
    """The mean share of the parts' verdicts and one feedback line per part."""
    shares, lines = [], []
    for name, verdict, a in zip(names, verdicts, answer):
        try:
            share, msg = verdict(a)
        except Reject as exc:
            share, msg = 0.0, str(exc)
        shares.append(share)
        lines.append(f"{name}: {msg}")
    return sum(shares) / len(shares), lines


@dataclass(frozen=True)
class TupleChecker(Checker):
    """Several parts, each with its own checker; points in proportion to parts right.

    ``mistakes`` are whole-answer mistakes (e.g. all parts swapped), tried when at
    least one part is wrong.
    """

    parts: tuple[Checker, ...]
    names: tuple[str, ...]
    whole_mistakes: tuple[tuple[Callable[[tuple], bool], str], ...] = ()
    #: the wrong tuples behind ``whole_mistakes`` made by :func:`with_whole_mistakes`
    #: (kept so that a sealed key can hash them)
    whole_mistake_values: tuple[tuple[tuple, str], ...] = ()

    def verdict(self, answer: Any) -> Verdict:
        answer = tuple_answer(answer, self.names)
        total, lines = judge_parts(self.names, [p.verdict for p in self.parts], answer)
        if total < 1:
            for test, hint in self.whole_mistakes:
                try:
                    if test(tuple(answer)):
                        lines.append(hint)
                        break
                except Exception:  # noqa: BLE001 - a mistake test must never crash a check
                    continue
        return total, "\n".join(lines)


@dataclass(frozen=True)
class PredicateChecker(Checker):
    """An answer judged by a function returning None (right) or the reason it is wrong.

    For answers with many right forms: a sympy expression, an example sample.
    """

    judge: Callable[[Any], str | None]
    success: str = "correct"
    #: for :func:`sympy_checker`: (expected, symbol, mistakes, hint), which a sealed key
    #: turns into salted hashes of the expression's values at a few points
    expression: tuple | None = None

    def verdict(self, answer: Any) -> Verdict:
        if answer is Ellipsis:
            raise Reject(NOT_ANSWERED)
        if isinstance(answer, _Callable) or (callable(answer) and not _is_sympy(answer)):
            raise Reject("expected a value, got a function")
        reason = self.judge(answer)
        return (1.0, self.success) if reason is None else (0.0, reason)


def _is_sympy(value: Any) -> bool:
    return (type(value).__module__ or "").startswith("sympy")


def sympy_checker(expected: Any, symbol: Any, *,
                  mistakes: Sequence[Mistake] = (), hint: str = "") -> PredicateChecker:
    """A sympy expression in ``symbol``, equal to ``expected`` after simplification.

    Strings are read by :func:`safe_expression` (never ``eval``), so the check is safe
    in a grader's process too.
    """
    import sympy

    def as_expr(answer: Any) -> Any:
        if isinstance(answer, str):
            try:
                return safe_expression(answer, {symbol.name: symbol})
            except (ValueError, SyntaxError, TypeError, ZeroDivisionError) as exc:
                raise Reject(f"could not read {answer!r} as a formula in {symbol} "
                             f"({exc})") from None
        if _is_sympy(answer) or isinstance(answer, (int, float, Fraction)):
            return sympy.sympify(answer)
        raise Reject(f"expected a sympy expression in {symbol}, got {describe(answer)}")

    def same(a: Any, b: Any) -> bool:
        a = a.subs({s: symbol for s in a.free_symbols if s.name == symbol.name})
        return sympy.simplify(a - b) == 0

    def judge(answer: Any) -> str | None:
        expr = as_expr(answer)
        if same(expr, expected):
            return None
        for m in mistakes:
            if same(expr, m.value):
                return f"{expr} is not right. {m.hint}"
        return f"{expr} is not right. {hint}".strip()

    return PredicateChecker(judge, success="correct: the expression equals the reference",
                            expression=(expected, symbol, tuple(mistakes), hint))


# --------------------------------------------------------------------------- functions
class _Timeout(BaseException):
    """Raised inside a function answer that ran past its time limit."""


def call_with_limit(func: Callable, kwargs: dict, limit: float) -> Any:
    """Call ``func(**kwargs)``; return its value, or an encoded error/timeout marker.

    The time limit uses ``SIGALRM`` (``signal.setitimer``) when called in the main
    thread of a POSIX process, which interrupts pure-Python loops; elsewhere the call
    runs in a daemon thread that is abandoned after ``limit`` seconds (it cannot be
    killed, so the grader runs function answers in a separate kernel process anyway).
    """
    use_signal = (hasattr(signal, "setitimer")
                  and threading.current_thread() is threading.main_thread())
    if use_signal:
        armed = {"on": True}

        def on_alarm(signum: int, frame: Any) -> None:
            if armed["on"]:
                raise _Timeout()

        old = signal.signal(signal.SIGALRM, on_alarm)
        # The alarm repeats every 0.1 s, so a bare ``except:`` in the answer that swallows
        # the first one does not keep it running for long.
        signal.setitimer(signal.ITIMER_REAL, limit, 0.1)
        try:
            try:
                return func(**kwargs)
            finally:
                armed["on"] = False
        except _Timeout:
            return {"__timeout__": True}
        except Exception as exc:  # noqa: BLE001 - the student's error is the answer
            return {"__error__": f"{type(exc).__name__}: {exc}"}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = func(**kwargs)
        except Exception as exc:  # noqa: BLE001
            box["value"] = {"__error__": f"{type(exc).__name__}: {exc}"}

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        return {"__timeout__": True}
    return box["value"]


def _is_marker(output: Any, key: str) -> bool:
    return isinstance(output, dict) and key in output


def _case_size(case: dict) -> int:
    size = 0
    for v in case.values():
        size += len(v) if isinstance(v, (list, tuple)) else 1
    return size


def numbers_close(expected: Any, given: Any, tol: float = 1e-9) -> str | None:
    """Default judge of one output: a number (or nan) within ``tol``; None when right.

    Expected ``nan`` (undefined, e.g. one class) accepts ``nan`` or an error raised;
    an expected error (the reference raised) accepts any error.
    """
    if _is_marker(expected, "__error__"):
        return None if _is_marker(given, "__error__") else (
            f"expected an error ({expected['__error__']}), got {describe(given)}")
    if isinstance(expected, float) and math.isnan(expected):
        if _is_marker(given, "__error__"):
            return None
        try:
            g = as_number(given)
        except Reject as exc:
            if "nan" in str(exc):
                return None
            return str(exc)
        return f"expected nan (undefined) or an error, got {describe(g)}"
    if _is_marker(given, "__error__"):
        return f"raised {given['__error__']}"
    try:
        g = as_number(given)
    except Reject as exc:
        return str(exc)
    e = as_number(expected)
    if same_number(float(g), float(e), tol):
        return None
    return f"expected {describe(expected)}, got {describe(g)}"


@dataclass(frozen=True)
class FunctionSpec:
    """How a function answer is judged.

    reference : the right function, called with each case's kwargs
    cases : seed -> list of kwargs dicts (plain JSON values)
    judge : (case, expected, given) -> None if right, else the reason
    wrong_versions : name -> (a typical wrong function, its hint); a failing answer
        whose outputs agree with one of them on every case where that version differs
        from the reference is told that mistake
    """

    reference: Callable[..., Any]
    cases: Callable[[int], list[dict]]
    judge: Callable[[dict, Any, Any], str | None] = lambda case, e, g: numbers_close(e, g)
    wrong_versions: tuple[tuple[Callable[..., Any], str], ...] = ()
    signature: str = ""
    #: (case, output_a, output_b) -> True when two outputs are the same; default: the
    #: judge accepts one as the other. Needed when the judge checks a property.
    same: Callable[[dict, Any, Any], bool] | None = None
    #: False when many outputs are right (the judge checks a property): a student copy's
    #: check then runs the public cases without comparing, and only the grader judges
    unique_output: bool = True
    #: When the judge accepts any outputs in one order (scores): outputs whose strict
    #: order a right answer keeps (ties in them leave it free), so that a student's copy
    #: can compare orders on the public cases (:func:`order_reason`) instead of values.
    order: Callable[..., Any] | None = None
    #: The public cases (kwargs dicts), shown with their expected outputs in a student's
    #: copy and among the hidden cases of every seed (:meth:`Exercise.hidden_cases`).
    #: Chosen to cover the failure classes the hidden cases test (several pairs, ties,
    #: one class, weights, ...), so that an answer right on all of them is rarely wrong
    #: on the hidden ones. Empty: the :data:`DEFAULT_PUBLIC_CASES` smallest of ``cases(0)``.
    public: tuple[dict, ...] = ()

    def outputs_agree(self, case: dict, a: Any, b: Any) -> bool:
        """Whether two outputs on ``case`` are the same (for telling mistakes apart)."""
        if self.same is not None:
            return self.same(case, a, b)
        return self.judge(case, a, b) is None


#: Public cases of a function exercise that names none (:attr:`FunctionSpec.public`).
DEFAULT_PUBLIC_CASES = 3

_SIGNATURE_ERROR = re.compile(
    r"(?:^|TypeError: )(?P<func>[\w.<>]+)\(\) (?:got an unexpected keyword argument "
    r"'(?P<unexpected>\w+)'|missing \d+ required (?:positional|keyword-only) arguments?: "
    r"(?P<missing>.+)|got some positional-only arguments passed as keyword arguments)")


def call_text(name: str, params: Sequence[str]) -> str:
    """How a function answer is called: ``name(a=..., b=...)``.

    >>> call_text("auc_pairs", ["y_true", "y_score"])
    'auc_pairs(y_true=..., y_score=...)'
    """
    return f"{name}(" + ", ".join(f"{p}=..." for p in params) + ")"


def signature_mismatch(func: Callable[..., Any], params: Sequence[str]) -> str | None:
    """Why ``func`` cannot be called with the keyword arguments ``params``, else None.

    Binds without calling (:func:`inspect.signature`), so nothing of the answer runs;
    None too when the signature cannot be read (a builtin).

    >>> signature_mismatch(lambda y, s: 0, ["y_true", "y_score"])
    "missing a required argument: 'y'"
    >>> signature_mismatch(lambda y_true, y_score, k=1: 0, ["y_true", "y_score"]) is None
    True
    """
    import inspect

    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    try:
        sig.bind(**{p: None for p in params})
    except TypeError as exc:
        return str(exc)
    return None


def signature_hint(name: str, params: Sequence[str], theirs: str = "") -> str:
    """The hint for a function answer that does not take the expected keyword arguments.

    >>> hint = signature_hint("f", ["y_true", "y_score"], "(y, s)")
    >>> hint.split(": ")[0]
    'your function must accept (y_true, y_score), by these names'
    >>> hint.split(": ")[1]
    'it is called as f(y_true=..., y_score=...); yours takes (y, s)'
    """
    text = (f"your function must accept ({', '.join(params)}), by these names: it is called "
            f"as {call_text(name, params)}")
    return f"{text}; yours takes {theirs}" if theirs else text


def signature_message(name: str, params: Sequence[str], func: Callable[..., Any],
                      mismatch: str) -> str:
    """The feedback for a function answer that cannot take ``params``
    (:func:`signature_mismatch` gave ``mismatch``), with the signature it has."""
    import inspect

    try:
        theirs = str(inspect.signature(func))
    except (TypeError, ValueError):
        theirs = ""
    return (f"your function cannot take the arguments it is given (TypeError: {mismatch})."
            f"\nHint: {signature_hint(name, params, theirs)}")


def signature_error(error: str, params: Sequence[str], name: str = "") -> bool:
    """Whether an error raised by a function answer says it was called with arguments it
    does not take (an unexpected one of ``params``, or a required one that is not among
    them), rather than a mistake inside it.

    >>> signature_error("TypeError: f() got an unexpected keyword argument 'y_true'",
    ...                 ["y_true", "y_score"])
    True
    >>> signature_error("TypeError: sort() got an unexpected keyword argument 'reverse'",
    ...                 ["y_true", "y_score"])
    False
    """
    match = _SIGNATURE_ERROR.search(str(error))
    if match is None:
        return False
    if match["unexpected"] is not None:
        return match["unexpected"] in params
    if match["missing"] is not None:
        missing = re.findall(r"'(\w+)'", match["missing"])
        return bool(missing) and not set(missing) & set(params) and (
            not name or match["func"].split(".")[-1] == name)
    return True


def _decode_output(output: Any) -> Any:
    if isinstance(output, dict) and "type" in output and set(output) <= {
            "type", "value", "items", "dtype", "shape", "srepr", "str", "name", "repr"}:
        try:
            return decode_answer(output)
        except (ValueError, TypeError, KeyError):
            return output
    return output


# --------------------------------------------------------------------------- exercise
@dataclass(frozen=True)
class Variants:
    """How an exercise changes for each student: other data, the same question.

    draw : ``numpy.random.Generator`` -> the data of one variant (any value that
        ``build`` takes; plain Python values, so that it can be recorded)
    build : data -> the :class:`Exercise` on those data (same id, answer name and kind;
        its question, reference, mistakes and worked solution computed from the data)
    """

    draw: Callable[[np.random.Generator], Any]
    build: Callable[[Any], Exercise]


def _passes(checker: Checker, answer: Any) -> bool:
    try:
        share, _ = checker.verdict(answer)
    except Exception:  # noqa: BLE001 - an answer of another form does not pass
        return False
    return share >= 1.0


def with_variants(build: Callable[[Any], Exercise], book: Any,
                  draw: Callable[[np.random.Generator], Any]) -> Exercise:
    """The book's exercise ``build(book)``, with per-student variants drawn by ``draw``.

    See :meth:`Exercise.variant`.
    """
    ex = build(book)
    return dataclasses.replace(ex, variants=Variants(draw, build), data=book)


@dataclass(frozen=True)
class Exercise:
    """One auto-checked exercise.

    Attributes
    ----------
    id : stable identifier, e.g. ``"auc-pairs-table1"``
    chapter : chapter number (1..13)
    title : short title
    question : the question in markdown, self-contained
    points : points for a right answer
    answer_name : the variable that holds the answer in a student notebook
    kind : ``"value"`` or ``"function"``
    stub : what a student copy shows in place of the solution
    solution_code : code that defines ``answer_name`` (the notebook's solution cell)
    solution : the reference answer (a value, or the reference function)
    worked : the worked solution in markdown (short; chapter 13 has longer ones)
    checker : judges value answers
    function : judges function answers
    variants : how the exercise changes per student (:class:`Variants`), or None
    data : the data this exercise was built on (the book's, or a variant's)
    """

    id: str
    chapter: int
    title: str
    question: str
    points: int
    answer_name: str
    kind: str
    stub: str
    solution_code: str
    solution: Any
    worked: str = ""
    checker: Checker | None = None
    function: FunctionSpec | None = None
    variants: Variants | None = None
    data: Any = None

    def __post_init__(self) -> None:
        if self.kind not in ("value", "function"):
            raise ValueError(f"kind must be 'value' or 'function', got {self.kind!r}")
        if (self.kind == "value") != (self.checker is not None):
            raise ValueError(f"{self.id}: a value exercise needs a checker")
        if (self.kind == "function") != (self.function is not None):
            raise ValueError(f"{self.id}: a function exercise needs a FunctionSpec")

    def variant(self, seed: int | None) -> Exercise:
        """The same question on the data of variant ``seed`` (``self`` if it has none).

        The data are drawn by :attr:`Variants.draw` from ``numpy.random.default_rng(seed)``
        and redrawn (at most 200 times) until the book's reference answer is wrong for
        them, so that copying the book's number earns nothing. ``seed=None`` is the book.

        Examples
        --------
        >>> ex = with_variants(lambda d: value_exercise(
        ...     id="demo", chapter=1, title="t", question=f"What is {d} + 1?",
        ...     answer_name="x", solution_code=f"x = {d} + 1", solution=d + 1,
        ...     checker=exact(d + 1)), 2, lambda rng: int(rng.integers(0, 10)))
        >>> ex.question, ex.variant(5).question == ex.variant(5).question
        ('What is 2 + 1?', True)
        >>> ex.variant(5).check(3).passed
        False
        """
        if seed is None or self.variants is None:
            return self
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed must be an int or None, got {seed!r}")
        rng = np.random.default_rng(int(seed))
        for _ in range(200):
            data = self.variants.draw(rng)
            ex = self.variants.build(data)
            if ex.id != self.id or ex.answer_name != self.answer_name or ex.kind != self.kind:
                raise RuntimeError(f"{self.id}: a variant must keep the id, the answer "
                                   "name and the kind")
            if ex.checker is not None and _passes(ex.checker, self.solution):
                continue  # the book's answer would be right: draw again
            return dataclasses.replace(ex, variants=self.variants, data=data)
        raise RuntimeError(f"{self.id}: 200 draws gave no variant whose answer differs "
                           "from the book's")

    def _feedback(self, share: float, message: str) -> Feedback:
        share = min(max(float(share), 0.0), 1.0)
        points = round(share * self.points, 4)
        return Feedback(self.id, share >= 1.0, points, self.points, message)

    def check(self, answer: Any, *, seed: int | None = None) -> Feedback:
        """Check an answer in this process; never raises for a bad answer.

        For a function answer the hidden cases come from ``seed`` (fresh entropy when
        None), and each call is limited to :data:`CALL_TIME_LIMIT` seconds.
        """
        if answer is Ellipsis:
            return self._feedback(0.0, NOT_ANSWERED)
        if self.kind == "value":
            if callable(answer) and not _is_sympy(answer):
                return self._feedback(0.0, "expected a value, got a function")
            try:
                share, message = self.checker.verdict(answer)  # type: ignore[union-attr]
            except Reject as exc:
                return self._feedback(0.0, str(exc))
            except Exception as exc:  # noqa: BLE001 - an odd answer must not crash a check
                return self._feedback(0.0, f"could not check this answer "
                                           f"({type(exc).__name__}: {exc})")
            return self._feedback(share, message)
        if not callable(answer) or isinstance(answer, _Callable):
            return self._feedback(0.0, f"expected a function {self._signature()}, "
                                       f"got {describe(answer)}")
        mismatch = signature_mismatch(answer, self.parameters())
        if mismatch is not None:
            return self._feedback(0.0, self.signature_message(answer, mismatch))
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        cases = self.hidden_cases(seed)
        order = sorted(range(len(cases)), key=lambda i: _case_size(cases[i]))
        outputs: list[Any] = [{"__skipped__": True}] * len(cases)
        for i in order:
            out = call_with_limit(answer, _copy_case(cases[i]), CALL_TIME_LIMIT)
            outputs[i] = out
            if _is_marker(out, "__timeout__"):
                break  # a loop that never ends would otherwise cost every case its limit
        return self.check_outputs(cases, outputs)

    def _signature(self) -> str:
        return self.function.signature if self.function else ""

    def parameters(self) -> list[str]:
        """The names a function answer is called with (``[]`` for a value).

        >>> from course_key import get
        >>> get("auc-weighted-function").parameters()
        ['y_true', 'y_score', 'sample_weight']
        """
        if self.function is None:
            return []
        if self.function.signature:
            return [p.strip() for p in self.function.signature.split(",") if p.strip()]
        cases = self.public_cases()
        return list(cases[0]) if cases else []

    def signature_message(self, answer: Any, mismatch: str) -> str:
        """The feedback for a function answer that does not take :meth:`parameters`."""
        return signature_message(self.answer_name, self.parameters(), answer, mismatch)

    def public_cases(self) -> list[dict]:
        """The public cases of a function answer (``[]`` for a value): those a student's
        copy shows with their expected outputs (:attr:`FunctionSpec.public`, else the
        :data:`DEFAULT_PUBLIC_CASES` smallest cases of seed 0).

        >>> from course_key import get
        >>> get("auc-pairs-function").public_cases()[0]
        {'y_true': [1, 0], 'y_score': [0.9, 0.1]}
        """
        spec = self.function
        if spec is None:
            return []
        if spec.public:
            return _copy_case({"cases": list(spec.public)})["cases"]
        return sorted(spec.cases(0), key=_case_size)[:DEFAULT_PUBLIC_CASES]

    def hidden_cases(self, seed: int) -> list[dict]:
        """The hidden cases of a function answer (kwargs dicts); ``[]`` for a value.

        They are the cases ``seed`` generates together with the public cases, so that an
        answer wrong on a public case is wrong for the grader too.
        """
        if self.function is None:
            return []
        cases = self.function.cases(int(seed))
        return [c for c in self.public_cases() if c not in cases] + cases

    def check_outputs(self, cases: list[dict], outputs: list) -> Feedback:
        """Judge a function answer by its outputs on ``cases`` (computed anywhere).

        An output may be ``{"__error__": "TypeError: ..."}``, ``{"__timeout__": True}``
        or an :func:`encode_answer` dict. The references are recomputed here. The
        feedback shows the smallest failing case (by total length of its inputs).
        """
        spec = self.function
        if spec is None:
            return self._feedback(0.0, "this exercise expects a value, not a function")
        if len(outputs) != len(cases):
            return self._feedback(0.0, f"expected {len(cases)} outputs, got {len(outputs)}")
        failures = []
        reason: str | None
        outputs = [_decode_output(o) for o in outputs]
        expected_all = [_reference_output(spec.reference, case) for case in cases]
        for i, (case, given, expected) in enumerate(zip(cases, outputs, expected_all)):
            if _is_marker(given, "__timeout__"):
                reason = f"did not finish within {CALL_TIME_LIMIT:g} s"
            elif _is_marker(given, "__skipped__"):
                reason = "not run (an earlier case timed out)"
            else:
                try:
                    reason = spec.judge(case, expected, given)
                except Exception as exc:  # noqa: BLE001
                    reason = f"could not judge the output ({type(exc).__name__}: {exc})"
            if reason is not None:
                failures.append((_case_size(case), i, reason, expected, given))
        if not failures:
            return self._feedback(1.0, "correct on every hidden case")
        failures.sort(key=lambda f: (f[0], f[1]))
        size, i, reason, expected, given = failures[0]
        shown = ", ".join(f"{k}={describe(v)}" for k, v in cases[i].items())
        lines = [f"wrong on {len(failures)} of {len(cases)} hidden cases.",
                 f"Smallest failing input: {shown}",
                 f"Expected: {describe(expected)}",
                 f"Given: {_describe_output(given)}",
                 f"Why: {reason}"]
        params = self.parameters()
        if _is_marker(given, "__error__") and signature_error(given["__error__"], params,
                                                                self.answer_name):
            hint: str | None = signature_hint(self.answer_name, params)
        else:
            hint = self._function_mistake(cases, outputs, expected_all)
        if hint:
            lines.append(f"Hint: {hint}")
        return self._feedback(0.0, "\n".join(lines))

    def _function_mistake(self, cases: list[dict], outputs: list,
                          expected_all: list) -> str | None:
        """The hint of the known wrong version the outputs follow most closely.

        Only the cases where a wrong version differs from the reference count; the
        answer must agree with it on at least 60% of them (a student may make a second
        mistake, e.g. in the ties, on some cases).
        """
        spec = self.function
        assert spec is not None
        best: tuple[float, str] | None = None
        for wrong, hint in spec.wrong_versions:
            differs = agrees = 0
            for case, given, expected in zip(cases, outputs, expected_all):
                mistaken = _reference_output(wrong, case)
                if spec.outputs_agree(case, expected, mistaken):
                    continue  # this case does not tell the mistake apart
                differs += 1
                if _is_marker(given, "__timeout__") or _is_marker(given, "__skipped__"):
                    continue
                if spec.outputs_agree(case, mistaken, given):
                    agrees += 1
            if differs and agrees / differs >= 0.6 and (best is None or
                                                        agrees / differs > best[0]):
                best = (agrees / differs, hint)
        return None if best is None else best[1]


def _describe_output(given: Any) -> str:
    if _is_marker(given, "__error__"):
        return f"an error, {given['__error__']}"
    if _is_marker(given, "__timeout__"):
        return "no output (timed out)"
    if _is_marker(given, "__skipped__"):
        return "no output (not run)"
    return describe(given)


def quiet(func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a reference function so it emits no warnings (one class -> nan, silently)."""
    import functools
    import warnings

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return func(*args, **kwargs)

    return wrapper


def _copy_case(case: dict) -> dict:
    """A deep copy: an answer that modifies its inputs cannot change the case."""
    import copy

    return copy.deepcopy(case)


def _reference_output(func: Callable, case: dict) -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return func(**_copy_case(case))
        except Exception as exc:  # noqa: BLE001
            return {"__error__": f"{type(exc).__name__}: {exc}"}


# --------------------------------------------------------------------------- builders
def value_exercise(*, id: str, chapter: int, title: str, question: str, answer_name: str,
                   solution_code: str, solution: Any, checker: Checker, worked: str = "",
                   points: int = 1) -> Exercise:
    """An exercise whose answer is a value; the stub is ``name = ...  # your answer``."""
    return Exercise(id=id, chapter=chapter, title=title, question=question.strip(),
                    points=points, answer_name=answer_name, kind="value",
                    stub=f"{answer_name} = ...  # your answer",
                    solution_code=solution_code.strip(), solution=solution,
                    worked=worked.strip(), checker=checker)


def function_exercise(*, id: str, chapter: int, title: str, question: str,
                      answer_name: str, solution_code: str, spec: FunctionSpec,
                      worked: str = "", points: int = 2) -> Exercise:
    """An exercise whose answer is a function, judged on hidden cases."""
    return Exercise(id=id, chapter=chapter, title=title, question=question.strip(),
                    points=points, answer_name=answer_name, kind="function",
                    stub=f"{answer_name} = ...  # your answer: a function "
                         f"{answer_name}({spec.signature})",
                    solution_code=solution_code.strip(), solution=spec.reference,
                    worked=worked.strip(), function=spec)


def exact(value: Any, *, mistakes: Sequence[Mistake] = (), hint: str = "") -> NumberChecker:
    """A NumberChecker for an exact (Fraction) reference."""
    return NumberChecker(Fraction(value), 1e-9, tuple(mistakes), hint)


def approx(value: Any, tol: float, *, mistakes: Sequence[Mistake] = (),
           hint: str = "") -> NumberChecker:
    """A NumberChecker for a float reference within ``tol``."""
    return NumberChecker(float(value), tol, tuple(mistakes), hint)


def parts(**named: Checker) -> TupleChecker:
    """A TupleChecker of named parts, in keyword order."""
    return TupleChecker(tuple(named.values()), tuple(named))


def with_whole_mistakes(checker: TupleChecker,
                        *mistakes: tuple[Sequence[Any], str]) -> TupleChecker:
    """Add whole-answer mistakes given as (the wrong tuple of values, hint)."""

    def matcher(wrong: Sequence[Any]) -> Callable[[tuple], bool]:
        def test(answer: tuple) -> bool:
            for a, w in zip(answer, wrong):
                if isinstance(w, str):
                    if str(a).strip().lower() != w:
                        return False
                elif not same_number(as_number(a), as_number(w), 1e-9):
                    return False
            return True

        return test

    extra = tuple((matcher(w), hint) for w, hint in mistakes)
    values = tuple((tuple(w), hint) for w, hint in mistakes)
    return TupleChecker(checker.parts, checker.names, checker.whole_mistakes + extra,
                        checker.whole_mistake_values + values)


def as_points(answer: Any) -> list[tuple[Fraction | float, Fraction | float]]:
    """A list of (x, y) points from lists, tuples or an (n, 2) array; Reject otherwise."""
    if isinstance(answer, np.ndarray):
        answer = answer.tolist()
    if isinstance(answer, tuple) and len(answer) == 2 and all(
            isinstance(a, (list, tuple, np.ndarray)) for a in answer) and len(answer[0]) != 2:
        answer = list(zip(answer[0], answer[1]))  # (xs, ys)
    if not isinstance(answer, (list, tuple)):
        raise Reject(f"expected a list of (x, y) points, got {describe(answer)}")
    out = []
    for p in answer:
        if isinstance(p, np.ndarray):
            p = p.tolist()
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise Reject(f"each point must be a pair (x, y); got {describe(p)}")
        out.append((as_number(p[0]), as_number(p[1])))
    return out


def same_points(a: Sequence[tuple], b: Sequence[tuple], tol: float = 1e-9) -> bool:
    """Two lists of points equal within ``tol``."""
    return len(a) == len(b) and all(
        same_number(p[0], q[0], tol) and same_number(p[1], q[1], tol) for p, q in zip(a, b))
