"""The validation report as a reader meets it: opened in headless Chromium with the
network cut off, at desktop (1280 px) and phone (390 px) width, in light and dark mode.
Every figure and table is drawn, nothing makes the page scroll sideways (a table wider
than its box shows a scroll shadow; at 390 px every table stacks its rows, each cell
labelled, so no column is out of sight, and the SHA-256 wraps), the page asks
for nothing outside itself, dark mode is dark and legible, and every metric link resolves
to an existing section of the book.

The links are checked against the built book in ``_build/html`` (``make book``) when it
is there, else against the ids Sphinx gives the chapters' headings
(``tests/test_report_page.py`` does that check on every run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from report_sample import sample_frame  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "_build" / "html"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
IN_CI = os.environ.get("CI", "").lower() == "true"
FIGURES = ["fig-roc", "fig-pr", "fig-gain", "fig-lift", "fig-ks-1", "fig-ks-2", "fig-distribution-1",
           "fig-distribution-2", "fig-reliability-1", "fig-reliability-2", "fig-periods-gini",
           "fig-periods-rate"]
TABLES = ["summary kv", "scores", "metrics", "comparison", "bands", "calibration-tests", "bands",
          "calibration-tests", "gains", "gains", "points", "points", "segments", "stability",
          "baseline-test", "psi-bins", "psi-bins", "periods", "inputs"]


def _chromium() -> str:
    if CHROMIUM is None:
        if IN_CI:
            pytest.fail("CI=true but Chromium is not installed (.ci/run installs it)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="module")
def report_page(tmp_path_factory) -> Path:
    """The command's page for two scores, segments, a baseline and periods (DuckDB
    engine): every section, calibration by band and the periods' figures included."""
    folder = tmp_path_factory.mktemp("report")
    frame = sample_frame(4000)
    frame["quarter"] = [f"2025-Q{1 + i % 4}" for i in range(len(frame))]
    frame.to_csv(folder / "data.csv", index=False)
    sample_frame(4000, seed=11).to_csv(folder / "baseline.csv", index=False)
    out = folder / "report.html"
    book = BOOK.as_uri() if (BOOK / "index.html").is_file() else "book"
    proc = subprocess.run(
        [sys.executable, "-m", "course_lib.report.cli", str(folder / "data.csv"), "--label", "y",
         "--score", "p", "--score", "p2", "--by", "segment", "--baseline", str(folder / "baseline.csv"),
         "--period", "quarter", "--costs", "1", "5", "--out", str(out), "--book-url", book],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


LAYOUT_JS = """() => {
  const vw = document.documentElement.clientWidth;
  const box = e => e.getBoundingClientRect();
  return {
    viewport: vw,
    scrollWidth: document.documentElement.scrollWidth,
    figures: Array.from(document.querySelectorAll('figure')).map(f => {
      const s = f.querySelector('svg');
      return {id: f.id, svgWidth: s ? box(s).width : 0, svgHeight: s ? box(s).height : 0,
              right: box(f).right, caption: !!f.querySelector('figcaption .fignum'),
              lines: s ? s.querySelectorAll('polyline, rect.bar').length : 0};
    }),
    tables: Array.from(document.querySelectorAll('table')).map(t => {
      const wrap = t.closest('.table-wrap');
      return {cls: t.className, rows: t.querySelectorAll('tbody tr').length,
              wrapRight: box(wrap).right, scrolls: getComputedStyle(wrap).overflowX,
              fits: wrap.scrollWidth <= wrap.clientWidth + 1,
              cue: getComputedStyle(wrap).backgroundImage.includes('gradient'),
              hidden: Array.from(t.querySelectorAll('tbody td, tbody th'))
                        .filter(c => box(c).right > box(wrap).right + 1).length};
    }),
    hashes: Array.from(document.querySelectorAll('code.hash')).map(e => box(e).right),
    wide: Array.from(document.querySelectorAll('body *')).filter(e => !e.closest('.table-wrap, svg'))
            .filter(e => box(e).right > vw + 1).map(e => e.tagName + '.' + e.className).slice(0, 5),
  };
}"""

COLOURS_JS = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const v = rgb(c).map(x => {
      x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const ratio = (a, b) => {
    const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  const bg = getComputedStyle(document.body).backgroundColor;
  const text = getComputedStyle(document.body).color;
  const tick = getComputedStyle(document.querySelector('svg.chart .axis text')).fill;
  const label = getComputedStyle(document.querySelector('svg.chart .axis-label')).fill;
  const curve = getComputedStyle(document.querySelector('svg.chart polyline.s1')).stroke;
  const link = getComputedStyle(document.querySelector('a.metric')).color;
  return {background: lum(bg), text: ratio(text, bg), tick: ratio(tick, bg), label: ratio(label, bg),
          curve: ratio(curve, bg), link: ratio(link, bg)};
}"""


@pytest.mark.parametrize("width, scheme", [(1280, "light"), (390, "light"), (1280, "dark"), (390, "dark")])
def test_report_in_chromium(report_page, tmp_path, width, scheme, chromium):
    requests: list[str] = []
    context = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme,
                                  java_script_enabled=True, offline=True)
    page = context.new_page()
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report_page.as_uri(), wait_until="load")
    layout = page.evaluate(LAYOUT_JS)
    colours = page.evaluate(COLOURS_JS)
    page.screenshot(path=str(tmp_path / f"report-{width}-{scheme}.png"), full_page=True)
    assert [r for r in requests if not r.startswith(("file:", "data:"))] == []
    assert [f["id"] for f in layout["figures"]] == FIGURES
    for f in layout["figures"]:
        assert f["svgWidth"] > 0.6 * min(width, 420) and f["svgHeight"] > 150, f
        assert f["right"] <= layout["viewport"] + 1, f
        assert f["caption"] and f["lines"] >= 2, f
    assert [t["cls"] for t in layout["tables"]] == TABLES
    for t in layout["tables"]:
        assert t["rows"] >= 1, t
        assert t["wrapRight"] <= layout["viewport"] + 1, t  # a wide table scrolls inside its box
        assert t["scrolls"] == "auto"
        assert t["fits"] or t["cue"], t  # a table wider than its box shows a scroll shadow
        if width == 390:  # on a phone every table stacks: no column out of sight
            assert t["fits"] and t["hidden"] == 0, t
    assert layout["hashes"] and max(layout["hashes"]) <= layout["viewport"] + 1  # the SHA-256 wraps
    assert layout["scrollWidth"] <= layout["viewport"], layout["wide"]
    assert layout["wide"] == []
    # dark mode is dark, light mode light, and text, ticks, curves and links stay legible
    assert (colours["background"] < 0.05) if scheme == "dark" else (colours["background"] > 0.9)
    assert colours["text"] >= 7 and colours["label"] >= 7 and colours["link"] >= 4.5, colours
    assert colours["tick"] >= 4.5 and colours["curve"] >= 3, colours


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and "metric" in (a.get("class") or "").split() and a.get("href"):
            self.links.append(a["href"])


def _ids_of(path: Path) -> set[str]:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.ids


def test_every_metric_link_resolves_to_a_section_of_the_built_book(report_page):
    if not (BOOK / "index.html").is_file():
        pytest.skip("the book is not built (make book); tests/test_report_page.py checks the links "
                    "against the chapters' headings")
    parser = _Ids()
    parser.feed(report_page.read_text(encoding="utf-8"))
    assert len(parser.links) >= 30
    missing = []
    for href in sorted(set(parser.links)):
        url = urlsplit(href)
        target = Path(unquote(url.path))
        if not target.is_file() or url.fragment not in _ids_of(target):
            missing.append(href)
    assert missing == []


def test_pdf_printed_by_chromium(tmp_path):
    _chromium()
    sample_frame(1500).to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "course_lib.report.cli", str(tmp_path / "data.csv"), "--label", "y",
         "--score", "p", "--engine", "memory", "--out", str(out), "--pdf", "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.parent.iterdir()) == ["report.html", "report.json", "report.pdf"]
    pdf = (out.parent / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") >= 3  # data, figures, tables
