"""The legacy record: the chapter and the rulebook stickers A–Z it unlocks, the sealed boxes,
decks and envelopes, the Legacy deck, and the mages' upgrades and equipment.

State: ``chapter`` ("1-beginning" … "8-end"), ``stickers`` ({"A": {timing, applied, game,
text}, …}), ``sealed`` ({"stop-Ic": {opened, point, game, note}, …}), ``legacy`` ({last,
read}) and each player's ``notes``.
"""

from __future__ import annotations

import random
import re
import unicodedata
from typing import TypedDict

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django_stubs_ext import StrOrPromise

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.common import (
    ItemForm,
    ValuesField,
    find,
    games_played,
    need_opt_game,
    optional_game,
    with_info,
)
from campaigns.games.aeonsend.state import AeonsEndState, Player
from campaigns.words import joined


def point_label(value: str | None) -> str:
    """“end of Chapter 2”, in the reader's language."""
    if not isinstance(value, str) or value not in data.POINTS:
        return _("unknown")
    chapter, stage = value.split("-")
    if stage == "beginning":
        return _("beginning of Chapter %(n)s") % {"n": chapter}
    return _("end of Chapter %(n)s") % {"n": chapter}


# The chapter


class ChapterForm(forms.Form):
    to = forms.ChoiceField(
        label=gettext_lazy("Move on to"),
        choices=[(p, p) for p in data.POINTS],
        widget=forms.HiddenInput,
    )


def apply_chapter(state: AeonsEndState, payload: Payload) -> None:
    to = commands.need_choice(payload, "to", data.POINTS)
    index = data.POINTS.index(state["chapter"])
    if index + 1 >= len(data.POINTS) or data.POINTS[index + 1] != to:
        following = data.POINTS[index + 1] if index + 1 < len(data.POINTS) else None
        raise CommandError(
            _("The campaign is at the %(now)s: it can only move on to the %(next)s.")
            % {"now": point_label(state["chapter"]), "next": point_label(following)},
            "to",
        )
    state["chapter"] = to


def describe_chapter(p: Payload) -> str:
    to = p.get("to")
    return _("Moved on to the %(point)s") % {
        "point": point_label(to if isinstance(to, str) else None)
    }


# Stickers


class StickersForm(forms.Form):
    letters = ValuesField(label=gettext_lazy("Stickers"), max_items=26, max_length=3)
    game = optional_game(gettext_lazy("Applied after game"))


def need_letter(payload: Payload, key: str = "letter") -> str:
    value = payload.get(key)
    letter = value.strip().upper() if isinstance(value, str) else ""
    if len(letter) != 1 or letter not in data.LETTERS:
        shown = value[:5] if isinstance(value, str) else "?"
        raise CommandError(
            _("There is no sticker slot “%(letter)s”: the slots run from A to Z.")
            % {"letter": shown},
            key,
        )
    return letter


def apply_stickers(state: AeonsEndState, payload: Payload) -> None:
    letters = payload.get("letters")
    if not isinstance(letters, list) or not letters:
        raise CommandError(_("Tick at least one sticker."), "letters")
    if len(letters) > len(data.LETTERS):
        raise CommandError(_("Too many stickers."), "letters")
    game = need_opt_game(payload)
    seen = []
    for value in letters:
        letter = need_letter({"letters": value}, "letters")
        if letter in seen:
            raise CommandError(_("Sticker %(letter)s is ticked twice.") % {"letter": letter})
        seen.append(letter)
    here = data.POINTS.index(state["chapter"])
    for letter in seen:
        if state["stickers"][letter]["applied"]:
            raise CommandError(
                _("Sticker %(letter)s is already applied.") % {"letter": letter}, "letters"
            )
        timing = state["stickers"][letter]["timing"]
        if timing is not None and data.POINTS.index(timing) > here:
            # The due list applies what has unlocked; a later sticker waits for its point.
            raise CommandError(
                _("Sticker %(letter)s unlocks at %(point)s, later than where the campaign is.")
                % {"letter": letter, "point": point_label(timing)},
                "letters",
            )
    for letter in seen:
        sticker = state["stickers"][letter]
        sticker["applied"], sticker["game"] = True, game


