"""Aeon's End: Legacy at the table: the turn order deck (never its undrawn order) and life."""

import copy
import random
import re

import pytest

from campaigns.models import Campaign, Membership
from tests.factories import client_for
from tests.games.aeonsend.helpers import GAME, PAGES, act, make_ae, state_of
from tests.journeys import HTMX, snapshot, text

# The turn order deck


def deck(campaign) -> dict:
    return state_of(campaign)["table"]["deck"]


def test_drawing_through_a_reshuffle(owner_client, ae):
    drawn = []
    for _ in range(6):
        response = act(owner_client, ae, "ae.draw", region="deck", page="turns")
        assert response.status_code == 302
        drawn.append(deck(ae)["current"]["card"])
    assert sorted(drawn) == ["Ada", "Ada", "Bo", "Bo", "Nemesis", "Nemesis"]
    assert deck(ae)["pool"] == [] and deck(ae)["round"] == 1
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "the next draw shuffles all six cards into a new deck" in page
    act(owner_client, ae, "ae.draw", region="deck", page="turns")
    assert deck(ae)["round"] == 2 and len(deck(ae)["pool"]) == 5
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Turn order · round 2" in page and "5 cards in the deck" in page
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "shuffled every card into a new deck (round 2)" in history


def test_the_drawn_card_is_shown_with_a_buzz(owner_client, ae):
    response = act(owner_client, ae, "ae.draw", htmx=True, region="deck", page="turns")
    body = text(response)
    card = deck(ae)["current"]
    assert "data-buzz" in body
    if card["card"] == "Nemesis":
        assert "The nemesis's turn" in body
    else:
        assert f"{card['card']}'s turn" in body


def test_undo_of_a_draw_restores_the_exact_previous_deck(owner, ae):
    for _ in range(4):
        ae.apply("ae.draw", {}, owner)
    before = copy.deepcopy(ae.state)
    ae.apply("ae.draw", {}, owner)
    assert ae.state["table"]["deck"] != before["table"]["deck"]
    ae.undo(owner)
    assert ae.state == before
    ae.redo(owner)
    fresh = Campaign.objects.get(pk=ae.pk)
    assert fresh.replay() == fresh.state


def test_a_draw_is_the_same_card_on_replay_whatever_the_random_generator(owner, ae):
    event = ae.apply("ae.draw", {}, owner, rng=random.Random(7))
    for seed in range(5):
        state = copy.deepcopy(ae.initial_state)
        GAME.commands["ae.draw"].apply(state, copy.deepcopy(event.data))
        assert state == ae.state, seed


def test_a_draw_recorded_for_a_card_not_in_the_deck_is_refused(owner, ae):
    state = copy.deepcopy(ae.state)
    with pytest.raises(Exception, match="does not hold that card"):
        GAME.commands["ae.draw"].apply(state, {"card": "Zed"})


def test_three_players_wild_card_asks_who_takes_the_turn(owner, owner_client):
    campaign = make_ae(owner, "Ada", "Bo", "Cy")
    draws = 0
    while deck(campaign)["current"] is None or deck(campaign)["current"]["card"] != "Wild":
        act(owner_client, campaign, "ae.draw")
        draws += 1
        assert draws < 30
    page = text(owner_client.get(f"/c/{campaign.pk}/p/turns/"))
    assert "Wild card: who takes this turn?" in page
    for name in ("Ada", "Bo", "Cy"):
        assert f'name="name" value="{name}"' in page
    before = snapshot(campaign)
    response = act(owner_client, campaign, "ae.draw", region="deck")
    assert response.status_code == 422
    assert "First choose who takes the turn" in text(response)
    assert act(owner_client, campaign, "ae.choose", name="Zed").status_code == 422
    assert snapshot(campaign) == before
    act(owner_client, campaign, "ae.choose", name="Cy")
    assert deck(campaign)["current"] == {"card": "Wild", "player": "Cy", "nemesis": False}


