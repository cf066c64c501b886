"""Names as the group's cards print them (issue 20): the Ancient Ones and investigators keep the
name our data knows them by (their key, which the rules and the log use), and each reads on the
page as the group calls it, else as a localized edition prints it, else by that key.

``names.json`` beside this file holds the names a localized edition prints that public sources
quote (the Japanese edition's, each with its sources); nothing is translated or invented, so most
read in English until the group names them. The group names one once for the whole campaign
(``eh.rename``): ``names`` in the state, by key; every phone and the history then read it so.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_str
from campaigns.fields import TextField
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS
from campaigns.games.eldritch.state import EldritchState


class Printed(TypedDict):
    """names.json: by our data's name, the names editions print, by language ("ja", …), with
    their sources (its `_about` aside)."""

    ancient_ones: dict[str, dict[str, object]]
    investigators: dict[str, dict[str, object]]


PRINTED: Printed = json.loads((Path(__file__).with_name("names.json")).read_text("utf-8"))
MAX_NAMES = 500


def language() -> str:
    """The reader's language as ``names.json`` keys it."""
    code = (translation.get_language() or "en").lower()
    if code.startswith("zh"):
        return "zh-Hant" if code.startswith("zh-hant") or code in ("zh-tw", "zh-hk") else "zh-Hans"
    return code.split("-")[0]


def printed(key: str) -> str:
    """An Ancient One's or investigator's name as the reader's edition prints it, if known."""
    entry = PRINTED["ancient_ones"].get(key) or PRINTED["investigators"].get(key) or {}
    return str(entry.get(language()) or key)


def own(state: EldritchState) -> dict[str, str]:
    names = state.get("names")
    return names if isinstance(names, dict) else {}


def shown(state: EldritchState, key: str) -> str:
    """The name on the page: the group's own, else the reader's edition's, else the key."""
    return own(state).get(key) or printed(key)


def shower(state: EldritchState) -> Callable[[str], str]:
    return lambda key: shown(state, key)


def for_history(state: EldritchState, key: str) -> str:
    """The name an event stores for the history: the group's own, else the key (the history
    is read in every language, so not one reader's edition)."""
    return own(state).get(key) or key


def known(state: EldritchState) -> list[str]:
    """Every Ancient One and investigator of the campaign: this game's and the logged ones'."""
    keys: list[str] = []
    game = state.get("game")
    if isinstance(game, dict):
        keys += [game["ancient_one"], *(p["name"] for p in game["investigators"])]
        keys += game["fallen"]
    for logged in state.get("games", []):
        keys += [logged["ancient_one"], *logged["investigators"]]
    return list(dict.fromkeys(keys))


def normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def resolve_rename(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    key = payload.get("key")
    payload["old"] = for_history(state, key) if isinstance(key, str) else ""
    return payload


def apply_rename(state: EldritchState, payload: Payload) -> None:
    """Only the name: the Ancient One's doom and deck and the investigator's health, sanity
    and skills stay the data's, found by the key."""
    key = need_str(payload, "key", data.NAME_LENGTH)
    if key not in known(state):
        raise CommandError(_("That name is not in this campaign."), "key")
    called = need_str(payload, "called", data.NAME_LENGTH, blank=True).strip()
    names = state.setdefault("names", {})
    if not called or called == key:
        names.pop(key, None)
        return
    for other in known(state):
        if other != key and normal(names.get(other) or other) == normal(called):
            raise CommandError(
                _("Another one of this campaign is already called %(name)s.") % {"name": called},
                "called",
            )
    if key not in names and len(names) >= MAX_NAMES:
        raise CommandError(_("That is more names than a campaign keeps."), "called")
    names[key] = called


def describe_rename(p: Payload) -> str:
    called = str(p.get("called") or "").strip()
    if not called:
        return _("%(old)s is called by the card's name again") % {"old": p.get("old", "")}
    return _("%(old)s is now called %(name)s") % {"old": p.get("old", ""), "name": called}


class RenameForm(forms.Form):
    key = TextField(max_length=data.NAME_LENGTH, widget=forms.HiddenInput)
    called = TextField(
        label=gettext_lazy("Your group's name"),
        max_length=data.NAME_LENGTH,
        required=False,
        help_text=gettext_lazy(
            "As your cards print it: every phone, the history and the table display show it. "
            "Empty: the card's name again."
        ),
    )


COMMANDS = (
    Command(
        "eh.rename",
        RenameForm,
        apply_rename,
        describe_rename,
        resolve_rename,
        regions=REGIONS,
    ),
)
