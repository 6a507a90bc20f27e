/* Brings a shown element in line with a newly drawn one, in place:
 * morph(shown, drawn, whole), an ES module.
 *
 * A partial board's part is most often nearly the part shown (a tile's mark, a count, a new log
 * line). Replacing it whole makes the browser restyle and lay out every element in it again,
 * and loses the focus and the text selection inside it. Here the two trees are walked side by
 * side: a node equal to its drawn twin (isEqualNode) is kept as it is, an element of the same
 * kind (tag and id) gets the drawn one's attributes and is walked into, a text gets the drawn
 * text, and whatever has no twin is taken out or put in (the drawn node itself, moved over).
 * Afterwards the shown element is equal to the drawn one (isEqualNode), except for what a person
 * typed into a field the drawing did not change.
 *
 * A drawn element for which whole(element) is true replaces its shown twin unless the two are
 * equal (an element whose content htmx loads after it is put in: the content shown is not in the
 * drawing). It returns the elements put in and those whose htmx attributes changed, for the
 * caller to hand to htmx: htmx binds an element when it processes it, from its hx-* and ws-*
 * attributes (and a submit button's type and form); an element keeps its bindings through a
 * change of any other attribute (a class, a label, a position), and processing it again, with
 * every element in it, would be wasted.
 */

// How many element siblings ahead a drawn element's twin is looked for among the shown ones
// (a log line added at the top, a card gone from a round).
var LOOKAHEAD = 8;
var ELEMENT = 1;

function sameKind(shown, drawn) {
  return shown.nodeType === ELEMENT && drawn.nodeType === ELEMENT &&
    shown.localName === drawn.localName && shown.namespaceURI === drawn.namespaceURI &&
    shown.id === drawn.id;
}

// The drawn element's twin among the shown element siblings from `shown` on: the one with its
// id, or else one equal to it.
function twinAhead(shown, drawn) {
  var n = 0;
  for (var node = shown; node && n < LOOKAHEAD; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT) continue;
    n += 1;
    if (drawn.id ? sameKind(node, drawn) : node.isEqualNode(drawn)) return node;
  }
  return null;
}

// Whether the shown element is equal to one of the drawn element siblings after `drawn`:
// then `drawn` is new, put in before it, rather than drawn over it.
function comesLater(shown, drawn) {
  var n = 0;
  for (var node = drawn.nextSibling; node && n < LOOKAHEAD; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT) continue;
    n += 1;
    if (shown.id ? sameKind(shown, node) : shown.isEqualNode(node)) return true;
  }
  return false;
}

// Whether htmx reads an attribute of this name when it binds an element.
var BOUND = /^(?:data-)?hx-|^ws-|^type$|^form$/;

// The drawn element's attributes, in its order (a new attribute would come last otherwise, and
// the element would not read as the one drawn); those in their place are left untouched.
// Returns NONE, OTHER (only attributes htmx does not bind changed) or BINDING.
var NONE = 0;
var OTHER = 1;
var BINDING = 2;
function syncAttributes(shown, drawn) {
  var changed = NONE;
  var i;
  var attr;
  for (i = shown.attributes.length - 1; i >= 0; i--) {
    attr = shown.attributes[i];
    if (!drawn.hasAttributeNS(attr.namespaceURI, attr.localName)) {
      shown.removeAttributeNS(attr.namespaceURI, attr.localName);
      changed = Math.max(changed, BOUND.test(attr.name) ? BINDING : OTHER);
    }
  }
  var inPlace = 0;
  while (inPlace < drawn.attributes.length && inPlace < shown.attributes.length &&
         shown.attributes[inPlace].name === drawn.attributes[inPlace].name) {
    inPlace += 1;
  }
  for (i = 0; i < drawn.attributes.length; i++) {
    attr = drawn.attributes[i];
    if (i >= inPlace && shown.attributes.length > i) {
      // Out of its place: taken out, then set again after those before it.
      shown.removeAttributeNS(attr.namespaceURI, attr.localName);
    }
    if (shown.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
      shown.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
      changed = Math.max(changed, BOUND.test(attr.name) ? BINDING : OTHER);
    }
  }
  return changed;
}

// A field's live state follows its attributes only until a person changes it: when the
// drawing changed the attribute, the field takes the drawn state, as a new field would.
function syncState(shown, drawn, before) {
  if (shown.localName === "input") {
    if (before.value !== drawn.getAttribute("value")) shown.value = drawn.value;
    if (before.checked !== drawn.hasAttribute("checked")) shown.checked = drawn.checked;
  } else if (shown.localName === "option") {
    if (before.selected !== drawn.hasAttribute("selected")) shown.selected = drawn.selected;
  }
}

function morphNode(shown, drawn, touched, whole) {
  if (shown.isEqualNode(drawn)) return;
  if (shown.nodeType !== ELEMENT) {
    shown.nodeValue = drawn.nodeValue;
    return;
  }
  // A template's content is not among its children (isEqualNode does not see it), a text
  // area's value is its text: both are put in new.
  if (shown.localName === "template" || shown.localName === "textarea" || whole(drawn)) {
    shown.replaceWith(drawn);
    touched.push(drawn);
    return;
  }
  var before = {
    value: shown.getAttribute("value"),
    checked: shown.hasAttribute("checked"),
    selected: shown.hasAttribute("selected"),
  };
  var changed = syncAttributes(shown, drawn);
  if (changed !== NONE) syncState(shown, drawn, before);
  if (changed === BINDING) touched.push(shown);
  morphChildren(shown, drawn, touched, whole);
}

function morphChildren(parent, drawnParent, touched, whole) {
  var shown = parent.firstChild;
  var drawn = drawnParent.firstChild;
  while (drawn) {
    var nextDrawn = drawn.nextSibling;
    var twin = null;
    if (shown && drawn.nodeType === ELEMENT) {
      twin = twinAhead(shown, drawn);
      if (!twin && sameKind(shown, drawn) && !comesLater(shown, drawn)) twin = shown;
    } else if (shown && shown.nodeType === drawn.nodeType) {
      twin = shown;  // a text or a comment
    }
    if (twin) {
      while (shown !== twin) {
        var gone = shown;
        shown = shown.nextSibling;
        parent.removeChild(gone);
      }
      shown = twin.nextSibling;
      morphNode(twin, drawn, touched, whole);
    } else {
      parent.insertBefore(drawn, shown);
      if (drawn.nodeType === ELEMENT) touched.push(drawn);
    }
    drawn = nextDrawn;
  }
  while (shown) {
    var rest = shown;
    shown = shown.nextSibling;
    parent.removeChild(rest);
  }
}

export function morph(shown, drawn, whole) {
  var touched = [];
  if (sameKind(shown, drawn)) {
    morphNode(shown, drawn, touched, whole || function () { return false; });
  } else {
    shown.replaceWith(drawn);
    touched.push(drawn);
  }
  return touched;
}
