"""The factories make, in one line, a campaign of every registered game that a player could
have made: its events replay to its state, and the pages show it."""

import random

import pytest

from campaigns.games import GAMES
from tests import factories
from tests.factories import client_for
from tests.journeys import text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_campaign_of_every_game_in_one_line(db, game):
    owner = factories.user()
    campaign = factories.campaign(
        game,
        owner=owner,
        events=[
            ("campaign.rename", {"name": "Renamed"}),
            ("campaign.rename", {"name": "Twice"}),
            ("undo",),
            ("redo",),
            ("undo",),
        ],
    )
    assert (campaign.name, campaign.version) == ("Renamed", 5)
    assert campaign.replay() == campaign.state
    page = text(client_for(owner).get(f"/c/{campaign.pk}/history/"))
    assert "Undid: Renamed the campaign to “Twice”" in page


def test_members_and_a_draw_from_the_chaos_bag(db):
    owner, player = factories.user("olive"), factories.user("pat")
    campaign = factories.campaign(
        "arkham",
        owner=owner,
        members={player: "player"},
        events=[("bag.draw", {})],
        rng=random.Random(3),
    )
    assert campaign.events.get().action == "bag.draw"
    assert campaign.replay() == campaign.state
    assert client_for(player).get(f"/c/{campaign.pk}/").status_code == 200


def test_a_long_history_in_bulk_is_the_same_as_tapped(db):
    setup = {"trackers": [{"kind": "counter", "name": "Rounds"}]}
    plus_one = [("counter.adjust", {"tracker": 1, "delta": 1})] * 30
    tapped = factories.campaign(setup=setup, events=plus_one)
    bulk = factories.history(factories.campaign(setup=setup), plus_one)
    assert bulk.state == tapped.state
    assert bulk.version == tapped.version == 30
    assert bulk.replay() == bulk.state
    bulk.undo(None)
    bulk.refresh_from_db()
    assert bulk.state["trackers"][0]["value"] == 29
