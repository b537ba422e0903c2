"""Chapter 13 as the reader sees it: Dyakonov's eight questions as exercises in the
book's exercise format, their solutions passing, and the numbers of the worked
solutions in the stored notebook's glue."""

import json
import re

import numpy as np
from notebook_tools import chapter, glued, load, stored

import course_lib as cl
from course_lib.exercises import exercises_for

CH13 = chapter("13_problems")


def _source(cell):
    return "".join(cell["source"])


def _outputs_text(cell):
    return "".join("".join(o.get("data", {}).get("text/plain", ""))
                   for o in cell.get("outputs", []))


def test_title_and_all_of_chapter_13s_exercises_in_order():
    nb = load(CH13)
    assert _source(nb["cells"][0]).startswith("# Problems\n")
    labels = [m.group(1) for c in nb["cells"] if c["cell_type"] == "markdown"
              for m in [re.match(r"```\{exercise\} .*\n:label: (\S+)", _source(c))] if m]
    assert labels == [e.id for e in exercises_for(13)]
    assert len(labels) >= 8


def test_every_exercise_has_the_four_cell_format():
    """exercise / solution-start + prose / solution code cell / ... / solution-end."""
    cells = load(CH13)["cells"]
    for ex in exercises_for(13):
        i = next(k for k, c in enumerate(cells)
                 if _source(c).startswith("```{exercise}") and f":label: {ex.id}\n" in _source(c))
        question = _source(cells[i])
        assert question.startswith(f"```{{exercise}} {ex.title}\n:label: {ex.id}\n\n")
        assert question.rstrip().endswith("```") and ex.question in question
        start = cells[i + 1]
        assert start["cell_type"] == "markdown"
        assert _source(start).startswith(f"```{{solution-start}} {ex.id}\n:class: dropdown\n```")
        assert len(_source(start)) > 200, "a worked solution in prose"
        sol = cells[i + 2]
        assert sol["cell_type"] == "code"
        assert sol["metadata"]["tags"] == ["solution"] and sol["metadata"]["exercise"] == ex.id
        assert _source(sol) == f"{ex.solution_code}\ncheck({json.dumps(ex.id)}, {ex.answer_name})"
        assert f"{ex.id}: passed ({ex.points}/{ex.points} points)" in _outputs_text(sol)
        end = next(k for k in range(i + 3, len(cells)) if _source(cells[k]).startswith(
            "```{solution-end}"))
        for extra in cells[i + 3:end]:  # only hidden glue cells in between
            assert extra["cell_type"] == "code"
            assert extra["metadata"]["tags"] == ["solution", "remove-cell"]


def test_question_1_the_ks_distance_with_rare_positives():
    """Dyakonov's claim: max TPR - FPR = 0.5 at PR = 0.3 for p1 = 0.1."""
    g = glued(CH13)
    assert g["q1_ks"] == "'1/2'" and g["q1_theta"] == "'1/2'"
    assert g["q1_tpr"] == "'3/4'" and g["q1_fpr"] == "'1/4'"
    assert g["q1_pr"] == "'3/10'" and g["q1_pr_half"] == "'1/2'"


def test_question_1_the_k_s_chart_of_this_case_in_words():
    """At RPP = 0.1 (pi = 0.1): 0.8 theta^2 - 1.8 theta + 0.9 = 0, theta = 3/4, so
    TPR = 7/16 and FPR = 1/16; the solution answers the question about the figure."""
    g = glued(CH13)
    assert (g["q1_tpr_at_01"], g["q1_fpr_at_01"]) == ("'7/16'", "'1/16'")
    prose = " ".join(_source(c) for c in load(CH13)["cells"] if c["cell_type"] == "markdown")
    assert "Dyakonov asks whether the K-S chart of his figure shows this case" in prose


def test_question_3_about_half_the_samples_enclose_more_area():
    g = glued(CH13)
    assert g["q3_auc"] == "'5/6'" and g["q3_m1"] == "30"
    assert 0.35 < float(g["q3_share"]) < 0.65


def test_question_3_gain_and_lift_curves_mostly_above_the_exact_ones():
    """The question asked: the share of the 200 samples whose gain curve lies above the
    exact one at more than half of 1000 rates (exact gain from the model's formulas,
    theta solving pi TPR + (1 - pi) FPR = r); lift = gain / rate gives the same share;
    and the samples on which that criterion and the area criterion disagree."""
    g = glued(CH13)
    r = (np.arange(1000) + 0.5) / 1000
    theta = (1.8 - np.sqrt(0.04 + 3.2 * r)) / 1.6
    exact_gain = 1 - theta**2
    gain_mostly, lift_mostly, auc_above = [], [], []
    for k in range(200):
        y, s = cl.LINEAR_DENSITIES.sample(300, 0.1, seed=1000 + k)
        fpr, tpr, _ = cl.roc_curve(y, s)
        rate = (tpr * y.sum() + fpr * (y.size - y.sum())) / y.size  # RPP of each vertex
        gain = np.interp(r, rate, tpr)
        gain_mostly.append(np.mean(gain > exact_gain) > 0.5)
        lift_mostly.append(np.mean(gain / r > exact_gain / r) > 0.5)
        auc_above.append(cl.roc_auc(y, s, exact=True) > cl.LINEAR_DENSITIES.auc())
    assert gain_mostly == lift_mostly
    assert float(g["q3_mostly"]) == stored(np.mean(gain_mostly)) > 0.5
    assert int(g["q3_disagree"]) == int(np.sum(np.array(gain_mostly) != np.array(auc_above))) > 0


def test_question_4_the_largest_auc_below_one():
    g = glued(CH13)
    assert g["q4_m10"] == "'49/50'" == g["q4_check"]
    assert g["q4_no_ties"] == "'24/25'"


def test_questions_5_and_6_examples():
    g = glued(CH13)
    assert g["q5_auc1"] == g["q5_auc2"] == "'1/2'" and g["q5_avg"] == "'1'"
    assert (g["q6_before"], g["q6_after"]) == ("'1'", "'1/2'")
    assert (g["q6_rev_before"], g["q6_rev_after"]) == ("'0'", "'1/2'")
    assert (g["q6_t1_before"], g["q6_t1_after"]) == ("'19/24'", "'2/3'")


def test_questions_7_and_8():
    g = glued(CH13)
    assert float(g["q7_neg"]) == stored(0.5 / (0.5 + 0.05))  # 10/11
    assert float(g["q7_pos"]) == stored(0.05 / (0.05 + 0.5))  # 1/11
    # the accuracy reading: expected right answers over expected objects, 100 + 100
    # objects with TPR 0.8 and TNR 0.9
    assert float(g["q7_acc"]) == stored((80 + 90) / 200)
    assert float(g["q7_acc_neg"]) == stored((80 + 9) / (100 + 10))
    assert float(g["q7_acc_pos"]) == stored((8 + 90) / (10 + 100))
    assert g["q8_m1"] == "2" and g["q8_m0"] == "6" and g["q8_same"] == "'yes'"
