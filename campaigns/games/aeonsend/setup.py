"""A new campaign: the players, fixed for the whole campaign, and the state before any event."""

from __future__ import annotations

import re

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import (
    CommandError,
    Payload,
    need_choice,
    need_str,
)
from campaigns.engines import turn_order
from campaigns.fields import TextField
from campaigns.games.aeonsend import cards, data
from campaigns.games.aeonsend.state import AeonsEndState, Player
from campaigns.games.aeonsend.turns import engine_message
from campaigns.games.built_form import BuiltForm


def player_fields(number: int) -> dict[str, forms.Field]:
    return {
        f"p{number}_player": TextField(
            label=gettext_lazy("Player's name"), max_length=data.NAME_LENGTH, required=False
        ),
        f"p{number}_character": TextField(
            label=gettext_lazy("Character's name"),
            max_length=data.NAME_LENGTH,
            required=False,
            help_text=gettext_lazy("As written on the mat and on the turn order cards."),
        ),
        f"p{number}_mat": TextField(
            label=gettext_lazy("Mat"),
            max_length=data.NAME_LENGTH,
            required=False,
            help_text=gettext_lazy("Pick a mage, or type the mat's name."),
            widget=forms.TextInput(attrs={"list": "ae-mages", "autocomplete": "off"}),
        ),
        f"p{number}_side": forms.ChoiceField(
            label=gettext_lazy("Side"), choices=list(data.SIDES.items()), required=False
        ),
        f"p{number}_colour": forms.ChoiceField(
            label=gettext_lazy("Colour"), choices=list(data.COLOURS.items()), required=False
        ),
    }


class SetupForm(BuiltForm):
    """The players, fixed for the whole campaign: 1 to 4, each with a character on a mat."""

    template_name_p = "games/aeonsend/setup.html"

    def as_p(self) -> SafeString:
        # The project's templates, not the form renderer's (which sees only the apps' ones).
        return mark_safe(render_to_string(self.template_name_p, {"form": self}))

    player_count = forms.IntegerField(
        label=gettext_lazy("Number of players"),
        min_value=data.MIN_PLAYERS,
        max_value=data.MAX_PLAYERS,
        initial=2,
        # (the players' fieldsets shown follow it: static/css/site.css's pick-count rules)
        widget=forms.Select(
            attrs={"class": "pick-count"},
            choices=[(n, n) for n in range(1, data.MAX_PLAYERS + 1)],
        ),
        help_text=gettext_lazy("Fixed for the whole campaign: players cannot be added later."),
        error_messages={
            "min_value": gettext_lazy("A campaign is for 1 to 4 players."),
            "max_value": gettext_lazy("A campaign is for 1 to 4 players: there is no fifth."),
            "invalid": gettext_lazy("A campaign is for 1 to 4 players."),
        },
    )
    solo = forms.BooleanField(
        label=gettext_lazy("One person plays every mage (solo rules)"),
        required=False,
        help_text=gettext_lazy("With solo rules the game is lost only when Gravehold falls."),
    )

    def add_fields(self) -> None:
        for number in range(1, data.MAX_PLAYERS + 1):
            self.fields.update(player_fields(number))
            self.fields[f"p{number}_colour"].initial = list(data.COLOURS)[number - 1]

    def mages(self) -> list[str]:
        """The mages to pick from: Aeon's End: Legacy's own (cards.py)."""
        return cards.mages(None)

    def player_groups(self) -> list[dict[str, object]]:
        """The player fieldsets, for the template."""
        groups = []
        for number in range(1, data.MAX_PLAYERS + 1):
            names = list(player_fields(number))
            bound = [self[name] for name in names]
            groups.append({"number": number, "fields": bound, "optional": number > 2})
        return groups

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        extra = {
            int(match.group(1))
            for key, value in self.data.items()
            if (match := re.fullmatch(r"p(\d{1,3})_\w+", key)) and str(value).strip()
        }
        if any(number > data.MAX_PLAYERS for number in extra):
            self.add_error(
                "player_count", gettext_lazy("A campaign is for 1 to 4 players: there is no fifth.")
            )
            return cleaned
        count = cleaned.get("player_count")
        if count is None:
            return cleaned
        players: list[dict[str, str]] = []
        seen: list[str] = []
        colours: set[str] = set()
        for number in range(1, count + 1):
            player = (cleaned.get(f"p{number}_player") or "").strip()
            character = (cleaned.get(f"p{number}_character") or "").strip()
            # (a field that refused what was typed, too long, has its message: no second one)
            if not player and not self.has_error(f"p{number}_player"):
                self.add_error(f"p{number}_player", gettext_lazy("Type this player's name."))
            try:
                # The character's name goes on turn order cards: the deck's own rules check it.
                turn_order.check_name(character, seen)
            except turn_order.TurnOrderError as error:
                if not self.has_error(f"p{number}_character"):
                    self.add_error(f"p{number}_character", engine_message(error))
            seen.append(character)
            colour = cleaned.get(f"p{number}_colour") or list(data.COLOURS)[number - 1]
            if colour in colours:
                self.add_error(
                    f"p{number}_colour", gettext_lazy("Each character needs a colour of their own.")
                )
            colours.add(colour)
            players.append(
                {
                    "player": player,
                    "character": character,
                    "mat": (cleaned.get(f"p{number}_mat") or "").strip(),
                    "side": cleaned.get(f"p{number}_side") or "front",
                    "colour": colour,
                }
            )
        for number in range(count + 1, data.MAX_PLAYERS + 1):
            if any(
                (cleaned.get(f"p{number}_{key}") or "").strip() for key in ("player", "character")
            ):
                self.add_error(
                    "player_count",
                    gettext_lazy(
                        "You named player %(n)d: raise the number of players, or clear it."
                    )
                    % {"n": number},
                )
        if self.errors:
            return cleaned
        # New campaigns pair four players on the two-colour cards by colour (older set-ups,
        # without this key, keep the seat pairs their events were drawn with).
        return {
            "players": players,
            "solo": bool(cleaned.get("solo")) or count == 1,
            "pair_by": "colour",
        }


