"""Assessment end to end: per-student copies, handed in, graded in the sandbox.

Five students of chapter 3 hand in their per-student copies (``make student-notebooks
STUDENTS=...``), filled in five ways, and one sandboxed batch grades them with the class
secret:

* alice answers with her own numbers: full points on every exercise with variants;
* carol copies alice's numbers into her own copy: 0 on every exercise with variants;
* dave copies the book's answers: 0 on every exercise with variants;
* eve's copy runs the two lines that read every answer out of the library: 0 everywhere
  (the grading kernel cannot import the answer key);
* frank hands in alice's filled-in copy under his own name: graded on frank's numbers
  (0), status ``other_student``, with a note that the copy was made for alice.

Without the secret, the grader refuses such a folder (exit code 2).
"""

import csv
import io
from contextlib import redirect_stdout
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
from test_grade import need_bwrap

from course_lib.exercises import REGISTRY, exercises_for, grade, student
from course_lib.exercises.seeds import student_seed
from course_lib.exercises.student import student_exercises

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 3
SECRET = "assessment test secret"
STUDENTS = ["alice", "carol", "dave", "eve", "frank"]
ATTACK = ("from course_lib.exercises import exercises_for\n"
          f"for ex in exercises_for({CHAPTER}):\n"
          "    globals()[ex.answer_name] = ex.solution\n")


def _code(value) -> str:
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, tuple):
        return "(" + ", ".join(_code(v) for v in value) + ",)"
    return repr(value)


def _fill(nb, answers: dict[str, str], prelude: str = ""):
    """The copy with each answer cell's stub replaced by ``name = <code>``."""
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        ex_id = cell.metadata.get("exercise")
        if "answer" in cell.metadata.get("tags", []) and ex_id in answers:
            name = REGISTRY[ex_id].answer_name
            lines = cell.source.splitlines()
            lines[0] = f"{name} = {answers[ex_id]}"
            cell.source = "\n".join(lines)
    if prelude:
        first = next(i for i, c in enumerate(nb.cells)
                     if "answer" in c.metadata.get("tags", []))
        nb.cells.insert(first, nbformat.v4.new_code_cell(prelude))
    return nb


def write_copies(tmp: Path, chapter: Path, students: list[str], secret: str) -> dict:
    """Per-student copies of ``chapter`` made by the command, read back by student;
    the secret is in ``tmp / "class.secret"``."""
    (tmp / "class.secret").write_text(secret + "\n")
    (tmp / "roster.csv").write_text("student\n" + "\n".join(students) + "\n")
    assert student.main([str(chapter), "--out-dir", str(tmp / "copies"), "--roster",
                         str(tmp / "roster.csv"), "--secret-file",
                         str(tmp / "class.secret")]) == 0
    return {s: nbformat.read(tmp / "copies" / s / "notebooks" / chapter.name, as_version=4)
            for s in students}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    need_bwrap()
    tmp = tmp_path_factory.mktemp("assessment")
    copies = write_copies(tmp, ROOT / "notebooks" / "03_auc_pairs.ipynb", STUDENTS, SECRET)
    # the copies do not hold the seeds (tests/test_student.py): the instructor's side
    # recomputes them from the secret, as the grader does
    seeds = {s: student_seed(SECRET, s) for s in STUDENTS}
    own = {s: student_exercises(CHAPTER, seeds[s]) for s in STUDENTS}
    values = [ex.id for ex in exercises_for(CHAPTER) if ex.kind == "value"]

    def answers(s: str) -> dict[str, str]:
        return {i: _code(own[s][i].solution) for i in values}

    book = {i: _code(REGISTRY[i].solution) for i in values}
    subs = tmp / "subs"
    subs.mkdir()
    handed = {
        "alice": _fill(copies["alice"], answers("alice")),
        "carol": _fill(copies["carol"], answers("alice")),
        "dave": _fill(copies["dave"], book),
        "eve": _fill(copies["eve"], {}, prelude=ATTACK),
        "frank": _fill(copies["alice"], answers("alice")),
    }
    for name, nb in handed.items():
        nbformat.write(nb, subs / f"{name}.ipynb")
    out = tmp / "grades.csv"
    with redirect_stdout(io.StringIO()):
        with pytest.raises(SystemExit) as exit_info:
            grade.main([str(subs), "--out", str(out), "--no-progress"])
        refused = exit_info.value.code
        code = grade.main([str(subs), "--out", str(out), "--secret-file",
                           str(tmp / "class.secret"), "--timeout", "30", "--jobs", "2",
                           "--no-progress", "--no-exports"])
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    table: dict[str, dict[str, dict]] = {}
    for row in rows:
        table.setdefault(row["student"], {})[row["exercise"]] = row
    variant_ids = [i for i in values if REGISTRY[i].variants is not None]
    return {"code": code, "refused": refused, "table": table, "variants": variant_ids}


def test_without_the_secret_per_student_copies_are_refused(graded):
    assert graded["refused"] == 2


def test_own_numbers_earn_full_points(graded):
    assert graded["code"] == 0
    assert graded["variants"]
    for i in graded["variants"]:
        row = graded["table"]["alice"][i]
        assert float(row["points"]) == float(row["max_points"]) > 0, row


@pytest.mark.parametrize("who", ["carol", "dave"])
def test_a_classmates_or_the_books_numbers_earn_nothing(graded, who):
    for i in graded["variants"]:
        row = graded["table"][who][i]
        assert row["status"] == "graded" and float(row["points"]) == 0, row


def test_reading_the_answers_out_of_the_library_earns_nothing(graded):
    rows = graded["table"]["eve"]
    assert rows and all(float(r["points"]) == 0 for r in rows.values())
    assert any("ImportError" in r["feedback"] or "AnswerKeyMissing" in r["feedback"]
               for r in rows.values()), rows


def test_a_copy_made_for_another_student_is_graded_on_the_submitters_numbers(graded):
    for i in graded["variants"]:
        row = graded["table"]["frank"][i]
        assert float(row["points"]) == 0
        assert row["status"] == "other_student"
        assert "made for 'alice'" in row["feedback"]
