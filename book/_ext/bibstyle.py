"""Sphinx extension: author-year citations in the text and the same labels in the list.

sphinxcontrib-bibtex's ``author_year`` style prints "Fawcett [2006]" and "[Fawcett, 2006]"
in the text, while pybtex's default ``alpha`` style labels the bibliography "[Faw06]",
"[Dyad.]": two keys for one source. This extension registers

* ``author_year_round``, a referencing style: "Fawcett (2006)" for ``{cite:t}`` and
  "(Fawcett, 2006)" for ``{cite:p}``, the usual author-year form (and the form that
  ``make lab``'s lab copies print, book/_ext/labcopy.py);
* ``authoryear``, a pybtex formatting style: pybtex's ``plain`` entries sorted by author,
  year and title, each labelled "Fawcett, 2006", so the list reads as the text cites.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pybtex.plugin
from pybtex.backends.plaintext import Backend as PlaintextBackend
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle


def _round() -> BracketStyle:
    return BracketStyle(left="(", right=")")


@dataclass
class RoundAuthorYearStyle(AuthorYearReferenceStyle):
    """Author-year citations in round brackets: Fawcett (2006), (Fawcett, 2006)."""

    bracket_textual: BracketStyle = field(default_factory=_round)
    bracket_parenthetical: BracketStyle = field(default_factory=_round)
    bracket_author: BracketStyle = field(default_factory=_round)
    bracket_label: BracketStyle = field(default_factory=_round)
    bracket_year: BracketStyle = field(default_factory=_round)


def author_label(last_names: list[str], year: str) -> str:
    """The list label of an entry: as the text cites it, without brackets.

    >>> author_label(["Fawcett"], "2006"), author_label(["Davis", "Goadrich"], "2006")
    ('Fawcett, 2006', 'Davis and Goadrich, 2006')
    >>> author_label(["DeLong", "DeLong", "Clarke-Pearson"], "1988")
    'DeLong et al., 1988'
    """
    if not last_names:
        raise ValueError("an entry needs an author or editor for an author-year label")
    if len(last_names) == 1:
        who = last_names[0]
    elif len(last_names) == 2:
        who = f"{last_names[0]} and {last_names[1]}"
    else:
        who = f"{last_names[0]} et al."
    return f"{who}, {year}"


class AuthorYearLabelStyle(BaseLabelStyle):
    """pybtex label style: "Fawcett, 2006"; equal labels get a, b, ... after the year."""

    def format_labels(self, sorted_entries):
        labels = []
        for entry in sorted_entries:
            persons = entry.persons.get("author") or entry.persons.get("editor") or []
            names = [
                " ".join(p.prelast_names + p.last_names).replace("{", "").replace("}", "")
                for p in persons
            ]
            year = entry.fields.get("year", "n.d.").replace("--", "\u2013")
            labels.append(author_label(names, year))
        seen: dict[str, int] = {}
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        suffix: dict[str, int] = {}
        for label in labels:
            if seen[label] > 1:
                suffix[label] = suffix.get(label, 0) + 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[suffix[label] - 1]
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    """pybtex's plain entries, sorted by author, year and title, with author-year labels."""

    default_label_style = "authoryear"
    default_sorting_style = "author_year_title"


# pybtex looks its plain-text backend up among every installed package's entry points
# each time a citation is resolved (181 times a build: 3.8 of the single page's 20 s);
# the same class, registered once at run time, is found first.
pybtex.plugin.register_plugin("pybtex.backends", "plaintext", PlaintextBackend, force=True)
pybtex.plugin.register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabelStyle)
pybtex.plugin.register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_round",
                RoundAuthorYearStyle)


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
