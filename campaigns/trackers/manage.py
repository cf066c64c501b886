"""Adding and removing trackers: at set-up (a game's own, or the lines typed for Any game) and
by the tracker.add and tracker.remove commands."""

from __future__ import annotations

import random
import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.trackers import coin, randomizers, timer, turns
from campaigns.trackers.base import (
    COUNTER_LIMIT,
    KINDS,
    MAX_ITEMS,
    MAX_TRACKERS,
    NAME_LENGTH,
    NUMBER,
    TrackerForm,
    TrackerState,
    names,
    number_field,
    refuse_long_names,
    whole_number,
    words,
)
from campaigns.trackers.types import (
    Checklist,
    ChecklistItem,
    Counter,
    NamedList,
    Notes,
    Results,
    Tracker,
)
from campaigns.words import FULL_WIDTH, visible


def parse_counter_line(line: str) -> dict[str, object]:
    """“Doom 0 12” is a counter from 0 to 12; “Life 0 30 30” starts at 30; “Round” is open.
    Up to three whole numbers at the end are the bounds and the start, however many digits
    they have: “Doom 0 99999999999999999999” meant bounds, so it is refused, not made a name."""
    words = line.translate(FULL_WIDTH).split()
    numbers: list[str] = []
    while words and len(numbers) < 3 and re.fullmatch(r"[-+]?\d+", words[-1]):
        numbers.insert(0, words.pop())
    name = " ".join(words)
    if not visible(name):
        raise forms.ValidationError(_("“%(line)s” needs a name.") % {"line": line})
    refuse_long_names(name)
    read = [whole_number(n, COUNTER_LIMIT) for n in numbers]
    values = [value for value in read if value is not None]
    if len(values) < len(read):
        raise forms.ValidationError(
            _("“%(line)s”: keep the numbers within a million either way.") % {"line": line}
        )
    spec: dict[str, object] = {"kind": "counter", "name": name}
    if len(values) == 1:
        raise forms.ValidationError(
            _("“%(line)s”: give both the lowest and the highest value, or neither.")
            % {"line": line}
        )
    if len(values) >= 2:
        spec["minimum"], spec["maximum"] = values[0], values[1]
        # Said here, next to the counters, naming the line and the numbers as read (“Life 0 10 5
        # 7” is Life 0 from 10 to 5, start 7): the tracker would refuse it for the whole form.
        if values[0] > values[1]:
            raise forms.ValidationError(
                _("“%(line)s”: the lowest value, %(low)d, is above the highest, %(high)d.")
                % {"line": line, "low": values[0], "high": values[1]}
            )
    if len(values) == 3:
        spec["start"] = values[2]
        if not values[0] <= values[2] <= values[1]:
            raise forms.ValidationError(
                _("“%(line)s”: the start value, %(start)d, is not from %(low)d to %(high)d.")
                % {"line": line, "start": values[2], "low": values[0], "high": values[1]}
            )
    return spec


def parse_checklist_line(line: str) -> dict[str, object]:
    """“Stickers: A, B, C” is a checklist named Stickers with three items."""
    name, colon, rest = line.translate(FULL_WIDTH).partition(":")
    if not colon and "," in name:
        # “Quests a, b, c” was meant as items, not as a checklist of that name.
        raise forms.ValidationError(
            _("“%(line)s”: write a colon after the checklist's name, then its items.")
            % {"line": line}
        )
    name = name.strip()
    items = [item.strip() for item in rest.split(",") if visible(item)]
    if not visible(name):
        raise forms.ValidationError(_("“%(line)s” needs a name.") % {"line": line})
    refuse_long_names(name, *items)
    return {"kind": "checklist", "name": name, "items": items}


