"""The table display: its own link, read-only, no account needed, nothing hidden on it."""

import re

from django.test import Client

from campaigns.views.display import display_url
from tests import factories
from tests.conftest import client_for, text
from tests.games.aeonsend.helpers import make_ae
from tests.games.arkham.helpers import make_arkham


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
    ark = make_arkham(owner)
    ark = factories.play(ark, owner, [("round.doom", {"delta": 1}), ("bag.draw", {})])
    page = text(Client().get(display_url(ark)))
    last = ark.state["draws"][-1]["tokens"][-1]["token"]
    assert f'data-token="{last}"' in page
    assert "Last chaos token" in page
    assert re.search(r'class="value">1(<span class="of">)?', page)
    assert "Round 1" in page
    # What is still in the bag, and in which order, is not on the display.
    assert "odds" not in page.lower()


def test_the_aeons_end_display_shows_the_turn_and_both_lives(owner):
    campaign = make_ae(owner)
    page = text(Client().get(display_url(campaign)))
    assert "Draw the first card to see who goes first." in page
