"""Small helpers the Arkham features share: finding an investigator, a token's name, limits."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import CommandError, Payload, Redraws, need_int, said_int
from campaigns.engines import chaos
from campaigns.games.arkham import card, catalogue, data
from campaigns.games.arkham.state import ArkhamState, Investigator, SymbolEffect
from campaigns.words import joined

MAX_INVESTIGATORS = 40
MAX_ITEMS = 200
NAME = 80
SKILL_LIMIT = 10  # a token modifier or elder sign bonus, either way

# The live regions of the Arkham pages (`{% region %}` in templates/games/arkham/), by what they
# show: a command names those it changes (`Command.regions`) beside the form's own; the answer
# draws those the page it was made on has.
# What a test changes: the test, what is out of the bag (the contents' counts, what can be
# recorded), the last draws and the statistics. Not the corrections (the contents' forms): a
# test does not change the bag's contents. The odds and the bless and curse pool change only
# when bless or curse come out, the tokens one can seal only when every one of a token is out
# or back (draw.after_test).
DRAW_REGIONS = (
    "bag-drawn",
    "bag-actions",
    "bag-record",
    "bag-draws",
    "bag-in",
    "bag-stats",
    "ark-overview",
)
# What is in the bag and how it draws (contents, odds, statistics; the table's starting bag).
BAG_REGIONS = (*DRAW_REGIONS, "bag-seal", "bag-pool", "bag-odds", "bag-correct")
# What a token does: the odds, the contents' effect texts, the effects form and elder sign, and
# the draw (it asks for X when an effect has one).
EFFECT_REGIONS = ("bag-odds", "bag-correct", "bag-effects", "bag-actions", "bag-card")
# Who plays: the investigators, who tests, what the odds and the after-scenario form name.
PEOPLE_REGIONS = ("investigators", "bag-who", "bag-odds", "bag-effects", "record-scenario")
# Command(…, **PEOPLE): who plays changes.
PEOPLE: Redraws[ArkhamState] = {"regions": PEOPLE_REGIONS}
ROUND_REGIONS = ("round-now", "round-doom", "round-steps")
# Everything a page of the game shows (a scenario started or recorded).
ALL_REGIONS = (
    *BAG_REGIONS,
    *PEOPLE_REGIONS,
    *ROUND_REGIONS,
    "bag-effects",
    "bag-card",
    "trackers",
    "record-scenario",
    "scenario-results",
)


# Finding things


def investigator(state: ArkhamState, payload: Payload, key: str = "investigator") -> Investigator:
    wanted = need_int(payload, key)
    for found in state.get("investigators", []):
        if found["id"] == wanted:
            return found
    raise CommandError(_("That investigator is not in this campaign."), key)


def name_of(state: ArkhamState, investigator_id: object) -> str:
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


def scenario_ref(state: ArkhamState) -> str:
    """The scenario being played, by id: picked from the campaign's list, or its typed name
    (an event from before the list names the scenario by text only: the same mapping)."""
    ref = state.get("scenario_id")
    if ref:
        return str(ref)
    return catalogue.scenario_ref(state["campaign"], state.get("scenario") or "")


def scenario_key(state: ArkhamState) -> str:
    return f"{data.BANDS[state['difficulty']]}|{scenario_ref(state)}"


def scenario_effects(state: ArkhamState) -> dict[str, SymbolEffect]:
    """The symbol effects entered for the scenario being played. A state kept from before the
    effects were stored by id keys them "<band>|<name as typed>": such a key counts when its
    name means the same scenario (so "the gathering" and "The Gathering" are one)."""
    stored = state.get("effects", {})
    key = scenario_key(state)
    if key in stored:
        return dict(stored[key])
    band, ref = key.split("|", 1)
    for old, effects in stored.items():
        old_band, _sep, name = old.partition("|")
        if old_band == band and catalogue.scenario_ref(state["campaign"], name) == ref:
            return dict(effects)
    return {}


def effects_for(state: ArkhamState, investigator_id: object) -> dict[str, chaos.Effect]:
    """The symbol effects of a test: the scenario's four (the card's lines, each replaced by
    what the group typed for it), what the investigator testing changes of them (Jim Culver's
    skull), and their elder sign."""
    effects = card.card_effects(state)
    effects.update({k: engine_effect(v) for k, v in scenario_effects(state).items()})
    for found in state.get("investigators", []):
        if found["id"] == investigator_id:
            effects.update({k: engine_effect(v) for k, v in found.get("symbols", {}).items()})
            elder = engine_effect(found["elder"])
            effects["elder_sign"] = {
                k: v for k, v in elder.items() if k in ("modifier", "auto_succeed", "per_x")
            }
    return effects


def engine_effect(effect: Mapping[str, object]) -> chaos.Effect:
    """An effect as stored (its numbers and flags) as the engine reads it."""
    return {key: value for key, value in effect.items() if isinstance(value, int)}


# Resolve steps that copy names into the payload, for the history


def with_investigator(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    payload["name"] = investigator(state, payload)["name"]
    return payload


# Words for the history (translated when read)


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−") if value else "0"


def token_words(tokens: object) -> str:
    if not isinstance(tokens, list):
        return ""
    return joined(data.TOKEN_LABELS.get(t, t) for t in tokens)


def supply_label(supply: object) -> StrOrPromise:
    return data.SUPPLIES[supply][0] if isinstance(supply, str) and supply in data.SUPPLIES else ""


def describe_investigator(template: str) -> Callable[[Payload], str]:
    def describe(p: Payload) -> str:
        return _(template) % {
            "name": catalogue.reader_name(p.get("name")),
            "kind": p.get("kind", ""),
            "delta": signed(said_int(p, "delta")) if isinstance(p.get("delta"), int) else "",
            "text": p.get("text", ""),
            "card": p.get("card", ""),
            "level": p.get("level", ""),
            "status": p.get("status", ""),
            "supply": supply_label(p.get("supply")),
        }

    return describe


def token_view(token: str, **extra: object) -> dict[str, object]:
    """A token as the pages show it: its name and our own icon."""
    return {
        "token": token,
        "label": data.TOKEN_LABELS[token],
        "icon": f"icons/arkham/tokens.svg#{data.TOKEN_ICONS[token]}",
        **extra,
    }


# Form pieces


class TokenField(forms.ChoiceField):
    default_error_messages = {
        "invalid_choice": gettext_lazy("There is no chaos token called “%(value)s”."),
        "required": gettext_lazy("Choose a token."),
    }

    def __init__(
        self,
        tokens: Iterable[str] = chaos.TOKENS,
        widget: type[forms.Widget] | None = None,
        required: bool = True,
    ) -> None:
        super().__init__(
            choices=[(t, data.TOKEN_LABELS[t]) for t in tokens],
            label=gettext_lazy("Token"),
            widget=widget,
            required=required,
        )


class InvestigatorIdForm(forms.Form):
    investigator = forms.IntegerField(
        label=gettext_lazy("Investigator"),
        min_value=1,
        max_value=10**9,
        widget=forms.HiddenInput,
    )


def x_label(symbol: str) -> str:
    return _("X for %(token)s") % {"token": data.TOKEN_LABELS[symbol]}


class XForm(forms.Form):
    """X for each symbol whose effect is −X or +X, set when the test starts."""

    def x_rows(self) -> list[tuple[str, forms.BoundField]]:
        """(symbol, its X field), for the page to show the ones the effects ask for."""
        return [(symbol, self[f"x_{symbol}"]) for symbol in chaos.SYMBOLS]


# The X fields are the class's, made once, as declared fields are (their labels translate when
# drawn): a form made per tap or per region drawn copies them, and `{% command_form %}` can
# copy one unbound draw or record form instead of making the fields again (bench_change).
XForm.declared_fields.update(
    {
        f"x_{symbol}": forms.IntegerField(
            label=lazy(x_label, str)(symbol),
            min_value=0,
            max_value=chaos.MAX_X,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        for symbol in chaos.SYMBOLS
    }
)
