"""The grading command on fixture submissions (tests/fixtures/submissions).

One batch of fixture submissions, built from the registry's chapter 3 (value and function
exercises), is graded once per module in the bubblewrap sandbox with short limits and two
parallel kernels; each test then reads the outcome of one submission from the gradebook.
The batch holds the ordinary mistakes, the hostile notebooks (runaway processes, a
notebook that snoops and plants files, one that prints 1 GB) and the files instructors
get (``partial.IPYNB``, ``Full.ipynb`` next to ``full.ipynb``, ``bob.pdf``,
``carol.ipynb.zip``). A stored chapter notebook with exercise cells is graded too: full
marks, and zero for its student copy. A grader killed mid-batch is resumed.

The tests that need bwrap are skipped where it cannot build the sandbox, and fail when
the environment variable CI is ``true``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import nbformat
import psutil
import pytest

from course_lib.exercises import REGISTRY, _exports, _sandbox, encode_answer, exercises_for, get, grade
from course_lib.exercises._kernel import RESULT_MIME
from course_lib.exercises.student import SOLUTION_START, student_copy

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "submissions"))
import fixture_notebooks as fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 3  # has value and function exercises
OTHER = 2
TIMEOUT = 5  # seconds per cell: the infinite loop costs this much
IN_CI = os.environ.get("CI", "").lower() == "true"
SECRET_ENV = "COURSE_LIB_GRADER_TEST_SECRET"


def need_bwrap() -> None:
    why = _sandbox.probe_bwrap()
    if why is not None:
        if IN_CI:
            pytest.fail(f"CI must run the sandbox tests: {why}")
        pytest.skip(why)


def _listener() -> tuple[socket.socket, list]:
    """A TCP server on the host's loopback that records every connection."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    accepted: list = []

    def serve() -> None:
        while server.fileno() != -1:
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    return server, accepted


