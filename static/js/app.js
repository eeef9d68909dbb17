// Small progressive enhancements. Every control is a real button or link and works by keyboard.
(function () {
  "use strict";

  // Picture password: tap three pictures; each tap fills the next slot.
  function setUpPicturePassword(root) {
    const form = root.querySelector(".picture-form");
    if (!form) return;
    const slots = Array.from(root.querySelectorAll("[data-slot]"));
    const inputs = root.querySelector("[data-picture-inputs]");
    const submit = root.querySelector("[data-picture-submit]");
    const status = root.querySelector("[data-picture-status]");
    let chosen = [];

    function render() {
      inputs.innerHTML = "";
      slots.forEach(function (slot, i) {
        const pick = chosen[i];
        slot.classList.toggle("slot-filled", Boolean(pick));
        slot.textContent = pick ? pick.label : String(i + 1);
      });
      chosen.forEach(function (pick) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = "picture";
        input.value = pick.key;
        inputs.appendChild(input);
      });
      submit.disabled = chosen.length !== 3;
      status.textContent = chosen.length
        ? interpolate(gettext("Chosen: %(pictures)s."),
                      {pictures: chosen.map(function (p) { return p.label; }).join(", ")}, true)
        : gettext("No pictures chosen yet.");
    }

    // The buttons come disabled: a tap before this script ran would do nothing, so they are
    // only offered once a tap counts.
    root.querySelectorAll("[data-picture]").forEach(function (button) {
      button.disabled = false;
      button.addEventListener("click", function () {
        if (chosen.length >= 3) return;
        chosen.push({ key: button.dataset.picture, label: button.dataset.label });
        render();
        if (chosen.length === 3) submit.focus();
      });
    });
    const clear = root.querySelector("[data-picture-clear]");
    clear.disabled = false;
    clear.addEventListener("click", function () {
      chosen = [];
      render();
    });
    form.addEventListener("submit", function () {
      submit.disabled = true;
      submit.textContent = gettext("Checking…");
    });
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-picture-password]").forEach(setUpPicturePassword);
  });

  // A game's own fields (levels, options) come with the game chosen in its select
  // (data-fields-for). A choice made before htmx was ready sent no request, so the fields
  // would belong to another game: ask for the right ones once htmx listens.
  function syncGameFields(root) {
    root.querySelectorAll("select[data-fields-for]").forEach(function (select) {
      if (select.value !== select.dataset.fieldsFor) htmx.trigger(select, "change");
    });
  }
  if (window.htmx) htmx.onLoad(syncGameFields);
})();

// Live pages: keep keyboard focus where it was when the server swaps in new parts (elements
// keep stable ids between renders), and go where a pushed part says (data-go). Connecting,
// closing, resending and resyncing are static/js/live.js's.
(function () {
  "use strict";
  let focusedId = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    focusedId = document.activeElement && document.activeElement.id ? document.activeElement.id : null;
  });
  // One visit at a time: a sent form's answer (HX-Redirect, a lobby's "Start") and the push
  // that the same change sends (data-go) name the same next page, and a second visit begun
  // while the first loads would cancel it.
  let goingTo = null;
  function absolute(url) { return new URL(url, window.location.href).href; }
  function visit(url) {
    if (goingTo === absolute(url)) return;
    goingTo = absolute(url);
    window.location.assign(url);
  }
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const next = event.detail.xhr.getResponseHeader("HX-Redirect");
    if (!next) return;
    if (goingTo === absolute(next)) { event.preventDefault(); return; }  // already on the way
    goingTo = absolute(next);  // htmx goes there
  });
  window.addEventListener("pageshow", function () { goingTo = null; });  // Back to this page
  let goScheduledTo = null;
  function goAfterPause(go) {
    const url = go.dataset.go;
    if (goScheduledTo === url) return;
    goScheduledTo = url;
    window.setTimeout(function () {
      // Still told to go there (a later push may have taken the element away).
      const still = document.querySelector("[data-go]");
      if (still && still.dataset.go === url) visit(url);
    }, parseFloat(go.dataset.goAfter) * 1000);
  }
  // A page opened just after its arena game ended (the server renders data-go-after only
  // then) moves on too, even if no message comes over its socket.
  document.addEventListener("DOMContentLoaded", function () {
    const go = document.querySelector("[data-go][data-go-after]");
    if (go && parseFloat(go.dataset.goAfter) > 0) goAfterPause(go);
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    // A lobby whose game has started (or an arena that seated this student) says where the
    // table is: go there. With data-go-after="3" (a finished arena game: the next one is
    // coming) the page waits that many seconds first; the element keeps a link to go now.
    const go = document.querySelector("[data-go]");
    if (go) {
      if (!(parseFloat(go.dataset.goAfter || "0") > 0)) { visit(go.dataset.go); return; }
      goAfterPause(go);
    }
    if (!focusedId) return;
    const again = document.getElementById(focusedId);
    if (again && document.activeElement !== again) again.focus();
  });
  // A move is on its way: show it, and don't let a second tap send it twice.
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    const form = evt.detail.elt.closest ? evt.detail.elt.closest("form") : null;
    if (form) {
      form.classList.add("is-sending");
      form.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-busy", "true"); });
    }
  });
})();

