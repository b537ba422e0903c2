"""What the grader writes beside the gradebook: Canvas and Moodle imports, feedback pages.

For a gradebook ``grades.csv`` (:func:`export_paths`):

``grades.canvas.csv``
    The columns of a Canvas gradebook export, which Canvas imports (Grades, Import):
    ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section`` and one
    assignment column (the total points). The first data row is ``Points Possible``
    (the assignment's maximum in its column), as in Canvas's own export; then one row
    per student. ``Student`` and ``SIS Login ID`` hold the student's name in the
    gradebook (the file name), ``ID``, ``SIS User ID`` and ``Section`` are left empty:
    Canvas matches the rows on the login, so name the handed-in files by the students'
    login ids. A student whose notebook could not be graded (:func:`ungraded_reason`)
    has an **empty** assignment cell, which Canvas's import leaves as it was (a 0 would
    overwrite a grade): Canvas's grade import has no comment column, so the reason is
    only in the Moodle file, the feedback page and the gradebook.
``grades.moodle.csv``
    One row per student for Moodle's CSV grade import (Grades, Import, CSV file):
    ``Student`` (map it to the user field the file names follow: username, ID number
    or email address), the assignment column (map it to the grade item, or to a new
    grade item) and ``Feedback`` (map it to the item's feedback). A notebook that could
    not be graded has an empty grade and the reason as its feedback.
``grades-feedback/<student>.html``
    One self-contained page per student: the total (or why there is none), then each
    exercise, named as the student's copy numbers it (:func:`exercise_label`), with its
    points, maximum, status and the feedback text (escaped), readable at phone width and
    in a dark colour scheme.

Files that are not students' notebooks (``not_a_notebook``, ``name_clash`` rows) are
in the gradebook only, never in the imports or pages.

The exports carry one assignment and one maximum: the most common total maximum of the
graded students (:func:`assignment_maximum`); a student graded out of another maximum
(a notebook of another chapter in the batch) gets an empty grade with the reason, never
a total out of a different maximum.

Safety of what is written
-------------------------
Names and feedback come from the students (a file name, an answer's text). Every text
that reaches a file or the instructor's terminal goes through :func:`escape_controls`:
C0 and C1 control characters (escape sequences, ``\\r``, ...), the Unicode line and
paragraph separators and the bidirectional controls (U+061C, U+200E, U+200F,
U+202A-U+202E, U+2066-U+2069) are written as the text ``\\x1b``, ``\\u202e``; a
feedback text keeps its newlines. A CSV cell then gets a leading ``'``
(:func:`csv_cell`, OWASP's rule against CSV injection) when it starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return and is not a number, **or** when it
starts with ``'`` followed by a cell that would get one. The second clause makes the
prefix reversible: :func:`read_cell` removes a leading ``'`` exactly when the rest
would have needed it, so the gradebook reads back the names it was given (``'=x``
is written ``''=x`` and read ``'=x``). The gradebook's escaping of control characters is
reversible too (``reversible=True``: a backslash that would read as the start of an
escape is doubled); the Canvas and Moodle files, the pages and the terminal show the
plain escaped text.
"""

from __future__ import annotations

import collections
import csv
import functools
import hashlib
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["FEEDBACK_CHARS", "NOT_STUDENTS", "UNGRADED", "assignment_maximum", "cap_feedback",
           "csv_cell", "escape_controls", "exercise_label", "export_paths", "feedback_page",
           "page_name", "read_cell", "unescape_controls", "ungraded_reason", "write_canvas",
           "write_moodle"]

#: Statuses of rows that describe a file, not a student's work.
NOT_STUDENTS = ("not_a_notebook", "name_clash")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
#: The Student cell of the Canvas file's first data row, as in Canvas's own export.
POINTS_POSSIBLE = "Points Possible"
#: The longest feedback text kept in a row of the gradebook (:func:`cap_feedback`).
FEEDBACK_CHARS = 2000
#: Why a notebook with only such rows has no grade (see :func:`ungraded_reason`).
UNGRADED = {
    "invalid_notebook": "the file is not a readable notebook",
    "wrong_chapter": "the notebook is not one of this assignment's chapter",
    "timeout": "every answer ran out of time",
    "kernel_died": "the notebook's kernel died before any answer could be read",
}

