"""Mysteries: solved of N, the current mystery's name and tokens, and after awakening the
final mystery (rules.md §3a, §3d; [001:474-483, 001:62-69]). The win is announced when what is
required is solved."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.commands import Command, CommandError, Payload, need_int, need_str, said_int
from campaigns.fields import TextField
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS, game_of, number_field, settle
from campaigns.games.eldritch.doom import final_mystery_due
from campaigns.games.eldritch.state import EldritchState


class SolveForm(forms.Form):
    pass


class CurrentForm(forms.Form):
    current = TextField(
        label=gettext_lazy("Current mystery"), max_length=data.NAME_LENGTH, required=False
    )
    tokens = number_field(gettext_lazy("Tokens on it"), 0, 20, initial=0)


def apply_solve(state: EldritchState, payload: Payload) -> None:
    game = game_of(state)
    mysteries = game["mysteries"]
    if mysteries["solved"] >= mysteries["to_win"]:
        if not final_mystery_due(game):
            raise CommandError(_("Every mystery this Ancient One asks for is solved."))
        mysteries["final"] = True
    else:
        mysteries["solved"] += 1
    mysteries["current"], mysteries["tokens"] = "", 0
    settle(game)


def apply_current(state: EldritchState, payload: Payload) -> None:
    mysteries = game_of(state, "current")["mysteries"]
    mysteries["current"] = need_str(payload, "current", data.NAME_LENGTH, blank=True).strip()
    mysteries["tokens"] = need_int(payload, "tokens", 0, 20)


COMMANDS = (
    Command(
        "eh.solve",
        SolveForm,
        apply_solve,
        gettext_lazy("A mystery was solved"),
        stale_check=True,
        regions=REGIONS,
    ),
    Command(
        "eh.mystery",
        CurrentForm,
        apply_current,
        lambda p: (
            ngettext(
                "The current mystery: %(name)s, %(tokens)s token",
                "The current mystery: %(name)s, %(tokens)s tokens",
                said_int(p, "tokens"),
            )
            % {"name": p.get("current") or "—", "tokens": p.get("tokens")}
        ),
        stale_check=True,
        regions=REGIONS,
    ),
)
