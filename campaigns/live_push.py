"""The pages streams push: one drawing and one encoded message per push key and version.

A push key is what a pushed page's bytes depend on besides the campaign's version: the page's
path and the query it reads, the language, the time zone and the member's role
(campaigns/views/live.py makes it; campaigns/views/shared.py's key is the same, with the
version). The page holds no CSRF token (its forms' field is empty, the phone sends the token of
its full page in a header), so its bytes are the same for every phone of a key.

The first stream of a key to hear a version starts the drawing: one task on the event loop,
which hands the work to one of the threads kept for live drawings (LIVE_LANES): the page
drawn through Django's handler, then encoded once as a server-sent event. Every other stream
of the key awaits the same task on the loop: no thread hop, no JSON encoding, no copy per
phone.

At most PUSHED_DRAWINGS keys are drawn per campaign version (beyond, the stream sends the
version and the phone asks for its page), the tasks of older versions are dropped when a newer
one starts, and a campaign's drawings go when its last stream closes (campaigns/live.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from campaigns.live import Hub, message
from campaigns.views.shared import LIVE_LANES, PUSHED_DRAWINGS

log = logging.getLogger(__name__)

Key = tuple[Hashable, ...]
# Draws the page at the campaign's newest version: that version and the HTML, or None.
Draw = Callable[[], tuple[int, str] | None]


@dataclass(frozen=True)
class Pushed:
    """One key's page at one version, encoded once."""

    version: int
    whole: bytes


class Board:
    """One campaign's pushes: the drawings of its newest versions by key."""

    def __init__(self) -> None:
        self.drawings: dict[int, dict[Key, asyncio.Future[Pushed | None]]] = {}


async def pushed(hub: Hub, pk: int, version: int, key: Key, draw: Draw) -> Pushed | None:
    """The page of `key` at `version` (or newer), drawn once for all the streams that ask."""
    board = hub.boards.setdefault(pk, Board())
    if version > max(board.drawings, default=-1):
        board.drawings = {version: {}}  # the older versions' drawings: no stream asks again
    drawings = board.drawings.setdefault(version, {})
    drawing = drawings.get(key)
    if drawing is None:
        if len(drawings) >= PUSHED_DRAWINGS:
            return None
        drawing = drawings[key] = asyncio.ensure_future(start(board, pk, key, draw))
    # Shielded: a phone that goes away while it waits does not stop the others' drawing.
    return await asyncio.shield(drawing)


async def start(board: Board, pk: int, key: Key, draw: Draw) -> Pushed | None:
    try:
        return await LIVE_LANES.run(pk, encode, draw)
    except Exception:
        log.exception("Could not push a page")
        return None


def encode(draw: Draw) -> Pushed | None:
    """In a drawing thread: the page drawn, and its message encoded once."""
    drawn = draw()
    if drawn is None:
        return None
    version, body = drawn
    return Pushed(version, message("page", {"version": version, "html": body}).encode())
