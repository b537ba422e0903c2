"""Variants of chapters 1, 2, 4 and 5: the book's exercises unchanged, and each variant
keeps the feature its question is about (a tie, an imbalance, a tie broken, ...).

The generic soundness of every variant (its code passes its check, the book's answer
fails it, deterministic, recordable) is tested in ``test_variants.py``.
"""

from fractions import Fraction

import numpy as np
import pytest
from notebook_tools import chapter, load

import course_lib as cl
from course_lib.exercises import REGISTRY, exercises_for

SEEDS = range(12)
NOTEBOOKS = {1: "01_threshold_metrics", 2: "02_roc_grid", 4: "04_optimizing_auc",
             5: "05_gini_economics"}
# value exercises left without variants (none since every value exercise got variants:
# the three whose book answer cannot change with data ask about other numbers instead)
WITHOUT_VARIANTS: set[str] = set()


def _variants(exercise_id):
    book = REGISTRY[exercise_id]
    return [book.variant(seed) for seed in SEEDS]


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_the_book_questions_are_the_notebooks(number):
    """The book's data give the very question the chapter notebook shows."""
    nb = load(chapter(NOTEBOOKS[number]))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    for ex in exercises_for(number):
        assert any(f":label: {ex.id}\n\n{ex.question}\n```" in c for c in cells), ex.id


@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_every_value_exercise_has_variants_but_those_whose_answer_cannot_change(number):
    # the chapter's checkpoint (issue 28, item 3) is a conceptual multiple-choice question,
    # the same for every student on purpose: it has no variants (test_variant_coverage.py)
    for ex in exercises_for(number):
        if ex.kind == "value" and not ex.id.startswith("checkpoint-"):
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


# ------------------------------------------------------------------------ chapter 2
def _curve(y, b):
    c = cl.roc_curve(y, b)
    return [(Fraction(f).limit_denominator(1000), Fraction(t).limit_denominator(1000))
            for f, t in zip(c.fpr, c.tpr)]


def _tie(data):
    y, b = data["y"], data["b"]
    ties = [(i, j) for i in range(len(y)) for j in range(len(y))
            if y[i] == 1 and y[j] == 0 and b[i] == b[j]]
    assert len(ties) == 1
    return ties[0]


def test_chapter2_book_answers():
    assert REGISTRY["roc-point-table1"].solution == (Fraction(1, 2), 1)
    assert REGISTRY["roc-vertices-table1"].solution == [
        (0, 0), (0, Fraction(1, 3)), (Fraction(1, 4), Fraction(1, 3)),
        (Fraction(1, 4), Fraction(2, 3)), (Fraction(1, 2), 1), (Fraction(3, 4), 1), (1, 1)]
    assert REGISTRY["auc-moved-object5"].solution == Fraction(5, 6)
    assert REGISTRY["roc-mixed-thresholds"].solution == (Fraction(3, 8), Fraction(5, 6))


def test_roc_point_variants_cut_at_the_tie():
    for v in _variants("roc-point-table1"):
        y, b, theta = v.data["y"], v.data["b"], v.data["theta"]
        i, j = _tie(v.data)
        assert theta == b[i] == b[j] > min(b)
        m1, m0 = sum(y), len(y) - sum(y)
        strict = (Fraction(sum(s > theta for s, t in zip(b, y) if t == 0), m0),
                  Fraction(sum(s > theta for s, t in zip(b, y) if t == 1), m1))
        fb = v.check(strict)
        assert not fb.passed and "at least the threshold" in fb.message


