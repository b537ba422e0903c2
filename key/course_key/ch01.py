"""Chapter 1 exercises: thresholds, confusion matrices, precision, recall, F-beta.

Every exercise has per-student variants: other rates, counts or matrices, the same
question (see :mod:`course_key._variants`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
    Mistake,
    exact,
    parts,
    value_exercise,
    with_variants,
    with_whole_mistakes,
)

from ._hints import HINTS, keep_distinct, precision_mistakes
from ._variants import (
    decimal_text,
    draw_hundredths,
    grouped,
    parse_ratio,
    ratio_code,
    ratio_text,
)

_PREF = {"0": "tie", "tie": "tie", "1": "1", "2": "2", "system 1": "1", "system 2": "2"}


def _pref(expected: str) -> ChoiceChecker:
    return ChoiceChecker(expected, _PREF, hint="Compute both systems' values and compare.")


def _rate(text: str) -> Fraction:
    p, q = parse_ratio(text)
    return Fraction(p, q)


def _f_beta(p: Fraction, r: Fraction, beta2: Fraction) -> Fraction:
    """F_beta from precision and recall, ``beta2`` = beta squared."""
    return (1 + beta2) * p * r / (beta2 * p + r)


_BETAS2 = (("f1", Fraction(1)), ("f2", Fraction(4)), ("f05", Fraction(1, 4)))


def _better(a: Fraction, b: Fraction) -> str:
    return "tie" if a == b else ("1" if a > b else "2")


def _system_values(data: dict) -> tuple[dict, dict]:
    """Each system's mean, F1, F2 and F0.5 (exact)."""
    out = []
    for k in ("1", "2"):
        p, r = _rate(data[f"p{k}"]), _rate(data[f"r{k}"])
        out.append({"mean": (p + r) / 2, **{name: _f_beta(p, r, b2) for name, b2 in _BETAS2}})
    return out[0], out[1]


def _fbeta_two_systems(data: dict) -> Exercise:
    s1, s2 = _system_values(data)
    names = ("mean", "f1", "f2", "f05")
    words = tuple(_better(s1[n], s2[n]) for n in names)
    solution = tuple(w if w == "tie" else int(w) for w in words)
    shown = ", ".join(f'"{w}"' if w == "tie" else w for w in words)
    whole = []
    swapped = (words[0], words[1], words[3], words[2])
    if swapped != words:
        whole.append((swapped, "F_beta with beta > 1 weighs recall more, beta < 1 "
                               "weighs precision more: F2 and F0.5 look swapped."))
    p1, r1, p2, r2 = (decimal_text(data[k]) for k in ("p1", "r1", "p2", "r2"))

    def pair(name: str) -> str:
        fmt = "{:g}" if name == "mean" else "{:.3f}"
        return f"{fmt.format(float(s1[name]))} and {fmt.format(float(s2[name]))}"

    return value_exercise(
        id="fbeta-two-systems", chapter=1, title="Which system is better?",
        question=f"""
System 1 has precision $P = {p1}$ and recall $R = {r1}$; system 2 has $P = {p2}$ and
$R = {r2}$. Which one is better by the arithmetic mean of $P$ and $R$, by $F_1$, by $F_2$
and by $F_{{0.5}}$? Answer with a tuple of four entries, each `1`, `2` or `"tie"`, in
this order.
""",
        answer_name="better_system",
        solution_code=f"better_system = ({shown})",
        solution=solution,
        checker=with_whole_mistakes(
            parts(**{n: _pref(w) for n, w in zip(names, words)}), *whole),
        worked=f"Means {pair('mean')}; F1 {pair('f1')}; F2 {pair('f2')}; "
               f"F0.5 {pair('f05')}.",
    )


