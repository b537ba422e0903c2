"""One notation for the whole book.

Every symbol that a chapter *defines* in display math (the left-hand side of an
equation `symbol = ...` in a `$$` block) is on the notation page (book/notation.md) or
on the agreed list of local symbols below, each with the reason it stays local.
A symbol is compared by its head as written (`\\mathrm{BS}`, `\\pi`, `c`), a subscript
that is not an index (`F_1`, `\\mathrm{AUC}_{\\text{hull}}`), primes, and the shape of
its arguments (`A(i|j)` is `A(|)`, `A(i, j)` is `A(,)`), so that `A(i|j)` on the page
does not license Hand and Till's `A(i, j)` or chapter 1's `A`.
"""

from __future__ import annotations

import re

import pytest
from notebook_tools import ROOT, load

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NOTATION = ROOT / "book" / "notation.md"

INDEX = set("ijkg")  # subscripts made of these number things: c_k is the symbol c
# operators, not symbols: expectation, probability, variance, standard deviation
OPERATORS = {r"\mathrm{E}", r"\mathbb{E}", r"\mathbf{P}", r"\mathrm{P}", r"\operatorname{Var}",
             r"\operatorname{sd}"}
SPACES = re.compile(r"\\[,;:! ]|~")
HEAD = re.compile(
    r"(\\(?:mathrm|operatorname|mathbf|mathbb|mathit|text)\{[^{}]*\}|\\hat\{?[a-zA-Z]\}?|"
    r"\\[a-zA-Z]+|[A-Za-z])"
)

