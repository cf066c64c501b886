"""The site's forms sent without leaving the page (static/js/swap.js, in place of htmx 2, for
issue 8's 22 KB first load), in real Chromium at phone size: the page loads only the site's own
three scripts; a GET form's answer redraws its region, its address goes into the history, and back
and forward show each page as it was; a tap whose answer is a redirect (the session ended) takes
the phone to that page instead of drawing it in a region. What the change forms do (refusals,
not sent, the undo bar, live updates) the other journeys show."""

import re

import pytest
from playwright.sync_api import expect

from tests.journeys import (
    PHONE,
    create_any_game,
    post_form,
    sign_up,
)

pytestmark = pytest.mark.browser


def test_the_odds_form_redraws_its_region_and_back_shows_the_page_before(browser, site):
    context = browser.new_context(base_url=site.url, **PHONE)
    page = context.new_page()
    try:
        sign_up(page, "odds-back")
        post_form(page, "/new/arkham/", {"name": "Odds", "campaign": "notz", "difficulty": "easy"})
        page.goto("/")
        page.get_by_role("link", name=re.compile("Odds")).click()
        # The campaign's page loaded before the bag's is asked for: its scripts are not counted.
        page.wait_for_url(re.compile(r"/c/\d+/"))
        page.wait_for_load_state()
        bag = re.sub(r"(/c/\d+/).*", r"\1p/bag/", page.url)
        scripts: list[str] = []
        page.on("request", lambda r: r.resource_type == "script" and scripts.append(r.url))
        page.goto(bag)
        # Only the site's own scripts: no htmx (offline.js keeps the campaign on the phone;
        # timer.js, Any game's timers, is not loaded here).
        scripts = sorted(url.rsplit("/", 1)[1].split(".")[0] for url in scripts)
        assert scripts == ["live", "offline", "swap"]
        assert page.evaluate("typeof window.htmx") == "undefined"

        page.evaluate("window.samePage = true")
        odds = page.locator("#bag-odds")
        odds.get_by_label("Skill").fill("4")
        odds.get_by_label("Difficulty").fill("3")
        odds.get_by_label("Difficulty").press("Enter")
        expect(page.locator("#bag-odds .typed-odds")).to_contain_text("Skill 4 against 3")
        # The field Enter was pressed in keeps the focus in the redrawn form: the next value can
        # be typed at once.
        focused = "document.activeElement.name + '=' + document.activeElement.value"
        assert page.evaluate(focused) == "difficulty=3"
        assert re.search(r"/p/bag/\?.*difficulty=3", page.url) and "skill=4" in page.url
        assert page.evaluate("window.samePage") is True  # redrawn in place, not loaded again
        # The region alone, not a page inside the page.
        expect(page.locator("#bag-odds")).to_have_count(1)
        expect(page.locator("header.top")).to_have_count(1)

        page.go_back()
        expect(page).to_have_url(bag)
        expect(page.locator("#bag-odds")).to_be_visible()
        expect(page.locator("#bag-odds .typed-odds")).to_have_count(0)
        expect(odds.get_by_label("Skill")).to_have_value("")
        page.go_forward()
        expect(page.locator("#bag-odds .typed-odds")).to_contain_text("Skill 4 against 3")
    finally:
        context.close()


def test_a_tap_after_the_session_ended_lands_on_the_login_page(phone):
    page = phone
    sign_up(page, "session-ends")
    # The page's stream answered while the session held: a stream opened after the cookie is
    # gone would take the phone to the log-in page before the tap (the stream follows its
    # session), and the tap would find no button.
    with page.expect_response(lambda response: "/stream/?" in response.url):
        create_any_game(page, "Ended session", "Doom 0 12")
    page.context.clear_cookies(name="sessionid")
    page.get_by_role("region", name="Doom").get_by_role("button", name="Doom plus one").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    assert "/login/" in page.url
    expect(page.locator("#undo-bar")).to_have_count(0)
    # Logging in again leads back to the campaign's page, where the tap can be made again.
    page.get_by_label("Username").fill("session-ends")
    page.get_by_label("Password").fill("table-top-42x")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Ended session")).to_be_visible()
    expect(page.get_by_role("region", name="Doom")).to_contain_text("0")
