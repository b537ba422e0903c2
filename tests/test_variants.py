"""Per-student variants: each variant is a sound exercise, and copying pays nothing.

For every exercise with variants and several seeds: the variant keeps the id, the answer
name and the kind; its worked solution code, run as a notebook runs it, gives an answer
that passes the variant's own check; the book's reference answer fails it; the question
shows the variant's data; the same seed gives the same variant; the data can be recorded
as JSON. At least half of the book's exercises have variants.

Value and function exercises can both have variants. A function answer is judged as the
grader judges it: by its outputs on the variant's hidden cases
(:meth:`Exercise.hidden_cases`, :meth:`Exercise.check_outputs`); the variant's own
solution function passes them and the book's fails them, for every seed.
"""

import json

import pytest

from course_lib.exercises import REGISTRY, SOLUTION_IMPORTS
from course_lib.exercises.seeds import copy_id, exercise_seed, student_seed

VARIANT_IDS = [ex.id for ex in REGISTRY.values() if ex.variants is not None]
FUNCTION_VARIANT_IDS = [i for i in VARIANT_IDS if REGISTRY[i].kind == "function"]
SEEDS = [0, 1, 2, 3, 17]


def _run(code: str, name: str):
    ns: dict = {}
    exec(SOLUTION_IMPORTS, ns)
    exec(code, ns)
    return ns[name]


def _passes(ex, answer, seed: int = 0) -> bool:
    """Whether ``answer`` passes ``ex`` as the grader judges it (a function answer on the
    hidden cases of ``seed``)."""
    if ex.kind == "value":
        return ex.check(answer).passed
    cases = ex.hidden_cases(seed)
    return ex.check_outputs(cases, [answer(**dict(case)) for case in cases]).passed


def test_at_least_half_of_the_exercises_have_variants():
    assert len(VARIANT_IDS) * 2 >= len(REGISTRY), (len(VARIANT_IDS), len(REGISTRY))


@pytest.mark.parametrize("exercise_id", VARIANT_IDS)
def test_a_variant_is_a_sound_exercise(exercise_id):
    book = REGISTRY[exercise_id]
    assert book.kind in ("value", "function")
    assert book.variant(None) is book
    # the book's worked code gives the book's answer
    assert _passes(book, _run(book.solution_code, book.answer_name))
    questions = set()
    for seed in SEEDS:
        v = book.variant(seed)
        assert (v.id, v.answer_name, v.kind, v.chapter, v.title) == (
            book.id, book.answer_name, book.kind, book.chapter, book.title)
        assert v.variants is book.variants
        json.dumps(v.data)  # the data can be recorded
        answer = _run(v.solution_code, v.answer_name)
        assert _passes(v, answer), (seed, v.check(answer, seed=0).message)
        assert _passes(v, v.solution)
        assert not _passes(v, book.solution), seed
        assert v.question != book.question
        assert v.solution_code != book.solution_code and v.worked != book.worked
        again = book.variant(seed)
        assert (again.question, again.solution_code, again.worked) == (
            v.question, v.solution_code, v.worked)
        questions.add(v.question)
    assert len(questions) >= len(SEEDS) - 1  # the seeds give different data


@pytest.mark.parametrize("exercise_id", VARIANT_IDS)
def test_a_variant_keeps_its_mistake_hints(exercise_id):
    """Where the book names typical mistakes, the variant recomputes them on its data,
    and none of them equals the variant's answer."""
    book = REGISTRY[exercise_id]
    for seed in SEEDS[:3]:
        v = book.variant(seed)
        mistakes = getattr(v.checker, "mistakes", ())
        if getattr(book.checker, "mistakes", ()):
            assert mistakes, "the book's exercise has mistake hints, the variant none"
        for m in mistakes:
            fb = v.check(m.value)
            assert not fb.passed and m.hint in fb.message, (m, fb.message)
        if book.function is not None and book.function.wrong_versions:
            wrong = v.function.wrong_versions
            assert wrong, "the book's exercise has mistake hints, the variant none"
            for func, hint in wrong:
                # a typical mistake, recomputed for the variant, is told as such
                fb = v.check(func, seed=seed)
                assert not fb.passed and hint in fb.message, (hint, fb.message)


# ------------------------------------------------------------------ function variants
def test_chapter_13_has_function_variants():
    assert len([i for i in FUNCTION_VARIANT_IDS if REGISTRY[i].chapter == 13]) >= 2


@pytest.mark.parametrize("exercise_id", FUNCTION_VARIANT_IDS)
def test_a_function_variant_judges_its_own_solution_not_the_books(exercise_id):
    """For 50 seeds: the variant's worked solution function (its ``solution_code`` run
    with the notebooks' imports) passes the variant's hidden cases, the book's solution
    function fails them, and the variant's question differs from the book's."""
    book = REGISTRY[exercise_id]
    for seed in range(50):
        v = book.variant(seed)
        assert v.kind == "function" and v.function is not None
        own = _run(v.solution_code, v.answer_name)
        assert v.function.signature == book.function.signature
        for s in (0, 1):
            cases = v.hidden_cases(s)
            feedback = v.check_outputs(cases, [own(**dict(c)) for c in cases])
            assert feedback.passed, (seed, s, feedback.message)
            feedback = v.check_outputs(cases, [book.solution(**dict(c)) for c in cases])
            assert not feedback.passed, (seed, s)
        assert v.question != book.question


