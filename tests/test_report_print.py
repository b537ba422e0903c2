"""Pages that print and link (issue 27, item 7): the binomial interval of the reliability
bins against scipy, the reliability diagram's counts, intervals and fitted axes, the
header a validator signs (title, model, window, run date) in the JSON and on the page,
links to the published book whose anchors exist, and the printed PDF (A4 and letter,
the running header and "page N of M" on every page, no heading alone at a page's foot).

Chromium runs twice at most (one PDF per paper size); the 390 / 1280 px layout is
checked in tests/test_report_browser.py's one session.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import course_lib as cl
from course_lib.report import LINKS, _html, report
from course_lib.report._header import header, run_date

sys.path.insert(0, str(Path(__file__).parent))
from report_sample import sample_frame  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "_build" / "html"
EPOCH = "1767225600"  # 2026-01-01 UTC


# --- the binomial interval, against scipy --------------------------------------------


def test_binomial_interval_against_scipy_on_300_random_bins():
    rng = np.random.default_rng(27)
    n = rng.integers(1, 400, size=300)
    k = rng.binomial(n, rng.random(300))
    k[:10], k[10:20] = 0, n[10:20]  # the ends, where the conventions matter
    level = 0.9
    jl, jh = cl.binomial_interval(k, n, level=level)
    wl, wh = cl.binomial_interval(k, n, level=level, method="wilson")
    for i in range(300):
        lo, hi = stats.beta(k[i] + 0.5, n[i] - k[i] + 0.5).interval(level)
        # Brown, Cai and DasGupta (2001): lower end 0 at k = 0, upper end 1 at k = n
        assert jl[i] == pytest.approx(0.0 if k[i] == 0 else lo, abs=1e-12)
        assert jh[i] == pytest.approx(1.0 if k[i] == n[i] else hi, abs=1e-12)
        ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(level, method="wilson")
        assert wl[i] == pytest.approx(ci.low, abs=1e-12) and wh[i] == pytest.approx(ci.high, abs=1e-12)
        assert jl[i] <= k[i] / n[i] <= jh[i]


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((3, 0), {}, "at least 1"),
        ((4, 3), {}, "must not exceed"),
        ((1.5, 3), {}, "whole numbers"),
        ((-1, 3), {}, "non-negative"),
        ((1, 3), {"level": 1.0}, "strictly between 0 and 1"),
        ((1, 3), {"method": "wald"}, "'jeffreys' or 'wilson'"),
        (([1, 2], [3, 4, 5]), {}, "same shape"),
    ],
)
def test_binomial_interval_refuses_what_is_not_a_count(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cl.binomial_interval(*args, **kwargs)


def test_binomial_interval_leaves_its_inputs_alone():
    k, n = np.array([1, 2]), np.array([4, 4])
    cl.binomial_interval(k, n)
    assert k.tolist() == [1, 2] and n.tolist() == [4, 4]


# --- the reliability diagram ---------------------------------------------------------


def _skewed(n: int = 3000, seed: int = 3) -> pd.DataFrame:
    """Probabilities between 0.02 and 0.8 (most below 0.3), labels drawn from them."""
    rng = np.random.default_rng(seed)
    p = np.clip(rng.beta(1.2, 5, n) * 0.9 + 0.02, 0.02, 0.8).round(3)
    return pd.DataFrame({"y": (rng.random(n) < p).astype(int), "p": p})


def test_reliability_bins_carry_counts_and_jeffreys_intervals():
    df = _skewed()
    r = report(df, label="y", scores="p").data["scores"]["p"]["curves"]["reliability"]
    bins = np.searchsorted(np.linspace(0, 1, 11)[1:-1], df["p"].to_numpy())  # right-closed
    rows = pd.Series(bins).value_counts().sort_index()
    positives = df.groupby(bins)["y"].sum()
    assert r["weight"] == rows.tolist() and r["positives"] == positives.tolist()
    assert r["interval"] == {"method": "jeffreys", "level": 0.95}
    for k, n, lo, hi in zip(r["positives"], r["weight"], r["ci_low"], r["ci_high"]):
        a, b = stats.beta(k + 0.5, n - k + 0.5).interval(0.95)
        assert lo == pytest.approx(0.0 if k == 0 else a, abs=1e-12)
        assert hi == pytest.approx(1.0 if k == n else b, abs=1e-12)


def test_reliability_without_counts_has_no_interval():
    df = _skewed(600)
    df["w"] = np.random.default_rng(0).uniform(0.5, 2.0, len(df))
    try:
        data = report(df, label="y", scores="p", weight="w", weight_kind="sampling").data  # type: ignore[call-arg]
    except TypeError:  # before weight_kind (issue 27, item 3)
        pytest.skip("report() has no weight_kind")
    r = data["scores"]["p"]["curves"]["reliability"]
    assert r["interval"] is None and set(r["ci_low"]) == {None}
    page = _html.render(data)
    assert "no interval: the weights are not counts" in page


def test_reliability_figure_shows_counts_whiskers_and_fitted_axes():
    data = report(_skewed(), label="y", scores="p").data
    r = data["scores"]["p"]["curves"]["reliability"]
    page = _html.render(data)
    svg = re.search(r'<figure class="chart-figure" id="fig-reliability-1">(.*?)</figure>', page, re.S)
    assert svg
    fig = svg.group(1)
    labels = re.findall(r'<text class="count-label"[^>]*>([^<]*)</text>', fig)
    assert labels == [_html._compact(w) for w in r["weight"]]
    assert fig.count('<g class="whiskers') == 1
    whiskers = re.search(r'<g class="whiskers[^"]*">(.*?)</g>', fig, re.S)
    assert whiskers and whiskers.group(1).count("<line") == 3 * len(r["weight"])  # stem and 2 caps
    # the x axis ends at the round step above the highest bin's mean score, not at 1
    ticks = [float(t.replace("\u2212", "-")) for t in re.findall(
        r'<text x="[\d.]+" y="[\d.]+" text-anchor="middle">([^<]+)</text>', fig)]
    assert max(ticks) == pytest.approx(0.8) and max(r["prob_pred"]) < 0.8
    assert "fitted to the bins (scores 0 to 0.8" in fig


# --- the header ----------------------------------------------------------------------


def test_header_in_the_json_and_on_the_page(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    data = report(sample_frame(800), label="y", scores="p", title="Retail PD <annual>",
                  model="PD v3.2", window="2025-01 to 2025-12").data
    assert list(data)[:2] == ["version", "header"]
    assert data["header"] == {"title": "Retail PD <annual>", "model": "PD v3.2",
                              "window": "2025-01 to 2025-12", "run_date": "2026-01-01"}
    page = _html.render(data)
    assert "<h1>Retail PD &lt;annual&gt;</h1>" in page
    for text in ("PD v3.2", "2025-01 to 2025-12", "2026-01-01"):
        assert f"<dd>{text}</dd>" in page
    # the running header of the printed pages, as CSS strings (no "</style>" can slip in)
    assert '@top-left { content: "Retail PD \\3c annual\\3e "' in page
    assert '@top-right { content: "PD v3.2 · 2026-01-01"' in page
    assert 'counter(page) " of " counter(pages)' in page and "size: A4;" in page
    assert "size: letter;" in _html.render(data, paper="letter")
    default = report(sample_frame(200), label="y", scores="p").data["header"]
    assert default == {"title": "Validation report", "model": None, "window": None,
                       "run_date": "2026-01-01"}
    assert "not stated" in _html.render({**data, "header": default})


def test_header_refuses_what_cannot_be_printed(monkeypatch):
    with pytest.raises(ValueError, match="at most 120"):
        header(title="x" * 121)
    with pytest.raises(ValueError, match="model must be text"):
        header(model=3.2)
    with pytest.raises(ValueError, match="ISO date"):
        run_date("01/02/2026")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(ValueError, match="SOURCE_DATE_EPOCH"):
        run_date()
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", run_date())
    assert header(title="  two\nlines ", date="2026-03-04")["title"] == "two lines"
    with pytest.raises(ValueError, match="paper"):
        _html.render(report(sample_frame(200), label="y", scores="p").data, paper="A3")


# --- links ---------------------------------------------------------------------------


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])


def test_links_go_to_the_published_book_by_default():
    from course_lib.report import cli

    assert _html.DEFAULT_BOOK_URL.startswith("https://") and _html.DEFAULT_BOOK_URL.endswith("/")
    assert cli.default_book_url() == _html.DEFAULT_BOOK_URL
    parser = _Ids()
    parser.feed(_html.render(report(sample_frame(800), label="y", scores="p").data))
    outside = [h for h in parser.hrefs if not h.startswith("#")]
    assert len(outside) >= 20
    assert all(h.startswith(_html.DEFAULT_BOOK_URL + "notebooks/") for h in outside), outside


def test_every_link_anchor_exists_in_the_built_book():
    """Each section the page links to is an id of the built book (``_build/html``, as
    ``make book`` leaves it; the published book is that build)."""
    if not (BOOK / "index.html").is_file():
        pytest.skip("the book is not built here (tests/test_report_page.py checks the "
                    "headings of the notebooks)")
    missing = []
    for metric, target in {**_html.BOOK_SECTIONS, **LINKS}.items():
        page, anchor = target.split("#")
        parser = _Ids()
        parser.feed((BOOK / page).read_text(encoding="utf-8"))
        if anchor not in parser.ids:
            missing.append((metric, target))
    assert missing == []


# --- the printed PDF -----------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_pdf = pytest.mark.skipif(
    CHROMIUM is None or shutil.which("pdfinfo") is None or shutil.which("pdftotext") is None,
    reason="needs Chromium and poppler-utils (pdfinfo, pdftotext)",
)


def _pages(pdf: Path) -> tuple[tuple[float, float], list[list[str]]]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    count = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    pages = []
    for i in range(1, count + 1):
        text = subprocess.run(["pdftotext", "-f", str(i), "-l", str(i), "-layout", str(pdf), "-"],
                              capture_output=True, text=True, check=True).stdout
        pages.append([" ".join(line.split()) for line in text.splitlines() if line.strip()])
    return (float(size.group(1)), float(size.group(2))), pages


@pytest.mark.slow
@needs_pdf
def test_printed_pdf_a4_and_letter(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    frame = sample_frame(3000)
    frame["quarter"] = [f"2025-Q{1 + i % 4}" for i in range(len(frame))]
    frame.to_csv(tmp_path / "data.csv", index=False)
    sample_frame(3000, seed=11).to_csv(tmp_path / "base.csv", index=False)
    out = tmp_path / "report.html"
    proc = subprocess.run(
        [sys.executable, "-m", "course_lib.report.cli", str(tmp_path / "data.csv"), "--label", "y",
         "--score", "p", "--score", "p2", "--by", "segment", "--baseline", str(tmp_path / "base.csv"),
         "--period", "quarter", "--engine", "memory", "--out", str(out), "--pdf", "--json",
         "--title", "Retail PD validation",
         "--model", "PD retail v3.2", "--window", "2025-01 to 2025-12"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.with_suffix(".json").read_text())["header"]["run_date"] == "2026-01-01"
    size, pages = _pages(out.with_suffix(".pdf"))
    assert size == pytest.approx((595, 842), abs=1)  # A4
    assert len(pages) >= 4
    headings = re.findall(r"<h2>(.*?)</h2>", out.read_text(encoding="utf-8"))
    headings = {re.sub(r"<[^>]+>", "", h) for h in headings}
    assert {"Data", "Metrics", "Figures", "Calibration by band", "Segments", "Stability",
            "Over time", "Reproduce"} <= headings
    headings.add("AUC against the baseline")  # a sub-heading, kept with its table too
    printed = [line for lines in pages for line in lines]
    for text in ("Hosmer–Lemeshow", "Calibration slope", "AUC against the baseline", "2025-Q4",
                 "Figure 12. Positive rate in each period"):
        assert any(text in line for line in printed), text
    for i, lines in enumerate(pages, start=1):
        assert lines[0].startswith("Retail PD validation") and lines[0].endswith(
            "PD retail v3.2 · 2026-01-01"), (i, lines[0])
        assert lines[-1].endswith(f"page {i} of {len(pages)}"), (i, lines[-1])
        body = lines[1:-1]
        # no page ends with a section's heading (or its heading and intro only)
        assert body and body[-1] not in headings, (i, body[-3:])
        assert not any(line in headings for line in body[-2:]), (i, body[-3:])
    assert any(line.startswith("2025-01 to 2025-12") for line in pages[0])  # the window, bottom left
    # US Letter: the same page with --paper letter's stylesheet
    from course_lib.report.cli import print_pdf

    letter = tmp_path / "letter.html"
    letter.write_text(_html.render(json.loads(out.with_suffix(".json").read_text()), paper="letter"),
                      encoding="utf-8")
    print_pdf(letter, tmp_path / "letter.pdf")
    size, pages = _pages(tmp_path / "letter.pdf")
    assert size == pytest.approx((612, 792), abs=1)
    assert all(p[-1].endswith(f"page {i} of {len(pages)}") for i, p in enumerate(pages, start=1))
