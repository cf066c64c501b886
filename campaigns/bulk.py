"""Writing a long history at once (an import) without holding the database for long.

Everything is made ready outside any transaction: the events' ids are reserved first (from
PostgreSQL's sequence, or by moving SQLite's AUTOINCREMENT counter on), so each event can name
the change below it and the change it undoes before anything is stored, and each value is
converted for the database. Then the rows go in, a few hundred per transaction: each takes
milliseconds, so another campaign's write waits no longer than that for SQLite's one writer.
"""

from __future__ import annotations

import datetime
import time
from typing import Any, TypedDict

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Model

from campaigns.commands import Payload, State
from campaigns.models import Campaign, Event, Snapshot

# Events stored per transaction, and the pause between two, in which other writers go first.
CHUNK = 250
PAUSE = 0.002

_EVENT_FIELDS = (
    "id",
    "campaign",
    "seq",
    "kind",
    "action",
    "data",
    "actor_name",
    "budget",
    "created",
    "chain",
    "target",
)


def reserve_ids(model: type[Model], count: int) -> list[int]:
    """`count` ids that no other row of `model` will be given."""
    table = model._meta.db_table
    if count == 0:
        return []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [table, count],
            )
            return sorted(row[0] for row in cursor.fetchall())
        with transaction.atomic():
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            found = cursor.fetchone()
            cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
            start = max(found[0] if found else 0, cursor.fetchone()[0])
            if found:
                cursor.execute(
                    "UPDATE sqlite_sequence SET seq = %s WHERE name = %s", [start + count, table]
                )
            else:
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                    [table, start + count],
                )
        return list(range(start + 1, start + count + 1))


def _insert_sql(model: Any, names: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    places = ", ".join(["%s"] * len(names))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({places})"


class EventRow(TypedDict):
    """An imported event as transfer.replay_file checked it, naming other events by seq."""

    seq: int
    kind: str
    action: str
    data: Payload
    target: int | None
    chain: int | None
    budget: int
    actor: str
    created: datetime.datetime


def write_history(
    campaign: Campaign, rows: list[EventRow], snapshots: dict[int, State]
) -> dict[int, int]:
    """Store the events (rows from transfer.replay_file, oldest first, each naming other events
    by seq) and the snapshots by seq; returns the stored events' ids by seq."""
    ids = dict(zip((r["seq"] for r in rows), reserve_ids(Event, len(rows)), strict=True))
    db = connections[DEFAULT_DB_ALIAS]
    data_field, created_field = Event._meta.get_field("data"), Event._meta.get_field("created")
    state_field = Snapshot._meta.get_field("state")

    def prepared(row: EventRow) -> tuple[Any, ...]:  # (the database driver's parameters)
        # In the order of _EVENT_FIELDS; only the JSON and the time need converting.
        return (
            ids[row["seq"]],
            campaign.pk,
            row["seq"],
            row["kind"],
            row["action"],
            data_field.get_db_prep_save(row["data"], db),
            row["actor"],
            row["budget"],
            created_field.get_db_prep_save(row["created"], db),
            None if row["chain"] is None else ids.get(row["chain"]),
            None if row["target"] is None else ids.get(row["target"]),
        )

    # Any other field (one added later) gets its default, as Event.objects.create would give.
    others = [f for f in Event._meta.concrete_fields if f.name not in _EVENT_FIELDS]
    defaults = tuple(f.get_db_prep_save(f.get_default(), db) for f in others)
    event_sql = _insert_sql(Event, (*_EVENT_FIELDS, *(f.name for f in others)))
    snapshot_sql = _insert_sql(Snapshot, ("event", "state"))
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        events = [prepared(row) + defaults for row in chunk]
        snaps = [
            (ids[r["seq"]], state_field.get_db_prep_save(snapshots[r["seq"]], db))
            for r in chunk
            if r["seq"] in snapshots
        ]
        if start:
            time.sleep(PAUSE)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(event_sql, events)
            if snaps:
                cursor.executemany(snapshot_sql, snaps)
    return ids
