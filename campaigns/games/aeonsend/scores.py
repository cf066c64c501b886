"""The score chart: one row per game played, and its two drawings (see chart.py).

State: ``scores`` ([{id, date, chapter, nemesis, result, gravehold, nemesis_life, lives,
rounds, notes}]).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import bidi, commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField, played_date_field
from campaigns.games.aeonsend import chart, data
from campaigns.games.aeonsend.common import (
    ItemForm,
    copy_named,
    find,
    with_info,
)
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.games.built_form import BuiltForm

NOT_NEGATIVE = {"min_value": gettext_lazy("Life left cannot be negative.")}


def life_field(label, high: int, required: bool = True) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=0,
        max_value=high,
        error_messages=NOT_NEGATIVE,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": high}),
    )


class ScoreForm(BuiltForm):
    """A row of the score chart. `name_lives(characters)` asks one life field per character
    of the campaign, named (the template does it with the `for_characters` filter); initial
    `lives` ({"life_1": 4, …}) fills them."""

    date = played_date_field()
    chapter = forms.IntegerField(
        label=gettext_lazy("Chapter"),
        min_value=1,
        max_value=data.MAX_CHAPTER,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    nemesis = TextField(label=gettext_lazy("Nemesis"), max_length=data.NAME_LENGTH)
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        choices=list(data.RESULTS.items()),
        widget=forms.RadioSelect,
    )
    gravehold = life_field(gettext_lazy("Gravehold's life left"), data.MAX_GRAVEHOLD_LIFE)
    nemesis_life = life_field(gettext_lazy("The nemesis's life left"), data.MAX_NEMESIS_LIFE)
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        required=False,
        min_value=0,
        max_value=999,
        error_messages={"min_value": gettext_lazy("The number of rounds cannot be negative.")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    notes = TextField(label=gettext_lazy("Notes"), max_length=data.TEXT_LENGTH, required=False)

    def add_fields(self) -> None:
        self.initial.update(self.initial.get("lives") or {})
        self.characters: list[str] = []
        for number in range(1, data.MAX_PLAYERS + 1):
            # Not required here: apply() names the character whose life is missing.
            self.fields[f"life_{number}"] = life_field(
                gettext_lazy("Player %(n)d's life left") % {"n": number},
                data.MAX_PLAYER_LIFE,
                False,
            )

    def name_lives(self, characters: list[str]) -> ScoreForm:
        """Ask the life of each of these characters, by name."""
        self.characters = list(characters)[: data.MAX_PLAYERS]
        for number, character in enumerate(self.characters, start=1):
            field = self.fields[f"life_{number}"]
            field.label = gettext_lazy("%(name)s's life left") % {"name": bidi.isolate(character)}
            field.widget.attrs["required"] = True
        return self

    def life_fields(self) -> list[forms.BoundField]:
        """The life fields of the characters `name_lives` was given."""
        return [self[f"life_{number}"] for number in range(1, len(self.characters) + 1)]


def apply_score(state: AeonsEndState, payload: Payload) -> None:
    if len(state["scores"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "date")
    date = commands.need_date(payload, "date")
    lives = []
    for number, mage in enumerate(state["players"], start=1):
        key = f"life_{number}"
        if payload.get(key) is None:
            raise CommandError(
                _("Type the life %(character)s has left.") % {"character": mage["character"]},
                key,
            )
        lives.append(commands.need_int(payload, key, 0, data.MAX_PLAYER_LIFE))
    for number in range(len(state["players"]) + 1, data.MAX_PLAYERS + 1):
        if payload.get(f"life_{number}") is not None:
            raise CommandError(_("This campaign has no player %(n)d.") % {"n": number})
    rounds = commands.need_opt_int(payload, "rounds")
    if rounds is not None and not 0 <= rounds <= 999:
        raise CommandError(_("The number of rounds cannot be negative."), "rounds")
    state["scores"].append(
        {
            "id": commands.next_id(state),
            "date": date,
            "chapter": commands.need_int(payload, "chapter", 1, data.MAX_CHAPTER),
            "nemesis": commands.need_str(payload, "nemesis", data.NAME_LENGTH).strip(),
            "result": commands.need_choice(payload, "result", data.RESULTS),
            "gravehold": commands.need_int(payload, "gravehold", 0, data.MAX_GRAVEHOLD_LIFE),
            "nemesis_life": commands.need_int(payload, "nemesis_life", 0, data.MAX_NEMESIS_LIFE),
            "lives": lives,
            "rounds": rounds,
            "notes": commands.need_str(payload, "notes", data.TEXT_LENGTH, blank=True).strip(),
        }
    )


def describe_score(p: Payload) -> str:
    return _("Score chart: %(date)s, %(nemesis)s, %(result)s") % {
        "date": p.get("date"),
        "nemesis": p.get("nemesis"),
        "result": data.RESULTS.get(str(p.get("result")), p.get("result")),
    }


def apply_score_remove(state: AeonsEndState, payload: Payload) -> None:
    state["scores"].remove(find(state["scores"], payload))


def add_score_info(state: AeonsEndState, payload: Payload) -> None:
    copy_named(state["scores"], payload, "date")


def describe_score_remove(p: Payload) -> str:
    return _("Score chart: removed the row of %(date)s") % {"date": p.get("date")}


COMMANDS = (
    Command(
        "ae.score",
        ScoreForm,
        apply_score,
        describe_score,
        resolve=with_info(),
        regions=("scores", "score-charts"),
    ),
    Command(
        "ae.score_remove",
        ItemForm,
        apply_score_remove,
        describe_score_remove,
        resolve=with_info(add_score_info),
        regions=("score-charts",),
    ),
)


# What the pages show


def score_view(state: AeonsEndState, table: dict[str, Any], deck: dict[str, Any]) -> dict:
    rows = [
        {
            **row,
            "number": number,
            "result_label": data.RESULTS[row["result"]],
            "lives_named": [
                {"character": p["character"], "life": life}
                for p, life in zip(state["players"], row["lives"], strict=False)
            ],
        }
        for number, row in enumerate(state["scores"], start=1)
    ]
    prefill: dict[str, object] = {
        "date": timezone.localdate().isoformat(),
        "chapter": int(state["chapter"].split("-")[0]),
        "lives": {},
    }
    if table["started"]:
        prefill.update(
            nemesis=table["nemesis"],
            gravehold=table["gravehold"]["value"],
            nemesis_life=table["nemesis_life"]["value"],
            lives={f"life_{p['index'] + 1}": p["life"] for p in table["players"]},
            rounds=deck["round"],
            result="win" if table["won"] else ("loss" if table["over"] else ""),
        )
    wins = sum(1 for row in rows if row["result"] == "win")
    return {
        "rows": rows,
        "wins": wins,
        "losses": len(rows) - wins,
        "results_chart": chart.results_chart(state["scores"]),
        "margin_chart": chart.margin_chart(state["scores"]),
        "prefill": prefill,
        "characters": [p["character"] for p in state["players"]],
    }
