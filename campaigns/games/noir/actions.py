"""The action phase: the row's first clue card and the five actions a)-e) (rules.md §4c,
lines 738-755). Playing a card calls out the sanity check (the 8th or later card in a column)
and the storm (the 3rd hourglass); the engine (``campaigns/engines/noir.py``) does the checks.
"""

from __future__ import annotations

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, Payload, need_int
from campaigns.engines import noir
from campaigns.games.noir.common import MOST_TYPES, HourglassField, change, column_id, flag
from campaigns.games.noir.state import NoirState

# Every action redraws the whole table: piles, columns, what comes next.
TABLE = ("noir-now", "noir-columns", "noir-piles")


class ChosenBy(forms.Widget):
    """A field whose value is the submit button pressed (one button per case column): the
    template draws the buttons, so the widget itself draws nothing."""

    def render(
        self,
        name: str,
        value: object,
        attrs: dict[str, object] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        return SafeString()


class ColumnChoice(forms.IntegerField):
    def __init__(self) -> None:
        super().__init__(
            label=gettext_lazy("Case column"),
            min_value=1,
            max_value=10**6,
            widget=ChosenBy,
            error_messages={"required": gettext_lazy("Choose the case column.")},
        )


class TakeForm(forms.Form):
    pass


class PassForm(forms.Form):
    taken_hourglass = HourglassField()


class CloseForm(PassForm):
    column = ColumnChoice()


class PlayForm(forms.Form):
    """What the played card shows: its clue type and the symbols the rules check."""

    type = forms.TypedChoiceField(
        label=gettext_lazy("Clue type"),
        choices=[(n, str(n)) for n in range(1, MOST_TYPES + 1)],
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": gettext_lazy("Tap the card's clue type.")},
    )
    puzzle = forms.BooleanField(label=gettext_lazy("Puzzle piece"), required=False)
    hourglass = forms.BooleanField(label=gettext_lazy("Hourglass"), required=False)
    key = forms.BooleanField(label=gettext_lazy("Key"), required=False)
    keyhole = forms.BooleanField(label=gettext_lazy("Keyhole"), required=False)
    flash = forms.BooleanField(label=gettext_lazy("Flash"), required=False)
    master_key = forms.BooleanField(label=gettext_lazy("Master key"), required=False)
    special_key = forms.BooleanField(label=gettext_lazy("Special key"), required=False)
    three = forms.BooleanField(label=gettext_lazy("The “3” symbol"), required=False)
    column = ColumnChoice()


class HandPlayForm(PlayForm):
    taken_hourglass = HourglassField(label=gettext_lazy("The discarded card shows an hourglass"))


def card(payload: Payload) -> noir.Card:
    return {
        "column": column_id(payload),
        "type": need_int(payload, "type", 1, MOST_TYPES),
        "puzzle": flag(payload, "puzzle"),
        "hourglass": flag(payload, "hourglass"),
        "key": flag(payload, "key"),
        "keyhole": flag(payload, "keyhole"),
        "flash": flag(payload, "flash"),
        "master_key": flag(payload, "master_key"),
        "three": flag(payload, "three"),
        "special_key": flag(payload, "special_key"),
    }


def apply_take(state: NoirState, payload: Payload) -> None:
    change(state, noir.take_into_hand)


def apply_play(state: NoirState, payload: Payload) -> None:
    change(state, noir.play_card, card(payload))


def apply_hand_play(state: NoirState, payload: Payload) -> None:
    change(state, noir.play_from_hand, card(payload), flag(payload, "taken_hourglass"))


def apply_close(state: NoirState, payload: Payload) -> None:
    change(state, noir.close_case, column_id(payload), flag(payload, "taken_hourglass"))


def apply_pass(state: NoirState, payload: Payload) -> None:
    change(state, noir.pass_turn, flag(payload, "taken_hourglass"))


def describe_play(p: Payload) -> str:
    return _("Played a clue card (type %(type)s) into a case") % {"type": p.get("type", "?")}


COMMANDS = (
    Command(
        "noir.take",
        TakeForm,
        apply_take,
        gettext_lazy("Action a: the first clue card into the hand"),
        regions=TABLE,
    ),
    Command("noir.play", PlayForm, apply_play, describe_play, regions=TABLE),
    Command(
        "noir.hand_play",
        HandPlayForm,
        apply_hand_play,
        gettext_lazy("Action c: discarded the first clue card, played one from the hand"),
        regions=TABLE,
    ),
    Command(
        "noir.close",
        CloseForm,
        apply_close,
        gettext_lazy("Action d: closed a case"),
        regions=TABLE,
    ),
    Command(
        "noir.pass",
        PassForm,
        apply_pass,
        gettext_lazy("Action e: discarded the first clue card and passed"),
        regions=TABLE,
    ),
)
