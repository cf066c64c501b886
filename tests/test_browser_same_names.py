"""Two members of one name, in real Chromium at 360×640 (issue 21, point 5): Ken joins, then
joins again from a new browser (in Japanese, dark), is told the name is taken and takes his seat
back; the owner (in English, light) sees one Ken on the members page, with when each member was
last seen, and tells two campaigns of one name apart on the home page."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.journeys import create_any_game, no_sideways_scroll, shot, sign_up

pytestmark = pytest.mark.browser

SMALL = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


def ja(message: str) -> str:
    with translation.override("ja"):
        return translation.gettext(message)


def test_ken_takes_his_seat_back_from_a_new_browser(browser, site):
    owner_context = browser.new_context(
        base_url=site.url, locale="en-GB", color_scheme="light", **SMALL
    )
    phones = [
        browser.new_context(base_url=site.url, locale="ja-JP", color_scheme="dark", **SMALL)
        for _ in range(2)
    ]
    owner = owner_context.new_page()
    old_phone, new_phone = (context.new_page() for context in phones)
    try:
        sign_up(owner, "same-names", home=False)
        create_any_game(owner, "Tuesday")
        owner.get_by_role("link", name="Members").click()
        invite = owner.locator(".url").inner_text()
        for phone in (old_phone, new_phone):
            phone.goto(invite)
            phone.locator("input[name=display_name]").fill("Ken")
            phone.locator("form.card button[type=submit]").click()
        expect(old_phone.locator("#live-root")).to_be_visible()
        taken = ja(
            "Someone in this campaign is already called “%(name)s”. If that is you on another "
            "phone, take your seat back; if not, pick another name."
        ) % {"name": "Ken"}
        expect(new_phone.locator(".error")).to_have_text(taken)
        take_back = new_phone.get_by_role("button", name=ja("That's me: take my seat back"))
        expect(take_back).to_be_visible()
        no_sideways_scroll(new_phone)
        shot(new_phone, "same-name-join-ja-dark")
        take_back.click()
        expect(new_phone.locator("#live-root")).to_be_visible()

        owner.reload()
        rows = owner.locator("#member-list li", has_text="Ken")
        expect(rows).to_have_count(1)
        expect(rows).to_contain_text("here now")
        expect(owner.locator("#member-list li").first).to_contain_text("here now")
        no_sideways_scroll(owner)
        shot(owner, "same-name-members-en-light")
        old_phone.reload()
        expect(old_phone.locator("#live-root")).to_have_count(0)

        owner.goto("/")
        create_any_game(owner, "Tuesday")
        owner.goto("/")
        items = owner.locator(".campaigns li", has_text="Tuesday")
        expect(items).to_have_count(2)
        expect(items.nth(1)).to_contain_text(re.compile(r"Ken"))
        expect(items.nth(0)).not_to_contain_text("Ken")
        expect(items.nth(0)).to_contain_text("Changed")
        no_sideways_scroll(owner)
        shot(owner, "same-name-home-en-light")
    finally:
        owner_context.close()
        for context in phones:
            context.close()
