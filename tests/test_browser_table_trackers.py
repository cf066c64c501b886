"""Any game at a table, in real Chromium at 360×640 on two phones (issue 21, point 7): one in
English and light, one in Simplified Chinese and dark, and a tablet showing the table display.
The turn tracker picks the first player on the server and both phones and the tablet follow the
turns; a sand-timer started on one phone counts down and rings (vibrates) on both, and ends on
the tablet too; a coin flipped on one shows on the other; bad input is refused with a message
next to its field."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from tests.journeys import create_any_game, no_sideways_scroll, shot, sign_up, small_tap_targets

pytestmark = pytest.mark.browser

SMALL = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
# Records the phone's vibrations (a page may not vibrate without a real device).
BUZZ = "window.__buzz = 0; navigator.vibrate = () => { window.__buzz += 1; return true; };"


def zh(message: str) -> str:
    with translation.override("zh-hans"):
        return translation.gettext(message)


def zh_start() -> str:
    with translation.override("zh-hans"):
        return translation.pgettext("start the timer", "Start")


def add_tracker(page: Page, kind: str, name: str, items: str = "", seconds: str = "") -> None:
    page.locator("#add-tracker summary").click()
    page.locator("#add-tracker select[name=kind]").select_option(kind)
    page.locator("#add-tracker input[name=name]").fill(name)
    if items:
        page.locator("#add-tracker input[name=items]").fill(items)
    if seconds:
        page.locator("#add-tracker input[name=seconds]").fill(seconds)
    page.locator("#add-tracker button[type=submit]").click()
    expect(page.get_by_role("region", name=name)).to_be_visible()


def test_turns_a_timer_and_a_coin_on_two_phones(browser, site):
    contexts = [
        browser.new_context(base_url=site.url, locale=locale, color_scheme=scheme, **SMALL)
        for locale, scheme in (("en-GB", "light"), ("zh-CN", "dark"))
    ]
    for context in contexts:
        context.add_init_script(BUZZ)
    keeper, friend = (context.new_page() for context in contexts)
    # The table display on a tablet: whose turn, the timer counting down.
    contexts.append(browser.new_context(base_url=site.url, viewport={"width": 1024, "height": 768}))
    tablet = contexts[-1].new_page()
    # Each phone's own clock, which Playwright can move on: the sand-timer is seen to end
    # without the test waiting its five seconds out.
    for context in contexts:
        context.clock.install()
    try:
        sign_up(keeper, "table-trackers", home=False)
        create_any_game(keeper, "Game night", counters="")
        add_tracker(keeper, "turns", "Turns", items="Ana, Ben, Cy")
        add_tracker(keeper, "timer", "Sand", seconds="5")
        add_tracker(keeper, "coin", "Coin")
        keeper.get_by_role("link", name="Members").click()
        tablet.goto(keeper.locator("#display-link").get_attribute("href") or "")
        friend.goto(keeper.locator(".url").inner_text())
        friend.locator("input[name=display_name]").fill("Ben")
        friend.locator("form.card button[type=submit]").click()
        keeper.get_by_role("link", name="Table", exact=True).click()
        turns = {phone: phone.locator(".tracker-turns") for phone in (keeper, friend)}
        expect(turns[friend]).to_contain_text(
            zh("Pick the first player at random to start round 1.")
        )

        # The first player, picked on the server, is the same on both phones.
        turns[keeper].get_by_role("button", name="First player at random").click()
        now = turns[keeper].locator(".turn-now")
        expect(now).to_contain_text("'s turn")
        first = now.inner_text().removesuffix("'s turn")
        expect(turns[friend].locator(".turn-now")).to_contain_text(first)
        seats = ["Ana", "Ben", "Cy"]
        second = seats[(seats.index(first) + 1) % 3]
        turns[friend].get_by_role("button", name=zh("End turn")).click()
        expect(turns[keeper].locator(".turn-now")).to_have_text(f"{second}'s turn")
        expect(tablet.locator(".value.turn")).to_have_text(second)
        turns[keeper].get_by_role("button", name="Pass this round").click()
        expect(turns[friend].locator(".seats .passed")).to_contain_text(second)
        no_sideways_scroll(friend)
        assert small_tap_targets(friend) == []
        shot(friend, "table-trackers-turns-zh-dark")

        # A seat of a name already seated is refused next to its field; nothing changes.
        turns[keeper].get_by_text("Add a seat").click()
        turns[keeper].locator("input[name=seat]").fill("ana")
        turns[keeper].get_by_role("button", name="Add", exact=True).click()
        expect(turns[keeper].locator(".error")).to_have_text("“ana” already has a seat.")
        expect(turns[keeper].locator(".seats li")).to_have_count(3)

        timer = {phone: phone.locator(".tracker-timer") for phone in (keeper, friend)}
        friend_form = timer[friend].locator("form", has=friend.locator("input[name=seconds]"))
        friend_form.locator("input[name=seconds]").fill("5")
        friend_form.get_by_role("button", name=zh_start(), exact=True).click()
        ticking = timer[friend].locator(".timer")
        expect(ticking).to_have_attribute("data-ends", re.compile(r"^\d+$"))
        expect(ticking.locator(".value")).to_have_text(re.compile(r"^0:0[1-5]$"))
        ends = ticking.get_attribute("data-ends")
        expect(timer[keeper].locator(".timer")).to_have_attribute("data-ends", ends)
        expect(tablet.locator(".timer")).to_have_attribute("data-ends", ends)
        for context in contexts:
            context.clock.fast_forward(6_000)
        expect(timer[keeper].locator(".timer .value")).to_have_text("Time's up")
        expect(timer[friend].locator(".timer .value")).to_have_text(zh("Time's up"))
        expect(tablet.locator(".timer .value")).to_have_text("Time's up")
        shot(tablet, "table-trackers-display")
        for phone in (keeper, friend):
            phone.wait_for_function("window.__buzz > 0")
        shot(keeper, "table-trackers-timer-en-light")
        # A timer too short is refused by the server (the browser's own check set aside).
        form = timer[keeper].locator("form", has=keeper.locator("input[name=seconds]"))
        form.evaluate("f => f.setAttribute('novalidate', '')")
        form.locator("input[name=seconds]").fill("3")
        form.get_by_role("button", name=re.compile("^Start")).click()
        expect(timer[keeper].locator(".error")).to_contain_text("greater than or equal to 5")
        expect(timer[keeper].locator(".timer .value")).to_have_text("Time's up")

        # The coin: flipped on the server, the same side on both phones.
        keeper.locator(".tracker-coin").get_by_role("button", name="Flip the coin").click()
        side = keeper.locator(".tracker-coin .coin-side")
        expect(side).to_have_text(re.compile(r"^(Heads|Tails)$"))
        friend_side = {"Heads": zh("Heads"), "Tails": zh("Tails")}[side.inner_text()]
        expect(friend.locator(".tracker-coin .coin-side")).to_have_text(friend_side)
        no_sideways_scroll(keeper)
        shot(keeper, "table-trackers-en-light")
        shot(friend, "table-trackers-zh-dark")
    finally:
        for context in contexts:
            context.close()


def test_a_value_left_in_another_kinds_field_does_not_block_adding(browser, site):
    """The form shows the picked kind's fields: a number left out of range in one of another
    kind, picked before, stops neither the browser nor the server, with JavaScript or without."""
    context = browser.new_context(base_url=site.url, **SMALL)
    try:
        phone = context.new_page()
        sign_up(phone, "leftovers", home=False)
        create_any_game(phone, "Leftovers", counters="")
        plain = browser.new_context(
            base_url=site.url, storage_state=context.storage_state(), java_script_enabled=False
        ).new_page()
        for page, name in ((phone, "Coin"), (plain, "Second coin")):
            page.goto(phone.url)
            page.locator("#add-tracker summary").click()
            kind = page.locator("#add-tracker select[name=kind]")
            for picked, field, value in (
                ("dice", "success_on", "7"),
                ("timer", "seconds", "99999999"),
                ("counter", "start", "1.5"),
            ):
                kind.select_option(picked)
                page.locator(f"#add-tracker input[name={field}]").fill(value)
            kind.select_option("coin")
            # Only the coin's own field, its name, shows (CSS: so without JavaScript too).
            expect(page.locator("#add-tracker input[name=start]")).to_be_hidden()
            page.locator("#add-tracker input[name=name]").fill(name)
            page.locator("#add-tracker button[type=submit]").click()
            expect(page.get_by_role("region", name=name)).to_be_visible()
        plain.context.close()
    finally:
        context.close()
