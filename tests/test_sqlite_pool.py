"""SQLite as the site serves it (companion/sqlite/base.py): a connection closed at the end of a
request serves the next one, and writers take the write lock in the order they asked for it."""

from __future__ import annotations

import copy
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings as conf
from django.db import connections

from companion.sqlite.base import DatabaseWrapper, TurnLock
from tests.journeys import wait_until


@pytest.fixture
def unblocked(django_db_blocker):
    """A database file of the test's own, not the suite's test database."""
    with django_db_blocker.unblock():
        yield


def in_a_thread(work) -> None:
    """As a request runs: in a thread of its own (an earlier test may leave an event loop
    running in this one, where Django refuses to touch a database)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(work).result()


def site_database(path) -> DatabaseWrapper:
    """The site's SQLite on a file of the test's own (whichever database the suite runs on)."""
    settings = copy.deepcopy(connections["default"].settings_dict)
    settings.update(
        ENGINE="companion.sqlite", NAME=str(path), OPTIONS=copy.deepcopy(conf.SQLITE_OPTIONS)
    )
    return DatabaseWrapper(settings, alias="pool-test")


def test_a_closed_connection_serves_the_next_request(tmp_path, unblocked):
    in_a_thread(lambda: a_closed_connection_serves_the_next_request(tmp_path))


def a_closed_connection_serves_the_next_request(tmp_path):
    first = site_database(tmp_path / "db.sqlite3")
    first.ensure_connection()
    kept = first.connection
    first.close()
    second = site_database(tmp_path / "db.sqlite3")
    second.ensure_connection()
    assert second.connection is kept
    # What the first one left is gone: no transaction carried over, the PRAGMAs still hold.
    assert not second.connection.in_transaction
    with second.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    second.close()


def test_a_connection_closed_inside_a_transaction_is_not_kept(tmp_path, unblocked):
    in_a_thread(lambda: a_connection_closed_inside_a_transaction_is_not_kept(tmp_path))


def a_connection_closed_inside_a_transaction_is_not_kept(tmp_path):
    first = site_database(tmp_path / "db.sqlite3")
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n INTEGER)")
    first.set_autocommit(False)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES (1)")
    first.in_atomic_block = True  # what close() sees when a request dies mid-transaction
    kept = first.connection
    first.close()
    first.in_atomic_block = False
    second = site_database(tmp_path / "db.sqlite3")
    second.ensure_connection()
    assert second.connection is not kept
    with second.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM t")
        assert cursor.fetchone()[0] == 0  # never committed
    second.close()


def test_writers_take_their_turn_in_the_order_they_came():
    turn = TurnLock()
    assert turn.acquire(timeout=1)
    order: list[str] = []

    def writer(name: str) -> None:
        assert turn.acquire(timeout=10)
        order.append(name)
        turn.release()

    threads = []
    for name in "abcde":
        thread = threading.Thread(target=writer, args=(name,))
        thread.start()
        threads.append(thread)
        # This one is in line before the next comes.
        assert wait_until(lambda: len(turn._waiters) >= len(threads), every=0.001)
    turn.release()
    for thread in threads:
        thread.join()
    assert order == list("abcde")
    assert turn.acquire(timeout=0)  # free again


def test_a_writer_that_waits_too_long_gives_up_and_leaves_the_line():
    turn = TurnLock()
    assert turn.acquire(timeout=1)
    assert not turn.acquire(timeout=0.01)
    assert not turn._waiters
    turn.release()
    assert turn.acquire(timeout=0)
