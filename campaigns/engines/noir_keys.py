"""The names of Arkham Noir's piles, a case column's counts and marks, and where a sanity
check's card goes (``rules.md`` §4), as the keys of the play they are stored under: a name a
phone sent becomes one of these only through its check, so the play is read and written by
key without a cast (used by ``noir`` and ``noir_corrections``)."""

from __future__ import annotations

from typing import Literal, TypeIs, get_args

Pile = Literal[
    "victims_left",
    "row",
    "hand",
    "discard",
    "timeout",
    "madness",
    "storms_left",
    "closed",
    "formulas",
]
ColumnCount = Literal["cards", "hourglasses", "keys", "keyholes"]
ColumnFlag = Literal["lightning", "flash", "master_key"]
SanityOutcome = Literal["madness", "timeout", "discard"]

PILES: tuple[Pile, ...] = get_args(Pile)
COLUMN_COUNTS: tuple[ColumnCount, ...] = get_args(ColumnCount)
COLUMN_FLAGS: tuple[ColumnFlag, ...] = get_args(ColumnFlag)
SANITY_OUTCOMES: tuple[SanityOutcome, ...] = get_args(SanityOutcome)


def is_pile(name: str) -> TypeIs[Pile]:
    return name in PILES


def is_column_count(name: str) -> TypeIs[ColumnCount]:
    return name in COLUMN_COUNTS


def is_column_flag(name: str) -> TypeIs[ColumnFlag]:
    return name in COLUMN_FLAGS


def is_sanity_outcome(name: str) -> TypeIs[SanityOutcome]:
    return name in SANITY_OUTCOMES
