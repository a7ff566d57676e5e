"use strict";
// mo-mem report: sorts a table when one of its column headers is clicked (or Enter/Space
// pressed on it): numbers largest first, text in order on the first click, reversed on the
// next. Rows with equal keys keep their order. No network, no other effect.
(function () {
  function key(row, col, numeric) {
    var cell = row.cells[col];
    var v = cell ? cell.getAttribute("data-v") : null;
    if (numeric) {
      var n = v === null || v === "" ? NaN : Number(v);
      return isNaN(n) ? -Infinity : n;
    }
    return v !== null ? v : (cell ? cell.textContent : "");
  }
  function sortBy(th) {
    var table = th.closest("table");
    var body = table.tBodies[0];
    var col = th.cellIndex;
    var numeric = th.getAttribute("data-type") === "num";
    var was = th.getAttribute("aria-sort");
    var descending = was ? was === "ascending" : numeric;
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return { row: row, key: key(row, col, numeric), i: i };
    });
    rows.sort(function (a, b) {
      var c = numeric ? a.key - b.key : (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      if (descending) c = -c;
      return c !== 0 ? c : a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }
  function header(target) {
    var th = target && target.closest ? target.closest("th") : null;
    return th && th.closest("table.mm-sortable") ? th : null;
  }
  document.addEventListener("click", function (e) {
    var th = header(e.target);
    if (th) sortBy(th);
  });
  document.addEventListener("keydown", function (e) {
    var th = header(e.target);
    if (th && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      sortBy(th);
    }
  });
})();
