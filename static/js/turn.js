/* A player's signals that it became their turn (templates/turn_alerts.html):
 * - the tab's title starts with "Your turn" and its icon shows a dot, for as long as it is;
 * - a short chime, if the player switched it on (off by default, remembered in this browser);
 * - a browser notification while the tab is hidden, if the player asked for it with a click.
 * The board says whose turn it is: data-acting="true" on #board.
 */
(function () {
  "use strict";

  var SOUND_KEY = "inlandport.turnSound";
  var NOTIFY_KEY = "inlandport.turnNotify";

  function stored(key) {
    try { return window.localStorage.getItem(key) === "1"; } catch (e) { return false; }
  }
  function store(key, on) {
    try { window.localStorage.setItem(key, on ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  function start() {
    var box = document.getElementById("turn-alerts");
    if (!box) return;
    var baseTitle = document.title;
    var icon = document.querySelector('link[rel="icon"]');
    var sound = document.getElementById("turn-sound");
    var notifyButton = document.getElementById("turn-notify");
    var wasMyTurn = null;
    var audio = null;

    function myTurn() {
      var board = document.getElementById("board");
      return !!board && board.dataset.acting === "true";
    }

    function context() {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!audio && Context) audio = new Context();
      return audio;
    }

    function chime() {
      var a = context();
      if (!a) return;
      if (a.state === "suspended") a.resume();
      [660, 880].forEach(function (frequency, i) {
        var osc = a.createOscillator();
        var gain = a.createGain();
        var t = a.currentTime + i * 0.16;
        osc.type = "sine";
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
        osc.connect(gain);
        gain.connect(a.destination);
        osc.start(t);
        osc.stop(t + 0.32);
      });
    }

    function notifying() {
      return "Notification" in window && Notification.permission === "granted" && stored(NOTIFY_KEY);
    }

    function notify() {
      if (!document.hidden || !notifying()) return;
      try {
        var note = new Notification(box.dataset.textYourTurn, {
          body: baseTitle, tag: "inlandport-turn-" + box.dataset.room, icon: box.dataset.icon
        });
        note.onclick = function () { window.focus(); note.close(); };
      } catch (e) { /* some browsers only notify from a service worker */ }
    }

    // The title and the icon are only written when the turn changed.
    function update() {
      var now = myTurn();
      if (now === wasMyTurn) return;
      document.title = now ? box.dataset.textYourTurn + " · " + baseTitle : baseTitle;
      if (icon) icon.href = now ? box.dataset.iconTurn : box.dataset.icon;
      if (now && wasMyTurn === false) {
        if (stored(SOUND_KEY)) chime();
        notify();
      }
      wasMyTurn = now;
    }

    function showNotifyButton() {
      if (!notifyButton) return;
      var blocked = Notification.permission === "denied";
      notifyButton.hidden = false;
      notifyButton.disabled = blocked;
      notifyButton.setAttribute("aria-pressed", notifying() ? "true" : "false");
      notifyButton.textContent = blocked ? box.dataset.textNotifyBlocked
        : notifying() ? box.dataset.textNotifyOn : box.dataset.textNotifyOff;
    }

    if (sound) {
      sound.checked = stored(SOUND_KEY);
      sound.addEventListener("change", function () {
        store(SOUND_KEY, sound.checked);
        if (sound.checked) chime();  // a click lets the page play sound; and the player hears it
      });
    }
    if (notifyButton && "Notification" in window) {
      showNotifyButton();
      notifyButton.addEventListener("click", function () {
        if (notifying()) {
          store(NOTIFY_KEY, false);
          showNotifyButton();
          return;
        }
        Notification.requestPermission().then(function (permission) {
          store(NOTIFY_KEY, permission === "granted");
          showNotifyButton();
        });
      });
    }

    // After a socket's message (its out-of-band swaps included) or a request's answer, the
    // title and the icon are written once the frame that shows the new board is drawn: telling
    // the browser a new title takes a few milliseconds of the page's main thread, which would
    // hold back that frame. A hidden tab draws no frames, so there they are written at once,
    // and when a tab is hidden before its frame came.
    var waiting = false;
    function afterFrame() {
      if (document.hidden) { update(); return; }
      if (waiting) return;
      waiting = true;
      requestAnimationFrame(function () {
        setTimeout(function () { waiting = false; update(); }, 0);
      });
    }
    ["htmx:wsAfterMessage", "htmx:afterSwap"].forEach(function (name) {
      document.addEventListener(name, afterFrame);
    });
    document.addEventListener("visibilitychange", update);
    update();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
