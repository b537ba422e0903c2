"""What the grader writes beside the gradebook: Canvas and Moodle imports, feedback pages.

For a gradebook ``grades.csv`` (:func:`export_paths`):

``grades.canvas.csv``
    One row per student in the columns of a Canvas gradebook export, which Canvas
    imports (Grades, Import): ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``,
    ``Section`` and one assignment column (the total points). ``Student`` and
    ``SIS Login ID`` hold the student's name in the gradebook (the file name), ``ID``,
    ``SIS User ID`` and ``Section`` are left empty: Canvas matches the rows on the
    login, so name the handed-in files by the students' login ids.
``grades.moodle.csv``
    One row per student for Moodle's CSV grade import (Grades, Import, CSV file):
    ``Student`` (map it to the user field the file names follow: username, ID number
    or email address), the assignment column (map it to the grade item, or to a new
    grade item) and ``Feedback`` (map it to the item's feedback).
``grades-feedback/<student>.html``
    One self-contained page per student: the total, then each exercise with its points,
    maximum, status and the feedback text (escaped), readable at phone width and in a
    dark colour scheme.

Files that are not students' notebooks (``not_a_notebook``, ``name_clash`` rows) are
in the gradebook only, never in the imports or pages.
"""

from __future__ import annotations

import csv
import hashlib
import html
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["NOT_STUDENTS", "export_paths", "feedback_page", "page_name", "write_canvas",
           "write_moodle"]

#: Statuses of rows that describe a file, not a student's work.
NOT_STUDENTS = ("not_a_notebook", "name_clash")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


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


def _points(value: float) -> str:
    return f"{value:g}"


def _by_student(rows: Iterable[Any]) -> dict[str, list[Any]]:
    students: dict[str, list[Any]] = {}
    for r in rows:
        students.setdefault(r.student, []).append(r)
    return {name: own for name, own in students.items()
            if not any(r.status in NOT_STUDENTS for r in own)}


def write_canvas(rows: Iterable[Any], fh: IO[str], assignment: str) -> None:
    """Canvas's gradebook columns, one row per student, the total in ``assignment``."""
    writer = csv.writer(fh)
    writer.writerow([*CANVAS_COLUMNS, assignment])
    for name, own in _by_student(rows).items():
        writer.writerow([name, "", "", name, "", _points(sum(r.points for r in own))])


def _summary(own: Sequence[Any]) -> str:
    total = _points(sum(r.points for r in own))
    most = sum(r.max_points for r in own)
    parts = [f"{r.exercise or 'file'}: {_points(r.points)}/{r.max_points}"
             + ("" if r.status == "graded" else f" ({r.status})") for r in own]
    return f"{total}/{most} points. " + "; ".join(parts)


def write_moodle(rows: Iterable[Any], fh: IO[str], assignment: str) -> None:
    """Moodle's CSV import: ``Student``, the total in ``assignment``, ``Feedback``."""
    writer = csv.writer(fh)
    writer.writerow(["Student", assignment, "Feedback"])
    for name, own in _by_student(rows).items():
        writer.writerow([name, _points(sum(r.points for r in own)), _summary(own)])


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
h2 code { overflow-wrap: anywhere; }
.pts { white-space: nowrap; }
.full { color: var(--ok); } .part { color: var(--bad); }
.status { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.feedback { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0;
  font: .95rem/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
"""


def feedback_page(student: str, rows: Sequence[Any], assignment: str) -> str:
    """One student's feedback as a self-contained HTML page (every text escaped)."""
    esc = html.escape
    total = sum(r.points for r in rows)
    most = sum(r.max_points for r in rows)
    parts = []
    for r in rows:
        cls = "full" if r.max_points and r.points >= r.max_points else "part"
        parts.append(
            "<section>\n"
            f"<h2><code>{esc(r.exercise or 'notebook')}</code>"
            f"<span class=\"pts {cls}\">{esc(_points(r.points))} / {r.max_points}"
            " points</span></h2>\n"
            f"<p class=\"status\">status: {esc(r.status)}</p>\n"
            f"<p class=\"feedback\">{esc(r.feedback)}</p>\n"
            "</section>")
    body = "\n".join(parts)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n"
            f"<title>{esc(assignment)}: {esc(student)}</title>\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n<main>\n"
            f"<h1>{esc(assignment)}: {esc(student)}</h1>\n"
            f"<p class=\"total\">{esc(_points(total))} of {most} points</p>\n"
            f"{body}\n</main>\n</body>\n</html>\n")
