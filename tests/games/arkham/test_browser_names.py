"""Names as the group's cards print them, at a Japanese table on two phones of 360×640: the
keeper picks Roland Banks from the list (which tells his two cards apart), gives him the name
the group's Japanese cards print, and the other phone reads it without a reload, his health and
sanity kept."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import (
    PHONE,
    join_by_invitation,
    no_sideways_scroll,
    settled,
    shot,
    sign_up,
    small_tap_targets,
)

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
OWN_NAME = "ローランド・バンクス"


def phone(browser, site) -> Page:
    context = browser.new_context(base_url=site.url, **{**PHONE, "viewport": SMALL})
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def in_japanese(page: Page) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": page.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def test_a_japanese_group_names_its_investigator_once_and_every_phone_reads_it(browser, site):
    keeper, friend = phone(browser, site), phone(browser, site)
    sign_up(keeper, "namekeeper")
    keeper.goto("/new/arkham/")
    keeper.locator("input[name=name]").fill("アーカムの夜")
    keeper.locator("select[name=campaign]").select_option("notz")
    keeper.locator("select[name=difficulty]").select_option("standard")
    keeper.locator("form.card button[type=submit]").click()
    expect(keeper.get_by_role("heading", name="アーカムの夜", exact=True)).to_be_visible()
    table = keeper.url
    join_by_invitation(keeper, friend, "Fern")
    keeper.goto(table)
    in_japanese(keeper)
    friend.goto(table)
    in_japanese(friend)

    # The list tells Roland's two cards apart: his class, and "parallel" on the other.
    add = keeper.locator("#add-investigator")
    picker = add.locator("select[name=code]")
    options = picker.locator("option").all_inner_texts()
    assert "Roland Banks: The Fed · Guardian (9/5)" in options
    assert "Roland Banks: The Fed · Guardian · パラレル (9/5)" in options
    assert len(options) == len(set(options))
    picker.select_option(label="Roland Banks: The Fed · Guardian (9/5)")
    add.locator("input[name=player]").fill("Keeper")
    add.locator("button[type=submit]").click()
    card = keeper.locator("article.inv").first
    expect(card.locator(".inv-name bdi")).to_have_text("Roland Banks")
    settled(keeper, 1)

    # The group's own name, once, from the investigator's card.
    card.locator("summary").first.click()
    card.locator("summary", has_text="グループでの名前").click()
    field = card.locator("input[name=called]")
    expect(field).to_have_value("Roland Banks")  # no Japanese edition's name is known
    field.fill(OWN_NAME)
    shot(keeper, "names-ja-rename-360", parts=True)
    no_sideways_scroll(keeper)
    assert small_tap_targets(keeper) == []
    card.get_by_role("button", name="名前を変更").click()
    expect(card.locator(".inv-name bdi")).to_have_text(OWN_NAME)
    expect(card).to_contain_text("体力9、正気度5")  # the card's facts stay

    # The other phone reads it without a reload, the facts kept.
    other = friend.locator("article.inv").first
    expect(other.locator(".inv-name bdi")).to_have_text(OWN_NAME)
    expect(other).to_contain_text("体力9、正気度5")
    settled(friend, 2)
    shot(friend, "names-ja-second-phone-360", parts=True)
    no_sideways_scroll(friend)

    # The chaos bag page and the history read it too.
    friend.get_by_role("link", name=re.compile("カオスバッグ")).first.click()
    expect(friend.locator("select[name=investigator] option:checked")).to_have_text(OWN_NAME)
    # An undo, then the history: its line is set apart without italics (Japanese has none).
    keeper.locator("#undo-bar").get_by_role("button", name="元に戻す").click()
    settled(keeper, 3)
    friend.goto(table.rstrip("/") + "/history/")
    expect(friend.locator("main")).to_contain_text(OWN_NAME)
    undone = friend.locator("#history .kind-undo .text")
    expect(undone).to_have_count(1)
    assert undone.evaluate("el => getComputedStyle(el).fontStyle") == "normal"
    shot(friend, "names-ja-history-360", parts=True)
    no_sideways_scroll(friend)
    for page in (keeper, friend):
        page.context.close()
