"""Counters: a value with optional bounds (doom, life, resources), moved by one or set."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, CommandError, Payload, need_int
from campaigns.trackers.base import (
    COUNTER_LIMIT,
    HIDDEN,
    TrackerForm,
    TrackerState,
    number_field,
    said,
    shown,
    tracker,
    with_name,
)
from campaigns.trackers.types import Counter


class AdjustForm(TrackerForm):
    delta = forms.IntegerField(min_value=-1000, max_value=1000, widget=HIDDEN)


class SetValueForm(TrackerForm):
    value = number_field(gettext_lazy("Value"))


def set_counter(found: Counter, value: int) -> None:
    low, high = found.get("minimum"), found.get("maximum")
    if high is not None and value > high:
        raise CommandError(
            _("%(name)s cannot go above %(n)d.")
            % {"name": shown(found["name"], found.get("shipped")), "n": high},
            "value",
        )
    if low is not None and value < low:
        raise CommandError(
            _("%(name)s cannot go below %(n)d.")
            % {"name": shown(found["name"], found.get("shipped")), "n": low},
            "value",
        )
    if abs(value) > COUNTER_LIMIT:
        raise CommandError(_("Keep counters within a million."), "value")
    found["value"] = value


def apply_adjust(state: TrackerState, payload: Payload) -> None:
    found = tracker(state, payload, "counter")
    set_counter(found, found["value"] + need_int(payload, "delta", -1000, 1000))


def apply_set(state: TrackerState, payload: Payload) -> None:
    set_counter(tracker(state, payload, "counter"), need_int(payload, "value"))


def describe_adjust(p: Payload) -> str:
    return _("%(name)s %(delta)+d (now %(to)s)") % {
        "name": shown(p.get("name"), p.get("shipped")),
        "delta": p.get("delta", 0),
        "to": p.get("to", "?"),
    }


COMMANDS = (
    Command(
        "counter.adjust",
        AdjustForm,
        apply_adjust,
        describe_adjust,
        resolve=with_name("counter"),
    ),
    said(
        "counter.set",
        SetValueForm,
        apply_set,
        gettext_noop("%(name)s set to %(value)s"),
        stale_check=True,
    ),
)
