"""At the table: a game against a nemesis, life, and the turn order deck.

State: ``table`` ({game, nemesis, difficulty, start: {gravehold, nemesis, player}, gravehold,
nemesis_life, lives: [...], deck}). The deck is the turn order engine's state: it keeps the
undrawn cards as a sorted multiset, so no order is stored anywhere. A draw's outcome (the
label) is stored in the event; applying it again takes that same label out of the same
multiset.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Literal

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    need_int,
    need_str,
    random_command,
    said_int,
)
from campaigns.engines import turn_order
from campaigns.fields import TextField
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.common import (
    EmptyForm,
)
from campaigns.games.aeonsend.ending import end_texts, outcome, refuse_when_over
from campaigns.games.aeonsend.exhausted import gravehold_damage, is_exhausted, refuse_gain
from campaigns.games.aeonsend.nemesis import second_victory
from campaigns.games.aeonsend.state import AeonsEndState, Table
from campaigns.games.built_form import BuiltForm

# A game, life and the end conditions


def need_game(state: AeonsEndState) -> Table:
    table = state["table"]
    if not table["nemesis"]:
        raise CommandError(_("Start a game first: name the nemesis and its life."))
    return table


class LifeForm(BuiltForm):
    who = TextField(label=gettext_lazy("Who"), max_length=12)
    delta = forms.IntegerField(
        label=gettext_lazy("Amount"),
        min_value=-99,
        max_value=99,
        initial=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    sign = forms.ChoiceField(
        choices=[("", ""), ("damage", "damage"), ("heal", "heal")], required=False
    )

    def add_fields(self) -> None:
        # The amount form asks for a positive number and a button says which way; the ±1 of
        # a dial posts a signed delta.
        self.fields["delta"].widget.attrs["min"] = 1

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        delta = cleaned.get("delta")
        if delta is not None and cleaned.get("sign") in ("damage", "heal"):
            # The amount form posts a positive number and which button was pressed (a typed
            # −3 is refused, as the browser refuses it, not taken for 3).
            try:
                MinValueValidator(1)(delta)
            except ValidationError as error:
                self.add_error("delta", error)
                return cleaned
            delta = delta * (-1 if cleaned["sign"] == "damage" else 1)
        cleaned["delta"] = delta
        cleaned.pop("sign", None)
        return cleaned


def who_label(state: AeonsEndState, who: object) -> str:
    if who == "gravehold":
        return _("Gravehold")
    if who == "nemesis":
        return state["table"]["nemesis"] or _("The nemesis")
    if (index := player_index(state, who)) is not None:
        return state["players"][index]["character"]
    return "?"


def player_index(state: AeonsEndState, who: object) -> int | None:
    """The player a posted `who` names ("0" to "3"), or None."""
    if isinstance(who, str) and re.fullmatch(r"[0-3]", who) and int(who) < len(state["players"]):
        return int(who)
    return None


def apply_life(state: AeonsEndState, payload: Payload) -> None:
    table = need_game(state)
    who = need_str(payload, "who", 12)
    delta = need_int(payload, "delta", -99, 99)
    if delta == 0:
        raise CommandError(_("Type an amount other than 0."), "delta")
    start = table["start"]
    if who in ("gravehold", "nemesis"):
        key: Literal["gravehold", "nemesis_life"] = (
            "gravehold" if who == "gravehold" else "nemesis_life"
        )
        top = start["gravehold" if who == "gravehold" else "nemesis"]
        value = table[key]
        if (delta > 0 and value >= top) or (delta < 0 and value <= 0):
            bound = _("its starting life") if delta > 0 else "0"
            raise CommandError(
                _("%(name)s is already at %(bound)s.")
                % {"name": who_label(state, who), "bound": bound},
                "delta",
            )
        table[key] = min(top, max(0, value + delta))
        return
    index = player_index(state, who)
    if index is None:
        raise CommandError(_("There is no such player in this campaign."))
    life = table["lives"][index]
    name = who_label(state, who)
    if delta > 0:
        refuse_gain(life, name)
        if life >= start["player"]:
            raise CommandError(
                _("%(name)s is already at %(bound)s.")
                % {"name": name, "bound": _("its starting life")},
                "delta",
            )
        table["lives"][index] = min(start["player"], life + delta)
        return
    damage = -delta
    table["lives"][index] = life - min(life, damage)
    # An exhausted player's damage goes to Gravehold (exhausted.py).
    table["gravehold"] = max(0, table["gravehold"] - gravehold_damage(state, life, damage))


def resolve_life(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    need_game(state)
    refuse_when_over(state)
    payload = dict(values)
    payload["name"] = who_label(state, payload.get("who"))
    trial = copy.deepcopy(state)
    apply_life(trial, payload)
    before, after = state["table"]["gravehold"], trial["table"]["gravehold"]
    if payload.get("who") not in ("gravehold", "nemesis") and after < before:
        payload["gravehold_damage"] = before - after
    return payload


@functools.cache
def unnamed_nemesis() -> frozenset[str]:
    """ "The nemesis" in each of the site's languages."""
    words = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.add(_("The nemesis"))
    return frozenset(words)


