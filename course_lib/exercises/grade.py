"""Grade a folder of submitted notebooks: ``python -m course_lib.exercises.grade``.

::

    python -m course_lib.exercises.grade SUBMISSIONS_DIR --out grades.csv \\
        [--jobs N] [--timeout S] [--chapter NN] [--memory-mb M] [--max-procs P]
        [--max-cell-output MB] [--max-notebook-output MB] [--sandbox bwrap|none]
        [--judge-timeout S] [--resume] [--assignment NAME] [--seed K]

Each notebook in ``SUBMISSIONS_DIR`` (``*.ipynb`` in any case) is executed top to bottom
in its own fresh kernel (nbclient), **in a sandbox** (:mod:`course_lib.exercises._sandbox`:
bubblewrap namespaces; no other process of it survives the notebook, it sees no network,
no other submission, no gradebook and no repository, and writes only to its own scratch
folder), laid out like the project (the notebook in ``notebooks/``, a copy of ``data/``
beside it), with a time limit per cell (``--timeout``; a cell past it is interrupted and
the run goes on), caps on the kernel's memory and processes, caps on the output kept
per cell and per notebook (output past a cap is dropped as it arrives and the cell is
interrupted) and errors allowed. Then one more cell, sent by the grader, reports the
answer variables (and a function answer's outputs on hidden cases drawn in the grader
with a fresh seed) as JSON after a random marker (:mod:`course_lib.exercises._kernel`).
The grader decodes those values and judges them in its own process with
:meth:`Exercise.check <course_lib.exercises.Exercise.check>` and
:meth:`Exercise.check_outputs <course_lib.exercises.Exercise.check_outputs>`: the
student's kernel never judges, and nothing the notebook printed or stored is read.

The gradebook (CSV) has one row per student and exercise: ``student`` (the file name
without ``.ipynb``, :func:`student_name`), ``exercise``, ``points``, ``max_points``,
``feedback`` and ``status``, one of :data:`STATUSES`:

``graded``            the answer was read and judged (right or wrong)
``missing``           no answer: the variable is undefined or still the stub ``...``
``error``             no answer, and a cell raised an exception (named in the feedback)
``timeout``           no answer, and a cell ran past ``--timeout``
``memory``            no answer, and a cell ran out of memory (or the kernel was killed)
``output_limit``      no answer, and a cell's output went past a cap (it was interrupted)
``kernel_died``       the kernel died (e.g. ``os._exit``); nothing could be read
``invalid_notebook``  a ``.ipynb`` file that is not a readable notebook
``not_a_notebook``    a file of the folder that is not a ``.ipynb`` (``bob.pdf``)
``name_clash``        two notebooks whose names differ only in case: neither is graded
``wrong_chapter``     the notebook belongs to another chapter than the batch (by its exercise
                      cells, else its metadata or file name), or to none that has exercises
``invalid_answer``    the answer could not be judged within the judge's time and memory
                      limits (an expression built to stall the grader): not accepted
``other_student``     the copy was made for another student (its recorded id, or the
                      numbers of its questions, are not the submitter's): judged on the
                      submitter's own numbers, flagged for the instructor

A batch is one assignment: the chapter given by ``--chapter``, else the chapter most
submissions belong to (stated in the summary). Each notebook runs under a per-cell time
limit (``--timeout``) and a per-notebook one (``--notebook-timeout``): past it, no
further cell runs, the answers already given are read and judged, and the missing ones
get ``timeout``. Answers are judged in separate judge processes
(:mod:`course_lib.exercises._judge`), each answer within a time and memory limit.

Rows reach the gradebook as each notebook finishes: the file is rewritten atomically
(a temporary file, then ``os.replace``), so a crash keeps every notebook graded so far,
and ``--resume`` grades only the students the gradebook lacks. The exports for Canvas
and Moodle and one HTML feedback page per student are written with it
(:mod:`course_lib.exercises._exports`).

The exit code is 0 whenever the batch completed, whatever the grades; 2 for a usage
error (a missing folder, a folder without notebooks, a bad option) or when the sandbox
cannot be built and ``--sandbox none`` was not given.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import dataclasses
import functools
import json
import math
import os
import re
import secrets
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import nbformat

from course_lib import exercises as _registry
from course_lib.exercises import (
    CALL_TIME_LIMIT,
    AnswerKeyMissing,
    Exercise,
    _exports,
    _judge,
    _sandbox,
)
from course_lib.exercises._common import notebook_chapter, read_secret
from course_lib.exercises._kernel import RESULT_MIME, extraction_code
from course_lib.exercises.seeds import copy_id, exercise_seed, student_seed

__all__ = [
    "STATUSES",
    "GradeRow",
    "Gradebook",
    "Submission",
    "collect_submissions",
    "grade_directory",
    "judging_exercises",
    "main",
    "notebook_chapter",
    "read_gradebook",
    "student_name",
    "summary_table",
    "write_gradebook",
]

STATUSES = ("graded", "missing", "error", "timeout", "kernel_died", "memory",
            "output_limit", "invalid_notebook", "not_a_notebook", "name_clash",
            "wrong_chapter", "invalid_answer", "other_student")
COLUMNS = ("student", "exercise", "points", "max_points", "feedback", "status")
KERNEL_NAME = "course-lib-grader"
#: Seconds a function answer may spend on one hidden case (the notebooks' limit).
CALL_LIMIT = CALL_TIME_LIMIT
#: Seconds the grader waits beyond ``--timeout`` for an interrupted cell to stop.
GRACE = 10.0
#: Default caps on the output kept, in MB of text (a character of ASCII is a byte).
CELL_OUTPUT_MB = 1.0
NOTEBOOK_OUTPUT_MB = 5.0
#: Default number of processes and threads a kernel may start (RLIMIT_NPROC).
MAX_PROCS = 256
#: Default wall-time limit of a whole notebook, in seconds.
NOTEBOOK_TIMEOUT = 600.0
#: Seconds between two looks of the watchdog at a notebook's processes.
WATCH_EVERY = 0.2
#: Bytes of files a kernel may leave in its ipc folder (it needs none: sockets only).
IPC_BYTES = 1024 * 1024
#: The largest message the grader accepts from a kernel; a larger one is dropped by ZMQ
#: before it is read, so no notebook makes the grader hold more than a few of these.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
_OUTPUT_TYPES = {"stream", "display_data", "execute_result", "update_display_data", "error"}
_MB = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook."""

    student: str
    exercise: str
    points: float
    max_points: int
    feedback: str
    status: str


# --------------------------------------------------------------------------- submissions
def student_name(path: Path | str) -> str:
    """The gradebook's name of a submitted file: one normalized value per student.

    The file name without its ``.ipynb`` suffix (in any case), in Unicode NFC (a name
    typed on a Mac and one typed elsewhere are the same), without surrounding spaces.
    A file that is not a notebook keeps its whole name, so ``bob.pdf`` is reported as
    such next to ``bob``'s notebook instead of being merged with it.

    Examples
    --------
    >>> student_name("subs/alice.ipynb"), student_name("partial.IPYNB")
    ('alice', 'partial')
    >>> student_name("Jose\\u0301 .ipynb") == "Jos\\u00e9"
    True
    >>> student_name("bob.pdf"), student_name("carol.ipynb.zip")
    ('bob.pdf', 'carol.ipynb.zip')
    """
    name = Path(path).name
    if name.lower().endswith(".ipynb"):
        name = name[:-len(".ipynb")]
    return unicodedata.normalize("NFC", name).strip()


