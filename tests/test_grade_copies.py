"""Whose copy is it: per-student copies of chapter 2 handed in by the wrong student.

One sandboxed batch with the class secret, chapter 2 (it has the threshold explorer's
cells, which must run in the sandbox):

* alice hands in her own copy, untouched: every exercise "not answered", no error;
* bob hands in his own copy with his own numbers: full points, status ``graded``;
* dave hands in bob's filled-in copy: ``other_student`` (by the copy's id);
* erin hands in bob's filled-in copy with its metadata deleted: ``other_student`` (by
  the numbers of its questions), graded on erin's own numbers;
* fay hands in her own copy with its metadata deleted and her own numbers: ``graded``.
"""

from __future__ import annotations

import csv
import io
from contextlib import redirect_stdout
from pathlib import Path

import nbformat
import pytest
from test_assessment import _code, _fill, write_copies
from test_grade import need_bwrap

from course_lib.exercises import exercises_for, grade, student
from course_lib.exercises.seeds import student_seed
from course_lib.exercises.student import student_exercises

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 2
SECRET = "whose copy test secret"
STUDENTS = ["alice", "bob", "dave", "erin", "fay"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    need_bwrap()
    tmp = tmp_path_factory.mktemp("copies")
    chapter = next((ROOT / "notebooks").glob(f"{CHAPTER:02d}_*.ipynb"))
    copies = write_copies(tmp, chapter, STUDENTS, SECRET)
    values = [ex.id for ex in exercises_for(CHAPTER) if ex.kind == "value"]

    def answers(s: str) -> dict[str, str]:
        own = student_exercises(CHAPTER, student_seed(SECRET, s))
        return {i: _code(own[i].solution) for i in values}

    def bare(nb):
        nb = nbformat.from_dict(nb)
        nb.metadata.get("course", {}).pop("variant", None)
        return nb

    handed = {"alice": copies["alice"], "bob": _fill(copies["bob"], answers("bob")),
              "dave": _fill(copies["bob"], answers("bob")),
              "erin": bare(_fill(copies["bob"], answers("bob"))),
              "fay": bare(_fill(copies["fay"], answers("fay")))}
    subs = tmp / "subs"
    subs.mkdir()
    for name, nb in handed.items():
        nbformat.write(nb, subs / f"{name}.ipynb")
    out = tmp / "out" / "grades.csv"
    out.parent.mkdir()
    stdout = io.StringIO()
    with redirect_stdout(stdout):
        code = grade.main([str(subs), "--out", str(out), "--secret-file",
                           str(tmp / "class.secret"), "--timeout", "60", "--jobs", "2",
                           "--no-progress"])
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    table: dict[str, dict[str, dict]] = {}
    for row in rows:
        table.setdefault(row["student"], {})[row["exercise"]] = row
    return {"code": code, "table": table, "values": values, "stdout": stdout.getvalue()}


def test_an_untouched_copy_is_not_answered_without_an_error(graded):
    rows = graded["table"]["alice"]
    assert graded["code"] == 0
    assert {r["status"] for r in rows.values()} == {"missing"}, rows
    assert all("not answered" in r["feedback"] or "not defined" in r["feedback"]
               for r in rows.values()), rows


@pytest.mark.parametrize("who", ["bob", "fay"])
def test_own_copy_with_own_numbers_is_graded_in_full(graded, who):
    rows = graded["table"][who]
    for i in graded["values"]:
        assert rows[i]["status"] == "graded", rows[i]
        assert float(rows[i]["points"]) == float(rows[i]["max_points"]), rows[i]


@pytest.mark.parametrize("who", ["dave", "erin"])
def test_a_copy_made_for_another_student_is_flagged(graded, who):
    rows = graded["table"][who]
    assert {r["status"] for r in rows.values()} == {"other_student"}, rows
    assert "copies made for another student: 2 (dave, erin)" in graded["stdout"]
    assert "other_student 6" in graded["stdout"] or "other_student" in graded["stdout"]


def test_an_untouched_copy_of_the_spark_chapter_is_not_answered_in_the_sandbox(tmp_path):
    """Chapter 14 runs Spark where it can; in the sandbox (no network, a memory cap) Spark
    does not start, and the chapter's stand-in must keep every cell free of errors."""
    need_bwrap()
    chapter = next((ROOT / "notebooks").glob("14_*.ipynb"))
    subs = tmp_path / "subs"
    subs.mkdir()
    nb = nbformat.read(chapter, as_version=4)
    nbformat.write(student.student_copy(nb, name=chapter.name), subs / "untouched.ipynb")
    rows = grade.grade_directory(subs, chapter=14, timeout=120)
    assert rows and {r.status for r in rows} == {"missing"}, [
        (r.exercise, r.status, r.feedback) for r in rows]
