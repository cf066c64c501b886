"""A new Arkham campaign: which campaign and difficulty, and the state before any event."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import CommandError, Payload
from campaigns.games.arkham import data
from campaigns.games.arkham.log import start_log
from campaigns.games.arkham.round import fresh_round
from campaigns.games.arkham.state import ArkhamState


class SetupForm(forms.Form):
    campaign = forms.ChoiceField(
        label=gettext_lazy("Campaign"),
        choices=[(key, c["name"]) for key, c in data.CAMPAIGNS.items()],
        initial="notz",
    )
    difficulty = forms.ChoiceField(
        label=gettext_lazy("Difficulty"),
        choices=list(data.DIFFICULTIES.items()),
        initial="standard",
    )


def initial_state(setup: Payload) -> ArkhamState:
    """The state before any event: the campaign's starting bag and its campaign log."""
    if not isinstance(setup, dict):
        raise CommandError(_("The set-up does not fit this game."))
    campaign = setup.get("campaign")
    difficulty = setup.get("difficulty")
    if (
        not isinstance(campaign, str)
        or not isinstance(difficulty, str)
        or campaign not in data.CAMPAIGNS
        or difficulty not in data.DIFFICULTIES
    ):
        raise CommandError(_("Choose one of the campaigns and one of the difficulties."))
    state: ArkhamState = {
        "next_id": 1,
        "campaign": campaign,
        "difficulty": difficulty,
        "bag": dict(data.BAGS.get(campaign, {}).get(difficulty, {})),
        "sealed": {},
        "investigators": [],
        "active": None,
        "scenario": None,
        "effects": {},
        "draws": [],
        "stats": {"tests": 0, "tokens": {}},
        "scenarios": [],
        "trackers": [],
        "log_ids": [],
        "round": fresh_round(),
    }
    start_log(state, campaign)  # the campaign adds its name and archived flag
    return state
