"""Chapter 16 exercises: more than two classes (one-vs-rest, one-vs-one, Hand and Till's M)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    numbers_close,
    value_exercise,
    with_variants,
)
from course_lib.multiclass import ovo_auc, ovr_auc
from course_lib.roc import roc_auc

from ._checkpoints import checkpoint
from ._hints import keep_distinct
from ._variants import decimal_text, exact_text, fraction_code

# The small table of the first exercises: classes a, b, c; the scores of class a.
_Y = ["a", "a", "b", "b", "b", "c"]
_P = [[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2],
      [0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.4, 0.2, 0.4]]
_SMALL = {"y": _Y, "P": _P}

# A(a|b) = 9/10 and A(a|c) = 3/5 with 30 objects of b and 10 of c.
_PAIRS = {"a_b": "9/10", "a_c": "3/5", "n_b": 30, "n_c": 10}


def _hand_till_m(y, P):
    """Reference: Hand and Till's M of labels 0..c-1 and a score matrix."""
    return float(ovo_auc(np.asarray(y), np.asarray(P, dtype=float), probabilities=False))


def _ovr_macro(y, P):
    return float(ovr_auc(np.asarray(y), np.asarray(P, dtype=float), probabilities=False))


def _one_direction(y, P):
    y, P = np.asarray(y), np.asarray(P, dtype=float)
    c = P.shape[1]
    vals = []
    for i, j in combinations(range(c), 2):
        m = (y == i) | (y == j)
        vals.append(roc_auc(y[m] == i, P[m, i]))
    return float(np.mean(vals))


#: Three classes, one object each; a class of two; two of each class with ties.
_M_PUBLIC = (
    {"y": [0, 1, 2], "P": [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]},
    {"y": [0, 0, 1, 2], "P": [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [0.2, 0.4, 0.4],
                              [0.5, 0.0, 0.5]]},
    {"y": [0, 1, 2, 0, 1, 2], "P": [[0.5, 0.25, 0.25], [0.5, 0.5, 0.0], [0.25, 0.25, 0.5],
                                    [0.25, 0.5, 0.25], [0.5, 0.25, 0.25], [0.5, 0.0, 0.5]]},
)


def _m_cases(seed: int) -> list[dict]:
    """Labels 0..c-1 with every class present; probability rows on a coarse grid
    (many ties), so a solution that breaks ties differently fails."""
    rng = np.random.default_rng(seed)
    cases = [{"y": [0, 1, 2], "P": [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25],
                                    [0.25, 0.25, 0.5]]},
             {"y": [0, 0, 1, 2], "P": [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4],
                                       [0.2, 0.4, 0.4], [0.5, 0.0, 0.5]]}]
    for _ in range(10):
        c = int(rng.integers(3, 6))
        n = int(rng.integers(c + 1, 30))
        y = np.concatenate([np.arange(c), rng.integers(0, c, n - c)])
        k = rng.integers(0, 4, size=(n, c)).astype(float)
        k[k.sum(axis=1) == 0, 0] = 1.0
        P = np.round(k / k.sum(axis=1, keepdims=True), 6)
        cases.append({"y": [int(v) for v in y], "P": P.tolist()})
    return cases


def _judge_m(case, expected, given):
    return numbers_close(expected, given, 1e-9)


def _rows_text(P) -> str:
    rows = [str([float(v) for v in row]) for row in P]
    return ", ".join(rows[:4]) + ",\n" + ", ".join(rows[4:])


def _rows_code(P) -> str:
    rows = [str([float(v) for v in row]) for row in P]
    return ("P = np.array([" + ", ".join(rows[:3]) + ",\n              "
            + ", ".join(rows[3:]) + "])")


def _small_sentence(data: dict) -> str:
    labels = ", ".join(f'"{v}"' for v in data["y"])
    return (f"Six objects of three classes a, b, c (labels `[{labels}]`) get the\n"
            f"probability rows `[{_rows_text(data['P'])}]` (columns a, b, c).")


def _small_code(data: dict) -> str:
    labels = ", ".join(f'"{v}"' for v in data["y"])
    return f"y = np.array([{labels}])\n" + _rows_code(data["P"]) + "\n"


