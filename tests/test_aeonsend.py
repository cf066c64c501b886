"""Aeon's End: Legacy: creating a campaign, every command through the real views, the rules the
commands enforce, and what the pages show (never the order of the undrawn turn order cards)."""

import copy
import random
import re

import pytest

from campaigns.games import GAMES
from campaigns.games.aeonsend import data
from campaigns.models import Campaign, Membership
from tests.conftest import HTMX, make_user, snapshot, text

GAME = GAMES["aeonsend"]
PAGES = {
    "": "Banished cards",
    "p/turns/": "Draw the first card",
    "p/chart/": "Record a game",
    "p/legacy/": "Rulebook stickers",
    "p/outside/": "Nemesis deck",
}


def setup_for(*characters: str, solo: bool = False) -> dict:
    colours = list(data.COLOURS)
    return {
        "players": [
            {
                "player": f"Player {n}",
                "character": name,
                "mat": str(n),
                "side": "front",
                "colour": colours[n],
            }
            for n, name in enumerate(characters)
        ],
        "solo": solo,
    }


def make_ae(owner, *characters: str, solo: bool = False, name="Gravehold") -> Campaign:
    setup = setup_for(*(characters or ("Ada", "Bo")), solo=solo)
    state = GAME.initial_state(setup)
    state.update(name=name, archived=False)
    campaign = Campaign.objects.create(
        game="aeonsend", name=name, setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
    return campaign


@pytest.fixture
def ae(owner):
    return make_ae(owner)


def act(client, campaign, action: str, htmx: bool = False, **values):
    values.setdefault("region", "x")
    return client.post(f"/c/{campaign.pk}/do/{action}/", values, **(HTMX if htmx else {}))


def state_of(campaign) -> dict:
    campaign.refresh_from_db()
    return campaign.state


# Creating a campaign


def creation_data(count: int = 2, **extra) -> dict:
    values = {"name": "Our legacy", "player_count": count}
    for n in range(1, count + 1):
        values.update(
            {
                f"p{n}_player": f"Friend {n}",
                f"p{n}_character": f"Mage {n}",
                f"p{n}_mat": str(n),
                f"p{n}_side": "front",
                f"p{n}_colour": list(data.COLOURS)[n - 1],
            }
        )
    values.update(extra)
    return values


def test_the_new_campaign_form_asks_for_the_players(owner_client):
    page = text(owner_client.get("/new/aeonsend/"))
    assert 'name="player_count"' in page
    for n in range(1, 5):
        assert f'name="p{n}_character"' in page
    assert "Fixed for the whole campaign" in page


def test_creating_a_two_player_campaign(owner_client):
    response = owner_client.post("/new/aeonsend/", creation_data(2))
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Our legacy")
    state = campaign.state
    assert [p["character"] for p in state["players"]] == ["Mage 1", "Mage 2"]
    assert state["players"][0]["player"] == "Friend 1"
    assert state["chapter"] == "1-beginning"
    assert state["solo"] is False
    assert sorted(state["table"]["deck"]["pool"]) == sorted(
        ["Mage 1", "Mage 1", "Mage 2", "Mage 2", "Nemesis", "Nemesis"]
    )
    assert len(state["stickers"]) == 26
    known = [letter for letter, s in state["stickers"].items() if s["timing"]]
    assert len(known) == 21
    assert [letter for letter, s in state["stickers"].items() if not s["timing"]] == list("FGHIV")


def test_one_player_is_solo(owner_client):
    owner_client.post("/new/aeonsend/", creation_data(1))
    campaign = Campaign.objects.get(name="Our legacy")
    assert campaign.state["solo"] is True
    assert campaign.state["table"]["deck"]["pool"].count("Mage 1") == 4


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"player_count": 5}, "player_count", "there is no fifth"),
        ({"p5_character": "Fifth", "p5_player": "Eve"}, "player_count", "there is no fifth"),
        ({"player_count": 0}, "player_count", "1 to 4 players"),
        ({"p2_character": ""}, "p2_character", "Type the character"),
        ({"p2_character": "Mage 1"}, "p2_character", "same name"),
        ({"p2_character": "Nemesis"}, "p2_character", "turn order card"),
        ({"p2_character": "A/B"}, "p2_character", "cannot contain"),
        ({"p3_character": "Third"}, "player_count", "raise the number of players"),
        ({"p1_colour": "mauve"}, "p1_colour", "Select a valid choice"),
        ({"p1_colour": "red", "p2_colour": "red"}, "p2_colour", "colour of their own"),
    ],
)
def test_a_bad_setup_is_refused_next_to_the_field(owner_client, change, field, message):
    response = owner_client.post("/new/aeonsend/", creation_data(2, **change))
    assert response.status_code == 422
    page = text(response)
    assert message in page
    # The message sits in the field's own group, between its label and its input.
    group = re.search(rf'<label for="id_{field}">.*?\sid="id_{field}"', page, re.S)
    assert group and message in group.group(0), field
    assert not Campaign.objects.exists()


