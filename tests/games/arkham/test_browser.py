"""Arkham Horror: The Card Game at the table, in real Chromium at phone size (390×844): create a
Night of the Zealot campaign on Standard, draw on one phone and see the token on the other, undo
the draw, and record a scenario with trauma and XP."""

import re

import pytest
from playwright.sync_api import expect

from tests.journeys import (
    create_zealot,
    no_sideways_scroll,
    open_new_campaign,
    settled,
    shot,
    sign_up,
    small_tap_targets,
)

pytestmark = pytest.mark.browser


def test_draw_on_one_phone_see_it_on_the_other_undo_and_record_a_scenario(phones):
    keeper, friend = phones
    sign_up(keeper, "arkhamkeeper")
    create_zealot(keeper, "Midnight masks")
    expect(keeper.get_by_role("heading", name="Check the starting bag")).to_be_visible()
    no_sideways_scroll(keeper)

    add = keeper.locator("#add-investigator")
    add.get_by_label("Investigator", exact=True).select_option(
        label="Roland Banks: The Fed · Guardian (9/5)"
    )
    add.get_by_label("Player").fill("Keeper")
    add.get_by_role("button", name="Add the investigator").click()
    roland = keeper.get_by_role("article", name=re.compile("Roland Banks"))
    expect(roland).to_contain_text("health 9, sanity 5")
    shot(keeper, "arkham-table", parts=True)
    no_sideways_scroll(keeper)
    assert small_tap_targets(keeper) == []

    keeper.get_by_role("link", name="Members").click()
    invite = keeper.locator(".url").inner_text()
    friend.goto(invite)
    friend.get_by_label("Your name at the table").fill("Daisy")
    friend.get_by_role("button", name="Join").click()
    friend.get_by_role("link", name="Chaos bag").first.click()
    expect(friend.locator("#bag-test")).to_contain_text("No test going on")

    keeper.get_by_role("link", name="Chaos bag").first.click()
    expect(keeper.locator("#bag-test")).to_contain_text("No test going on")
    shot(keeper, "arkham-bag-before", parts=True)
    no_sideways_scroll(keeper)
    assert small_tap_targets(keeper) == []
    keeper.get_by_role("button", name="Draw", exact=True).click()
    drawn = keeper.locator("#bag-test .drawn li.newest .token-name")
    expect(drawn).to_be_visible()
    token = drawn.inner_text()
    # The other phone shows the same token, without a reload, and marks it to buzz.
    expect(friend.locator("#bag-test .drawn li.newest .token-name")).to_have_text(token)
    expect(friend.locator("#bag-test [data-buzz]")).to_have_count(1)
    expect(keeper.locator("#bag-test [data-buzz]")).to_have_attribute("data-buzzed", "")
    expect(friend.locator("#bag-draws")).to_contain_text("Roland Banks")
    shot(keeper, "arkham-bag-drawn", parts=True)
    shot(friend, "arkham-bag-drawn-friend", parts=True)
    no_sideways_scroll(friend)
    image = keeper.locator("#bag-test .drawn li.newest .token-img")
    # Readable across the table, and small enough to leave the outcome and the next buttons
    # on the screen (tests/games/arkham/test_browser_bag_layout.py).
    assert image.bounding_box()["width"] >= 96

    keeper.locator("#undo-bar").get_by_role("button", name="Undo").click()
    expect(keeper.locator("#bag-test")).to_contain_text("No test going on")
    expect(friend.locator("#bag-test")).to_contain_text("No test going on")
    expect(friend.locator("#bag-draws")).to_contain_text("Nothing drawn yet.")

    keeper.get_by_role("link", name="Table").click()
    record = keeper.locator("#record-scenario")
    record.get_by_text("After a scenario").click()
    record.get_by_label("Scenario", exact=True).select_option(label="The Gathering")
    record.get_by_label("Resolution").fill("Resolution 1")
    record.get_by_label("XP earned").fill("3")
    record.get_by_label("Physical trauma").fill("1")
    record.get_by_label("Mental trauma").fill("2")
    record.locator("select[name=bag_op_1]").select_option("add")
    record.locator("input[name=bag_count_1]").fill("1")
    record.locator("select[name=bag_token_1]").select_option(label="Cultist")
    record.get_by_label("Cultists We Interrogated").fill("Herman Collins")
    shot(keeper, "arkham-record", parts=True)
    record.get_by_role("button", name="Record the scenario").click()
    results = keeper.locator("#scenario-results")
    expect(results).to_contain_text("The Gathering · Resolution 1")
    expect(results).to_contain_text("Roland Banks: 3 XP, 1 physical trauma, 2 mental trauma")
    roland = keeper.get_by_role("article", name=re.compile("Roland Banks"))
    expect(roland.locator("summary").first).to_contain_text("physical 1/9 · mental 2/5")
    roland.locator("summary").first.click()  # one line, opened to edit
    expect(roland.get_by_role("group", name="Physical trauma")).to_contain_text("1/9")
    expect(roland.get_by_role("group", name="Mental trauma")).to_contain_text("2/5")
    expect(roland.locator(".unspent")).to_have_text("3")
    expect(keeper.get_by_role("region", name="Cultists We Interrogated")).to_contain_text(
        "Herman Collins"
    )
    expect(friend.locator("#bag-contents")).to_contain_text("In the bag: 17 tokens")
    shot(keeper, "arkham-recorded", parts=True)
    no_sideways_scroll(keeper)

    # One undo takes the whole scenario back.
    keeper.locator("#undo-bar").get_by_role("button", name="Undo").click()
    expect(keeper.locator("#scenario-results")).to_contain_text("No scenario recorded yet.")
    expect(roland.locator(".unspent")).to_have_text("0")
    expect(friend.locator("#bag-contents")).to_contain_text("In the bag: 16 tokens")


