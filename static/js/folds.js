/* Folding parts of the table (details[data-fold]): the supply ("Buildings by round"), the
 * legend, the opponent's board, the room links. Each stays as the viewer left it from board to
 * board; until they choose, a wide screen shows them all and a phone keeps the page short:
 * only the supply opens, and only on the viewer's turn.
 */
import { atMost } from "./breakpoints.js";
import { within } from "./dom.js";

const chosen = new Map(); // a fold's id -> open, as the viewer left it
let toggledByUser = null;

function wanted(details, board) {
  if (chosen.has(details.id)) return chosen.get(details.id);
  if (!atMost("phone")) return true;
  return details.id === "overview" && !!board && board.dataset.acting === "true";
}

/** The folds of `root` (the board, or a part of it about to be shown on it) as wanted. */
export function applyFolds(board, root = board) {
  if (!board || !board.querySelectorAll) return;
  for (const details of within(root, "details[data-fold]")) {
    const open = wanted(details, board);
    if (details.open !== open) details.open = open;
  }
}

/** Only the viewer's own click on a summary (Enter and Space click it too) sets the choice. */
export function listen() {
  document.addEventListener(
    "click",
    (evt) => {
      const summary = evt.target instanceof Element && evt.target.closest("details[data-fold] > summary");
      if (summary) toggledByUser = summary.parentElement;
    },
    true,
  );
  document.addEventListener(
    "toggle",
    (evt) => {
      if (evt.target !== toggledByUser) return;
      chosen.set(evt.target.id, evt.target.open);
      toggledByUser = null;
    },
    true,
  );
}
