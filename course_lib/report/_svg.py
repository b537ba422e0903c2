"""Inline SVG figures of the validation report, drawn without matplotlib.

Each function returns one ``<svg>`` element as a string: a ``viewBox`` so the figure
scales with its column, axes with ticks and labels, and colours taken from CSS classes
(``report.css`` maps them to custom properties, so the same markup reads in light and
dark mode). No script, no font file, no network: the page that holds them is one file.

>>> svg = line_chart([Series("model", [0, 0.5, 1], [0, 0.8, 1])], xlabel="FPR", ylabel="TPR")
>>> svg.startswith("<svg") and "model" in svg and "<script" not in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

__all__ = ["Series", "Bars", "Whiskers", "line_chart", "nice_ticks"]

#: Size of the drawing in user units (the page scales it to the column width).
WIDTH, HEIGHT = 480, 360
MARGIN = {"left": 80, "right": 16, "top": 14, "bottom": 58}
#: At most this many points of one curve are drawn (curves arrive thinned already).
MAX_POINTS = 4000


@dataclass
class Series:
    """One line of a chart: its name (legend), points, and how it is drawn.

    ``kind`` picks the CSS class: ``s1``..``s6`` a series colour by position (default),
    ``ref`` a grey reference line (the diagonal, a baseline), ``pos`` / ``neg`` the two
    classes; ``dash`` draws it dashed, ``marker`` draws points instead of a line.
    """

    name: str
    x: Sequence[float]
    y: Sequence[float]
    kind: str = ""
    dash: bool = False
    marker: bool = False
    width: float = 2.0


@dataclass
class Bars:
    """Bars from ``edges[i]`` to ``edges[i + 1]`` of height ``heights[i]``."""

    name: str
    edges: Sequence[float]
    heights: Sequence[float]
    kind: str = "s1"


@dataclass
class Mark:
    """A vertical segment from ``(x, y0)`` to ``(x, y1)`` with a label (the KS gap)."""

    x: float
    y0: float
    y1: float
    label: str = ""
    kind: str = "mark"


@dataclass
class Whiskers:
    """Vertical intervals ``[low[i], high[i]]`` at ``x[i]`` with short caps, each with an
    optional label above it (a bin's count); a bound that is not finite draws nothing."""

    x: Sequence[float]
    low: Sequence[float]
    high: Sequence[float]
    labels: Sequence[str] = ()
    kind: str = "s1"


@dataclass
class _Frame:
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    width: int = WIDTH
    height: int = HEIGHT
    margin: dict[str, int] = field(default_factory=lambda: dict(MARGIN))

    def px(self, x: float) -> float:
        lo, hi = self.xlim
        left, right = self.margin["left"], self.width - self.margin["right"]
        return left + (x - lo) / (hi - lo) * (right - left)

    def py(self, y: float) -> float:
        lo, hi = self.ylim
        top, bottom = self.margin["top"], self.height - self.margin["bottom"]
        return bottom - (y - lo) / (hi - lo) * (bottom - top)


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering ``[lo, hi]``.

    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(0, 3.7)
    [0.0, 1.0, 2.0, 3.0]
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / target
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * 0.999)
    first = math.ceil(lo / step - 1e-9)
    ticks = []
    k = first
    while k * step <= hi + step * 1e-9:
        ticks.append(round(k * step, 12) + 0.0)
        k += 1
    return ticks


def _fmt_tick(value: float, ticks: Sequence[float]) -> str:
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    if step > 0 and abs(step * 10**decimals - round(step * 10**decimals)) > 1e-6:
        decimals += 1  # 2.5, 0.25
    if abs(value) >= 1e5 or (value != 0 and abs(value) < 1e-4):
        return f"{value:.1e}"
    return f"{value:,.{decimals}f}".replace("-", "\u2212")


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _line(x1: float, x2: float, y1: float, y2: float, cls: str = "", more: str = "") -> str:
    """An SVG ``<line>`` (``cls`` its CSS class, ``more`` its other attributes)."""
    css = f' class="{cls}"' if cls else ""
    return f'<line{css} x1="{_num(x1)}" x2="{_num(x2)}" y1="{_num(y1)}" y2="{_num(y2)}"{more}/>'


