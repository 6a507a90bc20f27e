/* The buildings the viewer may act on now are listed on the board element (data-playable), not
 * drawn into their tiles and cards, so a turn passing does not redraw the wheels and the supply:
 * their tiles and supply cards are marked here after every board. A player's supply card also
 * carries why it could not be built (.card-reason); while the player may move, the stylesheet
 * shows it on the cards not marked, and here it is added to the card's spoken label.
 */
import { within } from "./dom.js";

/** The marks of `root` (the board, or a part of it about to be shown on it) by the board's list. */
export function markPlayable(board, root = board) {
  const playable = (board.dataset.playable || "").split(" ");
  const acting = board.dataset.acting === "true";
  for (const elt of within(root, ".tile[data-building], .card-supply > .card-button")) {
    const can = playable.includes(elt.dataset.building);
    if (!elt.classList.contains("card-button")) {
      elt.classList.toggle("can-act", can);
      continue;
    }
    elt.parentElement.classList.toggle("can-act", can);
    const reason = elt.querySelector(".card-reason");
    if (!reason) continue;
    if (elt.dataset.label === undefined) elt.dataset.label = elt.getAttribute("aria-label") || "";
    const label = acting && !can ? elt.dataset.label + ", " + reason.textContent : elt.dataset.label;
    if (elt.getAttribute("aria-label") !== label) elt.setAttribute("aria-label", label);
  }
}

/** The marks of the whole board shown. */
export function markBoard() {
  const board = document.getElementById("board");
  if (board) markPlayable(board);
}
