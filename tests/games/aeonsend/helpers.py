"""Aeon's End: Legacy campaigns for the tests: one line makes one in a given set-up."""

from campaigns.games import GAMES
from campaigns.games.aeonsend import data
from campaigns.models import Campaign, Membership
from tests.factories import TWO_PLAYER_POST
from tests.journeys import HTMX

__all__ = ["TWO_PLAYER_POST"]  # (what the new-campaign page posts for two players)

GAME = GAMES["aeonsend"]

# What each page of the game shows of a new campaign.
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


def act(client, campaign, action: str, htmx: bool = False, **values):
    values.setdefault("region", "x")
    return client.post(f"/c/{campaign.pk}/do/{action}/", values, **(HTMX if htmx else {}))


def state_of(campaign) -> dict:
    campaign.refresh_from_db()
    return campaign.state


CARDS = [
    *[(f"Gem {n}", "gem", 2 + n % 4) for n in range(6)],
    *[(f"Relic {n}", "relic", 3 + n) for n in range(4)],
    *[(f"Spell {n}", "spell", 3 + n) for n in range(6)],
]
