"""Arkham Noir (Case 2, *Called Forth by Thunder*; Case 1 with the storm and formula rules off):
the numbers a solo case is played with, the action phase's checks and the end phase.

Rules: ``shared/spec/rules.md`` §4 (lines 696-771), a digest of a fan's rules summary
(``shared/seeds/004_…``): the state to track (§4a, 700-717), the sanity check and the storm
trigger (§4b, 727-732), a new case and a clue deck running out (733-734), the actions a)-e)
(§4c, 738-755), the end phase a)-d) (757-761) and win and loss (§4d, 763-771). Where the summary
leaves a question open (§5 "G-AN-n", 848-860) the choice made here is named where it is made.

Nothing is hidden: the companion tracks the piles' sizes and what the player says a card shows;
the cards themselves stay on the table. Every function is pure: it returns a new play and never
touches the one passed in. Errors carry an English message marked for translation
(``NoirError.message`` with ``%(name)s`` placeholders, ``.params`` fills them; a caller shows
``gettext(error.message) % error.params``) and the field of the form it belongs to.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Literal, TypedDict

from campaigns.engines.noir_errors import NoirError as NoirError
from campaigns.engines.noir_errors import gettext_noop as gettext_noop
from campaigns.engines.noir_keys import COLUMN_COUNTS as COLUMN_COUNTS
from campaigns.engines.noir_keys import COLUMN_FLAGS as COLUMN_FLAGS
from campaigns.engines.noir_keys import PILES as PILES
from campaigns.engines.noir_keys import SANITY_OUTCOMES as SANITY_OUTCOMES
from campaigns.engines.noir_keys import is_sanity_outcome

CASES = ("case2", "case1")
WIN_RULES = ("count", "distinct")  # G-AN-1: five puzzle-piece cards, or five of different types
END_STEPS = ("a", "b", "c", "d")

VICTIMS = 6  # 6 victim cards: 1 to the box unseen, 5 in the pile, 2 drawn [rules.md:704]
FIRST_CASES = 2
ROW = 5  # the clue row's five slots [rules.md:707]
HAND_LIMIT = 3  # [rules.md:708]
STORM_CARDS = 4  # [rules.md:712]
SANITY_FROM = 8  # the 8th or later card in a column [rules.md:728]
STORM_AT = 3  # the 3rd hourglass in a column [rules.md:732]
PILE_LIMIT = 5  # five or more: win, loss, a new case [rules.md:758-760]
THREE = 3  # the "3" symbol asks for that many cards already played [seed 004:37]
CLOSE_TYPES = 5  # five clue types close a case and score its puzzle pieces [rules.md:751-752]
MOST = 99  # no pile or count holds more (the boxes hold 64 and 69 cards)


class Column(TypedDict):
    """One open case: its victim card and the clue and storm cards played after it."""

    id: int
    victim: str  # the victim's name as the player typed it ("" when not typed)
    cards: int  # clue and storm cards played into it (G-AN-6: the victim card not counted)
    hourglasses: int
    keys: int
    keyholes: int
    storms: int  # storm cards put at its end
    lightning: bool  # a storm card with lightning is in it
    flash: bool  # its one flash card is placed
    master_key: bool
    types: list[int]  # the clue types among its non-puzzle cards, sorted
    puzzles: list[int]  # the clue type of each puzzle-piece card in it, in play order


class Card(TypedDict):
    """What the player says the card played shows."""

    column: int
    type: int  # its clue type, 1 to the play's clue_types
    puzzle: bool
    hourglass: bool
    key: bool
    keyhole: bool
    flash: bool
    master_key: bool
    three: bool  # the "3" symbol: three cards already in the column [seed 004:37]
    special_key: bool  # needs a master key already played in the column [seed 004:41]


class Play(TypedDict):
    """One case being played, from set-up to a win or a loss."""

    case: str  # "case2" or "case1"
    clue_types: int  # how many clue types the case's cards show
    round: int
    phase: str  # "action" or "end"
    end_step: str  # the end phase's next step, "a" to "d"
    victims_left: int
    victims_used: int  # victim cards drawn as cases (the first two included)
    row: int
    hand: int
    discard: int
    timeout: int
    madness: int
    storms_left: int
    closed: int  # cards in the closed-cases pile
    cases_closed: int
    big_picture: list[int]  # the clue type of each scored puzzle-piece card
    formulas: int
    columns: list[Column]
    next_column: int
    sanity_due: int  # sanity checks asked for and not yet answered
    storm_due: int | None  # the column a storm card is due at the end of
    result: str  # "" while playing, "won" or "lost"
    reason: str  # why it ended: "big-picture", "madness", "timeout", "deck"


def storm_rules(play: Play) -> bool:
    """Case 1 has no storm cards and no formula cards: those rules are off."""
    return play["case"] == "case2"


def new_column(play: Play) -> None:
    play["columns"].append(
        {
            "id": play["next_column"],
            "victim": "",
            "cards": 0,
            "hourglasses": 0,
            "keys": 0,
            "keyholes": 0,
            "storms": 0,
            "lightning": False,
            "flash": False,
            "master_key": False,
            "types": [],
            "puzzles": [],
        }
    )
    play["next_column"] += 1


def new_play(case: str, clue_types: int) -> Play:
    """The table after set-up [rules.md:720-726]: six victims, one to the box, two drawn as the
    first cases (three left in the pile); a row of five; a hand of three; four storm cards."""
    if case not in CASES:
        raise NoirError(gettext_noop("Choose Case 1 or Case 2."), "case")
    if not CLOSE_TYPES <= clue_types <= 12:
        raise NoirError(gettext_noop("A case has 5 to 12 clue types."), "clue_types")
    play: Play = {
        "case": case,
        "clue_types": clue_types,
        "round": 1,
        "phase": "action",
        "end_step": "a",
        "victims_left": VICTIMS - 1 - FIRST_CASES,
        "victims_used": FIRST_CASES,
        "row": ROW,
        "hand": HAND_LIMIT,
        "discard": 0,
        "timeout": 0,
        "madness": 0,
        "storms_left": STORM_CARDS if case == "case2" else 0,
        "closed": 0,
        "cases_closed": 0,
        "big_picture": [],
        "formulas": 0,
        "columns": [],
        "next_column": 1,
        "sanity_due": 0,
        "storm_due": None,
        "result": "",
        "reason": "",
    }
    for _ in range(FIRST_CASES):
        new_column(play)
    return play


# What the numbers say


def column_types(column: Column) -> set[int]:
    """Every clue type in the column: the victim and storm cards show none [rules.md:751]."""
    return set(column["types"]) | set(column["puzzles"])


def can_close(column: Column) -> bool:
    return len(column_types(column)) >= CLOSE_TYPES


def would_score(column: Column) -> bool:
    """Its puzzle pieces score: five types among its non-puzzle cards [rules.md:752]."""
    return len(set(column["types"])) >= CLOSE_TYPES


def sanity_check_due(cards_before: int) -> bool:
    """A column that already holds 7 cards asks for a check with each card played [rules.md:728]."""
    return cards_before + 1 >= SANITY_FROM


def storm_due(hourglasses_after: int) -> bool:
    """Only the 3rd hourglass is named (G-AN-5): the 6th does not call another storm."""
    return hourglasses_after == STORM_AT


def won(big_picture: list[int], win_rule: str) -> bool:
    """Five puzzle-piece cards [rules.md:765], or five of different clue types [rules.md:766]."""
    scored = len(set(big_picture)) if win_rule == "distinct" else len(big_picture)
    return scored >= PILE_LIMIT


class Outcome(TypedDict):
    """What one end-phase step does to the table."""

    step: str
    result: Literal["", "won", "lost"]
    reason: str
    new_case: bool  # a victim is drawn as a new case
    timeout_to_discard: int  # time-out cards that move to the discard pile
    refill: int  # clue cards dealt into the row


def end_phase_step(
    step: str,
    big_picture: list[int],
    madness: int,
    timeout: int,
    victims_left: int,
    row: int,
    win_rule: str,
) -> Outcome:
    """What end phase step a), b), c) or d) does with these numbers [rules.md:757-761]."""
    outcome: Outcome = {
        "step": step,
        "result": "",
        "reason": "",
        "new_case": False,
        "timeout_to_discard": 0,
        "refill": 0,
    }
    if step == "a" and won(big_picture, win_rule):
        outcome["result"], outcome["reason"] = "won", "big-picture"
    elif step == "b" and madness >= PILE_LIMIT:
        outcome["result"], outcome["reason"] = "lost", "madness"
    elif step == "c" and timeout >= PILE_LIMIT:
        if victims_left <= 0:
            outcome["result"], outcome["reason"] = "lost", "timeout"
        else:
            outcome["new_case"], outcome["timeout_to_discard"] = True, timeout
    elif step == "d":
        outcome["refill"] = max(ROW - row, 0)
    return outcome


# Changes


def _playing(play: Play, phase: str = "action") -> Play:
    if play["result"]:
        raise NoirError(gettext_noop("This case is over: start a new one."))
    if play["sanity_due"]:
        raise NoirError(gettext_noop("First the sanity check: what did the clue card show?"))
    if play["storm_due"] is not None:
        raise NoirError(gettext_noop("First the storm card at the end of the column."))
    if play["hand"] > HAND_LIMIT:
        raise NoirError(gettext_noop("First discard down to three cards in hand."))
    if play["phase"] != phase:
        if phase == "action":
            raise NoirError(gettext_noop("The end phase comes first: go through its steps."))
        raise NoirError(gettext_noop("Take an action first: the end phase follows it."))
    return copy.deepcopy(play)


def find_column(play: Play, column_id: int) -> Column:
    for column in play["columns"]:
        if column["id"] == column_id:
            return column
    raise NoirError(gettext_noop("That case is not open."), "column")


def _take_from_row(play: Play) -> None:
    if play["row"] <= 0:
        raise NoirError(gettext_noop("The clue row is empty: refill it in the end phase."))
    play["row"] -= 1


def _discard(play: Play, hourglass: bool) -> None:
    """A discarded card with an hourglass goes to the time-out pile [rules.md:739]."""
    play["timeout" if hourglass else "discard"] += 1


def _end_action(play: Play) -> Play:
    play["phase"] = "end"
    play["end_step"] = "a"
    return play


def take_into_hand(play: Play) -> Play:
    """Action a): the row's first card into the hand; a fourth asks for a discard."""
    play = _playing(play)
    _take_from_row(play)
    play["hand"] += 1
    return _end_action(play)


