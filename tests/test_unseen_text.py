"""A text that shows nothing is no text: a name, a note or a line made only of zero-width
spaces, direction marks and spaces is refused where an empty one is, and kept as nothing where
the field may be left empty (campaigns/fields.py's TextField). A phone's keyboard or a pasted
name can carry such characters; a member "named" so would be a blank in every list.
"""

from __future__ import annotations

import random

import pytest
from django import forms

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, sample_data
from tests.journeys import text

# A zero-width space, a word joiner, a left-to-right mark, a space and a right-to-left override.
UNSEEN = "\u200b\u2060\u200e \u202e"
REQUIRED = "This field is required."


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_every_text_field_of_every_command_takes_one_that_shows_nothing_as_empty(db, game):
    owner = factories.user("olive")
    campaign = factories.campaign(game, owner=owner, setup=SAMPLE_SETUPS.get(game))
    commands = GAMES[game].commands
    required = optional = 0
    rng = random.Random(12)  # the sample plays' draws, the same every run
    for action, post in SAMPLE_POSTS[game]:
        data, _made = sample_data(campaign, owner, post, rng)
        for name, field in commands[action].form().fields.items():
            if not isinstance(field, forms.CharField) or field.widget.is_hidden:
                continue
            form = commands[action].form({**data, name: UNSEEN})
            if field.required:
                required += 1
                assert not form.is_valid() and name in form.errors, (action, name)
            else:
                optional += 1
                assert not form.is_valid() or not form.cleaned_data.get(name), (action, name)
        form = commands[action].form(data)
        assert form.is_valid(), (action, form.errors)
        campaign.apply(action, form.cleaned_data, owner, rng=rng)
    assert required and optional, "a kind of text field went untried: the sample plays changed"


def test_a_campaign_named_with_nothing_to_see_is_refused_and_not_created(db):
    client = factories.client_for(factories.user("olive"))
    response = client.post("/new/any/", {"name": UNSEEN, "counters": "Doom 0 12"})
    assert response.status_code == 422
    assert REQUIRED in text(response)
    assert not Campaign.objects.exists()


def test_joining_under_a_name_that_shows_nothing_is_refused(db):
    campaign = factories.make_campaign(factories.user("olive"))
    joiner = factories.client_for(factories.user("fern"))
    response = joiner.post(f"/join/{campaign.invite_token}/", {"display_name": UNSEEN})
    assert response.status_code == 422
    assert REQUIRED in text(response)
    assert not Membership.objects.filter(campaign=campaign, user__username="fern").exists()


@pytest.mark.parametrize(
    ("field", "line"),
    [("counters", "\u200b 0 12"), ("checklists", "\u200b\u200e: A, B")],
)
def test_a_set_up_line_whose_name_shows_nothing_needs_a_name(db, field, line):
    client = factories.client_for(factories.user("olive"))
    response = client.post("/new/any/", {"name": "Nights", field: f"Doom 0 12\n{line}"})
    assert response.status_code == 422
    assert f"“{line}” needs a name." in text(response)
    assert not Campaign.objects.exists()


def test_a_deck_card_whose_name_shows_nothing_needs_a_name(db):
    owner = factories.user("olive")
    campaign = factories.make_campaign(owner)
    before = (campaign.version, campaign.state)
    response = factories.client_for(owner).post(
        f"/c/{campaign.pk}/do/tracker.add/",
        {"kind": "deck", "name": "Deck", "items": "Green×2, \u200b×3"},
    )
    assert response.status_code == 422
    assert "“\u200b×3” needs a name." in text(response)
    campaign.refresh_from_db()
    assert (campaign.version, campaign.state) == before
