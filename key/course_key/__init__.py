'''The answer key of the book's exercises (instructor-only).

This package holds what a student must not have: each exercise's reference answer, the
code and prose of its worked solution, the values of the typical mistakes, the hidden
cases of function exercises and the per-student variants. It is installed beside
``course_lib`` for the book, the instructors and the grader (``make`` installs both), and
it is absent from the student build of ``course_lib`` and invisible in the grader's
sandbox. ``course_lib.exercises`` reaches it lazily for ``REGISTRY``, ``get``,
``exercises_for`` and ``check``.

>>> from course_key import get
>>> get("auc-pairs-table1").check("19/24").passed
True

Public names
------------
``REGISTRY`` (id -> :class:`~course_lib.exercises.Exercise`, in book order), ``CHAPTERS``,
``get(exercise_id)``, ``exercises_for(chapter)``.
'''

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import MappingProxyType

from course_lib.exercises._core import Exercise

__all__ = ["CHAPTERS", "REGISTRY", "exercises_for", "get"]

#: The chapters with exercises: one module ``chNN.py`` each, found in this package.
CHAPTERS: tuple[int, ...] = tuple(sorted(
    int(path.stem[2:]) for path in Path(__file__).parent.glob("ch[0-9][0-9].py")))


def _collect() -> Mapping[str, Exercise]:
    out: dict[str, Exercise] = {}
    for module in (import_module(f"{__name__}.ch{n:02d}") for n in CHAPTERS):
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
    if not isinstance(chapter, int) or isinstance(chapter, bool) or chapter not in CHAPTERS:
        raise ValueError(
            f"chapter must be an int in {CHAPTERS[0]}..{CHAPTERS[-1]}, got {chapter!r}")
    return [ex for ex in REGISTRY.values() if ex.chapter == chapter]
