"""Arkham Noir: the player's corrections of the tracked numbers (rules.md §4a, lines 700-717).

The table is the truth: a pile or a column that the tracker counts wrong is put right with a
stepper, within the bounds the set-up gives (a row of five, a hand of three plus the fourth
that asks for a discard, four storm cards, six victims). Pure, like ``noir``: each function
returns a new play.
"""

from __future__ import annotations

import copy

from campaigns.engines.noir import (
    HAND_LIMIT,
    MOST,
    ROW,
    STORM_CARDS,
    VICTIMS,
    Column,
    NoirError,
    Play,
    find_column,
    gettext_noop,
    storm_rules,
)
from campaigns.engines.noir_keys import is_column_count, is_column_flag, is_pile


def _column_copy(play: Play, column_id: int) -> tuple[Play, Column]:
    """A new play, and the column in it that a correction changes."""
    play = copy.deepcopy(play)
    return play, find_column(play, column_id)


def _clue_type(play: Play, clue_type: int) -> None:
    if not 1 <= clue_type <= play["clue_types"]:
        raise NoirError(gettext_noop("Choose one of the clue types."), "type")


# What a stepper past a bound is told: (below none, above the top, which may name the count as
# ``%(most)d``).
PILE_BOUNDS = (
    gettext_noop("A pile cannot hold fewer than no cards."),
    gettext_noop("That pile cannot hold %(most)d cards."),
)
COUNT_BOUNDS = (
    gettext_noop("A count cannot go below 0."),
    gettext_noop("That is more cards than the box holds."),
)


def _corrected(value: int, top: int, refusals: tuple[str, str]) -> int:
    """A count as the player corrected it, when it is between none and `top`; else the stepper
    is refused in the words of `refusals` (``PILE_BOUNDS``, ``COUNT_BOUNDS``)."""
    fewer, more = refusals
    if value < 0:
        raise NoirError(fewer, "delta")
    if value > top:
        raise NoirError(more, "delta", most=value)
    return value


def adjust_pile(play: Play, pile: str, delta: int) -> Play:
    """A correction of one pile's count by the player (the table is the truth)."""
    if not is_pile(pile):
        raise NoirError(gettext_noop("There is no such pile."), "pile")
    if pile in ("storms_left", "formulas") and not storm_rules(play):
        raise NoirError(gettext_noop("Case 1 has no storm or formula cards."), "pile")
    play = copy.deepcopy(play)
    value = play[pile] + delta
    top = {
        "victims_left": VICTIMS - 1 - len(play["columns"]) - play["cases_closed"],
        "row": ROW,
        "hand": HAND_LIMIT + 1,
        "storms_left": STORM_CARDS,
    }.get(pile, MOST)
    if pile == "row" and value > ROW:
        raise NoirError(gettext_noop("The clue row holds five cards, no more."), "delta")
    play[pile] = _corrected(value, max(top, 0), PILE_BOUNDS)
    return play


def adjust_column(play: Play, column_id: int, count: str, delta: int) -> Play:
    """One more or one fewer of a column's counted cards (``COLUMN_COUNTS``), within the box."""
    if not is_column_count(count):
        raise NoirError(gettext_noop("There is no such count."), "count")
    play, column = _column_copy(play, column_id)
    column[count] = _corrected(column[count] + delta, MOST, COUNT_BOUNDS)
    return play


def set_flag(play: Play, column_id: int, flag: str, on: bool) -> Play:
    """A column's mark (``COLUMN_FLAGS``) on or off; a flash needs lightning in the column."""
    if not is_column_flag(flag):
        raise NoirError(gettext_noop("There is no such mark."), "flag")
    play, column = _column_copy(play, column_id)
    if flag == "flash" and on and not column["lightning"]:
        raise NoirError(
            gettext_noop("A flash card needs a storm card with lightning in the column."), "flag"
        )
    column[flag] = on
    return play


def set_type(play: Play, column_id: int, clue_type: int, present: bool) -> Play:
    """The player taps a clue type present among the column's non-puzzle cards."""
    _clue_type(play, clue_type)
    play, column = _column_copy(play, column_id)
    types = set(column["types"])
    (types.add if present else types.discard)(clue_type)
    column["types"] = sorted(types)
    return play


def adjust_puzzles(play: Play, column_id: int, clue_type: int, delta: int) -> Play:
    """One more or one fewer puzzle-piece card of a clue type in the column."""
    _clue_type(play, clue_type)
    play, column = _column_copy(play, column_id)
    if delta > 0:
        column["puzzles"].append(clue_type)
    elif clue_type in column["puzzles"]:
        column["puzzles"].reverse()
        column["puzzles"].remove(clue_type)
        column["puzzles"].reverse()
    else:
        raise NoirError(gettext_noop("No puzzle-piece card of that type is in it."), "delta")
    return play


def name_victim(play: Play, column_id: int, name: str) -> Play:
    """The victim's name as the player types it (optional; no card text is shipped)."""
    play = copy.deepcopy(play)
    find_column(play, column_id)["victim"] = name.strip()[:60]
    return play


def adjust_big_picture(play: Play, clue_type: int, delta: int) -> Play:
    """One more or one fewer puzzle-piece card of a clue type in the Big Picture."""
    _clue_type(play, clue_type)
    play = copy.deepcopy(play)
    scored = play["big_picture"]
    if delta > 0:
        if len(scored) >= MOST:
            raise NoirError(gettext_noop("That is more cards than the box holds."), "delta")
        scored.append(clue_type)
    elif clue_type in scored:
        del scored[len(scored) - 1 - scored[::-1].index(clue_type)]
    else:
        raise NoirError(
            gettext_noop("No puzzle-piece card of that type is in the Big Picture."), "delta"
        )
    return play
