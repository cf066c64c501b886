"""Aeon's End: Legacy turn order deck, without a stored shuffle.

Rule: ``shared/spec/rules.md`` §2b "Turn order deck (core helper)" (composition, draw, the
4-player pair cards and turn tokens, reshuffle) and §2c "Round" (one pass through the six
cards). Rulebook lines [003:244-250, 317-318, 1006-1011].

Hidden information is the point of this module. The state is stored in a database and exported
as JSON, so a shuffled order written down anywhere would tell a curious player what comes next.
The state therefore keeps the undrawn cards whose order nobody knows as a sorted multiset
(``pool``), and a card's position is decided only when it is drawn or revealed: picking a
uniformly random physical card from the pool is exactly the same as drawing the top card of a
fairly shuffled deck. Only positions the table has actually seen are kept in order: cards put
on top or revealed (``top``) and cards put on the bottom (``bottom``).

State (plain JSON data)::

    {
        "players": ["Abby", "Bob"],          # in seating order, as given to new_deck
        "top": ["Nemesis"],                   # known top cards, top first
        "pool": ["Abby", "Bob", "Bob"],       # undrawn, order unknown: always sorted
        "bottom": ["Abby"],                   # known bottom cards, last = bottom-most
        "discard": ["Nemesis"],               # drawn cards in draw order, last = top of pile
        "round": 1,                           # the first pass is round 1; +1 per reshuffle
        "tokens": {},                         # 4 players: {"A/B": None or "A", "C/D": ...}
        "pending": None,                      # or {"card": "Wild", "options": [names]}
        "current": None,                      # or {"card", "player", "nemesis"}
    }

All functions are pure: they return a new state and never touch the one passed in, so "undo"
is simply keeping the previous state.

Errors carry a message for the person at the table, marked for translation but not translated
here (the engine knows nothing of Django): ``TurnOrderError.message`` is the English text with
``%(name)s`` placeholders and ``.params`` fills them, so a caller shows
``gettext(error.message) % error.params``; ``str(error)`` is the English sentence.
"""

import copy
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypedDict

NEMESIS = "Nemesis"
WILD = "Wild"
PAIR_SEPARATOR = "/"
MAX_PLAYERS = 4


class Current(TypedDict):
    """The turn being played: the card drawn and who takes it (None while it is chosen)."""

    card: str
    player: str | None
    nemesis: bool


class Pending(TypedDict):
    """A wild card, or a pair's first card this round: one of `options` takes the turn."""

    card: str
    options: list[str]


class State(TypedDict):
    """The deck as stored (see the module's docstring)."""

    players: list[str]
    top: list[str]
    pool: list[str]
    bottom: list[str]
    discard: list[str]
    round: int
    tokens: dict[str, str | None]
    pending: Pending | None
    current: Current | None


# What a caller hands in: a state read back from the database or a file, checked by _load.
Stored = Mapping[str, object]

_STATE_KEYS = frozenset(
    {"players", "top", "pool", "bottom", "discard", "round", "tokens", "pending", "current"}
)


def gettext_noop(message: str) -> str:
    """Marks a message for the translation catalogues (Django's makemessages extracts this
    name) and returns it untranslated: the caller translates it when it shows it."""
    return message


