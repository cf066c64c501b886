"""The mythos deck on the phone: drawn on the server with no order stored, shown on every phone,
refused from a stale screen or an empty deck, recorded from the table's own deck, undone."""

import json

from campaigns.models import Campaign
from tests.games.eldritch.helpers import game, make_eldritch, post, text
from tests.journeys import assert_refused


def draw(client, campaign, action="eh.draw", **data):
    campaign.refresh_from_db()
    return post(client, campaign, action, version=campaign.version, region="eh-mythos", **data)


def test_a_draw_shows_its_colour_and_the_counts_and_undo_restores_the_deck(owner, owner_client):
    eh = make_eldritch(owner)
    before = game(eh)["deck"]
    assert draw(owner_client, eh).status_code == 302
    g = game(eh)
    colour = g["draws"][-1]["colour"]
    assert g["deck"]["stages"][0][colour] == before["stages"][0][colour] - 1
    page = text(owner_client.get(f"/c/{eh.pk}/"))
    assert f"Take a {colour.title()} card (stage I)" in page
    assert "15 cards left" in page
    owner_client.post(f"/c/{eh.pk}/undo/", {})
    assert game(eh)["deck"] == before and game(eh)["draws"] == []


def test_a_draw_from_a_stale_screen_is_refused(owner, owner_client):
    eh = make_eldritch(owner)
    seen = eh.version
    assert draw(owner_client, eh).status_code == 302
    response = post(owner_client, eh, "eh.draw", version=seen, region="eh-mythos")
    assert response.status_code == 409
    assert len(game(eh)["draws"]) == 1


def test_the_deck_runs_through_the_stages_and_an_empty_deck_is_refused(owner, owner_client):
    eh = make_eldritch(owner)
    stages = []
    for number in range(16):
        assert draw(owner_client, eh).status_code == 302
        stages.append(game(eh)["draws"][-1]["stage"])
        if number == 4:
            assert "Stage II has begun." in text(owner_client.get(f"/c/{eh.pk}/"))
    assert stages == [0] * 4 + [1] * 6 + [2] * 6
    eh.refresh_from_db()
    assert_refused(
        owner_client,
        eh,
        "do/eh.draw/",
        {"version": eh.version, "region": "eh-mythos"},
        message="The mythos deck is empty: no card can be drawn",
    )
    # A new round's Mythos phase with no card to draw: the loss at its end.
    for phase in ("action", "encounter", "mythos", "action", "encounter"):
        post(owner_client, eh, "eh.phase", phase=phase, region="eh-round")
    assert "No mythos card could be drawn" in text(owner_client.get(f"/c/{eh.pk}/"))
    post(owner_client, eh, "eh.phase", phase="mythos", region="eh-round")
    assert game(eh)["outcome"] == {"result": "loss", "reason": "mythos"}


def test_a_recorded_draw_counts_the_same_and_a_missing_colour_is_refused(owner, owner_client):
    eh = make_eldritch(owner)
    assert draw(owner_client, eh, "eh.record", colour="blue").status_code == 302
    assert game(eh)["deck"]["stages"][0] == {"green": 1, "yellow": 2, "blue": 0}
    eh.refresh_from_db()
    assert_refused(
        owner_client,
        eh,
        "do/eh.record/",
        {"colour": "blue", "version": eh.version, "region": "eh-mythos"},
        message="Stage I has no Blue card left.",
    )


def test_no_page_nor_export_tells_the_next_card(owner, owner_client):
    """No order is stored: the state holds counts only, so nothing can leak what comes next."""
    eh = make_eldritch(owner)
    draw(owner_client, eh)
    deck = game(eh)["deck"]
    assert set(deck) == {"stages"}
    assert all(set(stage) == {"green", "yellow", "blue"} for stage in deck["stages"])
    exported = owner_client.get(f"/c/{eh.pk}/export.json")
    assert exported.status_code == 200
    events = json.loads(exported.content)["events"]
    # The draw's event holds the colour drawn, and nothing about the cards left.
    assert [e["data"] for e in events] == [
        {"colour": game(eh)["draws"][0]["colour"], "recorded": False}
    ]
    assert Campaign.objects.get(pk=eh.pk).state["game"]["deck"] == deck
