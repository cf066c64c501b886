"""The event core: the one replay behind a tap, undo, redo, the replay check and import.

A campaign's changes in effect form a stack (linear undo): each change points at the change
below it (`chain`). The state after a change is the state after the change below it with this
one applied, so the state at any place on the stack is the nearest *snapshot* below it with the
few changes above the snapshot applied again (`state_at`). A snapshot is kept when the changes
since the last one would cost about as much to apply again as the state costs to store
(`budget`), so an undo costs about one save of the state, whatever the length of the history,
and the snapshots take about as much room as the events. A snapshot never goes stale: the
changes below an event never change (a new change after an undo starts a new branch with its
own events).

Every change, a tap's or a stored one, is applied here (`apply`), and whatever a payload of the
wrong shape makes a command's code raise is refused here as a CommandError, the one refusal a
tap and an import answer with.

This module knows nothing of the database: `Campaign` walks the stored events, `transfer` walks
an imported file's, and both decide and fold here.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext

from campaigns.commands import AnyCommand, CommandError, Payload, State

# What applying one change costs, in bytes of stored state: a snapshot is due when the changes
# since the last one weigh as much as the state (and at least MIN_BUDGET).
CHANGE_WEIGHT = 1024
MIN_BUDGET = 32 * 1024
# How often a walk that replays from the very bottom (a history stored before snapshots
# existed) keeps a snapshot on the way, when its caller keeps them (`state_at`'s `heal`).
HEAL_EVERY = 64

# What a command's code raises on a payload of the wrong shape (a number where a list was
# expected, a key missing, a number too large, nesting too deep): a hostile file, or a call
# that skipped the form's checks.
MALFORMED = (
    KeyError,
    TypeError,
    ValueError,
    IndexError,
    AttributeError,
    ArithmeticError,
    RecursionError,
)


def weight(payload: Payload) -> int:
    return CHANGE_WEIGHT + len(json.dumps(payload, separators=(",", ":")))


def fresh_budget(state: State) -> int:
    """The budget that starts at a snapshot of `state`."""
    return max(MIN_BUDGET, len(json.dumps(state, separators=(",", ":"))))


def budget(below: int | None, payload: Payload, state: State) -> tuple[int, bool]:
    """The budget of a change and whether a snapshot of `state`, the state after it, is due.

    `below` is the budget of the change below it (None: it is the bottom of the stack). The
    budget is what is left, after this change, before a snapshot is due; at a snapshot it
    starts again from the state's size."""
    left = (MIN_BUDGET if below is None else below) - weight(payload)
    if left > 0:
        return left, False
    return fresh_budget(state), True


def apply(
    commands: Mapping[str, AnyCommand],
    state: State,
    action: str,
    data: Payload,
    rng: random.Random | None = None,
) -> Payload:
    """Apply one change to `state` (changed in place) and return its payload.

    A new change (`rng` given) resolves first, taking its randomness once; a stored one applies
    a copy of its payload (an apply may keep parts of it in the state). Raises CommandError when
    the change does not fit the state, and turns whatever else a payload of the wrong shape
    makes the command's code raise into one: the one place that does, for a tap, an undo, a
    redo and an import alike."""
    try:
        command = commands[action]
        if rng is not None:
            payload = command.resolve(state, data, rng)
            command.apply(state, payload)
            return payload
        command.apply(state, copy.deepcopy(data))
        return data
    except MALFORMED as error:
        raise CommandError(gettext("This change holds a value of the wrong kind.")) from error


def fold(
    commands: Mapping[str, AnyCommand], state: State, changes: Iterable[tuple[str, Payload]]
) -> State:
    """Apply the changes, oldest first, to `state` (changed in place and returned)."""
    for action, data in changes:
        apply(commands, state, action, data)
    return state


@dataclass
class Change:
    """A change as the walk down the stack reads it: what it did and where it sits."""

    action: str
    data: Payload
    chain: int | None  # the key of the change below it, None at the bottom
    budget: int = 0  # what was left before a snapshot was due, after it
    snapshot: bool = False  # whether the state with this change on top is kept


