// The book's generated tables (class tl-datatable) become sortable, searchable and paged
// with DataTables; a table with data-panes="i,j,k" also gets SearchPanes on those
// columns (the claims table: study, protocol, verdict); data-simple="true" keeps a small
// table to sorting. No other behaviour.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const table of document.querySelectorAll("table.tl-datatable")) {
    const panes = (table.dataset.panes || "").split(",").filter((s) => s !== "").map(Number);
    const options = {
      order: [],
      pageLength: Number(table.dataset.pageLength || 10),
      lengthMenu: [[10, 25, 50, 100, -1], [10, 25, 50, 100, "All"]],
      scrollX: true,
      autoWidth: false,
    };
    if (table.dataset.simple === "true") {
      Object.assign(options, { paging: false, searching: false, info: false });
    }
    if (panes.length) {
      options.searchPanes = {
        columns: panes,
        cascadePanes: true,
        viewTotal: true,
        initCollapsed: false,
        layout: `columns-${Math.min(panes.length, 4)}`,
      };
      options.layout = { top1: "searchPanes" };
    }
    new DataTable(table, options);
  }
});
