"""The grader's side of a student's kernel: how it is started, and what the grader asks it.

Two pieces run in the kernel process of a submission, never in the grader's process:

* :func:`launch` starts the kernel (``python -m course_lib.exercises._kernel``) with a
  cap on its address space (``resource.setrlimit(RLIMIT_AS)``), so an allocation of
  10 GB raises ``MemoryError`` in the student's cell instead of exhausting the machine.
  The cap is the notebook's memory plus :data:`ADDRESS_HEADROOM_MB`: libraries reserve
  address space they never touch (Python with numpy, pandas and DuckDB holds 1.2 GB of
  it after its imports and 0.2 GB of memory), and the memory itself is capped by the
  grader's watchdog on what the notebook's processes hold (PSS). There is also
  a cap on the processes and threads of its user (``RLIMIT_NPROC``; Linux exempts
  root). The caps are set, soft and hard, before ipykernel starts, and are inherited by
  anything the kernel spawns. Its stdout and stderr send at most 64 KB per message
  (:mod:`course_lib.exercises._outstream`), so the grader can cap output as it arrives.
* :func:`extract` runs once, after the student's cells, in a cell the grader sends. It
  reads each exercise's answer variable from the notebook's namespace, encodes it with
  :func:`~course_lib.exercises.encode_answer` and, for a function answer, calls the
  student's function on the hidden cases the grader sent in (each call time-limited).
  It publishes one display message of type :data:`RESULT_MIME` (never chunked like
  printed text): the grader's random marker followed by JSON.

What can be trusted, and why: nothing the kernel reports is trusted as a *verdict*. The
kernel only reports *values* (answers, and outputs of the student's function); the
grader decodes them defensively (:func:`course_lib.exercises.decode_answer` never
evaluates code) and judges them in its own process against references computed there.
A student who patches ``check``, ``Fraction.__eq__``, ``numpy.isclose``, ``json`` or
even this module can at most change the values reported, which is no more than writing
a different answer; making a wrong value pass would need a change to the grader's
process, which the kernel cannot reach. The marker is random per submission and sent only
after the student's cells ran, so nothing a student cell printed is ever read as a
result; a result published twice (a hook imitating the grader) voids the extraction.
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["RESULT_MIME", "extract", "extraction_code", "launch", "report"]

#: Address space allowed beyond the notebook's memory cap (MB): reserved, never touched.
ADDRESS_HEADROOM_MB = 2048

#: The MIME type of the display message that carries the result.
RESULT_MIME = "application/x-course-lib-grader"


def _case_size(case: dict) -> int:
    return sum(len(v) if isinstance(v, (list, tuple)) else 1 for v in case.values())


def _copy_case(case: dict) -> dict:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in case.items()}


def _error_text(exc: BaseException) -> str:
    try:
        return f"{type(exc).__name__}: {exc}"[:500]
    except Exception:  # noqa: BLE001 - a hostile __str__
        return type(exc).__name__


def _encode(value: Any) -> dict:
    from course_lib.exercises import encode_answer

    try:
        encoded = encode_answer(value)
        json.dumps(encoded)  # must survive the trip
        return encoded
    except Exception as exc:  # noqa: BLE001 - an odd object is the student's answer
        return {"type": "unsupported", "repr": f"could not encode the answer: {_error_text(exc)}"}


def _run_cases(func: Any, cases: list[dict], limit: float) -> list:
    """Outputs of ``func`` on ``cases``, smallest case first, stopping at a timeout.

    Mirrors :meth:`course_lib.exercises.Exercise.check` in a notebook: a case not run
    because an earlier one timed out is ``{"__skipped__": True}``.
    """
    from course_lib.exercises._core import call_with_limit

    outputs: list = [{"__skipped__": True}] * len(cases)
    order = sorted(range(len(cases)), key=lambda i: _case_size(cases[i]))
    for i in order:
        out = call_with_limit(func, _copy_case(cases[i]), limit)
        if isinstance(out, dict) and ("__error__" in out or "__timeout__" in out):
            outputs[i] = {k: out[k] for k in ("__error__", "__timeout__") if k in out}
        else:
            outputs[i] = _encode(out)
        if isinstance(out, dict) and "__timeout__" in out:
            break
    return outputs


def extract(user_ns: dict, request_json: str) -> str:
    """The answers found in ``user_ns``, as one marked JSON line.

    ``request_json`` holds ``marker``, ``limit`` (seconds per call) and ``exercises``:
    a list of ``{"id", "answer_name", "kind", "cases"}``. The printed JSON maps each id
    to ``{"state": "missing"}``, ``{"state": "value", "value": <encoded>}`` or
    ``{"state": "outputs", "outputs": [...]}``.

    >>> request = {"marker": "M:", "limit": 1.0, "exercises": [
    ...     {"id": "a", "answer_name": "x", "kind": "value", "cases": []},
    ...     {"id": "b", "answer_name": "f", "kind": "function", "cases": [{"n": 2}]},
    ...     {"id": "c", "answer_name": "nothing", "kind": "value", "cases": []}]}
    >>> line = extract({"x": 0.5, "f": lambda n: n * n}, json.dumps(request))
    >>> line[:2], json.loads(line[2:])["b"]["outputs"]
    ('M:', [{'type': 'int', 'value': 4}])
    """
    request = json.loads(request_json)
    limit = float(request["limit"])
    result: dict[str, dict] = {}
    for item in request["exercises"]:
        name = item["answer_name"]
        if name not in user_ns:
            result[item["id"]] = {"state": "missing"}
            continue
        value = user_ns[name]
        if item["kind"] == "function" and callable(value):
            try:
                outputs = _run_cases(value, item["cases"], limit)
            except BaseException as exc:  # noqa: BLE001 - e.g. a KeyboardInterrupt swallowed late
                result[item["id"]] = {"state": "error", "message": _error_text(exc)}
                continue
            result[item["id"]] = {"state": "outputs", "outputs": outputs}
        else:
            result[item["id"]] = {"state": "value", "value": _encode(value)}
    return request["marker"] + json.dumps(result)


def report(user_ns: dict, request_json: str) -> None:
    """Publish :func:`extract`'s line as one display message of type :data:`RESULT_MIME`."""
    from IPython.display import publish_display_data

    publish_display_data({RESULT_MIME: extract(user_ns, request_json)})


