"""Starting a game at the table: the nemesis (picked from the owned sets' facts with its mat's
life, or typed), the difficulty, and a fresh table: life and a new turn order deck.

Rules: Gravehold 30, players 10, the nemesis from its mat [003:242]; Beginner, Expert and
Extinction are for play outside the campaign ("Re-using AE:L content", rules.md §2e
"Difficulty variants" [003:1462-1472]), so the form refuses them unless the game is marked
outside the campaign. The refusal is the form's, not apply()'s: saved histories from before
it started campaign games at those difficulties and must still replay.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.engines import turn_order
from campaigns.fields import TextField
from campaigns.games.aeonsend import cards, data
from campaigns.games.aeonsend.state import AeonsEndState, Table


class StartForm(forms.Form):
    nemesis = TextField(
        label=gettext_lazy("Nemesis"),
        max_length=data.NAME_LENGTH,
        widget=forms.TextInput(attrs={"list": "ae-nemeses", "autocomplete": "off"}),
    )
    nemesis_life = forms.IntegerField(
        label=gettext_lazy("Its life, from its mat"),
        min_value=1,
        max_value=data.MAX_NEMESIS_LIFE,
        required=False,
        help_text=gettext_lazy("Left empty, a picked nemesis starts with its mat's life."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    outside = forms.BooleanField(
        label=gettext_lazy("This game is outside the campaign"), required=False
    )
    difficulty = forms.ChoiceField(
        label=gettext_lazy("Difficulty"), choices=list(data.DIFFICULTIES.items()), required=False
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        # Beginner, Expert and Extinction are for play outside the campaign ("Re-using AE:L
        # content", Additional Difficulty [003:1462-1472]); the campaign is played Standard.
        difficulty = cleaned.get("difficulty") or "standard"
        if difficulty != "standard" and not cleaned.get("outside"):
            self.add_error(
                "difficulty",
                gettext_lazy(
                    "The campaign is played Standard: the other difficulties are for games "
                    "outside the campaign."
                ),
            )
        # (a life the field itself refused, "1.5", has its message: no second one)
        if (
            cleaned.get("nemesis")
            and cleaned.get("nemesis_life") is None
            and not self.has_error("nemesis_life")
        ):
            life = cards.nemesis_life(cleaned["nemesis"])
            if life is None:
                self.add_error("nemesis_life", gettext_lazy("Type its life from its mat."))
            else:
                cleaned["nemesis_life"] = life
        if not cleaned.get("outside"):
            cleaned.pop("outside", None)
        return cleaned


def apply_start(state: AeonsEndState, payload: Payload) -> None:
    nemesis = commands.need_str(payload, "nemesis", data.NAME_LENGTH).strip()
    mat_life = commands.need_int(payload, "nemesis_life", 1, data.MAX_NEMESIS_LIFE)
    difficulty = commands.need_choice(
        {"difficulty": payload.get("difficulty") or "standard"}, "difficulty", data.DIFFICULTIES
    )
    player_life, gravehold, change = data.DIFFICULTY_VALUES[difficulty]
    nemesis_life = min(max(1, mat_life + change), data.MAX_NEMESIS_LIFE)
    outside = payload.get("outside", False)
    if not isinstance(outside, bool):
        raise CommandError(_("That is not one of the choices."), "outside")
    fresh: Table = {
        "game": state["table"]["game"] + 1,
        "nemesis": nemesis,
        "difficulty": difficulty,
        "start": {"gravehold": gravehold, "nemesis": nemesis_life, "player": player_life},
        "gravehold": gravehold,
        "nemesis_life": nemesis_life,
        "lives": [player_life] * len(state["players"]),
        # The same two-colour pairs as the campaign's deck was built with.
        "deck": turn_order.new_deck(
            [p["character"] for p in state["players"]],
            turn_order.seat_pairs(state["table"]["deck"]),
        ),
    }
    if outside:
        fresh["outside"] = True
    state["table"] = fresh


def describe_start(p: Payload) -> str:
    if p.get("outside"):
        return _("Started a game outside the campaign against %(nemesis)s (%(difficulty)s)") % {
            "nemesis": p.get("nemesis"),
            "difficulty": commands.said_choice(
                data.DIFFICULTIES, p.get("difficulty") or "standard"
            ),
        }
    return _("Started a game against %(nemesis)s (%(difficulty)s)") % {
        "nemesis": p.get("nemesis"),
        "difficulty": commands.said_choice(data.DIFFICULTIES, p.get("difficulty") or "standard"),
    }


COMMANDS = (
    Command(
        "ae.start",
        StartForm,
        apply_start,
        describe_start,
        stale_check=True,
        regions=("deck", "life", "nemesis"),
        needs_connection=True,
    ),
)
