"""Tests of course_lib.interactive: the threshold explorer's data, HTML and behaviour.

The data are checked against course_lib's curves and against scikit-learn's metrics of
the rule ``score >= threshold`` (weights and ties included). The browser test opens a
small page with explorers in headless Chromium, moves the slider with the keyboard and
compares what the page shows with scikit-learn's values at the shown threshold.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

from course_lib import gain_curve, ks_curve, pr_curve, profit_curve, roc_curve
from course_lib.interactive import (
    MAX_PAYLOAD_BYTES,
    MODULE_PATH,
    STYLE_PATH,
    ThresholdExplorer,
    threshold_explorer,
)

ROOT = Path(__file__).resolve().parents[1]
TABLE1 = ([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
SCALAR_METRICS = ("tpr", "fpr", "precision", "recall", "f1", "accuracy",
                  "balanced_accuracy", "mcc")  # fmt: skip


def _sample(seed: int, n: int, *, weighted: bool, decimals: int = 1):
    """Scores rounded so that both classes share many tied values."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(y * 1.0, 1.0), decimals)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    return y.astype(int), s, w


def _expected(y, s, w, t):
    """scikit-learn's view of the rule score >= t: counts and metrics (None = 0/0)."""
    pred = np.asarray(s) >= t
    tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1], sample_weight=w).ravel()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "tpr": skm.recall_score(y, pred, sample_weight=w),
            "recall": skm.recall_score(y, pred, sample_weight=w),
            "fpr": fp / (fp + tn),
            "precision": None if tp + fp == 0 else skm.precision_score(y, pred, sample_weight=w),
            "f1": skm.f1_score(y, pred, sample_weight=w, zero_division=0),
            "accuracy": skm.accuracy_score(y, pred, sample_weight=w),
            "balanced_accuracy": skm.balanced_accuracy_score(y, pred, sample_weight=w),
            "mcc": None if tp + fp in (0, tp + fp + fn + tn)
            else skm.matthews_corrcoef(y, pred, sample_weight=w),
        }  # fmt: skip
    return out


def _check_row(row, expected):
    for key, value in expected.items():
        got = row[key]
        if value is None:
            assert got is None, key
        else:
            assert got == pytest.approx(float(value), rel=1e-9, abs=1e-12), key


# ------------------------------------------------------------------------------- data


def test_table1_every_row_is_the_rule_score_at_least_threshold():
    y, s = TABLE1
    te = threshold_explorer(y, s)
    rows = te.data["rows"]
    assert rows["threshold"] == [None, 0.6, 0.5, 0.3, 0.2, 0.1, 0]
    assert rows["below"] == [0.6, 0.5, 0.3, 0.2, 0.1, 0, None]
    assert te.n_rows == te.data["n_thresholds"] == 7
    for i, t in enumerate(rows["threshold"]):
        _check_row(te.row(i), _expected(y, s, None, np.inf if t is None else t))
    # the KS point (the default): 3 of 3 positives and 2 of 4 negatives at 0.2
    assert te.row()["threshold"] == 0.2 and te.data["ks"] == {"value": 0.5, "threshold": 0.2}


def test_rows_are_the_vertices_of_course_lib_curves():
    y, s, w = _sample(1, 400, weighted=True)
    te = threshold_explorer(y, s, sample_weight=w, curves=("roc", "pr", "gain", "ks"),
                            max_thresholds=1000)
    rows = te.data["rows"]
    roc, gain, pr = roc_curve(y, s, sample_weight=w), gain_curve(y, s, sample_weight=w), \
        pr_curve(y, s, sample_weight=w)
    assert te.n_rows == roc.thresholds.size
    np.testing.assert_allclose(rows["tpr"], roc.tpr, rtol=1e-9)
    np.testing.assert_allclose(rows["fpr"], roc.fpr, rtol=1e-9)
    np.testing.assert_allclose(rows["rate"], gain.rate, rtol=1e-9)
    np.testing.assert_allclose(rows["precision"][1:], pr.precision, rtol=1e-9)
    np.testing.assert_allclose(rows["threshold"][1:], roc.thresholds[1:], rtol=1e-9)
    assert te.data["ks"]["value"] == pytest.approx(ks_curve(y, s, sample_weight=w).ks)


