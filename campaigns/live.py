"""Live updates: one listener per server process tells that process's open streams what changed.

A phone's stream waits on an `asyncio.Event`; an idle phone costs no query, no thread and no
database connection. What wakes it:

- PostgreSQL: the transaction that changes a campaign sends `pg_notify` (delivered at commit, so
  never for a change that rolled back), and each process holds one `LISTEN` connection, whichever
  process made the change.
- SQLite: a change made in this process is announced after its commit. Other processes may share
  the file, so one watcher per process looks at the database file's stamp (size and time, no
  query) a few times a second, and reads the watched campaigns' versions only when it moved.

A notice is `<campaign> v <version>`, `<campaign> left <user>` (a member removed),
`<campaign> role <user> <role>` (a member's role changed), `<campaign> display` (a new
invitation retired the table display's link) or `<campaign> gone` (the campaign deleted); the
last four end that member's, the display's or everyone's stream.

A stream follows its session too: it pushes whole pages, so it must stop as soon as the phone
could no longer ask for them itself. `session <digest>` (a session logged out or flushed: the
digest of its key, never the key) ends the streams of that session; `user <id>` (an account saved:
its password changed, say) makes that user's streams look again at their session. Every stream
also looks when its session expires (a timer, no query before), and every look of the SQLite
watcher and every new PostgreSQL listener looks at all of them at once (what another process
changed, or what was announced before this process listened), the campaigns' invitations with
them: a table display whose link a new invitation retired ends too. A look that cannot read the
database ends the stream as its lifetime does: the phone opens a new one, checked like the
first. The checks themselves are in campaigns/live_sessions.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, transaction
from django.db.backends.sqlite3 import base as sqlite

from campaigns.live_sessions import (
    concerns_who_may_look,
    digest,
    refused,
    who_may_look_count,
    who_may_look_moved,
)

if TYPE_CHECKING:
    from campaigns.live_push import Board, Pushed

log = logging.getLogger(__name__)

CHANNEL = "companion_live"
# How often the SQLite watcher looks at the file's stamp, and the stream's keep-alive (seconds).
SQLITE_TICK = 0.2
HEARTBEAT = 15.0


class Watch:
    """One open stream: the newest version heard for its campaign, or that it must end."""

    def __init__(
        self, hub: Hub, campaign_id: int, user_id: int | None, session_key: str | None = None
    ) -> None:
        # user_id None: the table display, which no member holds (never "removed").
        self.hub, self.campaign_id, self.user_id = hub, campaign_id, user_id
        # The session the stream was opened with, what its user's password made of it, the
        # member's role the page was drawn for, and when the session expires (epoch seconds):
        # set when the stream opens (campaigns/views/live.py), checked by `refused`.
        self.session_key = session_key or ""
        self.session = digest(session_key) if session_key else ""
        self.auth_hash = ""
        self.password = ""  # the user's password hash the auth hash was made from
        self.role = ""
        self.expires: float | None = None
        # The table display's: the invitation its link was made from (a new one retires it).
        self.invite = ""
        # Until those are set, a notice about the member only says to look again once they are.
        self.opened = False
        self.doubt = False
        self.version: int | None = None
        self.gone = False
        # Why the member may no longer look: "deleted" (the campaign), "removed" (the member),
        # "role" (the member's role changed), "login" (the session ended) or, for the table
        # display, "retired" (its link was made anew).
        self.why = ""
        # The server is stopping: the stream ends as at its lifetime (the phone comes back).
        self.closing = False
        self.wake = asyncio.Event()

    def hear(self, version: int) -> None:
        self.version = version if self.version is None else max(self.version, version)
        self.wake.set()

    def end(self, why: str = "deleted") -> None:
        # Deleting a campaign removes its members too: "deleted" is the news that stays.
        if not self.gone or why == "deleted":
            self.why = why
        self.gone = True
        self.wake.set()

    def finish(self) -> None:
        self.closing = True
        self.wake.set()

    async def wait(self, timeout: float) -> bool:
        """Wait for news; False when the timeout came first."""
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            return False
        self.wake.clear()
        return True

    def close(self) -> None:
        self.hub.forget(self)


class Hub:
    """The streams open on one event loop, by campaign, and the one task that feeds them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.watches: dict[int, set[Watch]] = {}
        # The same streams by their session's digest: a session's end finds its streams at once
        # (`clearsessions` ends thousands of sessions in one go).
        self.sessions: dict[str, set[Watch]] = {}
        self.task: asyncio.Task | None = None
        # Queries the listener made, for the test that idle streams make none.
        self.queries = 0
        self.ticks = 0
        self.looks: set[asyncio.Task] = set()
        # By campaign, the pages its streams push (campaigns/live_push.py's Board).
        self.boards: dict[int, Board] = {}
        # What the last look read: each watched campaign's version and invitation, and the count
        # of changes to who may look (None: look at every stream's session next time).
        self.seen: dict[int, tuple[int, str]] = {}
        self.stamp: int | None = None

    def watch(self, campaign_id: int, user_id: int | None, session_key: str | None = None) -> Watch:
        watch = Watch(self, campaign_id, user_id, session_key)
        self.watches.setdefault(campaign_id, set()).add(watch)
        if watch.session:
            self.sessions.setdefault(watch.session, set()).add(watch)
        return watch

    def every(self) -> list[Watch]:
        return [watch for group in self.watches.values() for watch in group]

    async def recheck(self, watches: list[Watch]) -> None:
        """Look again at these streams' sessions and memberships, ending those that may not go
        on. When the database cannot say, they end as at their lifetime (the phone comes back
        and is checked as it opens)."""
        self.queries += 3
        try:
            verdicts = await sync_to_async(refused, thread_sensitive=False)(watches)
        except Exception as error:
            log.warning("Could not look at the streams' sessions (%s); they start again", error)
            for watch in watches:
                watch.finish()
            return
        for watch, why in verdicts.items():
            watch.end(why)

    def look_later(self, watches: list[Watch]) -> None:
        task = self.loop.create_task(self.recheck(watches))
        self.looks.add(task)
        task.add_done_callback(self.looks.discard)

    def start(self) -> None:
        """Listen, if this process does not yet (when a stream starts, not for a refused one)."""
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self.listen())

    async def stop(self) -> None:
        """Stop listening (the listening connection closes): for a test's event loop."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def forget(self, watch: Watch) -> None:
        group = self.watches.get(watch.campaign_id)
        if group is not None:
            group.discard(watch)
            if not group:
                del self.watches[watch.campaign_id]
                self.boards.pop(watch.campaign_id, None)
                self.seen.pop(watch.campaign_id, None)
        same = self.sessions.get(watch.session)
        if same is not None:
            same.discard(watch)
            if not same:
                del self.sessions[watch.session]

    def deliver(self, notice: str) -> None:
        """Hand one notice to the streams it concerns (on the hub's loop)."""
        try:
            first, kind, *rest = notice.split()
            if first == "session":
                for watch in list(self.sessions.get(kind, ())):
                    watch.end("login")
                return
            if first == "user":
                mine = [watch for watch in self.every() if watch.user_id == int(kind)]
                for watch in mine:
                    watch.doubt = watch.doubt or not watch.opened
                opened = [watch for watch in mine if watch.opened]
                if opened:
                    self.look_later(opened)
                return
            group = self.watches.get(int(first), ())
            for watch in list(group):
                if kind == "v":
                    watch.hear(int(rest[0]))
                elif kind == "gone":
                    watch.end("deleted")
                elif kind == "left" and watch.user_id == int(rest[0]):
                    watch.end("removed")
                elif kind == "display" and watch.user_id is None:
                    watch.end("retired")  # the display's link was made anew
                elif kind == "role" and watch.user_id == int(rest[0]):
                    if not watch.opened:
                        watch.doubt = True
                    elif watch.role != rest[1]:
                        watch.end("role")
        except (ValueError, IndexError):
            log.warning("Unreadable live notice %r", notice)

    async def listen(self) -> None:
        if connection.vendor == "postgresql":
            await self.listen_postgresql()
        else:
            await self.watch_sqlite_file()

    async def listen_postgresql(self) -> None:
        import psycopg

        params = connections["default"].get_connection_params()
        kwargs = {
            key: value
            for key, value in params.items()
            if key not in {"cursor_factory", "context", "prepare_threshold", "pool"}
        }
        delay = 0.5
        while self.watches:
            try:
                async with await psycopg.AsyncConnection.connect(autocommit=True, **kwargs) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.5
                    # Whatever changed while no one listened (a restart, a lost connection).
                    await self.check_versions(everyone=True)
                    async for notify in conn.notifies():
                        self.deliver(notify.payload)
                        if not self.watches:
                            return
            except psycopg.Error as error:
                log.warning("Live listener lost the database (%s); trying again", error)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def watch_sqlite_file(self) -> None:
        path = str(settings.DATABASES["default"]["NAME"])
        db = connections["default"]
        if isinstance(db, sqlite.DatabaseWrapper) and db.is_in_memory_db():
            path = ""  # one process only: announcements after commit are all there is
        stamp = file_stamp(path)
        # What another process changed before this look began.
        with contextlib.suppress(Exception):
            await self.check_versions(everyone=True)
        while self.watches:
            await asyncio.sleep(SQLITE_TICK)
            self.ticks += 1
            now = file_stamp(path)
            if now != stamp:
                stamp = now
                with contextlib.suppress(Exception):
                    await self.check_versions()

    async def check_versions(self, everyone: bool = False) -> None:
        """Read every watched campaign's version and invitation, once for all the streams (what
        another process changed, or what was announced while this process did not listen yet),
        and wake only the streams of the campaigns that moved. The streams' sessions and
        memberships are looked at again only when who may look changed since the last look
        (`LiveStamp`), or `everyone`: a write costs what it changed, not a look at every stream
        of the process."""
        ids = list(self.watches)
        if not ids:
            return
        seen = None if everyone else self.stamp
        self.queries += 2 if seen is not None else 5
        versions, invites, stamp, verdicts = await sync_to_async(
            read_versions, thread_sensitive=False
        )(ids, self.every(), seen)
        if stamp != seen:
            self.queries += 0 if seen is None else 3
        self.stamp = stamp
        # Ended first: a stream whose session ended gets no page.
        for watch, why in verdicts.items():
            watch.end(why)
        for campaign_id in ids:
            if campaign_id not in versions:
                self.deliver(f"{campaign_id} gone")
                continue
            now = versions[campaign_id], invites[campaign_id]
            if self.seen.get(campaign_id) == now:
                continue
            self.seen[campaign_id] = now
            for watch in list(self.watches.get(campaign_id, ())):
                if watch.invite and now[1] != watch.invite:
                    watch.end("retired")  # a new invitation made the display's link anew
            self.deliver(f"{campaign_id} v {now[0]}")


def read_versions(
    ids: list[int], watches: list[Watch], seen: int | None
) -> tuple[dict[int, int], dict[int, str], int, dict]:
    """The campaigns' versions and invitations, the count of changes to who may look, and, when
    that is not `seen`, why streams may not go on (`refused`)."""
    from campaigns.models import Campaign

    try:
        rows = list(
            Campaign.objects.filter(pk__in=ids).values_list("pk", "version", "invite_token")
        )
        versions = {pk: version for pk, version, _invite in rows}
        invites = {pk: invite for pk, _version, invite in rows}
        stamp = who_may_look_count()
        return versions, invites, stamp, refused(watches) if stamp != seen else {}
    finally:
        if not connection.in_atomic_block:
            connection.close()  # the watcher holds no connection between looks


def file_stamp(path: str) -> tuple:
    """What changes whenever a commit reaches the SQLite file (its write-ahead log included)."""
    stamp: list[object] = []
    for name in (path, path + "-wal") if path else ():
        try:
            info = os.stat(name)
        except OSError:
            stamp.append(None)
        else:
            stamp.append((info.st_ino, info.st_size, info.st_mtime_ns))
    return tuple(stamp)


# One hub per event loop (the server's, a test's), made by its first stream. A stream's view run
# on a loop of its own (async_to_sync's) once replaced the process's only hub: no stream of the
# server's loop heard of a change again.
_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        found = _hubs[loop] = Hub(loop)
    return found


def hubs() -> list[Hub]:
    return [each for each in list(_hubs.values()) if not each.loop.is_closed()]


def close_streams() -> None:
    """End every open stream of this process now (the server is stopping): each says `end`,
    so the server stops without cutting them off, and the phones reconnect when it is back."""
    for each in hubs():
        for group in list(each.watches.values()):
            for watch in list(group):
                watch.finish()


def announce(notice: str, using: str = "default") -> None:
    """Tell every process's streams about a change, once the current transaction commits."""
    conn = connections[using]
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, notice])
        return
    if concerns_who_may_look(notice):
        who_may_look_moved(using)  # (the other processes' watchers look at the sessions)
    transaction.on_commit(lambda: deliver_here(notice), using=using)


