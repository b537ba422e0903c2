"""Grade a folder of submitted notebooks: ``python -m course_lib.exercises.grade``.

::

    python -m course_lib.exercises.grade SUBMISSIONS_DIR --out grades.csv \\
        [--jobs N] [--timeout S] [--chapter NN] [--memory-mb M] [--seed K]

Each ``*.ipynb`` in ``SUBMISSIONS_DIR`` is executed top to bottom in its own fresh
kernel (nbclient), in a temporary working directory laid out like the project (the
notebook in ``notebooks/``, a copy of ``data/`` beside it), with a time limit per cell
(``--timeout``; a cell past it is interrupted and the run goes on), a cap on the kernel's
memory (``--memory-mb``) and errors allowed. Then one more cell, sent by the grader,
reports the answer variables (and a function answer's outputs on hidden cases drawn in
the grader with a fresh seed) as JSON after a random marker
(:mod:`course_lib.exercises._kernel`). The grader decodes those values and judges them
in its own process with :meth:`Exercise.check <course_lib.exercises.Exercise.check>`
and :meth:`Exercise.check_outputs <course_lib.exercises.Exercise.check_outputs>`: the
student's kernel never judges, and nothing the notebook printed or stored is read.

The gradebook (CSV) has one row per student and exercise: ``student`` (the file name
without ``.ipynb``), ``exercise``, ``points``, ``max_points``, ``feedback`` and
``status``, one of :data:`STATUSES`:

``graded``            the answer was read and judged (right or wrong)
``missing``           no answer: the variable is undefined or still the stub ``...``
``error``             no answer, and a cell raised an exception (named in the feedback)
``timeout``           no answer, and a cell ran past ``--timeout``
``memory``            no answer, and a cell ran out of memory (or the kernel was killed)
``kernel_died``       the kernel died (e.g. ``os._exit``); nothing could be read
``invalid_notebook``  the file is not a readable notebook
``wrong_chapter``     the notebook belongs to another chapter (or to none that has exercises)

The exit code is 0 whenever the batch completed, whatever the grades; 2 for a usage
error (a missing folder, a folder without notebooks, a bad option).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import dataclasses
import json
import math
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import nbformat

from course_lib.exercises import CALL_TIME_LIMIT, Exercise, Feedback, decode_answer, exercises_for
from course_lib.exercises._kernel import extraction_code

__all__ = [
    "STATUSES",
    "GradeRow",
    "grade_directory",
    "main",
    "notebook_chapter",
    "summary_table",
    "write_gradebook",
]

STATUSES = ("graded", "missing", "error", "timeout", "kernel_died", "memory",
            "invalid_notebook", "wrong_chapter")
COLUMNS = ("student", "exercise", "points", "max_points", "feedback", "status")
KERNEL_NAME = "course-lib-grader"
#: Seconds a function answer may spend on one hidden case (the notebooks' limit).
CALL_LIMIT = CALL_TIME_LIMIT
#: Seconds the grader waits beyond ``--timeout`` for an interrupted cell to stop.
GRACE = 10.0
_PROJECT = Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook."""

    student: str
    exercise: str
    points: float
    max_points: int
    feedback: str
    status: str


# --------------------------------------------------------------------------- chapters
def notebook_chapter(nb: Any, name: str = "") -> int | None:
    """The chapter of a notebook: ``metadata.course.chapter``, else the file's ``NN_``.

    Examples
    --------
    >>> notebook_chapter({"metadata": {"course": {"chapter": 13}}})
    13
    >>> notebook_chapter({"metadata": {}}, "03_auc_pairs.ipynb")
    3
    >>> notebook_chapter({"metadata": {}}, "alice.ipynb") is None
    True
    """
    meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
    course = meta.get("course", {}) if isinstance(meta, dict) else {}
    chapter = course.get("chapter") if isinstance(course, dict) else None
    if isinstance(chapter, int) and not isinstance(chapter, bool):
        return chapter
    match = re.match(r"(\d\d)_", Path(name).name)
    return int(match.group(1)) if match else None


def _exercises(chapter: int | None) -> list[Exercise]:
    """The chapter's exercises; none for an unknown or out-of-range chapter."""
    if chapter is None:
        return []
    try:
        return list(exercises_for(chapter))
    except ValueError:
        return []


