"""“Add a tracker” on a table: a deck's cards are refused unless each is a name (never cut
short) and a count of 1 to 200."""

import pytest

from tests.factories import make_campaign
from tests.journeys import assert_refused


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
    items = "Green×5, Yellow x 9, Red*200, Ace, Xavier, Fox, " + "N" * 58 + "×2"
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
        ("N" * 58, 2),
    ]
