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


Before the first answer cell comes one cell that defines ``check`` from a *sealed key*
(:mod:`course_lib.exercises.sealed`): salted hashes of the accepted and of the typical
wrong answers, and public cases for functions, never an answer. So a copy gives instant
feedback on a machine without the instructor-only answer key.

How much ``check`` tells is chosen with ``--feedback`` (recorded in
``metadata.course.feedback``): ``full`` (the default, for practice) gives the hints of the
likely mistakes and the per-part detail; ``verdict`` (graded homework) says only right or
not right, and its key holds no hint and no hash of a wrong answer; ``none`` (exams) says
only that the answer is recorded, and its key holds no hash at all
(:mod:`course_lib.exercises.sealed`).

The copies go to ``OUT/notebooks/`` with the data they read in ``OUT/data/``.
Per-student copies (``--roster roster.csv --secret-file class.secret``): each student
gets such a folder ``OUT/<student>/`` with copies whose exercises that have variants show
data drawn from the student's seed (:mod:`course_lib.exercises.seeds`). The copy never
holds that seed, nor anything it can be computed from (with the public answer key it
would give every answer of the variant): ``metadata.course.variant`` records the student
and the copy's id (:func:`~course_lib.exercises.seeds.copy_id`), and the salts of its
sealed key are derived from that id. The grader recomputes the seed from the secret and
the submitted file's name. The roster is a CSV file with a column ``student``: the id
each student's submission will be named by (``alice.ipynb``). The secret file is created
(random, readable by its owner only) when it does not exist.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

from course_lib.exercises import get
from course_lib.exercises._common import notebook_chapter, read_secret
from course_lib.exercises._core import Exercise
from course_lib.exercises.sealed import FEEDBACK_MODES
from course_lib.exercises.seeds import copy_id, exercise_seed, normalize_student, student_seed

__all__ = ["answer_cell", "answer_note", "answer_parts", "book_index", "chapter_of", "check_cell",
           "read_roster", "read_secret", "student_copy", "student_exercises",
           "student_wording", "write_student_copies", "main"]

ROOT = Path(__file__).resolve().parents[2]
LABCOPY = ROOT / "book" / "_ext" / "labcopy.py"
EXERCISE_START = re.compile(r"^(?P<fence>\s*(?:`{3,}|:{3,}))\s*\{exercise\}[^\n]*\n"
                            r"(?P<options>(?:\s*:[\w-]+:[^\n]*\n)*)")
_LABEL = re.compile(r":label:\s*(?P<id>\S+)")
_STUDENT_ID = re.compile(r"^[\w][\w.@+-]*$")

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


def student_exercises(chapter: int, seed: str | None = None) -> dict[str, Exercise]:
    """The exercises of a chapter as one student sees them: id -> the book's exercise,
    or its variant for the student's ``seed`` (:func:`~course_lib.exercises.seeds.student_seed`).

    >>> book = student_exercises(3)
    >>> mine = student_exercises(3, "0" * 32)
    >>> book["auc-pairs-table1"].question != mine["auc-pairs-table1"].question
    True
    """
    from course_lib.exercises import exercises_for

    return {ex.id: (ex if seed is None else ex.variant(exercise_seed(seed, ex.id)))
            for ex in exercises_for(chapter)}


#: The comment over the sealed key of a copy, by feedback mode.
KEY_COMMENT = {
    "full": "# The checks of this copy: salted hashes of the accepted and of the typical\n"
            "# wrong answers, never an answer. Run this cell before your answers.\n",
    "verdict": "# The checks of this copy: salted hashes of the accepted answers, never an\n"
               "# answer; check says right or not right, without hints. Run this cell\n"
               "# before your answers.\n",
    "none": "# check records your answers; it does not say whether they are right (they\n"
            "# are judged when your notebook is graded). Run this cell before your answers.\n",
}


def check_cell(exercises: Sequence[Exercise], salt_seed: str = "book",
               feedback: str = "full") -> Any:
    """The cell that defines ``check`` in a student copy, from a sealed key (its salts
    derived from ``salt_seed``, so that a copy is deterministic; ``feedback`` is one of
    :data:`~course_lib.exercises.sealed.FEEDBACK_MODES`)."""
    from course_lib.exercises.sealed import seal_key

    key = seal_key(exercises, salt_seed=salt_seed, feedback=feedback)
    source = (KEY_COMMENT[feedback] + "from course_lib.exercises import SealedCheck\n\n"
              f"check = SealedCheck({json.dumps(key)})")
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata = nbformat.NotebookNode({"tags": ["check-key"],
                                           "jupyter": {"source_hidden": True}})
    cell.id = "check-key"
    return cell


