"""A new game of Eldritch Horror: the Ancient One, the players, their investigators and the
mythos difficulty; and the state before any event (the first game on the table).

The same form starts a campaign and, later, each next game (``game.start``). What it posts is
turned into one plain set-up (``setup_of``) that ``new_game`` checks again, since an event's
payload may come from an imported file.
"""

from __future__ import annotations

import random
import re
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import Command, CommandError, Payload
from campaigns.engines import mythos
from campaigns.fields import TextField
from campaigns.games.built_form import BuiltForm
from campaigns.games.eldritch import data, names
from campaigns.games.eldritch.common import REGIONS, new_investigator
from campaigns.games.eldritch.state import EldritchState, Game, Investigator
from campaigns.words import FULL_WIDTH


def ancient_one_choices() -> list[tuple[str, StrOrPromise]]:
    """By name as the reader's edition prints it, where a source gives one (names.py)."""
    return [(name, names.printed(name)) for name in data.ANCIENT_ONES] + [
        (data.CUSTOM, gettext_lazy("Another (typed below)"))
    ]


def investigator_choices() -> list[tuple[str, str]]:
    return [("", "—")] + [
        (name, f"{names.printed(name)} · {i['health']}/{i['sanity']}")
        for name, i in data.INVESTIGATORS.items()
    ]


PLAYER_ERRORS = {
    "min_value": gettext_lazy("Eldritch Horror is for 1 to 8 players."),
    "max_value": gettext_lazy("Eldritch Horror is for 1 to 8 players."),
    "invalid": gettext_lazy("Eldritch Horror is for 1 to 8 players."),
}


class SetupForm(BuiltForm):
    """The Ancient One, the players, their investigators and the mythos difficulty."""

    template_name_p = "games/eldritch/setup-fields.html"

    def as_p(self) -> SafeString:
        # The project's templates, not the form renderer's (which sees only the apps' ones).
        return mark_safe(render_to_string(self.template_name_p, {"form": self}))

    ancient_one = forms.ChoiceField(
        label=gettext_lazy("Ancient One"), choices=ancient_one_choices, initial="Azathoth"
    )
    custom_name = TextField(
        label=gettext_lazy("Typed Ancient One: name"), max_length=data.NAME_LENGTH, required=False
    )
    custom_doom = forms.IntegerField(
        label=gettext_lazy("Starting doom"), min_value=1, max_value=30, required=False
    )
    custom_mysteries = forms.IntegerField(
        label=gettext_lazy("Mysteries to solve"),
        min_value=1,
        max_value=9,
        required=False,
        help_text=gettext_lazy("Leave empty to use the Ancient One's number."),
    )
    custom_awakening = forms.ChoiceField(
        label=gettext_lazy("Its awakening"),
        choices=list(data.AWAKENINGS.items()),
        initial="mystery",
        required=False,
    )
    custom_deck = TextField(
        label=gettext_lazy("Typed mythos deck"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("Green, yellow, blue per stage, e.g. 1 2 1, 2 3 1, 2 4 0"),
    )
    # Picked from a list, not typed: the investigator pickers shown follow it (the `pick-count`
    # rules of static/css/site.css), and those it hides are not read (`setup_of`).
    players = forms.IntegerField(
        label=gettext_lazy("Players"),
        min_value=data.MIN_PLAYERS,
        max_value=data.MAX_PLAYERS,
        initial=2,
        error_messages=PLAYER_ERRORS,
        widget=forms.Select(
            attrs={"class": "pick-count"},
            choices=[(n, str(n)) for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)],
        ),
    )
    difficulty = forms.ChoiceField(
        label=gettext_lazy("Mythos difficulty"),
        choices=list(data.DIFFICULTIES.items()),
        initial="normal",
        help_text=gettext_lazy(
            "Easy: remove the hard mythos cards. Hard: remove the easy ones. Normal: use them all."
        ),
    )
    typed = TextField(
        label=gettext_lazy("Typed investigators"),
        required=False,
        max_length=600,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("One a line: name, health, sanity"),
    )

    def add_fields(self) -> None:
        for number in range(1, data.MAX_PLAYERS + 1):
            self.fields[f"investigator_{number}"] = forms.ChoiceField(
                label=_("Investigator %(n)d") % {"n": number},
                choices=investigator_choices,
                required=False,
            )

    def investigator_fields(self) -> list[forms.BoundField]:
        return [self[f"investigator_{n}"] for n in range(1, data.MAX_PLAYERS + 1)]

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            cleaned["game"] = setup_of(cleaned)
        except CommandError as error:
            self.add_error(error.field if error.field in self.fields else None, error.message)
        return cleaned


