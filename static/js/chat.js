/* The room's chat (templates/chat.html). The server draws every message as text; this file only
 * - clears the field after a message went through and shows a refusal (429 included),
 * - keeps each list scrolled to its newest message unless the reader scrolled up,
 * - shows the times in the reader's own clock,
 * - lets a player hide the spectators' chat (remembered in this browser),
 * - points to the chat when someone else wrote while it is out of sight, and reads the new
 *   message out to screen readers.
 */
(function () {
  "use strict";

  var HIDE_KEY = "inlandport.hideSpectatorChat";
  var following = {};
  var lastSeen = {};
  var chatInSight = true;

  function newest(log) {
    return parseInt(log.dataset.last || "0", 10);
  }

  function pointToChat(show) {
    var pill = document.getElementById("chat-new");
    if (pill) pill.hidden = !show;
  }

  function localTimes(root) {
    root.querySelectorAll(".chat-log time[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    });
  }

  function toBottom(log) {
    log.scrollTop = log.scrollHeight;
  }

  function atBottom(log) {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }

  function setHidden(hidden) {
    var chat = document.getElementById("chat");
    var button = document.querySelector("[data-chat-hide]");
    if (!chat || !button) return;
    chat.classList.toggle("spectators-hidden", hidden);
    button.setAttribute("aria-expanded", hidden ? "false" : "true");
    button.textContent = hidden ? chat.dataset.textShow : chat.dataset.textHide;
    try { window.localStorage.setItem(HIDE_KEY, hidden ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  function start() {
    var chat = document.getElementById("chat");
    if (!chat) return;
    localTimes(chat);
    chat.querySelectorAll(".chat-log").forEach(function (log) {
      toBottom(log);
      lastSeen[log.id] = newest(log);
    });
    if ("IntersectionObserver" in window) {
      new IntersectionObserver(function (entries) {
        chatInSight = entries.some(function (entry) { return entry.isIntersecting; });
        if (chatInSight) pointToChat(false);
      }).observe(chat);
    }
    if (chat.classList.contains("is-player")) {
      var hidden = false;
      try { hidden = window.localStorage.getItem(HIDE_KEY) === "1"; } catch (e) { hidden = false; }
      setHidden(hidden);
    }
  }

  document.addEventListener("click", function (evt) {
    var target = evt.target;
    if (target instanceof Element && target.closest("#chat-new")) pointToChat(false);
    if (!(target instanceof Element) || !target.closest("[data-chat-hide]")) return;
    setHidden(!document.getElementById("chat").classList.contains("spectators-hidden"));
  });

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (target && target.classList && target.classList.contains("chat-log")) {
      following[target.id] = atBottom(target);
    }
  });

  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.id || target.id.indexOf("chat-") !== 0) return;
    var log = document.getElementById(target.id);
    if (!log || !log.classList.contains("chat-log")) return;
    localTimes(log.parentNode || document);
    if (following[target.id] !== false) toBottom(log);
    var last = log.querySelector(".chat-line:last-child");
    var hiddenByMe = log.closest(".chat-body") && document.getElementById("chat").classList.contains("spectators-hidden");
    if (newest(log) > (lastSeen[log.id] || 0) && last && !last.classList.contains("mine") && !hiddenByMe) {
      if (!chatInSight) pointToChat(true);
      var announce = document.getElementById("chat-announce");
      var author = last.querySelector(".chat-author");
      var text = last.querySelector(".chat-text");
      if (announce && author && text) announce.textContent = author.textContent + ": " + text.textContent;
    }
    lastSeen[log.id] = newest(log);
  });

  // A refusal comes back as the channel's error line: 403 and 422 are swapped by the page's
  // htmx config, and so is "too many messages" (429) here.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail.requestConfig && evt.detail.requestConfig.elt;
    if (!elt || !elt.closest || !elt.closest(".chat-form, .chat-setting")) return;
    if (evt.detail.xhr && evt.detail.xhr.status === 429) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var form = elt && elt.closest && elt.closest(".chat-form");
    var xhr = evt.detail.xhr;
    if (!form || !xhr || xhr.status < 200 || xhr.status >= 300) return;  // refused: keep the text
    var field = form.querySelector('input[name="text"]');
    if (field) {
      field.value = "";
      field.focus();
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
