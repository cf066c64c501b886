"""Chaos bag draw for a skill test: exact odds of passing, and a fair random draw.

Encodes the rule in ``../shared/spec/rules.md`` §1b "Chaos bag draw (skill test, ST.3–ST.6)":
one token is revealed at random from the bag, without replacement for the rest of the test; some
tokens make the investigator reveal another; the modifiers of every revealed token add to the
skill; an auto-fail token (or an ability) fails the test whatever the numbers, an auto-success
ability passes it; otherwise the test succeeds when the modified skill is at least the difficulty.

The seed leaves the token values and the floor of the modified skill open ([NOT IN SEED]); this
module follows the issue that commissioned it: numbers count at face value, bless is +2, curse −2
and frost −1 and each of these three reveals another token, a second frost in one test is an
automatic failure, the modified skill never drops below 0, automatic failure beats automatic
success, and a chain that empties the bag resolves with what was revealed. Symbol tokens
(``SYMBOLS``) have no value of their own: the scenario card or investigator sets it, passed in as
``effects``.
"""

import math
import random
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import NamedTuple, TypeGuard

__all__ = [
    "EFFECT_KEYS",
    "SYMBOLS",
    "TOKENS",
    "Chain",
    "ChaosError",
    "OddsTooLong",
    "Reveal",
    "chain",
    "draw",
    "draw_chain",
    "pass_table",
    "reveal",
    "reveals_another",
    "success_probability",
    "token_modifier",
    "validate_bag",
    "validate_effects",
]

NUMBERS = ("+1", "0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8")
SYMBOLS = ("skull", "cultist", "tablet", "elder_thing", "elder_sign")
TOKENS = (
    *NUMBERS,
    "skull",
    "cultist",
    "tablet",
    "elder_thing",
    "auto_fail",
    "elder_sign",
    "bless",
    "curse",
    "frost",
)
EFFECT_KEYS = ("modifier", "reveal_another", "auto_fail", "auto_succeed")

_TOKEN_SET = frozenset(TOKENS)
_FLAGS = ("reveal_another", "auto_fail", "auto_succeed")

# (modifier, auto_fail, auto_succeed, reveals_another) for every token whose effect the game fixes.
_FIXED_RULES: dict[str, tuple[int, bool, bool, bool]] = {
    **{name: (int(name), False, False, False) for name in NUMBERS},
    "auto_fail": (0, True, False, False),
    "bless": (2, False, False, True),
    "curse": (-2, False, False, True),
    "frost": (-1, False, False, True),
}

# Internal outcome keys are plain (total, auto_fail, auto_succeed) tuples; once automatic failure
# or success is known the total can no longer matter, so it is folded to 0 to keep the
# distribution small and every outcome canonical.
_AUTO_FAIL = (0, True, False)
_AUTO_SUCCEED = (0, False, True)
_NOTHING = (0, False, False)


class ChaosError(ValueError):
    """A chaos bag, effect table or skill test the engine cannot work with."""


class OddsTooLong(Exception):
    """Working out the exact odds would take more steps than the caller's ``budget`` allows.

    A bag far beyond any real one (hundreds of tokens, many of them revealing another) makes the
    count grow large; a caller serving a page passes a budget and says so instead of waiting.
    """


class _Budget:
    """Steps of counting left; None counts without a limit. Work is paid before it is done."""

    def __init__(self, steps: int | None, scale: int = 1) -> None:
        if steps is not None and (not _is_int(steps) or steps < 0):
            raise ChaosError(f"The budget must be a whole number of steps, not {steps!r}.")
        self.left, self.scale = steps, scale

    def spend(self, steps: int) -> None:
        if self.left is None:
            return
        self.left -= steps * self.scale
        if self.left < 0:
            raise OddsTooLong("The odds of this bag take too long to work out exactly.")


def _is_int(value: object) -> TypeGuard[int]:
    # bool is an int subclass, but True as a count or modifier is almost surely a mistake.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_token(token: object) -> None:
    if token not in _TOKEN_SET:
        raise ChaosError(f"Unknown chaos token {token!r}; known tokens are: {', '.join(TOKENS)}.")


