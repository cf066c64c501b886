"""The scenario card on the chaos bag page, in Japanese on a 360×640 phone (issue 20): start a
scenario, give X its count, draw; the card's lines, the count and the odds fit the screen."""

import re

import pytest
from playwright.sync_api import expect

from tests.journeys import PHONE, no_sideways_scroll, post_form, settled, shot, shot_of, sign_up

pytestmark = pytest.mark.browser

# Elements of the card and the odds whose box reaches past the screen's right edge, or whose
# text runs out of its box.
OVERFLOWING = """() => Array.from(document.querySelectorAll(
        '#bag-card *, #bag-odds *, #bag-test *, #bag-effects *'))
    .filter((el) => el.offsetParent !== null)
    .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.right > window.innerWidth + 0.5 || el.scrollWidth > el.clientWidth + 1
            && getComputedStyle(el).overflowX === 'visible' && el.clientWidth > 0
            && !['svg', 'rect', 'use'].includes(el.tagName.toLowerCase());
    })
    .map((el) => el.outerHTML.slice(0, 100))"""


def test_start_a_scenario_set_x_and_draw_in_japanese_on_a_small_phone(browser, site):
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": {"width": 360, "height": 640}}
    )
    page = context.new_page()
    try:
        sign_up(page, "card-ja")
        post_form(
            page, "/new/arkham/", {"name": "真夜中", "campaign": "notz", "difficulty": "standard"}
        )
        page.goto("/")
        page.get_by_role("link", name=re.compile("真夜中")).click()
        pk = re.search(r"/c/(\d+)/", page.url).group(1)
        page.context.add_cookies([{"name": "django_language", "value": "ja", "url": page.url}])
        page.goto(f"/c/{pk}/p/bag/")
        expect(page.locator("#bag-card")).to_be_hidden()

        # Start the next scenario of the list (The Gathering) from the token effects' card.
        page.locator("#bag-effects button[type=submit]").click()
        card = page.locator("#bag-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text("シナリオカード")
        expect(card).to_contain_text("失敗したら：1恐怖")  # the cultist's horror, our words
        count = card.get_by_label("あなたのロケーションにいるカード指定の特性の敵")
        expect(page.locator("#bag-odds")).to_contain_text("が未指定：0として計算")

        # X: two Ghouls at the location; every phone sees the count, the odds count it.
        count.fill("2")
        card.locator(".x-count button").click()
        expect(page.locator("#bag-odds")).not_to_contain_text("が未指定：0として計算")
        expect(card.get_by_label("あなたのロケーションにいるカード指定の特性の敵")).to_have_value(
            "2"
        )

        page.locator("#bag-actions button.draw").click()
        expect(page.locator("#bag-drawn .newest")).to_be_visible()
        # The live refresh of the regions the draw did not name has caught up: nothing is
        # redrawn while the pictures are taken.
        settled(page, 3)  # the scenario started, X given, the draw

        page.locator("#bag-card").scroll_into_view_if_needed()
        shot_of(page, "#bag-card", "arkham-card-ja-360")
        # The token effects' form: each symbol as the card says until the group types one.
        effects = page.locator("#bag-effects")
        expect(effects.get_by_label("ドクロの効果")).to_have_value("card")
        shot_of(page, "#bag-effects", "arkham-card-ja-360-effects")
        shot(page, "arkham-card-ja-360-page", parts=True)
        no_sideways_scroll(page)
        assert page.evaluate(OVERFLOWING) == []
    finally:
        context.close()


def test_a_condition_switches_the_odds_in_traditional_chinese(browser, site):
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": {"width": 360, "height": 640}}
    )
    page = context.new_page()
    try:
        sign_up(page, "card-zh")
        post_form(page, "/new/arkham/", {"name": "午夜", "campaign": "notz", "difficulty": "hard"})
        page.goto("/")
        page.get_by_role("link", name=re.compile("午夜")).click()
        pk = re.search(r"/c/(\d+)/", page.url).group(1)
        page.context.add_cookies([{"name": "django_language", "value": "zh-hant", "url": page.url}])
        page.goto(f"/c/{pk}/p/bag/")
        # The Midnight Masks on Hard: the cultist reveals another when its condition holds.
        page.locator("#bag-effects select").first.select_option("arkham")
        page.locator("#bag-effects button[type=submit]").click()
        card = page.locator("#bag-card")
        expect(card).to_contain_text("劇本卡")
        before = page.locator("#bag-odds table.odds").inner_text()
        usual = card.get_by_role("button", name=re.compile("通常："))
        holds = card.get_by_role("button", name=re.compile("條件成立：再揭示一個"))
        expect(usual).to_have_attribute("aria-pressed", "true")
        holds.click()
        expect(card.get_by_role("button", name=re.compile("條件成立："))).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(page.locator("#bag-odds table.odds")).not_to_have_text(before)
        settled(page, 2)  # the scenario started, the condition switched on
        page.locator("#bag-card").scroll_into_view_if_needed()
        shot_of(page, "#bag-card", "arkham-card-zh-hant-360")
        no_sideways_scroll(page)
        assert page.evaluate(OVERFLOWING) == []
    finally:
        context.close()