@pytest.mark.parametrize("weighted", [False, True])
def test_rows_agree_with_scikit_learn(weighted):
    y, s, w = _sample(2, 300, weighted=weighted)
    te = threshold_explorer(y, s, sample_weight=w, max_thresholds=1000)
    for i, t in enumerate(te.data["rows"]["threshold"]):
        _check_row(te.row(i), _expected(y, s, w, np.inf if t is None else t))


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40).filter(
        lambda v: 0 < sum(b for b, _ in v) < len(v)
    )
)
def test_counts_add_up_and_move_monotonically(objects):
    y = [int(b) for b, _ in objects]
    s = [k / 4 for _, k in objects]
    rows = threshold_explorer(y, s).data["rows"]
    m1, m0 = sum(y), len(y) - sum(y)
    assert [a + b for a, b in zip(rows["tp"], rows["fn"])] == [m1] * len(rows["tp"])
    assert [a + b for a, b in zip(rows["fp"], rows["tn"])] == [m0] * len(rows["tp"])
    assert rows["tp"][0] == rows["fp"][0] == 0 and rows["tp"][-1] == m1
    assert all(a <= b for a, b in zip(rows["tp"], rows["tp"][1:]))
    assert all(a < b for a, b in zip(rows["rate"], rows["rate"][1:]))


def test_profit_is_course_lib_profit_curve():
    y, s, w = _sample(3, 500, weighted=True)
    te = threshold_explorer(y, s, sample_weight=w, costs=(1, 4), max_thresholds=1000)
    pc = profit_curve(y, s, cost=1, revenue=4, sample_weight=w)
    np.testing.assert_allclose(te.data["rows"]["profit"], pc.profit, rtol=1e-9, atol=1e-9)
    assert "profit" in te.data["curves"]
    assert te.data["costs"]["best_profit"] == pytest.approx(pc.best_profit)
    assert te.row()["threshold"] == pytest.approx(pc.best_threshold)  # default: best profit


@pytest.mark.parametrize(
    "t, expected", [(0.25, 0.3), (0.3, 0.3), (0.61, None), (-1.0, 0), (0.0, 0)]
)
def test_starting_threshold_is_the_row_of_the_rule(t, expected):
    y, s = TABLE1
    assert threshold_explorer(y, s, threshold=t).row()["threshold"] == expected


def test_thinning_keeps_exact_values_at_kept_thresholds():
    y, s, w = _sample(4, 3000, weighted=True, decimals=2)
    full = threshold_explorer(y, s, sample_weight=w, max_thresholds=1000, costs=(1, 3))
    assert full.n_rows == full.data["n_thresholds"] <= 1000
    thin = threshold_explorer(y, s, sample_weight=w, max_thresholds=40, costs=(1, 3))
    assert thin.n_rows <= 40 and thin.data["n_thresholds"] == full.n_rows
    where = {t: i for i, t in enumerate(full.data["rows"]["threshold"])}
    for i, t in enumerate(thin.data["rows"]["threshold"]):
        assert thin.row(i) == full.row(where[t])
    kept = thin.data["rows"]["threshold"]
    assert kept[0] is None and kept[-1] == full.data["rows"]["threshold"][-1]
    assert full.data["ks"]["threshold"] in kept
    assert full.data["costs"]["best_threshold"] in kept
    assert thin.row() == full.row()  # the default row is kept


def test_a_large_sample_stays_under_the_size_limit():
    y, s, w = _sample(5, 100_000, weighted=True, decimals=4)
    te = threshold_explorer(y, s, sample_weight=w, costs=(1, 5),
                            curves=("roc", "pr", "gain", "ks"))
    assert te.n_rows <= 300
    assert te.data["scores"]["kind"] == "hist"
    assert len(te.to_json().encode()) < MAX_PAYLOAD_BYTES
    assert len(te.to_html(include_module=False).encode()) < MAX_PAYLOAD_BYTES


def test_strip_stacks_tied_objects():
    y, s = TABLE1
    points = threshold_explorer(y, s).data["scores"]["points"]
    assert sorted(points) == sorted(
        [[0.6, 1, 0], [0.3, 1, 0], [0.2, 1, 0], [0.5, 0, 0], [0.2, 0, 0], [0.1, 0, 0],
         [0, 0, 0]]
    )
    points = threshold_explorer([1, 1, 0], [0.5, 0.5, 0.1]).data["scores"]["points"]
    assert [p[2] for p in points if p[1] == 1] == [0, 1]


def test_inputs_are_not_modified():
    y, s, w = _sample(6, 50, weighted=True)
    copies = (y.copy(), s.copy(), w.copy())
    threshold_explorer(y, s, sample_weight=w)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------- rendering


