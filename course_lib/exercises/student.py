"""Student copies of the chapters: ``python -m course_lib.exercises.student``.

::

    python -m course_lib.exercises.student notebooks/*.ipynb --out-dir _build/student

(``make student-notebooks`` runs exactly this.) A student copy is the chapter with every
output cleared and every solution block replaced by one answer cell. A solution block is
the markdown cell starting with ``{solution-start} <id>``, everything after it, and the
markdown cell starting with ``{solution-end}``: the worked solution's prose and its code
cell (tagged ``solution``) go, and in their place comes a code cell tagged ``answer``::

    auc_table1 = ...  # your answer
    check("auc-pairs-table1", auc_table1)

Any other code cell tagged ``solution`` is dropped too. The exercise blocks (the
questions) stay. The copy records its chapter in ``metadata.course.chapter``, which the
grader (:mod:`course_lib.exercises.grade`) reads. Copies are deterministic: the same
chapter always gives the same bytes.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat

from course_lib.exercises import get

__all__ = ["answer_cell", "chapter_of", "student_copy", "write_student_copies", "main"]

_FENCE = r"^\s*(?:`{3,}|:{3,})\s*"
SOLUTION_START = re.compile(_FENCE + r"\{solution-start\}\s+(?P<id>\S+)")
SOLUTION_END = re.compile(_FENCE + r"\{solution-end\}")


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def chapter_of(nb: Any, name: str = "") -> int | None:
    """The chapter of a notebook: ``metadata.course.chapter``, else the file's ``NN_``.

    >>> chapter_of({"metadata": {}}, "notebooks/13_problems.ipynb")
    13
    """
    from course_lib.exercises.grade import notebook_chapter

    return notebook_chapter(nb, name)


def answer_cell(exercise_id: str) -> Any:
    """The code cell a student copy shows in place of an exercise's solution.

    >>> from course_lib.exercises import REGISTRY
    >>> ex = next(iter(REGISTRY.values()))
    >>> cell = answer_cell(ex.id)
    >>> cell.metadata["tags"], cell.metadata["exercise"] == ex.id
    (['answer'], True)
    """
    ex = get(exercise_id)
    source = f"{ex.stub}\ncheck({json.dumps(ex.id)}, {ex.answer_name})"
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata = nbformat.NotebookNode({"tags": ["answer"], "exercise": ex.id})
    cell.id = ("answer-" + re.sub(r"[^A-Za-z0-9_-]", "-", ex.id))[:64]
    return cell


def student_copy(nb: Any, *, chapter: int | None = None, name: str = "") -> Any:
    """A student copy of notebook ``nb`` (not modified): solutions out, stubs in.

    Parameters
    ----------
    nb : a notebook (``nbformat`` v4 node)
    chapter : the chapter to record; default :func:`chapter_of` (metadata, file name)
    name : the notebook's file name, for the chapter and for error messages

    Raises
    ------
    ValueError
        On a ``solution-start`` without its ``solution-end``, an end without a start, or
        an exercise id unknown to the registry.
    """
    chapter = chapter if chapter is not None else chapter_of(nb, name)
    out = copy.deepcopy(nb)
    cells: list[Any] = []
    open_id: str | None = None
    for index, cell in enumerate(nb.cells):
        text = _source(cell) if cell.get("cell_type") == "markdown" else ""
        start = SOLUTION_START.match(text)
        if start:
            if open_id is not None:
                raise ValueError(f"{name}: cell {index + 1} opens a solution of "
                                 f"{start['id']!r} inside the solution of {open_id!r}")
            open_id = start["id"]
            try:
                cells.append(answer_cell(open_id))
            except ValueError:
                raise ValueError(f"{name}: cell {index + 1}: unknown exercise "
                                 f"{open_id!r}") from None
            continue
        if SOLUTION_END.match(text):
            if open_id is None:
                raise ValueError(f"{name}: cell {index + 1}: solution-end without a start")
            open_id = None
            continue
        if open_id is not None or "solution" in _tags(cell):
            continue
        new = copy.deepcopy(cell)
        if new.get("cell_type") == "code":
            new["outputs"] = []
            new["execution_count"] = None
        new.get("metadata", {}).pop("execution", None)
        cells.append(new)
    if open_id is not None:
        raise ValueError(f"{name}: the solution of {open_id!r} has no solution-end")
    out.cells = cells
    out.metadata.pop("widgets", None)
    if chapter is not None:
        out.metadata["course"] = {**dict(out.metadata.get("course", {})), "chapter": chapter}
    return out


def write_student_copies(paths: Sequence[Path | str], out_dir: Path | str) -> list[Path]:
    """Write the student copy of each notebook into ``out_dir`` (same file names)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in map(Path, paths):
        nb = nbformat.read(path, as_version=4)
        copy_ = student_copy(nb, name=path.name)
        target = out_dir / path.name
        nbformat.write(copy_, target)
        written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m course_lib.exercises.student",
        description="Write student copies of chapter notebooks (solutions replaced by stubs).")
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--out-dir", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        written = write_student_copies(args.notebooks, args.out_dir)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
