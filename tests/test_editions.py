"""The book with or without its worked solutions (``book/_ext/editions.py``).

sphinx-exercise's ``hide_solutions`` alone crashes on gated solutions (its issue 89) and
would leave their prose and code in the page; with the extension the switch removes
every solution, code included, and the sentence saying they are folded. A small Sphinx
project (one notebook in the book's format) is built both ways in a few seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import notebook_tools
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "book" / "_ext"
sys.path.insert(0, str(EXT))
import editions  # noqa: E402

CELLS = [
    ("markdown", "# A chapter\n\n## Exercises\n\nEach exercise names the variable that holds "
                 "its answer; `check` says whether\nthe answer is right. The worked solutions "
                 "are folded under each\nexercise."),
    ("markdown", "```{exercise} The first one\n:label: ex-one\n\nWhat is QUESTIONTEXT?\n```"),
    ("markdown", "```{solution-start} ex-one\n:class: dropdown\n```\nWORKEDPROSE is the answer."),
    ("code", "SOLUTIONCODE = 1"),
    ("markdown", "```{solution-end}\n```"),
    ("markdown", "After the exercises: AFTERTEXT."),
]


def _build(tmp_path: Path, hide: bool) -> str:
    return notebook_tools.build_page(tmp_path, CELLS, ["editions"], hide_solutions=hide)


def test_default_edition_keeps_the_solutions_and_marks_the_sentence(tmp_path):
    html = _build(tmp_path, hide=False)
    for text in ("QUESTIONTEXT", "WORKEDPROSE", "SOLUTIONCODE", "AFTERTEXT", "Solution to"):
        assert text in html, text
    assert '<span class="folded-solutions">The worked solutions are folded under each\n' \
           'exercise.</span>' in html


def test_hide_solutions_removes_every_solution_and_the_sentence(tmp_path):
    html = _build(tmp_path, hide=True)
    for text in ("QUESTIONTEXT", "AFTERTEXT", "Each exercise names the variable"):
        assert text in html, text
    for text in ("WORKEDPROSE", "SOLUTIONCODE", "Solution to", "folded under", "solution-end"):
        assert text not in html, text


def test_student_config_is_the_book_config_with_hide_solutions(tmp_path):
    out = editions.student_config(tmp_path / "student.yml")
    config = yaml.safe_load(out.read_text(encoding="utf-8"))
    book = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["config"]["hide_solutions"] is True
    assert book["sphinx"]["config"]["hide_solutions"] is False
    assert "editions" in config["sphinx"]["extra_extensions"]
    for name, folder in config["sphinx"]["local_extensions"].items():
        assert Path(folder).is_absolute() and (Path(folder) / f"{name}.py").is_file()
    assert config["title"].endswith("(student edition)")
    assert editions.main(["nonsense"]) == 2


@pytest.mark.parametrize("argv", [[], ["a", "b", "--solutions", "--answer-key", "c"]])
def test_print_pdf_refuses_a_bad_command_line(argv):
    import print_pdf

    assert print_pdf.main(argv) == 2
