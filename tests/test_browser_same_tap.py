"""A double tap on Draw is one draw (issue 21), in real Chromium at 360×640, in English and
Japanese, light and dark: the second tap comes after the first one's answer is on the screen, so
it is sent from the fresh screen (the version the draw made), and still the bag is drawn once,
with no message."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import PHONE, Site, no_sideways_scroll, post_form, settled, shot, sign_up

pytestmark = pytest.mark.browser

# Tap Draw; as soon as its answer is on the screen (no form on its way any more), tap the Draw
# that answer drew, in the same moment, as a thumb that bounced does.
DOUBLE_TAP = """async () => {
    const draw = () => document.querySelector("#bag-actions form button");
    const answered = () => new Promise((resolve) => {
        const check = () => document.querySelector("form.htmx-request")
            ? setTimeout(check, 5) : resolve();
        check();
    });
    draw().click();
    await answered();
    draw().click();
    await answered();
}"""


TAP_UNTIL_DRAWN = """(before) => {
    const newest = document.querySelector("#bag-drawn .newest");
    if (newest && newest.id !== before) return true;
    if (!document.querySelector("form.htmx-request")) {
        document.querySelector("#bag-actions form button").click();
    }
    return false;
}"""


def version(page: Page, pk: str) -> int:
    return page.request.get(f"/c/{pk}/version/").json()["version"]


@pytest.fixture(scope="module")
def site_with_a_double_tap_window(site_database):
    """A site with the window a person's double tap falls in (the others have none: their
    journeys draw again faster than a person would), one for this module's journeys."""
    site = Site(site_database, COMPANION_SAME_TAP_MS="500")
    yield site
    site.close()


@pytest.mark.parametrize("language,scheme", [("en", "light"), ("ja", "dark")])
def test_a_double_tap_on_draw_draws_once(browser, site_with_a_double_tap_window, language, scheme):
    site = site_with_a_double_tap_window
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": {"width": 360, "height": 640}}
    )
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    try:
        sign_up(page, f"double-tap-{language}")
        post_form(
            page, "/new/arkham/", {"name": "Bounce", "campaign": "notz", "difficulty": "easy"}
        )
        page.goto("/")
        page.get_by_role("link", name=re.compile("Bounce")).click()
        pk = re.search(r"/c/(\d+)/", page.url).group(1)
        page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        page.goto(f"/c/{pk}/p/bag/")
        page.evaluate(DOUBLE_TAP)
        expect(page.locator("#bag-drawn .newest")).to_be_visible()
        settled(page, 1)
        assert version(page, pk) == 1
        expect(page.locator(".error, .not-sent")).to_have_count(0)
        no_sideways_scroll(page)
        shot(page, f"double-tap-360-{scheme}-{language}")

        # A player who taps Draw again and again: the taps in the first half second after the
        # draw are that draw; the first one after it draws anew, and only it.
        before = page.locator("#bag-drawn .newest").get_attribute("id")
        page.wait_for_function(TAP_UNTIL_DRAWN, arg=before, polling=100, timeout=10_000)
        assert version(page, pk) == 2
    finally:
        context.close()