def _path(frame: _Frame, xs: Sequence[float], ys: Sequence[float]) -> str:
    pts = [(x, y) for x, y in zip(xs, ys) if math.isfinite(x) and math.isfinite(y)]
    if len(pts) > MAX_POINTS:  # never expected: the report thins its curves
        keep = max(1, len(pts) // MAX_POINTS)
        pts = pts[::keep] + [pts[-1]]
    return " ".join(f"{_num(frame.px(x))},{_num(frame.py(y))}" for x, y in pts)


def _whiskers(frame: _Frame, w: Whiskers) -> tuple[str, str]:
    """The intervals of ``w`` as vertical lines with caps, and their labels above
    their tops (drawn outside the plot's clip, so a label at the top stays whole)."""
    out = [f'<g class="whiskers {w.kind}">']
    text = ['<g class="count-labels">']
    labels = list(w.labels) + [""] * (len(w.x) - len(w.labels))
    for x, lo, hi, label in zip(w.x, w.low, w.high, labels):
        if not (math.isfinite(x) and math.isfinite(lo) and math.isfinite(hi)):
            continue
        px, y0, y1 = frame.px(x), frame.py(lo), frame.py(hi)
        out += [_line(a, b, c, d, f"line {w.kind}", ' stroke-width="1.4"')
                for a, b, c, d in ((px, px, y0, y1), (px - 4, px + 4, y0, y0), (px - 4, px + 4, y1, y1))]
        if label:
            text.append(
                f'<text class="count-label" x="{_num(px)}" y="{_num(max(y1 - 6, 10))}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    out.append("</g>")
    text.append("</g>")
    return "".join(out), "".join(text)


def _legend(entries: list[tuple[str, str, bool]], frame: _Frame, corner: str) -> str:
    """Legend lines ``(name, css class, dashed)`` in a corner of the plot area."""
    if not entries:
        return ""
    line_h, pad = 18, 8
    width = 40 + 8.2 * max(len(name) for name, _, _ in entries)
    height = pad + line_h * len(entries)
    left = frame.margin["left"] + 8
    right = frame.width - frame.margin["right"] - 8 - width
    top = frame.margin["top"] + 6
    bottom = frame.height - frame.margin["bottom"] - 8 - height
    x0 = right if "right" in corner else left
    y0 = bottom if "bottom" in corner else top
    out = [
        f'<g class="legend"><rect class="legend-box" x="{_num(x0)}" y="{_num(y0)}" '
        f'width="{_num(width)}" height="{_num(height)}" rx="4"/>'
    ]
    for i, (name, kind, dash) in enumerate(entries):
        y = y0 + pad / 2 + line_h * i + line_h / 2
        dashed = ' stroke-dasharray="5 4"' if dash else ""
        out.append(_line(x0 + 8, x0 + 28, y, y, f"line {kind}", dashed)
                   + f'<text x="{_num(x0 + 34)}" y="{_num(y + 4)}">{escape(name)}</text>')
    out.append("</g>")
    return "".join(out)


def line_chart(series: Sequence[Series], *, xlabel: str, ylabel: str,
               xlim: tuple[float, float] | None = None,
               ylim: tuple[float, float] | None = None, bars: Sequence[Bars] = (),
               marks: Sequence[Mark] = (), legend: str = "bottom right", title: str = "",
               square: bool = False, ident: str = "chart",
               whiskers: Sequence[Whiskers] = (),
               xticks: Sequence[tuple[float, str]] = ()) -> str:
    """One chart: axes with ticks and labels, bars, lines, marks, whiskers and a legend.

    Limits default to the range of the data. ``square`` draws a taller plot (ROC, PR);
    ``ident`` makes the clip path's id unique on the page. ``xticks`` ``(x, label)``
    replaces the x axis's round ticks (categories: periods); an empty label draws the
    tick without text.

    >>> svg = line_chart([Series("g", [1, 2], [0.5, 0.6])], xlabel="period", ylabel="Gini",
    ...                  xticks=[(1, "2024-Q1"), (2, "2024-Q2")])
    >>> ">2024-Q2</text>" in svg
    True
    """
    xs = [v for s in series for v in s.x if math.isfinite(v)]
    xs += [v for b in bars for v in b.edges]
    xs += [v for w in whiskers for v in w.x if math.isfinite(v)]
    ys = [v for s in series for v in s.y if math.isfinite(v)]
    ys += [v for b in bars for v in b.heights] + ([0.0] if bars else [])
    ys += [v for w in whiskers for v in (*w.low, *w.high) if math.isfinite(v)]
    if xlim is None:
        xlim = (min(xs, default=0.0), max(xs, default=1.0))
    if ylim is None:
        top = max(ys, default=1.0)
        ylim = (min(min(ys, default=0.0), 0.0), top * 1.05 if top > 0 else 1.0)
    if xlim[1] <= xlim[0]:
        xlim = (xlim[0] - 0.5, xlim[0] + 0.5)
    if ylim[1] <= ylim[0]:
        ylim = (ylim[0] - 0.5, ylim[0] + 0.5)
    height = 400 if square else HEIGHT
    frame = _Frame(xlim, ylim, height=height)
    left, right = frame.margin["left"], frame.width - frame.margin["right"]
    top, bottom = frame.margin["top"], frame.height - frame.margin["bottom"]
    out = [
        f'<svg class="chart" viewBox="0 0 {frame.width} {frame.height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    xt, yt = nice_ticks(*xlim), nice_ticks(*ylim)
    xtext = {t: _fmt_tick(t, xt) for t in xt}
    if xticks:
        xt = [float(v) for v, _ in xticks]
        xtext = {float(v): text for v, text in xticks}
    out += ['<g class="grid">', *(_line(frame.px(t), frame.px(t), top, bottom) for t in xt),
            *(_line(left, right, frame.py(t), frame.py(t)) for t in yt), "</g>"]
    # Clip the data to the plot area so a value past a fixed limit never crosses the axes.
    clip = f"clip-{ident}"
    out.append(
        f'<clipPath id="{clip}"><rect x="{left - 2}" y="{top - 2}" '
        f'width="{right - left + 4}" height="{bottom - top + 4}"/></clipPath>'
    )
    out.append(f'<g clip-path="url(#{clip})">')
    for b in bars:
        for i, h in enumerate(b.heights):
            if h <= 0:
                continue
            x0, x1 = frame.px(b.edges[i]), frame.px(b.edges[i + 1])
            y0 = frame.py(h)
            out.append(
                f'<rect class="bar {b.kind}" x="{_num(x0)}" y="{_num(y0)}" '
                f'width="{_num(max(x1 - x0, 0.5))}" height="{_num(frame.py(0) - y0)}"/>'
            )
    labels = []
    for w in whiskers:
        drawn, text = _whiskers(frame, w)
        out.append(drawn)
        labels.append(text)
    for i, s in enumerate(series):
        kind = s.kind or f"s{i % 6 + 1}"
        pts = _path(frame, s.x, s.y)
        if not pts:
            continue
        if s.marker:
            dots = "".join(
                f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="3.5"/>' for p in pts.split(" ")
            )
            out.append(f'<g class="dots {kind}">{dots}</g>')
            continue
        dashed = ' stroke-dasharray="5 4"' if s.dash else ""
        out.append(f'<polyline class="line {kind}" points="{pts}" stroke-width="{s.width}"{dashed}/>')
    for m in marks:
        x, y0, y1 = frame.px(m.x), frame.py(m.y0), frame.py(m.y1)
        out.append(_line(x, x, y0, y1, f"line {m.kind}", ' stroke-width="2.5"'))
        if m.label:
            anchor = "start" if x < (left + right) / 2 else "end"
            dx = 6 if anchor == "start" else -6
            out.append(
                f'<text class="mark-label" x="{_num(x + dx)}" y="{_num((y0 + y1) / 2 + 4)}" '
                f'text-anchor="{anchor}">{escape(m.label)}</text>'
            )
    out.append("</g>")
    out += labels
    out.append(f'<g class="axis">{_line(left, right, bottom, bottom)}{_line(left, left, top, bottom)}')
    for t in xt:
        tx = frame.px(t)
        out.append(_line(tx, tx, bottom, bottom + 5) + f'<text x="{_num(tx)}" y="{bottom + 20}" '
                   f'text-anchor="middle">{escape(xtext[t])}</text>')
    for t in yt:
        ty = frame.py(t)
        out.append(_line(left - 5, left, ty, ty) + f'<text x="{left - 8}" y="{_num(ty + 4)}" '
                   f'text-anchor="end">{_fmt_tick(t, yt)}</text>')
    out.append("</g>")
    out.append(
        f'<text class="axis-label" x="{_num((left + right) / 2)}" y="{frame.height - 10}" '
        f'text-anchor="middle">{escape(xlabel)}</text>'
    )
    out.append(
        f'<text class="axis-label" transform="translate(18 {_num((top + bottom) / 2)}) rotate(-90)" '
        f'text-anchor="middle">{escape(ylabel)}</text>'
    )
    entries = [(s.name, s.kind or f"s{i % 6 + 1}", s.dash) for i, s in enumerate(series) if s.name]
    entries += [(b.name, b.kind, False) for b in bars if b.name]
    out.append(_legend(entries, frame, legend))
    out.append("</svg>")
    return "".join(out)
