"""Student copies: in sync with the chapters, no solution left, every stub fails helpfully."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

from course_lib.exercises import REGISTRY, SOLUTION_IMPORTS, exercises_for, student
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
    assert (tmp_path / "out" / "notebooks" / src.name).is_file()
    assert str(tmp_path / "out" / "notebooks" / src.name) in capsys.readouterr().out
    broken = tmp_path / "broken.ipynb"
    broken.write_text("not json", encoding="utf-8")
    assert student.main([str(broken), "--out-dir", str(tmp_path / "out")]) == 1



# --------------------------------------------------------------------------- as the book
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import labcopy  # noqa: E402

#: A role or block that only the book resolves; none may reach a student copy.
RAW = re.compile(r"\{(?:glue|cite)(?::[a-z]+)?\}|\{(?:numref|ref|doc|term|eq)\}|\{solution")
HEADING = re.compile(r"^```\{admonition\} (?P<heading>Exercise .*)$", re.M)


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """The student copies and the lab copies of every chapter, as the commands write them."""
    out = tmp_path_factory.mktemp("copies")
    student.write_student_copies(CHAPTERS, out / "student")
    labcopy.write_lab_copies(out / "lab", CHAPTERS, root=ROOT)
    return {path.name: (nbformat.read(out / "student" / "notebooks" / path.name, as_version=4),
                        nbformat.read(out / "lab" / "notebooks" / path.name, as_version=4))
            for path in CHAPTERS}


def _exercise_cell(cell) -> bool:
    return cell.cell_type == "markdown" and bool(HEADING.search("".join(cell.source)))


def test_student_copies_read_as_the_book(copies):
    """No raw role in any student copy; outside the exercises, each markdown cell says
    exactly what the lab copy says (the same function made both), except that a chapter
    links only to chapters (the copies' folder has no other page) and the folded
    solutions are not mentioned."""
    # one copy of every chapter of the book, counted from the table of contents
    toc = re.findall(r"^\s*- file: notebooks/(\S+)", (ROOT / "_toc.yml").read_text(),
                     flags=re.M)
    assert len(toc) >= 17
    assert sorted(copies) == sorted(f"{name}.ipynb" for name in toc)
    compared = reworded = 0
    for name, (copy_, lab) in copies.items():
        text = "\n".join("".join(c.source) for c in copy_.cells if c.cell_type == "markdown")
        raw = RAW.search(text)
        assert raw is None, f"{name}: raw {text[raw.start():raw.start() + 60]!r}"
        assert not student.FOLDED.search(text) and "folded under each" not in text, name
        if student.FOLDED.search(_sources(nbformat.read(ROOT / "notebooks" / name, as_version=4))):
            assert student.INSTEAD in text, name
            reworded += 1
        lab_cells = {c.id: c for c in lab.cells}
        for cell in copy_.cells:
            if cell.cell_type != "markdown" or _exercise_cell(cell):
                continue
            expected = re.sub(r"\[([^\]]+)\]\(\.\./book/[^)]+\.ipynb\)", r"\1",
                              "".join(lab_cells[cell.id].source))
            assert "".join(cell.source) == student.student_wording(expected), (name, cell.id)
            compared += 1
    assert compared > 300 and reworded >= 10


def test_student_copies_number_exercises_as_the_book_and_name_the_answer(copies):
    """Exercise N.k (title), k counting the chapter's exercises, as sphinx-exercise numbers
    them in the HTML book (tests/test_book.py compares with the built pages); each ends
    with the variable of its answer, a function with its signature."""
    numbered = 0
    for name, (copy_, lab) in copies.items():
        chapter = int(name[:2])
        exercises = exercises_for(chapter)
        cells = [c for c in copy_.cells if _exercise_cell(c)]
        assert [HEADING.search("".join(c.source))["heading"] for c in cells] == [
            f"Exercise {chapter}.{k} ({ex.title})" for k, ex in enumerate(exercises, 1)]
        lab_headings = [m["heading"] for c in lab.cells if c.cell_type == "markdown"
                        for m in HEADING.finditer("".join(c.source))]
        assert lab_headings == [HEADING.search("".join(c.source))["heading"] for c in cells]
        for cell, ex in zip(cells, exercises):
            text = "".join(cell.source)
            assert text.startswith(f"({ex.id})=\n")
            answer = (f"a function `{ex.answer_name}({ex.function.signature})`"
                      if ex.kind == "function" else f"`{ex.answer_name}`")
            assert text.rstrip("`\n").endswith(
                f"**Your answer:** {answer}, in the code cell below."), text
            numbered += 1
        # the answer cell follows its exercise
        index = {id(c): i for i, c in enumerate(copy_.cells)}
        for cell, ex in zip(cells, exercises):
            after = copy_.cells[index[id(cell)] + 1]
            assert after.metadata.get("exercise") == ex.id
    assert numbered == len(REGISTRY)


def test_student_copy_is_pure_and_embeds_glued_figures(tmp_path, monkeypatch):
    """A glued figure becomes a figure of a cell attachment: nothing is written to disk."""
    monkeypatch.chdir(tmp_path)
    png = "iVBORw0KGgo="
    out = {"output_type": "display_data", "metadata": {"scrapbook": {
        "name": "fig", "mime_prefix": labcopy.GLUE_PREFIX}},
        "data": {labcopy.GLUE_PREFIX + "image/png": png,
                 labcopy.GLUE_PREFIX + "text/plain": "<Figure>"}}
    code = nbformat.v4.new_code_cell("glue('fig', fig)", outputs=[nbformat.from_dict(out)])
    md = nbformat.v4.new_markdown_cell("```{glue:figure} fig\n:name: fig-x\n\nThe curve.\n```")
    nb = nbformat.v4.new_notebook(cells=[code, md])
    before = copy.deepcopy(nb)
    copy_ = student_copy(nb, name="02_fixture.ipynb", chapter=2)
    assert nb == before and list(tmp_path.iterdir()) == []
    cell = copy_.cells[1]
    assert "".join(cell.source).startswith("```{figure} attachment:02_fixture-fig.png\n")
    assert cell.attachments == {"02_fixture-fig.png": {"image/png": png}}
    assert copy_.cells[0].outputs == []
    nbformat.validate(copy_)


def test_unresolvable_role_names_the_notebook():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("{glue:text}`nothing`")])
    with pytest.raises(ValueError, match=r"x\.ipynb: .*nothing was glued"):
        student_copy(nb, name="x.ipynb")
