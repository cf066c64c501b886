"""What the Eldritch Horror tests share: a game in one line, posting as the page's forms post."""

from __future__ import annotations

import html
from typing import Any

from campaigns.models import Campaign
from tests import factories
from tests.journeys import HTMX


def make_eldritch(owner, events=(), rng=None, **setup: Any) -> Campaign:
    game = dict(factories.SETUPS["eldritch"]["game"], **setup)
    return factories.campaign(
        "eldritch",
        owner=owner,
        name="Eldritch nights",
        setup={"game": game},
        events=events,
        rng=rng,
    )


def post(client, campaign, action, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def state(campaign) -> dict:
    campaign.refresh_from_db()
    return campaign.state


def game(campaign) -> dict:
    return state(campaign)["game"]


def text(response) -> str:
    return html.unescape(response.content.decode())
