"""Chapter 12 as the reader sees it: the syllabus fact F-60 and the chapter's other
numbers in the stored notebook's glue, and the chapter's figures."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued, stored

from course_lib import plotting, roc_curve

CH12 = chapter("12_pitfalls")


def test_F60_search_ranking_auc_is_0_9999_and_balanced_0_9998():
    """F-60: 10^6 objects, 10 positives after 100 negatives: AUC = 0.9999; with
    500,000 positives and the same top: 0.9998 (exact fractions in the book)."""
    g = glued(CH12)
    assert g["n_pages"] == "1000000" and g["n_first"] == "100"
    assert g["auc_rare"] == "'99989/99999'"
    assert float(g["auc_rare_float"]) == stored(1 - 100 / 999_990)
    assert round(float(g["auc_rare_float"]), 4) == 0.9999
    assert g["n_half"] == "500000"
    assert g["auc_half"] == "'4999/5000'"
    assert float(g["auc_half_float"]) == stored(0.9998)


def test_F60_the_top_of_both_rankings_is_empty():
    """F-60's point: precision at 10 is 0 in both rankings; average precision is low
    for the rare positives only."""
    g = glued(CH12)
    assert float(g["p10_both"]) == 0.0
    assert float(g["ap_rare"]) == pytest.approx(np.mean([j / (100 + j) for j in range(1, 11)]))
    assert float(g["ap_half"]) > 0.99
    text = cell_text(CH12)
    assert "AUC = 99989/99999 = 0.9998999990" in text
    assert "AUC = 4999/5000 = 0.9998000000" in text


def test_chapter12_auc_at_k():
    """AUC of the top k alone: 40 of the 140 negatives in the top 150 are beaten."""
    g = glued(CH12)
    assert float(g["auck_rare_150"]) == pytest.approx(40 / 140)
    assert float(g["auck_rare_1000"]) == pytest.approx(890 / 990)
    assert float(g["auck_half_10000"]) == 0.0
    # AUC@k is undefined (one class only) at k = 10 and 100 in both rankings.
    assert g["n_undefined"] == "4"


def test_chapter12_auc_against_best_accuracy_on_the_linear_model():
    """D's remark: AUC 5/6 against the best accuracy 3/4 (at 1/2); KS 1/2, Gini 2/3;
    with one positive in ten the best accuracy is 91/100."""
    g = glued(CH12)
    assert (g["model_auc"], g["model_best_acc"], g["model_best_theta"]) == (
        "'5/6'", "'3/4'", "'1/2'")
    assert (g["model_ks"], g["model_gini"]) == ("'1/2'", "'2/3'")
    assert g["acc_pi01"] == "'91/100'"
    assert float(g["sample_auc_big"]) == pytest.approx(5 / 6, abs=0.01)
    assert float(g["sample_acc_big"]) == pytest.approx(3 / 4, abs=0.01)


def test_chapter12_modest_auc_useful_shapes():
    """Dyakonov's remark 4: AUCs near 0.6, yet no defaulter in the credit model's
    bottom 16% and no miss in the churn model's top 4%."""
    g = glued(CH12)
    for key in ("shape_auc_credit", "shape_auc_churn", "shape_auc_evenly"):
        assert 0.55 < float(g[key]) < 0.65
    assert float(g["bottom_pos_credit"]) == 0.0
    assert float(g["bottom_pos_even"]) > 100
    assert float(g["top_prec_churn"]) == 1.0
    assert float(g["top_prec_even"]) < 0.5
    assert g["q2_auc"] == "'3/5'"


def test_chapter12_feature_screening_misses_the_bump():
    """2|AUC - 1/2| sees monotone features, not the one with positives in the middle;
    -|x - c| makes that one perfect."""
    g = glued(CH12)
    assert float(g["screen_exp"]) > 0.2 and abs(float(g["corr_exp"])) < 0.1
    assert float(g["auc_dec"]) < 0.5 and float(g["screen_dec"]) > 0.2
    assert float(g["screen_mid"]) < 0.05
    assert float(g["mid_screen_x"]) < 0.05
    assert float(g["mid_auc_dist"]) == 1.0
    assert float(g["screen_mid_hat"]) > 0.3
    # Out of sample (centre from one half, AUC on the other) the screen holds up.
    assert float(g["screen_mid_out"]) > 0.3
    assert abs(float(g["screen_mid_out"]) - float(g["screen_mid_hat"])) < 0.05
    assert float(g["q3_auc_dist"]) == 1.0


def test_chapter12_exercise_solutions():
    g = glued(CH12)
    assert g["q1_auc"] == "'195/199'"
    assert float(g["q1_auc_float"]) == stored(195 / 199)
    assert float(g["q1_p10"]) == 0.0
    assert float(g["q1_p25"]) == stored(5 / 25) and float(g["q1_r25"]) == 1.0
    assert float(g["q3_screen"]) < 0.1


