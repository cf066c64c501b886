"""The undo bar at 360×640, in every language: what an undo takes back (or that there is nothing
to undo) reads in one or two lines between the two buttons; in Japanese "Nothing to undo" took
four lines between two wide buttons."""

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import PHONE, SHOTS, create_any_game, no_sideways_scroll, shot_of, sign_up

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "ja", "zh-hans", "zh-hant")
SCHEMES = ("light", "dark")


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


def test_the_undo_bar_reads_in_two_lines_at_360(browser, site):
    """In light and dark (the same page, its colour scheme switched: one load a language)."""
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": {"width": 360, "height": 640}}
    )
    page = context.new_page()
    try:
        sign_up(page, "undo-bar", home=False)
        create_any_game(page, "Narrow bar")
        table = page.url
        bar = page.locator("#undo-bar")
        for language in LANGUAGES:
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
            expect(bar.locator("span.what")).to_be_visible()  # nothing to undo yet
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                assert lines(page, "#undo-bar span.what") <= 2.05, (language, scheme)
                if SHOTS:
                    shot_of(page, "#undo-bar", f"undo-bar-nothing-360-{scheme}-{language}")
        for language in LANGUAGES:
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
            page.locator(".tracker-counter form:has(input[name=delta][value='1']) button").click()
            expect(bar.locator("details.what")).to_be_visible()
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                # The change and who made it, whole, in two lines at most (not cut by the clamp).
                assert lines(page, "#undo-bar .what .clamp") <= 2.05, (language, scheme)
                box = bar.locator(".what").bounding_box()
                assert box is not None and box["width"] >= 0.45 * 360, (language, scheme, box)
                for found in bar.locator("button[type=submit]").all():
                    size = found.bounding_box()
                    assert size and size["height"] >= 43.5 and size["width"] >= 43.5
                no_sideways_scroll(page)
                if SHOTS:
                    shot_of(page, "#undo-bar", f"undo-bar-change-360-{scheme}-{language}")
            bar.locator("button[type=submit]").first.click()  # undo: nothing to undo again
            expect(bar.locator("span.what")).to_be_visible()
    finally:
        context.close()
