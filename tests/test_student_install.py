"""Student copies run where students run them: a student install, without the repository.

A student clones the repository and runs ``pip install -r requirements-student.txt .``: that
installs ``course_lib`` (a wheel, not the source folder) and never the instructor-only
``course_key``; the grader's sandbox likewise sees only a copy of the installed package.
Here the package is built as a wheel from a copy of its sources (so that nothing is
written into the working tree), unpacked into a folder, and every chapter's student
copy is executed, cell by cell, in a kernel that

* imports ``course_lib`` from that folder only (the editable install of the repository's
  virtualenv is switched off in the kernel, and no ``book/`` folder lies beside the
  package),
* cannot import ``course_key`` (a finder refuses it, as an absent package would),
* runs in a folder outside the repository (the copies' own ``notebooks/`` beside their
  ``data/``).

The copies are per-student copies (one roster of one student), in each of the three
feedback modes in turn, so that every kind of ``check`` cell runs. No cell may raise,
including chapter 14's Spark cell: pyspark (with Java) is in
``requirements-warehouse.txt``, not in a student install, so the kernel here cannot
import it (:data:`NOT_INSTALLED`), and the chapter shows its DuckDB reproduction of
Spark's areas with a note instead.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import nbformat
import notebook_tools
import pytest

from course_lib.exercises import student
from course_lib.exercises.sealed import FEEDBACK_MODES

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
STUDENT = "zoe"
SECRET = "install test secret"
CELL_TIMEOUT = 300
#: Packages a student install lacks although the test environment has them.
NOT_INSTALLED = ("course_key", "pyspark")

#: Started in place of ``python -m ipykernel_launcher``: the kernel of a student install.
BOOT = '''\
import importlib.util
import runpy
import sys

WHEEL = {wheel!r}
REPO = {repo!r}


def _editable(finder):
    names = (getattr(finder, "__module__", ""), type(finder).__module__)
    return any("__editable__" in str(n) for n in names)


NOT_INSTALLED = {not_installed!r}
{finder}
sys.meta_path[:] = [f for f in sys.meta_path if not _editable(f)]
sys.path_hooks[:] = [h for h in sys.path_hooks if not _editable(h)]
# the virtualenv's site-packages stay (numpy, ipykernel, ...), even inside the repository
sys.path[:] = [WHEEL] + [p for p in sys.path if p and "__editable__" not in p and (
    not p.startswith(REPO) or p.startswith((sys.prefix, sys.base_prefix)))]
sys.path_importer_cache.clear()
for name in [m for m in sys.modules if m.split(".")[0] == "course_lib"]:
    del sys.modules[name]
sys.argv = ["ipykernel_launcher", *sys.argv[1:]]
runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
'''

#: Run first in every kernel: proves where the library comes from.
PROBE = '''\
import importlib, pathlib, course_lib, course_lib.interactive as _i
_pkg = pathlib.Path(course_lib.__file__).resolve().parent
assert str(_pkg).startswith({wheel!r}), _pkg
assert not (_pkg.parent / "book").exists()
assert _i.MODULE_PATH.is_file() and _i.STYLE_PATH.is_file(), _i.MODULE_PATH
try:
    importlib.import_module("course_key")
except ImportError:
    pass
else:
    raise AssertionError("the answer key is importable")
del _pkg, _i
'''


@pytest.fixture(scope="module")
def install(tmp_path_factory):
    """A wheel of course_lib unpacked into a folder, a kernel boot script, and the
    student copies of every chapter."""
    tmp = tmp_path_factory.mktemp("student_install")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "course_lib", src / "course_lib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    wheels = tmp / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--disable-pip-version-check", str(src),
                    "-w", str(wheels)], check=True, cwd=tmp)
    (wheel,) = wheels.glob("course_lib-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(tmp / "site")
    assert "course_lib/_static/threshold-explorer.js" in names
    assert "course_lib/_static/threshold-explorer.css" in names
    assert not any(n.startswith(("course_key/", "book/")) for n in names)
    site = str((tmp / "site").resolve())
    boot = tmp / "boot.py"
    boot.write_text(BOOT.format(wheel=site, repo=str(ROOT), not_installed=NOT_INSTALLED,
                                finder=notebook_tools.NOT_INSTALLED_FINDER),
                    encoding="utf-8")
    copies = {}
    for i, path in enumerate(CHAPTERS):
        mode = FEEDBACK_MODES[i % len(FEEDBACK_MODES)]
        (written,) = student.write_student_copies(
            [path], tmp / "copies" / mode, students=[STUDENT], secret=SECRET, feedback=mode)
        copies[path.name] = written
    return {"site": site, "boot": boot, "copies": copies}


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.name for p in CHAPTERS])
def test_every_cell_of_a_student_copy_runs_in_a_student_install(install, name):
    path = install["copies"][name]
    nb = nbformat.read(path, as_version=4)
    assert path.parent.name == "notebooks" and (path.parent.parent / "data").is_dir()
    assert not str(path.resolve()).startswith(str(ROOT))
    probe = nbformat.v4.new_code_cell(PROBE.format(wheel=install["site"]))
    nb.cells.insert(0, probe)
    code = [c for c in nb.cells if c.cell_type == "code"]
    notebook_tools.execute(nb, path.parent, install["boot"], timeout=CELL_TIMEOUT)
    assert not notebook_tools.errors(nb)
    if name.startswith("14_"):
        text = notebook_tools.printed(nb)
        assert "pyspark is not installed here" in text and "DuckDB reproduction" in text
    assert all(c.execution_count is not None for c in code)


def test_the_kernel_boot_script_switches_off_the_repository(install, tmp_path):
    """The boot script's own effect, checked without a kernel: in a fresh interpreter
    with its path set up as the boot script sets it, course_lib comes from the wheel and
    course_key is refused."""
    script = install["boot"].read_text(encoding="utf-8").split("sys.argv = ")[0]
    check = textwrap.dedent('''
        import course_lib, importlib
        print(course_lib.__file__)
        try:
            importlib.import_module("course_key")
            print("key importable")
        except ImportError:
            print("no key")
    ''')
    out = subprocess.run([sys.executable, "-c", script + check], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0].startswith(install["site"]) and out[1:] == ["no", "key"]
