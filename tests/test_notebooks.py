"""The stored chapters: house rules, and the syllabus facts as the book shows them.

nbval (run by ``make test``) re-executes every notebook and compares each output with
the stored one. The tests here read the stored notebooks: they check that each one was
run top to bottom in a fresh kernel without warnings, and that the numbers glued into
the prose are the syllabus facts (those are in tests/test_chapterNN.py).
"""

from __future__ import annotations

import json
import re

import pytest
from notebook_tools import ROOT, load

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.ipynb"))


def test_there_are_chapters():
    assert any(p.name == "02_roc_grid.ipynb" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_house_rules(path):
    nb = load(path)
    first = nb["cells"][0]
    assert first["cell_type"] == "markdown" and "".join(first["source"]).startswith("# "), (
        "the first cell must be a '# Title' markdown cell"
    )
    counts = [c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), "run top to bottom in a fresh kernel"
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", "stored error output"
            assert out.get("name") != "stderr", f"stderr output: {''.join(out.get('text', ''))[:200]}"
            text = json.dumps(out.get("data", {}).get("text/plain", "")) + json.dumps(out.get("text", ""))
            assert not re.search(r" at 0x[0-9a-f]{6,}", text), "memory address in an output"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name == "notebooks"], ids=lambda p: p.name)
def test_chapter_file_names(path):
    assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", path.name)


def test_every_chapter_is_in_the_table_of_contents():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s*- file: (\S+)", toc, flags=re.M))
    for path in NOTEBOOKS:
        entry = f"{path.parent.name}/{path.stem}"
        assert entry in listed, f"{entry} is not in _toc.yml, so the book leaves it out"


# -- Outputs that re-execute equal on every processor (issue: stored floats must not
# depend on the machine). Floats are rounded where they are glued or printed
# (course_lib.notebook); these tests keep it so.

_FLOAT = re.compile(r"(?<![\w.])-?(\d+\.\d+(?:[eE][-+]?\d+)?)(?![\w.])")


def _significant_digits(literal: str) -> int:
    mantissa = re.split(r"[eE]", literal)[0].replace(".", "").lstrip("0")
    return len(mantissa.rstrip("0")) if mantissa else 0


def _long_floats(path):
    from course_lib.notebook import SIGNIFICANT_DIGITS

    found = []
    for index, cell in enumerate(load(path)["cells"]):
        for out in cell.get("outputs", []):
            texts = [out.get("text", "")] + [
                v for k, v in out.get("data", {}).items() if "svg" not in k and "image/" not in k
            ]
            for text in texts:
                text = "".join(text) if isinstance(text, list) else str(text)
                for literal in _FLOAT.findall(text):
                    if _significant_digits(literal) > SIGNIFICANT_DIGITS:
                        found.append((index, literal))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_stored_float_carries_processor_dependent_digits(path):
    """Glued and printed floats keep at most SIGNIFICANT_DIGITS significant digits."""
    assert _long_floats(path) == [], "round it: course_lib.notebook.glue / round_significant"


def test_the_digit_check_sees_long_floats():
    assert _significant_digits("0.9961601145884208") == 16
    assert _significant_digits("0.9961601146") == 10
    assert _significant_digits("21.62603178") == 10
    assert _significant_digits("1.5e-07") == 2


