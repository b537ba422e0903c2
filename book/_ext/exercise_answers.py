"""Sphinx extension: every exercise box names the variable that holds its answer.

The chapters say that each exercise names the variable of its answer, and the student
copies end each exercise with "**Your answer:** `point_02`, in the code cell below"
(``course_lib.exercises.student.answer_note``). The book's exercise boxes (sphinx-exercise's
``{exercise}`` directive) end with the same words, "**Your answer:** `point_02`." or, for a
function, "**Your answer:** a function `auc_pairs(y_true, y_score)`.", taken from the
exercise in the answer key by the box's ``:label:`` (``answer_parts`` of the same module),
so nothing is typed per exercise. Every edition shows it: the HTML book, the student
edition (``make book-student``) and the PDFs, which print the single-page HTML.

A labelled exercise that the answer key does not know is a warning (an error in the
book's build, which runs with ``-W``), as is a build where the key is not installed.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
#: The class of the paragraph added at the end of each exercise box.
ANSWER_CLASS = "exercise-answer"


def answer_paragraph(words: str, code: str) -> nodes.paragraph:
    """``**Your answer:** words `code`.`` as a docutils paragraph."""
    paragraph = nodes.paragraph(classes=[ANSWER_CLASS])
    paragraph += nodes.strong("Your answer:", "Your answer:")
    paragraph += nodes.Text(" " + words)
    paragraph += nodes.literal(code, code)
    paragraph += nodes.Text(".")
    return paragraph


class AnswerNames(SphinxTransform):
    """Appends the answer's name to the content of every labelled exercise box."""

    # After sphinx-exercise's transforms that merge gated directives (priorities 1-10)
    # and editions.Solutions (11).
    default_priority = 12

    def apply(self, **kwargs: Any) -> None:
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node

        boxes = [n for n in self.document.findall(nodes.Element)
                 if isinstance(n, (exercise_enumerable_node, exercise_node))]
        if not boxes:
            return
        try:
            from course_lib.exercises.student import answer_parts
        except ImportError as exc:
            LOGGER.warning("the exercise boxes cannot name their answers: %s", exc,
                           location=boxes[0])
            return
        for box in boxes:
            label = box.get("label", "")
            try:
                words, code = answer_parts(label)
            except (KeyError, ValueError):
                LOGGER.warning("exercise %r is not in the answer key (course_key): its box "
                               "cannot name the variable of its answer", label, location=box)
                continue
            content = [c for c in box.children if isinstance(c, nodes.section)]
            (content[-1] if content else box).append(answer_paragraph(words, code))


def setup(app: Any) -> dict[str, Any]:
    app.add_transform(AnswerNames)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
