/* The review page: walk the game with the slider, the keys (← → Home End), the buttons and the
 * move list, without reloading the page; and on the import page, read a chosen file into the
 * text field. The server draws every position; this file only asks for it and swaps it in.
 */
(function () {
  "use strict";

  var pending = null;

  function body() { return document.getElementById("review-body"); }

  function show(at) {
    var current = body();
    if (!current) return;
    var last = parseInt(current.dataset.last, 10);
    at = Math.max(0, Math.min(last, at));
    if (pending) pending.abort();
    pending = new AbortController();
    var hadFocus = document.activeElement && document.activeElement.id === "review-slider";
    var url = "/rooms/" + current.dataset.room + "/review/position?at=" + at;
    fetch(url, { signal: pending.signal, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.firstElementChild;
        body().replaceWith(fresh);
        if (window.htmx) htmx.process(fresh);
        history.replaceState(null, "", "?at=" + at);
        if (hadFocus) document.getElementById("review-slider").focus();
      })
      .catch(function () { /* a newer position was asked for */ });
  }

  function at() { return parseInt(body().dataset.at, 10); }

  document.addEventListener("keydown", function (event) {
    if (!body() || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
        (target.tagName === "INPUT" && target.id !== "review-slider"))) return;
    var last = parseInt(body().dataset.last, 10);
    var next = { ArrowLeft: at() - 1, ArrowRight: at() + 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    show(next);
  });

  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "review-slider") show(parseInt(event.target.value, 10));
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-at]");
    if (!link || !body() || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    show(parseInt(link.dataset.at, 10));
  });

  document.addEventListener("change", function (event) {
    if (!event.target || event.target.id !== "record-file" || !event.target.files.length) return;
    var reader = new FileReader();
    reader.onload = function () { document.getElementById("record-text").value = reader.result; };
    reader.readAsText(event.target.files[0]);
  });
})();
