"""The one replay behind undo, redo, the replay check and import.

A campaign's changes in effect form a stack (linear undo): each change points at the change
below it (`chain`). The state after a change is the state after the change below it with this
one applied, so the state at any place on the stack is the nearest *snapshot* below it with the
few changes above the snapshot applied again. A snapshot is kept when the changes since the last
one would cost about as much to apply again as the state costs to store (`budget_after`), so an
undo costs about one save of the state, whatever the length of the history, and the snapshots
take about as much room as the events. A snapshot never goes stale: the changes below an event
never change (a new change after an undo starts a new branch with its own events).

This module knows nothing of the database: `Campaign` walks the stored events, `transfer` walks
an imported file's, and both fold them here.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.commands import Command, Payload, State

# What applying one change costs, in bytes of stored state: a snapshot is due when the changes
# since the last one weigh as much as the state (and at least MIN_BUDGET).
CHANGE_WEIGHT = 1024
MIN_BUDGET = 32 * 1024


def weight(payload: Payload) -> int:
    return CHANGE_WEIGHT + len(json.dumps(payload, separators=(",", ":")))


def budget_after(budget_below: int, payload: Payload) -> int:
    """What is left, after this change, before a snapshot is due (0 or less: due now)."""
    return budget_below - weight(payload)


def fresh_budget(state: State) -> int:
    """The budget that starts at a snapshot of `state`."""
    return max(MIN_BUDGET, len(json.dumps(state, separators=(",", ":"))))


def fold(
    commands: Mapping[str, Command], state: State, changes: Iterable[tuple[str, Payload]]
) -> State:
    """Apply the changes, oldest first, to `state` (changed in place and returned)."""
    for action, data in changes:
        commands[action].apply(state, copy.deepcopy(data))
    return state


@dataclass
class Change:
    """A change as the replay keeps it: what it did and where it sits on the stack."""

    action: str
    data: Payload
    chain: int | None  # the key of the change below it, None at the bottom
    budget: int  # what was left before a snapshot was due, after it


# An undo or redo read from the database needs no check of the change it names.
ANY: Any = object()


@dataclass
class Replay:
    """Events folded one by one, in order, the way Campaign.apply, undo and redo make them.

    Keys are the events' sequence numbers. `do`, `undo` and `redo` raise what the command's
    apply raises, and ValueError when an undo or redo names the wrong change. With
    `keep_snapshots` off, an undo folds again from the initial state: the plain replay that the
    snapshots are checked against.
    """

    commands: Mapping[str, Command]
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

    def do(self, key: int, action: str, data: Payload) -> Change:
        fold(self.commands, self.state, [(action, data)])
        below = self.changes[self.top].budget if self.top is not None else MIN_BUDGET
        change = Change(action, data, self.top, budget_after(below, data))
        if change.budget <= 0:
            if self.keep_snapshots:
                self.snapshots[key] = copy.deepcopy(self.state)
            change.budget = fresh_budget(self.state)
        self.changes[key] = change
        self.top = key
        self.undone.clear()
        return change

    def undo(self, key: int, target: object = ANY) -> int:
        """Take the top change out of effect (by the undo event `key`); `target`, when given,
        must name that change. Returns the change undone."""
        if self.top is None or (target is not ANY and target != self.top):
            raise ValueError("not the change on top")
        undone = self.top
        self.top = self.changes[undone].chain
        self.undone.append((key, undone))
        self.state = self.state_at(self.top)
        return undone

    def redo(self, target: object = ANY) -> int:
        """Put the change most recently undone back in effect, with the same outcome."""
        if not self.undone or (target is not ANY and target != self.undone[-1][1]):
            raise ValueError("not the change undone last")
        _undo, key = self.undone.pop()
        change = self.changes[key]
        fold(self.commands, self.state, [(change.action, change.data)])
        self.top = key
        return key

    def state_at(self, key: int | None) -> State:
        """The state with the change `key` on top: its nearest snapshot and the changes above."""
        above: list[tuple[str, Payload]] = []
        while key is not None and key not in self.snapshots:
            change = self.changes[key]
            above.append((change.action, change.data))
            key = change.chain
        base = self.snapshots[key] if key is not None else self.initial
        return fold(self.commands, copy.deepcopy(base), reversed(above))


def replay(
    commands: Mapping[str, Command],
    initial: State,
    events: Iterable[tuple[int, str, str, Payload]],
    keep_snapshots: bool = True,
) -> Replay:
    """Fold stored events (seq, kind, action, data), oldest first; undo and redo that find
    nothing to take out or put back are skipped, as the model never stores them."""
    folded = Replay(commands, initial, keep_snapshots)
    for seq, kind, action, data in events:
        if kind == "do":
            folded.do(seq, action, data)
        elif kind == "undo" and folded.top is not None:
            folded.undo(seq)
        elif kind == "redo" and folded.undone:
            folded.redo()
    return folded
