"""The state of an Aeon's End: Legacy campaign, as stored (JSON): keys and numbers, never
translated words, so a replay in another language gives the same state.

Each feature module owns its part: legacy (chapter, stickers, sealed, legacy, each player's
notes), banished, supply (supply, upgrade), scores, turns (table) and outside.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.engines import turn_order


class Note(TypedDict):
    """A mage's upgrade or piece of equipment, as the group wrote it down."""

    id: int
    kind: str  # a key of data.MAGE_NOTES
    text: str
    game: int | None


class Player(TypedDict):
    player: str
    character: str  # also the name on the character's turn order cards
    mat: str
    side: str  # a key of data.SIDES
    colour: str  # a key of data.COLOURS, one colour per character
    notes: list[Note]


class Sticker(TypedDict):
    timing: str | None  # a point ("2-end"), None while unknown (F, G, H, I, V)
    applied: bool
    game: int | None
    text: str


class Sealed(TypedDict):
    opened: bool
    point: str | None  # where the campaign was when it was opened
    game: int | None
    note: str


class LegacyDeck(TypedDict):
    last: str  # the last Legacy card read, "L17"
    read: list[str]


class Banished(TypedDict):
    id: int
    text: str
    game: int | None
    reason: str
    source: str  # "" (by hand) or "upgrade"
    restored: bool
    restored_reason: str


class Upgrade(TypedDict):
    presented: list[str]


class ScoreRow(TypedDict):
    id: int
    date: str  # YYYY-MM-DD
    chapter: int
    nemesis: str
    result: str  # a key of data.RESULTS
    gravehold: int
    nemesis_life: int
    lives: list[int]  # one per player, in seating order
    rounds: int | None
    notes: str


class StartingLife(TypedDict):
    gravehold: int
    nemesis: int
    player: int


class NemesisDeck(TypedDict):
    tiers: list[int]  # cards left in tiers 1, 2, 3 (tier 1 on top)
    drawn: int
    unleashed: int  # Unleash effects the empty deck caused (three a draw)


class InPlay(TypedDict):
    id: int
    kind: str  # "minion" or "power"
    name: str
    value: int  # life tokens of a minion, power tokens of a power


class Table(TypedDict):
    game: int  # how many games were started at the table
    nemesis: str  # "" until a game is started
    difficulty: str  # a key of data.DIFFICULTIES
    start: StartingLife
    gravehold: int
    nemesis_life: int
    lives: list[int]
    deck: turn_order.State  # the engine's state: no undrawn order is stored
    # Keys added by the commands that use them (games before them have none):
    outside: NotRequired[bool]  # a game outside the campaign (other difficulties allowed)
    end: NotRequired[str]  # "deck": won by the second victory condition; "condition": lost by
    # the nemesis's own (ending.py)
    nemesis_deck: NotRequired[NemesisDeck]
    in_play: NotRequired[list[InPlay]]


class OwnCard(TypedDict):
    id: int
    name: str
    kind: str  # a key of data.CARD_TYPES
    cost: int


class NemesisCard(TypedDict):
    id: int
    name: str
    tier: int


class Build(TypedDict):
    players: int
    tiers: list[list[int]]  # the ids of the basic cards, tier 1 to 3


class Outside(TypedDict):
    cards: list[OwnCard]
    supply: list[int]  # ids of cards
    locked: list[int]
    chart: dict[str, list[int]]  # players ("1"…"4") -> basic cards of tiers 1, 2, 3
    nemesis_cards: list[NemesisCard]
    build: Build | None


class AeonsEndState(TypedDict):
    next_id: int
    name: NotRequired[str]  # name and archived: set by the site when the campaign is made
    archived: NotRequired[bool]
    players: list[Player]
    solo: bool  # one person plays every mage: no loss when all are exhausted
    exhausted_double: NotRequired[bool]  # False: a sticker switched the doubling off
    sets: NotRequired[list[str]]  # the Aeon's End sets the group owns (cards.py keys)
    chapter: str  # a point, "1-beginning" … "8-end"
    stickers: dict[str, Sticker]  # "A" … "Z"
    sealed: dict[str, Sealed]  # keys of data.SEALED
    legacy: LegacyDeck
    banished: list[Banished]
    supply: list[str]  # at most nine piles
    upgrade: Upgrade | None
    scores: list[ScoreRow]
    table: Table
    outside: Outside
