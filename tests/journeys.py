"""What drives the site for the tests: requests through Django's test client and what they
answer, real servers (tests/server.py, tests/load.py, tests/first_load.py, reached through
here), waiting for a condition (never a sleep), and the browser journeys' steps: signing up,
making a campaign of each game, screenshots, the phone-size checks.

Tests import from here, tests/factories.py and their game's helpers.py only
(tests/test_suite_shape.py holds them to it).
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from playwright.sync_api import APIResponse, Page, expect

from campaigns.models import Campaign, Event
from tests.factories import THREE_INVESTIGATORS, TWO_PLAYER_POST
from tests.first_load import BUDGET, measure, pages
from tests.load import busy_table, problems_after, tracker_ids, write_at_once
from tests.server import ROOT, Database, Phone, Site, free_port, server_pid_of, shared_files

__all__ = [
    "BUDGET",
    "ROOT",
    "Database",
    "Phone",
    "Site",
    "busy_table",
    "free_port",
    "measure",
    "pages",
    "problems_after",
    "server_pid_of",
    "shared_files",
    "tracker_ids",
    "write_at_once",
]

SHOTS = os.environ.get("SCREENSHOTS")

# The phones of the browser journeys: Debian's Chromium, at 390×844, as its headless shell
# (package chromium-headless-shell, the same Blink, without the full browser around it, which is
# what Playwright's own headless runs use too). The full browser's headless mode took a third
# more of the machine's CPU for the same journeys (66 s against 41-45 s on four of them).
CHROMIUM = "/usr/bin/chromium-headless-shell"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# What htmx adds to a request: the answer is the region's part, not the whole page.
HTMX = {"HTTP_HX_REQUEST": "true"}


# Waiting for a condition: a deadline, never a fixed pause.


def wait_until(condition: Callable[[], Any], timeout: float = 30, every: float = 0.02) -> Any:
    """Poll `condition` until it is true or `timeout` seconds have passed; its last value."""
    deadline = time.monotonic() + timeout
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(every)
    return value


async def until(condition: Callable[[], Any], timeout: float = 30) -> Any:
    """wait_until on an event loop: the loop runs other work between looks."""
    deadline = time.monotonic() + timeout
    while not (value := condition()) and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    return value


async def next_event(stream: Any) -> str:
    """The next server-sent event of a stream read in one process (the response's
    `streaming_content`), skipping comments and the retry line."""
    while True:
        chunk = await anext(stream)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("event:"):
            return text


# The site's own ASGI application (companion/asgi.py), called in this process as uvicorn calls it:
# what the kept threads and the live layer answer, which Django's test clients skip.


class Answered:
    """What the application sent back: the status, the headers and the body so far (a stream:
    its first part, then the phone went away)."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.body = b""
        self.finished = asyncio.Event()

    @property
    def streams(self) -> bool:
        return self.headers.get("content-type", "").startswith("text/event-stream")


