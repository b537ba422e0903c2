"""Figures of sampling experiments (chapter 11; source D's figures XA.9-XA.13,
XA.16-XA.21): samples of a score model, empirical curves over the exact ones, the
spread of estimates against the sample size, and confidence intervals.

The exact curves are drawn by :func:`course_lib.plotting.plot_model_curve` (chapter 10);
the empirical ones come from :mod:`course_lib.roc`, :mod:`course_lib.pr` and
:mod:`course_lib.gains`. These functions only draw: the experiments themselves (which
samples, how many, which seed) are run in the notebook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt  # noqa: F401 (the doctests close their figures)
import numpy as np

from ._kinds import curve_kind
from ._style import COLORS, _axes, _finish
from .models import SHARE_STYLES, _number, plot_model_curve, plot_score_densities

__all__ = [
    "plot_sample_histogram",
    "plot_empirical_curves",
    "plot_auc_spread",
    "plot_mean_sd",
    "plot_intervals",
]

#: Thin red lines for the empirical curves, as in the source's figures.
_EMPIRICAL = {"color": COLORS["point"], "lw": 0.7, "alpha": 0.55}


def plot_sample_histogram(model, y_true: Any, y_score: Any, *, bins: int = 20, ax=None,
                          title: str | None = None):
    """Histograms of a sample's scores, one per class, over the model's densities.

    Each histogram is normalised to area 1 (a density), so it should follow the
    density of its class the closer, the larger the sample.

    Parameters
    ----------
    model : course_lib.ScoreModel
        The model the sample was drawn from (finite support).
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 and scores of the sample.
    bins : int
        Number of equal bins over the support.

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> y, s = LINEAR_DENSITIES.sample(200, 0.5, seed=0)
    >>> ax = plot_sample_histogram(LINEAR_DENSITIES, y, s, bins=10)
    >>> len(ax.patches), ax.get_lines()[0].get_label()[:7]
    (2, 'class 0')
    >>> plt.close(ax.get_figure())
    """
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(y_score, dtype=float)
    ax = _axes(ax, size=4.2)
    plot_score_densities(model, ax=ax)
    lo, hi = (float(v) for v in model.support)
    edges = np.linspace(lo, hi, bins + 1)
    for k, (members, color) in enumerate(((~y, COLORS["tie"]), (y, COLORS["curve"]))):
        ax.hist(s[members], bins=edges, density=True, histtype="stepfilled",
                color=color, alpha=0.22, lw=0,
                label=f"sample, class {k} ({int(members.sum())})")
    ax.set_ylim(0, None)
    return _finish(ax, title, loc="upper center", fontsize=8.5)


def _thin(x: np.ndarray, y: np.ndarray, max_points: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``max_points`` vertices, evenly spread along the curve, ends kept."""
    if x.size <= max_points:
        return x, y
    keep = np.unique(np.linspace(0, x.size - 1, max_points).round().astype(int))
    return x[keep], y[keep]


def plot_empirical_curves(model, samples: Sequence[tuple[Any, Any]], *, kind: str,
                          pi: Any = None, ax=None, title: str | None = None,
                          max_points: int = 150):
    """Empirical curves of several samples (thin red) over the model's exact curve (blue).

    Source D, figs. XA.9 (gain), XA.10 (lift), XA.13 (ROC), XA.16 (PR) and
    XA.19-XA.21 (imbalanced classes).

    Parameters
    ----------
    model : course_lib.ScoreModel
        The model the samples were drawn from.
    samples : sequence of (y_true, y_score)
        The samples, e.g. from :meth:`ScoreModel.sample`.
    kind : {"roc", "pr", "gain", "lift", "ks"}
        The curve: ROC, PR, gain, lift, or the KS curve TPR - FPR against the rate of
        positive predictions (RPP).
    pi : number, optional
        The share of positives of the exact curve (not used for ROC). By default the
        share of positives in the first sample, as a fraction.
    max_points : int
        An empirical curve with more vertices is drawn through ``max_points`` of them,
        evenly spread and including both ends (at the size of a figure the difference
        does not show, and the stored figure stays small).

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> samples = [LINEAR_DENSITIES.sample(50, 0.5, seed=k) for k in range(3)]
    >>> ax = plot_empirical_curves(LINEAR_DENSITIES, samples, kind="roc")
    >>> len(ax.get_lines()), ax.get_xlabel()
    (5, 'FPR')
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['3 samples of n = 50', 'exact curve']
    >>> plt.close(ax.get_figure())
    """
    info = curve_kind(kind)
    if not samples:
        raise ValueError("samples is empty: give at least one (y_true, y_score) pair")
    ax = _axes(ax, size=4.2)
    if pi is None:
        y0 = np.asarray(samples[0][0])
        pi = Fraction(int(np.count_nonzero(y0)), y0.size)
    sizes = {np.asarray(y).size for y, _ in samples}
    size = f"n = {sizes.pop()}" if len(sizes) == 1 else "various n"
    lowest = 0.0
    for k, (y, s) in enumerate(samples):
        x_all, v_all = info.empirical(y, s).xy
        x, v = _thin(x_all, v_all, max_points)
        lowest = min(lowest, float(v.min()))
        ax.plot(x, v, zorder=2, label=f"{len(samples)} samples of {size}" if k == 0 else None,
                **_EMPIRICAL)
    plot_model_curve(model, info.exact(model, pi), kind=kind, ax=ax, pi=pi,
                     label="exact curve", lw=2)
    if lowest < 0:  # only the KS curve can dip below 0
        ax.set_ylim(lowest - 0.02, None)
    return _finish(ax, title, loc=info.legend_loc, fontsize=8.5)


