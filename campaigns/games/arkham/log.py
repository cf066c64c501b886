"""The campaign log: its sections (Campaign Notes, the campaign's own named sections, the group's
custom ones) and The Forgotten Age's supplies.

The sections are the shared trackers (``campaigns.trackers``: recorded phrases, counters,
checklists), so their commands are the trackers' own; ``log_ids`` in the state names the
sections the campaign came with. Supplies are kept per investigator (``supplies``: key → count).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_choice
from campaigns.games.arkham import catalogue, data
from campaigns.games.arkham.common import (
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    with_investigator,
)
from campaigns.games.arkham.state import ArkhamState
from campaigns.trackers import KINDS, add_tracker, tracker_items


def start_log(state: ArkhamState, campaign: str) -> None:
    """The sections a campaign starts with: Campaign Notes and the campaign's own."""
    sections = [(data.CAMPAIGN_NOTES, "notes", [])] + data.CAMPAIGNS[campaign]["sections"]
    for name, kind, items in sections:
        spec: Payload = {"kind": kind, "name": name, "shipped": True}
        if kind == "counter":
            spec.update(minimum=0, maximum=None, start=0)
        if kind == "checklist":
            spec["items"] = list(items)
        state["log_ids"].append(add_tracker(state, spec)["id"])


# Supplies (The Forgotten Age)


def supplies_allowed(state: ArkhamState) -> None:
    if not data.CAMPAIGNS.get(state["campaign"], {}).get("supplies"):
        raise CommandError(_("This campaign has no supplies."), "supply")


def apply_supply(state: ArkhamState, payload: Payload) -> None:
    supplies_allowed(state)
    found = investigator(state, payload)
    key = need_choice(payload, "supply", tuple(data.SUPPLIES))
    label, _cost, multiple = data.SUPPLIES[key]
    count = found["supplies"].get(key, 0)
    if count and not multiple:
        raise CommandError(
            _("%(name)s already has %(supply)s.")
            % {"name": catalogue.reader_name(found["name"]), "supply": label},
            "supply",
        )
    if count >= 20:
        raise CommandError(_("That is as many as one can carry."), "supply")
    found["supplies"][key] = count + 1


def apply_use_supply(state: ArkhamState, payload: Payload) -> None:
    supplies_allowed(state)
    found = investigator(state, payload)
    key = need_choice(payload, "supply", tuple(data.SUPPLIES))
    if not found["supplies"].get(key):
        raise CommandError(
            _("%(name)s has no %(supply)s.")
            % {"name": catalogue.reader_name(found["name"]), "supply": data.SUPPLIES[key][0]},
            "supply",
        )
    found["supplies"][key] -= 1
    if not found["supplies"][key]:
        del found["supplies"][key]


class SupplyForm(InvestigatorIdForm):
    supply = forms.ChoiceField(
        label=pgettext_lazy("The Forgotten Age", "Supply"),
        choices=[(k, format_lazy("{} ({})", v[0], v[1])) for k, v in data.SUPPLIES.items()],
    )


class UseSupplyForm(SupplyForm):
    """Using up one the investigator holds: the supply is the button's, not a choice."""

    supply = forms.ChoiceField(
        label=pgettext_lazy("The Forgotten Age", "Supply"),
        choices=[(k, v[0]) for k, v in data.SUPPLIES.items()],
        widget=forms.HiddenInput,
    )


# What the table page shows


def log_items(state: ArkhamState) -> list[dict[str, Any]]:
    own = set(state.get("log_ids", []))
    items = []
    for found, item in zip(state["trackers"], tracker_items(state), strict=True):
        if found["id"] in own:
            item = {**item, "own": True}  # its name is already in the reader's language
        items.append(item)
    return items


def log_view(state: ArkhamState, in_play: int) -> dict[str, object]:
    log = log_items(state)
    return {
        "log": log,
        "notes_sections": [
            {**i, "key": f"entry-{i['t']['id']}"} for i in log if i["t"]["kind"] == "notes"
        ],
        "counter_sections": [
            {**i, "key": f"count-{i['t']['id']}"} for i in log if i["t"]["kind"] == "counter"
        ],
        "section_kinds": [(k, KINDS[k]) for k in ("notes", "counter", "checklist")],
        "supplies": data.CAMPAIGNS[state["campaign"]].get("supplies", False),
        "supply_choices": [(k, v[0], v[1]) for k, v in data.SUPPLIES.items()],
        "supply_points": data.SUPPLY_POINTS.get(min(max(in_play, 1), 4)),
    }


COMMANDS = (
    Command(
        "supply.add",
        SupplyForm,
        apply_supply,
        describe_investigator(gettext_noop("%(name)s took %(supply)s")),
        with_investigator,
    ),
    Command(
        "supply.use",
        UseSupplyForm,
        apply_use_supply,
        describe_investigator(gettext_noop("%(name)s used up %(supply)s")),
        with_investigator,
    ),
)