async def asgi_request(
    path: str,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes = b"",
    timeout: float = 10,
    read_until: Callable[[bytes], bool] | None = None,
) -> Answered | None:
    """One request to companion.asgi's application. A stream is read until `read_until` says
    its body so far is enough (its first part, without one), then the phone goes away. None
    when the application has not answered within `timeout` seconds (it is then cancelled)."""
    from companion.asgi import application

    answered = Answered()
    inbox: asyncio.Queue[dict] = asyncio.Queue()
    inbox.put_nowait({"type": "http.request", "body": body, "more_body": False})
    path_only, _, query = path.partition("?")

    async def receive() -> dict:
        return await inbox.get()

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answered.status = message["status"]
            answered.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            answered.body += message.get("body", b"")
            enough = read_until(answered.body) if read_until else bool(answered.body)
            if not message.get("more_body") or (answered.streams and enough):
                answered.finished.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path_only,
        "raw_path": path_only.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver")]
        + [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    task = asyncio.ensure_future(application(scope, receive, send))
    try:
        await asyncio.wait_for(answered.finished.wait(), timeout)
    except TimeoutError:
        task.cancel()
        return None
    finally:
        inbox.put_nowait({"type": "http.disconnect"})
    try:
        await asyncio.wait_for(task, timeout)
    except TimeoutError:
        task.cancel()
    return answered


# Django's test client: what a phone is answered.


def text(response: Any) -> str:
    return response.content.decode()


def snapshot(campaign: Campaign) -> tuple:
    """Everything about a campaign a refused request must leave alone (refreshes `campaign`)."""
    try:
        campaign.refresh_from_db()
    except Campaign.DoesNotExist:
        return (None,)
    return (
        campaign.version,
        campaign.state,
        campaign.name,
        campaign.archived,
        campaign.invite_token,
        Event.objects.filter(campaign=campaign).count(),
        campaign.undo_top_id,
        campaign.redo_top_id,
        sorted(campaign.memberships.values_list("user__username", "role")),
    )


def assert_refused(
    client: Client,
    campaign: Campaign,
    path: str,
    data: Any = None,
    *,
    status: int = 422,
    message: str,
    htmx: bool = False,
) -> Any:
    """POST `path` (relative to the campaign's address, or absolute) and check it was refused:
    the status, the message the person sees, and nothing about the campaign changed."""
    url = path if path.startswith("/") else f"/c/{campaign.pk}/{path}"
    before = snapshot(campaign)
    response = client.post(url, data or {}, **(HTMX if htmx else {}))
    assert response.status_code == status, text(response)[-2000:]
    assert message in html.unescape(text(response))
    assert snapshot(campaign) == before
    return response


def upload(client: Client, raw: bytes, name: str = "campaign.json") -> Any:
    """Import a campaign file, as the import page's form posts it."""
    file = SimpleUploadedFile(name, raw, content_type="application/json")
    return client.post("/import/", {"file": file})


def page_urls(campaign: Campaign) -> list[str]:
    """Every page of a campaign: its table, its game's pages, history, members, settings."""
    urls = [reverse("campaigns:campaign", args=[campaign.pk])]
    urls += [
        reverse("campaigns:game-page", args=[campaign.pk, p]) for p in campaign.game_module.pages
    ]
    urls += [
        reverse(f"campaigns:{name}", args=[campaign.pk])
        for name in ("history", "members", "settings")
    ]
    return urls


# The browser journeys' steps.


def shot(page: Page, name: str, parts: bool = False) -> None:
    """Screenshots for a person to look at (SCREENSHOTS=dir); the tests assert on the page.
    With parts, also one picture per screenful, at full resolution."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)
    if parts:
        size = page.viewport_size
        height = page.evaluate("document.documentElement.scrollHeight")
        for part in range(min((height + size["height"] - 1) // size["height"], 12)):
            clip = {"x": 0, "y": part * size["height"], **size}
            page.screenshot(path=f"{SHOTS}/{name}-{part}.png", full_page=True, clip=clip)


def shot_of(page: Page, selector: str, name: str) -> None:
    """One part of the page, at full resolution."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator(selector).screenshot(path=f"{SHOTS}/{name}.png")


# Setting the scene without drawing it. Most journeys begin with an account and a campaign;
# they are about what comes after. Filling the sign-up and new-campaign forms in Chromium took
# about 0.9 s of the machine's CPU per journey (four page loads, each with Playwright's script
# set up anew, and the form's fields found by role), against about 0.1 s for the same two posts
# sent from the phone's own session. So `sign_up` and `create_any_game` post what the forms post;
# the forms themselves have their journeys (`sign_up_on_the_form`, `new_campaign`,
# `create_zealot`, `create_azathoth`, `create_case`).


def sign_up_on_the_form(page: Page, username: str) -> None:
    """Sign up as a person does: the form, filled in and sent; the home page follows."""
    page.goto("/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill("table-top-42x")
    page.get_by_label("Password confirmation").fill("table-top-42x")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def sign_up(page: Page, username: str, home: bool = True) -> None:
    """This phone signed up as `username` (the sign-up form's post, from the phone's own
    session) and on its home page; with home=False, signed in only, for a journey whose next
    step opens a page of its own (a new campaign): one page load fewer."""
    page.request.get("/signup/")  # the CSRF cookie, as opening the form sets it
    password = "table-top-42x"
    form = {"username": username, "password1": password, "password2": password}
    post_form(page, "/signup/", form, ok=(302,))
    if home:
        page.goto("/")
        expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def join_by_invitation(owner: Page, friend: Page, name: str) -> None:
    """The friend joins the owner's open campaign as `name`, from the invitation the owner's
    members page shows (the owner is left on that page)."""
    owner.get_by_role("link", name="Members").click()
    invite = owner.locator(".url").inner_text()
    # The join form's post from the friend's session (the form has its own journey:
    # tests/test_browser.py), then the campaign it leads to.
    friend.request.get(invite)  # the CSRF cookie, as opening the invitation sets it
    response = post_form(friend, invite, {"display_name": name}, ok=(302,))
    friend.goto(response.headers["location"])


def no_sideways_scroll(page: Page) -> None:
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def small_tap_targets(page: Page) -> list[str]:
    """Visible buttons, fields, tabs and summaries on the page smaller than 44 px."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.top a, .wrap button, .wrap .button, .wrap summary, .tabs a, .undo-bar button,'
              + ' .wrap input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
              + ' .wrap select, .wrap textarea'))
            .filter(el => el.offsetParent !== null)
            .filter(el => {
              const r = el.getBoundingClientRect();
              return r.height < 43.5 || r.width < 43.5;
            })
            .map(el => el.outerHTML.slice(0, 80))"""
    )


def lone_characters(page: Page) -> list[str]:
    """Visible buttons and labels whose words end on a line of one character (a lone る under
    アクションフェイズを終え, the ン of トークン): the words they break, as the phone shows them."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.wrap button, .wrap label'))
            .filter(el => el.offsetParent !== null)
            .flatMap(el => {
              const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
                acceptNode: n => n.parentElement.closest('select, option, textarea, .sr-only')
                  ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
              const lines = new Map();
              for (let node; (node = walker.nextNode());) {
                for (let i = 0; i < node.data.length; i++) {
                  if (!node.data[i].trim()) continue;
                  const range = document.createRange();
                  range.setStart(node, i);
                  range.setEnd(node, i + 1);
                  const rect = range.getBoundingClientRect();
                  if (!rect.height) continue;
                  const top = Math.round(rect.top);
                  lines.set(top, (lines.get(top) || '') + node.data[i]);
                }
              }
              const rows = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1]);
              return rows.length > 1 && rows[rows.length - 1].length === 1
                ? [rows.join('|')] : [];
            })"""
    )