def deliver_here(notice: str) -> None:
    for each in hubs():
        with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
            each.loop.call_soon_threadsafe(each.deliver, notice)


def message(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def messages(
    watch: Watch,
    current: int,
    last_seen: int,
    push: Callable[[int], Awaitable[Pushed | None]] | None = None,
) -> AsyncIterator[str | bytes]:
    """A stream's server-sent events: the version when it moves (or, with `push`, the page at
    that version: `page`, its version and its HTML, or only the regions changed since the
    version the phone shows, encoded once for every phone of its key: campaigns/live_push.py),
    `gone` when the member may no longer look (the campaign deleted, the member removed, the
    role changed, the session ended), and `end` when the stream's lifetime is over (the phone
    opens a new one)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.COMPANION_STREAM_LIFETIME
    watch.hub.start()
    # The version of the page the phone shows, as far as this stream knows (None: it asked for
    # its page itself after a `version` message).
    shown: int | None = last_seen if last_seen >= 0 else None
    try:
        yield "retry: 1000\n\n"
        watch.hear(current)
        while True:
            if watch.gone:
                yield message("gone", {"why": watch.why})
                return
            if watch.version is not None and watch.version != last_seen:
                last_seen = watch.version
                drawn = await push(last_seen) if push is not None else None
                if drawn is None:
                    yield message("version", {"version": last_seen})
                    shown = None
                else:
                    # (Drawn at the newest version, maybe newer than the news: not sent twice.)
                    last_seen = max(last_seen, drawn.version)
                    yield drawn.for_phone(shown)
                    shown = drawn.version
            left = ends - loop.time()
            if left <= 0 or watch.closing:
                yield message("end", {})
                return
            wait = min(left, HEARTBEAT)
            if watch.expires is not None:
                expires_in = watch.expires - time.time()
                if expires_in <= 0:
                    # The session's time is up, unless a request saved it meanwhile.
                    await watch.hub.recheck([watch])
                    if not watch.gone and (watch.expires or 0) <= time.time():
                        watch.finish()
                    continue
                wait = min(wait, expires_in)
            if not await watch.wait(wait):
                yield ": still here\n\n"
    finally:
        watch.close()
