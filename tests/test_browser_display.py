"""The table display in real Chromium: a tablet opens it from the members page's link with no
account, and a draw on a phone shows on it without a reload."""

import time

import pytest
from playwright.sync_api import expect

from campaigns.games.arkham.data import TOKEN_LABELS
from tests.games.arkham.test_browser import create_zealot
from tests.journeys import no_sideways_scroll, shot, sign_up

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


def test_the_table_display_follows_a_draw_on_a_phone(browser, site, phones):
    keeper, _friend = phones
    sign_up(keeper, "display-keeper")
    create_zealot(keeper, "Display night")
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
