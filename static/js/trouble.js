/* A request that got no usable answer swaps nothing (a busy server's 503, no connection): the
 * page says so (#request-trouble, in its words: data-text-*) and hides it after the next answer.
 */

function say(kind) {
  const el = document.getElementById("request-trouble");
  if (!el) return;
  const text = kind && el.dataset["text" + kind.charAt(0).toUpperCase() + kind.slice(1)];
  el.textContent = text || "";
  el.hidden = !text;
}

/** htmx:responseError */
export function refused(detail) {
  if (detail.xhr && detail.xhr.status >= 500) say("busy");
}

/** htmx:sendError */
export function unreachable() {
  say("unreachable");
}

/** htmx:afterRequest */
export function answered(detail) {
  if (detail.successful) say(null);
}
