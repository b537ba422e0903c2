"""The book's learning path: one table of the chapters, built from the chapters themselves.

Each chapter says, once, in its own notebook:

* in its opening, a box of class ``chapter-goals`` with what the reader will be able to
  do (three to five items) and a line ``**Needs:**`` naming the chapters it builds on
  (``{doc}`` links; "nothing but ..." where it needs none);
* in its metadata, ``course.summary`` (one line) and ``course.track`` (``core`` or
  ``optional``).

The directive ``{chapter-map}`` (on the landing page and on "How to use this book") turns
these into a table: number, title, summary, the chapters needed, the track and an
estimated reading time. The time follows from the chapter's length: a minute per
:data:`WORDS_PER_MINUTE` words of text and per :data:`CODE_LINES_PER_MINUTE` lines of
code, rounded up to five minutes. Nothing is written twice: the table changes when a
chapter does.

Run as a command, ``python book/_ext/learning_path.py`` prints the table's rows.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WORDS_PER_MINUTE = 150
CODE_LINES_PER_MINUTE = 10
TRACKS = ("core", "optional")
GOALS_CLASS = "chapter-goals"

_DOC = re.compile(r"\{doc\}`(?:[^`<]*<)?([^`>]+)>?`")
_ROLE = re.compile(r"\{[a-z:]+\}`([^`]*)`")
_FENCE = re.compile(r"^(```+|:::+)\s*\{?[\w-]*\}?.*$|^:[\w-]+:.*$", re.M)


@dataclass(frozen=True)
class Chapter:
    """What the learning path shows of one chapter."""

    number: int
    doc: str          # "notebooks/07_pr_curves"
    title: str
    summary: str
    track: str
    needs: tuple[str, ...]  # docs, as in ``doc``
    goals: tuple[str, ...]
    minutes: int


def toc_chapters(root: Path = ROOT) -> list[str]:
    """The numbered chapters' docs, in the order of ``_toc.yml``."""
    toc = (root / "_toc.yml").read_text(encoding="utf-8")
    return re.findall(r"^\s*- file: (notebooks/\S+)", toc, flags=re.M)


def _words(text: str) -> int:
    text = _FENCE.sub(" ", text)
    text = _ROLE.sub(r" \1 ", text)
    return len(re.findall(r"[A-Za-z0-9][\w'’-]*", text))


def reading_minutes(nb: dict) -> int:
    """Estimated minutes to read a notebook: text at :data:`WORDS_PER_MINUTE`, code at
    :data:`CODE_LINES_PER_MINUTE`, rounded up to a multiple of five.

    >>> reading_minutes({"cells": [{"cell_type": "markdown", "source": "word " * 300}]})
    5
    >>> reading_minutes({"cells": [{"cell_type": "code", "source": "x = 1\\n" * 120}]})
    15
    """
    words = lines = 0
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            words += _words(source)
        elif cell["cell_type"] == "code":
            lines += sum(1 for line in source.splitlines() if line.strip())
    minutes = words / WORDS_PER_MINUTE + lines / CODE_LINES_PER_MINUTE
    return max(5, 5 * math.ceil(minutes / 5))


def goals_box(nb: dict) -> str | None:
    """The text of the chapter's ``chapter-goals`` box, None where it has none."""
    for cell in nb["cells"][:3]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        match = re.search(r"^(```+|:::+)\{admonition\}[^\n]*\n:class: " + GOALS_CLASS
                          + r"\n(.*?)^\1\s*$", source, flags=re.M | re.S)
        if match:
            return match.group(2)
    return None


def _resolve(doc: str, here: str) -> str:
    """A ``{doc}`` target as a root-relative doc name."""
    if doc.startswith("/"):
        return doc.lstrip("/")
    base = Path(here).parent
    parts: list[str] = []
    for part in (base / doc).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def read_chapter(number: int, doc: str, root: Path = ROOT) -> Chapter:
    """The learning-path entry of chapter ``number`` (``doc`` as in ``_toc.yml``).

    Raises ``ValueError`` naming what the chapter lacks."""
    path = root / f"{doc}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    meta = nb.get("metadata", {}).get("course", {})
    summary, track = meta.get("summary"), meta.get("track")
    if not summary or track not in TRACKS:
        raise ValueError(f"{path.name}: the notebook's metadata needs course.summary and "
                         f"course.track (one of {TRACKS}), got {meta!r}")
    first = "".join(nb["cells"][0]["source"])
    title = re.match(r"#\s+(.+)", first)
    if title is None:
        raise ValueError(f"{path.name}: the first cell does not open with a # title")
    box = goals_box(nb)
    if box is None:
        raise ValueError(f"{path.name}: no {GOALS_CLASS} box in the chapter's opening")
    goals = tuple(g.strip() for g in re.findall(r"^[*-] (.+(?:\n  .+)*)", box, flags=re.M))
    needs_line = re.search(r"^\*\*Needs:?\*\*:?(.*(?:\n(?![*-] ).+)*)", box, flags=re.M)
    if needs_line is None:
        raise ValueError(f"{path.name}: the {GOALS_CLASS} box has no **Needs:** line")
    needs = tuple(_resolve(d, doc) for d in _DOC.findall(needs_line.group(1)))
    return Chapter(number, doc, title.group(1).strip(), summary.strip(), track, needs,
                   goals, reading_minutes(nb))


def chapters(root: Path = ROOT) -> list[Chapter]:
    """Every numbered chapter's entry, in the book's order."""
    return [read_chapter(i, doc, root) for i, doc in enumerate(toc_chapters(root), start=1)]


def table_markdown(entries: list[Chapter], here: str) -> str:
    """The MyST list-table of the learning path, with links relative to doc ``here``."""
    number = {c.doc: c.number for c in entries}
    depth = here.count("/")
    up = "../" * depth

    def link(doc: str, text: str) -> str:
        return f"{{doc}}`{text} <{up}{doc}>`"

    rows = ["```{list-table}", ":header-rows: 1", ":class: chapter-map",
            ":widths: 5 28 43 10 7 7", "",
            "* - \u2116", "  - Chapter", "  - In one line", "  - Needs", "  - Track",
            "  - Time"]
    for c in entries:
        needs = ", ".join(link(d, str(number[d])) for d in c.needs if d in number) or "\u2014"
        rows += [f"* - {c.number}", f"  - {link(c.doc, c.title)}", f"  - {c.summary}",
                 f"  - {needs}", f"  - {c.track}", f"  - {c.minutes} min"]
    rows.append("```")
    return "\n".join(rows)


def setup(app: Any) -> dict:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ChapterMap(SphinxDirective):
        """``{chapter-map}``: the table of the chapters (see the module's docstring)."""

        has_content = False

        def run(self) -> list[nodes.Node]:
            entries = chapters(Path(self.env.srcdir))
            for c in entries:
                self.env.note_dependency(str(Path(self.env.srcdir) / f"{c.doc}.ipynb"))
            text = table_markdown(entries, self.env.docname)
            container = nodes.container(classes=["chapter-map-wrapper"])
            self.state.nested_parse(StringList(text.splitlines(), source="chapter-map"),
                                    self.content_offset, container)
            return [container]

    app.add_directive("chapter-map", ChapterMap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    for c in chapters():
        print(f"{c.number:2d} {c.track:8s} {c.minutes:3d} min  needs "
              f"{[n.split('/')[-1][:2] for n in c.needs]}  {c.title}")
    sys.exit(0)