def state_at(
    commands: Mapping[str, AnyCommand],
    initial: State,
    key: int | None,
    changes: Mapping[int, Change],
    snapshot: Callable[[int], State],
    heal: Callable[[int, State], None] | None = None,
) -> State:
    """The state with the change `key` on top of the stack (None: nothing in effect).

    `changes` holds the change `key` and those below it, down to the first with a snapshot (or
    the bottom); `snapshot(k)` is the kept state at `k`, a copy the fold may change. The changes
    above the snapshot are applied again to it. A walk that found no snapshot down to the bottom
    of a long stack keeps some on the way through `heal(k, state)`, when given, once."""
    above: list[tuple[int, Change]] = []
    while key is not None and not changes[key].snapshot:
        above.append((key, changes[key]))
        key = changes[key].chain
    state = snapshot(key) if key is not None else copy.deepcopy(initial)
    above.reverse()
    for n, (at, change) in enumerate(above, start=1):
        apply(commands, state, change.action, change.data)
        if heal is not None and key is None and n % HEAL_EVERY == 0 and n < len(above):
            heal(at, state)
    return state


# The kinds of event, as the model stores them (Event.Kind).
DO, UNDO, REDO = "do", "undo", "redo"


def nothing_to(kind: str) -> str:
    """The refusal of an undo (a redo) that finds no change to take out (to put back)."""
    if kind == UNDO:
        return gettext("There is nothing to undo.")
    return gettext("There is nothing to redo.")


class WrongChange(CommandError):
    """An undo or redo that finds no change to take, or names another change than the one it
    would take."""


# An undo or redo read from the database needs no check of the change it names.
ANY: object = object()


@dataclass
class Replay:
    """Events folded one by one, in order, the way Campaign.apply, undo and redo make them.

    Keys are the events' sequence numbers. `step` raises CommandError when a change does not
    fit, WrongChange when an undo or redo finds nothing to take or names the wrong change. With
    `keep_snapshots` off, an undo folds again from the initial state: the plain replay that the
    snapshots are checked against.
    """

    commands: Mapping[str, AnyCommand]
    initial: State
    keep_snapshots: bool = True
    state: State = field(init=False)
    changes: dict[int, Change] = field(default_factory=dict)
    snapshots: dict[int, State] = field(default_factory=dict)
    top: int | None = None  # the change in effect on top of the stack
    # The undo stack's other half: (the undo event, the change it undid), newest last.
    undone: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = copy.deepcopy(self.initial)

    def step(self, key: int, kind: str, action: str, data: Payload, target: object = ANY) -> int:
        """Fold the event `key`: a change (`do`, returns `key`) or an undo or redo (returns the
        change it took out or put back, which `target`, when given, must name)."""
        if kind == DO:
            self.do(key, action, data)
            return key
        return self.undo_or_redo(kind, key, target)

    def do(self, key: int, action: str, data: Payload) -> Change:
        apply(self.commands, self.state, action, data)
        below = self.changes[self.top].budget if self.top is not None else None
        left, due = budget(below, data, self.state)
        change = Change(action, data, self.top, left, due and self.keep_snapshots)
        if change.snapshot:
            self.snapshots[key] = copy.deepcopy(self.state)
        self.changes[key] = change
        self.top = key
        self.undone.clear()
        return change

    def undo_or_redo(self, kind: str, key: int, target: object = ANY) -> int:
        """Undo (by the undo event `key`) the top change, or redo the change most recently
        undone, with the same outcome: Campaign._undo_or_redo's rule, in memory."""
        undoing = kind == UNDO
        taken = self.top if undoing else (self.undone[-1][1] if self.undone else None)
        if taken is None or (target is not ANY and target != taken):
            raise WrongChange(nothing_to(kind))
        change = self.changes[taken]
        if undoing:
            self.top = change.chain
            self.undone.append((key, taken))
            self.state = self.state_at(self.top)
        else:
            self.undone.pop()
            apply(self.commands, self.state, change.action, change.data)
            self.top = taken
        return taken

    def state_at(self, key: int | None) -> State:
        """The state with the change `key` on top: its nearest snapshot and the changes above."""
        return state_at(
            self.commands,
            self.initial,
            key,
            self.changes,
            lambda at: copy.deepcopy(self.snapshots[at]),
        )


def replay(
    commands: Mapping[str, AnyCommand],
    initial: State,
    events: Iterable[tuple[int, str, str, Payload]],
    keep_snapshots: bool = True,
) -> Replay:
    """Fold stored events (seq, kind, action, data), oldest first; an undo or redo that finds
    nothing to take out or put back is skipped, as the model never stores one."""
    folded = Replay(commands, initial, keep_snapshots)
    for seq, kind, action, data in events:
        try:
            folded.step(seq, kind, action, data)
        except WrongChange:
            continue
    return folded
