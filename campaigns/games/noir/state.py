"""The state of an Arkham Noir campaign: the case being played and the log of plays before it.

A plain JSON dict (``Campaign.state``) rebuilt by replaying the events; the play itself is the
pure engine's ``Play`` (``campaigns/engines/noir.py``).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.engines.noir import Play


class LogEntry(TypedDict):
    """One finished play, as the log of cases shows it."""

    id: int
    date: str  # YYYY-MM-DD
    case: str
    result: str  # "won" or "lost"
    reason: str
    rounds: int
    scored: int  # puzzle-piece cards in the Big Picture
    madness: int
    victims: int  # victim cards drawn as cases
    win_rule: str


class NoirState(TypedDict):
    name: NotRequired[str]  # the campaign adds its name and archived flag
    archived: NotRequired[bool]
    next_id: int
    win_rule: str  # "count" or "distinct" (rules.md G-AN-1)
    play: Play
    log: list[LogEntry]
