"""``make pdf``: the whole book as one PDF, built offline (singlehtml printed by Chromium).

The test builds the single-page book (tests/book_build.py: from the Sphinx environment of
the HTML book that tests/test_book.py reads, into ``_build/tests/book``), prints it with
``book/_ext/print_pdf.py`` as ``make pdf`` (the handout) and ``make pdf-solutions`` (the
answer key) do, both from one page load (``--answer-key``), and reads the PDFs back with
poppler's ``pdftotext`` and ``pdftoppm`` (Debian's poppler-utils): every title of the
table of contents is in the handout, no formula is left as raw TeX, pages rasterize to
ink; the handout has no worked solution and no toggle, the answer key every solution.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import book_build
import pytest

from course_lib.exercises.student import FOLDED

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
POPPLER = shutil.which("pdftotext") and shutil.which("pdftoppm")
IN_CI = os.environ.get("CI", "").lower() == "true"
# Sphinx writes inline math as \( ... \) and display math as \[ ... \] (or $$): these
# delimiters reach the text layer only where MathJax did not typeset. (TeX inside code
# cells, such as r"\mathrm{TPR}" labels, is code and stays.)
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$")


def _titles() -> list[str]:
    """The title (first level-1 heading) of every page in _toc.yml."""
    toc = (ROOT / "_toc.yml").read_text()
    files = re.findall(r"^\s*(?:root|- file):\s*(\S+)", toc, flags=re.M)
    titles = []
    for f in files:
        md, nb = ROOT / f"{f}.md", ROOT / f"{f}.ipynb"
        if nb.is_file():
            cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        else:
            text = md.read_text(encoding="utf-8")
        match = re.search(r"^# (.+)$", text, flags=re.M)
        assert match, f"{f} has no title"
        titles.append(match.group(1).strip())
    return titles


def _plain(text: str) -> str:
    """Text compared without markup, hyphenation or line breaks."""
    text = re.sub(r"[*_`]|\$[^$]*\$", "", text)
    return re.sub(r"\s+", " ", text.replace("-\n", "")).strip().lower()


def _plain_lines(text: str) -> str:
    """The text with its line breaks as spaces (a sentence may break across lines)."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    if CHROMIUM is None or not POPPLER:
        if IN_CI:
            pytest.fail("CI=true but Chromium or poppler-utils is missing (.ci/run installs them)")
        pytest.skip("needs Chromium and poppler-utils (apt-get install chromium poppler-utils)")
    page = book_build.built("singlehtml") / "index.html"
    out = tmp_path_factory.mktemp("pdf")
    target, key = out / "book.pdf", out / "book-solutions.pdf"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "book" / "_ext" / "print_pdf.py"), str(page), str(target),
         "--answer-key", str(key)],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, f"printing failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return target


def _pdftotext(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


@pytest.fixture(scope="module")
def text(pdf) -> str:
    return _pdftotext(pdf)


@pytest.fixture(scope="module")
def key_text(pdf) -> str:
    return _pdftotext(pdf.with_name("book-solutions.pdf"))


#: What only a folded part of the HTML book says: a toggle's label, a solution's title.
TOGGLES = re.compile(r"(Show|Hide) code cell (source|output|content)|Click to (show|hide)")


def _solution_outputs() -> list[str]:
    """What only a worked solution prints: its code's passing check, "Passed · <id>"."""
    from course_lib.exercises import REGISTRY

    return [f"Passed · {ex.id} ·" for ex in REGISTRY.values()]


@pytest.mark.slow
def test_handout_has_no_solution_and_no_toggle(text):
    """The handout: every exercise, no worked solution (title, prose or code), no dead
    toggle, no slider instructions for an explorer without its slider."""
    assert "Exercise 2.1 (The ROC point of one threshold)" in _plain_lines(text)
    assert "Solution to" not in text
    found = [out for out in _solution_outputs() if out in _plain_lines(text)]
    assert not found, f"solution code in the handout: {found[:3]}"
    assert not TOGGLES.search(text), TOGGLES.search(text)
    assert not FOLDED.search(_plain_lines(text))  # the chapters' sentence
    assert text.count("a slider moves the threshold") >= 4  # the explorers, printed static


@pytest.mark.slow
def test_answer_key_has_every_solution_open(key_text):
    calls = _solution_outputs()
    plain = _plain_lines(key_text)
    assert plain.count("Solution to Exercise") == len(calls) >= 90
    missing = [call for call in calls if call not in plain]
    assert not missing, f"solutions missing from the answer key: {missing[:3]}"
    assert not TOGGLES.search(key_text), TOGGLES.search(key_text)
    assert not FOLDED.search(plain)  # on paper the solutions are not folded
    assert "Solution to Exercise 2.1 (The ROC point of one threshold)" in plain


@pytest.mark.slow
def test_pdf_has_every_page_of_the_toc(text):
    plain = _plain(text)
    titles = _titles()
    assert len(titles) >= 10
    missing = [t for t in titles if _plain(t) not in plain]
    assert not missing, f"titles not found in the PDF: {missing}"


@pytest.mark.slow
def test_pdf_math_is_typeset_not_raw(text):
    raw = [text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")
           for m in RAW_TEX.finditer(text)]
    assert not raw, f"raw TeX in the PDF: {raw[:5]}"
    assert text.count("\f") > 20, "expected a book of more than twenty pages"


@pytest.mark.slow
def test_pdf_pages_rasterize_with_ink(pdf, tmp_path):
    from PIL import Image

    pages = pdf.read_bytes().count(b"/Type /Page") - pdf.read_bytes().count(b"/Type /Pages")
    for number in (1, max(2, pages // 2), max(3, pages - 1)):
        stem = tmp_path / f"page{number}"
        subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", str(number), "-l", str(number),
                        "-singlefile", str(pdf), str(stem)], check=True)
        image = Image.open(f"{stem}.png").convert("L")
        dark = sum(image.histogram()[:128])
        assert dark > 200, f"page {number} of the PDF is blank"
