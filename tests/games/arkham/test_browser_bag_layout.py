"""The chaos bag at the table, one thumb: after a draw, the token, its outcome, Draw, Reveal
another and Done are on the screen without scrolling and not under the undo bar, at 360×640 and
390×844, in every language, light and dark."""

import contextlib
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.journeys import PHONE, SHOTS, no_sideways_scroll, post_form, sign_up

pytestmark = pytest.mark.browser

SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]


IN_SIGHT = (
    "#bag-drawn .newest .token-img",
    "#bag-drawn .outcome, #bag-drawn .outcome-line",
    "#bag-actions form:nth-child(1) button",
    "#bag-actions form:nth-child(2) button",
    "#bag-actions form:nth-child(3) button",
)

# Each of them, read in one go (a live refresh may replace them between two reads): the ones
# not inside the viewport above the undo bar, with where they are.
OUT_OF_SIGHT = """(selectors) => {
    const bar = document.getElementById("undo-bar").getBoundingClientRect();
    const bottom = Math.min(bar.top, window.innerHeight) + 0.5;
    return selectors.flatMap((s) => {
        const el = document.querySelector(s);
        if (!el) return [s + ": missing"];
        const box = el.getBoundingClientRect();
        if (box.height > 0 && box.top >= 0 && box.bottom <= bottom) return [];
        return [`${s}: ${box.top}-${box.bottom}, undo bar at ${bar.top}`];
    });
}"""


def assert_in_sight(page: Page) -> None:
    """The token, its outcome and the three buttons are on screen above the undo bar, once the
    page has scrolled after the swap (waited for up to 5 s, as `expect` waits)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"(s) => ({OUT_OF_SIGHT})(s).length === 0", arg=list(IN_SIGHT), timeout=5000
        )
    assert page.evaluate(OUT_OF_SIGHT, list(IN_SIGHT)) == []


def test_after_a_draw_what_you_tap_next_is_on_screen(browser, site):
    """At each size, scheme and language, the page loaded so and a draw made on it."""
    context = browser.new_context(base_url=site.url, **{**PHONE, "viewport": SIZES[0]})
    page = context.new_page()
    try:
        sign_up(page, "bag-thumb")
        post_form(
            page, "/new/arkham/", {"name": "Thumb", "campaign": "notz", "difficulty": "standard"}
        )
        page.goto("/")
        page.get_by_role("link", name=re.compile("Thumb")).click()
        pk = re.search(r"/c/(\d+)/", page.url).group(1)
        post_form(
            page,
            f"/c/{pk}/do/investigator.add/",
            {"name": "Roland Banks", "player": "Kim", "health": "9", "sanity": "5", "region": "x"},
        )
        bag = f"/c/{pk}/p/bag/"
        page.goto(bag)
        page.get_by_role("button", name="Draw", exact=True).click()
        expect(page.locator("#bag-drawn .newest")).to_be_visible()
        for size in SIZES:
            page.set_viewport_size(size)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                for language in ("en", "ja", "zh-hans", "zh-hant"):
                    page.context.add_cookies(
                        [{"name": "django_language", "value": language, "url": page.url}]
                    )
                    page.goto(bag)
                    # A draw from the top of the page, as a player makes it.
                    before = page.locator("#bag-drawn .newest").get_attribute("id")
                    page.locator("#bag-actions form").first.locator("button").click()
                    expect(page.locator("#bag-drawn .newest")).not_to_have_id(before or "")
                    assert_in_sight(page)
                    no_sideways_scroll(page)
                    if SHOTS:  # what the player sees: the screen, not the whole page
                        name = f"bag-after-draw-{size['width']}-{scheme}-{language}"
                        page.screenshot(path=f"{SHOTS}/{name}.png")
    finally:
        context.close()
