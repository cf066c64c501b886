"""Creating an Arkham campaign: the campaign's starting bag and log at each difficulty."""

import pytest

from campaigns.commands import CommandError
from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import data
from campaigns.models import Campaign
from tests.games.arkham.helpers import (
    NOTZ_STANDARD,
    make_arkham,
    text,
)


def test_creating_a_night_of_the_zealot_campaign_on_standard(owner_client):
    response = owner_client.get("/new/arkham/")
    page = text(response)
    for label in ("The Night of the Zealot", "The Drowned City", "Brethren of Ash", "Expert"):
        assert label in page
    response = owner_client.post(
        "/new/arkham/", {"name": "Zealot", "campaign": "notz", "difficulty": "standard"}
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Zealot")
    assert campaign.game == "arkham"
    assert campaign.state["bag"] == NOTZ_STANDARD
    page = text(owner_client.get(response.url))
    assert "Check the starting bag" in page
    assert "Cultists We Interrogated" in page
    assert "Campaign Notes" in page
    bag = text(owner_client.get(f"/c/{campaign.pk}/p/bag/"))
    assert "The starting bag of The Night of the Zealot on Standard" in bag
    assert "In the bag: 16 tokens" in bag


@pytest.mark.parametrize("campaign", [k for k in data.CAMPAIGNS if k != data.CUSTOM])
def test_every_campaign_starts_with_its_bag_and_log_at_every_difficulty(owner, campaign):
    for difficulty in data.DIFFICULTIES:
        made = make_arkham(owner, campaign, difficulty)
        assert made.state["bag"] == data.BAGS[campaign][difficulty]
        chaos.validate_bag(made.state["bag"])
        names = [t["name"] for t in made.state["trackers"]]
        assert names[0] == "Campaign Notes"
        assert names[1:] == [s[0] for s in data.CAMPAIGNS[campaign]["sections"]]


def test_the_path_to_carcosa_has_doubt_and_conviction_counters(owner):
    made = make_arkham(owner, "ptc", "expert")
    kinds = {t["name"]: t["kind"] for t in made.state["trackers"]}
    assert kinds["Doubt"] == kinds["Conviction"] == "counter"
    assert kinds["VIPs Interviewed"] == "notes"


def test_a_custom_campaign_starts_with_an_empty_bag(owner_client):
    owner_client.post("/new/arkham/", {"name": "Ours", "campaign": "custom", "difficulty": "hard"})
    campaign = Campaign.objects.get(name="Ours")
    assert campaign.state["bag"] == {}
    assert [t["name"] for t in campaign.state["trackers"]] == ["Campaign Notes"]


def test_a_caveat_is_shown_where_sources_disagree(owner_client, owner):
    made = make_arkham(owner, "fhv", "expert")
    page = text(owner_client.get(f"/c/{made.pk}/"))
    assert "Sources disagree" in page
    assert "without an auto-fail token" in page


@pytest.mark.parametrize(
    "setup",
    [
        {},
        {"campaign": "notz"},
        {"campaign": "nope", "difficulty": "standard"},
        {"campaign": "notz", "difficulty": "nightmare"},
        {"campaign": ["notz"], "difficulty": "easy"},
    ],
)
def test_a_setup_that_does_not_fit_is_refused(setup):
    with pytest.raises(CommandError):
        GAMES["arkham"].initial_state(setup)
