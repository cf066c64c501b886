"""What the Arkham Noir pages show: each feature's view of the state, joined under ``noir``."""

from __future__ import annotations

from campaigns.engines import noir
from campaigns.games.base import Viewing
from campaigns.games.noir import data
from campaigns.games.noir.columns import columns_view
from campaigns.games.noir.log import log_view
from campaigns.games.noir.piles import big_picture_view, piles_view
from campaigns.games.noir.state import NoirState


def end_phase_view(play: noir.Play, win_rule: str) -> list[dict[str, object]]:
    """The four steps with the numbers each looks at, and which is next."""
    scored = len(set(play["big_picture"])) if win_rule == "distinct" else len(play["big_picture"])
    numbers = {
        "a": scored,
        "b": play["madness"],
        "c": play["timeout"],
        "d": play["row"],
    }
    steps = []
    order = noir.END_STEPS.index(play["end_step"])
    for index, (step, label) in enumerate(data.END_STEPS.items()):
        status = "todo"
        if play["phase"] == "end":
            status = "done" if index < order else ("current" if index == order else "todo")
        steps.append(
            {
                "step": step,
                "label": label,
                "value": numbers[step],
                "status": status,
                "reached": step != "d" and numbers[step] >= noir.PILE_LIMIT,
            }
        )
    return steps


def context(campaign: object, state: NoirState, viewing: Viewing) -> dict[str, object]:
    if "play" not in state:
        return {}
    play: noir.Play = state["play"]
    storm = noir.storm_rules(play)
    due_column = next((c for c in play["columns"] if c["id"] == play["storm_due"]), None)
    return {
        "noir": {
            "play": play,
            "case_label": data.CASES.get(play["case"], ""),
            "storm": storm,
            "fresh": play["round"] == 1 and play["phase"] == "action" and not play["discard"],
            "setup_steps": list(
                enumerate((text for text, cases in data.SETUP_STEPS if play["case"] in cases), 1)
            ),
            "win_rule": state["win_rule"],
            "win_rule_label": data.WIN_RULES[state["win_rule"]],
            "actions": data.ACTIONS,
            "end_steps": end_phase_view(play, state["win_rule"]),
            "reason_label": data.REASONS.get(play["reason"], ""),
            "columns": columns_view(state),
            "piles": piles_view(state),
            "big_picture": play["big_picture"],
            "big_types": len(set(play["big_picture"])),
            "big_by_type": big_picture_view(state),
            "discard_due": play["hand"] > noir.HAND_LIMIT,
            "storm_column": due_column,
            "storm_number": next(
                (n for n, c in enumerate(play["columns"], 1) if c["id"] == play["storm_due"]), 0
            ),
            "storm_empty": play["storms_left"] <= 0,
            "types": list(range(1, play["clue_types"] + 1)),
            "closable": [c for c in play["columns"] if noir.can_close(c)],
            "over": bool(play["result"]),
            # The change this answer follows: the part of a column it came from stays open.
            "acted": viewing.acted,
            "acted_in": viewing.acted_in,
            **log_view(state),
        }
    }
