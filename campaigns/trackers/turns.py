"""A turn tracker for any game: the seats in their order, whose turn it is, the round, a seat
that passes for the rest of the round, and the first player picked at random on the server
(the pick stored in its event, so a replay and every phone see the same seat).

A round starts with the first player and goes round the table in seat order; a seat that has
passed is left out until the next round; when no seat is left in the round, the next round
starts with the first player again.
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.trackers import base
from campaigns.trackers.base import NAME_LENGTH, TrackerForm, TrackerState
from campaigns.trackers.types import Seat, Turns

MAX_SEATS = 12


def new_turns(state: TrackerState, ident: int, name: str, spec: Payload) -> Turns:
    """A turn tracker from its seats' names (a list of texts, in seat order)."""
    names = spec.get("items") or []
    if not isinstance(names, list) or len(names) > MAX_SEATS:
        raise CommandError(_("A turn tracker seats at most %(n)d.") % {"n": MAX_SEATS}, "items")
    found: Turns = {
        "id": ident,
        "kind": "turns",
        "name": name,
        "seats": [],
        "first": None,
        "current": None,
        "round": 0,
        "passed": [],
    }
    for seat in names:
        seat_name = commands.need_str({"items": seat}, "items", NAME_LENGTH).strip()
        seat_name_free(found, seat_name, "items")
        found["seats"].append({"id": commands.next_id(state), "name": seat_name})
    return found


def seat_name_free(found: Turns, name: str, field: str = "seat") -> None:
    if any(s["name"].casefold() == name.casefold() for s in found["seats"]):
        raise CommandError(_("“%(name)s” already has a seat.") % {"name": name}, field)


def order(found: Turns) -> list[Seat]:
    """The seats in this round's order: from the first player round the table."""
    seats = found["seats"]
    start = next((i for i, s in enumerate(seats) if s["id"] == found["first"]), 0)
    return seats[start:] + seats[:start]


def following(found: Turns) -> tuple[int | None, bool]:
    """The seat whose turn comes after the current one, and whether a new round starts."""
    seats = order(found)
    ids = [s["id"] for s in seats]
    at = ids.index(found["current"]) if found["current"] in ids else -1
    for seat in seats[at + 1 :]:
        if seat["id"] not in found["passed"]:
            return seat["id"], False
    return (ids[0] if ids else None), True


def name_of(found: Turns, seat_id: object) -> str:
    return next((s["name"] for s in found["seats"] if s["id"] == seat_id), "")


def started(found: Turns) -> int:
    """Whose turn it is; refused before the first player is picked."""
    if found["current"] is None:
        raise CommandError(_("Pick the first player first."), "tracker")
    return found["current"]


class SeatForm(TrackerForm):
    seat = TextField(label=gettext_lazy("Seat"), max_length=NAME_LENGTH)

    def clean_seat(self) -> str:
        name = self.cleaned_data["seat"].strip()
        if not name:
            raise forms.ValidationError(_("Type the name of the seat."))
        return name


def apply_seat(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "turns")
    name = commands.need_str(payload, "seat", NAME_LENGTH).strip()
    if len(found["seats"]) >= MAX_SEATS:
        raise CommandError(_("A turn tracker seats at most %(n)d.") % {"n": MAX_SEATS}, "seat")
    seat_name_free(found, name)
    found["seats"].append({"id": commands.next_id(state), "name": name})


class UnseatForm(TrackerForm):
    seat = forms.IntegerField(label=gettext_lazy("Seat"), min_value=1)


def resolve_unseat(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = base.with_name("turns")(state, data, rng)
    return {**payload, "label": name_of(base.tracker(state, payload, "turns"), data["seat"])}


def apply_unseat(state: TrackerState, payload: Payload) -> None:
    """The seat leaves the table: a turn of theirs goes on to the next seat, and the first
    player's place to the seat after them."""
    found = base.tracker(state, payload, "turns")
    seat = commands.need_int(payload, "seat")
    ids = [s["id"] for s in found["seats"]]
    if seat not in ids:
        raise CommandError(_("That seat is not at the table any more."), "seat")
    if found["current"] == seat:
        move_on(found)
    if found["first"] == seat:
        found["first"] = ids[(ids.index(seat) + 1) % len(ids)]
    found["seats"] = [s for s in found["seats"] if s["id"] != seat]
    found["passed"] = [p for p in found["passed"] if p != seat]
    if not found["seats"] or found["current"] == seat:
        found["first"], found["current"], found["round"], found["passed"] = None, None, 0, []


def resolve_first(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = base.with_name("turns")(state, data, rng)
    found = base.tracker(state, payload, "turns")
    if not found["seats"]:
        raise CommandError(_("Seat the players first."), "tracker")
    seat = found["seats"][rng.randrange(len(found["seats"]))]
    return {**payload, "seat": seat["id"], "label": seat["name"]}


def apply_first(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "turns")
    seat = commands.need_int(payload, "seat")
    if seat not in [s["id"] for s in found["seats"]]:
        raise CommandError(_("That seat is not at the table any more."), "tracker")
    found["first"], found["current"], found["round"], found["passed"] = seat, seat, 1, []


def resolve_move(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    """Who ended (or passed) and whose turn comes, for the history's words."""
    payload = base.with_name("turns")(state, data, rng)
    found = base.tracker(state, payload, "turns")
    started(found)
    payload["label"] = name_of(found, found["current"])
    return payload


def move_on(found: Turns) -> None:
    seat, new_round = following(found)
    if new_round:
        found["round"] += 1
        found["passed"] = []
    found["current"] = seat


def apply_next(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "turns")
    started(found)
    move_on(found)


def apply_pass(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "turns")
    current = started(found)
    found["passed"].append(current)
    move_on(found)


def turns_view(found: Turns) -> dict[str, object]:
    coming, new_round = following(found) if found["current"] is not None else (None, False)
    return {
        "seats": [
            {
                **seat,
                "current": seat["id"] == found["current"],
                "first": seat["id"] == found["first"],
                "passed": seat["id"] in found["passed"],
            }
            for seat in order(found)
        ],
        "current_name": name_of(found, found["current"]),
        "coming_name": name_of(found, coming),
        "round_ends": new_round,
    }


def describe(template: str):
    return lambda p: _(template) % {"name": base.shown(p.get("name")), "who": p.get("label", "")}


COMMANDS = (
    Command(
        "turns.seat",
        SeatForm,
        apply_seat,
        lambda p: (
            _("%(name)s: a seat for %(who)s")
            % {"name": base.shown(p.get("name")), "who": p.get("seat")}
        ),
        resolve=base.with_name("turns"),
    ),
    Command(
        "turns.unseat",
        UnseatForm,
        apply_unseat,
        describe(gettext_noop("%(name)s: %(who)s left the table")),
        resolve=resolve_unseat,
        stale_check=True,
    ),
    commands.random_command(
        "turns.first",
        TrackerForm,
        apply_first,
        describe(gettext_noop("%(name)s: %(who)s goes first (picked at random), round 1")),
        resolve_first,
    ),
    Command(
        "turns.next",
        TrackerForm,
        apply_next,
        describe(gettext_noop("%(name)s: %(who)s ended their turn")),
        resolve=resolve_move,
        stale_check=True,
    ),
    Command(
        "turns.pass",
        TrackerForm,
        apply_pass,
        describe(gettext_noop("%(name)s: %(who)s passed for this round")),
        resolve=resolve_move,
        stale_check=True,
    ),
)
