"""A small DOM for the board's tests: parse HTML (the standard library's parser), apply a patch
(`app.live.frames`) the way static/js/patch.js and htmx's out-of-band swap do, compare trees."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser

from app.live.frames import PATCH_PREFIX

VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def find(self, element_id: str) -> tuple[Element, int] | None:
        """The parent of the element with `element_id` and its place among the children."""
        for i, child in enumerate(self.children):
            if isinstance(child, Element):
                if child.attrs.get("id") == element_id:
                    return self, i
                found = child.find(element_id)
                if found is not None:
                    return found
        return None


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#fragment", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    """The fragment's tree (comments dropped, as htmx's swap ignores them)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert len(builder.stack) == 1, "unclosed elements"
    return builder.root


def elements(fragment: Element) -> list[Element]:
    return [child for child in fragment.children if isinstance(child, Element)]


def board_of(page: Element) -> Element:
    found = page.find("board")
    assert found is not None
    parent, index = found
    board = parent.children[index]
    assert isinstance(board, Element)
    return board


def apply(page: Element, message: str) -> None:
    """Apply one socket message to `page`: a whole board replaces the board; a patch must fit
    the board shown (its frame), sets the board's attributes and swaps each part by its id."""
    if not message.startswith(PATCH_PREFIX):
        parent, index = page.find("board") or (None, 0)
        assert parent is not None
        parent.children[index] = board_of(parse(message))
        return
    end = message.index("-->")
    head = json.loads(message[len(PATCH_PREFIX) : end])
    board = board_of(page)
    assert board.attrs["data-frame"] == head["base"], "a patch applied on another board"
    board.attrs.update(
        {
            "data-version": head["version"],
            "data-frame": head["frame"],
            "data-to-move": head["toMove"],
            "data-acting": head["acting"],
            "data-playable": head["playable"],
            "class": head["class"],
        }
    )
    for part in elements(parse(message[end + 3 :])):
        found = page.find(part.attrs["id"])
        assert found is not None, f"no element #{part.attrs['id']} to swap"
        parent, index = found
        parent.children[index] = part


def normalised(node: Element | str) -> object:
    """A comparable form of the tree: the forms' one-off move ids left out."""
    if isinstance(node, str):
        return node
    attrs = dict(node.attrs)
    if attrs.get("name") == "client_move_id":
        attrs["value"] = ""
    return (node.tag, sorted(attrs.items()), [normalised(child) for child in node.children])
