"""Between plays: the log of every case played (date, case, win or loss and why, rounds,
puzzle-piece cards scored, madness, victims used), a chart of results over time and per case,
and starting the next case once one is over."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.commands import Command, CommandError, Payload, need_choice, need_int
from campaigns.engines import noir
from campaigns.games.noir import data
from campaigns.games.noir.actions import TABLE
from campaigns.games.noir.common import MOST_TYPES
from campaigns.games.noir.setup import CaseFields
from campaigns.games.noir.state import NoirState


class NewCaseForm(CaseFields):
    pass


def apply_new(state: NoirState, payload: Payload) -> None:
    if not state["play"]["result"]:
        raise CommandError(_("Finish this case first: it is still being played."), "case")
    case = need_choice(payload, "case", noir.CASES)
    types = need_int(payload, "clue_types", noir.CLOSE_TYPES, MOST_TYPES)
    state["play"] = noir.new_play(case, types)


def log_view(state: NoirState) -> dict[str, object]:
    rows = [
        {
            **entry,
            "case_label": data.CASE_SHORT.get(entry["case"], entry["case"]),
            "reason_label": data.REASONS.get(entry["reason"], ""),
            "rule_label": data.WIN_RULES.get(entry["win_rule"], ""),
        }
        for entry in reversed(state["log"])
    ]
    per_case = []
    for case, label in data.CASES.items():
        plays = [e for e in state["log"] if e["case"] == case]
        wins = sum(e["result"] == "won" for e in plays)
        per_case.append(
            {
                "label": label,
                "plays": len(plays),
                "wins": wins,
                "losses": len(plays) - wins,
                "win_pct": round(100 * wins / len(plays)) if plays else 0,
            }
        )
    # Over time: one bar per play, oldest first, as tall as the puzzle pieces it scored.
    timeline = [
        {
            "n": n,
            "won": e["result"] == "won",
            "scored": e["scored"],
            "height": min(e["scored"], 5) * 20 or 6,
            "x": (n - 1) * 14 + 2,
            "y": 100 - (min(e["scored"], 5) * 20 or 6),
            "date": e["date"],
            "case_label": data.CASE_SHORT.get(e["case"], e["case"]),
        }
        for n, e in enumerate(state["log"][-30:], start=1)
    ]
    width = max(len(timeline), 30) * 14 + 4  # a fixed scale: one play is one thin bar
    return {"log": rows, "per_case": per_case, "timeline": timeline, "chart_width": width}


COMMANDS = (
    Command(
        "noir.new",
        NewCaseForm,
        apply_new,
        lambda p: _("A new case: %(case)s") % {"case": data.CASES.get(str(p.get("case")), "?")},
        stale_check=True,
        regions=TABLE,
        needs_connection=True,
    ),
)
