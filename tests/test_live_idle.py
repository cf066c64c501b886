"""Open streams that wait for news cost nothing: no query while idle, and a change reaches every
stream through one listener, not one query per phone."""

import asyncio
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.db.backends.signals import connection_created
from django.test import AsyncClient

from campaigns import live
from campaigns.models import Membership
from tests.factories import make_campaign, make_user, tracker_id
from tests.journeys import next_event, until

pytestmark = pytest.mark.django_db(transaction=True)


class Queries:
    """Counts the queries of every database connection opened in any thread meanwhile."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, execute, sql, params, many, context):
        with self.lock:
            self.count += 1
        return execute(sql, params, many, context)

    def wrap(self, sender, connection, **kwargs) -> None:
        connection.execute_wrappers.append(self)


def tap_and_close(campaign, doom: int, owner) -> None:
    try:
        campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, owner)
    finally:
        connection.close()  # this thread's, so the test database can be dropped at the end


def test_idle_streams_make_no_queries_and_a_change_wakes_them_all():
    owner = make_user("olive")
    campaign = make_campaign(owner)
    players = [make_user(f"player{n}") for n in range(8)]
    for player in players:
        Membership.objects.create(campaign=campaign, user=player)
    doom = tracker_id(campaign, "Doom")
    queries = Queries()
    connection_created.connect(queries.wrap)
    connection.execute_wrappers.append(queries)

    async def table() -> tuple[int, int, list[str]]:
        streams = []
        # Everyone logs in before the first stream opens: the hub's first look (in a thread of
        # its own) reads the sessions, and on the in-memory test database a reader locks the
        # table against a log-in's write ("database table is locked: django_session").
        clients = []
        for player in players:
            client = AsyncClient()
            await client.aforce_login(player)
            clients.append(client)
        for client in clients:
            response = await client.get(f"/c/{campaign.pk}/stream/?v={campaign.version}")
            assert response.status_code == 200
            stream = aiter(response.streaming_content)
            assert (await anext(stream)).startswith(b"retry:")
            streams.append(stream)
        pending = [asyncio.ensure_future(next_event(stream)) for stream in streams]
        # Idle: five looks of the SQLite watcher (a second); PostgreSQL's listener, once it
        # listens (its catch-up look done), has nothing to look at until a notification.
        hub = live.hub()
        if connection.vendor == "postgresql":
            assert await until(lambda: hub.queries >= 4 and not hub.looks)
        looked = hub.ticks
        queries.count = 0
        if connection.vendor != "postgresql":
            assert await until(lambda: hub.ticks >= looked + 5)
        idle = queries.count
        await asyncio.to_thread(tap_and_close, campaign, doom, owner)
        queries.count = 0
        events = await asyncio.wait_for(asyncio.gather(*pending), timeout=10)
        for stream in streams:
            await stream.aclose()
        await live.hub().stop()
        return idle, queries.count, events

    try:
        # In a thread of its own: a browser test earlier in this worker leaves Playwright's
        # event loop running in this one, where asyncio.run() is refused.
        with ThreadPoolExecutor(1) as pool:
            idle, after_change, events = pool.submit(asyncio.run, table()).result()
    finally:
        connection_created.disconnect(queries.wrap)
        connection.execute_wrappers.remove(queries)
    assert idle == 0
    assert events == ['event: version\ndata: {"version": 1}\n\n'] * len(players)
    # One look for all eight streams at most (SQLite shared by processes), none with a
    # PostgreSQL notification.
    assert after_change <= 2


def test_the_sqlite_watcher_sees_a_commit_from_another_process_in_the_files_stamp(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (n INTEGER)")
    reader = sqlite3.connect(path, isolation_level=None)
    before = live.file_stamp(path)
    reader.execute("SELECT count(*) FROM t").fetchall()
    assert live.file_stamp(path) == before  # reading changes nothing
    writer.execute("INSERT INTO t VALUES (1)")
    assert live.file_stamp(path) != before
    writer.close()
    reader.close()
