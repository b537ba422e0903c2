'''Auto-checked exercises: a registry, answer checkers with feedback, hidden cases.

>>> from course_lib.exercises import check, get
>>> check("auc-pairs-table1", "19/24").passed
True
>>> check("auc-pairs-table1", 0.75).message.startswith("0.75 is not right.")
True
>>> check("auc-pairs-table1", ...).points
0.0

Public names
------------
``REGISTRY`` (id -> :class:`Exercise`, ids stable, in book order), ``exercises_for(chapter)``,
``get(exercise_id)``, ``check(exercise_id, answer)`` -> :class:`Feedback`,
``encode_answer`` / ``decode_answer`` (move an answer between processes as JSON).

Answers
-------
A value answer may be given in any equivalent form: an int, a ``Fraction``, a float, a
numpy scalar, a string such as ``"19/24"`` or ``"79.17%"``, a one-element list. Exact
(Fraction) references accept a float within 1e-9 with a note of the exact value, and tell
a decimal within ``CLOSE_TOLERANCE`` (e.g. 0.7917 for 19/24) to give it exactly; float
references state their tolerance. A wrong number gets the hint of the mistake it matches
(recomputed on the same data: ties counted as 0 or 1, ascending order, TPR and FPR
swapped, unnormalized Gini, ...); a hint names the mistake or the idea, never the
answer's value or formula. A stub answer ``...`` scores 0 with "not answered yet".

A function answer (``kind == "function"``) is called on hidden cases generated at check
time from a seed (:meth:`Exercise.hidden_cases`, which always include the exercise's
public cases), each call limited to ``CALL_TIME_LIMIT`` = 2 seconds (``SIGALRM`` in a
main thread, otherwise an abandoned daemon thread); the feedback shows the smallest
failing input with the expected and the given output, and names the mistake when the
outputs match a known wrong version. A function whose parameters are not named as the
exercise calls them (``y_true, y_score``, ...) is told the signature it must have. A
student copy's ``check`` runs the public cases only, and says so: "passes the 5 public
cases; graded on hidden cases as well", with no points (:class:`Feedback`'s
``public_only``). A grader that ran the function in another process passes its outputs to
:meth:`Exercise.check_outputs` (errors as ``{"__error__": "TypeError: ..."}``, time-outs
as ``{"__timeout__": True}``).

Format of an exercise in a chapter notebook
-------------------------------------------
Every exercise of the book takes four cells, in this order (``sphinx-exercise`` renders
the first as a numbered exercise and cells 2-4 as its solution, collapsed):

1. markdown::

       ```{exercise} <title>
       :label: <exercise-id>

       <question>
       ```

2. markdown, the worked solution with its numbers glued::

       ```{solution-start} <exercise-id>
       :class: dropdown
       ```
       <worked solution prose>

3. code, metadata ``{"tags": ["solution"], "exercise": "<exercise-id>"}``::

       <solution code defining answer_name>
       check("<exercise-id>", <answer_name>)

   For a value the code is ``<answer_name> = <expression>``; for a function it is the
   ``def <answer_name>(...)`` block. The cell's output is the passing feedback. A student
   copy replaces the code by ``Exercise.stub`` followed by the same ``check`` line.

4. markdown::

       ```{solution-end}
       ```

A chapter notebook that holds exercises records its chapter in its metadata,
``{"course": {"chapter": NN}}``, so that it is a valid submission under any file name.

The solution code runs with the names of ``SOLUTION_IMPORTS`` (``Fraction``, ``math``,
``np``, ``sympy``, ``cl`` = ``course_lib``, ``check``) in scope.
'''

from __future__ import annotations

from typing import Any

from ._core import CALL_TIME_LIMIT, Exercise, Feedback, FunctionSpec, Mistake, decode_answer, encode_answer
from .sealed import SealedCheck

__all__ = ["CALL_TIME_LIMIT", "Exercise", "Feedback", "FunctionSpec", "Mistake", "REGISTRY",
           "SealedCheck", "SOLUTION_IMPORTS", "check", "decode_answer", "encode_answer",
           "exercises_for", "get"]

#: The imports a solution cell may rely on (the chapter notebooks run them first).
SOLUTION_IMPORTS = (
    "import math\n"
    "from fractions import Fraction\n"
    "import numpy as np\n"
    "import sympy\n"
    "import course_lib as cl\n"
    "from course_lib.exercises import check\n"
)


#: What lives only in the instructor-only answer key (``course_key``).
_KEY_NAMES = ("REGISTRY", "CHAPTERS", "get", "exercises_for")


class AnswerKeyMissing(ImportError):
    """Raised where the answer key is needed but not installed (a student install, the
    grader's sandbox)."""


def _key() -> Any:
    try:
        import course_key
    except ImportError:
        raise AnswerKeyMissing(
            "the exercises' answer key (the package course_key) is not installed here: it "
            "is instructor-only. In a student copy of a chapter, `check` is defined by the "
            "cell at the top of the exercises, which needs no key; run that cell.") from None
    return course_key


def __getattr__(name: str) -> Any:
    """``REGISTRY``, ``CHAPTERS``, ``get`` and ``exercises_for`` come from the key."""
    if name in _KEY_NAMES:
        return getattr(_key(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check(exercise_id: str, answer: Any) -> Feedback:
    """Check an answer to one exercise of the book (needs the instructor-only key).

    A student copy defines its own ``check`` from a sealed key (:class:`SealedCheck`).
    """
    return _key().get(exercise_id).check(answer)