def _sandbox_processes() -> list[str]:
    """Command lines of processes left by the hostile notebooks, anywhere on the host."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmd = " ".join(proc.info["cmdline"] or [])
        if any(s in cmd for s in fixtures.RUNAWAY_SLEEPS) or "mallory" in cmd:
            found.append(cmd)
    return found


def _read(path: Path) -> dict[str, dict[str, dict]]:
    table: dict[str, dict[str, dict]] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        table.setdefault(row["student"], {})[row["exercise"]] = row
    return table


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    need_bwrap()
    tmp = tmp_path_factory.mktemp("grading")
    subs = tmp / "subs"
    paths = fixtures.write_all(subs, CHAPTER, OTHER)
    (tmp / "out").mkdir()
    out = tmp / "out" / "grades.csv"
    host_tmp = Path("/tmp") / f"course-lib-planted-{os.getpid()}-{time.time_ns()}"
    server, accepted = _listener()
    fixtures.write(subs, fixtures.hostile(
        CHAPTER, submissions_dir=subs, gradebook=out, host_tmp=host_tmp, repo=ROOT,
        port=server.getsockname()[1], secret_env=SECRET_ENV))
    correct, stubs = paths["all_correct"].read_bytes(), paths["all_stubs"].read_bytes()
    (subs / "partial.IPYNB").write_bytes(correct)
    (subs / "Full.ipynb").write_bytes(correct)
    (subs / "full.ipynb").write_bytes(stubs)
    (subs / "bob.pdf").write_bytes(b"%PDF-1.4 not a notebook")
    (subs / "carol.ipynb.zip").write_bytes(b"PK\x03\x04 not a notebook")
    (subs / ".DS_Store").write_bytes(b"ignored")
    before = {p.name for p in subs.iterdir()}
    stdout = io.StringIO()
    grace, grade.GRACE = grade.GRACE, 3.0  # a kernel ignoring the interrupt is stopped sooner
    os.environ[SECRET_ENV] = "the class secret"
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with redirect_stdout(stdout):
        try:
            code = grade.main([str(subs), "--out", str(out), "--chapter", str(CHAPTER),
                               "--timeout", str(TIMEOUT), "--memory-mb", "1500",
                               "--jobs", "2", "--seed", "7", "--no-progress"])
        finally:
            grade.GRACE = grace
            os.environ.pop(SECRET_ENV)
    growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    server.close()
    leftovers = _sandbox_processes()
    planted = [p for p in (host_tmp, tmp / "planted.txt") if p.exists()]
    planted += [p for p in subs.iterdir() if p.name not in before]
    host_tmp.unlink(missing_ok=True)
    return {"code": code, "table": _read(out), "stdout": stdout.getvalue(), "out": out,
            "connections": len(accepted), "growth_mb": growth_mb, "leftovers": leftovers,
            "planted": planted, "text": out.read_text(encoding="utf-8")}


@pytest.fixture(scope="module")
def gradebook(batch):
    return batch["code"], batch["table"], batch["stdout"], batch["out"]


def _points(rows: dict[str, dict]) -> float:
    return sum(float(r["points"]) for r in rows.values())


def _max(rows: dict[str, dict]) -> int:
    return sum(int(r["max_points"]) for r in rows.values())


NOTEBOOKS = {"all_correct", "all_stubs", "partly_wrong", "infinite_loop", "stubborn_loop",
             "import_error", "tampered_check", "kernel_exit", "memory_hog", "corrupt",
             "other_chapter", "runaway", "snoop", "flood", "partial"}
FILES = {"Full", "full", "bob.pdf", "carol.ipynb.zip"}  # a row each, not graded


def test_batch_completes_with_exit_code_0_and_a_summary(gradebook):
    code, table, stdout, out = gradebook
    assert code == 0
    assert set(table) == NOTEBOOKS | FILES
    with open(out, newline="", encoding="utf-8") as fh:
        assert next(csv.reader(fh)) == list(grade.COLUMNS)
    ids = [ex.id for ex in exercises_for(CHAPTER)]
    for student, rows in table.items():
        if student in NOTEBOOKS:
            assert list(rows) == ids, student  # one row per exercise, in book order
        assert all(r["status"] in grade.STATUSES for r in rows.values())
    first = stdout.splitlines()[0].split()
    assert first == ["student", "points", "max", "notes"]
    assert any(line.startswith("all_correct") for line in stdout.splitlines())
    assert "sandbox: bwrap" in stdout


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
    # the later cells still run: a checkpoint's letter needs no import, every other
    # answer does
    letters = [ex for ex in exercises_for(CHAPTER) if ex.id.startswith("checkpoint-")]
    assert _points(rows) == sum(ex.points for ex in letters)
    statuses = {ex.kind: rows[ex.id]["status"] for ex in exercises_for(CHAPTER)
                if ex not in letters}
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


# --------------------------------------------------------------------------- the sandbox
def test_no_process_of_a_notebook_survives_it(batch):
    """The detached sleep and the double fork with setsid are gone after the batch."""
    rows = batch["table"]["runaway"]
    assert _points(rows) == _max(rows)  # the notebook ran to its end
    assert batch["leftovers"] == []


def test_a_snooping_notebook_reads_and_reaches_nothing(batch):
    """Each escape the notebook manages becomes its first answer: full marks = sealed."""
    rows = batch["table"]["snoop"]
    first = exercises_for(CHAPTER)[0]
    assert rows[first.id]["status"] == "graded"
    assert "escaped" not in rows[first.id]["feedback"], rows[first.id]["feedback"]
    assert _points(rows) == _max(rows)
    assert batch["connections"] == 0  # the host's loopback was not reached


def test_a_notebook_writes_nowhere_but_its_scratch_folder(batch):
    assert batch["planted"] == []  # submissions folder, its parent, the host's /tmp
    assert "mallory" not in batch["text"]  # the gradebook, now and 3 s later
    time.sleep(3.5)
    assert "mallory" not in batch["out"].read_text(encoding="utf-8")


def test_printing_a_gigabyte_is_cut_and_the_answers_are_still_judged(batch):
    rows = batch["table"]["flood"]
    first, second, *rest = exercises_for(CHAPTER)
    assert rows[first.id]["status"] == "graded"  # given before the flood
    assert rows[second.id]["status"] == "output_limit"
    assert "output past the 1 MB cap per cell dropped" in rows[second.id]["feedback"]
    assert all(rows[ex.id]["status"] == "graded" for ex in rest)
    assert _points(rows) == _max(rows) - second.points
    # the grader did not hold the gigabyte (nor even a tenth of it)
    assert batch["growth_mb"] < 100, batch["growth_mb"]


# --------------------------------------------------------------------------- the files
def test_any_case_of_ipynb_is_read(gradebook):
    rows = gradebook[1]["partial"]
    assert {r["status"] for r in rows.values()} == {"graded"}
    assert _points(rows) == _max(rows)


def test_names_differing_only_in_case_are_reported_not_merged(gradebook):
    table = gradebook[1]
    for name in ("Full", "full"):
        (row,) = table[name].values()
        assert row["status"] == "name_clash"
        assert "Full.ipynb and full.ipynb differ only in case" in row["feedback"]
        assert float(row["points"]) == 0 and int(row["max_points"]) == 0


def test_a_file_that_is_not_a_notebook_gets_a_row_saying_so(gradebook):
    table = gradebook[1]
    for name in ("bob.pdf", "carol.ipynb.zip"):
        (row,) = table[name].values()
        assert row["status"] == "not_a_notebook"
        assert f"{name} is not a notebook" in row["feedback"]
    assert ".DS_Store" not in table


def test_exports_are_written_with_the_gradebook(batch):
    paths = _exports.export_paths(batch["out"])
    table = batch["table"]
    with open(paths["canvas"], newline="", encoding="utf-8") as fh:
        possible, *canvas = list(csv.DictReader(fh))
    column = f"Chapter {CHAPTER} exercises"
    assert list(possible) == [*_exports.CANVAS_COLUMNS, column]
    assert possible["Student"] == "Points Possible"
    assert {r["Student"] for r in canvas} == NOTEBOOKS  # files that are no student: not
    for r in canvas:
        assert r["SIS Login ID"] == r["Student"]
        if r["Student"] in ("kernel_exit", "corrupt", "other_chapter", "stubborn_loop"):
            # could not be graded: an empty cell, never a 0 over the LMS grade
            assert r[column] == ""
        else:
            assert float(r[column]) == _points(table[r["Student"]])
    with open(paths["moodle"], newline="", encoding="utf-8") as fh:
        moodle = {r["Student"]: r for r in csv.DictReader(fh)}
    assert set(moodle) == NOTEBOOKS
    flood = table["flood"]
    got, most = f"{_points(flood):g}", f"{_max(flood):g}"
    assert moodle["flood"]["Feedback"].startswith(f"{got}/{most} points. ")
    assert "(output_limit)" in moodle["flood"]["Feedback"]
    pages = {p.stem for p in paths["feedback"].glob("*.html")}
    assert pages == NOTEBOOKS
    page = (paths["feedback"] / "flood.html").read_text(encoding="utf-8")
    assert f"{got} of {most} points" in page and "output_limit" in page


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
    need_bwrap()
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
    with pytest.raises(SystemExit) as bad_judge:
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv"), "--judge-timeout", "0"])
    assert bad_judge.value.code == 2
    with pytest.raises(SystemExit) as bad_chapter:
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv"), "--chapter", "99"])
    assert bad_chapter.value.code == 2
    with pytest.raises(SystemExit) as inside:  # the gradebook beside the submissions
        grade.main([str(tmp_path), "--out", str(tmp_path / "g.csv")])
    assert inside.value.code == 2


def test_unknown_chapter_without_option_is_recorded_without_a_kernel(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    nbformat.write(nb, tmp_path / "alice.ipynb")
    (rows,) = grade.grade_directory(tmp_path, sandbox="none")
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


def test_a_result_published_twice_voids_the_extraction():
    run = grade._Run()
    cell = nbformat.v4.new_code_cell("")
    line = "M" + json.dumps({})

    def result(text):
        return nbformat.v4.new_output("display_data", data={RESULT_MIME: text})

    cell.outputs = [result(line), result(line)]
    assert grade._parse_result(cell, "M", run) is None
    assert "2 results" in run.notes[-1]
    printed = nbformat.v4.new_output("stream", name="stdout", text=line + "\n")
    cell.outputs = [printed, result("noise"), result(line)]
    assert grade._parse_result(cell, "M", grade._Run()) == {}
    cell.outputs = [printed]  # printed text is never read as a result
    assert grade._parse_result(cell, "M", grade._Run()) is None


# --------------------------------------------------------------------------- weaker mode
def test_without_bwrap_the_grader_refuses_with_exit_code_2(tmp_path, monkeypatch, capsys):
    subs = tmp_path / "subs"
    subs.mkdir()
    nbformat.write(fixtures.chapter_notebook(CHAPTER), subs / "alice.ipynb")
    out = tmp_path / "grades.csv"
    monkeypatch.setattr(_sandbox, "_bwrap", lambda: None)
    assert grade.main([str(subs), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "apt-get install bubblewrap" in err and "--sandbox none" in err
    assert not out.exists()
    # a bwrap that cannot create namespaces (no user namespaces, not root)
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(_sandbox, "_bwrap", lambda: str(fake))
    assert grade.main([str(subs), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "No permissions to create new namespace" in err and "user namespaces" in err
    assert not out.exists()
    with pytest.raises(_sandbox.SandboxUnavailable):
        grade.grade_directory(subs)


def test_without_the_answer_key_the_grader_refuses_with_exit_code_2(tmp_path, monkeypatch,
                                                                     capsys):
    nbformat.write(fixtures.chapter_notebook(CHAPTER), tmp_path / "alice.ipynb")
    monkeypatch.setitem(sys.modules, "course_key", None)  # as where only course_lib is
    assert grade.main([str(tmp_path), "--out", str(tmp_path.parent / "g.csv")]) == 2
    assert "the answer key (the package course_key" in capsys.readouterr().err


def test_the_weaker_mode_must_be_asked_for_and_says_so(tmp_path):
    """--sandbox none: own process group and attached descendants killed, stated loudly."""
    subs = tmp_path / "subs"
    subs.mkdir()
    sleep = "603.4242"
    nbformat.write(fixtures.chapter_notebook(CHAPTER, extra=[nbformat.v4.new_code_cell(
        f"import subprocess\nsubprocess.Popen(['sleep', '{sleep}'], start_new_session=True)")]),
        subs / "alice.ipynb")
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        code = grade.main([str(subs), "--out", str(tmp_path / "g.csv"), "--sandbox", "none",
                           "--no-progress", "--no-exports", "--seed", "1"])
    assert code == 0
    assert "sandbox: NONE" in stdout.getvalue() and "WARNING" in stderr.getvalue()
    (row, *_) = grade.read_gradebook(tmp_path / "g.csv")
    assert row.status == "graded" and row.points == row.max_points
    assert not [p for p in psutil.process_iter(["cmdline"])
                if sleep in " ".join(p.info["cmdline"] or [])]
    assert not _exports.export_paths(tmp_path / "g.csv")["canvas"].exists()


# --------------------------------------------------------------------------- crash, resume
def _complete_students(path: Path, per_student: int) -> set[str]:
    rows = grade.read_gradebook(path)  # raises on a torn file
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.student] = counts.get(r.student, 0) + 1
    assert all(n == per_student for n in counts.values()), counts
    return set(counts)


def _running(procs: list, wait: float) -> list:
    """The processes still running after up to ``wait`` seconds (a zombie has ended: it
    only waits for its new parent, here the machine's init, to collect its exit code)."""
    deadline = time.monotonic() + wait
    while True:
        running = []
        for proc in procs:
            try:
                if proc.status() != psutil.STATUS_ZOMBIE:
                    running.append(proc)
            except psutil.NoSuchProcess:
                pass
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)


