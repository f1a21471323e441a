"""A small DOM for tests: parses the generator's HTML or Chromium's --dump-dom (stdlib only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list["Node | str"] = field(default_factory=list)

    @property
    def text(self) -> str:
        parts = []
        for child in self.children:
            parts.append(child if isinstance(child, str) else child.text)
        return "".join(parts)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(
        self, tag: str | None = None, cls: str | None = None, **attrs: str
    ) -> list["Node"]:
        """Descendants (and self) by tag, class and attributes (data_kind= matches data-kind)."""
        wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.classes)
            and all(n.attrs.get(k) == v for k, v in wanted.items())
        ]

    def lookup(self, tag: str, *names: str) -> dict[tuple[str, ...], "Node"]:
        """Descendants `tag` by the values of their attributes `names`, the first of each: one
        walk of the tree for many finds (a page's cells)."""
        table: dict[tuple[str, ...], Node] = {}
        for n in self.iter():
            if n.tag == tag and all(k in n.attrs for k in names):
                table.setdefault(tuple(n.attrs[k] for k in names), n)
        return table

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> "Node | None":
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):  # tolerate implied closings
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(text: str) -> Node:
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root
