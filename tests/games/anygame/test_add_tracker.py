"""“Add a tracker” on a table: only the chosen kind's fields are read, a deck's cards are
refused unless each is a name and a count of 1 to 200, and a name is never cut short."""

import re

import pytest
from django.utils import translation

from campaigns.trackers.manage import AddTrackerForm
from campaigns.trackers.randomizers import parse_cards
from tests.factories import make_campaign
from tests.journeys import assert_refused, text


def add(client, campaign, **fields):
    return client.post(f"/c/{campaign.pk}/do/tracker.add/", {"region": "add-tracker", **fields})


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("Green×99999999999999999999", "“Green×99999999999999999999”: each kind holds 1 to 200"),
        ("Green×-1", "“Green×-1”: each kind holds 1 to 200 cards."),
        ("Green×0", "“Green×0”: each kind holds 1 to 200 cards."),
        ("Green×201", "“Green×201”: each kind holds 1 to 200 cards."),
        ("Ace, ×5", "“×5” needs a name."),
        ("Green x 1.5", "“Green x 1.5”: the count is not a whole number."),
        ("Green×2.0", "“Green×2.0”: the count is not a whole number."),
        ("G" * 61 + "×2", "“" + "G" * 30 + "…” is too long: a name holds at most 60 characters."),
    ],
    ids=[
        "count-huge",
        "count-negative",
        "count-zero",
        "count-past-200",
        "no-name",
        "count-a-fraction",
        "count-with-a-point",
        "name-too-long",
    ],
)
def test_a_deck_with_a_card_that_cannot_be_read_is_refused(owner, owner_client, items, message):
    campaign = make_campaign(owner, trackers=[])
    data = {"region": "add-tracker", "kind": "deck", "name": "Omens", "items": items}
    assert_refused(owner_client, campaign, "do/tracker.add/", data, message=message)


def test_a_deck_reads_names_and_counts_as_before(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    items = "Green×5, Yellow x 9, Red*200, Ace, Xavier, Fox, Box 3, Room x2, " + "N" * 58 + "×2"
    assert add(owner_client, campaign, kind="deck", name="Omens", items=items).status_code == 302
    campaign.refresh_from_db()
    cards = [(c["name"], c["count"]) for c in campaign.state["trackers"][0]["cards"]]
    assert cards == [
        ("Green", 5),
        ("Yellow", 9),
        ("Red", 200),
        ("Ace", 1),
        ("Xavier", 1),
        ("Fox", 1),
        # A Latin x counts only as a word of its own: "Box 3" is one card of that name.
        ("Box 3", 1),
        ("Room", 2),
        ("N" * 58, 2),
    ]


@pytest.mark.parametrize("kind", ["checklist", "turns"])
def test_an_item_too_long_is_refused_with_the_limit(owner, owner_client, kind):
    campaign = make_campaign(owner, trackers=[])
    data = {"region": "add-tracker", "kind": kind, "name": "Them", "items": "Ana, " + "B" * 61}
    message = "“" + "B" * 30 + "…” is too long: a name holds at most 60 characters."
    assert_refused(owner_client, campaign, "do/tracker.add/", data, message=message)


def test_a_name_too_long_is_refused_with_the_limit(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    data = {"region": "add-tracker", "kind": "counter", "name": "D" * 1999}
    assert_refused(owner_client, campaign, "do/tracker.add/", data, message="at most 60 characters")


LEFTOVERS = {
    "minimum": "-99999999",
    "maximum": "abc",
    "start": "1.5",
    "items": "Green×0, ×5",
    "success_on": "7",
    "seconds": "99999999",
}


@pytest.mark.parametrize(
    ("kind", "own"),
    [
        ("coin", {}),
        ("list", {}),
        ("notes", {}),
        ("results", {}),
        ("counter", {"minimum": "0", "maximum": "12", "start": "3"}),
        ("checklist", {"items": "A, B"}),
        ("turns", {"items": "Ana, Ben"}),
        ("deck", {"items": "Green×2, Ace"}),
        ("dice", {"success_on": "4"}),
        ("timer", {"seconds": "90"}),
    ],
)
def test_only_the_chosen_kinds_fields_are_read(owner, owner_client, kind, own):
    """The form shows every kind's fields (it works without JavaScript): a value left in
    another kind's field is ignored, not refused."""
    campaign = make_campaign(owner, trackers=[])
    response = add(owner_client, campaign, kind=kind, name="Thing", **{**LEFTOVERS, **own})
    assert response.status_code == 302, text(response)[-1500:]
    campaign.refresh_from_db()
    (found,) = campaign.state["trackers"]
    assert (found["kind"], found["name"]) == (kind, "Thing")
    if kind == "counter":
        assert (found["minimum"], found["maximum"], found["value"]) == (0, 12, 3)
    if kind == "dice":
        assert found["success_on"] == 4
    if kind == "timer":
        assert found["seconds"] == 90
    if kind == "deck":
        assert sum(c["count"] for c in found["cards"]) == 3
    assert campaign.replay() == campaign.state


@pytest.mark.parametrize(
    ("kind", "field", "value", "message"),
    [
        ("dice", "success_on", "7", "Ensure this value is less than or equal to 6."),
        ("timer", "seconds", "99999999", "Ensure this value is less than or equal to"),
        ("counter", "maximum", "abc", "Enter a whole number."),
    ],
)
def test_the_chosen_kinds_own_fields_are_still_checked(
    owner, owner_client, kind, field, value, message
):
    campaign = make_campaign(owner, trackers=[])
    data = {"region": "add-tracker", "kind": kind, "name": "Thing", field: value}
    response = assert_refused(owner_client, campaign, "do/tracker.add/", data, message=message)
    assert f'name="{field}"' in text(response)


def test_the_browser_leaves_the_kinds_fields_to_the_server(owner, owner_client):
    """Its own check of min, max and step would block a coin over a number left in the timer's
    field (tests/test_browser_table_trackers.py adds one so, with JavaScript and without)."""
    campaign = make_campaign(owner, trackers=[])
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    form = page[page.index('id="add-tracker"') :]
    assert re.search(r'<form method="post" action="[^"]+" hx-post="[^"]+" novalidate>', form)


@pytest.mark.parametrize(
    ("language", "example"),
    [
        ("ja", "緑×5、黄×9、エース"),
        ("zh-hans", "绿色×5、黄色×9、王牌"),
        ("zh-hant", "綠色×5、黃色×9、王牌"),
    ],
)
def test_the_deck_example_is_in_the_phones_words_and_reads_as_it_says(language, example):
    with translation.override(language):
        said = [
            translation.gettext("List the deck's cards, e.g. Green×5, Yellow×9, Ace."),
            str(AddTrackerForm.base_fields["items"].help_text),
        ]
    assert all(example in words for words in said), said
    assert [card["count"] for card in parse_cards(example)] == [5, 9, 1]
