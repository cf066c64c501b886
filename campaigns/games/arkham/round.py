"""The round helper: the framework steps of a round (rules.md §1c), doom on the agenda against
its threshold, and which agenda the group is on.

In the state, ``round`` holds the round number, the current step's code, doom, the threshold
(None when not set), the agenda and the round in which doom last advanced the agenda.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import commands
from campaigns.commands import Command, CommandError, CommandOptions, Payload
from campaigns.games.arkham import data
from campaigns.games.arkham.common import signed
from campaigns.games.arkham.state import ArkhamState, Round
from campaigns.games.built_form import BuiltForm


def fresh_round() -> Round:
    return {
        "number": 1,
        "step": data.FIRST_STEP,
        "doom": 0,
        "threshold": None,
        "agenda": 1,
        "advanced": None,
    }


def apply_round_next(state: ArkhamState, payload: Payload) -> None:
    rnd = state["round"]
    step = commands.need_choice(payload, "from", data.STEP_CODES)
    if step != rnd["step"]:
        raise CommandError(_("The round has moved on meanwhile: here is where it is."), "from")
    if commands.need_bool(payload, "loop"):
        if step != "2.2.2":
            raise CommandError(_("Only a turn's end leads to the next turn."), "from")
        rnd["step"] = "2.2"
        return
    index = data.STEP_CODES.index(step)
    if index == len(data.STEP_CODES) - 1:
        rnd["number"] += 1
        rnd["step"] = data.STEP_CODES[0]
        rnd["advanced"] = None
        return
    rnd["step"] = data.STEP_CODES[index + 1]
    if rnd["step"] == "1.2":
        rnd["doom"] += 1
    if rnd["step"] == "1.3" and rnd["threshold"] and rnd["doom"] >= rnd["threshold"]:
        rnd["agenda"] += 1
        rnd["doom"] = 0
        rnd["advanced"] = rnd["number"]


def describe_round(p: Payload) -> str:
    if p.get("loop"):
        return _("Round helper: the next investigator's turn")
    step = p.get("from")
    index = data.STEP_CODES.index(step) if isinstance(step, str) and step in data.STEP_CODES else -1
    after = data.STEP_CODES[(index + 1) % len(data.STEP_CODES)] if index >= 0 else "?"
    return _("Round helper: step %(step)s") % {"step": after}


def apply_round_doom(state: ArkhamState, payload: Payload) -> None:
    rnd = state["round"]
    value = rnd["doom"] + commands.need_int(payload, "delta", -99, 99)
    if value < 0:
        raise CommandError(_("Doom cannot go below 0."), "delta")
    if value > 99:
        raise CommandError(_("Keep doom to 99 or less."), "delta")
    rnd["doom"] = value


def apply_round_threshold(state: ArkhamState, payload: Payload) -> None:
    value = payload.get("threshold")
    state["round"]["threshold"] = (
        None if value is None else commands.need_int(payload, "threshold", 1, 99)
    )


def apply_round_agenda(state: ArkhamState, payload: Payload) -> None:
    state["round"]["agenda"] = commands.need_int(payload, "agenda", 1, 20)


# What the phones post


class RoundNextForm(BuiltForm):
    """The step the phone showed (so a tap from a screen the round has left is refused), and
    whether a turn's end leads to the next investigator's turn."""

    # `from` is a Python keyword, so the field is added by name.
    loop = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def add_fields(self) -> None:
        self.fields["from"] = forms.ChoiceField(
            label=gettext_lazy("Step"),
            choices=[(c, c) for c in data.STEP_CODES],
            widget=forms.HiddenInput,
        )


class DeltaOnlyForm(forms.Form):
    delta = forms.IntegerField(
        label=gettext_lazy("Change"), min_value=-99, max_value=99, widget=forms.HiddenInput
    )


class ThresholdForm(forms.Form):
    threshold = forms.IntegerField(
        label=gettext_lazy("Doom threshold"),
        min_value=1,
        max_value=99,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class AgendaForm(forms.Form):
    agenda = forms.IntegerField(
        label=gettext_lazy("Agenda"),
        min_value=1,
        max_value=20,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


# What the round page shows


def round_view(state: ArkhamState) -> dict[str, object]:
    rnd = state["round"]
    current = data.STEP_CODES.index(rnd["step"])
    labels = dict(data.STEPS)
    phases = []
    for phase, phase_label in data.PHASES.items():
        steps = []
        for index, (code, label) in enumerate(data.STEPS):
            if code.split(".")[0] != phase:
                continue
            if rnd["number"] == 1 and phase == "1":
                status = "skipped"
            elif index < current:
                status = "done"
            elif index == current:
                status = "current"
            else:
                status = "todo"
            steps.append({"code": code, "label": label, "status": status})
        phases.append(
            {
                "code": phase,
                "label": phase_label,
                "steps": steps,
                "current": rnd["step"].split(".")[0] == phase,
                "skipped": rnd["number"] == 1 and phase == "1",
            }
        )
    following = (
        data.STEP_CODES[current + 1] if current + 1 < len(data.STEP_CODES) else data.STEP_CODES[0]
    )
    return {
        **rnd,
        "label": labels[rnd["step"]],
        "phase_label": data.PHASES[rnd["step"].split(".")[0]],
        "phases": phases,
        "next_code": following,
        "next_label": labels[following],
        "new_round": current == len(data.STEP_CODES) - 1,
        "turn_end": rnd["step"] == "2.2.2",
        "just_advanced": rnd.get("advanced") == rnd["number"] and rnd["step"] == "1.3",
        "reached": bool(threshold := rnd["threshold"]) and rnd["doom"] >= (threshold or 0),
        # Nothing done since the last scenario was recorded (or the campaign began).
        "untouched": all(rnd.get(key) == value for key, value in fresh_round().items()),
    }


# The round page's regions each command redraws beside the form's own (round-now, round-doom).
# The doom threshold and the agenda are set outright (refused from a stale screen), in the
# round's header.
SETS_NOW: CommandOptions[ArkhamState] = {"stale_check": True, "regions": ("round-now",)}
COMMANDS = (
    Command(
        "round.next",
        RoundNextForm,
        apply_round_next,
        describe_round,
        regions=("round-doom", "round-steps"),
        needs_connection=True,
    ),
    Command(
        "round.doom",
        DeltaOnlyForm,
        apply_round_doom,
        lambda p: _("Doom %(delta)s") % {"delta": signed(commands.said_int(p, "delta"))},
        regions=("round-now",),
    ),
    Command(
        "round.threshold",
        ThresholdForm,
        apply_round_threshold,
        lambda p: _("Doom threshold set to %(n)s") % {"n": p.get("threshold") or "—"},
        **SETS_NOW,
    ),
    Command(
        "round.agenda",
        AgendaForm,
        apply_round_agenda,
        lambda p: _("Now on agenda %(n)s") % {"n": p.get("agenda")},
        **SETS_NOW,
    ),
)