// Game tables: keep keyboard focus somewhere useful. When a swap took away the focused control
// (it was played, or is now disabled, or the whole area was re-drawn), focus goes to the next
// thing to do instead of the top of the page: the first match of the game's own list, the
// table page's data-focus-next (GameSpec.focus_next), else the board's place to wait
// (data-focus-park). It runs after focus went back to an element with the same id, when there
// was one (above).
//
// A game with a selection hook (GameSpec.selection: Numero's picks) keeps what the child has
// picked so far on the server's answer to the last tap (its query). A push re-draws that area
// as nothing picked; unless the push followed the child's own move (data-fresh-choices), the
// same picks are asked for again, and the server either shows them on the new table or says in
// words why they can no longer be made.
(function () {
  "use strict";
  // Focus "parked" on a place of the board (data-focus-park, tabindex=-1: the results' title,
  // the hand's title) is where the keyboard waits while there is nothing to do: the next push
  // that brings something to do moves it on, as if it had been lost.
  function parked(el) {
    return el instanceof Element && el.hasAttribute("data-focus-park");
  }

  function lost() {
    const active = document.activeElement;
    return !active || active === document.body || active.disabled || !document.body.contains(active) ||
      parked(active);
  }

  // Was focus on something before this push (not on the page as a whole)? Only then did the
  // swap take it away; a page nobody has tabbed or tapped in yet is left alone.
  let hadFocus = false;

  function refocus() {
    const table = document.querySelector("[data-focus-next]");
    if (!table || !lost()) return;
    let order = [];
    try { order = JSON.parse(table.dataset.focusNext); } catch (e) { return; }
    for (const selector of order) {
      const el = document.querySelector(selector);
      if (el) { el.focus(); return; }
    }
    // Nothing to do now (the others are playing, or the game is over): focus waits on the
    // board, where the next thing to do will come, instead of falling to the top of the page.
    const park = document.querySelector("#table-board [data-focus-park]");
    if (park && hadFocus && document.activeElement !== park) park.focus();
  }

  function selectionPath(evt) {
    const path = evt.detail && evt.detail.pathInfo ? evt.detail.pathInfo.requestPath || "" : "";
    return path.indexOf("/selection/") !== -1 ? path : "";
  }

  let picked = null;  // {path, target}: the last tap's request and the area it re-drew
  let boardCame = false;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    const message = evt.detail && typeof evt.detail.message === "string" ? evt.detail.message : "";
    boardCame = message.indexOf('id="table-board"') !== -1;
    const active = document.activeElement;
    hadFocus = Boolean(active && active !== document.body && active !== document.documentElement);
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    const path = selectionPath(evt);
    if (!path) return;
    const area = evt.detail.target && evt.detail.target.id ? "#" + evt.detail.target.id : "";
    picked = path.indexOf("?") !== -1 && area ? { path: path, target: area } : null;
    refocus();
  });
  // A refused pick comes back as 400 with the area and the reason: show it.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (selectionPath(evt) && evt.detail.xhr && evt.detail.xhr.status === 400) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    const board = document.getElementById("table-board");
    if (board && board.hasAttribute("data-fresh-choices")) picked = null;
    if (boardCame && picked && document.querySelector(picked.target) && window.htmx) {
      window.htmx.ajax("GET", picked.path, { target: picked.target, swap: "outerHTML" });
      return;  // its answer settles, and focus is seen to then
    }
    window.setTimeout(refocus, 0);
  });
})();

