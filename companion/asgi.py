"""The ASGI application: Django's handler, with request bodies capped (companion/limits.py) and
the live refresh and the changes to a campaign each answered in one thread.

Under ASGI every middleware that is a `MiddlewareMixin` (sessions, CSRF, auth, locale, gzip…)
hands each request and each response to a thread and back to the event loop, about twenty hops
a request, and each request gets a new thread of its own. That is how the streams and static
files stay off threads, but for the requests a table makes most it costs more than their work:

- a phone that cannot take the page from its stream asks for it (live.js's refresh,
  `X-Live-Refresh`), drawn once for all the phones that show the same
  (campaigns/views/shared.py);
- when many phones tap one campaign at once, each change waits its turn for the campaign's row
  anyway: more threads than turns only add switching, and throughput fell as writers were added
  (tests/bench/bench_live.py, "writers").

So these go through the same middleware built synchronously, as under WSGI, in one of a few
threads kept for them: one hop, and the others wait their turn on the event loop, which costs
nothing. They wait in one lane per campaign (companion/lanes.py): a campaign's changes take one
thread at a time (they queue on its row anyway), and the campaigns take turns, so a busy table
never makes another wait behind it. A member sending changes faster than a person taps is
answered "too many taps" before any of this, held a second first (companion/taps.py). Every
other request is handled as Django does.
"""

import asyncio
import contextlib
import os
import sys
from collections.abc import Hashable
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.db import close_old_connections
from django.db.backends.signals import connection_created
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from companion.errors import try_again
from companion.lanes import Busy, Lanes
from companion.limits import cap_request_bodies
from companion.taps import HOLD, too_fast

SWITCH_INTERVAL = 0.0005  # seconds: a tenth of Python's default

# A thread waiting for the interpreter's lock (the event loop, a quiet table's change) waits for
# the running thread's turn to end: 5 ms by default, at every reacquisition. A change or a
# drawing takes the lock back dozens of times (every query, every write), so beside a busy
# table's drawing thread a quiet table's tap took four times its idle time, waiting in 5 ms
# steps (tests/bench/bench_fair.py, 40 streams on 40 addresses). Shorter turns trade a little
# switching for that latency (sys.setswitchinterval, public API).
sys.setswitchinterval(SWITCH_INTERVAL)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from campaigns.views.shared import LIVE_LANES, is_live_refresh  # noqa: E402
from companion import postgres  # noqa: E402

# Every query of the serving process waits for PostgreSQL at most COMPANION_DB_WAIT
# (companion/postgres.py); management commands (a migration's long ALTER) are not bounded.
connection_created.connect(postgres.watch, dispatch_uid="companion-db-watchdog")

# Changes to a campaign (a command, undo, redo): four threads, one per campaign at a time.
# A change not done within the database's wait (queued, or on a thread the database holds up)
# is answered "try again" then, as a request that waited for the database itself is.
CHANGE_LANES = Lanes(4, per_lane=1, name="change", wait=settings.DATABASE_WAIT)
CHANGES = {"act", "undo", "redo"}  # campaigns/urls.py's names
PAGES = {"campaign", "game-page", "history", "settings", "members", "display"}


def kept_threads(request: HttpRequest) -> tuple[Lanes, Hashable] | None:
    """The threads kept for this kind of request and its lane (its campaign), if it is one
    answered in one thread."""
    live = is_live_refresh(request)
    if not live and request.method != "POST":
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    # Only a campaign's own addresses have a lane: anything else (the home page, the log-in page,
    # a made-up address) is answered as Django answers it, whatever headers came with it.
    if match.namespace != "campaigns" or "pk" not in match.kwargs:
        return None
    campaign = match.kwargs["pk"]
    if live:
        # A campaign's pages; a live refresh of any other address (its stream, a change) is
        # answered as Django answers it, out of the drawings' lanes.
        return (LIVE_LANES, campaign) if match.url_name in PAGES else None
    if match.url_name in CHANGES:
        return CHANGE_LANES, campaign
    return None


STREAMS = {"stream", "display-stream"}  # campaigns/urls.py's names
# Streams opening at once (their queries), at most: under half the PostgreSQL pool
# (COMPANION_DB_POOL), the rest left to taps and pages. A stream waits at most STREAM_OPEN_WAIT
# seconds for its turn, then is answered "try again" (the phone opens it again a second later).
STREAM_OPENINGS = max(1, settings.DATABASE_POOL // 2)
STREAM_OPEN_WAIT = 30.0
_openings: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def openings() -> asyncio.Semaphore:
    """The turns of this event loop's stream openings (a test's loop has its own)."""
    loop = asyncio.get_running_loop()
    if loop not in _openings:
        for old in [old for old in _openings if old.is_closed()]:
            del _openings[old]
        _openings[loop] = asyncio.Semaphore(STREAM_OPENINGS)
    return _openings[loop]


def is_stream(path: str) -> bool:
    """A live stream's address: a response that lasts minutes."""
    if not path.endswith("/stream/"):
        return False
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.namespace == "campaigns" and match.url_name in STREAMS


class Handler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.in_thread = BaseHandler()
        self.in_thread.load_middleware(is_async=False)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Django's, but a stream holds no thread while it waits.

        Django holds one `ThreadSensitiveContext` for the whole request, so the thread its sync
        parts (the middleware, the session) ran in is kept until the response ends: for a
        stream, minutes of an idle thread per phone. A stream's context covers only the drawing
        of its response (`run_get_response`); its thread goes when the events start. What runs
        at the very end (closing the response) takes asgiref's shared thread then.
        (`ThreadSensitiveContext` is asgiref's public way to say which requests share a thread.)
        """
        if scope["type"] == "http" and is_stream(scope["path"]):
            await self.handle(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        if is_stream(request.path):
            # A restart or a deploy brings every phone's stream back at once: a thousand
            # openings, each a thread and a few queries, queued for the database pool's sixteen
            # connections past its wait, and half were answered 503. They take turns here
            # instead, waiting on the event loop (no thread), a few at a time.
            turns = openings()
            try:
                async with asyncio.timeout(STREAM_OPEN_WAIT):
                    await turns.acquire()
            except TimeoutError:
                return try_again()
            try:
                async with ThreadSensitiveContext():
                    return await super().run_get_response(request)
            finally:
                turns.release()
        return await super().run_get_response(request)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        kept = kept_threads(request)
        if kept is None:
            return await super().get_response_async(request)
        lanes, campaign = kept
        if lanes is CHANGE_LANES:
            if (refusal := too_fast(request, campaign)) is not None:
                await asyncio.sleep(HOLD)  # (why: companion/taps.py)
                return refusal
            # The body is read here, from memory (companion/limits.py caps it): when the phone
            # goes away, Django closes the request's body file as the thread may be about to
            # read it ("I/O operation on closed file", seen once in the suite); read now, the
            # thread parses the copy `request.body` keeps.
            with contextlib.suppress(Exception):  # (too large: refused in the thread, as before)
                request.body  # noqa: B018
        try:
            return await lanes.run(campaign, self.in_one_thread, request)
        except Busy:
            return try_again()

    def in_one_thread(self, request: HttpRequest) -> HttpResponseBase:
        try:
            return self.in_thread.get_response(request)
        finally:
            # This thread serves other requests next: its connections go back to their pool
            # now (Django closes them at the request's end, from another thread).
            close_old_connections()


application = cap_request_bodies(Handler())
