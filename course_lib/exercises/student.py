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

The copy reads as the book prints it, in JupyterLab with jupyterlab-myst: its markdown
goes through the same function as ``make lab``'s lab copies (``page_copy`` of
``book/_ext/labcopy.py``), so every ``{glue}``, ``{cite}``, ``{numref}``, ``{ref}``,
``{doc}`` and ``{term}`` role becomes the book's text (the glued values are those the
chapter stored, read before its outputs are cleared), and each exercise becomes an
admonition numbered as in the book, "Exercise 2.1 (title)", ending with the variable of
its answer (:func:`answer_note`). The book's sentence that the worked solutions are
folded under each exercise is reworded (:func:`student_wording`). The copies are made
from the repository (they read ``book/references.bib`` and the other pages).
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

from course_lib.exercises import get

__all__ = ["answer_cell", "answer_note", "book_index", "chapter_of", "student_copy",
           "student_wording", "write_student_copies", "main"]

ROOT = Path(__file__).resolve().parents[2]
LABCOPY = ROOT / "book" / "_ext" / "labcopy.py"

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


def _labcopy() -> ModuleType:
    """``book/_ext/labcopy.py``, the one implementation of the book's text in Jupyter."""
    if "labcopy" in sys.modules:
        return sys.modules["labcopy"]
    if not LABCOPY.is_file():
        raise ValueError(f"student copies are made from the book's repository: "
                         f"{LABCOPY} is missing")
    if str(LABCOPY.parent) not in sys.path:
        sys.path.insert(0, str(LABCOPY.parent))
    import labcopy

    return labcopy


_INDEXES: dict[tuple[Any, ...], Any] = {}


def book_index(root: Path | str = ROOT) -> Any:
    """What the copies need of the whole book (bibliography, figure numbers, section
    titles): pass it to :func:`student_copy` when making many copies. Read again only
    when one of the book's files has changed since the last call."""
    root = Path(root).resolve()
    files = sorted([root / "book" / "references.bib", *root.glob("notebooks/*.ipynb"),
                    *root.glob("book/*.ipynb"), *root.glob("book/*.md")])
    stamp = (root, *((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files
                     if f.is_file()))
    if stamp not in _INDEXES:
        _INDEXES.clear()
        _INDEXES[stamp] = _labcopy().BookIndex.read(root)
    return _INDEXES[stamp]


def answer_note(exercise_id: str) -> str:
    """The line under an exercise of a student copy that names its answer.

    >>> answer_note("auc-pairs-table1")
    '**Your answer:** `auc_table1`, in the code cell below.'
    >>> answer_note("auc-pairs-function")
    '**Your answer:** a function `auc_pairs(y_true, y_score)`, in the code cell below.'
    """
    ex = get(exercise_id)
    if ex.kind == "function":
        signature = ex.function.signature if ex.function is not None else ""
        return f"**Your answer:** a function `{ex.answer_name}({signature})`, in the code cell below."
    return f"**Your answer:** `{ex.answer_name}`, in the code cell below."


#: The book's sentence about its folded solutions (with chapter 13's tail), which a
#: student copy replaces by what a student does instead.
FOLDED = re.compile(r"The\s+worked\s+solutions\s+are\s+folded\s+under\s+each\s+exercise"
                    r"(?:,[^.]*)?\.")
INSTEAD = "Write each answer in the code cell under its exercise and run the cell."


def student_wording(markdown: str) -> str:
    """A chapter's markdown as a student copy says it: no folded solutions.

    >>> student_wording("It says so. The worked solutions are folded under each\\n"
    ...                 "exercise, and each ends with the check passing.")
    'It says so. Write each answer in the code cell under its exercise and run the cell.'
    """
    return FOLDED.sub(INSTEAD, markdown)


def _as_the_book_prints(out: Any, source: Any, *, chapter: int | None, name: str,
                        book: Any) -> Any:
    """The markdown of the copy ``out`` as the book prints it (see the module docstring);
    the glued values come from ``source``, the chapter with its outputs."""
    lab = _labcopy()
    index = book_index() if book is None else book
    chapters = (index.root / "notebooks").resolve()
    path = chapters / (Path(name).name or "chapter.ipynb")
    try:
        page = lab.page_copy(
            out, path, index=index, image_dir=None, glue=lab.glue_values(source),
            chapter=chapter, exercise_note=answer_note,
            # the copies are written side by side: a chapter links to a chapter
            linked=lambda page: page.resolve().parent == chapters)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
    readable = nbformat.from_dict(page)
    for cell in readable.cells:
        if cell.get("cell_type") == "markdown":
            cell["source"] = student_wording(_source(cell))
    return readable


def student_copy(nb: Any, *, chapter: int | None = None, name: str = "",
                 book: Any = None) -> Any:
    """A student copy of notebook ``nb`` (not modified): solutions out, stubs in.

    Parameters
    ----------
    nb : a notebook (``nbformat`` v4 node)
    chapter : the chapter to record; default :func:`chapter_of` (metadata, file name)
    name : the notebook's file name, for the chapter and for error messages
    book : :func:`book_index` (read now when None; pass it when making many copies)

    Raises
    ------
    ValueError
        On a ``solution-start`` without its ``solution-end``, an end without a start, an
        exercise id unknown to the registry, or a role the book's text cannot resolve.
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
    return _as_the_book_prints(out, nb, chapter=chapter, name=name, book=book)


def write_student_copies(paths: Sequence[Path | str], out_dir: Path | str) -> list[Path]:
    """Write the student copy of each notebook into ``out_dir`` (same file names)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    book = book_index()
    written = []
    for path in map(Path, paths):
        nb = nbformat.read(path, as_version=4)
        copy_ = student_copy(nb, name=path.name, book=book)
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
