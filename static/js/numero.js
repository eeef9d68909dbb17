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

  document.addEventListener("htmx:afterSettle", function (evt) {
    const path = evt.detail && evt.detail.pathInfo ? evt.detail.pathInfo.requestPath || "" : "";
    if (path.indexOf("/selection/") !== -1) refocus();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    window.setTimeout(refocus, 0);
  });
})();
