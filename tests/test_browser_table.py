"""Play at a real table, on phones of 360×640 and 390×844, light and dark, in every language:
tabs in one row, an undo bar that reads the whole change and who made it, things that open look
tappable, removing a member asks first, a deleted campaign says so on every phone."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.factories import TWO_PLAYER_POST
from tests.journeys import (
    PHONE,
    create_any_game,
    join_by_invitation,
    no_sideways_scroll,
    post_form,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser

SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
LANGUAGES = ["en", "ja", "zh-hans", "zh-hant"]


def phone(browser, site, size, scheme="light", language="en") -> Page:
    context = browser.new_context(
        base_url=site.url, **{**PHONE, "viewport": size}, color_scheme=scheme
    )
    host = site.url.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def tabs_in_one_row(page: Page) -> None:
    rows = page.evaluate(
        """() => {
          const tabs = Array.from(document.querySelectorAll('.tabs a'));
          const tops = new Set(tabs.map(a => Math.round(a.getBoundingClientRect().top)));
          const wrapped = tabs.filter(a => {
            const range = document.createRange(); range.selectNodeContents(a);
            return new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size > 1;
          }).map(a => a.textContent);
          return {rows: tops.size, wrapped, count: tabs.length};
        }"""
    )
    assert rows["rows"] == 1, rows
    assert rows["wrapped"] == [], rows


def test_tabs_fit_one_row_in_every_language(browser, site):
    """At 360×640 and 390×844, light and dark: each language's page loaded once a size (the
    row scrolls to the current tab as the page loads), its colour scheme then switched."""
    page = phone(browser, site, SIZES[0])
    sign_up(page, "tabs")
    post_form(page, "/new/aeonsend/", {**TWO_PLAYER_POST, "name": "Gravehold"})
    page.goto("/")
    page.get_by_role("link", name=re.compile("Gravehold")).click()
    last = page.locator(".tabs a").last
    last.click()
    expect(last).to_have_attribute("aria-current", "page")
    url = page.url
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(url)
            assert page.locator(".tabs a").count() >= 8
            expect(last).to_have_attribute("aria-current", "page")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                tabs_in_one_row(page)
                no_sideways_scroll(page)
                # The current tab is in sight when the row scrolls.
                current = page.locator(".tabs a[aria-current=page]")
                box = current.bounding_box()
                assert box is not None, (language, size, scheme)
                assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (size, box)
                shot(page, f"tabs-{size['width']}-{scheme}-{language}")
    page.context.close()


def test_the_undo_bar_reads_the_whole_change_and_who_made_it(browser, site):
    page = phone(browser, site, SIZES[0])
    sign_up(page, "undo-reader", home=False)
    create_any_game(page, "Undo words")
    long_note = "The cultist in the attic keeps the key to the cellar door " * 3
    notes = page.get_by_role("region", name="Notes")
    notes.get_by_label("Note").fill(long_note.strip())
    notes.get_by_role("button", name=re.compile("Write")).click()
    bar = page.locator("#undo-bar")
    expect(bar).to_contain_text("The cultist in the attic")
    expect(bar.locator(".who")).to_have_text(re.compile("Undo-Reader|undo-reader", re.I))
    bar.locator("summary").click()
    expect(bar.locator("details")).to_have_attribute("open", "")
    whole = bar.locator(".clamp")
    assert whole.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
    expect(whole).to_contain_text(long_note.strip()[-30:])
    box = bar.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SIZES[0]["height"] + 1
    shot(page, "undo-bar-open")
    no_sideways_scroll(page)
    page.context.close()


def test_anything_that_opens_looks_tappable(browser, site):
    page = phone(browser, site, SIZES[1])
    try:
        looks_tappable(page)
    finally:
        page.context.close()  # its live stream ends with the test


def looks_tappable(page: Page) -> None:
    sign_up(page, "opener", home=False)
    create_any_game(page, "Openers")
    summaries = page.locator("details > summary")
    assert summaries.count() > 0
    for index in range(summaries.count()):
        summary = summaries.nth(index)
        if not summary.is_visible():
            continue
        look = summary.evaluate(
            """s => ({chevron: getComputedStyle(s, '::after').content,
                      border: getComputedStyle(s).borderTopStyle,
                      height: s.getBoundingClientRect().height})"""
        )
        assert look["chevron"] not in ("none", "normal"), look
        assert look["height"] >= 43.5, look


def test_removing_a_member_asks_and_deleting_tells_every_phone(phones):
    owner, friend = phones
    sign_up(owner, "table-owner", home=False)
    create_any_game(owner, "Short lived")
    join_by_invitation(owner, friend, "Robin")
    expect(friend.get_by_role("heading", name="Short lived")).to_be_visible()

    owner.reload()
    members = owner.locator("#member-list")
    members.get_by_text("Remove", exact=True).click()
    confirm = members.get_by_role("button", name="Yes, remove Robin")
    expect(members).to_contain_text("Remove Robin from the campaign?")
    expect(confirm).to_be_visible()
    shot(owner, "remove-confirm")
    # Asked, not done: Robin is still a member until the answer.
    expect(friend.get_by_role("heading", name="Short lived")).to_be_visible()

    owner.get_by_role("link", name="Settings").click()
    owner.get_by_label("Type the campaign's name to delete it").fill("Short lived")
    owner.get_by_role("button", name="Delete for everyone").click()
    expect(owner.get_by_role("heading", name="Your campaigns")).to_be_visible()
    expect(owner.locator(".messages")).to_contain_text("Deleted “Short lived”.")
    expect(friend.get_by_role("alert")).to_contain_text("The owner deleted “Short lived”.")
    friend.get_by_role("link", name="Your campaigns").click()
    expect(friend.get_by_role("heading", name="Your campaigns")).to_be_visible()
    shot(friend, "deleted-elsewhere")


def test_long_unbroken_names_wrap_instead_of_widening_any_page(browser, site):
    """Every page at 360×640 and 390×844, light and dark (loaded once, then resized)."""
    page = phone(browser, site, SIZES[0])
    sign_up(page, "long-names")
    name = "Ｗ" * 40 + "x" * 40  # 80 characters, no space to break at
    page.get_by_role("link", name="New campaign").click()
    page.get_by_role("link", name=re.compile("Any game")).click()
    page.get_by_label("Campaign name").fill(name)
    page.get_by_label("Counters").fill("D" * 60 + " 0 12")
    page.get_by_label("Lists:", exact=True).fill("L" * 60)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.locator("#campaign-title")).to_contain_text("x" * 40)
    lists = page.locator(".tracker-list").first
    lists.get_by_role("textbox", name="Name", exact=True).fill("C" * 120)
    lists.get_by_role("button", name="Add", exact=True).click()
    expect(lists.locator(".list")).to_contain_text("C" * 120)
    table = page.url
    for path in ("", "history/", "members/", "settings/"):
        page.goto(table + path)
        for size in SIZES:
            page.set_viewport_size(size)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                no_sideways_scroll(page)
                redo = page.locator("#undo-bar button", has_text="Redo")
                if redo.count():  # the pages with an undo bar: Redo stays on screen
                    box = redo.bounding_box()
                    assert box is not None and box["x"] + box["width"] <= size["width"], path
                if not path:
                    shot(page, f"long-names-{size['width']}-{scheme}")
    page.context.close()