def _with_question(text: str, question: str) -> str:
    """An ``{exercise}`` cell's text with its question replaced (title and options kept)."""
    match = EXERCISE_START.match(text)
    if match is None:
        return text
    fence = match["fence"].strip()
    return f"{text[:match.end()]}\n{question.strip()}\n{fence}\n"


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


def answer_parts(exercise_id: str) -> tuple[str, str]:
    """What holds an exercise's answer, as words and code: the student copies' line under
    the exercise (:func:`answer_note`) and the book's exercise boxes
    (``book/_ext/exercise_answers.py``) say it alike.

    >>> answer_parts("auc-pairs-table1")
    ('', 'auc_table1')
    >>> answer_parts("auc-pairs-function")
    ('a function ', 'auc_pairs(y_true, y_score)')
    """
    ex = get(exercise_id)
    if ex.kind == "function":
        signature = ex.function.signature if ex.function is not None else ""
        return "a function ", f"{ex.answer_name}({signature})"
    return "", ex.answer_name


def answer_note(exercise_id: str) -> str:
    """The line under an exercise of a student copy that names its answer.

    >>> answer_note("auc-pairs-table1")
    '**Your answer:** `auc_table1`, in the code cell below.'
    >>> answer_note("auc-pairs-function")
    '**Your answer:** a function `auc_pairs(y_true, y_score)`, in the code cell below.'
    """
    words, code = answer_parts(exercise_id)
    return f"**Your answer:** {words}`{code}`, in the code cell below."


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
                 exercises: Mapping[str, Exercise] | None = None,
                 variant: Mapping[str, str] | None = None, book: Any = None,
                 feedback: str = "full") -> Any:
    """A student copy of notebook ``nb`` (not modified): solutions out, stubs in.

    Parameters
    ----------
    nb : a notebook (``nbformat`` v4 node)
    chapter : the chapter to record; default :func:`chapter_of` (metadata, file name)
    name : the notebook's file name, for the chapter and for error messages
    exercises : id -> the exercise as this student sees it (a variant's question replaces
        the book's); default: the book's exercises
    variant : ``{"student": ..., "id": copy_id(secret, student)}``, recorded in
        ``metadata.course.variant``; its ``id`` also seeds the sealed key's salts. It must
        not hold the student's seed (refused: with the public answer key the seed gives
        every answer of the variant)
    book : :func:`book_index` (read now when None; pass it when making many copies)
    feedback : ``"full"``, ``"verdict"`` or ``"none"``: how much ``check`` tells
        (:mod:`course_lib.exercises.sealed`), recorded in ``metadata.course.feedback``

    Raises
    ------
    ValueError
        On a ``solution-start`` without its ``solution-end``, an end without a start, an
        exercise id unknown to the registry, or a role the book's text cannot resolve.
    """
    if feedback not in FEEDBACK_MODES:
        raise ValueError(f"feedback must be one of {', '.join(FEEDBACK_MODES)}, got {feedback!r}")
    if variant is not None and (set(variant) != {"student", "id"}):
        raise ValueError("a copy's variant records the student and the copy id only, "
                         f"got the keys {sorted(variant)}")
    chapter = chapter if chapter is not None else chapter_of(nb, name)
    if exercises is None:
        exercises = student_exercises(chapter) if chapter is not None else {}
    out = copy.deepcopy(nb)
    cells: list[Any] = []
    used: list[Exercise] = []
    key_at: int | None = None
    open_id: str | None = None
    for index, cell in enumerate(nb.cells):
        text = _source(cell) if cell.get("cell_type") == "markdown" else ""
        exercise = EXERCISE_START.match(text)
        label = _LABEL.search(exercise["options"]) if exercise else None
        if label and label["id"] in exercises:
            ex = exercises[label["id"]]
            new = copy.deepcopy(cell)
            if ex.question != get(ex.id).question:
                new["source"] = _with_question(text, ex.question)
            if key_at is None:
                key_at = len(cells)
            cells.append(new)
            continue
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
            if key_at is None:
                key_at = len(cells) - 1
            used.append(exercises.get(open_id) or get(open_id))
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
    if used:
        salt_seed = "book" if variant is None else "copy:" + str(variant["id"])
        cells.insert(key_at if key_at is not None else len(cells),
                     check_cell(used, salt_seed, feedback))
    out.cells = cells
    out.metadata.pop("widgets", None)
    if chapter is not None:
        out.metadata["course"] = {**dict(out.metadata.get("course", {})), "chapter": chapter}
    course = out.metadata.setdefault("course", {})
    course.pop("variant", None)  # never a variant the chapter itself might carry
    course["feedback"] = feedback
    if variant is not None:
        out.metadata.setdefault("course", {})["variant"] = dict(variant)
    return _as_the_book_prints(out, nb, chapter=chapter, name=name, book=book)


