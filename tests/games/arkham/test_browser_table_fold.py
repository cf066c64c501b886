"""The Arkham table page with a full table, one thumb: five investigators (two of them killed or
insane) are one line each, a tap opens one to edit it, and the killed and insane fold away
behind one line of their own; at 360×640 and 390×844 the page is about two screens, not a
wall of steppers (it was 7,600 px)."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.journeys import (
    PHONE,
    SHOTS,
    no_sideways_scroll,
    post_form,
    shot_of,
    sign_up,
    small_tap_targets,
)

pytestmark = pytest.mark.browser

SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
LANGUAGES = ("en", "ja", "zh-hans", "zh-hant")
PEOPLE = [
    ("Roland Banks", "Kim", 9, 5),
    ("Daisy Walker", "Lou", 5, 9),
    ("Agnes Baker", "Max", 6, 8),
    ("Skids O'Toole", "Noa", 8, 6),
    ("Wendy Adams", "Kim", 7, 7),
]


def full_table(page: Page, name: str) -> str:
    """A campaign with five investigators, Skids killed and Wendy insane; its table's URL."""
    post_form(page, "/new/arkham/", {"name": name, "campaign": "notz", "difficulty": "standard"})
    page.goto("/")
    page.get_by_role("link", name=re.compile(name)).click()
    pk = re.search(r"/c/(\d+)/", page.url).group(1)
    for who, player, health, sanity in PEOPLE:
        post_form(
            page,
            f"/c/{pk}/do/investigator.add/",
            {"name": who, "player": player, "health": health, "sanity": sanity, "region": "x"},
        )
    # The investigators' ids follow the campaign's own counter; read them off the page.
    page.goto(f"/c/{pk}/")
    ids = [
        element.get_attribute("id").removeprefix("inv-")
        for element in page.locator("[data-live][id^=inv-]").all()
    ]
    for ident, status in ((ids[3], "killed"), (ids[4], "insane")):
        post_form(
            page,
            f"/c/{pk}/do/investigator.mark/",
            {"investigator": ident, "status": status, "region": f"inv-{ident}"},
        )
    return f"/c/{pk}/"


def test_five_investigators_fit_in_two_screens_and_open_to_edit(browser, site):
    """At 360×640 and 390×844 (one table, its page drawn again at each size)."""
    context = browser.new_context(base_url=site.url, **{**PHONE, "viewport": SIZES[0]})
    page = context.new_page()
    try:
        sign_up(page, "full-table")
        table = full_table(page, "Full table")
        page.goto(table)
        people = page.locator("#investigators")
        roland = people.get_by_role("article", name="Roland Banks", exact=True)
        summary = roland.locator("summary").first
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(table)
            height = page.evaluate("document.documentElement.scrollHeight")
            people_height = people.bounding_box()["height"]
            print(
                f"\nArkham table, five investigators, {size['width']}×{size['height']}:"
                f" page {height} px, investigators {people_height:.0f} px"
            )
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/ark-table-fold-{size['width']}.png", full_page=True)
                shot_of(page, "#investigators", f"ark-table-fold-people-{size['width']}")
            # The five, the folded two and the add form fit in one screen (they were 4,000 px).
            assert people_height <= size["height"], (size, people_height)
            no_sideways_scroll(page)
            assert small_tap_targets(page) == []
            # One line each: name, player, trauma, unspent XP, status.
            expect(summary).to_contain_text("Kim")
            expect(summary).to_contain_text("0/9")
            expect(summary).to_contain_text("0/5")
            expect(summary).to_contain_text("0 XP to spend")
            box = summary.bounding_box()
            assert box is not None and box["height"] <= 100, (size, box)
            fallen_ones_fold_away(people)

        # Opened, an investigator is edited as before, and stays open after the tap.
        expect(roland.get_by_role("button", name="Physical trauma plus one")).to_be_hidden()
        summary.click()
        roland.get_by_role("button", name="Physical trauma plus one").click()
        expect(summary).to_contain_text("1/9")
        expect(roland.get_by_role("group", name="Physical trauma")).to_contain_text("1/9")
        roland.get_by_role("button", name="XP plus one").click()
        expect(summary).to_contain_text("1 XP to spend")
        expect(roland.get_by_role("button", name="XP plus one")).to_be_visible()
        for size in SIZES:
            page.set_viewport_size(size)
            no_sideways_scroll(page)
            if SHOTS:
                page.screenshot(
                    path=f"{SHOTS}/ark-table-fold-open-{size['width']}.png", full_page=True
                )

        # In every language, light and dark, at each size, each line stays a line or two and
        # the section a screen (Roland stays open: the reader opened him).
        for language in LANGUAGES:
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": page.url}]
            )
            page.goto(table)
            for size in SIZES:
                page.set_viewport_size(size)
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    for line in people.locator("article > details > summary").all():
                        box = line.bounding_box()
                        assert box is not None and box["height"] <= 100, (language, size, box)
                    closed = people.bounding_box()["height"] - roland.bounding_box()["height"]
                    assert closed <= size["height"], (language, size, scheme, closed)
                    no_sideways_scroll(page)
                    if SHOTS:
                        shot_of(
                            page,
                            "#investigators",
                            f"ark-people-{size['width']}-{scheme}-{language}",
                        )
                    if scheme == "light":
                        after_a_scenario_rows_are_one_line(page, language)
        page.emulate_media(color_scheme="dark")  # the refused rows, read in dark
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(table)
            a_refused_row_says_so_below_it(page)
    finally:
        context.close()


