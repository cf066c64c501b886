"""The shapes of the requests: the set-up form and one small form per command.

Forms check types and lengths; the rules (what fits the campaign as it is) are checked in
commands.py, by the same apply() that replay and import run.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from campaigns.games.aeonsend import data

NOT_NEGATIVE = {"min_value": _("Life left cannot be negative.")}


def player_fields(number: int) -> dict[str, forms.Field]:
    return {
        f"p{number}_player": forms.CharField(
            label=_("Player's name"), max_length=data.NAME_LENGTH, required=False
        ),
        f"p{number}_character": forms.CharField(
            label=_("Character's name"),
            max_length=data.NAME_LENGTH,
            required=False,
            help_text=_("As written on the mat and on the turn order cards."),
        ),
        f"p{number}_mat": forms.CharField(
            label=_("Mat"), max_length=data.NAME_LENGTH, required=False
        ),
        f"p{number}_side": forms.ChoiceField(
            label=_("Side"), choices=list(data.SIDES.items()), required=False
        ),
        f"p{number}_colour": forms.ChoiceField(
            label=_("Colour"), choices=list(data.COLOURS.items()), required=False
        ),
    }


class SetupForm(forms.Form):
    """The players, fixed for the whole campaign: 1 to 4, each with a character on a mat."""

    template_name_p = "games/aeonsend-setup.html"

    def as_p(self) -> str:
        # The project's templates, not the form renderer's (which sees only the apps' ones).
        return mark_safe(render_to_string(self.template_name_p, {"form": self}))

    player_count = forms.IntegerField(
        label=_("Number of players"),
        min_value=data.MIN_PLAYERS,
        max_value=data.MAX_PLAYERS,
        initial=2,
        widget=forms.Select(choices=[(n, n) for n in range(1, data.MAX_PLAYERS + 1)]),
        help_text=_("Fixed for the whole campaign: players cannot be added later."),
        error_messages={
            "min_value": _("A campaign is for 1 to 4 players."),
            "max_value": _("A campaign is for 1 to 4 players: there is no fifth."),
            "invalid": _("A campaign is for 1 to 4 players."),
        },
    )
    solo = forms.BooleanField(
        label=_("One person plays every mage (solo rules)"),
        required=False,
        help_text=_("With solo rules the game is lost only when Gravehold falls."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, data.MAX_PLAYERS + 1):
            self.fields.update(player_fields(number))
            self.fields[f"p{number}_colour"].initial = list(data.COLOURS)[number - 1]

    def player_groups(self) -> list[dict[str, Any]]:
        """The player fieldsets, for the template."""
        groups = []
        for number in range(1, data.MAX_PLAYERS + 1):
            names = list(player_fields(number))
            bound = [self[name] for name in names]
            groups.append(
                {
                    "number": number,
                    "fields": bound,
                    "optional": number > 2,
                    "open": number <= 2
                    or any(self.data.get(name) for name in names[:2])
                    or any(field.errors for field in bound),
                }
            )
        return groups

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        extra = {
            int(match.group(1))
            for key, value in self.data.items()
            if (match := re.fullmatch(r"p(\d{1,3})_\w+", key)) and str(value).strip()
        }
        if any(number > data.MAX_PLAYERS for number in extra):
            self.add_error(
                "player_count", _("A campaign is for 1 to 4 players: there is no fifth.")
            )
            return cleaned
        count = cleaned.get("player_count")
        if count is None:
            return cleaned
        players, seen, colours = [], set(), set()
        for number in range(1, count + 1):
            player = (cleaned.get(f"p{number}_player") or "").strip()
            character = (cleaned.get(f"p{number}_character") or "").strip()
            if not player:
                self.add_error(f"p{number}_player", _("Type this player's name."))
            if not character:
                self.add_error(f"p{number}_character", _("Type the character's name."))
            elif "/" in character:
                self.add_error(f"p{number}_character", _("A character's name cannot contain “/”."))
            elif character.casefold() in ("wild", "nemesis"):
                self.add_error(f"p{number}_character", _("That is the name of a turn order card."))
            elif character.casefold() in seen:
                self.add_error(
                    f"p{number}_character", _("Two characters cannot have the same name.")
                )
            seen.add(character.casefold())
            colour = cleaned.get(f"p{number}_colour") or list(data.COLOURS)[number - 1]
            if colour in colours:
                self.add_error(
                    f"p{number}_colour", _("Each character needs a colour of their own.")
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
                    _("You named player %(n)d: raise the number of players, or clear it.")
                    % {"n": number},
                )
        if self.errors:
            return cleaned
        return {"players": players, "solo": bool(cleaned.get("solo")) or count == 1}


# Fields that take several values (checkboxes with one name).


class ValuesField(forms.Field):
    """Several short texts posted under one name (ticked checkboxes)."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, max_items: int = 30, max_length: int = data.CARD_LENGTH, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.max_items, self.max_length = max_items, max_length

    def to_python(self, value: Any) -> list[str]:
        if value in (None, ""):
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or len(value) > self.max_items:
            raise forms.ValidationError(_("Too many ticked."))
        items = []
        for item in value:
            if not isinstance(item, str) or len(item) > self.max_length or "\x00" in item:
                raise forms.ValidationError(_("That is not one of the choices."))
            if item.strip() and item.strip() not in items:
                items.append(item.strip())
        return items


