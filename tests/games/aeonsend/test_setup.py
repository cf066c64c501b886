"""Aeon's End: Legacy: creating a campaign, and every page for an owner and a viewer."""

import re

import pytest

from campaigns.games.aeonsend import data
from campaigns.models import Campaign, Membership
from tests.factories import make_user
from tests.games.aeonsend.helpers import PAGES
from tests.journeys import HTMX, text

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


@pytest.mark.parametrize("field", ["p2_player", "p2_character"])
def test_a_name_too_long_gets_one_message_not_two(owner_client, field):
    """Django's "at most" message, and not also "type the name" as if nothing were typed."""
    response = owner_client.post("/new/aeonsend/", creation_data(2, **{field: "x" * 5000}))
    assert response.status_code == 422
    group = re.search(rf'<label for="id_{field}">.*?\sid="id_{field}"', text(response), re.S)
    assert group is not None
    assert re.findall(r"<li>([^<]+)</li>", group.group(0)) == [
        "Ensure this value has at most 40 characters (it has 5000)."
    ]


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
        assert "ae.draw/" not in page and "ae.banish/" not in page  # (no form sends them)


def test_the_turn_order_decks_refusal_of_a_name_is_shown_in_the_readers_language(owner_client):
    """The name rules live in the turn order engine; the form shows its words translated."""
    owner_client.post("/language/", {"language": "ja", "next": "/"})
    response = owner_client.post("/new/aeonsend/", creation_data(2, p2_character="A/B"))
    assert response.status_code == 422
    assert "キャラクター名に「/」は使えません。" in text(response)
    assert not Campaign.objects.exists()


def test_four_players_share_the_two_colour_cards_by_colour_not_by_seat(owner_client):
    # rules.md §2b: four players use the two-colour cards, each writing their name on the cards
    # of their character's colour [003:244, 248]; the rulebook's card is Red/White [003:1008].
    colours = {"p1_colour": "red", "p2_colour": "blue", "p3_colour": "white", "p4_colour": "green"}
    owner_client.post("/new/aeonsend/", creation_data(4, **colours))
    deck = Campaign.objects.get(name="Our legacy").state["table"]["deck"]
    assert set(deck["tokens"]) == {"Mage 1/Mage 3", "Mage 2/Mage 4"}


def test_an_older_four_player_set_up_keeps_its_seat_pairs():
    # Campaigns made before the colour pairs replay with the cards their draws recorded.
    from tests.games.aeonsend.helpers import GAME, setup_for

    setup = setup_for("Ada", "Bo", "Cy", "Di")
    setup["players"][1]["colour"], setup["players"][2]["colour"] = "blue", "white"
    assert set(GAME.initial_state(setup)["table"]["deck"]["tokens"]) == {"Ada/Bo", "Cy/Di"}