def _draw_two_systems(rng: np.random.Generator) -> dict:
    """Two systems with the same arithmetic mean of P and R (the book's tie), one more
    precise and one with more recall, whose F1, F2 and F0.5 differ in the third decimal
    (so the worked solution shows which is larger)."""
    for _ in range(1000):
        p1, r1 = int(rng.integers(40, 96)), int(rng.integers(30, 91))
        d = int(rng.integers(5, 26)) * (1 if rng.random() < 0.5 else -1)
        p2, r2 = p1 + d, r1 - d
        if not (30 <= p2 <= 95 and 20 <= r2 <= 95) or (p1, r1) == (r2, p2):
            continue
        data = {"p1": f"{p1}/100", "r1": f"{r1}/100", "p2": f"{p2}/100",
                "r2": f"{r2}/100"}
        s1, s2 = _system_values(data)
        if all(f"{float(s1[n]):.3f}" != f"{float(s2[n]):.3f}" for n in ("f1", "f2", "f05")):
            return data
    raise RuntimeError("could not draw two systems")  # pragma: no cover


def _f1_system(data: dict) -> Exercise:
    p, r = _rate(data["p"]), _rate(data["r"])
    f1 = 2 * p * r / (p + r)
    return value_exercise(
        id="f1-system1", chapter=1, title="F1 of a system",
        question=f"""
A system has precision $P = {decimal_text(p)}$ and recall $R = {decimal_text(r)}$. What is its $F_1$ score
(exactly)?
""",
        answer_name="f1_system1",
        solution_code=f"P, R = {ratio_code(data['p'])}, {ratio_code(data['r'])}\n"
                      "f1_system1 = 2 * P * R / (P + R)",
        solution=f1,
        checker=exact(f1, mistakes=keep_distinct(f1, [
            Mistake((p + r) / 2, "This is the arithmetic mean; F1 is the harmonic mean of "
                                 "precision and recall."),
            Mistake(p * r, "This is P x R; F1 is the harmonic mean of P and R."),
        ]), hint="F1 is the harmonic mean of precision and recall."),
        worked=f"2 x {decimal_text(p)} x {decimal_text(r)} / {decimal_text(p + r)} = {f1}.",
    )


def _draw_f1(rng: np.random.Generator) -> dict:
    while True:
        p, r = draw_hundredths(rng, 30, 95), draw_hundredths(rng, 30, 95)
        if p != r:
            return {"p": p, "r": r}


def _thinned_patients(data: dict) -> Exercise:
    tp, fn, fp0, tn0, keep = data["tp"], data["fn"], data["fp"], data["tn"], data["keep"]
    if fp0 % keep or tn0 % keep:
        raise ValueError("FP and TN must be multiples of the thinning factor")
    fp, tn = fp0 // keep, tn0 // keep
    acc = Fraction(tp + tn, tp + fp + fn + tn)
    prec = Fraction(tp, tp + fp)
    rec = Fraction(tp, tp + fn)
    spec = Fraction(tn, tn + fp)
    ba = (rec + spec) / 2
    ill, healthy = tp + fn, fp0 + tn0
    removed = decimal_text(100 - Fraction(100, keep))
    return value_exercise(
        id="thinned-patients", chapter=1, title="Thinning the healthy patients",
        question=f"""
A test on {ill + healthy} patients gives TP = {tp}, FN = {fn} among the {ill} ill and FP = {fp0}, TN = {tn0}
among the {healthy} healthy. Remove {removed}% of the healthy patients so that TP = {tp}, FN = {fn},
FP = {fp}, TN = {tn} remain. Give, exactly, the accuracy, precision, recall and balanced
accuracy after thinning, as a tuple in this order.
""",
        answer_name="thinned_metrics",
        solution_code=f"tp, fp, fn, tn = {tp}, {fp}, {fn}, {tn}\n"
                      "thinned_metrics = (Fraction(tp + tn, tp + fp + fn + tn),\n"
                      "                   Fraction(tp, tp + fp), Fraction(tp, tp + fn),\n"
                      "                   (Fraction(tp, tp + fn) + Fraction(tn, tn + fp)) / 2)",
        solution=(acc, prec, rec, ba),
        checker=parts(
            accuracy=exact(acc, mistakes=keep_distinct(acc, [
                Mistake(Fraction(tp + tn0, ill + healthy), HINTS["unchanged"])])),
            precision=exact(prec, mistakes=keep_distinct(prec, [
                Mistake(Fraction(tp, tp + fp0), HINTS["unchanged"])])),
            recall=exact(rec, mistakes=keep_distinct(rec, [
                Mistake(Fraction(tp, tp + fn + fp), HINTS["recall_denominator"]),
                Mistake(prec, HINTS["recall_denominator"])])),
            balanced_accuracy=exact(ba)),
        worked=f"Accuracy {ratio_text(tp + tn, tp + fp + fn + tn)}, precision "
               f"{ratio_text(tp, tp + fp)}, recall {rec} (unchanged), "
               f"balanced accuracy ({rec} + {spec})/2 = {ba} (unchanged).",
    )