# ------------------------------------------------------------------------ escaping
#: What is never written as itself: C0 and C1 controls (with DEL), the line and paragraph
#: separators and the bidirectional controls (Trojan Source).
_UNSAFE = ("\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
           "\u2066-\u2069")
_UNSAFE_CHAR = re.compile(f"[{_UNSAFE}]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: An escape as :func:`escape_controls` writes one (its character checked when read).
_ESCAPE = re.compile(r"\\(?:\\|x([0-9a-f]{2})|u([0-9a-f]{4})|([tnr]))")
_ESCAPED = {"t": "\t", "n": "\n", "r": "\r"}


def _code(char: str) -> str:
    n = ord(char)
    return _NAMED.get(char) or (f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}")


def _reads_as_escape(text: str, at: int) -> bool:
    """Whether ``\\`` + ``text[at:]`` would be read as an escape by :func:`unescape_controls`."""
    if at >= len(text):
        return False
    if text[at] == "\\" or _UNSAFE_CHAR.match(text[at]):
        return True
    match = _ESCAPE.match("\\" + text[at:at + 5])
    return bool(match and match.group(0) != "\\\\" and _UNSAFE_CHAR.match(_decoded(match)))


def _decoded(match: re.Match[str]) -> str:
    hex_code = match.group(1) or match.group(2)
    return chr(int(hex_code, 16)) if hex_code else _ESCAPED[match.group(3)]


def escape_controls(text: str, *, keep: str = "", reversible: bool = False) -> str:
    r"""``text`` with every control character written as an escape, ready for a terminal,
    a CSV cell or a page; the one rule of what the grader shows as itself.

    C0 and C1 controls, U+2028 and U+2029 and the bidirectional controls become ``\t``,
    ``\n``, ``\r``, ``\x1b`` or ``\u202e``, except the characters of ``keep`` (a
    feedback keeps its newlines). With ``reversible=True`` a backslash that
    :func:`unescape_controls` would read as the start of an escape is doubled, so that
    ``unescape_controls(escape_controls(s, reversible=True)) == s``; a backslash followed
    by anything else (``\frac``, ``C:\data``) stays one.

    >>> escape_controls("\x1b]0;pwned\x07 \u202eevil\r")
    '\\x1b]0;pwned\\x07 \\u202eevil\\r'
    >>> escape_controls("line 1\nline 2", keep="\n")
    'line 1\nline 2'
    >>> escape_controls("a\\x1b \\frac", reversible=True)
    'a\\\\x1b \\frac'
    """
    out = []
    for i, char in enumerate(text):
        if char == "\\" and reversible and _reads_as_escape(text, i + 1):
            out.append("\\\\")
        elif char not in keep and _UNSAFE_CHAR.match(char):
            out.append(_code(char))
        else:
            out.append(char)
    return "".join(out)


def unescape_controls(text: str) -> str:
    r"""The text that :func:`escape_controls` with ``reversible=True`` turned into ``text``.

    >>> s = "ann\x1b[31m \\x1b \\\\ \\q\r\n"
    >>> unescape_controls(escape_controls(s, reversible=True)) == s
    True
    """
    def one(match: re.Match[str]) -> str:
        if match.group(0) == "\\\\":
            return "\\"
        char = _decoded(match)
        return char if _UNSAFE_CHAR.match(char) else match.group(0)

    return _ESCAPE.sub(one, text)


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _needs_prefix(text: str) -> bool:
    """Whether a CSV cell holding ``text`` gets a leading ``'`` (see the module docstring)."""
    if text.startswith(_FORMULA_START):
        return not _NUMBER.fullmatch(text)
    return text.startswith("'") and _needs_prefix(text[1:])


def csv_cell(value: object, *, keep: str = "", reversible: bool = False) -> str:
    """A value as a CSV cell no spreadsheet reads as a formula, without control characters.

    >>> [csv_cell(v) for v in ("=1+2", "+cmd", "@SUM(1+1)", "-x", "-1.5", "'=x", "bob")]
    ["'=1+2", "'+cmd", "'@SUM(1+1)", "'-x", '-1.5', "''=x", 'bob']
    >>> csv_cell("\\tx"), csv_cell("\\x1b=x")
    ('\\\\tx', '\\\\x1b=x')
    """
    text = escape_controls(value if isinstance(value, str) else str(value), keep=keep,
                           reversible=reversible)
    return "'" + text if _needs_prefix(text) else text


def read_cell(cell: str) -> str:
    """The value a cell written by :func:`csv_cell` with ``reversible=True`` holds.

    >>> [read_cell(csv_cell(v, reversible=True)) for v in ("=1+2", "'=x", "''-y", "'a", "-2")]
    ['=1+2', "'=x", "''-y", "'a", '-2']
    """
    if cell.startswith("'") and _needs_prefix(cell[1:]):
        cell = cell[1:]
    return unescape_controls(cell)


def cap_feedback(text: str, limit: int = FEEDBACK_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, the last of them saying how many were
    cut (so cutting again changes nothing).

    >>> cap_feedback("x" * 2005)[1970:]
    'xxxxxxxxx… (26 characters cut)'
    >>> len(cap_feedback("x" * 2005)), cap_feedback(cap_feedback("x" * 2005)) == cap_feedback("x" * 2005)
    (2000, True)
    >>> cap_feedback("short")
    'short'
    """
    if len(text) <= limit:
        return text
    keep = limit
    for _ in range(3):  # the note's length depends on the count it states
        keep = max(0, limit - len(f"… ({len(text) - keep} characters cut)"))
    return f"{text[:keep]}… ({len(text) - keep} characters cut)"


# ------------------------------------------------------------------------ naming
def export_paths(gradebook: Path | str) -> dict[str, Path]:
    """Where the exports of a gradebook go.

    >>> {k: v.name for k, v in export_paths("out/grades.csv").items()}
    {'canvas': 'grades.canvas.csv', 'moodle': 'grades.moodle.csv', 'feedback': 'grades-feedback'}
    """
    path = Path(gradebook)
    stem = path.stem if path.suffix.lower() == ".csv" else path.name
    return {"canvas": path.with_name(f"{stem}.canvas.csv"),
            "moodle": path.with_name(f"{stem}.moodle.csv"),
            "feedback": path.with_name(f"{stem}-feedback")}


@functools.cache
def exercise_label(exercise_id: str) -> str:
    """The exercise as the student's copy and the book name it, "Exercise 3.1 (title)".

    sphinx-exercise numbers the exercises of a chapter in the order of the page, which is
    the order of :func:`course_lib.exercises.exercises_for` (the book's and the student
    copies' headings, ``ExerciseNumbers`` of ``book/_ext/labcopy.py``, are the same).
    Without the answer key, or for an id it does not know, the id itself.

    >>> exercise_label("auc-pairs-table1")
    'Exercise 3.1 (The AUC of Table 1 by counting pairs)'
    >>> exercise_label("no-such-exercise")
    'no-such-exercise'
    """
    from course_lib import exercises as registry

    try:
        ex = registry.get(exercise_id)
        ids = [other.id for other in registry.exercises_for(ex.chapter)]
        return f"Exercise {ex.chapter}.{ids.index(exercise_id) + 1} ({ex.title})"
    except (ImportError, ValueError, KeyError, TypeError, AttributeError):
        return exercise_id


def _points(value: float) -> str:
    return f"{value:g}"


def _by_student(rows: Iterable[Any]) -> dict[str, list[Any]]:
    students: dict[str, list[Any]] = {}
    for r in rows:
        students.setdefault(r.student, []).append(r)
    return {name: own for name, own in students.items()
            if not any(r.status in NOT_STUDENTS for r in own)}


# ------------------------------------------------------------------------ grades
def ungraded_reason(own: Sequence[Any]) -> str | None:
    """Why a student's notebook has no grade (None: it has one, maybe 0).

    A notebook has none when every row of it is ``invalid_notebook`` or
    ``wrong_chapter``, every row is ``timeout`` with no points, or every row is
    ``kernel_died``: the grader could not look at the answers, and a 0 would overwrite
    a grade the instructor gave in the LMS.

    >>> from types import SimpleNamespace as Row
    >>> ungraded_reason([Row(status="kernel_died", points=0.0)])
    "not graded: the notebook's kernel died before any answer could be read (kernel_died)"
    >>> ungraded_reason([Row(status="timeout", points=0.0), Row(status="graded", points=1.0)])
    """
    statuses = {r.status for r in own}
    if not own:
        return None
    if statuses <= {"invalid_notebook", "wrong_chapter"}:
        status = sorted(statuses)[0]
    elif statuses == {"timeout"} and not any(r.points for r in own):
        status = "timeout"
    elif statuses == {"kernel_died"}:
        status = "kernel_died"
    else:
        return None
    return f"not graded: {UNGRADED[status]} ({status})"


def assignment_maximum(students: Mapping[str, Sequence[Any]]) -> int | None:
    """The maximum of the assignment: the most common total maximum of the students with
    a grade (on a tie, the largest); None when no student has one.

    >>> from types import SimpleNamespace as Row
    >>> assignment_maximum({"a": [Row(max_points=2, status="graded")],
    ...                     "b": [Row(max_points=2, status="missing")],
    ...                     "c": [Row(max_points=5, status="graded")]})
    2
    """
    counts = collections.Counter(sum(r.max_points for r in own) for own in students.values()
                                 if ungraded_reason(own) is None)
    if not counts:
        return None
    return max(counts, key=lambda most: (counts[most], most))


def _grades(rows: Iterable[Any]) -> tuple[int | None, dict[str, tuple[str, str | None]]]:
    """The assignment's maximum, and per student the grade cell ("" for none) and why
    there is none."""
    students = _by_student(rows)
    most = assignment_maximum(students)
    grades: dict[str, tuple[str, str | None]] = {}
    for name, own in students.items():
        reason = ungraded_reason(own)
        own_most = sum(r.max_points for r in own)
        if reason is None and own_most != most:
            reason = (f"not graded: graded out of {own_most} points, not this assignment's "
                      f"{most} (a notebook of another chapter?)")
        grades[name] = ("" if reason else _points(sum(r.points for r in own)), reason)
    return most, grades


def write_canvas(rows: Iterable[Any], fh: IO[str], assignment: str) -> None:
    """Canvas's gradebook columns: the Points Possible row, then one row per student with
    the total in ``assignment`` (empty when the notebook could not be graded)."""
    writer = csv.writer(fh)
    writer.writerow([csv_cell(c) for c in (*CANVAS_COLUMNS, assignment)])
    most, grades = _grades(rows)
    writer.writerow([POINTS_POSSIBLE, "", "", "", "", "" if most is None else str(most)])
    for name, (grade, _) in grades.items():
        cell = csv_cell(name)
        writer.writerow([cell, "", "", cell, "", grade])


def _summary(own: Sequence[Any]) -> str:
    total = _points(sum(r.points for r in own))
    most = sum(r.max_points for r in own)
    parts = [f"{exercise_label(r.exercise) if r.exercise else 'file'}: "
             f"{_points(r.points)}/{r.max_points}"
             + ("" if r.status == "graded" else f" ({r.status})") for r in own]
    return f"{total}/{most} points. " + "; ".join(parts)


def write_moodle(rows: Iterable[Any], fh: IO[str], assignment: str) -> None:
    """Moodle's CSV import: ``Student``, the total in ``assignment``, ``Feedback`` (when the
    notebook could not be graded: an empty grade and the reason)."""
    writer = csv.writer(fh)
    writer.writerow([csv_cell(c) for c in ("Student", assignment, "Feedback")])
    students = _by_student(rows)
    _, grades = _grades(rows)
    for name, (grade, reason) in grades.items():
        own = students[name]
        feedback = _summary(own) if reason is None else f"{reason}. {_summary(own)}"
        writer.writerow([csv_cell(name), grade, csv_cell(feedback, keep="\n")])


# ------------------------------------------------------------------------ pages
def page_name(student: str, students: Mapping[str, Any] | Iterable[str]) -> str:
    """The feedback page's file name: the student's name, made safe for any file system.

    Characters outside letters, digits, ``-``, ``_`` and ``.`` become ``_``; a name
    that then collides with another (or differs from it only in case, which a
    case-insensitive disk would merge) gets a short hash of the exact name.

    >>> page_name("alice", ["alice", "bob"])
    'alice.html'
    >>> page_name("a/b", ["a/b", "a_b"]).startswith("a_b-")
    True
    """
    def safe(name: str) -> str:
        text = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip(".")
        return text or "_"

    mine = safe(student).casefold()
    clash = sum(safe(other).casefold() == mine for other in students) > 1
    base = safe(student)
    if clash:
        base += "-" + hashlib.sha256(student.encode("utf-8")).hexdigest()[:8]
    return base + ".html"


_STYLE = """
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1b1b; --muted: #555; --line: #d0d0d0;
  --ok: #1a7f37; --bad: #b3261e; --card: #f6f6f6; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #141414; --fg: #e8e8e8; --muted: #aaa; --line: #3a3a3a; --ok: #57c46b;
    --bad: #ff8a80; --card: #1f1f1f; } }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 1rem; max-width: 46rem; background: var(--bg);
  color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
.total { font-size: 1.1rem; margin: 0 0 1rem; color: var(--muted); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: .75rem 1rem; margin: 0 0 .75rem; }
h2 { font-size: 1rem; margin: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem;
  justify-content: space-between; }
h2 span.name { overflow-wrap: anywhere; }
.pts { white-space: nowrap; }
.full { color: var(--ok); } .part { color: var(--bad); }
.status { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.feedback { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0;
  font: .95rem/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
"""


def _esc(text: str, keep: str = "") -> str:
    return html.escape(escape_controls(text, keep=keep))


def feedback_page(student: str, rows: Sequence[Any], assignment: str) -> str:
    """One student's feedback as a self-contained HTML page (every text escaped, control
    characters as :func:`escape_controls` writes them)."""
    total = sum(r.points for r in rows)
    most = sum(r.max_points for r in rows)
    reason = ungraded_reason(rows)
    parts = []
    for r in rows:
        cls = "full" if r.max_points and r.points >= r.max_points else "part"
        name = _esc(exercise_label(r.exercise)) if r.exercise else "notebook"
        parts.append(
            "<section>\n"
            f"<h2><span class=\"name\">{name}</span>"
            f"<span class=\"pts {cls}\">{_esc(_points(r.points))} / {r.max_points}"
            " points</span></h2>\n"
            f"<p class=\"status\">status: {_esc(r.status)}</p>\n"
            f"<p class=\"feedback\">{_esc(r.feedback, keep=chr(10))}</p>\n"
            "</section>")
    body = "\n".join(parts)
    summary = (f"{_esc(_points(total))} of {most} points" if reason is None
               else f"{_esc(reason[:1].upper() + reason[1:])}: no grade was given")
    who = f"{_esc(assignment)}: {_esc(student)}"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n"
            f"<title>{who}</title>\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n<main>\n"
            f"<h1>{who}</h1>\n"
            f"<p class=\"total\">{summary}</p>\n"
            f"{body}\n</main>\n</body>\n</html>\n")
