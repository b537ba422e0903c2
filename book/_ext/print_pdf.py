"""Print the single-page HTML book to one PDF, offline, with Debian's Chromium.

``make pdf`` builds the book with Sphinx's ``singlehtml`` builder, then runs this script:
headless Chromium (through playwright, with the system's ``chromium``: the jupyter-book
``pdfhtml`` builder would download a browser of its own, which cannot work offline) opens
the page from disk, waits until MathJax has typeset every formula and every image has
loaded, makes it a paper page (:data:`FOR_PAPER`) and prints it with the print styles of
``book/_static/book.css``.

On paper nothing can be clicked, so the handout has no toggle: a code cell that the book
folds ("Show code cell source") is left out, as its reader sees it at first, with its
output kept; a threshold explorer prints its charts and tables at the threshold it starts
at, with a note instead of the slider. Without ``--solutions`` (``make pdf``, the
handout) every worked solution is left out, code included, with the sentence saying they
are folded under the exercises (marked by ``book/_ext/editions.py``); with
``--solutions`` (``make pdf-solutions``, the answer key) each is printed open under its
exercise.

Usage: ``python book/_ext/print_pdf.py [--solutions] _build/singlehtml/index.html OUT.pdf``
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
]
#: What turns the page into paper (run in the page, with the argument "keep solutions").
FOR_PAPER = """keep => {
  const gone = [];
  const drop = (selector) => document.querySelectorAll(selector).forEach(e => {
    gone.push(selector); e.remove();
  });
  // Folded code: the reader of the book sees only its output, so does the reader of paper.
  document.querySelectorAll("details.hide").forEach(d => {
    if (d.classList.contains("above-input")) { d.remove(); gone.push("hidden source"); return; }
    d.open = true;
    d.querySelectorAll(":scope > summary").forEach(s => s.remove());
  });
  if (keep) {
    // sphinx-togglebutton folds the solutions: print them open, without the button.
    document.querySelectorAll(".solution").forEach(s => {
      s.classList.remove("toggle-hidden");
      s.querySelectorAll(".toggle-hidden").forEach(e => e.classList.remove("toggle-hidden"));
    });
    drop(".solution button.toggle-button");
  } else {
    drop(".solution");
    drop(".folded-solutions");
  }
  document.querySelectorAll(".threshold-explorer").forEach(root => {
    root.querySelectorAll("input.te-slider").forEach(e => e.remove());
    root.querySelectorAll(".te-help").forEach(e => {
      e.textContent = "Printed at the threshold it starts at; in the HTML book and in " +
        "JupyterLab a slider moves the threshold.";
    });
  });
  return gone.length;
}"""
FOOTER = (
    '<div style="font-size:8px;width:100%;text-align:center;color:#666;">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


def chromium() -> str:
    """The system Chromium (``$CHROMIUM`` overrides); a clear error when there is none."""
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if not found:
        raise RuntimeError("Chromium is not installed: apt-get install chromium")
    return found


def follow_redirect(page: Path) -> Path:
    """The page an ``index.html`` that only redirects (``http-equiv="Refresh"``) points to."""
    text = page.read_text(encoding="utf-8")
    match = re.search(r'http-equiv="Refresh"[^>]*url=([^"\'>]+)', text, flags=re.I)
    return (page.parent / match.group(1)).resolve() if match else page


def print_pdf(page: Path, pdf: Path, *, solutions: bool = False,
              timeout_ms: int = 600_000) -> Path:
    """Print ``page`` (an HTML file) to ``pdf`` once its math and images are ready, for
    paper (see the module docstring): the worked solutions only with ``solutions``."""
    from playwright.sync_api import sync_playwright

    page, pdf = Path(page).resolve(), Path(pdf).resolve()
    if not page.is_file():
        raise FileNotFoundError(f"{page} does not exist: build the singlehtml book first")
    page = follow_redirect(page)
    # Sphinx writes the single page at the root document's path (book/intro.html) but with
    # links relative to the output folder: print a copy that sits there.
    root = next((d for d in page.parents if (d / "_static").is_dir()), page.parent)
    if root != page.parent:
        copy = root / "print.html"
        copy.write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
        page = copy
    pdf.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1000, "height": 1400})
            tab.set_default_timeout(timeout_ms)
            tab.goto(page.as_uri(), wait_until="load")
            tab.evaluate("localStorage.setItem('mode', 'light')")
            tab.evaluate("document.documentElement.dataset.theme = 'light'")
            if tab.locator("script[src*='mathjax']").count():
                tab.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
                tab.evaluate("MathJax.startup.promise")
            # Images below the fold are lazy: load them all before printing.
            tab.evaluate("document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
            tab.wait_for_function(
                "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
            errors = tab.locator("mjx-merror").count()
            if errors:
                raise RuntimeError(f"MathJax could not typeset {errors} formula(s)")
            tab.evaluate(FOR_PAPER, solutions)
            tab.emulate_media(media="print")
            tab.pdf(path=str(pdf), format="A4", print_background=True,
                    margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                    display_header_footer=True, header_template="<div></div>",
                    footer_template=FOOTER)
        finally:
            browser.close()
    return pdf


def main(argv: list[str]) -> int:
    solutions = "--solutions" in argv
    args = [a for a in argv if a != "--solutions"]
    if len(args) != 2 or any(a.startswith("--") for a in args):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    pdf = print_pdf(Path(args[0]), Path(args[1]), solutions=solutions)
    what = "with the worked solutions (answer key)" if solutions else "without solutions"
    print(f"The book as PDF, {what}: {pdf}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
