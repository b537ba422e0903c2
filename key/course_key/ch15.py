"""Chapter 15 exercises: calibration is not ranking."""

from __future__ import annotations

from fractions import Fraction

from course_lib.exercises._core import Mistake, exact, value_exercise

# Table 1 of the book: labels and scores.
_Y = (0, 0, 0, 1, 1, 1, 0)
_B = (Fraction(1, 2), Fraction(1, 10), Fraction(1, 5), Fraction(3, 5), Fraction(1, 5),
      Fraction(3, 10), Fraction(0))
_TABLE = """
| object | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
|---|---|---|---|---|---|---|---|
| label $y$ | 0 | 0 | 0 | 1 | 1 | 1 | 0 |
| score $b$ | 0.5 | 0.1 | 0.2 | 0.6 | 0.2 | 0.3 | 0.0 |
"""

_BRIER: Fraction = sum(((b - y) ** 2 for y, b in zip(_Y, _B)), Fraction(0)) / len(_Y)
_ABS: Fraction = sum((abs(b - y) for y, b in zip(_Y, _B)), Fraction(0)) / len(_Y)
_ECE_ONE: Fraction = abs(Fraction(sum(_Y), len(_Y)) - sum(_B, Fraction(0)) / len(_Y))

# A hull segment from (1/4, 1/2) to (1/2, 1), positive share 1/5.
_PI = Fraction(1, 5)
_D_TPR, _D_FPR = Fraction(1, 2), Fraction(1, 4)
_SEGMENT = _PI * _D_TPR / (_PI * _D_TPR + (1 - _PI) * _D_FPR)

