"""Only the live regions that changed between two drawings of the same page.

A change reaches every phone of a campaign; a phone that shows exactly the previous version
needs only the regions the change redrew, not the page (about 50 KB a phone for a chaos bag
draw). `delta(before, after)` takes two whole drawings of one page (the live refresh's HTML at
versions v-1 and v) and gives an HTML text holding the `<title>` of `after` and, of its live
regions (`[data-live][id]`, marked by `{% region %}`), those that differ from `before`: the
top-most changed ones only (a region whose inner regions alone changed gives just those).
live.js swaps each one in where it finds its id, at any depth. None when the whole page should
go: the page has no regions, or they are not the same ids in the same order and nesting.

Two things every form carries are no change: its CSRF token (as live.js's `same()`: a phone
keeps the one it has) and the version the screen was drawn at (`{% command_form %}`'s hidden
`version`, written in that exact form by campaigns/templatetags/command_forms.py). Every form
has one, so counting it would send every region with a form; live.js instead writes the new
version into the forms of the regions it did not swap: a phone that showed exactly the previous
version shows this one once the changed regions are in (a region left as it was because the
user is typing there keeps its old version, and a change from it is checked as stale).

The templates write each region's element by hand (`{% region "x" %}<section id="x" data-live
…>`), so this reads its start tag rather than trusting one exact form: the attributes in any
order, quoted or not (a `>` inside quotes does not end the tag), none in a comment. Its end is
the end tag that balances its name (every region's element is closed in the templates; the
tests hold the scan to Python's HTML parser on every page). Stdlib only; a few milliseconds on
the largest page (the regex engine walks it, Python sees only the region's own tags).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

# A start tag: its name and its attributes, up to the `>` that is outside quotes.
START = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)([^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*)>")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
ATTRIBUTE = re.compile(r"""([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
TITLE = re.compile(r"<title\b[^>]*>.*?</title\s*>", re.DOTALL | re.IGNORECASE)
# What no region's change is (see above).
SAME = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|name="version" value="\d*"')
SAME_NAME: dict[str, re.Pattern[str]] = {}  # an element's start and end tags, by its name


@dataclass
class Region:
    id: str
    start: int
    end: int = -1
    parent: Region | None = None
    inner: list[Region] = field(default_factory=list)


def region_id(attributes: str) -> str | None:
    """The id of a start tag that marks a live region (`data-live` and an id), else None."""
    if "data-live" not in attributes:
        return None
    names: dict[str, str] = {}
    for match in ATTRIBUTE.finditer(attributes):
        value = match.group(2) or ""
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        names.setdefault(match.group(1).lower(), value)
    if "data-live" not in names or not names.get("id"):
        return None
    return html.unescape(names["id"])


def same_name(name: str) -> re.Pattern[str]:
    if name not in SAME_NAME:
        SAME_NAME[name] = re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])", re.IGNORECASE)
    return SAME_NAME[name]


def regions_of(page: str) -> list[Region]:
    """Every live region of `page`, in document order, each with its extent and nesting.

    A region's start tag is found from its `data-live`; its end is the end tag that balances the
    start tags of its name after it (Django escapes every `<` it writes in text and attributes,
    so each `<name` is a tag)."""
    comments = [m.span() for m in COMMENT.finditer(page)] if "<!--" in page else []
    found: list[Region] = []
    open_: list[Region] = []  # the regions around the one being read
    at = page.find("data-live")
    while at >= 0:
        tag = START.match(page, page.rfind("<", 0, at))
        if tag is None or tag.end() <= at:  # not in a start tag: text, or a value in one
            at = page.find("data-live", at + 9)
            continue
        identity = region_id(tag.group(2))
        if identity is not None and not any(a <= at < b for a, b in comments):
            start, end = tag.start(), ending(page, tag)
            while open_ and open_[-1].end <= start:
                open_.pop()
            up = open_[-1] if open_ else None
            region = Region(identity, start, end, parent=up)
            if up is not None:
                up.inner.append(region)
            found.append(region)
            open_.append(region)
        at = page.find("data-live", tag.end())
    return found


def ending(page: str, tag: re.Match[str]) -> int:
    """Where the element that `tag` starts ends: after the end tag that balances it."""
    depth = 1
    for match in same_name(tag.group(1)).finditer(page, tag.end()):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return page.find(">", match.end()) + 1 or len(page)
    return len(page)


def shape(regions: list[Region]) -> list[tuple[str, str | None]]:
    return [(r.id, r.parent.id if r.parent else None) for r in regions]


def outside(page: str, region: Region) -> str:
    """The region's markup with each inner region's replaced by its id: what it shows itself."""
    parts, at = [], region.start
    for inner in region.inner:
        parts += [page[at : inner.start], f"\0{inner.id}\0"]
        at = inner.end
    parts.append(page[at : region.end])
    return SAME.sub("", "".join(parts))


def delta(before: str, after: str) -> str | None:
    """`after`'s title and its live regions that differ from `before`'s, top-most only; None
    when the whole page should go (no regions, or not the same ones in the same places)."""
    old, new = regions_of(before), regions_of(after)
    if not new or shape(old) != shape(new):
        return None
    title = TITLE.search(after)
    parts = [title.group(0)] if title else []
    pairs = dict(zip((id(r) for r in new), old, strict=True))

    def changed(region: Region) -> None:
        was = pairs[id(region)]
        mine, theirs = after[region.start : region.end], before[was.start : was.end]
        if mine == theirs or SAME.sub("", mine) == SAME.sub("", theirs):
            return
        if region.inner and outside(after, region) == outside(before, was):
            for inner in region.inner:
                changed(inner)
        else:
            parts.append(mine)

    for region in new:
        if region.parent is None:
            changed(region)
    return "\n".join(parts)
