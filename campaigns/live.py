"""Live updates: one listener per server process tells that process's open streams what changed.

A phone's stream waits on an `asyncio.Event`; an idle phone costs no query, no thread and no
database connection. What wakes it:

- PostgreSQL: the transaction that changes a campaign sends `pg_notify` (delivered at commit, so
  never for a change that rolled back), and each process holds one `LISTEN` connection, whichever
  process made the change.
- SQLite: a change made in this process is announced after its commit. Other processes may share
  the file, so one watcher per process looks at the database file's stamp (size and time, no
  query) a few times a second, and reads the watched campaigns' versions only when it moved.

A notice is `<campaign> v <version>`, `<campaign> left <user>` (a member removed) or
`<campaign> gone` (the campaign deleted); the last two end that member's or everyone's stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, transaction

log = logging.getLogger(__name__)

CHANNEL = "companion_live"
# How often the SQLite watcher looks at the file's stamp, and the stream's keep-alive (seconds).
SQLITE_TICK = 0.2
HEARTBEAT = 15.0


class Watch:
    """One open stream: the newest version heard for its campaign, or that it must end."""

    def __init__(self, hub: Hub, campaign_id: int, user_id: int | None) -> None:
        # user_id None: the table display, which no member holds (never "removed").
        self.hub, self.campaign_id, self.user_id = hub, campaign_id, user_id
        self.version: int | None = None
        self.gone = False
        # Why the member may no longer look: "deleted" (the campaign) or "removed" (the member).
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
        self.task: asyncio.Task | None = None
        # Queries the listener made, for the test that idle streams make none.
        self.queries = 0
        self.ticks = 0

    def watch(self, campaign_id: int, user_id: int | None) -> Watch:
        watch = Watch(self, campaign_id, user_id)
        self.watches.setdefault(campaign_id, set()).add(watch)
        return watch

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

    def deliver(self, notice: str) -> None:
        """Hand one notice to the streams it concerns (on the hub's loop)."""
        try:
            campaign, kind, *rest = notice.split()
            group = self.watches.get(int(campaign), ())
            for watch in list(group):
                if kind == "v":
                    watch.hear(int(rest[0]))
                elif kind == "gone":
                    watch.end("deleted")
                elif kind == "left" and watch.user_id == int(rest[0]):
                    watch.end("removed")
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
                    await self.check_versions()
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
        if connection.is_in_memory_db():
            path = ""  # one process only: announcements after commit are all there is
        stamp = file_stamp(path)
        # What another process changed before this look began.
        with contextlib.suppress(Exception):
            await self.check_versions()
        while self.watches:
            await asyncio.sleep(SQLITE_TICK)
            self.ticks += 1
            now = file_stamp(path)
            if now != stamp:
                stamp = now
                with contextlib.suppress(Exception):
                    await self.check_versions()

    async def check_versions(self) -> None:
        """Read every watched campaign's version and members once, for all its streams."""
        ids = list(self.watches)
        if not ids:
            return
        self.queries += 2
        versions, members = await sync_to_async(read_versions, thread_sensitive=False)(ids)
        for campaign_id in ids:
            if campaign_id not in versions:
                self.deliver(f"{campaign_id} gone")
                continue
            self.deliver(f"{campaign_id} v {versions[campaign_id]}")
            for watch in list(self.watches.get(campaign_id, ())):
                if watch.user_id is not None and (campaign_id, watch.user_id) not in members:
                    watch.end("removed")


def read_versions(ids: list[int]) -> tuple[dict[int, int], set[tuple[int, int]]]:
    from campaigns.models import Campaign, Membership

    try:
        versions = dict(Campaign.objects.filter(pk__in=ids).values_list("pk", "version"))
        members = set(
            Membership.objects.filter(campaign_id__in=ids).values_list("campaign_id", "user_id")
        )
        return versions, members
    finally:
        if not connection.in_atomic_block:
            connection.close()  # the watcher holds no connection between looks


def file_stamp(path: str) -> tuple:
    """What changes whenever a commit reaches the SQLite file (its write-ahead log included)."""
    stamp: list[Any] = []
    for name in (path, path + "-wal") if path else ():
        try:
            info = os.stat(name)
        except OSError:
            stamp.append(None)
        else:
            stamp.append((info.st_ino, info.st_size, info.st_mtime_ns))
    return tuple(stamp)


_hub: Hub | None = None


def hub() -> Hub:
    """This event loop's hub (a test's new loop gets a new one)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        _hub = Hub(loop)
    return _hub


def close_streams() -> None:
    """End every open stream of this process now (the server is stopping): each says `end`,
    so the server stops without cutting them off, and the phones reconnect when it is back."""
    if _hub is not None:
        for group in list(_hub.watches.values()):
            for watch in list(group):
                watch.finish()


def announce(notice: str, using: str = "default") -> None:
    """Tell every process's streams about a change, once the current transaction commits."""
    conn = connections[using]
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, notice])
        return
    transaction.on_commit(lambda: deliver_here(notice), using=using)


def deliver_here(notice: str) -> None:
    current = _hub
    if current is None or current.loop.is_closed():
        return
    with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
        current.loop.call_soon_threadsafe(current.deliver, notice)


def message(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def messages(
    watch: Watch,
    current: int,
    last_seen: int,
    push: Callable[[int], Awaitable[tuple[int, str] | None]] | None = None,
) -> AsyncIterator[str]:
    """A stream's server-sent events: the version when it moves (or, with `push`, the page at
    that version: `page`, its version and its HTML), `gone` when the member may no longer look,
    and `end` when the stream's lifetime is over (the phone opens a new one)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.COMPANION_STREAM_LIFETIME
    watch.hub.start()
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
                else:
                    # (Drawn at the newest version, maybe newer than the news: not sent twice.)
                    last_seen = max(last_seen, drawn[0])
                    yield message("page", {"version": drawn[0], "html": drawn[1]})
            left = ends - loop.time()
            if left <= 0 or watch.closing:
                yield message("end", {})
                return
            if not await watch.wait(min(left, HEARTBEAT)):
                yield ": still here\n\n"
    finally:
        watch.close()


def campaign_saved(sender, instance, created: bool, using: str, **kwargs) -> None:
    if not created:
        announce(f"{instance.pk} v {instance.version}", using)


def campaign_deleted(sender, instance, using: str, **kwargs) -> None:
    announce(f"{instance.pk} gone", using)


def membership_deleted(sender, instance, using: str, origin=None, **kwargs) -> None:
    from campaigns.models import Campaign

    # A campaign deleted takes its members with it: its phones hear "gone" (deleted), not that
    # each of them was removed.
    if isinstance(origin, Campaign):
        return
    announce(f"{instance.campaign_id} left {instance.user_id}", using)


def connect_signals() -> None:
    from django.db.models.signals import post_delete, post_save

    from campaigns.models import Campaign, Membership

    post_save.connect(campaign_saved, sender=Campaign, dispatch_uid="live-campaign-saved")
    post_delete.connect(campaign_deleted, sender=Campaign, dispatch_uid="live-campaign-deleted")
    post_delete.connect(
        membership_deleted, sender=Membership, dispatch_uid="live-membership-deleted"
    )
