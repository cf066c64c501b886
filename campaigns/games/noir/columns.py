"""The case columns, one per open case (rules.md §4a, line 705): the victim's name as typed,
cards played, hourglasses, keys and keyholes, the lightning storm, the flash card, the master
key, and the clue types present; when it can be closed and when its puzzle pieces would score
(§4c, lines 750-753). Playing a card goes through the actions; these are the corrections."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, Payload, need_choice, need_int, need_str, said_int
from campaigns.engines import noir
from campaigns.engines import noir_corrections as corrections
from campaigns.fields import TextField
from campaigns.games.noir import data
from campaigns.games.noir.actions import TABLE
from campaigns.games.noir.common import (
    MOST_TYPES,
    ColumnField,
    DeltaField,
    change,
    column_id,
    either,
    flag,
    hidden_choice,
)
from campaigns.games.noir.state import NoirState

VICTIM_NAME = 60


class VictimForm(forms.Form):
    """A case's victim named: naming is optional (a case shows "Case 1" until then), a name
    that shows nothing is not one (a history line "Named a victim “”" changed nothing)."""

    column = ColumnField()
    name = TextField(
        label=gettext_lazy("Victim"),
        max_length=VICTIM_NAME,
        error_messages={"required": gettext_lazy("Type the victim's name.")},
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Name")}),
    )


class CountForm(forms.Form):
    column = ColumnField()
    count = hidden_choice(gettext_lazy("Count"), data.COLUMN_COUNTS)
    delta = DeltaField()


class FlagForm(forms.Form):
    column = ColumnField()
    flag = hidden_choice(gettext_lazy("Mark"), data.COLUMN_FLAGS)
    on = forms.BooleanField(label=gettext_lazy("On"), required=False, widget=forms.HiddenInput)


class TypeForm(forms.Form):
    column = ColumnField()
    type = forms.IntegerField(
        label=gettext_lazy("Clue type"), min_value=1, max_value=MOST_TYPES, widget=forms.HiddenInput
    )
    present = forms.BooleanField(
        label=gettext_lazy("Present"), required=False, widget=forms.HiddenInput
    )


class PuzzleForm(forms.Form):
    column = ColumnField()
    type = forms.IntegerField(
        label=gettext_lazy("Clue type"), min_value=1, max_value=MOST_TYPES, widget=forms.HiddenInput
    )
    delta = DeltaField()


def apply_victim(state: NoirState, payload: Payload) -> None:
    # A phone's is refused blank by the form; a history or a file from before still replays.
    name = need_str(payload, "name", VICTIM_NAME, blank=True)
    change(state, corrections.name_victim, column_id(payload), name)


def apply_count(state: NoirState, payload: Payload) -> None:
    count = need_choice(payload, "count", noir.COLUMN_COUNTS)
    change(
        state,
        corrections.adjust_column,
        column_id(payload),
        count,
        need_int(payload, "delta", -1, 1),
    )


def apply_flag(state: NoirState, payload: Payload) -> None:
    mark = need_choice(payload, "flag", noir.COLUMN_FLAGS)
    change(state, corrections.set_flag, column_id(payload), mark, flag(payload, "on"))


def apply_type(state: NoirState, payload: Payload) -> None:
    clue_type = need_int(payload, "type", 1, MOST_TYPES)
    change(state, corrections.set_type, column_id(payload), clue_type, flag(payload, "present"))


def apply_puzzle(state: NoirState, payload: Payload) -> None:
    clue_type = need_int(payload, "type", 1, MOST_TYPES)
    change(
        state,
        corrections.adjust_puzzles,
        column_id(payload),
        clue_type,
        need_int(payload, "delta", -1, 1),
    )


def column_view(play: noir.Play, column: noir.Column, number: int) -> dict[str, object]:
    present = set(column["types"])
    puzzles = column["puzzles"]
    return {
        **column,
        "number": number,
        "region": f"noir-column-{column['id']}",
        "type_count": len(noir.column_types(column)),
        "scoring_types": len(present),
        "can_close": noir.can_close(column),
        "would_score": noir.would_score(column),
        "puzzle_count": len(puzzles),
        "next_sanity": noir.sanity_check_due(column["cards"]),
        "storm_next": noir.storm_rules(play) and column["hourglasses"] == noir.STORM_AT - 1,
        "counts": [
            {"key": key, "label": data.COLUMN_COUNTS[key], "value": column[key]}
            for key in noir.COLUMN_COUNTS
        ],
        "flags": [
            {"key": key, "label": data.COLUMN_FLAGS[key], "on": column[key]}
            for key in noir.COLUMN_FLAGS
            if noir.storm_rules(play) or key == "master_key"
        ],
        "types": [
            {"n": n, "present": n in present, "puzzles": puzzles.count(n)}
            for n in range(1, play["clue_types"] + 1)
        ],
        "storm_due": play["storm_due"] == column["id"],
    }


def columns_view(state: NoirState) -> list[dict[str, object]]:
    play = state["play"]
    return [column_view(play, c, n) for n, c in enumerate(play["columns"], start=1)]


def describe_victim(p: Payload) -> str:
    return _("Named a victim “%(name)s”") % {"name": p.get("name", "")}


FLAG_SAID = either(
    "on",
    gettext_noop("%(mark)s: yes"),
    gettext_noop("%(mark)s: no"),
    lambda p: {"mark": data.COLUMN_FLAGS.get(str(p.get("flag")), "?")},
)
TYPE_SAID = either(
    "present",
    gettext_noop("Clue type %(n)s present in a case"),
    gettext_noop("Clue type %(n)s not present in a case"),
    lambda p: {"n": p.get("type")},
)


COMMANDS = (
    Command(
        "noir.victim", VictimForm, apply_victim, describe_victim, stale_check=True, regions=TABLE
    ),
    Command(
        "noir.count",
        CountForm,
        apply_count,
        lambda p: (
            _("%(count)s %(delta)s in a case")
            % {
                "count": data.COLUMN_COUNTS.get(str(p.get("count")), "?"),
                "delta": "+1" if said_int(p, "delta") > 0 else "−1",
            }
        ),
        regions=TABLE,
    ),
    Command("noir.flag", FlagForm, apply_flag, FLAG_SAID, regions=TABLE),
    Command("noir.type", TypeForm, apply_type, TYPE_SAID, regions=TABLE),
    Command(
        "noir.puzzle",
        PuzzleForm,
        apply_puzzle,
        lambda p: (
            (
                _("A puzzle-piece card of type %(n)s +1")
                if said_int(p, "delta") > 0
                else _("A puzzle-piece card of type %(n)s −1")
            )
            % {"n": p.get("type")}
        ),
        regions=TABLE,
    ),
)
