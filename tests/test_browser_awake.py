"""The screen stays awake on the table's network, where the site is plain http: not a secure
context, so no Wake Lock API. Chromium opens the site by a host name mapped to 127.0.0.1, as a
phone opens the laptop's address."""

import pytest
from playwright.sync_api import expect

from tests.journeys import CHROMIUM, PHONE, new_campaign, sign_up_on_the_form

pytestmark = pytest.mark.browser


def test_the_screen_stays_awake_without_a_secure_context(browser, site):
    # A Chromium of its own (the host name mapping is a launch flag), from the suite's driver.
    mapped = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP table.lan 127.0.0.1"],
    )
    try:
        context = mapped.new_context(base_url=f"http://table.lan:{site.port}", **PHONE)
        page = context.new_page()
        # Through the forms: the phone's own posts (tests/journeys.py) are sent by Playwright,
        # which does not know the mapped name.
        sign_up_on_the_form(page, "awake-at-the-table")
        new_campaign(page, "Awake")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        page.get_by_role("button", name="Doom plus one").click()
        expect(page.locator("body")).to_have_attribute("data-awake", "video")
        video = page.locator("video.keep-awake")
        assert video.evaluate("v => v.muted && v.loop && !v.paused")
        start = video.evaluate("v => v.currentTime")
        page.wait_for_function(f"document.querySelector('video.keep-awake').currentTime != {start}")
        # Out of the way: no sideways scroll, nothing to tap.
        box = video.bounding_box()
        assert box is not None and box["width"] <= 1 and box["height"] <= 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        mapped.close()