@dataclasses.dataclass(frozen=True)
class Submission:
    """One file of the submissions folder; ``problem`` is the status when not graded."""

    path: Path
    student: str
    problem: str | None = None
    note: str = ""


def _is_notebook_name(path: Path) -> bool:
    return path.suffix.lower() == ".ipynb"


def collect_submissions(directory: Path | str) -> list[Submission]:
    """Every visible file of a folder (not recursive), sorted by student name.

    A ``.ipynb`` in any case is a notebook. Another file is a :class:`Submission` with
    ``problem="not_a_notebook"``; notebooks whose names differ only in case all get
    ``problem="name_clash"`` (never merged into one student, never counted as two).
    Hidden files (``.DS_Store``, ``.ipynb_checkpoints``) and sub-folders are skipped.
    """
    files = sorted((p for p in Path(directory).iterdir()
                    if not p.name.startswith(".") and p.is_file()),
                   key=lambda p: (student_name(p).casefold(), p.name))
    groups: dict[str, list[Path]] = {}
    for path in files:
        if _is_notebook_name(path):
            groups.setdefault(student_name(path).casefold(), []).append(path)
    out = []
    for path in files:
        student = student_name(path)
        if not _is_notebook_name(path):
            out.append(Submission(path, student, "not_a_notebook",
                                  f"{path.name} is not a notebook (.ipynb): not graded"))
            continue
        group = groups[student.casefold()]
        if len(group) > 1 or not student:
            names = " and ".join(p.name for p in group)
            note = (f"{names} differ only in case: neither is graded; keep one file per "
                    "student and grade again with --resume" if student else
                    f"{path.name} has no name: rename it after the student")
            out.append(Submission(path, student or path.name, "name_clash", note))
        else:
            out.append(Submission(path, student))
    return out


def submissions(directory: Path) -> list[Path]:
    """The notebooks of a folder (``*.ipynb`` in any case, not recursive), sorted."""
    return [s.path for s in collect_submissions(directory) if _is_notebook_name(s.path)]


# --------------------------------------------------------------------------- chapters
_LABEL = re.compile(r":label:\s*(\S+)|^\(([\w.-]+)\)=\s*$", re.M)
_SOLUTION = re.compile(r"\{solution-start\}\s+(\S+)")


def _cell_text(cell: Any) -> str:
    src = cell.get("source", "") if isinstance(cell, dict) else ""
    return "".join(src) if isinstance(src, list) else str(src)


def content_chapter(nb: Any) -> int | None:
    """The chapter the notebook's exercise cells belong to (by majority), else None.

    The exercises are found by their ids: the ``:label:`` of an ``{exercise}`` cell, a
    ``{solution-start}``, the ``exercise`` of a cell's metadata, or a ``check("id", ...)``
    call. Whatever a copy's metadata says, these decide which assignment it answers.
    """
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    ids: list[str] = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        text = _cell_text(cell)
        ids += [a or b for a, b in _LABEL.findall(text)] + _SOLUTION.findall(text)
        ids += re.findall(r"check\(\s*[\"']([\w.-]+)[\"']", text)
        meta = cell.get("metadata", {})
        if isinstance(meta, dict) and isinstance(meta.get("exercise"), str):
            ids.append(meta["exercise"])
    counts: dict[int, int] = {}
    for exercise_id in ids:
        try:
            chapter = _registry.get(exercise_id).chapter
        except (KeyError, ValueError):
            continue
        counts[chapter] = counts.get(chapter, 0) + 1
    if not counts:
        return None
    return max(counts, key=lambda c: (counts[c], -c))


def submission_chapter(nb: Any, name: str = "") -> int | None:
    """The chapter a submission answers: its exercise cells', else its metadata's or name's."""
    found = content_chapter(nb)
    return found if found is not None else notebook_chapter(nb, name)


def _exercises(chapter: int | None) -> list[Exercise]:
    """The chapter's exercises; none for an unknown or out-of-range chapter."""
    if chapter is None:
        return []
    try:
        return list(_registry.exercises_for(chapter))  # from the answer key, lazily
    except ValueError:
        return []


def judging_exercises(nb: Any, student: str, chapter: int,
                      secret: str | None = None) -> list[Exercise]:
    """The :class:`Exercise` objects that judge ``student``'s notebook of ``chapter``.

    The one place that decides it: the grader asks the notebook for these exercises'
    answers, draws their hidden cases and judges with them. Without a class ``secret``
    they are the book's exercises; with it, each exercise that has variants is replaced
    by the student's own variant, from the seed of the class secret and the student's
    name (:mod:`course_lib.exercises.seeds`): the name on the submitted file, never the
    one a copy records, so a copy made for somebody else is judged on the submitter's
    numbers. ``student`` is :func:`student_name`'s value; ``nb`` is the submitted
    notebook (read, never run).
    """
    del nb  # the submitter's name decides, not what the copy says
    exercises = _exercises(chapter)
    if secret is None:
        return exercises
    seed = student_seed(secret, student)
    return [ex.variant(exercise_seed(seed, ex.id)) for ex in exercises]


def exercise_seeds(student: str, chapter: int, secret: str | None) -> dict[str, int | None]:
    """The variant seed of each exercise of ``chapter`` for ``student`` (None: the book's)."""
    exercises = _exercises(chapter)
    if secret is None:
        return {ex.id: None for ex in exercises}
    seed = student_seed(secret, student)
    return {ex.id: (exercise_seed(seed, ex.id) if ex.variants is not None else None)
            for ex in exercises}


def recorded_variant(nb: Any) -> dict | None:
    """The ``metadata.course.variant`` a per-student copy records, else None."""
    meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
    course = meta.get("course", {}) if isinstance(meta, dict) else {}
    variant = course.get("variant") if isinstance(course, dict) else None
    return dict(variant) if isinstance(variant, dict) else None


def _words(text: str) -> str:
    return " ".join(text.split())


def foreign_questions(nb: Any, exercises: Sequence[Exercise]) -> list[str]:
    """Ids of the exercises with variants whose question in ``nb`` is not the one of
    ``exercises`` (the submitter's variants): the numbers were made for someone else.

    An exercise's cell is found by its label (``:label: id`` in the book, the target
    ``(id)=`` in a student's copy); its text must hold the submitter's question.
    """
    wanted = {ex.id: _words(ex.question) for ex in exercises if ex.variants is not None}
    found = []
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        text = _cell_text(cell)
        for a, b in _LABEL.findall(text):
            label = a or b
            if label in wanted and wanted[label] not in _words(text) and label not in found:
                found.append(label)
    return found


