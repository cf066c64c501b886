"""Issue 9's journey in real Chromium at phone size: start The Night of the Zealot by picking
Roland Banks and Agnes Baker from the box's investigators, pick The Gathering, enter a "−X"
skull, draw with X set, record the scenario, and buy an upgrade for the level difference."""

import re

import pytest
from playwright.sync_api import expect

from tests.journeys import (
    no_sideways_scroll,
    open_new_campaign,
    settled,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser


def test_pick_investigators_and_scenario_minus_x_skull_record_and_upgrade(phone):
    page = phone
    sign_up(page, "arkhamfacts", home=False)
    open_new_campaign(page, "zealot", "Zealot picked")

    add = page.locator("#add-investigator")
    add.get_by_label("Investigator", exact=True).select_option(
        label="Roland Banks: The Fed · Guardian (9/5)"
    )
    add.get_by_label("Player").fill("Ann")
    add.get_by_role("button", name="Add the investigator").click()
    roland = page.get_by_role("article", name=re.compile("Roland Banks"))
    expect(roland).to_contain_text("health 9, sanity 5")  # filled from the card
    settled(page, 1)
    add = page.locator("#add-investigator")
    add.get_by_text("Add an investigator").click()
    add.get_by_label("Investigator", exact=True).select_option(
        label="Agnes Baker: The Waitress · Mystic (6/8)"
    )
    add.get_by_role("button", name="Add the investigator").click()
    agnes = page.get_by_role("article", name=re.compile("Agnes Baker"))
    expect(agnes).to_contain_text("health 6, sanity 8")

    # Roland again: refused next to the field, nothing added.
    add = page.locator("#add-investigator")
    add.get_by_text("Add an investigator").click()
    add.get_by_label("Investigator", exact=True).select_option(
        label="Roland Banks: The Fed · Guardian (9/5)"
    )
    add.get_by_role("button", name="Add the investigator").click()
    expect(add.get_by_role("alert")).to_contain_text("Roland Banks is already in this campaign")
    expect(page.get_by_role("article", name=re.compile("Roland Banks"))).to_have_count(1)

    overview = page.locator("#ark-overview")
    overview.get_by_text("Start a scenario").click()
    scenario = overview.get_by_label("Scenario", exact=True)
    expect(scenario.locator("option:checked")).to_have_text("The Gathering")  # the next one
    overview.get_by_role("button", name="Start").click()
    expect(page.locator("#ark-overview")).to_contain_text("Playing The Gathering.")

    page.get_by_role("link", name="Chaos bag").first.click()
    page.wait_for_url(re.compile(r"/p/bag/$"))
    expect(page.locator("#bag-odds")).to_contain_text("The odds count these tokens as 0")
    effects = page.locator("#bag-effects")
    effects.get_by_label("What Skull does").select_option(label="−X (X set at the test)")
    effects.get_by_role("button", name="Save the effects").click()
    expect(page.locator("#bag-contents")).to_contain_text("Skull −X")

    actions = page.locator("#bag-actions")
    actions.get_by_role("button", name="Draw", exact=True).click()
    expect(actions.get_by_role("alert")).to_contain_text("Set X for the Skull before drawing.")
    actions.get_by_label("X for Skull").fill("2")
    actions.get_by_role("button", name="Draw", exact=True).click()
    expect(page.locator("#bag-drawn")).to_contain_text("X for Skull: 2")
    shot(page, "arkham-minus-x", parts=True)
    no_sideways_scroll(page)
    drawn = page.locator("#bag-drawn .drawn li .token-name").all_inner_texts()
    if "Skull" in drawn:
        expect(page.locator("#bag-drawn")).to_contain_text("−2")

    page.get_by_role("link", name="Table").click()
    record = page.locator("#record-scenario")
    record.get_by_text("After a scenario").click()
    expect(record.get_by_label("Scenario", exact=True).locator("option:checked")).to_have_text(
        "The Gathering"
    )
    record.locator("fieldset", has_text="Roland Banks").get_by_label("XP earned").fill("3")
    with page.expect_response(re.compile(r"/do/")) as recorded:
        record.get_by_role("button", name="Record the scenario").click()
    expect(page.locator("#scenario-results")).to_contain_text("The Gathering")
    # The live refresh this change starts is drawn before the folds below are opened (one that
    # arrived after them redrew Roland's line shut: a fresh-clone CI run under load failed so).
    settled(page, int(recorded.value.headers["x-campaign-version"]))

    roland = page.get_by_role("article", name=re.compile("Roland Banks"))
    roland.locator("summary").first.click()
    roland.get_by_text("Spend XP").click()
    # Every tick box of the purchase is the same size, however long its label runs.
    boxes = roland.locator("details[open] input[type=checkbox]")
    expect(boxes.first).to_be_visible()
    sizes = boxes.evaluate_all("all => all.map(b => b.offsetWidth + 'x' + b.offsetHeight)")
    assert len(set(sizes)) == 1, sizes
    roland.locator("input[name=card]").fill("Shrivelling")
    roland.locator("input[name=level]").fill("5")
    roland.get_by_label("Upgrading from level").fill("3")
    roland.get_by_role("button", name="Buy").click()
    expect(roland.locator(".unspent")).to_have_text("1")  # 3 earned, the upgrade cost 2
    expect(roland).to_contain_text("level 3 to 5, 2 XP")
    shot(page, "arkham-upgrade", parts=True)