# Every page renders, for an owner and a viewer


def test_every_page_renders(ae, owner, client):
    client.force_login(owner)
    for path, expected in PAGES.items():
        response = client.get(f"/c/{ae.pk}/{path}")
        assert response.status_code == 200, path
        assert expected in text(response)
        partial = client.get(f"/c/{ae.pk}/{path}", **HTMX)
        assert partial.status_code == 200
        assert "<html" not in text(partial)
    viewer = make_user("vic")
    Membership.objects.create(campaign=ae, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    for path in PAGES:
        page = text(client.get(f"/c/{ae.pk}/{path}"))
        assert "ae.draw" not in page and "ae.banish/" not in page


# The chapter and the stickers due


def move_to(client, campaign, point: str) -> None:
    while state_of(campaign)["chapter"] != point:
        here = data.POINTS.index(campaign.state["chapter"])
        response = act(client, campaign, "ae.chapter", to=data.POINTS[here + 1])
        assert response.status_code == 302


def test_the_chapter_moves_forward_one_point_at_a_time(owner_client, ae):
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "At the beginning of Chapter 1" in page
    assert "Move on to the end of Chapter 1" in page
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.chapter", region="chapter", to="2-end")
    assert response.status_code == 422
    assert snapshot(ae) == before
    move_to(owner_client, ae, "1-end")
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "Next: the beginning of Chapter 2." in page
    assert "There the rulebook unlocks the stickers S." in page


def test_end_of_chapter_2_lists_the_stickers_due_and_applies_them_in_one_event(owner_client, ae):
    move_to(owner_client, ae, "2-end")
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    due = re.findall(r'name="letters" value="(\w)" checked', page)
    assert due == ["A", "N", "O", "Q", "Y"]
    # S (beginning of Chapter 2) was not applied: it is offered, not ticked.
    assert re.findall(r'name="letters" value="(\w)">', page) == ["S"]
    version = state_of(ae)["stickers"] and ae.version
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.stickers/",
        {"letters": ["A", "N", "O", "Q", "Y"], "game": "3", "region": "chapter"},
    )
    assert response.status_code == 302
    stickers = state_of(ae)["stickers"]
    assert ae.version == version + 1
    assert [k for k, s in stickers.items() if s["applied"]] == ["A", "N", "O", "Q", "Y"]
    assert stickers["A"]["game"] == 3
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert 'value="A" checked' not in page
    assert "Applied the stickers A, N, O, Q, Y" in text(owner_client.get(f"/c/{ae.pk}/history/"))


@pytest.mark.parametrize("letters", [["AA"], ["A", "Ä"], ["1"], [""], []])
def test_a_sticker_letter_that_does_not_exist_is_refused(owner_client, ae, letters):
    before = snapshot(ae)
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.stickers/", {"letters": letters, "region": "chapter"}, **HTMX
    )
    assert response.status_code == 422
    body = text(response)
    assert "There is no sticker slot" in body or "Tick at least one sticker" in body
    assert 'role="alert"' in body
    assert snapshot(ae) == before


