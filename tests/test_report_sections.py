"""The report's page for calibration by band, the test against the baseline and the
periods (issue 27, items 4-5), and what sampling weights leave out: the page shows the
JSON's numbers (each table's rows, the flagged p-values, the figures' whiskers), states
each definition, and says why a test or an interval is missing. The numbers themselves
are checked against scipy, statsmodels and DeLong's placements in
tests/test_report_bands.py and tests/test_report_baseline.py; memory = Spark in
tests/test_report_engines.py."""

from __future__ import annotations

import math
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from course_lib.report import LINKS, _html, report

sys.path.insert(0, str(Path(__file__).parent))
from report_sample import sample_frame  # noqa: E402

PERIODS = ["2024-Q1", "2024-Q2", "2024-Q3", "2024-Q4"]


def frames(n: int = 1200) -> tuple[pd.DataFrame, pd.DataFrame]:
    frame = sample_frame(n)
    rng = np.random.default_rng(3)
    frame["when"] = rng.choice(PERIODS, n)
    # few positives in the last period: its Gini without an interval
    last = (frame["when"] == "2024-Q4").to_numpy()
    frame.loc[frame.index[last & (frame["y"] == 1).to_numpy()][4:], "y"] = 0  # 4 are left
    frame["points"] = np.round(frame["p"] * 600 + 300)
    frame["w"] = rng.integers(1, 4, n)
    return frame, sample_frame(800, seed=11)


