"""Student copies: in sync with the chapters, no solution left, every stub fails helpfully."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

from course_lib.exercises import REGISTRY, SOLUTION_IMPORTS
from course_lib.exercises import student
from course_lib.exercises.student import SOLUTION_START, answer_cell, student_copy

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "submissions"))
import fixture_notebooks as fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
WITH_EXERCISES = sorted({ex.chapter for ex in REGISTRY.values()})


def _sources(nb) -> str:
    return "\n".join("".join(c.source) for c in nb.cells)


def _solution_ids(nb) -> list[str]:
    ids = []
    for c in nb.cells:
        m = SOLUTION_START.match("".join(c.source)) if c.cell_type == "markdown" else None
        if m:
            ids.append(m["id"])
    return ids


def _assert_is_student_copy(original, copy_, chapter: int) -> None:
    assert copy_.metadata["course"]["chapter"] == chapter
    ids = _solution_ids(original)
    answers = [c for c in copy_.cells if "answer" in c.metadata.get("tags", [])]
    assert [c.metadata["exercise"] for c in answers] == ids
    for cell in answers:
        ex = REGISTRY[cell.metadata["exercise"]]
        assert "".join(cell.source) == f'{ex.stub}\ncheck({json.dumps(ex.id)}, {ex.answer_name})'
    for cell in copy_.cells:
        assert "solution" not in cell.metadata.get("tags", [])
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
    text = _sources(copy_)
    assert "{solution-start}" not in text and "{solution-end}" not in text
    if ids:  # the answer cells call check: the copy must import it outside the solutions
        assert re.search(r"^from course_lib\.exercises import .*\bcheck\b", text, re.M), (
            "the student copy never imports check")
    for ex_id in ids:
        ex = REGISTRY[ex_id]
        assert ex.solution_code not in text, f"{ex_id}: the solution code is still there"
        if ex.worked:
            assert ex.worked.strip() not in text, f"{ex_id}: the worked solution is still there"
    nbformat.validate(copy_)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_student_copies_of_the_chapters_are_deterministic_and_without_solutions(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    first = student.write_student_copies([path], tmp_path / "a")[0]
    again = student.write_student_copies([path], tmp_path / "b")[0]
    assert first.read_bytes() == again.read_bytes()
    copy_ = nbformat.read(first, as_version=4)
    assert copy_ == student_copy(nb, name=path.name)
    _assert_is_student_copy(nb, copy_, int(path.name[:2]))
    assert nb == nbformat.read(path, as_version=4)  # the chapter is not modified


@pytest.mark.parametrize("chapter", WITH_EXERCISES)
def test_student_copy_of_a_registry_chapter(chapter):
    nb = fixtures.chapter_notebook(chapter)
    _assert_is_student_copy(nb, student_copy(nb), chapter)


@pytest.mark.parametrize("exercise_id", list(REGISTRY))
def test_every_stub_fails_its_check_with_a_not_answered_message(exercise_id):
    ns: dict = {}
    exec(SOLUTION_IMPORTS, ns)  # what a chapter's first cell provides
    cell = answer_cell(exercise_id)
    source = "".join(cell.source)
    *body, last = source.splitlines()
    exec("\n".join(body), ns)
    feedback = eval(last, ns)
    assert not feedback.passed and feedback.points == 0
    assert "not answered" in feedback.message
    assert "not passed" in str(feedback) and "not answered" in feedback._repr_html_()


def test_malformed_solution_blocks_are_named():
    ex = next(iter(REGISTRY.values()))
    start = nbformat.v4.new_markdown_cell(f"```{{solution-start}} {ex.id}\n```\nprose")
    end = nbformat.v4.new_markdown_cell("```{solution-end}\n```")
    unknown = nbformat.v4.new_markdown_cell("```{solution-start} no-such-exercise\n```")
    again = copy.deepcopy(start)
    again.id = "again"
    for cells, words in [([start], "no solution-end"), ([end], "without a start"),
                         ([unknown, end], "unknown exercise"),
                         ([start, again, end], "inside the solution")]:
        nb = nbformat.v4.new_notebook(cells=cells)
        with pytest.raises(ValueError, match=words):
            student_copy(nb, name="x.ipynb")


def test_command_line_writes_the_copies(tmp_path, capsys):
    nb = fixtures.chapter_notebook(WITH_EXERCISES[0])
    src = tmp_path / f"{WITH_EXERCISES[0]:02d}_fixture.ipynb"
    nbformat.write(nb, src)
    assert student.main([str(src), "--out-dir", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / src.name).is_file()
    assert str(tmp_path / "out" / src.name) in capsys.readouterr().out
    broken = tmp_path / "broken.ipynb"
    broken.write_text("not json", encoding="utf-8")
    assert student.main([str(broken), "--out-dir", str(tmp_path / "out")]) == 1

