"""The chapters live in class: ``make lab`` serves lab copies of the notebooks in which the
book-only roles (glue, cite, doc) are replaced by what the book prints
(``book/_ext/labcopy.py``), and jupyterlab-myst renders the rest of the MyST.

The fast tests check the replacement on small inputs against myst-nb's own semantics; the
slow test starts the real ``make lab`` on a free local port, with no browser, into a
temporary folder, and reads the chapters back through the server's contents API; in
Chromium it checks a chapter's rendering, that the explorer page's threshold explorers
work from the stored outputs before anything is run, and that Lab does not ask about the
Jupyter news feed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import labcopy  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
IN_CI = os.environ.get("CI", "").lower() == "true"
RAW_ROLE = re.compile(r"\{(glue|cite)[:}]")


def _toc_chapters() -> list[str]:
    toc = (ROOT / "_toc.yml").read_text()
    return [f for f in re.findall(r"^\s*- file: (\S+)", toc, flags=re.M)
            if (ROOT / f"{f}.ipynb").is_file()]


def _markdown(nb: dict) -> str:
    return "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                     for c in nb["cells"] if c["cell_type"] == "markdown")


GLUE = {
    "auc": {"text/plain": "0.7916666667"},
    "frac": {"text/plain": "'19/24'"},
    "n": {"text/plain": "1234567"},
    "share": {"text/plain": "0.125"},
    "tex": {"text/plain": "'x'", "text/markdown": "$\\frac{1}{2}$"},
}
BIB = {"f": ("Fawcett", "2006"), "d": ("Davis and Goadrich", "2006")}


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("{glue:text}`auc:.3f`", "0.792"),
        ("{glue:text}`auc`", "0.7916666667"),
        ("{glue:text}`frac`", "19/24"),
        ("{glue:text}`n:,.0f`", "1,234,567"),
        ("{glue:text}`share:.1%`", "12.5%"),
        ("{glue:text}`auc:.1e`", "7.9e-01"),
        ("{glue:md}`tex:myst`", "$\\frac{1}{2}$"),
        ("{glue}`tex`", "$\\frac{1}{2}$"),
        ("{glue}`frac`", "19/24"),
        ("{cite:t}`f`", "Fawcett (2006)"),
        ("{cite:p}`f,d`", "(Fawcett, 2006; Davis and Goadrich, 2006)"),
        ("{doc}`../book/errata`", "Errata"),
        ("{doc}`the grid <02_roc_grid>`", "[the grid](02_roc_grid.ipynb)"),
        ("{numref}`Figure %s <fig-elsewhere>`", "Figure"),
        ("{numref}`fig-here`", "{numref}`fig-here`"),
        ("{term}`ROC curve`", "ROC curve"),
        ("{term}`curves <ROC curve>`", "curves"),
    ],
)
def test_roles_become_what_the_book_prints(role, expected):
    docs = {"../book/errata": ("Errata", None), "02_roc_grid": ("ROC", "02_roc_grid.ipynb")}
    out = labcopy.resolve_roles(f"<{role}>", glue=GLUE, bib=BIB, docs=docs,
                                labels=frozenset({"fig-here"}))
    assert out == f"<{expected}>"


def test_formats_agree_with_myst_nb():
    from myst_nb.core.variables import format_plain_text

    for spec in ["", ".0f", ".3f", ".4f", ".1%", ".2e", ",.0f", "g"]:
        for text in ["0.7916666667", "1234567", "0.125"]:
            got = labcopy.resolve_roles(f"{{glue:text}}`k:{spec}`" if spec else "{glue:text}`k`",
                                        glue={"k": {"text/plain": text}}, bib={}, docs={})
            assert got == format_plain_text(text, spec)


@pytest.mark.parametrize("bad", ["{glue:text}`missing`", "{cite:t}`nobody`", "{doc}`nowhere`",
                                 "{ref}`label-on-another-page`"])
def test_unknown_targets_are_errors_not_raw_roles(bad):
    with pytest.raises(ValueError):
        labcopy.resolve_roles(bad, glue=GLUE, bib=BIB, docs={})


def test_glue_figure_becomes_a_figure_of_the_stored_png(tmp_path):
    png = "iVBORw0KGgo="  # the PNG signature is enough here
    glue = {"fig": {"image/png": png, "text/plain": "<Figure>"}}
    md = "```{glue:figure} fig\n:name: fig-roc\n\nThe ROC curve.\n```\n"
    out = labcopy.resolve_glue_figures(md, glue=glue, image_dir=tmp_path / "_glued",
                                       prefix="02")
    assert out == "```{figure} _glued/02-fig.png\n:name: fig-roc\n\nThe ROC curve.\n```\n"
    assert (tmp_path / "_glued" / "02-fig.png").read_bytes().startswith(b"\x89PNG")


def test_bibliography_names_and_years():
    bib = labcopy.read_bibliography()
    assert bib["fawcett2006"] == ("Fawcett", "2006")
    assert bib["davis2006"] == ("Davis and Goadrich", "2006")
    assert bib["delong1988"][0].endswith("et al.")


def test_source_notebook_is_not_modified(tmp_path):
    path = ROOT / "notebooks" / "02_roc_grid.ipynb"
    before = path.read_bytes()
    nb = json.loads(before)
    copy = labcopy.lab_notebook(nb, bib=labcopy.read_bibliography(),
                                docs=labcopy.document_map(path), image_dir=tmp_path,
                                prefix="02")
    assert path.read_bytes() == before
    assert json.loads(before) == nb
    assert not RAW_ROLE.search(_markdown(copy))
    assert "19/24" in _markdown(copy)  # the exact AUC of Table 1, glued by the chapter


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 (local server)
        return r.read()


@pytest.mark.slow
def test_make_lab_serves_rendered_chapters(tmp_path):
    port, token = _free_port(), "coursetesttoken"
    lab_dir = tmp_path / "lab"
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "lab", f"PORT={port}", "BROWSER=no",
         f"LAB_DIR={lab_dir}",
         # the user's own Lab settings (a "No" to the news question) must not hide the prompt
         f"LAB_ARGS=--IdentityProvider.token={token} "
         f"--LabApp.user_settings_dir={tmp_path / 'user-settings'} "
         f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            try:
                status = json.loads(_get(f"{base}/api/status?token={token}"))
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read() if proc.stdout else ""
                    pytest.fail(f"make lab did not start a server:\n{out[-3000:]}")
                time.sleep(1)
        assert "started" in status

        listing = json.loads(_get(f"{base}/api/contents/notebooks?token={token}"))
        served = {item["name"] for item in listing["content"]}
        chapters = _toc_chapters()
        assert any(c.startswith("notebooks/") for c in chapters)
        for chapter in chapters:
            if chapter.startswith("notebooks/"):
                assert Path(chapter).name + ".ipynb" in served, f"{chapter} is not served"
            model = json.loads(_get(f"{base}/api/contents/{chapter}.ipynb?token={token}"))
            text = _markdown(model["content"])
            raw = RAW_ROLE.search(text)
            assert raw is None, f"{chapter}: raw role {text[raw.start():raw.start() + 60]!r}"
        # The chapters' data files resolve from the copies as from the originals.
        assert (lab_dir / "data" / "asah.csv").is_file()

        page = _get(f"{base}/lab?token={token}").decode()
        assert "jupyterlab-myst" in page, "jupyterlab-myst is not among Lab's extensions"

        if CHROMIUM is None:
            if IN_CI:
                pytest.fail("CI=true but Chromium is not installed (.ci/run installs it)")
            return
        # A student copy (what the class gets) renders the same way: written next to the
        # lab copies, it is served by the same JupyterLab.
        from course_lib.exercises.student import write_student_copies

        write_student_copies([ROOT / "notebooks" / "02_roc_grid.ipynb"], lab_dir / "student")
        _check_rendering_in_chromium(
            [f"{base}/lab/tree/notebooks/02_roc_grid.ipynb?reset&token={token}",
             f"{base}/lab/tree/student/notebooks/02_roc_grid.ipynb?reset&token={token}"],
            [tmp_path / "lab_ch02.png", tmp_path / "student_ch02.png"])
        _check_explorer_without_running(f"{base}/lab/tree/book/explorer.ipynb?reset&token={token}",
                                        tmp_path / "lab_explorer.png")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _check_rendering_in_chromium(urls: list[str], shots: list[Path]) -> None:
    """Each page (a lab copy, then a student copy of chapter 2) typesets its first
    formula, prints citations as author (year) and no raw role, and numbers its
    exercises as the book does (Exercise 2.1); the student copy's exercises name the
    variable of the answer. A screenshot of the first exercise is kept in ``shots``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            for url, shot in zip(urls, shots):
                page.goto(url)
                page.wait_for_selector(".jp-MarkdownCell .katex", state="attached",
                                       timeout=120_000)
                first = page.locator(".jp-MarkdownCell").first
                text = first.inner_text()
                # The first cell typesets its formula; citations read author (year).
                assert first.locator(".katex").count() > 0, text[:500]
                # JupyterLab renders cells as they scroll into view: visit the exercises.
                exercise = page.locator(".jp-MarkdownCell", has_text="Exercise 2.1").first
                exercise.scroll_into_view_if_needed()
                page.wait_for_timeout(1500)
                exercise.scroll_into_view_if_needed()
                page.screenshot(path=str(shot))
                heading = exercise.locator(".admonition-title, .myst-admonition-header, "
                                           "[class*=admonition] >> text=Exercise 2.1")
                assert heading.count() > 0, exercise.inner_text()[:300]
                cells = page.locator(".jp-MarkdownCell").all_inner_texts()
                assert not any(RAW_ROLE.search(t) for t in cells)
                assert any(re.search(r"[A-Z]\w+ \((\d{4}|n\.d\.)", t) for t in cells)
                shown = "\n".join(cells)
                assert "Exercise 2.1 (The ROC point of one threshold)" in shown
                assert "Exercise 2.2 (" in shown and "Exercise 1 (" not in shown
                # the answer's name, as in the book's box and the student copies
                assert "Your answer: point_02" in re.sub(r"\s+", " ", exercise.inner_text())
                if "/student/" in url:
                    assert "Solution to" not in shown and "folded" not in shown
                else:
                    assert "Solution to Exercise 2.1 (" in shown
        finally:
            browser.close()


