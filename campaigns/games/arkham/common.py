"""Small helpers the Arkham features share: finding an investigator, a token's name, limits."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import CommandError, Payload, State, need_int
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.state import Investigator
from campaigns.words import joined

MAX_INVESTIGATORS = 40
MAX_ITEMS = 200
NAME = 80
SKILL_LIMIT = 10  # a token modifier or elder sign bonus, either way

# The live regions of the Arkham pages (`{% region %}` in templates/games/arkham/), by what they
# show: a command names those it changes (`Command.regions`) beside the form's own; the answer
# draws those the page it was made on has.
# What is in the bag and how it draws (contents, odds, statistics; the table's starting bag).
BAG_REGIONS = (
    "bag-drawn",
    "bag-actions",
    "bag-record",
    "bag-odds",
    "bag-draws",
    "bag-contents",
    "bag-pool",
    "bag-seal",
    "bag-stats",
    "ark-overview",
)
# What a token does: the odds, the contents' effect texts, the effects form and elder sign.
EFFECT_REGIONS = ("bag-odds", "bag-contents", "bag-effects")
# Who plays: the investigators, who tests, what the odds and the after-scenario form name.
PEOPLE_REGIONS = ("investigators", "bag-who", "bag-odds", "bag-effects", "record-scenario")
ROUND_REGIONS = ("round-now", "round-doom", "round-steps")
# Everything a page of the game shows (a scenario started or recorded).
ALL_REGIONS = (
    *BAG_REGIONS,
    *PEOPLE_REGIONS,
    *ROUND_REGIONS,
    "bag-effects",
    "trackers",
    "record-scenario",
    "scenario-results",
)


# Finding things


def investigator(state: State, payload: Payload, key: str = "investigator") -> Investigator:
    wanted = need_int(payload, key)
    for found in state.get("investigators", []):
        if found["id"] == wanted:
            return found
    raise CommandError(_("That investigator is not in this campaign."), key)


def name_of(state: State, investigator_id: Any) -> str:
    for found in state.get("investigators", []):
        if found["id"] == investigator_id:
            return found["name"]
    return ""


def need_token(
    payload: Payload, key: str = "token", choices: Collection[str] = chaos.TOKENS
) -> str:
    token = payload.get(key)
    if not isinstance(token, str) or token not in choices:
        raise CommandError(_("There is no chaos token called “%(token)s”.") % {"token": token}, key)
    return token


def scenario_key(state: State) -> str:
    return f"{data.BANDS[state['difficulty']]}|{state.get('scenario') or ''}"


def effects_for(state: State, investigator_id: Any) -> dict[str, dict[str, Any]]:
    """The symbol effects of a test: the scenario's four, and the investigator's elder sign."""
    effects = {k: dict(v) for k, v in state.get("effects", {}).get(scenario_key(state), {}).items()}
    for found in state.get("investigators", []):
        if found["id"] == investigator_id:
            effects["elder_sign"] = dict(found["elder"])
    return effects


# Resolve steps that copy names into the payload, for the history


def with_investigator(state: State, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    payload["name"] = investigator(state, payload)["name"]
    return payload


# Words for the history (translated when read)


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−") if value else "0"


def token_words(tokens: Any) -> str:
    if not isinstance(tokens, list):
        return ""
    return joined(data.TOKEN_LABELS.get(t, t) for t in tokens)


def describe_investigator(template: str) -> Callable[[Payload], str]:
    def describe(p: Payload) -> str:
        return _(template) % {
            "name": p.get("name", ""),
            "kind": p.get("kind", ""),
            "delta": signed(p.get("delta", 0)) if isinstance(p.get("delta"), int) else "",
            "text": p.get("text", ""),
            "card": p.get("card", ""),
            "level": p.get("level", ""),
            "status": p.get("status", ""),
            "supply": data.SUPPLIES[p["supply"]][0] if p.get("supply") in data.SUPPLIES else "",
        }

    return describe


def token_view(token: str, **extra: Any) -> dict[str, Any]:
    """A token as the pages show it: its name and our own icon."""
    return {
        "token": token,
        "label": data.TOKEN_LABELS[token],
        "icon": f"icons/arkham/{data.TOKEN_ICONS[token]}.svg",
        **extra,
    }


# Form pieces


class TokenField(forms.ChoiceField):
    default_error_messages = {
        "invalid_choice": gettext_lazy("There is no chaos token called “%(value)s”."),
        "required": gettext_lazy("Choose a token."),
    }

    def __init__(self, tokens: Iterable[str] = chaos.TOKENS, **kwargs: Any) -> None:
        kwargs.setdefault("label", gettext_lazy("Token"))
        super().__init__(choices=[(t, data.TOKEN_LABELS[t]) for t in tokens], **kwargs)


class InvestigatorIdForm(forms.Form):
    investigator = forms.IntegerField(
        label=gettext_lazy("Investigator"),
        min_value=1,
        max_value=10**9,
        widget=forms.HiddenInput,
    )
