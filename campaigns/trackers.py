"""The trackers every game reuses: counters, checklists, named lists, a notes log, results.

They live in `state["trackers"]`, a list of dicts with an `id`, a `kind` and a `name`. The
rules digest (`shared/spec/rules.md` §6) lists the primitives the games need: bounded counters
(life dials, doom), checklists of unlockables (stickers, envelopes), lists with a reason
(banished cards), a log, and a table of results.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    State,
    jsonable,
    need_bool,
    need_choice,
    need_date,
    need_int,
    need_opt_int,
    need_str,
    next_id,
)

KINDS = {
    "counter": gettext_lazy("Counter"),
    "checklist": gettext_lazy("Checklist"),
    "list": gettext_lazy("List"),
    "notes": gettext_lazy("Notes log"),
    "results": gettext_lazy("Results table"),
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


def shown(name: Any) -> str:
    """A tracker's name as the reader sees it: the names a game ships (Doubt, Campaign Notes)
    are stored in English and read in the reader's language; a name the group typed is kept."""
    return _(name) if isinstance(name, str) and name else str(name or "")


# Finding things in a state; every lookup of an id a phone sent goes through these.


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


# Adding and removing trackers


# Phones with Japanese or Chinese keyboards type full-width punctuation and digits.
FULL_WIDTH = str.maketrans("：，、　－＋０１２３４５６７８９", ":,, -+0123456789")


def parse_counter_line(line: str) -> dict[str, Any]:
    """“Doom 0 12” is a counter from 0 to 12; “Life 0 30 30” starts at 30; “Round” is open."""
    words = line.translate(FULL_WIDTH).split()
    numbers: list[int] = []
    while words and re.fullmatch(r"[-+]?\d{1,7}", words[-1]) and len(numbers) < 3:
        numbers.insert(0, int(words.pop()))
    if not words:
        raise forms.ValidationError(_("“%(line)s” needs a name.") % {"line": line})
    spec: dict[str, Any] = {"kind": "counter", "name": " ".join(words)[:NAME_LENGTH]}
    if len(numbers) == 1:
        raise forms.ValidationError(
            _("“%(line)s”: give both the lowest and the highest value, or neither.")
            % {"line": line}
        )
    if len(numbers) >= 2:
        spec["minimum"], spec["maximum"] = numbers[0], numbers[1]
    if len(numbers) == 3:
        spec["start"] = numbers[2]
    return spec


def parse_checklist_line(line: str) -> dict[str, Any]:
    """“Stickers: A, B, C” is a checklist named Stickers with three items."""
    name, _sep, rest = line.translate(FULL_WIDTH).partition(":")
    items = [item.strip() for item in rest.split(",") if item.strip()]
    if not name.strip():
        raise forms.ValidationError(_("“%(line)s” needs a name.") % {"line": line})
    return {"kind": "checklist", "name": name.strip()[:NAME_LENGTH], "items": items}


def add_tracker(state: State, spec: Payload) -> dict[str, Any]:
    """Add one tracker from a spec; setup and the tracker.add command both come here."""
    kind = need_choice(spec, "kind", KINDS)
    name = need_str(spec, "name", NAME_LENGTH).strip()
    trackers = state.setdefault("trackers", [])
    if len(trackers) >= MAX_TRACKERS:
        raise CommandError(_("A campaign holds at most %(n)d trackers.") % {"n": MAX_TRACKERS})
    if name.casefold() in (n.casefold() for n in names(state)):
        raise CommandError(
            _("There is already a tracker called “%(name)s”.") % {"name": name}, "name"
        )
    item: dict[str, Any] = {"id": next_id(state), "kind": kind, "name": name}
    if kind == "counter":
        low, high = need_opt_int(spec, "minimum"), need_opt_int(spec, "maximum")
        for bound in (low, high):
            if bound is not None and abs(bound) > COUNTER_LIMIT:
                raise CommandError(_("Keep counters within a million."), "maximum")
        if low is not None and high is not None and low > high:
            raise CommandError(_("The lowest value is above the highest."), "maximum")
        start = need_opt_int(spec, "start")
        if start is None:
            start = low if low is not None and low > 0 else 0
            start = min(start, high) if high is not None else start
        if (low is not None and start < low) or (high is not None and start > high):
            raise CommandError(_("The start value is outside the bounds."), "start")
        item.update(minimum=low, maximum=high, value=start, start=start)
    elif kind == "checklist":
        labels = spec.get("items") or []
        if not isinstance(labels, list) or len(labels) > MAX_ITEMS:
            raise CommandError(_("Too many items."), "items")
        item["items"] = []
        for label in labels:
            label = need_str({"label": label}, "label", NAME_LENGTH).strip()
            item["items"].append({"id": next_id(state), "label": label, "done": False})
    elif kind == "list":
        item["items"] = []
    elif kind == "notes":
        item["entries"] = []
    elif kind == "results":
        item["rows"] = []
    trackers.append(item)
    return item