def parse_deck(text: str) -> list[list[int]]:
    stages = [part.split() for part in text.translate(FULL_WIDTH).split(",")]
    if len(stages) != 3 or any(len(s) != 3 or not all(n.isdecimal() for n in s) for s in stages):
        raise CommandError(
            _("Write three stages of three numbers: green yellow blue, e.g. 1 2 1, 2 3 1, 2 4 0."),
            "custom_deck",
        )
    return [[int(n) for n in s] for s in stages]


def parse_typed(text: str) -> list[dict[str, object]]:
    found = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = re.fullmatch(
            r"\s*([^,]{1,60}?)\s*,\s*([0-9]{1,2})\s*,\s*([0-9]{1,2})\s*", line.translate(FULL_WIDTH)
        )
        if not match or not (1 <= int(match[2]) <= 20 and 1 <= int(match[3]) <= 20):
            raise CommandError(
                _("“%(line)s”: write name, health, sanity (health and sanity 1 to 20).")
                % {"line": line.strip()[:60]},
                "typed",
            )
        # (the name as typed: the full-width reading changes only the commas and digits, one
        # character for one)
        name = line[match.start(1) : match.end(1)]
        found.append(
            {"name": name, "health": int(match[2]), "sanity": int(match[3]), "skills": None}
        )
    return found


def setup_of(cleaned: dict[str, Any]) -> dict[str, object]:
    """The plain set-up a game starts from, from the form's cleaned data."""
    name = cleaned.get("ancient_one")
    if name == data.CUSTOM:
        if not (cleaned.get("custom_name") or "").strip():
            raise CommandError(_("Type the Ancient One's name."), "custom_name")
        if not cleaned.get("custom_doom"):
            raise CommandError(_("Type its starting doom."), "custom_doom")
        if not cleaned.get("custom_deck"):
            raise CommandError(_("Type its mythos deck."), "custom_deck")
        ancient = {
            "name": cleaned["custom_name"].strip(),
            "starting_doom": cleaned["custom_doom"],
            "mysteries_to_win": cleaned.get("custom_mysteries"),
            "mythos_deck": parse_deck(cleaned["custom_deck"]),
            "awakening": cleaned.get("custom_awakening") or "mystery",
        }
    else:
        ancient = dict(data.ANCIENT_ONES[str(name)])
        if cleaned.get("custom_deck"):
            ancient["mythos_deck"] = parse_deck(cleaned["custom_deck"])
    mysteries = cleaned.get("custom_mysteries") or ancient["mysteries_to_win"]
    if not mysteries:
        raise CommandError(
            _("Our data has no number of mysteries for this Ancient One: type it."),
            "custom_mysteries",
        )
    players = cleaned["players"]
    # One picker per player: those beyond the number of players are hidden, so not read.
    chosen = [cleaned.get(f"investigator_{n}") for n in range(1, players + 1)]
    people = [
        {
            "name": n,
            "health": data.INVESTIGATORS[n]["health"],
            "sanity": data.INVESTIGATORS[n]["sanity"],
            "skills": data.INVESTIGATORS[n]["skills"],
        }
        for n in chosen
        if n
    ] + parse_typed(cleaned.get("typed") or "")
    if len(people) != players:
        raise CommandError(
            _("Choose one investigator per player: %(chosen)d of %(players)d chosen.")
            % {"players": players, "chosen": len(people)},
            "players",
        )
    names = [p["name"] for p in people]
    if len(set(names)) != len(names):
        # Said next to the second of the two: a picker, or the typed lines.
        again = next(i for i, name in enumerate(names) if name in names[:i])
        pickers = [number for number, name in enumerate(chosen, start=1) if name]
        field = f"investigator_{pickers[again]}" if again < len(pickers) else "typed"
        raise CommandError(_("Each investigator can be chosen once."), field)
    return {
        "ancient_one": ancient["name"],
        "starting_doom": ancient["starting_doom"],
        "mysteries": mysteries,
        "deck": ancient["mythos_deck"],
        "players": players,
        "difficulty": cleaned["difficulty"],
        "awakening": ancient.get("awakening", "mystery"),
        "investigators": people,
    }


