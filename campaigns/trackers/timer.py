"""A sand-timer for a turn or a round: started on one phone, shown on every phone and on the
table display. The server stores when it started (its own clock, taken once when the command
runs, like a draw's randomness) and how long it runs; each phone counts down by itself from
those, with no request per second, and rings and vibrates at the end where it can.
"""

from __future__ import annotations

import datetime
import math
import random

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, CommandError, Payload, need_int, need_str
from campaigns.trackers import base
from campaigns.trackers.base import NUMBER, TrackerForm, TrackerState
from campaigns.trackers.types import Timer

SHORTEST, LONGEST = 5, 3600  # seconds
DEFAULT = 60


def new_timer(ident: int, name: str, spec: Payload) -> Timer:
    seconds = (
        DEFAULT if spec.get("seconds") is None else need_int(spec, "seconds", SHORTEST, LONGEST)
    )
    return {
        "id": ident,
        "kind": "timer",
        "name": name,
        "seconds": seconds,
        "started": None,
        "duration": seconds,
    }


class StartForm(TrackerForm):
    seconds = forms.IntegerField(
        label=gettext_lazy("Seconds"),
        min_value=SHORTEST,
        max_value=LONGEST,
        widget=forms.NumberInput(NUMBER),
    )


def resolve_start(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = base.with_name("timer")(state, data, rng)
    payload["started"] = timezone.now().isoformat()
    return payload


def moment(payload: Payload | Timer) -> datetime.datetime:
    """The start stored in the event: an aware ISO time (an imported file is checked too)."""
    value = payload.get("started")
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError
        when = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise CommandError(_("The timer's start is not a time."), "seconds") from None
    if when.tzinfo is None:
        raise CommandError(_("The timer's start is not a time."), "seconds")
    return when


def apply_start(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "timer")
    seconds = need_int(payload, "seconds", SHORTEST, LONGEST)
    moment(payload)
    started = need_str(payload, "started", 40)
    found["started"], found["duration"], found["seconds"] = started, seconds, seconds


def apply_stop(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "timer")
    if found["started"] is None:
        raise CommandError(_("The timer is not running."), "tracker")
    found["started"] = None


def timer_view(found: Timer) -> dict[str, object]:
    """What a page shows at the moment it is drawn; each phone's timer.js counts on from it."""
    if found["started"] is None:
        left, ends_ms = found["duration"], None
    else:
        ends = moment(found) + datetime.timedelta(seconds=found["duration"])
        left = max(0, math.ceil((ends - timezone.now()).total_seconds()))
        ends_ms = int(ends.timestamp() * 1000)
    return {
        "running": ends_ms is not None and left > 0,
        "done": ends_ms is not None and left == 0,
        "left_text": f"{left // 60}:{left % 60:02d}",
        "ends_ms": ends_ms,
    }


COMMANDS = (
    Command(
        "timer.start",
        StartForm,
        apply_start,
        lambda p: (
            _("%(name)s: started for %(n)s seconds")
            % {"name": base.shown(p.get("name")), "n": p.get("seconds")}
        ),
        resolve=resolve_start,
    ),
    base.said("timer.stop", TrackerForm, apply_stop, gettext_noop("%(name)s: stopped")),
)