def test_a_sticker_that_has_not_unlocked_yet_is_refused(owner_client, ae):
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.stickers", letters=["D"], region="chapter")
    assert response.status_code == 422
    assert "Sticker D unlocks at" in text(response)
    assert snapshot(ae) == before


def test_a_sticker_applied_twice_is_refused(owner_client, ae):
    move_to(owner_client, ae, "2-beginning")
    act(owner_client, ae, "ae.stickers", letters=["S"])
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.stickers", letters=["S"], region="chapter")
    assert response.status_code == 422
    assert "already applied" in text(response)
    assert snapshot(ae) == before


def test_one_sticker_is_edited_with_its_note_and_the_unknown_timings_can_be_set(owner_client, ae):
    response = act(
        owner_client,
        ae,
        "ae.sticker",
        region="sticker-s",
        letter="S",
        applied="on",
        game="2",
        text="Our words",
        version=ae.version,
    )
    assert response.status_code == 302
    sticker = state_of(ae)["stickers"]["S"]
    assert sticker == {"timing": "2-beginning", "applied": True, "game": 2, "text": "Our words"}
    act(owner_client, ae, "ae.sticker", letter="F", timing="4-end", text="", version=ae.version)
    assert state_of(ae)["stickers"]["F"]["timing"] == "4-end"
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.sticker", letter="A", timing="4-end", version=ae.version)
    assert response.status_code == 422
    assert "only the timing of F, G, H, I and V" in text(response)
    response = act(owner_client, ae, "ae.sticker", letter="ZZ", version=ae.version)
    assert response.status_code == 422
    assert "There is no sticker slot “ZZ”" in text(response)
    assert snapshot(ae) == before
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "Insight 2a" in page and "Insight 10" in page and "During setup,…" in page
    assert page.count('class="ae-letter') == 26


# Sealed contents and the Legacy deck


def test_opening_a_sealed_item_records_when(owner_client, ae):
    move_to(owner_client, ae, "2-beginning")
    response = act(owner_client, ae, "ae.seal", key="stop-Ic", opened="true", region="sealed")
    assert response.status_code == 302
    sealed = state_of(ae)["sealed"]
    assert sealed["stop-Ic"] == {"opened": True, "point": "2-beginning", "game": 0, "note": ""}
    assert len(sealed) == 13 + 4 + 5 + 7
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "Stop deck Ic" in page and "beginning of Chapter 2" in page
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.seal", key="stop-Ic", opened="true").status_code == 422
    assert act(owner_client, ae, "ae.seal", key="stop-IX", opened="true").status_code == 422
    assert snapshot(ae) == before


def test_the_legacy_deck_erratum_e07_to_l17(owner_client, ae):
    act(owner_client, ae, "ae.legacy", card="l02")
    act(owner_client, ae, "ae.legacy", card="E07")
    assert state_of(ae)["legacy"] == {"last": "E07", "read": ["L02", "E07"]}
    page = text(owner_client.get(f"/c/{ae.pk}/p/legacy/"))
    assert "read the front of <strong>L17</strong> instead" in page
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.legacy", card="L19", region="legacy-deck")
    assert response.status_code == 422
    assert "read the front of L17, not L19" in text(response)
    assert snapshot(ae) == before
    act(owner_client, ae, "ae.legacy", card="L17")
    assert state_of(ae)["legacy"]["last"] == "L17"
    assert act(owner_client, ae, "ae.legacy", card="!!").status_code == 422


# Banished cards


