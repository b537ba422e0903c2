"""Chapter 18 exercises: reading a validation report."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from course_lib.exercises._core import (
    Exercise,
    Mistake,
    approx,
    exact,
    value_exercise,
    with_variants,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import decimal_text, draw_count_groups, fraction_code, redraw, wrap_items

# ---------------------------------------------------------------- the AUC from groups
_GROUPS = {"groups": ((3, 1), (2, 2), (1, 4))}


def _groups(data: dict) -> list[tuple[int, int]]:
    return [(int(p), int(n)) for p, n in data["groups"]]


def _group_auc(groups: list[tuple[int, int]], tie: Fraction = Fraction(1, 2)) -> Fraction:
    """The AUC of the grouped counts, a tie counted ``tie`` (one half for the AUC)."""
    m1 = sum(p for p, _ in groups)
    m0 = sum(n for _, n in groups)
    above, pairs = 0, Fraction(0)
    for p, n in groups:
        pairs += n * (above + tie * p)
        above += p
    return pairs / (m1 * m0)


def _auc_groups(data: dict) -> Exercise:
    groups = _groups(data)
    m1 = sum(p for p, _ in groups)
    m0 = sum(n for _, n in groups)
    auc = _group_auc(groups)
    rows = "\n".join(f"| {k} | {p} | {n} |" for k, (p, n) in enumerate(groups, 1))
    listed = ", ".join(f"({p}, {n})" for p, n in groups)
    terms = []
    above = 0
    for p, n in groups:
        terms.append(f"{n} x ({above} + {p}/2)")
        above += p
    return value_exercise(
        id="report-auc-from-groups", chapter=18, title="The AUC from grouped counts",
        question=f"""
The report's engine hands Python one row per distinct score, highest score first, with
the number of positives and negatives that share it:

| group | positives | negatives |
|---|---|---|
{rows}

What is the AUC (exactly; a tie between a positive and a negative counts one half)?
""",
        answer_name="auc_groups",
        solution_code=f"groups = [{listed}]  # (positives, negatives), highest score first\n"
                      "m1 = sum(p for p, n in groups)\n"
                      "m0 = sum(n for p, n in groups)\n"
                      "above, pairs = 0, Fraction(0)\n"
                      "for p, n in groups:\n"
                      "    pairs += n * (above + Fraction(p, 2))  # above: positives ranked higher\n"
                      "    above += p\n"
                      "auc_groups = pairs / (m1 * m0)",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(_group_auc(groups, Fraction(0)), HINTS["ties_zero"]),
            Mistake(_group_auc(groups, Fraction(1)), HINTS["ties_one"]),
            Mistake(1 - auc, HINTS["ascending"]),
            Mistake(auc * m1 * m0, HINTS["unnormalized_auc"]),
        ])),
        worked=f"m1 = {m1} positives, m0 = {m0} negatives. Each negative of a group is "
               "outranked by every positive of the groups above it and ties with the "
               f"positives of its own group: ({' + '.join(terms)}) / ({m1} x {m0}) = {auc}.",
    )


def _draw_groups(rng: np.random.Generator) -> dict:
    """Four score groups of one to five positives and negatives, AUC above 1/2, not the
    book's."""
    def draw(r: np.random.Generator) -> dict:
        return {"groups": [list(g) for g in draw_count_groups(r, groups=4, low=1, high=5)]}

    def accept(d: dict) -> bool:
        groups = _groups(d)
        return _group_auc(groups) > Fraction(1, 2) and _group_auc(groups) != _group_auc(
            _groups(_GROUPS))
    return redraw(rng, draw, accept)


# ---------------------------------------------------------------- the paired test
_PAIRED = {"auc_a": "83/100", "auc_b": "81/100", "se_a": "12/1000", "se_b": "13/1000",
           "r": "9/10"}


def _z(diff: float, se_a: float, se_b: float, r: float) -> float:
    return diff / math.sqrt(se_a**2 + se_b**2 - 2 * r * se_a * se_b)