def _check_explorer_without_running(url: str, shot: Path) -> None:
    """The explorer page, opened and not run: its two threshold explorers work from the
    stored outputs (the copies are trusted, so their scripts run), not the text fallback;
    and Lab does not ask about the Jupyter news feed (make lab: fetchNews is "false")."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            page.wait_for_selector(".jp-OutputArea-output .threshold-explorer",
                                   state="attached", timeout=120_000)
            explorers = page.locator(".jp-OutputArea-output .threshold-explorer")
            mounted = page.locator(".jp-OutputArea-output .threshold-explorer[data-mounted]")
            try:
                mounted.nth(1).wait_for(state="attached", timeout=30_000)
            except Exception:
                page.screenshot(path=str(shot))
            assert explorers.count() == 2
            assert mounted.count() == 2, "the explorers show only their text fallback"
            assert not page.locator(".te-fallback").first.is_visible()
            # Table 1's explorer answers the keyboard without a kernel run.
            slider = mounted.first.locator("input.te-slider")
            before = mounted.first.locator(".te-theta").inner_text()
            slider.focus()
            page.keyboard.press("Home")
            assert mounted.first.locator(".te-theta").inner_text() != before
            # The news question would have come with Lab's first notifications.
            page.wait_for_timeout(5_000)
            page.screenshot(path=str(shot))
            toasts = page.locator(".Toastify__toast").all_inner_texts()
            assert not [t for t in toasts if "news" in t.lower()], toasts
        finally:
            browser.close()


def test_figure_references_become_the_books_numbers(tmp_path):
    """{numref} to a captioned figure reads "Fig. N.k", as the HTML book numbers it."""
    numbers = labcopy.figure_numbers(sorted((ROOT / "notebooks").glob("*.ipynb")))
    assert numbers["fig-02-walk"].startswith("Fig. 2.")
    text = labcopy.resolve_roles("{numref}`fig-02-walk` and {numref}`Figure %s <fig-02-walk>`",
                                 glue={}, bib={}, docs={}, figures=numbers)
    number = numbers["fig-02-walk"]
    assert text == f"{number} and Figure {number[5:]}"


def test_a_reference_to_another_pages_section_becomes_its_title():
    """{ref} without text to a section of another page reads as the book prints it: the
    section's title (chapter 2's hull section, the notation page's RPP section)."""
    sections = labcopy.section_titles(labcopy._pages(ROOT))
    assert sections["sec-roc-hull"].endswith("the ROC convex hull")
    assert sections["notation-rpp"] == "Why RPP, not PR"
    text = labcopy.resolve_roles("see {ref}`sec-roc-hull` and {ref}`Why <notation-rpp>`",
                                 glue={}, bib={}, docs={}, sections=sections)
    assert text == f"see {sections['sec-roc-hull']} and Why"
    with pytest.raises(ValueError, match="needs a text"):
        labcopy.resolve_roles("{ref}`no-such-section`", glue={}, bib={}, docs={},
                              sections=sections)


