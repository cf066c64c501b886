"""Trauma and killed or insane (Rules Reference "Trauma", "Killed and Insane Investigators"):
physical and mental trauma, each from 0 to 30; an investigator whose physical trauma reaches
their health is killed, whose mental trauma reaches their sanity is driven insane, or as the
group marks them (the group's word wins); either is for the rest of the campaign. The
investigator's own commands (``investigator.trauma``, ``investigator.mark``) and what the
record after a scenario gains of them (``scenario`` calls ``after_scenario``).

In the state each investigator has ``physical`` and ``mental`` trauma, ``status`` (following
from the trauma against health and sanity, or from ``marked``) and ``marked``.
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_choice, need_int, said_int
from campaigns.games.arkham.catalogue import reader_name
from campaigns.games.arkham.common import (
    PEOPLE,
    InvestigatorIdForm,
    investigator,
    signed,
    with_investigator,
)
from campaigns.games.arkham.state import ArkhamState, Investigator

TRAUMA_KINDS = ("physical", "mental")
STATUSES = ("active", "killed", "insane")


def refresh_status(found: Investigator) -> None:
    """Killed or insane by trauma, or as the group marked them (the group's word wins). Killed
    or insane is for the rest of the campaign: whatever their trauma does later, they stay as
    they left (Rules Reference "Killed and Insane Investigators"); only undoing the change that
    marked them brings them back."""
    if found["status"] != "active":
        return
    if found["marked"]:
        found["status"] = found["marked"]
    elif found["physical"] >= found["health"]:
        found["status"] = "killed"
    elif found["mental"] >= found["sanity"]:
        found["status"] = "insane"
    else:
        found["status"] = "active"


def keep_active_in_play(state: ArkhamState) -> None:
    """The investigator the bag tests for must be in play: one killed or insane is not."""
    active = state.get("active")
    found = next((i for i in state.get("investigators", []) if i["id"] == active), None)
    if found is not None and found["status"] != "active":
        state["active"] = None


# Trauma


def trauma_view(found: Investigator) -> list[dict[str, object]]:
    """Each trauma as the table page shows it: its value out of health or sanity, and whether
    its − can go no further (no trauma below 0)."""
    return [
        {
            "kind": kind,
            "label": label,
            "value": trauma_of(found, kind),
            "of": found["health"] if kind == "physical" else found["sanity"],
            "none": trauma_of(found, kind) <= 0,
        }
        for kind, label in (("physical", _("Physical trauma")), ("mental", _("Mental trauma")))
    ]


def trauma_of(found: Investigator, kind: str) -> int:
    return found["physical"] if kind == "physical" else found["mental"]


def set_trauma(found: Investigator, kind: str, value: int) -> None:
    if value < 0:
        message = (
            _("%(name)s's physical trauma cannot go below 0.")
            if kind == "physical"
            else _("%(name)s's mental trauma cannot go below 0.")
        )
        raise CommandError(message % {"name": reader_name(found["name"])}, kind)
    if value > 30:
        raise CommandError(_("Keep trauma to 30 or less."), kind)
    if kind == "physical":
        found["physical"] = value
    else:
        found["mental"] = value
    refresh_status(found)


def apply_trauma(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    kind = need_choice(payload, "kind", TRAUMA_KINDS)
    value = trauma_of(found, kind) + need_int(payload, "delta", -30, 30)
    set_trauma(found, kind, value)
    keep_active_in_play(state)


def describe_trauma(p: Payload) -> str:
    template = (
        _("%(name)s: physical trauma %(delta)s")
        if p.get("kind") == "physical"
        else _("%(name)s: mental trauma %(delta)s")
    )
    return template % {"name": reader_name(p.get("name")), "delta": signed(said_int(p, "delta"))}


# Killed or insane


def resolve_mark(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    """Killed or insane is for the rest of the campaign: a new mark on one who left is refused
    here, when the tap is made. (A history recorded before this rule, where the group brought
    someone back, still replays as it was played.) Its refusals name no field: the status is
    the button tapped, so the message shows at the top of the investigator's card."""
    found = investigator(state, data_)
    if found["status"] != "active":
        message = (
            _(
                "%(name)s was killed and cannot come back in this campaign: undo the change that "
                "marked them instead."
            )
            if found["status"] == "killed"
            else _(
                "%(name)s was driven insane and cannot come back in this campaign: undo the "
                "change that marked them instead."
            )
        )
        raise CommandError(message % {"name": reader_name(found["name"])})
    return with_investigator(state, data_, rng)


def apply_mark(state: ArkhamState, payload: Payload) -> None:
    """The group's word."""
    found = investigator(state, payload)
    status = need_choice(payload, "status", STATUSES)
    if status == "active" and found["status"] != "active":
        found["status"] = "active"  # (only in a history recorded before resolve_mark's rule)
    found["marked"] = None if status == "active" else status
    refresh_status(found)
    keep_active_in_play(state)


def describe_mark(p: Payload) -> str:
    status, name = p.get("status"), {"name": reader_name(p.get("name"))}
    if status == "killed":
        return _("%(name)s marked killed") % name
    if status == "insane":
        return _("%(name)s marked insane") % name
    return _("%(name)s back in play") % name


# After a scenario


def after_scenario(
    found: Investigator, row: Payload, who: dict[str, str], key: int
) -> dict[str, int]:
    """The trauma an investigator gained in a scenario, and killed or insane as the group
    recorded it (the step after a scenario): the gains, each kind refused next to its field
    (``<kind>-<key>``)."""
    fate = row.get("fate") or ""
    if fate not in ("", "killed", "insane"):
        raise CommandError(_("%(name)s: killed or insane, or neither.") % who, f"fate-{key}")
    if fate and found["status"] == "active":
        found["marked"] = fate  # the group's word wins over the trauma gained with it
    gains = {}
    for kind in TRAUMA_KINDS:
        gains[kind] = need_int(row, kind)
        if gains[kind] < 0:
            message = (
                _("%(name)s: physical trauma gained cannot be negative.")
                if kind == "physical"
                else _("%(name)s: mental trauma gained cannot be negative.")
            )
            raise CommandError(message % who, f"{kind}-{key}")
        if trauma_of(found, kind) + gains[kind] > 30:
            raise CommandError(_("Keep trauma to 30 or less."), f"{kind}-{key}")
        set_trauma(found, kind, trauma_of(found, kind) + gains[kind])
    return gains


# What the phones post


class TraumaForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        choices=[
            ("physical", gettext_lazy("Physical trauma")),
            ("mental", gettext_lazy("Mental trauma")),
        ],
        widget=forms.HiddenInput,
    )
    delta = forms.IntegerField(
        label=gettext_lazy("Change"), min_value=-30, max_value=30, widget=forms.HiddenInput
    )


class MarkForm(InvestigatorIdForm):
    status = forms.ChoiceField(
        choices=[
            ("active", gettext_lazy("in play")),
            ("killed", gettext_lazy("killed")),
            ("insane", gettext_lazy("insane")),
        ]
    )


COMMANDS = (
    Command("investigator.trauma", TraumaForm, apply_trauma, describe_trauma, with_investigator),
    Command("investigator.mark", MarkForm, apply_mark, describe_mark, resolve_mark, **PEOPLE),
)