class TurnOrderError(ValueError):
    """A turn order request that the rules (or the state) do not allow."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


def check_name(name: object, taken: Iterable[str] = ()) -> str:
    """The name as it goes on a turn order card, or TurnOrderError saying why it cannot.

    ``taken`` are the names already on the other cards (compared ignoring case).
    """
    if not isinstance(name, str) or not name.strip():
        raise TurnOrderError(gettext_noop("Type the character's name."))
    name = name.strip()
    if PAIR_SEPARATOR in name:
        # The slash separates the two names on a 4-player card, so it cannot be in a name.
        raise TurnOrderError(gettext_noop("A character's name cannot contain “/”."))
    if name.casefold() in {WILD.casefold(), NEMESIS.casefold()}:
        raise TurnOrderError(gettext_noop("That is the name of a turn order card."))
    if name.casefold() in {other.casefold() for other in taken}:
        # Two cards that read the same would make the pair and wild choices ambiguous.
        raise TurnOrderError(gettext_noop("Two characters cannot have the same name."))
    return name


def _clean_names(player_names: list[str]) -> list[str]:
    if not isinstance(player_names, list | tuple):
        raise TurnOrderError(gettext_noop("The turn order deck needs a list of names."))
    if not 1 <= len(player_names) <= MAX_PLAYERS:
        raise TurnOrderError(
            gettext_noop("The turn order deck is for 1 to %(most)d players, not %(count)d."),
            most=MAX_PLAYERS,
            count=len(player_names),
        )
    names: list[str] = []
    for raw in player_names:
        names.append(check_name(raw, names))
    return names


def _pair_label(first: str, second: str) -> str:
    return f"{first}{PAIR_SEPARATOR}{second}"


# Which seats share a two-colour card when the caller does not say: seats 1+2 and 3+4.
SEAT_PAIRS: tuple[tuple[int, int], tuple[int, int]] = ((0, 1), (2, 3))

Pairs = tuple[tuple[int, int], tuple[int, int]] | list[list[int]] | list[tuple[int, int]]


def _clean_pairs(pairs: Pairs | None) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two pairs of seats that between them hold each of the four seats once."""
    if pairs is None:
        return SEAT_PAIRS
    if (
        not isinstance(pairs, list | tuple)
        or len(pairs) != 2
        or not all(isinstance(pair, list | tuple) and len(pair) == 2 for pair in pairs)
        or sorted(seat for pair in pairs for seat in pair) != [0, 1, 2, 3]
    ):
        raise TurnOrderError(gettext_noop("Each two-colour card pairs two of the four players."))
    first, second = pairs
    return (int(first[0]), int(first[1])), (int(second[0]), int(second[1]))


def compose(player_names: list[str], pairs: Pairs | None = None) -> list[str]:
    """Return the six card labels for this player count (rules.md §2b, "Composition").

    Four players: the rulebook pairs the players on two-colour cards, two identical cards per
    pair, with one turn token per pair ("the *matching* card", "the Red/White token", and only
    two tokens in the box), each player on the cards of their character's colour [003:244,
    1006-1011]. ``pairs`` says which seats share a card (the caller knows the colours); by
    default seats 1+2 and 3+4. Either way every name is on exactly two cards.
    """
    names = _clean_names(player_names)
    if len(names) == 1:
        player_cards = names * 4
    elif len(names) == 2:
        player_cards = [names[0], names[0], names[1], names[1]]
    elif len(names) == 3:
        player_cards = [*names, WILD]
    else:
        first_pair, second_pair = _pair_labels(names, pairs)
        player_cards = [first_pair, first_pair, second_pair, second_pair]
    return [*player_cards, NEMESIS, NEMESIS]


def _pair_labels(names: list[str], pairs: Pairs | None = None) -> list[str]:
    if len(names) != MAX_PLAYERS:
        return []
    return [_pair_label(names[a], names[b]) for a, b in _clean_pairs(pairs)]


def _pairs_of(names: list[str], tokens: object) -> Pairs | None:
    """The pairs a stored deck was built with, read back from its turn tokens' labels."""
    if len(names) != MAX_PLAYERS or not isinstance(tokens, dict) or len(tokens) != 2:
        return None
    seats = {name: index for index, name in enumerate(names)}
    found = []
    for label in tokens:
        parts = label.split(PAIR_SEPARATOR) if isinstance(label, str) else []
        if len(parts) != 2 or not all(part in seats for part in parts):
            raise TurnOrderError(DAMAGED)
        found.append([seats[parts[0]], seats[parts[1]]])
    return found


def seat_pairs(state: Stored) -> Pairs | None:
    """Which seats share a two-colour card in this deck (None below four players), so a new
    deck for the same table pairs the players the same way."""
    loaded = _load(state)
    return _pairs_of(loaded["players"], loaded["tokens"])


def new_deck(player_names: list[str], pairs: Pairs | None = None) -> State:
    """Return a freshly built deck: all six cards shuffled (in the pool), nothing drawn yet.

    The round counter starts at 1 because the first pass through the fresh deck is the first
    round; it goes up each time the deck is rebuilt from the discard.
    """
    names = _clean_names(player_names)
    return {
        "players": names,
        "top": [],
        "pool": sorted(compose(names, pairs)),
        "bottom": [],
        "discard": [],
        "round": 1,
        "tokens": dict.fromkeys(_pair_labels(names, pairs)),
        "pending": None,
        "current": None,
    }


# A stored state that does not make sense (a hand-edited import): no detail helps the table.
DAMAGED = gettext_noop("The turn order deck's saved state is damaged.")