def fallen_ones_fold_away(people: Locator) -> None:
    """The killed and the insane are folded away, hidden until opened."""
    fallen = people.locator("details.fallen")
    expect(fallen.locator("> summary")).to_contain_text("Killed or insane (2)")
    expect(people.get_by_text("Skids O'Toole", exact=True)).to_be_hidden()
    expect(people.get_by_text("Wendy Adams", exact=True)).to_be_hidden()
    fallen.locator("> summary").click()
    skids = fallen.get_by_role("article", name="Skids O'Toole", exact=True)
    expect(skids.locator("summary").first).to_be_visible()
    expect(skids.locator("summary").first).to_contain_text("killed")
    wendy = fallen.get_by_role("article", name="Wendy Adams", exact=True)
    expect(wendy.locator("summary").first).to_contain_text("insane")


def after_a_scenario_rows_are_one_line(page: Page, language: str) -> None:
    """'After a scenario': each change to the bag (add or take out, how many, which token) is
    one row of three controls, not a count with its token wrapped below it."""
    page.locator("#record-scenario-h").click()
    rows = page.locator("#record-scenario .bag-row")
    expect(rows).to_have_count(3)
    for row in rows.all():
        tops = row.evaluate(
            "r => [...r.querySelectorAll('select, input')].map(c => c.getBoundingClientRect().top)"
        )
        assert len(tops) == 3 and max(tops) - min(tops) < 8, (language, tops)
    page.locator("#record-scenario-h").click()


def a_refused_row_says_so_below_it(page: Page) -> None:
    """A message about one field of a row of fields (trauma beside XP, a token the bag lacks)
    is said below that row, across it; the row's fields stay on one line."""
    page.locator("#record-scenario-h").click()
    form = page.locator("#record-scenario")
    form.locator("form").evaluate("f => f.setAttribute('novalidate', '')")
    trio = form.locator(".scenario-investigator .trio").first
    physical = trio.locator("input").nth(1)
    physical.fill("31")
    form.locator("button[type=submit]").last.click()
    expect(trio.locator(".error")).to_be_visible()
    said_below(trio, form.locator(".scenario-investigator").first.locator("legend ~ label"))
    width = (page.viewport_size or {}).get("width")
    shot_of(page, ".scenario-investigator >> nth=0", f"ark-record-trauma-refused-{width}")
    physical.fill("")
    form.locator("[name=bag_op_2]").select_option("remove")
    form.locator("[name=bag_count_2]").fill("1")
    form.locator("[name=bag_token_2]").select_option("-8")
    form.locator("button[type=submit]").last.click()
    row = form.locator(".bag-row").nth(1)
    expect(row.locator(".error")).to_have_text(re.compile("−8"))
    said_below(row, form.locator(".bag-row").nth(2))


def said_below(row: Locator, after: Locator) -> None:
    """The row's fields on one line, its message below them and above what comes next."""
    tops = row.evaluate(
        "r => [...r.querySelectorAll('select, input')].map(c => c.getBoundingClientRect().top)"
    )
    assert len(tops) == 3 and max(tops) - min(tops) < 8, tops
    said, next_box = row.locator(".error").bounding_box(), after.first.bounding_box()
    assert said is not None and next_box is not None
    assert min(tops) < said["y"] < next_box["y"], (tops, said, next_box)
