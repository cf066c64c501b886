"""Doom, the omen track, the open gates and the awakening: the one module of the doom track
(rules.md §3a, §3b).

Doom advances toward 0 and retreats away from it; at 0 the Ancient One awakens, and after that
doom cannot retreat [001:245-249]. The awakening does what the sheet's back says: the final
mystery becomes required, or the investigators lose (Azathoth) [001:62-69]. An investigator
defeated or devoured advances doom by one before the awakening, and is eliminated after it
[001:69, 001:194].
The omen advances clockwise around green, blue, red, blue; every space is a comet, and each step
onto one advances doom by the open gates of its colour [001:507-513], in the same change.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_choice, need_int
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS, game_of, settle
from campaigns.games.eldritch.state import EldritchState, Game

STEPS = {"advance": gettext_lazy("Advance"), "retreat": gettext_lazy("Retreat")}


class DoomForm(forms.Form):
    step = forms.ChoiceField(choices=list(STEPS.items()), widget=forms.HiddenInput)


class OmenForm(forms.Form):
    pass


class GateForm(forms.Form):
    colour = forms.ChoiceField(choices=list(data.GATE_COLOURS.items()), widget=forms.HiddenInput)
    delta = forms.IntegerField(min_value=-1, max_value=1, widget=forms.HiddenInput)


def advance_doom(game: Game, steps: int) -> None:
    """Doom moves toward 0 by `steps`; at 0 the Ancient One awakens."""
    game["doom"] = max(0, game["doom"] - steps)
    if game["doom"] == 0 and not game["awakened"]:
        awaken(game)


def awaken(game: Game) -> None:
    """The sheet flips and its back says what happens: the final mystery starts, or the
    investigators lose (Azathoth's, or a typed Ancient One's the group said loses)."""
    game["awakened"] = True
    if game.get("awakening") == "loss" and game["outcome"] is None:
        game["outcome"] = {"result": "loss", "reason": "doom"}


def retreat_doom(game: Game, field: str | None = None) -> None:
    """Doom moves away from 0 by one: refused once the Ancient One has awakened."""
    if game["awakened"]:
        raise CommandError(_("The Ancient One has awakened: doom cannot retreat."), field)
    if game["doom"] >= 30:
        raise CommandError(_("Doom cannot retreat further."), field)
    game["doom"] += 1


def final_mystery_due(game: Game) -> bool:
    """Whether the awakening made the final mystery required (it did not when it lost)."""
    return game["awakened"] and game.get("awakening") != "loss"


def fallen_status(game: Game, status: str) -> str:
    """What a defeat or a devouring does to doom, and the status it leaves: before the awakening
    doom advances by one and the investigator is `status`; after it, eliminated."""
    if game["awakened"]:
        return "eliminated"
    advance_doom(game, 1)
    return status


def comet(game: Game) -> None:
    """The omen advances one space; the comet there advances doom by its colour's open gates."""
    game["omen"] = (game["omen"] + 1) % len(data.OMEN_TRACK)
    advance_doom(game, game["gates"][omen_colour(game)])


def apply_doom(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "step")
    if need_choice(payload, "step", STEPS) == "advance":
        advance_doom(game, 1)
    else:
        retreat_doom(game, "step")


def describe_doom(payload: Payload) -> str:
    if payload.get("step") == "advance":
        return _("Doom advanced")
    return _("Doom retreated")


def omen_colour(game: Game) -> str:
    return data.OMEN_TRACK[game["omen"] % len(data.OMEN_TRACK)]


def apply_omen(state: EldritchState, payload: Payload) -> None:
    game = game_of(state)
    comet(game)
    settle(game)


def apply_gate(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "delta")
    colour = need_choice(payload, "colour", data.GATE_COLOURS)
    value = game["gates"][colour] + need_int(payload, "delta", -1, 1)
    if not 0 <= value <= 20:
        raise CommandError(_("Open gates are counted from 0 to 20."), "delta")
    game["gates"][colour] = value


def describe_gate(payload: Payload) -> str:
    colour = str(data.GATE_COLOURS.get(str(payload.get("colour")), "?"))
    if payload.get("delta") == 1:
        return _("A %(colour)s gate opened") % {"colour": colour}
    return _("A %(colour)s gate closed") % {"colour": colour}


def doom_view(game: Game) -> dict[str, object]:
    colour = omen_colour(game)
    track = [
        {"colour": c, "label": data.GATE_COLOURS[c], "here": i == game["omen"]}
        for i, c in enumerate(data.OMEN_TRACK)
    ]
    following = data.OMEN_TRACK[(game["omen"] + 1) % len(data.OMEN_TRACK)]
    return {
        "omen_colour": colour,
        "omen_label": data.GATE_COLOURS[colour],
        "omen_track": track,
        "next_omen_label": data.GATE_COLOURS[following],
        "next_omen_doom": game["gates"][following],
        "gates": [
            {"colour": c, "label": label, "count": game["gates"][c]}
            for c, label in data.GATE_COLOURS.items()
        ],
    }


COMMANDS = (
    Command("eh.doom", DoomForm, apply_doom, describe_doom, regions=REGIONS),
    Command(
        "eh.omen",
        OmenForm,
        apply_omen,
        lambda p: _("The omen advanced"),
        stale_check=True,
        regions=REGIONS,
    ),
    Command("eh.gate", GateForm, apply_gate, describe_gate, regions=REGIONS),
)
