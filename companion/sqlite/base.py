"""SQLite as Companion serves it: connections kept for the next request, and writers queued in
the process instead of in SQLite's busy handler.

- Under ASGI every request runs in a thread of its own, so Django opens a connection per request
  (persistent connections are per thread and would leak). Opening one costs more than a small
  request's own queries (Django registers its SQL functions and runs the PRAGMAs each time), so
  a closed connection goes back to a small pool of this process and the next request takes it,
  as psycopg's pool does for PostgreSQL.
- A write transaction (`transaction_mode: IMMEDIATE` makes every one take SQLite's write lock
  at BEGIN) first waits its turn on a first-come, first-served queue of this process. SQLite's
  own busy handler polls with growing sleeps (up to 100 ms), so with many writers the lock sat
  free while they slept and throughput fell as writers were added; queued here, the next writer
  starts the moment the last one commits. Other processes on the same file still meet SQLite's
  busy timeout as before.

An in-memory database (the tests') is left as Django has it: its one connection is the database.

Public ground: Django's connection pool option is PostgreSQL's alone, and a backend has no
public hook around closing a connection or beginning, committing and rolling back a
transaction. So this backend overrides `get_new_connection` (the backend API every backend
implements) and the SQLite wrapper's own `_close`, `_start_transaction_under_autocommit`,
`_commit` and `_rollback`. tests/test_sqlite_pool.py pins what this relies on (a closed
connection is reused, one closed inside a transaction is not, writers get the lock in turn, a
transaction's end releases it) and runs in `make test-fast`, on a database file of its own.
"""

from __future__ import annotations

import threading
from collections import deque

from django.db import OperationalError
from django.db.backends.sqlite3 import base

POOL_SIZE = 8


class TurnLock:
    """A lock handed to its waiters in the order they came (threading.Lock promises no order)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()
        self._held = False

    def acquire(self, timeout: float) -> bool:
        with self._guard:
            if not self._held:
                self._held = True
                return True
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        if turn.acquire(timeout=timeout):
            return True  # handed over by release()
        with self._guard:
            try:
                self._waiters.remove(turn)
            except ValueError:
                return True  # handed over just as the wait ran out
            return False

    def release(self) -> None:
        with self._guard:
            if self._waiters:
                self._waiters.popleft().release()  # still held: now by the next in line
            else:
                self._held = False


_shared = threading.Lock()
_pools: dict[str, list] = {}
_turns: dict[str, TurnLock] = {}


class DatabaseWrapper(base.DatabaseWrapper):
    _turn: TurnLock | None = None  # the queue this connection has its turn in, if it has one

    def _file(self) -> str | None:
        """The database file this process shares its pool and queue for, or None (in memory)."""
        return None if self.is_in_memory_db() else str(self.settings_dict["NAME"])

    def get_new_connection(self, conn_params):
        if (name := self._file()) is not None:
            with _shared:
                pool = _pools.get(name)
                if pool:
                    return pool.pop()
        return super().get_new_connection(conn_params)

    def _close(self):
        connection, name = self.connection, self._file()
        try:
            if connection is None or name is None or self.in_atomic_block:
                return super()._close()
            with self.wrap_database_errors:
                if connection.in_transaction:
                    connection.rollback()
        finally:
            self._end_turn()
        with _shared:
            pool = _pools.setdefault(name, [])
            if len(pool) < POOL_SIZE:
                pool.append(connection)
                return None
        return super()._close()

    def _start_transaction_under_autocommit(self):
        name = self._file()
        if name is not None and self._turn is None:
            with _shared:
                turn = _turns.setdefault(name, TurnLock())
            timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
            if not turn.acquire(timeout):
                raise OperationalError("database is locked")
            self._turn = turn
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._end_turn()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._end_turn()

    def _end_turn(self) -> None:
        if self._turn is not None:
            turn, self._turn = self._turn, None
            turn.release()
