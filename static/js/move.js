/* What a move is, for the page: a POST answered into the action panel (a build, a use, a sale,
 * a pass, and the room's own writes: a takeback, a resignation, a rematch). Its answer, the
 * "Done" message or the refusal, is what the panel shows next.
 *
 * A move is counted by its request, not its form: the answer replaces the panel's form, and htmx
 * then tells the end of the request on the panel instead. The state lives here, keyed by the
 * request, never on it.
 */

const inFlight = new Set(); // the requests of the moves on their way
const sentAt = new WeakMap(); // a request -> how many moves were answered when it left
let answered = 0;

/** Whether the request of an htmx event's detail is a move. */
export function isMove(detail) {
  const config = detail.requestConfig;
  return !!config && config.verb === "post" && !!detail.target && detail.target.id === "panel";
}

/** Whether a move is on its way. */
export function moving() {
  return inFlight.size > 0;
}

/** htmx:beforeRequest */
export function sent(detail) {
  if (!detail.xhr) return;
  sentAt.set(detail.xhr, answered);
  if (isMove(detail)) inFlight.add(detail.xhr);
}

/** htmx:afterRequest (an aborted request ends there too) */
export function ended(detail) {
  inFlight.delete(detail.xhr);
}

/** htmx:beforeSwap into the panel: whether the answer is still news. A panel asked for before a
 * move was answered never replaces that answer: the player must see that the move went through
 * (or why it did not). */
export function current(detail) {
  if (isMove(detail)) {
    answered += 1;
    return true;
  }
  const at = detail.xhr ? sentAt.get(detail.xhr) : undefined;
  return at === undefined || at >= answered;
}
