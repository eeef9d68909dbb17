// The class arena's clock, on the projector and on the teacher's own screen.
// The server sends the time left with every live part (#arena-screen-live by the socket,
// #arena-control-live by polling): data-status, data-ends-at, data-seconds-left, and
// data-ended-early when the teacher ended it. While the arena runs, the clock counts down
// here each second from the seconds left, measured against this browser's own clock from the
// moment the part arrived (so a projector whose clock is wrong still shows the right time);
// before the start it stands at the arena's whole length. The ticking digits are hidden from
// screen readers; a quiet status says the minutes left once a minute. No inline script: this
// file is loaded with defer, after the /jsi18n/ catalogue (gettext, ngettext, pgettext,
// interpolate: the page's language).
(function () {
  "use strict";
  let source = null;   // {status, endedEarly, left (s), deadline (ms, performance clock)}
  let lastMinute = null;
  let lastStatus = null;  // a new status (paused -> running) says the minutes left again
  let timer = null;
  let sending = false;  // the teacher pressed a control: its page is on its way

  function liveElement() {
    return document.getElementById("arena-screen-live") || document.getElementById("arena-control-live");
  }

  function read() {
    const el = liveElement();
    if (!el) return;
    const seconds = parseInt(el.dataset.secondsLeft, 10);
    let left = isNaN(seconds) ? null : seconds;
    if (left === null && el.dataset.endsAt) {
      left = Math.max(0, Math.round((Date.parse(el.dataset.endsAt) - Date.now()) / 1000));
    }
    source = { status: el.dataset.status, endedEarly: el.dataset.endedEarly === "1",
               left: left || 0, deadline: performance.now() + (left || 0) * 1000 };
    // The teacher's page: its buttons belong to one status. When the arena moved on by
    // itself (the time ran out, the last game ended), load the page again.
    // Not while a control the teacher pressed is being sent: its answer is the next page, and
    // a reload now would cancel it (its message would never show).
    const page = document.querySelector("[data-arena-control]");
    if (page && el.id === "arena-control-live" && page.dataset.pageStatus !== source.status
        && !sending && !document.querySelector("details[open], #confirm-out")) {
      window.location.reload();
      return;
    }
    tick();
  }

  function mmss(total) {
    const m = Math.floor(total / 60);
    const s = total % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function say(words) {
    document.querySelectorAll("[data-arena-clock-status]").forEach(function (el) {
      if (el.textContent !== words) el.textContent = words;
    });
  }

  function tick() {
    if (!source) return;
    const clocks = document.querySelectorAll("[data-arena-clock]");
    if (!clocks.length) return;
    let text;
    let words = null;
    const left = Math.max(0, Math.ceil((source.deadline - performance.now()) / 1000));
    if (source.status !== lastStatus) {
      lastStatus = source.status;
      lastMinute = null;
    }
    if (source.status === "paused") {
      text = pgettext("the arena's clock", "Paused");
      words = gettext("The arena is paused.");
    } else if (source.status === "finished") {
      text = pgettext("the arena's clock", "Finished!");
      words = gettext("The arena has finished.");
    } else if (source.status === "finishing" && source.endedEarly) {
      text = pgettext("the arena's clock", "Ended early");
      words = gettext("The teacher ended the arena: the last games are finishing.");
    } else if (source.status === "finishing") {
      text = pgettext("the arena's clock", "Time's up!");
      words = gettext("Time is up: the last games are finishing.");
    } else if (source.status === "open") {
      // Not started: the clock shows the whole length and stands still until Start.
      text = mmss(source.left);
      words = gettext("Not started yet.");
    } else {
      text = mmss(left);
      const minute = Math.ceil(left / 60);
      if (minute !== lastMinute) {
        lastMinute = minute;
        words = left > 0
          ? interpolate(ngettext("%(count)s minute left.", "%(count)s minutes left.", minute), { count: minute }, true)
          : gettext("Time is up.");
      }
    }
    clocks.forEach(function (el) {
      if (el.textContent !== text) el.textContent = text;
      el.dataset.state = source.status;
    });
    if (words) say(words);
  }

  // The teacher's page: the live part is swapped every 2 s; the button that had focus (each
  // has a stable id) gets it back.
  let focusedId = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    const active = document.activeElement;
    focusedId = active && active.id && evt.target.contains(active) ? active.id : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (focusedId) {
      const again = document.getElementById(focusedId);
      if (again && document.activeElement !== again) again.focus();
      focusedId = null;
    }
    read();
  });
  document.addEventListener("htmx:wsAfterMessage", read);
  // A control is a form htmx sends ({% sends_once %}); its answer sends the page on (an
  // HX-Redirect), or comes back here with words for the teacher. A form sent without htmx
  // (it has not loaded yet) is a plain submit.
  document.addEventListener("submit", function (evt) {
    if (!evt.defaultPrevented) sending = true;
  });
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.target.tagName === "FORM") sending = true;
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.target.tagName === "FORM" && !evt.detail.xhr.getResponseHeader("HX-Redirect")) sending = false;
  });
  window.addEventListener("pageshow", function () { sending = false; });  // Back to this page
  document.addEventListener("DOMContentLoaded", function () {
    read();
    if (!timer) timer = window.setInterval(tick, 1000);
  });
})();
