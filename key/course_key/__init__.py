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

from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path
from types import MappingProxyType

from course_lib.exercises._core import Exercise

__all__ = ["CHAPTERS", "REGISTRY", "exercises_for", "get"]

#: The chapters with exercises: one module ``chNN.py`` each, found in this package.
CHAPTERS: tuple[int, ...] = tuple(sorted(
    int(path.stem[2:]) for path in Path(__file__).parent.glob("ch[0-9][0-9].py")))


class _Registry(Mapping[str, Exercise]):
    """Exercise id -> :class:`~course_lib.exercises.Exercise`, in book order.

    A chapter's module is imported when one of its exercises is first asked for, not
    before: building chapter 10's exercises alone takes about a second (sympy and its
    integrals), which a kernel checking chapter 3 or a grader of chapter 3 need not pay.
    A lookup reads the chapters in book order up to the one that has the id; iterating,
    ``len`` and an unknown id read them all. An id found twice, or an exercise in the
    module of another chapter, is refused (``RuntimeError``) as soon as both are read.
    """

    def __init__(self) -> None:
        self._chapters: dict[int, dict[str, Exercise]] = {}
        self._ids: dict[str, Exercise] = {}

    def _read(self, chapter: int) -> dict[str, Exercise]:
        if chapter not in self._chapters:
            found: dict[str, Exercise] = {}
            for ex in import_module(f"{__name__}.ch{chapter:02d}").EXERCISES:
                if ex.id in self._ids or ex.id in found:
                    raise RuntimeError(f"duplicate exercise id {ex.id!r}")
                if ex.chapter != chapter:
                    raise RuntimeError(f"exercise {ex.id!r} of chapter {ex.chapter} is in "
                                       f"the module of chapter {chapter}")
                found[ex.id] = ex
            self._chapters[chapter] = found
            self._ids.update(found)
        return self._chapters[chapter]

    def _all(self) -> Mapping[str, Exercise]:
        return MappingProxyType({k: ex for n in CHAPTERS for k, ex in self._read(n).items()})

    def __getitem__(self, exercise_id: str) -> Exercise:
        if exercise_id in self._ids:
            return self._ids[exercise_id]
        for n in CHAPTERS:
            if n not in self._chapters and exercise_id in self._read(n):
                return self._chapters[n][exercise_id]
        raise KeyError(exercise_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"REGISTRY({len(self)} exercises of chapters {CHAPTERS[0]}..{CHAPTERS[-1]})"


_REGISTRY = _Registry()
REGISTRY: Mapping[str, Exercise] = _REGISTRY


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
    return list(_REGISTRY._read(chapter).values())