// Forms htmx sends ({% sends_once %}, accounts/templatetags/form_sending.py), the class page's
// progress, and the print button of the sign-in cards page.
(function () {
  "use strict";

  // A form's page drawn again with its errors comes back as a 400 (a wrong arena code, say),
  // and a refused or unavailable request with a page that says so (403, 503): htmx swaps only
  // 2xx answers by itself, and a form whose answer it dropped would look as if nothing happened.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.boosted && event.detail.xhr.status >= 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // Back to a page the browser kept (its back-forward cache) after one of its forms sent us
  // on: that page is from before the form did its work (a student added, a game started), and
  // htmx left its button disabled for the visit that followed. Load it afresh.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("[data-disabled-by-htmx], .htmx-request")) {
      window.location.reload();
    }
  });

  // The class page's progress is fetched again when the page is looked at again (its
  // hx-trigger listens for "page-visible": a trigger filter would need eval, which the policy
  // refuses).
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") document.dispatchEvent(new CustomEvent("page-visible"));
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
})();

// Assignment form: show only the fields that matter for the choices made. Without JavaScript
// every field shows, and the server ignores the ones that do not apply.
(function () {
  "use strict";

  function update(form) {
    form.querySelectorAll("[data-show-if]").forEach(function (block) {
      const parts = block.dataset.showIf.split(":");
      const chosen = form.querySelector("input[name='" + parts[0] + "']:checked");
      const show = !chosen || parts[1].split(",").indexOf(chosen.value) !== -1;
      block.hidden = !show;
    });
  }

  function setUp(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (!form.querySelector("[data-show-if]") || form.dataset.showIfReady) return;
      form.dataset.showIfReady = "1";
      form.addEventListener("change", function () { update(form); });
      update(form);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  // The fields are swapped in by htmx when the game changes.
  document.addEventListener("htmx:afterSettle", function (event) {
    const form = event.target.closest("form");
    if (form) update(form);
  });
})();

// Composite moves (a card plus its declaration, a choice per opponent): a form marked
// data-compose='{"type": ...}' builds its action from fields named act-<key>[.<subkey>].
// data-types maps keys to "int" or "auto" (digits become numbers); data-lists names keys
// that collect several fields into a list. The server checks everything again.
(function () {
  "use strict";
  function convert(value, type) {
    if (type === "int") return /^-?\d+$/.test(value) ? parseInt(value, 10) : value;
    if (type === "auto") return /^\d+$/.test(value) ? parseInt(value, 10) : value;
    return value;
  }
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    const form = evt.detail.elt.closest ? evt.detail.elt.closest("form[data-compose]") : null;
    if (!form) return;
    const action = JSON.parse(form.dataset.compose);
    const types = JSON.parse(form.dataset.types || "{}");
    const lists = (form.dataset.lists || "").split(" ").filter(Boolean);
    const data = new FormData(form);
    data.forEach(function (raw, name) {
      if (!name.startsWith("act-")) return;
      const path = name.slice(4).split(".");
      const value = convert(String(raw), types[path[0]] || "str");
      if (lists.indexOf(path[0]) >= 0) {
        (action[path[0]] = action[path[0]] || []).push(value);
      } else if (path.length === 2) {
        (action[path[0]] = action[path[0]] || {})[path[1]] = value;
      } else {
        action[path[0]] = value;
      }
    });
    const params = { action: JSON.stringify(action),
                     expected_version: data.get("expected_version"),
                     idempotency_key: data.get("idempotency_key") };
    if (data.get("answer") !== null && data.get("answer") !== "") params.answer = data.get("answer");
    evt.detail.parameters = params;
  });
  // Required choices missing: let the browser say which, in plain words, at the field.
  document.addEventListener("htmx:validation:halted", function (evt) {
    const form = evt.target.closest ? evt.target.closest("form") : null;
    if (form) form.reportValidity();
  });
})();