def test_roc_vertices_variants_are_judged_on_their_own_curve():
    """The judge recomputes the vertices and the typical wrong walks on the variant's
    table: the right list passes (as floats too), the swapped, ascending and tie-splitting
    walks get their hints, the book's vertices fail."""
    book = REGISTRY["roc-vertices-table1"]
    for v in _variants("roc-vertices-table1"):
        y, b = v.data["y"], v.data["b"]
        right = _curve(y, b)
        assert v.solution == right and len(right) == 7
        assert v.check([(float(p), float(q)) for p, q in right]).passed
        assert v.check(np.array(right, dtype=float)).passed
        assert not v.check(book.solution).passed
        assert "swapped" in v.check([(q, p) for p, q in right]).message
        assert "descending" in v.check(_curve(y, [-s for s in b])).message
        i, j = _tie(v.data)
        for first in (i, j):
            split = list(b)
            split[first] = b[first] + 0.01
            msg = v.check(_curve(y, split)).message
            assert f"The tied objects {i + 1} and {j + 1} form one diagonal step" in msg
        assert "starts at (0, 0)" in v.check([(1, 1)] + right[1:]).message
        assert v.checker.success == "correct: the seven vertices"


def test_roc_vertices_worked_walk_has_one_move_per_score():
    for v in _variants("roc-vertices-table1"):
        walk = v.worked
        moves = walk.count("up") + walk.count("right") + walk.count("diagonal")
        assert moves == len(set(v.data["b"])) == 6, walk
        assert walk.count("diagonal") == 1 and "(one of each)" in walk


def test_moved_variants_break_the_tie_by_half_a_pair():
    for v in _variants("auc-moved-object5"):
        i, j = _tie(v.data)
        y, b = v.data["y"], v.data["b"]
        assert abs(v.data["to"] - b[i]) == pytest.approx(0.05)
        before = cl.roc_auc(y, b, exact=True)
        step = Fraction(1, 2 * 12) * (1 if v.data["to"] > b[i] else -1)
        assert v.solution == before + step
        assert "is broken" in v.check(before).message
        assert f"Move object {i + 1} (a positive)" in v.question


def test_mixed_threshold_variants_name_the_swapped_probability():
    for v in _variants("roc-mixed-thresholds"):
        d = v.data
        q = Fraction(d["q"])
        a = cl.roc_point(d["y"], d["b"], d["theta_a"])
        b = cl.roc_point(d["y"], d["b"], d["theta_b"])
        assert v.solution == tuple(q * x + (1 - q) * z for x, z in zip(a, b))
        wrong = tuple((1 - q) * x + q * z for x, z in zip(a, b))
        assert f"belongs to the threshold {d['theta_a']}" in v.check(wrong).message
        assert v.check(tuple(str(x) for x in v.solution)).passed


# ------------------------------------------------------------------------ chapter 4
def test_chapter4_book_answers():
    assert REGISTRY["pairs-sample-size"].solution == 15200
    assert REGISTRY["soft-auc-table1"].solution == pytest.approx(0.5409645714, abs=1e-9)
    assert REGISTRY["soft-auc-scale"].solution == 2


