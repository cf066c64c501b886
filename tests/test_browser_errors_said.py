"""An error answer is said next to the form, in the phone's language (issue 21), in real
Chromium at 360×640, in English (light) and Japanese (dark): a tap refused because the member was
made a viewer meanwhile (403, the server's own reason), a campaign gone (404), too many taps
(429), a server that failed (500: what was typed stays, and trying again applies it once) and a
server not answering (503: not sent, and sent again by itself). Before, swap.js dropped them
without a word and the tap seemed to do nothing."""

import pytest
from django.utils import translation
from playwright.sync_api import Page, Route, expect

from tests.journeys import (
    PHONE,
    Site,
    create_any_game,
    join_by_invitation,
    no_sideways_scroll,
    post_form,
    settled,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser

# The errors are made by answering the phone's requests in the test (page.route), which a page
# that the service worker controls would send past (Playwright's advice: block the worker).
SMALL = {**PHONE, "viewport": {"width": 360, "height": 640}, "service_workers": "block"}


def words(language: str, message: str) -> str:
    with translation.override(language):
        return translation.gettext(message)


def answer_with(status: int):
    def fulfil(route: Route) -> None:
        route.fulfill(status=status, content_type="text/html", body="<h1>Error</h1>")

    return fulfil


def version(page: Page) -> int:
    pk = page.url.split("/c/")[1].split("/")[0]
    return page.request.get(f"/c/{pk}/version/").json()["version"]


@pytest.fixture(scope="module")
def refusing_site(site_database):
    """A site of this module's own: Django logs a refused (403) request with its traceback,
    which the shared site's output must not hold. Never a server error, though."""
    site = Site(site_database)
    yield site
    site.close()
    assert "Internal Server Error" not in site.output()


@pytest.mark.parametrize("language,scheme", [("en", "light"), ("ja", "dark")])
def test_an_error_answer_says_what_happened_next_to_the_form(
    browser, refusing_site, language, scheme
):
    site = refusing_site
    owner_context = browser.new_context(base_url=site.url, **SMALL)
    friend_context = browser.new_context(base_url=site.url, **SMALL)
    # The owner's phone has its own clock, which Playwright can move on: the change not sent
    # goes again "in a few seconds" without the test waiting them out.
    owner_context.clock.install()
    owner, friend = owner_context.new_page(), friend_context.new_page()
    for page in (owner, friend):
        page.emulate_media(color_scheme=scheme)
    try:
        sign_up(owner, f"errors-{language}", home=False)
        create_any_game(owner, "Said aloud")
        table = owner.url
        join_by_invitation(owner, friend, "Fern")
        for page in (owner, friend):
            page.context.add_cookies([{"name": "django_language", "value": language, "url": table}])
            page.goto(table)
        doom = "section.tracker-counter"
        plus = f"{doom} form:has(input[name=delta][value='1']) button"
        notes = "section.tracker-notes"
        write = f"{notes} form[action$='/do/notes.add/']"

        # 403: the owner makes the friend a viewer while the friend's page still shows the
        # buttons: a phone whose stream is down (a stream that is up reloads as a viewer at once,
        # tests/test_browser_session.py), so it learns only when it taps.
        friend.route("**/stream/**", lambda route: route.abort())
        friend.reload()
        expect(friend.locator(plus)).to_be_enabled()
        owner.goto(table + "members/")
        member = owner.locator("input[name=member]").first.get_attribute("value")
        post_form(owner, table + "members/role/", {"member": member, "role": "viewer"})
        friend.locator(plus).click()
        said = friend.locator(f"{doom} .error[role=alert]")
        expect(said).to_have_text(words(language, "Viewers can look but not change the campaign."))
        expect(friend.locator(f"{doom} output")).to_have_text("0")
        no_sideways_scroll(friend)
        shot(friend, f"error-403-360-{scheme}-{language}")
        # Dismissed, it goes.
        friend.locator(f"{doom} button.dismiss").click()
        expect(said).to_have_count(0)

        owner.goto(table)
        for status, message in (
            (404, "Not done: this campaign was deleted, or you are no longer one of its members."),
            (429, "Too many taps: wait a moment, then try again."),
        ):
            owner.route("**/do/counter.adjust/", answer_with(status))
            owner.locator(plus).click()
            expect(owner.locator(f"{doom} .error[role=alert]")).to_have_text(
                words(language, message)
            )
            owner.unroute("**/do/counter.adjust/")
        expect(owner.locator(f"{doom} output")).to_have_text("0")
        # Said twice, the message is there once, with one way to dismiss it.
        expect(owner.locator(f"{doom} .error")).to_have_count(1)
        expect(owner.locator(f"{doom} button.dismiss")).to_have_count(1)

        # 500: the note typed stays, and trying again writes it down once.
        owner.route("**/do/notes.add/", answer_with(500))
        owner.locator(f"{write} [name=text]").fill("Attic key")
        owner.locator(f"{write} button").click()
        failed = owner.locator(f"{notes} .error[role=alert]")
        expect(failed).to_have_text(words(language, "The server had a problem: try again."))
        expect(owner.locator(f"{write} [name=text]")).to_have_value("Attic key")
        shot(owner, f"error-500-360-{scheme}-{language}")
        owner.unroute("**/do/notes.add/")
        owner.locator(f"{write} button").click()
        expect(owner.locator(notes)).to_contain_text("Attic key")
        expect(failed).to_have_count(0)
        settled(owner, 1)
        assert version(owner) == 1

        # 503 (a proxy while the server restarts): not sent, and sent again by itself.
        served: list[int] = []

        def busy_once(route: Route) -> None:
            if served:
                route.continue_()
                return
            served.append(503)
            answer_with(503)(route)

        owner.route("**/do/counter.adjust/", busy_once)
        owner.locator(plus).click()
        expect(owner.locator(f"{doom} .not-sent")).to_have_text(
            words(
                language,
                "Not sent: the server is not answering just now. It goes again in a few seconds.",
            )
        )
        owner_context.clock.fast_forward(3_000)
        expect(owner.locator(f"{doom} output")).to_have_text("1")
        expect(owner.locator(".not-sent")).to_have_count(0)
        settled(owner, 2)
        assert version(owner) == 2
    finally:
        owner_context.close()
        friend_context.close()
    assert "Internal Server Error" not in site.output()


def test_a_refusal_said_above_the_screen_is_brought_into_view(phone):
    """A form longer than the screen: the tap is at its foot, the field it refuses at its head.
    The message comes into view, or the tap would seem to do nothing. (A phone held sideways:
    the form shows only the picked kind's fields, and upright it fits the screen.)"""
    phone.set_viewport_size({"width": 844, "height": 390})
    sign_up(phone, "scrolled-refusal", home=False)
    create_any_game(phone, "Long form")
    phone.locator("#add-tracker summary").click()
    phone.locator("#add-tracker select[name=kind]").select_option("checklist")
    phone.locator("#add-tracker input[name=name]").fill("Doom")  # a tracker has that name
    phone.locator("#add-tracker input[name=items]").fill("A, B")
    button = phone.locator("#add-tracker button[type=submit]")
    button.scroll_into_view_if_needed()
    phone.mouse.wheel(0, 400)  # the field is off the top of the screen when the button is tapped
    name = phone.locator("#add-tracker input[name=name]")
    expect(name).not_to_be_in_viewport()
    button.tap()
    said = phone.locator("#add-tracker .error").filter(has_text="There is already a tracker")
    expect(said).to_be_in_viewport()
