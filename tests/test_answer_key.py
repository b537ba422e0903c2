"""No answer in the student's reach: the answer key is a separate, instructor-only package.

The student build of the library (`pip install .` at the repository root) holds
``course_lib`` alone; the references, worked solutions, mistakes, hidden cases and
variants live in ``course_key`` (``key/``). Without the key, ``course_lib.exercises``
still imports, a student copy's sealed ``check`` still works, and the two lines that read
every answer out of the library fail. (That the grader's sandboxed kernel cannot import or
read the key is tested with the grader.)
"""

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_student_build_holds_course_lib_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = project["tool"]["setuptools"]["packages"]
    assert all(p == "course_lib" or p.startswith("course_lib.") for p in packages)
    key = tomllib.loads((ROOT / "key" / "pyproject.toml").read_text())
    assert key["tool"]["setuptools"]["packages"] == ["course_key"]


def test_no_module_of_course_lib_defines_an_exercise():
    for path in (ROOT / "course_lib").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("value_exercise", "function_exercise",
                                            "with_variants") or path.name == "sealed.py", (
                    f"{path.relative_to(ROOT)} builds an exercise")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                if any(n.startswith("course_key") for n in names):
                    # only the lazy loader of course_lib.exercises may name the key
                    assert path == ROOT / "course_lib" / "exercises" / "__init__.py", path
    assert not list((ROOT / "course_lib").rglob("ch[0-9][0-9].py"))


STUDENT = r'''
import sys
sys.modules["course_key"] = None          # as in a student install: no answer key
import course_lib.exercises as ce
from course_lib.exercises import SealedCheck, check
try:
    for ex in ce.exercises_for(2):
        globals()[ex.answer_name] = ex.solution
except ImportError as exc:
    print("REFUSED", type(exc).__name__, "instructor-only" in str(exc))
try:
    check("auc-pairs-table1", "19/24")
except ImportError as exc:
    print("CHECK NEEDS THE COPY'S CELL", "run that cell" in str(exc))
sealed = SealedCheck(KEY)
print("SEALED", sealed("auc-pairs-table1", "19/24").passed, sealed("auc-pairs-table1", 0.5).passed)
print("LEFT", [k for k in globals() if k in ("point_02", "vertices", "auc_table1")])
'''


def test_without_the_key_the_answers_cannot_be_read_but_check_works():
    from course_lib.exercises import get
    from course_lib.exercises.sealed import seal_key

    key = seal_key([get("auc-pairs-table1")])
    code = f"KEY = {key!r}\n" + STUDENT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "REFUSED AnswerKeyMissing True" in lines
    assert "CHECK NEEDS THE COPY'S CELL True" in lines
    assert "SEALED True False" in lines
    assert "LEFT []" in lines


LAZY = r'''
import sys
from fractions import Fraction
from course_lib.exercises import check, exercises_for
print("CHECKED", check("auc-pairs-table1", Fraction(19, 24)).passed)
print("CHAPTER", len(exercises_for(3)))
print("READ", sorted(m for m in sys.modules if m.startswith("course_key.ch")))
print("SYMPY", "sympy" in sys.modules)
'''


def test_checking_a_chapter_reads_no_later_chapter_of_the_key():
    """A kernel that checks an answer of chapter 3 imports the key's chapters 1 to 3, not
    chapter 10's (sympy and its integrals: about a second of every kernel and grader)."""
    out = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True,
                         timeout=120, cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "CHECKED True", "CHAPTER 7",
        "READ ['course_key.ch01', 'course_key.ch02', 'course_key.ch03']", "SYMPY False"]


def test_the_registry_is_the_chapters_in_book_order_and_refuses_a_duplicate(monkeypatch):
    import types

    import pytest

    import course_key
    from course_lib.exercises import REGISTRY, exercises_for, get

    chapters = [ex for n in course_key.CHAPTERS for ex in exercises_for(n)]
    assert list(REGISTRY.values()) == chapters and len(REGISTRY) == len(chapters) >= 100
    assert "auc-pairs-table1" in REGISTRY and "no-such-exercise" not in REGISTRY
    with pytest.raises(ValueError, match="unknown exercise id 'no-such-exercise'"):
        get("no-such-exercise")

    first, second = exercises_for(1)[:2]
    stray = exercises_for(3)[0]
    modules = {"course_key.ch01": [first, second], "course_key.ch02": [first]}
    monkeypatch.setattr(course_key, "CHAPTERS", (1, 2))
    monkeypatch.setattr(course_key, "import_module",
                        lambda name: types.SimpleNamespace(EXERCISES=modules[name]))
    registry = course_key._Registry()
    assert registry[second.id] is second  # chapter 1 alone is read
    with pytest.raises(RuntimeError, match=f"duplicate exercise id {first.id!r}"):
        len(registry)
    modules["course_key.ch02"] = [stray]
    with pytest.raises(RuntimeError, match="of chapter 3 is in the module of chapter 2"):
        len(course_key._Registry())
