"""The table display: its own link, read-only, no account needed, nothing hidden on it."""

import html
import re

from django.test import Client

from campaigns.views.display import display_url
from tests import factories
from tests.factories import client_for
from tests.journeys import text


def test_any_member_finds_the_display_link_and_qr_on_the_members_page(campaign, player):
    page = text(client_for(player).get(f"/c/{campaign.pk}/members/"))
    assert "Table display" in page
    assert display_url(campaign) in page
    assert '<div class="qr"><img src="data:image/svg+xml' in page


def test_the_display_shows_counters_without_an_account_and_no_controls(campaign):
    page = text(Client().get(display_url(campaign)))
    assert re.search(r'<h2 id="display-\d+" class="label"><bdi>Doom</bdi></h2>', page)
    assert '<meta name="color-scheme" content="dark">' in page
    for control in ("<form", "<button", "<input", "<select", "<textarea", "undo-bar"):
        assert control not in page


def test_a_wrong_or_old_display_token_is_not_found(campaign):
    url = display_url(campaign)
    assert Client().get(url[:-2] + "x/").status_code == 404
    assert Client().get(url.replace("/display/", "/display/0")).status_code == 404
    campaign.rotate_invite()  # a new invitation link retires the display's too
    assert Client().get(url).status_code == 404
    assert Client().get(display_url(campaign)).status_code == 200
    assert Client().get(display_url(campaign) + "version/").json() == {"version": campaign.version}


def test_the_arkham_display_shows_the_last_token_its_outcome_doom_and_the_round(owner):
    ark = factories.campaign("arkham", owner=owner)
    ark = factories.play(ark, owner, [("round.doom", {"delta": 1}), ("bag.draw", {})])
    page = text(Client().get(display_url(ark)))
    last = ark.state["draws"][-1]["tokens"][-1]["token"]
    assert f'data-token="{last}"' in page
    assert "Last chaos token" in page
    assert re.search(r'class="value">1(<span class="of">)?', page)
    assert "Round 1" in page
    # What is still in the bag, and in which order, is not on the display.
    assert "odds" not in page.lower()


def test_between_arkham_scenarios_the_display_says_so_as_the_table_page_does(owner):
    ark = factories.campaign("arkham", owner=owner)
    page = text(Client().get(display_url(ark)))
    assert "Between scenarios." in page and "Round 1" not in page
    started = factories.play(ark, owner, [("scenario.start", {"name": "A side story of ours"})])
    page = text(Client().get(display_url(started)))
    assert "Round 1" in page and "Between scenarios." not in page


def test_each_games_doom_reads_in_its_chinese_editions_own_word(owner):
    """Arkham Horror's doom tokens are 毁灭 (as on its round page); Eldritch Horror's doom track
    is 末日毁灭 (its reference guide's word)."""
    ark = factories.campaign("arkham", owner=owner)
    eh = factories.campaign("eldritch", owner=owner)
    for language, arkham_doom, eldritch_doom in (
        ("zh-hans", "毁灭", "末日毁灭"),
        ("zh-hant", "毀滅", "末日毀滅"),
    ):
        phone = Client(HTTP_ACCEPT_LANGUAGE=language)
        ark_page = text(phone.get(display_url(ark)))
        assert f'<h2 id="display-doom" class="label">{arkham_doom}</h2>' in ark_page
        round_page = text(
            client_for(owner).get(f"/c/{ark.pk}/p/round/", HTTP_ACCEPT_LANGUAGE=language)
        )
        assert arkham_doom in round_page and eldritch_doom not in round_page
        assert eldritch_doom in text(phone.get(display_url(eh)))


def test_the_aeons_end_display_shows_the_turn_and_both_lives(owner):
    campaign = factories.campaign("aeonsend", owner=owner)
    page = text(Client().get(display_url(campaign)))
    assert "Draw the first card to see who goes first." in page


def test_the_eldritch_display_shows_doom_omen_gates_mysteries_mythos_and_investigators(owner):
    eh = factories.campaign(
        "eldritch",
        owner=owner,
        events=[
            ("eh.doom", {"step": "advance"}),
            ("eh.gate", {"colour": "red", "delta": 1}),
            ("eh.draw", {}),
        ],
    )
    game = eh.state["game"]
    page = html.unescape(text(Client().get(display_url(eh))))
    assert "No counters yet." not in page
    assert "Doom · Azathoth" in page
    assert re.search(rf'class="value doom">{game["doom"]}<', page)
    assert "Omen" in page and "Open gates" in page
    assert re.search(r'class="gate-red">Red <strong>1</strong>', page)
    assert re.search(r'Mysteries</h2>\s*<p class="value">0<span class="of"> / \d+', page)
    assert "Round 1" in page and "Lead investigator:" in page
    assert "Mythos deck · stage I" in page
    left = sum(sum(stage.values()) for stage in game["deck"]["stages"])
    assert f"{left} cards left" in page
    last = game["draws"][-1]["colour"].title()
    assert f"Last drawn: {last} (stage I)" in page
    for person in game["investigators"]:
        assert re.search(
            rf"<bdi>{person['name']}</bdi></th>\s*<td>{person['health']}<span class=\"of\"> / "
            rf"{person['max_health']}</span></td><td>{person['sanity']}<span",
            page,
        )
    # The deck's counts by colour, never its order.
    assert "order" not in page.lower()


def test_the_noir_display_shows_the_case_columns_their_types_piles_and_triggers(owner):
    case = factories.campaign("noir", owner=owner)
    first = case.state["play"]["columns"][0]["id"]
    steps = [("noir.count", {"column": first, "count": "cards", "delta": 1})] * 7
    steps += [("noir.count", {"column": first, "count": "hourglasses", "delta": 1})] * 2
    steps += [("noir.type", {"column": first, "type": 3, "present": True})]
    case = factories.play(case, owner, steps)
    page = html.unescape(text(Client().get(display_url(case))))
    assert "No counters yet." not in page
    assert "Round 1" in page and "Action phase" in page
    assert "Case 1" in page and "Case 2" in page
    assert '<span class="type present">3</span>' in page
    for pile in ("Time-out pile", "Madness area"):
        assert re.search(rf'{pile}\s*<strong>0<span class="of"> / 5</span></strong>', page)
    assert page.count("The next card here asks for a sanity check") == 1
    assert page.count("The next hourglass here brings a storm") == 1


def test_the_display_link_is_offered_only_where_the_display_has_something_to_show(owner):
    bare = factories.campaign("any", owner=owner, setup={"trackers": []})
    page = text(client_for(owner).get(f"/c/{bare.pk}/members/"))
    assert "Table display" not in page and display_url(bare) not in page
    for game in ("any", "arkham", "aeonsend", "eldritch", "noir"):
        campaign = factories.campaign(game, owner=owner)
        page = text(client_for(owner).get(f"/c/{campaign.pk}/members/"))
        assert display_url(campaign) in page, game


def test_between_eldritch_games_the_display_waits_for_the_next_game(owner):
    # The tablet stays on the table for the whole campaign: between games it says so, and the
    # link does not come and go with each game (the members page would change under a phone).
    eh = factories.campaign("eldritch", owner=owner)
    eh.state["game"] = None  # the game was logged; the next one not set up yet
    eh.save()
    page = text(client_for(owner).get(f"/c/{eh.pk}/members/"))
    assert display_url(eh) in page
    assert "No game on the table" in text(Client().get(display_url(eh)))
