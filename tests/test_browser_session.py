"""A phone left open on the campaign follows its session: logged out in another tab, it shows the
log-in page; made a viewer by the owner, it shows the viewer's page. The other phone at the
table goes on as before."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import create_any_game, join_by_invitation, shot, sign_up

pytestmark = pytest.mark.browser


def streaming(page: Page):
    """Wait, around what opens the page, until its live stream has answered."""
    return page.expect_response(lambda r: "/stream/" in r.url and r.status == 200)


def test_logging_out_in_another_tab_shows_the_login_page_on_the_open_one(phones):
    owner, friend = phones
    sign_up(owner, "tab-owner", home=False)
    create_any_game(owner, "Late night")
    with streaming(friend):
        join_by_invitation(owner, friend, "Quiet")
    expect(friend.get_by_role("region", name="Doom").locator("output")).to_have_text("0")

    other_tab = friend.context.new_page()
    other_tab.goto("/")
    other_tab.get_by_role("button", name="Log out").click()
    expect(other_tab.get_by_role("heading", name="Log in")).to_be_visible()

    # The open tab, whose stream the server ended, asks the server again: it says log in.
    expect(friend.get_by_role("heading", name="Log in")).to_be_visible()
    expect(friend).to_have_url(re.compile(r"/login/\?next=/c/\d+/$"))
    shot(friend, "logged-out-elsewhere")

    # The owner's phone is still live.
    owner.get_by_role("link", name="Table").click()
    owner.get_by_role("button", name="Doom plus one").click()
    expect(owner.get_by_role("region", name="Doom").locator("output")).to_have_text("1")


def test_a_player_made_viewer_sees_the_viewers_page_at_once(phones):
    owner, friend = phones
    sign_up(owner, "role-owner", home=False)
    create_any_game(owner, "Watch only")
    with streaming(friend):
        join_by_invitation(owner, friend, "Soon viewer")
    expect(friend.get_by_role("region", name="Doom").locator("output")).to_have_text("0")
    expect(friend.get_by_text("You are a viewer")).to_have_count(0)

    owner.reload()  # the members page, with the friend on it
    owner.get_by_role("button", name="Make viewer").click()

    # (The note sits outside every live region: only the page drawn again shows it.)
    expect(friend.get_by_text("You are a viewer")).to_be_visible()
    shot(friend, "made-viewer")


def test_a_polling_phone_made_viewer_sees_the_viewers_page_too(phones):
    """A phone whose browser holds no stream (it polls the version) learns of its new role from
    the poll's answer."""
    owner, friend = phones
    friend.add_init_script("delete window.EventSource;")
    friend.clock.install()
    sign_up(owner, "poll-owner", home=False)
    create_any_game(owner, "Polled")
    with friend.expect_response(lambda r: "/version/" in r.url and r.status == 200):
        join_by_invitation(owner, friend, "Poller")
    expect(friend.get_by_role("region", name="Doom").locator("output")).to_have_text("0")

    owner.reload()
    owner.get_by_role("button", name="Make viewer").click()
    # The next poll, two seconds on by the phone's own clock (not waited out).
    friend.clock.fast_forward(2_000)

    expect(friend.get_by_text("You are a viewer")).to_be_visible()