# Fields the phone sends back unchanged (which tracker, which entry, +1 or −1) are hidden:
# `campaigns/hidden.html` writes them from the form.
HIDDEN = forms.HiddenInput
NUMBER = {"inputmode": "numeric"}
WHY = {"placeholder": gettext_lazy("Why (optional)")}


class AddTrackerForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=list(KINDS.items()))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=NAME_LENGTH)
    minimum = forms.IntegerField(
        label=gettext_lazy("Lowest"),
        required=False,
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )
    maximum = forms.IntegerField(
        label=gettext_lazy("Highest"),
        required=False,
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )
    start = forms.IntegerField(
        label=gettext_lazy("Start"),
        required=False,
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )
    items = forms.CharField(
        label=gettext_lazy("Items (checklist), comma-separated"),
        required=False,
        max_length=5000,
    )

    def clean_items(self) -> list[str]:
        text = self.cleaned_data["items"].translate(FULL_WIDTH)
        return [item.strip() for item in text.split(",") if item.strip()]


class TrackerForm(forms.Form):
    tracker = forms.IntegerField(min_value=1, widget=HIDDEN)


class AdjustForm(TrackerForm):
    delta = forms.IntegerField(min_value=-1000, max_value=1000, widget=HIDDEN)


class SetValueForm(TrackerForm):
    value = forms.IntegerField(
        label=gettext_lazy("Value"),
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )


class ItemForm(TrackerForm):
    item = forms.IntegerField(min_value=1, widget=HIDDEN)


class CheckForm(ItemForm):
    done = forms.BooleanField(required=False)


class LabelForm(TrackerForm):
    label = forms.CharField(label=gettext_lazy("New item"), max_length=NAME_LENGTH)