def test_nbval_catches_a_change_in_the_eighth_significant_digit(tmp_path):
    """The guard bites: a stored glued value altered in its 8th significant digit fails
    the notebook comparison, while the same notebook unaltered passes. (The notebook is
    chapter 5 up to the cell that glues the value: the rest of it, nbval runs anyway.)"""
    import subprocess
    import sys

    source = ROOT / "notebooks" / "05_gini_economics.ipynb"
    nb = load(source)
    def glued_in(cell) -> list:
        return [out for out in cell.get("outputs", [])
                if out.get("metadata", {}).get("scrapbook", {}).get("name") == "gini_5_float"]

    end = next(i for i, cell in enumerate(nb["cells"]) if glued_in(cell))
    nb["cells"] = nb["cells"][:end + 1]
    glued = glued_in(nb["cells"][end])
    (tmp_path / "intact.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    (record,) = [out["data"]["application/papermill.record/text/plain"] for out in glued]
    assert record == "0.2222222222"
    glued[0]["data"]["application/papermill.record/text/plain"] = "0.2222223222"
    (tmp_path / "altered.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
         "--nbval", "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"),
         "intact.ipynb", "altered.ipynb"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    failed = re.findall(r"^FAILED (\S+)", run.stdout, flags=re.M)
    assert run.returncode == 1, run.stdout[-2000:]
    assert failed == ["altered.ipynb::Cell"], run.stdout[-2000:]
    assert "'0.2222223222' == '0.2222222222'" in run.stdout


# -- Every chapter as a class meets it: numbered figures, auto-checked exercises.

CHAPTERS = [p for p in NOTEBOOKS if p.parent.name == "notebooks"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_is_captioned_named_and_referred_to(path):
    """A plot is a numbered figure (myst-nb cell metadata) that the prose refers to."""
    nb = load(path)
    prose = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for index, cell in enumerate(nb["cells"]):
        images = [o for o in cell.get("outputs", [])
                  if any(k.startswith("image/") for k in o.get("data", {}))]
        if not images:
            continue
        figure = cell["metadata"].get("mystnb", {}).get("figure", {})
        assert len(images) == 1, f"cell {index}: one figure per cell, so each gets its caption"
        assert figure.get("caption") and figure.get("name"), f"cell {index}: no caption or name"
        assert f"`{figure['name']}`" in prose or f"<{figure['name']}>`" in prose, (
            f"cell {index}: the text never refers to {figure['name']}")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_chapter_ends_with_its_auto_checked_exercises(path):
    """At least four exercises, every one of the chapter's registry, each checked."""
    from course_lib.exercises import exercises_for

    chapter_number = int(path.name[:2])
    expected = [ex.id for ex in exercises_for(chapter_number)]
    assert len(expected) >= 4
    nb = load(path)
    checked = [c["metadata"].get("exercise") for c in nb["cells"]
               if c["cell_type"] == "code" and "solution" in c["metadata"].get("tags", [])
               and c["metadata"].get("exercise")]
    assert checked == expected


SOURCE_SHORTHAND = re.compile(r"\b[Ss]ources? [DGKSC]\b|\b[DGKSC]'s\b|figures? XA\.|"
                              r"\bthe slides\b|\bthe source\b")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_sources_are_named_by_their_authors(path):
    """A reader has none of the sources: no letters, no source figure numbers."""
    prose = "\n".join("".join(c["source"]) for c in load(path)["cells"]
                      if c["cell_type"] == "markdown")
    assert not SOURCE_SHORTHAND.findall(prose)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_exercises_in_the_four_cell_format(path):
    """Every exercise of the chapter, in order: question, worked solution, the reference
    solution ending in a passing check, solution-end (course_lib/exercises/__init__.py)."""
    from course_lib.exercises import exercises_for

    cells = load(path)["cells"]
    src = ["".join(c["source"]) for c in cells]
    assert not any("Check yourself" in s for s in src)
    # the chapter's solution cells are the registry's exercises, in order, at least four
    solved = dict.fromkeys(c["metadata"]["exercise"] for c in cells
                           if c["cell_type"] == "code" and c["metadata"].get("exercise"))
    assert list(solved) == [ex.id for ex in exercises_for(int(path.name[:2]))]
    assert len(solved) >= 4
    for ex in exercises_for(int(path.name[:2])):
        i = next(k for k, s in enumerate(src) if f":label: {ex.id}\n" in s)
        assert src[i].startswith(f"```{{exercise}} {ex.title}\n")
        assert src[i + 1].startswith(f"```{{solution-start}} {ex.id}\n:class: dropdown")
        solution = cells[i + 2]
        assert solution["metadata"]["tags"] == ["solution"]
        assert solution["metadata"]["exercise"] == ex.id
        assert src[i + 2].rstrip().endswith(f"check({json.dumps(ex.id)}, {ex.answer_name})")
        shown = "".join("".join(o.get("data", {}).get("text/plain", ""))
                        for o in solution.get("outputs", []))
        assert f"{ex.id}: passed" in shown
        end = next(k for k in range(i + 3, len(src)) if src[k].startswith("```{solution-end}"))
        for extra in cells[i + 3:end]:
            assert extra["metadata"]["tags"] == ["solution", "remove-cell"]
