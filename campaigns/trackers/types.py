"""What the trackers keep in a campaign's state, as types (tests/test_types.py checks every
state the commands make against them)."""

from __future__ import annotations

from typing import Literal, TypedDict


class Counter(TypedDict):
    id: int
    kind: Literal["counter"]
    name: str
    minimum: int | None
    maximum: int | None
    value: int
    start: int


class ChecklistItem(TypedDict):
    id: int
    label: str
    done: bool


class Checklist(TypedDict):
    id: int
    kind: Literal["checklist"]
    name: str
    items: list[ChecklistItem]


class ListItem(TypedDict):
    """A named entry (a banished card): taken out, not deleted, with the reason both ways."""

    id: int
    text: str
    reason: str
    removed: bool
    removed_reason: str


class NamedList(TypedDict):
    id: int
    kind: Literal["list"]
    name: str
    items: list[ListItem]


class Note(TypedDict):
    id: int
    text: str
    crossed: bool


class Notes(TypedDict):
    id: int
    kind: Literal["notes"]
    name: str
    entries: list[Note]


class ResultRow(TypedDict):
    id: int
    date: str  # YYYY-MM-DD
    result: str  # a key of RESULTS
    score: int | None
    notes: str


class Results(TypedDict):
    id: int
    kind: Literal["results"]
    name: str
    rows: list[ResultRow]


Tracker = Counter | Checklist | NamedList | Notes | Results


class AnyGameState(TypedDict):
    """The state of an Any game campaign; every game's state has `name` and `archived`."""

    name: str
    archived: bool
    next_id: int
    trackers: list[Tracker]
