"""Aeon's End: Legacy in real Chromium at phone size: a game that ends when Gravehold falls, on
two phones (one reading Japanese), and then refuses more damage (rules.md §2d)."""

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import create_the_fall, no_sideways_scroll, shot, sign_up, small_tap_targets


def tab(page: Page, name: str) -> None:
    page.get_by_role("navigation").get_by_role("link", name=name).click()


@pytest.mark.browser
def test_gravehold_falls_and_the_table_refuses_more_damage(phones):
    owner, friend = phones
    sign_up(owner, "fallen-keeper")
    create_the_fall(owner)

    # A friend who reads Japanese joins through the invitation.
    tab(owner, "Members")
    invite = owner.locator(".url").inner_text()
    friend.goto(invite)
    friend.get_by_role("button", name="日本語").click()
    friend.get_by_label("テーブルでの呼び名").fill("Lou")
    friend.get_by_role("button", name="参加").click()
    expect(friend.get_by_role("heading", name="The Fall", exact=True)).to_be_visible()

    # The nemesis is picked from the list: its life comes from its mat (Bladius, 40).
    tab(owner, "Turn order")
    tab(friend, "ターン順")
    owner.get_by_label("Nemesis", exact=True).fill("Bladius")
    owner.get_by_role("button", name="Start", exact=True).click()
    expect(owner.get_by_label("Bladius life")).to_contain_text("40/40")
    expect(friend.get_by_label("Bladiusのライフ")).to_contain_text("40/40")

    # The nemesis deck from the two-player table: 3, 5 and 7 basic cards.
    owner.get_by_role("button", name="Build", exact=True).click()
    expect(owner.locator("#nemesis .ae-tiers")).to_contain_text("Tier 1: 3")
    expect(friend.locator("#nemesis .ae-tiers")).to_contain_text("階層1：3")
    shot(owner, "aeonsend-nemesis-deck")
    no_sideways_scroll(owner)
    assert small_tap_targets(owner) == []

    # The Japanese phone deals Gravehold its last 30: the game is lost on both phones.
    life = friend.locator("#life form.ae-amount")
    life.get_by_label("対象").select_option("gravehold")
    life.get_by_label("数値").fill("30")
    life.get_by_role("button", name="ダメージ").click()
    expect(friend.locator("#life")).to_contain_text("グレイブホールドが陥落しました。敗北です。")
    expect(owner.locator("#life")).to_contain_text("Gravehold has fallen: you lose.")
    expect(owner.get_by_label("Gravehold life")).to_contain_text("0/30")

    # More damage is refused, with a message in each phone's language, and nothing changes.
    life = owner.locator("#life form.ae-amount")
    life.get_by_label("Who").select_option("0")
    life.get_by_label("Amount").fill("3")
    life.get_by_role("button", name="Damage", exact=True).click()
    expect(owner.locator("#life").get_by_role("alert")).to_contain_text(
        "This game is over (a loss). Start the next game, or undo"
    )
    expect(owner.get_by_label("Adelheim life")).to_contain_text("10/10")
    shot(owner, "aeonsend-game-over")
    life = friend.locator("#life form.ae-amount")
    life.get_by_label("対象").select_option("gravehold")
    life.get_by_label("数値").fill("1")
    life.get_by_role("button", name="ダメージ").click()
    expect(friend.locator("#life").get_by_role("alert")).to_contain_text(
        "このゲームは終了しました（敗北）"
    )
    expect(friend.locator("#life")).to_contain_text("0/30")
    shot(friend, "aeonsend-game-over-ja")
    no_sideways_scroll(friend)

    # The score chart's form starts from the result that happened: a loss.
    tab(owner, "Score chart")
    expect(owner.locator("#score-add").get_by_label("Loss")).to_be_checked()