def need_number(value: object, lo: int, hi: int) -> int:
    """A whole number of a set-up (it may come from a file), from `lo` to `hi`."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise CommandError(_("The set-up does not fit this game."))
    return value


def need_name(value: object) -> str:
    """A name of a set-up (it may come from a file): not blank, not too long."""
    if not isinstance(value, str) or not 0 < len(value.strip()) <= data.NAME_LENGTH:
        raise CommandError(_("The set-up does not fit this game."))
    return value


def new_game(setup: object, state: EldritchState | None = None) -> Game:
    """A game on the table from a plain set-up, checked again (it may come from a file)."""
    if not isinstance(setup, dict) or not isinstance(setup.get("investigators"), list):
        raise CommandError(_("The set-up does not fit this game."))
    players = need_number(setup.get("players"), data.MIN_PLAYERS, data.MAX_PLAYERS)
    people = setup["investigators"]
    difficulties = {**data.DIFFICULTIES, **data.EARLIER_DIFFICULTIES}
    if len(people) != players or setup.get("difficulty") not in difficulties:
        raise CommandError(_("The set-up does not fit this game."))
    # A set-up from before the awakening was a fact played on to the final mystery: so it stays.
    awakening = setup.get("awakening", "mystery")
    if awakening not in data.AWAKENINGS:
        raise CommandError(_("The set-up does not fit this game."))
    try:
        deck = mythos.build(setup.get("deck"))
    except (mythos.DeckError, TypeError):
        raise CommandError(_("The set-up does not fit this game.")) from None
    doom = need_number(setup.get("starting_doom"), 1, 30)
    investigators: list[Investigator] = []
    for number, person in enumerate(people, start=1):
        if not isinstance(person, dict):
            raise CommandError(_("The set-up does not fit this game."))
        skills = person.get("skills")
        if skills is not None and (
            not isinstance(skills, dict)
            or set(skills) != set(data.SKILLS)
            or not all(
                type(v) is int and data.SKILL_RANGE[0] <= v <= data.SKILL_RANGE[1]
                for v in skills.values()
            )
        ):
            raise CommandError(_("The set-up does not fit this game."))
        health = need_number(person.get("health"), 1, 20)
        sanity = need_number(person.get("sanity"), 1, 20)
        name = need_name(person.get("name"))
        investigators.append(new_investigator(number, name, health, sanity, skills))
    return {
        "ancient_one": need_name(setup.get("ancient_one")),
        "starting_doom": doom,
        "players": players,
        "difficulty": setup["difficulty"],
        "reference": data.reference(players),
        "built": [[s["green"], s["yellow"], s["blue"]] for s in deck["stages"]],
        "deck": deck,
        "doom": doom,
        "awakened": False,
        "awakening": awakening,
        "omen": 0,
        "gates": {colour: 0 for colour in data.GATE_COLOURS},
        "mysteries": {
            "to_win": need_number(setup.get("mysteries"), 1, 9),
            "solved": 0,
            "current": "",
            "tokens": 0,
            "final": False,
        },
        "draws": [],
        "round": 1,
        "phase": "action",
        "lead": 1,
        "investigators": investigators,
        "fallen": [],
        "rolls": [],
        "outcome": None,
    }


def initial_state(setup: Payload) -> EldritchState:
    """The state before any event: the first game on the table, no game logged yet."""
    if not isinstance(setup, dict):
        raise CommandError(_("The set-up does not fit this game."))
    game = new_game(setup.get("game"))
    # No name nor archived flag: the campaign adds them.
    return {"next_id": 100, "game": game, "games": [], "pick": None}


def resolve_start(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    payload = {"game": data_["game"]}
    ancient = data_["game"].get("ancient_one") if isinstance(data_["game"], dict) else None
    if isinstance(ancient, str) and names.for_history(state, ancient) != ancient:
        payload["called"] = names.for_history(state, ancient)  # the group's name, for the history
    return payload


def apply_start(state: EldritchState, payload: Payload) -> None:
    state["game"] = new_game(payload.get("game"))


def describe_start(payload: Payload) -> str:
    game = payload.get("game")
    game = game if isinstance(game, dict) else {}
    name = payload.get("called") or game.get("ancient_one", "?")
    return _("New game against %(name)s") % {"name": name}


COMMANDS = (
    Command(
        "eh.start",
        SetupForm,
        apply_start,
        describe_start,
        resolve_start,
        stale_check=True,
        regions=REGIONS,
        needs_connection=True,
    ),
)
