// Smooth Operator table: keep keyboard focus on the board. Every move re-draws the board over
// the WebSocket; app.js puts focus back on an element with the same id (the controls have
// stable ids: so-<card>-<n>, so-end-turn). When that control is gone (the card was played,
// or it is someone else's turn), focus goes to the next thing to do instead of the top of the
// page: an answer box, a card that can be played, a special card's button, "End my turn".
(function () {
  "use strict";
  const NEXT = [
    "#table-board .so-board .so-playable input.mm-answer",
    "#table-board .so-board .so-playable button:not([disabled])",
    "#table-board .so-board #so-end-turn",
  ];

  function lost() {
    const active = document.activeElement;
    return !active || active === document.body || active.disabled || !document.body.contains(active);
  }

  function refocus() {
    if (!document.querySelector("#table-board .so-board") || !lost()) return;
    for (const selector of NEXT) {
      const el = document.querySelector(selector);
      if (el) { el.focus(); return; }
    }
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    window.setTimeout(refocus, 0);
  });
})();
