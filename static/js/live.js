// The live pages' protocol (docs/live.md): every page that updates itself over a WebSocket
// (a game table and its lobby, the teacher's dashboard, the arena's pages) opens it with
// htmx's ws extension and hx-ext="live". This file is the one place that knows the protocol:
// - the envelope: each frame starts with <template data-live=TYPE data-version=N
//   data-parts=...>; it is taken off before htmx swaps the parts by id, and the version kept
//   on the socket's element (data-live-version);
// - closing: what the page does and says for each close code comes from the server's one
//   table (live/close_codes.py, rendered into every live page, with that page's own words, as
//   #live-close-codes): "reconnect"
//   after a growing, random pause, "retried" (the extension reconnects by itself), "stop"
//   (say why and stay closed); any other code reloads the page after a moment;
// - resend: a move sent with an idempotency key is kept until the server answers it (a newer
//   version, or the notice the socket's data-live-notice names); every time the socket opens
//   again it is sent again. The server
//   applies a move once per key, so it counts exactly once however many drops it takes;
// - resync: a page that has heard nothing for SYNC_AFTER_MS while it waits (a move
//   unanswered, or data-live-waits-for matching: another player's turn) sends
//   {"sync": version}, and so does every page when it is looked at again; the server sends
//   what the page lacks. devtools/bench/faults.py's client does the same.
(function () {
  "use strict";
  const HEADER = /^<template data-live="([^"]*)" data-version="([^"]*)" data-parts="([^"]*)"><\/template>/;
  const SYNC_AFTER_MS = 5000;
  const RELOAD_AFTER_MS = 1500;

  let table = null;
  function closeCodes() {
    if (table) return table;
    table = {};
    const data = document.getElementById("live-close-codes");
    try { JSON.parse(data ? data.textContent : "[]").forEach(function (row) { table[row.code] = row; }); } catch (e) { table = {}; }
    return table;
  }

  function liveSocket(elt) { return elt && elt.closest ? elt.closest("[ws-connect]") : null; }
  function pageKind(socket) { return socket.closest("[data-dashboard]") ? "dashboard" : "game"; }
  function label(socket) {
    return socket.querySelector("[data-connection]") ||
      (pageKind(socket) === "dashboard" ? document.getElementById("dash-connection") : null);
  }
  function says(row) { return row ? row.says : ""; }
  function version(socket) {
    const v = parseInt(socket.dataset.liveVersion, 10);
    return isNaN(v) ? 0 : v;
  }

  if (window.htmx) {
    window.htmx.defineExtension("live", {
      transformResponse: function (text, xhr, elt) {
        const found = typeof text === "string" ? HEADER.exec(text) : null;
        if (!found) return text;
        const socket = liveSocket(elt) || elt;
        if (found[2] !== "") socket.dataset.liveVersion = found[2];
        return text.slice(found[0].length);
      }
    });
  }

  let leaving = false;
  window.addEventListener("beforeunload", function () { leaving = true; });

  // ----- open and close ---------------------------------------------------------------------
  const sockets = new Map();  // socket element -> {wrapper, heard, reconnects}
  let pending = null;  // {socket, message, version, dropped}: the move not answered yet

  document.addEventListener("htmx:wsOpen", function (evt) {
    const socket = evt.target;
    const state = sockets.get(socket) || { reconnects: 0 };
    state.wrapper = evt.detail.socketWrapper;
    state.heard = Date.now();
    state.reconnects = 0;
    sockets.set(socket, state);
    const line = socket.querySelector("[data-connection]");
    if (line) { line.textContent = gettext("Connected"); line.dataset.state = "open"; }
    if (pending && pending.dropped && pending.socket === socket) {
      pending.dropped = false;
      state.wrapper.send(pending.message);
    }
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    const socket = evt.target;
    const state = sockets.get(socket) || { reconnects: 0 };
    state.wrapper = null;
    sockets.set(socket, state);
    if (pending && pending.socket === socket) pending.dropped = true;
    const code = evt.detail && evt.detail.event ? evt.detail.event.code : 1006;
    const codes = closeCodes();
    const row = codes[code];
    const then = row ? row.then : "reload";
    const line = label(socket);
    if (line) {
      line.textContent = says(row || codes[1006]);
      line.dataset.state = "closed";
    }
    if (then === "reconnect" && evt.detail.socketWrapper) {
      const pause = Math.random() * 1000 * Math.pow(2, Math.min(state.reconnects, 5));
      state.reconnects += 1;
      window.setTimeout(function () {
        if (document.body.contains(socket)) evt.detail.socketWrapper.reconnect();
      }, pause);
    } else if (then === "reload" && !leaving) {
      // The server sends the whole state on every connect: a fresh page is as good.
      window.setTimeout(function () { if (!leaving) window.location.reload(); }, RELOAD_AFTER_MS);
    }
  });

  // ----- resend -----------------------------------------------------------------------------
  document.addEventListener("htmx:wsAfterSend", function (evt) {
    let data = null;
    try { data = JSON.parse(evt.detail.message); } catch (e) { data = null; }
    const socket = liveSocket(evt.target);
    const state = socket ? sockets.get(socket) : null;
    if (state) state.heard = Date.now();
    if (!data || !data.idempotency_key || data.expected_version === undefined) return;
    pending = { socket: socket, message: evt.detail.message,
                version: parseInt(data.expected_version, 10), dropped: false };
  });

  document.addEventListener("htmx:wsAfterMessage", function (evt) {
    const socket = liveSocket(evt.target);
    const state = socket ? sockets.get(socket) : null;
    if (state) state.heard = Date.now();
    if (!pending || pending.socket !== socket) return;
    // Answered: a newer version came, or the server said why not (the notice part).
    const notice = socket.dataset.liveNotice ? document.querySelector(socket.dataset.liveNotice) : null;
    if (version(socket) > pending.version || notice) pending = null;
  });

  // ----- resync -----------------------------------------------------------------------------
  function sync(socket, state) {
    if (!state || !state.wrapper) return;
    state.heard = Date.now();
    state.wrapper.send(JSON.stringify({ sync: version(socket) }));
  }
  function waiting(socket) {
    if (pending && pending.socket === socket) return true;
    const selector = socket.dataset.liveWaitsFor;
    return Boolean(selector && document.querySelector(selector));
  }
  window.setInterval(function () {
    sockets.forEach(function (state, socket) {
      if (state.wrapper && Date.now() - state.heard >= SYNC_AFTER_MS && waiting(socket)) sync(socket, state);
    });
  }, 1000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    sockets.forEach(function (state, socket) { sync(socket, state); });
  });
})();