def _load(state: Stored) -> State:
    """Return a private deep copy of a stored state, after checking it still makes sense.

    States come back from the database and from JSON exports, so a damaged one must fail with a
    clear message here rather than with a KeyError halfway through a draw.
    """
    if not isinstance(state, dict) or set(state) != _STATE_KEYS:
        raise TurnOrderError(DAMAGED)
    raw = copy.deepcopy(state)
    players = _texts(raw["players"])
    names = _clean_names(players)
    pairs = _pairs_of(names, raw["tokens"])
    top, pool, bottom, discard = (_texts(raw[key]) for key in ("top", "pool", "bottom", "discard"))
    if Counter(top + pool + bottom + discard) != Counter(compose(names, pairs)):
        raise TurnOrderError(
            gettext_noop("The turn order deck does not hold exactly this game's six cards.")
        )
    round_ = raw["round"]
    if not isinstance(round_, int) or round_ < 1:
        raise TurnOrderError(DAMAGED)
    expected = set(_pair_labels(names, pairs))
    if not isinstance(raw["tokens"], dict) or set(raw["tokens"]) != expected:
        raise TurnOrderError(DAMAGED)
    tokens: dict[str, str | None] = {}
    for pair, holder in raw["tokens"].items():
        if holder is not None and holder not in _pair_names(pair):
            raise TurnOrderError(DAMAGED)
        tokens[pair] = holder
    pending = raw["pending"]
    if pending is not None and (
        not isinstance(pending, dict)
        or pending.get("card") not in discard
        or not isinstance(pending.get("options"), list)
    ):
        raise TurnOrderError(DAMAGED)
    return {
        "players": players,
        "top": top,
        # A pool kept in any order other than sorted would be a leak waiting to happen.
        "pool": sorted(pool),
        "bottom": bottom,
        "discard": discard,
        "round": round_,
        "tokens": tokens,
        "pending": None
        if pending is None
        else {
            "card": str(pending["card"]),
            "options": _texts(pending["options"]),
        },
        "current": _current(raw["current"]),
    }


def _texts(value: object) -> list[str]:
    """A stored list of texts (anything else: the stored state is damaged)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TurnOrderError(DAMAGED)
    return [item for item in value if isinstance(item, str)]


def _current(value: object) -> Current | None:
    """The stored turn being played, checked as `_load` checks the rest."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"card", "player", "nemesis"}:
        raise TurnOrderError(DAMAGED)
    card, player, nemesis = value["card"], value["player"], value["nemesis"]
    if not isinstance(card, str) or not isinstance(nemesis, bool):
        raise TurnOrderError(DAMAGED)
    if player is not None and not isinstance(player, str):
        raise TurnOrderError(DAMAGED)
    return {"card": card, "player": player, "nemesis": nemesis}


def _require_no_pending(state: State) -> None:
    pending = state["pending"]
    if pending is not None:
        raise TurnOrderError(
            gettext_noop("First choose who takes the turn of the card just drawn (%(card)s)."),
            card=pending["card"],
        )


def _deck_size(state: State) -> int:
    return len(state["top"]) + len(state["pool"]) + len(state["bottom"])


def _reshuffle_if_empty(state: State) -> None:
    """Rebuild the deck from the discard, but only because a card is needed right now."""
    if _deck_size(state) > 0:
        return
    state["pool"] = sorted(state["discard"])
    state["discard"] = []
    state["round"] += 1
    # The tokens record who took a pair turn "this round"; a new round starts with both in
    # the middle (normally they already are, since both matching cards came up).
    state["tokens"] = dict.fromkeys(state["tokens"])


def _take_top(state: State, rng: random.Random) -> str:
    """Remove and return the card that is on top of the (non-empty) deck."""
    card: str
    if state["top"]:
        card = state["top"].pop(0)
    elif state["pool"]:
        # randrange over physical cards, so a label held twice is twice as likely.
        card = state["pool"].pop(rng.randrange(len(state["pool"])))
    else:
        card = state["bottom"].pop(0)
    return card


def _pair_names(label: str) -> list[str]:
    first, second = label.split(PAIR_SEPARATOR)
    return [first, second]


