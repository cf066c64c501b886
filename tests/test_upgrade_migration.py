"""A database of the previous release, upgraded: its migrations run, rows stored as 0f9b593
stored them (Eldritch Horror's game without `awakening`, an Arkham scenario started before the
scenario cards, with a snapshot and events), then this release's migrations; the campaigns then
show in this release's shape and play on."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from campaigns.games import GAMES
from campaigns.history import Replay
from campaigns.models import Campaign
from tests.factories import client_for

BEFORE = [("campaigns", "0006_membership_last_seen")]
DATA = Path(__file__).parent / "data"


def file_of(game: str) -> dict:
    return json.loads((DATA / f"{game}-0f9b593.json").read_text())


def without_awakening(state: dict) -> dict:
    """A state as 0f9b593 stored it (the awakening is 806fe27's)."""
    state = copy.deepcopy(state)
    if isinstance(state.get("game"), dict):
        state["game"].pop("awakening")
    return state


def store(apps, owner_pk: int, document: dict, events: int, old=lambda s: s) -> int:
    """The file's first `events` changes stored as the previous release stored them, with a
    snapshot at each change the replay keeps one and at the first."""
    Campaign0 = apps.get_model("campaigns", "Campaign")
    Event0 = apps.get_model("campaigns", "Event")
    Snapshot0 = apps.get_model("campaigns", "Snapshot")
    Membership0 = apps.get_model("campaigns", "Membership")
    game = GAMES[document["game"]]
    initial = game.initial_state(document["setup"])
    initial.update(name=document["name"], archived=False)
    items = document["events"][:events]
    assert all(item["kind"] == "do" for item in items)
    if document["game"] == "arkham":
        # As 0f9b593 played them: a start filled in no card.
        items = [
            {**i, "data": {**i["data"], "card": False}} if i["action"] == "scenario.start" else i
            for i in items
        ]
    replay = Replay(game.commands, initial)
    campaign = Campaign0.objects.create(
        game=document["game"],
        name=document["name"],
        setup=document["setup"],
        initial_state=old(initial),
        state=old(initial),
    )
    Membership0.objects.create(campaign=campaign, user_id=owner_pk, role="owner")
    below = None
    for item in items:
        change = replay.do(item["seq"], item["action"], item["data"])
        stored = {k: v for k, v in item["data"].items() if k != "card"}
        below = Event0.objects.create(
            campaign=campaign,
            seq=item["seq"],
            kind="do",
            action=item["action"],
            data=stored,
            actor_id=owner_pk,
            chain=below,
            budget=change.budget,
            created=timezone.now(),
        )
        if change.snapshot or item["seq"] == 1:
            Snapshot0.objects.create(event=below, state=old(replay.state))
    campaign.state, campaign.version, campaign.undo_top = old(replay.state), len(items), below
    campaign.save()
    return campaign.pk


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_previous_release_upgrades_and_plays_on(django_user_model):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    owner = apps.get_model("auth", "User").objects.create(username="olive", first_name="Olive")
    eldritch = store(apps, owner.pk, file_of("eldritch"), 13, without_awakening)
    arkham = store(apps, owner.pk, file_of("arkham"), 8)
    assert (
        "awakening"
        not in apps.get_model("campaigns", "Campaign").objects.get(pk=eldritch).state["game"]
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    user = django_user_model.objects.get(pk=owner.pk)
    client = client_for(user)
    campaign = Campaign.objects.get(pk=eldritch)
    # The game on the table, the initial state and every snapshot in this release's shape.
    assert campaign.state["game"]["awakening"] == "mystery"
    assert campaign.initial_state["game"]["awakening"] == "mystery"
    snapshots = [e.snapshot.state for e in campaign.events.filter(snapshot__isnull=False)]
    assert snapshots and all(s["game"]["awakening"] == "mystery" for s in snapshots)
    assert campaign.replay() == campaign.state
    # It plays on: a change applies, undoes, and undoing down to the first change walks from
    # its snapshot; every page renders.
    upgraded = campaign.state
    assert client.post(f"/c/{eldritch}/do/eh.doom/", {"step": "advance"}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.state["game"]["doom"] == upgraded["game"]["doom"] - 1
    assert client.post(f"/c/{eldritch}/undo/", {}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.state == upgraded
    for _n in range(12):
        assert client.post(f"/c/{eldritch}/undo/", {}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.state == campaign.state_at(campaign.events.get(seq=1).pk)
    assert campaign.state["game"]["awakening"] == "mystery"
    for page in ("", "p/setup/", "history/"):
        assert client.get(f"/c/{eldritch}/{page}").status_code == 200, page

    # The Arkham scenario started before the cards replays as it was played: its test drawn
    # reads the symbols the group typed, undone and done again.
    campaign = Campaign.objects.get(pk=arkham)
    start = campaign.events.get(action="scenario.start")
    assert start.data["card"] is False
    drawn = campaign.state["draws"]
    assert "card" not in campaign.state and drawn
    assert campaign.replay() == campaign.state
    assert client.post(f"/c/{arkham}/undo/", {}).status_code == 302
    assert client.post(f"/c/{arkham}/redo/", {}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.state["draws"] == drawn
    assert client.get(f"/c/{arkham}/").status_code == 200
