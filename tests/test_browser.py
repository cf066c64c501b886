"""Journeys in real Chromium at phone size (390×844), two phones where it matters."""

import pytest
from playwright.sync_api import expect

from tests.journeys import (
    create_any_game,
    join_by_invitation,
    new_campaign,
    no_sideways_scroll,
    shot,
    sign_up,
    sign_up_on_the_form,
    small_tap_targets,
)

pytestmark = pytest.mark.browser


def test_a_friend_joins_by_invitation_and_sees_changes_live(phones):
    owner, friend = phones
    sign_up_on_the_form(owner, "keeper")
    new_campaign(owner, "Night at the table")
    shot(owner, "campaign")
    no_sideways_scroll(owner)

    owner.get_by_role("link", name="Members").click()
    invite = owner.locator(".url").inner_text()
    expect(owner.locator(".qr svg")).to_be_visible()
    shot(owner, "invite")
    # For a friend not at the table: one tap on the link selects all of it, for the phone's own
    # copy and share.
    owner.locator(".url").tap()
    assert owner.evaluate("getSelection().toString().trim()") == invite

    friend.goto(invite)
    friend.get_by_label("Your name at the table").fill("Dana")
    friend.get_by_role("button", name="Join").click()
    doom = friend.get_by_role("region", name="Doom")
    expect(doom.locator("output")).to_have_text("0")
    no_sideways_scroll(friend)

    owner.get_by_role("link", name="Table").click()
    owner.get_by_role("button", name="Doom plus one").click()
    expect(owner.get_by_role("region", name="Doom").locator("output")).to_have_text("1")
    # The friend's phone changes without a reload.
    expect(doom.locator("output")).to_have_text("1")
    friend.get_by_role("button", name="Doom plus one").click()
    expect(owner.get_by_role("region", name="Doom").locator("output")).to_have_text("2")
    shot(friend, "friend-live")


def test_three_changes_undo_two_redo_one(phone):
    page = phone
    sign_up(page, "undoer", home=False)
    create_any_game(page, "Undo test")
    doom = page.get_by_role("region", name="Doom")
    for value in ("1", "2", "3"):
        page.get_by_role("button", name="Doom plus one").click()
        expect(doom.locator("output")).to_have_text(value)
    bar = page.locator("#undo-bar")
    bar.get_by_role("button", name="Undo").click()
    expect(doom.locator("output")).to_have_text("2")
    bar.get_by_role("button", name="Undo").click()
    expect(doom.locator("output")).to_have_text("1")
    bar.get_by_role("button", name="Redo").click()
    expect(doom.locator("output")).to_have_text("2")
    shot(page, "undo")

    page.get_by_role("link", name="History").click()
    history = page.locator("#history li")
    expect(history.nth(0)).to_contain_text("Redid: Doom +1 (now 2)")
    expect(history.nth(1)).to_contain_text("Undid: Doom +1 (now 2)")
    expect(history.nth(2)).to_contain_text("Undid: Doom +1 (now 3)")
    expect(history.nth(3)).to_contain_text("Doom +1 (now 3)")
    expect(history).to_have_count(6)
    shot(page, "history")
    no_sideways_scroll(page)


def test_typing_is_not_lost_when_another_phone_changes_something(phones):
    owner, friend = phones
    sign_up(owner, "typist", home=False)
    create_any_game(owner, "Typing test")
    join_by_invitation(owner, friend, "Lee")

    owner.get_by_role("link", name="Table").click()
    note = owner.get_by_role("region", name="Notes").get_by_label("Note")
    note.fill("We found the key in the")
    friend.get_by_role("button", name="Doom plus one").click()
    expect(owner.get_by_role("region", name="Doom").locator("output")).to_have_text("1")
    expect(note).to_have_value("We found the key in the")
    note.fill("We found the key in the attic")
    owner.get_by_role("button", name="Write it down").click()
    expect(friend.get_by_role("region", name="Notes")).to_contain_text("attic")


def test_bad_input_shows_a_message_next_to_the_tracker(phone):
    page = phone
    sign_up(page, "badinput", home=False)
    create_any_game(page, "Bad input", counters="Doom 0 2")
    doom = page.get_by_role("region", name="Doom")
    doom.get_by_text("Set a value").click()
    doom.get_by_label("Value").fill("99")
    doom.get_by_role("button", name="Set").click()
    expect(doom.get_by_role("alert")).to_contain_text("cannot go above 2")
    expect(doom.locator("output")).to_have_text("0")
    shot(page, "bad-input")


def test_every_page_fits_a_small_phone(browser, site):
    context = browser.new_context(
        base_url=site.url,
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        color_scheme="dark",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_up(page, "smallphone", home=False)
    create_any_game(page, "A campaign with a rather long name to wrap", counters="Doom 0 12")
    base = page.url
    for path in ("", "history/", "members/", "settings/"):
        page.goto(base + path)
        no_sideways_scroll(page)
        assert small_tap_targets(page) == []
    shot(page, "dark-360")
    for path in ("/", "/new/", "/new/any/", "/import/", "/account/"):
        page.goto(path)
        no_sideways_scroll(page)
        assert small_tap_targets(page) == []
    context.close()


def test_what_is_typed_elsewhere_stays_when_this_phone_changes_another_region(phone):
    """The answer to a change brings the regions it changed; one where the user has typed
    and not sent waits, and catches up once the text is sent."""
    page = phone
    sign_up(page, "note-taker", home=False)
    create_any_game(page, "Typing test")
    note = page.get_by_role("region", name="Notes").get_by_label("Note")
    note.fill("Half a thought")
    page.get_by_text("Add a tracker").click()
    page.locator("#add-tracker").get_by_label("Name").fill("Clues")
    page.get_by_role("button", name="Add the tracker").click()
    expect(page.locator("#undo-bar")).to_contain_text("Added the tracker “Clues”")
    expect(note).to_have_value("Half a thought")
    page.get_by_role("button", name="Write it down").click()
    expect(page.get_by_role("region", name="Notes")).to_contain_text("Half a thought")
    expect(page.get_by_role("region", name="Clues")).to_be_visible()
