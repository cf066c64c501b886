"""The shared randomizers (issue 10): a dice roller and a deck any game can add, drawn on the
server, recorded, undone; bad input refused next to the field."""

from tests.factories import make_campaign, tracker_id
from tests.journeys import assert_refused, text


def add(client, campaign, **fields):
    return client.post(f"/c/{campaign.pk}/do/tracker.add/", {"region": "add-tracker", **fields})


def test_a_deck_of_counts_draws_every_card_once_then_refuses(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    assert (
        add(owner_client, campaign, kind="deck", name="Omens", items="Green×2, Ace").status_code
        == 302
    )
    deck = tracker_id(campaign, "Omens")
    drawn = []
    for _ in range(3):
        campaign.refresh_from_db()
        response = owner_client.post(
            f"/c/{campaign.pk}/do/deck.draw/", {"tracker": deck, "version": campaign.version}
        )
        assert response.status_code == 302
        campaign.refresh_from_db()
        drawn.append(campaign.state["trackers"][0]["drawn"][-1]["card"])
    assert sorted(drawn) == ["Ace", "Green", "Green"]
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert "0 cards left" in page and drawn[-1] in page
    assert_refused(
        owner_client,
        campaign,
        "do/deck.draw/",
        {"tracker": deck, "version": campaign.version},
        message="The deck is empty.",
    )
    owner_client.post(f"/c/{campaign.pk}/undo/", {})
    campaign.refresh_from_db()
    assert sum(c["count"] for c in campaign.state["trackers"][0]["left"]) == 1


def test_a_dice_roller_counts_the_successes(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    assert add(owner_client, campaign, kind="dice", name="Test", success_on=5).status_code == 302
    dice = tracker_id(campaign, "Test")
    campaign.refresh_from_db()
    response = owner_client.post(
        f"/c/{campaign.pk}/do/dice.roll/", {"tracker": dice, "dice": 4, "version": campaign.version}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    faces = campaign.state["trackers"][0]["rolls"][-1]["faces"]
    hits = sum(1 for f in faces if f >= 5)
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert f"{hits} success" in page and "A die succeeds on 5 or more." in page
    assert_refused(
        owner_client,
        campaign,
        "do/dice.roll/",
        {"tracker": dice, "dice": 21, "version": campaign.version},
        message="Ensure this value is less than or equal to 20.",
    )


def test_a_deck_needs_cards(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    response = add(owner_client, campaign, kind="deck", name="Empty", items="")
    assert response.status_code == 422
    assert "List the deck" in text(response)
    response = add(owner_client, campaign, kind="deck", name="Twice", items="Ace, ace")
    assert "is listed twice" in text(response)
    campaign.refresh_from_db()
    assert campaign.state["trackers"] == []
