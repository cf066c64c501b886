"""What the symbol tokens do: the scenario's skull, cultist, tablet and elder thing (the card's
lines, ``card``, each replaced by what the group types for the scenario being played, per
difficulty band: a house rule, a misprint, a tarot card), what an investigator changes of them
for their own tests (Jim Culver's skull), and each investigator's elder sign.

In the state, ``effects`` keys the typed scenario effects by "<difficulty band>|<scenario name>"
(a symbol left "as the scenario card says" is not in it); an investigator's ``symbols`` holds
their own, ``elder`` the elder sign's modifier or automatic success. The bag reads them all
through ``common.effects_for`` when a token is revealed and when the odds are worked out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, CommandError, Payload, need_bool, need_int, said_choice
from campaigns.engines import chaos
from campaigns.games.arkham import card, catalogue, data
from campaigns.games.arkham.common import (
    EFFECT_REGIONS,
    SKILL_LIMIT,
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    scenario_effects,
    scenario_key,
    token_view,
    with_investigator,
)
from campaigns.games.arkham.state import ArkhamState, SymbolEffect
from campaigns.games.built_form import BuiltForm

EFFECT_KEYS = {"modifier", "reveal_another", "auto_fail"}
# Kept only when they say something (an effect from before them has none): reveal N more,
# cancel (0) or double (2) the other revealed tokens' modifiers, raise the difficulty, and X
# times ``per_x`` added, X set when the test starts.
RICH_KEYS = {"reveal", "others", "harder", "per_x"}
OTHERS = {"": 1, "cancel": 0, "double": 2}


def clean_effect(symbol: str, effect: object) -> SymbolEffect:
    if not isinstance(effect, dict) or not EFFECT_KEYS <= set(effect) <= EFFECT_KEYS | RICH_KEYS:
        raise CommandError(_("Give the effect of each of the four symbols."), symbol)
    clean: SymbolEffect = {
        "modifier": need_int(effect, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
        "reveal_another": need_bool(effect, "reveal_another"),
        "auto_fail": need_bool(effect, "auto_fail"),
    }
    more = need_int(effect, "reveal", 0, chaos.MAX_REVEAL) if "reveal" in effect else None
    if more is not None:
        clean["reveal_another"] = more > 0
        if more > 1:
            clean["reveal"] = more
    others = effect.get("others", "")
    if others not in ("cancel", "double", ""):
        raise CommandError(_("Give the effect of each of the four symbols."), f"{symbol}_others")
    if others:
        clean["others"] = OTHERS[others]
    if harder := need_int(effect, "harder", 0, chaos.MAX_HARDER) if "harder" in effect else 0:
        clean["harder"] = harder
    if per_x := need_int(effect, "per_x", -1, 1) if "per_x" in effect else 0:
        clean["per_x"] = per_x
    if clean["auto_fail"]:
        # Nothing else an automatic failure does can matter.
        clean = {"modifier": 0, "reveal_another": False, "auto_fail": True}
    return clean


def apply_effects(state: ArkhamState, payload: Payload) -> None:
    if not state.get("scenario"):
        raise CommandError(_("Start a scenario first: the effects belong to it."), "skull")
    effects = payload.get("effects")
    if not isinstance(effects, dict) or set(effects) != set(data.SCENARIO_SYMBOLS):
        raise CommandError(_("Give the effect of each of the four symbols."), "skull")
    # None: as the scenario card says (the symbol is not typed).
    clean = {
        symbol: clean_effect(symbol, effects[symbol])
        for symbol in data.SCENARIO_SYMBOLS
        if effects[symbol] is not None
    }
    chaos.validate_effects(clean)
    stored = state.setdefault("effects", {})
    key = scenario_key(state)
    band, ref = key.split("|", 1)
    for old in [k for k in stored if k != key and k.startswith(band + "|")]:
        # A key from before the effects were kept by scenario id, naming the same scenario.
        if catalogue.scenario_ref(state["campaign"], old.split("|", 1)[1]) == ref:
            del stored[old]
    stored[key] = clean
    if not clean:
        del stored[key]


def resolve_effects(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    effects: dict[str, Payload | None] = {}
    for symbol in data.SCENARIO_SYMBOLS:
        mode = data_.get(symbol) or "modifier"
        if mode == "card":
            effects[symbol] = None
            continue
        more = data_.get(f"{symbol}_reveal")
        effect: Payload = {
            "modifier": 0 if mode in ("fail", "x") else data_.get(f"{symbol}_value") or 0,
            "reveal_another": mode == "again",
            "auto_fail": mode == "fail",
        }
        if more is not None and mode != "fail":
            effect["reveal"] = max(need_int(data_, f"{symbol}_reveal"), 1 if mode == "again" else 0)
        if data_.get(f"{symbol}_others"):
            effect["others"] = data_[f"{symbol}_others"]
        if data_.get(f"{symbol}_harder"):
            effect["harder"] = data_[f"{symbol}_harder"]
        if mode == "x":
            effect["per_x"] = -1
        effects[symbol] = effect
    return {
        "scenario": state.get("scenario") or "",
        "scenario_id": state.get("scenario_id") or "",
        "effects": effects,
    }


def describe_effects(p: Payload) -> str:
    return _("Set the token effects for “%(name)s”") % {"name": p.get("scenario", "")}


def apply_elder(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    found["elder"] = {
        "modifier": need_int(payload, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
        "auto_succeed": need_bool(payload, "auto_succeed"),
        "set": True,
    }
    if payload.get("plus_x"):  # "+X", X set when the test starts (an event before it has none)
        found["elder"]["per_x"] = 1


def apply_own_symbol(state: ArkhamState, payload: Payload) -> None:
    """What an investigator changes of a scenario symbol for their own tests (Jim Culver's
    skull at 0): it wins over the card and the typed effects; mode "" gives it back."""
    found = investigator(state, payload)
    symbol = payload.get("symbol")
    if symbol not in data.SCENARIO_SYMBOLS:
        raise CommandError(_("Choose one of the four scenario symbols."), "symbol")
    mode = payload.get("mode") or ""
    own: dict[str, SymbolEffect] = dict(found.get("symbols", {}))
    if mode == "":
        own.pop(symbol, None)
    elif mode in ("modifier", "again", "fail"):
        own[symbol] = clean_effect(
            symbol,
            {
                "modifier": 0 if mode == "fail" else payload.get("value") or 0,
                "reveal_another": mode == "again",
                "auto_fail": mode == "fail",
            },
        )
    else:
        raise CommandError(_("Give the effect of each of the four symbols."), "mode")
    if own:
        found["symbols"] = own
    else:
        found.pop("symbols", None)


def describe_own_symbol(p: Payload) -> str:
    return _("%(name)s: changed what %(token)s does for their tests") % {
        "name": catalogue.reader_name(p.get("name")),
        "token": said_choice(data.TOKEN_LABELS, p.get("symbol")),
    }


def elder_is_set(elder: Mapping[str, object]) -> bool:
    """Whether the group entered the elder sign (a state from before the mark counts one that
    differs from the starting +0)."""
    return bool(elder.get("set") or elder.get("modifier") or elder.get("auto_succeed"))


EFFECT_MODES = [
    ("modifier", gettext_lazy("Modifier")),
    ("x", gettext_lazy("−X (X set at the test)")),
    ("again", gettext_lazy("Reveal another")),
    ("fail", gettext_lazy("Automatic failure")),
    ("card", gettext_lazy("As the scenario card says")),
]
OTHERS_CHOICES = [
    ("", "—"),
    ("cancel", gettext_lazy("cancel the other tokens' modifiers")),
    ("double", gettext_lazy("double the other tokens' modifiers")),
]


class EffectsForm(BuiltForm):
    """What skull, cultist, tablet and elder thing do in the current scenario: for each symbol
    a mode and a modifier. Its initial values are the symbols entered so far (effect_initial)."""

    def add_fields(self) -> None:
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
            self.fields[f"{symbol}_reveal"] = forms.IntegerField(
                label=gettext_lazy("Reveal more tokens"),
                min_value=0,
                max_value=chaos.MAX_REVEAL,
                required=False,
            )
            self.fields[f"{symbol}_others"] = forms.ChoiceField(
                label=gettext_lazy("Other modifiers"), choices=OTHERS_CHOICES, required=False
            )
            self.fields[f"{symbol}_harder"] = forms.IntegerField(
                label=gettext_lazy("Difficulty raised by"),
                min_value=0,
                max_value=chaos.MAX_HARDER,
                required=False,
            )

    def rows(self) -> list[dict[str, object]]:
        """Each symbol as the page shows it (entered yet or not), its mode and its modifier,
        and the richer parts: reveal more, the other modifiers, the difficulty raised."""
        return [
            {
                "e": token_view(symbol, known=symbol in self.initial),
                "mode": self[symbol],
                "value": self[f"{symbol}_value"],
                "reveal": self[f"{symbol}_reveal"],
                "others": self[f"{symbol}_others"],
                "harder": self[f"{symbol}_harder"],
            }
            for symbol in data.SCENARIO_SYMBOLS
        ]


class OwnSymbolForm(InvestigatorIdForm):
    symbol = forms.ChoiceField(
        label=gettext_lazy("Symbol"),
        choices=[(s, data.TOKEN_LABELS[s]) for s in data.SCENARIO_SYMBOLS],
    )
    mode = forms.ChoiceField(
        label=gettext_lazy("For this investigator's tests"),
        choices=[("", gettext_lazy("as for everyone")), *EFFECT_MODES[:1], *EFFECT_MODES[2:4]],
        required=False,
    )
    value = forms.IntegerField(
        label=gettext_lazy("Modifier"),
        min_value=-10,
        max_value=10,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class ElderForm(InvestigatorIdForm):
    modifier = forms.IntegerField(
        label=gettext_lazy("Elder sign modifier"),
        min_value=-10,
        max_value=10,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    auto_succeed = forms.BooleanField(label=gettext_lazy("Automatic success"), required=False)
    plus_x = forms.BooleanField(
        label=gettext_lazy("Plus X (X set at the test)"),
        required=False,
        help_text=gettext_lazy("X is a number you give when the test starts."),
    )


def effect_initial(state: ArkhamState) -> dict[str, object]:
    """The effects form's initial values: what each symbol entered so far for the scenario
    being played does (a symbol not entered yet is not in it)."""
    initial: dict[str, object] = {}
    for symbol, line in card.lines(state).items():
        # As the card says, its number ready in the field for a group that changes it.
        initial[symbol] = "card"
        if isinstance(line["modifier"], int):
            initial[f"{symbol}_value"] = line["modifier"]
    for symbol, effect in scenario_effects(state).items():
        if not effect:
            continue
        initial[symbol] = (
            "fail"
            if effect.get("auto_fail")
            else "x"
            if effect.get("per_x")
            else "again"
            if effect.get("reveal_another") and "reveal" not in effect
            else "modifier"
        )
        initial[f"{symbol}_value"] = effect.get("modifier", 0)
        if effect.get("reveal"):
            initial[f"{symbol}_reveal"] = effect["reveal"]
        initial[f"{symbol}_others"] = {0: "cancel", 2: "double"}.get(effect.get("others", 1), "")
        if effect.get("harder"):
            initial[f"{symbol}_harder"] = effect["harder"]
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
        "investigator.symbol",
        OwnSymbolForm,
        apply_own_symbol,
        describe_own_symbol,
        with_investigator,
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