# --------------------------------------------------------------------------- kernel
def _kernel_manager(memory_mb: int) -> Any:
    """An AsyncKernelManager whose kernel is ``_kernel.launch`` with the memory cap."""
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    spec = KernelSpec(
        argv=[sys.executable, "-m", "course_lib.exercises._kernel",
              "--memory-mb", str(int(memory_mb)), "-f", "{connection_file}"],
        display_name="course_lib grader", language="python", metadata={})

    class _Specs(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
            return spec

    return AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=_Specs())


def _kernel_env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    # One thread per kernel (parallel kernels share the cores), few malloc arenas (the
    # address-space cap counts reserved arenas), no debugger noise, figures off-screen.
    env.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
                "MPLBACKEND": "agg"})
    env.pop("JPY_PARENT_PID", None)
    return env


@dataclasses.dataclass
class _Run:
    """What executing one submission produced."""

    result: dict | None = None  # id -> reported state, from the extraction cell
    died: bool = False
    killed: bool = False  # the kernel was killed by a signal (the OOM killer, most often)
    timed_out: bool = False  # a cell ran past the limit and would not stop
    notes: list[str] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)  # exception names
    cells_timed_out: int = 0


def _make_client(nb: Any, km: Any, timeout: float, workdir: Path) -> Any:
    from nbclient import NotebookClient

    class _Client(NotebookClient):
        timeouts: list[int] = []

        async def _async_handle_timeout(self, timeout: int, cell: Any = None) -> Any:
            self.timeouts.append(1)
            return await super()._async_handle_timeout(timeout, cell)

    client = _Client(
        nb, km=km, timeout=int(max(1, math.ceil(timeout))), allow_errors=True,
        interrupt_on_timeout=True, record_timing=False, startup_timeout=60,
        iopub_timeout=4, raise_on_iopub_timeout=False, store_widget_state=False,
        resources={"metadata": {"path": str(workdir)}}, skip_cells_with_tag="",
    )
    client.timeouts = []
    # No IPython history file: parallel kernels would share one, and it would keep the
    # students' code in the grading account's home.
    client.extra_arguments = ["--HistoryManager.hist_file=:memory:"]
    return client


def _cell_errors(cell: Any) -> list[str]:
    return [str(o.get("ename", "Error")) for o in cell.get("outputs", [])
            if o.get("output_type") == "error"]


async def _execute(nb: Any, exercises: Sequence[Exercise], cases: dict[str, list],
                   *, timeout: float, memory_mb: int, workdir: Path) -> _Run:
    """Run the notebook's code cells, then the extraction cell; never raises."""
    run = _Run()
    marker = f"@@course-lib-grader:{secrets.token_hex(16)}@@"
    request = {"marker": marker, "limit": CALL_LIMIT,
               "exercises": [{"id": ex.id, "answer_name": ex.answer_name, "kind": ex.kind,
                              "cases": cases.get(ex.id, [])} for ex in exercises]}
    km = _kernel_manager(memory_mb)
    client = _make_client(nb, km, timeout, workdir)
    try:
        await client.async_start_new_kernel(cwd=str(workdir), env=_kernel_env(),
                                            stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL)
        await client.async_start_new_kernel_client()
    except Exception as exc:  # noqa: BLE001 - a kernel that cannot start
        run.died = True
        run.notes.append(f"the kernel did not start ({type(exc).__name__}: {exc})")
        await _shutdown(client, km)
        return run
    try:
        count = 0
        for index, cell in enumerate(nb.cells):
            if cell.get("cell_type") != "code":
                continue
            count += 1
            before = len(client.timeouts)
            outcome = await _run_cell(client, cell, index, timeout + GRACE, count)
            if outcome == "died":
                run.died = True
                run.notes.append(f"cell {index + 1}: the kernel died")
                break
            if outcome == "stuck":
                run.timed_out = True
                run.notes.append(f"cell {index + 1}: still running {GRACE:g} s after the "
                                 f"{timeout:g} s limit and would not stop; the kernel was "
                                 "stopped")
                break
            if len(client.timeouts) > before:
                run.cells_timed_out += 1
                run.notes.append(f"cell {index + 1}: interrupted after {timeout:g} s")
            else:
                for name in _cell_errors(cell):
                    run.errors.append(name)
                    run.notes.append(f"cell {index + 1}: {name}")
        if not (run.died or run.timed_out):
            code = extraction_code(request)
            limit = CALL_LIMIT * sum(len(c) for c in cases.values()) + 30.0
            cell = nbformat.v4.new_code_cell(code)
            nb.cells.append(cell)  # nbclient stores the executed cell back by its index
            client.timeout = int(math.ceil(limit))
            outcome = await _run_cell(client, cell, len(nb.cells) - 1, limit + GRACE, None)
            if outcome == "died":
                run.died = True
                run.notes.append("the kernel died while the answers were read")
            elif outcome == "stuck":
                run.timed_out = True
                run.notes.append("the answers could not be read in time")
            else:
                run.result = _parse_result(cell, marker, run)
    except Exception as exc:  # noqa: BLE001 - whatever else goes wrong, record it
        run.died = True
        run.notes.append(f"execution failed ({type(exc).__name__}: {exc})")
    finally:
        if run.died:
            exit_code = await _exit_code(km)
            if exit_code is not None and exit_code < 0 and -exit_code in (9,):
                run.killed = True
                run.notes.append("the kernel was killed (signal 9), most likely out of memory")
        await _shutdown(client, km)
    return run


