"""Words and small faults at the table (issue 21), in real Chromium at 360×640: the Arkham bag's
"investigator testing" picker shows the whole name (it showed "Rola" for Roland Banks), in
English (light) and Japanese (dark); a campaign renamed on another phone renames the browser's
tab too, without a reload."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.journeys import (
    PHONE,
    create_any_game,
    join_by_invitation,
    no_sideways_scroll,
    post_form,
    settled,
    shot_of,
    sign_up,
)

pytestmark = pytest.mark.browser

SMALL = {**PHONE, "viewport": {"width": 360, "height": 640}}

# Whether the chosen option's name fits in the select beside its arrow.
NAME_FITS = """(select) => {
    const style = getComputedStyle(select);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.options[select.selectedIndex].text;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const room = select.clientWidth - padding;
    return {text, needs: pen.measureText(text).width, room};
}"""


def choose_an_investigator(page: Page, language: str) -> None:
    post_form(page, "/new/arkham/", {"name": "Picker", "campaign": "notz", "difficulty": "easy"})
    page.goto("/")
    page.get_by_role("link", name=re.compile("Picker")).click()
    pk = re.search(r"/c/(\d+)/", page.url).group(1)
    for name in ("Roland Banks", "Agnes Baker"):
        post_form(
            page,
            f"/c/{pk}/do/investigator.add/",
            {"name": name, "player": "Kim", "health": "9", "sanity": "5", "region": "x"},
        )
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.url}])
    page.goto(f"/c/{pk}/p/bag/")


@pytest.mark.parametrize("language,scheme", [("en", "light"), ("ja", "dark")])
def test_the_investigator_picker_shows_the_whole_name_at_360(browser, site, language, scheme):
    context = browser.new_context(base_url=site.url, **SMALL)
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    try:
        sign_up(page, f"picker-{language}")
        choose_an_investigator(page, language)
        picker = page.locator("#bag-who select")
        for name in ("Roland Banks", "Agnes Baker"):
            picker.select_option(label=name)
            fit = picker.evaluate(NAME_FITS)
            assert fit["text"] == name
            assert fit["needs"] <= fit["room"], fit
        expect(page.locator("#bag-who button")).to_be_visible()
        no_sideways_scroll(page)
        shot_of(page, "#bag-test", f"bag-picker-360-{scheme}-{language}")
    finally:
        context.close()


def test_a_rename_on_another_phone_renames_the_browsers_tab(phones):
    owner, friend = phones
    sign_up(owner, "renamer", home=False)
    create_any_game(owner, "Old name")
    table = owner.url
    join_by_invitation(owner, friend, "Fern")
    friend.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": table}])
    friend.goto(table)
    expect(friend).to_have_title(re.compile("Old name"))
    owner.goto(table + "settings/")
    rename = owner.locator("#rename")
    rename.locator("input[name=name]").fill("New name")
    rename.locator("button[type=submit]").click()
    settled(friend, 1)
    expect(friend.locator("#campaign-title")).to_contain_text("New name")
    expect(friend).to_have_title(re.compile("New name"))
    # This phone's own tab too.
    expect(owner).to_have_title(re.compile("New name"))
