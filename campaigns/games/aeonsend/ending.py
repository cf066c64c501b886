"""When a game at the table is over, and what stays refused until the next one starts.

Rules (shared/spec/rules.md §2d, [003:583-591]): the players win when the nemesis has 0 life or
when "the nemesis has no cards in its deck and no minions or powers in play at the end of any
turn"; they lose when Gravehold has 0 life, when all the players are exhausted ("the game ends
immediately" [003:566]) or when the nemesis mat's own condition is met [003:591] (the group
says so: ``ae.lose``); in solo play exhaustion does not lose [003:605] (the exhausted rule
and its solo exception are exhausted.py's).

The game ends at the first of these, so once it is over the table refuses further changes of
life, nemesis draws and turn order draws until a new game starts (or the group undoes the
change that ended it): a win cannot come after a loss. Life is frozen from that moment, so the
result is read from the state. The refusal is made when a change is asked for (its resolve),
not in apply(): histories saved before this rule held changes made after an end, and they must
still replay and import as they were.

The second victory condition and the nemesis's own condition are the ends not visible in life:
they are stored as ``table["end"] = "deck"`` by the turn order draw that found it
(turns.apply_draw) and ``"condition"`` by ``ae.lose``.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext as _

from campaigns.commands import Command, CommandError, Payload
from campaigns.games.aeonsend.common import EmptyForm
from campaigns.games.aeonsend.exhausted import exhaustion_loses, solo_exception
from campaigns.games.aeonsend.state import AeonsEndState

# Why a game ended: the result and the words the table reads.
WHY = {
    "deck": "win",
    "nemesis": "win",
    "gravehold": "loss",
    "exhausted": "loss",
    "condition": "loss",
}


def ends(state: AeonsEndState) -> list[str]:
    """Every end condition that holds now, the one that came first first (losses before wins
    when a history from before this rule holds both: the order is unknown, and a win cannot
    override a loss)."""
    table = state["table"]
    if not table["nemesis"]:
        return []
    found = []
    if table.get("end") == "deck":
        found.append("deck")
    if table["gravehold"] == 0:
        found.append("gravehold")
    if exhaustion_loses(state):
        found.append("exhausted")
    if table["nemesis_life"] == 0:
        found.append("nemesis")
    if table.get("end") == "condition":
        # Stored by the change that ended the game: nothing could change after it.
        return ["condition"]
    if "deck" in found:
        # Stored by the draw that ended the game: nothing could change after it.
        return ["deck"]
    return sorted(found, key=lambda why: WHY[why] == "win")


def outcome(state: AeonsEndState) -> str | None:
    """The game's result ("win" or "loss"), the first end that happened; None while it runs."""
    found = ends(state)
    return WHY[found[0]] if found else None


def refuse_when_over(state: AeonsEndState) -> None:
    """A finished game stays finished: start the next game, or undo the change that ended it."""
    result = outcome(state)
    if result is not None:
        raise CommandError(
            _("This game is over (a win). Start the next game, or undo the change that ended it.")
            if result == "win"
            else _(
                "This game is over (a loss). Start the next game, or undo the change that ended it."
            )
        )


def end_texts(state: AeonsEndState) -> list[dict[str, str]]:
    """What the table page says about the end (and the solo note), first end first."""
    texts = {
        "deck": _(
            "The nemesis deck is empty and no minion or power is in play at the end of a turn: "
            "you win!"
        ),
        "nemesis": _("The nemesis has no life left: you win!"),
        "gravehold": _("Gravehold has fallen: you lose."),
        "exhausted": _("Every player is exhausted: you lose."),
        "condition": _("The nemesis's own condition is met: you lose."),
    }
    found = [{"result": WHY[why], "why": why, "text": texts[why]} for why in ends(state)[:1]]
    if state["table"]["nemesis"] and solo_exception(state):
        found.append(
            {
                "result": "note",
                "why": "solo",
                "text": _(
                    "Every mage is exhausted; in solo play you lose only when Gravehold falls."
                ),
            }
        )
    return found


# The nemesis's own condition [003:591]: the group says it is met, and the game is lost.


def resolve_lose(state: AeonsEndState, data_: Payload, rng: random.Random) -> Payload:
    if not state["table"]["nemesis"]:
        raise CommandError(_("Start a game first: name the nemesis and its life."))
    refuse_when_over(state)
    return {}


def apply_lose(state: AeonsEndState, payload: Payload) -> None:
    state["table"]["end"] = "condition"


COMMANDS = (
    Command(
        "ae.lose",
        EmptyForm,
        apply_lose,
        lambda p: _("Lost by the nemesis's own condition"),
        resolve=resolve_lose,
        stale_check=True,
    ),
)