def discard_from_hand(play: Play, hourglass: bool) -> Play:
    """Down to three cards in hand: an hourglass card to the time-out pile [rules.md:739]."""
    if play["hand"] <= HAND_LIMIT:
        raise NoirError(gettext_noop("The hand holds three cards or fewer: no discard is due."))
    play = copy.deepcopy(play)
    play["hand"] -= 1
    _discard(play, hourglass)
    return play


def _place(play: Play, card: Card) -> None:
    """The checks of action b) [rules.md:740-747] and the triggers that follow."""
    column = find_column(play, card["column"])
    if not 1 <= card["type"] <= play["clue_types"]:
        raise NoirError(gettext_noop("Choose one of the clue types."), "type")
    if card["keyhole"] and column["keyholes"] >= column["keys"]:
        raise NoirError(
            gettext_noop("A keyhole needs a key of its own in the column: it has %(keys)d."),
            "keyhole",
            keys=column["keys"],
        )
    if card["three"] and column["cards"] < THREE:
        raise NoirError(
            gettext_noop(
                "A card with the “3” symbol needs three cards in the column: it has %(cards)d."
            ),
            "three",
            cards=column["cards"],
        )
    if card["special_key"] and not column["master_key"]:
        raise NoirError(
            gettext_noop("A special key needs a master key already played in the column."),
            "special_key",
        )
    if card["flash"] and column["flash"]:
        raise NoirError(gettext_noop("A case column holds at most one flash card."), "flash")
    if card["flash"] and not column["lightning"]:
        raise NoirError(
            gettext_noop("A flash card needs a storm card with lightning in the column."), "flash"
        )
    if column["cards"] >= MOST:
        raise NoirError(gettext_noop("That is more cards than the box holds."), "column")
    if sanity_check_due(column["cards"]):
        play["sanity_due"] += 1
    column["cards"] += 1
    if card["puzzle"]:
        column["puzzles"].append(card["type"])
    elif card["type"] not in column["types"]:
        column["types"] = sorted([*column["types"], card["type"]])
    column["keys"] += card["key"]
    column["keyholes"] += card["keyhole"]
    column["flash"] = column["flash"] or card["flash"]
    column["master_key"] = column["master_key"] or card["master_key"]
    if card["hourglass"]:
        column["hourglasses"] += 1
        if storm_rules(play) and storm_due(column["hourglasses"]):
            play["storm_due"] = column["id"]


