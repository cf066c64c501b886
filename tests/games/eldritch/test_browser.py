"""Eldritch Horror at the table, in real Chromium at phone size (390×844) on two phones, the
second in Japanese: a 3-player game against Azathoth, mythos cards drawn through a stage change
and seen on the other phone, the omen onto a comet with gates open, an investigator defeated and
replaced at the end of the Mythos phase, dice with a clue reroll, Azathoth's awakening (a loss),
and the log."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import (
    create_azathoth,
    lone_characters,
    no_sideways_scroll,
    shot,
    sign_up,
    small_tap_targets,
)

pytestmark = pytest.mark.browser


def doom(page: Page) -> str:
    return page.locator("#eh-doom .doom-value").inner_text()


def test_a_game_against_azathoth_on_two_phones(phones_en_ja):
    keeper, friend = phones_en_ja
    sign_up(keeper, "ehkeeper")
    create_azathoth(keeper, "Azathoth night")
    expect(keeper.locator("#eh-status")).to_contain_text("Round 1 · Action phase")
    assert doom(keeper) == "15"
    no_sideways_scroll(keeper)
    assert small_tap_targets(keeper) == []

    keeper.get_by_role("link", name="Set-up").click()
    facts = keeper.locator("#eh-setup .facts")
    expect(facts).to_contain_text("Starting doom15")
    expect(facts).to_contain_text("Monsters per surge2")
    expect(keeper.locator("#eh-setup .stages tbody tr").first).to_have_text(
        re.compile(r"I\s*1\s*2\s*1")
    )
    shot(keeper, "eldritch-setup", parts=True)

    keeper.get_by_role("link", name="Members").click()
    invite = keeper.locator(".url").inner_text()
    friend.goto(invite)
    friend.locator("input[name=display_name]").fill("Fern")
    friend.locator("form.card button[type=submit]").click()
    expect(friend.locator("html")).to_have_attribute("lang", "ja")
    expect(friend.locator("#eh-mythos")).to_be_visible()

    # Stage I holds four cards: the fifth draw comes from stage II, on both phones.
    keeper.get_by_role("link", name="Table").click()
    colours = []
    for number in range(5):
        keeper.get_by_role("button", name="Draw a mythos card").click()
        expect(keeper.locator("#eh-mythos")).to_contain_text(f"{15 - number} cards left")
        drawn = keeper.locator("#eh-mythos .drawn")
        colours.append(drawn.get_attribute("class").split()[1])
        expect(friend.locator("#eh-mythos .drawn")).to_have_class(re.compile(colours[-1]))
    expect(keeper.locator("#eh-mythos")).to_contain_text("Stage II has begun.")
    expect(friend.locator("#eh-mythos-h")).to_have_text("神話デッキ")
    expect(friend.locator("#eh-mythos")).to_contain_text("第II段階が始まりました。")
    expect(keeper.locator("#eh-mythos .icons li")).to_have_count(6)
    expect(friend.locator("#eh-mythos .stages tbody tr").nth(1)).to_have_class("current")
    shot(keeper, "eldritch-mythos", parts=True)
    shot(friend, "eldritch-mythos-ja", parts=True)
    no_sideways_scroll(friend)
    assert lone_characters(friend) == []

    # Two blue gates open; the omen steps from green onto blue: doom advances by two.
    for count in ("1", "2"):
        keeper.get_by_role("button", name="Open a Blue gate").click()
        expect(keeper.locator("#eh-doom .gate.blue output")).to_have_text(count)
    keeper.get_by_role("button", name=re.compile("Advance the omen to Blue")).click()
    expect(keeper.locator("#eh-doom .doom-value")).to_have_text("13")
    expect(friend.locator("#eh-doom .doom-value")).to_have_text("13")
    expect(friend.locator("#eh-doom .omen.blue.here")).to_have_count(1)

    # Charlie Kane is defeated: doom advances in the same step; the lead passes on.
    charlie = keeper.locator("#eh-investigators article", has_text="Charlie Kane")
    charlie.get_by_text("More").click()
    charlie.get_by_label("Status").select_option("defeated")
    charlie.get_by_role("button", name="Set").click()
    expect(keeper.locator("#eh-doom .doom-value")).to_have_text("12")
    expect(friend.locator("#eh-doom .doom-value")).to_have_text("12")
    keeper.get_by_role("button", name="End the Action phase").click()
    keeper.get_by_role("button", name="End the Encounter phase").click()
    keeper.get_by_role("button", name="End the Mythos phase: next round").click()
    expect(keeper.locator("#eh-round")).to_contain_text("First a new investigator for Charlie Kane")
    charlie = keeper.locator("#eh-investigators article", has_text="Charlie Kane")
    expect(charlie.get_by_label("New investigator")).not_to_contain_text("Charlie Kane")
    charlie.get_by_label("New investigator").select_option("Jim Culver")
    charlie.get_by_role("button", name="Choose").click()
    # The Japanese phone reads the name the Japanese edition prints.
    expect(friend.locator("#eh-investigators")).to_contain_text("ジム・カルヴァー")
    keeper.get_by_role("button", name="End the Mythos phase: next round").click()
    expect(keeper.locator("#eh-status")).to_contain_text("Round 2 · Action phase")

    # Dice: Akachi gains a clue, rolls cursed, and spends the clue on a failed die.
    akachi = keeper.locator("#eh-investigators article", has_text="Akachi Onyele")
    akachi.locator(".track", has_text="Clues").get_by_role("button", name="Gain one").click()
    expect(akachi.locator(".track", has_text="Clues").locator("output")).to_have_text("1")
    keeper.get_by_role("link", name="Dice").click()
    friend.goto(keeper.url)
    roll = keeper.get_by_role("region", name="Roll for a test")
    roll.get_by_label("Dice").fill("5")
    roll.get_by_label("Success on").select_option("cursed")
    roll.get_by_label("Investigator").select_option(label="Akachi Onyele · 1 clue")
    roll.get_by_role("button", name="Roll", exact=True).click()
    expect(keeper.locator("#eh-dice .dice .die")).to_have_count(5)
    faces = keeper.locator("#eh-dice .die").all_inner_texts()
    expect(friend.locator("#eh-dice .die")).to_have_text(faces)
    expect(keeper.locator("#eh-dice table.odds")).to_contain_text("%")
    keeper.get_by_role("button", name=re.compile("Spend a clue")).click()
    expect(keeper.locator("#eh-dice")).to_contain_text("1 clue spent")
    expect(friend.locator("#eh-dice .die")).to_have_text(
        keeper.locator("#eh-dice .die").all_inner_texts()
    )
    shot(keeper, "eldritch-dice", parts=True)
    shot(friend, "eldritch-dice-ja", parts=True)

    # Doom to 0: Azathoth awakens and, as his sheet's back says, the investigators lose.
    keeper.get_by_role("link", name="Table").click()
    friend.get_by_role("link", name="テーブル").click()
    for left in range(11, -1, -1):
        keeper.get_by_role("button", name="Advance", exact=True).click()
        expect(keeper.locator("#eh-doom .doom-value")).to_have_text(str(left))
    status = keeper.locator("#eh-status")
    expect(status).to_contain_text("Azathoth has awakened: the investigators lose.")
    expect(status.locator(".outcome.loss")).to_have_text("Loss: Doom (the Ancient One's back)")
    expect(status).not_to_contain_text("final mystery")
    expect(friend.locator("#eh-status .awakened")).to_contain_text("Azathoth")
    expect(friend.locator("#eh-status .outcome.loss")).to_be_visible()
    keeper.get_by_role("button", name="Retreat").click()
    expect(keeper.locator("#eh-doom")).to_contain_text("This game is over")
    expect(keeper.locator("#eh-doom .doom-value")).to_have_text("0")
    no_sideways_scroll(keeper)
    no_sideways_scroll(friend)
    shot(keeper, "eldritch-awakened", parts=True)
    shot(friend, "eldritch-awakened-ja", parts=True)

    keeper.get_by_role("link", name="Games log").click()
    keeper.get_by_label("Result").select_option("loss")
    keeper.get_by_label("Why").select_option("doom")
    keeper.get_by_label("Notes").fill("Azathoth woke on the second night")
    keeper.get_by_role("button", name="Log the game").click()
    expect(keeper.locator("#eh-log")).to_contain_text("Azathoth")
    expect(keeper.locator("#eh-log")).to_contain_text("Wins 0 · losses 1")
    expect(keeper.locator("#eh-log")).to_contain_text("Jim Culver")
    shot(keeper, "eldritch-log", parts=True)
    no_sideways_scroll(keeper)
