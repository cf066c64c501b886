"""The exhausted rule at the table, and the stickers that change it.

Rule (shared/spec/rules.md §2a "Exhausted flag", [003:557-566]): an exhausted player (life 0)
cannot gain life, and damage they suffer is dealt twice over to Gravehold. The rulebook's
EXHAUSTED section holds sticker slots S, T and U (§2e: S unlocks at the beginning of Chapter 2,
T of Chapter 3, U of Chapter 4; errata: the Insight 2a sticker goes on S). Their texts are not
in the seed, so once one is applied the table shows a reminder beside the rule, and the group
can switch the doubling off if their sticker says so.

State: ``exhausted_double`` (absent: on, as the rulebook prints it).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from campaigns.commands import Command, Payload, need_bool
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.words import joined

LETTERS = tuple(
    letter for letter, section in data.STICKER_SECTION.items() if section == "exhausted"
)


class DoublingForm(forms.Form):
    double = forms.BooleanField(required=False, widget=forms.HiddenInput)


def apply_doubling(state: AeonsEndState, payload: Payload) -> None:
    state["exhausted_double"] = need_bool(payload, "double")


def describe_doubling(p: Payload) -> str:
    if p.get("double"):
        return _("Exhausted players' damage is dealt twice to Gravehold again")
    return _("Exhausted players' damage is no longer doubled (as a sticker says)")


COMMANDS = (Command("ae.doubling", DoublingForm, apply_doubling, describe_doubling),)


def exhausted_view(state: AeonsEndState) -> dict[str, object]:
    applied = [
        {"letter": letter, "text": state["stickers"][letter]["text"]}
        for letter in LETTERS
        if state["stickers"][letter]["applied"]
    ]
    return {
        "double": state.get("exhausted_double", True),
        "stickers": applied,
        "letters": joined(s["letter"] for s in applied),
    }
