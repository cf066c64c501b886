"""Between games: the log of every game played (date, Ancient One, players and investigators,
win or loss and why, rounds, notes) with its chart, and a random pick of the next Ancient One
and investigators from the group's boxes, skipping those of the last N games if asked."""

from __future__ import annotations

import random
from collections import Counter

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField, played_date_field
from campaigns.games.eldritch import data, names
from campaigns.games.eldritch.common import REGIONS, number_field
from campaigns.games.eldritch.state import EldritchState, LoggedGame
from campaigns.words import joined


class LogForm(forms.Form):
    date = played_date_field()
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=list(data.RESULTS.items()))
    reason = forms.ChoiceField(label=gettext_lazy("Why"), choices=list(data.REASONS.items()))
    rounds = number_field(gettext_lazy("Rounds"), 0, 99)
    notes = TextField(label=gettext_lazy("Notes"), max_length=300, required=False)

    def clean(self) -> dict[str, object]:
        """A result its reason can give. Checked when a phone sends it; a history kept before
        (a win "by doom") still replays."""
        cleaned = super().clean() or {}
        result, reason = cleaned.get("result"), cleaned.get("reason")
        if result == "win" and reason not in data.WIN_REASONS:
            self.add_error(
                "reason", _("A game is won by solving the mysteries: choose that, or Other.")
            )
        elif result == "loss" and reason not in data.LOSS_REASONS:
            self.add_error(
                "reason", _("Solving the mysteries wins the game: choose Win, or another reason.")
            )
        return cleaned


class UnlogForm(forms.Form):
    item = forms.IntegerField(widget=forms.HiddenInput)


class PickForm(forms.Form):
    expansions = forms.MultipleChoiceField(
        label=gettext_lazy("The boxes you own"),
        choices=[(e, e) for e in data.EXPANSIONS],
        widget=forms.CheckboxSelectMultiple,
    )
    players = number_field(
        gettext_lazy("Players"),
        data.MIN_PLAYERS,
        data.MAX_PLAYERS,
        error_messages={
            "min_value": gettext_lazy("Eldritch Horror is for 1 to 8 players."),
            "max_value": gettext_lazy("Eldritch Horror is for 1 to 8 players."),
        },
    )
    skip = number_field(gettext_lazy("Not one played in the last N games"), 0, 50, initial=0)


def apply_log(state: EldritchState, payload: Payload) -> None:
    game = state.get("game")
    if not isinstance(game, dict):
        raise CommandError(_("No game is on the table: start one first."), "result")
    entry: LoggedGame = {
        "id": commands.next_id(state),
        "date": commands.need_date(payload, "date"),
        "ancient_one": game["ancient_one"],
        "players": game["players"],
        "investigators": [p["name"] for p in game["investigators"]]
        + list(n for n in game["fallen"] if n not in {p["name"] for p in game["investigators"]}),
        "result": commands.need_choice(payload, "result", data.RESULTS),
        "reason": commands.need_choice(payload, "reason", data.REASONS),
        "rounds": commands.need_int(payload, "rounds", 0, 99),
        "notes": commands.need_str(payload, "notes", 300, blank=True),
    }
    state["games"].append(entry)
    state["game"] = None


def apply_unlog(state: EldritchState, payload: Payload) -> None:
    ident = commands.need_int(payload, "item")
    kept = [g for g in state["games"] if g["id"] != ident]
    if len(kept) == len(state["games"]):
        raise CommandError(_("That game is not in the log."), "item")
    state["games"] = kept


def resolve_pick(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    expansions = data_.get("expansions")
    owned = {str(name) for name in expansions} if isinstance(expansions, list) else set()
    skip = commands.need_int(data_, "skip", 0)
    players = commands.need_int(data_, "players", 1)
    recent = state["games"][-skip:] if skip else []
    played = {g["ancient_one"] for g in recent}
    used = {n for g in recent for n in g["investigators"]}
    ancients = [
        n for n, a in data.ANCIENT_ONES.items() if a["expansion"] in owned and n not in played
    ]
    people = [n for n, i in data.INVESTIGATORS.items() if i["expansion"] in owned and n not in used]
    if not ancients:
        raise CommandError(
            _("No Ancient One is left in these boxes outside the last games."), "expansions"
        )
    if len(people) < players:
        raise CommandError(
            _("Too few investigators are left in these boxes outside the last games."),
            "expansions",
        )
    return {
        "ancient_one": rng.choice(ancients),
        "investigators": rng.sample(people, players),
        "expansions": sorted(owned),
    }


def apply_pick(state: EldritchState, payload: Payload) -> None:
    ancient = commands.need_choice(payload, "ancient_one", data.ANCIENT_ONES)
    people = payload.get("investigators")
    if (
        not isinstance(people, list)
        or not 1 <= len(people) <= data.MAX_PLAYERS
        or not all(isinstance(n, str) and n in data.INVESTIGATORS for n in people)
    ):
        raise CommandError(_("The pick does not fit."), "expansions")
    owned = payload.get("expansions")
    state["pick"] = {
        "ancient_one": ancient,
        "investigators": list(people),
        "expansions": [e for e in owned if e in data.EXPANSIONS] if isinstance(owned, list) else [],
    }


def log_view(state: EldritchState) -> dict[str, object]:
    shown = names.shower(state)
    pick = state.get("pick")
    games = state.get("games", [])
    per: dict[str, Counter[str]] = {}
    for g in games:
        per.setdefault(g["ancient_one"], Counter())[g["result"]] += 1
    most = max((sum(c.values()) for c in per.values()), default=1)
    chart = [
        {
            "name": shown(name),
            "wins": c["win"],
            "losses": c["loss"],
            "win_width": round(100 * c["win"] / most),
            "loss_width": round(100 * c["loss"] / most),
        }
        for name, c in sorted(per.items())
    ]
    timeline = [
        {**g, "ancient_one": shown(g["ancient_one"])}
        for g in sorted(games, key=lambda g: (g["date"], g["id"]))
    ]
    wins = sum(1 for g in games if g["result"] == "win")
    return {
        "games": [
            {
                **g,
                "ancient_one": shown(g["ancient_one"]),
                "investigators": [shown(n) for n in g["investigators"]],
                "result_label": data.RESULTS.get(g["result"], "?"),
                "reason_label": data.REASONS.get(g["reason"], "?"),
            }
            for g in reversed(games)
        ],
        "chart": chart,
        "timeline": timeline,
        "wins": wins,
        "losses": len(games) - wins,
        "today": timezone.localdate().isoformat(),
        "pick": pick
        and {
            **pick,
            "ancient_one": shown(pick["ancient_one"]),
            "investigators": [shown(n) for n in pick["investigators"]],
        },
    }


COMMANDS = (
    Command(
        "eh.log",
        LogForm,
        apply_log,
        lambda p: (
            _("Game logged: %(result)s (%(reason)s)")
            % {
                "result": data.RESULTS.get(str(p.get("result")), "?"),
                "reason": data.REASONS.get(str(p.get("reason")), "?"),
            }
        ),
        stale_check=True,
        regions=REGIONS,
    ),
    Command(
        "eh.unlog",
        UnlogForm,
        apply_unlog,
        gettext_lazy("A game was taken off the log"),
        regions=REGIONS,
    ),
    Command(
        "eh.pick",
        PickForm,
        apply_pick,
        lambda p: (
            _("Random pick: %(name)s with %(people)s")
            % {
                "name": p.get("ancient_one"),
                "people": joined(p.get("investigators") or []),
            }
        ),
        resolve_pick,
        regions=REGIONS,
        random_outcome=True,
        needs_connection=True,
    ),
)
