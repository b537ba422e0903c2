"""The book as a reader meets it: it builds with warnings as errors, reads offline, and
every image, link and anchor resolves. The browser test opens every page in headless
Chromium with outside name lookups blocked and checks that MathJax typeset the math.

The book is built once per test session into a temporary folder (never into the
author's ``_build``), from the stored notebook outputs, exactly as ``make book`` does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

# Every test here needs the built book (minutes): `pytest -m "not slow"` leaves them out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
CDN_HOSTS = re.compile(r"unpkg\.com|jsdelivr\.net|cdnjs|googleapis\.com|mathjax\.org/|rawgit|githack")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def html_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book")
    proc = subprocess.run(
        [str(JUPYTER_BOOK), "build", str(ROOT), "--builder", "html", "--path-output", str(out),
         "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, f"book build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    html = out / "_build" / "html"
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
def test_pages_typeset_offline_in_chromium(html_dir):
    if CHROMIUM is None:
        if IN_CI:
            pytest.fail("CI=true but Chromium is not installed (.ci/run installs it)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    pages = [
        p for p in _pages(html_dir)
        if p.name not in ("genindex.html", "search.html")
        and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")  # index.html redirects
    ]
    problems = []
    math_pages = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
            ],
        )
        try:
            for path in pages:
                page = browser.new_page()
                requests: list[str] = []
                page.on("request", lambda r, seen=requests: seen.append(r.url))
                page.goto(path.as_uri(), wait_until="load")
                if page.locator("script[src*='mathjax']").count():
                    page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
                    page.evaluate("MathJax.startup.promise")
                name = str(path.relative_to(html_dir))
                remote = [u for u in requests if not u.startswith(("file:", "data:", "blob:"))]
                if remote:
                    problems.append(f"{name}: requested {remote[:3]}")
                has_math = page.locator(".math").count() > 0
                if has_math:
                    math_pages += 1
                    if page.locator("mjx-container").count() == 0:
                        problems.append(f"{name}: math present but not typeset")
                if page.locator("mjx-merror").count():
                    problems.append(f"{name}: MathJax error: {page.locator('mjx-merror').first.inner_text()}")
                broken = page.evaluate(
                    "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                    ".map(i => i.getAttribute('src'))"
                )
                if broken:
                    problems.append(f"{name}: images not shown: {broken}")
                page.close()
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
    assert math_pages >= 2, "expected typeset math on the chapter and the notation page"
