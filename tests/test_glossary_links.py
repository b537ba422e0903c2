"""Linked terms and symbols (issue 28): the first use of each glossary term in each chapter
links to the glossary (``book/_ext/term_links.py`` says what a use and a link are), and
every ``{term}`` role names a term of the glossary."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import term_links  # noqa: E402

CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TERMS = term_links.glossary_terms()


def test_the_glossary_names_its_terms():
    assert len(TERMS) >= 70
    assert TERMS["Gini coefficient"] == ("Gini coefficient",)
    assert TERMS["KS statistic"] == ("KS statistic",)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_the_first_use_of_each_term_links_the_glossary(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    missing = term_links.unlinked(nb, TERMS)
    assert not missing, {t: u.text for t, u in missing.items()}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_every_term_role_names_a_glossary_term(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    known = {t.lower() for t in TERMS}
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for _, term in term_links.links("".join(cell["source"])):
                assert term.lower() in known, (path.name, term)


def test_the_linker_links_first_uses_only_once():
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# T\n", "\n",
                                             "The ROC curve and the AUC; the AUC again.\n"]},
        {"cell_type": "code", "source": ["auc = 1\n"]},
        {"cell_type": "markdown", "source": ["## The ROC curve\n", "$AUC$ and `AUC`, AUC.\n"]}]}
    made = term_links.link_first_uses(nb, TERMS)
    assert sorted(t for t, _ in made) == ["AUC, ROC AUC", "ROC curve"]
    text = "".join(nb["cells"][0]["source"])
    assert text.endswith("The {term}`ROC curve` and the {term}`AUC <AUC, ROC AUC>`; "
                         "the AUC again.\n")
    assert "".join(nb["cells"][2]["source"]) == "## The ROC curve\n$AUC$ and `AUC`, AUC.\n"
    assert term_links.link_first_uses(nb, TERMS) == []


def _links_notation(source: str) -> bool:
    return re.search(r"\{doc\}`(?:[^`<]*<)?[./]*(?:book/)?notation>?`", source) is not None


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_the_first_formula_of_each_chapter_comes_with_a_link_to_the_notation(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    first_math = next(i for i, s in enumerate(cells) if "$" in s)
    assert any(_links_notation(s) for s in cells[:first_math + 1]), path.name


#: What only a remark on a source's mistake says.
ERRATA_WORDS = re.compile(r"\berrat(?:a|um)\b|\bmisprint|\btypo\b", re.I)
_BOX = re.compile(r"^(`{3,}|:{3,})\{admonition\} On the sources\n(.*?)^\1\s*$",
                  re.M | re.S)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_remarks_on_the_sources_mistakes_sit_in_folded_boxes(path):
    """The teaching text reads without the sources' errata: a remark on a mistake of a
    source sits in a folded "On the sources" box (or on the Errata page, linked from
    one)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        for box in _BOX.finditer(source):
            assert re.search(r"^:class: .*\bdropdown\b", box.group(2), re.M), box.group(0)
        outside = _BOX.sub("", source)
        outside = re.sub(r"\{doc\}`[^`]*`", "", outside)
        assert not ERRATA_WORDS.search(outside), (path.name, ERRATA_WORDS.search(
            outside).group(0), outside[:300])
        assert not re.search(r"\{doc\}`[^`]*errata>?`", _BOX.sub("", source)), path.name
