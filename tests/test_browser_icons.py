"""Icons in real Chromium (issue 8, "Lighter"): a campaign page fetches its icons in one request
at most (the chaos bag page used to ask for 26 SVG files), and they show, in light and dark."""

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import (
    PHONE,
    open_new_campaign,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser


def icon_requests(page: Page, path: str) -> list[str]:
    """The images and SVG files the page asks for while it loads, nothing being cached."""
    asked: list[str] = []

    def note(request) -> None:
        if request.resource_type == "image" or ".svg" in request.url:
            asked.append(request.url)

    page.on("request", note)
    page.goto(path)
    page.wait_for_load_state("load")
    page.remove_listener("request", note)
    return asked


def drawn(page: Page, selector: str) -> bool:
    """The icon paints something: its picture differs from the same box with the icon hidden
    (a symbol missing from the sprite, or a sprite that did not load, paints nothing)."""
    icon = page.locator(selector).first
    icon.scroll_into_view_if_needed()
    box = icon.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, selector
    with_icon = page.screenshot(clip=box)
    icon.evaluate("el => el.style.visibility = 'hidden'")
    without = page.screenshot(clip=box)
    icon.evaluate("el => el.style.visibility = ''")
    return with_icon != without


def test_a_campaign_page_fetches_its_icons_in_one_request_and_shows_them(browser, site, phone):
    keeper = phone
    sign_up(keeper, "icon-keeper", home=False)
    open_new_campaign(keeper, "zealot", "Icon night")
    keeper.get_by_role("link", name="Chaos bag").first.click()
    keeper.get_by_role("button", name="Draw", exact=True).click()
    expect(keeper.locator("#bag-test .drawn li.newest .token-name")).to_be_visible()
    campaign = keeper.url.split("/p/")[0]
    pages = ["/", "/p/bag/", "/p/round/", "/history/", "/members/", "/settings/"]

    # A phone that has never opened the site: same account, nothing in its cache. The icons it
    # asks for do not depend on its colour scheme; what they paint is checked in both.
    context = browser.new_context(
        base_url=site.url, storage_state=keeper.context.storage_state(), **PHONE
    )
    try:
        page = context.new_page()
        for path in pages:
            asked = icon_requests(page, campaign + path)
            assert len(asked) <= 1, (path, asked)
        page.goto(campaign + "/p/bag/")
        # Many token icons on this page, one request: the sprite.
        assert page.locator("svg.token-icon, svg.token-small, svg.token-img").count() > 10
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert drawn(page, "#bag-test .drawn li.newest .token-img"), scheme
            assert drawn(page, "svg.token-icon:visible, svg.token-small:visible"), scheme
            # Undo and redo are drawn in the text's colour: visible on a dark page too.
            undo = page.locator("#undo-bar").get_by_role("button", name="Undo")
            stroke = undo.locator("svg path").evaluate("el => getComputedStyle(el).stroke")
            assert stroke == undo.evaluate("el => getComputedStyle(el).color"), scheme
            assert drawn(page, "#undo-bar svg.icon"), scheme
            assert drawn(page, ".top .brand svg"), scheme
            shot(page, f"icons-bag-{scheme}", parts=True)
        # The table display (dark whatever the tablet asks) shows the token drawn last.
        page.goto(campaign + "/members/")
        display = page.locator("#display-link").get_attribute("href")
        assert display and len(icon_requests(page, display)) <= 1
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert drawn(page, ".token svg"), scheme
            shot(page, f"icons-display-{scheme}")
    finally:
        context.close()
