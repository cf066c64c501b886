"""What the Eldritch Horror pages show: each feature's view of the state, joined under ``eh``."""

from __future__ import annotations

from collections.abc import Callable

from campaigns.games.base import Viewing
from campaigns.games.eldritch import data, doom, log, mythos_deck, names, rolls, round
from campaigns.games.eldritch.investigators import available, investigator_view
from campaigns.games.eldritch.state import EldritchState, Game, Pick


def game_view(game: Game, viewing: Viewing, shown: Callable[[str], str]) -> dict[str, object]:
    """The game on the table; `shown` gives a name as the page reads it (names.shown)."""
    mysteries = game["mysteries"]
    outcome = game["outcome"]
    final = doom.final_mystery_due(game)
    lead = next((p for p in game["investigators"] if p["id"] == game["lead"]), None)
    rounds = round.round_view(game)
    dice = rolls.rolls_view(game, viewing.query)
    return {
        **game,
        "ancient_one_label": shown(game["ancient_one"]),
        "difficulty_label": {**data.DIFFICULTIES, **data.EARLIER_DIFFICULTIES}[game["difficulty"]],
        "removed_cards": data.REMOVED_CARDS.get(game["difficulty"], ""),
        "awakening_loss": game.get("awakening") == "loss",
        "people": [
            {**investigator_view(game, p), "label": shown(p["name"])} for p in game["investigators"]
        ],
        "available": [(name, shown(name)) for name in available(game)],
        "outcome_result": outcome and data.RESULTS[outcome["result"]],
        "outcome_reason": outcome and data.REASONS[outcome["reason"]],
        "final_mystery": final,
        "mysteries_needed": mysteries["to_win"] + (1 if final else 0),
        "mysteries_done": mysteries["solved"] + (1 if mysteries["final"] else 0),
        "final_open": final
        and mysteries["solved"] >= mysteries["to_win"]
        and not mysteries["final"],
        **doom.doom_view(game),
        **mythos_deck.deck_view(game),
        **rounds,
        "lead_name": shown(lead["name"]) if lead else rounds["lead_name"],
        "lead_choices": [(ident, shown(name)) for ident, name in rounds["lead_choices"]],
        **dice,
        "last_roll": dice["last_roll"]
        and {
            **dice["last_roll"],
            "who": dice["last_roll"]["who"] and shown(dice["last_roll"]["who"]),
        },
    }


def context(campaign: object, state: EldritchState, viewing: Viewing) -> dict[str, object]:
    if "games" not in state:
        return {}
    game = state.get("game")
    pick = state.get("pick")
    return {
        "eh": {
            "game": (game_view(game, viewing, names.shower(state)) if game is not None else None),
            "buzz": viewing.live,
            "acted": viewing.acted,
            "pick_initial": pick_initial(pick) if pick else {},
            "ancient_ones": [
                {**a, "stages": list(zip(data.STAGE_LABELS, a["mythos_deck"], strict=True))}
                for a in data.ANCIENT_ONES.values()
            ],
            "reference_card": data.FACTS["reference_card"],
            **log.log_view(state),
        }
    }


def pick_initial(pick: Pick) -> dict[str, object]:
    """The new-game form filled in from the last random pick."""
    initial: dict[str, object] = {
        "ancient_one": pick["ancient_one"],
        "players": len(pick["investigators"]),
    }
    for number, name in enumerate(pick["investigators"], start=1):
        initial[f"investigator_{number}"] = name
    return initial
