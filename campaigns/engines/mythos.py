"""The mythos deck of Eldritch Horror as counts of colours per stage, drawn at random.

rules.md §3a/§3b: the Ancient One sheet says how many green, yellow and blue mythos cards go in
each of the three stages; stage I sits on top, then II, then III, each shuffled on its own. The
deck is never replenished or reshuffled, and when no card can be drawn the investigators lose at
the end of that Mythos phase [001:489-491]. No order is stored: a draw picks at random among the
cards left in the first stage that has any, which is what drawing from a shuffled stage does.
"""

from __future__ import annotations

import random
from typing import Literal, TypedDict, TypeIs

Colour = Literal["green", "yellow", "blue"]  # the keys of a Stage
COLOURS: tuple[Colour, ...] = ("green", "yellow", "blue")
STAGES = 3


class Stage(TypedDict):
    green: int
    yellow: int
    blue: int


class Deck(TypedDict):
    stages: list[Stage]


class DeckError(ValueError):
    """A draw the deck cannot give (it is empty, or has no card of that colour in this stage)."""


def build(stages: object) -> Deck:
    """A deck from three [green, yellow, blue] counts, stage I first (a set-up read back from a
    file is checked here)."""
    if not isinstance(stages, list) or len(stages) != STAGES:
        raise DeckError("A mythos deck has three stages of green, yellow and blue.")
    if any(not isinstance(s, list) or len(s) != len(COLOURS) for s in stages):
        raise DeckError("A mythos deck has three stages of green, yellow and blue.")
    counts = [[n for n in s if isinstance(n, int) and not isinstance(n, bool)] for s in stages]
    if any(len(c) != len(COLOURS) or not all(0 <= n <= 20 for n in c) for c in counts):
        raise DeckError("Each count is a whole number from 0 to 20.")
    return {"stages": [Stage(green=c[0], yellow=c[1], blue=c[2]) for c in counts]}


def left(stage: Stage) -> int:
    return stage["green"] + stage["yellow"] + stage["blue"]


def current_stage(deck: Deck) -> int | None:
    """The index of the stage the next card comes from (None: the deck is empty)."""
    for index, stage in enumerate(deck["stages"]):
        if left(stage):
            return index
    return None


def is_colour(name: str) -> TypeIs[Colour]:
    return name in COLOURS


def cards_left(deck: Deck) -> int:
    return sum(left(stage) for stage in deck["stages"])


def pick(deck: Deck, rng: random.Random) -> str:
    """The colour of a random card of the current stage (the deck is not changed)."""
    index = current_stage(deck)
    if index is None:
        raise DeckError("The mythos deck is empty.")
    stage = deck["stages"][index]
    position = rng.randrange(left(stage))
    for colour in COLOURS:
        count = stage[colour]
        if position < count:
            return colour
        position -= count
    raise AssertionError("unreachable")


def take(deck: Deck, colour: str) -> int:
    """Take a card of `colour` from the current stage; returns the stage it came from."""
    if not is_colour(colour):
        raise DeckError("A mythos card is green, yellow or blue.")
    index = current_stage(deck)
    if index is None:
        raise DeckError("The mythos deck is empty.")
    stage = deck["stages"][index]
    if stage[colour] <= 0:
        raise DeckError("This stage has no card of that colour left.")
    stage[colour] -= 1
    return index
