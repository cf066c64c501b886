"""Nothing lost at the table, in real Chromium at phone size: a tap made while the phone is
offline, the server restarts or the answer is lost says "not sent", keeps what was typed, and is
applied exactly once when the connection is back; a refusal stays until the user acts on it and
says whose change came first."""

import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.journeys import (
    Site,
    create_any_game,
    settled,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser

NOT_SENT = "Not sent: no connection"


def history_count(page: Page) -> int:
    """How many changes the campaign holds, read from its history page in a fresh tab."""
    other = page.context.new_page()
    other.goto(page.url.split("#")[0].rstrip("/") + "/history/")
    count = other.locator("#history li").count()
    other.close()
    return count


def invite_friend(owner: Page, friend: Page, name: str) -> None:
    owner.get_by_role("link", name="Members").click()
    invite = owner.locator(".url").inner_text()
    friend.goto(invite)
    friend.get_by_label("Your name at the table").fill(name)
    friend.get_by_role("button", name="Join").click()
    owner.get_by_role("link", name="Table").click()


def test_taps_made_offline_say_not_sent_and_are_applied_once_when_back(phone):
    page = phone
    sign_up(page, "offline", home=False)
    create_any_game(page, "Offline table", "Doom 0 12")
    doom = page.get_by_role("region", name="Doom")
    notes = page.get_by_role("region", name="Notes")

    page.context.set_offline(True)
    notes.get_by_label("Note").fill("The key is in the attic")
    notes.get_by_role("button", name="Write it down").click()
    doom.get_by_role("button", name="Doom plus one").click()
    expect(notes.get_by_text(NOT_SENT)).to_be_visible()
    expect(doom.get_by_text(NOT_SENT)).to_be_visible()
    expect(doom.locator("output")).to_have_text("0")
    # What was typed stays in the field until it is sent.
    expect(notes.get_by_label("Note")).to_have_value("The key is in the attic")
    shot(page, "not-sent")

    page.context.set_offline(False)
    expect(doom.locator("output")).to_have_text("1")
    expect(notes).to_contain_text("The key is in the attic")
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    expect(notes.get_by_label("Note")).to_have_value("")
    settled(page, 2)
    assert history_count(page) == 2


def test_a_tap_whose_answer_was_lost_is_sent_again_and_applied_once(phone):
    page = phone
    # The phone's own clock, which Playwright can move on: the change goes again "in a few
    # seconds" without the test waiting them out.
    page.context.clock.install()
    sign_up(page, "lostanswer", home=False)
    create_any_game(page, "Lost answer", "Doom 0 12")
    doom = page.get_by_role("region", name="Doom")
    lost: list[str] = []

    def lose_the_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        # The server gets the change and answers; the answer never reaches the phone.
        route.fetch()
        lost.append(route.request.post_data or "")
        route.abort("connectionreset")

    # (the context's route: it sees the requests of a page the service worker controls too)
    page.context.route("**/do/counter.adjust/", lose_the_answer)
    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.get_by_text(NOT_SENT)).to_be_visible()
    # Sent again by itself, with the same id: applied once.
    page.context.clock.fast_forward(3_000)
    expect(doom.locator("output")).to_have_text("1")
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    assert re.search(r"change=[a-z0-9]{16}\.[a-z0-9]{12}", lost[0])
    settled(page, 1)
    assert history_count(page) == 1
    # The next tap is a new change.
    page.context.unroute("**/do/counter.adjust/")
    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.locator("output")).to_have_text("2")
    settled(page, 2)
    assert history_count(page) == 2


def test_a_tap_while_the_server_restarts_is_applied_once_when_it_is_back(browser, site_database):
    from tests.journeys import PHONE

    server = Site(site_database)
    context = browser.new_context(base_url=server.url, **PHONE)
    context.clock.install()  # moved on once the server is back, as in the journey above
    page = context.new_page()
    try:
        sign_up(page, "restart", home=False)
        create_any_game(page, "Restart table", "Doom 0 12")
        doom = page.get_by_role("region", name="Doom")
        doom.get_by_text("Set a value").click()
        server.close()
        doom.get_by_label("Value").fill("7")
        doom.get_by_role("button", name="Set").click()
        expect(doom.get_by_text(NOT_SENT)).to_be_visible()
        expect(doom.get_by_label("Value")).to_have_value("7")
        server = Site(site_database, port=server.port)
        context.clock.fast_forward(3_000)
        expect(doom.locator("output")).to_have_text("7")
        expect(page.get_by_text(NOT_SENT)).to_have_count(0)
        settled(page, 1)
        assert history_count(page) == 1
    finally:
        context.close()
        server.close()
    assert "Traceback" not in server.output()