async def _run_cell(client: Any, cell: Any, index: int, deadline: float,
                    count: int | None) -> str:
    """Execute one cell: ``"ok"``, ``"died"`` (the kernel died) or ``"stuck"``.

    nbclient interrupts a cell at its timeout; ``deadline`` (longer) catches a kernel
    that ignores the interrupt, whose cell is then abandoned.
    """
    from nbclient.exceptions import DeadKernelError

    task = asyncio.ensure_future(client.async_execute_cell(cell, index, execution_count=count))
    done, _ = await asyncio.wait({task}, timeout=deadline)
    if not done:
        task.cancel()
        try:
            await task
        except BaseException:  # noqa: BLE001 - nbclient turns the cancel into DeadKernelError
            pass
        return "stuck"
    try:
        task.result()
    except DeadKernelError:
        return "died"
    return "ok"


async def _exit_code(km: Any) -> int | None:
    try:
        provisioner = km.provisioner
        if provisioner is None:
            return None
        for _ in range(20):
            code = await provisioner.poll()
            if code is not None:
                return int(code)
            await asyncio.sleep(0.1)
    except Exception:  # noqa: BLE001
        return None
    return None


async def _shutdown(client: Any, km: Any) -> None:
    try:
        if client.kc is not None:
            client.kc.stop_channels()
    except Exception:  # noqa: BLE001
        pass
    try:
        if km.has_kernel:
            await km.shutdown_kernel(now=True)
    except Exception:  # noqa: BLE001
        try:
            await km._async_kill_kernel()  # noqa: SLF001 - last resort
        except Exception:  # noqa: BLE001
            pass


def _parse_result(cell: Any, marker: str, run: _Run) -> dict | None:
    """The id -> state map from the extraction cell's stdout, validated; None if absent."""
    lines = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            lines += [ln for ln in str(out.get("text", "")).splitlines() if ln.startswith(marker)]
    errors = _cell_errors(cell)
    if len(lines) != 1:
        why = "no result line" if not lines else f"{len(lines)} result lines"
        extra = f" ({', '.join(errors)})" if errors else ""
        run.notes.append(f"the answers could not be read: {why}{extra}")
        return None
    try:
        data = json.loads(lines[0][len(marker):])
    except ValueError:
        run.notes.append("the answers could not be read: not JSON")
        return None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) for k, v in data.items()):
        run.notes.append("the answers could not be read: unexpected structure")
        return None
    return data


# --------------------------------------------------------------------------- judging
def _judge(ex: Exercise, state: Any, cases: list) -> tuple[Feedback | None, str]:
    """Judge one reported answer in this process: (feedback, '') or (None, reason)."""
    if not isinstance(state, dict):
        return None, "the answer could not be read"
    kind = state.get("state")
    try:
        if kind == "value":
            encoded = state.get("value")
            if not isinstance(encoded, dict):
                return None, "the answer could not be read"
            value = decode_answer(encoded)
            if value is Ellipsis:
                return None, "not answered (the stub ... is still there)"
            return ex.check(value), ""
        if kind == "outputs":
            outputs = state.get("outputs")
            if not isinstance(outputs, list) or len(outputs) != len(cases):
                return None, "the function's outputs could not be read"
            return ex.check_outputs(cases, [_clean_output(o) for o in outputs]), ""
        if kind == "error":
            return None, f"reading the answer failed: {str(state.get('message', ''))[:200]}"
    except Exception as exc:  # noqa: BLE001 - a malformed report is a wrong answer
        return None, f"the answer could not be read ({type(exc).__name__})"
    return None, "variable not defined"


