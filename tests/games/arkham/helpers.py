"""What the Arkham tests share: a campaign in one line, posting as the page's forms post, and an
rng that picks the tokens a test wants."""

import html
import random
import re

from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.models import Campaign, Membership
from tests.games.arkham.chaos_oracle import (
    NOTZ_STANDARD,
    Outcome,
    brute_force_probability,
    brute_force_rich,
    card_x,
    outcome_distribution,
)
from tests.journeys import HTMX

# The chaos oracle (an independent, brute-force check of the engine's odds) is Arkham's: its
# tests reach it through here.
__all__ = [
    "NOTZ_STANDARD",
    "Outcome",
    "brute_force_probability",
    "brute_force_rich",
    "card_x",
    "outcome_distribution",
]


def make_arkham(owner, campaign="notz", difficulty="standard", name="Arkham nights") -> Campaign:
    game = GAMES["arkham"]
    setup = {"campaign": campaign, "difficulty": difficulty}
    state = game.initial_state(setup)
    state.update(name=name, archived=False)
    made = Campaign.objects.create(
        game="arkham", name=name, setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=made, user=owner, role=Membership.Role.OWNER)
    return made


def post(client, campaign, action, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def state(campaign) -> dict:
    campaign.refresh_from_db()
    return campaign.state


def text(response) -> str:
    """The response as the reader sees its words (entities such as &#x27; turned back)."""
    return html.unescape(response.content.decode())


def add_investigator(client, campaign, name="Roland Banks", health=9, sanity=5, **extra) -> int:
    response = post(
        client,
        campaign,
        "investigator.add",
        name=name,
        player=extra.pop("player", "Olive"),
        health=health,
        sanity=sanity,
        region="add-investigator",
        **extra,
    )
    assert response.status_code == 302, text(response)
    return state(campaign)["investigators"][-1]["id"]


class Picks(random.Random):
    """A stand-in for the rng that picks the given physical tokens in turn (0 = the first)."""

    def __init__(self, *picks: int):
        super().__init__(0)
        self.picks = list(picks)

    def randrange(self, n, *args):
        pick = self.picks.pop(0)
        assert 0 <= pick < n
        return pick


def index_of(bag: dict, token: str) -> int:
    """Where `token` sits among the physical tokens, in the order the engine counts them."""
    counts = chaos.validate_bag(bag)
    position = 0
    for name, count in counts.items():
        if name == token:
            return position
        position += count
    raise AssertionError(token)


def set_bag(campaign, bag, **extra):
    s = state(campaign)
    s["bag"] = bag
    s.update(extra)
    Campaign.objects.filter(pk=campaign.pk).update(state=s, initial_state=s)
    campaign.refresh_from_db()


def investigator(campaign, ident) -> dict:
    return next(i for i in state(campaign)["investigators"] if i["id"] == ident)


def section(campaign, name) -> dict:
    return next(t for t in state(campaign)["trackers"] if t["name"] == name)


def scenario_post(owner_client, campaign, **fields):
    return post(owner_client, campaign, "scenario.record", region="record-scenario", **fields)


def next_step(client, campaign, loop=False):
    rnd = state(campaign)["round"]
    data_ = {"from": rnd["step"], "region": "round-now", "page": "round"}
    if loop:
        data_["loop"] = "on"
    response = post(client, campaign, "round.next", **data_)
    assert response.status_code == 302, text(response)
    return state(campaign)["round"]


def odds_rows(page: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td><svg.*?<span class="pct">([^<]+)</span>', page, re.S
    )
