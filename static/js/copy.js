/* The copy buttons of the link rows (templates/macros.html, link_row: data-copy="#field"): the
 * field's text goes to the clipboard and the button says "Copied" (the room's data-text-copied)
 * for a moment.
 */

function copy(button) {
  const field = document.querySelector(button.getAttribute("data-copy"));
  if (!field) return;
  field.select();
  const room = document.getElementById("room");
  const label = button.dataset.label || (button.dataset.label = button.textContent);
  const done = () => {
    button.textContent = (room && room.dataset.textCopied) || label;
    setTimeout(() => {
      button.textContent = label;
    }, 1600);
  };
  const byHand = () => {
    document.execCommand("copy");
    done();
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, byHand);
  else byHand();
}

export function listen() {
  document.addEventListener("click", (evt) => {
    const button = evt.target instanceof Element && evt.target.closest("[data-copy]");
    if (button) copy(button);
  });
}