def test_bad_input_shows_a_message_next_to_the_field(phone):
    page = phone
    sign_up(page, "arkhambad", home=False)
    open_new_campaign(page, "zealot", "Bad input")
    add = page.locator("#add-investigator")
    # Refused by the server (sent past the browser's own check): the field's message and the ✕
    # that dismisses it share a line, and Sanity keeps its own below (the ✕ stood beside it).
    page.evaluate("document.querySelector('#add-investigator form').noValidate = true")
    add.get_by_label("Or type a name").fill("Agnes Baker")
    add.get_by_label("Health").fill("0")
    add.get_by_label("Sanity").fill("8")
    add.get_by_role("button", name="Add the investigator").click()
    said = add.locator(".row > .error")
    expect(said).to_have_text("Ensure this value is greater than or equal to 1.")
    message, dismiss = said.bounding_box(), add.locator(".error + button.dismiss").bounding_box()
    sanity = add.get_by_label("Sanity").bounding_box()
    assert message and dismiss and sanity
    assert dismiss["y"] < message["y"] + message["height"], (message, dismiss)
    assert sanity["y"] >= dismiss["y"] + dismiss["height"], (dismiss, sanity)
    add.get_by_label("Health").fill("6")
    add.get_by_role("button", name="Add the investigator").click()
    agnes = page.get_by_role("article", name=re.compile("Agnes Baker"))
    settled(page, 1)
    agnes.locator("summary").first.click()
    agnes.get_by_text("Spend XP").click()
    agnes.locator("input[name=level]").fill("2")
    agnes.get_by_role("button", name="Buy").click()
    expect(agnes.get_by_role("alert")).to_contain_text("Not enough XP")
    # An Adaptable swap is level 0 for level 0, at no cost: a level-2 one is refused by its level.
    agnes.get_by_label("Adaptable swap (level 0 for level 0, no XP)").check()
    agnes.get_by_role("button", name="Buy").click()
    expect(agnes.get_by_role("alert")).to_have_text(
        "Adaptable swaps a level-0 card for another level-0 card."
    )
    agnes.locator("input[name=card]").fill("Lucky!")
    agnes.locator("input[name=level]").fill("0")
    agnes.get_by_role("button", name="Buy").click()
    expect(agnes).to_contain_text("Lucky! (level 0, 0 XP · Adaptable)")
    # No trauma below 0, no XP earned below what was spent: those − steps are off, as every
    # counter's is at its bound (the server refuses them too: test_investigators.py).
    expect(agnes.get_by_role("button", name="Physical trauma minus one")).to_be_disabled()
    expect(agnes.get_by_role("button", name="XP minus one")).to_be_disabled()
    agnes.get_by_role("button", name="Physical trauma plus one").click()
    expect(agnes.get_by_role("button", name="Physical trauma minus one")).to_be_enabled()
    shot(page, "arkham-bad-input", parts=True)

    page.get_by_role("link", name="Chaos bag").first.click()
    page.wait_for_url(re.compile(r"/p/bag/$"))
    pool = page.locator("#bag-pool")
    pool.get_by_text("Set a number").click()
    pool.get_by_label("How many").fill("11")
    pool.get_by_role("button", name="Set").click()
    expect(pool.get_by_role("alert")).to_contain_text("At most 10 Bless tokens")
    expect(pool.locator("output").first).to_have_text("0")

    effects = page.locator("#bag-effects")
    effects.get_by_label("Or type its name").fill("The Gathering")
    effects.get_by_role("button", name="Start").click()
    effects.get_by_label("What Skull does").select_option("again")
    effects.get_by_label("Skull modifier").fill("-1")
    effects.get_by_role("button", name="Save the effects").click()
    expect(page.locator("#bag-contents")).to_contain_text("−1, reveal another")
    record = page.locator("#bag-record")
    record.get_by_text("Record a physical draw").click()
    record.get_by_role("button", name="Skull").click()
    expect(page.locator("#bag-drawn")).to_contain_text("The rules say: reveal another token.")
    record.get_by_role("button", name="−2").click()
    expect(page.locator("#bag-drawn")).to_contain_text("Modifier −3")
    shot(page, "arkham-physical", parts=True)
    no_sideways_scroll(page)

    page.get_by_role("link", name="Round").click()
    shot(page, "arkham-round", parts=True)
    no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    expect(page.locator("#round-now")).to_contain_text("Round 1")
    page.get_by_role("button", name=re.compile("Next: 2.2")).click()
    expect(page.locator("#round-now")).to_contain_text("The next investigator's turn begins")
