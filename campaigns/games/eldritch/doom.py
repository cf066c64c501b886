"""Doom, the omen track and the open gates (rules.md §3a, §3b).

Doom advances toward 0 and retreats away from it; at 0 the Ancient One awakens, and after that
doom cannot retreat [001:245-249]. The omen advances clockwise around green, blue, red, blue;
every space is a comet, and each step onto one advances doom by the open gates of its colour
[001:507-513], in the same change.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_choice, need_int
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS, advance_doom, game_of, settle
from campaigns.games.eldritch.state import EldritchState, Game

STEPS = {"advance": gettext_lazy("Advance"), "retreat": gettext_lazy("Retreat")}


class DoomForm(forms.Form):
    step = forms.ChoiceField(choices=list(STEPS.items()), widget=forms.HiddenInput)


class OmenForm(forms.Form):
    pass


class GateForm(forms.Form):
    colour = forms.ChoiceField(choices=list(data.GATE_COLOURS.items()), widget=forms.HiddenInput)
    delta = forms.IntegerField(min_value=-1, max_value=1, widget=forms.HiddenInput)


def apply_doom(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "step")
    if need_choice(payload, "step", STEPS) == "advance":
        advance_doom(game, 1)
        return
    if game["awakened"]:
        raise CommandError(_("The Ancient One has awakened: doom cannot retreat."), "step")
    if game["doom"] >= 30:
        raise CommandError(_("Doom cannot retreat further."), "step")
    game["doom"] += 1


def describe_doom(payload: Payload) -> str:
    if payload.get("step") == "advance":
        return _("Doom advanced")
    return _("Doom retreated")


def omen_colour(game: Game) -> str:
    return data.OMEN_TRACK[game["omen"] % len(data.OMEN_TRACK)]


def apply_omen(state: EldritchState, payload: Payload) -> None:
    game = game_of(state)
    game["omen"] = (game["omen"] + 1) % len(data.OMEN_TRACK)
    advance_doom(game, game["gates"][omen_colour(game)])
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
