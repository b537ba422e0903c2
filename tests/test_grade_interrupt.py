"""The grader's kernel: an interrupt stops the cell it was asked for, and nothing else.

ipykernel interrupts by signalling itself; where the signal lands after the cell's own
code (in ipykernel, or an IPython hook), a plain ipykernel raises ``KeyboardInterrupt``
in its own machinery and never sends the cell's reply, so the grader waited, stopped the
kernel and lost every answer of the notebook (a cell ending just as its time limit
passed did it: 3 of 4 notebooks in one batch). These tests run the grader's kernel
(``python -m course_lib.exercises._kernel``) outside the sandbox, so they need no bwrap.
"""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

pytest.importorskip("ipykernel")


async def _kernel():
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager

    km = AsyncKernelManager()
    km._kernel_spec = KernelSpec(  # noqa: SLF001 - the grader's kernel, as grade.py starts it
        argv=[sys.executable, "-m", "course_lib.exercises._kernel", "-f", "{connection_file}"],
        display_name="grader", language="python", interrupt_mode="message")
    await km.start_kernel()
    kc = km.client()
    kc.start_channels()
    await kc.wait_for_ready(timeout=60)
    return km, kc


async def _reply(kc, msg_id: str, seconds: float) -> dict | None:
    from queue import Empty

    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            msg = await kc.get_shell_msg(timeout=left)
        except Empty:
            return None
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg["content"]
    return None


def _execute(kc, code: str) -> str:
    """Send a cell as the grader's nbclient does (errors allowed: an interrupted cell does
    not make ipykernel abort the cells queued after it)."""
    return kc.execute(code, stop_on_error=False)


def _run(scenario) -> dict:
    async def main() -> dict:
        km, kc = await _kernel()
        try:
            return await scenario(km, kc)
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

    return asyncio.run(main())


def test_an_interrupt_that_arrives_after_the_cells_code_loses_nothing():
    async def scenario(km, kc) -> dict:
        # ipykernel's own step after each cell's code made to take a second: the
        # interrupt lands there, as it does when a cell ends just at its time limit
        setup = _execute(kc, "import time\nk = get_ipython().kernel\nfinish = k.finish_metadata\n"
                           "def slow(*args):\n    time.sleep(1.0)\n    return finish(*args)\n"
                           "k.finish_metadata = slow")
        assert (await _reply(kc, setup, 30))["status"] == "ok"
        late = _execute(kc, "answer = 42")
        await asyncio.sleep(0.5)
        await km.interrupt_kernel()
        first = await _reply(kc, late, 10)
        after = _execute(kc, "answer")
        return {"first": first, "after": await _reply(kc, after, 10)}

    got = _run(scenario)
    assert got["first"] is not None, "the cell's reply was lost"
    assert got["first"]["status"] == "ok", got["first"]
    assert got["after"] is not None and got["after"]["status"] == "ok", got["after"]


def test_an_interrupt_still_stops_a_running_cell():
    async def scenario(km, kc) -> dict:
        slow = _execute(kc, "import time\ntime.sleep(60)")
        await asyncio.sleep(1.0)
        await km.interrupt_kernel()
        start = time.monotonic()
        reply = await _reply(kc, slow, 10)
        return {"reply": reply, "seconds": time.monotonic() - start,
                "next": await _reply(kc, _execute(kc, "1 + 1"), 10)}

    got = _run(scenario)
    assert got["reply"] is not None and got["reply"]["ename"] == "KeyboardInterrupt"
    assert got["seconds"] < 5
    assert got["next"]["status"] == "ok"


def test_a_cell_catching_the_interrupt_in_a_loop_is_not_helped():
    # The guard must not make the kernel easier to stall: a cell that swallows the
    # interrupt keeps running (the grader then stops the kernel, as before).
    async def scenario(km, kc) -> dict:
        stubborn = _execute(kc, "import time\nwhile True:\n    try:\n        time.sleep(5)\n"
                              "    except KeyboardInterrupt:\n        pass")
        await asyncio.sleep(1.0)
        await km.interrupt_kernel()
        return {"reply": await _reply(kc, stubborn, 3)}

    assert _run(scenario)["reply"] is None
