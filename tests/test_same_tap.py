"""A double tap is one tap (issue 21): a second tap on a button with a random outcome (a draw, a
reveal, a roll) from the same phone within half a second of its previous one is that tap again,
even when the first tap's answer came back in between and the second was sent from the fresh
screen. A draw at a normal pace, another phone's draw and a tap that draws nothing are taps of
their own."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from django.urls import reverse

from campaigns.games import GAMES
from campaigns.models import Event
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, client_for, sample_data
from tests.journeys import HTMX, text

PHONE = "phoneaaaaaaaaaaa"
FRIEND = "phonebbbbbbbbbbb"


@pytest.fixture
def bag(db):
    owner = factories.user("olive")
    return factories.campaign("arkham", owner=owner), client_for(owner)


def tap_draw(campaign, client, change: str):
    """A tap on the bag's Draw, from a screen showing the campaign as it is now."""
    campaign.refresh_from_db()
    data = {"version": campaign.version, "page": "bag", "region": "bag-actions", "change": change}
    return client.post(reverse("campaigns:act", args=[campaign.pk, "bag.draw"]), data, **HTMX)


def draws(campaign, client) -> list[str]:
    """The draws the history page lists."""
    page = text(client.get(f"/c/{campaign.pk}/history/"))
    return re.findall(r'<span class="text">(Drew [^<]*)</span>', page)


def some_time_passes(campaign, seconds: float) -> None:
    """The campaign's changes were made `seconds` earlier (no test waits for a clock)."""
    earlier = datetime.timedelta(seconds=seconds)
    for event in Event.objects.filter(campaign=campaign):
        event.created -= earlier
        event.save(update_fields=["created"])


def test_a_second_tap_on_draw_within_half_a_second_is_the_same_draw(bag):
    campaign, client = bag
    first = tap_draw(campaign, client, f"{PHONE}.tap1")
    # The answer came back; the second tap is sent from the screen it drew.
    second = tap_draw(campaign, client, f"{PHONE}.tap2")
    assert first.status_code == second.status_code == 200
    campaign.refresh_from_db()
    assert campaign.version == 1
    assert len(draws(campaign, client)) == 1
    # No message: the phone shows the one draw.
    assert 'class="error"' not in text(second)


def test_a_draw_at_a_normal_pace_is_a_second_draw(bag):
    campaign, client = bag
    tap_draw(campaign, client, f"{PHONE}.tap1")
    some_time_passes(campaign, 0.6)
    assert tap_draw(campaign, client, f"{PHONE}.tap2").status_code == 200
    campaign.refresh_from_db()
    assert campaign.version == 2
    assert len(draws(campaign, client)) == 2


def test_another_phones_draw_at_once_is_its_own(bag):
    campaign, client = bag
    tap_draw(campaign, client, f"{PHONE}.tap1")
    tap_draw(campaign, client, f"{FRIEND}.tap1")
    campaign.refresh_from_db()
    assert campaign.version == 2


def test_taps_with_no_random_outcome_each_count(db):
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    client = client_for(owner)
    doom = next(t for t in campaign.state["trackers"] if t["kind"] == "counter")
    for tap in (1, 2):
        campaign.refresh_from_db()
        data = {"tracker": doom["id"], "delta": 1, "version": campaign.version}
        data.update(region=f"tracker-{doom['id']}", change=f"{PHONE}.tap{tap}")
        response = client.post(reverse("campaigns:act", args=[campaign.pk, "counter.adjust"]), data)
        assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.version == 2


class Watched(random.Random):
    """A random source that notes whether anything was drawn from it."""

    def __init__(self, inner: random.Random) -> None:
        self.inner, self.used = inner, False
        super().__init__()

    def random(self) -> float:
        self.used = True
        return self.inner.random()

    def getrandbits(self, k: int) -> int:
        self.used = True
        return self.inner.getrandbits(k)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_command_that_takes_randomness_says_it_has_a_random_outcome(db, game):
    owner = factories.user("olive")
    campaign = factories.campaign(game, owner=owner, setup=SAMPLE_SETUPS.get(game))
    inner = random.Random(12)
    random_ones: set[str] = set()
    for action, post in SAMPLE_POSTS[game]:
        data, _made = sample_data(campaign, owner, post, rng=inner)  # (one seed: repeatable)
        form = campaign.game_module.commands[action].form(data)
        assert form.is_valid(), (action, form.errors)
        watched = Watched(inner)
        campaign.apply(action, form.cleaned_data, owner, rng=watched)
        if watched.used:
            random_ones.add(action)
    flagged = {name for name, c in GAMES[game].commands.items() if c.random_outcome}
    assert random_ones <= flagged
    if game != "noir":  # every other game has a draw or a roll
        assert random_ones
