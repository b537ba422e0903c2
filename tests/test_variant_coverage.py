"""How many exercises have per-student variants, and what the book's answers earn.

At least 80% of the exercises have variants, and at least half of chapter 13's. A
student who hands in the book's published answers (each exercise's reference value, or
for a function exercise the book's reference function) is judged as the grader judges:
on the variant of that student's seed (``exercise_seed(student_seed(secret, name), id)``),
value answers by :meth:`Exercise.check`, function answers by their outputs on the
hidden cases (:meth:`Exercise.hidden_cases` and :meth:`Exercise.check_outputs`, the
outputs encoded as the notebook kernel reports them). For chapters 5, 8, 11 and 13 such
a submission earns at most half of the chapter's points; for chapter 13 also on its value
exercises alone, and on the whole chapter when judged as the grader's judge process
judges a reported answer (:func:`course_lib.exercises._judge.judge_state`).

The chapters' checkpoints (ids ``checkpoint-NN-...``, issue 28 item 3) are left out of
these measures: each is a conceptual multiple-choice question, the same for every student
on purpose (a check of understanding, not of arithmetic on data), so it has no variants.
"""

import pytest

from course_lib.exercises import REGISTRY, exercises_for
from course_lib.exercises._core import call_with_limit, encode_answer
from course_lib.exercises.seeds import exercise_seed, student_seed

SECRET = "test class secret for the coverage of variants"
STUDENTS = ["alice", "bob", "carol", "dave", "erin"]


def _graded(exercises):
    """The exercises without the checkpoints (see the module's docstring)."""
    return [ex for ex in exercises if not ex.id.startswith("checkpoint-")]


def _with_variants(exercises):
    return [ex for ex in exercises if ex.variants is not None]


def test_at_least_80_percent_of_the_exercises_have_variants():
    exercises = _graded(REGISTRY.values())
    share = len(_with_variants(exercises)) / len(exercises)
    assert share >= 0.8, share


def test_checkpoints_are_the_same_for_every_student():
    for ex in REGISTRY.values():
        if ex.id.startswith("checkpoint-"):
            assert ex.variants is None and ex.kind == "value" and ex.points == 1, ex.id


def test_chapter_13_has_variants_for_at_least_half_of_its_exercises():
    exercises = _graded(exercises_for(13))
    assert 2 * len(_with_variants(exercises)) >= len(exercises)


def _kernel_outputs(func, cases):
    """The outputs the notebook kernel reports for a function answer (encoded)."""
    outputs = []
    for case in cases:
        out = call_with_limit(func, dict(case), 2.0)
        if isinstance(out, dict) and ("__error__" in out or "__timeout__" in out):
            outputs.append(out)
        else:
            outputs.append(encode_answer(out))
    return outputs


def _book_answers_points(chapter, name, kind=None):
    """(points the book's answers earn on this student's variants, the chapter's points),
    over the exercises of one ``kind`` only when it is given."""
    seed = student_seed(SECRET, name)
    earned, total = 0.0, 0
    for book in _graded(exercises_for(chapter)):
        if kind is not None and book.kind != kind:
            continue
        ex = book.variant(exercise_seed(seed, book.id))
        total += ex.points
        if ex.kind == "value":
            feedback = ex.check(book.solution)
        else:
            cases = ex.hidden_cases(exercise_seed(seed, book.id))
            feedback = ex.check_outputs(cases, _kernel_outputs(book.solution, cases))
        earned += feedback.points
    return earned, total


@pytest.mark.parametrize("chapter", [8, 11, 5])
@pytest.mark.parametrize("name", STUDENTS)
def test_handing_in_the_books_answers_earns_at_most_half(chapter, name):
    earned, total = _book_answers_points(chapter, name)
    assert earned <= total / 2, (chapter, name, earned, total)


@pytest.mark.parametrize("name", STUDENTS)
def test_chapter_13_value_exercises_the_books_answers_earn_at_most_half(name):
    """Chapter 13's value exercises (5 of its 13 points) all have variants, and the book's
    answers earn at most half of their points."""
    earned, total = _book_answers_points(13, name, kind="value")
    assert total == 5 and earned <= total / 2, (name, earned, total)


def _judged_points(chapter, name):
    """(points, the chapter's points) of the book's answers for student ``name``, each
    answer reported as the kernel reports it and judged by ``judge_state``."""
    from course_lib.exercises._judge import judge_state

    seed = student_seed(SECRET, name)
    earned, total = 0.0, 0
    for book in _graded(exercises_for(chapter)):
        ex = book.variant(exercise_seed(seed, book.id))
        total += ex.points
        if ex.kind == "value":
            state, cases = {"state": "value", "value": encode_answer(book.solution)}, []
        else:
            cases = ex.hidden_cases(exercise_seed(seed, book.id))
            state = {"state": "outputs", "outputs": _kernel_outputs(book.solution, cases)}
        feedback, why = judge_state(ex, state, cases)
        assert feedback is not None, (book.id, why)
        earned += feedback.points
    return earned, total


@pytest.mark.parametrize("name", STUDENTS + ["frank", "grace", "heidi"])
def test_chapter_13_whole_the_books_answers_earn_at_most_half(name):
    """Chapter 13's function exercises (8 of its 13 points) have variants too, so the
    book's answers earn at most half of the whole chapter's points."""
    earned, total = _judged_points(13, name)
    assert total == 13 and earned <= total / 2, (name, earned, total)
    assert (earned, total) == pytest.approx(_book_answers_points(13, name))


def test_the_books_answers_still_earn_everything_on_the_book():
    """The measure above is not vacuous: on the book's own exercises (no variant) the
    same submission earns every point of the chapter."""
    for chapter in (13, 8, 11, 5):
        for book in _graded(exercises_for(chapter)):
            if book.kind == "value":
                assert book.check(book.solution).passed, book.id
            else:
                cases = book.hidden_cases(1)
                assert book.check_outputs(
                    cases, _kernel_outputs(book.solution, cases)).passed, book.id
