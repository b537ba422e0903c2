// Marks numeric table columns (see book.css): a column whose body cells are all numbers,
// percentages, exact fractions or empty, with at least one number, gets the class "num"
// on every cell and on its header, so both are right-aligned. Runs once per page, offline.
(function () {
  "use strict";
  var NUMBER = /^[-\u2212+]?(\d[\d,\u202f\u00a0]*(\.\d*)?|\.\d+)(e[-\u2212+]?\d+)?\s*%?$|^[-\u2212+]?\d+\s*\/\s*\d+$|^[-\u2212+]?(inf|nan)$/i;
  var EMPTY = /^(|\u2014|-|NaN|None|<NA>)$/;

  // The body as a grid of columns: a cell spanning rows (the group labels of a pandas
  // MultiIndex) or columns occupies every slot it covers, so the cells of a row that
  // follows a row-spanning label still fall in their own columns.
  function bodyGrid(table) {
    var grid = [], carry = [];
    table.querySelectorAll("tbody tr").forEach(function (row) {
      var line = [], col = 0, i = 0;
      while (i < row.cells.length || carry[col] > 0) {
        if (carry[col] > 0) { carry[col]--; line[col] = null; col++; continue; }
        var cell = row.cells[i++], span = cell.colSpan || 1, down = (cell.rowSpan || 1) - 1;
        for (var k = 0; k < span; k++) { line[col + k] = k === 0 ? cell : null; carry[col + k] = down; }
        col += span;
      }
      grid.push(line);
    });
    return grid;
  }

  function markTable(table) {
    var grid = bodyGrid(table);
    if (!grid.length) return;
    var width = 0;
    grid.forEach(function (line) { width = Math.max(width, line.length); });
    for (var index = 0; index < width; index++) {
      var cells = [];
      grid.forEach(function (line) { if (line[index]) cells.push(line[index]); });
      // A pandas index (<th> cells in the body) stays left-aligned like its name.
      if (!cells.length || cells.some(function (cell) { return cell.tagName === "TH"; })) continue;
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
