"""nbval runs the chapters in the environment ``make lab`` gives an instructor.

``make lab`` serves lab copies of the chapters from the virtualenv of ``make install``:
``requirements.txt``, ``course_lib`` and the answer key, but not
``requirements-warehouse.txt`` (pyspark), which only ``make test`` and
``make test-warehouse`` install. The test environment has everything, so a chapter that
imported pyspark without saying so would pass nbval and fail in class.

This plugin (registered by ``tests/conftest.py``, so active in ``make test``; ``-p
lab_environment`` elsewhere) closes that gap without running the chapters twice: in the
kernel nbval starts for a notebook, before its first cell, the packages the lab lacks
(:data:`NOT_IN_LAB`) are made impossible to import, as if not installed, unless the
notebook's code names one of them (:func:`uses_warehouse`: chapter 14, whose stored
outputs are Spark's). A lab copy has the chapter's code cells unchanged
(``book/_ext/labcopy.py``, checked by tests/test_lab_live.py), and nbval compares every
stored output, so a chapter that passes here runs in the lab as it does in the book.
tests/test_lab_live.py runs the lab copies of the notebooks exempted here in a kernel of
the lab environment.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from nbval.plugin import IPyNbFile
from notebook_tools import NOT_INSTALLED_FINDER

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60


def requirement_names(path: Path) -> set[str]:
    """The names of the packages a pip requirements file installs."""
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[<>=!~\[; ]", line)[0].lower().replace("_", "-"))
    return names


#: What the test environment has and ``make lab``'s does not: the warehouse file's
#: packages, minus those requirements.txt installs anyway.
NOT_IN_LAB = tuple(sorted(
    requirement_names(ROOT / "requirements-warehouse.txt")
    - requirement_names(ROOT / "requirements.txt")))

_ALTERNATIVES = "|".join(re.escape(n.replace("-", "_")) for n in NOT_IN_LAB)
_NAMES = re.compile(rf"\b(?:{_ALTERNATIVES})\b")

#: Run silently in a kernel: the finder of notebook_tools, in a namespace of its own (the
#: notebook's namespace gets no ``sys`` it did not import).
REFUSE = (f"exec({NOT_INSTALLED_FINDER!r}, "
          f"{{'__name__': 'lab_environment', 'NOT_INSTALLED': {NOT_IN_LAB!r}}})")


def uses_warehouse(path: Path) -> bool:
    """Whether a notebook's code names a package of :data:`NOT_IN_LAB`."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return any(_NAMES.search("".join(c["source"])) for c in cells if c["cell_type"] == "code")


def refuse_in(kernel) -> None:
    """Run :data:`REFUSE` in nbval's kernel (``RunningKernel``) without a trace in the
    notebook: no execution count, no output; raise if it fails."""
    kc = kernel.kc
    msg_id = kc.execute(REFUSE, silent=True, store_history=False, allow_stdin=False)
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    kernel.await_idle(msg_id, TIMEOUT)
    content = reply["content"]
    if content["status"] != "ok":
        raise RuntimeError(f"the lab environment could not be set up: {content.get('evalue')}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield
    if not isinstance(item.parent, IPyNbFile):
        return
    kernel = item.parent.kernel  # started by the notebook's setup, before its first cell
    if kernel is None or getattr(kernel, "lab_environment", None) is not None:
        return
    kernel.lab_environment = not uses_warehouse(Path(str(item.parent.fspath)))
    if kernel.lab_environment:
        refuse_in(kernel)
