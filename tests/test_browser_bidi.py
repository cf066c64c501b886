"""A name typed with a right-to-left override (U+202E) reverses only itself, in real Chromium:
the words the site writes after it (in the undo bar, the history, the header) stay where they
are. tests/test_bidi.py checks every page of every game for the isolation; this checks that
the isolation does what it says on the screen."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import SHOTS, shot_of, sign_up

pytestmark = pytest.mark.browser

RLO = "\u202e"

# Where, on the screen, a piece of text inside an element is drawn.
RECT = """([selector, piece]) => {
  const root = document.querySelector(selector);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(piece);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + piece.length);
    const r = range.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top};
  }
  return null;
}"""


def rect(page: Page, selector: str, piece: str) -> dict:
    # A click on a link returns once the next page has begun; wait until the piece is drawn.
    expect(page.locator(selector).first).to_contain_text(piece)
    found = page.evaluate(RECT, [selector, piece])
    assert found is not None, (selector, piece)
    return found


def after(page: Page, selector: str, name: str, words: str) -> None:
    """The site's words are drawn to the right of the typed name on the same line."""
    typed, then = rect(page, selector, name), rect(page, selector, words)
    assert abs(typed["top"] - then["top"]) < 4, (typed, then)
    assert then["left"] >= typed["right"] - 1, (name, typed, words, then)


def test_a_right_to_left_override_reverses_only_the_name(phones):
    page, friend = phones
    sign_up(page, "bidi-keeper")
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Any game")).click()
    page.get_by_label("Campaign name").fill(RLO + "Nights")
    page.get_by_label("Counters").fill(RLO + "Doom 0 12")
    page.get_by_role("button", name="Create the campaign").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    page.locator(".tracker-counter form:has(input[name=delta][value='1']) button").click()
    bar = page.locator("#undo-bar")
    expect(bar).to_contain_text("(now 1)")
    # "Doom +1 (now 1) · who": the override turns "Doom" around, not the words after it.
    after(page, "#undo-bar .clamp", "Doom", "+1 (now 1)")
    if SHOTS:
        shot_of(page, "#undo-bar", "bidi-undo-bar")

    page.get_by_role("link", name="Settings").click()
    page.locator("form:has(input[name=name]) input[name=name]").fill(RLO + "Eve")
    page.locator("form:has(input[name=name]) button[type=submit]").first.click()
    expect(page.locator("#campaign-title")).to_contain_text("Eve")
    page.get_by_role("link", name="History").click()
    # "Renamed the campaign to “Eve”": the closing quote stays after the name.
    after(page, ".history li:first-child .text", "Eve", "”")
    if SHOTS:
        shot_of(page, ".history", "bidi-history")

    # A friend at the table sees the owner delete it: "The owner deleted “Eve”." keeps its
    # closing quote and full stop after the name (live.js writes that notice).
    page.get_by_role("link", name="Members").click()
    friend.goto(page.locator(".url").inner_text())
    friend.get_by_label("Your name at the table").fill("Robin")
    friend.get_by_role("button", name="Join").click()
    expect(friend.locator("#campaign-title")).to_contain_text("Eve")
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Type the campaign's name to delete it").fill(RLO + "Eve")
    page.get_by_role("button", name="Delete for everyone").click()
    expect(page.locator(".messages")).to_contain_text("Eve")
    after(page, ".messages", "Eve", "”.")
    expect(friend.get_by_role("alert")).to_contain_text("The owner deleted")
    after(friend, ".gone p", "Eve", "”.")