def plot_auc_spread(sizes: Sequence[int], values: Sequence[Any], *, truth: float | None = None,
                    sd: Callable[[np.ndarray], np.ndarray] | None = None, ax=None,
                    xlabel: str = "sample size n", ylabel: str = "empirical ROC AUC",
                    title: str | None = None):
    """Estimates from many samples at each sample size, with the true value (fig. XA.12).

    The estimates at size ``n`` are spread sideways in a narrow strip around ``n``
    (deterministically, so the figure does not change between runs) on a log axis.

    Parameters
    ----------
    sizes : sequence of int
        The sample sizes.
    values : sequence of array-like
        ``values[k]`` holds the estimates from the samples of size ``sizes[k]``.
    truth : number, optional
        The value being estimated: a horizontal line (a fraction is labelled as one).
    sd : callable, optional
        ``sd(n)`` the standard deviation of an estimate from a sample of size ``n``
        (vectorised); the band ``truth -+ 1.96 sd(n)`` is drawn between the sizes.
    xlabel, ylabel, title : str
        Axis labels and title.

    Examples
    --------
    >>> ax = plot_auc_spread([10, 100], [[0.7, 0.9], [0.8, 0.82, 0.84]], truth=0.8)
    >>> ax.collections[1].get_offsets()[:, 1].tolist()
    [0.8, 0.82, 0.84]
    >>> plt.close(ax.get_figure())
    """
    if len(sizes) != len(values):
        raise ValueError(f"sizes and values differ in length: {len(sizes)} and {len(values)}")
    ax = _axes(ax, size=4.2)
    for k, (n, v) in enumerate(zip(sizes, values)):
        v = np.asarray(v, dtype=float)
        x = n * 10.0 ** np.linspace(-0.09, 0.09, v.size) if v.size > 1 else np.array([n])
        ax.scatter(x, v, s=5, color=COLORS["curve"], alpha=0.35, lw=0, zorder=2,
                   label=f"one sample ({v.size} per size)" if k == 0 else None)
    if truth is not None:
        ax.axhline(float(truth), color=COLORS["tie"], lw=1.5, zorder=3,
                   label=f"true value {_number(truth)}")
        if sd is not None:
            grid = np.geomspace(min(sizes), max(sizes), 200)
            half = 1.96 * np.asarray(sd(grid), dtype=float)
            for sign in (-1, 1):
                ax.plot(grid, float(truth) + sign * half, color=COLORS["tie"], lw=1, ls="--",
                        zorder=3, label="± 1.96 sd" if sign == 1 else None)
    ax.set_xscale("log")
    ax.set_xticks(list(sizes), [str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return _finish(ax, title, loc="lower right", fontsize=8.5)


def plot_mean_sd(x: Sequence[float], series: Mapping[str, tuple], *, bars: bool = False,
                 logx: bool = False, colors: Sequence[str] | None = None, ax=None,
                 xlabel: str | None = None, ylabel: str | None = None,
                 title: str | None = None):
    """Means with a band (or bars) of one standard deviation, one series per entry.

    Source D, fig. XA.17 (bands against the sample size) and, with ``bars=True`` over
    :func:`plot_auc_pr_by_share`, fig. XA.18 (against the share of positives).

    Parameters
    ----------
    x : sequence of float
        The common abscissas.
    series : mapping of str to (mean, sd) or (mean, sd, truth)
        Arrays of means and standard deviations at ``x``; ``truth``, if given, is drawn
        as a thin dashed line of the series' colour.
    bars : bool
        Error bars at the points instead of a shaded band.
    logx : bool
        A log scale on x, ticks at ``x``.
    colors : sequence of str, optional
        One colour per series (by default those of ``SHARE_STYLES``), e.g. to keep
        clear of the colours of curves already on the Axes.
    ax : matplotlib Axes, optional
        Where to draw (the axes are left as they are, apart from what is asked); a new
        figure if None.
    xlabel, ylabel, title : str, optional
        Set only when given.

    Examples
    --------
    >>> ax = plot_mean_sd([1, 2], {"a": ([0.5, 0.6], [0.1, 0.05], 0.55)})
    >>> [list(map(float, line.get_ydata())) for line in ax.get_lines()]
    [[0.5, 0.6], [0.55, 0.55]]
    >>> plt.close(ax.get_figure())
    """
    ax = _axes(ax, size=4.2)
    xs = np.asarray(x, dtype=float)
    for k, (name, entry) in enumerate(series.items()):
        mean, sd = (np.asarray(v, dtype=float) for v in entry[:2])
        truth = entry[2] if len(entry) > 2 else None
        palette = colors if colors else [style["color"] for style in SHARE_STYLES]
        color = palette[k % len(palette)]
        if bars:
            ax.errorbar(xs, mean, yerr=sd, fmt="o", ms=3.5, color=color, capsize=2.5,
                        lw=1.2, zorder=4, label=name)
        else:
            ax.plot(xs, mean, "o-", ms=3.5, color=color, lw=1.5, zorder=3, label=name)
            ax.fill_between(xs, mean - sd, mean + sd, color=color, alpha=0.18, lw=0,
                            zorder=1)
        if truth is not None:
            ax.axhline(float(truth), color=color, lw=1, ls="--", zorder=2)
    if logx:
        ax.set_xscale("log")
        ax.set_xticks(list(xs), [f"{v:g}" for v in xs])
        ax.minorticks_off()
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    return _finish(ax, title, fontsize=8.5)


def plot_intervals(lows: Any, highs: Any, truth: float, *, estimates: Any = None, ax=None,
                   xlabel: str = "ROC AUC", title: str | None = None):
    """Confidence intervals from many samples, one per row; the misses in red.

    An interval *covers* when ``low <= truth <= high``; a 95% interval should miss in
    about one sample out of twenty.

    Parameters
    ----------
    lows, highs : array-like of shape (k,)
        The ends of the intervals.
    truth : float
        The true value: a vertical line.
    estimates : array-like of shape (k,), optional
        The point estimates, drawn as dots.
    xlabel, title : str
        Axis label and title.

    Examples
    --------
    >>> ax = plot_intervals([0.1, 0.6], [0.5, 0.9], 0.4)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['covers (1 of 2)', 'misses (1 of 2)']
    >>> plt.close(ax.get_figure())
    """
    lows = np.asarray(lows, dtype=float)
    highs = np.asarray(highs, dtype=float)
    if lows.shape != highs.shape or lows.ndim != 1:
        raise ValueError("lows and highs must be 1-d arrays of the same length")
    ax = _axes(ax, size=4.2)
    rows = np.arange(1, lows.size + 1)
    covers = (lows <= truth) & (truth <= highs)
    for mask, color, name, lw in ((covers, COLORS["curve"], "covers", 1.3),
                                  (~covers, COLORS["point"], "misses", 2.2)):
        ax.hlines(rows[mask], lows[mask], highs[mask], color=color, lw=lw, zorder=2,
                  label=f"{name} ({int(mask.sum())} of {lows.size})")
        if estimates is not None:
            est = np.asarray(estimates, dtype=float)
            ax.plot(est[mask], rows[mask], "o", ms=2.5, color=color, zorder=3)
    ax.axvline(truth, color=COLORS["tie"], lw=1.2, zorder=1)
    ax.set_ylim(rows.size + 1, 0)
    ax.set_ylabel("sample")
    ax.set_xlabel(xlabel)
    return _finish(ax, title, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2, fontsize=8.5)