class LinesField(forms.CharField):
    """A textarea, one item a line."""

    def __init__(self, *, max_items: int, item_length: int = data.CARD_LENGTH, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 4}))
        kwargs.setdefault("max_length", (item_length + 2) * max_items)
        super().__init__(**kwargs)
        self.max_items, self.item_length = max_items, item_length

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        items = [line.strip() for line in text.splitlines() if line.strip()]
        if len(items) > self.max_items:
            raise forms.ValidationError(_("At most %(n)d lines.") % {"n": self.max_items})
        if any(len(item) > self.item_length for item in items):
            raise forms.ValidationError(
                _("Keep each line to %(n)d characters.") % {"n": self.item_length}
            )
        return items


def optional_game() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Game"),
        required=False,
        min_value=0,
        max_value=data.MAX_ROWS,
        error_messages={"min_value": _("A game number cannot be negative.")},
    )


# The campaign record


class ChapterForm(forms.Form):
    to = forms.ChoiceField(label=_("Move on to"), choices=[(p, p) for p in data.POINTS])


class StickersForm(forms.Form):
    letters = ValuesField(label=_("Stickers"), max_items=26, max_length=3)
    game = optional_game()


class StickerForm(forms.Form):
    letter = forms.CharField(label=_("Sticker"), max_length=3)
    applied = forms.BooleanField(label=_("Applied"), required=False)
    game = optional_game()
    text = forms.CharField(label=_("Text"), max_length=data.TEXT_LENGTH, required=False)
    timing = forms.ChoiceField(
        label=_("Unlocks"), choices=[("", "?"), *((p, p) for p in data.POINTS)], required=False
    )


class SealForm(forms.Form):
    key = forms.ChoiceField(label=_("Sealed item"), choices=[(k, k) for k in data.SEALED])
    opened = forms.BooleanField(label=_("Opened"), required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class LegacyForm(forms.Form):
    card = forms.CharField(label=_("Last Legacy card read"), max_length=8)


class BanishForm(forms.Form):
    text = forms.CharField(label=_("Card (name or number)"), max_length=data.CARD_LENGTH)
    game = optional_game()
    reason = forms.CharField(label=_("Why"), max_length=200, required=False)


class ItemForm(forms.Form):
    item = forms.IntegerField(min_value=1)


class RestoreForm(ItemForm):
    reason = forms.CharField(label=_("Why"), max_length=200, required=False)


class SupplyForm(forms.Form):
    piles = LinesField(label=_("Supply piles"), max_items=data.SUPPLY_PILES, required=False)


class PresentForm(forms.Form):
    piles = LinesField(label=_("Presented piles"), max_items=12)


class UpgradeForm(forms.Form):
    add = ValuesField(label=_("Piles to add"), max_items=12)
    banish = ValuesField(label=_("Piles to banish"), max_items=12)
    game = optional_game()


class EmptyForm(forms.Form):
    pass


class MageForm(forms.Form):
    player = forms.IntegerField(min_value=0, max_value=data.MAX_PLAYERS - 1)
    kind = forms.ChoiceField(label=_("Kind"), choices=list(data.MAGE_NOTES.items()))
    text = forms.CharField(label=_("What"), max_length=200)
    game = optional_game()


class MageRemoveForm(ItemForm):
    player = forms.IntegerField(min_value=0, max_value=data.MAX_PLAYERS - 1)


# The score chart


def life_field(label, high: int, required: bool = True) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=0,
        max_value=high,
        error_messages=NOT_NEGATIVE,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": high}),
    )


