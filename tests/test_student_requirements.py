"""The student install, ``requirements-student.txt``: what the chapters, ``check`` and
JupyterLab need, none of the authors' tools.

A student runs ``pip install -r requirements-student.txt .`` in a clone of the repository
(book/how_to_use.md, book/instructors.md). The file pins the whole closure, each package
at the version of ``requirements.txt``, so a student's numbers are the book's. These tests
read the files and this virtualenv's metadata only (no network, no install):

* every pin is exact and equals the pin of ``requirements.txt``;
* the authors' tools (the book's build, the browser tests, the linters, the test runner,
  Spark) are absent;
* every module that a chapter's code or ``course_lib`` imports comes from a distribution
  the file lists, and every listed distribution's own requirements are listed too;
* :func:`course_lib.notebook.glue` writes what :func:`myst_nb.glue` writes, so that the
  chapters glue without myst-nb (which brings Sphinx) and the book still reads the values.

tests/test_student_install.py runs every chapter's student copy in a kernel that imports
``course_lib`` from a wheel.
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import json
import re
import sys
from pathlib import Path

import pytest
from IPython.core.inputtransformer2 import TransformerManager
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
STUDENT = ROOT / "requirements-student.txt"
FULL = ROOT / "requirements.txt"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.ipynb"))

#: Distributions a student install must not hold: the authors' tools.
AUTHORS_TOOLS = re.compile(
    r"^(jupyter-book|sphinx.*|pydata-sphinx-theme|myst-nb|myst-parser|docutils|jupyter-cache"
    r"|playwright|mypy|ruff|pytest.*|hypothesis|nbval|coverage|pyspark|py4j)$")

#: Top-level modules imported by the chapters or course_lib that a student install lacks
#: on purpose: the instructor-only answer key, Spark (requirements-warehouse.txt; chapter
#: 14 runs without it) and the book's lab-copy tool (book/_ext/labcopy.py, read by
#: ``make student-notebooks`` in the instructor's repository).
NOT_FOR_STUDENTS = {"course_key", "pyspark", "labcopy"}


def canonical(name: str) -> str:
    """A distribution's name as pip compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """``canonical name -> the requirement line`` of a requirements file."""
    lines = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines[canonical(Requirement(line).name)] = line
    return lines


def imported_modules(source: str) -> set[str]:
    """The top-level modules imported by Python source (relative imports left out)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def chapter_imports() -> dict[str, set[str]]:
    """``module -> notebooks`` for every import of a code cell of the book's notebooks."""
    ipython = TransformerManager()  # %magics and !shell lines become Python
    found: dict[str, set[str]] = {}
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = ipython.transform_cell("".join(cell["source"]))
                for name in imported_modules(source):
                    found.setdefault(name, set()).add(path.name)
    return found


def library_imports() -> dict[str, set[str]]:
    """``module -> files`` for every import of course_lib's modules."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "course_lib").rglob("*.py")):
        for name in imported_modules(path.read_text(encoding="utf-8")):
            found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def third_party(found: dict[str, set[str]]) -> dict[str, set[str]]:
    return {name: where for name, where in found.items()
            if name not in sys.stdlib_module_names and name != "course_lib"
            and name not in NOT_FOR_STUDENTS}


def test_pins_are_exact_and_those_of_requirements_txt():
    student, full = pins(STUDENT), pins(FULL)
    assert student, "requirements-student.txt lists nothing"
    loose = [line for line in student.values() if not re.fullmatch(r"[A-Za-z0-9._-]+==[^=<>~!,;\s]+", line)]
    assert loose == [], "pin each package exactly, name==version"
    differ = {name: (line, full[name]) for name, line in student.items()
              if name in full and Requirement(line).specifier != Requirement(full[name]).specifier}
    assert differ == {}, "requirements-student.txt and requirements.txt pin other versions"
    unknown = sorted(set(student) - set(full))
    assert unknown == [], "a student package that requirements.txt does not pin"


def test_no_authors_tools():
    tools = sorted(name for name in pins(STUDENT) if AUTHORS_TOOLS.match(name))
    assert tools == []


def test_the_lab_and_its_kernel_are_listed():
    student = pins(STUDENT)
    for name in ("jupyterlab", "ipykernel", "jupyterlab-myst"):  # the copies' MyST renders in Lab
        assert name in student


def test_the_chapters_imports_are_listed():
    """Every module a chapter's code cell imports comes from a listed distribution."""
    found = chapter_imports()
    assert {"numpy", "course_lib", "pandas"} <= set(found)  # the scan reads the cells
    _assert_listed(third_party(found))


def test_the_librarys_imports_are_listed():
    """Every module course_lib imports (the grader's too) comes from a listed distribution."""
    found = library_imports()
    assert {"numpy", "sympy"} <= set(found)
    _assert_listed(third_party(found))


def _assert_listed(found: dict[str, set[str]]) -> None:
    student = pins(STUDENT)
    providers = md.packages_distributions()
    missing = {}
    for module, where in sorted(found.items()):
        dists = {canonical(d) for d in providers.get(module, [])}
        if not dists & set(student):
            missing[module] = (sorted(dists) or "not installed here", sorted(where)[:3])
    assert missing == {}, "imported, but its distribution is not in requirements-student.txt"


def test_the_closure_is_complete():
    """What each listed distribution (and course_lib) requires is listed too, so that pip
    installs nothing unpinned. Read from this virtualenv's metadata: requirements.txt
    pins the same versions."""
    student = pins(STUDENT)
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies\s*=\s*\[(.*?)\]", project, re.M | re.S)
    assert dependencies is not None
    wanted = {canonical(Requirement(d).name): "course_lib"
              for d in re.findall(r'"([^"]+)"', dependencies[1])}
    for name in student:
        for line in md.requires(name) or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                wanted.setdefault(canonical(requirement.name), name)
    missing = {name: by for name, by in wanted.items() if name not in student}
    assert missing == {}, "required (by the named package) but not in requirements-student.txt"


def test_glue_writes_what_myst_nb_writes(monkeypatch):
    """course_lib.notebook.glue needs IPython only; its output is myst-nb's, which the
    book's build reads (myst-nb is a book tool, not in the student install)."""
    from fractions import Fraction

    import IPython.display
    import myst_nb.ext.glue as myst_glue
    import pandas as pd

    from course_lib.notebook import GLUE_PREFIX, glue, round_significant

    assert GLUE_PREFIX == myst_glue.GLUE_PREFIX
    shown: list[tuple[tuple, dict]] = []

    def record(*args, **kwargs):
        shown.append((args, kwargs))

    monkeypatch.setattr(IPython.display, "display", record)
    monkeypatch.setattr(myst_glue, "ipy_display", record)
    values = [2 / 3, Fraction(19, 24), "text", 7, pd.DataFrame({"auc": [1 / 3, 0.5]})]
    for display in (False, True):
        for value in values:
            shown.clear()
            glue("name", value, display=display)
            myst_glue.glue("name", round_significant(value), display=display)
            assert len(shown) == 2
            assert shown[0] == shown[1]
            assert shown[0][0][0], "something is glued"


@pytest.mark.parametrize("path", [STUDENT, ROOT / "book" / "how_to_use.md", ROOT / "book" / "instructors.md"])
def test_the_student_command_is_documented(path):
    text = path.read_text(encoding="utf-8")
    assert "pip install -r requirements-student.txt ." in text