def test_exercises_become_admonitions_numbered_as_in_the_book():
    """sphinx-exercise numbers the k-th exercise of chapter N "Exercise N.k" and prints its
    title in parentheses; :nonumber: exercises are not counted; the solution's drop-down
    is titled "Solution to" the exercise (tests/test_book.py checks the built HTML)."""
    numbers = labcopy.ExerciseNumbers(7, note=lambda label: f"answer of {label}")
    text = numbers.admonitions(
        "```{exercise} First\n:label: ex-1\n\nQ1\n```\n\n"
        "```{exercise}\n:label: ex-2\n:class: hard\n\nQ2\n```\n\n"
        "```{exercise} Aside\n:nonumber:\n\nQ3\n```\n\n"
        "```{exercise} Third\n:label: ex-3\n\nQ4\n```")
    heads = re.findall(r"^```\{admonition\} (.*)$", text, flags=re.M)
    assert heads == ["Exercise 7.1 (First)", "Exercise 7.2", "Exercise (Aside)",
                     "Exercise 7.3 (Third)"]
    assert ":class: exercise hard\n\nQ2\n\nanswer of ex-2\n```" in text
    assert "(ex-3)=\n```{admonition}" in text and "{exercise}" not in text
    solution = numbers.solutions(
        "```{solution-start} ex-3\n:class: dropdown\n```\nWorked:\n\n```python\nx = 1\n```")
    assert solution == ("````{dropdown} Solution to Exercise 7.3 (Third)\nWorked:\n\n"
                        "```python\nx = 1\n```\n````")
    assert numbers.solutions("```{solution-end}\n```") == "---"
    assert numbers.solutions("```{solution-start} ex-1\n```") == (
        "**Solution to Exercise 7.1 (First)**")
    with pytest.raises(ValueError, match="no exercise above it"):
        numbers.solutions("```{solution-start} ex-9\n```\ntext")
    assert "Exercise 1 (T)" in labcopy.ExerciseNumbers(None).admonitions(
        "```{exercise} T\n:label: t\n\nQ\n```")
    for bad in (0, -1, "2", True):
        with pytest.raises(ValueError, match="positive int"):
            labcopy.ExerciseNumbers(bad)


def test_lab_copy_numbers_the_exercises_of_its_chapter(tmp_path):
    path = ROOT / "notebooks" / "02_roc_grid.ipynb"
    copy = labcopy.page_copy(json.loads(path.read_text(encoding="utf-8")), path,
                             index=labcopy.BookIndex.read(ROOT), image_dir=tmp_path)
    text = _markdown(copy)
    assert re.findall(r"\{admonition\} (Exercise 2\.\d+)", text)[:2] == [
        "Exercise 2.1", "Exercise 2.2"]
    assert "{dropdown} Solution to Exercise 2.1 (" in text
    assert "{exercise}" not in text and "{solution" not in text


def test_lab_copies_name_each_exercise_s_answer_as_the_book_does(tmp_path):
    (copy,) = labcopy.write_lab_copies(tmp_path, [ROOT / "notebooks" / "03_auc_pairs.ipynb"])
    text = _markdown(json.loads(copy.read_text(encoding="utf-8")))
    assert "**Your answer:** `auc_table1`." in text
    assert "**Your answer:** a function `auc_pairs(y_true, y_score)`." in text
    assert labcopy.book_answer_note("no-such-exercise") is None