def test_banish_search_and_restore(owner_client, ae):
    for name, reason in [("Crystal", "flawed"), ("Spark", ""), ("Amethyst Shard", "upgrade")]:
        response = act(owner_client, ae, "ae.banish", text=name, game="1", reason=reason)
        assert response.status_code == 302
    page = text(owner_client.get(f"/c/{ae.pk}/?q=SPARK"))
    assert "<strong>Spark</strong>" in page and "<strong>Crystal</strong>" not in page
    assert "1 found for “SPARK”" in page
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert '<datalist id="ae-card-names">' in page
    assert '<option value="Amethyst Shard">' in page
    crystal = next(b for b in state_of(ae)["banished"] if b["text"] == "Crystal")
    act(owner_client, ae, "ae.restore", item=crystal["id"], reason="Legacy card said so")
    page = text(owner_client.get(f"/c/{ae.pk}/?q=crystal"))
    assert "No banished card matches." in page
    assert '<span class="text crossed">Crystal</span>' in page
    before = snapshot(ae)
    assert act(owner_client, ae, "ae.restore", item=crystal["id"]).status_code == 422
    assert act(owner_client, ae, "ae.banish", text="   ").status_code == 422
    assert snapshot(ae) == before


# The supply and its upgrade


def test_the_supply_upgrade_adds_two_and_banishes_the_rest(owner_client, ae):
    piles = [f"Pile {n}" for n in range(1, 10)]
    response = act(owner_client, ae, "ae.supply", piles="\n".join(piles), version=ae.version)
    assert response.status_code == 302
    assert state_of(ae)["supply"] == piles
    act(owner_client, ae, "ae.present", piles="New A\nNew B\nNew C")
    assert state_of(ae)["upgrade"] == {"presented": ["New A", "New B", "New C"]}
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert 'name="add" value="New C"' in page and 'name="banish" value="Pile 9"' in page
    before = snapshot(ae)
    bad = act(owner_client, ae, "ae.upgrade", add=["New A"], banish=["Pile 1", "Pile 2"])
    assert bad.status_code == 422
    assert "exactly two of the presented piles" in text(bad)
    assert snapshot(ae) == before
    response = owner_client.post(
        f"/c/{ae.pk}/do/ae.upgrade/",
        {"add": ["New A", "New C"], "banish": ["Pile 2", "Pile 5"], "game": "1", "region": "s"},
    )
    assert response.status_code == 302
    state = state_of(ae)
    assert len(state["supply"]) == 9
    assert "New A" in state["supply"] and "Pile 2" not in state["supply"]
    assert [b["text"] for b in state["banished"]] == ["Pile 2", "Pile 5", "New B"]
    assert state["upgrade"] is None
    assert ae.version == before[0] + 1
    history = text(owner_client.get(f"/c/{ae.pk}/history/"))
    assert "added New A, New C; banished Pile 2, Pile 5 and New B" in history
    assert act(owner_client, ae, "ae.supply", piles="\n".join(["x"] * 2)).status_code == 422
    ten = "\n".join(f"P{n}" for n in range(10))
    assert act(owner_client, ae, "ae.supply", piles=ten).status_code == 422


# Mages


def test_mage_upgrades_and_equipment(owner_client, ae):
    act(owner_client, ae, "ae.mage", player=1, kind="equipment", text="A fine staff", game=2)
    act(owner_client, ae, "ae.mage", player=0, kind="upgrade", text="Breach IV opened")
    state = state_of(ae)
    assert state["players"][1]["notes"][0]["text"] == "A fine staff"
    page = text(owner_client.get(f"/c/{ae.pk}/"))
    assert "A fine staff" in page and "Breach IV opened" in page
    assert act(owner_client, ae, "ae.mage", player=3, kind="upgrade", text="x").status_code == 422
    note = state["players"][1]["notes"][0]["id"]
    act(owner_client, ae, "ae.mage_remove", player=1, item=note)
    assert state_of(ae)["players"][1]["notes"] == []
    assert "Bo: crossed out “A fine staff”" in text(owner_client.get(f"/c/{ae.pk}/history/"))


# The score chart


def score(**change) -> dict:
    values = {
        "date": "2024-03-01",
        "chapter": "1",
        "nemesis": "Maelstrom",
        "result": "win",
        "gravehold": "12",
        "nemesis_life": "0",
        "life_1": "4",
        "life_2": "0",
        "rounds": "9",
        "notes": "close",
        "region": "score-add",
        "page": "chart",
    }
    values.update(change)
    return values


