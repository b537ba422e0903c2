"""Judging the answers a kernel reported, outside the grader's own process.

A reported answer is data (:func:`course_lib.exercises.decode_answer` never evaluates
code), but judging it can still cost without bound: a sympy expression such as
``Pow(Pow(Pow(10, 1000), 1000), 30)`` with ``evaluate=False`` is a few hundred bytes
and takes minutes (or hours) to compare with the reference. So the grader never judges
in its own process. A :class:`JudgePool` keeps one judge process per parallel job
(``python -m course_lib.exercises._judge``, the grader's environment, the answer key
included, under an address-space cap); each answer goes to a judge as one JSON line,
and comes back as one JSON line within :data:`JUDGE_SECONDS` (the exercises a notebook's
answers are judged against, its chapter of the key and its variants, are built before,
untimed). A judge that does not
answer in time is killed and replaced, and that answer alone gets the status
``invalid_answer``; every other answer of the notebook, and every other notebook, is
judged as usual.

>>> from course_lib.exercises import encode_answer
>>> state = {"state": "value", "value": encode_answer("19/24")}
>>> judge_request({"id": "auc-pairs-table1", "seed": None, "state": state, "cases": []})
{'points': 1.0, 'message': 'correct: 19/24'}
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["JUDGE_SECONDS", "JudgePool", "Verdict", "judge_request", "judge_state", "verdict"]

#: Seconds one answer may take to judge (the slowest right answer of the book: < 0.5 s).
JUDGE_SECONDS = 10.0
#: Address-space cap of a judge process, in MB.
JUDGE_MEMORY_MB = 2048
_LINE_LIMIT = 64 * 1024 * 1024

#: ``{"points": p, "message": m}`` when judged, ``{"reason": r}`` when not,
#: ``{"reason": r, "invalid": True}`` when the judge gave up on the answer.
Verdict = dict


def judge_state(ex: Any, state: Any, cases: list) -> tuple[Any, str]:
    """Judge one reported answer: (feedback, '') or (None, why it was not judged)."""
    from course_lib.exercises import decode_answer

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
            return ex.check_outputs(cases, [clean_output(o) for o in outputs]), ""
        if kind == "error":
            return None, f"reading the answer failed: {str(state.get('message', ''))[:200]}"
    except Exception as exc:  # noqa: BLE001 - a malformed report is a wrong answer
        return None, f"the answer could not be read ({type(exc).__name__})"
    return None, "variable not defined"


def clean_output(output: Any) -> Any:
    """An output as :meth:`Exercise.check_outputs` expects it; anything odd is an error."""
    from course_lib.exercises import decode_answer

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


_EXERCISES: dict[tuple[str, int | None], Any] = {}


def _exercise(exercise_id: str, seed: int | None) -> Any:
    from course_lib.exercises import get

    key = (exercise_id, seed)
    if key not in _EXERCISES:
        _EXERCISES[key] = get(exercise_id).variant(seed)
    return _EXERCISES[key]


def verdict(ex: Any, state: Any, cases: list) -> Verdict:
    """:func:`judge_state`'s answer as a :data:`Verdict` (what travels as JSON)."""
    feedback, reason = judge_state(ex, state, cases)
    if feedback is None:
        return {"reason": reason}
    return {"points": float(feedback.points), "message": str(feedback.message)}


def judge_request(request: dict) -> Verdict:
    """One verdict for ``{"id", "seed", "state", "cases"}`` (the judge's whole job)."""
    ex = _exercise(str(request["id"]), request.get("seed"))
    return verdict(ex, request.get("state"), list(request.get("cases") or []))


