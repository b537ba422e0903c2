"""What the grader writes for spreadsheets, LMSs, browsers and terminals cannot be turned
against the instructor (CSV injection, control characters), reads back for ``--resume``
whatever its size, never overwrites an LMS grade with a 0 that means "not graded", and
names the exercises as the student's copy does."""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import nbformat
import pytest

from course_lib.exercises import _exports, grade

pytest.importorskip("course_key")  # the grader (and exercise_label) need the answer key

from course_lib.exercises import exercises_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = 3
IDS = [ex.id for ex in exercises_for(CHAPTER)]
FORMULA_FILES = ("=1+2.ipynb", "+cmd.ipynb", "@SUM(1+1).ipynb", "-x.ipynb")
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
#: What no cell, page or terminal line may hold (a feedback keeps its newlines).
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                    "\u202a-\u202e\u2066-\u2069]")
HOSTILE = ["eve\x1b]0;pwned\x07", "mal\rlory", "bi\u202edi", "iso\u2066late\u2069",
           "c1\x9bcontrol", "nul\x00tab\t"]


def _row(student, exercise, points, most, feedback="", status="graded"):
    return grade.GradeRow(student, exercise, float(points), most, feedback, status)


def _full(student, points=(1, 1), feedback="", status="graded"):
    """Rows for the first two exercises of chapter 3 (1 and 2 points at most)."""
    return [_row(student, IDS[0], points[0], 1, feedback, status),
            _row(student, IDS[1], points[1], 2, feedback, status)]


def _csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def _written(tmp_path, rows, assignment="Week 3"):
    book = grade.Gradebook(tmp_path / "g.csv", assignment=assignment)
    students = {}
    for r in rows:
        students.setdefault(r.student, []).append(r)
    for own in students.values():
        book.add(own, CHAPTER)
    paths = _exports.export_paths(tmp_path / "g.csv")
    return book, {"gradebook": _csv(tmp_path / "g.csv"), "canvas": _csv(paths["canvas"]),
                  "moodle": _csv(paths["moodle"])}, paths


# --------------------------------------------------------------------------- CSV injection
def test_no_cell_of_any_csv_starts_a_formula(tmp_path):
    names = [grade.student_name(Path(f)) for f in FORMULA_FILES]
    assert names == ["=1+2", "+cmd", "@SUM(1+1)", "-x"]
    rows = [r for name in names for r in _full(name, feedback="-1 is not right")]
    rows += _full("tab", feedback="\t=cmd") + _full("minus-one", (0, 0))
    _, files, _ = _written(tmp_path, rows, assignment="=HYPERLINK(\"x\")")
    for which, table in files.items():
        for line in table:
            for cell in line:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) \
                    or NUMBER.fullmatch(cell), (which, cell)
    for name in names:  # neutralised, not dropped
        assert ["'" + name] == [c for c in files["canvas"][0] + [r[0] for r in
                                files["canvas"]] if c == "'" + name]
        assert any(r[0] == "'" + name for r in files["moodle"])
        assert any(r[0] == "'" + name for r in files["gradebook"])
    assert files["canvas"][0][-1] == "'=HYPERLINK(\"x\")"


def test_the_gradebook_reads_back_every_name_and_text_exactly(tmp_path):
    names = ["=1+2", "+cmd", "@SUM(1+1)", "-x", "-1", "'=x", "''-y", "'a", "'", "''",
             "it's", "a\\x1b", "a\\\\", "back\\", "\\u202e", *HOSTILE]
    feedbacks = ["said \"hi\", then\nleft", "\\frac{1}{2}", "ESC \x1b[31m red\r\n",
                 "=SUM(A1)", "'=x", "-", "literal \\x1b and \\n", "\u202e"]
    rows = [_row(name, IDS[0], 0.5, 1, feedbacks[i % len(feedbacks)], "missing")
            for i, name in enumerate(names)]
    out = tmp_path / "g.csv"
    grade.write_gradebook(rows, out)
    assert grade.read_gradebook(out) == rows
    for line in _csv(out)[1:]:
        assert not UNSAFE.search(line[0]) and not UNSAFE.search(line[4]), line


