/* The review page (templates/review.html): walk the game with the slider, the keys (← → Home
 * End), the buttons and the move list, without reloading the page. The server draws every
 * position; this module only asks for it and swaps it in, with the board's folds and marks as
 * at the table, and the review link's copy button.
 */
import { applyFolds, listen as listenFolds } from "./folds.js";
import { markBoard } from "./marks.js";
import { listen as listenCopy } from "./copy.js";

let pending = null;

function body() {
  return document.getElementById("review-body");
}

function boardShown() {
  const board = document.getElementById("board");
  applyFolds(board);
  markBoard();
}

function show(at) {
  const current = body();
  if (!current) return;
  at = Math.max(0, Math.min(parseInt(current.dataset.last, 10), at));
  if (pending) pending.abort();
  pending = new AbortController();
  const hadFocus = document.activeElement && document.activeElement.id === "review-slider";
  const url = `/rooms/${current.dataset.room}/review/position?at=${at}`;
  fetch(url, { signal: pending.signal, credentials: "same-origin" })
    .then((response) => (response.ok ? response.text() : null))
    .then((html) => {
      if (html === null) return;
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const fresh = holder.firstElementChild;
      body().replaceWith(fresh);
      boardShown();
      htmx.process(fresh);
      history.replaceState(null, "", "?at=" + at);
      if (hadFocus) document.getElementById("review-slider").focus();
    })
    .catch(() => {
      /* a newer position was asked for */
    });
}

function shownAt() {
  return parseInt(body().dataset.at, 10);
}

document.addEventListener("keydown", (evt) => {
  if (!body() || evt.altKey || evt.ctrlKey || evt.metaKey) return;
  const target = evt.target;
  if (target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
      (target.tagName === "INPUT" && target.id !== "review-slider"))) return;
  const last = parseInt(body().dataset.last, 10);
  const next = { ArrowLeft: shownAt() - 1, ArrowRight: shownAt() + 1, Home: 0, End: last }[evt.key];
  if (next === undefined) return;
  evt.preventDefault();
  show(next);
});

document.addEventListener("input", (evt) => {
  if (evt.target && evt.target.id === "review-slider") show(parseInt(evt.target.value, 10));
});

document.addEventListener("click", (evt) => {
  const link = evt.target.closest && evt.target.closest("a[data-at]");
  if (!link || !body() || evt.ctrlKey || evt.metaKey || evt.shiftKey) return;
  evt.preventDefault();
  show(parseInt(link.dataset.at, 10));
});

listenFolds();
listenCopy();
boardShown();
