"""What the features share: the game on the table, an investigator, and the end of the game
(rules.md §3d). Doom and the awakening are doom.py's; an investigator falling is
investigators.py's."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext as _
from django_stubs_ext import StrOrPromise

from campaigns.commands import CommandError, Payload
from campaigns.games.eldritch import data
from campaigns.games.eldritch.state import EldritchState, Game, Investigator

# Every live region of the game's pages: a change redraws those the page it came from has.
REGIONS = (
    "eh-status",
    "eh-doom",
    "eh-mysteries",
    "eh-mythos",
    "eh-round",
    "eh-investigators",
    "eh-dice",
    "eh-log",
    "eh-setup",
)


def game_of(state: EldritchState, field: str | None = None, over_ok: bool = False) -> Game:
    """The game on the table; refused when there is none, or when it is over."""
    game = state["game"]
    if game is None:
        raise CommandError(_("No game is on the table: start one first."), field)
    if game["outcome"] is not None and not over_ok:
        raise CommandError(_("This game is over: log it, or undo the last change."), field)
    return game


def investigator(game: Game, payload: Payload, key: str = "investigator") -> Investigator:
    ident = payload.get(key)
    for person in game["investigators"]:
        if person["id"] == ident and not isinstance(ident, bool):
            return person
    raise CommandError(_("That investigator is not in this game."), key)


def named(state: EldritchState, data_: Payload) -> Payload:
    """The investigator's name, stored in the payload for the history's words: the group's own
    when it gave one (names.py)."""
    name = investigator(game_of(state), data_)["name"]
    own = state.get("names")
    return {"who": own.get(name) or name if isinstance(own, dict) else name}


def who(payload: Payload) -> str:
    name = payload.get("who")
    return str(name) if name else "?"


def settle(game: Game) -> None:
    """The win when what is required is solved; the loss when every player is eliminated."""
    if game["outcome"] is not None:
        return
    mysteries = game["mysteries"]
    if mysteries["solved"] >= mysteries["to_win"] and (not game["awakened"] or mysteries["final"]):
        game["outcome"] = {"result": "win", "reason": "mysteries"}
    elif all(p["status"] == "eliminated" for p in game["investigators"]):
        game["outcome"] = {"result": "loss", "reason": "eliminated"}


def playing(game: Game) -> list[Investigator]:
    return [p for p in game["investigators"] if p["status"] != "eliminated"]


def new_investigator(
    number: int, name: str, health: int, sanity: int, skills: object
) -> Investigator:
    """An investigator as they come into play: full health and sanity, nothing gained yet
    (`skills`: their printed skills as checked, or None for a typed one)."""
    return {
        "id": number,
        "name": name,
        "health": health,
        "max_health": health,
        "sanity": sanity,
        "max_sanity": sanity,
        "skills": dict(skills) if isinstance(skills, dict) else None,
        "improvements": {skill: 0 for skill in data.SKILLS},
        "clues": 0,
        "train": 0,
        "ship": 0,
        "conditions": [],
        "status": "normal",
    }


def number_field(
    label: StrOrPromise,
    lo: int,
    hi: int,
    initial: int | None = None,
    error_messages: Mapping[str, StrOrPromise] | None = None,
) -> forms.IntegerField:
    """A whole number from `lo` to `hi`, typed with the phone's numeric keyboard."""
    return forms.IntegerField(
        label=label,
        min_value=lo,
        max_value=hi,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        initial=initial,
        error_messages=error_messages,
    )
