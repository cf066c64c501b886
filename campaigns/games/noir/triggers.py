"""The checks called out as cards go down (rules.md §4b, lines 727-732; §4c, line 739): the
sanity check for the 8th or later card in a column, the storm card after a column's 3rd
hourglass, and the discard a fourth card in hand asks for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, Payload, need_choice
from campaigns.engines import noir
from campaigns.games.noir import data
from campaigns.games.noir.actions import TABLE
from campaigns.games.noir.common import HourglassField, change, either, flag, hidden_choice
from campaigns.games.noir.state import NoirState


class SanityForm(forms.Form):
    outcome = hidden_choice(gettext_lazy("The flipped clue card"), data.SANITY_OUTCOMES)


class StormForm(forms.Form):
    lightning = forms.BooleanField(
        label=gettext_lazy("Lightning"), required=False, widget=forms.HiddenInput
    )


class DiscardForm(forms.Form):
    hourglass = HourglassField(widget=forms.HiddenInput)


def apply_sanity(state: NoirState, payload: Payload) -> None:
    outcome = need_choice(payload, "outcome", noir.SANITY_OUTCOMES)
    change(state, noir.answer_sanity_check, outcome)


def apply_storm(state: NoirState, payload: Payload) -> None:
    change(state, noir.draw_storm, flag(payload, "lightning"))


def apply_discard(state: NoirState, payload: Payload) -> None:
    change(state, noir.discard_from_hand, flag(payload, "hourglass"))


def describe_sanity(p: Payload) -> str:
    where = data.SANITY_OUTCOMES.get(str(p.get("outcome")), "?")
    return _("Sanity check: %(where)s") % {"where": where}


STORM_SAID = either(
    "lightning",
    gettext_noop("A storm card with lightning at the end of the column"),
    gettext_noop("A storm card at the end of the column"),
)
DISCARD_SAID = either(
    "hourglass",
    gettext_noop("Discarded an hourglass card from the hand to the time-out pile"),
    gettext_noop("Discarded a card from the hand"),
)


COMMANDS = (
    Command("noir.sanity", SanityForm, apply_sanity, describe_sanity, regions=TABLE),
    Command("noir.storm", StormForm, apply_storm, STORM_SAID, regions=TABLE),
    Command("noir.discard", DiscardForm, apply_discard, DISCARD_SAID, regions=TABLE),
)