def _draw_thinned(rng: np.random.Generator) -> dict:
    """A rare illness (3-10% of the patients), a test that finds 60-90% of the ill, and
    healthy patients thinned to a quarter, a fifth, a tenth or a twentieth, FP and TN
    both multiples of the factor (so the thinned counts are whole)."""
    keep = int(rng.choice([4, 5, 10, 20]))
    while True:
        ill = int(rng.integers(15, 61))
        tp = int(round(ill * rng.uniform(0.6, 0.9)))
        healthy = keep * int(rng.integers(60, 201))
        fp = keep * int(rng.integers(3, healthy // keep // 4 + 1))
        if 0 < tp < ill and 0.03 <= ill / (ill + healthy) <= 0.1:
            return {"tp": tp, "fn": ill - tp, "fp": fp, "tn": healthy - fp, "keep": keep}


def _spam_flag_all(data: dict) -> Exercise:
    letters, spam = data["letters"], data["spam"]
    if not 0 < spam < letters:
        raise ValueError("need some spam and some other letters")
    prec = Fraction(spam, letters)
    f1 = 2 * prec / (1 + prec)
    many = "a million" if letters == 1_000_000 else grouped(letters)
    share = f"{spam}/{grouped(letters)}"
    if (prec.numerator, prec.denominator) != (spam, letters):
        share += f" = {prec}"
    return value_exercise(
        id="spam-flag-all", chapter=1, title="Flag every letter",
        question=f"""
Among {many} letters, {spam} are spam. A filter flags every letter as spam. Give its
recall, precision and $F_1$ exactly, as a tuple in this order.
""",
        answer_name="flag_all",
        solution_code=f"tp, fp, fn = {spam}, {letters - spam:_}, 0\n"
                      "p, r = Fraction(tp, tp + fp), Fraction(tp, tp + fn)\n"
                      "flag_all = (r, p, 2 * p * r / (p + r))",
        solution=(Fraction(1), prec, f1),
        checker=parts(
            recall=exact(1),
            precision=exact(prec, mistakes=precision_mistakes(spam, letters - spam, 0)),
            f1=exact(f1)),
        worked=f"Recall 1, precision {share} (the share of spam), F1 = {f1}.",
    )


def _draw_spam(rng: np.random.Generator) -> dict:
    """100 000 to 5 000 000 letters (whole multiples of 50 000), 20 to 999 of them spam."""
    return {"letters": 50_000 * int(rng.integers(2, 101)), "spam": int(rng.integers(20, 1000))}


def _matrix_tex(m: tuple) -> str:
    rows = " \\\\ ".join(" & ".join(str(v) for v in row) for row in m)
    return f"$\\begin{{pmatrix}} {rows} \\end{{pmatrix}}$"


def _macro_recall(data: dict) -> Exercise:
    m = tuple(tuple(int(v) for v in row) for row in data["matrix"])
    k = len(m)
    rows = [sum(r) for r in m]
    cols = [sum(r[j] for r in m) for j in range(k)]
    if min(rows) <= 0 or min(cols) <= 0:
        raise ValueError("every class needs objects and predictions")
    macro = sum(Fraction(m[i][i], rows[i]) for i in range(k)) / k
    diag = sum(m[i][i] for i in range(k))
    micro = Fraction(diag, sum(rows))
    macro_prec = sum(Fraction(m[j][j], cols[j]) for j in range(k)) / k
    recalls = ", ".join(f"{m[i][i]}/{rows[i]}" for i in range(k))
    return value_exercise(
        id="macro-recall-3class", chapter=1, title="Macro recall of three classes",
        question=f"""
A three-class confusion matrix has rows = true classes and columns = predicted
classes: {_matrix_tex(m)}.
What is the macro-averaged recall (exactly)?
""",
        answer_name="macro_recall",
        solution_code=f"m = np.array({[list(r) for r in m]})\n"
                      "macro_recall = sum(Fraction(int(m[i, i]), int(m[i].sum())) "
                      "for i in range(3)) / 3",
        solution=macro,
        checker=exact(macro, mistakes=keep_distinct(macro, [
            Mistake(micro, HINTS["micro_not_macro"]),
            Mistake(macro_prec, "This is the macro precision (columns); recall divides by "
                                "the row sums, the true classes."),
        ])),
        worked=f"Recalls {recalls}; their mean is {macro} (the micro recall, i.e. the "
               f"accuracy, would be {diag}/{sum(rows)}).",
    )


def _draw_matrix(rng: np.random.Generator) -> dict:
    """Three classes of different sizes (a large, a middle and a small one, like the
    book's 60, 30, 10), counts in fives like the book's, each class recalled at 40-90%,
    its errors spread over the other two."""
    while True:
        sizes = sorted((5 * int(v) for v in rng.choice(np.arange(2, 21), 3, replace=False)),
                       reverse=True)
        matrix = []
        for i, n in enumerate(sizes):
            right = 5 * int(round(n / 5 * rng.uniform(0.4, 0.9)))
            other = 5 * int(rng.integers(0, (n - right) // 5 + 1))
            row = [0, 0, 0]
            row[i] = right
            row[(i + 1) % 3], row[(i + 2) % 3] = other, n - right - other
            matrix.append(tuple(row))
        if all(matrix[i][i] > 0 for i in range(3)):
            return {"matrix": tuple(matrix)}


EXERCISES = [
    with_variants(_fbeta_two_systems,
                  {"p1": "7/10", "r1": "6/10", "p2": "8/10", "r2": "5/10"},
                  _draw_two_systems),
    with_variants(_f1_system, {"p": "7/10", "r": "6/10"}, _draw_f1),
    with_variants(_thinned_patients, {"tp": 20, "fn": 5, "fp": 50, "tn": 1000, "keep": 10},
                  _draw_thinned),
    with_variants(_spam_flag_all, {"letters": 1_000_000, "spam": 100}, _draw_spam),
    with_variants(_macro_recall, {"matrix": ((50, 10, 0), (5, 20, 5), (0, 5, 5))},
                  _draw_matrix),
]


# --------------------------------------------------------------------- checkpoint
#: The answers of a checkpoint: one letter, with or without its parentheses.
_LETTERS = {c: c for c in "abcde"} | {f"({c})": c for c in "abcde"}

#: The chapter's checkpoint (issue 28, item 3): a conceptual question after the summary,
#: the same for every student (no variants). It stands before the exercises in the
#: chapter, and sphinx-exercise numbers the exercises in page order, so it comes first.
EXERCISES.insert(0, value_exercise(
    id="checkpoint-01-growing-web", chapter=1, title="A web that grows",
    question="""
A search engine answers a query: the counts TP (relevant pages shown), FP (other pages
shown) and FN (relevant pages missed) stay as they are while the web grows, adding
millions of pages that are neither relevant nor shown (the true negatives, TN). Which
of these metrics of the engine stays exactly the same?

- (a) accuracy
- (b) the Matthews correlation coefficient
- (c) $F_1$
- (d) balanced accuracy
- (e) specificity

Answer with one letter as a string, `"a"` to `"e"`.
""",
    answer_name="checkpoint_1",
    solution_code='checkpoint_1 = "c"',
    solution="c",
    checker=ChoiceChecker("c", _LETTERS, mistakes={
        "a": "Accuracy counts the true negatives among the right answers: "
             "(TP + TN)/(TP + TN + FP + FN) grows with TN.",
        "b": "MCC uses all four cells of the matrix; the chapter's spam filter shows it "
             "moving as the number of good letters changes.",
        "d": "Balanced accuracy averages recall with the specificity TN/(TN + FP), which "
             "grows with TN.",
        "e": "Specificity is TN/(TN + FP): it is made of the true negatives.",
    }),
    worked="F1 = 2TP/(2TP + FP + FN) has no TN in it; accuracy, MCC, balanced accuracy "
           "and specificity all grow or change with TN.",
))
