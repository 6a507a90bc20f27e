/* The table's keys: Enter and Space press a wheel's tile (an SVG group with role="button"),
 * Escape closes an open panel.
 */
import { close } from "./panel.js";

export function listen() {
  document.addEventListener("keydown", (evt) => {
    const tile = evt.target instanceof Element && evt.target.closest("g[role='button']");
    if (tile && (evt.key === "Enter" || evt.key === " ")) {
      evt.preventDefault();
      tile.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    } else if (evt.key === "Escape" && document.body.classList.contains("panel-open")) {
      if (document.querySelector("#panel [data-close-panel]")) close();
    }
  });
}
