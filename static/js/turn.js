/* A player's signals that it became their turn (templates/turn_alerts.html):
 * - the tab's title starts with "Your turn" and its icon shows a dot, for as long as it is;
 * - a short chime, if the player switched it on (off by default, remembered in this browser);
 * - a browser notification while the tab is hidden, if the player asked for it with a click.
 * The board says whose turn it is: data-acting="true" on #board. A spectator has no
 * #turn-alerts, and none of this.
 */

const SOUND_KEY = "inlandport.turnSound";
const NOTIFY_KEY = "inlandport.turnNotify";

let box = null; // #turn-alerts, once started
let baseTitle = "";
let wasMyTurn = null;
let audio = null;
let waiting = false;

function stored(key) {
  try {
    return window.localStorage.getItem(key) === "1";
  } catch (e) {
    return false;
  }
}

function store(key, on) {
  try {
    window.localStorage.setItem(key, on ? "1" : "0");
  } catch (e) {
    /* private mode */
  }
}

function myTurn() {
  const board = document.getElementById("board");
  return !!board && board.dataset.acting === "true";
}

function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (!audio) return;
  if (audio.state === "suspended") audio.resume();
  [660, 880].forEach((frequency, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const t = audio.currentTime + i * 0.16;
    osc.type = "sine";
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain);
    gain.connect(audio.destination);
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
    const note = new Notification(box.dataset.textYourTurn, {
      body: baseTitle,
      tag: "inlandport-turn-" + box.dataset.room,
      icon: box.dataset.icon,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch (e) {
    /* some browsers only notify from a service worker */
  }
}

// The title and the icon are only written when the turn changed.
function update() {
  if (!box) return;
  const now = myTurn();
  if (now === wasMyTurn) return;
  const icon = document.querySelector('link[rel="icon"]');
  document.title = now ? box.dataset.textYourTurn + " · " + baseTitle : baseTitle;
  if (icon) icon.href = now ? box.dataset.iconTurn : box.dataset.icon;
  if (now && wasMyTurn === false) {
    if (stored(SOUND_KEY)) chime();
    notify();
  }
  wasMyTurn = now;
}

function showNotifyButton(button) {
  const blocked = Notification.permission === "denied";
  button.hidden = false;
  button.disabled = blocked;
  button.setAttribute("aria-pressed", notifying() ? "true" : "false");
  button.textContent = blocked
    ? box.dataset.textNotifyBlocked
    : notifying()
      ? box.dataset.textNotifyOn
      : box.dataset.textNotifyOff;
}

function listen() {
  const sound = document.getElementById("turn-sound");
  const notifyButton = document.getElementById("turn-notify");
  if (sound) {
    sound.checked = stored(SOUND_KEY);
    sound.addEventListener("change", () => {
      store(SOUND_KEY, sound.checked);
      if (sound.checked) chime(); // a click lets the page play sound; and the player hears it
    });
  }
  if (notifyButton && "Notification" in window) {
    showNotifyButton(notifyButton);
    notifyButton.addEventListener("click", () => {
      if (notifying()) {
        store(NOTIFY_KEY, false);
        showNotifyButton(notifyButton);
        return;
      }
      Notification.requestPermission().then((permission) => {
        store(NOTIFY_KEY, permission === "granted");
        showNotifyButton(notifyButton);
      });
    });
  }
  document.addEventListener("visibilitychange", update);
}

export function start() {
  box = document.getElementById("turn-alerts");
  if (!box) return;
  baseTitle = document.title;
  listen();
  update();
}

/** htmx:wsAfterMessage and htmx:afterSwap: a board may have come. The title and the icon are
 * written once the frame that shows the new board is drawn: telling the browser a new title
 * takes a few milliseconds of the page's main thread, which would hold back that frame. A hidden
 * tab draws no frames, so there they are written at once, and when a tab is hidden before its
 * frame came. */
export function boardShown() {
  if (!box) return;
  if (document.hidden) {
    update();
    return;
  }
  if (waiting) return;
  waiting = true;
  requestAnimationFrame(() => {
    setTimeout(() => {
      waiting = false;
      update();
    }, 0);
  });
}
