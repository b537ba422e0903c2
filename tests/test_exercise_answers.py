"""Each exercise box of the book names the variable of its answer
(``book/_ext/exercise_answers.py``), as the student copies do.

A small Sphinx project (one notebook in the book's format, with two exercises of the
answer key) is built in a few seconds, with and without the worked solutions;
tests/test_book.py checks every box of the built book.
"""

from __future__ import annotations

import sys
from pathlib import Path

import notebook_tools
import pytest
from sphinx.errors import SphinxWarning

from course_lib.exercises import get
from course_lib.exercises.student import answer_note, answer_parts

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "book" / "_ext"
sys.path.insert(0, str(EXT))
import exercise_answers  # noqa: E402


def _cells(*labels: str) -> list[tuple[str, str]]:
    cells = [("markdown", "# A chapter\n\n## Exercises\n\nEach exercise names the variable "
                          "that holds its answer.")]
    for label in labels:
        cells += [
            ("markdown", f"```{{exercise}} About {label}\n:label: {label}\n\nQUESTION {label}?\n```"),
            ("markdown", f"```{{solution-start}} {label}\n:class: dropdown\n```\nWORKEDPROSE."),
            ("code", "SOLUTIONCODE = 1"),
            ("markdown", "```{solution-end}\n```"),
        ]
    return cells


def _build(tmp_path: Path, cells: list[tuple[str, str]], hide: bool = False) -> str:
    return notebook_tools.build_page(tmp_path, cells, ["editions", "exercise_answers"],
                                     hide_solutions=hide)


def _boxes(html: str) -> list[str]:
    """The HTML of each exercise box (sphinx-exercise's ``div.exercise``), in order."""
    starts = [i for i in range(len(html)) if html.startswith('<div class="exercise', i)]
    ends = [html.index("</section>", i) for i in starts]
    return [html[i:j] for i, j in zip(starts, ends)]


@pytest.mark.parametrize("hide", [False, True], ids=["book", "student-edition"])
def test_each_box_ends_with_its_answer_name(tmp_path, hide):
    html = _build(tmp_path, _cells("auc-pairs-table1", "auc-pairs-function"), hide=hide)
    boxes = _boxes(html)
    assert len(boxes) == 2
    assert "QUESTION auc-pairs-table1?" in boxes[0]
    assert boxes[0].rstrip().endswith(
        '<p class="exercise-answer"><strong>Your answer:</strong> <code class="docutils literal '
        'notranslate"><span class="pre">auc_table1</span></code>.</p>')
    assert ('<strong>Your answer:</strong> a function <code class="docutils literal notranslate">'
            '<span class="pre">auc_pairs(y_true,</span> <span class="pre">y_score)</span></code>.'
            in boxes[1])
    assert ("WORKEDPROSE" in html) is not hide


def test_the_book_and_the_copies_say_it_alike():
    for exercise_id in ("auc-pairs-table1", "auc-pairs-function"):
        words, code = answer_parts(exercise_id)
        assert answer_note(exercise_id) == f"**Your answer:** {words}`{code}`, in the code cell below."
        assert code.startswith(get(exercise_id).answer_name)
        text = exercise_answers.answer_paragraph(words, code).astext()
        assert text == f"Your answer: {words}{code}."


def test_an_exercise_unknown_to_the_key_fails_the_build(tmp_path):
    with pytest.raises(SphinxWarning, match="not in the answer key"):
        _build(tmp_path, _cells("no-such-exercise"))
