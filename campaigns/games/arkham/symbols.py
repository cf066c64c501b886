"""What the symbol tokens do: the scenario's skull, cultist, tablet and elder thing (entered by
the group for the scenario being played, per difficulty band), and each investigator's elder sign.

In the state, ``effects`` keys the scenario effects by "<difficulty band>|<scenario name>"; an
investigator's ``elder`` holds the elder sign's modifier or automatic success. The bag reads
both through ``common.effects_for`` when a token is revealed and when the odds are worked out.
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, CommandError, Payload, State, need_bool, need_int
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.common import (
    EFFECT_REGIONS,
    SKILL_LIMIT,
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    scenario_key,
    token_view,
    with_investigator,
)

EFFECT_KEYS = {"modifier", "reveal_another", "auto_fail"}


def apply_effects(state: State, payload: Payload) -> None:
    if not state.get("scenario"):
        raise CommandError(_("Start a scenario first: the effects belong to it."), "skull")
    effects = payload.get("effects")
    if not isinstance(effects, dict) or set(effects) != set(data.SCENARIO_SYMBOLS):
        raise CommandError(_("Give the effect of each of the four symbols."), "skull")
    clean = {}
    for symbol in data.SCENARIO_SYMBOLS:
        effect = effects[symbol]
        if not isinstance(effect, dict) or set(effect) != EFFECT_KEYS:
            raise CommandError(_("Give the effect of each of the four symbols."), symbol)
        clean[symbol] = {
            "modifier": need_int(effect, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
            "reveal_another": need_bool(effect, "reveal_another"),
            "auto_fail": need_bool(effect, "auto_fail"),
        }
        if clean[symbol]["auto_fail"]:
            clean[symbol].update(modifier=0, reveal_another=False)
    chaos.validate_effects(clean)
    state.setdefault("effects", {})[scenario_key(state)] = clean


def resolve_effects(state: State, data_: Payload, rng: random.Random) -> Payload:
    effects = {}
    for symbol in data.SCENARIO_SYMBOLS:
        mode = data_.get(symbol) or "modifier"
        effects[symbol] = {
            "modifier": 0 if mode == "fail" else data_.get(f"{symbol}_value") or 0,
            "reveal_another": mode == "again",
            "auto_fail": mode == "fail",
        }
    return {"scenario": state.get("scenario") or "", "effects": effects}


def describe_effects(p: Payload) -> str:
    return _("Set the token effects for “%(name)s”") % {"name": p.get("scenario", "")}


def apply_elder(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    found["elder"] = {
        "modifier": need_int(payload, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
        "auto_succeed": need_bool(payload, "auto_succeed"),
    }


EFFECT_MODES = [
    ("modifier", gettext_lazy("Modifier")),
    ("again", gettext_lazy("Reveal another")),
    ("fail", gettext_lazy("Automatic failure")),
]


class EffectsForm(forms.Form):
    """What skull, cultist, tablet and elder thing do in the current scenario: for each symbol
    a mode and a modifier. Its initial values are the symbols entered so far (effect_initial)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for symbol in data.SCENARIO_SYMBOLS:
            label = data.TOKEN_LABELS[symbol]
            self.fields[symbol] = forms.ChoiceField(
                label=label,
                choices=EFFECT_MODES,
                required=False,
                widget=forms.Select(
                    attrs={"class": "grow", "aria-label": _("What %(t)s does") % {"t": label}}
                ),
            )
            self.fields[f"{symbol}_value"] = forms.IntegerField(
                label=label,
                min_value=-10,
                max_value=10,
                required=False,
                initial=0,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "class": "narrower",
                        "aria-label": _("%(t)s modifier") % {"t": label},
                    }
                ),
            )

    def rows(self) -> list[tuple[dict[str, Any], forms.BoundField, forms.BoundField]]:
        """Each symbol as the page shows it (entered yet or not), its mode and its modifier."""
        return [
            (
                token_view(symbol, known=symbol in self.initial),
                self[symbol],
                self[f"{symbol}_value"],
            )
            for symbol in data.SCENARIO_SYMBOLS
        ]


class ElderForm(InvestigatorIdForm):
    modifier = forms.IntegerField(
        label=gettext_lazy("Elder sign modifier"),
        min_value=-10,
        max_value=10,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    auto_succeed = forms.BooleanField(label=gettext_lazy("Automatic success"), required=False)


def effect_initial(state: State) -> dict[str, Any]:
    """The effects form's initial values: the mode and modifier of each symbol entered so far
    for the scenario being played (a symbol not entered yet is not in it)."""
    scenario_effects = state.get("effects", {}).get(scenario_key(state), {})
    initial: dict[str, Any] = {}
    for symbol, effect in scenario_effects.items():
        if not effect:
            continue
        initial[symbol] = (
            "fail"
            if effect.get("auto_fail")
            else "again"
            if effect.get("reveal_another")
            else "modifier"
        )
        initial[f"{symbol}_value"] = effect.get("modifier", 0)
    return initial


COMMANDS = (
    Command(
        "scenario.effects",
        EffectsForm,
        apply_effects,
        describe_effects,
        resolve_effects,
        stale_check=True,
        regions=EFFECT_REGIONS,
    ),
    Command(
        "investigator.elder",
        ElderForm,
        apply_elder,
        describe_investigator(gettext_noop("%(name)s: set the elder sign effect")),
        with_investigator,
        stale_check=True,
        regions=EFFECT_REGIONS,
    ),
)