# The page's version is waited for by a function run in the page, not by Playwright's `expect`:
# each time an `expect` finds its condition not yet true, it builds an accessibility snapshot of
# the element for the message it would fail with, and for #live-root that is the whole page.
# Every tap waits so at least once: on the chaos bag page, 10 draws with a second phone took
# 3.3 s of the tapping phone's renderer with `expect`, 1.4 s with this (Chrome's profiler).
VERSION_IS = "v => document.getElementById('live-root')?.dataset.version === v"
VERSION_IS_NOT = "v => document.getElementById('live-root')?.dataset.version !== v"


def settled(page: Page, version: int | str) -> None:
    """Wait until the page's live refresh has caught up with the campaign's version, so that a
    late refresh does not redraw a region (and its message) while the test looks at it."""
    page.wait_for_function(VERSION_IS, arg=str(version))


def tap(page: Page, locator) -> None:
    """Tap and wait for the answer: the campaign's version moves on and no form is still on its
    way (a live push can bring the new version before the tap's own answer, and a second tap on
    a form whose first is on its way is dropped, as a double tap is one tap)."""
    before = page.locator("#live-root").get_attribute("data-version")
    locator.click()
    page.wait_for_function(VERSION_IS_NOT, arg=before or "")
    expect(page.locator("form.htmx-request")).to_have_count(0)


