"""The validation report as one self-contained HTML page.

``render(report)`` turns the Report dict (``course_lib.report``'s ``Report.data``, the same
dict ``--json`` writes) into one HTML file: the stylesheet inline, every figure an inline
SVG drawn by ``_svg``, no script, no font file and no network request. Each metric's name
links to the section of the book that explains it (``BOOK_SECTIONS``, paths relative to
the book's root, which ``book_url`` gives).
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape, unescape
from importlib import resources
from typing import Any

from ._compute import LINKS
from ._svg import Bars, Mark, Series, Whiskers, line_chart, nice_ticks

__all__ = ["BOOK_SECTIONS", "DEFAULT_BOOK_URL", "PAPERS", "render", "book_link"]

#: The published book the metric names link to by default: an absolute URL, so the
#: links work wherever the page is opened, mailed or archived (``--book-url`` names
#: another root, e.g. ``file:///.../_build/html`` for a local ``make book``).
DEFAULT_BOOK_URL = "https://course-lib.github.io/judging-classifiers/"

#: Printed page sizes: CSS ``@page`` size (Chromium's PDF follows it).
PAPERS: dict[str, str] = {"a4": "A4", "letter": "letter"}

#: The section of the book that explains each metric (a page and a section id of the
#: built book): the report's one table of links, :data:`._compute.LINKS`.
BOOK_SECTIONS: dict[str, str] = LINKS


def book_link(metric: str, label: str, book_url: str = DEFAULT_BOOK_URL) -> str:
    """``label`` as a link to the book's section on ``metric`` (plain text if it has none).

    >>> book_link("auc", "AUC", "https://example.org/book/")
    '<a class="metric" href="https://example.org/book/notebooks/03_auc_pairs.html#one-number-three-ways">AUC</a>'
    """
    return _Book(book_url).link(metric, label)


class _Book:
    """The book the page links to: its root and each metric's section (the Report's own
    ``links`` first, then :data:`BOOK_SECTIONS`)."""

    def __init__(self, url: str, links: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.sections = {**BOOK_SECTIONS, **(links or {})}

    def link(self, metric: str, label: str) -> str:
        target = self.sections.get(metric)
        if target is None:
            return escape(label)
        base = self.url.rstrip("/")
        href = f"{base}/{target}" if base else target
        return f'<a class="metric" href="{escape(href)}">{escape(label)}</a>'


def _settings(report: Mapping[str, Any]) -> dict[str, Any]:
    """The options the report was made with (core's ``settings``, or ``options``)."""
    out: dict[str, Any] = {}
    for key in ("options", "settings"):
        value = report.get(key)
        if isinstance(value, Mapping):
            out.update(value)
    return out


# --- numbers -------------------------------------------------------------------------

#: A number that is absent.
_NA = '<span class="na">–</span>'


def _value(x: Any) -> float | None:
    """A number of the Report as a float (an exact fraction's ``value``); None if absent."""
    if isinstance(x, Mapping):
        x = x.get("value")
    if x is None or isinstance(x, bool):
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _fmt(x: Any, digits: int = 4) -> str:
    """A rate or a score to ``digits`` decimals, with the exact fraction as a tooltip."""
    v = _value(x)
    if v is None:
        return _NA
    if math.isnan(v):
        return '<span class="na" title="undefined">n/a</span>'
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    text = f"{v:.{digits}f}" if abs(v) < 1e6 else f"{v:.4g}"
    text = text.replace("-", "−")
    if isinstance(x, Mapping) and "fraction" in x:
        fraction = str(x["fraction"])
        hint = fraction if len(fraction) <= 60 else f"exact fraction of {len(fraction)} digits (in the JSON)"
        return f'<span class="exact" title="exactly {escape(hint)}">{text}</span>'
    return text


def _count(x: Any) -> str:
    """A count (thousands separated) or a weight sum (six significant digits)."""
    v = _value(x)
    if v is None:
        return _NA
    if float(v).is_integer() and abs(v) < 2**53:
        return f"{int(v):,}".replace(",", "\u202f")
    return f"{v:,.6g}".replace(",", "\u202f")


def _pct(x: Any, digits: int = 1) -> str:
    v = _value(x)
    if v is None or math.isnan(v):
        return _NA
    return f"{100 * v:.{digits}f}\u202f%"


def _score_value(x: Any) -> str:
    """A threshold as a score: up to 6 significant digits, integers kept whole."""
    v = _value(x)
    if v is None:
        return _NA
    if math.isinf(v):
        return "+∞" if v > 0 else "−∞"
    if float(v).is_integer():
        return f"{int(v)}".replace("-", "−")
    return f"{v:.6g}".replace("-", "−")


def _p_value(x: Any) -> str:
    v = _value(x)
    if v is None:
        return _NA
    if v < 1e-4:
        return "&lt; 0.0001"
    return f"{v:.4f}"


def _ci(pair: Any, digits: int = 4) -> str:
    if not isinstance(pair, Sequence) or len(pair) != 2:
        return ""
    if _value(pair[0]) is None and _value(pair[1]) is None:
        return '<span class="ci na" title="see the notes under Data">no interval</span>'
    return f'<span class="ci">[{_fmt(pair[0], digits)},<wbr> {_fmt(pair[1], digits)}]</span>'


# --- building blocks -----------------------------------------------------------------


def _plain_text(fragment: str) -> str:
    """The text of an HTML fragment (tags dropped, entities read), for an attribute."""
    return unescape(re.sub(r"<[^>]*>", "", fragment)).strip()


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], *, cls: str = "",
           caption: str = "", text: Iterable[int] = ()) -> str:
    """A table in a box that scrolls sideways on its own (never the page), with a
    shadow at an edge that hides columns; on a narrow screen each row stacks as a block
    (``report.css``), every cell labelled with its column's name (``data-label``).

    The first column labels the rows; the columns in ``text`` hold text (left-aligned),
    the others numbers (right-aligned, tabular figures).
    """
    text_cols = {0, *text}
    labels = [escape(_plain_text(h)) for h in head]
    out = [f'<div class="table-wrap"><table class="{escape(cls)}">']
    if caption:
        out.append(f"<caption>{caption}</caption>")
    left = ' class="text"'
    out.append(
        "<thead><tr>"
        + "".join(f'<th scope="col"{left if i in text_cols else ""}>{h}</th>' for i, h in enumerate(head))
        + "</tr></thead><tbody>"
    )
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            label = f' data-label="{labels[i]}"' if i < len(labels) and labels[i] else ""
            if i == 0:
                cells.append(f'<th scope="row" class="text"{label}>{cell}</th>')
            else:
                cells.append(f'<td class="text"{label}>{cell}</td>' if i in text_cols
                             else f"<td{label}>{cell}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


#: The end of every table's box (:func:`_table`).
_TABLE_END = "</tbody></table></div>"


def _section(ident: str, heading: str, body: str) -> str:
    """A section of the page, ``<section id="ident">``, headed ``heading`` (HTML).

    The heading, what stands between it and the first table, and that table are kept
    in one ``<div class="keep">`` that a printed page does not split (``report.css``),
    so no heading is left alone at the foot of a page; a section whose figures come
    first keeps its heading with them by ``break-after: avoid``.
    """
    end = body.find(_TABLE_END)
    grid = body.find('<div class="figure-grid">')
    if end >= 0 and (grid < 0 or end < grid):
        cut = end + len(_TABLE_END)
        return (f'<section id="{ident}"><div class="keep"><h2>{heading}</h2>{body[:cut]}</div>'
                f"{body[cut:]}</section>")
    return f'<section id="{ident}"><h2>{heading}</h2>{body}</section>'


class _Figures:
    """Numbers the figures of the page in order."""

    def __init__(self) -> None:
        self.count = 0
        self.ids: list[str] = []

    def chart(self, ident: str, title: str, caption: str, series: list[Series],
              **options: Any) -> str:
        """A numbered figure holding :func:`line_chart` of ``series`` (``options`` go to
        it; the chart's ident and title are the figure's)."""
        return self.figure(ident, line_chart(series, ident=ident, title=title, **options),
                           caption)

    def figure(self, ident: str, svg: str, caption: str) -> str:
        self.count += 1
        self.ids.append(ident)
        return (
            f'<figure class="chart-figure" id="fig-{escape(ident)}">{svg}'
            f'<figcaption><span class="fignum">Figure {self.count}.</span> {caption}</figcaption>'
            "</figure>"
        )


def _ref(label: str, x: list[float], y: list[float]) -> Series:
    """A dashed reference line (chance, a baseline, perfect calibration)."""
    return Series(label, x, y, kind="ref", dash=True, width=1.2)


def _dotted(name: str, x: list[float], y: list[float], kind: str) -> list[Series]:
    """A line through points, and the points as dots (no legend entry of their own)."""
    return [Series(name, x, y, kind=kind), Series("", x, y, kind=kind, marker=True)]


def _kind(i: int) -> str:
    """The colour of the ``i``-th score (six, then again)."""
    return f"s{i % 6 + 1}"


def _curve(block: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    curves = block.get("curves") or {}
    curve = curves.get(name) if isinstance(curves, Mapping) else None
    return curve if isinstance(curve, Mapping) else {}


def _floats(values: Any) -> list[float]:
    if values is None:
        return []
    return [v if v is not None else math.nan for v in (_value(x) for x in values)]


# --- sections ------------------------------------------------------------------------


def _summary(report: Mapping[str, Any], book: _Book) -> str:
    s = report.get("summary") or {}
    options = _settings(report)
    pos, neg = _value(s.get("positives")), _value(s.get("negatives"))
    total = (pos or 0) + (neg or 0)
    rate = pos / total if pos is not None and total > 0 else None
    weighted = bool(s.get("weighted"))
    unit = " (weight sum)" if weighted else ""
    rows = [
        ("Rows read", _count(s.get("rows"))),
        ("Rows used (label and every score present)", _count(s.get("used"))),
        ("Rows dropped: missing label", _count(s.get("dropped_label", 0))),
    ]
    for name, dropped in (s.get("dropped_score") or {}).items():
        rows.append((f"Rows dropped: missing score <code>{escape(str(name))}</code>", _count(dropped)))
    rows += [
        (f"Positives{unit}", _count(pos)),
        (f"Negatives{unit}", _count(neg)),
        (book.link("imbalance", "Positive rate"), _pct(rate, 2)),
    ]
    if weighted and s.get("positive_rows") is not None:
        rows += [("Positive rows", _count(s.get("positive_rows"))),
                 ("Negative rows", _count(s.get("negative_rows")))]
    if options.get("label") is not None:
        label = f"<code>{escape(str(options['label']))}</code>"
        positive = s.get("positive_label", options.get("pos_label"))
        if positive is not None:
            shown = "true" if positive is True else "false" if positive is False else str(positive)
            how = ("named by --pos-label" if options.get("pos_label") is not None
                   else "a 0/1 or true/false label")
            label += (f" = <code>{escape(shown)}</code> is positive: the positive class "
                      f"({how}), {_count(s.get('positive_rows'))} rows")
        rows.insert(0, ("Label", label))
    if options.get("weight"):
        rows.append((book.link("weights", "Weight column"), f"<code>{escape(str(options['weight']))}</code>"))
    weights = report.get("weights") or {}
    if weights.get("text"):
        rows.append(("Weights are", escape(str(weights["text"]))))
    boot = report.get("bootstrap") or {}
    if boot:
        rows.append((
            "Intervals",
            f"bootstrap percentile, {_count(boot.get('replicates'))} replicates, seed "
            f"{escape(str(boot.get('seed')))}, rows resampled within each class; "
            f"{_count(boot.get('rows'))} rows ({_count(boot.get('positive_rows'))} positive) "
            "behind each",
        ))
    table = _table(["Data", ""], rows, cls="summary kv")
    scores = list((report.get("scores") or {}).keys())
    distinct, tied, probs = s.get("distinct") or {}, s.get("tied_rows") or {}, s.get("probabilities") or {}
    used = _value(s.get("used")) or _value(s.get("rows")) or 0
    per_score = [(f"<code>{escape(name)}</code>", _count(distinct.get(name)), _count(t),
                  _pct(t / used if t is not None and used else None), "yes" if probs.get(name) else "no")
                 for name in scores for t in [_value(tied.get(name))]]
    score_table = _table(["Score", "Distinct scores", book.link("ties", "Tied rows"), "Share tied",
                          "Scores in [0, 1]"], per_score, cls="scores")
    notes = []
    for name, t in tied.items():
        tv = _value(t)
        if tv and used and tv / used > 0.01:
            notes.append(
                f"<li><code>{escape(str(name))}</code>: {_pct(tv / used)} of the rows share their score "
                f"with another row. The ROC curve takes a diagonal step at each tie, the AUC counts a "
                f"tied pair as half, and the {book.link('gains_ties', 'gains table')} keeps "
                f"tied rows in one bin, so its bins are not exactly ten per cent each.</li>"
            )
    if rate is not None and rate < 0.1:
        notes.append(
            f"<li>Positives are {_pct(rate, 2)} of the rows: read the "
            f"{book.link('pr_baseline', 'PR curve against its baseline')} as well as the ROC "
            f"curve.</li>"
        )
    notes += [f"<li>{escape(str(n))}</li>" for n in report.get("notes") or []]
    note = f'<ul class="notes">{"".join(notes)}</ul>' if notes else ""
    return _warnings(report) + _section(
        "summary", "Data", f'<div class="two-col">{table}{score_table}</div>{note}')


def _warnings(report: Mapping[str, Any]) -> str:
    """The report's warnings, in a box above everything else (also on stderr)."""
    items = [w.get("message") if isinstance(w, Mapping) else w
             for w in report.get("warnings") or []]
    if not items:
        return ""
    lis = "".join(f"<li>{escape(str(m))}</li>" for m in items)
    return (f'<aside class="warnings" role="alert" aria-label="Warnings"><p><strong>'
            f"Warning{'s' if len(items) > 1 else ''}: read before the numbers</strong></p>"
            f"<ul>{lis}</ul></aside>")


#: How the two-sided KS's direction reads on the page.
_KS_DIRECTION = {"F0 above F1": "positives score higher (F0 above F1)",
                 "F1 above F0": "positives score lower (F1 above F0): reversed"}


def _h_prior_text(block: Mapping[str, Any]) -> str:
    prior = block.get("h_measure_prior")
    if not isinstance(prior, Mapping):
        return ""
    return str(prior.get("text") or "")


_METRIC_ROWS: list[tuple[str, str, str]] = [
    # (key, book section, label)
    ("auc", "auc", "AUC"),
    ("auc_ci", "auc_ci", "AUC 95 % interval"),
    ("gini", "gini", "Gini = 2 AUC − 1"),
    ("gini_ci", "auc_ci", "Gini 95 % interval"),
    ("ks_two_sided", "ks", "KS two-sided, max |F1 − F0|"),
    ("ks_direction", "ks", "KS two-sided: direction, reached at score"),
    ("ks_two_sided_ci", "ks", "KS two-sided 95 % interval"),  # bootstrap only
    ("ks", "ks", "KS one-sided, max(TPR − FPR)"),
    ("ks_score", "ks", "KS one-sided reached at score"),
    ("ks_ci", "ks", "KS one-sided 95 % interval"),
    ("average_precision", "average_precision", "Average precision"),
    ("pr_baseline", "pr_baseline", "PR baseline (positive rate)"),
    ("partial_auc", "partial_auc", "Partial AUC"),
    ("mcclish", "partial_auc", "Partial AUC, McClish-standardized"),
    ("h_measure", "h_measure", "H-measure"),
    ("h_measure_prior", "h_measure", "H-measure's cost prior"),
    ("brier", "brier", "Brier score"),
    ("ece", "ece", "Expected calibration error"),
]


def _interval_text(report: Mapping[str, Any]) -> str:
    """Which intervals the page shows: DeLong's, or the bootstrap's (sampling weights)."""
    boot = report.get("bootstrap") or {}
    if not boot:
        return "The intervals are DeLong's, from the same counts."
    return (f"The weights are sampling weights, so the intervals (AUC, Gini, KS, the paired "
            f"differences, each segment's) are bootstrap percentile intervals: "
            f"{_count(boot.get('replicates'))} replicates with seed "
            f"{escape(str(boot.get('seed')))}, the rows resampled within each class and "
            "weighted; DeLong's interval counts objects and does not apply.")


def _metrics(report: Mapping[str, Any], book: _Book) -> str:
    scores: Mapping[str, Any] = report.get("scores") or {}
    names = list(scores)
    max_fpr = None
    rows = []
    for key, section, label in _METRIC_ROWS:
        cells = []
        present = False
        for name in names:
            block = scores[name]
            if key in ("auc_ci", "gini_ci", "ks_ci", "ks_two_sided_ci"):
                pair = block.get(key)
                cell = _ci(pair) if key in ("auc_ci", "gini_ci") or (
                    pair and any(v is not None for v in pair)) else ""
            elif key in ("partial_auc", "mcclish"):
                part = block.get("partial_auc") or {}
                max_fpr = part.get("max_fpr", max_fpr)
                cell = _fmt(part.get("value" if key == "partial_auc" else "mcclish")) if part else ""
            elif key == "ks_score":
                cell = _score_value(block.get(key)) if block.get(key) is not None else ""
            elif key in ("ks_two_sided", "ks_direction"):
                ks2 = block.get("ks_two_sided")
                if not isinstance(ks2, Mapping):
                    cell = ""
                elif key == "ks_two_sided":
                    cell = _fmt(ks2.get("value"))
                else:
                    d = str(ks2.get("direction") or "")
                    at = ks2.get("threshold")
                    cell = (f'<span class="text">{escape(_KS_DIRECTION.get(d, d))}, at '
                            f"{_score_value(at) if at is not None else '–'}</span>") if d else ""
            elif key == "h_measure_prior":
                cell = f'<span class="text">{escape(_h_prior_text(block))}</span>' \
                    if _h_prior_text(block) else ""
            elif key in ("brier", "ece") and block.get(key) is None:
                cell = ""
            else:
                cell = _fmt(block.get(key)) if key in block else ""
            present = present or bool(cell)
            cells.append(cell or '<span class="na" title="not computed: scores outside [0, 1]">–</span>')
        if present:
            text = label
            if key in ("partial_auc", "mcclish") and max_fpr is not None:
                text += f" (FPR ≤ {_value(max_fpr):g})"
            rows.append([book.link(section, text), *cells])
    head = ["Metric", *(f"<code>{escape(n)}</code>" for n in names)]
    table = _table(head, rows, cls="metrics")
    cards = []
    for name in names:
        block = scores[name]
        cards.append(
            f'<div class="card"><div class="card-name"><code>{escape(name)}</code></div>'
            f'<div class="card-main">{_fmt(block.get("auc"), 3)}</div>'
            f'<div class="card-sub">AUC {_ci(block.get("auc_ci"), 3)}</div>'
            f'<div class="card-row"><span>Gini {_fmt(block.get("gini"), 3)}</span>'
            f"<span>KS {_fmt((block.get('ks_two_sided') or {}).get('value', block.get('ks')), 3)}"
            "</span></div></div>"
        )
    counts = (report.get("summary") or {}).get("integral", True)
    exact = (
        "AUC, Gini, KS, partial AUC, the gains table and the operating points are exact: "
        "computed from the counts of every distinct score, no binning (hover over a value to "
        "see its exact fraction)." if counts else
        "AUC, Gini, KS, partial AUC, the gains table and the operating points are computed "
        "from the weight sums of every distinct score, no binning (in floating point: the "
        "weights are not counts, so there is no exact fraction).")
    intro = (
        f"<p>{exact} {_interval_text(report)} Each "
        "metric's name links to the section of the book that explains it. The KS is given "
        "two-sided, the largest gap between the class CDFs either way (as scipy's ks_2samp), "
        "with the side where it lies and the score where it is reached, and one-sided, "
        "max(TPR − FPR), the gap in the model's own direction (Youden's J).</p>"
    )
    return _section("metrics", "Metrics", f'<div class="cards">{"".join(cards)}</div>{intro}{table}')


def _comparison(report: Mapping[str, Any], book: _Book) -> str:
    comparison = report.get("comparison") or []
    if not comparison:
        return ""
    rows = []
    for c in comparison:
        rows.append([f"<code>{escape(str(c.get('a')))}</code> − <code>{escape(str(c.get('b')))}</code>",
                     _fmt(c.get("auc_difference")), _ci(c.get("ci")), _fmt(c.get("z"), 3),
                     _p_value(c.get("p_value"))])
    table = _table(["AUC difference", "Difference", "95 % interval", "z", "p-value"], rows, cls="comparison")
    return _section("comparison", "Comparison", (
        f"<p>The {book.link('comparison', 'paired DeLong test')} of the difference of the AUCs "
        f"on the same rows (the correlation of the two scores is taken into account).</p>{table}"))


def _overlay(scores: Mapping[str, Any], curve: str, x: str, y: str) -> list[Series]:
    """One line per score: its curve ``curve`` (``x`` and ``y`` name the curve's keys)
    in the score's colour."""
    return [Series(name, _floats(_curve(block, curve).get(x)), _floats(_curve(block, curve).get(y)),
                   kind=_kind(i)) for i, (name, block) in enumerate(scores.items())]


def _figures(report: Mapping[str, Any], book: _Book, figs: _Figures) -> str:
    scores: Mapping[str, Any] = report.get("scores") or {}
    names = list(scores)
    many = len(names) > 1
    unit = {"xlim": (0, 1), "ylim": (0, 1)}
    targeted = "Share of rows targeted (by decreasing score)"
    # ROC with hulls and the diagonal
    hulls = [Series(f"hull {name}" if many else "convex hull", _floats(hull.get("fpr")),
                    _floats(hull.get("tpr")), kind=_kind(i), dash=True, width=1.3)
             for i, name in enumerate(names) if (hull := _curve(scores[name], "hull"))]
    out = [figs.chart(
        "roc", "ROC curve",
        f"{book.link('roc', 'ROC curve')} with its {book.link('hull', 'convex hull')} (dashed) "
        "and the diagonal of a random ranking.",
        [_ref("chance", [0, 1], [0, 1]), *_overlay(scores, "roc", "fpr", "tpr"), *hulls],
        xlabel="False positive rate", ylabel="True positive rate", square=True, **unit)]
    # PR with its baseline (the first score's positive rate)
    baseline = next((v for name in names
                     if (v := _value(scores[name].get("pr_baseline"))) is not None), None)
    out.append(figs.chart(
        "pr", "Precision-recall curve",
        f"{book.link('pr', 'Precision-recall curve')}; the dashed line is the "
        f"{book.link('pr_baseline', 'baseline')}, the positive rate, where a random ranking lies.",
        [*_overlay(scores, "pr", "recall", "precision"),
         *([_ref(f"baseline {baseline:.3f}", [0, 1], [baseline, baseline])]
           if baseline is not None else [])],
        xlabel="Recall", ylabel="Precision", square=True, legend="top right", **unit))
    # gain
    ideal = [Series("ideal", [0, baseline, 1], [0, 1, 1], kind="ref", width=1.2)] if baseline else []
    out.append(figs.chart(
        "gain", "Gain curve",
        f"{book.link('gain', 'Gain curve')} (cumulative share of positives among the top-scored "
        "rows), with a random and an ideal ranking.",
        [_ref("random", [0, 1], [0, 1]), *ideal, *_overlay(scores, "gain", "rate", "tpr")],
        xlabel=targeted, ylabel="Share of positives found", **unit))
    # lift
    lifts = _overlay(scores, "lift", "rate", "lift")
    top = max([1.0, *(v for s in lifts for v in s.y if math.isfinite(v))])
    out.append(figs.chart(
        "lift", "Lift curve",
        f"{book.link('lift', 'Lift')}: the positive rate among the top-scored rows divided by "
        "the overall positive rate.",
        [_ref("random", [0, 1], [1, 1]), *lifts],
        xlabel=targeted, ylabel="Lift", xlim=(0, 1), ylim=(0, top * 1.05), legend="top right"))
    # KS, one per score
    for i, name in enumerate(names):
        k = _curve(scores[name], "ks")
        if not k:
            continue
        rate, tpr, fpr = _floats(k.get("rate")), _floats(k.get("tpr")), _floats(k.get("fpr"))
        ks_value = _value(scores[name].get("ks"))
        marks = []
        ks_rate = _value(k.get("ks_rate"))
        if ks_rate is None and tpr:
            gaps = [abs(a - b) for a, b in zip(tpr, fpr)]
            ks_rate = rate[gaps.index(max(gaps))]
        if ks_rate is not None and rate and (ks_value is None or ks_value >= 0.02):  # a visible gap
            j = min(range(len(rate)), key=lambda m: abs(rate[m] - ks_rate))
            marks.append(
                Mark(rate[j], fpr[j], tpr[j], f"KS {ks_value:.3f}" if ks_value is not None else "KS")
            )
        out.append(figs.chart(
            f"ks-{i + 1}", f"KS chart of {name}",
            f"{book.link('ks', 'KS chart')} of <code>{escape(name)}</code>: the "
            "cumulative shares of positives and of negatives among the top-scored rows; "
            "the KS statistic is the largest vertical gap.",
            [Series("positives (TPR)", rate, tpr, kind="pos"),
             Series("negatives (FPR)", rate, fpr, kind="neg")],
            xlabel="Share of rows targeted", ylabel="Cumulative share of the class", marks=marks,
            **unit))
    # score distributions by class
    for i, name in enumerate(names):
        d = _curve(scores[name], "distribution")
        edges = _floats(d.get("edges"))
        p = _floats(d.get("positives", d.get("pos")))
        n = _floats(d.get("negatives", d.get("neg")))
        if len(edges) < 2 or not p or not n:
            continue
        sp, sn = sum(p) or 1.0, sum(n) or 1.0
        out.append(figs.chart(
            f"distribution-{i + 1}", f"Score distribution of {name}",
            f"Distribution of <code>{escape(name)}</code> in each class ({len(edges) - 1} "
            "equal-width bins; each class sums to 1). The less the two overlap, the "
            "better the ranking.",
            [], bars=[Bars("negatives", edges, [v / sn for v in n], kind="neg"),
                      Bars("positives", edges, [v / sp for v in p], kind="pos")],
            xlabel=f"Score {name}", ylabel="Share of the class", legend="top right"))
    # reliability, when the scores are probabilities
    out += [_reliability(r, name, i, book, figs) for i, name in enumerate(names)
            if (r := _curve(scores[name], "reliability"))]
    return _section("figures", "Figures", f'<div class="figure-grid">{"".join(out)}</div>')


def _compact(v: float | None) -> str:
    """A bin's count in at most four characters: 472, 3.1k, 12k, 1.2M."""
    if v is None or not math.isfinite(v):
        return ""
    if abs(v) < 1000:
        return f"{v:.0f}" if float(v).is_integer() else f"{v:.3g}"
    for unit, size in (("M", 1e6), ("k", 1e3)):
        if abs(v) >= size:
            q = v / size
            return f"{q:.1f}{unit}" if abs(q) < 10 else f"{q:.0f}{unit}"
    return f"{v:.0f}"  # pragma: no cover


def _fitted(values: Sequence[float]) -> tuple[float, float]:
    """Axis limits around ``values`` (inside [0, 1]), snapped outwards to round steps.

    >>> _fitted([0.06, 0.15, 0.73])
    (0.0, 0.8)
    """
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    lo, hi = max(0.0, min(finite)), min(1.0, max(finite))
    span = max(hi - lo, 0.05)
    lo, hi = max(0.0, lo - 0.03 * span), min(1.0, hi + 0.03 * span)
    ticks = nice_ticks(lo, hi, target=10)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 0.1
    return (max(0.0, round(math.floor(lo / step + 1e-9) * step, 12)),
            min(1.0, round(math.ceil(hi / step - 1e-9) * step, 12)))


def _reliability(r: Mapping[str, Any], name: str, i: int, book: _Book, figs: _Figures) -> str:
    """The reliability diagram of one score: each bin's observed rate against its mean
    score, the bin's interval as a whisker and its count above it; each axis fitted to
    the bins (the x axis to their mean scores, the y axis to their shares and intervals),
    the diagonal drawn across both."""
    pred, true = _floats(r.get("prob_pred")), _floats(r.get("prob_true"))
    low, high = _floats(r.get("ci_low")), _floats(r.get("ci_high"))
    counts = _floats(r.get("weight"))
    xlim, ylim = _fitted(pred), _fitted([*true, *low, *high])
    diagonal = [min(xlim[0], ylim[0]), max(xlim[1], ylim[1])]
    series = [
        _ref("perfect calibration", diagonal, diagonal),
        *_dotted(name, pred, true, _kind(i)),
    ]
    whiskers = [Whiskers(pred, low or [math.nan] * len(pred), high or [math.nan] * len(pred),
                         [_compact(c) for c in counts], kind=_kind(i))]
    interval = r.get("interval")
    if isinstance(interval, Mapping):
        level = _value(interval.get("level")) or 0.95
        method = str(interval.get("method", "jeffreys")).capitalize()
        ci_text = (f"the whiskers are {100 * level:g} % {escape(method)} intervals of each bin's "
                   "observed share, the number above each is the bin's count (rows; with frequency "
                   "weights, their sum)")
    else:
        ci_text = ("the number above each point is the bin's weight; no interval: the weights "
                   "are not counts")
    return figs.chart(
        f"reliability-{i + 1}",
        f"Reliability diagram of {name}",
        f"{book.link('reliability', 'Reliability diagram')} of "
        f"<code>{escape(name)}</code> (ten equal-width bins of the score; empty bins left out): "
        f"points on the diagonal are calibrated probabilities; {ci_text}. The axes are "
        f"fitted to the bins (scores {xlim[0]:g} to {xlim[1]:g}, shares {ylim[0]:g} to "
        f"{ylim[1]:g}).",
        series,
        xlabel="Mean predicted probability",
        ylabel="Observed share of positives",
        xlim=xlim,
        ylim=ylim,
        square=True,
        legend="bottom right",
        whiskers=whiskers,
    )


_GAINS_COLUMNS: list[tuple[str, str, str]] = [
    # (column of gains_table, header, format)
    ("N", "Rows", "count"),
    ("cum_%", "Cum. % rows", "pct"),
    ("Prob", "Positive rate", "rate"),
    ("N_1", "Positives", "count"),
    ("cum_N1", "Cum. positives", "count"),
    ("cum_%1", "Cum. % positives", "pct"),
    ("N_0", "Negatives", "count"),
    ("cum_%0", "Cum. % negatives", "pct"),
    ("K-S", "K-S", "pct"),
    ("Lift", "Lift", "lift"),
]


#: Columns of gains_table left to the JSON (each follows from the columns shown).
_GAINS_JSON_ONLY = {"%", "%_1", "%_0", "cum_N0"}

_SCORE_BOUNDS = {"max_score": "Highest score", "min_score": "Lowest score"}


#: The gains table's headers that sum weights, as they read when weights are given.
_GAINS_WEIGHT_HEADS = {"N": "Weight", "cum_%": "Cum. % weight", "N_1": "Positive weight",
                       "cum_N1": "Cum. positive weight", "cum_%1": "Cum. % positive weight",
                       "N_0": "Negative weight", "cum_%0": "Cum. % negative weight",
                       "Prob": "Positive share of weight"}


def _gains(report: Mapping[str, Any], book: _Book) -> str:
    scores: Mapping[str, Any] = report.get("scores") or {}
    weighted = bool((report.get("summary") or {}).get("weighted"))
    unit = "weight" if weighted else "rows"
    parts = []
    for name, block in scores.items():
        rows = block.get("gains_table") or []
        if not rows:
            continue
        known = [c for c in _GAINS_COLUMNS if c[0] in rows[0]]
        bounds = [k for k in ("max_score", "min_score") if k in rows[0]]
        shown = {c[0] for c in _GAINS_COLUMNS} | _GAINS_JSON_ONLY | {"bin", *bounds}
        extra = [k for k in rows[0] if k not in shown]
        head = [
            "Bin",
            *(_SCORE_BOUNDS[k] for k in bounds),
            *(escape(k) for k in extra),
            *(_GAINS_WEIGHT_HEADS.get(k, h) if weighted else h for k, h, _ in known),
        ]
        body = []
        for i, row in enumerate(rows, start=1):
            cells = [str(row.get("bin", i))]
            for k in [*bounds, *extra]:
                v = row[k]
                cells.append(_score_value(v) if isinstance(v, int | float) else escape(str(v)))
            for key, _, kind in known:
                v = row.get(key)
                if kind == "count":
                    cells.append(_count(v))
                elif kind == "pct":
                    fv = _value(v)
                    cells.append(f"{fv:.2f}" if fv is not None else "–")
                elif kind == "lift":
                    cells.append(_fmt(v, 3))
                else:
                    cells.append(_fmt(v, 4))
            body.append(cells)
        parts.append(_table(head, body, cls="gains",
                            caption=f"<code>{escape(name)}</code>: ten bins of {unit} by decreasing "
                            "score; percentages in %; every column of the table is in the JSON."))
    if not parts:
        return ""
    return _section("gains", book.link("gains_table", "Gains table"), (
        f"<p>Tied scores are never split between two bins "
        f"({book.link('gains_ties', 'why')}), so a bin may hold more or fewer than a tenth "
        f"of the rows.</p>{''.join(parts)}"))


_POINT_NAMES = {"youden": "Youden's J", "ks": "KS point", "cost": "Cost-optimal"}


def _point_name(name: str) -> str:
    if name in _POINT_NAMES:
        return _POINT_NAMES[name]
    if m := re.fullmatch(r"top (\S+?)\s*%", name):
        return f"Top {m.group(1)} %"
    return name


def _operating_points(report: Mapping[str, Any], book: _Book) -> str:
    scores: Mapping[str, Any] = report.get("scores") or {}
    summary = report.get("summary") or {}
    m1, m0 = _value(summary.get("positives")), _value(summary.get("negatives"))
    parts = []
    for name, block in scores.items():
        points = block.get("operating_points") or []
        if not points:
            continue
        body = []
        for p in points:
            tp, fp = _value(p.get("tp")), _value(p.get("fp"))
            fn = p.get("fn", m1 - tp if m1 is not None and tp is not None else None)
            tn = p.get("tn", m0 - fp if m0 is not None and fp is not None else None)
            body.append([escape(_point_name(str(p.get("name", "")))), _score_value(p.get("threshold")),
                         _fmt(p.get("tpr")), _fmt(p.get("fpr")), _fmt(p.get("precision")),
                         _pct(p.get("rate")) if p.get("rate") is not None else "–",
                         _count(tp), _count(fp), _count(fn), _count(tn),
                         _count(p.get("cost")) if p.get("cost") is not None else ""])
        parts.append(_table(["Rule", "Score ≥", "TPR", "FPR", "Precision", "Flagged", "TP", "FP", "FN",
                             "TN", "Cost"], body, cls="points", caption=f"<code>{escape(name)}</code>"))
    if not parts:
        return ""
    costs = _settings(report).get("costs")
    cost_note = ""
    if isinstance(costs, Sequence) and len(costs) == 2:
        cost_note = (
            f" The cost counts a false positive as {_value(costs[0]):g} and a false negative as "
            f"{_value(costs[1]):g}; the {book.link('cost_optimal', 'cost-optimal threshold')} makes it least."
        )
    return _section("operating-points", book.link("operating_points", "Operating points"), (
        "<p>Rows with a score at or above the threshold are flagged positive. Youden's J and the KS "
        "point are the same threshold: the one where TPR − FPR is largest; top k % flags the fewest "
        f"whole groups of tied scores holding at least k % of the rows.{cost_note}</p>"
        f"{''.join(parts)}"))


def _ks_cell(row: Mapping[str, Any], value: Any) -> str:
    """A segment's or a period's two-sided KS, marked reversed where the positives score
    lower."""
    return _fmt(value) + (' <span class="reversed" title="F1 above F0: the positives score lower">'
                          "reversed</span>" if row.get("ks_direction") == "F1 above F0" else "")


def _segments(report: Mapping[str, Any], book: _Book) -> str:
    segments = report.get("segments") or []
    if not segments:
        return ""
    by = (_settings(report)).get("by")
    with_score = any("score" in s for s in segments)
    weighted = bool((report.get("summary") or {}).get("weighted"))
    head = (["Score"] if with_score else []) + [
        "Segment",
        "Weight" if weighted else "Rows",
        "Positive weight" if weighted else "Positives",
        book.link("auc", "AUC"),
        book.link("auc_ci", "95 % interval"),
        book.link("gini", "Gini"),
        book.link("ks", "KS two-sided"),
        book.link("ks", "KS one-sided"),
    ]
    body = []
    for s in segments:
        row = [f"<code>{escape(str(s.get('score')))}</code>"] if with_score else []
        row += [
            escape(str(s.get("segment"))),
            _count(s.get("n")),
            _count(s.get("positives")),
            _fmt(s.get("auc")),
            _ci(s.get("auc_ci")),
            _fmt(s.get("gini")),
            _ks_cell(s, s.get("ks_two_sided")),
            _fmt(s.get("ks")),
        ]
        body.append(row)
    by_text = f" of <code>{escape(str(by))}</code>" if by else ""
    text_cols = {1} if with_score else set()
    return _section("segments", book.link("segments", "Segments"), (
        f"<p>The same metrics within each segment{by_text}. An "
        "AUC in every segment can differ from the AUC of the whole: pooling segments with different "
        "positive rates mixes their rankings. A segment with fewer than "
        f"{_settings(report).get('min_class', 10)} positives or negatives has no interval (see the "
        "notes); the two-sided KS is marked <em>reversed</em> where the positives score lower. "
        f"{'Weight and positive weight are sums of the weights.' if weighted else ''}</p>"
        f"{_table(head, body, cls='segments', text=text_cols)}"))


def _psi_term(actual: float | None, expected: float | None, eps: float = 1e-4) -> float | None:
    """One bin's ``(a - e) ln(a / e)``, an empty share counted as ``eps`` (the report's
    PSI formula, :func:`course_lib._stream.psi_terms`)."""
    from .._stream import psi_terms  # here: only _psi_term of this module is the engine's

    if actual is None or expected is None:
        return None
    return float(psi_terms(actual, expected, eps))


def _stability(report: Mapping[str, Any], book: _Book) -> str:
    stability = report.get("stability") or []
    if not stability:
        return ""
    rows = []
    for s in stability:
        psi = _value(s.get("psi"))
        verdict = ""
        if psi is not None:
            verdict = "stable" if psi < 0.1 else "moderate shift" if psi < 0.25 else "large shift"
        rows.append([f"<code>{escape(str(s.get('score')))}</code>", _fmt(psi), verdict])
    parts = [
        _table(["Score", "PSI", "Reading (&lt; 0.1, &lt; 0.25, ≥ 0.25)"], rows, cls="stability", text=[2]),
        _baseline_test(report, book),
    ]
    for s in stability:
        bins = s.get("bins") or []
        if not bins:
            continue
        body = []
        for i, b in enumerate(bins, start=1):
            expected = _value(b.get("baseline_share", b.get("expected")))
            actual = _value(b.get("data_share", b.get("actual")))
            low, high = b.get("low"), b.get("high")
            body.append([str(b.get("bin", i)), _score_value(low) if low is not None else "−∞",
                         _score_value(high) if high is not None else "+∞", _pct(expected, 2),
                         _pct(actual, 2), _fmt(b.get("psi", _psi_term(actual, expected)))])
        parts.append(_table(["Bin", "Scores from", "below", "Baseline share", "Share", "PSI term"],
                            body, cls="psi-bins", caption=f"<code>{escape(str(s.get('score')))}</code>"))
    return _section("stability", book.link("stability", "Stability"), (
        "<p>Population stability index between the baseline "
        "sample and this one, over ten bins cut at the baseline's tie-aware deciles of each score: "
        "PSI = Σ (share − baseline share) · ln(share / baseline share), an empty bin counted as a share "
        f"of {_value(stability[0].get('eps')) or 1e-4:g} (the floor).</p>{''.join(parts)}"))


# --- calibration by band, the baseline test, the periods (issue 27, items 4-5) ---------


def _alpha(report: Mapping[str, Any]) -> float:
    """The tests' level: 1 - the report's ``level`` (0.05 by default)."""
    level = _value(_settings(report).get("level"))
    return 1 - level if level is not None and 0 < level < 1 else 0.05


def _level_text(report: Mapping[str, Any]) -> str:
    return f"{100 * (1 - _alpha(report)):g} %"


def _flagged(x: Any, alpha: float) -> str:
    """A p-value, in bold and marked * when it is below ``alpha`` (the test rejects)."""
    v = _value(x)
    text = _p_value(x)
    if v is None or v >= alpha:
        return text
    return (f'<strong class="flag" title="below {alpha:g}: rejected at the {alpha:g} level">'
            f"{text}&#8239;*</strong>")


def _band_name(band: Any, rule: str) -> str:
    if band is None:
        return '<span class="na">missing</span>'
    if rule == "grades":
        return _score_value(band)
    return escape(str(band))


def _calibration(report: Mapping[str, Any], book: _Book) -> str:
    """The calibration table of each probability score: per band the obligors,
    positives, mean score, observed rate and the one-sided binomial and Jeffreys tests
    (p-values below the level flagged); then Hosmer-Lemeshow, calibration-in-the-large
    and the calibration intercept and slope with their intervals."""
    scores: Mapping[str, Any] = report.get("scores") or {}
    weighted = bool((report.get("summary") or {}).get("weighted"))
    alpha = _alpha(report)
    level = _level_text(report)
    parts: list[str] = []
    absent: list[str] = []
    stated = ""
    for name, block in scores.items():
        cal = block.get("calibration_bands")
        if not isinstance(cal, Mapping):
            absent.append(name)
            continue
        rule = str(cal.get("rule") or "")
        if not stated:
            stated = (f"<p>The tests are {escape(str(cal.get('tests') or ''))}. A p-value below "
                      f"{alpha:g} is in bold and marked *: the band's default rate is "
                      "significantly above its PD.</p>")
        rows = []
        for b in cal.get("bands") or []:
            low, high = b.get("min_score"), b.get("max_score")
            rng = (_score_value(low) if _value(low) == _value(high)
                   else f"{_score_value(low)} – {_score_value(high)}")
            rows.append([_band_name(b.get("band"), rule), rng, _count(b.get("obligors")),
                         _count(b.get("positives")), _fmt(b.get("mean_score")),
                         _fmt(b.get("observed_rate")), _flagged(b.get("binomial_p"), alpha),
                         _flagged(b.get("jeffreys_p"), alpha)])
        column = cal.get("column")
        how = (f"the values of <code>{escape(str(column))}</code>" if column
               else escape(str(cal.get("cut") or "")))
        head = ["Band" if rule != "grades" else "Grade (PD)", "Scores",
                "Obligors (weight)" if weighted else "Obligors",
                "Positives (weight)" if weighted else "Positives", "Mean score (PD)",
                "Observed rate", book.link("calibration_bands", "Binomial p"),
                book.link("calibration_bands", "Jeffreys p")]
        parts.append(_table(head, rows, cls="bands",
                            caption=f"<code>{escape(name)}</code>: bands are {how}"))
        omitted = cal.get("omitted")
        if omitted:
            parts.append(f'<p class="omitted"><code>{escape(name)}</code>: no tests and no '
                         f"intervals: {escape(str(omitted))}.</p>")
        hl = cal.get("hosmer_lemeshow") or {}
        citl = cal.get("in_the_large") or {}
        rec = cal.get("recalibration") or {}
        df = hl.get("df")
        hl_stat = (f"χ² = {_fmt(hl.get('statistic'), 3)}, df {escape(str(df))}"
                   if _value(hl.get("statistic")) is not None else
                   f"df {escape(str(df))}")
        tests = [
            [book.link("calibration_bands", "Hosmer–Lemeshow"), "", "", hl_stat,
             _flagged(hl.get("p_value"), alpha), "p not small"],
            [book.link("calibration_bands", "Calibration-in-the-large"),
             f"{_fmt(citl.get('observed'))} observed − {_fmt(citl.get('expected'))} "
             f"expected = {_fmt(citl.get('difference'))}", "",
             f"z = {_fmt(citl.get('z'), 3)}", _flagged(citl.get("p_value"), alpha),
             "difference 0"],
            [book.link("recalibration", "Calibration intercept"), _fmt(rec.get("intercept")),
             _ci(rec.get("intercept_ci")), "", "", "0"],
            [book.link("recalibration", "Calibration slope"), _fmt(rec.get("slope")),
             _ci(rec.get("slope_ci")), "", "", "1"],
        ]
        parts.append(_table(["Test", "Estimate", f"{level} interval", "Statistic", "p-value",
                             "Calibrated if"], tests, cls="calibration-tests", text=[1, 3, 5],
                            caption=f"<code>{escape(name)}</code>: over all bands"))
        clip = _value(rec.get("clip"))
        clipped = _value(rec.get("clipped")) or 0
        if clipped:
            parts.append(f"<p><code>{escape(name)}</code>: {_count(clipped)} scores of exactly 0 "
                         f"or 1 were taken as {clip:g} or 1 − {clip:g} for the slope.</p>")
    why = "".join(
        f"<p><code>{escape(n)}</code>: no calibration by band: its scores are not all in "
        "[0, 1], so they are not probabilities of the positive class and there is no PD to "
        "test.</p>" for n in absent)
    if not parts:
        return _section("calibration", "Calibration by band", why)
    clip_text = ""
    clips = [_value(((scores[n].get("calibration_bands") or {}).get("recalibration") or {})
                    .get("clip")) for n in scores if n not in absent]
    if clips and clips[0] is not None:
        clip_text = (f" (a score of exactly 0 or 1 is taken as {clips[0]:g} or "
                     f"1 − {clips[0]:g}: its logit is infinite)")
    intro = (
        "<p>Each band's observed default rate against its PD, the mean score of its "
        "obligors. Hosmer–Lemeshow sums (positives − obligors · PD)² / (obligors · PD · "
        "(1 − PD)) over the bands and reads it as χ² with bands − 2 degrees of freedom. "
        "Calibration-in-the-large compares the observed rate with the mean score, z = "
        "(Σ y − Σ p) / √(Σ p (1 − p)), two-sided. The calibration intercept and slope are "
        "the maximum-likelihood fit of logit P(y = 1) = intercept + slope · logit(p)"
        f"{clip_text}, with Wald intervals: a calibrated score has intercept 0 and slope 1; "
        "a slope below 1 says the scores are too extreme, above 1 too timid.</p>" + stated)
    return _section("calibration", book.link("calibration_bands", "Calibration by band"),
                    intro + "".join(parts) + why)


def _baseline_test(report: Mapping[str, Any], book: _Book) -> str:
    """The unpaired DeLong test of each score's AUC against the baseline's."""
    tests = report.get("baseline_test") or []
    if not tests:
        return ""
    level = _level_text(report)
    alpha = _alpha(report)
    rows = [[f"<code>{escape(str(t.get('score')))}</code>", _fmt(t.get("auc")),
             _fmt(t.get("baseline_auc")), _ci(t.get("baseline_auc_ci")),
             _fmt(t.get("difference")), _ci(t.get("ci")), _fmt(t.get("z"), 3),
             _flagged(t.get("p_value"), alpha)] for t in tests]
    why = "".join(f"<p><code>{escape(str(t.get('score')))}</code>: no test: "
                  f"{escape(str(t['omitted']))}.</p>" for t in tests if t.get("omitted"))
    table = _table(["Score", "AUC", "Baseline AUC", f"Baseline {level} interval",
                    "Difference", f"{level} interval", "z", "p-value"], rows,
                   cls="baseline-test")
    return (
        f'<div class="keep"><h3>{book.link("baseline_test", "AUC against the baseline")}</h3>'
        "<p>The unpaired DeLong test of the two AUCs (two independent samples, as pROC's "
        "roc.test(paired = FALSE)): z = (AUC − baseline AUC) / √(V + V<sub>baseline</sub>) "
        "with each sample's DeLong variance, two-sided; the interval of the difference is "
        f"Wald's, not clipped. A p-value below {alpha:g} is in bold and marked *.</p>"
        f"{table}{why}</div>")


def _period_label(period: Any) -> str:
    return "missing" if period is None else str(period)


def _periods(report: Mapping[str, Any], book: _Book, figs: _Figures) -> str:
    """Over time: per period the rows, positives, positive rate, Gini with its interval,
    the two KS and the PSI; a chart of the Gini with its interval and one of the
    positive rate, across periods."""
    periods = report.get("periods") or []
    if not periods:
        return ""
    options = _settings(report)
    column = options.get("period")
    weighted = bool((report.get("summary") or {}).get("weighted"))
    names = list(dict.fromkeys(str(p.get("score")) for p in periods))
    many = len(names) > 1
    level = _level_text(report)
    head = (["Score"] if many else []) + [
        "Period", "Weight" if weighted else "Rows",
        "Positive weight" if weighted else "Positives", "Positive rate",
        book.link("gini", "Gini"), book.link("auc_ci", f"{level} interval"),
        book.link("ks", "KS two-sided"), book.link("stability", "PSI")]
    body = []
    for p in periods:
        row = [f"<code>{escape(str(p.get('score')))}</code>"] if many else []
        row += [escape(_period_label(p.get("period"))), _count(p.get("n")),
                _count(p.get("positives")), _pct(p.get("positive_rate"), 2),
                _fmt(p.get("gini")), _ci(p.get("gini_ci")),
                _ks_cell(p, p.get("ks_two_sided", p.get("ks"))),
                _fmt(p.get("psi"))]
        body.append(row)
    reference = report.get("period_psi_reference")
    ref_text = ("the baseline" if reference == "baseline" else "the first period"
                if reference == "first period" else escape(str(reference)))
    omitted = sorted({str(p["omitted"]) for p in periods
                      if p.get("omitted") and p.get("auc") is not None})
    why = ("<p>No interval: " + "; ".join(escape(o) for o in omitted) + ".</p>") if omitted \
        else ""
    intro = (
        f"<p>The score's numbers in each period of <code>{escape(str(column))}</code>, in the "
        "column's order (a missing period last): Gini = 2 AUC − 1 with DeLong's interval "
        f"(none for a period with fewer than {options.get('min_class', 10)} positives or "
        "negatives), the two-sided KS, and the PSI of the period's scores against "
        f"{ref_text}: ten bins cut at {ref_text}'s tie-aware deciles of the score, an empty "
        "bin counted as a share of 0.0001.</p>")
    table = _table(head, body, cls="periods", text={1} if many else set())
    labels = [_period_label(p.get("period")) for p in periods if str(p.get("score")) == names[0]]
    k = len(labels)
    every = max(1, math.ceil(k / 8))
    xticks = [(j + 1.0, lab if j % every == 0 else "") for j, lab in enumerate(labels)]
    series: list[Series] = []
    whiskers: list[Whiskers] = []
    for i, name in enumerate(names):
        rows = [p for p in periods if str(p.get("score")) == name]
        shift = (i - (len(names) - 1) / 2) * 0.08
        x = [j + 1.0 + shift for j in range(len(rows))]
        ci = [p.get("gini_ci") or [None, None] for p in rows]
        series += _dotted(name, x, _floats([p.get("gini") for p in rows]), _kind(i))
        whiskers.append(Whiskers(x, _floats([c[0] for c in ci]), _floats([c[1] for c in ci]),
                                 kind=_kind(i)))
    rate_y = _floats([p.get("positive_rate") for p in periods if str(p.get("score")) == names[0]])
    overall = _value((report.get("summary") or {}).get("positive_rate"))
    top = max([r for r in rate_y if math.isfinite(r)] + [overall or 0.0], default=1.0)
    xlim = (0.5, k + 0.5)
    figures = [
        figs.chart("periods-gini", "Gini per period",
                   f"{book.link('gini', 'Gini')} in each period of "
                   f"<code>{escape(str(column))}</code> with its {level} DeLong interval "
                   "(whiskers; none where the period has too few of a class).",
                   series, xlabel=f"Period ({column})", ylabel="Gini", xlim=xlim,
                   whiskers=whiskers, xticks=xticks, legend="bottom right"),
        figs.chart("periods-rate", "Positive rate per period",
                   f"{book.link('imbalance', 'Positive rate')} in each period of "
                   f"<code>{escape(str(column))}</code>; the dashed line is the rate over "
                   "all periods.",
                   [*([_ref(f"all periods {overall:.3f}", [0.5, k + 0.5], [overall, overall])]
                      if overall is not None else []),
                    *_dotted("positive rate", [j + 1.0 for j in range(k)], rate_y, "pos")],
                   xlabel=f"Period ({column})", ylabel="Share of positives", xlim=xlim,
                   ylim=(0.0, top * 1.15 if top > 0 else 1.0), xticks=xticks,
                   legend="bottom right"),
    ]
    return _section("periods", book.link("periods", "Over time"), (
        f"{intro}{table}{why}<div class=\"figure-grid\">{''.join(figures)}</div>"))


def _footer(report: Mapping[str, Any]) -> str:
    command = report.get("command")
    if isinstance(command, Sequence) and not isinstance(command, str):
        command_text = shlex.join(str(c) for c in command)
    else:
        command_text = str(command or "")
    rows = []
    for role, key in (("data", "inputs"), ("baseline", "baseline_inputs")):
        for item in report.get(key) or []:
            path = item.get("path")
            rows.append([f"<code>{escape(str(path))}</code>" if path else "(a DataFrame)", role,
                         _count(item.get("rows")),
                         f'<code class="hash">{escape(str(item.get("sha256") or ""))}</code>'])
    inputs = (
        _table(["Input", "Role", "Rows", "SHA-256"], rows, cls="inputs", text=[1, 3]) if rows else ""
    )
    version = escape(str(report.get("version", "")))
    engine = (_settings(report)).get("engine")
    engine_text = f", engine <code>{escape(str(engine))}</code>" if engine else ""
    return (
        f'<footer id="reproduce"><h2>Reproduce</h2><p>Made by <code>course_lib</code> {version}'
        f"{engine_text} with:</p><pre><code>{escape(command_text)}</code></pre>{inputs}"
        "<p>Run the same command on files with the same SHA-256 and the same library version to "
        "get the same numbers.</p></footer>"
    )


def _css() -> str:
    return resources.files("course_lib.report").joinpath("report.css").read_text(encoding="utf-8")


def _css_string(text: str) -> str:
    r"""``text`` as a CSS string literal: quotes, backslashes, line breaks and ``<`` (no
    ``</style>`` can end the sheet early) written as CSS escapes.

    >>> print(_css_string('a "b" </style>'))
    "a \22 b\22  \3c /style\3e "
    """
    out = []
    for ch in text:
        if ch in '"\\<>' or ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _page_css(head: Mapping[str, Any], paper: str) -> str:
    """The printed page: its size, and on every page the running header (title left;
    model and run date right), the window bottom left and "page N of M" bottom right
    (CSS page-margin boxes, which Chromium prints)."""
    title = str(head.get("title") or "")
    right = " · ".join(str(v) for v in (head.get("model"), head.get("run_date")) if v)
    window = str(head.get("window") or "")
    box = "font: 8pt system-ui, sans-serif; color: #59636e;"
    return (
        f"@page {{ size: {PAPERS[paper]}; margin: 16mm 13mm 15mm; "
        f"@top-left {{ content: {_css_string(title)}; {box} }} "
        f"@top-right {{ content: {_css_string(right)}; {box} }} "
        f"@bottom-left {{ content: {_css_string(window)}; {box} }} "
        f'@bottom-right {{ content: "page " counter(page) " of " counter(pages); {box} }} }}'
    )


def _header_meta(head: Mapping[str, Any], data_name: str) -> str:
    """The header's facts a validator signs: model, window, run date, data."""
    missing = '<span class="na" title="not given: --{0}">not stated</span>'
    items = [
        ("Model", escape(str(head["model"])) if head.get("model") else missing.format("model")),
        ("Window", escape(str(head["window"])) if head.get("window") else missing.format("window")),
        ("Run date", escape(str(head.get("run_date") or ""))),
    ]
    if data_name:
        items.append(("Data", f"<code>{escape(data_name)}</code>"))
    return '<dl class="meta">' + "".join(
        f"<div><dt>{k}</dt><dd>{v}</dd></div>" for k, v in items) + "</dl>"


#: The page's sections in order: id, name in the navigation, and the function that
#: writes it (an empty string when the report has nothing for it; the figures and the
#: periods number their figures too).
_SECTIONS: list[tuple[str, str, Callable[..., str]]] = [
    ("summary", "Data", _summary), ("metrics", "Metrics", _metrics),
    ("comparison", "Comparison", _comparison), ("figures", "Figures", _figures),
    ("calibration", "Calibration by band", _calibration), ("gains", "Gains table", _gains),
    ("operating-points", "Operating points", _operating_points),
    ("segments", "Segments", _segments), ("stability", "Stability", _stability),
    ("periods", "Over time", _periods),
]


def render(report: Mapping[str, Any], *, book_url: str = DEFAULT_BOOK_URL, title: str | None = None,
           paper: str = "a4") -> str:
    """The HTML page of a Report dict: one file, no script, no network.

    ``book_url`` is the root of the book the metric names link to (default: the
    published book, :data:`DEFAULT_BOOK_URL`; a ``file:`` URL of a local build works
    too). The header states the report's ``header`` (title, model, window, run date);
    ``title`` overrides its title. ``paper`` ("a4" or "letter") is the printed page's
    size; every printed page carries the title, model and run date and its number.
    """
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if (
        not isinstance(report, Mapping)
        or not isinstance(report.get("scores"), Mapping)
        or not report["scores"]
    ):
        raise ValueError("render needs a Report dict with at least one score under 'scores'")
    names = list(report["scores"])
    inputs = report.get("inputs") or []
    data_name = str(inputs[0].get("path", "")) if inputs and isinstance(inputs[0], Mapping) else ""
    from ._header import header as make_header

    given = report.get("header")
    head = dict(given) if isinstance(given, Mapping) else make_header(title=title)
    if title:
        head["title"] = title
    heading = str(head.get("title") or "Validation report")
    figs = _Figures()
    links = report.get("links")
    book = _Book(book_url, links if isinstance(links, Mapping) else None)
    body = [make(report, book, figs) if make in (_figures, _periods) else make(report, book)
            for _, _, make in _SECTIONS]
    nav = "".join(f'<a href="#{ident}">{label}</a>' for (ident, label, _), part
                  in zip(_SECTIONS, body) if f'id="{ident}"' in part)
    nav += '<a href="#reproduce">Reproduce</a>'
    subtitle = ", ".join(f"<code>{escape(n)}</code>" for n in names)
    data_part = f" on <code>{escape(data_name)}</code>" if data_name else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{escape(heading)}: {escape(', '.join(names))}</title>"
        f"<style>{_css()}\n{_page_css(head, paper)}</style></head><body>"
        f'<header class="top"><p class="eyebrow">Model validation report</p><h1>{escape(heading)}</h1>'
        f"{_header_meta(head, data_name)}"
        f'<p class="subtitle">Score{"s" if len(names) > 1 else ""} {subtitle}{data_part}</p>'
        f'<nav aria-label="Sections">{nav}</nav></header>'
        f"<main>{''.join(body)}</main>{_footer(report)}</body></html>\n"
    )
