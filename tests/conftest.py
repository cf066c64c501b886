import pytest
from django.contrib.auth import get_user_model

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership


@pytest.fixture(autouse=True)
def _plain_static(settings):
    # The unit tests render pages without collected static files.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def make_user(name: str):
    return get_user_model().objects.create_user(
        username=name, password="a-long-password-1", first_name=name.title()
    )


def make_campaign(owner, name="Our campaign", trackers=None) -> Campaign:
    game = GAMES["any"]
    setup = {
        "trackers": trackers
        if trackers is not None
        else [
            {"kind": "counter", "name": "Doom", "minimum": 0, "maximum": 12},
            {"kind": "checklist", "name": "Stickers", "items": ["A", "B", "C"]},
            {"kind": "list", "name": "Banished"},
            {"kind": "notes", "name": "Notes"},
            {"kind": "results", "name": "Results"},
        ]
    }
    state = game.initial_state(setup)
    state.update(name=name, archived=False)
    campaign = Campaign.objects.create(
        game="any", name=name, setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
    return campaign


def tracker_id(campaign, name: str) -> int:
    campaign.refresh_from_db()
    return next(t["id"] for t in campaign.state["trackers"] if t["name"] == name)


@pytest.fixture
def owner(db):
    return make_user("olive")


@pytest.fixture
def player(db):
    return make_user("pat")


@pytest.fixture
def stranger(db):
    return make_user("sam")


@pytest.fixture
def campaign(owner, player):
    campaign = make_campaign(owner)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client
