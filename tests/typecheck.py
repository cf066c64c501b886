"""Does a JSON value have the shape a type describes? For the TypedDicts of the games' states:
TypedDicts (their keys; NotRequired ones when present), lists, dicts, unions, Literal, None and
the JSON scalars."""

import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict


def problems(value: Any, kind: Any, where: str = "state") -> list[str]:
    """Where `value` does not fit `kind` (empty when it fits)."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is Any:
        return []
    if kind is None or kind is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if origin in (Union, types.UnionType):
        found = [problems(value, option, where) for option in args]
        return [] if any(not p for p in found) else min(found, key=len)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {kind.__name__}"]
        hints = typing.get_type_hints(kind)
        if not kind.__required_keys__ <= set(value) <= set(hints):
            return [f"{where}: keys {sorted(value)} are not {kind.__name__}'s {sorted(hints)}"]
        return [
            p
            for key, hint in hints.items()
            if key in value
            for p in problems(value[key], hint, f"{where}.{key}")
        ]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for n, item in enumerate(value) for p in problems(item, args[0], f"{where}[{n}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [
            p
            for key, item in value.items()
            for p in problems(key, args[0], f"{where} key")
            + problems(item, args[1], f"{where}[{key!r}]")
        ]
    if kind is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return []
    return [] if isinstance(value, kind) else [f"{where}: {value!r} is not a {kind.__name__}"]
