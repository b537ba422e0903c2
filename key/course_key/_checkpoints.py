"""The chapters' checkpoints (issue 28, item 3): one conceptual multiple-choice question
per chapter, after its summary, checked like the exercises.

A checkpoint tests understanding, not arithmetic: five options "a" to "e" (also written
"(a)"), one right; each wrong option has a hint that names the misconception it stands
for without naming the right option. It is worth one point and has no per-student
variants: the question is the same for every student on purpose.

>>> ex = checkpoint(7, "example", "Example", "Which? (a) x (b) y (c) z (d) u (e) v",
...                 "c", {"a": "x is not it.", "b": "Nor y.", "d": "Nor u.",
...                       "e": "Nor v."}, worked="z.")
>>> ex.id, ex.answer_name, ex.points, ex.variants
('checkpoint-07-example', 'checkpoint_7', 1, None)
>>> ex.check("(C)").passed, ex.check("a").message
(True, "'a' is not right. x is not it.")
"""

from __future__ import annotations

from collections.abc import Mapping

from course_lib.exercises._core import ChoiceChecker, Exercise, value_exercise

LETTERS = ("a", "b", "c", "d", "e")

#: accepted spelling -> canonical letter: "c", "C", "(c)"
OPTIONS = {**{x: x for x in LETTERS}, **{f"({x})": x for x in LETTERS}}


def checkpoint(chapter: int, slug: str, title: str, question: str, answer: str,
               mistakes: Mapping[str, str], *, worked: str) -> Exercise:
    """The checkpoint ``checkpoint-NN-<slug>`` of ``chapter``; ``mistakes`` gives a hint
    for every wrong letter."""
    if answer not in LETTERS or set(mistakes) != set(LETTERS) - {answer}:
        raise ValueError(f"checkpoint {chapter}: one right letter of {LETTERS} and a hint "
                         f"for each other letter, got {answer!r} and {sorted(mistakes)}")
    name = f"checkpoint_{chapter}"
    return value_exercise(
        id=f"checkpoint-{chapter:02d}-{slug}", chapter=chapter, title=title,
        question=question, answer_name=name, solution_code=f'{name} = "{answer}"',
        solution=answer,
        checker=ChoiceChecker(answer, OPTIONS, mistakes=dict(mistakes),
                              hint="Reread the chapter's summary."),
        worked=worked, points=1)
