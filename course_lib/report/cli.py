"""``classifier-report``: a table of scores in, one validation report out.

    classifier-report DATA --label y --score p [--score p2 ...] [--weight w] [--by segment]
        [--baseline OTHER] [--bands COL] [--period COL] [--engine duckdb|spark|memory]
        [--pos-label V] [--max-fpr F] [--costs FP FN] [--out report.html] [--pdf] [--json]
        [--book-url URL] [--title T] [--model M] [--window W] [--paper a4|letter]
        [--weight-kind frequency|sampling] [--replicates B] [--seed S] [--h-prior r|hand]
        [--min-class N] [--max-levels N] [--sep C] [--decimal ,]

Writes ``--out`` (a self-contained HTML page), with ``--json`` every number beside it
(``report.json``) and with ``--pdf`` the page printed by headless Chromium
(``report.pdf``). Progress goes to stderr (a bar per stage, on a terminal only).

What may mislead (an AUC below 0.5, a score that determines the label, a constant score)
is printed on stderr as ``classifier-report: warning: ...`` and shown at the top of the
page; the exit code stays 0.

Bad input (a missing column, a label that is not binary, a label other than 0/1 or
true/false without ``--pos-label``, NaN, infinite or text scores, an empty file, one
class only, a ``--by`` column of more than ``--max-levels`` values, a baseline on another
scale, a column name the engine refuses, an unreadable file) ends with one
line on stderr and exit code 2, and leaves no file behind: every output is written to a
temporary file in the target folder and renamed only when all of them are complete.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ._html import DEFAULT_BOOK_URL, PAPERS, render

__all__ = ["main", "build_parser", "default_book_url", "to_json", "print_pdf", "CHROMIUM_FLAGS"]

PROG = "classifier-report"

#: Flags of a headless Chromium that prints a local file and talks to no one.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--no-pdf-header-footer",
)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class UsageError(Exception):
    """Input the command refuses: one line on stderr, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="A model-validation report of one or more score columns: exact AUC, Gini, KS, "
        "average precision, partial AUC, H-measure, gains table, calibration, with DeLong "
        "intervals, as one self-contained HTML page.",
    )
    p.add_argument(
        "data",
        metavar="DATA",
        help="a Parquet or CSV file (or a glob of them), or a table of a DuckDB database file",
    )
    p.add_argument("--label", required=True, help="the label column (two classes)")
    p.add_argument(
        "--score",
        required=True,
        action="append",
        dest="scores",
        metavar="SCORE",
        help="a score column (larger = more likely positive); repeat to compare scores",
    )
    p.add_argument("--weight", help="a column of non-negative row weights (see --weight-kind)")
    p.add_argument(
        "--weight-kind",
        choices=("frequency", "sampling"),
        help="what the weights are: frequency (integer counts: a row of weight k counts as k "
        "rows; DeLong intervals) or sampling (survey or inverse-probability weights: "
        "bootstrap percentile intervals over the rows). Default: integer weights are "
        "frequency weights, other weights are refused",
    )
    p.add_argument(
        "--replicates",
        type=int,
        default=1000,
        metavar="B",
        help="bootstrap replicates for sampling weights (default: 1000)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the bootstrap (default: 0; the same seed gives the same intervals "
        "on every engine)",
    )
    p.add_argument("--by", help="a segment column: the metrics within each segment")
    p.add_argument(
        "--baseline",
        metavar="OTHER",
        help="a baseline sample (same columns), e.g. the development sample: the population "
        "stability index of each score and the unpaired DeLong test of its AUC against the "
        "baseline's",
    )
    p.add_argument(
        "--bands",
        metavar="COL",
        help="a column of bands (grades, pools) for the calibration table of probability "
        "scores (default: one band per distinct score when there are at most 20, else the "
        "score deciles)",
    )
    p.add_argument(
        "--period",
        metavar="COL",
        help="a period column: rows, positive rate, Gini with its interval and PSI per period "
        "(against the first period, or --baseline)",
    )
    p.add_argument(
        "--engine",
        choices=("duckdb", "spark", "memory"),
        default="duckdb",
        help="where the rows are grouped (default: duckdb)",
    )
    p.add_argument(
        "--pos-label",
        metavar="V",
        help="the positive class of the label: required unless the label is 0/1 or true/false "
        "(then 1 / true is positive); read as a number or true/false when it looks like one",
    )
    p.add_argument(
        "--h-prior",
        choices=("r", "hand"),
        default="r",
        help="the H-measure's cost density: r, the R package hmeasure's Beta(2, 1 + pi0/pi1) "
        "(default), or hand, Hand's (2009) Beta(2, 2)",
    )
    p.add_argument(
        "--min-class",
        type=int,
        default=10,
        metavar="N",
        help="a segment with fewer than N positives or negatives gets no interval (default: 10)",
    )
    p.add_argument(
        "--max-levels",
        type=int,
        default=50,
        metavar="N",
        help="refuse a --by column of more than N distinct values (default: 50; bin it first)",
    )
    p.add_argument("--sep", metavar="C", help="the CSV input's field separator (e.g. ';')")
    p.add_argument(
        "--decimal",
        choices=(".", ","),
        help="the CSV input's decimal mark (',' for 0,5; then --sep must not be ',')",
    )
    p.add_argument(
        "--max-fpr",
        type=float,
        default=0.1,
        metavar="F",
        help="partial AUC over false positive rates up to F (default: 0.1)",
    )
    p.add_argument(
        "--costs",
        nargs=2,
        type=float,
        metavar=("FP", "FN"),
        help="the cost of a false positive and of a false negative: the cost-optimal threshold",
    )
    p.add_argument(
        "--out", default="report.html", type=Path, help="the HTML file to write (default: report.html)"
    )
    p.add_argument(
        "--pdf", action="store_true", help="also print the page to a PDF beside it (headless Chromium)"
    )
    p.add_argument("--json", action="store_true", help="also write every number to a JSON file beside it")
    p.add_argument(
        "--book-url",
        metavar="URL",
        help=f"the root of the book the metric names link to (default: the published book, "
        f"{DEFAULT_BOOK_URL}); a local build works too, e.g. file:///path/to/_build/html",
    )
    p.add_argument("--title", help="the page's title (default: Validation report)")
    p.add_argument("--model", help="the model validated (name and version), in the page's header")
    p.add_argument("--window", help="the window of the data, e.g. '2025-01 to 2025-12', in the header")
    p.add_argument(
        "--paper",
        choices=PAPERS,
        default="a4",
        help="the printed page's size (the PDF and the browser's print): a4 (default) or letter",
    )
    return p