def resolve_stickers(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    letters = [
        letter.strip().upper() if isinstance(letter, str) else letter
        for letter in commands.need_list(values, "letters")
    ]
    return {"letters": letters, "game": values.get("game")}


def describe_stickers(p: Payload) -> str:
    letters = p.get("letters") or []
    return _("Applied the stickers %(letters)s") % {"letters": joined(letters)}


def timing_choices() -> list[tuple[str, str]]:
    return [("", _("unknown")), *((p, point_label(p)) for p in data.POINTS)]


class StickerForm(forms.Form):
    letter = TextField(label=gettext_lazy("Sticker"), max_length=3, widget=forms.HiddenInput)
    applied = forms.BooleanField(label=gettext_lazy("Applied"), required=False)
    game = optional_game(gettext_lazy("In game"))
    timing = forms.ChoiceField(
        label=gettext_lazy("Unlocks"), choices=timing_choices, required=False
    )
    text = TextField(
        label=gettext_lazy("Your note of the sticker (optional)"),
        max_length=data.TEXT_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def apply_sticker(state: AeonsEndState, payload: Payload) -> None:
    letter = need_letter(payload)
    sticker = state["stickers"][letter]
    applied = commands.need_bool(payload, "applied")
    game = need_opt_game(payload)
    text = commands.need_str(payload, "text", data.TEXT_LENGTH, blank=True).strip()
    timing = payload.get("timing") or None
    if timing is not None:
        timing = commands.need_choice(payload, "timing", data.POINTS)
    if letter in data.STICKER_TIMING:
        if timing not in (None, data.STICKER_TIMING[letter]):
            raise CommandError(
                _(
                    "The rulebook says when sticker %(letter)s unlocks; only the timing of "
                    "F, G, H, I and V can be set."
                )
                % {"letter": letter},
                "timing",
            )
        timing = data.STICKER_TIMING[letter]
    sticker["applied"], sticker["game"] = applied, game if applied else None
    sticker["text"], sticker["timing"] = text, timing


def resolve_sticker(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    payload = dict(values)
    payload["letter"] = need_letter(payload)
    return payload


def describe_sticker(p: Payload) -> str:
    if p.get("applied"):
        return _("Sticker %(letter)s: applied") % {"letter": p.get("letter")}
    return _("Sticker %(letter)s: not applied") % {"letter": p.get("letter")}


# Sealed contents and the Legacy deck


class SealForm(forms.Form):
    key = forms.ChoiceField(
        label=gettext_lazy("Sealed item"),
        choices=[(k, k) for k in data.SEALED],
        widget=forms.HiddenInput,
    )
    opened = forms.BooleanField(
        label=gettext_lazy("Opened"), required=False, widget=forms.HiddenInput
    )
    note = TextField(label=gettext_lazy("Note"), max_length=200, required=False)


SEALED_NAMES = {
    "stop": gettext_noop("Stop deck %(x)s"),
    "box": gettext_noop("Box %(x)s"),
    "envelope": gettext_noop("Chapter %(x)s envelope"),
    "insight": gettext_noop("Insight page %(x)s"),
}


def sealed_label(key: object) -> str:
    """“Box A”, in the reader's language (the pages name 29 sealed items each time)."""
    kind, label = data.SEALED.get(str(key), ("", "?"))
    return _(SEALED_NAMES.get(kind, "%(x)s")) % {"x": label}


def apply_seal(state: AeonsEndState, payload: Payload) -> None:
    key = commands.need_choice(payload, "key", data.SEALED)
    opened = commands.need_bool(payload, "opened")
    note = commands.need_str(payload, "note", 200, blank=True).strip()
    item = state["sealed"][key]
    if item["opened"] == opened and not note:
        message = _("%(item)s is already opened.") if opened else _("%(item)s is still sealed.")
        raise CommandError(message % {"item": sealed_label(key)}, "key")
    if opened and not item["opened"]:
        item["point"], item["game"] = state["chapter"], games_played(state)
    if not opened:
        item["point"], item["game"] = None, None
    item["opened"], item["note"] = opened, note


def describe_seal(p: Payload) -> str:
    template = _("Opened %(item)s") if p.get("opened") else _("Marked %(item)s as sealed")
    return template % {"item": sealed_label(p.get("key"))}


class LegacyForm(forms.Form):
    card = TextField(
        label=gettext_lazy("Card just read"),
        max_length=8,
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "placeholder": "L02"}),
    )

    def clean_card(self) -> str:
        """A deck's letter and the card's number, as the cards are numbered (L02, E07). Checked
        when a phone sends it; a history kept before (any letters and digits) still replays."""
        card = clean_card_number(self.cleaned_data["card"])
        if not re.fullmatch(r"[A-Z][0-9]{1,3}", card):
            raise forms.ValidationError(_("Type a card number such as L02."))
        return card


def clean_card_number(value: object) -> str:
    """The number as the card prints it: "l 02" and the full-width "Ｌ０２" a Japanese or
    Chinese keyboard types read L02."""
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFKC", value).strip().upper().replace(" ", "")


def apply_legacy(state: AeonsEndState, payload: Payload) -> None:
    card = clean_card_number(commands.need_str(payload, "card", 8))
    if not (1 <= len(card) <= 6 and card[0].isalpha() and card.isalnum() and card.isascii()):
        raise CommandError(_("Type a card number such as L02."), "card")
    legacy = state["legacy"]
    if legacy["last"] == data.ERRATUM_FROM and card == data.ERRATUM_WRONG:
        raise CommandError(
            _("Errata: after %(e)s read the front of %(right)s, not %(wrong)s.")
            % {"e": data.ERRATUM_FROM, "right": data.ERRATUM_RIGHT, "wrong": data.ERRATUM_WRONG},
            "card",
        )
    if len(legacy["read"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "card")
    legacy["last"] = card
    legacy["read"].append(card)


def describe_legacy(p: Payload) -> str:
    return _("Read Legacy card %(card)s") % {"card": clean_card_number(p.get("card"))}


# Mages


class MageForm(forms.Form):
    player = forms.IntegerField(
        label=gettext_lazy("Mage"), min_value=0, max_value=data.MAX_PLAYERS - 1
    )
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=list(data.MAGE_NOTES.items()))
    text = TextField(label=gettext_lazy("What"), max_length=200)
    game = optional_game()


class MageRemoveForm(ItemForm):
    player = forms.IntegerField(
        min_value=0, max_value=data.MAX_PLAYERS - 1, widget=forms.HiddenInput
    )


def player_at(state: AeonsEndState, payload: Payload) -> Player:
    index = commands.need_int(payload, "player", 0, data.MAX_PLAYERS - 1)
    if index >= len(state["players"]):
        # The mage is picked from a list of the campaign's: a message for the whole region.
        raise CommandError(_("There is no such player in this campaign."))
    return state["players"][index]


def apply_mage(state: AeonsEndState, payload: Payload) -> None:
    mage = player_at(state, payload)
    if len(mage["notes"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "text")
    mage["notes"].append(
        {
            "id": commands.next_id(state),
            "kind": commands.need_choice(payload, "kind", data.MAGE_NOTES),
            "text": commands.need_str(payload, "text", 200).strip(),
            "game": need_opt_game(payload),
        }
    )


def apply_mage_remove(state: AeonsEndState, payload: Payload) -> None:
    mage = player_at(state, payload)
    mage["notes"].remove(find(mage["notes"], payload))


def add_character(state: AeonsEndState, payload: Payload) -> None:
    index = payload.get("player")
    players = state["players"]
    player = players[index] if isinstance(index, int) and 0 <= index < len(players) else None
    payload["character"] = player["character"] if player else ""
    if player and "item" in payload:
        note = next((n for n in player["notes"] if n["id"] == payload["item"]), None)
        payload["text"] = note["text"] if note else ""


def describe_mage(p: Payload) -> str:
    return _("%(character)s: wrote down “%(text)s”") % {
        "character": p.get("character"),
        "text": p.get("text"),
    }


def describe_mage_remove(p: Payload) -> str:
    return _("%(character)s: crossed out “%(text)s”") % {
        "character": p.get("character"),
        "text": p.get("text"),
    }


COMMANDS = (
    Command("ae.chapter", ChapterForm, apply_chapter, describe_chapter),
    Command(
        "ae.stickers", StickersForm, apply_stickers, describe_stickers, resolve=resolve_stickers
    ),
    Command(
        "ae.sticker",
        StickerForm,
        apply_sticker,
        describe_sticker,
        resolve=resolve_sticker,
        stale_check=True,
    ),
    Command("ae.seal", SealForm, apply_seal, describe_seal),
    Command("ae.legacy", LegacyForm, apply_legacy, describe_legacy),
    Command("ae.mage", MageForm, apply_mage, describe_mage, resolve=with_info(add_character)),
    Command(
        "ae.mage_remove",
        MageRemoveForm,
        apply_mage_remove,
        describe_mage_remove,
        resolve=with_info(add_character),
    ),
)


# What the pages show


def chapter_view(state: AeonsEndState) -> dict[str, object]:
    here = state["chapter"]
    index = data.POINTS.index(here)
    stickers = state["stickers"]

    def unlocking(at: str) -> list[str]:
        return [letter for letter in data.LETTERS if stickers[letter]["timing"] == at]

    following = data.POINTS[index + 1] if index + 1 < len(data.POINTS) else None
    due = [letter for letter in unlocking(here) if not stickers[letter]["applied"]]
    earlier = [
        letter
        for letter in data.LETTERS
        if stickers[letter]["timing"] in data.POINTS[:index] and not stickers[letter]["applied"]
    ]
    return {
        "point": here,
        "label": point_label(here),
        "number": int(here.split("-")[0]),
        "unlocks": unlocking(here),
        "due": due,
        "earlier": earlier,
        "next": {
            "point": following,
            "label": point_label(following),
            "unlocks": unlocking(following),
        }
        if following
        else None,
        "unknown": [letter for letter in data.UNKNOWN_TIMING if stickers[letter]["timing"] is None],
    }


def sticker_rows(state: AeonsEndState) -> list[dict[str, object]]:
    rows = []
    for letter in data.LETTERS:
        sticker = state["stickers"][letter]
        section = data.STICKER_SECTION.get(letter)
        rows.append(
            {
                "letter": letter,
                **sticker,
                "timing_label": point_label(sticker["timing"]) if sticker["timing"] else "",
                "printed": letter in data.STICKER_TIMING,
                "section": data.SECTIONS[section] if section else "",
                "note": data.STICKER_NOTES.get(letter, ""),
            }
        )
    return rows


class SealedGroup(TypedDict):
    """A kind of sealed content as the page lists it, with how many of it were opened."""

    kind: str
    label: StrOrPromise
    items: list[dict[str, object]]
    opened: int


def sealed_groups(state: AeonsEndState) -> list[SealedGroup]:
    groups: dict[str, SealedGroup] = {
        kind: {"kind": kind, "label": label, "items": [], "opened": 0}
        for kind, label in data.SEALED_KINDS.items()
    }
    for key, (kind, _label) in data.SEALED.items():
        item = state["sealed"][key]
        groups[kind]["items"].append(
            {
                "key": key,
                "label": sealed_label(key),
                **item,
                "point_label": point_label(item["point"]) if item["point"] else "",
            }
        )
        groups[kind]["opened"] += item["opened"]
    return list(groups.values())


def mages_view(state: AeonsEndState) -> list[dict[str, object]]:
    return [
        {
            **p,
            "index": index,
            "side_label": data.SIDES[p["side"]],
            "colour_label": data.COLOURS[p["colour"]],
            "notes": [{**note, "kind_label": data.MAGE_NOTES[note["kind"]]} for note in p["notes"]],
        }
        for index, p in enumerate(state["players"])
    ]