def test_a_game_in_the_score_chart_draws_both_charts(owner_client, ae):
    response = owner_client.post(f"/c/{ae.pk}/do/ae.score/", score())
    assert response.status_code == 302
    assert response.url == f"/c/{ae.pk}/p/chart/#score-add"
    owner_client.post(
        f"/c/{ae.pk}/do/ae.score/", score(result="loss", gravehold="0", nemesis_life="17")
    )
    rows = state_of(ae)["scores"]
    assert rows[0]["lives"] == [4, 0] and rows[0]["rounds"] == 9
    page = text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    assert page.count('<svg class="ae-chart"') == 2
    assert "2 games: 1 won, 1 lost." in page
    assert 'class="ae-nemesis-left"' in page  # the loss's nemesis life, below the line
    assert "Gravehold 12 · nemesis 0 · Ada 4 · Bo 0" in page


@pytest.mark.parametrize(
    "change, message",
    [
        ({"gravehold": "-1"}, "Life left cannot be negative."),
        ({"life_2": "-3"}, "Life left cannot be negative."),
        ({"nemesis_life": "-5"}, "Life left cannot be negative."),
        ({"life_2": ""}, "Type the life Bo has left."),
        ({"life_3": "5"}, "This campaign has no player 3."),
        ({"rounds": "-1"}, "The number of rounds cannot be negative."),
        ({"date": "yesterday"}, "Enter a valid date."),
    ],
)
def test_a_bad_score_row_is_refused_next_to_the_field(owner_client, ae, change, message):
    before = snapshot(ae)
    response = owner_client.post(f"/c/{ae.pk}/do/ae.score/", score(**change), **HTMX)
    assert response.status_code == 422
    body = text(response)
    assert message in body
    assert body.count('role="alert"') == 1
    field = next(iter(change))
    if field != "life_3":
        # The message sits right after the field's input.
        assert re.search(rf'name="{field}".{{0,800}}{re.escape(message)}', body, re.S), field
    assert snapshot(ae) == before


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


@pytest.mark.parametrize(
    "difficulty, expected",
    [
        ("beginner", (35, 40, [12, 12])),
        ("expert", (30, 50, [10, 10])),
        ("extinction", (25, 60, [8, 8])),
    ],
)
def test_difficulty_variants_set_the_starting_values(owner_client, ae, difficulty, expected):
    start(owner_client, ae, difficulty=difficulty)
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
    life(owner_client, ae, "gravehold", -30)
    assert "Gravehold has fallen: you lose." in text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    solo = make_ae(owner, "Ada", "Bo", solo=True, name="Solo")
    start(owner_client, solo)
    life(owner_client, solo, "0", -10)
    life(owner_client, solo, "1", -10)
    page = text(owner_client.get(f"/c/{solo.pk}/p/turns/"))
    assert "Every player is exhausted: you lose." not in page
    assert "in solo play you lose only when Gravehold falls" in page


# Outside the campaign


def add_cards(client, campaign, cards):
    for name, kind, cost in cards:
        response = act(client, campaign, "ae.card", name=name, kind=kind, cost=cost)
        assert response.status_code == 302, text(response)


CARDS = [
    *[(f"Gem {n}", "gem", 2 + n % 4) for n in range(6)],
    *[(f"Relic {n}", "relic", 3 + n) for n in range(4)],
    *[(f"Spell {n}", "spell", 3 + n) for n in range(6)],
]


def roll(client, campaign, **values):
    values = {"gems": "3", "relics": "2", "spells": "4", "gem3": "on", "region": "roll", **values}
    return act(client, campaign, "ae.roll", **values)


