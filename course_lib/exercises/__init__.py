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
(Fraction) references accept a float within 1e-9 with a note of the exact value; float
references state their tolerance. A wrong number gets the hint of the mistake it matches
(recomputed on the same data: ties counted as 0 or 1, ascending order, TPR and FPR
swapped, unnormalized Gini, ...). A stub answer ``...`` scores 0 with "not answered yet".

A function answer (``kind == "function"``) is called on hidden cases generated at check
time from a seed (:meth:`Exercise.hidden_cases`), each call limited to
``CALL_TIME_LIMIT`` = 2 seconds (``SIGALRM`` in a main thread, otherwise an abandoned
daemon thread); the feedback shows the smallest failing input with the expected and the
given output, and names the mistake when the outputs match a known wrong version. A
grader that ran the function in another process passes its outputs to
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

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ._core import (
    CALL_TIME_LIMIT,
    Exercise,
    Feedback,
    FunctionSpec,
    Mistake,
    decode_answer,
    encode_answer,
)

__all__ = [
    "CALL_TIME_LIMIT",
    "Exercise",
    "Feedback",
    "FunctionSpec",
    "Mistake",
    "REGISTRY",
    "SOLUTION_IMPORTS",
    "check",
    "decode_answer",
    "encode_answer",
    "exercises_for",
    "get",
]

#: The imports a solution cell may rely on (the chapter notebooks run them first).
SOLUTION_IMPORTS = (
    "import math\n"
    "from fractions import Fraction\n"
    "import numpy as np\n"
    "import sympy\n"
    "import course_lib as cl\n"
    "from course_lib.exercises import check\n"
)


def _collect() -> Mapping[str, Exercise]:
    from . import ch01, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09, ch10, ch11, ch12, ch13, ch14
    from . import ch17

    out: dict[str, Exercise] = {}
    for module in (ch01, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09, ch10, ch11, ch12,
                   ch13, ch14, ch17):
        for ex in module.EXERCISES:
            if ex.id in out:
                raise RuntimeError(f"duplicate exercise id {ex.id!r}")
            out[ex.id] = ex
    return MappingProxyType(out)


REGISTRY: Mapping[str, Exercise] = _collect()


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; ValueError naming an unknown id."""
    try:
        return REGISTRY[exercise_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown exercise id {exercise_id!r}; see "
                         "course_lib.exercises.REGISTRY for the ids") from None


def exercises_for(chapter: int) -> list[Exercise]:
    """The exercises of one chapter, in book order.

    >>> [ex.id for ex in exercises_for(3)][:1]
    ['auc-pairs-table1']
    """
    if not isinstance(chapter, int) or isinstance(chapter, bool) or not 1 <= chapter <= 17:
        raise ValueError(f"chapter must be an int in 1..17, got {chapter!r}")
    return [ex for ex in REGISTRY.values() if ex.chapter == chapter]


def check(exercise_id: str, answer: Any) -> Feedback:
    """Check an answer to one exercise in this process (what a notebook cell calls)."""
    return get(exercise_id).check(answer)