def life_name(p: Payload) -> object:
    """Whom a life change names, in the reader's language. Gravehold and a nemesis with no name
    are the site's words (the change kept them in the language of the phone that made it, so
    they are read again here); a player's character and a named nemesis are the group's."""
    who, name = p.get("who"), p.get("name")
    if who == "gravehold":
        return _("Gravehold")
    if who == "nemesis" and (not name or name in unnamed_nemesis()):
        return _("The nemesis")
    return name


def describe_life(p: Payload) -> str:
    delta = said_int(p, "delta")
    name = life_name(p)
    if delta > 0:
        text = _("%(name)s gains %(n)d life") % {"name": name, "n": delta}
    else:
        text = _("%(name)s suffers %(n)d damage") % {"name": name, "n": -delta}
    if p.get("gravehold_damage"):
        text += " " + _("(exhausted: Gravehold suffers %(n)d)") % {"n": p["gravehold_damage"]}
    return text


# The turn order deck


class Recorded:
    """Stands in for the random generator when a recorded draw is applied again: it picks
    the card the draw recorded out of the same unordered pool."""

    def __init__(self, index: int) -> None:
        self.index = index

    def randrange(self, n: int) -> int:
        if not 0 <= self.index < n:
            raise CommandError(_("The turn order deck does not hold that card now."))
        return self.index


def pool_at_draw(deck: turn_order.State) -> list[str]:
    """The unordered pool a draw or reveal would pick from (after a reshuffle if need be)."""
    if deck["top"] or deck["pool"] or deck["bottom"]:
        return sorted(deck["pool"])
    return sorted(deck["discard"])


def engine_message(error: turn_order.TurnOrderError) -> str:
    """The engine's refusal in the reader's language (the engine marks its messages for the
    catalogues and leaves the translating to us), a card named as the table calls it."""
    params = {
        key: card_label(value) if key == "card" else value for key, value in error.params.items()
    }
    return _(error.message) % params if params else _(error.message)


def deck_step(
    state: AeonsEndState,
    step: Callable[..., turn_order.State | tuple[turn_order.State, str]],
    *args: object,
) -> str | None:
    """Run one engine step on the table's deck; its rules refuse, with their own words (a
    message for the whole deck: its cards are picked from buttons and lists, not typed)."""
    deck = state["table"]["deck"]
    try:
        result = step(deck, *args)
    except turn_order.TurnOrderError as error:
        raise CommandError(engine_message(error)) from None
    new = result[0] if isinstance(result, tuple) else result
    state["table"]["deck"] = new
    return result[1] if isinstance(result, tuple) else None


def take_recorded(state: AeonsEndState, payload: Payload, step) -> str:
    deck = state["table"]["deck"]
    card = need_str(payload, "card", data.NAME_LENGTH * 2 + 1)
    pool = pool_at_draw(deck)
    index = pool.index(card) if card in pool else len(pool) + 1
    took = deck_step(state, step, Recorded(index))
    if took != card:
        raise CommandError(_("The turn order deck does not hold that card now."))
    return card