def _clean_output(output: Any) -> Any:
    """An output as :meth:`Exercise.check_outputs` expects it; anything odd is an error."""
    if isinstance(output, dict):
        if output.get("__timeout__") is True:
            return {"__timeout__": True}
        if output.get("__skipped__") is True:
            return {"__skipped__": True}
        if "__error__" in output:
            return {"__error__": str(output["__error__"])[:500]}
        if isinstance(output.get("type"), str):
            return decode_answer(output)
    return {"__error__": "an output the grader could not read"}


def _rows_for_failure(student: str, exercises: Sequence[Exercise], status: str,
                      reason: str) -> list[GradeRow]:
    if not exercises:
        return [GradeRow(student, "", 0.0, 0, reason, status)]
    return [GradeRow(student, ex.id, 0.0, int(ex.points), reason, status) for ex in exercises]


def _missing_status(run: _Run) -> str:
    if run.killed or "MemoryError" in run.errors:
        return "memory"
    if run.timed_out or run.cells_timed_out:
        return "timeout"
    if run.errors:
        return "error"
    return "missing"


def _rows_for_run(student: str, exercises: Sequence[Exercise], cases: dict[str, list],
                  run: _Run) -> list[GradeRow]:
    notes = "; ".join(run.notes)
    if run.result is None:
        status = "kernel_died" if run.died and not run.killed else _missing_status(run)
        if run.killed:
            status = "memory"
        return _rows_for_failure(student, exercises, status,
                                 notes or "the answers could not be read")
    rows = []
    for ex in exercises:
        feedback, reason = _judge(ex, run.result.get(ex.id), cases.get(ex.id, []))
        if feedback is not None:
            text = feedback.message
            rows.append(GradeRow(student, ex.id, float(feedback.points), int(ex.points),
                                 text, "graded"))
        else:
            status = _missing_status(run)
            text = reason + (f" ({notes})" if notes and status != "missing" else "")
            rows.append(GradeRow(student, ex.id, 0.0, int(ex.points), text, status))
    return rows


# --------------------------------------------------------------------------- batch
async def _grade_one(path: Path, *, chapter: int | None, timeout: float, memory_mb: int,
                     seed: int | None) -> list[GradeRow]:
    student = path.stem
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("no cells")
    except Exception as exc:  # noqa: BLE001 - any unreadable file
        expected = _exercises(chapter)
        return _rows_for_failure(student, expected, "invalid_notebook",
                                 f"not a readable notebook ({type(exc).__name__})")
    own = notebook_chapter(nb, path.name)
    target = chapter if chapter is not None else own
    exercises = _exercises(target)
    if chapter is not None and own is not None and own != chapter:
        return _rows_for_failure(student, exercises, "wrong_chapter",
                                 f"this is a notebook of chapter {own}, not {chapter}")
    if not exercises:
        why = ("the chapter is unknown (no course.chapter metadata, no NN_ file name): "
               "give --chapter" if target is None else f"chapter {target} has no exercises")
        return _rows_for_failure(student, [], "wrong_chapter", why)
    rng_seed = secrets.randbits(32) if seed is None else seed
    cases = {ex.id: ex.hidden_cases(rng_seed) for ex in exercises if ex.kind == "function"}
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        workdir = Path(tmp) / "notebooks"
        workdir.mkdir()
        data = _PROJECT / "data"
        if data.is_dir():
            shutil.copytree(data, Path(tmp) / "data")
        run = await _execute(nb, exercises, cases, timeout=timeout, memory_mb=memory_mb,
                             workdir=workdir)
    return _rows_for_run(student, exercises, cases, run)


def submissions(directory: Path) -> list[Path]:
    """The ``*.ipynb`` files of a folder (not recursive), sorted by name."""
    return sorted(p for p in Path(directory).glob("*.ipynb") if p.is_file())