# (chapter, symbol key): why the symbol stays local to its chapter.
LOCAL = {
    ("01", "A"): "Stavytskyi's examples of merging P and R (A, A'), used only there",
    ("01", "A'"): "Stavytskyi's examples of merging P and R, used only there",
    ("01", "F_1"): "the F1 score of chapter 1 (glossary entry F-score)",
    ("01", "F_\\beta"): "the F-beta score of chapter 1 (glossary entry F-score)",
    ("01", "\\kappa"): "Cohen's kappa, chapter 1 only",
    ("01", "\\mathrm{MCC}"): "Matthews' correlation, chapter 1 only",
    ("01", "\\mathrm{accuracy}"): "a word, not a symbol",
    ("01", "\\mathrm{precision}"): "a word, not a symbol (P on the notation page)",
    ("01", "\\mathrm{recall}"): "a word, not a symbol (R on the notation page)",
    ("01", "\\mathrm{logloss}"): "a word, not a symbol",
    ("02", "C"): "the expected cost of one threshold in the hull section",
    ("02", "S"): "the slope of the iso-performance lines (chapter 2; chapter 9 uses the same S)",
    ("03", "T"): "the trapezoid T_g over group g in the proof, used only there",
    ("03", "h"): "the height h_i of the path over negative i's column, the thinning section",
    ("03", "\\mathrm{AUC}()"): "AUC(a), the AUC of a rule's answers a: the page's AUC and a(x)",
    ("03", "\\mathrm{wTPR}"): "weighted rates of the weights section, used only there",
    ("03", "\\mathrm{wFPR}"): "weighted rates of the weights section, used only there",
    ("03", "\\mathrm{AUC}_w"): "the weighted AUC of the weights section, used only there",
    ("04", "I"): "the set of pairs of the pairwise reduction, used only there",
    ("04", "t"): "the pair labels t_ij of the pairwise reduction, used only there",
    ("04", "g_\\varphi()"): "the family of linear scorers of chapter 4's example",
    ("05", "G"): "Gini's coefficient of an income distribution (economics), chapter 5 only",
    ("06", "\\mathrm{Gini}"): "2 AUC - 1, named in words where chapter 6 defines it",
    ("06", "S_{\\text{ideal}}"): "areas of the CAP construction, chapter 6 only",
    ("06", "T"): "T_i, F_i, R_i: a population's TPR, FPR, RPP at score s_i, chapter 6's proof",
    ("06", "F"): "T_i, F_i, R_i: a population's TPR, FPR, RPP at score s_i, chapter 6's proof",
    ("06", "T_0"): "T_0 = F_0 = R_0 = 0, the start of chapter 6's proof",
    ("06", "D(|)"): "Somers' D, chapter 6 only",
    ("07", "R()"): "recall as a function of the threshold: the page's R",
    ("07", "P()"): "precision as a function of the threshold: the page's P",
    ("07", "\\mathrm{AP}"): "average precision, chapter 7 (glossary entry)",
    ("07", "\\mathrm{AUC}_{\\mathrm{trap}}"): "the trapezoid area under PR points, chapter 7",
    ("07", "H_m"): "the harmonic number in the mean AP of a random order, chapter 7 only",
    ("07", "\\mathrm{precG}"): "precision gain of the PRG section (glossary entry)",
    ("07", "\\mathrm{recG}"): "recall gain of the PRG section (glossary entry)",
    ("08", "\\mathrm{KS}"): "the KS statistic, chapter 8 (glossary entry)",
    ("08", "\\mathrm{Lift}()"): "the lift at a rate of positive predictions, chapter 8",
    ("09", "E[]"): "Drummond and Holte's expected cost E[C], chapter 9's own notation",
    ("09", "E_{\\max}"): "Drummond and Holte's largest expected cost, chapter 9 only",
    ("09", "\\mathrm{PCF}()"): "the probability cost function, chapter 9 (glossary entry)",
    ("09", "\\mathrm{NEC}"): "the normalized expected cost, chapter 9 (glossary entry)",
    ("09", "X"): "the axes X, Y of cost space, chapter 9 only",
    ("09", "Y"): "the axes X, Y of cost space, chapter 9 only",
    ("10", "\\mathrm{TPR}()"): "TPR as a function of the threshold: the page's TPR",
    ("10", "\\mathrm{FPR}()"): "FPR as a function of the threshold: the page's FPR",
    ("10", "P()"): "precision as a function of the threshold: the page's P",
    ("10", "\\mathrm{AUC}_{PR}()"): "the page's AUC_PR as a function of the share pi",
    ("10", "\\mathrm{RPP}()"): "the page's RPP as a function of the threshold",
    ("11", "b_0"): "the scores b_0, b_1 of a negative and a positive: the page's b by class",
    ("11", "b_1"): "the scores b_0, b_1 of a negative and a positive: the page's b by class",
    ("11", "Q_1"): "Hanley and McNeil's Q1, chapter 11 only",
    ("11", "Q_2"): "Hanley and McNeil's Q2, chapter 11 only",
    ("12", "\\mathrm{AUC@}k"): "AUC@k of the pitfalls chapter, used only there",
    ("17", "\\mathrm{McClish}"): "McClish's standardized partial AUC, a name written out",
    ("17", "\\mathrm{AUC}_{\\text{hull}}"): "the area under the ROC convex hull, chapter 17",
}


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside braces, brackets and parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _closing(text: str) -> int:
    """The index of the bracket that closes the one ``text`` opens with."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "{[("
        depth -= ch in "}])"
        if depth == 0:
            return i
    return -1


def symbol_key(lhs: str) -> str | None:
    """The key of a symbol as written, or None when ``lhs`` is an expression."""
    s = re.sub(r"\s+", "", SPACES.sub("", lhs).replace("&", ""))
    s = s.replace("\\left", "").replace("\\right", "").replace("\\bigl", "").replace(
        "\\bigr", "").replace("\\big", "")
    m = HEAD.match(s)
    if not m or not s:
        return None
    head, rest = m.group(1), s[m.end():]
    if head.startswith("\\hat"):
        head = "\\hat " + head.strip("\\hat{}").strip()
    key = head
    sub = re.match(r"_(\{(?:[^{}]|\{[^{}]*\})*\}|\\[a-zA-Z]+|[A-Za-z0-9])", rest)
    if sub:
        body = sub.group(1)
        rest = rest[sub.end():]
        if not set(body.strip("{}")) <= INDEX:
            key += "_" + body
    primes = re.match(r"'+", rest)
    if primes:
        key += primes.group(0)
        rest = rest[primes.end():]
    if key == "\\mathrm{AUC@}" and rest.startswith("k"):
        key, rest = key + "k", rest[1:]
    if head in OPERATORS:
        return None
    if rest:
        if rest[0] not in "([" or rest[-1] not in ")]" or len(split_top(rest, "\0")) != 1 or (
                _closing(rest) != len(rest) - 1):
            return None
        inner = rest[1:-1]
        if rest[0] == "[" and not inner:
            return None
        shape = "|" if ("|" in inner or "\\mid" in inner) else ";" if ";" in inner else (
            "," if "," in inner else "")
        key += rest[0] + shape + rest[-1]
    return key


def defined_symbols(block: str) -> list[str]:
    """Keys of the symbols a display block defines: the left-hand side of each of its
    statements, where it is a symbol rather than an expression."""
    body = re.sub(r"\\begin\{cases\}.*?\\end\{cases\}", "", block, flags=re.S)
    body = SPACES.sub(" ", re.sub(r"\\(begin|end)\{[a-z*]+\}", "", body))
    keys = []
    for line in split_top(body, "\\\\"):
        statements = [s for part in re.split(r"\\qquad|\\quad", line)
                      for s in split_top(part, ",")]
        for piece in statements:
            sides = split_top(piece, "=")
            if len(sides) < 2 or not sides[0].strip().strip("&").strip():
                continue
            key = symbol_key(sides[0])
            if key is not None:
                keys.append(key)
    return keys


def chapter_definitions() -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for path in NOTEBOOKS:
        number = path.name[:2]
        for cell in load(path)["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            for block in re.findall(r"\$\$(.*?)\$\$", text, flags=re.S):
                for key in defined_symbols(block):
                    found.setdefault((number, key), []).append(block.strip()[:60])
    return found


def notation_symbols() -> set[str]:
    """Keys of the symbols in the first column of the notation page's tables, each side
    of an equation counting."""
    keys: set[str] = set()
    for line in NOTATION.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| $"):
            continue
        first = line.split("|")[1]
        for math in re.findall(r"\$(.*?)\$", first):
            for side in split_top(math, "="):
                key = symbol_key(side)
                if key is not None:
                    keys.add(key)
    return keys


def test_the_key_of_a_symbol():
    assert symbol_key(r"\mathrm{BS}") == r"\mathrm{BS}"
    assert symbol_key(r"A(i|j)") == "A(|)"
    assert symbol_key(r"A(i, j) ") == "A(,)"
    assert symbol_key(r"c_k") == "c"
    assert symbol_key(r"F_\beta") == r"F_\beta"
    assert symbol_key(r"\mathrm{AUC}_{\text{hull}}") == r"\mathrm{AUC}_{\text{hull}}"
    assert symbol_key(r"Q(\theta; c)") == "Q(;)"
    assert symbol_key(r"\frac{\hat p}{1 - \hat p}") is None
    assert symbol_key(r"\mathbb{E}(p - Y)^2") is None
    assert defined_symbols(r"H = 1 - \frac{1}{2}") == ["H"]
    assert defined_symbols(r"A = x, \qquad M = \min(P, R),") == ["A", "M"]


def test_every_defined_symbol_is_on_the_notation_page_or_a_local_one():
    page = notation_symbols()
    found = chapter_definitions()
    missing = {k: v[0] for k, v in found.items() if k[1] not in page and k not in LOCAL}
    assert not missing, (
        "symbols defined in display math that are neither on book/notation.md nor on the "
        f"local list of tests/test_notation.py: {missing}")


def test_the_local_list_has_no_stale_entries():
    """A local symbol that no chapter defines any more, or that the notation page now
    has, leaves the list."""
    page = notation_symbols()
    found = chapter_definitions()
    stale = sorted(k for k in LOCAL if k not in found or k[1] in page)
    assert not stale, stale


@pytest.mark.parametrize("symbol", [
    r"\hat p", r"\mathrm{BS}", r"\mathrm{REL}", r"\mathrm{RES}", r"\mathrm{UNC}",
    r"\mathrm{ECE}", "A(|)", "A(,)", "M", r"\pi_0", r"\pi_1", "L()", "w()", "H",
    r"\mathrm{SR}", r"\mathrm{pAUC}(,)", "K", "c", "m",
])
def test_the_symbols_of_chapters_14_to_17_are_on_the_page(symbol):
    assert symbol in notation_symbols()


@pytest.mark.parametrize("path", NOTEBOOKS[13:17], ids=lambda p: p.name[:2])
def test_chapters_14_to_17_use_the_books_letters(path):
    """m objects (not n), scores b (not s), thresholds theta (not t), and no a, b for
    the ends of a range (chapter 16's classes a, b, c in A(a, b) are names, not ends),
    in all the math of the chapters' text, exercises included."""
    bad = re.compile(r"(?<![\\A-Za-z])(n|s|t)(?![A-Za-z_])|\[a, b\]|(?<![A-Za-z])\(a, b\)|a \\le")
    words = re.compile(r"\\(text|mathrm|operatorname|mathit)\{[^{}]*\}")
    hits = []
    for cell in load(path)["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] != "markdown":
            continue
        for math in re.findall(r"\$\$?(.*?)\$\$?", text, flags=re.S):
            if bad.search(words.sub("X", math)):
                hits.append(math.strip()[:60])
    assert not hits, hits


# Issue 26: one letter, one meaning; one spelling for the costs of the two errors.

GLOSSARY = ROOT / "book" / "glossary.md"
# The pages whose math the letter tests read: every chapter's markdown, the notation
# page and the glossary.
PAGES = [NOTATION, GLOSSARY, *NOTEBOOKS]


def page_math(path) -> list[str]:
    """The math spans, inline and display, of a page's prose (a chapter's markdown)."""
    if path.suffix == ".ipynb":
        text = "\n".join("".join(c["source"]) for c in load(path)["cells"]
                         if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    return re.findall(r"\$\$?(.*?)\$\$?", text, flags=re.S)


def _page_id(path) -> str:
    return path.name


A_I = re.compile(r"(?<![A-Za-z\\])a_(?:i|\{i\})(?![A-Za-z])")
LETTER_A = re.compile(r"(?<![A-Za-z\\])a(?![A-Za-z_])")
WORDS = re.compile(r"\\(?:text|mathrm|operatorname|mathit)\{[^{}]*\}")
# Chapter 16 names three classes a, b, c (A(a|b), AUC_a): names, not symbols.
CLASS_NAMES = {"16_many_classes.ipynb"}


def a_misused(math: str) -> bool:
    """True when ``math`` uses the letter a for anything but the rule and its answers:
    a(x), the rule defined (a = [b >= 1/2]), AUC(a), and a_i = a(x_i), the answer for
    object i, which is only ever compared with a value (a_i = 1, a_i \\in \\{0, 1\\})."""
    math = WORDS.sub("X", math)
    for hit in A_I.finditer(math):
        rest = SPACES.sub(" ", math[hit.end():]).lstrip()
        if not rest.startswith(("=", "\\in", "\\ne")):
            return True
    for hit in LETTER_A.finditer(math):
        before = SPACES.sub(" ", math[:hit.start()]).rstrip()
        rest = SPACES.sub(" ", math[hit.end():]).lstrip()
        if rest.startswith("(") or (before.endswith("(") and rest.startswith(")")):
            continue
        if rest.startswith("=") and rest[1:].lstrip().startswith("["):
            continue
        return True
    return False


def test_the_uses_of_the_letter_a_are_recognised():
    assert not a_misused(r"\sum_i [\,a_i = 1\,][\,y_i = 0\,]")
    assert not a_misused(r"a_i = a(x_i)")
    assert not a_misused(r"a(x) = [\, b(x) \ge \theta \,]")
    assert not a_misused(r"a = [\, b \ge 1/2 \,]")
    assert not a_misused(r"2\,\mathrm{AUC}(a) - 1 = \mathrm{TPR} - \mathrm{FPR}")
    assert not a_misused(r"\text{a word}")
    assert a_misused(r"\sum_i (a_i - e_i)\ln(a_i/e_i)")
    assert a_misused(r"a_i")
    assert a_misused(r"\mathrm{NEC} = a\,\mathrm{PCF}(+) + b")
    assert not a_misused(r"\sum_i (q_i - e_i)\ln(q_i/e_i)")


@pytest.mark.parametrize("path", [p for p in PAGES if p.name not in CLASS_NAMES],
                         ids=_page_id)
def test_the_letter_a_is_the_rule_and_its_answers_only(path):
    """a(x) is the rule [b(x) >= theta] and a_i = a(x_i) its answer for object i (chapters
    1-3, 10); no page uses a for anything else, such as the PSI shares of a sample
    (q_i) or the slope of a cost line (chapter 9 names it in words)."""
    bad = [math.strip()[:60] for math in page_math(path) if a_misused(math)]
    assert not bad, bad


def test_the_notation_page_gives_the_rule_and_the_psi_shares_their_own_letters():
    page = notation_symbols()
    assert "a()" in page and "a" in page  # a(x), and a_i = a(x_i)
    rows = NOTATION.read_text(encoding="utf-8").splitlines()
    rule = next(r for r in rows if r.startswith(r"| $\theta$"))
    assert "$a_i = a(x_i)$" in rule
    psi = next(r for r in rows if r.startswith(r"| $\mathrm{PSI}$"))
    assert r"(q_i - e_i)\ln(q_i/e_i)" in psi and "$q_i$ (sample)" in psi
    assert not A_I.search(psi)


COST = re.compile(r"(?<![A-Za-z\\])[cC]_(\{(?:[^{}]|\{[^{}]*\})*\}|\\[a-zA-Z]+\{[^{}]*\})")


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_the_costs_of_the_two_errors_have_one_spelling(path):
    """The costs of a false positive and of a false negative are c_{FP} and c_{FN}
    wherever they appear (chapter 15 wrote C_{\\mathrm{FP}}); chapter 9 keeps Drummond and
    Holte's C(+|-) and C(-|+), which the notation page names."""
    spelled = {hit.group(0) for math in page_math(path) for hit in COST.finditer(math)
               if "FP" in hit.group(1) or "FN" in hit.group(1)}
    assert spelled <= {"c_{FP}", "c_{FN}"}, spelled


def test_the_costs_of_the_two_errors_are_on_the_notation_page():
    page = notation_symbols()
    assert "c_{FP}" in page and "c_{FN}" in page


def test_the_second_table_names_the_chapters_it_covers():
    """"Chapters 15-N add symbols": every row of the table that follows ends with the
    chapter that adds the symbol, and the range covers all of them (chapter 18's PSI)."""
    text = NOTATION.read_text(encoding="utf-8")
    intro = re.search(r"Chapters (\d+)-(\d+) add symbols", text)
    assert intro, "the sentence before the second table"
    first, last = map(int, intro.groups())
    table = re.search(r"\n\n((?:\|.*\n)+)", text[intro.end():]).group(1)
    chapters = [int(n) for n in re.findall(r"\(chapter (\d+)[^()]*\) \|$", table, flags=re.M)]
    assert chapters and min(chapters) == first and max(chapters) == last, (first, last, chapters)
