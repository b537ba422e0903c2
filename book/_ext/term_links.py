"""Glossary links: the first use of each glossary term in a chapter links to the glossary.

The names of a term are read from ``book/glossary.md``: its heading split at commas, a
parenthesis dropped (and kept as a name of its own when it is an abbreviation: "Average
precision (AP)" is "Average precision" and "AP"). A *use* is a name in a chapter's prose,
whole words, any case, a plural ``s`` allowed, outside code, math, headings, directive
lines and other roles; a *link* is a ``{term}`` role naming the term.

:func:`unlinked` lists, per chapter, the terms whose first use comes before any link to
them (the book's test requires none). Run as a command,
``python book/_ext/term_links.py notebooks/NN_*.ipynb`` links the first use of every such
term in place (markdown cells only; the outputs are untouched, so nothing needs to be
re-executed) and prints what it linked.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "book" / "glossary.md"

_ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")
_SKIP = re.compile(
    r"\{[\w:-]+\}`[^`]*`"          # any role
    r"|``[^`]*``|`[^`]*`"          # inline code
    r"|\$\$.*?\$\$|\$[^$\n]*\$"    # math
    r"|\[[^\]]*\]\([^)]*\)"        # a markdown link
    r"|<[^>\n]*>",                 # html
    re.S)


def glossary_terms(path: Path = GLOSSARY) -> dict[str, tuple[str, ...]]:
    """``{term: names}`` of the glossary (see the module's docstring).

    >>> terms = glossary_terms()
    >>> terms["Average precision (AP)"]
    ('Average precision', 'AP')
    >>> terms["Recall, TPR, sensitivity"]
    ('Recall', 'TPR', 'sensitivity')
    """
    text = path.read_text(encoding="utf-8")
    block = re.search(r"^```\{glossary\}\n(.*?)^```\s*$", text, flags=re.M | re.S)
    assert block is not None, "book/glossary.md has no {glossary} block"
    terms: dict[str, tuple[str, ...]] = {}
    for line in block.group(1).splitlines():
        if not line or line[0] in " :\t":
            continue
        term = line.strip()
        names: list[str] = []
        for part in term.split(", "):
            inner = re.findall(r"\(([^)]*)\)", part)
            base = re.sub(r"\s*\([^)]*\)", "", part).strip()
            if base and len(base) > 1:
                names.append(base)
            names += [i for i in inner if re.fullmatch(r"[A-Z][A-Za-z0-9]{1,5}", i)]
        terms[term] = tuple(dict.fromkeys(names))
    return terms


def _name_pattern(name: str) -> re.Pattern[str]:
    words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", name))
    flags = 0 if name.isupper() or any(c.isdigit() for c in name) else re.I
    return re.compile(r"(?<![\w$\\-])" + words + r"(?:s|es)?(?![\w-])", flags)


@dataclass(frozen=True)
class Use:
    """A name of a term in a cell's source: the cell, the span, the text."""

    cell: int
    start: int
    end: int
    text: str


def _prose_spans(source: str) -> Iterator[tuple[int, int]]:
    """Spans of ``source`` that are prose: not a heading, a fence, a directive option, a
    code or math block, a table row, or a skipped piece (:data:`_SKIP`)."""
    pos = 0
    fences: list[str] = []  # "code" or "directive", innermost last
    in_math = False
    for line in source.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        stripped = line.strip()
        if re.match(r"(`{3,}|~{3,}|:{3,})", stripped):
            rest = stripped.lstrip("`~:").strip()
            if not rest and fences:
                fences.pop()
            elif not rest or not rest.startswith("{") or re.match(
                    r"\{(code|code-block|code-cell|math|raw)\}", rest):
                fences.append("code")
            else:
                fences.append("directive")
            continue
        if stripped.count("$$") % 2 == 1:
            in_math = not in_math
            continue
        if in_math or "code" in fences or not stripped or stripped.startswith(
                ("#", ":", "|", "$$", "\\")):
            continue
        cursor = start
        for m in _SKIP.finditer(line):
            if m.start() > 0:
                yield cursor, start + m.start()
            cursor = start + m.end()
        if cursor < pos:
            yield cursor, pos


def links(source: str) -> list[tuple[int, str]]:
    """(position, term) of every ``{term}`` role in ``source``."""
    out = []
    for m in _ROLE.finditer(source):
        if m.group(1) == "term":
            body = m.group(2)
            target = re.search(r"<([^>]+)>\s*$", body)
            out.append((m.start(), (target.group(1) if target else body).strip()))
    return out


def _masked(source: str) -> str:
    """``source`` with everything but prose (:func:`_prose_spans`) blanked out, same
    length: a name can run across a line break of prose, never into code or math."""
    out = ["\x00"] * len(source)
    for a, b in _prose_spans(source):
        out[a:b] = source[a:b]
    return "".join(out)


def first_uses(cells: Sequence[str], terms: dict[str, tuple[str, ...]]
               ) -> dict[str, Use]:
    """The first use of each term in the cells' prose (terms never used are absent).

    Names are matched leftmost-longest: in "balanced accuracy" the term is Balanced
    accuracy, not Accuracy."""
    found: dict[str, Use] = {}
    patterns = [(t, _name_pattern(n)) for t, names in terms.items() for n in names]
    for i, source in enumerate(cells):
        text = _masked(source)
        matches = sorted(((m.start(), -(m.end() - m.start()), m.end(), t, m.group(0))
                          for t, p in patterns for m in p.finditer(text)))
        end = -1
        for start, _, stop, term, word in matches:
            if start < end:
                continue  # inside a longer name
            end = stop
            found.setdefault(term, Use(i, start, stop, word))
    return found


def _markdown(nb: dict) -> list[str]:
    return ["".join(c["source"]) if c["cell_type"] == "markdown" else "" for c in nb["cells"]]


def unlinked(nb: dict, terms: dict[str, tuple[str, ...]] | None = None) -> dict[str, Use]:
    """The terms whose first use in ``nb`` comes before any link to them."""
    terms = glossary_terms() if terms is None else terms
    cells = _markdown(nb)
    first_link: dict[str, tuple[int, int]] = {}
    for i, source in enumerate(cells):
        for pos, term in links(source):
            first_link.setdefault(term.lower(), (i, pos))
    out = {}
    for term, use in first_uses(cells, terms).items():
        # a name two terms share ("Lorenz curve") is linked by a link to either
        kin = [t for t, names in terms.items()
               if t == term or set(n.lower() for n in names) & set(
                   n.lower() for n in terms[term])]
        seen = [first_link[t.lower()] for t in kin if t.lower() in first_link]
        if not seen or min(seen) > (use.cell, use.start):
            out[term] = use
    return out


def link_first_uses(nb: dict, terms: dict[str, tuple[str, ...]] | None = None
                    ) -> list[tuple[str, str]]:
    """Link, in place, the first use of every term of :func:`unlinked`; returns
    (term, text) of each link made."""
    terms = glossary_terms() if terms is None else terms
    made = []
    while True:
        todo = unlinked(nb, terms)
        if not todo:
            return made
        # one link at a time, the last in the notebook first, so positions stay valid
        term, use = max(todo.items(), key=lambda kv: (kv[1].cell, kv[1].start))
        cell = nb["cells"][use.cell]
        source = "".join(cell["source"])
        words = re.sub(r"\s+", " ", use.text)
        role = (f"{{term}}`{words}`" if words.lower() == term.lower()
                else f"{{term}}`{words} <{term}>`")
        if "\n" in use.text:  # a role on one line, the line break after it
            role += "\n"
            if source[use.end:use.end + 1] == " ":
                source = source[:use.end] + source[use.end + 1:]
        source = source[:use.start] + role + source[use.end:]
        cell["source"] = source.splitlines(keepends=True)
        made.append((term, use.text))


def main(argv: Sequence[str]) -> int:
    for name in argv:
        path = Path(name)
        nb = json.loads(path.read_text(encoding="utf-8"))
        made = link_first_uses(nb)
        if made:
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        print(f"{path.name}: {len(made)} links: "
              + "; ".join(f"{text} -> {term}" for term, text in reversed(made)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
