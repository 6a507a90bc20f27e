/* Small helpers on the page's elements, shared by the modules. */

/** Every element in `root` (and `root` itself) that matches `selector`. */
export function within(root, selector) {
  const found = Array.from(root.querySelectorAll(selector));
  if (root.matches(selector)) found.unshift(root);
  return found;
}