def draw(state: Stored, rng: random.Random) -> tuple[State, str]:
    """Draw the next turn order card; return the new state and the drawn label.

    The card goes on top of the turn-order discard and sets whose turn it is. A wild card, or
    the first card of a pair this round, leaves a pending choice for ``choose``.
    """
    new = _load(state)
    _require_no_pending(new)
    _reshuffle_if_empty(new)
    card = _take_top(new, rng)
    new["discard"].append(card)

    if card == NEMESIS:
        new["current"] = {"card": card, "player": None, "nemesis": True}
    elif card == WILD:
        new["current"] = {"card": card, "player": None, "nemesis": False}
        new["pending"] = {"card": card, "options": list(new["players"])}
    elif card in new["tokens"]:
        holder = new["tokens"][card]
        if holder is None:
            new["current"] = {"card": card, "player": None, "nemesis": False}
            new["pending"] = {"card": card, "options": _pair_names(card)}
        else:
            # The matching card: the player who has not gone yet must go, token back to middle.
            other = next(name for name in _pair_names(card) if name != holder)
            new["tokens"][card] = None
            new["current"] = {"card": card, "player": other, "nemesis": False}
    else:
        new["current"] = {"card": card, "player": card, "nemesis": False}
    return new, card


def choose(state: Stored, name: str) -> State:
    """Resolve the pending wild or pair choice: ``name`` takes this turn."""
    new = _load(state)
    pending = new["pending"]
    if pending is None:
        raise TurnOrderError(gettext_noop("There is no turn to hand out right now."))
    if name not in pending["options"]:
        raise TurnOrderError(
            gettext_noop("%(name)s cannot take this turn; choose one of %(options)s."),
            name=name,
            options=", ".join(pending["options"]),
        )
    card = pending["card"]
    if card in new["tokens"]:
        new["tokens"][card] = name
    new["pending"] = None
    new["current"] = {"card": card, "player": name, "nemesis": False}
    return new


def reveal_top(state: Stored, rng: random.Random) -> tuple[State, str]:
    """Look at the top card without drawing it; it stays on top (and is now known)."""
    new = _load(state)
    _require_no_pending(new)
    _reshuffle_if_empty(new)
    card = _take_top(new, rng)
    new["top"].insert(0, card)
    return new, card


def _take_from_discard(state: State, label: str) -> None:
    if label not in state["discard"]:
        raise TurnOrderError(
            gettext_noop("%(card)s is not in the turn order discard pile."), card=label
        )
    # The most recently drawn copy is the one an effect is talking about.
    last = len(state["discard"]) - 1 - state["discard"][::-1].index(label)
    del state["discard"][last]


def put_on_top(state: Stored, label: str) -> State:
    """Move a discarded turn order card onto the top of the deck."""
    new = _load(state)
    _require_no_pending(new)
    _take_from_discard(new, label)
    new["top"].insert(0, label)
    return new


def put_on_bottom(state: Stored, label: str) -> State:
    """Move a discarded turn order card to the bottom of the deck."""
    new = _load(state)
    _require_no_pending(new)
    _take_from_discard(new, label)
    new["bottom"].append(label)
    return new


def shuffle_into_deck(state: Stored, label: str) -> State:
    """Shuffle a discarded turn order card into the deck.

    Shuffling randomises the whole deck, so cards known on top or bottom lose their place too.
    """
    new = _load(state)
    _require_no_pending(new)
    _take_from_discard(new, label)
    new["pool"] = sorted([*new["top"], *new["pool"], *new["bottom"], label])
    new["top"] = []
    new["bottom"] = []
    return new


class PublicView(TypedDict):
    """What every phone may see of the deck (`public_view`)."""

    players: list[str]
    round: int
    deck_count: int
    remaining: list[str]
    known_top: list[str]
    known_bottom: list[str]
    discard: list[str]
    current: Current | None
    pending: Pending | None
    tokens: dict[str, str | None]


def public_view(state: Stored) -> PublicView:
    """What every phone may see: counts and what the table knows, never an undrawn order.

    ``remaining`` is sorted: which cards are left is public (everyone saw what was drawn this
    round), but their order is not.
    """
    loaded = _load(state)
    return {
        "players": loaded["players"],
        "round": loaded["round"],
        "deck_count": _deck_size(loaded),
        "remaining": sorted([*loaded["top"], *loaded["pool"], *loaded["bottom"]]),
        "known_top": loaded["top"],
        "known_bottom": loaded["bottom"],
        "discard": loaded["discard"],
        "current": loaded["current"],
        "pending": loaded["pending"],
        "tokens": loaded["tokens"],
    }
