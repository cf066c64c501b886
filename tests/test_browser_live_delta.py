"""A stream's partial page (campaigns/live_delta.py): only the regions a change redrew, for a
phone that shows exactly the version before. The server is left out: the phone's stream is
answered by the test with a message made from two real drawings of the page."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from campaigns.live_delta import delta, regions_of
from tests.journeys import (
    create_any_game,
    settled,
    sign_up,
)

pytestmark = pytest.mark.browser

LIVE = {"HX-Request": "true", "X-Live-Refresh": "true"}


class Stream:
    """The phone's stream, answered here: each connection gets `message` (nothing at first)
    and ends, and the phone opens the next one soon after (`retry`)."""

    def __init__(self, page: Page) -> None:
        self.message = ""
        self.opened = 0
        page.route("**/stream/**", self.answer)

    def answer(self, route) -> None:
        self.opened += 1
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
            body="retry: 200\n\n" + self.message,
        )

    def send(self, version: int, since: int, html: str) -> None:
        data = json.dumps({"version": version, "from": since, "html": html})
        self.message = f"event: page\ndata: {data}\n\n"


@pytest.fixture
def phone(browser, site):
    # No service worker: the test answers the stream itself (Playwright sees no request a
    # worker answers).
    context = browser.new_context(
        base_url=site.url,
        service_workers="block",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def drawn(page: Page) -> tuple[str, int]:
    """The page as the live refresh draws it now, and its version."""
    response = page.request.get(page.url, headers=LIVE)
    assert response.ok, response.status
    return response.text(), int(response.headers["x-campaign-version"])


def tap_elsewhere(page: Page, counter: str) -> None:
    """+1 on `counter`, as another phone would: not from this page, which hears nothing of it
    (its stream is the test's)."""
    form = page.get_by_role("region", name=counter).locator("form", has=page.locator(
        "input[name=delta][value='1']"))  # fmt: skip
    fields = form.locator("input[type=hidden]").evaluate_all(
        "inputs => Object.fromEntries(inputs.map(i => [i.name, i.value]))"
    )
    response = page.request.post(
        form.get_attribute("action"), form=fields, max_redirects=0, fail_on_status_code=False
    )
    assert response.status == 302, response.status


def open_table(page: Page, name: str) -> Stream:
    stream = Stream(page)
    sign_up(page, name, home=False)
    create_any_game(page, "Partial evening", "Doom\nClues")
    return stream


def marked(page: Page) -> None:
    """Every region on the page now carries a mark that a swapped-in copy does not."""
    page.evaluate("document.querySelectorAll('[data-live][id]').forEach(r => r.__was = true)")


def swapped_ids(page: Page) -> set[str]:
    return set(
        page.evaluate(
            "Array.from(document.querySelectorAll('[data-live][id]'))"
            ".filter(r => !r.__was).map(r => r.id)"
        )
    )


def test_a_partial_page_swaps_only_the_changed_regions(phone):
    stream = open_table(phone, "partial")
    before, version = drawn(phone)
    clues = phone.get_by_role("region", name="Clues")
    clues.get_by_text("Set a value").click()
    clues.get_by_label("Value").fill("7")  # typed, not sent
    tap_elsewhere(phone, "Doom")
    after, now = drawn(phone)
    partial = delta(before, after)
    assert partial is not None and now == version + 1
    sent = {region.id for region in regions_of(partial)}
    doom = phone.get_by_role("region", name="Doom")
    assert doom.get_attribute("id") in sent and clues.get_attribute("id") not in sent
    marked(phone)

    stream.send(now, version, partial)
    expect(doom.locator("output")).to_have_text("1")
    settled(phone, now)
    assert swapped_ids(phone) == sent
    # The region where the user is typing is as it was, and its forms still say the version it
    # was drawn at, as after a whole page: a Set from it meets the stale check. The other
    # regions the partial page did not hold show the new version: nothing in them changed.
    expect(clues.get_by_label("Value")).to_have_value("7")
    versions = clues.locator("input[name=version]").evaluate_all("all => all.map(i => i.value)")
    assert versions and set(versions) == {str(version)}
    others = phone.locator("input[name=version]").evaluate_all(
        "(all, held) => all.filter(i => !document.getElementById(held).contains(i))"
        ".map(i => i.value)",
        clues.get_attribute("id"),
    )
    assert others and set(others) == {str(now)}
    expect(phone).to_have_title(re.compile("Partial evening"))


def test_a_phone_on_an_older_version_asks_for_its_page(phone):
    stream = open_table(phone, "older")
    _shown, version = drawn(phone)
    tap_elsewhere(phone, "Doom")
    before, since = drawn(phone)
    tap_elsewhere(phone, "Doom")
    after, now = drawn(phone)
    partial = delta(before, after)
    assert partial is not None and (since, now) == (version + 1, version + 2)
    asked = []
    phone.on("request", lambda r: r.headers.get("x-live-refresh") and asked.append(r.url))

    # The phone still shows `version`: the regions changed since `since` are not enough.
    stream.send(now, since, partial)
    doom = phone.get_by_role("region", name="Doom")
    expect(doom.locator("output")).to_have_text("2")
    settled(phone, now)
    assert asked, "the phone applied a partial page made from a version it did not show"


def test_a_changed_region_where_the_user_is_typing_waits(phone):
    stream = open_table(phone, "typing")
    before, version = drawn(phone)
    doom = phone.get_by_role("region", name="Doom")
    doom.get_by_text("Set a value").click()
    doom.get_by_label("Value").fill("5")  # typed, not sent
    tap_elsewhere(phone, "Doom")
    after, now = drawn(phone)
    partial = delta(before, after)
    assert partial is not None
    sent = {region.id for region in regions_of(partial)}
    marked(phone)

    stream.send(now, version, partial)
    settled(phone, now)
    # The undo bar came; Doom waits with what was typed, and its forms still say the version
    # the user saw (a change from it is checked as made from that screen).
    assert swapped_ids(phone) == sent - {doom.get_attribute("id")}
    expect(doom.get_by_label("Value")).to_have_value("5")
    expect(doom.locator("output")).to_have_text("0")
    versions = doom.locator("input[name=version]").evaluate_all("all => all.map(i => i.value)")
    assert versions and set(versions) == {str(version)}


def test_a_phone_holding_a_region_back_asks_for_the_whole_page_at_the_next_change(phone):
    """A region left as it was while the user typed shows an older version than the rest: the
    next partial page (the regions changed since, assuming the phone shows all of that version)
    could never bring what the held region missed, so the phone asks for its page instead."""
    stream = open_table(phone, "held")
    before, version = drawn(phone)
    doom = phone.get_by_role("region", name="Doom")
    doom.get_by_text("Set a value").click()
    doom.get_by_label("Value").fill("5")  # typed, not sent
    tap_elsewhere(phone, "Doom")
    after, now = drawn(phone)
    stream.send(now, version, delta(before, after))
    settled(phone, now)
    expect(doom.locator("output")).to_have_text("0")  # held back

    asked = []
    phone.on("request", lambda r: r.headers.get("x-live-refresh") and asked.append(r.url))
    tap_elsewhere(phone, "Clues")
    later, newest = drawn(phone)
    partial = delta(after, later)
    assert partial is not None
    stream.send(newest, now, partial)
    expect(phone.get_by_role("region", name="Clues").locator("output")).to_have_text("1")
    settled(phone, newest)
    assert asked, "the phone applied a partial page over a region it had held back"
    expect(doom.get_by_label("Value")).to_have_value("5")
