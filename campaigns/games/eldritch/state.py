"""The state of an Eldritch Horror campaign, as the events build it.

A plain JSON dict (``Campaign.state``), rebuilt by replaying the events. A campaign is a group's
run of games: ``game`` is the one on the table (None between games), ``games`` the log of every
game played, ``pick`` the last random pick of an Ancient One and investigators.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.engines.mythos import Deck


class Reference(TypedDict):
    spawn_gates: int
    spawn_clues: int
    monster_surge: int


class Investigator(TypedDict):
    id: int
    name: str
    health: int
    max_health: int
    sanity: int
    max_sanity: int
    skills: dict[str, int] | None  # None: not in our data and not typed
    improvements: dict[str, int]  # skill → 0, 1 or 2
    clues: int
    train: int
    ship: int
    conditions: list[str]
    status: str  # normal, delayed, defeated, devoured, eliminated


class Mysteries(TypedDict):
    to_win: int
    solved: int
    current: str  # the current mystery's name, as the group types it
    tokens: int
    final: bool  # the final mystery (after awakening) is solved


class Draw(TypedDict):
    id: int
    colour: str
    stage: int  # 0, 1 or 2
    round: int
    recorded: bool  # the colour of a card drawn from the table's own deck


class Reroll(TypedDict):
    die: int
    before: int
    after: int


class Roll(TypedDict):
    id: int
    investigator: int | None
    who: str
    success_on: int
    faces: list[int]
    rerolls: list[Reroll]


class Outcome(TypedDict):
    result: str  # win or loss
    reason: str  # a key of data.REASONS


class Game(TypedDict):
    ancient_one: str
    starting_doom: int
    players: int
    difficulty: str
    reference: Reference
    built: list[list[int]]  # the deck as built: [green, yellow, blue] per stage
    deck: Deck
    doom: int
    awakened: bool
    awakening: NotRequired[str]  # "mystery" or "loss" (data.AWAKENINGS); missing: "mystery"
    omen: int  # the index on the omen track
    gates: dict[str, int]  # open gates by colour
    mysteries: Mysteries
    draws: list[Draw]
    round: int
    phase: str
    lead: int | None
    investigators: list[Investigator]
    fallen: list[str]  # investigators defeated or devoured this game (not chosen again)
    rolls: list[Roll]
    outcome: Outcome | None


class LoggedGame(TypedDict):
    id: int
    date: str
    ancient_one: str
    players: int
    investigators: list[str]
    result: str
    reason: str
    rounds: int
    notes: str


class Pick(TypedDict):
    ancient_one: str
    investigators: list[str]
    expansions: list[str]


class Named(TypedDict, total=False):
    # Set by the site when the campaign is made (an initial state has neither).
    name: str
    archived: bool


class GroupNames(Named, total=False):
    # Not there before the first name (names.py). A base with total=False, as NotRequired under
    # `from __future__ import annotations` reads as required at run time.
    names: dict[str, str]  # the group's own names, by our data's


class EldritchState(GroupNames):
    next_id: int
    game: Game | None
    games: list[LoggedGame]
    pick: Pick | None
