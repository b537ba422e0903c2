"""Every chapter runs live in the environment ``make lab`` gives an instructor.

``make lab`` serves lab copies of the chapters (``book/_ext/labcopy.py``) from the
virtualenv of ``make install``: ``requirements.txt``, ``course_lib`` and the answer key,
but not ``requirements-warehouse.txt`` (pyspark), which only ``make test`` and
``make test-warehouse`` install. nbval compares the chapters' stored outputs in the test
environment, which has pyspark; here each lab copy is run cell by cell, as an instructor
who runs all cells in class would, in a kernel that cannot import the packages the lab
environment lacks (:data:`NOT_IN_LAB`), in the copies' own folder beside their ``data/``.
No cell may raise; chapter 14 says that Spark is missing and shows its DuckDB
reproduction of Spark's numbers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import notebook_tools
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import labcopy  # noqa: E402

CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "book").glob("*.ipynb"))
CELL_TIMEOUT = 300


def _requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[<>=!~\[; ]", line)[0].lower().replace("_", "-"))
    return names


#: What the test environment has and ``make lab``'s does not: the warehouse file's
#: packages, minus those requirements.txt installs anyway.
NOT_IN_LAB = tuple(sorted(
    _requirement_names(ROOT / "requirements-warehouse.txt")
    - _requirement_names(ROOT / "requirements.txt")))

BOOT = '''\
import runpy

NOT_INSTALLED = {not_installed!r}
{finder}
sys.argv = ["ipykernel_launcher", *sys.argv[1:]]
runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
'''


def test_the_lab_environment_is_requirements_txt_without_the_warehouse_file():
    assert "pyspark" in NOT_IN_LAB and "duckdb" not in NOT_IN_LAB, NOT_IN_LAB
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    lab_rule = makefile[makefile.index("\nlab:"):].split("\n\n")[0]
    assert "WAREHOUSE_STAMP" not in lab_rule and "requirements-warehouse" not in lab_rule


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lab copies of every chapter and page notebook, written as ``make lab`` writes
    them, and the boot script of a kernel of the lab environment."""
    out = tmp_path_factory.mktemp("lab")
    copies = {path.name: copy for path, copy in zip(
        CHAPTERS, labcopy.write_lab_copies(out, CHAPTERS))}
    boot = out / "boot.py"
    boot.write_text(BOOT.format(not_installed=NOT_IN_LAB,
                                finder=notebook_tools.NOT_INSTALLED_FINDER),
                    encoding="utf-8")
    return {"copies": copies, "boot": boot}


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.name for p in CHAPTERS])
def test_every_cell_of_a_lab_copy_runs_in_the_lab_environment(lab, name):
    path = lab["copies"][name]
    nb = nbformat.read(path, as_version=4)
    probe = nbformat.v4.new_code_cell(
        "try:\n    import pyspark\nexcept ModuleNotFoundError:\n    pass\n"
        "else:\n    raise AssertionError('pyspark is importable')\n")
    nb.cells.insert(0, probe)
    notebook_tools.execute(nb, path.parent, lab["boot"], timeout=CELL_TIMEOUT)
    assert not notebook_tools.errors(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    if name.startswith("14_"):
        text = notebook_tools.printed(nb)
        assert "pyspark is not installed here" in text and "DuckDB reproduction" in text
