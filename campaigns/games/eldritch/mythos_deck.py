"""The mythos deck on the phone: the counts of colours per stage that the Ancient One's sheet
asks for, drawn at random on the server (no order stored: a draw picks among the cards left in
the current stage, like a shuffled stage), or the colour of a card the table drew from its own
deck. The icons to resolve for the card drawn, with this player count's numbers (rules.md §3b;
icon order [EXTERNAL – verify])."""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    need_bool,
    need_choice,
    next_id,
    random_command,
)
from campaigns.engines import mythos
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS, game_of
from campaigns.games.eldritch.doom import omen_colour
from campaigns.games.eldritch.state import EldritchState, Game


class DrawForm(forms.Form):
    pass


class RecordForm(forms.Form):
    colour = forms.ChoiceField(
        label=gettext_lazy("Colour drawn"), choices=list(data.COLOURS.items())
    )


EMPTY = gettext_lazy(
    "The mythos deck is empty: no card can be drawn, and the investigators lose at the end of "
    "this Mythos phase."
)


def resolve_draw(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    game = game_of(state)
    try:
        return {"colour": mythos.pick(game["deck"], rng), "recorded": False}
    except mythos.DeckError:
        raise CommandError(str(EMPTY)) from None


def resolve_record(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    return {"colour": data_["colour"], "recorded": True}


def apply_draw(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "colour")
    colour = need_choice(payload, "colour", data.COLOURS)
    recorded = need_bool(payload, "recorded")
    if mythos.cards_left(game["deck"]) == 0:
        raise CommandError(str(EMPTY), "colour")
    try:
        stage = mythos.take(game["deck"], colour)
    except mythos.DeckError:
        raise CommandError(
            _("Stage %(stage)s has no %(colour)s card left.")
            % {
                "stage": data.STAGE_LABELS[mythos.current_stage(game["deck"]) or 0],
                "colour": data.COLOURS[colour],
            },
            "colour",
        ) from None
    game["draws"].append(
        {
            "id": next_id(state),
            "colour": colour,
            "stage": stage,
            "round": game["round"],
            "recorded": recorded,
        }
    )


def describe_draw(payload: Payload) -> str:
    colour = data.COLOURS.get(str(payload.get("colour")), "?")
    if payload.get("recorded"):
        return _("Mythos card drawn from the table's deck: %(colour)s") % {"colour": colour}
    return _("Mythos card drawn: %(colour)s") % {"colour": colour}


def deck_view(game: Game) -> dict[str, object]:
    deck = game["deck"]
    current = mythos.current_stage(deck)
    stages = [
        {
            "label": data.STAGE_LABELS[i],
            "built": [
                {"colour": c, "label": data.COLOURS[c], "count": game["built"][i][n]}
                for n, c in enumerate(mythos.COLOURS)
            ],
            "left": [
                {"colour": c, "label": data.COLOURS[c], "count": stage[c]} for c in mythos.COLOURS
            ],
            "total": mythos.left(stage),
            "current": i == current,
        }
        for i, stage in enumerate(deck["stages"])
    ]
    last = game["draws"][-1] if game["draws"] else None
    before = game["draws"][-2]["stage"] if len(game["draws"]) > 1 else 0
    return {
        "stages": stages,
        # The same counts by colour, a row each (the table display's narrower table).
        "colours_left": [
            {
                "colour": c,
                "label": data.COLOURS[c],
                "counts": [stage[c] for stage in deck["stages"]],
            }
            for c in mythos.COLOURS
        ],
        "cards_left": mythos.cards_left(deck),
        "empty": current is None,
        "stage_label": data.STAGE_LABELS[current] if current is not None else "—",
        "last": last
        and {
            **last,
            "label": data.COLOURS[last["colour"]],
            "stage_label": data.STAGE_LABELS[last["stage"]],
        },
        "stage_changed": last is not None and current is not None and last["stage"] != current,
        "new_stage": last is not None and last["stage"] != before,
        "drawn_this_round": any(d["round"] == game["round"] for d in game["draws"]),
        "icons": icons(game),
    }


def icons(game: Game) -> list[dict[str, object]]:
    """The mythos icons in the order they resolve, with this player count's numbers."""
    ref = game["reference"]
    return [
        {"key": "omen", "label": _("Advance the omen")},
        {"key": "reckoning", "label": _("Reckoning")},
        {"key": "gates", "label": _("Spawn gates: %(n)d") % {"n": ref["spawn_gates"]}},
        surge(game),
        {"key": "clues", "label": _("Spawn clues: %(n)d") % {"n": ref["spawn_clues"]}},
        {"key": "text", "label": _("Then the card's own effect")},
    ]


def surge(game: Game) -> dict[str, object]:
    """A surge at each gate of the omen's colour; with none open, one gate spawns [001:468]."""
    colour = omen_colour(game)
    gates = game["gates"][colour]
    n = game["reference"]["monster_surge"]
    words = {"n": n, "colour": data.GATE_COLOURS[colour]}
    if not gates:
        label = _("Monster surge: no %(colour)s gate is open: spawn 1 gate instead.") % words
    else:
        label = ngettext(
            "Monster surge: %(n)d monster at each %(colour)s gate (%(gates)d open)",
            "Monster surge: %(n)d monsters at each %(colour)s gate (%(gates)d open)",
            n,
        ) % {**words, "gates": gates}
    return {"key": "surge", "label": label}


COMMANDS = (
    random_command("eh.draw", DrawForm, apply_draw, describe_draw, resolve_draw, REGIONS),
    Command(
        "eh.record",
        RecordForm,
        apply_draw,
        describe_draw,
        resolve_record,
        stale_check=True,
        regions=REGIONS,
        needs_connection=True,
    ),
)
