"""Linked terms and symbols (issue 28): the first use of each glossary term in each chapter
links to the glossary (``book/_ext/term_links.py`` says what a use and a link are), and
every ``{term}`` role names a term of the glossary."""

from __future__ import annotations

import json
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