def _literal(text: str | None) -> Any:
    """A command-line value as the label's likely type: int, float, bool or the text."""
    if text is None:
        return None
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def default_book_url(out_dir: Path | None = None) -> str:
    """The book the links go to when ``--book-url`` is not given: the published book,
    :data:`course_lib.report._html.DEFAULT_BOOK_URL` (an absolute URL, so a link works
    wherever the page is opened or sent; ``out_dir`` is not used and stays for callers
    of the old signature)."""
    return DEFAULT_BOOK_URL


def _plain(value: Any) -> Any:
    """A Report value as strict JSON: exact fractions as {"fraction", "value"}, numpy
    scalars as Python numbers, NaN and infinities as null."""
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):  # numpy arrays and scalars
        return _plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_json(report: Mapping[str, Any]) -> str:
    """The Report dict as strict JSON text (what ``--json`` writes)."""
    return json.dumps(_plain(report), indent=1, allow_nan=False, ensure_ascii=False) + "\n"


def _chromium() -> str | None:
    return (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or ("/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None)
    )


def print_pdf(html_path: Path, pdf_path: Path, *, chromium: str | None = None, timeout: float = 180) -> None:
    """Print a local HTML file to ``pdf_path`` with headless Chromium (an empty profile)."""
    browser = chromium or _chromium()
    if browser is None:
        raise UsageError("--pdf needs Chromium, which is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="classifier-report-chromium-") as profile:
        cmd = [
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--print-to-pdf={pdf_path}",
            html_path.resolve().as_uri(),
        ]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise UsageError(f"Chromium did not print the PDF within {timeout:g} s") from None
    if proc.returncode != 0 or not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise UsageError(f"Chromium could not print the PDF (exit code {proc.returncode}): {last}")


def _one_line(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"cannot read {error.filename}: {error.strerror}"
    text = " ".join(str(error).split())
    return text or type(error).__name__


class _Progress:
    """One tqdm bar over the stages of a run, on stderr, silent when stderr is not a
    terminal; ``stage(name)`` ends the stage running and starts the next."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total,
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            unit="stage",
            bar_format="{desc:<32.32} {bar} {n_fmt}/{total_fmt} [{elapsed}]",
            leave=False,
        )
        self.running = False

    def stage(self, name: str) -> None:
        if self.running:
            self.bar.update()
        self.running = True
        self.bar.set_description_str(name)

    def close(self) -> None:
        if self.running:
            self.bar.update()
        self.bar.close()


def _stages(args: argparse.Namespace) -> int:
    """How many stages a run has: reading, the summary, each score (and its segments and
    stability), each pair of scores, the page, the PDF."""
    n = len(args.scores)
    per_score = (2 + (1 if args.by else 0) + (2 if args.baseline else 0)
                 + (1 if args.period else 0))
    return (
        2
        + n * per_score
        + n * (n - 1) // 2
        + 1
        + (1 if args.pdf else 0)
        + (1 if args.weight_kind == "sampling" else 0)  # the bootstrap
    )


def _compute(args: argparse.Namespace, argv: Sequence[str], step: Callable[[str], None]) -> dict[str, Any]:
    """The Report dict of the command's arguments (:func:`course_lib.report.report`);
    ``step(stage)`` is called as each stage starts."""
    from . import report as make_report  # the Python API (course_lib.report)

    pos_label = _literal(args.pos_label)
    result = make_report(  # every engine reads DATA itself (course_lib.report._sources)
        args.data,
        label=args.label,
        scores=list(args.scores),
        weight=args.weight,
        weight_kind=args.weight_kind,
        replicates=args.replicates,
        seed=args.seed,
        by=args.by,
        bands=args.bands,
        period=args.period,
        baseline=args.baseline,
        engine=args.engine,
        pos_label=pos_label,
        h_prior=args.h_prior,
        min_class=args.min_class,
        max_levels=args.max_levels,
        sep=args.sep,
        decimal=args.decimal,
        max_fpr=args.max_fpr,
        costs=tuple(args.costs) if args.costs else None,
        command=shlex.join([PROG, *argv]),
        progress=step,
        title=args.title,
        model=args.model,
        window=args.window,
    )
    return dict(result.data)


def run(args: argparse.Namespace, argv: Sequence[str]) -> list[Path]:
    """Make the report; returns the files written (after every one is complete)."""
    out: Path = args.out
    if out.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--out must name an .html file, got {str(out)!r}")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"the folder of --out does not exist: {folder}")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write to the folder of --out: {folder}")
    if args.pdf and _chromium() is None:
        raise UsageError("--pdf needs Chromium, which is not installed (apt-get install chromium)")
    if not (0 < args.max_fpr <= 1):
        raise UsageError(f"--max-fpr must be in (0, 1], got {args.max_fpr:g}")
    if args.costs and (
        min(args.costs) < 0 or not all(map(math.isfinite, args.costs)) or max(args.costs) == 0
    ):
        raise UsageError(f"--costs must be two finite non-negative numbers, not both 0, got {args.costs}")
    if len(set(args.scores)) != len(args.scores):
        raise UsageError(f"a --score column is given twice: {args.scores}")

    progress = _Progress(_stages(args))

    temps: list[Path] = []
    finals: list[Path] = []

    def temp(suffix: str) -> Path:
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{out.stem}.", suffix=f".part{suffix}")
        os.close(fd)
        os.chmod(name, 0o666 & ~_umask())  # mkstemp makes 0600; the report is an ordinary file
        temps.append(Path(name))
        return Path(name)

    try:
        data = _compute(args, argv, progress.stage)
        for warning in data.get("warnings") or []:  # on the page too, at its top
            print(f"{PROG}: warning: {warning['message']}", file=sys.stderr)
        progress.stage("writing the page")
        book_url = args.book_url if args.book_url is not None else default_book_url()
        page = render(data, book_url=book_url, paper=args.paper)
        html_tmp = temp(".html")
        html_tmp.write_text(page, encoding="utf-8")
        finals.append(out)
        if args.json:
            json_tmp = temp(".json")
            json_tmp.write_text(to_json(data), encoding="utf-8")
            finals.append(out.with_suffix(".json"))
        if args.pdf:
            progress.stage("printing the PDF")
            pdf_tmp = temp(".pdf")
            pdf_tmp.unlink()  # Chromium writes it
            print_pdf(html_tmp, pdf_tmp)
            finals.append(out.with_suffix(".pdf"))
        for source, target in zip(temps, finals):
            os.replace(source, target)
        temps.clear()
        return finals
    finally:
        progress.close()
        for path in temps:
            path.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script; returns the exit code (0, or 2 for bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)  # a usage error exits with 2 and argparse's message
    try:
        written = run(args, argv)
    except ModuleNotFoundError as error:  # an engine's package (duckdb, pyspark) not installed
        print(f"{PROG}: error: --engine {args.engine} needs the package {error.name!r} "
              f"(pip install {error.name})", file=sys.stderr)
        return 2
    except (UsageError, ValueError, OSError) as error:
        print(f"{PROG}: error: {_one_line(error)}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
