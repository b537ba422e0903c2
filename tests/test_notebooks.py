"""The stored chapters: house rules, and the syllabus facts as the book shows them.

nbval (run by ``make test``) re-executes every notebook and compares each output with
the stored one. The tests here read the stored notebooks: they check that each one was
run top to bottom in a fresh kernel without warnings, and that the numbers glued into
the prose are the syllabus facts (those are in tests/test_chapterNN.py).
"""

from __future__ import annotations

import json
import re

import pytest
from notebook_tools import ROOT, load

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.ipynb"))


def test_there_are_chapters():
    assert any(p.name == "02_roc_grid.ipynb" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_house_rules(path):
    nb = load(path)
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


def test_every_chapter_is_in_the_table_of_contents():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s*- file: (\S+)", toc, flags=re.M))
    for path in NOTEBOOKS:
        entry = f"{path.parent.name}/{path.stem}"
        assert entry in listed, f"{entry} is not in _toc.yml, so the book leaves it out"
