"""The book as a reader meets it: it builds with warnings as errors, reads offline, and
every image, link and anchor resolves. The browser test opens every page in headless
Chromium with outside name lookups blocked and checks that MathJax typeset the math.

The book is built from the stored notebook outputs, exactly as ``make book`` does, once
for every test that reads it (tests/book_build.py: into ``_build/tests/book``, never the
author's ``_build/html``, and again only when its sources change).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import book_build
import pytest

# Every test here needs the built book (minutes): `pytest -m "not slow"` leaves them out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
CDN_HOSTS = re.compile(r"unpkg\.com|jsdelivr\.net|cdnjs|googleapis\.com|mathjax\.org/|rawgit|githack")


@pytest.fixture(scope="session")
def html_dir() -> Path:
    html = book_build.built("html")
    assert (html / "index.html").is_file()
    return html


class _Page(HTMLParser):
    """Collects ids, links and resource references of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.resources: list[tuple[str, str]] = []  # (tag, url)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and a.get("href") is not None:
            self.links.append(a["href"])
        if tag in ("img", "script", "iframe", "source", "video", "audio") and a.get("src"):
            self.resources.append((tag, a["src"]))
        if tag == "link" and a.get("href"):
            self.resources.append((tag, a["href"]))


def _pages(html_dir: Path) -> dict[Path, _Page]:
    pages = {}
    for path in sorted(html_dir.rglob("*.html")):
        if "_static" in path.parts:
            continue
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path] = parser
    return pages


def _explorer_pages(html_dir: Path) -> list[Path]:
    """The built pages with a threshold explorer (course_lib.interactive)."""
    return [p for p in sorted(html_dir.rglob("*.html"))
            if "_static" not in p.parts and 'class="threshold-explorer"' in p.read_text(encoding="utf-8")]


def _is_external(url: str) -> bool:
    return bool(urlsplit(url).scheme) or url.startswith("//")


def test_book_has_the_chapters_of_the_toc(html_dir):
    toc = (ROOT / "_toc.yml").read_text()
    files = re.findall(r"^\s*- file: (\S+)", toc, flags=re.M)
    assert "notebooks/02_roc_grid" in files
    for f in files:
        assert (html_dir / f"{f}.html").is_file(), f"{f} is in _toc.yml but was not built"


def test_no_page_references_a_cdn(html_dir):
    for path, page in _pages(html_dir).items():
        for tag, url in page.resources:
            assert not _is_external(url), f"{path.name}: <{tag}> loads {url} from the network"
        text = path.read_text(encoding="utf-8")
        match = CDN_HOSTS.search(text)
        assert match is None, f"{path.relative_to(html_dir)} mentions a CDN: {match.group(0)}"


def test_mathjax_is_served_from_the_book_with_its_licence(html_dir):
    mathjax = html_dir / "_static" / "mathjax"
    assert (mathjax / "tex-chtml.js").is_file()
    assert "Apache License" in (mathjax / "LICENSE.txt").read_text()
    intro = (html_dir / "book" / "intro.html").read_text()
    assert '../_static/mathjax/tex-chtml.js"' in intro


def test_every_image_link_and_anchor_resolves(html_dir):
    pages = _pages(html_dir)
    checked = 0
    for path, page in pages.items():
        for tag, url in page.resources:
            if not urlsplit(url).path:
                continue  # e.g. <link href="#">
            target = (path.parent / unquote(urlsplit(url).path)).resolve()
            assert target.is_file(), f"{path.name}: <{tag}> {url} does not exist"
        for href in page.links:
            if _is_external(href) or href.startswith("mailto:"):
                continue
            parts = urlsplit(href)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.exists(), f"{path.relative_to(html_dir)}: link {href} is broken"
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                assert parts.fragment in ids, (
                    f"{path.relative_to(html_dir)}: anchor #{parts.fragment} not found in "
                    f"{target.relative_to(html_dir)}"
                )
            checked += 1
    assert checked > 20