def test_pairs_size_variants_have_a_minority_of_positives():
    for v in _variants("pairs-sample-size"):
        n, percent = v.data["n"], v.data["percent"]
        m1 = n * percent // 100
        assert m1 * 100 == n * percent and 2 <= percent <= 25
        assert v.solution == 2 * m1 * (n - m1)
        assert "enters twice" in v.check(m1 * (n - m1)).message
        assert "not balanced" in v.check(n * n // 2).message


def test_soft_auc_variants_are_the_surrogate_of_their_table():
    for v in _variants("soft-auc-table1"):
        y, b = v.data["y"], v.data["b"]
        pos = [s for s, t in zip(b, y) if t == 1]
        neg = [s for s, t in zip(b, y) if t == 0]
        mean = np.mean([1 / (1 + np.exp(-(p - q))) for p in pos for q in neg])
        assert v.solution == pytest.approx(mean, abs=1e-12)
        assert "sign is reversed" in v.check(1 - mean).message
        assert f"about {mean:.3f}" in v.worked


def test_scale_variants_multiply_beta():
    for v in _variants("soft-auc-scale"):
        factor, beta = v.data["factor"], v.data["beta"]
        assert v.solution == factor * beta
        assert f"$\\beta = {beta}$ of the scores ${factor}b$" in v.question
        assert "smaller beta" in v.check(Fraction(beta, factor)).message


# ------------------------------------------------------------------------ chapter 5
def test_chapter5_book_answers():
    assert REGISTRY["gini-brown-incomes"].solution == Fraction(2, 5)
    assert REGISTRY["gini-scaled-shifted"].solution == (Fraction(2, 5), Fraction(8, 25))
    assert REGISTRY["gini-one-vs-two-rich"].solution == (Fraction(9, 10), Fraction(4, 5))


def _brown(values):
    v = sorted(Fraction(x) for x in values)
    cum = [Fraction(0)]
    for x in v:
        cum.append(cum[-1] + x)
    return 1 - sum((cum[k] + cum[k - 1]) / cum[-1] / len(v) for k in range(1, len(v) + 1))


def test_brown_variants_list_five_sorted_incomes():
    for v in _variants("gini-brown-incomes"):
        incomes = v.data["incomes"]
        assert len(incomes) == len(set(incomes)) == 5 and list(incomes) == sorted(incomes)
        assert v.solution == _brown(incomes)
        assert "area under the diagonal" in v.check(v.solution / 2).message
        assert v.worked.endswith(f"so G = {v.solution}.")


def test_shifted_variants_keep_the_doubled_gini_and_lower_the_shifted_one():
    for v in _variants("gini-scaled-shifted"):
        incomes = v.data["incomes"]
        doubled, plus_10 = v.solution
        assert doubled == _brown(incomes) == _brown([2 * x for x in incomes])
        assert plus_10 == _brown([x + 10 for x in incomes]) < doubled
        assert f"(Gini coefficient {doubled})" in v.question
        fb = v.check((doubled, doubled))
        assert fb.points == 0.5 and "more equal" in fb.message


def test_rich_variants_depend_on_the_village_size_only():
    for v in _variants("gini-one-vs-two-rich"):
        n = v.data["n"]
        assert v.solution == (1 - Fraction(1, n), 1 - Fraction(2, n))
        assert f"earns {v.data['income']} and the others 0" in v.question


# ------------------------------------------------------------------------ copies
@pytest.mark.parametrize("number", sorted(NOTEBOOKS))
def test_per_student_copies_show_and_seal_their_own_variant(tmp_path, number):
    """A student's copy shows the student's data; its sealed check passes the student's
    numbers and refuses a classmate's and the book's (the ROC vertices, judged by a
    predicate, are left to the grader, as in the book)."""
    import nbformat

    from course_lib.exercises import student
    from course_lib.exercises.seeds import copy_id, student_seed
    from course_lib.exercises.student import student_exercises

    roster = tmp_path / "roster.csv"
    roster.write_text("student,name\nalice,Alice A.\nbob,Bob B.\n", encoding="utf-8")
    path = chapter(NOTEBOOKS[number])
    assert student.main([str(path), "--out-dir", str(tmp_path / "out"), "--roster",
                         str(roster), "--secret-file", str(tmp_path / "class.secret")]) == 0
    secret = (tmp_path / "class.secret").read_text().strip()
    own = {}
    for name in ("alice", "bob"):
        nb = nbformat.read(tmp_path / "out" / name / "notebooks" / path.name, as_version=4)
        # the copy names its student and its copy id, never the seed
        variant = nb.metadata["course"]["variant"]
        assert variant == {"student": name, "id": copy_id(secret, name)}
        assert "seed" not in variant
        own[name] = student_exercises(number, student_seed(secret, name))
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for ex in own[name].values():
            if ex.variants is not None:
                assert ex.question in text, (name, ex.id)
        if name == "alice":
            ns: dict = {}
            key = [c for c in nb.cells if "check-key" in c.metadata.get("tags", [])]
            exec(key[0].source, ns)
            check = ns["check"]
    for ex_id, ex in own["alice"].items():
        if ex.variants is None:
            continue
        mine = check(ex_id, ex.solution)
        if ex_id == "roc-vertices-table1":
            assert "will be judged when your notebook is graded" in mine.message
            continue
        assert mine.passed, (ex_id, mine.message)
        assert not check(ex_id, REGISTRY[ex_id].solution).passed
        theirs = own["bob"][ex_id].solution
        assert check(ex_id, theirs).passed == ex.check(theirs).passed