def _row_action(play: Play, then: Callable[[Play], object]) -> Play:
    """An action that takes the row's first card: ``then`` does the rest, and the action ends."""
    play = _playing(play)
    _take_from_row(play)
    then(play)
    return _end_action(play)


def play_card(play: Play, card: Card) -> Play:
    """Action b): the row's first card to the end of a case column."""
    return _row_action(play, lambda play: _place(play, card))


def play_from_hand(play: Play, card: Card, taken_hourglass: bool) -> Play:
    """Action c): the row's first card discarded, a card from the hand played [rules.md:749]."""
    play = _playing(play)
    if play["hand"] <= 0:
        raise NoirError(gettext_noop("The hand is empty: there is no card to play from it."))
    _take_from_row(play)
    _discard(play, taken_hourglass)
    play["hand"] -= 1
    _place(play, card)
    return _end_action(play)


def close_case(play: Play, column_id: int, taken_hourglass: bool) -> Play:
    """Action d): the row's first card discarded, a case with five clue types closed; its
    puzzle pieces go to the Big Picture when they score, the rest of the column, its victim
    card included and its storm cards aside (G-AN-4), to the closed-cases pile [rules.md:750-753,
    seed 004:55]."""
    play = _playing(play)
    column = find_column(play, column_id)
    if not can_close(column):
        raise NoirError(
            gettext_noop("This case shows %(types)d clue types: closing it takes five."),
            "column",
            types=len(column_types(column)),
        )
    _take_from_row(play)
    _discard(play, taken_hourglass)
    kept = 1 + column["cards"] - column["storms"]  # the victim card, then the cards played
    if would_score(column):
        play["big_picture"] = [*play["big_picture"], *column["puzzles"]]
        kept -= len(column["puzzles"])
    play["closed"] += max(kept, 0)
    play["cases_closed"] += 1
    play["columns"] = [c for c in play["columns"] if c["id"] != column_id]
    return _end_action(play)


