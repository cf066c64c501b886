"""Aeon's End: Legacy: the nemesis deck by tier, minions and powers in play, the second victory
condition (rules.md §2b "Nemesis deck", §2c "Nemesis turn", §2d)."""

import pytest

from campaigns.games.aeonsend import cards
from tests.games.aeonsend.helpers import act, state_of
from tests.journeys import snapshot, text


def start(client, campaign):
    act(client, campaign, "ae.start", nemesis="Maelstrom", nemesis_life="50", region="new-game")


def build(client, campaign, **tiers):
    values = {"basic_1": 0, "basic_2": 0, "basic_3": 0, **tiers}
    return act(client, campaign, "ae.nemesis_deck", region="nemesis", **values)


def nemesis_draw(client, campaign):
    return act(client, campaign, "ae.nemesis_draw", region="nemesis", page="turns")


def table(campaign):
    return state_of(campaign)["table"]


def test_the_basic_cards_follow_the_player_count_table():
    # rules.md §2b: Tier 1: 1/3/5/8, Tier 2: 3/5/6/7, Tier 3: 7/7/7/7 (the data's table).
    assert [cards.basic_nemesis_cards(n) for n in (1, 2, 3, 4)] == [
        (1, 3, 7),
        (3, 5, 7),
        (5, 6, 7),
        (8, 7, 7),
    ]


def test_the_deck_form_is_filled_from_the_table_for_the_player_count(owner_client, ae):
    start(owner_client, ae)
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    for name, value in (("basic_1", 3), ("basic_2", 5), ("basic_3", 7)):
        assert f'name="{name}" value="{value}"' in page


def test_draws_go_tier_by_tier_and_an_empty_deck_unleashes_three_times(owner_client, ae):
    # [003:1419-1430]: tier 1 on top, then 2, then 3; [003:502]: empty → Unleash three times.
    start(owner_client, ae)
    build(owner_client, ae, basic_1=1, own_2=1, basic_3=1)
    assert table(ae)["nemesis_deck"]["tiers"] == [1, 1, 1]
    tiers = []
    for _ in range(3):
        nemesis_draw(owner_client, ae)
        tiers.append(table(ae)["nemesis_deck"]["tiers"][:])
    assert tiers == [[0, 1, 1], [0, 0, 1], [0, 0, 0]]
    nemesis_draw(owner_client, ae)
    assert table(ae)["nemesis_deck"]["unleashed"] == 3
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "The nemesis drew a tier 2 card (1 left)" in history
    assert "The nemesis deck is empty: the nemesis Unleashes three times instead" in history
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Unleash three times instead" in page


def test_an_empty_deck_with_nothing_in_play_wins_at_the_end_of_the_turn(owner_client, ae):
    # rules.md §2d: "no cards in its deck and no minions or powers in play at the end of any
    # turn" → win; checked before the next turn order card is drawn.
    start(owner_client, ae)
    build(owner_client, ae, basic_1=1)
    act(owner_client, ae, "ae.in_play", kind="minion", name="Husk", value=2, region="nemesis")
    nemesis_draw(owner_client, ae)
    act(owner_client, ae, "ae.draw", region="deck", page="turns")
    assert "end" not in table(ae) and table(ae)["deck"]["discard"]
    minion = table(ae)["in_play"][0]
    act(owner_client, ae, "ae.tokens", item=minion["id"], delta=-2, region="nemesis")
    assert table(ae)["in_play"] == []
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "second victory condition" in page
    drawn = len(table(ae)["deck"]["discard"])
    act(owner_client, ae, "ae.draw", region="deck", page="turns")
    assert table(ae)["end"] == "deck" and len(table(ae)["deck"]["discard"]) == drawn
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "you win!" in page
    assert 'value="win" required checked' in text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    assert act(owner_client, ae, "ae.life", who="0", delta=-1, region="life").status_code == 422


def test_powers_lose_tokens_and_are_discarded_at_0(owner_client, ae):
    start(owner_client, ae)
    act(owner_client, ae, "ae.in_play", kind="power", name="Storm", value=2, region="nemesis")
    power = table(ae)["in_play"][0]
    act(owner_client, ae, "ae.tokens", item=power["id"], delta=-1, region="nemesis")
    assert table(ae)["in_play"][0]["value"] == 1
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Storm" in page
    act(owner_client, ae, "ae.tokens", item=power["id"], delta=-1, region="nemesis")
    assert table(ae)["in_play"] == []
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "Storm has no power tokens left: resolve its power, then discard it" in history


@pytest.mark.parametrize(
    "values",
    [
        {"basic_1": -1},
        {"basic_1": "x"},
        {"basic_1": 999},
        {},
    ],
)
def test_a_bad_deck_is_refused_with_a_message(owner_client, ae, values):
    start(owner_client, ae)
    before = snapshot(ae)
    response = build(owner_client, ae, **values)
    assert response.status_code == 422
    assert snapshot(ae) == before


def test_bad_cards_in_play_are_refused(owner_client, ae):
    start(owner_client, ae)
    before = snapshot(ae)
    for values in (
        {"kind": "spell", "name": "X", "value": 1},
        {"kind": "minion", "name": "", "value": 1},
        {"kind": "minion", "name": "X", "value": 0},
    ):
        response = act(owner_client, ae, "ae.in_play", region="nemesis", **values)
        assert response.status_code == 422
    assert (
        act(owner_client, ae, "ae.tokens", item=99, delta=-1, region="nemesis").status_code == 422
    )
    assert snapshot(ae) == before


def test_nothing_before_a_game(owner_client, ae):
    assert build(owner_client, ae, basic_1=2).status_code == 422
    assert nemesis_draw(owner_client, ae).status_code == 422
