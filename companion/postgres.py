"""PostgreSQL as the site serves it: a database that does not answer is "try again", never a hang.

PostgreSQL's own timeouts run in the server: a server that is stopped (SIGSTOP, a frozen virtual
machine, a network that drops packets silently) runs none of them, and the connections the pool
keeps open stay open. A query sent on one then waits for an answer for ever, holding the thread
and the connection, and the pool's health check (an empty query on the connection it hands out)
hung the same way before the query was even sent: pages hung for over a minute.

So the site bounds the waits itself, on the client's side:

- `check`, the pool's health check, sends nothing: it looks whether the idle connection has
  anything to read (without waiting). An idle connection has nothing to say; one that does was
  closed by the server (a restart, a killed backend: its end of the socket says so) and is
  dropped, so a restarted server costs no page its "try again". A stopped server looks like a
  healthy idle connection, and the query finds out, bounded as below.
- `watch`, an execute wrapper on every connection of the serving process (Django's public
  `execute_wrapper` hook, added when the connection is made: `connection_created`), notes when
  each query began; one watchdog thread shuts down the socket of a query still waiting
  `DATABASE_WAIT` seconds later. psycopg then raises an OperationalError at once, the page says
  "try again" (companion/errors.py), the pool drops the connection, and the site is itself
  again as soon as the server answers. The server's `statement_timeout` still ends a slow query
  on a server that runs; this ends the wait on one that does not.

The cost is a lock and a dict entry per query; the watchdog sleeps while no query runs.
"""

from __future__ import annotations

import contextlib
import itertools
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

# How often the watchdog looks while queries run (seconds): the bound is the wait plus this.
LOOK = 0.1


def check(conn: Any) -> None:
    """The pool's health check (psycopg_pool's `check`): raise when the idle connection `conn`
    was closed by the server; never wait."""
    if conn.closed or conn.broken:
        raise ConnectionError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        # What is there (a notice, the server's goodbye, or its end of the socket closed) is
        # read without waiting: libpq raises, or says the connection is bad, when it is closed.
        from psycopg import pq

        conn.pgconn.consume_input()
        if conn.pgconn.status != pq.ConnStatus.OK:
            raise ConnectionError("the server closed the connection")


class Watchdog:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running: dict[int, tuple[float, int]] = {}  # query -> (deadline, socket's fd)
        self.numbers = itertools.count()
        self.woken = threading.Event()
        self.thread: threading.Thread | None = None
        self.cut = 0  # queries cut off, for the tests

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict
    ) -> Any:
        """Django's execute wrapper: `execute` bounded by the database's wait."""
        raw = context["connection"].connection
        number = next(self.numbers)
        with self.lock:
            self.running[number] = (time.monotonic() + settings.DATABASE_WAIT, raw.fileno())
            if self.thread is None:
                self.thread = threading.Thread(target=self.guard, name="db-watchdog", daemon=True)
                self.thread.start()
        self.woken.set()
        try:
            return execute(sql, params, many, context)
        finally:
            with self.lock:
                self.running.pop(number, None)  # (gone already when the watchdog cut it)

    def guard(self) -> None:
        while True:
            self.woken.wait()
            time.sleep(LOOK)
            now = time.monotonic()
            with self.lock:
                # (Under the lock: a query still listed still holds its socket, so the file
                # descriptor is the connection's and no other's.)
                for number, (deadline, fd) in list(self.running.items()):
                    if deadline <= now:
                        del self.running[number]
                        self.cut += 1
                        shut(fd)
                if not self.running:
                    self.woken.clear()


def shut(fd: int) -> None:
    """End the connection on `fd` at the socket: a read waiting on it returns at once."""
    with contextlib.suppress(OSError):
        sock = socket.socket(fileno=socket.dup(fd))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.close()


WATCHDOG = Watchdog()


def watch(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created: bound this PostgreSQL connection's queries (once per wrapper)."""
    if connection.vendor == "postgresql" and WATCHDOG not in connection.execute_wrappers:
        connection.execute_wrappers.append(WATCHDOG)