def apply_draw(state: AeonsEndState, payload: Payload) -> None:
    if payload.get("won") == "deck":
        # The turn that just ended left an empty nemesis deck and nothing in play [003:587].
        if not second_victory(state):
            raise CommandError(_("The nemesis deck is not empty, or something is in play."))
        state["table"]["end"] = "deck"
        return
    take_recorded(state, payload, turn_order.draw)


def apply_reveal(state: AeonsEndState, payload: Payload) -> None:
    take_recorded(state, payload, turn_order.reveal_top)


def random_take(step):
    """Resolve a draw or a reveal: the one moment a card is picked at random."""

    def resolve(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
        if state["table"]["nemesis"]:
            refuse_when_over(state)
        if step is turn_order.draw and second_victory(state):
            # The win is checked at the end of every turn, before the next card is drawn.
            return {"won": "deck"}
        deck = state["table"]["deck"]
        trial = copy.deepcopy(state)
        card = deck_step(trial, step, rng)
        after = trial["table"]["deck"]
        current: turn_order.Current | dict[str, str] = after["current"] or {}
        return {
            "card": card,
            "round": after["round"],
            "reshuffled": after["round"] != deck["round"],
            "player": current.get("player") if step is turn_order.draw else None,
        }

    return resolve


def card_label(card: object) -> str:
    if card == turn_order.NEMESIS:
        return _("Nemesis")
    if card == turn_order.WILD:
        return _("Wild")
    return str(card)


def describe_draw(p: Payload) -> str:
    if p.get("won") == "deck":
        return _("End of the turn: the nemesis deck is empty and nothing is in play: you win!")
    text = _("Turn order: drew %(card)s") % {"card": card_label(p.get("card"))}
    if p.get("reshuffled"):
        text = (
            _("Turn order: shuffled every card into a new deck (round %(n)s)") % {"n": p["round"]}
            + "; "
            + text
        )
    return text


def describe_reveal(p: Payload) -> str:
    text = _("Turn order: revealed %(card)s on top of the deck") % {
        "card": card_label(p.get("card"))
    }
    if p.get("reshuffled"):
        text += " " + _("(after shuffling a new deck, round %(n)s)") % {"n": p["round"]}
    return text


class ChooseForm(forms.Form):
    name = TextField(label=gettext_lazy("Who"), max_length=data.NAME_LENGTH)


def apply_choose(state: AeonsEndState, payload: Payload) -> None:
    name = need_str(payload, "name", data.NAME_LENGTH)
    deck_step(state, turn_order.choose, name)


def describe_choose(p: Payload) -> str:
    return _("Turn order: %(name)s takes this turn") % {"name": p.get("name")}


class CardForm(forms.Form):
    card = TextField(label=gettext_lazy("A drawn card"), max_length=data.NAME_LENGTH * 2 + 1)


def moving(step):
    def apply(state: AeonsEndState, payload: Payload) -> None:
        card = need_str(payload, "card", data.NAME_LENGTH * 2 + 1)
        deck_step(state, step, card)

    return apply


def describe_move(template: str):
    return lambda p: _(template) % {"card": card_label(p.get("card"))}


COMMANDS = (
    Command("ae.life", LifeForm, apply_life, describe_life, resolve=resolve_life),
    # A draw or a reveal starts something: made from a screen that had not seen the last change
    # (a second phone, a double tap) it is refused, and that phone is shown what happened.
    random_command("ae.draw", EmptyForm, apply_draw, describe_draw, random_take(turn_order.draw)),
    random_command(
        "ae.reveal", EmptyForm, apply_reveal, describe_reveal, random_take(turn_order.reveal_top)
    ),
    Command("ae.choose", ChooseForm, apply_choose, describe_choose),
    *(
        Command(name, CardForm, moving(step), describe_move(template), needs_connection=True)
        for name, step, template in (
            (
                "ae.top",
                turn_order.put_on_top,
                gettext_noop("Turn order: put %(card)s back on top of the deck"),
            ),
            (
                "ae.bottom",
                turn_order.put_on_bottom,
                gettext_noop("Turn order: put %(card)s at the bottom of the deck"),
            ),
            (
                "ae.shuffle",
                turn_order.shuffle_into_deck,
                gettext_noop("Turn order: shuffled %(card)s into the deck"),
            ),
        )
    ),
)


# What the pages show: only the deck's public view, never an undrawn order


def colour_of(state: AeonsEndState) -> dict[str, str]:
    return {p["character"]: p["colour"] for p in state["players"]}


def deck_view(state: AeonsEndState) -> dict[str, object]:
    view = turn_order.public_view(state["table"]["deck"])
    colours = colour_of(state)
    players = {p["character"]: p["player"] for p in state["players"]}

    def card(label: str) -> dict[str, object]:
        names = label.split(turn_order.PAIR_SEPARATOR)
        return {
            "label": label,
            "text": card_label(label),
            "parts": names if len(names) > 1 else [card_label(label)],
            "nemesis": label == turn_order.NEMESIS,
            "wild": label == turn_order.WILD,
            "colours": [colours[name] for name in names if name in colours],
        }

    current = view["current"]
    current_view = None
    if current:
        current_view = {
            **card(current["card"]),
            "player": current["player"],
            "who": players.get(current["player"] or "", ""),
            "colour": colours.get(current["player"] or "", ""),
        }
    counted = Counter(view["remaining"])
    return {
        "round": view["round"],
        "count": view["deck_count"],
        "drawn": len(view["discard"]),
        "remaining": [
            {**card(label), "n": counted[label]} for label in sorted(counted, key=str.casefold)
        ],
        "known_top": [card(label) for label in view["known_top"]],
        "known_bottom": [card(label) for label in view["known_bottom"]],
        "discard": [card(label) for label in reversed(view["discard"])],
        "movable": [card(label) for label in sorted(set(view["discard"]), key=str.casefold)],
        "current": current_view,
        "pending": view["pending"],
        "tokens": [
            {"pair": pair, "holder": holder} for pair, holder in (view["tokens"] or {}).items()
        ],
        "empty": view["deck_count"] == 0,
    }


def dial(value: int, start: int, over: bool, player: bool = False) -> dict[str, object]:
    """A life dial's view: its value and start, and whether its −1 and +1 are off. Nobody goes
    above their starting life; an exhausted player (at 0) gains none, but still takes damage
    (it goes to Gravehold); Gravehold and the nemesis stop at 0; an ended game takes neither."""
    exhausted = player and is_exhausted(value)
    return {
        "value": value,
        "start": start,
        "exhausted": exhausted,
        "no_less": over or (not player and value <= 0),
        "no_more": over or value >= start or exhausted,
    }


def table_view(state: AeonsEndState) -> dict[str, object]:
    table = state["table"]
    started = bool(table["nemesis"])
    result = outcome(state)
    over = result is not None
    players = [
        {
            "index": index,
            "who": str(index),
            "character": p["character"],
            "player": p["player"],
            "colour": p["colour"],
            "life": table["lives"][index],
            **dial(table["lives"][index], table["start"]["player"], over, player=True),
        }
        for index, p in enumerate(state["players"])
    ]
    ends = end_texts(state)
    return {
        "started": started,
        "game": table["game"],
        "nemesis": table["nemesis"],
        "difficulty": table["difficulty"],
        "difficulty_label": data.DIFFICULTIES[table["difficulty"]],
        "increased": table["difficulty"] in data.INCREASED_DIFFICULTY,
        "gravehold": dial(table["gravehold"], table["start"]["gravehold"], over),
        "nemesis_life": dial(table["nemesis_life"], table["start"]["nemesis"], over),
        "players": players,
        "ends": ends,
        "over": over,
        "won": result == "win",
        "result": result,
        "outside": bool(table.get("outside")),
    }
