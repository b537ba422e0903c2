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
from course_lib.exercises.student import SOLUTION_START, answer_cell, student_copy, student_exercises

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


# --------------------------------------------------------------------------- per student
from course_lib.exercises._core import (  # noqa: E402
    ChoiceChecker,
    NumberChecker,
    PredicateChecker,
    TupleChecker,
)
from course_lib.exercises.sealed import SealedCheck, seal_key  # noqa: E402
from course_lib.exercises.seeds import copy_id, exercise_seed, student_seed  # noqa: E402

SECRET = "student copy test secret"
PUPIL = "alice"
_KEY = re.compile(r"SealedCheck\((\"[^\"]*\")\)")


def _key_of(nb) -> dict:
    """The sealed key of a copy, decoded (base64, zlib, JSON)."""
    import base64
    import zlib

    (cell,) = [c for c in nb.cells if "check-key" in c.metadata.get("tags", [])]
    key = json.loads(_KEY.search("".join(cell.source))[1])
    return json.loads(zlib.decompress(base64.b64decode(key)))


@pytest.fixture(scope="module")
def per_student(tmp_path_factory):
    """PUPIL's copies of every chapter with exercises, in each feedback mode: the raw
    file text with its decoded sealed key appended, and the notebook."""
    out = tmp_path_factory.mktemp("per_student")
    paths = [p for p in CHAPTERS if int(p.name[:2]) in WITH_EXERCISES]
    copies: dict[str, dict[str, tuple[str, object]]] = {}
    for mode in ("full", "verdict", "none"):
        for path in student.write_student_copies(paths, out / mode, students=[PUPIL],
                                                 secret=SECRET, feedback=mode):
            nb = nbformat.read(path, as_version=4)
            text = path.read_text(encoding="utf-8") + json.dumps(_key_of(nb))
            copies.setdefault(mode, {})[path.name] = (text, nb)
    return copies


def test_a_per_student_copy_holds_neither_the_seed_nor_what_gives_it(per_student):
    """With the public answer key, the seed gives every answer of a student's variants
    (``get(i).variant(exercise_seed(seed, i)).solution``): no copy may hold it, nor the
    exercises' seeds, nor the salts once derived from it. The copy records the student
    and its id, and its salts come from that id."""
    seed = student_seed(SECRET, PUPIL)
    ident = copy_id(SECRET, PUPIL)
    searched = 0
    for mode, copies in per_student.items():
        for name, (text, nb) in copies.items():
            course = nb.metadata["course"]
            assert course["variant"] == {"student": PUPIL, "id": ident}, name
            assert course["feedback"] == mode
            lowered = text.lower()
            needles = [seed, seed[:16], seed[16:]]
            for ex in exercises_for(int(name[:2])):
                if ex.variants is None:
                    continue
                n = exercise_seed(seed, ex.id)
                needles += [str(n), f"{n:x}",
                            __import__("hashlib").sha256(
                                f"salt|{seed}|{ex.id}".encode()).hexdigest()[:32]]
            for needle in needles:
                assert needle.lower() not in lowered, (mode, name, needle)
                searched += 1
            salts = [e["salt"] for e in _key_of(nb)["exercises"]]
            assert (mode == "none") == all(s == "" for s in salts)
    # 3 modes x 18 chapters, 3 pieces of the seed, 3 strings for each of 75 variants
    assert searched == 3 * (3 * len(per_student["full"]) + 3 * sum(
        ex.variants is not None for ex in REGISTRY.values()))


def test_per_student_copies_of_a_chapter_differ_only_in_their_variants(tmp_path):
    """Two students' copies: different ids and salts, same cells outside the exercises."""
    path = ROOT / "notebooks" / "03_auc_pairs.ipynb"
    a, b = (nbformat.read(student.write_student_copies(
        [path], tmp_path, students=[s], secret=SECRET)[0], as_version=4)
        for s in ("alice", "bob"))
    assert a.metadata["course"]["variant"]["id"] != b.metadata["course"]["variant"]["id"]
    assert {e["salt"] for e in _key_of(a)["exercises"]}.isdisjoint(
        {e["salt"] for e in _key_of(b)["exercises"]})


