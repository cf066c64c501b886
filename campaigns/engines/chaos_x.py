"""A scenario card's X (``../shared/spec/rules.md`` §1b, line 99: the token's modifier is part of
the modified skill): a count the group gives (doom on the agenda, cultists in play …), which the
card may multiply (halved, rounded up or down, or doubled), offset and cap before the token
takes −X. An effect says how in ``X_KEYS``, read with its ``per_x`` by ``chaos.with_x``.
"""

from collections.abc import Mapping
from typing import TypeGuard

__all__ = ["MAX_X", "X_KEYS", "ChaosError", "x_amount", "x_entry"]

MAX_X = 99
# Kept only when not the default: X = the count times x_times / x_per, rounded up when x_up
# (else down), plus x_plus, then at least x_min and at most x_max.
X_KEYS = ("x_times", "x_per", "x_up", "x_plus", "x_min", "x_max")
_X_LIMITS = {"x_times": (1, 5, 1), "x_per": (1, 5, 1), "x_plus": (-5, 5, 0)}


class ChaosError(ValueError):
    """A chaos bag, effect table or skill test the engine cannot work with."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def x_entry(token: str, effect: Mapping[str, object], entry: dict[str, int | bool]) -> None:
    """Check how X is worked out (``X_KEYS``) into ``entry``, keeping what is not the default."""
    for key, (low, high, default) in _X_LIMITS.items():
        value = effect.get(key, default)
        if not _is_int(value) or not low <= value <= high:
            raise ChaosError(f"{key!r} of {token!r} must be a whole number from {low} to {high}.")
        if value != default:
            entry[key] = value
    up = effect.get("x_up", False)
    if not isinstance(up, bool):
        raise ChaosError(f"'x_up' of {token!r} must be True or False, not {up!r}.")
    if up:
        entry["x_up"] = True
    for key in ("x_min", "x_max"):
        if key in effect:
            value = effect[key]
            if not _is_int(value) or not 0 <= value <= MAX_X:
                raise ChaosError(f"{key!r} of {token!r} must be a whole number from 0 to {MAX_X}.")
            entry[key] = value
    if entry.get("x_min", 0) > entry.get("x_max", MAX_X):
        raise ChaosError(f"'x_min' of {token!r} cannot be above its 'x_max'.")


def x_amount(count: int, effect: Mapping[str, int | bool]) -> int:
    """X for a ``count`` the group gave, as the effect works it out (``X_KEYS``): the count
    times x_times / x_per, rounded up or down, plus x_plus, kept between x_min and x_max."""
    times, per = int(effect.get("x_times", 1)), int(effect.get("x_per", 1))
    scaled = -((-count * times) // per) if effect.get("x_up") else (count * times) // per
    amount = scaled + int(effect.get("x_plus", 0))
    return max(int(effect.get("x_min", 0)), min(int(effect.get("x_max", MAX_X)), amount))