class ListAddForm(TrackerForm):
    text = forms.CharField(label=gettext_lazy("Add"), max_length=NAME_LENGTH * 2)
    reason = forms.CharField(
        label=gettext_lazy("Why (optional)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(WHY),
    )


class ListRemoveForm(ItemForm):
    reason = forms.CharField(
        label=gettext_lazy("Why (optional)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(WHY),
    )


class NoteForm(TrackerForm):
    text = forms.CharField(
        label=gettext_lazy("Note"),
        max_length=TEXT_LENGTH,
        widget=forms.Textarea({"rows": 2}),
    )


class ResultForm(TrackerForm):
    date = forms.DateField(
        label=gettext_lazy("Date"), widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=list(RESULTS.items()))
    score = forms.IntegerField(
        label=gettext_lazy("Score"),
        required=False,
        min_value=-COUNTER_LIMIT,
        max_value=COUNTER_LIMIT,
        widget=forms.NumberInput(NUMBER),
    )
    notes = forms.CharField(label=gettext_lazy("Notes"), max_length=200, required=False)


def with_name(kind: str):
    """A resolve step that copies the tracker's name (and the entry's text) into the payload,
    so the history reads in words even after the tracker is renamed or removed."""

    def resolve(state: State, data: Payload, rng: random.Random) -> Payload:
        payload = {key: value for key, value in data.items()}
        found = tracker(state, payload, kind)
        payload["name"] = found["name"]
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


# Applying


def apply_add_tracker(state: State, payload: Payload) -> None:
    add_tracker(state, payload)


def apply_remove_tracker(state: State, payload: Payload) -> None:
    tracker_id = need_int(payload, "tracker")
    before = len(state.get("trackers", []))
    state["trackers"] = [t for t in state.get("trackers", []) if t["id"] != tracker_id]
    if len(state["trackers"]) == before:
        raise CommandError(_("That tracker is not in this campaign any more."), "tracker")


def set_counter(found: dict[str, Any], value: int) -> None:
    low, high = found.get("minimum"), found.get("maximum")
    if high is not None and value > high:
        raise CommandError(
            _("%(name)s cannot go above %(n)d.") % {"name": shown(found["name"]), "n": high},
            "value",
        )
    if low is not None and value < low:
        raise CommandError(
            _("%(name)s cannot go below %(n)d.") % {"name": shown(found["name"]), "n": low}, "value"
        )
    if abs(value) > COUNTER_LIMIT:
        raise CommandError(_("Keep counters within a million."), "value")
    found["value"] = value


def apply_adjust(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "counter")
    set_counter(found, found["value"] + need_int(payload, "delta", -1000, 1000))


def apply_set(state: State, payload: Payload) -> None:
    set_counter(tracker(state, payload, "counter"), need_int(payload, "value"))


def apply_check(state: State, payload: Payload) -> None:
    entry(tracker(state, payload, "checklist"), "items", payload)["done"] = need_bool(
        payload, "done"
    )


def apply_add_item(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "checklist")
    if len(found["items"]) >= MAX_ITEMS:
        raise CommandError(_("Too many items."), "label")
    label = need_str(payload, "label", NAME_LENGTH).strip()
    found["items"].append({"id": next_id(state), "label": label, "done": False})


def apply_list_add(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "list")
    if len(found["items"]) >= MAX_ITEMS * 4:
        raise CommandError(_("Too many items."), "text")
    found["items"].append(
        {
            "id": next_id(state),
            "text": need_str(payload, "text", NAME_LENGTH * 2).strip(),
            "reason": need_str(payload, "reason", 200, blank=True).strip(),
            "removed": False,
            "removed_reason": "",
        }
    )


def apply_list_remove(state: State, payload: Payload) -> None:
    item = entry(tracker(state, payload, "list"), "items", payload)
    if item["removed"]:
        raise CommandError(_("“%(text)s” is already taken out.") % {"text": item["text"]}, "item")
    item["removed"] = True
    item["removed_reason"] = need_str(payload, "reason", 200, blank=True).strip()


def apply_list_restore(state: State, payload: Payload) -> None:
    item = entry(tracker(state, payload, "list"), "items", payload)
    if not item["removed"]:
        raise CommandError(_("“%(text)s” is already in the list.") % {"text": item["text"]}, "item")
    item["removed"], item["removed_reason"] = False, ""


def apply_note(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "notes")
    if len(found["entries"]) >= MAX_ITEMS * 4:
        raise CommandError(_("Too many items."), "text")
    text = need_str(payload, "text", TEXT_LENGTH).strip()
    found["entries"].append({"id": next_id(state), "text": text, "crossed": False})


def crossing(crossed: bool):
    def apply(state: State, payload: Payload) -> None:
        item = entry(tracker(state, payload, "notes"), "entries", payload)
        if item["crossed"] == crossed:
            message = (
                _("That note is already crossed out.")
                if crossed
                else _("That note is not crossed out.")
            )
            raise CommandError(message, "item")
        item["crossed"] = crossed

    return apply


def apply_result(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "results")
    if len(found["rows"]) >= MAX_ITEMS * 4:
        raise CommandError(_("Too many items."), "date")
    date = need_date(payload, "date")
    score = need_opt_int(payload, "score")
    found["rows"].append(
        {
            "id": next_id(state),
            "date": date,
            "result": need_choice(payload, "result", RESULTS),
            "score": score,
            "notes": need_str(payload, "notes", 200, blank=True).strip(),
        }
    )


def apply_remove_result(state: State, payload: Payload) -> None:
    found = tracker(state, payload, "results")
    row = entry(found, "rows", payload)
    found["rows"].remove(row)


def resolve_add_tracker(state: State, data: Payload, rng: random.Random) -> Payload:
    payload = {"kind": data["kind"], "name": data["name"]}
    if data["kind"] == "counter":
        payload.update(
            minimum=data.get("minimum"), maximum=data.get("maximum"), start=data.get("start")
        )
    if data["kind"] == "checklist":
        payload["items"] = data.get("items") or []
    return payload


def resolve_result(state: State, data: Payload, rng: random.Random) -> Payload:
    return with_name("results")(state, jsonable(data), rng)


def describe_adjust(p: Payload) -> str:
    return _("%(name)s %(delta)+d (now %(to)s)") % {
        "name": shown(p.get("name")),
        "delta": p.get("delta", 0),
        "to": p.get("to", "?"),
    }


def describe_check(p: Payload) -> str:
    template = (
        _("%(name)s: ticked “%(label)s”") if p.get("done") else _("%(name)s: unticked “%(label)s”")
    )
    return template % {"name": shown(p.get("name")), "label": p.get("label")}


def describe_result(p: Payload) -> str:
    return _("%(name)s: added a row for %(date)s (%(result)s)") % {
        "name": shown(p.get("name")),
        "date": p.get("date"),
        "result": RESULTS.get(str(p.get("result")), p.get("result")),
    }


def words(template: str):
    """A describe function from a template of the payload's keys."""
    return lambda p: (
        _(template)
        % {
            "name": shown(p.get("name")),
            **{key: p.get(key, "") for key in ("label", "text", "value", "kind")},
        }
    )


COMMANDS: dict[str, Command] = {
    "tracker.add": Command(
        "tracker.add",
        AddTrackerForm,
        apply_add_tracker,
        words(gettext_noop("Added the tracker “%(name)s”")),
        resolve=resolve_add_tracker,
        regions=("trackers",),
    ),
    "tracker.remove": Command(
        "tracker.remove",
        TrackerForm,
        apply_remove_tracker,
        words(gettext_noop("Removed the tracker “%(name)s”")),
        resolve=lambda state, data, rng: {
            **data,
            "name": next(
                (t["name"] for t in state.get("trackers", []) if t["id"] == data.get("tracker")), ""
            ),
        },
    ),
    "counter.adjust": Command(
        "counter.adjust", AdjustForm, apply_adjust, describe_adjust, resolve=with_name("counter")
    ),
    "counter.set": Command(
        "counter.set",
        SetValueForm,
        apply_set,
        words(gettext_noop("%(name)s set to %(value)s")),
        resolve=with_name("counter"),
        stale_check=True,
    ),
    "checklist.check": Command(
        "checklist.check", CheckForm, apply_check, describe_check, resolve=with_name("checklist")
    ),
    "checklist.add": Command(
        "checklist.add",
        LabelForm,
        apply_add_item,
        words(gettext_noop("%(name)s: added “%(label)s”")),
        resolve=with_name("checklist"),
    ),
    "list.add": Command(
        "list.add",
        ListAddForm,
        apply_list_add,
        words(gettext_noop("%(name)s: added “%(text)s”")),
        resolve=with_name("list"),
    ),
    "list.remove": Command(
        "list.remove",
        ListRemoveForm,
        apply_list_remove,
        words(gettext_noop("%(name)s: took out “%(label)s”")),
        resolve=with_name("list"),
    ),
    "list.restore": Command(
        "list.restore",
        ItemForm,
        apply_list_restore,
        words(gettext_noop("%(name)s: restored “%(label)s”")),
        resolve=with_name("list"),
    ),
    "notes.add": Command(
        "notes.add",
        NoteForm,
        apply_note,
        words(gettext_noop("%(name)s: wrote “%(text)s”")),
        resolve=with_name("notes"),
    ),
    "notes.cross": Command(
        "notes.cross",
        ItemForm,
        crossing(True),
        words(gettext_noop("%(name)s: crossed out “%(label)s”")),
        resolve=with_name("notes"),
    ),
    "notes.restore": Command(
        "notes.restore",
        ItemForm,
        crossing(False),
        words(gettext_noop("%(name)s: restored “%(label)s”")),
        resolve=with_name("notes"),
    ),
    "results.add": Command(
        "results.add", ResultForm, apply_result, describe_result, resolve=resolve_result
    ),
    "results.remove": Command(
        "results.remove",
        ItemForm,
        apply_remove_result,
        words(gettext_noop("%(name)s: removed the row of %(label)s")),
        resolve=with_name("results"),
    ),
}


# What a page shows of the trackers


def results_chart(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Bars of the score per game (or equal bars where no score was kept), coloured by result."""
    if not rows:
        return None
    width, height, pad = 320, 120, 16
    scores = [row["score"] if isinstance(row.get("score"), int) else None for row in rows]
    known = [s for s in scores if s is not None]
    top = max([0, *known]) or 1
    bottom = min([0, *known])
    span = top - bottom
    zero = pad + (height - 2 * pad) * top / span
    step = (width - 24) / len(rows)
    bars = []
    for index, (row, score) in enumerate(zip(rows, scores, strict=True)):
        value = score if score is not None else top
        size = (height - 2 * pad) * abs(value) / span
        bars.append(
            {
                "x": round(24 + index * step + step * 0.15, 2),
                "w": round(max(step * 0.7, 1), 2),
                "y": round(zero - size if value >= 0 else zero, 2),
                "h": round(max(size, 1), 2),
                "result": row.get("result", "other"),
                "label": " ".join(
                    str(part)
                    for part in (
                        row.get("date", ""),
                        RESULTS.get(str(row.get("result")), ""),
                        score,
                    )
                    if part not in (None, "")
                ),
            }
        )
    return {
        "width": width,
        "height": height,
        "zero": round(zero, 2),
        "bars": bars,
        "top": top if known else "",
        "bottom": bottom if known else "",
        "wins": sum(1 for row in rows if row.get("result") == "win"),
        "losses": sum(1 for row in rows if row.get("result") == "loss"),
    }


def tracker_items(state: State) -> list[dict[str, Any]]:
    items = []
    for found in state.get("trackers", []):
        item: dict[str, Any] = {"t": found, "region": f"tracker-{found['id']}"}
        if found["kind"] == "list":
            item["taken_out"] = [e for e in found["items"] if e["removed"]]
        if found["kind"] == "results":
            item["rows"] = [
                {**row, "result_label": RESULTS.get(row["result"], "")} for row in found["rows"]
            ]
            item["chart"] = results_chart(found["rows"])
        items.append(item)
    return items


def page_context(campaign, state: State, request=None) -> dict[str, Any]:
    return {
        "trackers": tracker_items(state),
        "tracker_kinds": list(KINDS.items()),
        "results_choices": list(RESULTS.items()),
        "today": datetime.date.today(),
    }
