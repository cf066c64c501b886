"""What the pages show: each feature works out its own part from the state; this joins them.

The turn order deck is only ever shown through the engine's public_view (see turns.deck_view):
counts, what the table has seen, and the remaining cards sorted, never an undrawn order.
"""

from __future__ import annotations

from campaigns.games.aeonsend import data, legacy
from campaigns.games.aeonsend.banished import SEARCH_LENGTH, banished_view
from campaigns.games.aeonsend.common import games_played
from campaigns.games.aeonsend.exhausted import exhausted_view
from campaigns.games.aeonsend.nemesis import nemesis_view
from campaigns.games.aeonsend.outside import outside_view
from campaigns.games.aeonsend.owned import owned_view
from campaigns.games.aeonsend.scores import score_view
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.games.aeonsend.turns import deck_view, table_view
from campaigns.games.base import Viewing


def page_context(
    campaign: object, state: AeonsEndState, viewing: Viewing | None = None
) -> dict[str, object]:
    """The game's context for every page; of the request, only what a page asks in its URL."""
    params = viewing.query if viewing is not None else {}
    aim = ""
    if viewing is not None and viewing.acted == "ae.life":
        aim = str(viewing.posted.get("who", ""))
    return game_context(
        state,
        query=params.get("q", "")[:SEARCH_LENGTH].strip(),
        record=params.get("record") == "1",
        aim=aim,
    )


def game_context(
    state: AeonsEndState, query: str = "", record: bool = False, aim: str = ""
) -> dict[str, object]:
    """`query` searches the banished cards; `record` opens the score form filled from the table;
    `aim` is whom this phone's last life change was for (its amount form stays on them)."""
    table = table_view(state)
    deck = deck_view(state)
    return {
        "ae": {
            "players": legacy.mages_view(state),
            "solo": state["solo"],
            "chapter": legacy.chapter_view(state),
            "games": games_played(state),
            "stickers": legacy.sticker_rows(state),
            "sealed": legacy.sealed_groups(state),
            "legacy": {
                **state["legacy"],
                "recent": list(reversed(state["legacy"]["read"][-8:])),
                "erratum": state["legacy"]["last"] == data.ERRATUM_FROM,
                "right": data.ERRATUM_RIGHT,
                "wrong": data.ERRATUM_WRONG,
            },
            "banished": banished_view(state, query),
            "supply": state["supply"],
            "supply_text": "\n".join(state["supply"]),
            "supply_size": data.SUPPLY_PILES,
            "upgrade": state["upgrade"],
            "table": table,
            "deck": deck,
            "scores": score_view(state, table, deck),
            "outside": outside_view(state),
            "nemesis": nemesis_view(state),
            "exhausted": exhausted_view(state),
            "owned": owned_view(state),
            "difficulties": list(data.DIFFICULTIES.items()),
            "colours": data.COLOURS,
            "kinds": list(data.CARD_TYPES.items()),
            "mage_kinds": list(data.MAGE_NOTES.items()),
            "results": list(data.RESULTS.items()),
            "points": [(p, legacy.point_label(p)) for p in data.POINTS],
            "max_player_life": data.MAX_PLAYER_LIFE,
            "max_gravehold": data.MAX_GRAVEHOLD_LIFE,
            "record": record,
            "aim": aim,
        }
    }
