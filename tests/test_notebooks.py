"""The stored chapters: house rules, and the syllabus facts as the book shows them.

nbval (run by ``make test``) re-executes every notebook and compares each output with
the stored one. The tests here read the stored notebooks: they check that each one was
run top to bottom in a fresh kernel without warnings, and that the numbers glued into
the prose are the syllabus facts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.ipynb"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def glued(path: Path) -> dict[str, str]:
    """The text/plain value of every ``glue`` call stored in a notebook."""
    values = {}
    for cell in _load(path)["cells"]:
        for out in cell.get("outputs", []):
            key = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if key is not None:
                values[key] = out["data"]["application/papermill.record/text/plain"]
    return values


def cell_text(path: Path) -> str:
    """All stored stream and text/plain outputs of a notebook, joined."""
    parts = []
    for cell in _load(path)["cells"]:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def test_there_are_chapters():
    assert any(p.name == "02_roc_grid.ipynb" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_house_rules(path):
    nb = _load(path)
    first = nb["cells"][0]
    assert first["cell_type"] == "markdown" and "".join(first["source"]).startswith("# "), (
        "the first cell must be a '# Title' markdown cell"
    )
    counts = [c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), "run top to bottom in a fresh kernel"
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", "stored error output"
            assert out.get("name") != "stderr", f"stderr output: {''.join(out.get('text', ''))[:200]}"
            text = json.dumps(out.get("data", {}).get("text/plain", "")) + json.dumps(out.get("text", ""))
            assert not re.search(r" at 0x[0-9a-f]{6,}", text), "memory address in an output"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name == "notebooks"], ids=lambda p: p.name)
def test_chapter_file_names(path):
    assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", path.name)


CH2 = ROOT / "notebooks" / "02_roc_grid.ipynb"


def test_F10_chapter2_threshold_point_is_quarter_two_thirds():
    """F-10: threshold c = 0.25 on Table 1 gives (FPR, TPR) = (1/4, 2/3) in the book."""
    g = glued(CH2)
    assert g["theta"] == "0.25"
    assert (g["fpr_theta"], g["tpr_theta"]) == ("'1/4'", "'2/3'")


def test_F11_chapter2_one_class_auc_is_nan_and_curve_refuses():
    """F-11: labels (0,0,0) have no ROC curve: the chapter shows nan, a warning, an error."""
    text = cell_text(CH2)
    assert "roc_auc: nan" in text
    assert "warning: UndefinedMetricWarning" in text
    assert "roc_curve: ValueError" in text


def test_F12_chapter2_auc_is_19_24_three_ways():
    """F-12: AUC(Table 1) = 19/24 ~ 0.7917, the same by area, pairs and ranks."""
    g = glued(CH2)
    assert g["auc_exact"] == "'19/24'"
    assert float(g["auc_float"]) == pytest.approx(19 / 24, abs=1e-15)
    assert float(g["auc_pairs_num"]) == 9.5 and g["n_pairs"] == "12"
    text = cell_text(CH2)
    for label in ("area of the path", "pairs counted", "Mann-Whitney U/(m1m0)"):
        assert re.search(rf"{re.escape(label)}\s+0\.791667", text), label


def test_chapter2_walk_has_one_diagonal_step_for_the_tie():
    g = glued(CH2)
    assert g["n_steps"] == "6" and g["tie_ids"] == "'3 and 5'"
    assert (g["tie_from"], g["tie_to"]) == ("'(1/4, 2/3)'", "'(1/2, 1)'")
