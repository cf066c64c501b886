"""The shapes of what the Arkham pages post (and the set-up), checked before anything changes."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from campaigns.commands import CommandError, State
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.trackers import add_tracker


class TokenField(forms.ChoiceField):
    default_error_messages = {
        "invalid_choice": gettext_lazy("There is no chaos token called “%(value)s”."),
        "required": gettext_lazy("Choose a token."),
    }

    def __init__(self, tokens=chaos.TOKENS, **kwargs):
        kwargs.setdefault("label", gettext_lazy("Token"))
        super().__init__(choices=[(t, data.TOKEN_LABELS[t]) for t in tokens], **kwargs)


def investigator_field(**kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        label=gettext_lazy("Investigator"), min_value=1, max_value=10**9, **kwargs
    )


# Set-up


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


def initial_state(setup: dict[str, Any]) -> State:
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
    bag = dict(data.BAGS.get(campaign, {}).get(difficulty, {}))
    state: State = {
        "next_id": 1,
        "campaign": campaign,
        "difficulty": difficulty,
        "bag": bag,
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
        "round": {
            "number": 1,
            "step": data.FIRST_STEP,
            "doom": 0,
            "threshold": None,
            "agenda": 1,
            "advanced": None,
        },
    }
    sections = [(data.CAMPAIGN_NOTES, "notes", [])] + data.CAMPAIGNS[campaign]["sections"]
    for name, kind, items in sections:
        spec: dict[str, Any] = {"kind": kind, "name": name}
        if kind == "counter":
            spec.update(minimum=0, maximum=None, start=0)
        if kind == "checklist":
            spec["items"] = list(items)
        state["log_ids"].append(add_tracker(state, spec)["id"])
    return state


# The chaos bag


class EmptyForm(forms.Form):
    """A tap with nothing to say but which button (draw, reveal another, done)."""


class TestForm(forms.Form):
    """Reveal another or done: the test the phone showed, so a tap meant for a test that has
    ended meanwhile does not land in a new one."""

    test = forms.IntegerField(min_value=1, required=False)


class TokenForm(forms.Form):
    token = TokenField()


class RecordForm(TokenForm):
    test = forms.IntegerField(min_value=1, required=False)
    into = forms.ChoiceField(
        label=gettext_lazy("This token"),
        choices=[
            ("new", gettext_lazy("starts a new test")),
            ("same", gettext_lazy("belongs to the test going on")),
        ],
        required=False,
    )


class BagChangeForm(TokenForm):
    delta = forms.IntegerField(label=gettext_lazy("Change"), min_value=-99, max_value=99)


class BagSetForm(TokenForm):
    count = forms.IntegerField(label=gettext_lazy("How many"), min_value=0, max_value=99)


class ActiveForm(forms.Form):
    investigator = forms.IntegerField(
        label=gettext_lazy("Investigator"), min_value=0, max_value=10**9, required=False
    )


EFFECT_MODES = [
    ("modifier", gettext_lazy("Modifier")),
    ("again", gettext_lazy("Reveal another")),
    ("fail", gettext_lazy("Automatic failure")),
]


class EffectsForm(forms.Form):
    """What skull, cultist, tablet and elder thing do in the current scenario."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for symbol in data.SCENARIO_SYMBOLS:
            label = data.TOKEN_LABELS[symbol]
            self.fields[symbol] = forms.ChoiceField(
                label=label, choices=EFFECT_MODES, required=False
            )
            self.fields[f"{symbol}_value"] = forms.IntegerField(
                label=label, min_value=-10, max_value=10, required=False
            )


class OddsForm(forms.Form):
    """The typed skill and difficulty of the odds (a GET form)."""

    skill = forms.IntegerField(label=gettext_lazy("Skill"), min_value=0, max_value=40)
    difficulty = forms.IntegerField(label=gettext_lazy("Difficulty"), min_value=0, max_value=40)


# Scenarios


class StartForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Scenario"), max_length=80)


BAG_ROWS = (1, 2, 3)
NON_POOL = [t for t in chaos.TOKENS if t not in data.POOL_TOKENS]
DYNAMIC = re.compile(r"^(xp|physical|mental|fate|entry|count)-(\d{1,9})$")