def _hints(checker) -> list[str]:
    """Every hint text of a checker."""
    out: list[str] = []
    if isinstance(checker, NumberChecker):
        out += [checker.hint, *(m.hint for m in checker.mistakes)]
    elif isinstance(checker, ChoiceChecker):
        out += [checker.hint, *checker.mistakes.values()]
    elif isinstance(checker, TupleChecker):
        out += [h for _, h in checker.whole_mistake_values]
        for part in checker.parts:
            out += _hints(part)
    elif isinstance(checker, PredicateChecker) and checker.expression is not None:
        out += [checker.expression[3], *(m.hint for m in checker.expression[2])]
    return out


def _mistake_hashes(body: dict) -> list[str]:
    """The hashes of the wrong answers in a full key's sealed check."""
    def number(sealed: dict) -> list[str]:
        return [*sealed["g"], *([sealed["f"][0]] if "f" in sealed else [])]

    kind = body["t"]
    out: list[str] = []
    if kind == "number":
        for m in body["mistakes"] + [body[k] for k in ("percent", "close") if k in body]:
            out += number(m)
    elif kind == "choice":
        out += list(body["mistakes"])
    elif kind == "tuple":
        for whole in body["whole"]:
            for element in whole["elements"]:
                out += [element["s"][0]] if "s" in element else number(element)
        for part in body["parts"]:
            out += _mistake_hashes(part)
    elif kind == "formula":
        for m in body["mistakes"]:
            for point in m:
                out += number(point)
    return out


def _accepted_hashes(body: dict) -> list[str]:
    """The hashes of the accepted answers (a tuple's whole mistake, e.g. two parts
    swapped, hashes values that are other parts' accepted answers)."""
    kind = body["t"]
    if kind == "number":
        return [*body["ref"]["g"], *([body["ref"]["f"][0]] if "f" in body["ref"] else [])]
    if kind == "choice":
        return [body["ref"]]
    if kind == "tuple":
        return [h for part in body["parts"] for h in _accepted_hashes(part)]
    if kind == "formula":
        return [h for point in body["ref"] for h in [*point["g"], *point.get("f", [])[:1]]]
    return []


def test_verdict_and_none_copies_hold_no_hint_and_no_mistake_hash(per_student):
    """A full copy holds the hints (in the clear or locked under their wrong answers) and
    the hashes of the wrong answers; the same student's verdict and none copies (same
    salts) hold none of them, and a none copy holds no hash at all."""
    seed = student_seed(SECRET, PUPIL)
    hints: set[str] = set()
    hashes: set[str] = set()
    for name, (_text, nb) in per_student["full"].items():
        own = student_exercises(int(name[:2]), seed)
        for ex in own.values():
            hints.update(h.strip() for h in _hints(ex.checker) if len(h.strip()) >= 12)
            if ex.function is not None:
                hints.update(h.strip() for _, h in ex.function.wrong_versions)
        for sealed in _key_of(nb)["exercises"]:
            body = sealed["check"]
            hashes.update(set(_mistake_hashes(body)) - set(_accepted_hashes(body)))
            if body["t"] == "function":
                hints.update(w["hint"] for w in body["wrong"])
    assert len(hints) > 100 and len(hashes) > 1000
    full_text = "\n".join(text for text, _ in per_student["full"].values())
    assert sum(h in full_text for h in hashes) == len(hashes)
    for mode in ("verdict", "none"):
        for name, (text, nb) in per_student[mode].items():
            leaked = [h for h in hints if h in text]
            assert not leaked, (mode, name, leaked[:3])
            assert not [h for h in hashes if h in text], (mode, name)
            for sealed in _key_of(nb)["exercises"]:
                body = sealed["check"]
                if mode == "none":
                    assert body == {"t": "recorded"} and sealed["salt"] == ""
                else:
                    assert _mistake_hashes(body) == [] and body.get("hint", "") == ""
                    assert "percent" not in body and "close" not in body
                    assert body.get("whole", []) == []
                    assert body.get("wrong", []) == []