class ScoreForm(forms.Form):
    date = forms.DateField(label=_("Date"))
    chapter = forms.IntegerField(label=_("Chapter"), min_value=1, max_value=data.MAX_CHAPTER)
    nemesis = forms.CharField(label=_("Nemesis"), max_length=data.NAME_LENGTH)
    result = forms.ChoiceField(label=_("Result"), choices=list(data.RESULTS.items()))
    gravehold = life_field(_("Gravehold's life left"), data.MAX_GRAVEHOLD_LIFE)
    nemesis_life = life_field(_("The nemesis's life left"), data.MAX_NEMESIS_LIFE)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        required=False,
        min_value=0,
        max_value=999,
        error_messages={"min_value": _("The number of rounds cannot be negative.")},
    )
    notes = forms.CharField(label=_("Notes"), max_length=data.TEXT_LENGTH, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, data.MAX_PLAYERS + 1):
            self.fields[f"life_{number}"] = life_field(
                _("Player %(n)d's life left") % {"n": number}, data.MAX_PLAYER_LIFE, False
            )


# At the table


class StartForm(forms.Form):
    nemesis = forms.CharField(label=_("Nemesis"), max_length=data.NAME_LENGTH)
    nemesis_life = forms.IntegerField(
        label=_("The nemesis's life (from its mat)"), min_value=1, max_value=data.MAX_NEMESIS_LIFE
    )
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), choices=list(data.DIFFICULTIES.items()), required=False
    )


class LifeForm(forms.Form):
    who = forms.CharField(label=_("Who"), max_length=12)
    delta = forms.IntegerField(label=_("Amount"), min_value=-99, max_value=99)
    sign = forms.ChoiceField(
        choices=[("", ""), ("damage", "damage"), ("heal", "heal")], required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        delta = cleaned.get("delta")
        if delta is not None and cleaned.get("sign") in ("damage", "heal"):
            # The amount form posts a positive number and which button was pressed.
            delta = abs(delta) * (-1 if cleaned["sign"] == "damage" else 1)
        cleaned["delta"] = delta
        cleaned.pop("sign", None)
        return cleaned


class CardForm(forms.Form):
    card = forms.CharField(label=_("Card"), max_length=data.NAME_LENGTH * 2 + 1)


class ChooseForm(forms.Form):
    name = forms.CharField(label=_("Who"), max_length=data.NAME_LENGTH)


# Outside the campaign


class OwnCardForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=data.CARD_LENGTH)
    kind = forms.ChoiceField(label=_("Type"), choices=list(data.CARD_TYPES.items()))
    cost = forms.IntegerField(label=_("Cost"), min_value=0, max_value=data.MAX_CARD_COST)


class RandomizeForm(forms.Form):
    gems = forms.IntegerField(label=_("Gems"), min_value=0, max_value=data.SUPPLY_PILES)
    relics = forms.IntegerField(label=_("Relics"), min_value=0, max_value=data.SUPPLY_PILES)
    spells = forms.IntegerField(label=_("Spells"), min_value=0, max_value=data.SUPPLY_PILES)
    gem3 = forms.BooleanField(label=_("At least one gem costing 3"), required=False)


class LockForm(ItemForm):
    locked = forms.BooleanField(required=False)


class ChartForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for players in data.NEMESIS_CHART:
            for tier in data.TIERS:
                self.fields[f"c{players}_{tier}"] = forms.IntegerField(
                    label=_("%(p)d players, tier %(t)d") % {"p": players, "t": tier},
                    min_value=0,
                    max_value=data.MAX_CHART_CELL,
                )


class NemesisCardForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=data.CARD_LENGTH)
    tier = forms.IntegerField(label=_("Tier"), min_value=1, max_value=3)


class BuildForm(forms.Form):
    players = forms.IntegerField(
        label=_("Players"), min_value=data.MIN_PLAYERS, max_value=data.MAX_PLAYERS
    )