def test_the_randomizer_leaves_out_banished_cards_and_keeps_a_gem_costing_3(owner_client, ae):
    add_cards(owner_client, ae, CARDS)
    act(owner_client, ae, "ae.banish", text="gem 1")  # cost 3
    act(owner_client, ae, "ae.banish", text="Spell 0")
    for _ in range(8):
        assert roll(owner_client, ae).status_code == 302
        outside = state_of(ae)["outside"]
        cards = {c["id"]: c for c in outside["cards"]}
        picked = [cards[i] for i in outside["supply"]]
        assert [c["kind"] for c in picked].count("gem") == 3
        assert [c["kind"] for c in picked].count("relic") == 2
        assert [c["kind"] for c in picked].count("spell") == 4
        assert "Gem 1" not in [c["name"] for c in picked]
        assert "Spell 0" not in [c["name"] for c in picked]
        assert any(c["kind"] == "gem" and c["cost"] == 3 for c in picked)


def test_locked_cards_stay_on_a_re_roll(owner_client, ae):
    add_cards(owner_client, ae, CARDS)
    roll(owner_client, ae)
    outside = state_of(ae)["outside"]
    keep = outside["supply"][:2]
    for item in keep:
        assert act(owner_client, ae, "ae.lock", item=item, locked="true").status_code == 302
    for _ in range(5):
        roll(owner_client, ae)
        assert set(keep) <= set(state_of(ae)["outside"]["supply"])
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert page.count('aria-checked="true"') == 2


def test_the_randomizer_says_when_the_list_is_too_short(owner_client, ae):
    add_cards(owner_client, ae, CARDS[:2])
    before = snapshot(ae)
    response = roll(owner_client, ae)
    assert response.status_code == 422
    assert "Your list has only 2 gems that are not banished; 3 are needed." in text(response)
    assert roll(owner_client, ae, gems="9", relics="1").status_code == 422
    assert snapshot(ae) == before


def test_a_rolled_payload_that_does_not_fit_is_refused_on_apply(owner, ae, owner_client):
    add_cards(owner_client, ae, CARDS)
    state = state_of(ae)
    gems = [c["id"] for c in state["outside"]["cards"] if c["kind"] == "gem"][:3]
    payload = {"gems": 3, "relics": 0, "spells": 0, "gem3": False, "picked": gems[:2]}
    with pytest.raises(Exception, match="does not match"):
        GAME.commands["ae.roll"].apply(copy.deepcopy(state), payload)


def test_the_nemesis_deck_builder_follows_the_chart(owner_client, ae):
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    for players, tiers in data.NEMESIS_CHART.items():
        for tier, value in zip(data.TIERS, tiers, strict=True):
            cell = f'name="c{players}_{tier}" min="0" max="30" inputmode="numeric"'
            assert f'{cell} required value="{value}"' in page
    act(owner_client, ae, "ae.build", players="2")
    page = text(owner_client.get(f"/c/{ae.pk}/p/outside/"))
    assert "For 2 players" in page and "+ 3 basic cards" in page and "+ 5 basic cards" in page
    chart = {
        f"c{p}_{t}": str(v)
        for p, tiers in data.NEMESIS_CHART.items()
        for t, v in zip(data.TIERS, tiers, strict=True)
    }
    chart["c2_1"] = "2"
    state_of(ae)
    response = act(owner_client, ae, "ae.chart", version=ae.version, **chart)
    assert response.status_code == 302
    assert state_of(ae)["outside"]["chart"]["2"] == [2, 5, 7]
    for n in range(3):
        act(owner_client, ae, "ae.nemesis_card", name=f"Basic {n}", tier="1")
    act(owner_client, ae, "ae.build", players="2")
    build = state_of(ae)["outside"]["build"]
    assert len(build["tiers"][0]) == 2 and build["tiers"][1] == []
    response = act(owner_client, ae, "ae.build", players="4", region="nemesis-deck")
    assert response.status_code == 422
    assert "Tier 1 needs 8 basic cards; your list has 3." in text(response)


# Malformed requests are refused, never a 500

GARBAGE = ["", "abc", "-1", "9" * 30, "\x00", "x" * 6000]


