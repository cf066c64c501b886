"""The tests' in-memory SQLite database behaves as the site's database file does when two
threads meet on one table: a reader never stops a writer (tests/conftest.py)."""

import threading

import pytest
from django.db import connection

from campaigns.models import Membership
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_beside_an_open_read_of_the_same_table_goes_through():
    """A push's page marks its member as here (one UPDATE) while the stream hub, in another
    thread, is reading the memberships: in WAL mode the write waits for nothing. SQLite's shared
    cache, which an in-memory database shares between threads, refused it at once with
    "database table is locked" (tests/test_live_push.py failed once in a CI run)."""
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    reading, written = threading.Event(), threading.Event()
    errors: list[Exception] = []

    def reader():
        try:
            cursor = connection.cursor()
            # Ten rows: after the first is fetched the statement is not finished, and the
            # table's read lock is held.
            cursor.execute(
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10)"
                " SELECT m.id FROM campaigns_membership m, n"
            )
            cursor.fetchone()
            reading.set()
            written.wait(10)
        finally:
            connection.close()

    def writer():
        try:
            reading.wait(10)
            Membership.objects.filter(campaign=campaign).update(last_seen=None)
        except Exception as error:  # the test reports what the writer met
            errors.append(error)
        finally:
            written.set()
            connection.close()

    threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
