"""An independent check of the chaos engine's odds, for the tests and the benchmark only."""

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

from campaigns.engines import chaos


def brute_force_probability(
    bag: Mapping[str, int],
    skill: int,
    difficulty: int,
    effects: Mapping[str, Mapping[str, int | bool]] | None = None,
) -> Fraction:
    """The same chance as ``success_probability``, by walking every ordering of the bag.

    Deliberately naive, as an independent check: it plays the rules out token by token on each of
    the N! orderings of the physical tokens, so keep N to about 9.
    """
    chaos._check_test(skill, difficulty)
    counts = chaos.validate_bag(bag)
    clean = chaos.validate_effects(effects)
    tokens = [name for name, count in counts.items() for _ in range(count)]
    if not tokens:
        raise chaos.ChaosError(
            "The chaos bag is empty: put at least one token in it before a test."
        )
    rules = {name: chaos._rule(name, clean) for name in counts}
    passed = orderings = 0
    for ordering in itertools.permutations(tokens):
        orderings += 1
        total, failed, succeeded, frosts = 0, False, False, 0
        for name in ordering:
            modifier, auto_fail, auto_succeed, again = rules[name]
            if name == "frost":
                frosts += 1
                auto_fail = auto_fail or frosts >= 2
            total += modifier
            failed = failed or auto_fail
            succeeded = succeeded or auto_succeed
            if not again:
                break
        if not failed and (succeeded or max(0, skill + total) >= difficulty):
            passed += 1
    return Fraction(passed, orderings)


# The Night of the Zealot bag on Standard: the bag the tests and benchmarks reason about.
NOTZ_STANDARD = {
    "+1": 1,
    "0": 2,
    "-1": 3,
    "-2": 2,
    "-3": 1,
    "-4": 1,
    "skull": 2,
    "cultist": 1,
    "tablet": 1,
    "auto_fail": 1,
    "elder_sign": 1,
}


# Every way a test can end, with its exact chance: what the engine counts before it sums the
# passing ones, so the tests can check the counting itself.


class Outcome(NamedTuple):
    """How one test's chain of revealed tokens ends.

    ``total`` is the sum of the revealed tokens' modifiers. When ``auto_fail`` or
    ``auto_succeed`` is set the numbers no longer matter and ``total`` is 0; the two flags are
    never both set, because automatic failure wins.
    """

    total: int
    auto_fail: bool = False
    auto_succeed: bool = False
    harder: int = 0  # the difficulty raised by the revealed tokens (0 once automatic)


def outcome_distribution(
    bag: Mapping[str, int],
    effects: Mapping[str, Mapping[str, int | bool]] | None = None,
    budget: int | None = None,
) -> dict[Outcome, Fraction]:
    """Exact chance of every way a test's chain of revealed tokens can end.

    Sorted by total, then automatic success, then automatic failure; the chances sum to 1.
    Raises OddsTooLong when the count needs more than ``budget`` steps.
    """
    weights, orderings = chaos._weights(bag, effects, budget)
    return {
        Outcome(*key): Fraction(weight, orderings)
        for key, weight in sorted(
            weights.items(), key=lambda item: (item[0][2], item[0][1], item[0][0], item[0][3])
        )
    }


_FIXED = {**{n: int(n) for n in chaos.NUMBERS}, "bless": 2, "curse": -2, "frost": -1}


def brute_force_rich(
    bag: Mapping[str, int],
    skill: int,
    difficulty: int,
    effects: Mapping[str, Mapping[str, object]] | None = None,
    x: Mapping[str, int] | None = None,
) -> Fraction:
    """The chance with the richer effects (reveal N more, cancel or double the other modifiers,
    raise the difficulty, −X or +X with a card's multiplier, offset and cap, counting as a
    frost), played out token by token on every ordering, reading the effects as written rather
    than through the engine (rules.md §1b, lines 94-104)."""
    effects, x = effects or {}, x or {}
    tokens = [name for name, count in bag.items() for _ in range(count)]
    passed = orderings = 0
    for ordering in itertools.permutations(tokens):
        orderings += 1
        pending, frosts, failed, succeeded, harder = 1, 0, False, False, 0
        revealed: list[tuple[int, int]] = []  # (modifier, what it multiplies the others by)
        for name in ordering:
            pending -= 1
            effect = effects.get(name, {}) if name in chaos.SYMBOLS else {}
            if name == "auto_fail" or effect.get("auto_fail"):
                failed = True
                break
            if name == "frost" or effect.get("as_frost"):
                frosts += 1
                if frosts == 2:
                    failed = True
                    break
            if name in _FIXED:
                modifier, more = _FIXED[name], int(name in ("bless", "curse", "frost"))
            else:
                modifier = int(effect.get("modifier", 0))
                modifier += int(effect.get("per_x", 0)) * card_x(effect, x.get(name, 0))
                more = int(effect.get("reveal", 1 if effect.get("reveal_another") else 0))
            others = {"": 1, "cancel": 0, "double": 2}[str(effect.get("others", ""))]
            revealed.append((modifier, others))
            succeeded = succeeded or bool(effect.get("auto_succeed"))
            harder += int(effect.get("harder", 0))
            pending += more
            if pending == 0:
                break
        total = 0
        for i, (modifier, _) in enumerate(revealed):
            for j, (_, others) in enumerate(revealed):
                if i != j:
                    modifier *= others
            total += modifier
        if not failed and (succeeded or max(0, skill + total) >= difficulty + harder):
            passed += 1
    return Fraction(passed, orderings)


def card_x(effect: Mapping[str, object], count: int) -> int:
    """X as a scenario card works it out from the count the group gives (the data's schema:
    count × multiplier, rounded as the card says, + offset, clamped), written independently of
    ``chaos.x_amount``: a plain fraction, then math's floor or ceiling."""
    scaled = Fraction(count) * Fraction(int(effect.get("x_times", 1)), int(effect.get("x_per", 1)))
    rounded = math.ceil(scaled) if effect.get("x_up") else math.floor(scaled)
    value = rounded + int(effect.get("x_plus", 0))
    if "x_min" in effect:
        value = max(value, int(effect["x_min"]))
    if "x_max" in effect:
        value = min(value, int(effect["x_max"]))
    return value