def pass_turn(play: Play, taken_hourglass: bool) -> Play:
    """Action e): the row's first card discarded [rules.md:754]."""
    return _row_action(play, lambda play: _discard(play, taken_hourglass))


def answer_sanity_check(play: Play, outcome: str) -> Play:
    """The top clue card flipped for a sanity check went to ``outcome`` [rules.md:729-731]."""
    if not play["sanity_due"]:
        raise NoirError(gettext_noop("No sanity check is due."), "outcome")
    if not is_sanity_outcome(outcome):
        raise NoirError(gettext_noop("Choose where the card went."), "outcome")
    play = copy.deepcopy(play)
    play["sanity_due"] -= 1
    play[outcome] += 1
    return play


def draw_storm(play: Play, lightning: bool) -> Play:
    """The storm card flipped after the 3rd hourglass, put at the end of that column
    [rules.md:732]. With the storm deck empty the summary says nothing (G-AN-5): the trigger is
    answered with no card."""
    if play["storm_due"] is None:
        raise NoirError(gettext_noop("No storm card is due."), "lightning")
    play = copy.deepcopy(play)
    column = find_column(play, play["storm_due"] or 0)
    play["storm_due"] = None
    if play["storms_left"] > 0:
        play["storms_left"] -= 1
        column["cards"] += 1
        column["storms"] += 1
        column["lightning"] = column["lightning"] or lightning
    return play


def end_step(play: Play, step: str, win_rule: str) -> Play:
    """One end-phase step, the one due (``step`` is the one the player saw)."""
    play = _playing(play, phase="end")
    if step != play["end_step"]:
        raise NoirError(gettext_noop("The end phase has moved on meanwhile."), "step")
    outcome = end_phase_step(
        step,
        play["big_picture"],
        play["madness"],
        play["timeout"],
        play["victims_left"],
        play["row"],
        win_rule,
    )
    if outcome["result"]:
        play["result"] = outcome["result"]
        play["reason"] = outcome["reason"]
        return play
    if outcome["new_case"]:
        _draw_victim(play)
        play["timeout"] -= outcome["timeout_to_discard"]
        play["discard"] += outcome["timeout_to_discard"]
    if step == "d":
        play["row"] += outcome["refill"]
        play["round"] += 1
        play["phase"] = "action"
        play["end_step"] = "a"
    else:
        play["end_step"] = END_STEPS[END_STEPS.index(step) + 1]
    return play


def _draw_victim(play: Play) -> None:
    play["victims_left"] -= 1
    play["victims_used"] += 1
    new_column(play)


def clue_deck_ran_out(play: Play) -> Play:
    """The clue deck is empty: a victim is revealed (G-AN-8: as a new case), or the case is lost
    when none is left; the discard pile becomes the new clue deck [rules.md:734]."""
    if play["result"]:
        raise NoirError(gettext_noop("This case is over: start a new one."))
    play = copy.deepcopy(play)
    if play["victims_left"] <= 0:
        play["result"] = "lost"
        play["reason"] = "deck"
        return play
    _draw_victim(play)
    play["discard"] = 0
    return play
