"""A new Arkham Noir campaign: which case, how many clue types, which win rule; the table after
set-up (rules.md §4b, lines 720-726) as its first play."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import CommandError, Payload
from campaigns.engines import noir
from campaigns.games.noir import data
from campaigns.games.noir.common import MOST_TYPES
from campaigns.games.noir.state import NoirState


class CaseFields(forms.Form):
    case = forms.ChoiceField(
        label=gettext_lazy("Case"), choices=list(data.CASES.items()), initial="case2"
    )
    clue_types = forms.IntegerField(
        label=gettext_lazy("Clue types"),
        min_value=noir.CLOSE_TYPES,
        max_value=MOST_TYPES,
        initial=data.DEFAULT_CLUE_TYPES,
        help_text=gettext_lazy(
            "How many clue types the case's cards show: Case 1 has six; for Case 2 count them."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class SetupForm(CaseFields):
    win_rule = forms.ChoiceField(
        label=gettext_lazy("Win rule"),
        choices=list(data.WIN_RULES.items()),
        initial="count",
        widget=forms.RadioSelect,
        help_text=gettext_lazy("The rules summary words the victory check both ways."),
    )


def initial_state(setup: Payload) -> NoirState:
    if not isinstance(setup, dict):
        raise CommandError(_("The set-up does not fit this game."))
    case, types, rule = setup.get("case"), setup.get("clue_types"), setup.get("win_rule")
    if (
        case not in data.CASES
        or rule not in data.WIN_RULES
        or not isinstance(types, int)
        or isinstance(types, bool)
        or not noir.CLOSE_TYPES <= types <= MOST_TYPES
    ):
        raise CommandError(_("Choose a case, its number of clue types and a win rule."))
    state: NoirState = {
        "next_id": 1,
        "win_rule": str(rule),
        "play": noir.new_play(str(case), types),
        "log": [],
    }
    return state
