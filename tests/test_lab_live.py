"""Every chapter runs live in the environment ``make lab`` gives an instructor.

``make lab`` serves lab copies of the chapters (``book/_ext/labcopy.py``) from the
virtualenv of ``make install``: ``requirements.txt``, ``course_lib`` and the answer key,
but not ``requirements-warehouse.txt`` (pyspark), which only ``make test`` and
``make test-warehouse`` install. A lab copy has its chapter's code cells unchanged (checked
here), so a chapter whose code names no warehouse package is run in the lab environment
by nbval itself (tests/lab_environment.py refuses those packages in nbval's kernel),
once, with its stored outputs compared. A notebook that names one (chapter 14) has its
lab copy run here, cell by cell, as an instructor who runs all cells in class would, in
a kernel that cannot import the packages the lab environment lacks
(:data:`lab_environment.NOT_IN_LAB`), in the copies' own folder beside their ``data/``.
No cell may raise; chapter 14 says that Spark is missing and shows its DuckDB
reproduction of Spark's numbers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lab_environment
import nbformat
import notebook_tools
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import labcopy  # noqa: E402

CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "book").glob("*.ipynb"))
CELL_TIMEOUT = 300


NOT_IN_LAB = lab_environment.NOT_IN_LAB
#: The notebooks nbval runs with every package of the test environment.
WAREHOUSE = [p.name for p in CHAPTERS if lab_environment.uses_warehouse(p)]

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


def _code(nb) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_a_lab_copy_has_its_chapters_code_beside_the_data(lab, path):
    copy = lab["copies"][path.name]
    assert _code(notebook_tools.load(copy)) == _code(notebook_tools.load(path))
    assert (copy.parent.parent / "data").is_dir()
    assert copy.parent.name == path.parent.name


def test_only_the_warehouse_chapter_needs_the_warehouse_packages():
    """The other notebooks run in the lab environment under nbval; a new notebook that
    names pyspark joins the lab run below (and this list)."""
    assert WAREHOUSE == ["14_warehouse.ipynb"]


#: Printed in a kernel under nbval: whether pyspark imports (its name is not spelled out,
#: so that a notebook of this cell alone names no warehouse package), whether the plugin's
#: finder is installed, whether the plugin left names in the notebook's namespace.
NBVAL_PROBE = """\
import importlib, sys
try:
    importlib.import_module("py" + "spark")
    print("imported")
except ModuleNotFoundError:
    print("refused")
print(any(getattr(f, "__name__", "") == "NotInstalled" for f in sys.meta_path),
      {"NotInstalled", "NOT_INSTALLED"} & set(globals()))
"""


def test_nbval_runs_the_other_notebooks_in_the_lab_environment(tmp_path):
    """The plugin in a run of nbval of its own: in a notebook that names no warehouse
    package pyspark cannot be imported, and the plugin leaves no name in the notebook's
    namespace; a notebook that names pyspark (in a comment here) runs with the test
    environment's packages."""
    import importlib.util

    installed = importlib.util.find_spec("pyspark") is not None
    for name, source, printed in (
            ("plain", NBVAL_PROBE, "refused\nTrue set()\n"),
            ("warehouse", "# pyspark\n" + NBVAL_PROBE,
             f"{'imported' if installed else 'refused'}\nFalse set()\n")):
        cell = nbformat.v4.new_code_cell(source, execution_count=1)
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
        nbformat.write(nbformat.v4.new_notebook(cells=[cell], metadata={"kernelspec": {
            "name": "python3", "display_name": "Python 3", "language": "python"}}),
            tmp_path / f"{name}.ipynb")
    assert not lab_environment.uses_warehouse(tmp_path / "plain.ipynb")
    assert lab_environment.uses_warehouse(tmp_path / "warehouse.ipynb")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "lab_environment", "-p", "no:cacheprovider",
         "-p", "no:xdist", "--nbval", "-q", "plain.ipynb", "warehouse.ipynb"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "2 passed" in proc.stdout, proc.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("name", WAREHOUSE)
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
