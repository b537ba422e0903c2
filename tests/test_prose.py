"""Statements of the prose that a test can hold (issue 19): where Youden's J is named,
what the glossary says about Spark's binned areas and proper scoring rules, and that
the explorer page announces every chart its explorers draw."""

import re

from notebook_tools import ROOT, chapter, load

GLOSSARY = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")


def prose(path) -> str:
    text = " ".join("".join(c["source"]) for c in load(path)["cells"]
                    if c["cell_type"] == "markdown")
    # a glossary link ({term}`words <Term>`, issue 28 item 4) reads as its words
    text = re.sub(r"\{term\}`([^`<]*?)\s*(?:<[^>`]*>)?`", r"\1", text)
    return re.sub(r"\s+", " ", text)


def entry(term: str) -> str:
    """The text of one glossary entry (its definition lines, indented)."""
    match = re.search(rf"^{re.escape(term)}\n((?:  .*\n)+)", GLOSSARY, flags=re.M)
    assert match, f"no glossary entry {term!r}"
    return re.sub(r"\s+", " ", match.group(1))


def test_youdens_j_is_named_where_tpr_minus_fpr_is_derived():
    one = prose(chapter("01_threshold_metrics"))
    assert "2\\,\\mathrm{BA} - 1 = \\mathrm{TPR} - \\mathrm{FPR}$, **Youden's J**" in one
    three = prose(chapter("03_auc_pairs"))
    assert ("2\\,\\mathrm{AUC}(a) - 1 = \\mathrm{TPR} - \\mathrm{FPR}$, "
            "the threshold's **Youden's J**") in three
    taught = entry("Youden's J")
    for number in ("01_threshold_metrics", "03_auc_pairs", "08_gain_lift_ks"):
        assert number in taught


def test_glossary_binned_auc_is_precise_about_spark():
    binned = entry("Binned AUC")
    assert "by default" not in binned.replace("so by default it is exact", "")
    assert "since Spark 3.0" in binned and "before 3.0 the evaluator was always exact" in binned
    assert "at least 2" in binned and "exact below 2,000 distinct scores" in binned
    assert "areaUnderPR" in binned


def test_glossary_has_proper_scoring_rule():
    proper = entry("Proper scoring rule")
    assert "Brier score" in proper and "log-loss" in proper and "15_calibration" in proper
    assert "{term}`proper scoring rule <Proper scoring rule>`" in GLOSSARY
    assert "**proper scoring rules**" in prose(chapter("15_calibration"))


def test_explorer_page_names_every_chart_it_draws():
    cells = load(ROOT / "book" / "explorer.ipynb")["cells"]
    intro = "".join(cells[0]["source"])
    names = {"roc": "ROC", "pr": "PR", "gain": "gain", "ks": "KS"}
    drawn = set()
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        for call in re.findall(r"threshold_explorer\((.*?)\)\n", "".join(cell["source"]) + "\n",
                               flags=re.S):
            listed = re.search(r"curves=\(([^)]*)\)", call)
            drawn |= set(re.findall(r'"(\w+)"', listed.group(1))) if listed else {
                "roc", "pr", "gain"}
    assert drawn == {"roc", "pr", "gain", "ks"}
    for curve in drawn:
        assert re.search(rf"\b{names[curve]}\b", intro), curve