def test_a_grader_killed_mid_batch_keeps_what_it_graded_and_resumes(tmp_path):
    need_bwrap()
    subs = tmp_path / "subs"
    subs.mkdir()
    nb = fixtures.chapter_notebook(CHAPTER)
    names = ["ann", "ben"]
    for name in names:
        nbformat.write(nb, subs / f"{name}.ipynb")
    out = tmp_path / "grades.csv"
    per_student = len(exercises_for(CHAPTER))
    cmd = [sys.executable, "-m", "course_lib.exercises.grade", str(subs), "--out", str(out),
           "--jobs", "1", "--no-progress", "--seed", "3"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        done: set[str] = set()
        while time.monotonic() < deadline and not done:
            time.sleep(0.2)
            if out.exists():
                done = _complete_students(out, per_student)
        assert done, "no notebook was graded in time"
        # kill while the next notebook runs: wait for its sandbox (under load the grader
        # may still be between the two notebooks when the first one's row lands)
        kernels: list[psutil.Process] = []
        while time.monotonic() < deadline and not kernels:
            kernels = psutil.Process(proc.pid).children(recursive=True)
            if not kernels:
                time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    done = _complete_students(out, per_student)  # what the gradebook holds at the kill
    assert done < set(names)  # killed mid-batch
    # bwrap --die-with-parent: the kernel of the notebook in progress goes with the grader
    assert kernels and _running(kernels, wait=10) == []
    before = grade.read_gradebook(out)
    stdout = io.StringIO()
    with redirect_stdout(stdout):
        assert grade.main([*cmd[3:], "--resume"]) == 0
    assert _complete_students(out, per_student) == set(names)
    after = grade.read_gradebook(out)
    assert [r for r in after if r.student in done] == before  # kept, not graded again
    assert f"{len(names) - len(done)} files graded ({len(done)} kept" in stdout.getvalue()
    assert all(r.points == r.max_points for r in after)
    assert not list(tmp_path.glob(".grades.csv.*"))  # no temporary file left by the resume
    paths = _exports.export_paths(out)
    with open(paths["canvas"], newline="", encoding="utf-8") as fh:
        canvas = list(csv.reader(fh))
    assert canvas[0][-1] == f"Chapter {CHAPTER} exercises"
    assert canvas[1][0] == "Points Possible"
    assert sorted(r[0] for r in canvas[2:]) == names
    assert sorted(p.stem for p in paths["feedback"].glob("*.html")) == names


#: A stand-in for bwrap while it sets a sandbox up: its second process is not yet bound
#: to its parent's death (it writes its pid, then sleeps whatever happens to the first).
_HALF_STARTED = ("import os, sys, time\n"
                 "if os.fork() == 0:\n"
                 "    open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid()))\n"
                 "    os.replace(sys.argv[1] + '.tmp', sys.argv[1])\n"
                 "time.sleep(300)\n")


@pytest.mark.parametrize("session", [True, False], ids=["kernel", "probe"])
def test_a_sandbox_half_started_goes_with_a_killed_grader(tmp_path, session):
    """The guard that starts bwrap (``_sandbox._GUARD``) kills its whole process group
    when the grader dies, so a sandbox cut off while it starts leaves nothing behind.
    The grader here is a stand-in that starts the guard as the kernel manager does (a
    new session) or as a probe does (the grader's own group), and is killed once the
    half-started sandbox runs. (bwrap's ``--die-with-parent`` alone missed this: a
    grader killed mid-batch under load left a bwrap sleeping.)"""
    pidfile = tmp_path / "pid"
    fake = [sys.executable, "-c", _HALF_STARTED, str(pidfile)]
    grader = ("import os, subprocess, sys, time\n"
              f"guard = [sys.executable, '-I', '-S', '-c', {_sandbox._GUARD!r}, str(os.getpid())]\n"
              f"subprocess.Popen(guard + {fake!r}, start_new_session={session})\n"
              "time.sleep(300)\n")
    proc = subprocess.Popen([sys.executable, "-c", grader])
    try:
        deadline = time.monotonic() + 60
        while not pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pidfile.exists(), "the stand-in sandbox did not start"
        orphan = psutil.Process(int(pidfile.read_text()))
    finally:
        proc.kill()
        proc.wait()
    assert _running([orphan], wait=10) == []


def test_resume_refuses_a_file_that_is_not_a_gradebook(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    nbformat.write(fixtures.chapter_notebook(CHAPTER), subs / "alice.ipynb")
    out = tmp_path / "out.csv"
    out.write_text("name,grade\nalice,3\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        grade.main([str(subs), "--out", str(out), "--resume", "--sandbox", "none"])
    assert exc.value.code == 2
    assert out.read_text(encoding="utf-8") == "name,grade\nalice,3\n"  # untouched


# --------------------------------------------------------------------------- files, chapters
def test_collect_submissions_names_every_file_once(tmp_path):
    for name in ("alice.ipynb", "partial.IPYNB", "Full.ipynb", "full.ipynb", "bob.pdf",
                 "carol.ipynb.zip", ".DS_Store", "Jose\u0301.ipynb"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / "folder.ipynb").mkdir()
    subs = {s.path.name: s for s in grade.collect_submissions(tmp_path)}
    assert set(subs) == {"alice.ipynb", "partial.IPYNB", "Full.ipynb", "full.ipynb",
                         "bob.pdf", "carol.ipynb.zip", "Jose\u0301.ipynb"}
    assert subs["partial.IPYNB"].student == "partial" and subs["partial.IPYNB"].problem is None
    assert subs["Jose\u0301.ipynb"].student == "Jos\u00e9"
    assert {subs[n].problem for n in ("Full.ipynb", "full.ipynb")} == {"name_clash"}
    assert {subs[n].student for n in ("Full.ipynb", "full.ipynb")} == {"Full", "full"}
    assert subs["bob.pdf"].problem == subs["carol.ipynb.zip"].problem == "not_a_notebook"
    assert grade.submissions(tmp_path) == sorted(
        [tmp_path / n for n in ("alice.ipynb", "Full.ipynb", "full.ipynb",
                                "Jose\u0301.ipynb", "partial.IPYNB")],
        key=lambda p: (grade.student_name(p).casefold(), p.name))


def test_every_chapter_notebook_records_its_chapter():
    """So a renamed stored chapter, lab or downloaded copy is graded as its chapter."""
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(paths) >= 17
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        assert nb.metadata.get("course", {}).get("chapter") == int(path.name[:2]), path.name
        assert grade.notebook_chapter(nb, "alice.ipynb") == int(path.name[:2])


def test_judging_exercises_is_the_chapters_exercises():
    nb = fixtures.chapter_notebook(CHAPTER)
    assert grade.judging_exercises(nb, "alice", CHAPTER) == exercises_for(CHAPTER)
    assert grade.judging_exercises(nb, "alice", 99) == []


# --------------------------------------------------------------------------- gradebook files
def test_gradebook_is_replaced_atomically_and_read_back(tmp_path):
    rows = [grade.GradeRow("ann", "a", 1.0, 1, 'said "hi", then\nleft', "graded"),
            grade.GradeRow("ann", "b", 0.5, 2, "", "missing")]
    out = tmp_path / "g.csv"
    out.write_text("old", encoding="utf-8")
    grade.write_gradebook(rows, out)
    assert grade.read_gradebook(out) == rows
    assert [p.name for p in tmp_path.iterdir()] == ["g.csv"]
    out.write_text("student,exercise,points,max_points,feedback,status\nx,a,1,1,f,won\n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        grade.read_gradebook(out)


def test_exports_escape_and_fit_a_phone_in_dark_mode(tmp_path):
    evil = "<script>alert(1)</script>"
    rows = [grade.GradeRow(evil, "auc-pairs-table1", 0.0, 1, "0.5 < 19/24 & " + evil,
                           "graded"),
            grade.GradeRow(evil, "auc-pairs-function", 2.0, 2, "correct", "graded"),
            grade.GradeRow("bob.pdf", "", 0.0, 0, "not a notebook", "not_a_notebook")]
    book = grade.Gradebook(tmp_path / "g.csv", assignment="Week 3")
    book.add(rows[:2], CHAPTER)
    book.add(rows[2:])
    paths = _exports.export_paths(tmp_path / "g.csv")
    (page,) = paths["feedback"].glob("*.html")
    text = page.read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;" in text and "&amp;" in text
    assert 'name="viewport" content="width=device-width' in text
    assert "prefers-color-scheme: dark" in text and "overflow-wrap: anywhere" in text
    assert "2 of 3 points" in text
    assert "/" not in page.name and page.suffix == ".html"
    with open(paths["canvas"], newline="", encoding="utf-8") as fh:
        assert list(csv.reader(fh)) == [[*_exports.CANVAS_COLUMNS, "Week 3"],
                                        ["Points Possible", "", "", "", "", "3"],
                                        [evil, "", "", evil, "", "2"]]
    with open(paths["moodle"], newline="", encoding="utf-8") as fh:
        (header, row) = list(csv.reader(fh))
    assert header == ["Student", "Week 3", "Feedback"]
    assert row[:2] == [evil, "2"]
    assert row[2] == ("2/3 points. "
                      f"{_exports.exercise_label('auc-pairs-table1')}: 0/1; "
                      f"{_exports.exercise_label('auc-pairs-function')}: 2/2")
    assert row[2].startswith(f"2/3 points. Exercise {CHAPTER}.")


def test_output_size_counts_text_and_data():
    assert grade._output_size({"name": "stdout", "text": "x" * 10}) == 10
    assert grade._output_size({"data": {"text/plain": "abc", "image/png": "12345"}}) == 8
    assert grade._output_size({"ename": "E", "evalue": "ab", "traceback": ["x", "yz"]}) == 5


def test_an_answer_key_installed_into_site_packages_is_hidden_in_the_sandbox(tmp_path,
                                                                             monkeypatch):
    """A non-editable install of course_key sits in a bound folder: bwrap masks it."""
    need_bwrap()
    site = tmp_path / "site"
    (site / "course_key").mkdir(parents=True)
    (site / "course_key" / "ch03.py").write_text("ANSWER = 19/24\n", encoding="utf-8")
    (site / "course_key-0.1.0.dist-info").mkdir()
    (site / "other.py").write_text("OK = 1\n", encoding="utf-8")
    monkeypatch.setattr(_sandbox, "_site_dirs", lambda: [site])
    mask = _sandbox.key_mask(tmp_path)
    masks = _sandbox._python_binds(mask)
    assert masks[-5:] == ["--ro-bind", str(mask), str(site / "course_key"),
                          "--tmpfs", str(site / "course_key-0.1.0.dist-info")]
    probe = ("import os, sys; sys.path.insert(0, sys.argv[1]); import other; "
             "print(sorted(os.listdir(sys.argv[1] + '/course_key'))); import course_key")
    cmd = [_sandbox._bwrap(), *_sandbox._namespace_args(), *_sandbox._system_binds(),
           "--ro-bind", str(site), str(site), *masks, "--proc", "/proc", "--dev", "/dev",
           sys.executable, "-c", probe, str(site)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "['__init__.py']"  # the mask, not the key's files
    assert "ImportError: the answer key (course_key) is not available" in proc.stderr


def test_process_cap_is_the_notebooks_own_where_linux_counts_it_apart(monkeypatch):
    assert grade._process_cap(0) == 0
    if os.geteuid() == 0:
        assert grade._process_cap(256) == 256  # the kernel's uid is its own
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(grade, "_own_count", lambda: True)  # a user namespace of its own
    assert grade._process_cap(256) == 256
    monkeypatch.setattr(grade, "_own_count", lambda: False)  # Linux before 5.14
    own = psutil.Process().num_threads()  # this process is the account's too
    assert grade._process_cap(256) >= 256 + own
    assert grade._process_cap(256, "none") >= 256 + own


def test_a_judge_builds_the_exercises_before_it_times_their_answers():
    """The judge process reads a chapter of the key, and builds a variant, before the
    answers are timed: chapter 10's exercises (sympy) take about a second to build, and
    a limit of half a second on judging an answer still judges them."""
    import asyncio

    from course_lib.exercises import _judge

    ex = get("uniform-auc-pr")
    requests = [{"id": ex.id, "seed": seed, "cases": [],
                 "state": {"state": "value", "value": encode_answer(ex.variant(seed).solution)}}
                for seed in (7, None)]
    requests.append({"id": "swapped-densities", "seed": 7, "cases": [],
                     "state": {"state": "value", "value": encode_answer((0, 0))}})

    async def judged():
        async with _judge.JudgePool(1, seconds=0.5) as pool:
            return await pool.judge(requests)

    right, book, wrong = asyncio.run(judged())
    assert right["points"] == book["points"] == 1.0, (right, book)
    assert wrong["points"] == 0.0, wrong