EXERCISES = [
    value_exercise(
        id="brier-table1", chapter=15, title="The Brier score of Table 1",
        question=f"""
Read the scores of Table 1 as probabilities of class 1:
{_TABLE}
What is their Brier score, the mean of $(b_i - y_i)^2$ (exactly)?
""",
        answer_name="brier_table1",
        solution_code="""
y = [0, 0, 0, 1, 1, 1, 0]
b = [Fraction(v, 10) for v in (5, 1, 2, 6, 2, 3, 0)]
brier_table1 = sum((bi - yi) ** 2 for yi, bi in zip(y, b)) / len(y)
""",
        solution=_BRIER,
        checker=exact(_BRIER, mistakes=[
            Mistake(_BRIER * 7, "This is the sum of the squares; the Brier score is their "
                                "mean (divide by the 7 objects)."),
            Mistake(_ABS, "This is the mean absolute difference; the Brier score squares "
                          "each difference."),
        ]),
        worked="The squared differences are 0.25, 0.01, 0.04, 0.16, 0.64, 0.49 and 0; "
               "their sum 1.59 divided by 7 is 159/700.",
    ),
    value_exercise(
        id="auc-cubed-table1", chapter=15, title="Cubing the scores",
        question=f"""
Replace every score $b$ of Table 1 by $b^3$:
{_TABLE}
What is the ROC AUC of the new scores (exactly)?
""",
        answer_name="auc_cubed",
        solution_code="""
y = [0, 0, 0, 1, 1, 1, 0]
b = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
auc_cubed = cl.roc_auc(y, b**3, exact=True)
""",
        solution=Fraction(19, 24),
        checker=exact(Fraction(19, 24), mistakes=[
            Mistake(Fraction(5, 6), "5/6 is the area of the ROC convex hull (the AUC after "
                                    "isotonic calibration); b**3 keeps every tie and the "
                                    "order."),
            Mistake(Fraction(9, 12), "The tie at 0.2 stays a tie after cubing: it counts "
                                     "one half."),
        ], hint="b -> b**3 is strictly increasing on [0, 1]: the order of the objects, ties "
                "included, does not change, and the AUC sees only the order."),
        worked="Cubing is strictly increasing on [0, 1], so the order and the tie at 0.2 "
               "stay: the AUC is still 19/24, while the Brier score changes.",
    ),
    value_exercise(
        id="ece-one-bin-table1", chapter=15, title="The ECE with a single bin",
        question=f"""
Put all seven objects of Table 1 in one bin:
{_TABLE}
What is the expected calibration error $\\sum_k (n_k/n)\\,|o_k - f_k|$ with this single
bin (exactly)? Here $o_k$ is the share of positives and $f_k$ the mean score of bin $k$.
""",
        answer_name="ece_one_bin",
        solution_code="""
ece_one_bin = abs(Fraction(3, 7) - Fraction(19, 70))
""",
        solution=_ECE_ONE,
        checker=exact(_ECE_ONE, mistakes=[
            Mistake(0, "One bin is calibrated when its mean score equals its share of "
                       "positives: 1.9/7 against 3/7 here."),
            Mistake(_ECE_ONE * 7, "Divide the sums by the 7 objects: the mean score is "
                                  "1.9/7 and the share of positives 3/7."),
        ]),
        worked="The share of positives is 3/7 and the mean score 1.9/7 = 19/70, so the "
               "ECE is 30/70 - 19/70 = 11/70.",
    ),
    value_exercise(
        id="isotonic-table1", chapter=15, title="Isotonic calibration of Table 1",
        question=f"""
Fit the isotonic (non-decreasing) calibration map to Table 1 by pooling adjacent
violators, tied scores pooled first:
{_TABLE}
Which probability does it give the object with score 0.3 (exactly)?
""",
        answer_name="p_iso_03",
        solution_code="""
y = [0, 0, 0, 1, 1, 1, 0]
b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
m = cl.isotonic_calibration(y, b, exact=True)
p_iso_03 = m.values[list(m.thresholds).index(0.3)]
""",
        solution=Fraction(1, 2),
        checker=exact(Fraction(1, 2), mistakes=[
            Mistake(1, "The positive at 0.3 is followed by the negative at 0.5: the pair "
                       "violates the order and is pooled (mean 1/2)."),
            Mistake(Fraction(2, 3), "Pool the block 0.3-0.5 (1 positive of 2) with the tie "
                                    "at 0.2 only if it violates the order; both have mean "
                                    "1/2, so the value is 1/2."),
        ]),
        worked="By increasing score the labels are 0 (0.0), 0 (0.1), the tie 1/2 (0.2), "
               "1 (0.3), 0 (0.5), 1 (0.6). The pair 1, 0 at 0.3 and 0.5 violates the order "
               "and is pooled to 1/2, which does not fall below the tie's 1/2: the value "
               "at 0.3 is 1/2.",
    ),
    value_exercise(
        id="hull-segment-probability", chapter=15, title="A hull segment as a probability",
        question="""
A segment of a ROC convex hull runs from $(\\mathrm{FPR}, \\mathrm{TPR}) = (1/4, 1/2)$ to
$(1/2, 1)$, and a fifth of the objects are positive ($\\pi = 1/5$). Which calibrated
probability does isotonic calibration give the objects of this segment (exactly)?
""",
        answer_name="p_segment",
        solution_code="""
pi = Fraction(1, 5)
d_tpr, d_fpr = Fraction(1, 2), Fraction(1, 4)
p_segment = pi * d_tpr / (pi * d_tpr + (1 - pi) * d_fpr)
""",
        solution=_SEGMENT,
        checker=exact(_SEGMENT, mistakes=[
            Mistake(2, "2 is the slope dTPR/dFPR, a likelihood ratio, not a probability: "
                       "weigh it by the odds of the classes."),
            Mistake(Fraction(2, 3), "dTPR/(dTPR + dFPR) ignores the class shares: weigh "
                                    "dTPR by pi and dFPR by 1 - pi."),
        ]),
        worked="The segment holds pi dTPR = 1/10 of the objects as positives and "
               "(1 - pi) dFPR = 1/5 as negatives: the share of positives is "
               "(1/10) / (3/10) = 1/3.",
    ),
]
