"""The grading command on fixture submissions (tests/fixtures/submissions).

One batch of fixture submissions, built from the registry's chapter 3 (value and function
exercises), is graded once per session with short limits and two parallel kernels; each
test then reads the outcome of one submission from the gradebook. A stored chapter
notebook with exercise cells is graded too: full marks, and zero for its student copy.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from contextlib import redirect_stdout
from pathlib import Path

import nbformat
import pytest

from course_lib.exercises import REGISTRY, encode_answer, exercises_for, get, grade
from course_lib.exercises.student import SOLUTION_START, student_copy

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "submissions"))
import fixture_notebooks as fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 3  # has value and function exercises
OTHER = 2
TIMEOUT = 5  # seconds per cell: the infinite loop costs this much


def _read(path: Path) -> dict[str, dict[str, dict]]:
    table: dict[str, dict[str, dict]] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        table.setdefault(row["student"], {})[row["exercise"]] = row
    return table


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grading")
    fixtures.write_all(tmp / "subs", CHAPTER, OTHER)
    out = tmp / "grades.csv"
    stdout = io.StringIO()
    grace, grade.GRACE = grade.GRACE, 3.0  # a kernel ignoring the interrupt is stopped sooner
    with redirect_stdout(stdout):
        try:
            code = grade.main([str(tmp / "subs"), "--out", str(out), "--chapter",
                               str(CHAPTER),
                               "--timeout", str(TIMEOUT), "--memory-mb", "1500",
                               "--jobs", "2",
                               "--seed", "7", "--no-progress"])
        finally:
            grade.GRACE = grace
    return code, _read(out), stdout.getvalue(), out


def _points(rows: dict[str, dict]) -> float:
    return sum(float(r["points"]) for r in rows.values())


def _max(rows: dict[str, dict]) -> int:
    return sum(int(r["max_points"]) for r in rows.values())


def test_batch_completes_with_exit_code_0_and_a_summary(gradebook):
    code, table, stdout, out = gradebook
    assert code == 0
    assert set(table) == {"all_correct", "all_stubs", "partly_wrong", "infinite_loop",
                          "stubborn_loop",
                          "import_error", "tampered_check", "kernel_exit", "memory_hog",
                          "corrupt", "other_chapter"}
    with open(out, newline="", encoding="utf-8") as fh:
        assert next(csv.reader(fh)) == list(grade.COLUMNS)
    ids = [ex.id for ex in exercises_for(CHAPTER)]
    for student, rows in table.items():
        assert list(rows) == ids, student  # one row per exercise, in book order
        assert all(r["status"] in grade.STATUSES for r in rows.values())
    first = stdout.splitlines()[0].split()
    assert first == ["student", "points", "max", "notes"]
    assert any(line.startswith("all_correct") for line in stdout.splitlines())


def test_all_correct_scores_full_marks(gradebook):
    rows = gradebook[1]["all_correct"]
    assert {r["status"] for r in rows.values()} == {"graded"}
    assert _points(rows) == _max(rows) > 0


def test_untouched_student_copy_scores_zero_as_missing(gradebook):
    rows = gradebook[1]["all_stubs"]
    assert _points(rows) == 0
    assert {r["status"] for r in rows.values()} == {"missing"}
    assert all("not answered" in r["feedback"] for r in rows.values())


def test_partly_wrong_scores_the_right_half(gradebook):
    rows = gradebook[1]["partly_wrong"]
    exercises = exercises_for(CHAPTER)
    half = len(exercises) // 2
    for i, ex in enumerate(exercises):
        row = rows[ex.id]
        assert row["status"] == "graded"
        expected = ex.points if i < half else 0
        assert float(row["points"]) == expected, (ex.id, row["feedback"])
    wrong_function = next(ex for ex in exercises[half:] if ex.kind == "function")
    assert "Smallest failing input" in rows[wrong_function.id]["feedback"]


def test_infinite_loop_is_interrupted_and_the_rest_graded(gradebook):
    rows = gradebook[1]["infinite_loop"]
    first, *rest = exercises_for(CHAPTER)
    assert rows[first.id]["status"] == "timeout"
    assert "interrupted" in rows[first.id]["feedback"]
    assert all(rows[ex.id]["status"] == "graded" for ex in rest)
    assert _points(rows) == _max(rows) - first.points


def test_loop_that_ignores_the_interrupt_is_stopped_and_recorded(gradebook):
    rows = gradebook[1]["stubborn_loop"]
    assert {r["status"] for r in rows.values()} == {"timeout"}
    assert all("would not stop" in r["feedback"] for r in rows.values())
    assert _points(rows) == 0


def test_exception_at_import_is_an_error_not_a_crash(gradebook):
    rows = gradebook[1]["import_error"]
    assert _points(rows) == 0
    statuses = {ex.kind: rows[ex.id]["status"] for ex in exercises_for(CHAPTER)}
    assert statuses["value"] == "error"
    assert "ModuleNotFoundError" in next(iter(rows.values()))["feedback"]


def test_tampering_with_check_fraction_isclose_and_deleting_cells_gains_nothing(gradebook):
    rows = gradebook[1]["tampered_check"]
    assert _points(rows) == 0
    exercises = exercises_for(CHAPTER)
    half = len(exercises) // 2
    for ex in exercises[:half]:
        assert rows[ex.id]["status"] == "graded"  # judged in the grader: wrong
        assert "0.123456" in rows[ex.id]["feedback"]
    for ex in exercises[half:]:
        assert rows[ex.id]["status"] == "missing"  # cells deleted


def test_kernel_exit_is_recorded(gradebook):
    rows = gradebook[1]["kernel_exit"]
    assert {r["status"] for r in rows.values()} == {"kernel_died"}
    assert all("kernel died" in r["feedback"] for r in rows.values())


def test_memory_hog_hits_the_cap_and_the_rest_is_graded(gradebook):
    rows = gradebook[1]["memory_hog"]
    first, *rest = exercises_for(CHAPTER)
    assert rows[first.id]["status"] == "memory"
    assert "MemoryError" in rows[first.id]["feedback"]
    assert all(rows[ex.id]["status"] == "graded" for ex in rest)
    assert _points(rows) == _max(rows) - first.points


def test_corrupt_file_is_an_invalid_notebook(gradebook):
    rows = gradebook[1]["corrupt"]
    assert {r["status"] for r in rows.values()} == {"invalid_notebook"}
    assert _points(rows) == 0


def test_notebook_of_another_chapter(gradebook):
    rows = gradebook[1]["other_chapter"]
    assert {r["status"] for r in rows.values()} == {"wrong_chapter"}
    assert all(f"chapter {OTHER}" in r["feedback"] for r in rows.values())


# --------------------------------------------------------------------------- stored chapters
def _chapters_with_exercises() -> list[Path]:
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if any(c.cell_type == "markdown" and SOLUTION_START.match("".join(c.source))
               for c in nb.cells):
            found.append(path)
    return found


def test_stored_chapter_scores_full_marks_and_its_student_copy_zero(tmp_path):
    chapters = _chapters_with_exercises()
    if not chapters:
        pytest.skip("no chapter notebook has exercise cells yet")
    # One chapter keeps the test short: chapter 13 (the problems) if present, else the
    # first with exercises. Every chapter's stubs and sync are checked in test_student.py.
    path = next((p for p in chapters if p.name.startswith("13_")), chapters[0])
    subs = tmp_path / "subs"
    subs.mkdir()
    nb = nbformat.read(path, as_version=4)
    nbformat.write(nb, subs / "book.ipynb")
    nbformat.write(student_copy(nb, name=path.name), subs / "student.ipynb")
    chapter = grade.notebook_chapter(nb, path.name)
    rows = grade.grade_directory(subs, jobs=2, timeout=120, memory_mb=0)
    book = [r for r in rows if r.student == "book"]
    student = [r for r in rows if r.student == "student"]
    ids = [ex.id for ex in exercises_for(chapter)]
    assert [r.exercise for r in book] == ids
    assert all(r.status == "graded" and r.points == r.max_points for r in book), [
        (r.exercise, r.feedback) for r in book if r.points != r.max_points]
    assert sum(r.points for r in student) == 0


# --------------------------------------------------------------------------- usage
def test_usage_errors_exit_2(tmp_path):
    with pytest.raises(SystemExit) as missing:
        grade.main([str(tmp_path / "nowhere"), "--out", str(tmp_path / "g.csv")])
    assert missing.value.code == 2
    with pytest.raises(SystemExit) as empty:
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv")])
    assert empty.value.code == 2
    (tmp_path / "a.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit) as bad_jobs:
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv"), "--jobs", "0"])
    assert bad_jobs.value.code == 2
    with pytest.raises(SystemExit) as bad_chapter:
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv"), "--chapter", "99"])
    assert bad_chapter.value.code == 2


def test_unknown_chapter_without_option_is_recorded_without_a_kernel(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    nbformat.write(nb, tmp_path / "alice.ipynb")
    (rows,) = grade.grade_directory(tmp_path)
    assert (rows.student, rows.status, rows.points) == ("alice", "wrong_chapter", 0.0)
    assert "--chapter" in rows.feedback


# --------------------------------------------------------------------------- judging
def test_notebook_chapter_reads_metadata_before_the_file_name():
    assert grade.notebook_chapter({"metadata": {"course": {"chapter": 7}}}, "03_x.ipynb") == 7
    assert grade.notebook_chapter({"metadata": {"course": {"chapter": True}}}, "03_x.ipynb") == 3
    assert grade.notebook_chapter({"metadata": {}}, "bob.ipynb") is None
    assert grade.notebook_chapter([], "bob.ipynb") is None


def _run(result):
    return grade._Run(result=result)


def test_hostile_or_malformed_reports_are_judged_as_unreadable_never_evaluated():
    ex = get("auc-pairs-table1")
    fn = next(e for e in REGISTRY.values() if e.kind == "function")
    cases = {fn.id: fn.hidden_cases(0)}
    result = {
        ex.id: {"state": "value", "value": {"type": "sympy",
                                            "srepr": "__import__('os').system('exit 3')"}},
        fn.id: {"state": "outputs", "outputs": [{"type": "nonsense"}, 5, None]},
    }
    rows = grade._rows_for_run("eve", [ex, fn], cases, _run(result))
    assert [r.points for r in rows] == [0.0, 0.0]
    assert rows[1].status == "missing" and "outputs could not be read" in rows[1].feedback
    # the right number of outputs, but garbage: judged, and wrong
    outputs = [{"__error__": 3}, {"type": 1}, "x"] + [{"__timeout__": True}] * (
        len(cases[fn.id]) - 3)
    result[fn.id] = {"state": "outputs", "outputs": outputs}
    rows = grade._rows_for_run("eve", [fn], cases, _run(result))
    assert rows[0].status == "graded" and rows[0].points == 0.0


def test_right_values_reported_are_judged_right():
    ex = get("auc-pairs-table1")
    answer = ex.solution
    result = {ex.id: {"state": "value", "value": encode_answer(answer)}}
    (row,) = grade._rows_for_run("ann", [ex], {}, _run(result))
    assert (row.status, row.points) == ("graded", float(ex.points))


def test_a_result_line_printed_twice_voids_the_extraction():
    run = grade._Run()
    cell = nbformat.v4.new_code_cell("")
    line = "M" + json.dumps({})
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{line}\n{line}\n")]
    assert grade._parse_result(cell, "M", run) is None
    assert "2 result lines" in run.notes[-1]
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="noise\n" + line)]
    assert grade._parse_result(cell, "M", grade._Run()) == {}
