import copy
import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from campaigns.games import GAMES
from campaigns.models import Campaign, Event, Membership

HTMX = {"HTTP_HX_REQUEST": "true"}

# No timing assertions in tests: on a loaded machine (seven test runs on two cores) hypothesis'
# per-example deadline failed a correct engine test; the benchmarks in tests/bench measure speed.
hypothesis_settings.register_profile("companion", deadline=None)
hypothesis_settings.load_profile("companion")


@pytest.fixture(autouse=True)
def _english():
    """Each test starts in English, whatever language a request in an earlier test chose."""
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Making users is most of a web test's time with the real hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def snapshot(campaign) -> tuple:
    """Everything about a campaign a refused request must leave alone (refreshes `campaign`)."""
    try:
        campaign.refresh_from_db()
    except Campaign.DoesNotExist:
        return (None,)
    return (
        campaign.version,
        campaign.state,
        campaign.name,
        campaign.archived,
        campaign.invite_token,
        Event.objects.filter(campaign=campaign).count(),
        campaign.undo_top_id,
        campaign.redo_top_id,
        sorted(campaign.memberships.values_list("user__username", "role")),
    )


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
            {"kind": "notes", "name": "Notes", "shipped": True},
            {"kind": "results", "name": "Results", "shipped": True},
        ]
    }
    state = game.initial_state(setup)
    state.update(name=name, archived=False)
    campaign = Campaign.objects.create(
        game="any", name=name, setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
    return campaign


def play_and_check_replay(campaign, user, steps, command_for) -> Campaign:
    """Play steps on a campaign: "undo", "redo", or a command that command_for(campaign, step)
    turns into (action, data, rng), or None to skip it (a form the view would refuse). A refused
    step changes nothing; at the end the cached state equals a replay of the events."""
    from campaigns.commands import CommandError

    for step in steps:
        before = (campaign.version, copy.deepcopy(campaign.state))
        try:
            if step[0] == "undo":
                campaign.undo(user)
            elif step[0] == "redo":
                campaign.redo(user)
            elif (command := command_for(campaign, step)) is not None:
                action, data, rng = command
                campaign.apply(action, data, user, rng=rng)
        except CommandError:
            campaign.refresh_from_db()
            assert (campaign.version, campaign.state) == before
    fresh = Campaign.objects.get(pk=campaign.pk)
    assert fresh.replay() == fresh.state
    assert fresh.version == fresh.events.count()
    return fresh


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


@pytest.fixture(scope="session")
def site_database():
    from tests.server import Database

    database = Database()
    yield database
    database.close()


@pytest.fixture(scope="session")
def site(site_database):
    """A running Companion (uvicorn) with a database of its own."""
    from tests.server import Site

    server = Site(site_database)
    yield server
    server.close()
    # Whatever the tests sent, the server never answered with an error of its own.
    assert "Internal Server Error" not in server.output(), server.output()[-3000:]
    assert "Traceback" not in server.output(), server.output()[-3000:]
    assert "must consume synchronous iterators" not in server.output(), server.output()[-3000:]


CHROMIUM = "/usr/bin/chromium"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright. A missing browser fails the run: no skip."""
    from playwright.sync_api import expect, sync_playwright

    # A loaded CI machine (two cores, two workers) can take a few seconds for a live update.
    expect.set_options(timeout=10_000)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def phones(browser, site):
    """Two phones at the table: two browser contexts at 390×844."""
    contexts = [browser.new_context(base_url=site.url, **PHONE) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(10_000)
    yield pages
    for context in contexts:
        context.close()


def assert_refused(
    client, campaign, path: str, data=None, *, status: int = 422, message: str, htmx=False
):
    """POST `path` (relative to the campaign's address, or absolute) and check it was refused:
    the status, the message the person sees, and nothing about the campaign changed."""
    url = path if path.startswith("/") else f"/c/{campaign.pk}/{path}"
    before = snapshot(campaign)
    response = client.post(url, data or {}, **(HTMX if htmx else {}))
    assert response.status_code == status, text(response)[-2000:]
    assert message in html.unescape(text(response))
    assert snapshot(campaign) == before
    return response