def test_same_input_gives_byte_identical_html():
    y, s, w = _sample(7, 200, weighted=True)
    a = threshold_explorer(y, s, sample_weight=w, title="x").to_html()
    b = threshold_explorer(list(y), list(s), sample_weight=list(w), title="x").to_html()
    assert a == b
    c = threshold_explorer(y, s, sample_weight=w, title="y").to_html()
    assert a != c and re.search(r'id="(te-[0-9a-f]{12})"', a).group(1) not in c


def test_html_carries_the_payload_a_fallback_and_the_module_once():
    y, s = TABLE1
    te = threshold_explorer(y, s, title="<Table 1>")
    page = te.to_html()
    payload = re.search(r'<script type="application/json" class="te-data">(.*?)</script>',
                        page, re.S).group(1)
    assert json.loads(payload) == te.data
    assert page.count("data-te-module") == 2  # the style and the guarded script
    assert MODULE_PATH.read_text(encoding="utf-8") in page
    assert STYLE_PATH.read_text(encoding="utf-8") in page
    assert "&lt;Table 1&gt;" in page and "<Table 1>" not in page.replace(payload, "")
    small = te.to_html(include_module=False)
    assert "data-te-module" not in small and len(small) < 4000


def test_the_payload_cannot_close_its_script_tag():
    te = threshold_explorer(*TABLE1, title="</script><b>x")
    assert "</script><b>" not in te.to_json()
    assert json.loads(te.to_json())["title"] == "</script><b>x"


def test_notebook_mimebundle_has_html_and_a_plain_text_summary():
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(threshold_explorer(*TABLE1))
    assert 'class="threshold-explorer"' in data["text/html"]
    text = data["text/plain"]
    assert "threshold 0.2" in text and "TP 3  FN 0" in text and "mcc" in text
    assert "0.5477" in text  # MCC at 0.2: (3 * 2 - 2 * 0) / sqrt(5 * 2 * 3 * 4)


def test_the_book_extension_drops_the_inline_module():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        from docutils import nodes
        from docutils.utils import new_document
        from threshold_explorer_book import drop_inline_module
    finally:
        sys.path.pop(0)
    te = threshold_explorer(*TABLE1)
    doc = new_document("test")
    doc += nodes.raw("", te.to_html(), format="html")
    drop_inline_module(None, doc, "page")
    (raw,) = list(doc.findall(nodes.raw))
    assert raw.astext() == te.to_html(include_module=False)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"curves": ("roc", "lift")}, "unknown curves"),
        ({"curves": "roc"}, "sequence of names"),
        ({"curves": ("roc", "roc")}, "repeats"),
        ({"curves": ("profit",)}, "needs costs"),
        ({"costs": (1,)}, "pair"),
        ({"costs": (1, -2)}, "income per response"),
        ({"costs": (float("nan"), 2)}, "contact cost"),
        ({"max_thresholds": 5}, "between 10 and 1000"),
        ({"max_thresholds": 30.0}, "integer"),
        ({"threshold": float("nan")}, "threshold must be a number"),
        ({"title": 3}, "title"),
    ],
)
def test_invalid_options_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        threshold_explorer(*TABLE1, **kwargs)


