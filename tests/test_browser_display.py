"""The table display in real Chromium: a tablet opens it from the members page's link with no
account, and a draw on a phone shows on it without a reload."""

import re
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from campaigns.games.arkham.data import TOKEN_LABELS
from tests.journeys import (
    create_any_game,
    create_azathoth,
    create_case,
    create_the_fall,
    no_sideways_scroll,
    open_new_campaign,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser


def labels_broken(page, selector: str) -> list[str]:
    """Each token's name put in the drawn token's place in turn: the words the browser split
    over two lines ("Cult / ist"). A name may wrap between words or after a hyphen, never inside a
    word."""
    labels = [str(label) for label in TOKEN_LABELS.values()]
    return page.locator(selector).evaluate(
        """(element, labels) => {
            const broken = [], shown = element.textContent;
            for (const label of labels) {
                element.textContent = label;
                const text = element.firstChild;
                for (const m of label.matchAll(/[^\\s-]+/g)) {
                    const range = document.createRange();
                    range.setStart(text, m.index);
                    range.setEnd(text, m.index + m[0].length);
                    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (tops.size > 1) broken.push(m[0]);
                }
            }
            element.textContent = shown;
            return broken;
        }""",
        labels,
    )


def test_the_table_display_follows_a_draw_on_a_phone(browser, site, phone):
    keeper = phone
    sign_up(keeper, "display-keeper", home=False)
    open_new_campaign(keeper, "zealot", "Display night")
    keeper.get_by_role("link", name="Members").click()
    link = keeper.locator("#display-link").get_attribute("href")
    assert link

    tablet_context = browser.new_context(
        base_url=site.url, viewport={"width": 1024, "height": 768}, color_scheme="light"
    )
    tablet = tablet_context.new_page()
    try:
        tablet.goto(link)
        expect(tablet.get_by_role("heading", name="Last chaos token")).to_be_visible()
        expect(tablet.locator(".token")).to_have_count(0)
        # Dark by default, even where the tablet asks for light; nothing to tap.
        background = tablet.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(15, 14, 12)"
        assert tablet.locator("button, input, select, textarea, form").count() == 0
        version = tablet.locator("#live-root").get_attribute("data-version")

        keeper.get_by_role("link", name="Chaos bag").first.click()
        keeper.get_by_role("button", name="Draw", exact=True).click()
        drawn = keeper.locator("#bag-test .drawn li.newest .token-name")
        expect(drawn).to_be_visible()
        start = time.monotonic()
        token = tablet.locator(".token .value")
        expect(token).to_have_text(drawn.inner_text())
        print(f"the display showed the draw {time.monotonic() - start:.2f} s after the phone did")
        assert tablet.locator("#live-root").get_attribute("data-version") != version
        expect(tablet.locator(".outcome")).not_to_be_empty()
        no_sideways_scroll(tablet)
        assert labels_broken(tablet, ".token .value") == []
        shot(tablet, "display-arkham-landscape")
        tablet.set_viewport_size({"width": 768, "height": 1024})
        no_sideways_scroll(tablet)
        assert labels_broken(tablet, ".token .value") == []
        shot(tablet, "display-arkham-portrait")
    finally:
        tablet_context.close()


def test_the_table_display_shows_every_game_on_a_tablet(browser, site, phone):
    """Each of the five games on a 1024×768 tablet: what the table needs to see, never "No
    counters yet." with a game in progress; a doom advanced on a phone shows on it live. An Any
    game campaign with nothing to show offers no display link."""
    keeper = phone
    sign_up(keeper, "display-all")
    tablet_context = browser.new_context(base_url=site.url, viewport={"width": 1024, "height": 768})
    tablet = tablet_context.new_page()

    def open_display(name: str) -> None:
        keeper.get_by_role("link", name="Members").click()
        link = keeper.locator("#display-link").get_attribute("href")
        assert link
        tablet.goto(link)
        expect(tablet.locator("#campaign-title")).to_have_text(name)
        expect(tablet.get_by_text("No counters yet.")).to_have_count(0)

    try:
        open_new_campaign(keeper, "zealot", "Zealot")
        open_display("Zealot")
        expect(tablet.get_by_role("heading", name="Last chaos token")).to_be_visible()
        no_sideways_scroll(tablet)
        shot(tablet, "display-all-arkham")

        keeper.goto("/")
        create_the_fall(keeper)
        open_display("The Fall")
        expect(tablet.get_by_role("heading", name=re.compile("Turn order"))).to_be_visible()
        no_sideways_scroll(tablet)
        shot(tablet, "display-all-aeonsend")

        keeper.goto("/")
        open_new_campaign(keeper, "azathoth", "Azathoth night")
        open_display("Azathoth night")
        expect(tablet.get_by_role("heading", name="Doom · Azathoth")).to_be_visible()
        expect(tablet.locator(".value.doom")).to_have_text("15")
        for heading in ("Omen", "Open gates", "Mysteries", "Investigators"):
            expect(tablet.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        expect(tablet.get_by_role("heading", name="Mythos deck · stage I")).to_be_visible()
        expect(tablet.locator(".people tbody tr")).to_have_count(3)
        expect(tablet.locator(".people")).to_contain_text("Akachi Onyele")
        # All of it on the tablet's one screen: nobody scrolls a display in the table's middle.
        assert tablet.evaluate("document.documentElement.scrollHeight <= innerHeight")
        keeper.get_by_role("link", name="Table").first.click()
        keeper.locator("#eh-doom").get_by_role("button", name="Advance", exact=True).click()
        expect(keeper.locator("#eh-doom .doom-value")).to_have_text("14")
        expect(tablet.locator(".value.doom")).to_have_text("14")
        shot(tablet, "display-all-eldritch")
        no_sideways_scroll(tablet)

        keeper.goto("/")
        open_new_campaign(keeper, "case", "Thunder")
        open_display("Thunder")
        expect(
            tablet.get_by_role("heading", name="Case 2: Called Forth by Thunder")
        ).to_be_visible()
        expect(tablet.get_by_role("heading", name="Piles")).to_be_visible()
        expect(tablet.locator("section.column")).to_have_count(2)
        expect(tablet.get_by_text("Time-out pile")).to_be_visible()
        shot(tablet, "display-all-noir")
        no_sideways_scroll(tablet)

        keeper.goto("/")
        create_any_game(keeper, "Doom only")
        open_display("Doom only")
        expect(tablet.get_by_role("heading", name="Doom", exact=True)).to_be_visible()
        shot(tablet, "display-all-any")

        keeper.goto("/")
        create_any_game(keeper, "Nothing to count", counters="")
        keeper.get_by_role("link", name="Members").click()
        expect(keeper.get_by_role("heading", name="Members")).to_be_visible()
        expect(keeper.locator("#display-link")).to_have_count(0)
        expect(keeper.get_by_text("Table display")).to_have_count(0)
    finally:
        tablet_context.close()


def test_the_eldritch_and_noir_displays_fit_a_small_phone_in_japanese(browser, site, phone):
    """The display on a 360×640 phone asking for Japanese and a light page: Eldritch Horror's
    and Arkham Noir's parts in Japanese, dark, no sideways scroll."""
    keeper = phone
    sign_up(keeper, "display-small")
    small = browser.new_context(
        base_url=site.url,
        viewport={"width": 360, "height": 640},
        locale="ja-JP",
        color_scheme="light",
        is_mobile=True,
        has_touch=True,
    )
    phone = small.new_page()
    with translation.override("ja"):
        mysteries, piles = translation.gettext("Mysteries"), translation.gettext("Piles")
    try:
        for create, name, heading in (
            (create_azathoth, "Azathoth night", mysteries),
            (create_case, "Thunder", piles),
        ):
            keeper.goto("/")
            create(keeper, name)
            keeper.get_by_role("link", name="Members").click()
            phone.goto(keeper.locator("#display-link").get_attribute("href") or "")
            expect(phone.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == (
                "rgb(15, 14, 12)"
            )
            no_sideways_scroll(phone)
            shot(phone, f"display-small-ja-{name.split()[0].lower()}")
    finally:
        small.close()