class _Tables(HTMLParser):
    """The page's tables (class, header, rows of cell texts), elements by id and the
    whiskers' lines of each figure."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self.cell: list[str] | None = None
        self.row: list[str] | None = None
        self.ids: list[str] = []
        self.figure: str | None = None
        self.whiskers: dict[str, int] = {}
        self.in_whiskers = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        if tag == "figure":
            self.figure = a.get("id")
        if tag == "g" and "whiskers" in (a.get("class") or ""):
            self.in_whiskers += 1
        elif tag == "g" and self.in_whiskers:
            self.in_whiskers += 1
        if tag == "line" and self.in_whiskers and self.figure:
            self.whiskers[self.figure] = self.whiskers.get(self.figure, 0) + 1
        if tag == "table":
            self.tables.append({"cls": a.get("class") or "", "head": [], "rows": []})
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "g" and self.in_whiskers:
            self.in_whiskers -= 1
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            t = self.tables[-1]
            if not t["head"]:
                t["head"] = self.row
            else:
                t["rows"].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def parse(page: str) -> _Tables:
    p = _Tables()
    p.feed(page)
    return p


def value(x):
    return x["value"] if isinstance(x, dict) else x


def section(page: str, ident: str) -> str:
    start = page.index(f'<section id="{ident}">')
    return page[start:page.index("</section>", start)]


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


@pytest.fixture(scope="module")
def made():
    frame, base = frames()
    data = report(frame, label="y", scores=["p", "points"], period="when", baseline=base
                  .assign(points=np.round(base["p"] * 600 + 300))).data
    return frame, base, data, _html.render(data)


def test_calibration_by_band_on_the_page(made):
    frame, _, data, page = made
    parsed = parse(page)
    block = data["scores"]["p"]["calibration_bands"]
    (bands,) = [t for t in parsed.tables if t["cls"] == "bands"]
    assert len(bands["rows"]) == len(block["bands"]) == 10
    assert bands["head"][2:8] == ["Obligors", "Positives", "Mean score (PD)", "Observed rate",
                                  "Binomial p", "Jeffreys p"]
    for row, b in zip(bands["rows"], block["bands"]):
        assert row[0] == str(b["band"]) and row[2] == str(b["obligors"])
        assert row[4] == f"{value(b['mean_score']):.4f}"
        assert row[5] == f"{value(b['observed_rate']):.4f}"
        # a p-value below 0.05 is flagged (bold, *), the others are not
        for cell, key in ((row[6], "binomial_p"), (row[7], "jeffreys_p")):
            assert cell.endswith("*") == (b[key] < 0.05), (cell, b[key])
    cal = section(page, "calibration")
    flags = len(re.findall(r'class="flag"', cal))
    hl, citl = block["hosmer_lemeshow"], block["in_the_large"]
    expected_flags = sum((b["binomial_p"] < 0.05) + (b["jeffreys_p"] < 0.05)
                         for b in block["bands"]) + (hl["p_value"] < 0.05) + (
        citl["p_value"] < 0.05)
    assert flags == expected_flags
    (tests,) = [t for t in parsed.tables if t["cls"] == "calibration-tests"]
    rows = {r[0]: r for r in tests["rows"]}
    assert rows["Hosmer–Lemeshow"][3] == (f"χ² = {hl['statistic']:.3f}, df {hl['df']}")
    assert hl["p_value"] == pytest.approx(stats.chi2.sf(hl["statistic"], hl["df"]), rel=1e-9)
    assert rows["Calibration-in-the-large"][3] == f"z = {citl['z']:.3f}".replace("-", "−")
    rec = block["recalibration"]
    assert rows["Calibration slope"][1] == f"{rec['slope']:.4f}"
    assert rows["Calibration slope"][2] == (
        f"[{rec['slope_ci'][0]:.4f}, {rec['slope_ci'][1]:.4f}]").replace("-", "−")
    # each definition stated once, in words, with the band rule and the clip
    words = text_of(cal)
    for phrase in ("one-sided", "the alternative that its true default rate is higher",
                   "bands − 2 degrees of freedom", "logit P(y = 1) = intercept + slope · logit(p)",
                   "1e-12", "ten bands cut at the deciles of the score"):
        assert phrase in words, phrase
    # the link to the calibration chapter, written once in LINKS
    assert _html.BOOK_SECTIONS is LINKS
    assert f'{_html.DEFAULT_BOOK_URL}{LINKS["calibration_bands"]}' in cal
    assert LINKS["calibration_bands"].startswith("notebooks/15_calibration.html#")
    # the score in points: one sentence saying why there is no calibration table
    assert "<code>points</code>: no calibration by band: its scores are not all in [0, 1]" in cal
    assert '<a href="#calibration">' in page


def test_baseline_test_and_periods_on_the_page(made):
    frame, base, data, page = made
    parsed = parse(page)
    (bt,) = [t for t in parsed.tables if t["cls"] == "baseline-test"]
    assert [r[0] for r in bt["rows"]] == ["p", "points"]
    for row, t in zip(bt["rows"], data["baseline_test"]):
        assert row[4] == f"{t['difference']:.4f}".replace("-", "−")
        assert row[7].rstrip(" *") == (f"{t['p_value']:.4f}" if t["p_value"] >= 1e-4 else "< 0.0001")
    stab = text_of(section(page, "stability"))
    assert "unpaired DeLong test" in stab and "roc.test(paired = FALSE)" in stab
    (periods,) = [t for t in parsed.tables if t["cls"] == "periods"]
    assert len(periods["rows"]) == len(data["periods"]) == 2 * len(PERIODS)
    assert [r[1] for r in periods["rows"][:4]] == PERIODS
    for row, p in zip(periods["rows"], data["periods"]):
        part = frame[frame["when"] == p["period"]]
        assert row[2] == f"{len(part):,}".replace(",", " ")  # the parser reads \u202f as a space
        assert row[3] == str(int(part["y"].sum()))
        assert row[4] == f"{100 * part['y'].mean():.2f} %"
        assert row[5] == f"{value(p['gini']):.4f}".replace("-", "−")
        assert row[8] == f"{p['psi']:.4f}"
    last = [p for p in data["periods"] if p["period"] == "2024-Q4"]
    assert all(p["gini_ci"] == [None, None] and "fewer than 10" in p["omitted"] for p in last)
    assert any("p: period '2024-Q4' has" in n for n in data["notes"])
    assert not any("segment '2024" in n for n in data["notes"])
    words = text_of(section(page, "periods"))
    assert "against the baseline" in words and "No interval: the period has" in words
    # the figures: numbered, Gini with one whisker (3 lines) per period with an interval
    assert {"fig-periods-gini", "fig-periods-rate"} <= set(parsed.ids)
    with_ci = sum(p["gini_ci"][0] is not None for p in data["periods"])
    assert parsed.whiskers["fig-periods-gini"] == 3 * with_ci
    assert re.search(r'id="fig-periods-rate".*?Figure \d+\.', page, re.S)
    gini = page[page.index('id="fig-periods-gini"'):page.index('id="fig-periods-rate"')]
    assert all(f">{q}</text>" in gini for q in PERIODS)  # the periods on the x axis
    assert '<a href="#periods">Over time</a>' in page


def test_sampling_weights_leave_out_what_counts_objects():
    frame, base = frames(900)
    base["w"] = 1
    kw = dict(label="y", scores="p", period="when", baseline=base, weight="w")
    sampling = report(frame, weight_kind="sampling", replicates=30, **kw).data
    counted = report(frame, **kw).data  # integer weights: frequency weights
    block = sampling["scores"]["p"]["calibration_bands"]
    assert "sampling weights" in block["omitted"]
    assert all(b["binomial_p"] is None and b["jeffreys_p"] is None for b in block["bands"])
    assert block["hosmer_lemeshow"]["statistic"] is None
    assert block["hosmer_lemeshow"]["p_value"] is None
    assert block["in_the_large"]["z"] is None and block["in_the_large"]["p_value"] is None
    assert block["recalibration"]["slope_ci"] == [None, None]
    assert block["recalibration"]["intercept_ci"] == [None, None]
    # the weighted numbers stay, equal to the frequency reading's
    freq = counted["scores"]["p"]["calibration_bands"]
    assert freq["omitted"] is None and freq["hosmer_lemeshow"]["p_value"] is not None
    assert [b["obligors"] for b in block["bands"]] == [b["obligors"] for b in freq["bands"]]
    assert block["recalibration"]["slope"] == pytest.approx(freq["recalibration"]["slope"],
                                                            rel=1e-12)
    assert block["in_the_large"]["difference"] == pytest.approx(
        freq["in_the_large"]["difference"], rel=1e-12)
    (t,) = sampling["baseline_test"]
    assert (t["z"], t["p_value"], t["ci"], t["baseline_auc_ci"]) == (None, None, [None, None],
                                                                     [None, None])
    assert "sampling weights" in t["omitted"] and t["difference"] is not None
    assert counted["baseline_test"][0]["omitted"] is None
    assert all(p["gini_ci"] == [None, None] and p["interval"] is None
               and "sampling weights" in p["omitted"] for p in sampling["periods"])
    assert [p["psi"] for p in sampling["periods"]] == [p["psi"] for p in counted["periods"]]
    reliability = sampling["scores"]["p"]["curves"]["reliability"]
    assert reliability["interval"] is None and set(reliability["ci_low"]) == {None}
    assert not any("no DeLong interval: fewer than two" in n for n in sampling["notes"])
    # the page says why, and shows no interval or test as if it held
    page = _html.render(sampling)
    cal = text_of(section(page, "calibration"))
    assert "no tests and no intervals: the weights are sampling weights" in cal
    assert 'class="flag"' not in section(page, "calibration")
    assert "no test: the weights are sampling weights" in text_of(section(page, "stability"))
    assert "No interval: the weights are sampling weights" in text_of(section(page, "periods"))
    whiskers = parse(page).whiskers
    assert whiskers.get("fig-periods-gini", 0) == 0
    # the bootstrap's KS intervals are in the metrics table (DeLong gives none for KS)
    metrics = text_of(section(page, "metrics"))
    block = sampling["scores"]["p"]
    for label, key in (("KS two-sided 95 % interval", "ks_two_sided_ci"),
                       ("KS one-sided 95 % interval", "ks_ci")):
        low, high = block[key]
        assert f"{label} [{low:.4f}, {high:.4f}]" in metrics, label
    assert "KS one-sided 95 % interval" not in _html.render(counted)


def test_a_period_of_one_class():
    frame, _ = frames(600)
    frame.loc[frame["when"] == "2024-Q1", "y"] = 0  # a period of negatives only
    data = report(frame, label="y", scores="p", period="when").data
    q1 = next(p for p in data["periods"] if p["period"] == "2024-Q1")
    assert q1["gini"] is None and q1["omitted"] == "one class only"
    assert any("p: period '2024-Q1' has one class only" in n for n in data["notes"])
    # the first period is the PSI's reference: its PSI is 0
    assert q1["psi"] == 0.0
    page = _html.render(data)
    (periods,) = [t for t in parse(page).tables if t["cls"] == "periods"]
    assert periods["head"][4] == "Gini"  # one score: no score column
    assert periods["rows"][0][4] == "–" and periods["rows"][0][5] == "no interval"
    assert math.isfinite(float(periods["rows"][1][4]))


def test_report_md_names_every_key_the_report_writes():
    """course_lib/report/REPORT.md documents the JSON: every key of the top level, of
    the summary, the options, a score's block, a segment, a period and the baseline
    test, in a report that has them all (by, bands, period, baseline, sampling
    weights), is named there in backticks."""
    doc = (Path(__file__).resolve().parents[1] / "course_lib" / "report"
           / "REPORT.md").read_text(encoding="utf-8")
    frame, base = frames(600)
    base["w"] = 1
    frame["seg"] = np.where(frame["p"] > 0.5, "high", "low")
    data = report(frame, label="y", scores="p", period="when", baseline=base, weight="w",
                  by="seg", weight_kind="sampling", replicates=20).data
    keys = {*data, *data["summary"], *data["options"], *data["scores"]["p"],
            *data["segments"][0], *data["periods"][0], *data["baseline_test"][0],
            *data["scores"]["p"]["calibration_bands"], *data["header"]}
    missing = sorted(k for k in keys if f"`{k}`" not in doc and f'["{k}"]' not in doc)
    assert not missing, f"REPORT.md does not name {missing}"
