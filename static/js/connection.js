/* The room's socket: its state in the header (#connection, in the page's words: data-text-*),
 * and a socket that always comes back, within seconds of a server's restart.
 */

// htmx-ext-ws reconnects by itself only after close codes 1006, 1011, 1012 and 1013.
const AUTO_RECONNECT = [1006, 1011, 1012, 1013];
let retries = 0;
// The page's requests on their way: a seat link given anew is answered with the new cookie, and
// the page must not load again with the old one before that answer is in.
let inFlight = 0;
let reloadPending = false;
const RELOAD_WAIT_MS = 3000;

function show(state) {
  const el = document.getElementById("connection");
  if (!el) return;
  el.dataset.state = state;
  const label = el.querySelector(".connection-text");
  const text = el.dataset["text" + state.charAt(0).toUpperCase() + state.slice(1)];
  if (label && text) label.textContent = text;
  document.body.classList.toggle("is-offline", state !== "live");
}

// Back off, but never wait more than 5 s between two attempts (the extension's own default
// grows to a minute): a restarted server should see its players back within seconds.
function reconnectDelay(attempt) {
  const ceiling = Math.min(5000, 500 * Math.pow(2, attempt));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

export function start() {
  htmx.config.wsReconnectDelay = reconnectDelay;
}

/** htmx:wsConnecting */
export function connecting() {
  const el = document.getElementById("connection");
  if (el && el.dataset.state !== "live") show(retries ? "reconnecting" : "connecting");
}

/** htmx:wsOpen */
export function opened() {
  retries = 0;
  show("live");
}

/** htmx:wsClose */
export function closed(detail) {
  const code = detail.event && detail.event.code;
  if (code === 1012 && detail.event.reason === "seat links changed") {
    // This page's seat link was replaced: load it again, to say so rather than retry forever
    // (once the answers on their way are in: this page's own request may bring the new link).
    if (inFlight === 0) window.location.reload();
    else if (!reloadPending) {
      reloadPending = true;
      setTimeout(() => window.location.reload(), RELOAD_WAIT_MS);
    }
    return;
  }
  show("reconnecting");
  const wrapper = detail.socketWrapper;
  retries += 1;
  if (!AUTO_RECONNECT.includes(code) && wrapper && document.getElementById("room")) {
    // Any other close (a server restart's 1001, a policy close, a clean 1000) comes back too.
    setTimeout(() => wrapper.reconnect(), reconnectDelay(retries));
  }
}

/** htmx:beforeSend */
export function requestSent() {
  inFlight += 1;
}

/** htmx:afterRequest */
export function requestEnded() {
  inFlight = Math.max(0, inFlight - 1);
  if (reloadPending && inFlight === 0) window.location.reload();
}

/** pageshow: a page brought back from the back-forward cache has a dead socket: load it fresh. */
export function shown(evt) {
  if (evt.persisted && document.getElementById("room")) window.location.reload();
}
