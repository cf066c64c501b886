"""What a change to a campaign is: a command that resolves into an event payload and applies it.

Every game registers its commands here in the same shape. A command's form checks the request's
shape (types, lengths); `resolve` turns the cleaned data into the payload stored in the event,
taking any randomness then, once; `apply` changes the state in place from a payload and checks
it against the state, raising CommandError when it does not fit. `apply` is what replay, undo,
redo and import run, so a payload from a hostile file is checked by the same code as a tap.
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django_stubs_ext import StrOrPromise

# A campaign's state as stored, where the game is chosen at run time (the models, the history,
# import): only the game's own commands know its shape (a game's functions take its TypedDict).
State = dict[str, Any]
# An event's payload as stored: JSON, from a form or a hostile file alike, read through the
# need_* checkers below.
Payload = dict[str, object]


class Named(TypedDict, total=False):
    """What every game's state has: the site adds the name and archived flag when the campaign
    is made (a game's initial state has neither)."""

    name: str
    archived: bool


# What a change reads as in the history: a function of its payload, or words (a lazy translation)
# whose placeholders are the payload's own keys: "Renamed the campaign to “%(name)s”".
Describe = Callable[[Payload], str] | StrOrPromise


class Said(dict[str, object]):
    """A payload as the words of its change read it: a key it does not have reads "?"."""

    def __missing__(self, key: str) -> object:
        return "?"


class Numbered(TypedDict):
    """A state that numbers what it holds (`next_id`)."""

    next_id: int


class CommandError(Exception):
    """A command that does not fit the campaign as it is now; the message is for the user."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def jsonable(data: Payload) -> Payload:
    """The cleaned data of a form as a payload an event can store (dates as YYYY-MM-DD)."""
    return {k: v.isoformat() if isinstance(v, datetime.date) else v for k, v in data.items()}


def default_resolve(state: object, data: Payload, rng: random.Random) -> Payload:
    return jsonable(data)


@dataclass(frozen=True)
class Command[S]:
    """One kind of change: its form, how it resolves, applies and reads in the history.

    `S` is the state of the game it belongs to (a TypedDict): its functions read and change
    that, so a key the state does not have is a type error. A command shared by every game
    takes a smaller TypedDict every game's state includes (`Named`, `Numbered`)."""

    name: str
    form: type[forms.Form]
    apply: Callable[[S, Payload], None]
    describe: Describe
    resolve: Callable[[S, Payload, random.Random], Payload] = default_resolve
    # Commands that set an absolute value are refused when made from a stale screen; commands
    # that add or take away (a +1, a draw) apply on top of whatever the others did.
    stale_check: bool = False
    # Commands whose outcome is random (a draw, a reveal, a roll): a second tap on one from the
    # same phone within COMPANION_SAME_TAP_MS of its previous one is that tap again (a double
    # tap), not a second draw (`Campaign.apply`). tests/test_same_tap.py checks every command
    # that takes randomness says so.
    random_outcome: bool = False
    roles: frozenset[str] = field(default_factory=lambda: frozenset({"owner", "player"}))
    # The live regions (`{% region %}` ids) this change redraws beside the form's own region
    # and the undo bar: the answer to the change draws them, and nothing else of the page.
    regions: tuple[str, ...] = ()
    # More regions, when whether they change depends on what the change did: a function of its
    # payload (the random outcome included) and the state after it, or of (None, None) for a
    # refused change. A draw changes the odds only when it takes bless or curse out.
    regions_after: Callable[[Payload | None, S | None], tuple[str, ...]] | None = None
    # A tap that must meet the campaign as it is now: it takes randomness when it resolves (a
    # draw, a roll) or starts something. A phone without the connection says so instead of
    # keeping it to send later (static/js/offline.js); tests/test_needs_connection.py plays
    # every command and holds every one that took randomness to this.
    needs_connection: bool = False

    def words(self, payload: Payload) -> str:
        """This change in the reader's words (the history, the undo bar)."""
        if isinstance(self.describe, str | Promise):
            return str(self.describe) % Said(payload)
        return self.describe(payload)

    def regions_for(self, payload: Payload | None, state: S | None) -> tuple[str, ...]:
        """The regions a change redraws (`payload` None: refused, `regions_after` names all)."""
        if self.regions_after is None:
            return self.regions
        return (*self.regions, *self.regions_after(payload, state))


class Redraws[S](TypedDict, total=False):
    """What a change redraws and whether it needs the connection: `Command`'s options that
    several commands share (`Command(…, **PEOPLE)`)."""

    regions: tuple[str, ...]
    regions_after: Callable[[Payload | None, S | None], tuple[str, ...]] | None
    needs_connection: bool


class CommandOptions[S](Redraws[S], total=False):
    """`Command`'s optional fields but `resolve`: what a helper that makes commands passes on
    (`**more`)."""

    stale_check: bool
    random_outcome: bool
    roles: frozenset[str]


# A command of whichever game a campaign plays: where the game is chosen at run time (the
# registry of games, the history, the models), the state is only known as stored JSON.
AnyCommand = Command[Any]


def random_command[S](
    name: str,
    form: type[forms.Form],
    apply: Callable[[S, Payload], None],
    describe: Describe,
    resolve: Callable[[S, Payload, random.Random], Payload],
    regions: tuple[str, ...] = (),
) -> Command[S]:
    """A change whose outcome is random (a roll, a draw, a flip): `resolve` takes the randomness
    once; refused from a stale screen, a double tap is one tap, never kept to send later."""
    return Command(
        name,
        form,
        apply,
        describe,
        resolve=resolve,
        stale_check=True,
        random_outcome=True,
        regions=regions,
        needs_connection=True,
    )


def registry[S](*groups: Command[S] | Iterable[Command[S]]) -> dict[str, Command[S]]:
    """Commands by their name, which each command writes once; the same name twice is a mistake.

    A feature module lists its commands (`COMMANDS = (Command("bag.draw", …), …)`) and a game
    joins its features' lists: `registry(META_COMMANDS, bag.COMMANDS, investigators.COMMANDS)`.
    """
    found: dict[str, Command[S]] = {}
    for group in groups:
        for command in (group,) if isinstance(group, Command) else group:
            if command.name in found:
                raise ValueError(f"Two commands are named {command.name!r}.")
            found[command.name] = command
    return found


# Small checks for apply(): a payload may come from an imported file, so nothing is assumed.


def need_int(payload: Payload, key: str, lo: int | None = None, hi: int | None = None) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CommandError(_("“%(key)s” must be a whole number.") % {"key": key}, key)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise CommandError(_("“%(key)s” is out of range.") % {"key": key}, key)
    return value


def need_opt_int(payload: Payload, key: str) -> int | None:
    return None if payload.get(key) is None else need_int(payload, key)


def need_str(payload: Payload, key: str, max_length: int = 200, blank: bool = False) -> str:
    value = payload.get(key, "")
    if not isinstance(value, str) or len(value) > max_length or (not blank and not value.strip()):
        raise CommandError(
            _("“%(key)s” must be a text of at most %(max)d characters.")
            % {"key": key, "max": max_length},
            key,
        )
    return value


def need_list(payload: Payload, key: str) -> list[object]:
    """A list (missing: an empty one); its items are checked by the caller."""
    value = payload.get(key, [])
    if not isinstance(value, list):
        raise CommandError(_("“%(key)s” is not one of the choices.") % {"key": key}, key)
    return value


def need_bool(payload: Payload, key: str) -> bool:
    value = payload.get(key)
    if not isinstance(value, bool):
        raise CommandError(_("“%(key)s” must be true or false.") % {"key": key}, key)
    return value


def need_choice[K: str](payload: Payload, key: str, choices: Collection[K]) -> K:
    """One of the choices (a list or a number from a hostile file is refused, not a TypeError),
    as the choice it is: with choices keyed by a `Literal`, a key of a TypedDict."""
    value = payload.get(key)
    for choice in choices if isinstance(value, str) else ():
        if choice == value:
            return choice
    raise CommandError(_("“%(key)s” is not one of the choices.") % {"key": key}, key)


def need_date(payload: Payload, key: str) -> str:
    """A calendar date written YYYY-MM-DD (what a date field posts and an export holds)."""
    value = payload.get(key)
    try:
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError
        datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(_("Enter a valid date."), key) from None
    return value


def said_int(payload: Payload, key: str) -> int:
    """A number in an applied change's payload, for its words in the history (0 when absent)."""
    value = payload.get(key)
    return value if isinstance(value, int) else 0


def said_choice[K: str, V](choices: Mapping[K, V], value: object) -> V | str:
    """The label of a payload's choice, for its words in the history ("?" when not one)."""
    for key, label in choices.items():
        if key == value:
            return label
    return "?"


def next_id(state: Numbered) -> int:
    """Ids inside a state come from a counter in the state, so a replay gives the same ids."""
    value = state["next_id"]
    state["next_id"] = value + 1
    return value
