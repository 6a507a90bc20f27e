/* The board the socket brings: whole, or partial (only the parts a move changed).
 *
 * Never go back in time: a board older than the one shown (a refused move's HTTP answer, which
 * carries the board, arriving after the socket already brought a newer one) is not swapped in.
 * A move that is played is answered without a board: the socket brings it, as it brings the
 * opponent's moves (or, if the socket was down, the whole board it sends when it is back).
 *
 * A partial board (app/live/frames.py): a header comment, then the parts that changed, each
 * applied to the element of its id. It fits only the board it was made from (data-frame): a page
 * already showing the new board (a refused move's answer brought it) ignores it, any other page
 * asks the socket for the whole board, once until that arrives.
 */
import { morph } from "./morph.js";
import { applyFolds } from "./folds.js";
import { markPlayable } from "./marks.js";

const PATCH = "<!--board-patch ";
let wholeAsked = false;
let patched = false;

/** htmx:oobBeforeSwap: a whole board, older than the one shown or not. */
export function beforeBoardSwap(detail) {
  const incoming = detail.fragment && detail.fragment.firstElementChild;
  if (!incoming || incoming.id !== "board") return;
  const shown = detail.target;
  if (shown && shown.id === "board") {
    if (parseInt(incoming.dataset.version, 10) < parseInt(shown.dataset.version, 10)) {
      detail.shouldSwap = false;
      return;
    }
    wholeAsked = false;
  }
  applyFolds(incoming);
}

/** htmx:wsBeforeMessage: a partial board is applied here, by id, and htmx is told it was. */
export function onMessage(evt) {
  const message = evt.detail.message;
  patched = false;
  if (typeof message !== "string" || !message.startsWith(PATCH)) return;
  const end = message.indexOf("-->");
  const head = JSON.parse(message.slice(PATCH.length, end));
  const board = document.getElementById("board");
  evt.preventDefault();
  if (board && board.dataset.frame === head.frame) return;
  if (!board || board.dataset.frame !== head.base) {
    if (!wholeAsked) {
      wholeAsked = true;
      evt.detail.socketWrapper.send("board");
    }
    return;
  }
  board.dataset.version = head.version;
  board.dataset.frame = head.frame;
  board.dataset.toMove = head.toMove;
  board.dataset.acting = head.acting;
  board.dataset.playable = head.playable || "";
  board.className = head["class"];
  patched = true;
  // The parts are applied here rather than by htmx's out-of-band swap, which fires two
  // events on every element of each part it takes out (each event looking up the page for
  // extensions) and then again on every element it puts in: most of a patch's handling time.
  // A part is a plain element by id; htmx only needs to process what `swapParts` put in or
  // changed (its tiles' and forms' hx-* attributes). Then the page's listeners hear that the
  // message was handled, as they do after htmx's own swap.
  swapParts(board, message.slice(end + 3));
  htmx.trigger(evt.target, "htmx:wsAfterMessage", evt.detail);
}

/** htmx:wsAfterMessage: after a partial board, every fold of the board as after a whole one. */
export function afterMessage() {
  if (patched) applyFolds(document.getElementById("board"));
}

// Each part is brought in line with the element of its id (static/js/morph.js) rather than put
// in its place: an element the move did not change is kept as it is, so the browser restyles
// and lays out only what changed, and the focus and the text selection stay where they were.
// The new part first gets the marks the page adds to a board (the folds, the playable tiles and
// cards), so that what did not change compares equal. htmx processes only the elements put in
// and those whose htmx attributes changed (a tile drawn over by another building's: its hx-get),
// if they carry what it binds. An element whose content htmx loads (the final score graph) is
// put in whole, as before, so that it loads again.
const HTMX_BOUND = "[hx-get], [hx-post], [hx-trigger], [hx-ext], [ws-send], form, [type='submit']";

function loadsContent(elt) {
  return elt.hasAttribute("hx-trigger");
}

function swapParts(board, html) {
  const parsed = document.createElement("template");
  parsed.innerHTML = html;
  const touched = [];
  for (const part of Array.from(parsed.content.children)) {
    const shown = part.id && document.getElementById(part.id);
    if (!shown) continue;
    applyFolds(board, part);
    markPlayable(board, part);
    touched.push(...morph(shown, part, loadsContent));
  }
  for (const elt of touched) {
    if (elt.isConnected && (elt.matches(HTMX_BOUND) || elt.querySelector(HTMX_BOUND))) {
      htmx.process(elt);
    }
  }
}
