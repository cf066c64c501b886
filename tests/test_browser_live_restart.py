"""Live after a server restart (issue 21), in real Chromium at 360×640: the pages two phones left
open (one in English, one in Simplified Chinese) while the server was away long enough for their
streams to give up and poll are back on a stream when the server returns, without a reload, and
another phone's change reaches both down their streams. Before, such a page polled every 2 s until
reloaded: 1.1-1.4 s a change instead of about 200 ms. (One restart for both languages: the
journey waits about ten seconds for the streams to give up, once rather than once a language.)"""

import httpx
import pytest
from playwright.sync_api import expect

from tests.journeys import PHONE, Site, create_any_game, join_by_invitation, settled, sign_up

pytestmark = pytest.mark.browser

# Every EventSource the page opens, kept where the test can read its state.
WATCH_STREAMS = """(() => {
    const Real = window.EventSource;
    window.streams = [];
    window.EventSource = function (url, options) {
        const source = new Real(url, options);
        window.streams.push(source);
        return source;
    };
    window.EventSource.prototype = Real.prototype;
    Object.assign(window.EventSource, {CONNECTING: 0, OPEN: 1, CLOSED: 2});
})();"""
STREAM_OPEN = "() => window.streams.length > 0 && window.streams.at(-1).readyState === 1"


def test_after_a_restart_the_pages_are_back_on_their_stream(browser, site_database):
    """Two phones at the table, one in English and one in Simplified Chinese, through one
    restart."""
    server = Site(site_database)
    size = {**PHONE, "viewport": {"width": 360, "height": 640}}
    contexts = [browser.new_context(base_url=server.url, **size) for _ in range(2)]
    pages = []
    polls: dict[str, list[str]] = {}
    for context, language in zip(contexts, ["en", "zh-hans"], strict=True):
        context.add_init_script(WATCH_STREAMS)
        # The phone's own clock, which Playwright can move on: a polling page asks again every
        # two seconds, not waited out once the server is back.
        context.clock.install()
        page = context.new_page()
        polls[language] = []
        page.on(
            "request", lambda r, seen=polls[language]: "/version/" in r.url and seen.append(r.url)
        )
        pages.append(page)
    owner, friend = pages
    try:
        sign_up(owner, "restart-live", home=False)
        create_any_game(owner, "Left open")
        table = owner.url
        join_by_invitation(owner, friend, "Fern")
        for page, language in zip(pages, polls, strict=True):
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
            page.wait_for_function(STREAM_OPEN)
        assert polls == {"en": [], "zh-hans": []}
        expect(friend.locator("html")).to_have_attribute("lang", "zh-hans")

        # Away long enough that the streams give up and the pages poll.
        polling = [
            page.expect_request(lambda r: "/version/" in r.url, timeout=60_000) for page in pages
        ]
        with polling[0], polling[1]:
            server.close()
        server = Site(site_database, port=server.port)
        for context in contexts:
            context.clock.fast_forward(2_000)
        # Back on a stream by itself, no reload.
        for page in pages:
            page.wait_for_function(STREAM_OPEN, timeout=60_000)
        polled = {language: len(seen) for language, seen in polls.items()}

        # A third phone's change comes down both streams.
        cookies = {c["name"]: c["value"] for c in contexts[0].cookies()}
        doom = "section.tracker-counter"
        with httpx.Client(base_url=server.url, cookies=cookies) as other:
            tracker = owner.locator(f"{doom} input[name=tracker]").first.get_attribute("value")
            answer = other.post(
                table + "do/counter.adjust/",
                data={"tracker": tracker, "delta": "1"},
                headers={"X-CSRFToken": cookies["csrftoken"]},
            )
            assert answer.status_code == 302, answer.text
        for page in pages:
            expect(page.locator(f"{doom} output")).to_have_text("1")
            settled(page, 1)
            assert page.evaluate("window.streams.at(-1).readyState") == 1
        # The streams brought it: the pages had stopped polling.
        assert {language: len(seen) for language, seen in polls.items()} == polled
    finally:
        for context in contexts:
            context.close()
        server.close()
    assert "Traceback" not in server.output()