def test_a_refusal_after_this_phones_own_tap_stays_through_live_refreshes(phones):
    page, friend = phones
    sign_up(page, "refused", home=False)
    create_any_game(page, "Refusal table", "Doom 0 12\nClues 0 20")
    invite_friend(page, friend, "Ash")
    doom = page.get_by_role("region", name="Doom")
    clues = page.get_by_role("region", name="Clues")

    clues.get_by_text("Set a value").click()
    clues.get_by_label("Value").fill("5")
    # A tap on this phone first; the Set was made from the screen before it.
    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.locator("output")).to_have_text("1")
    clues.get_by_role("button", name="Set").click()
    alert = clues.get_by_role("alert")
    expect(alert).to_contain_text("Changed meanwhile by your earlier tap on this phone")
    expect(alert).not_to_contain_text("another phone")
    expect(clues.get_by_label("Value")).to_have_value("5")

    # Another phone's change, then a live refresh on this one: the refusal and the typed value
    # stay, while the change shows in its own region.
    friend.get_by_role("button", name="Doom plus one").click()
    expect(doom.locator("output")).to_have_text("2")
    settled(page, 2)
    expect(alert).to_be_visible()
    expect(clues.get_by_label("Value")).to_have_value("5")
    shot(page, "refusal-stays")

    # Sent again from the held screen, it is refused for the other phone's change; then applied.
    clues.get_by_role("button", name="Set").click()
    expect(clues.get_by_role("alert")).to_contain_text(
        "Changed meanwhile on another phone (Doom +1 (now 2))"
    )
    expect(clues.get_by_label("Value")).to_have_value("5")
    clues.get_by_role("button", name="Set").click()
    expect(clues.locator("output")).to_have_text("5")
    expect(clues.get_by_role("alert")).to_have_count(0)


def test_a_refusal_names_the_other_phone_and_goes_when_dismissed(phones):
    page, friend = phones
    sign_up(page, "dismisser", home=False)
    create_any_game(page, "Dismiss table", "Doom 0 12")
    invite_friend(page, friend, "Bo")
    doom = page.get_by_role("region", name="Doom")

    doom.get_by_text("Set a value").click()
    doom.get_by_label("Value").fill("9")
    friend.get_by_role("button", name="Doom plus one").click()
    settled(page, 1)
    doom.get_by_role("button", name="Set").click()
    alert = doom.get_by_role("alert")
    expect(alert).to_contain_text("Changed meanwhile on another phone (Doom +1 (now 1))")
    expect(doom.locator("output")).to_have_text("1")
    friend.get_by_role("button", name="Doom plus one").click()
    settled(page, 2)
    expect(alert).to_be_visible()
    expect(doom.get_by_label("Value")).to_have_value("9")
    expect(doom.locator("output")).to_have_text("1")  # held with the message, as typed

    doom.get_by_role("button", name="Dismiss").click()
    expect(doom.get_by_role("alert")).to_have_count(0)
    # Dismissed, the region catches up with the other phone.
    expect(doom.locator("output")).to_have_text("2")


def test_ten_quick_taps_while_the_answers_are_slow_are_ten_changes(phone):
    """Each tap is a change of its own (the tester's 15 taps with answers taking a second gave 5):
    a tap made while the form's last one is on its way waits behind it, and goes after it."""
    page = phone
    sign_up(page, "slowtaps", home=False)
    create_any_game(page, "Slow answers", "Doom 0 50")
    # Every change this phone sends takes a second to go (and so its answer to come).
    page.evaluate(
        """() => {
            const send = window.fetch;
            window.fetch = (url, init) => init && init.method === "POST"
                ? new Promise((go) => setTimeout(go, 1000)).then(() => send(url, init))
                : send(url, init);
        }"""
    )
    doom = page.get_by_role("region", name="Doom")
    plus = doom.get_by_role("button", name="Doom plus one")
    for _ in range(10):
        plus.click()
    expect(doom.locator("output")).to_have_text("10", timeout=30_000)
    settled(page, 10)
    assert history_count(page) == 10
    expect(page.locator(".error")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('companion-waiting') || '[]'") == "[]"
