/* The room page (templates/room.html). The server decides everything; the page only shows the
 * boards and panels it sends. Each htmx event is heard once, here, and handed to the modules
 * that act on it, in this order:
 * - connection.js: the socket's state, and a socket that always comes back;
 * - patch.js: the boards the socket brings, never an older one, partial ones applied by id;
 * - folds.js, marks.js: the board's folds and the marks of what the viewer may act on;
 * - move.js, panel.js: what a move is, and the action panel in step with the board;
 * - trouble.js: a request that got no answer; chat.js, turn.js: the chat and the turn's signals;
 * - copy.js, keyboard.js: the link rows' copy buttons, and the table's keys.
 */
import * as connection from "./connection.js";
import * as patch from "./patch.js";
import { applyFolds, listen as listenFolds } from "./folds.js";
import { markBoard } from "./marks.js";
import * as move from "./move.js";
import * as panel from "./panel.js";
import * as trouble from "./trouble.js";
import * as chat from "./chat.js";
import * as turn from "./turn.js";
import { listen as listenCopy } from "./copy.js";
import { listen as listenKeys } from "./keyboard.js";

function on(name, handler) {
  document.addEventListener(name, (evt) => handler(evt.detail || {}, evt));
}

on("htmx:wsConnecting", connection.connecting);
on("htmx:wsOpen", connection.opened);
on("htmx:wsClose", connection.closed);
on("htmx:wsBeforeMessage", (detail, evt) => patch.onMessage(evt));
on("htmx:wsAfterMessage", () => {
  patch.afterMessage();
  markBoard();
  panel.follow();
  turn.boardShown();
});
on("htmx:oobBeforeSwap", (detail) => {
  patch.beforeBoardSwap(detail);
  chat.beforeSwap(detail);
});
on("htmx:oobAfterSwap", (detail) => {
  markBoard();
  chat.swapped(detail);
});
on("htmx:configRequest", panel.roomPath);
on("htmx:beforeRequest", move.sent);
on("htmx:beforeSend", connection.requestSent);
on("htmx:beforeSwap", (detail) => {
  chat.answerArrives(detail);
  panel.beforeSwap(detail);
});
on("htmx:afterSwap", (detail) => {
  markBoard();
  panel.swapped(detail);
  turn.boardShown();
});
on("htmx:afterSettle", panel.settled);
on("htmx:afterRequest", (detail) => {
  connection.requestEnded();
  move.ended(detail);
  panel.requestEnded(detail);
  trouble.answered(detail);
  chat.answered(detail);
});
on("htmx:sendAbort", panel.requestEnded);
on("htmx:responseError", trouble.refused);
on("htmx:sendError", trouble.unreachable);
window.addEventListener("pageshow", connection.shown);

connection.start();
listenFolds();
panel.listen();
listenCopy();
listenKeys();
applyFolds(document.getElementById("board"));
markBoard();
chat.start();
turn.start();
