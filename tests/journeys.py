"""What the browser journeys share: signing up, screenshots, and the phone-size checks."""

import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("SCREENSHOTS")


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


def sign_up(page: Page, username: str) -> None:
    page.goto("/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill("table-top-42x")
    page.get_by_label("Password confirmation").fill("table-top-42x")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def join_by_invitation(owner: Page, friend: Page, name: str) -> None:
    """The friend joins the owner's open campaign as `name`, from the invitation the owner's
    members page shows (the owner is left on that page)."""
    owner.get_by_role("link", name="Members").click()
    invite = owner.locator(".url").inner_text()
    friend.goto(invite)
    friend.get_by_label("Your name at the table").fill(name)
    friend.get_by_role("button", name="Join").click()


def no_sideways_scroll(page: Page) -> None:
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def small_tap_targets(page: Page) -> list[str]:
    """Visible buttons, fields, tabs and summaries on the page smaller than 44 px."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.wrap button, .wrap .button, .wrap summary, .tabs a, .undo-bar button,'
              + ' .wrap input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
              + ' .wrap select, .wrap textarea'))
            .filter(el => el.offsetParent !== null)
            .filter(el => {
              const r = el.getBoundingClientRect();
              return r.height < 43.5 || r.width < 43.5;
            })
            .map(el => el.outerHTML.slice(0, 80))"""
    )


def settled(page: Page, version: int) -> None:
    """Wait until the page's live refresh has caught up with the campaign's version, so that a
    late refresh does not redraw a region (and its message) while the test looks at it."""
    expect(page.locator("#live-root")).to_have_attribute("data-version", str(version))


def new_campaign(page: Page, name: str, counters: str) -> None:
    """An Any game campaign with these counters, made from the home page."""
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Any game")).click()
    page.get_by_label("Campaign name").fill(name)
    page.get_by_label("Counters").fill(counters)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