def _and(items) -> str:
    """``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ovr_a(data: dict) -> Exercise:
    y, P = list(data["y"]), [[float(v) for v in row] for row in data["P"]]
    auc = Fraction(ovr_auc(y, P, average=None, exact=True)[0])
    mine = [row[0] for c, row in zip(y, P) if c == "a"]
    rest = [(row[0], c) for c, row in zip(y, P) if c != "a"]
    pairs = len(mine) * len(rest)
    wins = sum(m > r for m in mine for r, _ in rest)
    ties = [(m, c) for m in mine for r, c in rest if m == r]
    parts = []
    for m in mine:
        w = sum(m > r for r, _ in rest)
        t = sum(m == r for r, _ in rest)
        parts.append(f"{m} wins {w}" + (f" and ties {t}" if t else ""))
    tie_text = " and ".join(f"the {m} of class a ties with the {m} of a class-{c} object"
                            for m, c in ties)
    return value_exercise(
        id="ovr-auc-one-class", chapter=16, title="One class against the rest",
        question=f"""
{_small_sentence(data)} What is the one-vs-rest AUC of
class a (exactly; ties count 1/2)?
""",
        answer_name="auc_a_rest",
        solution_code=_small_code(data) + 'auc_a_rest = cl.roc_auc(y == "a", P[:, 0], exact=True)',
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(Fraction(wins, pairs), f"A tie counts 1/2, not 0: {tie_text}."),
            Mistake(Fraction(wins + len(ties), pairs), "A tie counts 1/2, not 1."),
        ])),
        worked=f"Class a scores {_and(str(m) for m in mine)}; the rest score "
               f"{', '.join(str(r) for r, _ in rest)}. Of the {pairs} "
               f"pairs, {', '.join(parts)}: {decimal_text(wins + Fraction(len(ties), 2))}/"
               f"{pairs} = {auc}.",
    )


def _pair_area(y, P, i: str, j: str) -> tuple[Fraction, Fraction]:
    """A(i|j) and A(j|i) on the objects of classes i and j (exact)."""
    yy, PP = np.asarray(y), np.asarray(P, dtype=float)
    both = (yy == i) | (yy == j)
    a_ij = Fraction(roc_auc(yy[both] == i, PP[both, "abc".index(i)], exact=True))
    a_ji = Fraction(roc_auc(yy[both] == j, PP[both, "abc".index(j)], exact=True))
    return a_ij, a_ji


def _hand_till(data: dict) -> Exercise:
    y, P = list(data["y"]), [[float(v) for v in row] for row in data["P"]]
    m = Fraction(ovo_auc(y, P, exact=True))
    macro = Fraction(ovr_auc(y, P, exact=True))
    steps = []
    for i, j in (("a", "b"), ("a", "c"), ("b", "c")):
        a_ij, a_ji = _pair_area(y, P, i, j)
        steps.append(f"A({i}, {j}) = ({a_ij} + {a_ji})/2 = {(a_ij + a_ji) / 2}")
    same = data == _SMALL
    intro = ("The same six objects and probability rows." if same else
             _small_sentence(data))
    return value_exercise(
        id="hand-till-m-small", chapter=16, title="Hand and Till's M of the small table",
        question=f"""
{intro} Compute Hand and Till's $M$: for every pair
of classes $(i, j)$ the mean of $A(i|j)$ and $A(j|i)$ (each computed on the objects of
the two classes only, with the column of the positive class), then the mean over the
three pairs. Give it exactly.
""",
        answer_name="m_small",
        solution_code=(
            _small_code(data)
            + "pair_areas = []\n"
            'for i, j in [("a", "b"), ("a", "c"), ("b", "c")]:\n'
            "    both = (y == i) | (y == j)\n"
            '    col_i, col_j = "abc".index(i), "abc".index(j)\n'
            "    a_ij = cl.roc_auc(y[both] == i, P[both, col_i], exact=True)\n"
            "    a_ji = cl.roc_auc(y[both] == j, P[both, col_j], exact=True)\n"
            "    pair_areas.append((a_ij + a_ji) / 2)\n"
            "m_small = sum(pair_areas) / 3"),
        solution=m,
        checker=exact(m, mistakes=keep_distinct(m, [
            Mistake(macro, "That is the macro one-vs-rest average; M compares the "
                           "classes two at a time, on the objects of the pair only."),
        ])),
        worked=", ".join(steps) + f"; their mean is M = {m}.",
    )


def _draw_small(rng: np.random.Generator) -> dict:
    """Six objects: two or three of class a, the rest of b and c (at least one each);
    probability rows on a 0.1 grid with one or two ties between a class-a object and
    another in column a, class a ranked above the rest (one-vs-rest AUC above 1/2),
    and M different from the macro one-vs-rest average."""
    while True:
        n_a = int(rng.integers(2, 4))
        n_b = int(rng.integers(1, 6 - n_a))
        y = ["a"] * n_a + ["b"] * n_b + ["c"] * (6 - n_a - n_b)
        k = [sorted(int(v) for v in rng.choice(11, size=2)) for _ in y]
        P = [[round(a / 10, 1), round((b - a) / 10, 1), round((10 - b) / 10, 1)]
             for a, b in k]
        mine = [row[0] for c, row in zip(y, P) if c == "a"]
        rest = [row[0] for c, row in zip(y, P) if c != "a"]
        if sum(m == r for m in mine for r in rest) not in (1, 2):
            continue
        auc = Fraction(ovr_auc(y, P, average=None, exact=True)[0])
        if auc > Fraction(1, 2) and ovo_auc(y, P, exact=True) != ovr_auc(y, P, exact=True):
            return {"y": y, "P": P}


def _pairs_of(data: dict) -> tuple[Fraction, Fraction, int, int]:
    return (Fraction(data["a_b"]), Fraction(data["a_c"]), int(data["n_b"]),
            int(data["n_c"]))


def _ovr_from_pairs(data: dict) -> Exercise:
    a_b, a_c, n_b, n_c = _pairs_of(data)
    total = n_b + n_c
    auc = (n_b * a_b + n_c * a_c) / total
    return value_exercise(
        id="ovr-from-pairwise", chapter=16, title="One-vs-rest from the pairs",
        question=f"""
