"""The table's randomizers as trackers any game can add: a dice roller (N six-sided dice, a
die succeeds on its threshold or more, every roll recorded) and a deck (named cards or counts
by kind, drawn at random on the server with no order stored: a draw picks among the cards left,
like a shuffled deck). Issue 10's shared trackers; the engines are `campaigns.engines.dice`.
"""

from __future__ import annotations

import random
import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import CommandError, Payload, need_int, next_id, random_command
from campaigns.engines import dice
from campaigns.trackers import base
from campaigns.trackers.base import (
    MAX_ITEMS,
    NAME_LENGTH,
    NUMBER,
    TrackerForm,
    TrackerState,
)
from campaigns.trackers.types import Cards, Deck, DiceRoller
from campaigns.words import FULL_WIDTH, visible

MAX_DICE = 20
MAX_ROLLS = 20  # the rolls a dice roller keeps
MAX_CARDS = 200


# A card's count follows ×, * or an x standing as a word of its own ("Room x2", not "Box 3"):
# whatever number is written there is read as its count (and refused when it is no whole number
# of 1 to MAX_CARDS), never taken into the card's name.
COUNTED = re.compile(r"(.*?)\s*(?:[×*]|(?:(?<=\s)|^)[xX])\s*([-+]?\d[\d.]*)")


def parse_cards(text: str) -> list[Cards]:
    """“Green×5, Yellow×9, Ace” is five Green cards, nine Yellow and one Ace."""
    cards: list[Cards] = []
    for part in text.translate(FULL_WIDTH).split(","):
        part = part.strip()
        if not visible(part):
            continue
        match = COUNTED.fullmatch(part)
        name, count = (match[1].strip(), card_count(part, match[2])) if match else (part, 1)
        if not visible(name):
            raise CommandError(_("“%(line)s” needs a name.") % {"line": part}, "items")
        if len(name) > NAME_LENGTH:
            raise CommandError(base.too_long(name), "items")
        if any(c["name"].casefold() == name.casefold() for c in cards):
            raise CommandError(_("“%(name)s” is listed twice.") % {"name": name}, "items")
        cards.append({"name": name, "count": count})
    if not cards or len(cards) > MAX_ITEMS:
        raise CommandError(_("List the deck's cards, e.g. Green×5, Yellow×9, Ace."), "items")
    return cards


def card_count(part: str, written: str) -> int:
    if not re.fullmatch(r"[-+]?\d+", written):
        raise CommandError(
            _("“%(card)s”: the count is not a whole number.") % {"card": part}, "items"
        )
    count = base.whole_number(written, MAX_CARDS)
    if count is None or count < 1:
        raise CommandError(
            _("“%(card)s”: each kind holds 1 to %(n)d cards.") % {"card": part, "n": MAX_CARDS},
            "items",
        )
    return count


def new_dice(ident: int, name: str, spec: Payload) -> DiceRoller:
    success_on = 5 if spec.get("success_on") is None else need_int(spec, "success_on", 1, 6)
    return {"id": ident, "kind": "dice", "name": name, "success_on": success_on, "rolls": []}


def new_deck(ident: int, name: str, spec: Payload) -> Deck:
    cards = spec.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > MAX_ITEMS:
        raise CommandError(_("List the deck's cards, e.g. Green×5, Yellow×9, Ace."), "items")
    checked: list[Cards] = []
    for card in cards:
        if not isinstance(card, dict):
            raise CommandError(_("List the deck's cards, e.g. Green×5, Yellow×9, Ace."), "items")
        card_name = card.get("name")
        if not isinstance(card_name, str) or not card_name.strip() or len(card_name) > NAME_LENGTH:
            raise CommandError(_("List the deck's cards, e.g. Green×5, Yellow×9, Ace."), "items")
        checked.append({"name": card_name, "count": need_int(card, "count", 1, MAX_CARDS)})
    left = [Cards(name=c["name"], count=c["count"]) for c in checked]
    return {"id": ident, "kind": "deck", "name": name, "cards": checked, "left": left, "drawn": []}


class RollForm(TrackerForm):
    dice = forms.IntegerField(
        label=gettext_lazy("Dice"),
        min_value=1,
        max_value=MAX_DICE,
        widget=forms.NumberInput(NUMBER),
    )


def resolve_roll(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = base.with_name("dice")(state, data, rng)
    payload["faces"] = dice.roll(need_int(data, "dice", 1, MAX_DICE), rng)
    return payload


def apply_roll(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "dice")
    count = need_int(payload, "dice", 1, MAX_DICE)
    faces = payload.get("faces")
    if (
        not isinstance(faces, list)
        or len(faces) != count
        or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in faces)
    ):
        raise CommandError(_("The roll does not fit."), "dice")
    found["rolls"] = [
        *found["rolls"][-(MAX_ROLLS - 1) :],
        {"id": next_id(state), "faces": list(faces)},
    ]


def describe_roll(p: Payload) -> str:
    faces = p.get("faces")
    faces = faces if isinstance(faces, list) else []
    return _("%(name)s: rolled %(faces)s") % {
        "name": base.shown(p.get("name")),
        "faces": " ".join(str(f) for f in faces or []),
    }


def resolve_draw(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = base.with_name("deck")(state, data, rng)
    found = base.tracker(state, payload, "deck")
    total = sum(c["count"] for c in found["left"])
    if not total:
        raise CommandError(_("The deck is empty."), "tracker")
    position = rng.randrange(total)
    for card in found["left"]:
        if position < card["count"]:
            payload["card"] = card["name"]
            break
        position -= card["count"]
    return payload


def apply_draw(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "deck")
    name = payload.get("card")
    card = next((c for c in found["left"] if c["name"] == name and c["count"] > 0), None)
    if card is None:
        raise CommandError(_("The deck has no such card left."), "tracker")
    card["count"] -= 1
    found["drawn"].append({"id": next_id(state), "card": card["name"]})


def apply_reset(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "deck")
    found["left"] = [Cards(name=c["name"], count=c["count"]) for c in found["cards"]]
    found["drawn"] = []


def dice_view(found: DiceRoller) -> dict[str, object]:
    last = found["rolls"][-1] if found["rolls"] else None
    if last is None:
        return {"last_roll": None}
    on = found["success_on"]
    return {
        "last_roll": {
            "faces": [{"face": f, "hit": f >= on} for f in last["faces"]],
            "successes": dice.count(last["faces"], on),
        }
    }


def deck_view(found: Deck) -> dict[str, object]:
    return {
        "cards_left": sum(c["count"] for c in found["left"]),
        "last_card": found["drawn"][-1]["card"] if found["drawn"] else None,
    }


COMMANDS = (
    random_command("dice.roll", RollForm, apply_roll, describe_roll, resolve_roll),
    random_command(
        "deck.draw",
        TrackerForm,
        apply_draw,
        lambda p: (
            _("%(name)s: drew %(card)s")
            % {"name": base.shown(p.get("name")), "card": p.get("card", "?")}
        ),
        resolve_draw,
    ),
    base.said(
        "deck.reset",
        TrackerForm,
        apply_reset,
        gettext_noop("%(name)s: every card back in the deck"),
        stale_check=True,
        needs_connection=True,
    ),
)