def test_the_books_function_exercises_are_unchanged():
    """The book's chapter-13 function exercises (seed None) are as the notebook prints
    them: their reference, cases and texts are the book's."""
    from course_key import ch13

    q4, q7 = REGISTRY["d-q4-max-auc"], REGISTRY["d-q7-thinning-precision"]
    assert q4.function.reference is ch13._max_auc_reference
    assert q4.function.cases is ch13._m_cases
    assert "m1 = m // 2" in q4.solution_code and "at most" not in q4.question
    assert q7.function.reference is ch13._thinned_precision
    assert q7.function.cases is ch13._precision_cases
    assert "oversample" not in q7.question and "copied" not in q7.question


def test_students_get_different_variants():
    secret = "test class secret"
    students = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
    for exercise_id in VARIANT_IDS:
        book = REGISTRY[exercise_id]
        data = {json.dumps(book.variant(exercise_seed(student_seed(secret, s),
                                                      exercise_id)).data)
                for s in students}
        assert len(data) >= len(students) - 1, exercise_id


# --------------------------------------------------------------------------- copies
def _key_cell(nb):
    return [c for c in nb.cells if "check-key" in c.metadata.get("tags", [])]


def test_per_student_copies_carry_their_own_variant(tmp_path):
    import stat
    from pathlib import Path

    import nbformat

    from course_lib.exercises import student
    from course_lib.exercises.student import student_exercises

    roster = tmp_path / "roster.csv"
    roster.write_text("student,name\nalice,Alice A.\nbob,Bob B.\n", encoding="utf-8")
    chapter = Path(__file__).resolve().parents[1] / "notebooks" / "03_auc_pairs.ipynb"
    # a new secret file is created, random and owner-only
    created = tmp_path / "new.secret"
    assert student.main([str(chapter), "--out-dir", str(tmp_path / "first"),
                         "--roster", str(roster), "--secret-file", str(created)]) == 0
    assert stat.S_IMODE(created.stat().st_mode) == 0o600
    assert len(created.read_text().strip()) == 32
    # a fixed secret, so that the comparison below is reproducible (small answer spaces
    # can make two students' answers equal by chance under another secret)
    secret_file = tmp_path / "class.secret"
    secret_file.write_text("test class secret 2026\n")
    assert student.main([str(chapter), "--out-dir", str(tmp_path / "out"),
                         "--roster", str(roster), "--secret-file", str(secret_file)]) == 0
    secret = secret_file.read_text().strip()
    copies = {s: nbformat.read(tmp_path / "out" / s / "notebooks" / chapter.name, as_version=4)
              for s in ("alice", "bob")}
    own = {}
    for name, nb in copies.items():
        variant = nb.metadata["course"]["variant"]
        # the copy names its student and its copy id, never the seed
        assert variant == {"student": name, "id": copy_id(secret, name)}
        assert "seed" not in variant
        own[name] = student_exercises(3, student_seed(secret, name))
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for ex in own[name].values():
            if ex.variants is not None:
                assert ex.question.splitlines()[0] in text  # the variant's data are shown
        assert len(_key_cell(nb)) == 1
    # the copy's own check: its numbers pass, a classmate's and the book's do not
    ns: dict = {}
    exec(_key_cell(copies["alice"])[0].source, ns)
    check = ns["check"]
    for ex_id, ex in own["alice"].items():
        if ex.variants is None:
            continue
        assert check(ex_id, ex.solution).passed
        assert not check(ex_id, own["bob"][ex_id].solution).passed
        assert not check(ex_id, REGISTRY[ex_id].solution).passed
    # the same secret and roster give the same bytes
    again = tmp_path / "again"
    student.main([str(chapter), "--out-dir", str(again), "--roster", str(roster),
                  "--secret-file", str(secret_file)])
    assert (again / "alice" / "notebooks" / chapter.name).read_bytes() == (
        tmp_path / "out" / "alice" / "notebooks" / chapter.name).read_bytes()
    # each student's folder holds the data its chapters read
    assert (tmp_path / "out" / "alice" / "data" / "asah.csv").is_file()


def test_per_student_copies_of_chapter_13_seal_their_function_variants(tmp_path):
    """A copy of chapter 13 builds for each student; it shows the variant's questions of
    the function exercises, and its sealed check accepts the variant's solution function
    (on the public cases) and refuses the book's where the public cases tell them apart."""
    from pathlib import Path

    import nbformat

    from course_lib.exercises.student import student_exercises, write_student_copies

    chapter = Path(__file__).resolve().parents[1] / "notebooks" / "13_problems.ipynb"
    secret = "test class secret 2026 for chapter 13"
    roster = {"alice": "Alice A.", "bob": "Bob B."}
    write_student_copies([chapter], tmp_path / "out", students=list(roster), secret=secret)
    for name in roster:
        nb = nbformat.read(tmp_path / "out" / name / "notebooks" / chapter.name, as_version=4)
        variant = nb.metadata["course"]["variant"]
        assert variant == {"student": name, "id": copy_id(secret, name)}
        own = student_exercises(13, student_seed(secret, name))
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        ns: dict = {}
        exec(_key_cell(nb)[0].source, ns)
        check = ns["check"]
        for ex_id in FUNCTION_VARIANT_IDS:
            ex = own.get(ex_id)
            if ex is None:
                continue
            assert ex.question in text, (name, ex_id)
            mine = check(ex_id, _run(ex.solution_code, ex.answer_name))
            assert mine.passed, (name, ex_id, mine.message)
            assert check(ex_id, ex.solution).passed
            assert not check(ex_id, REGISTRY[ex_id].solution).passed, (name, ex_id)


@pytest.mark.parametrize("text, why", [
    ("name\nalice\n", "column 'student'"),
    ("student\nalice\nAlice\n", "same student id up to case"),
    ("student\n../etc\n", "not a usable student id"),
    ("student\n", "no students"),
])
def test_a_bad_roster_is_refused(tmp_path, text, why):
    from course_lib.exercises.student import read_roster

    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=why):
        read_roster(path)