def test_a_resumed_gradebook_matches_the_students_again(tmp_path):
    rows = [r for name in ["=1+2", "'=x", HOSTILE[0]] for r in _full(name)]
    _, files, _ = _written(tmp_path, rows)
    assert {line[0] for line in files["gradebook"][1:]} == {"'=1+2", "''=x",
                                                            "eve\\x1b]0;pwned\\x07"}
    kept = grade.read_gradebook(tmp_path / "g.csv")
    assert {r.student for r in kept} == {"=1+2", "'=x", HOSTILE[0]}
    assert grade.Gradebook(tmp_path / "g.csv", kept).rows == grade.Gradebook(
        tmp_path / "h.csv", rows).rows


# --------------------------------------------------------------------------- control characters
def test_control_characters_are_escaped_in_every_output(tmp_path):
    feedback = "wrong \x1b]0;pwned\x07 \u202eevil\r and\nmore"
    rows = [r for name in HOSTILE for r in _full(name, (0, 2), feedback)]
    _, files, paths = _written(tmp_path, rows)
    for which, table in files.items():
        for line in table:
            for cell in line:
                assert not UNSAFE.search(cell), (which, cell)
    assert any(r[0] == "eve\\x1b]0;pwned\\x07" for r in files["canvas"])
    assert any(r[0] == "bi\\u202edi" for r in files["moodle"])
    pages = list(paths["feedback"].glob("*.html"))
    assert len(pages) == len(HOSTILE)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not UNSAFE.search(text), page.name
        assert "\\x1b]0;pwned\\x07" in text and "\\u202eevil\\r" in text
    table = grade.summary_table(rows)
    assert not UNSAFE.search(table)
    assert "eve\\x1b]0;pwned\\x07" in table and "mal\\rlory" in table


def test_one_helper_decides_what_is_escaped():
    text = "".join(chr(c) for c in [*range(0x20), *range(0x7f, 0xa0)]) + \
        "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    shown = _exports.escape_controls(text)
    assert not UNSAFE.search(shown) and shown.startswith("\\x00\\x01")
    assert _exports.escape_controls("a\nb", keep="\n") == "a\nb"
    assert _exports.escape_controls("Jos\u00e9 \u4e2d\u6587 \u200d") == "Jos\u00e9 \u4e2d\u6587 \u200d"
    assert grade.summary_table([_row("\x1b[2J", "a", 0, 1)]).splitlines()[1].startswith(
        _exports.escape_controls("\x1b[2J"))


# --------------------------------------------------------------------------- large feedback
def test_read_gradebook_reads_a_field_past_the_csv_limit(tmp_path):
    huge = "your answer: " + repr([(0, 0)] * 150000)
    assert len(huge) > 1_200_000
    out = tmp_path / "g.csv"
    with open(out, "w", newline="", encoding="utf-8") as fh:  # as an earlier grader wrote it
        writer = csv.writer(fh)
        writer.writerow(grade.COLUMNS)
        writer.writerow(["ann", IDS[0], "0", "1", huge, "graded"])
    before = csv.field_size_limit()
    (row,) = grade.read_gradebook(out)
    assert row.feedback == huge
    assert csv.field_size_limit() == before


def test_a_huge_feedback_is_cut_in_the_gradebook_and_the_pages(tmp_path):
    huge = "your answer: " + repr([(0, 0)] * 150000)
    book, files, paths = _written(tmp_path, [_row("ann", IDS[0], 0, 1, huge)])
    (row,) = grade.read_gradebook(tmp_path / "g.csv")
    kept = row.feedback.index("… (")
    assert kept > 1900 and row.feedback == huge[:kept] + f"… ({len(huge) - kept} characters cut)"
    assert len(row.feedback) <= _exports.FEEDBACK_CHARS
    assert book.rows == [row]  # what the exports and pages say is what a resume reads
    assert (tmp_path / "g.csv").stat().st_size < 10_000
    assert (paths["feedback"] / "ann.html").stat().st_size < 20_000


# --------------------------------------------------------------------------- Canvas, Moodle
def test_canvas_has_the_points_possible_row_first(tmp_path):
    rows = _full("ann", (1, 1)) + _full("bob", (0, 2))
    _, files, _ = _written(tmp_path, rows)
    canvas = files["canvas"]
    assert canvas[0] == [*_exports.CANVAS_COLUMNS, "Week 3"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "3"]
    assert canvas[2:] == [["ann", "", "", "ann", "", "2"], ["bob", "", "", "bob", "", "2"]]


