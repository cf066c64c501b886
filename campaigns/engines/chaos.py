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
``effects``. Besides a modifier, reveal another, automatic failure or success, an effect can
reveal N more tokens (``reveal``), cancel or double the other revealed tokens' modifiers
(``others``), raise the test's difficulty (``harder``) or add X times a number set when the test
starts (``per_x``, folded in by ``with_x``), and count as a frost (``as_frost``: a scenario
card's "counts as a frost token"). A scenario card's X is a count the group gives (doom on the
agenda, cultists in play …), which the card may multiply (halved, rounded up or down, or
doubled), offset and cap before the token takes it (``x_times``, ``x_per``, ``x_up``,
``x_plus``, ``x_min``, ``x_max``: ``chaos_x``). Bags with such effects are counted by
``chaos_count.walk``, the others by the knapsack, which answers exactly as before.
"""

import random
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import NamedTuple, TypeGuard

from campaigns.engines.chaos_count import Key, Kind, OddsTooLong, knapsack, walk
from campaigns.engines.chaos_x import MAX_X, X_KEYS, ChaosError, x_amount, x_entry

__all__ = [
    "EFFECT_KEYS",
    "MAX_X",
    "SYMBOLS",
    "TOKENS",
    "X_KEYS",
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
    "with_x",
    "x_amount",
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
# Kept in an effect only when they say something: reveal N > 1 more, "cancel" or "double" the
# other revealed tokens' modifiers, raise the difficulty, add X times ``per_x``.
RICH_KEYS = ("reveal", "others", "harder", "per_x", "as_frost")
OTHERS = {"cancel": 0, "double": 2}

# An effect as the engine reads it: modifier, reveal_another, auto_fail and the rich keys.
Effect = dict[str, int | bool]
MAX_REVEAL, MAX_HARDER, MAX_PER_X = 5, 20, 5

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
    effects: Mapping[str, Mapping[str, object]] | None,
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
        unknown = [key for key in effect if key not in EFFECT_KEYS + RICH_KEYS + X_KEYS]
        if unknown:
            raise ChaosError(
                f"Unknown effect key(s) {', '.join(map(repr, unknown))} for {token!r}; "
                f"allowed keys are: {', '.join(EFFECT_KEYS + RICH_KEYS + X_KEYS)}."
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
        _rich_entry(token, effect, entry)
        clean[token] = entry
    return clean


def _rich_entry(token: str, effect: Mapping[str, object], entry: dict[str, int | bool]) -> None:
    """Check the rich keys of ``effect`` into ``entry``; "reveal" N sets reveal_another too.
    A clean entry checks as itself ("others" kept as the multiplier, 0 or 2)."""
    for key, low, high in (
        ("reveal", 0, MAX_REVEAL),
        ("harder", 0, MAX_HARDER),
        ("per_x", -MAX_PER_X, MAX_PER_X),
    ):
        value = effect.get(key, 0)
        if not _is_int(value) or not low <= value <= high:
            raise ChaosError(f"{key!r} of {token!r} must be a whole number from {low} to {high}.")
        if key == "reveal" and key in effect:
            entry["reveal_another"] = value > 0
            value = value if value > 1 else 0
        if value:
            entry[key] = value
    others = effect.get("others", "")
    if isinstance(others, str) and others in ("", *OTHERS):
        others = OTHERS.get(others, 1)
    if not _is_int(others) or others not in (0, 1, 2):
        raise ChaosError(f"'others' of {token!r} must be 'cancel' (0), 'double' (2) or ''.")
    if others != 1:
        entry["others"] = others
    as_frost = effect.get("as_frost", False)
    if not isinstance(as_frost, bool):
        raise ChaosError(f"'as_frost' of {token!r} must be True or False, not {as_frost!r}.")
    if as_frost:
        entry["as_frost"] = True
    x_entry(token, effect, entry)


def with_x(
    effects: Mapping[str, Mapping[str, int | bool]] | None, x: Mapping[str, int]
) -> dict[str, dict[str, int | bool]]:
    """``effects`` with each "X times per_x" added to its modifier, X being worked out from
    ``x[token]`` (``x_amount``): the number the group sets when the test starts, or the count a
    scenario card's X reads. Raises ChaosError when an X is not set."""
    clean = validate_effects(effects)
    for token, entry in clean.items():
        per_x = entry.pop("per_x", 0)
        rule = {key: entry.pop(key) for key in X_KEYS if key in entry}
        if per_x:
            value = x.get(token) if isinstance(x, Mapping) else None
            if not _is_int(value) or not 0 <= value <= MAX_X:
                raise ChaosError(f"X of {token!r} must be set to a whole number from 0 to 99.")
            entry["modifier"] = int(entry["modifier"]) + int(per_x) * x_amount(value, rule)
    return clean


def _unresolved(clean: Mapping[str, Mapping[str, int | bool]]) -> None:
    for token, entry in clean.items():
        if entry.get("per_x"):
            raise ChaosError(f"X of {token!r} is not set: pass the effects through with_x.")


def _rich(clean: Mapping[str, Mapping[str, int | bool]]) -> bool:
    return any(key in entry for entry in clean.values() for key in RICH_KEYS)


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
    again: bool  # it makes the investigator reveal more tokens
    succeed: bool  # an automatic success (which an automatic failure still beats)
    more: int = 1  # how many more, when ``again``
    others: int = 1  # what the other revealed tokens' modifiers are multiplied by (0: cancelled)
    harder: int = 0  # how much it raises the test's difficulty
    frost: bool = False  # it counts as a frost (a second frost in one test fails it)


class Chain(NamedTuple):
    """Where a test stands after the tokens revealed so far (the chain rule, ST.3–ST.6)."""

    total: int  # the revealed tokens' modifiers added up
    auto_fail: bool
    auto_succeed: bool  # never together with auto_fail: automatic failure wins
    second_frosts: tuple[int, ...]  # where a frost after the first one came out (each fails)
    goes_on: bool  # the rules ask for another token (when the bag still holds one)
    harder: int = 0  # the difficulty raised by the revealed tokens


def reveal(token: str, effects: Mapping[str, Mapping[str, int | bool]] | None = None) -> Reveal:
    """What revealing ``token`` does under ``effects`` (X already folded in by ``with_x``)."""
    _check_token(token)
    clean = validate_effects(effects)
    _unresolved(clean)
    modifier, auto_fail, auto_succeed, again = _rule(token, clean)
    entry = clean.get(token, {}) if token in SYMBOLS else {}
    return Reveal(
        token,
        None if auto_fail else modifier,
        again,
        auto_succeed and not auto_fail,
        int(entry.get("reveal", 1)),
        int(entry.get("others", 1)),
        int(entry.get("harder", 0)),
        token == "frost" or bool(entry.get("as_frost")),
    )


def multiplied_total(pairs: Iterable[tuple[int, int]]) -> int:
    """The sum of the modifiers, each multiplied by the others' multipliers: a token that
    doubles or cancels the other modifiers leaves its own as it is. ``pairs`` are (modifier,
    multiplier), one per revealed token."""
    pairs = list(pairs)
    total = 0
    for index, (modifier, _mult) in enumerate(pairs):
        for other, (_mod, mult) in enumerate(pairs):
            if other != index:
                modifier *= mult
        total += modifier
    return total


def chain(reveals: Iterable[Reveal]) -> Chain:
    """The outcome of a test's revealed tokens, in the order they came out.

    Modifiers add up (each multiplied by what the other tokens do to it); an automatic-failure
    token or a second frost fails the test, and once it has failed nothing revealed afterwards
    matters, so the chain stops; otherwise it goes on while tokens asked for are still to come
    (a token revealing N more asks for N; a token recorded by hand after the chain ended starts
    the count again).
    """
    failed, succeeded, frosts, pending, harder = False, False, 0, 0, 0
    pairs: list[tuple[int, int]] = []
    seconds: list[int] = []
    for index, revealed in enumerate(reveals):
        if revealed.modifier is None:
            failed = True
        else:
            pairs.append((revealed.modifier, revealed.others))
        if revealed.frost or revealed.token == "frost":
            frosts += 1
            if frosts >= 2:
                failed = True
                seconds.append(index)
        succeeded = succeeded or revealed.succeed
        harder += revealed.harder
        pending = max(0, pending - 1) + (revealed.more if revealed.again else 0)
    total = multiplied_total(pairs)
    return Chain(
        total, failed, succeeded and not failed, tuple(seconds), pending > 0 and not failed, harder
    )


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


def _weights(
    bag: Mapping[str, int],
    effects: Mapping[str, Mapping[str, int | bool]] | None,
    budget: int | None = None,
) -> tuple[dict[Key, int], int]:
    """How many orderings of the bag's tokens end the test each way, out of how many: the
    knapsack for the effects it knows (exactly as before the richer effects), the walk for
    the rich ones (``chaos_count``)."""
    counts = validate_bag(bag)
    clean = validate_effects(effects)
    _unresolved(clean)
    if budget is not None and (not _is_int(budget) or budget < 0):
        raise ChaosError(f"The budget must be a whole number of steps, not {budget!r}.")
    if not counts:
        raise ChaosError("The chaos bag is empty: put at least one token in it before a test.")
    kinds = []
    for name, count in counts.items():
        revealed = reveal(name, clean)
        kinds.append(
            Kind(
                count,
                revealed.modifier or 0,
                revealed.modifier is None,
                revealed.succeed,
                revealed.more if revealed.again else 0,
                revealed.others,
                revealed.harder,
                revealed.frost,
            )
        )
    if _rich(clean):
        return walk(kinds, budget)
    return knapsack(kinds, budget)


def _passes(outcome: Key, skill: int, difficulty: int) -> bool:
    total, auto_fail, auto_succeed, harder = outcome
    if auto_fail:
        return False
    if auto_succeed:
        return True
    return max(0, skill + total) >= difficulty + harder


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
    weights, orderings = _weights(bag, effects, budget)
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
    weights, orderings = _weights(bag, effects, budget)
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