async def _grade_all(paths: Sequence[Path], *, jobs: int, progress: bool,
                     **options: Any) -> list[GradeRow]:
    semaphore = asyncio.Semaphore(jobs)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(paths), unit="notebook", desc="grading", file=sys.stderr)

    async def one(path: Path) -> list[GradeRow]:
        async with semaphore:
            try:
                rows = await _grade_one(path, **options)
            except Exception as exc:  # noqa: BLE001 - never stop the batch
                rows = [GradeRow(path.stem, "", 0.0, 0,
                                 f"the grader failed on this file ({type(exc).__name__}: {exc})",
                                 "error")]
        if bar is not None:
            bar.update(1)
        return rows

    try:
        results = await asyncio.gather(*(one(p) for p in paths))
    finally:
        if bar is not None:
            bar.close()
    return [row for rows in results for row in rows]


def grade_directory(directory: Path | str, *, jobs: int = 1, timeout: float = 60.0,
                    chapter: int | None = None, memory_mb: int = 2048,
                    seed: int | None = None, progress: bool = False) -> list[GradeRow]:
    """Grade every notebook in ``directory``; one :class:`GradeRow` per student and exercise.

    ``seed`` fixes the hidden cases (by default each submission gets fresh ones).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if memory_mb < 0:
        raise ValueError(f"memory_mb must be 0 (no limit) or positive, got {memory_mb}")
    paths = submissions(Path(directory))
    return asyncio.run(_grade_all(paths, jobs=jobs, progress=progress, chapter=chapter,
                                  timeout=timeout, memory_mb=memory_mb, seed=seed))


# --------------------------------------------------------------------------- output
def _points_text(value: float) -> str:
    return f"{value:g}"


def write_gradebook(rows: Iterable[GradeRow], path: Path | str) -> None:
    """Write the rows as CSV with the header :data:`COLUMNS`."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([r.student, r.exercise, _points_text(r.points), r.max_points,
                             r.feedback, r.status])


def summary_table(rows: Sequence[GradeRow]) -> str:
    """Per student: points, maximum, and how many rows have each status but ``graded``.

    Examples
    --------
    >>> rows = [GradeRow("bob", "a", 1.0, 1, "ok", "graded"),
    ...         GradeRow("bob", "b", 0.0, 2, "x", "missing")]
    >>> print(summary_table(rows))
    student  points  max  notes
    bob           1    3  missing 1
    """
    students: dict[str, list[GradeRow]] = {}
    for r in rows:
        students.setdefault(r.student, []).append(r)
    table = [("student", "points", "max", "notes")]
    for name in sorted(students):
        own = students[name]
        counts = {s: sum(r.status == s for r in own) for s in STATUSES[1:]}
        notes = ", ".join(f"{s} {n}" for s, n in counts.items() if n)
        table.append((name, _points_text(sum(r.points for r in own)),
                      str(sum(r.max_points for r in own)), notes))
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    lines = []
    for row in table:
        lines.append(f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  "
                     f"{row[3]}".rstrip())
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m course_lib.exercises.grade",
        description="Execute and grade every submitted notebook in a folder.")
    parser.add_argument("submissions", type=Path, help="folder of submitted .ipynb files")
    parser.add_argument("--out", type=Path, required=True, help="the CSV gradebook to write")
    parser.add_argument("--jobs", type=int, default=1, help="kernels run in parallel (1)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per cell before it is interrupted (60)")
    parser.add_argument("--chapter", type=int, default=None,
                        help="grade as this chapter (default: each notebook's own)")
    parser.add_argument("--memory-mb", type=int, default=2048,
                        help="address-space cap of each kernel in MB, 0 for none (2048)")
    parser.add_argument("--seed", type=int, default=None,
                        help="fix the hidden cases (default: fresh per submission)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code (0 when the batch completed)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder")
    if not submissions(args.submissions):
        parser.error(f"no .ipynb files in {args.submissions}")
    if args.jobs < 1 or args.timeout <= 0 or args.memory_mb < 0:
        parser.error("--jobs must be >= 1, --timeout > 0 and --memory-mb >= 0")
    if args.chapter is not None and not _exercises(args.chapter):
        parser.error(f"chapter {args.chapter} has no exercises")
    rows = grade_directory(args.submissions, jobs=args.jobs, timeout=args.timeout,
                           chapter=args.chapter, memory_mb=args.memory_mb, seed=args.seed,
                           progress=not args.no_progress)
    write_gradebook(rows, args.out)
    print(summary_table(rows))
    print(f"\n{len({r.student for r in rows})} notebooks graded; gradebook: {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
