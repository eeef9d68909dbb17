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
        ? "Chosen: " + chosen.map(function (p) { return p.label; }).join(", ") + "."
        : "No pictures chosen yet.";
    }

    root.querySelectorAll("[data-picture]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (chosen.length >= 3) return;
        chosen.push({ key: button.dataset.picture, label: button.dataset.label });
        render();
        if (chosen.length === 3) submit.focus();
      });
    });
    root.querySelector("[data-picture-clear]").addEventListener("click", function () {
      chosen = [];
      render();
    });
    form.addEventListener("submit", function () {
      submit.disabled = true;
      submit.textContent = "Checking…";
    });
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-picture-password]").forEach(setUpPicturePassword);
  });
})();

// Game tables: show the connection state, and keep keyboard focus where it was when the
// server swaps in a new board (elements keep stable ids between renders).
(function () {
  "use strict";
  let focusedId = null;
  document.addEventListener("htmx:wsOpen", function (evt) {
    const label = evt.target.closest("[data-game-table]")?.querySelector("[data-connection]");
    if (label) { label.textContent = "Connected"; label.dataset.state = "open"; }
  });
  document.addEventListener("htmx:wsClose", function (evt) {
    const label = evt.target.closest("[data-game-table]")?.querySelector("[data-connection]");
    if (label) { label.textContent = "Reconnecting… your game is saved."; label.dataset.state = "closed"; }
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    focusedId = document.activeElement && document.activeElement.id ? document.activeElement.id : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
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
