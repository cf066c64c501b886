"""The exhausted rule, the one module of it: who is exhausted, what damage to them does to
Gravehold, when every player being exhausted loses the game, and the stickers that change it.

Rule (shared/spec/rules.md §2a "Exhausted flag", [003:557-566]): an exhausted player (life 0)
cannot gain life, and damage they suffer (with the excess at the moment of exhaustion) is dealt
twice over to Gravehold. When all the players are exhausted the game is lost at once [003:566],
except in solo play, where only Gravehold's fall loses [003:605] (§2d). turns.py deals life and
damage through this module, ending.py asks it whether exhaustion ends the game. The rulebook's
EXHAUSTED section holds sticker slots S, T and U (§2e: S unlocks at the beginning of Chapter 2,
T of Chapter 3, U of Chapter 4; errata: the Insight 2a sticker goes on S). Their texts are not
in the seed, so once one is applied the table shows a reminder beside the rule, and the group
can switch the doubling off if their sticker says so.

State: ``exhausted_double`` (absent: on, as the rulebook prints it).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from campaigns.commands import Command, CommandError, Payload, need_bool
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.words import joined

LETTERS = tuple(
    letter for letter, section in data.STICKER_SECTION.items() if section == "exhausted"
)


def is_exhausted(life: int) -> bool:
    """A player at 0 life is exhausted."""
    return life == 0


def refuse_gain(life: int, name: str) -> None:
    """An exhausted player cannot gain life."""
    if is_exhausted(life):
        raise CommandError(_("%(name)s is exhausted and cannot gain life.") % {"name": name})


def gravehold_damage(state: AeonsEndState, life: int, damage: int) -> int:
    """What `damage` to a player at `life` does to Gravehold: the part past their life (all of it
    once they are exhausted), twice over unless the group switched the doubling off because a
    sticker on the rule says so."""
    factor = 2 if state.get("exhausted_double", True) else 1
    return factor * (damage - min(life, damage))


def all_exhausted(state: AeonsEndState) -> bool:
    """Every player of the game at the table is exhausted."""
    lives = state["table"]["lives"]
    return bool(lives) and all(is_exhausted(life) for life in lives)


def exhaustion_loses(state: AeonsEndState) -> bool:
    """All the players exhausted: the game is lost at once, except in solo play."""
    return all_exhausted(state) and not state["solo"]


def solo_exception(state: AeonsEndState) -> bool:
    """Every mage exhausted in solo play: no loss, only Gravehold's fall loses (a note)."""
    return all_exhausted(state) and state["solo"]


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