def validate_bag(bag: Mapping[str, int]) -> dict[str, int]:
    """Return a clean copy of ``bag`` in display order, without the tokens whose count is 0.

    Raises ChaosError for a non-mapping, an unknown token name, or a count that is not a
    non-negative whole number. An empty result is allowed here; drawing from it is not.
    """
    if not isinstance(bag, Mapping):
        raise ChaosError(
            f"The chaos bag must map token names to counts, not be a {type(bag).__name__}."
        )
    for name, count in bag.items():
        _check_token(name)
        if not _is_int(count):
            raise ChaosError(f"The count of {name!r} must be a whole number, not {count!r}.")
        if count < 0:
            raise ChaosError(f"The count of {name!r} cannot be negative (got {count}).")
    return {name: bag[name] for name in TOKENS if bag.get(name, 0) > 0}


def validate_effects(
    effects: Mapping[str, Mapping[str, int | bool]] | None,
) -> dict[str, dict[str, int | bool]]:
    """Return ``effects`` with every entry spelled out (all of ``EFFECT_KEYS`` present).

    Only symbol tokens take an effect; a symbol without an entry counts as modifier 0.
    Raises ChaosError for unknown tokens, non-symbol tokens, unknown keys or wrong value types.
    """
    if effects is None:
        return {}
    if not isinstance(effects, Mapping):
        raise ChaosError(
            f"Token effects must map symbol tokens to effects, not be a {type(effects).__name__}."
        )
    clean: dict[str, dict[str, int | bool]] = {}
    for token, effect in effects.items():
        _check_token(token)
        if token not in SYMBOLS:
            raise ChaosError(
                f"{token!r} has a fixed effect; only symbol tokens ({', '.join(SYMBOLS)}) "
                "take a scenario or investigator effect."
            )
        if not isinstance(effect, Mapping):
            raise ChaosError(
                f"The effect of {token!r} must be a mapping of {', '.join(EFFECT_KEYS)}, "
                f"not {effect!r}."
            )
        unknown = [key for key in effect if key not in EFFECT_KEYS]
        if unknown:
            raise ChaosError(
                f"Unknown effect key(s) {', '.join(map(repr, unknown))} for {token!r}; "
                f"allowed keys are: {', '.join(EFFECT_KEYS)}."
            )
        modifier = effect.get("modifier", 0)
        if not _is_int(modifier):
            raise ChaosError(f"The modifier of {token!r} must be a whole number, not {modifier!r}.")
        entry: dict[str, int | bool] = {"modifier": modifier}
        for flag in _FLAGS:
            value = effect.get(flag, False)
            if not isinstance(value, bool):
                raise ChaosError(f"{flag!r} of {token!r} must be True or False, not {value!r}.")
            entry[flag] = value
        clean[token] = entry
    return clean


def _rule(
    token: str, clean_effects: Mapping[str, Mapping[str, int | bool]]
) -> tuple[int, bool, bool, bool]:
    """(modifier, auto_fail, auto_succeed, reveals_another) of a known token."""
    if token in SYMBOLS:
        effect = clean_effects.get(token)
        if effect is None:
            return (0, False, False, False)
        return (
            int(effect["modifier"]),
            bool(effect["auto_fail"]),
            bool(effect["auto_succeed"]),
            bool(effect["reveal_another"]),
        )
    return _FIXED_RULES[token]


def token_modifier(
    token: str, effects: Mapping[str, Mapping[str, int | bool]] | None = None
) -> int | None:
    """The number ``token`` adds to the skill, or None when it is an automatic failure."""
    _check_token(token)
    modifier, auto_fail, _, _ = _rule(token, validate_effects(effects))
    return None if auto_fail else modifier


def reveals_another(
    token: str, effects: Mapping[str, Mapping[str, int | bool]] | None = None
) -> bool:
    """Whether revealing ``token`` makes the investigator reveal another token.

    A second frost in one test is an automatic failure, which this per-token answer cannot see.
    """
    _check_token(token)
    return _rule(token, validate_effects(effects))[3]


class Reveal(NamedTuple):
    """What one revealed token does in a test, under the effects in force when it came out."""

    token: str
    modifier: int | None  # the number it adds to the skill; None: an automatic failure
    again: bool  # it makes the investigator reveal another token
    succeed: bool  # an automatic success (which an automatic failure still beats)


class Chain(NamedTuple):
    """Where a test stands after the tokens revealed so far (the chain rule, ST.3–ST.6)."""

    total: int  # the revealed tokens' modifiers added up
    auto_fail: bool
    auto_succeed: bool  # never together with auto_fail: automatic failure wins
    second_frosts: tuple[int, ...]  # where a frost after the first one came out (each fails)
    goes_on: bool  # the rules ask for another token (when the bag still holds one)


