"""Any game's set-up lines (/new/any/): a counter line's trailing numbers are its bounds and
start, a name is never cut short, and a line that cannot be read is refused with a message
naming it, in the phone's language, creating nothing."""

import html

import pytest

from campaigns.models import Campaign
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
