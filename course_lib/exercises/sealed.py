"""Sealed checks: instant feedback in a student's copy without the answers.

A student copy cannot hold an exercise's reference answer, yet ``check`` must still say at
once whether an answer is right and, when it is wrong, name the likely mistake. A *sealed
key* makes that possible. It is written by the instructor's tools (:func:`seal_key`, from
the answer key) into the copy, and read by :class:`SealedCheck` in the student's kernel:

* a number is compared through salted hashes (PBKDF2-HMAC-SHA256, a fresh salt per
  exercise and copy) of the cells of a power-of-two grid around the reference that lie
  wholly within the tolerance, and of the exact fraction ``p/q`` where the reference is
  exact; the typical wrong values (the mistakes, the percent slip) are sealed the same
  way, each with its hint in the clear;
* a word (yes/no, up/down) is the hash of its canonical spelling;
* a tuple is sealed part by part, and its whole-answer mistakes element by element;
* a decimal close to an exact reference (within ``CLOSE_TOLERANCE``) is told to give it
  exactly, through the hashes of the grid cells of that wider band;
* a formula is sealed as its values at a few points;
* a function answer is run on its *public* cases (``FunctionSpec.public``), whose
  expected outputs are shown in the key; the outputs of the known wrong versions on
  those cases name the mistake, and a function that does not take the exercise's
  arguments is told the signature it must have. Where many outputs are right, the
  expected outputs are those of ``FunctionSpec.order`` and only their order is compared.

What ``check`` says of a function is what it ran: "passes the 5 public cases; graded on
hidden cases as well", with no points (``Feedback.public_only``), since the grader judges
the answer on hidden cases too (it runs the public ones among them, so an answer wrong on
a public case is wrong for the grader as well, and gets its 0 points here).

What the key reveals: the points, the hints, the order of magnitude of the tolerance and
the public cases, never a reference value. What it cannot prevent: an answer space so
small that a student can try every answer with ``check`` (yes/no, a fraction with a small
denominator; the band of "close" decimals narrows such a search no further than the
fractions' hashes already do). That is why the grades come from the grader, which
recomputes every reference in its own process for the student's own variant, and why a
sealed check only ever says "passed" where the grader would agree (a float is accepted
locally only well inside the tolerance).

How much a key tells is chosen when it is sealed (``feedback=``, :data:`FEEDBACK_MODES`):

* ``"full"`` (practice): everything above, hints and per-part detail included;
* ``"verdict"`` (graded homework): only the hashes of the accepted answers and, for a
  function, the public cases with their expected outputs; ``check`` says right or not
  right (for a function: passes the public cases or not right), nothing more (no hint,
  no part, no expected output). No hint text and no hash of a wrong answer is in the
  key;
* ``"none"`` (exams): no hash at all, only the exercises' ids and answer names; ``check``
  says that the answer is recorded (:class:`Recorded`), nothing about its correctness.

>>> from fractions import Fraction
>>> from course_lib.exercises._core import Mistake, exact, value_exercise
>>> ex = value_exercise(id="demo", chapter=3, title="t", question="q", answer_name="a",
...                     solution_code="a = 3/4", solution=Fraction(3, 4),
...                     checker=exact(Fraction(3, 4), mistakes=[Mistake(Fraction(1, 4), "1 - x")]))
>>> check = SealedCheck(seal_key([ex]))
>>> check("demo", "3/4").passed, check("demo", 0.75).passed, check("demo", 0.7501).passed
(True, True, False)
>>> check("demo", Fraction(1, 4)).message
'1/4 is not right. 1 - x'
>>> "3/4" in seal_key([ex])
False
>>> verdict = SealedCheck(seal_key([ex], feedback="verdict"))
>>> verdict("demo", Fraction(3, 4)).message, verdict("demo", Fraction(1, 4)).message
('right', 'not right')
>>> print(SealedCheck(seal_key([ex], feedback="none"))("demo", Fraction(1, 4)))
demo: answer recorded (it is judged when your notebook is graded)
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import math
import secrets
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._core import (
    CALL_TIME_LIMIT,
    GIVE_EXACTLY,
    NOT_ANSWERED,
    ChoiceChecker,
    Exercise,
    Feedback,
    NumberChecker,
    PredicateChecker,
    Reject,
    TupleChecker,
    _Callable,
    _copy_case,
    _is_marker,
    _is_sympy,
    _reference_output,
    as_number,
    call_with_limit,
    decode_answer,
    describe,
    encode_answer,
    judge_parts,
    numbers_close,
    order_reason,
    safe_expression,
    signature_error,
    signature_hint,
    signature_message,
    signature_mismatch,
    tuple_answer,
)

__all__ = ["FEEDBACK_MODES", "Recorded", "SealedCheck", "seal", "seal_key"]

#: PBKDF2 iterations per hash: slow enough to make trying a fine grid of floats costly,
#: fast enough that sealing a whole class takes seconds.
ITERATIONS = 1000
#: Points where a formula is evaluated.
FORMULA_POINTS = (0.11, 0.29, 0.5, 0.71, 0.93)
VERSION = 1
#: How much ``check`` tells, from most to least: hints, right or wrong, nothing.
FEEDBACK_MODES = ("full", "verdict", "none")
RIGHT, NOT_RIGHT = "right", "not right"
RECORDED = "answer recorded (it is judged when your notebook is graded)"


# --------------------------------------------------------------------------- hashing
def _hash(salt: str, token: str) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", token.encode(), bytes.fromhex(salt), ITERATIONS,
                                 dklen=12)
    return digest.hex()


def _exponent(tol: float) -> int:
    """The grid step 2**e with tol/4 < 2**e <= tol/2."""
    return math.floor(math.log2(tol / 2))


def _grid_token(exponent: int, value: Fraction | float) -> str:
    k = round(Fraction(value) / Fraction(2) ** exponent)
    return f"G{exponent}:{k}"


def _grid_cells(exponent: int, centre: Fraction | float, tol: float) -> list[str]:
    """Tokens of the grid cells lying wholly within ``tol`` of ``centre``."""
    step = Fraction(2) ** exponent
    c = Fraction(centre)
    k0 = round(c / step)
    out = []
    for k in range(k0 - 3, k0 + 4):
        if abs(k * step - c) + step / 2 <= Fraction(tol):
            out.append(f"G{exponent}:{k}")
    return out


def _lock(salt: str, token: str, text: str) -> str:
    """``text`` encrypted under ``token`` (XOR with SHAKE-256 of salt and token): a hint is
    readable only by the student who gave the wrong answer it explains."""
    data = text.encode()
    stream = hashlib.shake_256(f"hint|{salt}|{token}".encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream)).hex()


def _unlock(salt: str, token: str, cipher: str) -> str:
    data = bytes.fromhex(cipher)
    stream = hashlib.shake_256(f"hint|{salt}|{token}".encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream)).decode(errors="replace")


def _number_seal(salt: str, value: Fraction | float, tol: float, hint: str = "") -> dict:
    """A value and a tolerance as hashes of the exact fraction and of the grid cells, each
    mapped to ``hint`` locked under that token."""
    tol_x = tol * max(1.0, abs(float(value)))
    exponent = _exponent(tol_x)
    cells = {_hash(salt, t): _lock(salt, t, hint) for t in _grid_cells(exponent, value, tol_x)}
    out: dict[str, Any] = {"e": exponent, "g": dict(sorted(cells.items()))}
    if isinstance(value, Fraction):
        token = f"F:{value.numerator}/{value.denominator}"
        out["f"] = [_hash(salt, token), _lock(salt, token, hint)]
    return out


def _number_matches(salt: str, sealed: dict, given: Fraction | float, *,
                    exact_when_fraction: bool) -> str | None:
    """The unlocked hint when ``given`` matches the sealed value, else None."""
    if exact_when_fraction and isinstance(given, Fraction) and "f" in sealed:
        token = f"F:{given.numerator}/{given.denominator}"
        digest, cipher = sealed["f"]
        return _unlock(salt, token, cipher) if _hash(salt, token) == digest else None
    if isinstance(given, float) and not math.isfinite(given):
        return None
    token = _grid_token(sealed["e"], given)
    cipher = sealed["g"].get(_hash(salt, token))
    return None if cipher is None else _unlock(salt, token, cipher)


# --------------------------------------------------------------------------- sealing
def _seal_checker(checker: Any, salt: str, hints: bool = True) -> dict:
    """The sealed form of a checker; without ``hints`` (a verdict key) only the hashes of
    the accepted answers: no hint text, no wrong answer, no percent slip."""
    if not hints:
        return _seal_verdict(checker, salt)
    if isinstance(checker, NumberChecker):
        exp = checker.expected
        exact = isinstance(exp, Fraction)
        out: dict[str, Any] = {
            "t": "number", "exact": exact, "tol": checker.tol, "hint": checker.hint,
            "ref": _number_seal(salt, exp, max(checker.tol, 1e-9) if exact else checker.tol),
            "mistakes": []}
        if exact and checker.close > 0:
            out["close"] = _number_seal(salt, exp, checker.close)
        for m in checker.mistakes:
            try:
                value = as_number(m.value)
            except Reject:
                continue
            out["mistakes"].append(_number_seal(salt, value, max(checker.tol, 1e-9), m.hint))
        if float(exp) != 0:
            out["percent"] = _number_seal(salt, 100 * float(exp), 1e-9)
        return out
    if isinstance(checker, ChoiceChecker):
        return {"t": "choice", "options": dict(checker.options), "hint": checker.hint,
                "ref": _hash(salt, f"C:{checker.expected}"),
                "mistakes": {_hash(salt, f"C:{k}"): _lock(salt, f"C:{k}", v)
                             for k, v in checker.mistakes.items()}}
    if isinstance(checker, TupleChecker):
        whole = []
        for values, hint in checker.whole_mistake_values:
            elements = []
            for i, w in enumerate(values):
                text = hint if i == 0 else ""  # the hint is locked under the first value
                if isinstance(w, str):
                    token = f"S:{w.strip().lower()}"
                    elements.append({"s": [_hash(salt, token), _lock(salt, token, text)]})
                else:
                    elements.append(_number_seal(salt, as_number(w), 1e-9, text))
            whole.append({"elements": elements})
        return {"t": "tuple", "names": list(checker.names),
                "parts": [_seal_checker(p, salt) for p in checker.parts], "whole": whole}
    if isinstance(checker, PredicateChecker) and checker.expression is not None:
        expected, symbol, mistakes, hint = checker.expression
        return {"t": "formula", "symbol": symbol.name, "hint": hint,
                "ref": _formula_seal(salt, expected, symbol),
                "mistakes": [_formula_seal(salt, m.value, symbol, m.hint) for m in mistakes]}
    return {"t": "deferred"}


def _seal_verdict(checker: Any, salt: str) -> dict:
    """:func:`_seal_checker` for a verdict key: the accepted answers only."""
    if isinstance(checker, NumberChecker):
        exp = checker.expected
        exact = isinstance(exp, Fraction)
        return {"t": "number", "exact": exact, "tol": checker.tol, "hint": "",
                "ref": _number_seal(salt, exp, max(checker.tol, 1e-9) if exact else checker.tol),
                "mistakes": []}
    if isinstance(checker, ChoiceChecker):
        return {"t": "choice", "options": dict(checker.options), "hint": "",
                "ref": _hash(salt, f"C:{checker.expected}"), "mistakes": {}}
    if isinstance(checker, TupleChecker):
        return {"t": "tuple", "names": list(checker.names),
                "parts": [_seal_verdict(p, salt) for p in checker.parts], "whole": []}
    if isinstance(checker, PredicateChecker) and checker.expression is not None:
        expected, symbol, _mistakes, _hint = checker.expression
        return {"t": "formula", "symbol": symbol.name, "hint": "",
                "ref": _formula_seal(salt, expected, symbol), "mistakes": []}
    return {"t": "deferred"}


def _formula_values(expr: Any, symbol: Any) -> list[float] | None:
    import sympy

    values = []
    for t in FORMULA_POINTS:
        try:
            v = complex(sympy.N(expr.subs(symbol, sympy.Rational(str(t))), 30))
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if abs(v.imag) > 1e-12 or not math.isfinite(v.real):
            return None
        values.append(v.real)
    return values


def _formula_seal(salt: str, expr: Any, symbol: Any, hint: str = "") -> list[dict]:
    values = _formula_values(expr, symbol)
    if values is None:
        raise ValueError(f"the formula {expr} has no real value at the check points")
    return [_number_seal(salt, v, 1e-9, hint) for v in values]


def _seal_function(ex: Exercise, salt: str, hints: bool = True) -> dict:
    spec = ex.function
    assert spec is not None
    cases = ex.public_cases()
    if spec.order is not None:  # right when in this order: the expected outputs give it
        compare, reference = "order", spec.order
    else:
        compare, reference = ("values" if spec.unique_output else "none"), spec.reference
    expected = [encode_answer(_reference_output(reference, c)) for c in cases]
    wrong = [{"outputs": [encode_answer(_reference_output(f, c)) for c in cases], "hint": h}
             for f, h in spec.wrong_versions] if hints else []
    return {"t": "function", "signature": spec.signature, "compare": compare,
            "name": ex.answer_name, "params": ex.parameters(),
            "cases": [encode_answer(c) for c in cases], "expected": expected,
            "wrong": wrong}


def _mode(feedback: str) -> str:
    if feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {', '.join(FEEDBACK_MODES)}, got {feedback!r}")
    return feedback


def seal(ex: Exercise, *, salt: str | None = None, feedback: str = "full") -> dict:
    """The sealed form of one exercise (a JSON-able dict without its answer): with
    ``feedback="verdict"`` without hints and wrong answers, with ``"none"`` without any
    hash (the exercise's id, points and answer name only)."""
    if _mode(feedback) == "none":
        return {"id": ex.id, "points": ex.points, "answer_name": ex.answer_name,
                "kind": ex.kind, "salt": "", "check": {"t": "recorded"}}
    salt = secrets.token_hex(16) if salt is None else salt
    hints = feedback == "full"
    body = (_seal_function(ex, salt, hints) if ex.kind == "function"
            else _seal_checker(ex.checker, salt, hints))
    return {"id": ex.id, "points": ex.points, "answer_name": ex.answer_name,
            "kind": ex.kind, "salt": salt, "check": body}


def seal_key(exercises: Iterable[Exercise], *, salt_seed: str | None = None,
             feedback: str = "full") -> str:
    """A sealed key for the given exercises, as one ASCII string.

    Each exercise has its own salt: random, or derived from ``salt_seed`` (so that the
    same copy is written byte for byte again; a per-student copy passes its copy id,
    never the seed of its variants). ``feedback`` is one of :data:`FEEDBACK_MODES`.
    """
    _mode(feedback)

    def salt(ex: Exercise) -> str | None:
        if salt_seed is None:
            return None
        return hashlib.sha256(f"salt|{salt_seed}|{ex.id}".encode()).hexdigest()[:32]

    data = {"version": VERSION, "iterations": ITERATIONS, "feedback": feedback,
            "exercises": [seal(ex, salt=salt(ex), feedback=feedback) for ex in exercises]}
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


# --------------------------------------------------------------------------- checking
@dataclass(frozen=True)
class Recorded:
    """What ``check`` shows in a copy without feedback (an exam): the answer is recorded,
    nothing about whether it is right.

    >>> print(Recorded("demo", RECORDED))
    demo: answer recorded (it is judged when your notebook is graded)
    """

    exercise_id: str
    message: str

    def __str__(self) -> str:
        return f"{self.exercise_id}: {self.message}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html

        return ('<div role="status" style="border:2px solid #555;border-radius:4px;'
                'padding:0.4em 0.7em;margin:0.3em 0;background:#f4f4f4;color:#111;">'
                f"<strong>{html.escape(self.exercise_id)}</strong>: "
                f"{html.escape(self.message)}</div>")

    def to_dict(self) -> dict:
        return {"exercise_id": self.exercise_id, "message": self.message}


class SealedCheck:
    """``check(exercise_id, answer)`` in a student's copy, from a sealed key.

    Parameters
    ----------
    key : the string :func:`seal_key` wrote into the copy
    """

    def __init__(self, key: str) -> None:
        try:
            data = json.loads(zlib.decompress(base64.b64decode(key.encode("ascii"))))
        except Exception:  # noqa: BLE001 - any corrupt key
            raise ValueError("this is not a sealed key of the course's exercises (was the "
                             "cell that defines `check` changed?)") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError("this sealed key was written by another version of course_lib")
        self._exercises = {e["id"]: e for e in data["exercises"]}
        self.feedback = str(data.get("feedback", "full"))
        if self.feedback not in FEEDBACK_MODES:
            raise ValueError(f"this sealed key has an unknown feedback mode {self.feedback!r}")

    def __repr__(self) -> str:
        return f"<SealedCheck of {len(self._exercises)} exercises, feedback {self.feedback}>"

    @property
    def ids(self) -> list[str]:
        """The exercise ids this key can check."""
        return list(self._exercises)

    def __call__(self, exercise_id: str, answer: Any) -> Feedback | Recorded:
        sealed = self._exercises.get(exercise_id)
        if sealed is None:
            raise ValueError(f"this copy has no exercise {exercise_id!r}; its exercises: "
                             f"{', '.join(self._exercises)}")
        if self.feedback == "none":
            return Recorded(exercise_id, NOT_ANSWERED if answer is Ellipsis else RECORDED)
        points = int(sealed["points"])
        only_verdict = self.feedback == "verdict"

        def feedback(share: float, message: str, judged: bool = True) -> Feedback:
            if only_verdict and judged:  # right or not right: no partial points, no why
                share, message = (1.0, RIGHT) if share >= 1.0 else (0.0, NOT_RIGHT)
            return Feedback(exercise_id, share >= 1.0, round(share * points, 4), points,
                            message)

        if answer is Ellipsis:
            return feedback(0.0, NOT_ANSWERED, judged=False)
        body = sealed["check"]
        salt = sealed["salt"]
        if body["t"] == "function":
            outcome, message = _check_function(body, answer)
            if outcome == PUBLIC_PASSED or outcome == NOT_COMPARED:
                # the public cases are not the grade: no points, and it says what it ran
                return Feedback(exercise_id, outcome == PUBLIC_PASSED, 0.0, points, message,
                                public_only=True)
            if outcome == WRONG and only_verdict:
                return feedback(0.0, NOT_RIGHT, judged=False)
            # a public case failed (or the answer is no function, or cannot take its
            # arguments): the grader, which runs the public cases too, gives no points
            return feedback(0.0, message, judged=False)
        if callable(answer) and not _is_sympy(answer):
            return feedback(0.0, "expected a value, got a function", judged=False)
        try:
            share, message = _verdict(body, salt, answer)
        except Reject as exc:  # the answer could not be read: says nothing of the reference
            return feedback(0.0, str(exc), judged=False)
        except Exception as exc:  # noqa: BLE001 - an odd answer must not crash a check
            return feedback(0.0, f"could not check this answer ({type(exc).__name__}: {exc})",
                            judged=False)
        return feedback(share, message, judged=body["t"] != "deferred")


def _verdict(body: dict, salt: str, answer: Any) -> tuple[float, str]:
    kind = body["t"]
    if kind == "number":
        return _number_verdict(body, salt, answer)
    if kind == "choice":
        return _choice_verdict(body, salt, answer)
    if kind == "tuple":
        return _tuple_verdict(body, salt, answer)
    if kind == "formula":
        return _formula_verdict(body, salt, answer)
    if answer is Ellipsis:
        raise Reject(NOT_ANSWERED)
    return 0.0, (f"Your answer {describe(answer)} is read and will be judged when your "
                 "notebook is graded: this exercise's check needs the answer key.")


def _number_verdict(body: dict, salt: str, answer: Any) -> tuple[float, str]:
    given = as_number(answer)
    if body["exact"]:
        if _number_matches(salt, body["ref"], given, exact_when_fraction=True) is not None:
            if isinstance(given, Fraction):
                return 1.0, f"correct: {describe(given)}"
            return 1.0, ("correct; the exact value is a fraction (give it exactly, e.g. "
                         "Fraction(p, q), to see it)")
    elif _number_matches(salt, body["ref"], float(given), exact_when_fraction=False) is not None:
        return 1.0, f"correct (within {body['tol']:g} of the reference)"
    for m in body["mistakes"]:
        hint = _number_matches(salt, m, given, exact_when_fraction=True)
        if hint is not None:
            return 0.0, f"{describe(given)} is not right. {hint}"
    if "close" in body and isinstance(given, float) and _number_matches(
            salt, body["close"], given, exact_when_fraction=False) is not None:
        return 0.0, f"{describe(given)} is {GIVE_EXACTLY}"
    if "percent" in body and _number_matches(salt, body["percent"], float(given),
                                             exact_when_fraction=False) is not None:
        return 0.0, (f"{describe(given)} looks like a percent: give the value as a "
                     "fraction of 1, not in percent")
    return 0.0, f"{describe(given)} is not right. {body['hint']}".strip()


def _choice_verdict(body: dict, salt: str, answer: Any) -> tuple[float, str]:
    options = body["options"]
    choices = sorted(set(options.values()))
    if isinstance(answer, (bool, np.bool_)):
        word = "yes" if bool(answer) else "no"
    elif isinstance(answer, (int, np.integer)):
        word = str(int(answer))
    elif isinstance(answer, str):
        word = answer.strip().lower()
    else:
        raise Reject(f"expected one of {choices}, got {describe(answer)}")
    if word not in options:
        raise Reject(f"{answer!r} is not one of the possible answers {choices}")
    canon = options[word]
    digest = _hash(salt, f"C:{canon}")
    if digest == body["ref"]:
        return 1.0, f"correct: {canon}"
    cipher = body["mistakes"].get(digest)
    hint = body["hint"] if cipher is None else _unlock(salt, f"C:{canon}", cipher)
    return 0.0, f"{canon!r} is not right. {hint}".strip()


def _tuple_verdict(body: dict, salt: str, answer: Any) -> tuple[float, str]:
    names = body["names"]
    answer = tuple_answer(answer, names)
    total, lines = judge_parts(
        names, [functools.partial(_verdict, part, salt) for part in body["parts"]], answer)
    if total < 1:
        for mistake in body["whole"]:
            hint = _whole_matches(mistake["elements"], salt, answer)
            if hint is not None:
                lines.append(hint)
                break
    return total, "\n".join(lines)


def _whole_matches(elements: Sequence[dict], salt: str, answer: Sequence[Any]) -> str | None:
    """The hint when every element matches (unlocked by the first), else None."""
    hints = []
    for element, a in zip(elements, answer):
        if "s" in element:
            token = f"S:{str(a).strip().lower()}"
            digest, cipher = element["s"]
            if _hash(salt, token) != digest:
                return None
            hints.append(_unlock(salt, token, cipher))
            continue
        try:
            value = as_number(a)
        except Reject:
            return None
        hint = _number_matches(salt, element, value, exact_when_fraction=True)
        if hint is None:
            return None
        hints.append(hint)
    return hints[0] if hints else None


def _formula_verdict(body: dict, salt: str, answer: Any) -> tuple[float, str]:
    import sympy

    symbol = sympy.Symbol(body["symbol"])
    if isinstance(answer, str):
        try:
            expr = safe_expression(answer, {symbol.name: symbol})
        except (ValueError, SyntaxError, TypeError, ZeroDivisionError) as exc:
            raise Reject(f"could not read {answer!r} as a formula in {symbol} ({exc})") from None
    elif _is_sympy(answer) or isinstance(answer, (int, float, Fraction)):
        expr = sympy.sympify(answer)
        expr = expr.subs({s: symbol for s in expr.free_symbols if s.name == symbol.name})
    else:
        raise Reject(f"expected a sympy expression in {symbol}, got {describe(answer)}")
    values = _formula_values(expr, symbol)
    if values is None:
        return 0.0, f"{expr} is not right: it has no real value for every {symbol} in (0, 1)"

    def same(sealed: list[dict]) -> str | None:
        hints = [_number_matches(salt, s, v, exact_when_fraction=False)
                 for s, v in zip(sealed, values)]
        return None if any(h is None for h in hints) else hints[0]

    if same(body["ref"]) is not None:
        return 1.0, "correct: the expression equals the reference"
    for m in body["mistakes"]:
        hint = same(m)
        if hint is not None:
            return 0.0, f"{expr} is not right. {hint}"
    return 0.0, f"{expr} is not right. {body['hint']}".strip()


#: Outcomes of a function answer's sealed check: every public case right (not a grade),
#: run but not compared (several outputs are right), a public case wrong, or the answer
#: not a function that takes the exercise's arguments.
PUBLIC_PASSED, NOT_COMPARED, WRONG, UNUSABLE = "public passed", "not compared", "wrong", \
    "unusable"


def _check_function(body: dict, answer: Any) -> tuple[str, str]:
    """Run a function answer on the public cases: (outcome, message)."""
    params = list(body.get("params") or [p.strip() for p in body["signature"].split(",")])
    name = str(body.get("name", "f"))
    if not callable(answer) or isinstance(answer, _Callable):
        return UNUSABLE, f"expected a function ({body['signature']}), got {describe(answer)}"
    mismatch = signature_mismatch(answer, params)
    if mismatch is not None:
        return UNUSABLE, signature_message(name, params, answer, mismatch)
    cases = [decode_answer(c) for c in body["cases"]]
    expected = [decode_answer(e) for e in body["expected"]]
    outputs = []
    for case in cases:
        out = call_with_limit(answer, _copy_case(case), CALL_TIME_LIMIT)
        outputs.append(out)
        if _is_marker(out, "__timeout__"):
            return WRONG, (f"did not finish within {CALL_TIME_LIMIT:g} s on the public case "
                           + ", ".join(f"{k}={describe(v)}" for k, v in case.items()))
    # "values", "order" or "none" (a key of an older copy: True or False)
    compare = {True: "values", False: "none"}.get(body["compare"], body["compare"])

    def differ(e: Any, g: Any) -> str | None:
        return order_reason(e, g) if compare == "order" else numbers_close_any(e, g)

    if compare == "none":
        return NOT_COMPARED, (
            f"ran on the {len(cases)} public cases; several outputs can be right here, so "
            "it is judged only when your notebook is graded. Your outputs: "
            + "; ".join(describe(o) for o in outputs))
    failures = [i for i, (e, g) in enumerate(zip(expected, outputs))
                if differ(e, g) is not None]
    if not failures:
        return PUBLIC_PASSED, (f"passes the {len(cases)} public cases; graded on hidden cases "
                               "as well")
    i = failures[0]
    lines = [f"wrong on {len(failures)} of {len(cases)} public cases.",
             "Input: " + ", ".join(f"{k}={describe(v)}" for k, v in cases[i].items()),
             f"Expected: {describe(expected[i])}"
             + (" (or any numbers in the same order)" if compare == "order" else ""),
             f"Given: {describe(outputs[i])}",
             f"Why: {differ(expected[i], outputs[i])}"]
    if _is_marker(outputs[i], "__error__") and signature_error(outputs[i]["__error__"],
                                                                params, name):
        lines.append(f"Hint: {signature_hint(name, params)}")
        return WRONG, "\n".join(lines)
    for wrong in body["wrong"]:
        mistaken = [decode_answer(o) for o in wrong["outputs"]]
        differs = [j for j in range(len(cases)) if differ(expected[j], mistaken[j])]
        if differs and all(differ(mistaken[j], outputs[j]) is None for j in differs):
            lines.append(f"Hint: {wrong['hint']}")
            break
    return WRONG, "\n".join(lines)



def numbers_close_any(expected: Any, given: Any) -> str | None:
    """:func:`numbers_close` for numbers, element by element for lists and tuples."""
    if isinstance(expected, (list, tuple)) and not _is_marker(given, "__error__"):
        try:
            items = list(np.asarray(given, dtype=object).ravel()) if not isinstance(
                given, (list, tuple)) else list(given)
        except Exception:  # noqa: BLE001
            return f"expected {describe(expected)}, got {describe(given)}"
        if len(items) != len(expected):
            return f"expected {len(expected)} values, got {describe(given)}"
        for e, g in zip(expected, items):
            reason = numbers_close_any(e, g)
            if reason is not None:
                return f"expected {describe(expected)}, got {describe(given)}"
        return None
    if isinstance(expected, (bool, np.bool_)):
        return None if isinstance(given, (bool, np.bool_)) and bool(given) == bool(expected) \
            else f"expected {expected}, got {describe(given)}"
    return numbers_close(expected, given)
