/* The room's chat (templates/chat.html). The server draws every message as text; this module only
 * - clears the field after a message went through and shows a refusal (429 included),
 * - keeps each list scrolled to its newest message unless the reader scrolled up,
 * - shows the times in the reader's own clock,
 * - lets a player hide the spectators' chat (remembered in this browser),
 * - points to the chat when someone else wrote while it is out of sight, and reads the new
 *   message out to screen readers.
 */

const HIDE_KEY = "inlandport.hideSpectatorChat";
const following = {};
const lastSeen = {};
let chatInSight = true;

function newest(log) {
  return parseInt(log.dataset.last || "0", 10);
}

function pointToChat(show) {
  const pill = document.getElementById("chat-new");
  if (pill) pill.hidden = !show;
}

function localTimes(root) {
  for (const el of root.querySelectorAll(".chat-log time[datetime]")) {
    const when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) el.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
}

function toBottom(log) {
  log.scrollTop = log.scrollHeight;
}

function atBottom(log) {
  return log.scrollHeight - log.scrollTop - log.clientHeight < 24;
}

function setHidden(hidden) {
  const chat = document.getElementById("chat");
  const button = document.querySelector("[data-chat-hide]");
  if (!chat || !button) return;
  chat.classList.toggle("spectators-hidden", hidden);
  button.setAttribute("aria-expanded", hidden ? "false" : "true");
  button.textContent = hidden ? chat.dataset.textShow : chat.dataset.textHide;
  try {
    window.localStorage.setItem(HIDE_KEY, hidden ? "1" : "0");
  } catch (e) {
    /* private mode */
  }
}

function hiddenBefore() {
  try {
    return window.localStorage.getItem(HIDE_KEY) === "1";
  } catch (e) {
    return false;
  }
}

export function start() {
  const chat = document.getElementById("chat");
  if (!chat) return;
  localTimes(chat);
  for (const log of chat.querySelectorAll(".chat-log")) {
    toBottom(log);
    lastSeen[log.id] = newest(log);
  }
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      chatInSight = entries.some((entry) => entry.isIntersecting);
      if (chatInSight) pointToChat(false);
    }).observe(chat);
  }
  if (chat.classList.contains("is-player")) setHidden(hiddenBefore());
  document.addEventListener("click", (evt) => {
    const target = evt.target;
    if (!(target instanceof Element)) return;
    if (target.closest("#chat-new")) pointToChat(false);
    if (target.closest("[data-chat-hide]")) setHidden(!chat.classList.contains("spectators-hidden"));
  });
}

/** htmx:oobBeforeSwap: whether the reader follows the newest messages of a list. */
export function beforeSwap(detail) {
  const target = detail.target;
  if (target && target.classList && target.classList.contains("chat-log")) following[target.id] = atBottom(target);
}

/** htmx:oobAfterSwap: a list with a new message. */
export function swapped(detail) {
  const target = detail.target;
  if (!target || !target.id || !target.id.startsWith("chat-")) return;
  const log = document.getElementById(target.id);
  if (!log || !log.classList.contains("chat-log")) return;
  localTimes(log.parentNode || document);
  if (following[target.id] !== false) toBottom(log);
  const last = log.querySelector(".chat-line:last-child");
  const hiddenByMe = log.closest(".chat-body") && document.getElementById("chat").classList.contains("spectators-hidden");
  if (newest(log) > (lastSeen[log.id] || 0) && last && !last.classList.contains("mine") && !hiddenByMe) {
    if (!chatInSight) pointToChat(true);
    const announce = document.getElementById("chat-announce");
    const author = last.querySelector(".chat-author");
    const text = last.querySelector(".chat-text");
    if (announce && author && text) announce.textContent = author.textContent + ": " + text.textContent;
  }
  lastSeen[log.id] = newest(log);
}

function fromChat(elt, selector) {
  return !!elt && !!elt.closest && elt.closest(selector);
}

/** htmx:beforeSwap: a refusal comes back as the channel's error line. 403 and 422 are swapped by
 * the page's htmx config, and so is "too many messages" (429) here. */
export function answerArrives(detail) {
  const elt = detail.requestConfig && detail.requestConfig.elt;
  if (!fromChat(elt, ".chat-form, .chat-setting")) return;
  if (detail.xhr && detail.xhr.status === 429) {
    detail.shouldSwap = true;
    detail.isError = false;
  }
}

/** htmx:afterRequest: a message that went through leaves the field empty; a refused one stays. */
export function answered(detail) {
  const form = fromChat(detail.elt, ".chat-form");
  const xhr = detail.xhr;
  if (!form || !xhr || xhr.status < 200 || xhr.status >= 300) return;
  const field = form.querySelector('input[name="text"]');
  if (field) {
    field.value = "";
    field.focus();
  }
}