In a test set, class a is separated from class b with $A(a|b) = {decimal_text(a_b)}$ and from class c
with $A(a|c) = {decimal_text(a_c)}$ (both with the scores of class a). The test set holds {n_b} objects of
class b and {n_c} of class c. What is the one-vs-rest AUC of class a (exactly)?
""",
        answer_name="auc_a_ovr",
        solution_code=f"auc_a_ovr = ({n_b} * {fraction_code(a_b)} + {n_c} * "
                      f"{fraction_code(a_c)}) / {total}",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake((a_b + a_c) / 2, "The rest is not an even mix: weigh each class by its "
                                     f"number of objects, {n_b} and {n_c}."),
            Mistake((n_c * a_b + n_b * a_c) / total,
                    f"The weights are swapped: class b has {n_b} objects, class c {n_c}."),
        ])),
        worked=f"The negatives of class a are the {total} objects of b and c; the pairs "
               f"with b make {n_b}/{total} of them: ({n_b} * {decimal_text(a_b)} + {n_c} * "
               f"{decimal_text(a_c)})/{total} = {exact_text(auc)}.",
    )


def _draw_pairs(rng: np.random.Generator) -> dict:
    """A(a|b) above A(a|c), both in hundredths from 0.55 to 0.98; 10 to 90 objects of
    b and of c (multiples of 10, not equal)."""
    while True:
        a_b, a_c = (int(v) for v in rng.integers(55, 99, size=2))
        n_b, n_c = (int(v) * 10 for v in rng.integers(1, 10, size=2))
        if a_b > a_c and n_b != n_c:
            return {"a_b": f"{a_b}/100", "a_c": f"{a_c}/100", "n_b": n_b, "n_c": n_c}


_TIMES = {2: "twice", 3: "three times", 4: "four times", 5: "five times",
          6: "six times", 7: "seven times", 8: "eight times", 9: "nine times",
          10: "ten times"}


def _ovr_more_c(data: dict) -> Exercise:
    a_b, a_c, n_b, n_c = _pairs_of(data)
    k = int(data["factor"])
    before = (n_b * a_b + n_c * a_c) / (n_b + n_c)
    total = n_b + k * n_c
    auc = (n_b * a_b + k * n_c * a_c) / total
    fixed = (f"$A(a|b) = {decimal_text(a_b)}$ and $A(a|c) = {decimal_text(a_c)}$")
    if data == {**_PAIRS, "factor": 9}:
        intro = (f"The same model is used where class c is {_TIMES[k]} as common: {n_b} "
                 f"objects of class b\nand {k * n_c} of class c, each class scored as "
                 f"before (so {fixed}\ndo not change).")
    else:
        intro = (f"A model separates class a from class b with $A(a|b) = "
                 f"{decimal_text(a_b)}$ and from\nclass c with $A(a|c) = "
                 f"{decimal_text(a_c)}$ on a test set of {n_b} objects of class b and "
                 f"{n_c} of class c.\nIt is used where class c is {_TIMES[k]} as common: "
                 f"{n_b} objects of class b and {k * n_c} of class c,\neach class scored "
                 f"as before (so {fixed} do not change).")
    fell = "fell" if auc < before else "rose"
    return value_exercise(
        id="ovr-more-of-c", chapter=16, title="The same model, more of class c",
        question=f"""
{intro} What is the one-vs-rest AUC of class a now (exactly)?
""",
        answer_name="auc_a_more_c",
        solution_code=f"auc_a_more_c = ({n_b} * {fraction_code(a_b)} + {k * n_c} * "
                      f"{fraction_code(a_c)}) / {total}",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(before, "The pairwise areas stay, but the mix of the rest "
                            f"changed: class c now makes {k * n_c}/{total} of it."),
        ])),
        worked=f"({n_b} * {decimal_text(a_b)} + {k * n_c} * {decimal_text(a_c)})/{total} = "
               f"{exact_text(auc)}: the one-vs-rest area of class a {fell} "
               "although nothing about how the model separates a from b or from c changed; "
               "A(a, b), A(a, c) and so M are unchanged.",
    )


def _draw_more_c(rng: np.random.Generator) -> dict:
    """The data of the previous exercise and a factor 2 to 10 for class c."""
    return {**_draw_pairs(rng), "factor": int(rng.integers(2, 11))}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    16, "mix", "Checkpoint: a new mix of the classes",
    question="""