def _paired(data: dict) -> Exercise:
    a, b = Fraction(data["auc_a"]), Fraction(data["auc_b"])
    se_a, se_b, r = (float(Fraction(data[k])) for k in ("se_a", "se_b", "r"))
    diff = float(a - b)
    z = _z(diff, se_a, se_b, r)
    return value_exercise(
        id="report-paired-z", chapter=18, title="Two scores of the same patients",
        question=f"""
A report compares two scores on the same patients. Score A has the AUC
{decimal_text(a)} with DeLong standard error {decimal_text(se_a)}, score B the AUC
{decimal_text(b)} with standard error {decimal_text(se_b)}, and the DeLong correlation of
the two AUCs (computed from the same patients' placements) is {decimal_text(r)}. What is
the statistic $z$ of the paired DeLong test of the difference A - B (to 6 significant
digits)?
""",
        answer_name="z_paired",
        solution_code=f"auc_a, auc_b = {decimal_text(a)}, {decimal_text(b)}\n"
                      f"se_a, se_b, r = {decimal_text(se_a)}, {decimal_text(se_b)}, "
                      f"{decimal_text(r)}\n"
                      "var_diff = se_a**2 + se_b**2 - 2 * r * se_a * se_b\n"
                      "z_paired = (auc_a - auc_b) / math.sqrt(var_diff)",
        solution=z,
        checker=approx(z, 1e-6, mistakes=[
            Mistake(_z(diff, se_a, se_b, 0.0),
                    "That treats the two AUCs as independent; they are computed on the "
                    "same patients, so their covariance enters the variance of the "
                    "difference."),
            Mistake(diff / math.sqrt(se_a**2 + se_b**2 + 2 * r * se_a * se_b),
                    "The covariance enters the variance of the difference with the other "
                    "sign."),
            Mistake(diff / (se_a + se_b),
                    "Standard errors do not add; variances do, and the covariance "
                    "enters too."),
        ]),
        worked=f"Var(A - B) = {decimal_text(se_a)}^2 + {decimal_text(se_b)}^2 - 2 x "
               f"{decimal_text(r)} x {decimal_text(se_a)} x {decimal_text(se_b)} = "
               f"{se_a**2 + se_b**2 - 2 * r * se_a * se_b:.4g}, so z = {diff:.3g} / "
               f"{math.sqrt(se_a**2 + se_b**2 - 2 * r * se_a * se_b):.4g} = {z:.6g}. As if "
               f"the AUCs were independent, z would be only {_z(diff, se_a, se_b, 0.0):.3g}: "
               "the overlap of two separate intervals says little about a paired difference.",
    )


def _draw_paired(rng: np.random.Generator) -> dict:
    """AUCs in hundredths (A above B by 0.01-0.04), standard errors in thousandths,
    a correlation 0.60-0.95."""
    b = int(rng.integers(65, 90))
    a = b + int(rng.integers(1, 5))
    return {"auc_a": f"{a}/100", "auc_b": f"{b}/100",
            "se_a": f"{int(rng.integers(8, 25))}/1000",
            "se_b": f"{int(rng.integers(8, 25))}/1000",
            "r": f"{int(rng.integers(60, 96))}/100"}


# ---------------------------------------------------------------- pooled segments
_POOLED = {"young": [40, 1400, "3/5"], "old": [300, 500, "13/20"]}


def _pooled_parts(data: dict) -> tuple[int, int, Fraction, int, int, Fraction]:
    p1, n1, a1 = data["young"]
    p2, n2, a2 = data["old"]
    return int(p1), int(n1), Fraction(a1), int(p2), int(n2), Fraction(a2)


def _pooled(data: dict) -> Exercise:
    p1, n1, a1, p2, n2, a2 = _pooled_parts(data)
    m1, m0 = p1 + p2, n1 + n2
    within = p1 * n1 * a1 + p2 * n2 * a2
    pooled = (within + p2 * n1) / (m1 * m0)
    return value_exercise(
        id="report-pooled-auc", chapter=18, title="A pooled AUC that no segment reaches",
        question=f"""
A score is validated on two age bands. The younger band has {p1} deaths and {n1}
survivors and the score's AUC there is {decimal_text(a1)}; the older band has {p2} deaths
and {n2} survivors and an AUC of {decimal_text(a2)}. Every score in the older band is
higher than every score in the younger band (the score rises with age). What is the AUC
of the score on the two bands pooled (exactly)?
""",
        answer_name="auc_pooled",
        solution_code=f"young = ({p1}, {n1}, {fraction_code(a1)})  # deaths, survivors, AUC\n"
                      f"old = ({p2}, {n2}, {fraction_code(a2)})\n"
                      "m1, m0 = young[0] + old[0], young[1] + old[1]\n"
                      "within = young[0] * young[1] * young[2] + old[0] * old[1] * old[2]\n"
                      "across = old[0] * young[1]  # an old death outranks a young survivor\n"
                      "# a young death never outranks an old survivor: 0 pairs\n"
                      "auc_pooled = (within + across) / (m1 * m0)",
        solution=pooled,
        checker=exact(pooled, mistakes=keep_distinct(pooled, [
            Mistake((a1 + a2) / 2, "That is the mean of the two AUCs; the pooled AUC counts "
                                   "the pairs across the bands too."),
            Mistake((a1 * (p1 + n1) + a2 * (p2 + n2)) / (m1 + m0),
                    "Weighting the segments' AUCs by their sizes ignores the pairs across "
                    "the bands, which decide most of the pooled AUC here."),
            Mistake(within / (p1 * n1 + p2 * n2),
                    "That averages the pairs within the bands only; the pooled AUC also "
                    "counts the pairs of a death in one band and a survivor in the other."),
            Mistake((within + p1 * n2) / (m1 * m0),
                    "The bands are the wrong way round: an older death outranks every "
                    "younger survivor, a younger death no older survivor."),
        ])),
        worked=f"Of the {m1} x {m0} = {m1 * m0} pairs, {p1 * n1} lie within the younger band "
               f"({decimal_text(a1)} of them correctly ordered), {p2 * n2} within the older "
               f"({decimal_text(a2)}), {p2 * n1} pair an older death with a younger survivor "
               f"(all correctly ordered) and {p1 * n2} a younger death with an older survivor "
               f"(none): ({decimal_text(p1 * n1 * a1)} + {decimal_text(p2 * n2 * a2)} + {p2 * n1}) / "
               f"{m1 * m0} = {pooled}, "
               f"about {float(pooled):.3f}, "
               + ("above both bands' AUCs." if pooled > max(a1, a2) else
                  "between the bands' AUCs." if pooled > min(a1, a2) else
                  "below both bands' AUCs."),
    )


