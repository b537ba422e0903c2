"""Variants of chapters 1, 2, 4 and 5: the book's exercises unchanged, and each variant
keeps the feature its question is about (a tie, an imbalance, a tie broken, ...).

The generic soundness of every variant (its code passes its check, the book's answer
fails it, deterministic, recordable) is tested in ``test_variants.py``.
"""

import json
from fractions import Fraction

import pytest

from course_lib.exercises import REGISTRY, exercises_for
from tests.notebook_tools import ROOT

SEEDS = range(12)
NOTEBOOKS = {1: "01_threshold_metrics", 2: "02_roc_grid", 4: "04_optimizing_auc",
             5: "05_gini_economics"}
# value exercises left without variants: their answer cannot change with data
WITHOUT_VARIANTS = {"roc-node-reachable", "soft-auc-beta-zero", "gini-max-ten"}


def _variants(exercise_id):
    book = REGISTRY[exercise_id]
    return [book.variant(seed) for seed in SEEDS]


@pytest.mark.parametrize("chapter", sorted(NOTEBOOKS))
def test_the_book_questions_are_the_notebooks(chapter):
    """The book's data give the very question the chapter notebook shows."""
    nb = json.loads((ROOT / "notebooks" / f"{NOTEBOOKS[chapter]}.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    for ex in exercises_for(chapter):
        assert any(f":label: {ex.id}\n\n{ex.question}\n```" in c for c in cells), ex.id


@pytest.mark.parametrize("chapter", [1])
def test_every_value_exercise_has_variants_but_those_whose_answer_cannot_change(chapter):
    for ex in exercises_for(chapter):
        if ex.kind == "value":
            assert (ex.variants is None) == (ex.id in WITHOUT_VARIANTS), ex.id


# ------------------------------------------------------------------------ chapter 1
def test_chapter1_book_answers():
    assert REGISTRY["fbeta-two-systems"].solution == ("tie", 1, 1, 2)
    assert REGISTRY["f1-system1"].solution == Fraction(42, 65)
    assert REGISTRY["thinned-patients"].solution == (
        Fraction(12, 13), Fraction(4, 5), Fraction(4, 5), Fraction(92, 105))
    assert REGISTRY["spam-flag-all"].solution == (1, Fraction(1, 10000), Fraction(2, 10001))
    assert REGISTRY["macro-recall-3class"].solution == Fraction(2, 3)


def test_fbeta_variants_tie_on_the_mean_and_name_swapped_f2_and_f05():
    answers = set()
    for v in _variants("fbeta-two-systems"):
        p1, r1, p2, r2 = (Fraction(v.data[k]) for k in ("p1", "r1", "p2", "r2"))
        assert p1 + r1 == p2 + r2 and p1 != p2
        assert v.solution[0] == "tie" and "tie" not in v.solution[1:]
        answers.add(v.solution)
        mean, f1, f2, f05 = v.solution
        if f2 != f05:
            fb = v.check((mean, f1, f05, f2))
            assert not fb.passed and "F2 and F0.5 look swapped" in fb.message
        assert v.check(tuple(str(a) for a in v.solution)).passed
    assert len(answers) >= 2


def test_f1_variants_name_the_arithmetic_mean():
    for v in _variants("f1-system1"):
        p, r = Fraction(v.data["p"]), Fraction(v.data["r"])
        assert v.solution == 2 * p * r / (p + r)
        assert "arithmetic mean" in v.check((p + r) / 2).message
        assert f"P = {float(p):g}$" in v.question


def test_thinned_variants_keep_whole_counts_and_unchanged_rates():
    for v in _variants("thinned-patients"):
        d = v.data
        assert d["fp"] % d["keep"] == 0 and d["tn"] % d["keep"] == 0 and d["fp"] > 0
        acc, prec, rec, ba = v.solution
        assert rec == Fraction(d["tp"], d["tp"] + d["fn"])  # unchanged by thinning
        assert ba == (rec + Fraction(d["tn"], d["tn"] + d["fp"])) / 2  # unchanged too
        unchanged = Fraction(d["tp"], d["tp"] + d["fp"])
        fb = v.check((acc, unchanged, rec, ba))
        assert fb.points == 0.75 and "does change" in fb.message
        assert f"Remove {100 - 100 // d['keep']}% of the healthy" in v.question


def test_spam_variants():
    for v in _variants("spam-flag-all"):
        spam, letters = v.data["spam"], v.data["letters"]
        assert v.solution == (1, Fraction(spam, letters), Fraction(2 * spam, letters + spam))
        assert f"{spam} are spam" in v.question


def test_macro_recall_variants_have_classes_of_different_sizes():
    for v in _variants("macro-recall-3class"):
        m = v.data["matrix"]
        sizes = [sum(row) for row in m]
        assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 3
        assert all(x % 5 == 0 for row in m for x in row)
        micro = Fraction(sum(m[i][i] for i in range(3)), sum(sizes))
        if micro != v.solution:
            assert "micro average" in v.check(micro).message
