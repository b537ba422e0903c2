"""No exercise's answer is printed or glued in its chapter before the exercise.

What a student reads above an exercise is the chapter's text as the book prints it (glued
numbers in place: the lab copy of ``book/_ext/labcopy.py``) and the outputs of its code
cells, without the worked solutions of earlier exercises (folded in the book, absent from
the student edition and the student copies). None of it may contain the exercise's
reference answer in the forms a reader would copy: the exact fraction ``p/q`` (also as
``\\frac{p}{q}``) and its decimal to three or four places. Answers too common to search
for are left out: whole numbers, fractions with a denominator of at most four, decimals
of fewer than three significant digits, lists of points. An exercise that asks the reader
to see that a number shown before stays the same names its reason in
:data:`SHOWN_ON_PURPOSE`.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import labcopy  # noqa: E402

from course_lib.exercises import REGISTRY  # noqa: E402

CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
_LABEL = re.compile(r"^```+\{exercise\}.*\n:label: ([\w-]+)", re.M)
_SOLUTION_START = re.compile(r"^```+\{solution-start\}", re.M)
_SOLUTION_END = re.compile(r"^```+\{solution-end\}", re.M)


#: Exercises whose answer the chapter shows on purpose, with the reason: the question is
#: whether the reader sees that a number stays what it was ("predict, then run").
SHOWN_ON_PURPOSE: dict[str, str] = {
    "thinned-patients": "chapter 1 shows the patients' balanced accuracy (and recall); the "
                        "exercise asks whether the reader sees that thinning the healthy "
                        "leaves these per-class rates as they were",
    "auc-weighted-negatives": "chapter 3 shows Table 1's AUC; the exercise asks whether the "
                              "reader sees that one weight for a whole class leaves it as "
                              "it was",
    "gini-duplicated-negatives": "chapter 6 shows Table 1's AUC and normalized Gini; the "
                                 "exercise asks whether the reader sees that repeating "
                                 "the negatives leaves both (not the unnormalized area) "
                                 "as they were",
    "auc-cubed-table1": "chapter 15 shows Table 1's AUC (19/24, as in chapter 3); the "
                        "exercise asks whether the reader sees that cubing the scores, a "
                        "strictly increasing map, leaves it as it was",
}


def _numbers(value) -> list:
    if isinstance(value, list):  # a list of points: its coordinates are everywhere
        return []
    if isinstance(value, tuple):
        return [x for v in value for x in _numbers(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        return []
    return [value]


def answer_forms(value) -> set[str]:
    """The strings that would give ``value`` away (see the module's docstring).

    >>> sorted(answer_forms(Fraction(19, 24)))
    ['0.7917', '0.792', '19/24', '\\\\frac{19}{24}']
    >>> answer_forms(Fraction(1, 2)) | answer_forms(3) | answer_forms(0.25)
    set()
    """
    forms: set[str] = set()
    for x in _numbers(value):
        if isinstance(x, int) or (isinstance(x, Fraction) and x.denominator == 1):
            continue
        if isinstance(x, Fraction) and x.denominator > 4:
            forms |= {f"{x.numerator}/{x.denominator}",
                      f"\\frac{{{x.numerator}}}{{{x.denominator}}}"}
        for places in (3, 4):
            text = f"{float(x):.{places}f}"
            digits = text.lstrip("-0.").replace(".", "").rstrip("0")
            if len(digits) >= 3:
                forms.add(text)
    return forms


def _found(form: str, text: str) -> bool:
    return re.search(r"(?<![\d.])" + re.escape(form) + r"(?![\d])", text) is not None


def _outputs(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")))
        data = out.get("data", {})
        if "application/papermill.record/text/plain" not in data:  # a glue: shown where used
            parts.append("".join(data.get("text/plain", "")))
    return "\n".join(parts)


def visible_before_exercises(path: Path) -> dict[str, str]:
    """For each exercise label of the chapter, what a student reads above it."""
    import json

    nb = json.loads(path.read_text(encoding="utf-8"))
    lab = labcopy.page_copy(nb, path, index=labcopy.BookIndex.read(ROOT), image_dir=None)
    seen: list[str] = []
    before: dict[str, str] = {}
    in_solution = False
    assert len(lab["cells"]) == len(nb["cells"])
    for cell, shown in zip(nb["cells"], lab["cells"]):
        source = "".join(cell["source"])
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "markdown":
            for label in _LABEL.findall(source):
                before.setdefault(label, "\n".join(seen))
            if _SOLUTION_START.search(source):
                in_solution = True
            if _SOLUTION_END.search(source):
                in_solution = False
                continue
            if not in_solution:
                seen.append("".join(shown["source"]))
        elif not in_solution and "solution" not in tags:
            seen.append(_outputs(cell))
    return before


CASES = [(path, ex.id) for path in CHAPTERS for ex in REGISTRY.values()
         if ex.chapter == int(path.name[:2]) and ex.kind == "value"]


@pytest.fixture(scope="module")
def before_cache():
    return {}


@pytest.mark.parametrize(("path", "exercise"), CASES,
                         ids=[f"{p.name[:2]}-{e}" for p, e in CASES])
def test_the_answer_is_not_in_the_text_above_its_exercise(path, exercise, before_cache):
    if path not in before_cache:
        before_cache[path] = visible_before_exercises(path)
    text = before_cache[path].get(exercise)
    assert text is not None, f"{exercise} has no exercise box in {path.name}"
    if exercise in SHOWN_ON_PURPOSE:
        pytest.skip(SHOWN_ON_PURPOSE[exercise])
    reference = REGISTRY[exercise].solution
    shown = sorted(f for f in answer_forms(reference) if _found(f, text))
    assert not shown, (f"{path.name}: the answer of {exercise} ({reference!r}) is printed "
                       f"above the exercise as {shown}")
