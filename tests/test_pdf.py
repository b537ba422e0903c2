"""``make pdf``: the whole book as one PDF, built offline (singlehtml printed by Chromium).

The test builds the single-page book into a temporary folder, prints it with
``book/_ext/print_pdf.py`` exactly as ``make pdf`` does, and reads the PDF back with
poppler's ``pdftotext`` and ``pdftoppm`` (Debian's poppler-utils): every title of the
table of contents is in it, no formula is left as raw TeX, and pages rasterize to ink.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
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


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    if CHROMIUM is None or not POPPLER:
        if IN_CI:
            pytest.fail("CI=true but Chromium or poppler-utils is missing (.ci/run installs them)")
        pytest.skip("needs Chromium and poppler-utils (apt-get install chromium poppler-utils)")
    out = tmp_path_factory.mktemp("pdf")
    proc = subprocess.run(
        [str(JUPYTER_BOOK), "build", str(ROOT), "--builder", "singlehtml", "--path-output",
         str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, f"singlehtml build failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    target = out / "book.pdf"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "book" / "_ext" / "print_pdf.py"),
         str(out / "_build" / "singlehtml" / "index.html"), str(target)],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, f"printing failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return target


@pytest.fixture(scope="module")
def text(pdf) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


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
