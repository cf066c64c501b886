"""What every tracker shares: the kinds, finding a tracker and an entry by the ids a phone sent,
the name as the reader sees it, the forms' common fields, and the describe helpers."""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, State, need_int

KINDS = {
    "counter": gettext_lazy("Counter"),
    "checklist": gettext_lazy("Checklist"),
    "list": gettext_lazy("List"),
    "notes": gettext_lazy("Notes log"),
    "results": gettext_lazy("Results table"),
    "dice": gettext_lazy("Dice roller"),
    "deck": gettext_lazy("Deck"),
    "turns": gettext_lazy("Turn tracker"),
    "timer": gettext_lazy("Timer"),
    "coin": gettext_lazy("Coin"),
}


RESULTS = {
    "win": gettext_lazy("Win"),
    "loss": gettext_lazy("Loss"),
    "other": gettext_lazy("Other"),
}


COUNTER_LIMIT = 1_000_000


MAX_TRACKERS = 50


MAX_ITEMS = 500


NAME_LENGTH = 60


TEXT_LENGTH = 1000


def shown(name: Any, shipped: Any = False) -> str:
    """A tracker's name as the reader sees it: the names a game ships (Doubt, Campaign Notes,
    Any game's Notes and Results) are stored in English, marked `shipped`, and read in the
    reader's language; a name the group typed is shown as typed, never translated."""
    if shipped is True and isinstance(name, str) and name:
        return _(name)
    return str(name or "")


def tracker(state: State, payload: Payload, kind: str) -> dict[str, Any]:
    tracker_id = need_int(payload, "tracker")
    for item in state.get("trackers", []):
        if item["id"] == tracker_id and item["kind"] == kind:
            return item
    raise CommandError(_("That tracker is not in this campaign any more."), "tracker")


def entry(container: dict[str, Any], key: str, payload: Payload) -> dict[str, Any]:
    entry_id = need_int(payload, "item")
    for item in container[key]:
        if item["id"] == entry_id:
            return item
    raise CommandError(_("That entry is not there any more."), "item")


def names(state: State) -> list[str]:
    return [t["name"] for t in state.get("trackers", [])]


# Phones with Japanese or Chinese keyboards type full-width punctuation and digits.
FULL_WIDTH = str.maketrans("：，、　－＋０１２３４５６７８９", ":,, -+0123456789")


# Fields the phone sends back unchanged (which tracker, which entry, +1 or −1) are hidden:
# `{% hidden_inputs %}` writes them from the form.
HIDDEN = forms.HiddenInput


NUMBER = {"inputmode": "numeric"}


def number_field(label: Any, required: bool = True) -> forms.IntegerField:
    """A whole number a counter may hold (within COUNTER_LIMIT either way), typed on a phone."""
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )


WHY = {"placeholder": gettext_lazy("Why (optional)")}


class TrackerForm(forms.Form):
    tracker = forms.IntegerField(min_value=1, widget=HIDDEN)


class ItemForm(TrackerForm):
    item = forms.IntegerField(min_value=1, widget=HIDDEN)


def with_name(kind: str):
    """A resolve step that copies the tracker's name (and the entry's text) into the payload,
    so the history reads in words even after the tracker is renamed or removed."""

    def resolve(state: State, data: Payload, rng: random.Random) -> Payload:
        payload = {key: value for key, value in data.items()}
        found = tracker(state, payload, kind)
        payload["name"] = found["name"]
        if found.get("shipped"):
            payload["shipped"] = True
        if "item" in payload:
            key = {"checklist": "items", "list": "items", "notes": "entries", "results": "rows"}[
                kind
            ]
            item = entry(found, key, payload)
            payload["label"] = item.get("label") or item.get("text") or item.get("date", "")
        if kind == "counter" and "delta" in payload:
            payload["to"] = found["value"] + payload["delta"]
        return payload

    return resolve


def words(template: str):
    """A describe function from a template of the payload's keys."""
    return lambda p: (
        _(template)
        % {
            "name": shown(p.get("name"), p.get("shipped")),
            **{key: p.get(key, "") for key in ("label", "text", "value", "kind")},
        }
    )


def said(name: str, form: type[forms.Form], apply: Any, template: str, **more: Any) -> Command:
    """A tracker's command (`name` is "<kind>.<what>") whose history line is `template`
    (gettext_noop'd) read with the tracker's name, copied into the payload when it resolves."""
    kind = name.partition(".")[0]
    return Command(name, form, apply, words(template), resolve=with_name(kind), **more)
