"""Arkham Noir at the table, in real Chromium at phone size (390×844): set up Case 2, play cards
into two columns until a sanity check and a storm are called out, close a case with five clue
types and score its puzzle pieces, run end phases through a new case from the time-out pile,
win, and see the play in the log; the second phone follows live. One check at 360×640 and a
phone in Japanese."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import (
    create_case,
    no_sideways_scroll,
    open_new_campaign,
    settled,
    shot,
    sign_up,
    small_tap_targets,
    tap,
)

pytestmark = pytest.mark.browser


def now(page: Page):
    return page.locator("#noir-now")


def column(page: Page, n: int):
    return page.locator("#noir-columns section.column").nth(n - 1)


def pile(page: Page, key: str):
    return page.locator(f'output[data-pile="{key}"]')


def tap_pile(page: Page, label: str, sign: str, times: int = 1) -> None:
    for _ in range(times):
        tap(page, page.get_by_role("button", name=f"{label} {sign} one"))


def play_card(page: Page, action: str, case: int, clue_type: int, *symbols: str) -> None:
    box = now(page)
    box.get_by_text(action).click()
    form = box.locator("details[open]")
    form.locator(".type-choice", has_text=re.compile(f"^{clue_type}$")).click()
    for symbol in symbols:
        form.get_by_label(symbol, exact=True).check()
    tap(page, form.get_by_role("button", name=re.compile(f"^Case {case}")))


def end_phase(page: Page, *buttons: str) -> None:
    for button in buttons:
        tap(page, now(page).get_by_role("button", name=button))


def test_a_case_through_sanity_storm_closing_a_new_case_and_a_win(phones):
    keeper, friend = phones
    sign_up(keeper, "noirkeeper")
    create_case(keeper, "Thunder")
    expect(now(keeper)).to_contain_text("Round 1 · Action phase")
    expect(now(keeper).locator(".setup-steps .letter")).to_have_text(["1", "2", "3", "4", "5", "6"])
    expect(pile(keeper, "victims_left")).to_have_text("3")
    expect(pile(keeper, "hand")).to_have_text("3")
    expect(pile(keeper, "row")).to_have_text("5")
    expect(pile(keeper, "storms_left")).to_have_text("4")
    expect(keeper.locator("#noir-columns section.column")).to_have_count(2)
    shot(keeper, "noir-table", parts=True)
    no_sideways_scroll(keeper)
    assert small_tap_targets(keeper) == []

    keeper.get_by_role("link", name="Members").click()
    friend.goto(keeper.locator(".url").inner_text())
    friend.get_by_label("Your name at the table").fill("Watson")
    friend.get_by_role("button", name="Join").click()
    keeper.get_by_role("link", name="Table").click()

    # Column 1 already holds seven cards: the eighth asks for a sanity check.
    for _ in range(7):
        tap(keeper, column(keeper, 1).get_by_role("button", name="Cards played plus one"))
    expect(column(keeper, 1)).to_contain_text("The next card here asks for a sanity check")
    play_card(keeper, "Play it", 1, 2, "Puzzle piece")
    expect(now(keeper)).to_contain_text("Sanity check")
    expect(now(friend)).to_contain_text("Sanity check")  # live on the second phone
    shot(keeper, "noir-sanity", parts=True)
    tap(keeper, now(keeper).get_by_role("button", name="Penalty: to the madness area"))
    expect(pile(keeper, "madness")).to_contain_text("1")
    expect(pile(friend, "madness")).to_contain_text("1")
    end_phase(
        keeper,
        "Checked: no win yet",
        "Checked: sane enough",
        "Checked: time enough",
        "Row refilled: next round",
    )
    expect(now(keeper)).to_contain_text("Round 2 · Action phase")

    # Column 2: two hourglasses, then a third played brings the storm.
    for _ in range(2):
        tap(keeper, column(keeper, 2).get_by_role("button", name="Hourglasses plus one"))
    expect(column(keeper, 2)).to_contain_text("The next hourglass here brings a storm")
    play_card(keeper, "Play it", 2, 3, "Hourglass")
    expect(now(keeper)).to_contain_text("Storm")
    expect(now(friend)).to_contain_text("Storm")
    shot(keeper, "noir-storm", parts=True)
    tap(keeper, now(keeper).get_by_role("button", name="A storm card with lightning"))
    expect(pile(keeper, "storms_left")).to_have_text("3")
    expect(column(keeper, 2).get_by_role("button", name="Lightning storm")).to_have_attribute(
        "aria-pressed", "true"
    )
    end_phase(
        keeper,
        "Checked: no win yet",
        "Checked: sane enough",
        "Checked: time enough",
        "Row refilled: next round",
    )

    # Column 1 gets five clue types among its other cards: it closes and its puzzle piece scores.
    for n in (1, 3, 4, 5, 6):
        tap(keeper, column(keeper, 1).get_by_role("button", name=f"Clue type {n}", exact=True))
    expect(column(keeper, 1)).to_contain_text("Can be closed")
    expect(column(keeper, 1)).to_contain_text("Its puzzle pieces would score")
    now(keeper).get_by_text("Discard, close a case").click()
    tap(keeper, now(keeper).locator("details[open]").get_by_role("button", name="Case 1"))
    expect(keeper.locator("#noir-piles .big-picture")).to_contain_text("1 puzzle-piece card")
    expect(keeper.locator("#noir-columns section.column")).to_have_count(1)

    # Five cards in the time-out pile: end phase c) draws a victim as a new case.
    tap_pile(keeper, "Time-out pile", "plus", 5)
    end_phase(keeper, "Checked: no win yet", "Checked: sane enough")
    expect(now(keeper)).to_contain_text("draw a victim as a new case")
    end_phase(keeper, "Draw a victim: a new case")
    expect(keeper.locator("#noir-columns section.column")).to_have_count(2)
    expect(friend.locator("#noir-columns section.column")).to_have_count(2)
    expect(pile(keeper, "victims_left")).to_have_text("2")
    expect(pile(keeper, "timeout")).to_contain_text("0")
    end_phase(keeper, "Row refilled: next round")

    # The new case: five types, four puzzle pieces, closed: the Big Picture holds five: a win.
    new_case = column(keeper, 2)
    new_case.get_by_label("Victim").fill("Martense")
    tap(keeper, new_case.get_by_role("button", name="Save"))
    for n in (1, 2, 3, 4, 5):
        tap(keeper, column(keeper, 2).get_by_role("button", name=f"Clue type {n}", exact=True))
    column(keeper, 2).get_by_text("Puzzle-piece cards").click()
    for n in (1, 2, 3, 4):
        tap(
            keeper,
            column(keeper, 2)
            .locator(".puzzles .mini")
            .nth(n - 1)
            .get_by_role("button", name="plus one"),
        )
    now(keeper).get_by_text("Discard, close a case").click()
    tap(
        keeper, now(keeper).locator("details[open]").get_by_role("button", name="Case 2 · Martense")
    )
    expect(keeper.locator("#noir-piles .big-picture")).to_contain_text("5 puzzle-piece cards")
    expect(now(keeper).locator(".end-step.current")).to_contain_text("reached, you win")
    shot(keeper, "noir-win-check", parts=True)
    end_phase(keeper, "Win the case")
    expect(now(keeper)).to_contain_text("You won the case.")
    expect(now(friend)).to_contain_text("You won the case.")

    keeper.get_by_role("link", name="See the cases played").click()
    log = keeper.locator(".cases-log")
    expect(log).to_contain_text("Case 2")
    expect(log).to_contain_text("Won")
    expect(log.locator("tbody tr")).to_have_count(1)
    expect(log.locator("tbody tr td").nth(3)).to_have_text("4")  # rounds
    expect(log.locator("tbody tr td").nth(4)).to_have_text("5")  # puzzle pieces
    expect(keeper.locator("svg.chart rect.win")).to_have_count(1)
    shot(keeper, "noir-log", parts=True)
    no_sideways_scroll(keeper)


def test_a_three_card_and_a_special_key_refused_where_they_are_ticked(phone):
    # seed 004:37, 41: the "3" symbol needs three cards already in the column, a special key a
    # master key already played there; the refusal sits by the box and nothing changes.
    keeper = phone
    sign_up(keeper, "noirthree", home=False)
    open_new_campaign(keeper, "case", "Three")
    tap(keeper, column(keeper, 1).get_by_role("button", name="Cards played plus one"))
    version = keeper.locator("#live-root").get_attribute("data-version")
    box = now(keeper)
    box.get_by_text("Play it").click()
    form = box.locator("details[open]")
    form.locator(".type-choice", has_text=re.compile("^2$")).click()
    form.get_by_label("The “3” symbol", exact=True).check()
    form.get_by_role("button", name=re.compile("^Case 1")).click()
    three = now(keeper).locator("details[open] label", has_text="The “3” symbol")
    expect(three.locator("+ *")).to_have_text(
        "A card with the “3” symbol needs three cards in the column: it has 1."
    )
    expect(three.locator("input")).to_be_checked()  # what was ticked stays
    shot(keeper, "noir-three-refused", parts=True)
    no_sideways_scroll(keeper)
    form = now(keeper).locator("details[open]")
    form.get_by_label("The “3” symbol", exact=True).uncheck()
    form.get_by_label("Special key", exact=True).check()
    form.get_by_role("button", name=re.compile("^Case 1")).click()
    special = now(keeper).locator("details[open] label", has_text="Special key")
    expect(special.locator("+ *")).to_have_text(
        "A special key needs a master key already played in the column."
    )
    settled(keeper, version)
    expect(pile(keeper, "row")).to_have_text("5")


def test_a_small_phone_in_japanese(browser, site):
    context = browser.new_context(
        base_url=site.url, viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_up(page, "noirsmall", home=False)
    open_new_campaign(page, "case", "Small thunder")
    no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    page.get_by_role("button", name="日本語").click()
    expect(now(page)).to_contain_text("ラウンド")
    expect(now(page)).to_contain_text("アクションフェイズ")
    expect(page.locator("#noir-piles")).to_contain_text("時間切れカード置き場")
    tap(page, now(page).get_by_role("button", name="手札に加える"))
    expect(now(page)).to_contain_text("手札が4枚")
    tap(page, now(page).get_by_role("button", name="砂時計のカードを捨てる"))
    expect(pile(page, "timeout")).to_contain_text("1")
    expect(now(page).locator(".end-step.current")).to_contain_text("勝利条件の確認")
    tap(page, now(page).get_by_role("button", name="確認：まだ勝利ではない"))
    expect(now(page).locator(".end-step.current")).to_contain_text("狂気エリアの確認")
    shot(page, "noir-ja-360", parts=True)
    no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    page.get_by_role("link", name="プレイした事件").click()
    expect(page.locator("#noir-log")).to_contain_text("まだ終わった事件はありません")
    no_sideways_scroll(page)
    context.close()
