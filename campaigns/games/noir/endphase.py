"""The end phase assistant: a) victory, b) madness, c) time-out, d) refill the row, in order,
one tap each (rules.md §4c, lines 757-761; §4d, 763-771); the clue deck running out
(line 734); and the win rule's wording (G-AN-1), shown with the victory check.

A step that ends the case writes the play into the log of cases, with the date the phone's
tap was made (resolved once, so a replay writes the same date).
"""

from __future__ import annotations

import random

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, Payload, need_choice, need_date, next_id
from campaigns.engines import noir
from campaigns.games.noir import data
from campaigns.games.noir.actions import TABLE
from campaigns.games.noir.common import change
from campaigns.games.noir.state import LogEntry, NoirState


class EndStepForm(forms.Form):
    step = forms.ChoiceField(
        label=gettext_lazy("Step"),
        choices=[(s, s) for s in noir.END_STEPS],
        widget=forms.HiddenInput,
    )


class RanOutForm(forms.Form):
    pass


class WinRuleForm(forms.Form):
    win_rule = forms.ChoiceField(
        label=gettext_lazy("Win rule"),
        choices=list(data.WIN_RULES.items()),
        widget=forms.RadioSelect,
    )


def dated(state: NoirState, values: Payload, rng: random.Random) -> Payload:
    return {**values, "date": timezone.localdate().isoformat()}


def log_if_over(state: NoirState, payload: Payload) -> None:
    play = state["play"]
    if not play["result"]:
        return
    entry: LogEntry = {
        "id": next_id(state),
        "date": need_date(payload, "date"),
        "case": play["case"],
        "result": play["result"],
        "reason": play["reason"],
        "rounds": play["round"],
        "scored": len(play["big_picture"]),
        "madness": play["madness"],
        "victims": play["victims_used"],
        "win_rule": state["win_rule"],
    }
    state["log"] = [*state["log"], entry]


def apply_end_step(state: NoirState, payload: Payload) -> None:
    step = need_choice(payload, "step", noir.END_STEPS)
    change(state, noir.end_step, step, state["win_rule"])
    log_if_over(state, payload)


def apply_ran_out(state: NoirState, payload: Payload) -> None:
    change(state, noir.clue_deck_ran_out)
    log_if_over(state, payload)


def apply_win_rule(state: NoirState, payload: Payload) -> None:
    state["win_rule"] = need_choice(payload, "win_rule", noir.WIN_RULES)


def describe_step(p: Payload) -> str:
    label = data.END_STEPS.get(str(p.get("step")), "?")
    return _("End phase %(step)s): %(label)s") % {"step": p.get("step", "?"), "label": label}


COMMANDS = (
    Command("noir.end", EndStepForm, apply_end_step, describe_step, dated, regions=TABLE),
    Command(
        "noir.ran_out",
        RanOutForm,
        apply_ran_out,
        gettext_lazy("The clue deck ran out"),
        dated,
        regions=TABLE,
    ),
    Command(
        "noir.win_rule",
        WinRuleForm,
        apply_win_rule,
        lambda p: _("Win rule: %(rule)s") % {"rule": data.WIN_RULES.get(str(p.get("win_rule")))},
        stale_check=True,
        regions=TABLE,
    ),
)