def _draw_pooled(rng: np.random.Generator) -> dict:
    """A young band with few deaths, an old band with many, AUCs 0.55-0.75 in
    hundredths, survivors a multiple of 50 (whole or half pairs)."""
    def draw(r: np.random.Generator) -> dict:
        # survivors in fifties, so that deaths x survivors x AUC counts half pairs
        return {"young": [int(r.integers(10, 80)), 50 * int(r.integers(16, 41)),
                          f"{int(r.integers(55, 76))}/100"],
                "old": [int(r.integers(100, 400)), 50 * int(r.integers(4, 17)),
                        f"{int(r.integers(55, 76))}/100"]}

    def accept(d: dict) -> bool:
        return _pooled(d).solution != _pooled(_POOLED).solution
    return redraw(rng, draw, accept)


# ---------------------------------------------------------------- PSI
_PSI = {"shares": [13, 12, 12, 11, 10, 10, 9, 8, 8, 7]}


def _psi_value(shares: list[int]) -> float:
    return sum((a / 100 - 0.1) * math.log(a / 100 / 0.1) for a in shares)


def _psi(data: dict) -> Exercise:
    shares = [int(v) for v in data["shares"]]
    psi = _psi_value(shares)
    listed = ", ".join(f"{v}%" for v in shares)
    code_list = wrap_items("new = [", [f"{v / 100:g}" for v in shares], "]", width=80)
    return value_exercise(
        id="report-psi", chapter=18, title="The population stability index",
        question=f"""
The ten bins of a score are the deciles of a development sample, so each holds 10% of
it. In a new sample the bins, from the lowest score to the highest, hold
{listed} of the rows. What is the population stability index between the two samples
(natural logarithm, to 6 significant digits)?
""",
        answer_name="psi",
        solution_code=f"{code_list}\n"
                      "base = [0.1] * 10\n"
                      "psi = sum((a - e) * math.log(a / e) for a, e in zip(new, base))",
        solution=psi,
        checker=approx(psi, 1e-6, mistakes=[
            Mistake(psi / math.log(10), "That uses the base-10 logarithm; the PSI uses the "
                                        "natural logarithm."),
            Mistake(sum(a / 100 * math.log(a / 100 / 0.1) for a in shares),
                    "That is one direction of the Kullback-Leibler divergence, "
                    "sum a ln(a/e); the PSI adds both directions."),
            Mistake(sum(0.1 * math.log(0.1 / (a / 100)) for a in shares),
                    "That is the Kullback-Leibler divergence in the other direction, "
                    "sum e ln(e/a); the PSI adds both directions."),
        ]),
        worked="PSI = sum over the bins of (new share - 0.1) ln(new share / 0.1) = "
               f"{psi:.6g}; every term is positive or zero, so a shift in either "
               "direction adds to it.",
    )


def _draw_shares(rng: np.random.Generator) -> dict:
    """Ten shares in percent, 4-18 each, adding up to 100, not all 10."""
    def draw(r: np.random.Generator) -> dict:
        shares = [int(v) for v in r.integers(4, 19, size=9)]
        return {"shares": [*shares, 100 - sum(shares)]}

    def accept(d: dict) -> bool:
        return (4 <= d["shares"][-1] <= 18 and d["shares"] != [10] * 10
                and sorted(d["shares"]) != sorted(_PSI["shares"]))
    return redraw(rng, draw, accept)