def extraction_code(request: dict) -> str:
    """The source of the cell the grader sends after the student's cells.

    >>> code = extraction_code({"marker": "M", "limit": 1, "exercises": []})
    >>> code.startswith("__import__('course_lib.exercises._kernel'")
    True
    """
    payload = json.dumps(request)
    return (f"__import__({__name__!r}, fromlist=['report']).report("
            f"globals(), {payload!r})")


def _set_memory_limit(megabytes: int) -> None:
    import resource

    if megabytes > 0:
        limit = (megabytes + ADDRESS_HEADROOM_MB) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _set_process_limit(count: int) -> None:
    import resource

    if count > 0:
        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        limit = count if hard == resource.RLIM_INFINITY else min(count, hard)
        resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))


def _set_file_limits(megabytes: int) -> None:
    """No core dumps; no file larger than the scratch folder (``RLIMIT_FSIZE``)."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if megabytes > 0:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _copy_font_cache() -> None:
    """matplotlib's font list, built once per batch, into the kernel's fresh home."""
    import os
    import shutil

    source, target = os.environ.get("COURSE_LIB_MPL_CACHE"), os.environ.get("MPLCONFIGDIR")
    if source and target and os.path.isdir(source) and not os.path.exists(target):
        try:
            shutil.copytree(source, target)
        except OSError:
            pass


def _pop_int(args: list[str], option: str) -> int:
    if option not in args:
        return 0
    i = args.index(option)
    value = int(args[i + 1])
    del args[i:i + 2]
    return value


def launch(argv: list[str] | None = None) -> None:
    """Start an IPython kernel with an address-space and a process limit.

    Usage: ``python -m course_lib.exercises._kernel [--memory-mb M] [--max-procs P]
    [--max-file-mb F] -f CONNECTION_FILE``; every other argument goes to ipykernel.
    ``0`` means no limit. Core dumps are off.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    _set_memory_limit(_pop_int(args, "--memory-mb"))
    _set_process_limit(_pop_int(args, "--max-procs"))
    _set_file_limits(_pop_int(args, "--max-file-mb"))
    _copy_font_cache()
    from ipykernel.ipkernel import IPythonKernel
    from ipykernel.kernelapp import IPKernelApp

    IPKernelApp.launch_instance(argv=[
        *args, "--IPKernelApp.outstream_class=course_lib.exercises._outstream.BoundedOutStream"],
        kernel_class=_interrupting_only_cells(IPythonKernel))


def _interrupting_only_cells(base: type) -> type:
    """ipykernel's kernel, whose interrupt stops only the cell that was running when asked.

    ipykernel signals itself (SIGINT) for an interrupt request and raises
    ``KeyboardInterrupt`` wherever its main thread is then. A cell that ends just as its
    time limit passes is interrupted in ipykernel's own code after the cell: the cell's
    reply is never sent, and the grader, waiting for it, stops the kernel and loses every
    answer (measured: 6 of 40 replies lost when the interrupt met the end of a cell).
    Here the signal raises only inside the cell (IPython's ``pre_run_cell`` to
    ``post_run_cell``) that was running when the request arrived; elsewhere it is
    ignored, as an idle ipykernel ignores it. The grader waits for each interrupt's reply
    before it sends the next cell, so a late request cannot name the next cell.
    """
    import signal

    class Kernel(base):
        cells = 0  # cells started so far
        cell = 0  # the number of the cell running now (0: none)
        target = -1  # the cell an interrupt was asked for

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.shell.events.register("pre_run_cell", self._cell_starts)
            self.shell.events.register("post_run_cell", self._cell_ends)

        def _cell_starts(self, info: Any) -> None:
            self.cells += 1
            self.cell = self.cells

        def _cell_ends(self, result: Any) -> None:
            self.cell = 0

        def _on_sigint(self, signum: int, frame: Any) -> None:
            if self.cell and self.cell == self.target:
                raise KeyboardInterrupt

        def pre_handler_hook(self) -> None:
            self.saved_sigint_handler = signal.signal(signal.SIGINT, self._on_sigint)

        def _send_interrupt_children(self) -> None:
            self.target = self.cell
            super()._send_interrupt_children()

    return Kernel


if __name__ == "__main__":  # pragma: no cover - runs as the kernel process
    launch()
