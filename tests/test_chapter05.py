"""Chapter 5 as the reader sees it: the syllabus facts in the stored notebook's glue."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import cell_text, chapter, glued, stored

import course_lib as cl
from course_lib import plotting

CH5 = chapter("05_gini_economics")


def test_F20_chapter5_incomes_12223_gini_two_ninths_and_point():
    """F-20: incomes 1,1,2,2,3 have Gini 2/9; the Lorenz curve passes (0.6, 4/9)."""
    g = glued(CH5)
    assert g["gini_5"] == "'2/9'"
    assert float(g["gini_5_float"]) == stored(2 / 9)
    assert float(g["lorenz_x"]) == 0.6 and g["lorenz_y"] == "'4/9'"
    text = cell_text(CH5)
    assert "the 3 poorest: X = 3/5, Y = 4/9" in text
    assert "pairs formula: 2/9" in text


def test_F21_chapter5_three_villages():
    """F-21: G's three villages of ten, 100 roubles each: Gini 0, 0.21, 0.71."""
    g = glued(CH5)
    values = [float(g[f"gini_village_{i}"]) for i in (1, 2, 3)]
    assert values == pytest.approx([0, 0.21, 0.71], abs=1e-12)
    text = cell_text(CH5)
    assert "21/100" in text and "71/100" in text
    assert "(1/2 - B) / (1/2) = 0.7100" in text


def test_F22_chapter5_redistribution_changes_gini():
    """F-22: [1]*8 + [20, 72] has Gini 0.772; sharing the 20 out does not keep it."""
    g = glued(CH5)
    assert float(g["gini_before"]) == stored(0.772)
    assert float(g["gini_after"]) == stored(0.81)  # proportional
    assert float(g["gini_equal"]) == stored(0.668)
    assert float(g["gini_literal"]) == pytest.approx(0.738, abs=5e-4)  # G's vector
    assert float(g["literal_total"]) == stored(86.44)
    assert "Gini before: 193/250 = 0.772" in cell_text(CH5)


def test_chapter5_same_gini_example_and_exercise_solutions():
    g = glued(CH5)
    assert "Gini: 193/250 193/250" in cell_text(CH5)
    assert g["max_gini_10"] == "'9/10'"
    assert (g["five_shares"], g["five_sum"], g["gini_five"]) == (
        "'0, 0, 1/10, 3/10, 3/5, 1'", "'3/5'", "'2/5'")
    assert (g["gini_doubled"], g["gini_plus10"]) == ("'2/5'", "'8/25'")
    assert (float(g["gini_one_rich"]), float(g["gini_two_rich"])) == (0.9, 0.8)
    assert float(g["gini_fn_village3"]) == stored(0.71)


def test_chapter5_exercises_are_all_solved_in_the_chapter():
    from course_lib.exercises import exercises_for

    text = cell_text(CH5)
    for ex in exercises_for(5):
        assert f"{ex.id}: passed" in text, ex.id


def test_plot_lorenz_draws_the_curve_and_shades_the_area():
    incomes = [3, 1, 2, 1, 2]
    ax = plotting.plot_lorenz(incomes)
    curve = cl.lorenz_curve(incomes)
    line = ax.lines[1]
    assert np.array_equal(line.get_xdata(), curve.population)
    assert np.array_equal(line.get_ydata(), curve.share)
    assert len(ax.collections) == 1  # the shaded area
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="mark"):
        plotting.plot_lorenz(incomes, mark=6)
    plt.close("all")


def test_plot_lorenz_curves_one_line_per_group_and_limit():
    groups = {"a": [1, 2], "b": [1, 1], "c": [0, 5]}
    ax = plotting.plot_lorenz_curves(groups)
    assert len(ax.lines) == 1 + len(groups)
    for line, values in zip(ax.lines[1:], groups.values()):
        assert np.array_equal(line.get_ydata(), cl.lorenz_curve(values).share)
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="1 to 4"):
        plotting.plot_lorenz_curves({str(i): [1, 2] for i in range(5)})
