/* The threshold explorer of the book (course_lib.interactive.threshold_explorer).
 *
 * Every number comes from the JSON payload that course_lib computed in Python: one row
 * per kept threshold with its counts and metrics. This module only picks the row of the
 * slider's position, formats its numbers and moves markers over curves drawn from the
 * same rows. No metric is computed here. No dependency, no network.
 */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var mounted = 0;

  var METRICS = [
    ["tpr", "TPR (recall)"],
    ["fpr", "FPR"],
    ["precision", "Precision"],
    ["f1", "F1"],
    ["accuracy", "Accuracy"],
    ["balanced_accuracy", "Balanced accuracy"],
    ["mcc", "MCC"],
    ["rate", "Positive rate"]
  ];
  var CHARTS = {
    roc: { title: "ROC curve", x: "fpr", y: "tpr", xl: "FPR", yl: "TPR", diagonal: true },
    pr: { title: "PR curve", x: "recall", y: "precision", xl: "Recall", yl: "Precision" },
    gain: { title: "Gain curve", x: "rate", y: "tpr", xl: "Positive rate", yl: "TPR",
            diagonal: true },
    ks: { title: "KS chart", x: "rate", y: "tpr", y2: "fpr", xl: "Positive rate",
          yl: "TPR and FPR" },
    profit: { title: "Profit", x: "rate", y: "profit", xl: "Positive rate", yl: "Profit" }
  };

  // ------------------------------------------------------------------ formatting
  function metric(v) { return v === null ? "undefined" : v.toFixed(4); }
  function count(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2); }
  function threshold(v) { return v === null ? "\u221e" : String(v); }

  // ---------------------------------------------------------------- DOM helpers
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function extent(values) {
    var lo = Infinity, hi = -Infinity;
    values.forEach(function (v) {
      if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    });
    if (lo === hi) { lo -= 0.5; hi += 0.5; }
    return [lo, hi];
  }
  function scale(domain, range) {
    return function (v) {
      return range[0] + (v - domain[0]) / (domain[1] - domain[0]) * (range[1] - range[0]);
    };
  }

  // ------------------------------------------------------------- the score panel
  function scorePanel(data, width) {
    var scores = data.scores, top = 0;
    if (scores.kind === "strip") {
      scores.points.forEach(function (p) { top = Math.max(top, p[2]); });
    }
    // a strip is as tall as its highest stack of tied objects needs (within limits)
    var half = scores.kind === "strip" ? Math.min(70, Math.max(34, 18 + 10 * (top + 1))) : 70;
    // the drawing is as wide as its place on the page (within limits), so its text stays
    // readable on a phone
    var W = Math.max(320, Math.min(700, width || 600));
    var mid = half + 4, H = 2 * half + 34, L = 10, R = W - 30;
    var values = scores.kind === "strip"
      ? scores.points.map(function (p) { return p[0]; }) : scores.edges;
    var dom = extent(values), pad = (dom[1] - dom[0]) * 0.04;
    var x = scale([dom[0] - pad, dom[1] + pad], [L, R]);
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": "Scores of both classes; class 1 above the axis, class 0 below; " +
                    "objects right of the threshold line are called class 1" });
    var shade = svg("rect", { y: 4, height: H - 30, "class": "te-shade" });
    root.appendChild(shade);
    if (scores.kind === "strip") {
      var step = Math.min(10, (half - 18) / (top + 1)), r = Math.min(4.5, step / 2);
      scores.points.forEach(function (p) {
        var cy = p[1] ? mid - 8 - p[2] * step : mid + 8 + p[2] * step;
        root.appendChild(svg("circle", { cx: x(p[0]), cy: cy, r: r,
          "class": p[1] ? "te-pos" : "te-neg" }));
      });
    } else {
      // each class is drawn to its own tallest bin, so a rare class stays visible
      var hp = scale([0, extent([0].concat(scores.pos))[1]], [0, half - 12]);
      var hn = scale([0, extent([0].concat(scores.neg))[1]], [0, half - 12]);
      for (var i = 0; i < scores.pos.length; i++) {
        var x0 = x(scores.edges[i]), w = Math.max(x(scores.edges[i + 1]) - x0 - 0.5, 0.5);
        root.appendChild(svg("rect", { x: x0, y: mid - 2 - hp(scores.pos[i]), width: w,
          height: hp(scores.pos[i]), "class": "te-pos" }));
        root.appendChild(svg("rect", { x: x0, y: mid + 2, width: w,
          height: hn(scores.neg[i]), "class": "te-neg" }));
      }
    }
    root.appendChild(svg("line", { x1: L, x2: R, y1: mid, y2: mid, "class": "te-axis" }));
    for (var t = 0; t <= 4; t++) {
      var v = dom[0] + (dom[1] - dom[0]) * t / 4;
      root.appendChild(svg("text", { x: x(v), y: H - 10, "class": "te-tick",
        "text-anchor": "middle" }, Number(v.toPrecision(3)).toString()));
    }
    var line = svg("line", { y1: 4, y2: H - 26, "class": "te-threshold-line" });
    var label = svg("text", { y: 14, "class": "te-label te-threshold-text" });
    root.appendChild(line);
    root.appendChild(label);
    return {
      node: root,
      move: function (row) {
        var at = row.threshold === null ? R + 14 : x(row.threshold);
        line.setAttribute("x1", at); line.setAttribute("x2", at);
        shade.setAttribute("x", at); shade.setAttribute("width", Math.max(W - at, 0));
        label.setAttribute("x", Math.min(at + 4, W - 4));
        label.setAttribute("text-anchor", at > W - 80 ? "end" : "start");
        label.textContent = "\u03b8 = " + threshold(row.threshold);
      }
    };
  }

  // ------------------------------------------------------------------- a chart
  function chart(data, name) {
    var spec = CHARTS[name], rows = data.rows;
    var S = 220, L = 38, B = 186, T = 10, R = 212;
    var yDom = name === "profit" ? extent(rows.profit) : [0, 1];
    var x = scale([0, 1], [L, R]), y = scale(yDom, [B, T]);
    var root = svg("svg", { viewBox: "0 0 " + S + " " + S, role: "img",
      "aria-label": spec.title + " with the point of the chosen threshold" });
    root.appendChild(svg("rect", { x: L, y: T, width: R - L, height: B - T, "class": "te-frame" }));
    if (spec.diagonal) {
      root.appendChild(svg("line", { x1: x(0), y1: y(0), x2: x(1), y2: y(1), "class": "te-ref" }));
    }
    if (name === "pr") {
      var p0 = data.totals.prevalence;
      root.appendChild(svg("line", { x1: x(0), y1: y(p0), x2: x(1), y2: y(p0),
        "class": "te-ref" }));
    }
    if (name === "profit" && yDom[0] < 0 && yDom[1] > 0) {
      root.appendChild(svg("line", { x1: x(0), y1: y(0), x2: x(1), y2: y(0), "class": "te-ref" }));
    }
    function path(key, cls) {
      var pts = [];
      for (var i = 0; i < rows[spec.x].length; i++) {
        if (rows[spec.x][i] !== null && rows[key][i] !== null) {
          pts.push(x(rows[spec.x][i]).toFixed(1) + "," + y(rows[key][i]).toFixed(1));
        }
      }
      root.appendChild(svg("polyline", { points: pts.join(" "), "class": cls }));
    }
    path(spec.y, name === "ks" ? "te-curve te-pos-line" : "te-curve");
    if (spec.y2) path(spec.y2, "te-curve te-neg-line");
    var gap = spec.y2 ? svg("line", { "class": "te-gap" }) : null;
    if (gap) root.appendChild(gap);
    var markers = [svg("circle", { r: 5, "class": "te-marker" })];
    if (spec.y2) markers.push(svg("circle", { r: 5, "class": "te-marker" }));
    markers.forEach(function (m) { root.appendChild(m); });
    [[0, L, B + 14, "middle"], [1, R, B + 14, "middle"]].forEach(function (t) {
      root.appendChild(svg("text", { x: t[1], y: t[2], "class": "te-tick",
        "text-anchor": t[3] }, String(t[0])));
    });
    // profit can have long labels: they go inside the frame
    var yt = name === "profit" ? { x: L + 3, a: "start" } : { x: L - 4, a: "end" };
    root.appendChild(svg("text", { x: yt.x, y: B - 2, "class": "te-tick", "text-anchor": yt.a },
      name === "profit" ? count(Number(yDom[0].toPrecision(3))) : "0"));
    root.appendChild(svg("text", { x: yt.x, y: T + 13, "class": "te-tick", "text-anchor": yt.a },
      name === "profit" ? count(Number(yDom[1].toPrecision(3))) : "1"));
    root.appendChild(svg("text", { x: (L + R) / 2, y: S - 2, "class": "te-tick",
      "text-anchor": "middle" }, spec.xl));
    root.appendChild(svg("text", { x: 10, y: (T + B) / 2, "class": "te-tick",
      "text-anchor": "middle", transform: "rotate(-90 10 " + (T + B) / 2 + ")" }, spec.yl));
    var figure = el("figure", { "class": "te-chart", "data-chart": name });
    figure.appendChild(root);
    var caption = spec.title;
    if (name === "ks") caption += " (KS = " + metric(data.ks.value) + ")";
    if (name === "profit") {
      caption += " (best " + count(data.costs.best_profit) + " at \u03b8 = " +
        threshold(data.costs.best_threshold) + ")";
    }
    figure.appendChild(el("figcaption", {}, caption));
    return {
      node: figure,
      move: function (row) {
        [spec.y, spec.y2].forEach(function (key, k) {
          if (!key) return;
          var m = markers[k], v = row[key];
          m.style.display = v === null ? "none" : "";
          if (v !== null) { m.setAttribute("cx", x(row[spec.x])); m.setAttribute("cy", y(v)); }
        });
        if (gap) {
          gap.setAttribute("x1", x(row.rate)); gap.setAttribute("x2", x(row.rate));
          gap.setAttribute("y1", y(row.tpr)); gap.setAttribute("y2", y(row.fpr));
        }
      }
    };
  }

  // ----------------------------------------------------------------- the tables
  function confusionTable() {
    var table = el("table", { "class": "te-confusion" });
    table.appendChild(el("caption", {}, "Confusion matrix"));
    var head = el("tr", {});
    ["", "predicted 0", "predicted 1"].forEach(function (t) {
      head.appendChild(el("th", { scope: "col" }, t));
    });
    var thead = el("thead", {}); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody", {}), cells = {};
    [["true 0", "tn", "fp"], ["true 1", "fn", "tp"]].forEach(function (r) {
      var tr = el("tr", {});
      tr.appendChild(el("th", { scope: "row" }, r[0]));
      r.slice(1).forEach(function (key) {
        var td = el("td", { "data-cell": key, "class": "te-" + key });
        td.appendChild(el("span", { "class": "te-cell-name" }, key.toUpperCase() + " "));
        cells[key] = el("span", { "class": "te-value" });
        td.appendChild(cells[key]);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    return { node: table, move: function (row) {
      for (var key in cells) cells[key].textContent = count(row[key]);
    } };
  }

  function metricsTable(data) {
    var list = METRICS.slice();
    if (data.rows.profit) list.push(["profit", "Profit"]);
    var table = el("table", { "class": "te-metrics" });
    table.appendChild(el("caption", {}, "At this threshold"));
    var body = el("tbody", {}), cells = {};
    list.forEach(function (m) {
      var tr = el("tr", {});
      tr.appendChild(el("th", { scope: "row" }, m[1]));
      cells[m[0]] = el("td", { "data-metric": m[0] });
      tr.appendChild(cells[m[0]]);
      body.appendChild(tr);
    });
    table.appendChild(body);
    return { node: table, move: function (row) {
      for (var key in cells) {
        cells[key].textContent = key === "profit" ? count(row[key]) : metric(row[key]);
      }
    } };
  }

  // --------------------------------------------------------------------- mount
  function mount(root) {
    if (!root || root.getAttribute("data-mounted")) return;
    var source = root.querySelector("script.te-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    root.setAttribute("data-mounted", "1");
    var id = (root.id || "te") + "-" + (++mounted);
    var rows = data.rows, n = rows.threshold.length;
    var fallback = root.querySelector(".te-fallback");
    if (fallback) fallback.remove();

    if (data.title) root.appendChild(el("p", { "class": "te-title" }, data.title));
    var control = el("div", { "class": "te-control" });
    control.appendChild(el("label", { "for": id + "-slider" }, "Threshold \u03b8"));
    // data-lm-suppress-shortcuts: in JupyterLab the arrow keys move the slider, not the
    // notebook's cell selection
    var slider = el("input", { type: "range", id: id + "-slider", min: 0, max: n - 1,
      step: 1, "class": "te-slider", "data-lm-suppress-shortcuts": "true" });
    control.appendChild(slider);
    var readout = el("output", { "for": id + "-slider", "class": "te-readout",
      "aria-live": "polite" });
    readout.appendChild(document.createTextNode("\u03b8 = "));
    var theta = el("span", { "class": "te-theta" });
    readout.appendChild(theta);
    control.appendChild(readout);
    root.appendChild(control);
    var range = el("p", { "class": "te-range" });
    root.appendChild(range);
    root.appendChild(el("p", { "class": "te-help" },
      "Drag the slider or use the arrow keys, Home and End. " +
      "The rule: score \u2265 \u03b8 \u2192 class 1." +
      (n < data.n_thresholds ? " The slider shows " + n + " of the " + data.n_thresholds +
        " thresholds; the values at each are exact." : "")));

    var parts = [scorePanel(data, root.clientWidth)];
    var scores = el("figure", { "class": "te-scores" });
    var legend = el("figcaption", { "class": "te-legend" });
    [["te-pos-text", "\u25cf class 1 (above the axis)"],
     ["te-neg-text", "\u25cf class 0 (below); the axis is the score"],
     ["te-threshold-text", "| threshold: class 1 is called to its right (shaded)"]
    ].concat(data.scores.kind === "hist"
      ? [["te-note", "histograms, each class scaled to its own tallest bar"]] : []
    ).forEach(function (item) { legend.appendChild(el("span", { "class": item[0] }, item[1])); });
    scores.appendChild(legend);
    scores.appendChild(parts[0].node);
    root.appendChild(scores);
    var charts = el("div", { "class": "te-charts" });
    data.curves.forEach(function (name) {
      var c = chart(data, name);
      parts.push(c);
      charts.appendChild(c.node);
    });
    root.appendChild(charts);
    var tables = el("div", { "class": "te-tables" });
    [confusionTable(), metricsTable(data)].forEach(function (t) {
      parts.push(t);
      tables.appendChild(t.node);
    });
    root.appendChild(tables);

    function show(position) {
      var i = n - 1 - position, row = {};
      for (var key in rows) row[key] = rows[key][i];
      root.setAttribute("data-row", i);
      theta.textContent = threshold(row.threshold);
      // row.below is the next lower score: every threshold between gives the same answers
      range.textContent = row.threshold === null
        ? "Any \u03b8 above " + threshold(row.below) + ": nobody is called class 1."
        : row.below === null
          ? "Any \u03b8 at or below " + threshold(row.threshold) + ": everybody is called class 1."
          : "Any \u03b8 in (" + threshold(row.below) + ", " + threshold(row.threshold) +
            "] gives these answers.";
      var text = "\u03b8 = " + threshold(row.threshold) + ". " + range.textContent;
      slider.setAttribute("aria-valuetext", text + " TP " + count(row.tp) + ", FP " +
        count(row.fp) + ", FN " + count(row.fn) + ", TN " + count(row.tn));
      parts.forEach(function (p) { p.move(row); });
    }
    slider.value = String(n - 1 - data["default"]);
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    show(Number(slider.value));
  }

  function mountAll() {
    var nodes = document.querySelectorAll(".threshold-explorer:not([data-mounted])");
    Array.prototype.forEach.call(nodes, mount);
  }

  window.ThresholdExplorer = { mount: mount, mountAll: mountAll };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountAll);
  } else {
    mountAll();
  }
})();
