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
handout) every worked solution is left out, code included; with ``--solutions``
(``make pdf-solutions``, the answer key) each is printed open under its exercise. Neither
says that the solutions are folded (the sentence ``book/_ext/editions.py`` marks).
``--answer-key KEY.pdf`` prints the answer key too, from the same page load (MathJax
typesets the page once).

Usage: ``python book/_ext/print_pdf.py [--solutions] PAGE.html OUT.pdf [--answer-key KEY.pdf]``
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
#: What turns the page into paper, the worked solutions printed open (run in the page).
FOR_PAPER = """() => {
  // Folded code: the reader of the book sees only its output, so does the reader of paper.
  document.querySelectorAll("details.hide").forEach(d => {
    if (d.classList.contains("above-input")) { d.remove(); return; }
    d.open = true;
    d.querySelectorAll(":scope > summary").forEach(s => s.remove());
  });
  // sphinx-togglebutton folds the solutions: open them, without the button.
  document.querySelectorAll(".solution").forEach(s => {
    s.classList.remove("toggle-hidden");
    s.querySelectorAll(".toggle-hidden").forEach(e => e.classList.remove("toggle-hidden"));
  });
  document.querySelectorAll(".solution button.toggle-button").forEach(b => b.remove());
  // "The worked solutions are folded under each exercise": not on paper.
  document.querySelectorAll(".folded-solutions").forEach(e => e.remove());
  document.querySelectorAll(".threshold-explorer").forEach(root => {
    root.querySelectorAll("input.te-slider").forEach(e => e.remove());
    root.querySelectorAll(".te-help").forEach(e => {
      e.textContent = "Printed at the threshold it starts at; in the HTML book and in " +
        "JupyterLab a slider moves the threshold.";
    });
  });
}"""
#: The handout: every worked solution (prose, code and output) out.
WITHOUT_SOLUTIONS = """() => document.querySelectorAll(".solution").forEach(s => s.remove())"""
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


def print_pdf(page: Path, pdf: Path | None, *, answer_key: Path | None = None,
              timeout_ms: int = 600_000) -> list[Path]:
    """Print ``page`` (an HTML file), once its math and images are ready and it is made
    for paper (see the module docstring), to the handout ``pdf`` (no worked solutions)
    and/or the answer key ``answer_key`` (every solution open); one page load for both.
    Returns the PDFs written."""
    from playwright.sync_api import sync_playwright

    if pdf is None and answer_key is None:
        raise ValueError("print_pdf needs a handout path, an answer-key path or both")
    page = Path(page).resolve()
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
    written = []
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
            tab.evaluate(FOR_PAPER)
            tab.emulate_media(media="print")
            for target, solutions in ((answer_key, True), (pdf, False)):
                if target is None:
                    continue
                if not solutions:
                    tab.evaluate(WITHOUT_SOLUTIONS)
                target = Path(target).resolve()
                target.parent.mkdir(parents=True, exist_ok=True)
                tab.pdf(path=str(target), format="A4", print_background=True,
                        margin={"top": "16mm", "bottom": "16mm", "left": "14mm",
                                "right": "14mm"},
                        display_header_footer=True, header_template="<div></div>",
                        footer_template=FOOTER)
                written.append(target)
        finally:
            browser.close()
    return written


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python book/_ext/print_pdf.py",
        description="Print the single-page book to PDF: a handout without the worked "
                    "solutions, or with --solutions the answer key.")
    parser.add_argument("page", type=Path, help="_build/singlehtml/index.html")
    parser.add_argument("pdf", type=Path, help="the PDF to write")
    parser.add_argument("--solutions", action="store_true",
                        help="print the answer key (every worked solution) to PDF")
    parser.add_argument("--answer-key", type=Path, metavar="KEY.pdf",
                        help="print the answer key there too, from the same page load")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.solutions and args.answer_key:
        parser.print_usage(sys.stderr)
        print("--solutions and --answer-key: give one", file=sys.stderr)
        return 2
    key = args.pdf if args.solutions else args.answer_key
    handout = None if args.solutions else args.pdf
    print_pdf(args.page, handout, answer_key=key)
    if handout:
        print(f"The book as PDF, without the worked solutions (handout): {handout}")
    if key:
        print(f"The book as PDF, with the worked solutions (answer key): {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