# ---------------------------------------------------------------- prior shift
_SHIFT = {"score": "3/5", "rate": "1/8", "sample_rate": "1/2"}


def _shift(data: dict) -> Exercise:
    s, pi, pi_s = (Fraction(data[k]) for k in ("score", "rate", "sample_rate"))
    odds = s / (1 - s) * (pi / (1 - pi)) / (pi_s / (1 - pi_s))
    p = odds / (1 + odds)
    return value_exercise(
        id="report-prior-shift", chapter=18, title="Probabilities from a balanced sample",
        question=f"""
A model was fitted on a development sample in which deaths made up
{decimal_text(pi_s)} of the rows (all deaths kept, survivors sampled down), while in the
population they make up {decimal_text(pi)}. For a patient it gives the probability
{decimal_text(s)}. What is the patient's probability of death in the population, when
the sampling kept deaths and survivors alike in all else (exactly)?
""",
        answer_name="p_population",
        solution_code=f"score = {fraction_code(s)}\n"
                      f"rate, sample_rate = {fraction_code(pi)}, {fraction_code(pi_s)}\n"
                      "odds = score / (1 - score)\n"
                      "odds *= (rate / (1 - rate)) / (sample_rate / (1 - sample_rate))\n"
                      "p_population = odds / (1 + odds)",
        solution=p,
        checker=exact(p, mistakes=keep_distinct(p, [
            Mistake(s, "The probability does change: the sampling changed the odds of "
                       "death by the ratio of the two samples' odds. (Only the ranking, "
                       "and so the AUC, stays the same.)"),
            Mistake(s * pi / pi_s, "Correct the odds, not the probability."),
            Mistake(1 - p, "That is the probability of survival."),
        ])),
        worked=f"The odds {s / (1 - s)} are multiplied by ({pi / (1 - pi)}) / "
               f"({pi_s / (1 - pi_s)}), the population's odds of death over the sample's: "
               f"{odds}, so p = {odds} / (1 + {odds}) = {p}. Every score moves the same "
               "monotone way, so the AUC, KS and gains table are unchanged; the Brier "
               "score and the calibration are not.",
    )


def _draw_shift(rng: np.random.Generator) -> dict:
    """A score in hundredths, a population rate of 2-20%, a sample rate 1/2, 1/3 or
    2/5."""
    def draw(r: np.random.Generator) -> dict:
        return {"score": f"{int(r.integers(10, 91))}/100",
                "rate": f"{int(r.integers(2, 21))}/100",
                "sample_rate": ["1/2", "1/3", "2/5"][int(r.integers(3))]}

    def accept(d: dict) -> bool:
        return (Fraction(d["rate"]) < Fraction(d["sample_rate"])
                and _shift(d).solution != _shift(_SHIFT).solution)
    return redraw(rng, draw, accept)


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    18, "overlapping-intervals", "Checkpoint: two overlapping intervals",
    question="""
A report gives two scores of the same people AUCs of 0.73 and 0.71, with DeLong 95%
intervals from 0.70 to 0.76 and from 0.68 to 0.74. What can the validator conclude about
the difference of the two AUCs? Answer a letter.

- (a) it is not significant, since the two intervals overlap
- (b) nothing yet: the two AUCs come from the same people, so the paired test of their
  difference decides
- (c) the first score is the better one, since its AUC is the higher
- (d) its significance shows in the two Gini coefficients, reported beside the AUCs as
  further evidence
- (e) the second score is the worse one, since its interval is as wide and lies lower
""",
    answer="b",
    mistakes={
        "a": "Judging by overlap treats the two AUCs as independent; on the same people "
             "their errors are correlated, and the difference is known more precisely than "
             "either AUC.",
        "c": "A higher estimate alone is no evidence: the question is how sure we are of "
             "the difference.",
        "d": "The Gini coefficient is the AUC on another scale: the same evidence, not "
             "more of it.",
        "e": "Where an interval lies says nothing about the difference until the "
             "covariance of the two AUCs is taken into account.",
    },
    worked="The paired DeLong test uses the covariance of the two AUCs; the variance of "
           "the difference is much smaller than the sum of the two variances when the "
           "AUCs are correlated.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_auc_groups, _GROUPS, _draw_groups),
    with_variants(_paired, _PAIRED, _draw_paired),
    with_variants(_pooled, _POOLED, _draw_pooled),
    with_variants(_psi, _PSI, _draw_shares),
    with_variants(_shift, _SHIFT, _draw_shift),
]
