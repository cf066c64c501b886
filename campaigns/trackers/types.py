"""What the trackers keep in a campaign's state, as types (tests/test_types.py checks every
state the commands make against them)."""

from typing import Literal, NotRequired, TypedDict


class Counter(TypedDict):
    id: int
    kind: Literal["counter"]
    name: str
    shipped: NotRequired[bool]  # a name the game ships (English, read in translation)
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
    shipped: NotRequired[bool]  # a name the game ships (English, read in translation)
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
    shipped: NotRequired[bool]  # a name the game ships (English, read in translation)
    items: list[ListItem]


class Note(TypedDict):
    id: int
    text: str
    crossed: bool


class Notes(TypedDict):
    id: int
    kind: Literal["notes"]
    name: str
    shipped: NotRequired[bool]  # a name the game ships (English, read in translation)
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
    shipped: NotRequired[bool]  # a name the game ships (English, read in translation)
    rows: list[ResultRow]


class DiceRoll(TypedDict):
    id: int
    faces: list[int]


class DiceRoller(TypedDict):
    id: int
    kind: Literal["dice"]
    name: str
    success_on: int  # a die succeeds on this face or more
    rolls: list[DiceRoll]  # the latest ones


class Cards(TypedDict):
    name: str
    count: int


class Drawn(TypedDict):
    id: int
    card: str


class Deck(TypedDict):
    """Counts by card, no order: a draw picks at random among the cards left."""

    id: int
    kind: Literal["deck"]
    name: str
    cards: list[Cards]  # as built
    left: list[Cards]
    drawn: list[Drawn]


class Seat(TypedDict):
    id: int
    name: str


class Turns(TypedDict):
    """Seats in order; `first` picked at random, `current` whose turn, `passed` this round."""

    id: int
    kind: Literal["turns"]
    name: str
    seats: list[Seat]
    first: int | None
    current: int | None
    round: int
    passed: list[int]


class Timer(TypedDict):
    """Started at `started` (an ISO time from the server's clock) for `duration` seconds."""

    id: int
    kind: Literal["timer"]
    name: str
    seconds: int  # the length the next start offers
    started: str | None
    duration: int


class Flip(TypedDict):
    id: int
    side: Literal["heads", "tails"]


class Coin(TypedDict):
    id: int
    kind: Literal["coin"]
    name: str
    flips: list[Flip]  # the latest ones


Tracker = (
    Counter | Checklist | NamedList | Notes | Results | DiceRoller | Deck | Turns | Timer | Coin
)


class AnyGameState(TypedDict):
    """The state of an Any game campaign (the site adds `name` and `archived` to every game's
    state when the campaign is made)."""

    name: NotRequired[str]
    archived: NotRequired[bool]
    next_id: int
    trackers: list[Tracker]
