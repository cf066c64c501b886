"""Taps faster than a person taps are refused before any work is done.

A person taps a button a few times a second at the most; a script can send changes as fast as
the server answers. Each member of a campaign (their session, for that campaign) has a bucket
of `COMPANION_TAPS_PER_SECOND` × 2 taps that refills at that rate; a change that finds it empty
is answered 429 "too many taps" on the event loop, with no thread, no query and no page drawn
(companion/asgi.py); the phone says "too many taps: wait a moment, then try again" next to the
form (static/js/live.js), keeping what was typed.

A campaign as a whole has a bucket of its own, `COMPANION_CAMPAIGN_TAPS_PER_SECOND` × 2 (four
members' pace by default), that all its members' changes draw on: four guests joined from one
person's invitation are four sessions, four members' buckets, but not four times the
campaign's share. A change goes through only when both its member's and its campaign's
buckets have a tap, and takes one from each; a member refused at their own pace takes nothing
from the campaign's, so one script among the members does not use up the others' taps.

Nothing is looked up before the buckets, so a session here is only a cookie's value: anyone
may send changes to any campaign's address under made-up sessions, each refused later as a
stranger's. Those must not use up a campaign's taps, or a stranger could keep its members out.
So the campaign's bucket counts only the sessions that were let change it as its members
(`member`, called by campaigns/views/access.py once the membership is read) in the last
minute; a member's first change after a quiet minute is counted by their own bucket alone.

A refusal is held for the second its `Retry-After` names before it is sent (companion/asgi.py
awaits it on the event loop: no thread). A script that sends its next change as soon as an
answer comes is then refused once a second a connection, instead of as fast as the server can
refuse (about 600 a second on two cores, whose parsing and answering was itself what slowed the
other tables: tests/bench/bench_fair.py); a person who tapped too fast reads the refusal a
moment later, by when their next tap goes through.

The buckets live in this process's memory: behind a proxy spreading one phone over several
processes the limit is per process, which is still a person's pace times the processes.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Hashable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils import translation

# Buckets not touched for this long are full again, and forgotten.
IDLE = 60.0
# Seconds a refusal is held before it is sent (its Retry-After).
HOLD = 1


class Taps:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (taps left, when)
        # (session, campaign) -> when it last changed the campaign as a member: written by the
        # threads that answer changes, read and swept on the event loop.
        self.members: dict[Hashable, float] = {}
        self.clock = clock
        self.swept = clock()

    def member(self, key: Hashable) -> None:
        """`key` (session, campaign) was just let change the campaign as one of its members."""
        self.members[key] = self.clock()

    def is_member(self, key: Hashable) -> bool:
        return key in self.members

    def allow(self, key: Hashable, rate: float, now: float | None = None) -> bool:
        """One tap for `key`, if its bucket has one."""
        return self.allow_all([(key, rate)], now)

    def allow_all(
        self, buckets: Iterable[tuple[Hashable, float]], now: float | None = None
    ) -> bool:
        """One tap from each bucket (key, rate), if every one of them has one; none taken
        otherwise."""
        now = self.clock() if now is None else now
        filled = []
        for key, rate in buckets:
            size = rate * 2
            left, when = self.buckets.get(key, (size, now))
            filled.append((key, min(size, left + (now - when) * rate)))
        if now - self.swept > IDLE:
            self.sweep(now)
        allowed = all(left >= 1 for _, left in filled)
        for key, left in filled:
            self.buckets[key] = (left - 1 if allowed else left, now)
        return allowed

    def sweep(self, now: float) -> None:
        self.swept = now
        for key in [key for key, (_, when) in self.buckets.items() if now - when > IDLE]:
            del self.buckets[key]
        # A copy first: a thread may add a member meanwhile.
        for key in [key for key, when in list(self.members.items()) if now - when > IDLE]:
            self.members.pop(key, None)


TAPS = Taps()


@functools.cache
def refusal(language: str, htmx: bool) -> str:
    """The refusal's words, drawn once per language (a script is refused hundreds of times)."""
    with translation.override(language):
        return loader.render_to_string("too-fast.html", {"htmx": htmx})


def too_fast(request: HttpRequest, campaign: object) -> HttpResponse | None:
    """The refusal for a change over its member's pace or its campaign's, or None to let it
    through. A request with no session is not counted here: it is refused as a stranger's, and
    cheaply."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session:
        return None
    buckets: list[tuple[Hashable, float]] = []
    if (member := settings.COMPANION_TAPS_PER_SECOND) > 0:
        buckets.append(((session, campaign), member))
    whole = settings.COMPANION_CAMPAIGN_TAPS_PER_SECOND
    if whole > 0 and TAPS.is_member((session, campaign)):
        buckets.append(((campaign,), whole))  # one item: never a member's (session, campaign)
    if not buckets or TAPS.allow_all(buckets):
        return None
    response = HttpResponse(
        refusal(translation.get_language_from_request(request), "HX-Request" in request.headers),
        status=429,
    )
    response["Retry-After"] = str(HOLD)
    return response


def member(request: HttpRequest, campaign: object) -> None:
    """The session of `request` changes `campaign` as one of its members: its changes count
    towards the campaign's bucket from now on (the key `too_fast` reads)."""
    if session := request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        TAPS.member((session, campaign))
