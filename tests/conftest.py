"""The fixtures every test may ask for by name. Tests never import this module: what they import
is in tests/factories.py and tests/journeys.py (tests/test_suite_shape.py)."""

import pytest
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from campaigns.models import Membership
from tests.factories import (
    client_for,
    make_campaign,
    make_user,
    play_and_check_replay,
    tracker_id,
)
from tests.journeys import CHROMIUM, HTMX, PHONE, Database, Site, assert_refused, snapshot, text

# What this module held before issue 22, still here for a test written on an older branch: it
# runs, and tests/test_suite_shape.py names the import to move to factories or journeys.
__all__ = [
    "HTMX",
    "assert_refused",
    "client_for",
    "play_and_check_replay",
    "snapshot",
    "text",
    "tracker_id",
]


@receiver(connection_created)
def _readers_never_block_writers(sender, connection, **kwargs):
    """The tests' in-memory database reaches every thread through SQLite's shared cache, where
    a table being read refuses another thread's write at once ("database table is locked"),
    with no wait as the busy timeout gives. On the site's database file, in WAL mode, a reader
    and a writer never meet. Read-uncommitted readers take no table locks, so the streams'
    reads beside a push's or a change's write go through here too
    (tests/test_memory_database.py). Writers still go one at a time."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        connection.connection.execute("PRAGMA read_uncommitted = 1")


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


@pytest.fixture(autouse=True)
def _plain_static(settings):
    # The unit tests render pages without collected static files.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


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
    database = Database()
    yield database
    database.close()


@pytest.fixture(scope="session")
def site(site_database):
    """A running Companion (uvicorn) with a database of its own."""
    server = Site(site_database)
    yield server
    server.close()
    # Whatever the tests sent, the server never answered with an error of its own.
    assert "Internal Server Error" not in server.output(), server.output()[-3000:]
    assert "Traceback" not in server.output(), server.output()[-3000:]
    assert "must consume synchronous iterators" not in server.output(), server.output()[-3000:]


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


def _open_phones(browser, site, count: int):
    contexts = [browser.new_context(base_url=site.url, **PHONE) for _ in range(count)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(10_000)
    return contexts, pages


@pytest.fixture
def phones(browser, site):
    """Two phones at the table: two browser contexts at 390×844."""
    contexts, pages = _open_phones(browser, site, 2)
    yield pages
    for context in contexts:
        context.close()


@pytest.fixture
def phone(browser, site):
    """One phone: one browser context at 390×844 (a context is a new browser process, about a
    quarter of a second of CPU: a journey of one phone opens one)."""
    contexts, [page] = _open_phones(browser, site, 1)
    yield page
    contexts[0].close()
