"""Dice tests of Eldritch Horror: roll six-sided dice, count the successes, reroll with clues.

rules.md §3b: a test rolls dice and counts successes; a die succeeds on 5 or 6 ([EXTERNAL –
verify]; blessed 4–6, cursed only 6); spending a clue rerolls one die, as often as the
investigator has clues ([001:91]). Rerolling a failed die never loses a success, so the chance
of at least k successes is the chance that the first roll and the rerolls together reach k.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

SIDES = 6


class DiceError(ValueError):
    """Numbers no test can have (no dice, a face above six, a negative count)."""


def success_chance(success_on: int) -> Fraction:
    """The chance that one die shows `success_on` or more."""
    if not 1 <= success_on <= SIDES:
        raise DiceError(f"A die succeeds on a face from 1 to {SIDES}.")
    return Fraction(SIDES + 1 - success_on, SIDES)


def binomial_at_least(trials: int, needed: int, p: Fraction) -> Fraction:
    """The chance of at least `needed` successes in `trials` independent tries."""
    if needed <= 0:
        return Fraction(1)
    return sum(
        (comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(needed, trials + 1)),
        Fraction(0),
    )


def at_least(dice: int, successes: int, success_on: int = 5, rerolls: int = 0) -> Fraction:
    """The exact chance that `dice` dice, then up to `rerolls` rerolls of one failed die at a
    time, give at least `successes` successes."""
    if dice < 0 or rerolls < 0:
        raise DiceError("Dice and rerolls are counted from 0.")
    p = success_chance(success_on)
    return sum(
        (
            comb(dice, first)
            * p**first
            * (1 - p) ** (dice - first)
            * still_at_least(dice, first, successes, success_on, rerolls)
            for first in range(dice + 1)
        ),
        Fraction(0),
    )


def still_at_least(
    dice: int, have: int, successes: int, success_on: int = 5, rerolls: int = 0
) -> Fraction:
    """The exact chance that a roll of `dice` dice showing `have` successes reaches at least
    `successes` with up to `rerolls` rerolls of one failed die at a time (the odds once the dice
    are on the table: a success already rolled is kept)."""
    if not 0 <= have <= dice or rerolls < 0:
        raise DiceError("A roll shows from 0 to all of its dice as successes.")
    p = success_chance(success_on)
    if successes <= have:
        return Fraction(1)
    if successes > dice:
        return Fraction(0)
    # While fewer than `successes` ≤ `dice` succeed, some die has failed and can be rerolled.
    return binomial_at_least(rerolls, successes - have, p)


def roll(dice: int, rng: random.Random) -> list[int]:
    """`dice` faces from 1 to 6."""
    if dice < 0:
        raise DiceError("Dice are counted from 0.")
    return [rng.randint(1, SIDES) for _ in range(dice)]


def count(faces: list[int], success_on: int = 5) -> int:
    success_chance(success_on)
    return sum(1 for face in faces if face >= success_on)


def reroll_one(faces: list[int], success_on: int, rng: random.Random) -> tuple[int, int]:
    """Which die (the first failed one) is rerolled and its new face; DiceError when every die
    already succeeds."""
    for index, face in enumerate(faces):
        if face < success_on:
            return index, rng.randint(1, SIDES)
    raise DiceError("Every die already succeeds.")
