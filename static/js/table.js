/* The table page's small helpers. The server decides everything; this file only
 * - shows the connection state and makes sure every closed socket comes back,
 * - applies the partial boards the socket sends (only the parts a move changed) on top of the
 *   board they were made from, and asks for the whole board when the page shows another,
 * - keeps the action panel in step with the board, never shows an older board, and never lets
 *   a late refresh hide the answer to a move,
 * - says so when a request got no answer (a busy server's 503, no connection), since htmx
 *   swaps nothing then, and hides it again after the next answer,
 * - copies links, steps the number fields, and moves focus for keyboard users.
 */
(function () {
  "use strict";

  // htmx-ext-ws reconnects by itself only after close codes 1006, 1011, 1012 and 1013.
  var AUTO_RECONNECT = [1006, 1011, 1012, 1013];
  var retries = 0;

  // The words come from the page (data-text-* attributes), in the viewer's language.
  function connection(state) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    var label = el.querySelector(".connection-text");
    var text = el.dataset["text" + state.charAt(0).toUpperCase() + state.slice(1)];
    if (label && text) label.textContent = text;
    document.body.classList.toggle("is-offline", state !== "live");
  }

  // Back off, but never wait more than 5 s between two attempts (the extension's own default
  // grows to a minute): a restarted server should see its players back within seconds.
  function reconnectDelay(attempt) {
    var ceiling = Math.min(5000, 500 * Math.pow(2, attempt));
    return ceiling / 2 + Math.random() * ceiling / 2;
  }
  htmx.config.wsReconnectDelay = reconnectDelay;

  document.addEventListener("htmx:wsConnecting", function () {
    if (document.getElementById("connection").dataset.state !== "live") {
      connection(retries ? "reconnecting" : "connecting");
    }
  });

  document.addEventListener("htmx:wsOpen", function () {
    retries = 0;
    connection("live");
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event && evt.detail.event.code;
    if (code === 1012 && evt.detail.event.reason === "seat links changed") {
      // This page's seat link was replaced: load it again, to say so rather than retry forever.
      window.location.reload();
      return;
    }
    connection("reconnecting");
    var wrapper = evt.detail.socketWrapper;
    retries += 1;
    if (AUTO_RECONNECT.indexOf(code) === -1 && wrapper && document.getElementById("room")) {
      // Any other close (a server restart's 1001, a policy close, a clean 1000) comes back too.
      setTimeout(function () { wrapper.reconnect(); }, reconnectDelay(retries));
    }
  });

  // A request that got no usable answer swaps nothing: say so, in the page's words.
  function trouble(kind) {
    var el = document.getElementById("request-trouble");
    if (!el) return;
    var text = kind && el.dataset["text" + kind.charAt(0).toUpperCase() + kind.slice(1)];
    el.textContent = text || "";
    el.hidden = !text;
  }
  document.addEventListener("htmx:responseError", function (evt) {
    if (evt.detail.xhr && evt.detail.xhr.status >= 500) trouble("busy");
  });
  document.addEventListener("htmx:sendError", function () { trouble("unreachable"); });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.successful) trouble(null);
  });

  // A page brought back from the back-forward cache has a dead socket: load it fresh.
  window.addEventListener("pageshow", function (evt) {
    if (evt.persisted && document.getElementById("room")) window.location.reload();
  });

  // Never go back in time: a board older than the one shown (a refused move's HTTP answer, which
  // carries the board, arriving after the socket already brought a newer one) is not swapped in.
  // A move that is played is answered without a board: the socket brings it, as it brings the
  // opponent's moves (or, if the socket was down, the whole board it sends when it is back).
  var wholeAsked = false;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    var incoming = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    if (!target || target.id !== "board" || !incoming || incoming.id !== "board") return;
    var shown = parseInt(target.dataset.version, 10);
    var arriving = parseInt(incoming.dataset.version, 10);
    if (arriving < shown) evt.detail.shouldSwap = false;
    else wholeAsked = false;
  });

  // A partial board (app/live/frames.py): a header comment, then the parts that changed, each
  // applied to the element of its id. It fits only the board it was made from (data-frame): a page already
  // showing the new board (a refused move's answer brought it) ignores it, any other page asks
  // the socket for the whole board, once until that arrives.
  var PATCH = "<!--board-patch ";
  var patched = false;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail.message;
    patched = false;
    if (typeof message !== "string" || message.lastIndexOf(PATCH, 0) !== 0) return;
    var head = JSON.parse(message.slice(PATCH.length, message.indexOf("-->")));
    var board = document.getElementById("board");
    if (board && board.dataset.frame === head.frame) {
      evt.preventDefault();
      return;
    }
    if (!board || board.dataset.frame !== head.base) {
      evt.preventDefault();
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
    evt.preventDefault();
    swapParts(message.slice(message.indexOf("-->") + 3));
    htmx.trigger(evt.target, "htmx:wsAfterMessage", evt.detail);
  });

  // Each part is brought in line with the element of its id (static/js/morph.js, loaded by the
  // room page) rather than put in its place: an element the move did not change is kept as it
  // is, so the browser restyles and lays out only what changed, and the focus and the text
  // selection stay where they were. The new part first gets the marks the page adds to a board
  // (the folds, the playable tiles and cards), so that what did not change compares equal.
  // htmx processes only the elements put in and those whose htmx attributes changed (a tile
  // drawn over by another building's: its hx-get), if they carry what it binds. An element whose
  // content htmx loads (the final score graph) is put in whole, as before, so that it loads again.
  var HTMX_BOUND = "[hx-get], [hx-post], [hx-trigger], [hx-ext], [ws-send], form, [type='submit']";
  function loadsContent(elt) {
    return elt.hasAttribute("hx-trigger");
  }
  function swapParts(html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    var board = document.getElementById("board");
    var parts = Array.prototype.slice.call(parsed.content.children);
    var touched = [];
    parts.forEach(function (part) {
      var shown = part.id && document.getElementById(part.id);
      if (!shown) return;
      applyFolds(board, part);
      markPlayable(board, part);
      if (window.InlandMorph) {
        touched.push.apply(touched, window.InlandMorph(shown, part, loadsContent));
      } else {
        shown.replaceWith(part);
        touched.push(part);
      }
    });
    touched.forEach(function (elt) {
      if (elt.isConnected && (elt.matches(HTMX_BOUND) || elt.querySelector(HTMX_BOUND))) {
        htmx.process(elt);
      }
    });
  }

  // Folding parts of the table (details[data-fold]): the supply ("Buildings by round"), the
  // legend, the opponent's board, the room links. Each stays as the viewer left it from board to
  // board; until they choose, a wide screen shows them all and a phone keeps the page short:
  // only the supply opens, and only on the viewer's turn.
  var folded = {};
  function foldWanted(details, board) {
    if (Object.prototype.hasOwnProperty.call(folded, details.id)) return folded[details.id];
    if (!window.matchMedia("(max-width: 640px)").matches) return true;
    return details.id === "overview" && !!board && board.dataset.acting === "true";
  }
  // Every element in `root` (and `root` itself) that matches.
  function within(root, selector) {
    var found = Array.prototype.slice.call(root.querySelectorAll(selector));
    if (root.matches(selector)) found.unshift(root);
    return found;
  }
  // The folds of `root` (the board, or a part of it about to be shown on it) as wanted.
  function applyFolds(board, root) {
    if (!board || !board.querySelectorAll) return;
    within(root || board, "details[data-fold]").forEach(function (details) {
      var open = foldWanted(details, board);
      if (details.open !== open) details.open = open;
    });
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var incoming = evt.detail.fragment && evt.detail.fragment.firstElementChild;
    if (incoming && incoming.id === "board") applyFolds(incoming);
  });
  // Only the viewer's own click on a summary (Enter and Space click it too) sets the choice.
  var toggledByUser = null;
  document.addEventListener("toggle", function (evt) {
    var details = evt.target;
    if (details !== toggledByUser) return;
    folded[details.id] = details.open;
    toggledByUser = null;
  }, true);
  document.addEventListener("click", function (evt) {
    var summary = evt.target instanceof Element && evt.target.closest("details[data-fold] > summary");
    if (summary) toggledByUser = summary.parentElement;
  }, true);
  document.addEventListener("DOMContentLoaded", function () {
    applyFolds(document.getElementById("board"));
  });
  // After a partial board, every fold of the board as after a whole one.
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (patched) applyFolds(document.getElementById("board"));
  });

  // The buildings the viewer may act on now are listed on the board element (data-playable), not
  // drawn into their tiles and cards, so a turn passing does not redraw the wheels and the supply:
  // their tiles and supply cards are marked here after every board. A player's supply card also
  // carries why it could not be built (.card-reason); while the player may move, the stylesheet
  // shows it on the cards not marked, and here it is added to the card's spoken label.
  // The marks of `root` (the board, or a part of it about to be shown on it) by the board's list.
  function markPlayable(board, root) {
    var playable = (board.dataset.playable || "").split(" ");
    var acting = board.dataset.acting === "true";
    within(root || board, ".tile[data-building], .card-supply > .card-button").forEach(function (elt) {
      var can = playable.indexOf(elt.dataset.building) !== -1;
      if (!elt.classList.contains("card-button")) {
        elt.classList.toggle("can-act", can);
        return;
      }
      elt.parentElement.classList.toggle("can-act", can);
      var reason = elt.querySelector(".card-reason");
      if (!reason) return;
      if (elt.dataset.label === undefined) elt.dataset.label = elt.getAttribute("aria-label") || "";
      var label = acting && !can ? elt.dataset.label + ", " + reason.textContent : elt.dataset.label;
      if (elt.getAttribute("aria-label") !== label) elt.setAttribute("aria-label", label);
    });
  }
  function markBoard() {
    var board = document.getElementById("board");
    if (board) markPlayable(board);
  }
  document.addEventListener("DOMContentLoaded", markBoard);
  document.addEventListener("htmx:wsAfterMessage", markBoard);
  document.addEventListener("htmx:oobAfterSwap", markBoard);
  document.addEventListener("htmx:afterSwap", markBoard);

  // A building's tile or card links to its panel relative to the board's room ("panel?building=…"),
  // so that one drawing of it serves every room: the room is the board's.
  document.addEventListener("htmx:configRequest", function (evt) {
    var path = evt.detail.path;
    if (typeof path !== "string" || path.indexOf("panel?") !== 0) return;
    var board = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("[data-room]");
    if (board) evt.detail.path = "/rooms/" + encodeURIComponent(board.dataset.room) + "/" + path;
  });

  // Keep the panel in step with the board: when the board gets newer than the panel, ask again —
  // unless a move is on its way (its answer, the "Done" message, is what the panel shows next).
  // A panel newer than the board is left as it is: it was drawn after a move whose board is still
  // on its way over the socket (the move's answer carries none), and the board catches up.
  var MOVE_FORMS = ".confirm-form, .sell-panel-form, .sell-form, .pass-form";
  var movesInFlight = 0;
  var REFRESH = "X-Panel-Refresh";

  // One refresh at a time: boards that arrive meanwhile ask again once it is answered (a
  // refresh cut short by the next one would be an aborted request).
  var refreshing = false;
  var refreshAgain = false;

  function syncPanel() {
    var board = document.getElementById("board");
    var card = document.querySelector("#panel .panel-card[data-version]");
    if (movesInFlight || !board || !card) return;
    if (parseInt(card.dataset.version, 10) >= parseInt(board.dataset.version, 10)) return;
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    var form = document.getElementById("choice-form");
    if (form) {
      refreshing = true;
      htmx.trigger(form, "refresh");
    } else if (card.dataset.building) {
      refreshing = true;
      var headers = {};
      headers[REFRESH] = "1";
      htmx.ajax("GET", "/rooms/" + board.dataset.room + "/panel?building=" +
        encodeURIComponent(card.dataset.building),
        { target: "#panel", swap: "innerHTML", headers: headers });
    }
  }
  document.addEventListener("htmx:wsAfterMessage", syncPanel);

  function isMove(evt) {
    var elt = evt.detail && evt.detail.elt;
    return !!(elt && elt.closest && elt.closest(MOVE_FORMS));
  }
  // A move is counted by its request, not its form: the answer replaces the panel's form, and
  // htmx then tells the end of the request on the panel instead (with the panel as its element),
  // so the form alone would never count the move as answered.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (!isMove(evt) || !xhr) return;
    xhr.moveInFlight = true;
    movesInFlight += 1;
  });
  function isRefresh(detail) {
    var config = (detail && detail.requestConfig) || {};
    var trigger = config.triggeringEvent && config.triggeringEvent.type;
    return trigger === "refresh" || !!(config.headers && config.headers[REFRESH]);
  }
  function refreshDone(evt) {
    if (!isRefresh(evt.detail) || !refreshing) return;
    refreshing = false;
    if (refreshAgain) {
      refreshAgain = false;
      syncPanel();
    }
  }
  document.addEventListener("htmx:sendAbort", refreshDone);
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (xhr && xhr.moveInFlight) {
      xhr.moveInFlight = false;
      movesInFlight = Math.max(0, movesInFlight - 1);
    }
    refreshDone(evt);
  });

  // A panel asked for before a move was answered never replaces that answer: the player must
  // see that the move went through (or why it did not). Each request to the panel carries the
  // number of move answers shown when it left; a later answer makes it stale.
  var movesAnswered = 0;
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.xhr) evt.detail.xhr.panelEpoch = movesAnswered;
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "panel") return;
    var config = evt.detail.requestConfig;
    if (config && config.verb === "post") {
      movesAnswered += 1;  // every POST answered into the panel is a move (build, use, sell, pass)
      return;
    }
    var sentAt = evt.detail.xhr && evt.detail.xhr.panelEpoch;
    var stale = typeof sentAt === "number" && sentAt < movesAnswered;
    var message = document.querySelector("#panel .panel-message");
    if (stale || (message && isRefresh(evt.detail))) evt.detail.shouldSwap = false;
  });

  // Opening a building's panel moves focus to it (keyboard and screen-reader users). After the
  // settle, not the swap: htmx binds the panel's forms only then (its settle delay, 20 ms), and a
  // form submitted before would go as the browser's own GET of the room's page, not as the move.
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (!evt.detail || !evt.detail.target || evt.detail.target.id !== "panel") return;
    var trigger = evt.detail.requestConfig && evt.detail.requestConfig.elt;
    var fromTable = trigger && trigger.closest && trigger.closest("#board");
    var fromPanelForm = trigger && trigger.closest && trigger.closest(".confirm-form, .sell-panel-form");
    if (fromTable || fromPanelForm) {
      // In the next frame, not now: focusing needs the page's style and layout, which the swap
      // just made stale, and the frame computes them once anyway.
      requestAnimationFrame(function () {
        var title = document.getElementById("panel-title");
        if (title) title.focus({ preventScroll: !window.matchMedia("(max-width: 900px)").matches });
      });
    }
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!evt.detail || !evt.detail.target || evt.detail.target.id !== "panel") return;
    document.body.classList.toggle("panel-open", !!document.querySelector("#panel .panel-card:not(.panel-empty)"));
  });

  document.addEventListener("click", function (evt) {
    var target = evt.target;
    if (!(target instanceof Element)) return;

    var copy = target.closest("[data-copy]");
    if (copy) {
      var field = document.querySelector(copy.getAttribute("data-copy"));
      if (!field) return;
      field.select();
      var room = document.getElementById("room");
      var label = copy.dataset.label || (copy.dataset.label = copy.textContent);
      var done = function () {
        copy.textContent = (room && room.dataset.textCopied) || label;
        setTimeout(function () { copy.textContent = label; }, 1600);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () {
          document.execCommand("copy");
          done();
        });
      } else {
        document.execCommand("copy");
        done();
      }
      return;
    }

    var step = target.closest("[data-step-for]");
    if (step) {
      var input = document.getElementById(step.getAttribute("data-step-for"));
      if (!input) return;
      var delta = parseInt(step.getAttribute("data-step"), 10);
      var value = (parseInt(input.value, 10) || 0) + delta;
      var min = parseInt(input.min || "0", 10);
      var max = parseInt(input.max || "99", 10);
      input.value = String(Math.max(min, Math.min(max, value)));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }

    if (target.closest("[data-close-panel]")) {
      var panel = document.getElementById("panel");
      var empty = document.getElementById("panel-empty-template");
      if (panel && empty) {
        panel.innerHTML = empty.innerHTML;
        document.body.classList.remove("panel-open");
      }
    }
  });

  document.addEventListener("keydown", function (evt) {
    // The tiles on a wheel are SVG groups with role="button": Enter and Space press them.
    var tile = evt.target instanceof Element && evt.target.closest("g[role='button']");
    if (tile && (evt.key === "Enter" || evt.key === " ")) {
      evt.preventDefault();
      tile.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      return;
    }
    if (evt.key === "Escape" && document.body.classList.contains("panel-open")) {
      var close = document.querySelector("#panel [data-close-panel]");
      if (close) close.click();
    }
  });
})();