def variant_note(nb: Any, student: str, secret: str | None,
                 exercises: Sequence[Exercise] = ()) -> str:
    """Why a copy looks made for another student (its recorded id, or the numbers of its
    questions), or "" when it is the submitter's own (or there are no variants)."""
    if secret is None:
        return ""
    recorded = recorded_variant(nb)
    if recorded is not None:
        own = copy_id(secret, student)
        mine = recorded.get("id") == own or recorded.get("seed") == student_seed(secret, student)
        if not mine:
            owner = _exports.escape_controls(str(recorded.get("student", "?"))[:80])
            return (f"[This copy was made for {owner!r}, not for {student!r}: it is graded "
                    f"on {student!r}'s own numbers.] ")
    foreign = foreign_questions(nb, exercises)
    if foreign:
        return (f"[The questions of {', '.join(foreign[:5])} do not show {student!r}'s "
                f"numbers: this copy was made for somebody else (or is the book's); it is "
                f"graded on {student!r}'s own numbers.] ")
    return ""


# --------------------------------------------------------------------------- kernel
def _kernel_manager(argv: list[str], uid: int | None = None) -> Any:
    """An AsyncKernelManager whose kernel is ``argv``, with bounded ZMQ messages.

    The kernel is interrupted by a message (the kernel then signals itself): a signal
    from the grader would reach bwrap, not the kernel inside the sandbox.
    """
    import zmq
    import zmq.asyncio
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    spec = KernelSpec(argv=argv, display_name="course_lib grader", language="python",
                      metadata={}, interrupt_mode="message")

    class _Specs(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
            return spec

    context = zmq.asyncio.Context()
    context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
    context.setsockopt(zmq.RCVHWM, 256)

    class _Manager(AsyncKernelManager):
        grader_context: Any = None

        def write_connection_file(self, **kwargs: Any) -> None:
            super().write_connection_file(**kwargs)
            if uid is not None:  # the kernel's own uid (a root grader's) must read it
                os.chown(self.connection_file, uid, uid)

        def client(self, **kwargs: Any) -> Any:
            kwargs.setdefault("context", context)
            return super().client(**kwargs)

    km = _Manager(kernel_name=KERNEL_NAME, kernel_spec_manager=_Specs(), context=context)
    km.grader_context = context
    return km


def _kernel_env() -> dict[str, str]:
    """The environment of the benchmark's baseline kernels (one BLAS thread, Agg)."""
    env = dict(os.environ)
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
    cells_output_limited: int = 0
    over_notebook_time: bool = False  # the per-notebook limit stopped the cells
    watchdog: str = ""  # why the watchdog stopped the notebook ("memory", "disk")


@dataclasses.dataclass(frozen=True)
class _Limits:
    timeout: float
    memory_mb: int
    max_procs: int
    cell_output: int  # characters
    notebook_output: int
    notebook_timeout: float = NOTEBOOK_TIMEOUT
    scratch_mb: int = _sandbox.SCRATCH_MB
    judge_timeout: float = _judge.JUDGE_SECONDS


def _own_count() -> bool:
    """Whether Linux counts RLIMIT_NPROC per user namespace (5.14 and later)."""
    try:
        major, minor = (int(x) for x in os.uname().release.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= (5, 14)


def _process_cap(extra: int, sandbox: str = "bwrap") -> int:
    """RLIMIT_NPROC for a kernel that may start ``extra`` processes and threads.

    A root grader gives each kernel a uid of its own (:func:`_sandbox.sandbox_uid`), and
    a user's sandbox is a user namespace of its own, where Linux 5.14 and later count the
    namespace's tasks only: the cap is then exactly ``extra``. Otherwise Linux counts
    every task of the user, so the cap is ``extra`` above what the account runs now.
    """
    if extra <= 0:
        return 0
    if os.geteuid() == 0 or (sandbox == "bwrap" and _own_count()):
        return extra
    import psutil

    uid, tasks = os.getuid(), 0
    for proc in psutil.process_iter(["uids", "num_threads"]):
        uids, threads = proc.info.get("uids"), proc.info.get("num_threads")
        if uids is not None and uids.real == uid:
            tasks += int(threads or 1)
    return tasks + extra


def _output_size(content: dict) -> int:
    """Characters of text an output message carries (its stream text or its data)."""
    if "text" in content:
        return len(str(content["text"]))
    size = 0
    for key in ("data", "traceback", "evalue"):
        value = content.get(key)
        if isinstance(value, dict):
            size += sum(len(str(v)) for v in value.values())
        elif isinstance(value, list):
            size += sum(len(str(v)) for v in value)
        elif value is not None:
            size += len(str(value))
    return size


def _make_client(nb: Any, km: Any, limits: _Limits, workdir: Path) -> Any:
    from nbclient import NotebookClient

    class _Client(NotebookClient):
        """nbclient, counting the output it keeps and dropping what is past a cap."""

        timeouts: list[int] = []
        interrupts: set[str] = set()  # interrupts asked and not yet answered
        cell_output = 0
        notebook_output = 0
        over_cap = False
        cap_hit = ""  # "cell" or "notebook": which cap the current cell went past
        extracting = False

        async def _async_handle_timeout(self, timeout: int, cell: Any = None) -> Any:
            self.timeouts.append(1)
            self.interrupt()
            return None

        def process_message(self, msg: dict, cell: Any, cell_index: int) -> Any:
            if msg.get("msg_type") not in _OUTPUT_TYPES:
                return super().process_message(msg, cell, cell_index)
            content = msg.get("content", {})
            if self.extracting and RESULT_MIME in (content.get("data") or {}):
                return super().process_message(msg, cell, cell_index)
            size = _output_size(content)
            past_cell = self.cell_output + size > limits.cell_output
            if past_cell or self.notebook_output + size > limits.notebook_output:
                # While the answers are read, output past a cap (a function answer that
                # prints) is dropped without an interrupt, which would lose every answer;
                # each call is time-limited anyway.
                if not self.over_cap and not self.extracting:
                    self.over_cap = True
                    self.cap_hit = "cell" if past_cell else "notebook"
                    self.interrupt()
                return None  # dropped as it arrives
            self.cell_output += size
            self.notebook_output += size
            return super().process_message(msg, cell, cell_index)

        def interrupt(self) -> None:
            """Ask the kernel to interrupt its cell (a message: the kernel signals itself;
            a signal from here would reach bwrap, not the kernel)."""
            kc: Any = self.kc
            msg = kc.session.msg("interrupt_request", content={})
            try:
                kc.control_channel.send(msg)
            except Exception:  # noqa: BLE001 - the kernel may be gone already
                return
            self.interrupts.add(msg["header"]["msg_id"])

        async def interrupts_answered(self, seconds: float) -> bool:
            """Wait until the kernel has answered every interrupt asked, so that none
            arrives late and stops the next cell."""
            from queue import Empty

            kc: Any = self.kc
            end = asyncio.get_running_loop().time() + seconds
            while self.interrupts:
                left = end - asyncio.get_running_loop().time()
                try:
                    msg = await kc.control_channel.get_msg(timeout=max(left, 0.0))
                except Empty:
                    return False
                self.interrupts.discard(msg.get("parent_header", {}).get("msg_id"))
            return True

    client = _Client(
        nb, km=km, timeout=int(max(1, math.ceil(limits.timeout))), allow_errors=True,
        interrupt_on_timeout=True, record_timing=False, startup_timeout=60,
        iopub_timeout=4, raise_on_iopub_timeout=False, store_widget_state=False,
        resources={"metadata": {"path": str(workdir)}}, skip_cells_with_tag="",
    )
    client.timeouts, client.interrupts = [], set()
    # No IPython history file: parallel kernels would share one, and it would keep the
    # students' code in the grading account's home.
    client.extra_arguments = ["--HistoryManager.hist_file=:memory:"]
    return client


def _cell_errors(cell: Any) -> list[str]:
    return [str(o.get("ename", "Error")) for o in cell.get("outputs", [])
            if o.get("output_type") == "error"]


def _mb(chars: int) -> str:
    return f"{chars / _MB:g} MB"


async def _execute(nb: Any, exercises: Sequence[Exercise], cases: dict[str, list],
                   *, limits: _Limits, box: _sandbox.NotebookSandbox) -> _Run:
    """Run the notebook's code cells, then the extraction cell; never raises."""
    run = _Run()
    marker = f"@@course-lib-grader:{secrets.token_hex(16)}@@"
    request = {"marker": marker, "limit": CALL_LIMIT,
               "exercises": [{"id": ex.id, "answer_name": ex.answer_name, "kind": ex.kind,
                              "cases": cases.get(ex.id, [])} for ex in exercises]}
    inner = [sys.executable, "-s", "-m", "course_lib.exercises._kernel",
             "--memory-mb", str(int(limits.memory_mb)),
             "--max-procs", str(_process_cap(limits.max_procs, box.mode)),
             "--max-file-mb", str(limits.scratch_mb), "-f", "{connection_file}"]
    km = _kernel_manager(box.argv(inner), box.uid)
    km.transport = "ipc"
    km.ip = box.ip
    km.connection_file = str(box.connection_file)
    client = _make_client(nb, km, limits, box.host_cwd)
    watch: asyncio.Future | None = None
    try:
        await client.async_start_new_kernel(cwd=str(box.host_cwd), env=box.env(),
                                            stdout=asyncio.subprocess.DEVNULL,
                                            stderr=asyncio.subprocess.DEVNULL)
        await client.async_start_new_kernel_client()
        watch = asyncio.ensure_future(_watchdog(km, box, limits, run))
    except Exception as exc:  # noqa: BLE001 - a kernel that cannot start
        run.died = True
        run.notes.append(f"the kernel did not start ({type(exc).__name__}: {exc})")
        await _shutdown(client, km, box)
        return run
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.notebook_timeout
    try:
        count = 0
        for index, cell in enumerate(nb.cells):
            if cell.get("cell_type") != "code":
                continue
            left = deadline - loop.time()
            if left <= 0:
                run.over_notebook_time = True
                run.notes.append(f"the notebook's {limits.notebook_timeout:g} s limit was "
                                 f"reached before cell {index + 1}: no further cell ran")
                break
            count += 1
            before = len(client.timeouts)
            client.cell_output, client.over_cap = 0, False
            cell_limit = min(limits.timeout, left)
            client.timeout = int(max(1, math.ceil(cell_limit)))
            outcome = await _run_cell(client, cell, index, cell_limit + GRACE, count)
            if outcome == "died":
                run.died = True
                run.notes.append(f"cell {index + 1}: the kernel died")
                break
            if outcome == "stuck":
                run.timed_out = True
                why = ("its output went past the cap" if client.over_cap else
                       f"the {limits.timeout:g} s limit")
                run.notes.append(f"cell {index + 1}: still running {GRACE:g} s after "
                                 f"{why} and would not stop; the kernel was stopped")
                break
            if client.over_cap:
                run.cells_output_limited += 1
                cap = (f"the {_mb(limits.cell_output)} cap per cell"
                       if client.cap_hit == "cell"
                       else f"the {_mb(limits.notebook_output)} cap per notebook")
                run.notes.append(f"cell {index + 1}: output past {cap} dropped, "
                                 "the cell interrupted")
            elif len(client.timeouts) > before:
                run.cells_timed_out += 1
                run.notes.append(f"cell {index + 1}: interrupted after {client.timeout} s")
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
            client.cell_output, client.over_cap, client.extracting = 0, False, True
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
        if watch is not None:
            watch.cancel()
        if run.watchdog:
            run.killed = run.died = True
        elif run.died:
            exit_code = await _exit_code(km)
            if exit_code is not None and exit_code < 0 and -exit_code in (9,):
                run.killed = True
                run.notes.append("the kernel was killed (signal 9), most likely out of memory")
        await _shutdown(client, km, box)
    return run


def _launcher_pid(km: Any) -> int | None:
    try:
        return int(km.provisioner.process.pid)
    except Exception:  # noqa: BLE001 - no kernel (yet)
        return None


async def _watchdog(km: Any, box: _sandbox.NotebookSandbox, limits: _Limits,
                    run: _Run) -> None:
    """Stop the notebook when all its processes together pass the memory limit, or its
    ipc folder (the one host folder it can write) holds files."""
    pid = _launcher_pid(km)
    cap = limits.memory_mb * _MB
    while True:
        await asyncio.sleep(WATCH_EVERY)
        procs = box.processes(pid)
        why = ""
        if cap and _sandbox.notebook_memory(procs) > cap:
            why = "memory"
            run.notes.append(f"all processes of the notebook together held more than "
                             f"{limits.memory_mb} MB: every one was stopped")
        elif box.ipc_bytes() > IPC_BYTES:
            why = "disk"
            run.notes.append("the notebook wrote files outside its scratch folder: stopped")
        if why:
            run.watchdog = why
            _kill(box.processes(pid))
            return


async def _run_cell(client: Any, cell: Any, index: int, deadline: float,
                    count: int | None) -> str:
    """Execute one cell: ``"ok"``, ``"died"`` (the kernel died) or ``"stuck"``.

    nbclient interrupts a cell at its timeout; ``deadline`` (longer) catches a kernel
    that ignores the interrupt, whose cell is then abandoned, as is one that does not
    answer an interrupt within :data:`GRACE`.
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
    return "ok" if await client.interrupts_answered(GRACE) else "stuck"


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


def _kill(family: Sequence[Any]) -> None:
    import psutil

    for proc in family:  # SIGKILL cannot be caught; not waiting: they are not our children
        try:
            proc.kill()
        except psutil.Error:
            pass


async def _shutdown(client: Any, km: Any, box: _sandbox.NotebookSandbox) -> None:
    try:
        if client.kc is not None:
            client.kc.stop_channels()
    except Exception:  # noqa: BLE001
        pass
    # In the sandbox the PID namespace takes every process with the kernel; without it,
    # the descendants still attached are listed before the kernel dies and killed after.
    # A root grader's kernel has a uid of its own: every process of that uid is killed.
    family = []
    try:
        pid = _launcher_pid(km)
        family = box.processes(pid)
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
    _kill(family)
    if box.uid is not None:
        for _ in range(50):  # a fork racing the kill: look again until none is left
            left = box.processes(None)
            if not left:
                break
            _kill(left)
            await asyncio.sleep(0.02)
    try:
        km.grader_context.destroy(linger=0)
    except Exception:  # noqa: BLE001
        pass


def _parse_result(cell: Any, marker: str, run: _Run) -> dict | None:
    """The id -> state map from the extraction cell's result message, validated."""
    lines = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "display_data":
            text = (out.get("data") or {}).get(RESULT_MIME)
            if isinstance(text, str) and text.startswith(marker):
                lines.append(text)
    errors = _cell_errors(cell)
    if len(lines) != 1:
        why = "no result" if not lines else f"{len(lines)} results"
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
def _rows_for_failure(student: str, exercises: Sequence[Exercise], status: str,
                      reason: str) -> list[GradeRow]:
    if not exercises:
        return [GradeRow(student, "", 0.0, 0, reason, status)]
    return [GradeRow(student, ex.id, 0.0, int(ex.points), reason, status) for ex in exercises]


def _missing_status(run: _Run) -> str:
    if run.killed or "MemoryError" in run.errors:
        return "memory"
    if run.timed_out or run.cells_timed_out or run.over_notebook_time:
        return "timeout"
    if run.cells_output_limited:
        return "output_limit"
    if run.errors:
        return "error"
    return "missing"


def _verdicts_here(exercises: Sequence[Exercise], cases: dict[str, list],
                   result: dict) -> dict[str, _judge.Verdict]:
    """Verdicts judged in this process (the unit tests'; a batch uses judge processes)."""
    return {ex.id: _judge.verdict(ex, result.get(ex.id), cases.get(ex.id, []))
            for ex in exercises}


def _rows_for_run(student: str, exercises: Sequence[Exercise], cases: dict[str, list],
                  run: _Run, verdicts: dict[str, _judge.Verdict] | None = None
                  ) -> list[GradeRow]:
    notes = "; ".join(run.notes)
    if run.result is None:
        status = "kernel_died" if run.died and not run.killed else _missing_status(run)
        if run.killed:
            status = "memory"
        return _rows_for_failure(student, exercises, status,
                                 notes or "the answers could not be read")
    if verdicts is None:
        verdicts = _verdicts_here(exercises, cases, run.result)
    rows = []
    for ex in exercises:
        verdict = verdicts.get(ex.id, {"reason": "not judged"})
        if "points" in verdict:
            rows.append(GradeRow(student, ex.id, float(verdict["points"]), int(ex.points),
                                 str(verdict.get("message", "")), "graded"))
        elif verdict.get("invalid"):
            rows.append(GradeRow(student, ex.id, 0.0, int(ex.points),
                                 str(verdict.get("reason", "")), "invalid_answer"))
        else:
            reason = str(verdict.get("reason", ""))
            status = _missing_status(run)
            text = reason + (f" ({notes})" if notes and status != "missing" else "")
            rows.append(GradeRow(student, ex.id, 0.0, int(ex.points), text, status))
    return rows


# --------------------------------------------------------------------------- batch
@dataclasses.dataclass
class _Batch:
    """What every notebook of a batch shares: options and the sandbox's files."""

    chapter: int | None
    limits: _Limits
    seed: int | None
    sandbox: str
    root: Path
    lib: Path
    data: Path | None
    secret: str | None = None
    protect: tuple[Path, ...] = ()
    pool: Any = None  # the batch's _judge.JudgePool


def _read_notebook(path: Path) -> Any:
    nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    if not isinstance(nb.get("cells"), list):
        raise ValueError("no cells")
    return nb


async def _grade_one(sub: Submission, batch: _Batch) -> tuple[list[GradeRow], int | None]:
    """The rows of one submission, and the chapter it was graded as."""
    student, chapter = sub.student, batch.chapter
    if sub.problem is not None:
        return [GradeRow(student, "", 0.0, 0, sub.note, sub.problem)], None
    try:
        nb = _read_notebook(sub.path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file
        expected = _exercises(chapter)
        return _rows_for_failure(student, expected, "invalid_notebook",
                                 f"{sub.path.name} is not a readable notebook "
                                 f"({type(exc).__name__})"), chapter
    own = submission_chapter(nb, sub.path.name)
    target = chapter if chapter is not None else own
    if chapter is not None and own is not None and own != chapter:
        return _rows_for_failure(student, _exercises(chapter), "wrong_chapter",
                                 f"this is a notebook of chapter {own}, not of chapter "
                                 f"{chapter} (the batch's assignment): not graded"), chapter
    exercises = (judging_exercises(nb, student, target, batch.secret)
                 if target is not None else [])
    if not exercises:
        why = ("the chapter is unknown (no course.chapter metadata, no NN_ file name): "
               "give --chapter" if target is None else f"chapter {target} has no exercises")
        return _rows_for_failure(student, [], "wrong_chapter", why), None
    rng_seed = secrets.randbits(32) if batch.seed is None else batch.seed
    cases = {ex.id: ex.hidden_cases(rng_seed) for ex in exercises if ex.kind == "function"}
    box = _sandbox.NotebookSandbox(batch.sandbox, batch.root, batch.lib, batch.data,
                                   protect=batch.protect, scratch_mb=batch.limits.scratch_mb)
    try:
        run = await _execute(nb, exercises, cases, limits=batch.limits, box=box)
    finally:
        box.cleanup()
    verdicts = None
    if run.result is not None and batch.pool is not None and target is not None:
        seeds = exercise_seeds(student, target, batch.secret)
        requests = [{"id": ex.id, "seed": seeds.get(ex.id), "state": run.result.get(ex.id),
                     "cases": cases.get(ex.id, [])} for ex in exercises]
        verdicts = dict(zip((ex.id for ex in exercises), await batch.pool.judge(requests)))
    rows = _rows_for_run(student, exercises, cases, run, verdicts)
    note = variant_note(nb, student, batch.secret, exercises)
    if note:
        rows = [dataclasses.replace(r, feedback=note + r.feedback, status="other_student")
                for r in rows]
    return rows, target


async def _grade_all(subs: Sequence[Submission], batch: _Batch, *, jobs: int,
                     progress: bool,
                     on_done: Callable[[list[GradeRow], int | None], None] | None
                     ) -> list[GradeRow]:
    semaphore = asyncio.Semaphore(jobs)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(subs), unit="notebook", desc="grading", file=sys.stderr)

    async def one(sub: Submission) -> list[GradeRow]:
        async with semaphore:
            chapter = None
            try:
                rows, chapter = await _grade_one(sub, batch)
            except Exception as exc:  # noqa: BLE001 - never stop the batch
                rows = [GradeRow(sub.student, "", 0.0, 0,
                                 f"the grader failed on this file ({type(exc).__name__}: {exc})",
                                 "error")]
        if on_done is not None:
            on_done(rows, chapter)
        if bar is not None:
            bar.update(1)
        return rows

    try:
        async with _judge.JudgePool(jobs, seconds=batch.limits.judge_timeout,
                                    memory_mb=max(batch.limits.memory_mb, 1024)) as pool:
            batch.pool = pool
            results = await asyncio.gather(*(one(s) for s in subs))
    finally:
        batch.pool = None
        if bar is not None:
            bar.close()
    return [row for rows in results for row in rows]


def batch_chapter(subs: Sequence[Submission]) -> tuple[int | None, dict[int, int]]:
    """The chapter most notebooks of a batch answer (ties: the lower), and the counts."""
    counts: dict[int, int] = {}
    for sub in subs:
        if sub.problem is not None:
            continue
        try:
            nb = _read_notebook(sub.path)
        except Exception:  # noqa: BLE001 - reported when graded
            continue
        chapter = submission_chapter(nb, sub.path.name)
        if chapter is not None and _exercises(chapter):
            counts[chapter] = counts.get(chapter, 0) + 1
    if not counts:
        return None, counts
    return max(counts, key=lambda c: (counts[c], -c)), counts


def grade_directory(directory: Path | str, *, jobs: int = 1, timeout: float = 60.0,
                    chapter: int | None = None, memory_mb: int = 2048,
                    max_procs: int = MAX_PROCS, cell_output_mb: float = CELL_OUTPUT_MB,
                    notebook_output_mb: float = NOTEBOOK_OUTPUT_MB,
                    sandbox: str = "bwrap", seed: int | None = None,
                    progress: bool = False, skip: Iterable[str] = (),
                    on_done: Callable[[list[GradeRow], int | None], None] | None = None,
                    secret: str | None = None,
                    notebook_timeout: float = NOTEBOOK_TIMEOUT,
                    protect: Iterable[Path | str] = (),
                    judge_timeout: float = _judge.JUDGE_SECONDS) -> list[GradeRow]:
    """Grade every file in ``directory``; one :class:`GradeRow` per student and exercise.

    The batch is one assignment: ``chapter``, or (None) the chapter most of the
    folder's notebooks answer (:func:`batch_chapter`); a notebook of another chapter
    gets ``wrong_chapter``. ``protect`` names what the kernels must never read beside
    the repository and the answer key (the class secret's file, the gradebook's
    folder); the submissions folder is always protected. Where the sandbox cannot hide
    one of them, :class:`~course_lib.exercises._sandbox.SandboxUnavailable` is raised
    before any notebook runs.

    ``secret`` is the class secret of per-student copies: each student is judged on
    their own variants (:func:`judging_exercises`). Without it, a folder holding such
    copies is refused (ValueError): they would be judged on the book's numbers.

    ``judge_timeout`` is the time judging one answer may take (its exercise built
    before): an answer that takes longer is refused (``invalid_answer``).

    ``seed`` fixes the hidden cases (by default each submission gets fresh ones);
    ``skip`` names students not to grade (``--resume``); ``on_done(rows, chapter)`` is
    called as each file is finished. ``sandbox="bwrap"`` raises
    :class:`~course_lib.exercises._sandbox.SandboxUnavailable` where bwrap cannot
    build the sandbox; ``"none"`` is the weaker mode (see :mod:`._sandbox`).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if memory_mb < 0 or max_procs < 0:
        raise ValueError(f"memory_mb and max_procs must be 0 (no limit) or positive, got "
                         f"{memory_mb} and {max_procs}")
    if not (cell_output_mb > 0 and notebook_output_mb > 0):
        raise ValueError("the output caps must be positive, got "
                         f"{cell_output_mb} and {notebook_output_mb}")
    if not notebook_timeout > 0:
        raise ValueError(f"notebook_timeout must be positive, got {notebook_timeout}")
    if not judge_timeout > 0:
        raise ValueError(f"judge_timeout must be positive, got {judge_timeout}")
    if sandbox not in _sandbox.MODES:
        raise ValueError(f"sandbox must be one of {_sandbox.MODES}, got {sandbox!r}")
    if sandbox == "bwrap":
        why = _sandbox.probe_bwrap()
        if why is not None:
            raise _sandbox.SandboxUnavailable(why)
    skipped = set(skip)
    every = collect_submissions(Path(directory))
    if chapter is None:
        chapter = batch_chapter(every)[0]
    subs = [s for s in every if s.student not in skipped]
    copies = per_student_copies(subs) if secret is None else []
    if copies:
        raise ValueError(f"{', '.join(copies[:3])}{' and others' if len(copies) > 3 else ''}"
                         " are per-student copies (with variants): give the class secret "
                         "they were made with (--secret-file)")
    limits = _Limits(timeout=timeout, memory_mb=memory_mb, max_procs=max_procs,
                     cell_output=int(cell_output_mb * _MB),
                     notebook_output=int(notebook_output_mb * _MB),
                     notebook_timeout=notebook_timeout, judge_timeout=judge_timeout)
    hidden = tuple(_sandbox.protected_paths([Path(directory), *protect]))
    root = Path(tempfile.mkdtemp(prefix="grade-"))
    try:
        lib, data = _sandbox.batch_files(root)
        if sandbox == "bwrap":
            _sealed_or_refuse(root, lib, data, hidden)
        batch = _Batch(chapter=chapter, limits=limits, seed=seed, sandbox=sandbox,
                       root=root, lib=lib, data=data, secret=secret, protect=hidden)
        return asyncio.run(_grade_all(subs, batch, jobs=jobs, progress=progress,
                                      on_done=on_done))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _sealed_or_refuse(root: Path, lib: Path, data: Path | None,
                      hidden: Sequence[Path]) -> None:
    """Check from inside a sandbox that none of ``hidden`` can be read; refuse if not."""
    box = _sandbox.NotebookSandbox("bwrap", root, lib, data, protect=hidden)
    try:
        seen = box.readable()
    finally:
        box.cleanup()
    if seen:
        raise _sandbox.SandboxUnavailable(
            f"the sandbox could not hide {', '.join(seen)}: a student's code could read it. "
            "Move it out of the system folders the sandbox shows (/usr, /etc, the Python "
            "installation), for example into /srv or a home folder, and grade again")


def per_student_copies(subs: Sequence[Submission]) -> list[str]:
    """The file names of the submissions that are per-student copies (with variants)."""
    names = []
    for sub in subs:
        if sub.problem is not None:
            continue
        try:
            nb = json.loads(sub.path.read_text(encoding="utf-8"))
        except Exception:  # noqa: BLE001 - an unreadable file is reported when graded
            continue
        if recorded_variant(nb) is not None:
            names.append(sub.path.name)
    return names


# --------------------------------------------------------------------------- output
def _points_text(value: float) -> str:
    return f"{value:g}"


def _atomic_write(path: Path, write: Callable[[Any], None]) -> None:
    """Write a text file through a temporary file in its folder and ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_text(text: str, fh: Any) -> None:
    fh.write(text)


def _stored(row: GradeRow) -> GradeRow:
    """The row as the gradebook keeps it: a feedback past ``FEEDBACK_CHARS`` is cut."""
    text = _exports.cap_feedback(row.feedback)
    return row if text == row.feedback else dataclasses.replace(row, feedback=text)


def _cell(value: str, keep: str = "") -> str:
    return _exports.csv_cell(value, keep=keep, reversible=True)


#: The largest field :func:`read_gradebook` reads (the csv module's default is 128 KiB).
_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


def write_gradebook(rows: Iterable[GradeRow], path: Path | str) -> None:
    """Write the rows as CSV with the header :data:`COLUMNS`, replacing the file atomically.

    A feedback longer than :data:`~course_lib.exercises._exports.FEEDBACK_CHARS`
    characters is cut (saying how much). Every text cell is written by
    :func:`~course_lib.exercises._exports.csv_cell` (``reversible=True``): control
    characters as escapes (a feedback keeps its newlines) and a leading ``'`` on a cell a
    spreadsheet would read as a formula; :func:`read_gradebook` undoes both.
    """
    rows = [_stored(r) for r in rows]

    def write(fh: Any) -> None:
        writer = csv.writer(fh)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([_cell(r.student), _cell(r.exercise), _points_text(r.points),
                             r.max_points, _cell(r.feedback, "\n"), _cell(r.status)])

    _atomic_write(Path(path), write)


def read_gradebook(path: Path | str) -> list[GradeRow]:
    """The rows of a gradebook written by :func:`write_gradebook`; ValueError if not one.

    The names and texts are those given to :func:`write_gradebook` (its escaping undone),
    and a field of any size is read (an earlier grader kept whole feedbacks): the csv
    module's field limit is raised during the call and restored after it.
    """
    limit = csv.field_size_limit(_FIELD_LIMIT)
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None or tuple(header) != COLUMNS:
                raise ValueError(f"{path} is not a gradebook of this grader: its header is "
                                 f"{header}, expected {list(COLUMNS)}")
            rows = []
            for n, line in enumerate(reader, start=2):
                if len(line) != len(COLUMNS) or line[5] not in STATUSES:
                    raise ValueError(f"{path}, line {n}: not a gradebook row: "
                                     f"{[_exports.cap_feedback(c, 200) for c in line]}")
                try:
                    rows.append(GradeRow(_exports.read_cell(line[0]),
                                         _exports.read_cell(line[1]), float(line[2]),
                                         int(line[3]), _exports.read_cell(line[4]), line[5]))
                except ValueError as exc:
                    raise ValueError(f"{path}, line {n}: {exc}") from None
    except csv.Error as exc:
        raise ValueError(f"{path} is not a readable CSV file: {exc}") from None
    finally:
        csv.field_size_limit(limit)
    return rows


class Gradebook:
    """The gradebook of a batch, written again (atomically) as each notebook finishes.

    Rows are kept by student, students sorted by name; each :meth:`add` rewrites the
    CSV, the Canvas and Moodle exports and the student's HTML feedback page. A row's
    feedback is kept as the gradebook stores it (cut past
    :data:`~course_lib.exercises._exports.FEEDBACK_CHARS` characters), so the exports
    and the pages say what a resumed batch reads back.
    """

    def __init__(self, path: Path | str, rows: Iterable[GradeRow] = (), *,
                 assignment: str | None = None, exports: bool = True) -> None:
        self.path = Path(path)
        self.assignment = assignment
        self.exports = exports
        self.chapters: set[int] = set()
        self.students: dict[str, list[GradeRow]] = {}
        for row in rows:
            self.students.setdefault(row.student, []).append(_stored(row))

    @property
    def rows(self) -> list[GradeRow]:
        order = sorted(self.students, key=lambda s: (s.casefold(), s))
        return [row for name in order for row in self.students[name]]

    def title(self) -> str:
        if self.assignment:
            return self.assignment
        if len(self.chapters) == 1:
            return f"Chapter {next(iter(self.chapters))} exercises"
        return "Exercises"

    def add(self, rows: Sequence[GradeRow], chapter: int | None = None) -> None:
        if chapter is not None:
            self.chapters.add(chapter)
        names = []
        for row in rows:
            if row.student not in names:
                names.append(row.student)
                self.students[row.student] = []
            self.students[row.student].append(_stored(row))
        self.write(names)

    def write(self, pages: Iterable[str] | None = None) -> None:
        """Rewrite the CSV and the exports; the feedback pages of ``pages`` (None: all)."""
        rows = self.rows
        write_gradebook(rows, self.path)
        if not self.exports:
            return
        paths = _exports.export_paths(self.path)
        title = self.title()
        _atomic_write(paths["canvas"], lambda fh: _exports.write_canvas(rows, fh, title))
        _atomic_write(paths["moodle"], lambda fh: _exports.write_moodle(rows, fh, title))
        folder = paths["feedback"]
        folder.mkdir(exist_ok=True)
        if pages is None:  # the folder mirrors the gradebook: no page of an earlier run
            keep = {_exports.page_name(n, self.students) for n in self.students}
            for old in folder.glob("*.html"):
                if old.name not in keep:
                    old.unlink()
        for name in (self.students if pages is None else pages):
            own = self.students[name]
            if any(r.status in _exports.NOT_STUDENTS for r in own):
                continue
            page = _exports.feedback_page(name, own, title)
            _atomic_write(folder / _exports.page_name(name, self.students),
                          functools.partial(_write_text, page))


def summary_table(rows: Sequence[GradeRow]) -> str:
    """Per student: points, maximum, and how many rows have each status but ``graded``
    (``not graded`` first when the exports give the student no grade). The names are
    shown with their control characters escaped
    (:func:`~course_lib.exercises._exports.escape_controls`).

    Examples
    --------
    >>> rows = [GradeRow("bob", "a", 1.0, 1, "ok", "graded"),
    ...         GradeRow("bob", "b", 0.0, 2, "x", "missing"),
    ...         GradeRow("eve\\x1b[2J", "a", 0.0, 1, "", "kernel_died")]
    >>> print(summary_table(rows))
    student     points  max  notes
    bob              1    3  missing 1
    eve\\x1b[2J       0    1  not graded, kernel_died 1
    """
    students: dict[str, list[GradeRow]] = {}
    for r in rows:
        students.setdefault(r.student, []).append(r)
    table = [("student", "points", "max", "notes")]
    for name in sorted(students, key=lambda s: (s.casefold(), s)):
        own = students[name]
        counts = {s: sum(r.status == s for r in own) for s in STATUSES[1:]}
        notes = [f"{s} {n}" for s, n in counts.items() if n]
        if _exports.ungraded_reason(own) is not None:
            notes.insert(0, "not graded")
        table.append((_exports.escape_controls(name), _points_text(sum(r.points for r in own)),
                      str(sum(r.max_points for r in own)), ", ".join(notes)))
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    lines = []
    for row in table:
        lines.append(f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  "
                     f"{row[3]}".rstrip())
    return "\n".join(lines)


SANDBOX_SUMMARY = {
    "bwrap": ("sandbox: bwrap (each kernel an unprivileged uid without capabilities; new "
              "PID, network, IPC and UTS namespaces; read-only system, Python and /proc/sys; "
              "the repository, key and secret hidden; processes, memory, scratch disk and "
              "time capped per notebook; every process ended with its notebook)"),
    "none": ("sandbox: NONE (--sandbox none, the weaker mode): each kernel ran in its own "
             "process group, killed at the end, with the memory and process caps, in a "
             "temporary folder, but with the grader's file system (the answer key included) and "
             "network; a double-forked process could survive. Grade untrusted notebooks with bwrap"),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m course_lib.exercises.grade",
        description="Execute and grade every submitted notebook in a folder, each in a "
                    "sandbox.")
    parser.add_argument("submissions", type=Path, help="folder of submitted .ipynb files")
    parser.add_argument("--out", type=Path, required=True, help="the CSV gradebook to write")
    parser.add_argument("--jobs", type=int, default=1, help="kernels run in parallel (1)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per cell before it is interrupted (60)")
    parser.add_argument("--chapter", type=int, default=None,
                        help="the batch's chapter (default: the chapter most notebooks "
                             "answer); a notebook of another chapter gets wrong_chapter")
    parser.add_argument("--notebook-timeout", type=float, default=NOTEBOOK_TIMEOUT,
                        help="seconds a whole notebook may run; past it no further cell "
                             f"runs and the answers given are judged ({NOTEBOOK_TIMEOUT:g})")
    parser.add_argument("--judge-timeout", type=float, default=_judge.JUDGE_SECONDS,
                        help="seconds judging one answer may take; an answer that takes "
                             "longer (an expression built to stall the comparison) is "
                             f"refused ({_judge.JUDGE_SECONDS:g})")
    parser.add_argument("--memory-mb", type=int, default=2048,
                        help="address-space cap of each kernel in MB, 0 for none (2048)")
    parser.add_argument("--max-procs", type=int, default=MAX_PROCS,
                        help="processes and threads a kernel may start, 0 for no cap; "
                             f"Linux does not cap root ({MAX_PROCS})")
    parser.add_argument("--max-cell-output", type=float, default=CELL_OUTPUT_MB,
                        metavar="MB", help="output kept per cell, in MB of text; past "
                        f"it the output is dropped and the cell interrupted ({CELL_OUTPUT_MB:g})")
    parser.add_argument("--max-notebook-output", type=float, default=NOTEBOOK_OUTPUT_MB,
                        metavar="MB", help="output kept per notebook, in MB of text "
                        f"({NOTEBOOK_OUTPUT_MB:g})")
    parser.add_argument("--sandbox", choices=_sandbox.MODES, default="bwrap",
                        help="bwrap (default): each kernel in a bubblewrap sandbox; none: "
                             "the weaker mode, without file-system or network isolation")
    parser.add_argument("--resume", action="store_true",
                        help="keep the rows of --out and grade only the students it lacks")
    parser.add_argument("--assignment", default=None,
                        help="the assignment's column name in the Canvas and Moodle "
                             "exports (default: 'Chapter NN exercises')")
    parser.add_argument("--no-exports", action="store_true",
                        help="write only the CSV gradebook (no Canvas, Moodle or HTML)")
    parser.add_argument("--seed", type=int, default=None,
                        help="fix the hidden cases (default: fresh per submission)")
    parser.add_argument("--secret-file", type=Path, default=None,
                        help="the class secret the per-student copies were made with "
                             "(make student-notebooks STUDENTS=...): each student is "
                             "judged on their own numbers")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code (0 when the batch completed)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        _registry.REGISTRY  # noqa: B018 - the references: the instructor-only answer key
    except AnswerKeyMissing:
        print("grade: the answer key (the package course_key, folder key/) is not "
              "installed in this environment: `make install`, or `pip install -e ./key` "
              "next to course_lib", file=sys.stderr)
        return 2
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder")
    if not submissions(args.submissions):
        parser.error(f"no .ipynb files in {args.submissions}")
    if (args.jobs < 1 or args.timeout <= 0 or args.memory_mb < 0 or args.max_procs < 0
            or not args.max_cell_output > 0 or not args.max_notebook_output > 0
            or not args.judge_timeout > 0):
        parser.error("--jobs must be >= 1, --timeout, --judge-timeout and the output caps "
                     "> 0, --memory-mb and --max-procs >= 0")
    if args.chapter is not None and not _exercises(args.chapter):
        parser.error(f"chapter {args.chapter} has no exercises")
    if not args.out.parent.is_dir():
        parser.error(f"the folder of --out, {args.out.parent}, does not exist")
    if args.out.resolve().parent == args.submissions.resolve():
        parser.error("--out must not be in the submissions folder")
    kept: list[GradeRow] = []
    if args.resume and args.out.exists():
        try:
            kept = read_gradebook(args.out)
        except (OSError, ValueError) as exc:
            parser.error(f"--resume: {exc}")
        # a clash or a stray file is looked at again: the instructor may have fixed it
        again = {r.student for r in kept if r.status in ("name_clash", "not_a_notebook")}
        kept = [r for r in kept if r.student not in again]
    if args.sandbox == "bwrap":
        why = _sandbox.probe_bwrap()
        if why is not None:
            print(f"grade: the sandbox is not available: {why}", file=sys.stderr)
            return 2
    else:
        print(f"grade: WARNING: {SANDBOX_SUMMARY['none']}.", file=sys.stderr)
    secret = None
    if args.secret_file is not None:
        try:
            secret = read_secret(args.secret_file)
        except (OSError, ValueError) as exc:
            parser.error(f"--secret-file: {exc}")
    elif per_student_copies(collect_submissions(args.submissions)):
        parser.error("the folder holds per-student copies (with variants): give the class "
                     "secret they were made with, --secret-file class.secret")
    book = Gradebook(args.out, kept, assignment=args.assignment,
                     exports=not args.no_exports)
    chapter: int | None = args.chapter
    counts: dict[int, int] = {}
    if chapter is None:
        for row in kept:  # a resumed batch keeps the assignment it was graded as
            try:
                chapter = _registry.get(row.exercise).chapter
                break
            except (KeyError, ValueError):
                continue
    if chapter is None:
        chapter, counts = batch_chapter(collect_submissions(args.submissions))
        if chapter is None:
            parser.error("no notebook says which chapter it answers: give --chapter")
    book.chapters.add(chapter)
    book.write()
    done = {r.student for r in kept}
    protect = [args.out.resolve().parent]
    if args.secret_file is not None:
        protect.append(args.secret_file)
    try:
        rows = grade_directory(
            args.submissions, jobs=args.jobs, timeout=args.timeout, chapter=chapter,
            memory_mb=args.memory_mb, max_procs=args.max_procs,
            cell_output_mb=args.max_cell_output, notebook_output_mb=args.max_notebook_output,
            sandbox=args.sandbox, seed=args.seed, progress=not args.no_progress, skip=done,
            on_done=book.add, secret=secret, notebook_timeout=args.notebook_timeout,
            protect=protect, judge_timeout=args.judge_timeout)
    except _sandbox.SandboxUnavailable as exc:
        print(f"grade: refused: {exc}", file=sys.stderr)
        return 2
    print(summary_table(book.rows))
    graded = len({r.student for r in rows})
    resumed = f" ({len(done)} kept from the gradebook)" if done else ""
    print(f"\n{graded} files graded{resumed}; gradebook: {args.out}")
    if book.exports:
        paths = _exports.export_paths(args.out)
        print(f"exports: {paths['canvas']} (Canvas), {paths['moodle']} (Moodle), "
              f"{paths['feedback']}/ (one feedback page per student)")
    if args.chapter is not None:
        how = "given by --chapter"
    elif counts:
        others = sum(counts.values()) - counts.get(chapter, 0)
        how = (f"the chapter of {counts.get(chapter, 0)} of {sum(counts.values())} "
               f"notebooks" + (f"; {others} of other chapters got wrong_chapter"
                               if others else ""))
    else:
        how = "as the gradebook's kept rows"
    print(f"assignment: chapter {chapter} ({how})")
    flagged = sorted({r.student for r in rows if r.status == "other_student"})
    if flagged:
        names = ", ".join(_exports.escape_controls(n) for n in flagged[:10])
        print(f"copies made for another student: {len(flagged)} "
              f"({names}{' ...' if len(flagged) > 10 else ''})")
    print(SANDBOX_SUMMARY[args.sandbox])
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