class ScenarioForm(forms.Form):
    """After a scenario: the fixed fields, plus one set per investigator and log section that the
    page posts (xp-<id>, physical-<id>, mental-<id>, fate-<id>, entry-<id>, count-<id>)."""

    scenario = forms.CharField(label=gettext_lazy("Scenario"), max_length=80)
    resolution = forms.CharField(label=gettext_lazy("Resolution"), max_length=80, required=False)

    def __init__(self, data_=None, *args, **kwargs):
        super().__init__(data_, *args, **kwargs)
        for n in BAG_ROWS:
            self.fields[f"bag_op_{n}"] = forms.ChoiceField(
                label=gettext_lazy("Bag change"),
                choices=[("add", gettext_lazy("Add")), ("remove", gettext_lazy("Remove"))],
                required=False,
            )
            self.fields[f"bag_token_{n}"] = TokenField(NON_POOL, required=False)
            self.fields[f"bag_count_{n}"] = forms.IntegerField(
                label=gettext_lazy("How many"), min_value=0, max_value=10, required=False
            )
        labels = {
            "xp": gettext_lazy("XP"),
            "physical": gettext_lazy("Physical trauma"),
            "mental": gettext_lazy("Mental trauma"),
            "count": gettext_lazy("Counter change"),
        }
        for key in list(data_ or {})[:400]:
            match = DYNAMIC.match(key)
            if not match:
                continue
            kind = match.group(1)
            if kind == "fate":
                self.fields[key] = forms.ChoiceField(
                    label=gettext_lazy("Killed or insane"),
                    choices=[
                        ("", "—"),
                        ("killed", gettext_lazy("killed")),
                        ("insane", gettext_lazy("insane")),
                    ],
                    required=False,
                )
            elif kind == "entry":
                self.fields[key] = forms.CharField(
                    label=gettext_lazy("Log entries"), max_length=4000, required=False
                )
            else:
                self.fields[key] = forms.IntegerField(
                    label=labels[kind], min_value=-1000, max_value=1000, required=False
                )


# Investigators


class InvestigatorForm(forms.Form):
    player = forms.CharField(label=gettext_lazy("Player"), max_length=80, required=False)
    name = forms.CharField(label=gettext_lazy("Investigator"), max_length=80)
    health = forms.IntegerField(label=gettext_lazy("Health"), min_value=1, max_value=30)
    sanity = forms.IntegerField(label=gettext_lazy("Sanity"), min_value=1, max_value=30)
    replaces = forms.IntegerField(min_value=1, max_value=10**9, required=False)


class InvestigatorIdForm(forms.Form):
    investigator = investigator_field()


class TraumaForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        choices=[
            ("physical", gettext_lazy("Physical trauma")),
            ("mental", gettext_lazy("Mental trauma")),
        ]
    )
    delta = forms.IntegerField(label=gettext_lazy("Change"), min_value=-30, max_value=30)


class DeltaForm(InvestigatorIdForm):
    delta = forms.IntegerField(label=gettext_lazy("Change"), min_value=-200, max_value=200)


class BuyForm(InvestigatorIdForm):
    card = forms.CharField(label=gettext_lazy("Card"), max_length=80, required=False)
    level = forms.IntegerField(label=gettext_lazy("Level"), min_value=0, max_value=5)


class MarkForm(InvestigatorIdForm):
    status = forms.ChoiceField(
        choices=[
            ("active", gettext_lazy("in play")),
            ("killed", gettext_lazy("killed")),
            ("insane", gettext_lazy("insane")),
        ]
    )


class ItemForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[("asset", gettext_lazy("Story asset")), ("weakness", gettext_lazy("Weakness"))],
    )
    text = forms.CharField(label=gettext_lazy("Card"), max_length=80)


class UnitemForm(InvestigatorIdForm):
    item = forms.IntegerField(min_value=1, max_value=10**9)


class ElderForm(InvestigatorIdForm):
    modifier = forms.IntegerField(
        label=gettext_lazy("Elder sign modifier"), min_value=-10, max_value=10
    )
    auto_succeed = forms.BooleanField(label=gettext_lazy("Automatic success"), required=False)


class SupplyForm(InvestigatorIdForm):
    supply = forms.ChoiceField(
        label=pgettext_lazy("The Forgotten Age", "Supply"),
        choices=[(k, v[0]) for k, v in data.SUPPLIES.items()],
    )


# The round


class RoundNextForm(forms.Form):
    # `from` is a Python keyword, so the field is added by name.
    loop = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from"] = forms.ChoiceField(
            label=gettext_lazy("Step"), choices=[(c, c) for c in data.STEP_CODES]
        )


class DeltaOnlyForm(forms.Form):
    delta = forms.IntegerField(label=gettext_lazy("Change"), min_value=-99, max_value=99)


class ThresholdForm(forms.Form):
    threshold = forms.IntegerField(
        label=gettext_lazy("Doom threshold"), min_value=1, max_value=99, required=False
    )


class AgendaForm(forms.Form):
    agenda = forms.IntegerField(label=gettext_lazy("Agenda"), min_value=1, max_value=20)
