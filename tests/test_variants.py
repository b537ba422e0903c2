"""Per-student variants: each variant is a sound exercise, and copying pays nothing.

For every exercise with variants and several seeds: the variant keeps the id, the answer
name and the kind; its worked solution code, run as a notebook runs it, gives an answer
that passes the variant's own check; the book's reference answer fails it; the question
shows the variant's data; the same seed gives the same variant; the data can be recorded
as JSON. At least half of the book's exercises have variants.
"""

import json

import pytest

from course_lib.exercises import REGISTRY, SOLUTION_IMPORTS
from course_lib.exercises.seeds import copy_id, exercise_seed, student_seed

VARIANT_IDS = [ex.id for ex in REGISTRY.values() if ex.variants is not None]
SEEDS = [0, 1, 2, 3, 17]


def _run(code: str, name: str):
    ns: dict = {}
    exec(SOLUTION_IMPORTS, ns)
    exec(code, ns)
    return ns[name]


def test_at_least_half_of_the_exercises_have_variants():
    assert len(VARIANT_IDS) * 2 >= len(REGISTRY), (len(VARIANT_IDS), len(REGISTRY))


@pytest.mark.parametrize("exercise_id", VARIANT_IDS)
def test_a_variant_is_a_sound_exercise(exercise_id):
    book = REGISTRY[exercise_id]
    assert book.kind == "value"
    assert book.variant(None) is book
    # the book's worked code gives the book's answer
    assert book.check(_run(book.solution_code, book.answer_name)).passed
    questions = set()
    for seed in SEEDS:
        v = book.variant(seed)
        assert (v.id, v.answer_name, v.kind, v.chapter, v.title) == (
            book.id, book.answer_name, book.kind, book.chapter, book.title)
        assert v.variants is book.variants
        json.dumps(v.data)  # the data can be recorded
        answer = _run(v.solution_code, v.answer_name)
        assert v.check(answer).passed, (seed, v.check(answer).message)
        assert v.check(v.solution).passed
        assert not v.check(book.solution).passed, seed
        assert v.question != book.question
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
