"""What every tracker shares: the kinds, finding a tracker and an entry by the ids a phone sent,
the name as the reader sees it, the forms' common fields, and the describe helpers."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal, TypedDict, Unpack, overload

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import Command, CommandError, CommandOptions, Payload, need_int
from campaigns.trackers.types import (
    Checklist,
    ChecklistItem,
    Coin,
    Counter,
    Deck,
    DiceRoller,
    ListItem,
    NamedList,
    Note,
    Notes,
    ResultRow,
    Results,
    Timer,
    Tracker,
    Turns,
)
from campaigns.vocabulary import RESULT_WORDS, pick

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


RESULTS = pick(RESULT_WORDS, "win", "loss", "other")


COUNTER_LIMIT = 1_000_000


MAX_TRACKERS = 50


MAX_ITEMS = 500


NAME_LENGTH = 60


TEXT_LENGTH = 1000


def whole_number(written: str, most: int) -> int | None:
    """`written` (digits, a sign before them) as a number, if it is within `most` either way;
    else None. The digits are counted before int() reads them: it refuses past 4,300 digits."""
    if len(written.lstrip("+-").lstrip("0")) > len(str(most)):
        return None
    number = int(written)
    return number if abs(number) <= most else None


def too_long(name: str) -> str:
    """The refusal of a name past NAME_LENGTH, which is refused rather than cut short: quoted
    by its start (a pasted one may run to thousands of characters), saying the limit."""
    return _("“%(start)s…” is too long: a name holds at most %(n)d characters.") % {
        "start": name[:30],
        "n": NAME_LENGTH,
    }


def refuse_long_names(*names: str) -> None:
    """A form's refusal (ValidationError) of the first of `names` past NAME_LENGTH, if any."""
    long = next((name for name in names if len(name) > NAME_LENGTH), None)
    if long is not None:
        raise forms.ValidationError(too_long(long))


def shown(name: object, shipped: object = False) -> str:
    """A tracker's name as the reader sees it: the names a game ships (Doubt, Campaign Notes,
    Any game's Notes and Results) are stored in English, marked `shipped`, and read in the
    reader's language; a name the group typed is shown as typed, never translated."""
    if shipped is True and isinstance(name, str) and name:
        return _(name)
    return str(name or "")


class TrackerState(TypedDict):
    """What the trackers' commands read and change of a game's state (Any game's is only
    this; Arkham's campaign log is trackers too)."""

    next_id: int
    trackers: list[Tracker]


# The tracker a command names, of the kind the command is for: typed as that kind.
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["counter"]) -> Counter: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["checklist"]) -> Checklist: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["list"]) -> NamedList: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["notes"]) -> Notes: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["results"]) -> Results: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["dice"]) -> DiceRoller: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["deck"]) -> Deck: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["turns"]) -> Turns: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["timer"]) -> Timer: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: Literal["coin"]) -> Coin: ...
@overload
def tracker(state: TrackerState, payload: Payload, kind: str) -> Tracker: ...
def tracker(state: TrackerState, payload: Payload, kind: str) -> Tracker:
    tracker_id = need_int(payload, "tracker")
    for item in state["trackers"]:
        if item["id"] == tracker_id and item["kind"] == kind:
            return item
    raise CommandError(_("That tracker is not in this campaign any more."), "tracker")


def entry[E: (ChecklistItem, ListItem, Note, ResultRow)](items: list[E], payload: Payload) -> E:
    entry_id = need_int(payload, "item")
    for item in items:
        if item["id"] == entry_id:
            return item
    raise CommandError(_("That entry is not there any more."), "item")


def names(state: TrackerState) -> list[str]:
    return [t["name"] for t in state["trackers"]]


# Fields the phone sends back unchanged (which tracker, which entry, +1 or −1) are hidden:
# `{% hidden_inputs %}` writes them from the form.
HIDDEN = forms.HiddenInput


NUMBER = {"inputmode": "numeric"}


def number_field(label: StrOrPromise, required: bool = True) -> forms.IntegerField:
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


def entry_label(found: Tracker, payload: Payload) -> str:
    """The words of the entry a payload names, in the history."""
    if found["kind"] == "checklist":
        return entry(found["items"], payload)["label"]
    if found["kind"] == "list":
        return entry(found["items"], payload)["text"]
    if found["kind"] == "notes":
        return entry(found["entries"], payload)["text"]
    if found["kind"] == "results":
        return entry(found["rows"], payload)["date"]
    return ""


def with_name(kind: str) -> Callable[[TrackerState, Payload, random.Random], Payload]:
    """A resolve step that copies the tracker's name (and the entry's text) into the payload,
    so the history reads in words even after the tracker is renamed or removed."""

    def resolve(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
        payload = dict(data)
        found = tracker(state, payload, kind)
        payload["name"] = found["name"]
        if found.get("shipped"):
            payload["shipped"] = True
        if "item" in payload:
            payload["label"] = entry_label(found, payload)
        if found["kind"] == "counter" and "delta" in payload:
            payload["to"] = found["value"] + need_int(payload, "delta")
        return payload

    return resolve


def words(template: str) -> Callable[[Payload], str]:
    """A describe function from a template of the payload's keys."""
    return lambda p: (
        _(template)
        % {
            "name": shown(p.get("name"), p.get("shipped")),
            **{key: p.get(key, "") for key in ("label", "text", "value", "kind")},
        }
    )


def said(
    name: str,
    form: type[forms.Form],
    apply: Callable[[TrackerState, Payload], None],
    template: str,
    **more: Unpack[CommandOptions[TrackerState]],
) -> Command[TrackerState]:
    """A tracker's command (`name` is "<kind>.<what>") whose history line is `template`
    (gettext_noop'd) read with the tracker's name, copied into the payload when it resolves."""
    kind = name.partition(".")[0]
    return Command(name, form, apply, words(template), resolve=with_name(kind), **more)