def test_a_notebook_that_could_not_be_graded_gets_an_empty_grade(tmp_path):
    rows = [
        *_full("ann", (1, 2)),
        *_full("zero", (0, 0), "not answered yet", "missing"),  # a 0 it earned: kept
        _row("corrupt", "", 0, 0, "not a notebook: bad JSON", "invalid_notebook"),
        *_full("other", (0, 0), "chapter 5's notebook", "wrong_chapter"),
        *_full("slow", (0, 0), "cell 3 ran past 60 s", "timeout"),
        *_full("dead", (0, 0), "os._exit", "kernel_died"),
        _row("half", IDS[0], 1, 1), _row("half", IDS[1], 0, 2, "", "timeout"),
        *_full("cheat", (0, 1), "", "invalid_answer"),
        *_full("swap", (1, 2), "", "other_student"),
    ]
    _, files, paths = _written(tmp_path, rows)
    canvas = {r[0]: r[-1] for r in files["canvas"][2:]}
    assert canvas == {"ann": "3", "zero": "0", "corrupt": "", "other": "", "slow": "",
                      "dead": "", "half": "1", "cheat": "1", "swap": "3"}
    moodle = {r[0]: r for r in files["moodle"][1:]}
    for name, status in [("corrupt", "invalid_notebook"), ("other", "wrong_chapter"),
                         ("slow", "timeout"), ("dead", "kernel_died")]:
        assert moodle[name][1] == ""
        assert moodle[name][2].startswith("not graded: ") and f"({status})" in moodle[name][2]
        page = (paths["feedback"] / f"{name}.html").read_text(encoding="utf-8")
        assert "Not graded: " in page and status in page
    assert moodle["zero"][1] == "0" and moodle["half"][1] == "1"
    assert "not graded" in grade.summary_table(rows).splitlines()[3]  # dead


def test_mixed_maxima_use_the_most_common_and_never_mix(tmp_path):
    other = [ex.id for ex in exercises_for(5)]
    rows = [*_full("ann", (1, 2)), *_full("bob", (0, 1)),
            *[_row("carl", ex, 1, 5) for ex in other[:2]]]  # 10 points: another chapter
    _, files, _ = _written(tmp_path, rows)
    assert files["canvas"][1][-1] == "3"
    canvas = {r[0]: r[-1] for r in files["canvas"][2:]}
    assert canvas == {"ann": "3", "bob": "1", "carl": ""}
    moodle = {r[0]: r for r in files["moodle"][1:]}
    assert moodle["carl"][1] == "" and "out of 10 points, not this assignment's 3" in \
        moodle["carl"][2]


# --------------------------------------------------------------------------- exercise names
def test_exercises_are_named_as_the_students_copy_numbers_them(tmp_path):
    ex0, ex1 = exercises_for(CHAPTER)[:2]
    assert _exports.exercise_label(ex0.id) == f"Exercise {CHAPTER}.1 ({ex0.title})"
    assert _exports.exercise_label(ex1.id) == f"Exercise {CHAPTER}.2 ({ex1.title})"
    assert _exports.exercise_label("no-such-exercise") == "no-such-exercise"
    _, files, paths = _written(tmp_path, _full("ann", (0, 2)))
    page = (paths["feedback"] / "ann.html").read_text(encoding="utf-8")
    assert f"Exercise {CHAPTER}.1 ({ex0.title})" in page
    assert f">{ex0.id}<" not in page
    assert files["moodle"][1][2] == (f"2/3 points. Exercise {CHAPTER}.1 ({ex0.title}): 0/1; "
                                     f"Exercise {CHAPTER}.2 ({ex1.title}): 2/2")


def test_exercise_labels_are_the_headings_of_the_book_and_the_copies():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import labcopy
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    checked = 0
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        numbers = labcopy.ExerciseNumbers(nb.metadata["course"]["chapter"])
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                numbers.admonitions("".join(cell.source))
        for label, heading in numbers.headings.items():
            assert _exports.exercise_label(label) == heading
            checked += 1
    assert checked >= 90
