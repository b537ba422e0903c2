"""The validation report's page and its command (issue 21): a well-formed, self-contained
page with every section and figure, metric names linked to sections that exist, and a
command that refuses bad input with one line, exit code 2 and no file left behind."""

from __future__ import annotations

import contextlib
import html
import io
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from course_lib.report import _html, cli
from course_lib.report._svg import Series, line_chart, nice_ticks

sys.path.insert(0, str(Path(__file__).parent))
from report_sample import sample_frame  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_VOID = {"line", "polyline", "polygon", "rect", "circle", "path"}  # written self-closed


class _Strict(HTMLParser):
    """Parses a page and records every element, failing on a tag closed out of order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if a.get("id"):
            self.ids.append(a["id"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if a.get("id"):
            self.ids.append(a["id"])

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def _parse(page: str) -> _Strict:
    parser = _Strict()
    parser.feed(page)
    parser.close()
    assert not parser.errors, parser.errors[:5]
    assert parser.stack == [], f"unclosed: {parser.stack}"
    assert len(parser.ids) == len(set(parser.ids)), "duplicate ids"
    return parser


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report-data")
    sample_frame(4000).to_csv(folder / "data.csv", index=False)
    sample_frame(4000, seed=11).to_csv(folder / "baseline.csv", index=False)
    return folder


def _report(files: Path, *args: str) -> dict:
    """The Report dict the command renders (the real course_lib.report, memory engine)."""
    argv = [str(files / "data.csv"), "--label", "y", "--engine", "memory", *args]
    return cli._compute(cli.build_parser().parse_args(argv), argv, lambda stage: None)


@pytest.fixture(scope="module")
def one(files) -> dict:
    return _report(files, "--score", "p")


@pytest.fixture(scope="module")
def full(files) -> dict:
    return _report(files, "--score", "p", "--score", "p2", "--by", "segment", "--baseline",
                   str(files / "baseline.csv"), "--costs", "1", "5")


SECTIONS_ONE = ["summary", "metrics", "figures", "calibration", "gains", "operating-points", "reproduce"]
SECTIONS_FULL = SECTIONS_ONE + ["comparison", "segments", "stability"]


def test_one_score_page_has_its_sections_and_figures(one):
    page = _html.render(one)
    parsed = _parse(page)
    for ident in SECTIONS_ONE:
        assert ident in parsed.ids, ident
    for ident in ("comparison", "segments", "stability"):
        assert ident not in parsed.ids
    figures = [a["id"] for tag, a in parsed.elements if tag == "figure"]
    assert figures == ["fig-roc", "fig-pr", "fig-gain", "fig-lift", "fig-ks-1", "fig-distribution-1",
                       "fig-reliability-1"]
    text = "".join(parsed.text)
    assert [int(n) for n in re.findall(r"Figure (\d+)\.", text)] == list(range(1, len(figures) + 1))
    assert sum(tag == "svg" for tag, _ in parsed.elements) == len(figures)
    assert sum(tag == "figcaption" for tag, _ in parsed.elements) == len(figures)


def test_two_scores_segments_baseline_page_has_everything(full):
    page = _html.render(full)
    parsed = _parse(page)
    for ident in SECTIONS_FULL:
        assert ident in parsed.ids, ident
    figures = [a["id"] for tag, a in parsed.elements if tag == "figure"]
    assert figures == ["fig-roc", "fig-pr", "fig-gain", "fig-lift", "fig-ks-1", "fig-ks-2",
                       "fig-distribution-1", "fig-distribution-2", "fig-reliability-1", "fig-reliability-2"]
    tables = [a.get("class") for tag, a in parsed.elements if tag == "table"]
    # data, per-score data, metrics, comparison, 2 calibration tables by band with their
    # tests, 2 gains, 2 operating points, segments, stability with the test against the
    # baseline and its 2 bin tables, inputs
    assert tables == ["summary kv", "scores", "metrics", "comparison", "bands", "calibration-tests",
                      "bands", "calibration-tests", "gains", "gains", "points", "points", "segments",
                      "stability", "baseline-test", "psi-bins", "psi-bins", "inputs"]
    # one row per segment and score
    assert page.count("<tr>") >= len(full["segments"]) + 20
    text = "".join(parsed.text)
    assert "p − p2" in text
    for seg in ("retail", "small business", "corporate"):
        assert seg in text


def test_every_svg_is_well_formed_xml_with_axes_and_no_fixed_colour(full):
    page = _html.render(full)
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(svgs) == 10
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.get("viewBox")
        assert svg.count('class="axis"') == 1 and svg.count('class="axis-label"') == 2
        # colours come from the stylesheet (light and dark), never from the markup
        assert not re.search(r'(fill|stroke)="#', svg)
    assert "@media (prefers-color-scheme: dark)" in page


def test_the_page_is_self_contained(full):
    for url in ("_build/html", "https://example.org/book"):
        page = _html.render(full, book_url=url)
        parsed = _parse(page)
        assert "<script" not in page.lower()
        for tag, a in parsed.elements:
            assert tag not in ("script", "iframe", "object", "embed", "link", "img"), tag
            for attr in ("src", "srcset", "data", "poster", "xlink:href"):
                assert attr not in a, (tag, attr)
            if tag == "a":  # links to the book are the only links, and go nowhere on load
                assert a["href"].startswith(("#", url)), a["href"]
        # no resource from the network in the style sheet either (fonts, images, imports)
        style = page[page.index("<style>"):page.index("</style>")]
        assert "url(" not in style and "@import" not in style and "http" not in style
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page.replace(url, "BOOK"))


def test_numbers_on_the_page_are_the_reports(full):
    page = _html.render(full)
    p = full["scores"]["p"]
    assert f'{p["auc"]["value"]:.4f}' in page
    assert f'title="exactly {p["auc"]["fraction"]}"' in page
    assert f'[{p["auc_ci"][0]:.4f},<wbr> {p["auc_ci"][1]:.4f}]' in page
    assert f'{p["ks"]["value"]:.4f}' in page and f'{p["h_measure"]:.4f}' in page
    c = full["comparison"][0]
    assert f'{c["auc_difference"]["value"]:.4f}' in page and f'{c["z"]:.3f}' in page
    assert c["p_value"] < 1e-4 and "&lt; 0.0001" in page
    assert "classifier-report" in full["command"] and full["inputs"][0]["sha256"] in page
    assert full["baseline_inputs"][0]["sha256"] in page and "4\u202f000" in page
    row = p["gains_table"][0]
    assert f'{row["cum_%1"]:.2f}' in page and f'{row["Lift"]:.3f}' in page
    cost = next(op for op in p["operating_points"] if op["name"] == "cost")
    assert cost["cost"] == 1728  # 848 false positives at 1 and 176 false negatives at 5
    assert "Cost-optimal" in page and "1\u202f728" in page


def test_scores_outside_0_1_leave_out_calibration(files):
    frame = sample_frame(4000)
    frame["logit"] = (frame["p"] * 20 - 5).round(2)
    frame.to_csv(files / "logit.csv", index=False)
    argv = [str(files / "logit.csv"), "--label", "y", "--score", "logit", "--engine", "memory"]
    report = cli._compute(cli.build_parser().parse_args(argv), argv, lambda stage: None)
    assert report["summary"]["probabilities"] == {"logit": False}
    parsed = _parse(_html.render(report))
    figures = [a["id"] for tag, a in parsed.elements if tag == "figure"]
    assert figures == ["fig-roc", "fig-pr", "fig-gain", "fig-lift", "fig-ks-1", "fig-distribution-1"]
    text = "".join(parsed.text)
    assert "Brier score" not in text and "Expected calibration error" not in text


def test_render_refuses_a_dict_without_scores():
    with pytest.raises(ValueError, match="at least one score"):
        _html.render({"scores": {}})


def test_metric_links_point_to_sections_of_the_notebooks():
    """Every link target is the id Sphinx gives a heading of the chapter (the browser test
    checks them against the built book too)."""
    from docutils.nodes import make_id

    ids: dict[str, set[str]] = {}
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        found = set()
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            for line in "".join(cell["source"]).splitlines():
                if m := re.match(r"#{1,6}\s+(.*)", line):
                    found.add(make_id(re.sub(r"[$`*]", "", m.group(1))))
                if m := re.match(r"\((.+)\)=\s*$", line):
                    found.add(m.group(1))
        ids[f"notebooks/{nb.stem}.html"] = found
    from course_lib.report import LINKS

    for metric, target in {**_html.BOOK_SECTIONS, **LINKS}.items():
        page, anchor = target.split("#")
        assert page in ids, (metric, page)
        assert anchor in ids[page], (metric, anchor)


def test_book_link_joins_the_base_url():
    assert 'href="../book/notebooks/08_gain_lift_ks.html#the-kolmogorov-smirnov-chart"' in _html.book_link(
        "ks", "KS", "../book/")
    assert _html.book_link("no-such-metric", "x<y") == "x&lt;y"


def test_ticks_and_an_empty_chart():
    assert nice_ticks(0, 6.3) == [0.0, 2.0, 4.0, 6.0]
    assert nice_ticks(0.5, 0.5) == [0.5]
    svg = line_chart([Series("nan", [math.nan], [math.nan])], xlabel="x", ylabel="y")
    ET.fromstring(svg)


# --- the command --------------------------------------------------------------------

def _command(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``classifier-report ARGS`` as a process of its own, run in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "course_lib.report.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command's ``main`` in this process, run in ``cwd``, its exit code and what it
    printed (argparse's usage errors included), as :func:`_command` returns them. A
    process of its own costs about 1.5 CPU-s of imports; the end-to-end test and the
    terminal test run the real command."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(list(args))
            except SystemExit as stop:  # argparse's usage error
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def test_the_console_script_is_installed():
    from importlib.metadata import entry_points

    (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "classifier-report"]
    assert ep.value == "course_lib.report.cli:main"


def test_usage_errors_exit_2(tmp_path):
    proc = _run("data.csv", "--score", "p", cwd=tmp_path)
    assert proc.returncode == 2 and "--label" in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("extra, message", [
    (["--out", "no/such/folder/r.html"], "folder of --out does not exist"),
    (["--out", "r.pdf"], "--out must name an .html file"),
    (["--max-fpr", "0"], "--max-fpr must be in (0, 1]"),
    (["--costs", "-1", "5"], "--costs must be two finite non-negative numbers"),
    (["--score", "p"], "a --score column is given twice"),
])
def test_bad_options_exit_2_before_reading(tmp_path, capsys, extra, message):
    code = cli.main(["missing.csv", "--label", "y", "--score", "p", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err
    assert list(tmp_path.iterdir()) == []


def _fake_compute(report):
    def compute(args, argv, step):
        step("computing")
        return report
    return compute


def test_html_and_json_written_whole(tmp_path, monkeypatch, capsys, full):
    monkeypatch.setattr(cli, "_compute", _fake_compute(full))
    out = tmp_path / "r.html"
    assert cli.main(["d.csv", "--label", "y", "--score", "p", "--out", str(out), "--json",
                     "--book-url", "https://example.org/book"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]
    page = out.read_text(encoding="utf-8")
    _parse(page)
    assert "https://example.org/book/notebooks/03_auc_pairs.html#" in page
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["scores"]["p"]["auc"] == full["scores"]["p"]["auc"]
    assert data["comparison"][0]["z"] == full["comparison"][0]["z"]
    assert capsys.readouterr().out.splitlines() == [str(out), str(tmp_path / "r.json")]


def test_a_failure_at_the_last_step_leaves_no_file(tmp_path, monkeypatch, capsys, one):
    monkeypatch.setattr(cli, "_compute", _fake_compute(one))

    def fail(html_path, pdf_path, **kwargs):
        assert html_path.is_file()  # the page is complete, under a temporary name
        raise cli.UsageError("Chromium could not print the PDF (exit code 1): test")

    monkeypatch.setattr(cli, "print_pdf", fail)
    code = cli.main(["d.csv", "--label", "y", "--score", "p", "--out", str(tmp_path / "r.html"), "--json",
                     "--pdf"])
    assert code == 2 and "could not print" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_pdf_without_chromium_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "_chromium", lambda: None)
    code = cli.main(["d.csv", "--label", "y", "--score", "p", "--out", str(tmp_path / "r.html"), "--pdf"])
    err = capsys.readouterr().err
    assert code == 2 and "--pdf needs Chromium" in err and "apt-get install chromium" in err
    assert list(tmp_path.iterdir()) == []


def test_json_is_strict():
    from fractions import Fraction

    import numpy as np

    text = cli.to_json({"a": Fraction(1, 3), "b": np.float64("nan"), "c": np.arange(2), "d": math.inf})
    assert json.loads(text) == {"a": {"fraction": "1/3", "value": 1 / 3}, "b": None, "c": [0, 1], "d": None}


# --- bad input, end to end through the engine ----------------------------------------

def _csv(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / "in" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


BAD_INPUTS = {
    "missing column": ("y,p\n0,0.1\n1,0.9\n", ["--score", "q"], "q"),
    "label not binary": ("y,p\n0,0.1\n1,0.9\n2,0.5\n", ["--score", "p"], "binary"),
    "NaN score": ("y,p\n0,0.1\n1,nan\n1,0.9\n0,0.2\n", ["--score", "p"], "nan"),
    "infinite score": ("y,p\n0,0.1\n1,inf\n1,0.9\n0,0.2\n", ["--score", "p"], "inf"),
    "empty file": ("y,p\n", ["--score", "p"], ""),
    "one class": ("y,p\n1,0.1\n1,0.9\n", ["--score", "p"], "class"),
    "injection": ('y,p\n0,0.1\n1,0.9\n', ["--score", 'p" FROM x; DROP TABLE t; --'], ""),
}


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_and_no_file(tmp_path, case, engine):
    text, args, word = BAD_INPUTS[case]
    data = _csv(tmp_path, "d.csv", text)
    out = tmp_path / "out"
    out.mkdir()
    proc = _run(str(data), "--label", "y", *args, "--engine", engine, "--out", str(out / "r.html"), "--json",
                cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("classifier-report: error: "), proc.stderr
    assert word.lower() in proc.stderr.lower()
    assert "Traceback" not in proc.stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_unreadable_and_missing_files_exit_2(tmp_path, engine):
    garbage = tmp_path / "d.parquet"
    garbage.write_bytes(b"not a parquet file at all\x00\x01")
    for data in (garbage, tmp_path / "missing.csv"):
        proc = _run(str(data), "--label", "y", "--score", "p", "--engine", engine, "--out",
                    str(tmp_path / "r.html"), cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
        assert not (tmp_path / "r.html").exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["d.parquet"]


def test_the_command_end_to_end(tmp_path):
    df = sample_frame(3000)
    data = tmp_path / "d.csv"
    df.to_csv(data, index=False)
    proc = _command(str(data), "--label", "y", "--score", "p", "--score", "p2", "--by", "segment",
                    "--engine", "memory", "--out", str(tmp_path / "r.html"), "--json", "--costs", "1",
                    "5", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    parsed = _parse(page)
    for ident in ("summary", "metrics", "comparison", "figures", "gains", "operating-points", "segments",
                  "reproduce"):
        assert ident in parsed.ids, ident
    data_json = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data_json["inputs"][0]["sha256"] in page
    import course_lib as cl

    auc = cl.roc_auc(df["y"], df["p"], exact=True)
    assert data_json["scores"]["p"]["auc"]["fraction"] == f"{auc.numerator}/{auc.denominator}"
    assert f"{float(auc):.4f}" in page


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_a_missing_score_is_dropped_and_counted_on_the_page(tmp_path, engine):
    data = _csv(tmp_path, "d.csv", "y,p\n0,0.1\n1,\n1,0.9\n0,0.2\n,0.5\n")
    out = tmp_path / "r.html"
    proc = _run(str(data), "--label", "y", "--score", "p", "--engine", engine, "--out", str(out),
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = "".join(_parse((tmp_path / "r.html").read_text(encoding="utf-8")).text)
    assert "Rows read5" in text.replace("\n", "")
    assert "Rows dropped: missing label1" in text and "Rows dropped: missing score p1" in text


def test_progress_on_a_terminal_only(files, tmp_path):
    """A bar per stage on stderr when it is a terminal (a pty here); nothing when it is not."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import termios

    args = [sys.executable, "-m", "course_lib.report.cli", str(files / "data.csv"), "--label", "y", "--score",
            "p", "--score", "p2", "--by", "segment", "--engine", "memory", "--out", str(tmp_path / "r.html")]
    quiet = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.3)
        if ready:
            out += os.read(master, 65536)
        elif proc.poll() is not None:
            break
    os.close(master)
    os.close(slave)
    assert proc.returncode == 0
    text = out.decode()
    # reading, summary, 2 scores, their 2 calibration tables by band, 1 comparison, 2 segment
    # tables, the page: 10 stages
    for stage in ("reading the data", "summary", "score p2", "calibration by band of p2",
                  "comparison p - p2", "segments of p2", "writing the page"):
        assert stage in text, stage
    assert "/10 [" in text and "9/10" in text


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_names_that_need_quoting_and_a_text_label(tmp_path, engine):
    """A column name with quotes, a semicolon and SQL in it is just a name; a text label
    with --pos-label picks the positive class."""
    frame = sample_frame(600)
    name = 'p "q"; DROP TABLE t; --'
    frame = frame.rename(columns={"p": name})
    frame["outcome"] = np.where(frame["y"] == 1, "bad", "good")
    data = tmp_path / "d.csv"
    frame.drop(columns="y").to_csv(data, index=False)
    out = tmp_path / "r.html"
    proc = _run(str(data), "--label", "outcome", "--pos-label", "bad", "--score", name, "--engine", engine,
                "--out", str(out), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    page = out.read_text(encoding="utf-8")
    parsed = _parse(page)
    assert html.escape(name) in page
    assert "is positive" in "".join(parsed.text) and "<code>bad</code>" in page
    import course_lib as cl

    auc = cl.roc_auc((frame["outcome"] == "bad").astype(int), frame[name], exact=True)
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["scores"][name]["auc"]["fraction"] == f"{auc.numerator}/{auc.denominator}"


def test_a_constant_score_and_fractional_weights(tmp_path):
    """Fractional weights without --weight-kind are refused (the report cannot tell what
    they mean); as sampling weights they get bootstrap intervals, no DeLong interval and no
    test that counts objects (the page says why); a constant score is warned of; no KS mark
    when there is no gap, and the page is whole."""
    frame = sample_frame(800)
    frame["c"] = 0.5
    frame["w"] = np.random.default_rng(3).random(len(frame)) + 0.1
    frame.to_csv(tmp_path / "d.csv", index=False)
    argv = [str(tmp_path / "d.csv"), "--label", "y", "--score", "c", "--score", "p", "--weight", "w",
            "--engine", "memory"]
    with pytest.raises(ValueError, match="--weight-kind sampling"):
        cli._compute(cli.build_parser().parse_args(argv), argv, lambda stage: None)
    argv += ["--weight-kind", "sampling", "--replicates", "100"]
    report = cli._compute(cli.build_parser().parse_args(argv), argv, lambda stage: None)
    page = _html.render(report)
    parsed = _parse(page)
    text = "".join(parsed.text)
    assert report["scores"]["c"]["auc"] == 0.5 and report["scores"]["c"]["auc_se"] is None
    assert report["scores"]["p"]["interval"] == "bootstrap"
    assert None not in report["scores"]["p"]["auc_ci"]
    assert "bootstrap percentile" in text and "DeLong's interval counts objects" in text
    assert "no tests and no intervals: the weights are sampling weights" in text
    assert any(w["code"] == "constant_score" for w in report["warnings"])
    assert "Positives (weight sum)" in text
    ks_c = page[page.index('id="fig-ks-1"'):page.index('id="fig-ks-2"')]
    assert "mark-label" not in ks_c
    ks_p = page[page.index('id="fig-ks-2"'):]
    assert "mark-label" in ks_p
