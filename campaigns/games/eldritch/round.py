"""The round: Action, Encounter and Mythos phases, the lead investigator, and what ends with
the Mythos phase: new investigators for the fallen, passing the lead, and the loss when no
mythos card could be drawn (rules.md §3c, §3d; the phase order is [EXTERNAL – verify])."""

from __future__ import annotations

from typing import TypedDict

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import Command, CommandError, Payload, need_choice
from campaigns.engines import mythos
from campaigns.games.eldritch import data, names
from campaigns.games.eldritch.common import REGIONS, game_of, investigator, named, who
from campaigns.games.eldritch.state import EldritchState, Game
from campaigns.words import joined


class PhaseForm(forms.Form):
    """The phase the phone showed, so a tap from a screen the round has left is refused."""

    phase = forms.ChoiceField(choices=list(data.PHASES.items()), widget=forms.HiddenInput)


class LeadForm(forms.Form):
    investigator = forms.IntegerField(label=gettext_lazy("Lead investigator"))


def deck_out(game: Game) -> bool:
    """No mythos card could be drawn in this round's Mythos phase."""
    drew = any(d["round"] == game["round"] for d in game["draws"])
    return game["phase"] == "mythos" and not drew and mythos.cards_left(game["deck"]) == 0


def apply_phase(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "phase")
    if need_choice(payload, "phase", data.PHASES) != game["phase"]:
        raise CommandError(_("The round has moved on meanwhile: here is where it is."), "phase")
    index = data.PHASE_ORDER.index(game["phase"])
    if game["phase"] != "mythos":
        game["phase"] = data.PHASE_ORDER[index + 1]
        return
    if deck_out(game):
        game["outcome"] = {"result": "loss", "reason": "mythos"}
        return
    waiting = [
        names.shown(state, p["name"])
        for p in game["investigators"]
        if p["status"] in ("defeated", "devoured")
    ]
    if waiting:
        raise CommandError(
            _("First a new investigator for %(names)s (or eliminated).")
            % {"names": joined(waiting)},
            "phase",
        )
    game["phase"] = data.PHASE_ORDER[0]
    game["round"] += 1


def describe_phase(payload: Payload) -> str:
    if payload.get("phase") == "mythos":
        return _("The Mythos phase ended")
    return _("%(phase)s ended") % {"phase": data.PHASES.get(str(payload.get("phase")), "?")}


def apply_lead(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "investigator")
    person = investigator(game, payload)
    if person["status"] not in ("normal", "delayed"):
        raise CommandError(_("The lead goes to an investigator in play."), "investigator")
    game["lead"] = person["id"]


class RoundView(TypedDict):
    phase_label: StrOrPromise
    phases: list[dict[str, object]]
    deck_out: bool
    lead_name: str
    lead_choices: list[tuple[int, str]]  # (id, name) of who may lead


def round_view(game: Game) -> RoundView:
    return {
        "phase_label": data.PHASES[game["phase"]],
        "phases": [
            {"key": key, "label": label, "current": key == game["phase"]}
            for key, label in data.PHASES.items()
        ],
        "deck_out": deck_out(game),
        "lead_name": next(
            (p["name"] for p in game["investigators"] if p["id"] == game["lead"]), "—"
        ),
        "lead_choices": [
            (p["id"], p["name"])
            for p in game["investigators"]
            if p["status"] in ("normal", "delayed")
        ],
    }


COMMANDS = (
    Command(
        "eh.phase",
        PhaseForm,
        apply_phase,
        describe_phase,
        regions=REGIONS,
    ),
    Command(
        "eh.lead",
        LeadForm,
        apply_lead,
        lambda p: _("%(who)s is the lead investigator") % {"who": who(p)},
        resolve=lambda s, d, r: {**d, **named(s, d)},
        stale_check=True,
        regions=REGIONS,
    ),
)
