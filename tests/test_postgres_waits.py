"""A database server that stops answering gets "try again", never a hang (companion/postgres.py).

The whole journey runs against PostgreSQL in CI's second pass (tests/test_database_down.py:
a frozen server with the pool's connections established). These hold the two pieces on any
database: the watchdog ends a query's wait on a socket that never answers, and the pool's
health check tells a connection the server closed from one that waits, without waiting."""

import socket
from types import SimpleNamespace

import pytest
from django.db import connection

from companion import postgres


def a_query_reading(sock: socket.socket):
    """What Django hands an execute wrapper, for a query that waits on `sock` for its answer."""
    context = {"connection": SimpleNamespace(connection=SimpleNamespace(fileno=sock.fileno))}

    def execute(sql, params, many, context):
        return sock.recv(1)  # the server's answer: never, unless the socket is shut

    return execute, context


def test_a_query_that_is_never_answered_is_cut_off_after_the_wait(settings):
    settings.DATABASE_WAIT = 0.2
    ours, server = socket.socketpair()
    watchdog = postgres.Watchdog()
    try:
        execute, context = a_query_reading(ours)
        assert watchdog(execute, "SELECT 1", None, False, context) == b""  # the socket shut
        assert watchdog.cut == 1
        assert watchdog.running == {}
    finally:
        ours.close()
        server.close()


def test_a_query_answered_in_time_is_left_alone(settings):
    settings.DATABASE_WAIT = 30
    ours, server = socket.socketpair()
    watchdog = postgres.Watchdog()
    try:
        server.sendall(b"x")
        execute, context = a_query_reading(ours)
        assert watchdog(execute, "SELECT 1", None, False, context) == b"x"
        assert watchdog.cut == 0
        assert watchdog.running == {}
        server.sendall(b"y")
        assert ours.recv(1) == b"y"  # the connection still works
    finally:
        ours.close()
        server.close()


class Idle:
    """What the health check reads of a pooled connection: its socket and libpq's view."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.closed, self.broken = sock, False, False
        self.consumed = 0
        self.pgconn = SimpleNamespace(consume_input=self.consume, status=None)

    def fileno(self) -> int:
        return self.sock.fileno()

    def consume(self) -> None:
        from psycopg import pq

        self.consumed += 1
        self.pgconn.status = pq.ConnStatus.BAD if not self.sock.recv(64) else pq.ConnStatus.OK


def test_the_health_check_drops_a_connection_the_server_closed_and_never_waits():
    ours, server = socket.socketpair()
    idle = Idle(ours)
    try:
        postgres.check(idle)  # a server that says nothing (running, or stopped): no wait
        assert idle.consumed == 0
        server.sendall(b"N")  # a notice: read, and the connection kept
        postgres.check(idle)
        assert idle.consumed == 1
        server.close()  # the server's end closed: dropped
        with pytest.raises(ConnectionError):
            postgres.check(idle)
    finally:
        ours.close()


def test_the_watchdog_is_on_every_postgresql_connection_once():
    """Django's execute wrappers are the list its public `execute_wrapper()` adds to; the
    watchdog goes on a PostgreSQL connection when it is made, once however often it is."""
    # (A watchdog of its own: in a worker that imported companion.asgi, the serving process's is
    # on this connection already.)
    watchdog = postgres.Watchdog()
    with connection.execute_wrapper(watchdog):
        assert watchdog in connection.execute_wrappers
    assert watchdog not in connection.execute_wrappers
    made = SimpleNamespace(vendor="postgresql", execute_wrappers=[])
    postgres.watch(None, made)
    postgres.watch(None, made)
    assert made.execute_wrappers == [postgres.WATCHDOG]
    other = SimpleNamespace(vendor="sqlite", execute_wrappers=[])
    postgres.watch(None, other)
    assert other.execute_wrappers == []
