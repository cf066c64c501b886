"""A phone left open on the table keeps its live stream: a stream that reaches its lifetime is
followed by a new one, never by falling back to polling; and the stream brings the page with
the news, so the phone does not ask for it."""

import time

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.journeys import PHONE, Site, create_any_game, join_by_invitation, sign_up

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def short_lived_site(site_database):
    """A server whose streams last 0.4 s, so a test sees many lifetimes go by."""
    server = Site(site_database, COMPANION_STREAM_LIFETIME="0.4")
    yield server
    server.close()
    assert "Traceback" not in server.output(), server.output()[-3000:]


def join_table(owner: Page, friend: Page, name: str) -> Locator:
    """The owner starts an Any game campaign and the friend joins it; the friend's Doom."""
    sign_up(owner, name, home=False)
    create_any_game(owner, "Long evening")
    join_by_invitation(owner, friend, "Quiet")
    doom = friend.get_by_role("region", name="Doom")
    expect(doom.locator("output")).to_have_text("0")
    return doom


def test_a_phone_keeps_its_stream_across_many_stream_lifetimes(browser, short_lived_site):
    contexts = [browser.new_context(base_url=short_lived_site.url, **PHONE) for _ in range(2)]
    owner, friend = (context.new_page() for context in contexts)
    try:
        doom = join_table(owner, friend, "lifetimes")

        streams, polls = [], []
        friend.on("request", lambda r: "/stream/" in r.url and streams.append(r.url))
        friend.on("request", lambda r: "/version/" in r.url and polls.append(r.url))
        # More lifetimes than the five failures that used to leave the phone on polling.
        deadline = time.monotonic() + 60
        while len(streams) < 8 and (left := deadline - time.monotonic()) > 0:
            # (Playwright reports the phone's requests while it waits for one of them.)
            friend.wait_for_event("request", lambda r: "/stream/" in r.url, timeout=left * 1000)
        assert len(streams) >= 8

        owner.get_by_role("link", name="Table").click()
        owner.get_by_role("button", name="Doom plus one").click()
        expect(doom.locator("output")).to_have_text("1")
        assert polls == [], "the phone fell back to polling"
    finally:
        for context in contexts:
            context.close()


def test_another_phones_change_shows_without_this_phone_asking_for_its_page(browser, site):
    contexts = [browser.new_context(base_url=site.url, **PHONE) for _ in range(2)]
    owner, friend = (context.new_page() for context in contexts)
    try:
        doom = join_table(owner, friend, "pushed")
        asked = []
        friend.on("request", lambda r: r.headers.get("x-live-refresh") and asked.append(r.url))
        owner.get_by_role("link", name="Table").click()
        for shown in ("1", "2", "3"):
            owner.get_by_role("button", name="Doom plus one").click()
            expect(doom.locator("output")).to_have_text(shown)
        assert asked == [], "the phone fetched its page instead of taking the stream's"
        # The page that came down the stream works as the one it replaced.
        doom.get_by_role("button", name="Doom minus one").click()
        expect(owner.get_by_role("region", name="Doom").locator("output")).to_have_text("2")
    finally:
        for context in contexts:
            context.close()
