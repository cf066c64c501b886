"""Any game's set-up lines (/new/any/): a counter line's trailing numbers are its bounds and
start, a name is never cut short, and a line that cannot be read is refused with a message
naming it, in the phone's language, creating nothing."""

import html

import pytest
from django.utils import translation

from campaigns.games.anygame.forms import SetupForm
from campaigns.models import Campaign
from campaigns.trackers import parse_checklist_line, parse_counter_line
from tests.journeys import text

SETUP = {"name": "Gloomy", "counters": "", "checklists": "", "lists": ""}


def create(client, **lines):
    return client.post("/new/any/", {**SETUP, **lines})


def trackers(campaign):
    return {t["name"]: t for t in campaign.state["trackers"]}


@pytest.mark.parametrize(
    ("field", "line", "message"),
    [
        (
            "counters",
            "Doom 0 99999999999999999999",
            "“Doom 0 99999999999999999999”: keep the numbers within a million either way.",
        ),
        (
            "counters",
            "Doom -99999999999999999999 0",
            "“Doom -99999999999999999999 0”: keep the numbers within a million either way.",
        ),
        (
            "counters",
            "Life 0 30 12345678",
            "“Life 0 30 12345678”: keep the numbers within a million either way.",
        ),
        (
            "counters",
            "Doom 0 9999999",
            "“Doom 0 9999999”: keep the numbers within a million either way.",
        ),
        ("counters", "D" * 1999, "“" + "D" * 30 + "…” is too long: a name holds at most 60"),
        ("counters", "D" * 61 + " 0 12", "is too long: a name holds at most 60 characters."),
        ("checklists", "S" * 61 + ": A, B", "is too long: a name holds at most 60 characters."),
        ("checklists", "Stickers: A, " + "B" * 61, "“" + "B" * 30 + "…” is too long"),
        ("lists", "L" * 61, "“" + "L" * 30 + "…” is too long: a name holds at most 60"),
    ],
    ids=[
        "counter-bound-huge",
        "counter-bound-huge-negative",
        "counter-start-huge",
        "counter-bound-past-a-million",
        "counter-name-1999",
        "counter-name-61",
        "checklist-name-61",
        "checklist-item-61",
        "list-name-61",
    ],
)
def test_a_line_out_of_bounds_or_too_long_is_refused_next_to_its_field(
    owner_client, field, line, message
):
    response = create(owner_client, **{field: line})
    assert response.status_code == 422
    page = html.unescape(text(response))
    assert message in page
    assert f'id="id_{field}_error"' in page
    assert not Campaign.objects.exists()


def test_the_lines_that_were_valid_still_are(owner_client):
    counters = "Doom 0 12\nLife 0 30 30\nRound\nDoom a b\nＨｅａｔ ０ １２\nTide -1000000 1000000"
    name = "N" * 60
    response = create(
        owner_client,
        counters=counters,
        checklists=f"Stickers: A, B\n{name}: {'I' * 60}",
        lists=f"Banished\n{'L' * 60}",
    )
    assert response.status_code == 302, text(response)[-1500:]
    found = trackers(Campaign.objects.get())
    assert (found["Doom"]["minimum"], found["Doom"]["maximum"]) == (0, 12)
    assert (found["Life"]["maximum"], found["Life"]["value"]) == (30, 30)
    assert found["Round"]["minimum"] is None and found["Doom a b"]["maximum"] is None
    assert found["Ｈｅａｔ"]["maximum"] == 12
    assert (found["Tide"]["minimum"], found["Tide"]["maximum"]) == (-1000000, 1000000)
    assert found[name]["items"][0]["label"] == "I" * 60


@pytest.mark.parametrize(
    ("language", "examples"),
    [
        ("ja", ["破滅 0 12\n体力 0 30 30", "シール：A、B、C", "追放したカード"]),
        ("zh-hans", ["毁灭 0 12\n生命 0 30 30", "贴纸：A、B、C", "被放逐的卡牌"]),
        ("zh-hant", ["毀滅 0 12\n生命 0 30 30", "貼紙：A、B、C", "被放逐的卡牌"]),
    ],
)
def test_the_examples_in_the_fields_are_in_the_phones_language(owner_client, language, examples):
    page = html.unescape(text(owner_client.get("/new/any/", HTTP_ACCEPT_LANGUAGE=language)))
    for example in examples:
        assert f'placeholder="{example}"' in page
    assert "Banished cards" not in page


def test_a_refusal_is_in_the_phones_language(owner_client):
    response = owner_client.post(
        "/new/any/",
        {**SETUP, "counters": "Doom 0 99999999999999999999"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 422
    assert "keep the numbers" not in text(response)
    assert "Doom 0 99999999999999999999" in html.unescape(text(response))


@pytest.mark.parametrize(
    ("line", "language", "message"),
    [
        (
            "Doom 0 12\nLife 10 0",
            "en",
            "“Life 10 0”: the lowest value, 10, is above the highest, 0.",
        ),
        ("Life 0 10 11", "en", "“Life 0 10 11”: the start value, 11, is not from 0 to 10."),
        # Three numbers at the most: the fourth from the end is the name's.
        ("Life 0 10 5 7", "en", "“Life 0 10 5 7”: the lowest value, 10, is above the highest, 5."),
        ("Life 10 0", "ja", "「Life 10 0」：最小値 10 が最大値 0 より大きくなっています。"),
        ("Life 0 10 11", "zh-hant", "「Life 0 10 11」：初始值 11 不在 0 到 10 之間。"),
    ],
)
def test_a_counter_line_out_of_its_own_bounds_is_named_next_to_the_counters(
    owner_client, line, language, message
):
    """Not under the campaign's name for the whole form: the counters field says which line, and
    the numbers as it read them."""
    owner_client.cookies["django_language"] = language
    response = create(owner_client, counters=line)
    assert response.status_code == 422
    page = html.unescape(text(response))
    field = page.index('name="counters"')
    said = page.index(message)
    assert field < said and "<label" not in page[field:said]
    assert page.count('class="errorlist') == 1
    assert Campaign.objects.count() == 0


def test_a_checklist_line_without_its_colon_is_refused_not_made_an_empty_checklist(owner_client):
    response = create(owner_client, checklists="Quests a, b, c")
    assert response.status_code == 422
    message = "“Quests a, b, c”: write a colon after the checklist's name, then its items."
    assert message in html.unescape(text(response))
    assert Campaign.objects.count() == 0
    # A name alone, with no items yet, is a checklist still (items can be added on the table).
    assert create(owner_client, checklists="Quests").status_code == 302


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans", "zh-hant"])
def test_each_languages_examples_read_as_they_show(language):
    """What the fields show as an example is what the set-up reads, written as the phone's
    keyboard writes it (full-width colons and commas in Chinese and Japanese)."""
    with translation.override(language):
        fields = SetupForm().fields
        counter = str(fields["counters"].widget.attrs["placeholder"]).splitlines()[0]
        checklist = str(fields["checklists"].widget.attrs["placeholder"])
    assert parse_counter_line(counter)["maximum"] == 12
    assert len(parse_checklist_line(checklist)["items"]) == 3