def test_four_players_pair_cards_and_turn_tokens(owner, owner_client):
    campaign = make_ae(owner, "Ada", "Bo", "Cy", "Di")
    seen: dict[str, str] = {}
    for _ in range(6):
        act(owner_client, campaign, "ae.draw")
        current = deck(campaign)["current"]
        if current["card"] == "Nemesis":
            continue
        if current["card"] not in seen:
            assert deck(campaign)["pending"]["options"] == current["card"].split("/")
            first = current["card"].split("/")[1]
            act(owner_client, campaign, "ae.choose", name=first)
            seen[current["card"]] = first
            page = text(owner_client.get(f"/c/{campaign.pk}/p/turns/"))
            assert f"{current['card']} token: on {first}'s mat" in page
        else:
            # The matching card goes to the other player, and the token back to the middle.
            other = next(n for n in current["card"].split("/") if n != seen[current["card"]])
            assert current["player"] == other
            assert deck(campaign)["tokens"][current["card"]] is None


def test_card_effects_reveal_top_bottom_and_shuffle(owner_client, ae):
    act(owner_client, ae, "ae.draw")
    act(owner_client, ae, "ae.draw")
    response = act(owner_client, ae, "ae.reveal", region="deck")
    assert response.status_code == 302
    top = deck(ae)["top"]
    assert len(top) == 1
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Known on top:" in page
    first = deck(ae)["discard"][0]
    act(owner_client, ae, "ae.bottom", card=first)
    assert deck(ae)["bottom"] == [first]
    second = deck(ae)["discard"][0]
    act(owner_client, ae, "ae.top", card=second)
    assert deck(ae)["top"][0] == second
    act(owner_client, ae, "ae.draw")
    assert deck(ae)["current"]["card"] == second
    act(owner_client, ae, "ae.shuffle", card=second)
    assert deck(ae)["top"] == [] and deck(ae)["bottom"] == []
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.top", card="Zed").status_code == 422
    assert snapshot(ae) == before


@pytest.mark.parametrize("action", ["ae.draw", "ae.reveal"])
def test_a_second_tap_from_a_screen_that_had_not_seen_the_first_is_refused(
    owner_client, player, ae, action
):
    """Two phones tap Draw at once (or one phone twice, 120 ms apart): both posts carry the
    version their screen showed, so the second is refused and shows what the first did."""
    Membership.objects.create(campaign=ae, user=player, role=Membership.Role.PLAYER)
    seen = ae.version
    taps = {"region": "deck", "page": "turns", "version": seen}
    first = act(owner_client, ae, action, htmx=True, **taps)
    assert first.status_code == 200
    for other_phone, says in [
        (owner_client, "Changed meanwhile by your earlier tap on this phone"),
        (client_for(player), "Changed meanwhile on another phone"),
    ]:
        second = act(other_phone, ae, action, htmx=True, **taps)
        assert second.status_code == 409
        body = text(second)
        assert says in body
        assert "pool" not in body
        shown = deck(ae)
        if action == "ae.draw":
            assert 'data-draw="1-1"' in body and "5 cards in the deck" in body
        else:
            assert "Known on top:" in body and shown["top"][0] in body
    ae.refresh_from_db()
    assert ae.version == seen + 1
    assert len(deck(ae)["discard"]) + len(deck(ae)["top"]) == 1


