"""The pages streams push: one drawing and one encoded message per push key and version.

A push key is what a pushed page's bytes depend on besides the campaign's version: the page's
path and the query it reads, the language, the time zone and the member's role
(campaigns/views/live.py makes it; campaigns/views/shared.py's key is the same, with the
version). The page holds no CSRF token (its forms' field is empty, the phone sends the token of
its full page in a header), so its bytes are the same for every phone of a key.

The first stream of a key to hear a version starts the drawing: one task on the event loop,
which hands the work to one of the threads kept for live drawings (LIVE_LANES): the page
drawn through Django's handler, then encoded once as a server-sent event, whole and, when the
key's previous drawing is kept, as only the regions that changed since (campaigns/live_delta.py).
Every other stream of the key awaits the same task on the loop: no thread hop, no JSON
encoding, no copy per phone. A phone showing exactly the previous version gets the changed
regions (`"from"`: that version), every other phone the whole page.

At most PUSHED_DRAWINGS keys are drawn per campaign version (beyond, the stream sends the
version and the phone asks for its page), the tasks of older versions are dropped when a newer
one starts, a key's kept page goes when a version passes without it being drawn, and a
campaign's go when its last stream closes (campaigns/live.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from campaigns import live_delta
from campaigns.live import Hub, message
from campaigns.views.shared import LIVE_LANES, PUSHED_DRAWINGS
from companion.lanes import Busy

log = logging.getLogger(__name__)

Key = tuple[Hashable, ...]
# Draws the page at the campaign's newest version: that version and the HTML, or None.
Draw = Callable[[], tuple[int, str] | None]


@dataclass(frozen=True)
class Pushed:
    """One key's page at one version, encoded once: the whole page, and the regions changed
    since version `since` (None when there is no such message)."""

    version: int
    whole: bytes
    body: str = field(repr=False)
    since: int | None = None
    delta: bytes | None = None

    def for_phone(self, shown: int | None) -> bytes:
        """The message for a phone showing version `shown` (None: not known)."""
        if self.delta is not None and shown is not None and shown == self.since:
            return self.delta
        return self.whole


class Board:
    """One campaign's pushes: the drawings of its newest versions by key, and each key's last
    drawn page (what the next version's changed regions are found against)."""

    def __init__(self) -> None:
        self.drawings: dict[int, dict[Key, asyncio.Future[Pushed | None]]] = {}
        self.last: dict[Key, tuple[int, str]] = {}


async def pushed(hub: Hub, pk: int, version: int, key: Key, draw: Draw) -> Pushed | None:
    """The page of `key` at `version` (or newer), drawn once for all the streams that ask."""
    board = hub.boards.setdefault(pk, Board())
    newest = max(board.drawings, default=-1)
    if version > newest:
        # The older versions' drawings: no stream asks again. The pages kept to find the next
        # changes against: only those of the keys drawn at the newest version (every open
        # stream's key is drawn each version, so the others have no phone left; a table cycling
        # through addresses would otherwise grow this by a page an address).
        drawn = board.drawings.get(newest, {})
        board.last = {key: page for key, page in board.last.items() if key in drawn}
        board.drawings = {version: {}}
    drawings = board.drawings.setdefault(version, {})
    drawing = drawings.get(key)
    if drawing is None:
        if len(drawings) >= PUSHED_DRAWINGS:
            return None
        drawing = drawings[key] = asyncio.ensure_future(start(board, pk, key, draw))
    # Shielded: a phone that goes away while it waits does not stop the others' drawing.
    return await asyncio.shield(drawing)


async def start(board: Board, pk: int, key: Key, draw: Draw) -> Pushed | None:
    before = board.last.get(key)
    try:
        done = await LIVE_LANES.run(pk, encode, draw, before)
    except Busy:
        # Not drawn within the database's wait: the streams of this key send the version, and
        # their phones ask for the page themselves; the next version draws again.
        log.warning("A pushed page was not drawn in time; its phones ask for it")
        return None
    except Exception:
        log.exception("Could not push a page")
        return None
    kept = board.last.get(key)
    if done is not None and (kept is None or kept[0] < done.version):
        board.last[key] = (done.version, done.body)
    return done


def encode(draw: Draw, before: tuple[int, str] | None) -> Pushed | None:
    """In a drawing thread: the page drawn, and its messages encoded once."""
    drawn = draw()
    if drawn is None:
        return None
    version, body = drawn
    whole = message("page", {"version": version, "html": body}).encode()
    if before is None or before[0] >= version:
        return Pushed(version, whole, body)
    changed = live_delta.delta(before[1], body)
    if changed is None:
        return Pushed(version, whole, body)
    part = message("page", {"version": version, "from": before[0], "html": changed}).encode()
    return Pushed(version, whole, body, before[0], part)