def serve(memory_mb: int = JUDGE_MEMORY_MB) -> None:
    """The judge process: one JSON request per line in, one verdict per line out."""
    import resource

    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if "prepare" in request:  # the grader's own ids and seeds, not an answer
                for item in request["prepare"]:
                    try:
                        _exercise(str(item["id"]), item.get("seed"))
                    except Exception:  # noqa: BLE001 - said again when it is judged
                        pass
                verdict: Verdict = {"prepared": True}
            else:
                verdict = judge_request(request)
        except MemoryError:
            verdict = {"reason": "judging the answer needed more memory than allowed",
                       "invalid": True}
        except Exception as exc:  # noqa: BLE001 - never stop the judge
            verdict = {"reason": f"the answer could not be judged ({type(exc).__name__})"}
        out.write(json.dumps(verdict) + "\n")
        out.flush()


class _Judge:
    """One judge process."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, memory_mb: int) -> _Judge:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", __name__, "--memory-mb", str(memory_mb),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, limit=_LINE_LIMIT)
        judge = cls(proc)
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), timeout=300)
        if line.strip() != b"ready":
            judge.kill()
            raise RuntimeError("the judge process did not start")
        return judge

    async def prepare(self, requests: Sequence[dict]) -> None:
        """Build the exercises of ``requests`` (the key's chapter, each variant) untimed."""
        items = [{"id": r["id"], "seed": r.get("seed")} for r in requests]
        if await self.ask({"prepare": items}, 300) != {"prepared": True}:
            raise RuntimeError("the judge process did not build the exercises")

    async def ask(self, request: dict, seconds: float) -> Verdict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        await self.proc.stdin.drain()
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout=seconds)
        if not line:
            raise EOFError("the judge process ended")
        verdict = json.loads(line)
        if not isinstance(verdict, dict):
            raise ValueError("not a verdict")
        return verdict

    def kill(self) -> None:
        try:
            self.proc.kill()
        except ProcessLookupError:
            pass

    async def close(self) -> None:
        self.kill()
        try:
            await asyncio.wait_for(self.proc.wait(), timeout=10)
        except (TimeoutError, ProcessLookupError):
            pass


class JudgePool:
    """Judge processes shared by a batch; use ``async with JudgePool(n) as pool``."""

    def __init__(self, size: int = 1, *, seconds: float = JUDGE_SECONDS,
                 memory_mb: int = JUDGE_MEMORY_MB) -> None:
        self.size = max(1, size)
        self.seconds = seconds
        self.memory_mb = memory_mb
        self._idle: asyncio.Queue[_Judge | None] = asyncio.Queue()
        self._all: list[_Judge] = []

    async def __aenter__(self) -> JudgePool:
        for _ in range(self.size):
            self._idle.put_nowait(None)  # started when first needed
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.gather(*(j.close() for j in self._all))

    async def _fresh(self) -> _Judge:
        judge = await _Judge.start(self.memory_mb)
        self._all.append(judge)
        return judge

    async def judge(self, requests: Sequence[dict]) -> list[Verdict]:
        """One verdict per request, in order; an answer that stalls a judge is refused."""
        judge = await self._idle.get()
        verdicts: list[Verdict] = []
        ready = False  # the judge has built the exercises of the requests left
        try:
            for i, request in enumerate(requests):
                if judge is None:
                    judge = await self._fresh()
                    ready = False
                if not ready:
                    try:
                        await judge.prepare(requests[i:])
                    except BaseException:
                        await judge.close()
                        self._all.remove(judge)
                        judge = None
                        raise
                    ready = True
                try:
                    verdicts.append(await judge.ask(request, self.seconds))
                except (TimeoutError, EOFError, ValueError, OSError):
                    await judge.close()
                    self._all.remove(judge)
                    judge = None
                    verdicts.append({
                        "reason": (f"the answer could not be judged within "
                                   f"{self.seconds:g} s and {self.memory_mb} MB (an "
                                   "expression too large to compare?): not accepted"),
                        "invalid": True})
        finally:
            self._idle.put_nowait(judge)
        return verdicts


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    memory = JUDGE_MEMORY_MB
    if "--memory-mb" in args:
        memory = int(args[args.index("--memory-mb") + 1])
    serve(memory)


if __name__ == "__main__":  # pragma: no cover - the judge process
    main()
