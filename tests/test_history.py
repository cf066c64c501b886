"""The event core: undo rebuilds the state from the nearest snapshot, and whatever the snapshots,
every state is the one a plain replay of the events gives; an import writes in short steps."""

import json
import threading
from types import SimpleNamespace

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns import bulk, history, transfer
from campaigns.commands import CommandError
from campaigns.models import Campaign, Event, Snapshot
from tests import factories
from tests.factories import STEP, step_data

PLUS_ONE = ("counter.adjust", {"tracker": 1, "delta": 1})
ROUNDS = {"trackers": [{"kind": "counter", "name": "Rounds"}]}


@pytest.fixture
def snapshot_often(monkeypatch):
    """A snapshot every two or three changes, so short histories go through them."""
    monkeypatch.setattr(history, "CHANGE_WEIGHT", 1000)
    monkeypatch.setattr(history, "MIN_BUDGET", 2500)


@hypothesis_settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=24))
def test_undo_and_redo_through_snapshots_equal_a_full_replay(snapshot_often, owner, steps):
    campaign = factories.campaign(owner=owner)
    for step in steps:
        try:
            if step[0] == "undo":
                campaign.undo(owner)
            elif step[0] == "redo":
                campaign.redo(owner)
            else:
                action, data = step_data(campaign, step)
                campaign.apply(action, data, owner)
        except CommandError:
            pass
        campaign.refresh_from_db()
        assert campaign.state == campaign.replay()
    # Every snapshot is the state of a plain replay up to its change.
    for snap in Snapshot.objects.filter(event__campaign=campaign).select_related("event"):
        assert snap.state == state_by_replay(campaign, snap.event)


def state_by_replay(campaign: Campaign, event: Event) -> dict:
    """The state with `event` on top, by folding its chain from the initial state."""
    changes = []
    while event is not None:
        changes.append((event.action, event.data))
        event = event.chain
    return history.fold(
        campaign.game_module.commands, json.loads(json.dumps(campaign.initial_state)), changes[::-1]
    )


def test_an_undo_reads_the_same_whatever_the_length_of_the_history(db):
    """Counting, not timing: the queries of an undo, and the events they bring back."""
    sizes = {}
    for length in (40, 4000):
        campaign = factories.history(factories.campaign(setup=ROUNDS), [PLUS_ONE] * length)
        with CaptureQueriesContext(connection) as queries:
            campaign.undo(None)
        walked = [q["sql"] for q in queries.captured_queries if "RECURSIVE" in q["sql"]]
        assert len(walked) == 1
        campaign.refresh_from_db()
        assert campaign.state["trackers"][0]["value"] == length - 1
        sizes[length] = len(queries.captured_queries)
        # Snapshots keep the walk short: at most a budget's worth of changes above one.
        assert len(Event.objects.raw(_walk_sql(), [campaign.undo_top_id])) <= (
            history.MIN_BUDGET // history.CHANGE_WEIGHT + 1
        )
    assert sizes[40] == sizes[4000]


def _walk_sql() -> str:
    from campaigns.models import _WALK_DOWN

    return _WALK_DOWN


def test_a_history_stored_before_snapshots_is_undone_and_gains_them(db):
    campaign = factories.history(factories.campaign(setup=ROUNDS), [PLUS_ONE] * 300)
    Snapshot.objects.all().delete()
    Event.objects.update(budget=0)
    campaign.undo(None)
    campaign.refresh_from_db()
    assert campaign.state == campaign.replay()
    assert campaign.state["trackers"][0]["value"] == 299
    assert Snapshot.objects.filter(event__campaign=campaign).count() == 4  # 64, 128, 192, 256
    for _ in range(100):
        campaign.undo(None)
    campaign.refresh_from_db()
    assert campaign.state == campaign.replay()
    assert campaign.state["trackers"][0]["value"] == 199
    campaign.apply(*PLUS_ONE, None)
    campaign.refresh_from_db()
    assert campaign.state["trackers"][0]["value"] == 200


def test_an_imported_campaign_undoes_through_its_snapshots(snapshot_often, db, owner):
    played = factories.campaign(owner=owner, setup=ROUNDS, events=[PLUS_ONE] * 9)
    factories.play(played, owner, [("undo",), ("undo",), ("redo",)])
    copy_ = transfer.import_campaign(
        json.dumps(transfer.export_campaign(played), default=str).encode(), owner
    )
    assert Snapshot.objects.filter(event__campaign=copy_).count() >= 3
    for value in range(7, -1, -1):
        copy_.undo(owner)
        copy_.refresh_from_db()
        assert copy_.state == copy_.replay()
        assert copy_.state["trackers"][0]["value"] == value


@pytest.mark.django_db(transaction=True)
def test_another_campaign_writes_while_a_big_import_is_being_stored(monkeypatch, owner):
    """The import stores its events in short transactions: between two of them, another
    member's change to another campaign goes through from its own connection (on SQLite a
    write inside the import's transaction would be refused as locked)."""
    played = factories.history(factories.campaign(owner=owner, setup=ROUNDS), [PLUS_ONE] * 60)
    raw = json.dumps(transfer.export_campaign(played), default=str).encode()
    other = factories.campaign(owner=owner, setup=ROUNDS)
    monkeypatch.setattr(bulk, "CHUNK", 10)
    order: list[str] = []
    real_atomic = transaction.atomic

    def other_phone() -> None:
        try:
            other.apply(*PLUS_ONE, owner)
            order.append("other campaign changed")
        finally:
            connection.close()

    class Atomic:
        def __enter__(self):
            self.inner = real_atomic()
            return self.inner.__enter__()

        def __exit__(self, *exc):
            result = self.inner.__exit__(*exc)
            order.append("import wrote")
            if order.count("import wrote") == 2:
                phone = threading.Thread(target=other_phone)
                phone.start()
                phone.join()
            return result

    monkeypatch.setattr(bulk, "transaction", SimpleNamespace(atomic=Atomic))
    copy_ = transfer.import_campaign(raw, owner)
    changed = order.index("other campaign changed")
    assert changed == 2
    # The import went on storing its sixty events, ten at a time, after the other change.
    assert order[changed + 1 :].count("import wrote") >= 4
    other.refresh_from_db()
    assert other.version == 1
    assert copy_.version == 60
    assert copy_.state == copy_.replay()