def reveal(token: str, effects: Mapping[str, Mapping[str, int | bool]] | None = None) -> Reveal:
    """What revealing ``token`` does under ``effects``."""
    _check_token(token)
    modifier, auto_fail, auto_succeed, again = _rule(token, validate_effects(effects))
    return Reveal(token, None if auto_fail else modifier, again, auto_succeed and not auto_fail)


def chain(reveals: Iterable[Reveal]) -> Chain:
    """The outcome of a test's revealed tokens, in the order they came out.

    Modifiers add up; an automatic-failure token or a second frost fails the test, and once it
    has failed nothing revealed afterwards matters, so the chain stops; otherwise it goes on
    while the last token revealed asks for another.
    """
    total, failed, succeeded, frosts, last_again = 0, False, False, 0, False
    seconds: list[int] = []
    for index, revealed in enumerate(reveals):
        if revealed.modifier is None:
            failed = True
        else:
            total += revealed.modifier
        if revealed.token == "frost":
            frosts += 1
            if frosts >= 2:
                failed = True
                seconds.append(index)
        succeeded = succeeded or revealed.succeed
        last_again = revealed.again
    return Chain(total, failed, succeeded and not failed, tuple(seconds), last_again and not failed)


def draw_chain(
    bag: Mapping[str, int],
    effects: Mapping[str, Mapping[str, int | bool]] | None,
    rng: random.Random,
    before: Iterable[Reveal] = (),
) -> list[str]:
    """Reveal one token at random from ``bag``, then more while the chain rule asks for another
    and the bag holds one, without replacement. ``before`` are the test's tokens already
    revealed (and already out of ``bag``), when the test goes on. Returns the tokens drawn."""
    left = validate_bag(bag)
    reveals = list(before)
    drawn: list[str] = []
    while True:
        token = draw(left, rng)
        left[token] -= 1
        drawn.append(token)
        reveals.append(reveal(token, effects))
        if not chain(reveals).goes_on or not any(left.values()):
            return drawn


def _check_test(skill: object, difficulty: object) -> None:
    if not _is_int(skill):
        raise ChaosError(f"The skill value must be a whole number, not {skill!r}.")
    if not _is_int(difficulty):
        raise ChaosError(f"The difficulty must be a whole number, not {difficulty!r}.")
    if difficulty < 0:
        raise ChaosError(f"The difficulty cannot be negative (got {difficulty}).")