// A child's half-made choice survives pushes. The board arrives as a morph (idiomorph,
// hx-swap-oob="morph"): the page keeps its elements and only what changed is updated. By
// itself a morph would also put every control back as the server rendered it ("Choose…"), so
// before a control is morphed its live state (a picked card, a chosen number, a typed answer)
// is copied onto the incoming one, when that choice is still on offer. After the child's own
// move was applied the server marks the board data-fresh-choices, and the next decision
// starts afresh. A choice that is no longer on offer is dropped and the child is told in words.
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  let lost = [];

  function userControl(el) {
    return (el instanceof HTMLInputElement && el.type !== "hidden" && el.type !== "submit") ||
      el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
  }
  function freshBoard(node) {
    return Boolean(node.closest && node.closest("[data-fresh-choices]"));
  }
  function words(el) {
    const label = el.labels && el.labels[0] ? el.labels[0].textContent : (el.closest("label") || el).textContent;
    const text = (label || "").replace(/\s+/g, " ").trim();
    if (el instanceof HTMLSelectElement && el.selectedOptions[0]) return text + " " + el.selectedOptions[0].textContent.trim();
    return text;
  }
  function chosen(el) {
    if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox")) return el.checked;
    return el.value !== "";
  }

  const callbacks = window.Idiomorph.defaults.callbacks;
  callbacks.beforeNodeMorphed = function (oldNode, newNode) {
    if (!(oldNode instanceof Element) || !userControl(oldNode) || freshBoard(newNode)) return true;
    if (!chosen(oldNode) || newNode.tagName !== oldNode.tagName || newNode.disabled) {
      if (chosen(oldNode) && newNode.disabled) lost.push(words(oldNode));
      return true;
    }
    if (oldNode instanceof HTMLInputElement && (oldNode.type === "radio" || oldNode.type === "checkbox")) {
      if (newNode.value === oldNode.value) newNode.checked = true;
      else lost.push(words(oldNode));
    } else if (oldNode instanceof HTMLSelectElement) {
      const keep = Array.from(newNode.options).find(function (o) { return o.value === oldNode.value; });
      if (keep) Array.from(newNode.options).forEach(function (o) {
        o.selected = o === keep;
        if (o === keep) o.setAttribute("selected", ""); else o.removeAttribute("selected");
      });
      else lost.push(words(oldNode));
    } else {
      newNode.value = oldNode.value;
      newNode.setAttribute("value", oldNode.value);
    }
    return true;
  };
  // A question the child has opened (a <details>: the table's "Stop game?") stays open, and
  // one they closed stays closed, when a push re-draws it: that state is the child's.
  callbacks.beforeAttributeUpdated = function (attributeName, node) {
    return !(attributeName === "open" && node instanceof HTMLDetailsElement);
  };
  callbacks.beforeNodeRemoved = function (node) {
    if (!(node instanceof Element) || freshBoard(document.getElementById("table-board") || node)) return true;
    const controls = userControl(node) ? [node] : Array.from(node.querySelectorAll ? node.querySelectorAll("input, select, textarea") : []);
    controls.filter(function (c) { return userControl(c) && chosen(c); }).forEach(function (c) { lost.push(words(c)); });
    return true;
  };

  document.addEventListener("htmx:wsBeforeMessage", function () { lost = []; });
  document.addEventListener("htmx:wsAfterMessage", function () {
    const notice = document.querySelector("[data-choice-notice]");
    if (!notice) return;
    if (lost.length) {
      notice.textContent = interpolate(
        gettext("The game changed, so this choice can't be made any more: %(choices)s. Please choose again."),
        {choices: lost.join("; ")}, true);
    } else if (document.querySelector("#table-board[data-fresh-choices]")) {
      notice.textContent = "";
    }
    lost = [];
  });
})();