def test_invalid_data_is_named():
    with pytest.raises(ValueError, match="only 0 and 1"):
        threshold_explorer([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="different lengths"):
        threshold_explorer([0, 1], [0.1])
    with pytest.raises(ValueError, match="one class|both classes|only one"):
        threshold_explorer([1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"index must be in \[0, 7\)"):
        threshold_explorer(*TABLE1).row(7)


def test_result_type():
    assert isinstance(threshold_explorer(*TABLE1), ThresholdExplorer)


# ----------------------------------------------------------------------------- browser


def js_fixed(value: float, digits: int) -> str:
    """``Number.prototype.toFixed``: the exact binary value, halves away from zero."""
    q = Decimal(1).scaleb(-digits)
    return str(Decimal(value).quantize(q, rounding=ROUND_HALF_UP))


def shown_metric(value) -> str:
    return "undefined" if value is None else js_fixed(value, 4)


def shown_count(value) -> str:
    return str(int(value)) if float(value).is_integer() else js_fixed(value, 2)


def js_str(value) -> str:
    """JavaScript's ``String(x)`` for the short decimals of these tests."""
    v = float(value)
    return str(int(v)) if v.is_integer() else repr(v)


def _round10(v):
    return None if v is None else float(f"{float(v):.10g}")


def read_explorer(locator) -> dict:
    """What one mounted explorer shows: the threshold, the counts and the metrics."""
    out = {"readout": locator.locator(".te-theta").inner_text(),
           "range": locator.locator(".te-range").inner_text()}
    for key in ("tp", "fp", "fn", "tn"):
        out[key] = locator.locator(f'td[data-cell="{key}"] .te-value').inner_text()
    for cell in locator.locator("td[data-metric]").all():
        out[cell.get_attribute("data-metric")] = cell.inner_text()
    return out


def check_shown(shown: dict, y, s, w) -> float:
    """Assert that what an explorer shows equals scikit-learn's values at its threshold;
    return the threshold."""
    text = shown["readout"]
    t = np.inf if text == "\u221e" else float(text)
    exp = _expected(y, s, w, t)
    present = np.unique(s if w is None else s[w > 0])
    lower = present[present < t]
    if t == np.inf:
        assert shown["range"] == (
            f"Any \u03b8 above {js_str(present[-1])}: nobody is called class 1.")
    elif lower.size == 0:
        assert shown["range"] == f"Any \u03b8 at or below {js_str(t)}: everybody is called class 1."
    else:
        assert shown["range"] == (
            f"Any \u03b8 in ({js_str(lower[-1])}, {js_str(t)}] gives these answers.")
    for key in ("tp", "fp", "fn", "tn"):
        assert shown[key] == shown_count(exp[key]), (t, key)
    for key in SCALAR_METRICS:
        if key in shown and key != "recall":
            assert shown[key] == shown_metric(_round10(exp[key])), (t, key, shown[key])
    return t


def open_page(browser, url):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    return page, errors


def walk_with_keyboard(page, explorer, y, s, w) -> set[float]:
    """Press keys on the slider; after each, check the shown values. Returns the
    thresholds visited."""
    slider = explorer.locator("input.te-slider")
    slider.focus()
    seen = {check_shown(read_explorer(explorer), y, s, w)}
    for key in ("End", "ArrowLeft", "ArrowLeft", "Home", "ArrowRight", "ArrowUp",
                "ArrowRight", "PageUp"):
        page.keyboard.press(key)
        seen.add(check_shown(read_explorer(explorer), y, s, w))
    return seen


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("with_static_files", [True, False], ids=["book", "notebook"])
def test_keyboard_moves_the_threshold_and_the_numbers_follow(tmp_path, with_static_files,
                                                            chromium):
    """``book``: the fragments as the book serves them, with the module loaded once from
    static files. ``notebook``: the full notebook outputs, each carrying the module inline
    (as in JupyterLab, where the book's files are absent)."""
    y1, s1 = np.array(TABLE1[0]), np.array(TABLE1[1])
    y2, s2, w2 = _sample(8, 2000, weighted=True, decimals=2)
    cases = [(y1, s1, None, {}), (y2, s2, w2, {"costs": (1, 3), "max_thresholds": 60,
                                                "curves": ("roc", "pr", "gain", "ks")})]
    explorers = [threshold_explorer(y, s, sample_weight=w, **kw) for y, s, w, kw in cases]
    if with_static_files:
        head = (f'<link rel="stylesheet" href="{STYLE_PATH.as_uri()}">'
                f'<script src="{MODULE_PATH.as_uri()}"></script>')
        body = "".join(te.to_html(include_module=False) for te in explorers)
    else:
        head = ""
        body = "".join(te.to_html() for te in explorers)
    html = tmp_path / "page.html"
    html.write_text(f"<!doctype html><html><head><meta charset='utf-8'>{head}</head>"
                    f"<body><main style='max-width:800px'>{body}</main></body></html>",
                    encoding="utf-8")
    page, errors = open_page(chromium, html.as_uri())
    found = page.locator(".threshold-explorer[data-mounted]")
    assert found.count() == 2
    assert page.locator(".te-fallback").count() == 0
    assert page.evaluate("typeof window.ThresholdExplorer.mount") == "function"
    for k, (y, s, w, _) in enumerate(cases):
        seen = walk_with_keyboard(page, found.nth(k), y, s, w)
        assert len(seen) >= 3
        lowest = s.min() if w is None else s[w > 0].min()
        assert np.inf in seen and lowest in seen  # End and Home reach both ends
    profit = found.nth(1).locator('td[data-metric="profit"]').inner_text()
    row = explorers[1].row(int(found.nth(1).get_attribute("data-row")))
    assert profit == shown_count(row["profit"])
    assert found.nth(1).locator("figure.te-chart").count() == 5
    label = found.nth(0).locator("input.te-slider")
    assert label.get_attribute("aria-valuetext").startswith("\u03b8 = ")
    assert page.locator(f'label[for="{label.get_attribute("id")}"]').count() == 1
    assert not errors, errors