@pytest.mark.sweep
def test_no_page_or_partial_contains_the_undrawn_order(owner, owner_client):
    """The deck keeps no order for undrawn cards; the pages show only the public view."""
    campaign = make_ae(owner, "Ada", "Bo", "Cy", "Di")
    for _ in range(3):
        campaign.apply("ae.draw", {}, owner)
        if campaign.state["table"]["deck"]["pending"]:
            options = campaign.state["table"]["deck"]["pending"]["options"]
            campaign.apply("ae.choose", {"name": options[0]}, owner)
    stored = campaign.state["table"]["deck"]
    assert stored["pool"] == sorted(stored["pool"])
    urls = [f"/c/{campaign.pk}/{path}" for path in PAGES] + [
        f"/c/{campaign.pk}/history/",
        f"/c/{campaign.pk}/members/",
        f"/c/{campaign.pk}/settings/",
    ]
    for url in urls:
        for headers in ({}, HTMX):
            body = text(owner_client.get(url, **headers))
            assert "pool" not in body, url
            assert "&#x27;discard&#x27;" not in body and "&quot;discard&quot;" not in body, url
            # The cards still in the deck are listed only in sorted order.
            listed = re.search(r'class="ae-remaining">(.*?)</p>', body, re.S)
            if listed:
                shown = re.findall(
                    r'<span class="ae-tocard[^"]*">(?:<span[^>]*></span>)*([^<]+)</span>',
                    listed.group(1),
                )
                assert shown == sorted(set(stored["pool"]), key=str.casefold), shown


# Life at the table


def start(client, campaign, **values):
    values = {"nemesis": "Maelstrom", "nemesis_life": "50", "region": "new-game", **values}
    return act(client, campaign, "ae.start", **values)


def life(client, campaign, who, delta, **extra):
    return act(client, campaign, "ae.life", who=who, delta=delta, region="life", **extra)


def table(campaign) -> dict:
    return state_of(campaign)["table"]


def test_life_needs_a_game_and_starts_at_the_rulebook_values(owner_client, ae):
    assert life(owner_client, ae, "gravehold", -1).status_code == 422
    start(owner_client, ae)
    t = table(ae)
    assert (t["gravehold"], t["nemesis_life"], t["lives"]) == (30, 50, [10, 10])
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "against Maelstrom (Standard)" in page


def test_gravehold_in_the_history_is_in_the_readers_language(owner_client, ae):
    """A damage tapped on a Chinese phone reads "Gravehold" on an English phone and
    グレイブホールド on a Japanese one (it was kept in the words of the phone that tapped)."""
    start(owner_client, ae)
    owner_client.cookies["django_language"] = "zh-hant"
    assert life(owner_client, ae, "gravehold", -3).status_code == 302
    owner_client.cookies["django_language"] = "en"
    assert "Gravehold suffers 3 damage" in text(owner_client.get(f"/c/{ae.pk}/history/"))
    owner_client.cookies["django_language"] = "ja"
    assert "グレイブホールドに3ダメージ" in text(owner_client.get(f"/c/{ae.pk}/history/"))


@pytest.mark.parametrize(
    "difficulty, expected",
    [
        ("beginner", (35, 40, [12, 12])),
        ("expert", (30, 50, [10, 10])),
        ("extinction", (25, 60, [8, 8])),
    ],
)
def test_difficulty_variants_set_the_starting_values(owner_client, ae, difficulty, expected):
    start(owner_client, ae, difficulty=difficulty, outside="on")
    t = table(ae)
    assert (t["gravehold"], t["nemesis_life"], t["lives"]) == expected
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert ("Increased Difficulty rules." in page) == (difficulty != "beginner")


def test_nobody_goes_above_the_starting_life(owner_client, ae):
    start(owner_client, ae)
    before = snapshot(ae)
    response = life(owner_client, ae, "gravehold", 1)
    assert response.status_code == 422
    assert "already at its starting life" in text(response)
    assert snapshot(ae) == before
    life(owner_client, ae, "0", -3)
    life(owner_client, ae, "0", 5, sign="heal")
    assert table(ae)["lives"][0] == 10


