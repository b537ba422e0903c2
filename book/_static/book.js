// Marks numeric table columns (see book.css): a column whose body cells are all numbers,
// percentages, exact fractions or empty, with at least one number, gets the class "num"
// on every cell and on its header, so both are right-aligned. Runs once per page, offline.
(function () {
  "use strict";
  var NUMBER = /^[-\u2212+]?(\d[\d,\u202f\u00a0]*(\.\d*)?|\.\d+)(e[-\u2212+]?\d+)?\s*%?$|^[-\u2212+]?\d+\s*\/\s*\d+$|^[-\u2212+]?(inf|nan)$/i;
  var EMPTY = /^(|\u2014|-|NaN|None|<NA>)$/;

  function cellsOfColumn(table, index) {
    var cells = [];
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var col = 0;
      for (var i = 0; i < row.cells.length; i++) {
        var cell = row.cells[i];
        if (col === index) { cells.push(cell); break; }
        col += cell.colSpan || 1;
      }
    });
    return cells;
  }

  function markTable(table) {
    var rows = table.querySelectorAll("tbody tr");
    if (!rows.length) return;
    var width = 0;
    rows.forEach(function (row) {
      var w = 0;
      for (var i = 0; i < row.cells.length; i++) w += row.cells[i].colSpan || 1;
      width = Math.max(width, w);
    });
    for (var index = 0; index < width; index++) {
      var cells = cellsOfColumn(table, index);
      // A pandas index (<th> cells in the body) stays left-aligned like its name.
      if (cells.some(function (cell) { return cell.tagName === "TH"; })) continue;
      var numbers = 0, other = 0;
      cells.forEach(function (cell) {
        var text = cell.textContent.trim();
        if (NUMBER.test(text)) numbers++;
        else if (!EMPTY.test(text)) other++;
      });
      if (numbers === 0 || other > 0) continue;
      cells.forEach(function (cell) { cell.classList.add("num"); });
      table.querySelectorAll("thead tr").forEach(function (row) {
        // Header rows of pandas and MyST tables have one cell per column.
        if (row.cells.length === width && row.cells[index]) row.cells[index].classList.add("num");
      });
    }
  }

  function run() {
    document.querySelectorAll(
      ".bd-article table.dataframe, .bd-article table.table, .bd-article table.docutils"
    ).forEach(markTable);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
