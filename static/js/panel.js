/* The action panel (#panel): a building's choices, a move's answer.
 * - its links are relative to the board's room ("panel?building=…"), so one drawing of a tile
 *   serves every room;
 * - it keeps in step with the board: when the board gets newer than the panel, it asks again,
 *   unless a move is on its way (its answer is what the panel shows next); a panel newer than
 *   the board is left as it is: it was drawn after a move whose board is still on its way over
 *   the socket;
 * - opening a building's panel moves focus to its title (keyboard and screen-reader users);
 * - its number fields step with the − and + buttons, and it closes with its × button.
 */
import { atMost } from "./breakpoints.js";
import { isMove, moving, current } from "./move.js";

const REFRESH = "X-Panel-Refresh";

// One refresh at a time: boards that arrive meanwhile ask again once it is answered (a
// refresh cut short by the next one would be an aborted request).
let refreshing = false;
let refreshAgain = false;

/** htmx:wsAfterMessage: ask for the panel again when the board got newer than it. */
export function follow() {
  const board = document.getElementById("board");
  const card = document.querySelector("#panel .panel-card[data-version]");
  if (moving() || !board || !card) return;
  if (parseInt(card.dataset.version, 10) >= parseInt(board.dataset.version, 10)) return;
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  const form = document.getElementById("choice-form");
  if (form) {
    refreshing = true;
    htmx.trigger(form, "refresh");
  } else if (card.dataset.building) {
    refreshing = true;
    const url = `/rooms/${board.dataset.room}/panel?building=${encodeURIComponent(card.dataset.building)}`;
    htmx.ajax("GET", url, { target: "#panel", swap: "innerHTML", headers: { [REFRESH]: "1" } });
  }
}

function isRefresh(detail) {
  const config = detail.requestConfig || {};
  const trigger = config.triggeringEvent && config.triggeringEvent.type;
  return trigger === "refresh" || !!(config.headers && config.headers[REFRESH]);
}

/** htmx:afterRequest and htmx:sendAbort: a refresh ended; ask again if boards came meanwhile. */
export function requestEnded(detail) {
  if (!isRefresh(detail) || !refreshing) return;
  refreshing = false;
  if (refreshAgain) {
    refreshAgain = false;
    follow();
  }
}

/** htmx:configRequest: "panel?building=…" is the board's room's. */
export function roomPath(detail) {
  const path = detail.path;
  if (typeof path !== "string" || !path.startsWith("panel?")) return;
  const board = detail.elt && detail.elt.closest && detail.elt.closest("[data-room]");
  if (board) detail.path = `/rooms/${encodeURIComponent(board.dataset.room)}/${path}`;
}

/** htmx:beforeSwap: a stale panel, or a refresh over a move's answer, is not shown. */
export function beforeSwap(detail) {
  if (!detail.target || detail.target.id !== "panel") return;
  if (isMove(detail)) {
    current(detail);
    return;
  }
  const message = document.querySelector("#panel .panel-message");
  if (!current(detail) || (message && isRefresh(detail))) detail.shouldSwap = false;
}

/** htmx:afterSwap */
export function swapped(detail) {
  if (!detail.target || detail.target.id !== "panel") return;
  document.body.classList.toggle("panel-open", !!document.querySelector("#panel .panel-card:not(.panel-empty)"));
}

/** htmx:afterSettle: the focus moves to a panel opened from the board or by a move's form.
 * After the settle, not the swap: htmx binds the panel's forms only then (its settle delay,
 * 20 ms), and a form submitted before would go as the browser's own GET of the room's page. */
export function settled(detail) {
  if (!detail.target || detail.target.id !== "panel") return;
  const trigger = detail.requestConfig && detail.requestConfig.elt;
  if (!trigger || !trigger.closest) return;
  if (!trigger.closest("#board") && !trigger.closest(".confirm-form, .sell-panel-form")) return;
  // In the next frame, not now: focusing needs the page's style and layout, which the swap
  // just made stale, and the frame computes them once anyway.
  requestAnimationFrame(() => {
    const title = document.getElementById("panel-title");
    if (title) title.focus({ preventScroll: !atMost("narrow") });
  });
}

/** The panel as when nothing is open (the room's #panel-empty-template). */
export function close() {
  const panel = document.getElementById("panel");
  const empty = document.getElementById("panel-empty-template");
  if (panel && empty) {
    panel.innerHTML = empty.innerHTML;
    document.body.classList.remove("panel-open");
  }
}

function step(button) {
  const input = document.getElementById(button.getAttribute("data-step-for"));
  if (!input) return;
  const value = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
  const min = parseInt(input.min || "0", 10);
  const max = parseInt(input.max || "99", 10);
  input.value = String(Math.max(min, Math.min(max, value)));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

export function listen() {
  document.addEventListener("click", (evt) => {
    if (!(evt.target instanceof Element)) return;
    const stepper = evt.target.closest("[data-step-for]");
    if (stepper) step(stepper);
    else if (evt.target.closest("[data-close-panel]")) close();
  });
}
