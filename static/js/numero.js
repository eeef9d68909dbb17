// Numero table: keep keyboard focus somewhere useful. A tap swaps in a new play area (htmx
// keeps focus on an element with the same id); when that element is gone or now disabled,
// or a move re-drew the whole board, focus goes to the next thing to tap instead of the page.
(function () {
  "use strict";
  const NEXT = [
    "#numero-play .nm-centre button:not([disabled])[aria-pressed=false]",
    "#numero-play .nm-centre button.nm-target",
    "#numero-play #nm-take:not([disabled])",
    "#numero-play #nm-build:not([disabled])",
    "#numero-play .nm-hand button[aria-pressed=true]",
    "#numero-play .nm-hand button",
  ];

  function lost() {
    const active = document.activeElement;
    return !active || active === document.body || active.disabled || !document.body.contains(active);
  }

  function refocus() {
    if (!document.getElementById("numero-play") || !lost()) return;
    for (const selector of NEXT) {
      const el = document.querySelector(selector);
      if (el) { el.focus(); return; }
    }
  }

  function selectionPath(evt) {
    const path = evt.detail && evt.detail.pathInfo ? evt.detail.pathInfo.requestPath || "" : "";
    return path.indexOf("/selection/") !== -1 ? path : "";
  }

  // The cards picked so far live on the server's answer to the last tap (its query). A push
  // re-draws the play area as nothing picked; unless the push followed the child's own move
  // (data-fresh-choices), the same picks are asked for again, and the server either shows
  // them on the new table or says in words why they can no longer be made.
  let picked = "";
  let boardCame = false;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    const message = evt.detail && typeof evt.detail.message === "string" ? evt.detail.message : "";
    boardCame = message.indexOf('id="table-board"') !== -1;
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    const path = selectionPath(evt);
    if (!path) return;
    picked = path.indexOf("?") !== -1 ? path : "";
    refocus();
  });
  // A refused pick comes back as 400 with the play area and the reason: show it.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (selectionPath(evt) && evt.detail.xhr && evt.detail.xhr.status === 400) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    const board = document.getElementById("table-board");
    if (board && board.hasAttribute("data-fresh-choices")) picked = "";
    if (boardCame && picked && document.getElementById("numero-play") && window.htmx) {
      window.htmx.ajax("GET", picked, { target: "#numero-play", swap: "outerHTML" });
      return;
    }
    window.setTimeout(refocus, 0);
  });
})();