def _outcome_weights(
    bag: Mapping[str, int],
    effects: Mapping[str, Mapping[str, int | bool]] | None,
    budget: int | None = None,
) -> tuple[dict[tuple[int, bool, bool], int], int]:
    """Count the orderings of the whole bag by the outcome of the chain they start with.

    Every physical token is distinct, so all N! orderings are equally likely; counting them keeps
    the arithmetic in exact integers until the single division by N!.

    A chain is a set of tokens that reveal another (at most one frost among them), in any order,
    ended by the next token: one that ends the chain, a second frost (automatic failure), or
    nothing when the bag runs dry. A given set of K chaining tokens and a given ending token
    start K! (N - K - 1)! orderings, whatever the set; so the sets are counted by size, total
    and whether one succeeds automatically (a knapsack over the kinds of chaining token), and
    the work grows with the number of tokens, not with the product of their counts.

    ``budget`` caps the steps (one per entry the counting writes, more for a bigger bag, whose
    numbers are longer): OddsTooLong when over, before the work is done.
    """
    counts = validate_bag(bag)
    clean = validate_effects(effects)
    size = sum(counts.values())
    if size == 0:
        raise ChaosError("The chaos bag is empty: put at least one token in it before a test.")
    steps = _Budget(budget, 1 + size // 64)

    enders: dict[tuple[int, bool, bool], int] = {}
    chainers: dict[tuple[int, bool], int] = {}  # (modifier, auto_succeed) -> copies
    frost = counts.get("frost", 0)
    for name, count in counts.items():
        if name == "frost":
            continue  # the first frost chains, a second one ends the test: counted apart
        modifier, auto_fail, auto_succeed, again = _rule(name, clean)
        if auto_fail:
            # Nothing revealed afterwards can undo an automatic failure, so the chain's end is
            # already known even when the effect asks for another token.
            key = _AUTO_FAIL
        elif again:
            chainers[(modifier, auto_succeed)] = chainers.get((modifier, auto_succeed), 0) + count
            continue
        elif auto_succeed:
            key = _AUTO_SUCCEED
        else:
            key = (modifier, False, False)
        enders[key] = enders.get(key, 0) + count

    # sets[(k, total, succeeds)] = how many sets of k chaining tokens (no frost) add up so.
    sets: dict[tuple[int, int, bool], int] = {(0, 0, False): 1}
    for (modifier, auto_succeed), copies in chainers.items():
        steps.spend(len(sets) * (copies + 1))
        grown: dict[tuple[int, int, bool], int] = {}
        for (k, total, succeeds), ways in sets.items():
            for taken in range(copies + 1):
                grown_key = (
                    k + taken,
                    total + taken * modifier,
                    succeeds or (auto_succeed and taken > 0),
                )
                grown[grown_key] = grown.get(grown_key, 0) + ways * math.comb(copies, taken)
        sets = grown

    steps.spend(2 * len(sets) * (len(enders) + 1) + size)
    factorial = [math.factorial(n) for n in range(size + 1)]
    weights: dict[tuple[int, bool, bool], int] = {}

    def add(key: tuple[int, bool, bool], amount: int) -> None:
        weights[key] = weights.get(key, 0) + amount

    def ended_by(total: int, succeeds: bool, end: tuple[int, bool, bool]) -> tuple[int, bool, bool]:
        if end[1]:
            return _AUTO_FAIL
        if succeeds or end[2]:
            return _AUTO_SUCCEED
        return (total + end[0], False, False)

    for (k, total, succeeds), ways in sets.items():
        # With no frost in the chain, or with one of the frosts (frost ways to pick it).
        for frosts, frost_ways in ((0, 1), (1, frost)):
            if not frost_ways:
                continue
            length = k + frosts
            chain_total = total - frosts
            count = ways * frost_ways * factorial[length]
            if length == size:  # the bag ran dry: resolve with what was revealed
                add(ended_by(chain_total, succeeds, _NOTHING), count)
                continue
            rest = factorial[size - length - 1]
            for end, copies in enders.items():
                add(ended_by(chain_total, succeeds, end), count * copies * rest)
            if frosts:  # the next token is a second frost
                add(_AUTO_FAIL, count * (frost - 1) * rest)
    return {key: weight for key, weight in weights.items() if weight}, factorial[size]


def _passes(outcome: tuple[int, bool, bool], skill: int, difficulty: int) -> bool:
    total, auto_fail, auto_succeed = outcome
    if auto_fail:
        return False
    if auto_succeed:
        return True
    return max(0, skill + total) >= difficulty


def success_probability(
    bag: Mapping[str, int],
    skill: int,
    difficulty: int,
    effects: Mapping[str, Mapping[str, int | bool]] | None = None,
    budget: int | None = None,
) -> Fraction:
    """Exact chance that a test of ``skill`` against ``difficulty`` succeeds with this bag.

    Raises OddsTooLong when the count needs more than ``budget`` steps.
    """
    _check_test(skill, difficulty)
    weights, orderings = _outcome_weights(bag, effects, budget)
    passing = sum(weight for key, weight in weights.items() if _passes(key, skill, difficulty))
    return Fraction(passing, orderings)


def pass_table(
    bag: Mapping[str, int],
    effects: Mapping[str, Mapping[str, int | bool]] | None,
    difficulty: int,
    margins: Iterable[int] = range(-2, 7),
    budget: int | None = None,
) -> dict[int, Fraction]:
    """Chance to pass against ``difficulty`` for each margin, testing skill = difficulty + margin.

    The difficulty is needed, not just the margin, because the modified skill is floored at 0:
    skill 1 against difficulty 0 passes whatever is drawn, skill 4 against 3 may not.
    Raises OddsTooLong when the count needs more than ``budget`` steps.
    """
    _check_test(0, difficulty)
    margins = list(margins)
    for margin in margins:
        if not _is_int(margin):
            raise ChaosError(f"Each margin must be a whole number, not {margin!r}.")
    weights, orderings = _outcome_weights(bag, effects, budget)
    return {
        margin: Fraction(
            sum(
                weight
                for key, weight in weights.items()
                if _passes(key, difficulty + margin, difficulty)
            ),
            orderings,
        )
        for margin in margins
    }


def draw(bag: Mapping[str, int], rng: random.Random) -> str:
    """Reveal one token at random; every physical token in the bag is equally likely."""
    counts = validate_bag(bag)
    size = sum(counts.values())
    if size == 0:
        raise ChaosError("The chaos bag is empty: there is no token to reveal.")
    # randrange over physical tokens is exact, where weighted float choice would round.
    pick = rng.randrange(size)
    for name, count in counts.items():
        if pick < count:
            return name
        pick -= count
    raise AssertionError("unreachable: pick is below the bag size")