A model of three classes is used on a population in which one class is four times as
common as in the test set; within each class the scores are distributed as before.
Which of these stays the same (up to sampling noise)? Answer a letter.

- (a) every one-vs-rest AUC
- (b) the macro average of the one-vs-rest AUCs
- (c) the weighted average of the one-vs-rest AUCs
- (d) Hand and Till's $M$
- (e) the one-vs-one average with each pair of classes weighted by its size
""",
    answer="d",
    mistakes={
        "a": "The negatives of a class in its one-vs-rest problem are a mixture of the other "
             "classes; its area is a mean of pairwise areas weighted by that mixture, which "
             "changes for every class but the one that grew.",
        "b": "The macro average is a plain mean of the one-vs-rest areas, and some of them "
             "move with the mix of the rest.",
        "c": "The weighted average weighs the one-vs-rest areas, some of which move, by the "
             "class shares, which move too.",
        "e": "Weighting each pair of classes by its size brings the class sizes back in: "
             "the sizes changed.",
    },
    worked="Each term of M is a binary AUC of two classes, a mean over pairs that does not "
           "depend on the class sizes, and M weighs the pairs of classes equally.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_ovr_a, _SMALL, _draw_small),
    with_variants(_hand_till, _SMALL, _draw_small),
    with_variants(_ovr_from_pairs, _PAIRS, _draw_pairs),
    with_variants(_ovr_more_c, {**_PAIRS, "factor": 9}, _draw_more_c),
    function_exercise(
        id="hand-till-m-function", chapter=16, title="Write Hand and Till's M",
        question="""
Write `hand_till_m(y, P)`: given labels `y` (the integers $0, \\dots, K-1$, every class
present) and an $m \\times K$ list of probability rows `P` (column $j$ for class $j$),
return Hand and Till's $M$ as a float. Ties count 1/2. You may use `cl.roc_auc` for the
binary areas, but not `cl.ovo_auc`.
""",
        answer_name="hand_till_m",
        solution_code='''
def hand_till_m(y, P):
    y, P = np.asarray(y), np.asarray(P, dtype=float)
    c = P.shape[1]
    pairs = []
    for i in range(c):
        for j in range(i + 1, c):
            both = (y == i) | (y == j)
            a_ij = cl.roc_auc(y[both] == i, P[both, i])
            a_ji = cl.roc_auc(y[both] == j, P[both, j])
            pairs.append((a_ij + a_ji) / 2)
    return float(np.mean(pairs))
''',
        spec=FunctionSpec(
            reference=_hand_till_m, cases=_m_cases, judge=_judge_m,
            wrong_versions=(
                (_ovr_macro, "That is the macro one-vs-rest average: M uses only the "
                             "objects of the two classes of each pair."),
                (_one_direction, "Average both directions of each pair: A(i|j) with "
                                 "column i and A(j|i) with column j."),
            ),
            signature="y, P", public=_M_PUBLIC),
        worked="Loop over the pairs i < j, keep the objects of the two classes, average "
               "the two binary areas, then average over the pairs.",
    ),
]