def add_tracker(state: TrackerState, spec: Payload) -> Tracker:
    """Add one tracker from a spec; setup and the tracker.add command both come here."""
    kind = commands.need_choice(spec, "kind", KINDS)
    name = commands.need_str(spec, "name", NAME_LENGTH).strip()
    trackers = state.setdefault("trackers", [])
    if len(trackers) >= MAX_TRACKERS:
        raise CommandError(_("A campaign holds at most %(n)d trackers.") % {"n": MAX_TRACKERS})
    if name.casefold() in (n.casefold() for n in names(state)):
        raise CommandError(
            _("There is already a tracker called “%(name)s”.") % {"name": name}, "name"
        )
    item = new_tracker(state, commands.next_id(state), kind, name, spec)
    trackers.append(item)
    return item


def new_tracker(state: TrackerState, ident: int, kind: str, name: str, spec: Payload) -> Tracker:
    # A name the game ships, in English, is read in translation (`shipped`).
    shipped = spec.get("shipped") is True
    if kind == "counter":
        low, high = commands.need_opt_int(spec, "minimum"), commands.need_opt_int(spec, "maximum")
        for bound in (low, high):
            if bound is not None and abs(bound) > COUNTER_LIMIT:
                raise CommandError(_("Keep counters within a million."), "maximum")
        if low is not None and high is not None and low > high:
            raise CommandError(_("The lowest value is above the highest."), "maximum")
        start = commands.need_opt_int(spec, "start")
        if start is None:
            start = low if low is not None and low > 0 else 0
            start = min(start, high) if high is not None else start
        if (low is not None and start < low) or (high is not None and start > high):
            raise CommandError(_("The start value is outside the bounds."), "start")
        counter: Counter = {
            "id": ident,
            "kind": "counter",
            "name": name,
            "minimum": low,
            "maximum": high,
            "value": start,
            "start": start,
        }
        return {**counter, "shipped": True} if shipped else counter
    if kind == "checklist":
        labels = spec.get("items") or []
        if not isinstance(labels, list) or len(labels) > MAX_ITEMS:
            raise CommandError(_("Too many items."), "items")
        items: list[ChecklistItem] = []
        for label in labels:
            label = commands.need_str({"label": label}, "label", NAME_LENGTH).strip()
            items.append({"id": commands.next_id(state), "label": label, "done": False})
        checklist: Checklist = {"id": ident, "kind": "checklist", "name": name, "items": items}
        return {**checklist, "shipped": True} if shipped else checklist
    if kind == "list":
        named: NamedList = {"id": ident, "kind": "list", "name": name, "items": []}
        return {**named, "shipped": True} if shipped else named
    if kind == "notes":
        notes: Notes = {"id": ident, "kind": "notes", "name": name, "entries": []}
        return {**notes, "shipped": True} if shipped else notes
    if kind == "results":
        results: Results = {"id": ident, "kind": "results", "name": name, "rows": []}
        return {**results, "shipped": True} if shipped else results
    if kind == "dice":
        return randomizers.new_dice(ident, name, spec)
    if kind == "deck":
        return randomizers.new_deck(ident, name, spec)
    if kind == "turns":
        return turns.new_turns(state, ident, name, spec)
    if kind == "timer":
        return timer.new_timer(ident, name, spec)
    return coin.new_coin(ident, name)


# The fields each kind reads beside its name. The form shows every kind's (it works without
# JavaScript), so what is left in another kind's field is ignored, not checked.
OWN_FIELDS = {
    "counter": ("minimum", "maximum", "start"),
    "checklist": ("items",),
    "deck": ("items",),
    "turns": ("items",),
    "dice": ("success_on",),
    "timer": ("seconds",),
}
KIND_FIELDS = tuple(dict.fromkeys(name for own in OWN_FIELDS.values() for name in own))
# Which kinds read each of those fields, as the form's `data-for` says it (site.css shows a
# field for the kind picked).
KINDS_FOR = {
    name: " ".join(kind for kind, own in OWN_FIELDS.items() if name in own) for name in KIND_FIELDS
}


class AddTrackerForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=list(KINDS.items()))
    name = TextField(label=gettext_lazy("Name"), max_length=NAME_LENGTH)
    minimum = number_field(gettext_lazy("Lowest"), required=False)
    maximum = number_field(gettext_lazy("Highest"), required=False)
    start = number_field(gettext_lazy("Start"), required=False)
    items = TextField(
        label=gettext_lazy("Items, comma-separated"),
        required=False,
        max_length=5000,
        help_text=gettext_lazy(
            "For a checklist: its items. For a deck: its cards, e.g. Green×5, Yellow×9, Ace. "
            "For a turn tracker: the players in seat order."
        ),
    )
    success_on = forms.IntegerField(
        label=gettext_lazy("A die succeeds on (dice roller)"),
        required=False,
        min_value=1,
        max_value=6,
        widget=forms.NumberInput(NUMBER),
    )
    seconds = forms.IntegerField(
        label=gettext_lazy("Seconds (timer)"),
        required=False,
        min_value=timer.SHORTEST,
        max_value=timer.LONGEST,
        widget=forms.NumberInput(NUMBER),
    )

    kinds_for = KINDS_FOR

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kind = self.data.get("kind")
        own = OWN_FIELDS.get(kind, ()) if isinstance(kind, str) else ()
        self.ignored = [name for name in KIND_FIELDS if name not in own] if self.is_bound else []
        for name in self.ignored:
            # Shown again as typed if the form is refused, but neither read nor checked.
            field = self.fields[name]
            self.fields[name] = forms.Field(
                label=field.label, required=False, widget=field.widget, help_text=field.help_text
            )

    def clean_items(self) -> list[str]:
        text = str(self.cleaned_data["items"] or "").translate(FULL_WIDTH)
        return [item.strip() for item in text.split(",") if visible(item)]

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        for name in self.ignored:
            cleaned.pop(name, None)
        kind = cleaned.get("kind")
        if kind == "deck" and "items" in cleaned:
            try:
                cleaned["cards"] = randomizers.parse_cards(", ".join(cleaned["items"]))
            except CommandError as error:
                self.add_error("items", error.message)
        if kind in ("checklist", "turns"):
            try:
                refuse_long_names(*cleaned.get("items", []))
            except forms.ValidationError as refused:
                self.add_error("items", refused)
        return cleaned


def apply_add_tracker(state: TrackerState, payload: Payload) -> None:
    add_tracker(state, payload)


def apply_remove_tracker(state: TrackerState, payload: Payload) -> None:
    tracker_id = commands.need_int(payload, "tracker")
    before = len(state.get("trackers", []))
    state["trackers"] = [t for t in state.get("trackers", []) if t["id"] != tracker_id]
    if len(state["trackers"]) == before:
        raise CommandError(_("That tracker is not in this campaign any more."), "tracker")


def resolve_add_tracker(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = {"kind": data["kind"], "name": data["name"]}
    if data["kind"] == "counter":
        payload.update(
            minimum=data.get("minimum"), maximum=data.get("maximum"), start=data.get("start")
        )
    if data["kind"] == "checklist":
        payload["items"] = data.get("items") or []
    if data["kind"] == "dice":
        payload["success_on"] = data.get("success_on") or 5
    if data["kind"] == "deck":
        payload["cards"] = data.get("cards") or []
    if data["kind"] == "turns":
        payload["items"] = data.get("items") or []
    if data["kind"] == "timer":
        payload["seconds"] = data.get("seconds") or timer.DEFAULT
    return payload


def resolve_remove_tracker(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    """The tracker's name goes into the payload, so the history reads in words after removal."""
    found = (t["name"] for t in state.get("trackers", []) if t["id"] == data.get("tracker"))
    return {**data, "name": next(found, "")}


COMMANDS = (
    Command(
        "tracker.add",
        AddTrackerForm,
        apply_add_tracker,
        words(gettext_noop("Added the tracker “%(name)s”")),
        resolve=resolve_add_tracker,
        regions=("trackers",),
    ),
    Command(
        "tracker.remove",
        TrackerForm,
        apply_remove_tracker,
        words(gettext_noop("Removed the tracker “%(name)s”")),
        resolve=resolve_remove_tracker,
    ),
)
