"""The piles beside the case columns (rules.md §4a, lines 704-716): victims left, the clue row,
the hand, the discard and time-out piles, the madness area, the storm cards, the closed cases
and the formula cards gained, each a stepper the player corrects from the table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, Payload, need_choice, need_int, said_int
from campaigns.engines import noir
from campaigns.engines import noir_corrections as corrections
from campaigns.games.noir import data
from campaigns.games.noir.actions import TABLE
from campaigns.games.noir.common import MOST_TYPES, DeltaField, change
from campaigns.games.noir.state import NoirState


class PileForm(forms.Form):
    pile = forms.ChoiceField(
        label=gettext_lazy("Pile"), choices=list(data.PILES.items()), widget=forms.HiddenInput
    )
    delta = DeltaField()


class BigPictureForm(forms.Form):
    type = forms.IntegerField(
        label=gettext_lazy("Clue type"), min_value=1, max_value=MOST_TYPES, widget=forms.HiddenInput
    )
    delta = DeltaField()


def apply_big_picture(state: NoirState, payload: Payload) -> None:
    clue_type = need_int(payload, "type", 1, MOST_TYPES)
    change(state, corrections.adjust_big_picture, clue_type, need_int(payload, "delta", -1, 1))


def describe_big_picture(p: Payload) -> str:
    words = {"n": p.get("type", "?")}
    if said_int(p, "delta") > 0:
        return _("The Big Picture: a puzzle-piece card of type %(n)s +1") % words
    return _("The Big Picture: a puzzle-piece card of type %(n)s −1") % words


def big_picture_view(state: NoirState) -> list[dict[str, object]]:
    play = state["play"]
    return [
        {"n": n, "count": play["big_picture"].count(n)} for n in range(1, play["clue_types"] + 1)
    ]


def apply_pile(state: NoirState, payload: Payload) -> None:
    pile = need_choice(payload, "pile", noir.PILES)
    change(state, corrections.adjust_pile, pile, need_int(payload, "delta", -1, 1))


def describe_pile(p: Payload) -> str:
    words = {"pile": data.PILES.get(str(p.get("pile")), "?")}
    return (_("%(pile)s +1") if said_int(p, "delta") > 0 else _("%(pile)s −1")) % words


def piles_view(state: NoirState) -> list[dict[str, object]]:
    play = state["play"]
    storm = noir.storm_rules(play)
    shown: list[dict[str, object]] = []
    for key in noir.PILES:
        label = data.PILES[key]
        if key in ("storms_left", "formulas") and not storm:
            continue
        warn = key in ("timeout", "madness") and play[key] >= noir.PILE_LIMIT
        near = key in ("timeout", "madness") and play[key] == noir.PILE_LIMIT - 1
        shown.append(
            {
                "key": key,
                "label": label,
                "value": play[key],
                "warn": warn,
                "near": near,
                "limit": noir.PILE_LIMIT if key in ("timeout", "madness") else None,
                "at_minimum": play[key] <= 0,
            }
        )
    return shown


COMMANDS = (
    Command("noir.pile", PileForm, apply_pile, describe_pile, regions=TABLE),
    Command("noir.big", BigPictureForm, apply_big_picture, describe_big_picture, regions=TABLE),
)
