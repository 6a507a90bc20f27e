/* The widths at which the page's layout changes. They are written once, in the stylesheet
 * (static/css/tokens.css: --bp-phone, --bp-narrow, --bp-medium, the widths of its media queries),
 * and read from there, so that the scripts and the stylesheet never disagree.
 */

/** Whether the window is at most as wide as the breakpoint `name` ("phone", "narrow", "medium"). */
export function atMost(name) {
  const width = getComputedStyle(document.documentElement).getPropertyValue(`--bp-${name}`).trim();
  return width !== "" && window.matchMedia(`(max-width: ${width})`).matches;
}