def _setup_str(player: Payload, key: str, blank: bool = False) -> str:
    return need_str(player, key, data.NAME_LENGTH, blank=blank).strip()


def initial_state(setup: Payload) -> AeonsEndState:
    """The state before any event, from the players chosen at creation (checked: it may come
    from an imported file)."""
    players = setup.get("players")
    if not isinstance(players, list) or not data.MIN_PLAYERS <= len(players) <= data.MAX_PLAYERS:
        raise CommandError(_("A campaign is for 1 to 4 players."), "player_count")
    clean: list[Player] = []
    for player in players:
        if not isinstance(player, dict):
            raise CommandError(_("The set-up's players are damaged."))
        clean.append(
            {
                "player": _setup_str(player, "player"),
                "character": _setup_str(player, "character"),
                "mat": _setup_str(player, "mat", blank=True),
                "side": need_choice(player, "side", data.SIDES),
                "colour": need_choice(player, "colour", data.COLOURS),
                "notes": [],
            }
        )
    if len({p["colour"] for p in clean}) < len(clean):
        # Turn order cards go by colour: two characters of one colour could not be told apart.
        raise CommandError(_("Each character needs a colour of their own."), "player_count")
    solo = setup.get("solo", False)
    if not isinstance(solo, bool):
        raise CommandError(_("The set-up's solo choice is damaged."))
    pair_by = setup.get("pair_by", "seat")
    if pair_by not in ("seat", "colour"):
        raise CommandError(_("The set-up's players are damaged."))
    pairs = data.colour_pairs([p["colour"] for p in clean]) if pair_by == "colour" else None
    try:
        deck = turn_order.new_deck([p["character"] for p in clean], pairs)
    except turn_order.TurnOrderError as error:
        raise CommandError(
            _("The characters' names do not fit on turn order cards: %(why)s")
            % {"why": engine_message(error)}
        ) from None
    p_life, g_life, _n = data.DIFFICULTY_VALUES["standard"]
    state: AeonsEndState = {
        "next_id": 1,
        "players": clean,
        "solo": solo or len(clean) == 1,
        "chapter": data.FIRST_POINT,
        "stickers": {
            letter: {
                "timing": data.STICKER_TIMING.get(letter),
                "applied": False,
                "game": None,
                "text": "",
            }
            for letter in data.LETTERS
        },
        "sealed": {
            key: {"opened": False, "point": None, "game": None, "note": ""} for key in data.SEALED
        },
        "legacy": {"last": "", "read": []},
        "banished": [],
        "supply": [],
        "upgrade": None,
        "scores": [],
        "table": {
            "game": 0,
            "nemesis": "",
            "difficulty": "standard",
            "start": {"gravehold": g_life, "nemesis": 0, "player": p_life},
            "gravehold": g_life,
            "nemesis_life": 0,
            "lives": [p_life] * len(clean),
            "deck": deck,
        },
        "outside": {
            "cards": [],
            "supply": [],
            "locked": [],
            "chart": {str(n): list(tiers) for n, tiers in data.NEMESIS_CHART.items()},
            "nemesis_cards": [],
            "build": None,
        },
    }
    return state