def test_plot_ranking_strip_colours_follow_the_ranking():
    y = np.array([0, 1, 0, 0, 1, 1])
    s = np.array([0.9, 0.1, 0.8, 0.3, 0.7, 0.2])  # order: 0, 2, 4, 3, 5, 1
    ax = plotting.plot_ranking_strip(y, s, n_top=4, per_row=3)
    faces = ax.collections[0].get_facecolor()
    pos = matplotlib.colors.to_rgba(plotting.COLORS["point"])
    assert [tuple(f) == pos for f in faces] == [False, False, True, False]
    with pytest.raises(ValueError):
        plotting.plot_ranking_strip(y, s, n_top=7, ax=ax)
    plt.close(ax.get_figure())


def test_plot_roc_shape_draws_the_curve_and_both_edge_runs():
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0, 0, 0])
    s = np.arange(10, 0, -1)
    ax = plotting.plot_roc_shape(y, s, min_share=0.1)
    curve = roc_curve(y, s)
    line = ax.get_lines()[1]
    assert np.allclose(line.get_xdata(), curve.fpr)
    assert np.allclose(line.get_ydata(), curve.tpr)
    assert [t.get_text() for t in ax.texts] == [
        "top 20% of objects:\npositives only", "bottom 40% of objects:\nnegatives only"]
    n_lines = len(ax.get_lines())
    plotting.plot_roc_shape(y, s, ax=ax, highlight=False, label="again")
    assert len(ax.get_lines()) == n_lines + 1  # no second diagonal
    plt.close(ax.get_figure())


def test_plot_feature_classes_counts_each_class():
    x = np.array([0.1, 0.2, 0.6, 0.9, 0.5])
    y = np.array([0, 0, 1, 0, 1])
    ax = plotting.plot_feature_classes(x, y, bins=2)
    heights = [p.get_height() for p in ax.patches if hasattr(p, "get_height")]
    assert sum(heights[:2]) == 3  # the negatives' bars
    plt.close(ax.get_figure())


def test_chapter12_exercises_in_the_four_cell_format():
    """Every exercise of the chapter, in order: question, worked solution, the
    reference solution code ending in a passing check, solution-end (issue #9)."""
    import json
    import re

    from notebook_tools import load

    from course_lib.exercises import exercises_for

    cells = load(CH12)["cells"]
    src = ["".join(c["source"]) for c in cells]
    labels = [m.group(1) for s in src
              for m in [re.match(r"```\{exercise\} .*\n:label: (\S+)", s)] if m]
    assert labels == [e.id for e in exercises_for(12)] and len(labels) >= 4
    assert not any("Check yourself" in s for s in src)
    for ex in exercises_for(12):
        i = next(k for k, s in enumerate(src) if f":label: {ex.id}\n" in s)
        assert src[i].startswith(f"```{{exercise}} {ex.title}\n")
        assert src[i + 1].startswith(f"```{{solution-start}} {ex.id}\n:class: dropdown")
        assert "{glue:" in src[i + 1], "numbers of the worked solution are glued"
        sol = cells[i + 2]
        assert sol["metadata"]["tags"] == ["solution"]
        assert sol["metadata"]["exercise"] == ex.id
        assert src[i + 2] == (f"{ex.solution_code.strip()}\n"
                              f"check({json.dumps(ex.id)}, {ex.answer_name})")
        out = "".join("".join(o.get("data", {}).get("text/plain", ""))
                      for o in sol.get("outputs", []))
        assert f"{ex.id}: passed" in out
        end = next(k for k in range(i + 3, len(src))
                   if src[k].startswith("```{solution-end}"))
        for extra in cells[i + 3:end]:
            assert extra["metadata"]["tags"] == ["solution", "remove-cell"]


def test_chapter12_figures_captioned_and_sources_named():
    """Each figure has a numbered caption and is referred to by its number; the prose
    names the sources by author, not by letter or by their own figure numbers."""
    import re

    from notebook_tools import load

    cells = load(CH12)["cells"]
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert not re.search(r"\b[Ss]ources? [DGKSC]\b|\b[DGKSC]'s\b|figures? XA\.|"
                         r"\bthe slides\b|\bthe source\b", prose)
    names = []
    for c in cells:
        images = [o for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})
                  or "image/png" in o.get("data", {})]
        if images:
            assert len(images) == 1, "one figure per cell"
            fig = c["metadata"]["mystnb"]["figure"]
            assert fig["name"].startswith("fig-12-") and len(fig["caption"]) > 40
            names.append(fig["name"])
    assert names and len(set(names)) == len(names)
    for name in names:
        assert f"{{numref}}`{name}`" in prose, f"{name} is never referred to"