def read_roster(path: Path | str) -> list[str]:
    """The student ids of a roster CSV (column ``student``), checked: each id is a file
    name stem (letters, digits, ``_ . @ + -``) and no two ids are equal up to case."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames is None or "student" not in reader.fieldnames:
            raise ValueError(f"{path}: the roster needs a column 'student' (the id each "
                             "submission is named by, e.g. alice for alice.ipynb)")
        ids = [str(row["student"] or "").strip() for row in reader]
    seen: dict[str, str] = {}
    for i, sid in enumerate(ids, start=2):
        if not _STUDENT_ID.match(sid):
            raise ValueError(f"{path}, line {i}: {sid!r} is not a usable student id (letters, "
                             "digits and _ . @ + -, as in a file name)")
        key = normalize_student(sid)
        if key in seen:
            raise ValueError(f"{path}, line {i}: {sid!r} and {seen[key]!r} are the same "
                             "student id up to case")
        seen[key] = sid
    if not ids:
        raise ValueError(f"{path}: the roster has no students")
    return ids


def write_student_copies(paths: Sequence[Path | str], out_dir: Path | str, *,
                         students: Sequence[str] | None = None,
                         secret: str | None = None, feedback: str = "full") -> list[Path]:
    """Write the student copy of each notebook, with the data it reads, into ``out_dir``:
    ``out_dir/notebooks/NN_name.ipynb`` beside ``out_dir/data/`` (the chapters read
    ``../data/...``, as in the repository and in the grader). With ``students`` and
    ``secret``, one such folder per student, ``out_dir/<student>/``, with that student's
    variants: a folder to hand out whole. ``feedback``: how much ``check`` tells
    (``"full"``, ``"verdict"``, ``"none"``)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if (students is None) != (secret is None):
        raise ValueError("per-student copies need both the students and the class secret")
    notebooks = [(Path(p), nbformat.read(p, as_version=4)) for p in paths]
    book = book_index()
    written = []
    roster: list[str | None] = list(students) if students is not None else [None]
    for student in roster:
        seed = None if student is None or secret is None else student_seed(secret, student)
        folder = out_dir if student is None else out_dir / student
        (folder / "notebooks").mkdir(parents=True, exist_ok=True)
        _copy_data(notebooks, folder / "data")
        for path, nb in notebooks:
            chapter = chapter_of(nb, path.name)
            exercises = (student_exercises(chapter, seed)
                         if chapter is not None and _has_exercises(chapter) else {})
            variant = (None if student is None or secret is None
                       else {"student": student, "id": copy_id(secret, student)})
            copy_ = student_copy(nb, name=path.name, chapter=chapter, exercises=exercises,
                                 variant=variant, book=book, feedback=feedback)
            target = folder / "notebooks" / path.name
            nbformat.write(copy_, target)
            written.append(target)
    return written


def _copy_data(notebooks: Sequence[tuple[Path, Any]], target: Path) -> None:
    """The ``data/`` folder beside the chapters' folder, copied to ``target``."""
    import shutil

    sources = {path.resolve().parent.parent / "data" for path, _ in notebooks}
    for source in sorted(sources):
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)


def _has_exercises(chapter: int | None) -> bool:
    from course_lib.exercises import CHAPTERS

    return chapter is not None and chapter in CHAPTERS


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m course_lib.exercises.student",
        description="Write student copies of chapter notebooks (solutions replaced by stubs).")
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--roster", type=Path, default=None,
                        help="CSV with a column 'student': one folder of copies per student, "
                             "with that student's variants")
    parser.add_argument("--secret-file", type=Path, default=None,
                        help="the class secret (created if missing; needed with --roster)")
    parser.add_argument("--feedback", choices=FEEDBACK_MODES, default="full",
                        help="what check says: full = hints of the likely mistake (practice), "
                             "verdict = right or not right only (graded homework), "
                             "none = 'answer recorded' only (exams); default full")
    args = parser.parse_args(argv)
    if (args.roster is None) != (args.secret_file is None):
        parser.error("--roster and --secret-file go together")
    try:
        students = read_roster(args.roster) if args.roster else None
        secret = read_secret(args.secret_file, create=True) if args.secret_file else None
        written = write_student_copies(args.notebooks, args.out_dir, students=students,
                                       secret=secret, feedback=args.feedback)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if written:
        print(*written, sep="\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