def new_campaign(page: Page, name: str, counters: str = "Doom 0 12") -> None:
    """An Any game campaign with these counters, made from the home page."""
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Any game")).click()
    page.get_by_label("Campaign name").fill(name)
    page.get_by_label("Counters").fill(counters)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


# What each game's new-campaign form posts for the campaigns the journeys play, as the form
# opens but for what the journey picks (the forms' own journeys: `create_zealot`,
# `create_azathoth`, `create_case`, `new_campaign`).
NEW_CAMPAIGN_POSTS = {
    # A notes log and a results table are ticked when the form opens.
    "any": {"counters": "Doom 0 12", "notes": "on", "results": "on"},
    "zealot": {"game": "arkham", "campaign": "notz", "difficulty": "standard"},
    "azathoth": {
        "game": "eldritch",
        "ancient_one": "Azathoth",
        "custom_awakening": "mystery",
        "players": "3",
        **THREE_INVESTIGATORS,
    },
    "case": {"game": "noir", "case": "case2", "clue_types": "6", "win_rule": "count"},
}


def open_new_campaign(page: Page, kind: str, name: str, **fields: str) -> None:
    """A new campaign of `kind` (a key of NEW_CAMPAIGN_POSTS), as its form posts it with
    `fields` changed, opened on this phone."""
    form = {"game": "any", **NEW_CAMPAIGN_POSTS[kind], "name": name, **fields}
    response = post_form(page, f"/new/{form.pop('game')}/", form, ok=(302,))
    page.goto(response.headers["location"])
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def create_any_game(page: Page, name: str, counters: str = "Doom 0 12") -> None:
    """An Any game campaign with these counters, opened (see open_new_campaign)."""
    open_new_campaign(page, "any", name, counters=counters)


def create_zealot(page: Page, name: str) -> None:
    """An Arkham Horror campaign: The Night of the Zealot on Standard."""
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Arkham Horror")).click()
    page.get_by_label("Campaign name").fill(name)
    page.get_by_label("Campaign:", exact=True).select_option(label="The Night of the Zealot")
    page.get_by_label("Difficulty").select_option(label="Standard")
    shot(page, "arkham-create", parts=True)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def create_azathoth(page: Page, name: str) -> None:
    """An Eldritch Horror game against Azathoth for three investigators."""
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Eldritch Horror")).click()
    page.get_by_label("Campaign name").fill(name)
    page.locator("select[name=ancient_one]").select_option("Azathoth")
    pickers = page.locator("select[name^=investigator_]")
    expect(pickers.nth(1)).to_be_visible()  # two players when the form opens: two pickers
    expect(pickers.nth(2)).to_be_hidden()
    page.get_by_label("Players").select_option("3")
    expect(pickers.nth(2)).to_be_visible()
    expect(pickers.nth(3)).to_be_hidden()
    for number, who in enumerate(("Akachi Onyele", "Charlie Kane", "Diana Stanley"), start=1):
        page.locator(f"select[name=investigator_{number}]").select_option(who)
    shot(page, "eldritch-create", parts=True)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def create_case(page: Page, name: str) -> None:
    """An Arkham Noir campaign: Case 2 with five puzzle-piece cards."""
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Arkham Noir")).click()
    page.get_by_label("Campaign name").fill(name)
    page.get_by_label("Case:", exact=True).select_option(label="Case 2: Called Forth by Thunder")
    page.get_by_label("Five puzzle-piece cards in the Big Picture").check()
    shot(page, "noir-create", parts=True)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def post_form(page: Page, path: str, form: dict, ok: tuple[int, ...] = (200, 302)) -> APIResponse:
    """A form post from this phone's session (as a tap would make it), for setting a scene."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(path, form=form, headers={"X-CSRFToken": token}, max_redirects=0)
    assert response.status in ok, (path, response.status, response.text()[:300])
    return response


def create_the_fall(page: Page) -> None:
    """A two-player Aeon's End campaign, "The Fall", opened on this phone."""
    post_form(page, "/new/aeonsend/", {"name": "The Fall", **TWO_PLAYER_POST}, ok=(302,))
    page.goto("/")
    page.get_by_role("link", name=re.compile("The Fall")).click()
