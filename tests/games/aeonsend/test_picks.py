"""Aeon's End: Legacy: picking from the sets' facts (mages, nemeses with their life, supply cards,
market set-ups), the difficulties outside the campaign, and the exhausted rule's stickers."""

import pytest

from campaigns.games.aeonsend import cards
from tests.games.aeonsend.helpers import act, state_of
from tests.journeys import snapshot, text


def test_the_set_up_offers_the_legacy_mages(owner_client):
    page = text(owner_client.get("/new/aeonsend/"))
    assert 'list="ae-mages"' in page
    for name in ("Legacy Blue", "Legacy Green", "Legacy Orange", "Legacy Yellow"):
        assert f'<option value="{name}">' in page


def test_a_picked_nemesis_starts_at_its_mats_life(owner_client, ae):
    # rules.md §2a "Nemesis life": from the nemesis mat (the data's starting_life).
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert '<option value="Bladius">40</option>' in page
    act(owner_client, ae, "ae.start", nemesis="Bladius", region="new-game")
    assert state_of(ae)["table"]["nemesis_life"] == 40
    # A typed life still wins, and a typed nemesis needs one.
    act(owner_client, ae, "ae.start", nemesis="Bladius", nemesis_life="44", region="new-game")
    assert state_of(ae)["table"]["nemesis_life"] == 44
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.start", nemesis="Our own", region="new-game")
    assert response.status_code == 422 and "Type its life from its mat." in text(response)
    assert snapshot(ae) == before


@pytest.mark.parametrize("difficulty", ["beginner", "expert", "extinction"])
def test_other_difficulties_only_outside_the_campaign(owner_client, ae, difficulty):
    # rules.md §2e "Difficulty variants (outside the campaign)" [003:1462-1472].
    before = snapshot(ae)
    response = act(
        owner_client, ae, "ae.start", nemesis="Bladius", difficulty=difficulty, region="new-game"
    )
    assert response.status_code == 422
    assert "the other difficulties are for games outside the campaign" in text(response)
    assert snapshot(ae) == before
    act(
        owner_client,
        ae,
        "ae.start",
        nemesis="Bladius",
        difficulty=difficulty,
        outside="on",
        region="new-game",
    )
    assert state_of(ae)["table"]["difficulty"] == difficulty
    assert state_of(ae)["table"]["outside"] is True
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "Started a game outside the campaign against Bladius" in history


def test_a_sticker_on_the_exhausted_rule_shows_a_reminder_and_the_doubling_can_go(owner_client, ae):
    # rules.md §2e: S, T and U sit in the EXHAUSTED section; [003:557-566] the doubling.
    act(owner_client, ae, "ae.start", nemesis="Bladius", region="new-game")
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "changes the exhausted rule" not in page
    act(owner_client, ae, "ae.sticker", letter="T", applied="on", game="", text="", region="x")
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Sticker T changes the exhausted rule" in page
    act(owner_client, ae, "ae.doubling", double="", region="life")
    act(owner_client, ae, "ae.life", who="1", delta=-12, region="life")
    assert state_of(ae)["table"]["gravehold"] == 28
    act(owner_client, ae, "ae.doubling", double="on", region="life")
    act(owner_client, ae, "ae.life", who="1", delta=-1, region="life")
    assert state_of(ae)["table"]["gravehold"] == 26


def test_owned_sets_give_the_randomizer_their_cards(owner_client, ae):
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert "Your Aeon's End sets" in page and 'value="AE"' in page
    act(owner_client, ae, "ae.sets", sets=["AE", "Nameless"], region="sets")
    assert state_of(ae)["sets"] == ["Legacy", "AE", "Nameless"]
    act(owner_client, ae, "ae.set_cards", region="sets")
    names = {card["name"] for card in state_of(ae)["outside"]["cards"]}
    assert names == {card["name"] for card in cards.player_cards(["AE", "Nameless"])}
    assert "Fulmite Slab" in names  # a Legacy card, Gem, cost 6
    # Typed cards stay possible beside them.
    act(owner_client, ae, "ae.card", name="Our own gem", kind="gem", cost=3, region="own-cards")
    assert len(state_of(ae)["outside"]["cards"]) == len(names) + 1
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.sets", sets=["Nope"], region="sets")
    assert response.status_code == 422 and snapshot(ae) == before


def test_a_market_set_up_rolls_nine_piles_that_fit_its_tiles(owner_client, ae):
    act(owner_client, ae, "ae.sets", sets=["AE", "WE"], region="sets")
    act(owner_client, ae, "ae.set_cards", region="sets")
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert "Market Setup 2" in page and "Gems" in page
    act(owner_client, ae, "ae.market", market="market2", region="roll")
    outside = state_of(ae)["outside"]
    by_id = {card["id"]: card for card in outside["cards"]}
    tiles = cards.markets()["market2"]["tiles"]
    assert len(outside["supply"]) == 9
    assert all(cards.fits(t, by_id[i]) for t, i in zip(tiles, outside["supply"], strict=True))
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.market", market="x", region="roll").status_code == 422
    assert snapshot(ae) == before