def test_the_amount_form_stays_on_whom_this_phone_hit_and_refuses_a_negative_amount(
    owner_client, player, ae
):
    """After a damage to Bo, the answer to that tap keeps Bo chosen (the next hit is often the
    same mage's); another phone's page still opens on Gravehold. −3 with Damage is refused
    next to the amount, not dealt as 3."""
    start(owner_client, ae)
    answer = text(life(owner_client, ae, "1", 4, htmx=True, sign="damage", page="turns"))
    assert re.search(r'<option\s+value="1" selected>Bo</option>', answer)
    other = client_for(player)
    assert 'value="1" selected' not in text(other.get(f"/c/{ae.pk}/p/turns/"))
    answer = text(life(owner_client, ae, "nemesis", 2, htmx=True, sign="damage", page="turns"))
    assert 'value="nemesis" selected>Maelstrom' in answer
    before = snapshot(ae)
    response = life(owner_client, ae, "1", -3, sign="damage")
    assert response.status_code == 422
    assert "Ensure this value is greater than or equal to 1." in text(response)
    assert snapshot(ae) == before


@pytest.mark.parametrize("who", ["²", "①", "00", "٠", "9", "-1"])
def test_life_for_a_player_who_does_not_exist_is_refused(owner_client, ae, who):
    start(owner_client, ae)
    before = snapshot(ae)
    response = life(owner_client, ae, who, -1)
    assert response.status_code == 422
    assert "There is no such player" in text(response)
    assert snapshot(ae) == before


def test_damage_to_an_exhausted_player_is_dealt_twice_to_gravehold(owner_client, ae):
    start(owner_client, ae)
    life(owner_client, ae, "1", 7, sign="damage")
    assert table(ae)["lives"] == [10, 3]
    life(owner_client, ae, "1", -5)  # 3 taken, 2 in excess at exhaustion
    assert table(ae)["lives"] == [10, 0] and table(ae)["gravehold"] == 26
    life(owner_client, ae, "1", -2)
    assert table(ae)["gravehold"] == 22
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "Bo suffers 2 damage (exhausted: Gravehold suffers 4)" in history
    response = life(owner_client, ae, "1", 1)
    assert response.status_code == 422
    assert "exhausted and cannot gain life" in text(response)
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "exhausted</span>" in page


def test_the_end_conditions_are_announced(owner, owner_client, ae):
    start(owner_client, ae, nemesis_life="3")
    life(owner_client, ae, "nemesis", -5)
    assert table(ae)["nemesis_life"] == 0
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "The nemesis has no life left: you win!" in page
    assert "Record this game in the score chart" in page
    chart = text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    assert 'value="win" required checked' in chart
    start(owner_client, ae)
    life(owner_client, ae, "0", -10)
    life(owner_client, ae, "1", -10)
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Every player is exhausted: you lose." in page
    start(owner_client, ae)
    life(owner_client, ae, "gravehold", -30)
    assert "Gravehold has fallen: you lose." in text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    solo = make_ae(owner, "Ada", "Bo", solo=True, name="Solo")
    start(owner_client, solo)
    life(owner_client, solo, "0", -10)
    life(owner_client, solo, "1", -10)
    page = text(owner_client.get(f"/c/{solo.pk}/p/turns/"))
    assert "Every player is exhausted: you lose." not in page
    assert "in solo play you lose only when Gravehold falls" in page


def test_the_turn_order_decks_refusals_are_shown_in_the_readers_language(owner, owner_client):
    campaign = make_ae(owner, "Ada", "Bo", "Cy")
    while not campaign.state["table"]["deck"]["pending"]:
        campaign.apply("ae.draw", {}, owner)
    owner_client.post("/language/", {"language": "ja", "next": "/"})
    response = act(owner_client, campaign, "ae.choose", name="Zed", region="deck", page="turns")
    assert response.status_code == 422
    assert "Zedはこのターンを行えません。Ada, Bo, Cyから選んでください。" in text(response)


def test_a_nemesis_life_that_is_no_whole_number_gets_one_message(owner_client, ae):
    """A life of 1.5 gets Django's whole-number message, not also "type its life from its mat"."""
    before = snapshot(ae)
    response = start(owner_client, ae, nemesis_life="1.5")
    assert response.status_code == 422
    page = text(response)
    assert "Enter a whole number." in page
    assert "Type its life from its mat." not in page
    assert snapshot(ae) == before
