"""A tap that must see the campaign as it is now is never kept on the phone to send later: a
draw, a roll, anything that takes randomness when it resolves, or starts something. Such a
command says `needs_connection`, and its page tells the phone (static/js/offline.js).

Every command of every game is played (the sample posts of tests/samples.py) with a
random source that notes when it is used: each command that used it must need the connection.
"""

from __future__ import annotations

import random

import pytest

from campaigns.games import GAMES
from campaigns.models import Membership
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, sample_data

pytestmark = pytest.mark.sweep


class Noting(random.Random):
    """The same draws every run, noting each use."""

    def __init__(self) -> None:
        super().__init__(12)
        self.used = 0

    def random(self) -> float:
        self.used += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.used += 1
        return super().getrandbits(k)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_command_that_takes_randomness_needs_the_connection(db, game, monkeypatch):
    rng = Noting()
    monkeypatch.setattr("campaigns.models._system_random", rng)
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign(
        game, owner=owner, setup=SAMPLE_SETUPS.get(game), members={friend: Membership.Role.PLAYER}
    )
    commands = GAMES[game].commands
    random_ones = set()
    for action, post in SAMPLE_POSTS[game]:
        data, _made = sample_data(campaign, owner, post)
        before = rng.used
        form = commands[action].form(data)
        assert form.is_valid(), (action, form.errors)
        campaign.apply(action, form.cleaned_data, owner)
        if rng.used > before:
            random_ones.add(action)
    # Arkham Noir's case is played with its own cards: nothing of it is drawn here.
    assert random_ones or game == "noir", "no command took randomness: the sample plays changed"
    assert not {a for a in random_ones if not commands[a].needs_connection}
