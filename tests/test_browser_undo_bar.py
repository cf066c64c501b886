"""The undo bar at 360×640, in every language: what an undo takes back (or that there is nothing
to undo) reads in one or two lines between the two buttons; in Japanese "Nothing to undo" took
four lines between two wide buttons."""

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import PHONE, SHOTS, create_any_game, no_sideways_scroll, shot_of, sign_up

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "ja", "zh-hans", "zh-hant")


def lines(page: Page, selector: str) -> float:
    """How many lines the text of the element takes (its whole height, clamped or not), once its
    style sheet applies (a line height in pixels: a redrawn region can be measured before)."""
    page.wait_for_function(
        "sel => { const el = document.querySelector(sel);"
        " return el && !isNaN(parseFloat(getComputedStyle(el).lineHeight)); }",
        arg=selector,
    )
    return page.locator(selector).evaluate(
        "el => el.scrollHeight / parseFloat(getComputedStyle(el).lineHeight)"
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_undo_bar_reads_in_two_lines_at_360(browser, site, scheme):
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": {"width": 360, "height": 640}}
    )
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    try:
        sign_up(page, f"undo-bar-{scheme}", home=False)
        create_any_game(page, "Narrow bar")
        table = page.url
        bar = page.locator("#undo-bar")
        for language in LANGUAGES:
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
            expect(bar.locator("span.what")).to_be_visible()  # nothing to undo yet
            assert lines(page, "#undo-bar span.what") <= 2.05, language
            if SHOTS:
                shot_of(page, "#undo-bar", f"undo-bar-nothing-360-{scheme}-{language}")
        for language in LANGUAGES:
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
            page.locator(".tracker-counter form:has(input[name=delta][value='1']) button").click()
            expect(bar.locator("details.what")).to_be_visible()
            # The change and who made it, whole, in two lines at most (not cut by the clamp).
            assert lines(page, "#undo-bar .what .clamp") <= 2.05, language
            box = bar.locator(".what").bounding_box()
            assert box is not None and box["width"] >= 0.45 * 360, (language, box)
            for button in ("button[type=submit]",):
                for found in bar.locator(button).all():
                    size = found.bounding_box()
                    assert size and size["height"] >= 43.5 and size["width"] >= 43.5
            no_sideways_scroll(page)
            if SHOTS:
                shot_of(page, "#undo-bar", f"undo-bar-change-360-{scheme}-{language}")
            bar.locator("button[type=submit]").first.click()  # undo: nothing to undo again
            expect(bar.locator("span.what")).to_be_visible()
    finally:
        context.close()