@pytest.fixture
def furnished(owner):
    """A 3-player campaign with something in every list, so ids in the garbage can hit."""
    campaign = make_ae(owner, "Ada", "Bo", "Cy")
    row = {"date": "2024-03-01", "chapter": 1, "nemesis": "Maelstrom", "result": "win"}
    row.update(gravehold=12, nemesis_life=0, life_1=4, life_2=0, life_3=1, rounds=9, notes="")
    for action, values in [
        ("ae.start", {"nemesis": "Maelstrom", "nemesis_life": 50}),
        ("ae.banish", {"text": "Spark", "game": None, "reason": ""}),
        ("ae.mage", {"player": 0, "kind": "upgrade", "text": "x", "game": None}),
        ("ae.score", row),
        *(("ae.card", {"name": n, "kind": k, "cost": c}) for n, k, c in CARDS),
        ("ae.supply", {"piles": list("ABCDEFGHI")}),
        ("ae.present", {"piles": ["X", "Y", "Z"]}),
    ]:
        campaign.apply(action, values, owner)
    for _ in range(2):
        campaign.apply("ae.draw", {}, owner)
        pending = campaign.state["table"]["deck"]["pending"]
        if pending:
            campaign.apply("ae.choose", {"name": pending["options"][0]}, owner)
    return campaign


def test_every_malformed_post_to_an_action_is_refused_not_a_500(owner_client, furnished):
    for action in sorted(GAME.commands):
        fields = list(GAME.commands[action].form().fields)
        url = f"/c/{furnished.pk}/do/{action}/"
        payloads: list[dict] = [{}]
        for index, value in enumerate(GARBAGE):
            payload = {**dict.fromkeys(fields, value), "region": value, "version": value}
            if index % 2:
                payload.update(item="1", player="0", who="0")
            payloads.append(payload)
        payloads.append(
            {field: [value, "1"] for field, value in zip(fields, GARBAGE, strict=False)}
        )
        for index, payload in enumerate(payloads):
            headers = {} if index == 0 else HTMX
            response = owner_client.post(url, payload, **headers)
            assert response.status_code in (200, 302, 409, 422), (action, payload)
    furnished.refresh_from_db()
    assert furnished.replay() == furnished.state


HOSTILE = [
    {"card": 5},
    {"card": None},
    {"card": ["Ada"]},
    {"letters": "A"},
    {"letters": [1, 2]},
    {"who": 0, "delta": 1},
    {"item": "1"},
    {"picked": {"a": 1}, "gems": 1, "relics": 0, "spells": 0, "gem3": False},
    {"tiers": "x", "players": 2},
    {"tiers": [[1.5], [], []], "players": 2},
    {"players": 9},
    {"key": ["stop-E"], "opened": True, "note": ""},
    {"to": None},
    {"add": "New A", "banish": [], "game": None},
]


def test_a_hostile_payload_is_refused_by_apply(owner, furnished):
    """An imported file's payloads go through apply: each command refuses what does not fit
    with a CommandError, never another exception."""
    from campaigns.commands import CommandError

    for payload in HOSTILE:
        for action, command in GAME.commands.items():
            state = copy.deepcopy(furnished.state)
            try:
                command.apply(state, copy.deepcopy(payload))
            except CommandError:
                pass
            except Exception as error:  # pragma: no cover - the assertion says which
                raise AssertionError(f"{action} with {payload}: {error!r}") from error


# Export and import


def test_an_exported_campaign_imports_with_the_same_state(owner, owner_client, furnished):
    from campaigns.transfer import export_campaign, import_campaign

    furnished.undo(owner)
    furnished.refresh_from_db()
    document = export_campaign(furnished)
    import json

    copy_ = import_campaign(json.dumps(document).encode(), owner)
    assert copy_.state == furnished.state
    assert copy_.game == "aeonsend"
    copy_.redo(owner)
    furnished.redo(owner)
    assert Campaign.objects.get(pk=copy_.pk).state["table"] == furnished.state["table"]