def test_verdict_says_right_or_not_right_and_none_says_recorded():
    """On chapter 3's exercises (the book's numbers): the right answer passes in full
    and verdict; a known wrong answer gets its hint in full, a bare "not right" and no
    points in verdict; in none both only get "answer recorded"."""
    from fractions import Fraction

    exercises = exercises_for(3)
    checks = {mode: SealedCheck(seal_key(exercises, salt_seed="t", feedback=mode))
              for mode in ("full", "verdict", "none")}
    tried = 0
    for ex in exercises:
        wrong = None
        if isinstance(ex.checker, NumberChecker) and ex.checker.mistakes:
            wrong = ex.checker.mistakes[0].value
        elif ex.function is not None and ex.function.wrong_versions:
            wrong = ex.function.wrong_versions[0][0]
        right = ex.function.reference if ex.function is not None else ex.solution
        if isinstance(right, Fraction):
            assert checks["full"](ex.id, right).passed
            verdict = checks["verdict"](ex.id, right)
            assert verdict.passed and verdict.message == "right"
            assert verdict.points == verdict.max_points
        elif ex.function is not None:  # the public cases pass; the grader gives the points
            for mode in ("full", "verdict"):
                fb = checks[mode](ex.id, right)
                assert fb.passed and fb.public_only and fb.points == 0
                assert "public cases; graded on hidden cases as well" in fb.message
        if wrong is not None and not checks["full"](ex.id, wrong).passed:
            # (a wrong function may differ from the reference on hidden cases only)
            full = checks["full"](ex.id, wrong)
            verdict = checks["verdict"](ex.id, wrong)
            assert not full.passed and len(full.message) > len("not right")
            assert (verdict.passed, verdict.points, verdict.message) == (False, 0, "not right")
            tried += 1
        recorded = {str(checks["none"](ex.id, a)) for a in (right, wrong or 0.123)}
        assert recorded == {f"{ex.id}: answer recorded (it is judged when your notebook "
                            "is graded)"}
        assert not hasattr(checks["none"](ex.id, right), "passed")
        assert "not answered" in str(checks["none"](ex.id, ...))
    assert tried >= 2


def test_a_tuple_with_one_part_right_gets_nothing_and_no_detail_in_verdict():
    tuples = [ex for ex in REGISTRY.values() if isinstance(ex.checker, TupleChecker)]
    assert tuples
    ex = tuples[0]
    right = tuple(ex.solution)
    half = (right[0], *(("wrong" if isinstance(v, str) else 12345.678) for v in right[1:]))
    full = SealedCheck(seal_key([ex], feedback="full"))(ex.id, half)
    verdict = SealedCheck(seal_key([ex], feedback="verdict"))(ex.id, half)
    assert 0 < full.points < full.max_points and ex.checker.names[0] in full.message
    assert (verdict.points, verdict.message) == (0, "not right")
    assert SealedCheck(seal_key([ex], feedback="verdict"))(ex.id, right).passed


def test_command_line_feedback_option(tmp_path):
    nb = fixtures.chapter_notebook(WITH_EXERCISES[0])
    src = tmp_path / f"{WITH_EXERCISES[0]:02d}_fixture.ipynb"
    nbformat.write(nb, src)
    for mode in ("full", "verdict", "none"):
        assert student.main([str(src), "--out-dir", str(tmp_path / mode),
                             "--feedback", mode]) == 0
        copy_ = nbformat.read(tmp_path / mode / "notebooks" / src.name, as_version=4)
        assert copy_.metadata["course"]["feedback"] == mode
        assert SealedCheck(json.loads(_KEY.search("".join(
            c.source for c in copy_.cells if "check-key" in c.metadata.get("tags", [])))[1])
        ).feedback == mode
    with pytest.raises(SystemExit):
        student.main([str(src), "--out-dir", str(tmp_path / "x"), "--feedback", "some"])
    with pytest.raises(ValueError, match="student and the copy id only"):
        student_copy(nb, variant={"student": "a", "id": "0" * 16, "seed": "0" * 32})