@pytest.mark.browser
def test_pages_typeset_offline_in_chromium(layout):
    """Every page but the search page, the index and the redirect, opened offline (outside
    name lookups blocked): no request leaves the book, MathJax typesets the math without
    an error, every image shows (the ``layout`` fixture's first pass)."""
    problems, math_pages = layout["typeset_problems"], layout["math_pages"]
    assert not problems, "\n".join(problems)
    assert math_pages >= 2, "expected typeset math on the chapter and the notation page"


RAW_ROLE = re.compile(r"\{(glue|cite)(:[a-z]+)?\}`")


def test_no_raw_glue_or_cite_role_in_the_html(html_dir):
    """A role that myst-nb or sphinxcontrib-bibtex did not replace shows as raw text."""
    offenders = []
    for path in _pages(html_dir):
        text = re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))
        for match in RAW_ROLE.finditer(text):
            line = text[max(0, match.start() - 40):match.end() + 30].replace("\n", " ")
            offenders.append(f"{path.relative_to(html_dir)}: ...{line}...")
    assert not offenders, "\n".join(offenders)


# Tables as a reader meets them: at desktop width a table fits its column; on a phone a
# table wider than the column scrolls inside its own box (book.css), which must itself fit,
# and no page scrolls sideways.
TABLE_WIDTHS_JS = """
Array.from(document.querySelectorAll('.bd-article table')).map(t => {
  let box = t.parentElement;
  while (box && !box.matches('.bd-article') && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
    box = box.parentElement;
  const scrolls = box && !box.matches('.bd-article');
  const column = document.querySelector('.bd-article').clientWidth;
  return {width: t.getBoundingClientRect().width, parent: t.parentElement.clientWidth,
          scrolls: scrolls, box: scrolls ? box.getBoundingClientRect().width : 0, column: column,
          head: Array.from(t.querySelectorAll('thead tr:first-child th')).map(h => h.innerText.trim())
                .filter(Boolean).slice(0, 6).join(' | ')};
})"""


DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1024, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def layout(html_dir, module_chromium):
    """Every page in the module's headless Chromium, offline (``module_chromium``: outside
    name lookups blocked), each page loaded and typeset once (issue 29: three loads in all, then two,
    each typesetting every formula again).

    At 1280 px, each page loaded in turn in one tab: first as the reader's browser typesets it
    (the pages but the search page and the index): the requests that leave the book, math
    not typeset or in error (MathJax waited for), images not shown; then, typeset, its
    layout: code blocks wider than their box, figures without caption, tables wider than
    their column. Then the same tab narrowed to 390 px (a phone): tables that widen the
    page. On a page with threshold explorers, their charts' sizes at 1280, 1024 (the tab
    narrowed) and 390 px. (Narrowed or loaded at that width, the 29 pages gave the same
    page and table widths at 390 px, and the 5 explorer pages the same chart sizes at
    1024 and 390 px.)"""
    wide_code, uncaptioned, figures = [], [], 0
    wide_tables: dict[int, list[str]] = {1280: [], 390: []}
    explorers: dict[int, dict[str, dict]] = {1280: {}, 1024: {}, 390: {}}
    tables = 0
    problems: list[str] = []
    math_pages = 0
    paths = [p for p in _pages(html_dir)
             if 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")]
    with_explorer = set(_explorer_pages(html_dir))
    # one tab for every page, as for the phone below (a fresh tab per page cost
    # twice the CPU: 64 against 32 s for the loads)
    page = module_chromium.new_page(viewport=DESKTOP)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    for path in paths:
        requests.clear()
        page.goto(path.as_uri(), wait_until="load")
        name = str(path.relative_to(html_dir))
        if path.name not in ("genindex.html", "search.html"):
            if page.locator("script[src*='mathjax']").count():
                page.wait_for_function(
                    "window.MathJax && MathJax.startup && MathJax.startup.promise")
                page.evaluate("MathJax.startup.promise")
            remote = [u for u in requests
                      if not u.startswith(("file:", "data:", "blob:"))]
            if remote:
                problems.append(f"{name}: requested {remote[:3]}")
            if page.locator(".math").count() > 0:
                math_pages += 1
                if page.locator("mjx-container").count() == 0:
                    problems.append(f"{name}: math present but not typeset")
            if page.locator("mjx-merror").count():
                problems.append(f"{name}: MathJax error: "
                                f"{page.locator('mjx-merror').first.inner_text()}")
            broken = page.evaluate(
                "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                ".map(i => i.getAttribute('src'))"
            )
            if broken:
                problems.append(f"{name}: images not shown: {broken}")
        for width in page.evaluate(
            # source code (cells and prose); printed outputs scroll in their box
            "Array.from(document.querySelectorAll('div.highlight pre'))"
            ".filter(p => !p.closest('.cell_output'))"
            ".filter(p => p.scrollWidth > p.clientWidth + 1)"
            ".map(p => [p.scrollWidth, p.clientWidth,"
            " (p.innerText.split('\\n').sort((a, b) => b.length - a.length)[0] || '')"
            ".slice(0, 70)])"
        ):
            wide_code.append(f"{name}: {width[0]} > {width[1]} px: {width[2]!r}")
        for t in page.evaluate(TABLE_WIDTHS_JS):
            tables += 1
            if t["width"] > t["parent"] + 1:
                wide_tables[1280].append(
                    f"{name}: {t['width']:.0f} > {t['parent']} px: {t['head']!r}")
        counts = page.evaluate(
            "[document.querySelectorAll('.bd-article figure').length,"
            " document.querySelectorAll('.bd-article figure:not(:has(figcaption))').length,"
            " document.querySelectorAll('.bd-article .cell_output img').length]"
        )
        figures += counts[0]
        if counts[1]:
            uncaptioned.append(f"{name}: {counts[1]} figure(s) without a caption")
        # Plots shown as bare cell outputs are figures too, and have no caption.
        bare = page.evaluate(
            "Array.from(document.querySelectorAll('.bd-article .cell_output img'))"
            ".filter(i => !i.closest('figure')).length"
        )
        if bare:
            uncaptioned.append(f"{name}: {bare} plot(s) outside a captioned figure")
        has_explorer = path in with_explorer
        if has_explorer:
            explorers[1280][name] = page.evaluate(EXPLORER_JS)
            page.set_viewport_size(LAPTOP)
            explorers[1024][name] = page.evaluate(EXPLORER_JS)
        # The same page, typeset, in a phone's width: the tab is narrowed as a
        # phone turned upright would be, not loaded and typeset again (issue 29).
        page.set_viewport_size(PHONE)
        if has_explorer:
            explorers[390][name] = page.evaluate(EXPLORER_JS)
        for t in page.evaluate(TABLE_WIDTHS_JS):
            if t["width"] > t["parent"] + 1 and not (t["scrolls"] and t["box"] <= t["column"] + 1):
                wide_tables[390].append(
                    f"{name}: {t['width']:.0f} > {t['parent']} px and not in a scroll box "
                    f"within the column: {t['head']!r}")
        sideways = page.evaluate(
            "[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert sideways[1] == PHONE["width"], sideways
        if sideways[0] > sideways[1]:
            wide_tables[390].append(f"{name}: the page is {sideways[0]} px wide in {sideways[1]}")
        page.set_viewport_size(DESKTOP)
    page.close()
    return {"wide_code": wide_code, "uncaptioned": uncaptioned, "figures": figures,
            "wide_tables": wide_tables, "tables": tables, "explorers": explorers,
            "typeset_problems": problems, "math_pages": math_pages}


@pytest.mark.browser
def test_no_code_block_wider_than_its_column(layout):
    assert not layout["wide_code"], "\n".join(layout["wide_code"])


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_no_table_wider_than_its_column(layout, width):
    """At 1280 px every table fits its column (chapter 8's gains tables were 1,010 and
    1,053 px wide in 688); at 390 px a wider table scrolls inside its own box and no page
    scrolls sideways."""
    assert layout["tables"] > 100
    assert not layout["wide_tables"][width], "\n".join(layout["wide_tables"][width])


@pytest.mark.browser
def test_every_figure_has_a_caption(layout):
    assert not layout["uncaptioned"], "\n".join(layout["uncaptioned"])


@pytest.mark.browser
def test_threshold_explorers_follow_the_keyboard(html_dir, chromium):
    """Every page with a threshold explorer (course_lib.interactive): move each slider with
    the keyboard; the counts and metrics shown must be course_lib's at the shown
    threshold, and the page must log no error. For the demo page's data (Table 1 and
    aSAH) the counts are recomputed from the data; for any other explorer the metrics
    are recomputed with course_lib from the counts shown."""
    import warnings

    import numpy as np
    import pandas as pd
    from test_interactive import read_explorer, shown_count, shown_metric

    import course_lib as cl

    asah = pd.read_csv(ROOT / "data" / "asah.csv")
    known = {
        "Table 1": ([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]),
        "aSAH: S100\u03b2 against a poor outcome": (
            (asah["outcome"] == "Poor").astype(int).to_numpy(), asah["s100b"].to_numpy()),
    }
    pages = _explorer_pages(html_dir)
    assert any(p.name == "explorer.html" for p in pages)
    checked = 0
    for path in pages:
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m, e=errors: e.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
        page.goto(path.as_uri(), wait_until="load")
        explorers = page.locator(".threshold-explorer")
        assert explorers.count() == page.locator(".threshold-explorer[data-mounted]").count()
        for k in range(explorers.count()):
            ex = explorers.nth(k)
            title = ex.locator(".te-title").inner_text() if ex.locator(".te-title").count() else ""
            ex.locator("input.te-slider").focus()
            seen = set()
            for key in ("Home", "ArrowRight", "ArrowRight", "End", "ArrowLeft"):
                page.keyboard.press(key)
                shown = read_explorer(ex)
                seen.add(shown["readout"])
                counts = {c: float(shown[c]) for c in ("tp", "fp", "fn", "tn")}
                if title in known:
                    y, s = known[title]
                    text = shown["readout"]
                    t = np.inf if text == "\u221e" else float(text)
                    m = cl.confusion_matrix(y, np.asarray(s) >= t, labels=[0, 1])
                    assert counts == {"tn": m[0, 0], "fp": m[0, 1], "fn": m[1, 0], "tp": m[1, 1]}
                m = cl.matrix_from_counts(**counts)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = {
                        "tpr": cl.recall(matrix=m),
                        "fpr": counts["fp"] / (counts["fp"] + counts["tn"]),
                        "accuracy": cl.accuracy(matrix=m),
                        "balanced_accuracy": cl.balanced_accuracy(matrix=m),
                        "f1": cl.f_beta(matrix=m),
                    }
                    if counts["tp"] + counts["fp"] > 0:
                        expected["precision"] = cl.precision(matrix=m)
                    if 0 < counts["tp"] + counts["fp"] < sum(counts.values()):
                        expected["mcc"] = cl.mcc(matrix=m)
                for name, value in expected.items():
                    assert shown[name] == shown_metric(float(f"{value:.10g}")), (path.name, name)
                for c in counts:
                    assert shown[c] == shown_count(counts[c])
                checked += 1
            assert len(seen) >= 3, f"{path.name}: the slider did not move"
        # The theme logs this on a fresh browser profile (no stored light/dark mode).
        errors = [e for e in errors if "invalid theme mode" not in e]
        assert not errors, f"{path.name}: {errors}"
        page.close()
    assert checked >= 10


#: What one explorer's charts measure on the page: each chart's name, the width of its
#: drawing (the SVG) and of its plotting square (the frame), and the explorer's width.
EXPLORER_CHARTS_JS = """
Array.from(document.querySelectorAll('.threshold-explorer[data-mounted]')).map(ex => ({
  width: ex.getBoundingClientRect().width,
  column: ex.parentElement.getBoundingClientRect().width,
  charts: Array.from(ex.querySelectorAll('figure.te-chart')).map(f => ({
    name: f.dataset.chart,
    svg: f.querySelector('svg').getBoundingClientRect().width,
    frame: f.querySelector('rect.te-frame').getBoundingClientRect().width,
    right: f.getBoundingClientRect().right - ex.getBoundingClientRect().right}))}))"""
#: The explorers' charts and whether the page scrolls sideways.
EXPLORER_JS = f"""({{explorers: {EXPLORER_CHARTS_JS.strip()},
  sideways: [document.scrollingElement.scrollWidth, window.innerWidth]}})"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 1024, 390])
def test_threshold_explorer_charts_are_readable_on_a_desktop_and_fit_a_phone(
        html_dir, layout, width):
    """On a desktop page (1280 and 1024 px) every ROC and PR chart of every threshold
    explorer is at least 240 px wide, its plotting square too (they were 146 and 115 px
    at 1280 px: four thumbnails in a row); on a phone (390 px) no chart is wider than its
    explorer, no explorer wider than its column, and no page scrolls sideways. Measured
    in the layout pass."""
    pages = _explorer_pages(html_dir)
    assert any(p.name == "explorer.html" for p in pages)
    found = layout["explorers"][width]
    assert sorted(found) == sorted(str(p.relative_to(html_dir)) for p in pages)
    small, wide, measured = [], [], 0
    for name, seen in found.items():
        explorers, sideways = seen["explorers"], seen["sideways"]
        assert sideways[1] == width, sideways
        if sideways[0] > sideways[1]:
            wide.append(f"{name}: the page is {sideways[0]} px wide in {sideways[1]}")
        assert explorers, f"{name}: no mounted explorer"
        for k, ex in enumerate(explorers):
            if ex["width"] > ex["column"] + 1:
                wide.append(f"{name} #{k}: explorer {ex['width']:.0f} > column {ex['column']:.0f} px")
            for c in ex["charts"]:
                if c["right"] > 1:
                    wide.append(f"{name} #{k}: {c['name']} sticks out by {c['right']:.0f} px")
                if width >= 1024 and c["name"] in ("roc", "pr"):
                    measured += 1
                    if min(c["svg"], c["frame"]) < 240:
                        small.append(f"{name} #{k}: {c['name']} {c['svg']:.0f} px, "
                                     f"its square {c['frame']:.0f} px")
    assert not small, "\n".join(small)
    assert not wide, "\n".join(wide)
    if width >= 1024:
        assert measured >= 8  # explorer.html's two explorers and chapters 1, 2, 7, 8


@pytest.fixture(scope="session")
def served_book(html_dir):
    """The built book on a local HTTP server (the search page fetches pages as a reader's
    browser does): its address, http://localhost:PORT/."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("localhost", 0), functools.partial(Quiet, directory=str(html_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


# Terms and the chapter that teaches each, after the syllabus (SYLLABUS.md in the
# project's shared folder): lift, KS and the gains table are chapter 8 ("Gain, lift, KS
# and the gains table"); the ROC convex hull is "taught in Part II", in chapter 2; Gini
# is chapter 5 (economics) before chapter 6 (machine learning); PR curves chapter 7;
# cost curves chapter 9; calibration, partial AUC and the H-measure are the chapters
# "beyond the sources", 15 and 17. Where the query matches a glossary term as Sphinx
# matches index entries (at least half of the term), the term stays right below.
SEARCH_TERMS = {
    "lift": ("notebooks/08_gain_lift_ks", "term-Lift"),
    "ROC convex hull": ("notebooks/02_roc_grid", "term-ROC-convex-hull"),
    "Gini": ("notebooks/05_gini_economics", None),
    "KS": ("notebooks/08_gain_lift_ks", None),
    "precision-recall": ("notebooks/07_pr_curves", "term-PR-curve-precision-recall-curve"),
    "cost curve": ("notebooks/09_cost_curves", "term-Cost-curve"),
    "calibration": ("notebooks/15_calibration", "term-Calibration"),
    "H-measure": ("notebooks/17_partial_auc_h_measure", "term-H-measure"),
    "partial AUC": ("notebooks/17_partial_auc_h_measure", "term-Partial-AUC-pAUC"),
    "gains table": ("notebooks/08_gain_lift_ks", "term-Gains-table"),
    # and a term's other name, as short as "KS": MCC is chapter 1's (Part I)
    "MCC": ("notebooks/01_threshold_metrics", "term-Matthews-correlation-coefficient-MCC"),
}


@pytest.mark.browser
def test_search_finds_the_teaching_chapter_first(served_book, chromium):
    """Type each term into the search page (Sphinx's searchtools.js on the book's
    searchindex.js, with the book's scorer); the first result must be the chapter that
    teaches it, and the glossary's entry for the term must come right after it."""
    problems = []
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for k, (query, (chapter, glossary_term)) in enumerate(SEARCH_TERMS.items()):
        if k == 0:  # typed into the search page's box, as a reader does
            page.goto(served_book + "search.html", wait_until="load")
            box = page.locator(".bd-search-container input[name='q']")
            box.fill("")
            box.type(query)
            with page.expect_navigation():
                box.press("Enter")
            form = urlsplit(page.url)
            fields = parse_qsl(form.query, keep_blank_values=True)
            assert ("q", query) in fields, page.url
        else:  # the page the box leads to, with the form's other fields: one load
            query_string = urlencode([(name, query if name == "q" else value)
                                      for name, value in fields])
            page.goto(form._replace(query=query_string).geturl(), wait_until="load")
        # searchtools writes the summary after the last result
        page.wait_for_function(
            "(document.querySelector('#search-results p.search-summary') || {})"
            ".innerText", timeout=30_000)
        hrefs = page.evaluate(
            "Array.from(document.querySelectorAll('#search-results ul.search > li > a'))"
            ".map(a => a.getAttribute('href'))")
        shown = [h.split("?")[0] for h in hrefs[:4]]
        if not hrefs or hrefs[0].split("#")[0].split("?")[0] != f"{chapter}.html":
            problems.append(f"{query!r}: first results {shown}, expected {chapter}")
        elif glossary_term and not (
                len(hrefs) > 1 and hrefs[1].split("?")[0] == f"book/glossary.html#{glossary_term}"):
            problems.append(f"{query!r}: the glossary's #{glossary_term} is not second: {shown}")
    errors = [e for e in errors if "invalid theme mode" not in e]
    assert not errors, errors
    assert not problems, "\n".join(problems)


def _search_index(html_dir: Path) -> dict:
    text = (html_dir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def test_every_glossary_term_is_indexed_in_the_chapter_that_teaches_it(html_dir):
    """book/_ext/search_ranking.py: the glossary keeps its index entry for every term, and
    the first chapter its "Taught in" names gets the same entry (for the search only),
    both under each of the term's names too; short words such as "KS" are indexed as the
    browser looks them up."""
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from search_ranking import term_names

    index = _search_index(html_dir)
    docnames = index["docnames"]
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    taught = dict(re.findall(r"^(\S.*)\n(?:  .*\n)*?  Taught in \{doc\}`[^<`]*<\.\./([^>]+)>`",
                             glossary, flags=re.M))
    assert len(taught) >= 60
    names = 0
    for term, chapter in taught.items():
        for name in [term, *term_names(term)]:
            docs = sorted(docnames[hit[0]] for hit in index["indexentries"][name.lower()])
            assert docs == sorted(["book/glossary", chapter]), (name, docs)
            names += 1
    assert names > len(taught) + 40  # "Recall, TPR, sensitivity": three more names
    assert docnames.index("notebooks/08_gain_lift_ks") in index["titleterms"]["ks"]


def test_an_incremental_build_keeps_every_search_entry(html_dir, tmp_path):
    """Sphinx 7.4 writes into searchindex.js the index entries of the pages it rebuilt
    only (sphinx-doc/sphinx issue 12599); search_ranking.py sets every page's. A second
    build over a copy of the first that writes one page again (as `make book` does after
    an edit) keeps them all."""
    first = html_dir.parents[1]  # <out>/_build/html
    again = tmp_path / "again"
    shutil.copytree(first, again)
    # One page to write again, none to read again: Sphinx rewrites the search index.
    (again / "_build" / "html" / "notebooks" / "08_gain_lift_ks.html").unlink()
    proc = subprocess.run(
        [str(JUPYTER_BOOK), "build", str(ROOT), "--builder", "html", "--path-output", str(again),
         "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "0 changed" in proc.stdout  # incremental: nothing was read again
    before = _search_index(html_dir)["indexentries"]
    assert len(before) >= 60
    assert _search_index(again / "_build" / "html")["indexentries"] == before


def test_copies_number_the_exercises_as_the_book(html_dir, tmp_path):
    """The lab and student copies title each exercise "Exercise N.k (title)"
    (book/_ext/labcopy.py): the same numbers and titles as sphinx-exercise prints in the
    HTML book, for every exercise of every chapter."""
    from html import unescape

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import labcopy

    index = labcopy.BookIndex.read(ROOT)
    compared = 0
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        page = (html_dir / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
        book = [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", m))).strip()
                for m in re.findall(r'<p class="admonition-title">(<span class="caption-number">'
                                    r'Exercise.*?)</p>', page, flags=re.S)]
        copy = labcopy.page_copy(json.loads(path.read_text(encoding="utf-8")), path,
                                 index=index, image_dir=tmp_path)
        ours = [m.group(1) for c in copy["cells"] if c["cell_type"] == "markdown"
                for m in re.finditer(r"^```\{admonition\} (Exercise .*)$", c["source"], re.M)]
        assert [t.replace("\u2019", "'") for t in book] == ours, path.name
        compared += len(ours)
    assert compared >= 90


def test_every_exercise_box_names_its_answer(html_dir):
    """Each exercise box ends with the variable of its answer (book/_ext/exercise_answers.py),
    the name the student copies give it: "Your answer: `point_02`." or, for a function,
    "Your answer: a function `auc_pairs(y_true, y_score)`."."""
    from html import unescape

    from course_lib.exercises import REGISTRY
    from course_lib.exercises.student import answer_parts

    box = re.compile(r'<div class="exercise[ "].*?</section>', re.S)
    label = re.compile(r'<div class="exercise[^"]*" id="([^"]+)"')
    answer = re.compile(r'<p class="exercise-answer">(.*?)</p>\s*</section>$', re.S)
    seen = []
    for path in sorted((html_dir / "notebooks").glob("*.html")):
        for match in box.finditer(path.read_text(encoding="utf-8")):
            html = match.group(0)
            exercise = label.match(html)
            assert exercise, f"{path.name}: an exercise box without its label"
            said = answer.search(html)
            assert said, f"{path.name}: {exercise[1]} does not name its answer"
            text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", said[1]))).strip()
            words, code = answer_parts(exercise[1])
            assert text == f"Your answer: {words}{code}.", (path.name, exercise[1])
            seen.append(exercise[1])
    assert len(seen) >= 90 and len(set(seen)) == len(seen)
    assert set(seen) <= set(REGISTRY)


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "light"),
                                               (1280, "dark")])
def test_a_chapter_opening_and_its_checkpoint_as_a_reader_sees_them(html_dir, tmp_path,
                                                                   width, scheme, chromium):
    """Chapter 7 in Chromium: the goals box opens the chapter (its items and the chapters
    it needs, linked), the checkpoint box follows the summary and names its answer, both
    fit the column, and each is screenshotted (kept in the test's folder)."""
    path = html_dir / "notebooks" / "07_pr_curves.html"
    page = chromium.new_page(viewport={"width": width, "height": 900},
                            color_scheme=scheme)
    page.goto(path.as_uri(), wait_until="load")
    if scheme == "dark":  # the theme follows the reader's setting
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    goals = page.locator(".admonition.chapter-goals")
    assert goals.count() == 1
    assert 3 <= goals.locator("li").count() <= 5
    needs = goals.locator("a[href*='02_roc_grid'], a[href*='03_auc_pairs']")
    assert needs.count() == 2
    checkpoint = page.locator("#checkpoint-07-balance").locator(
        "xpath=ancestor-or-self::*[contains(@class, 'exercise')][1]")
    assert checkpoint.count() == 1
    assert "Your answer" in checkpoint.inner_text()
    column = page.evaluate(
        "document.querySelector('.bd-article').getBoundingClientRect().width")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width} px"
    for name, box in (("opening", goals), ("checkpoint", checkpoint)):
        shape = box.bounding_box()
        assert shape is not None and shape["width"] <= column + 1
        shot = tmp_path / f"07-{name}-{width}-{scheme}.png"
        box.screenshot(path=str(shot))
        assert shot.stat().st_size > 5000
    summary = page.locator("section#summary")
    assert summary.count() == 1
    assert summary.bounding_box()["y"] < checkpoint.bounding_box()["y"]
