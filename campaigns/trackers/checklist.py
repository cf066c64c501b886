"""Checklists: items ticked and unticked (stickers, envelopes, unlocks)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import Command, CommandError, Payload, need_bool, need_str, next_id
from campaigns.fields import TextField
from campaigns.trackers.base import (
    MAX_ITEMS,
    NAME_LENGTH,
    ItemForm,
    TrackerForm,
    TrackerState,
    entry,
    said,
    shown,
    tracker,
    with_name,
)


class CheckForm(ItemForm):
    done = forms.BooleanField(required=False)


class LabelForm(TrackerForm):
    label = TextField(label=gettext_lazy("New item"), max_length=NAME_LENGTH)


def apply_check(state: TrackerState, payload: Payload) -> None:
    entry(tracker(state, payload, "checklist")["items"], payload)["done"] = need_bool(
        payload, "done"
    )


def apply_add_item(state: TrackerState, payload: Payload) -> None:
    found = tracker(state, payload, "checklist")
    if len(found["items"]) >= MAX_ITEMS:
        raise CommandError(_("Too many items."), "label")
    label = need_str(payload, "label", NAME_LENGTH).strip()
    found["items"].append({"id": next_id(state), "label": label, "done": False})


def describe_check(p: Payload) -> str:
    template = (
        _("%(name)s: ticked “%(label)s”") if p.get("done") else _("%(name)s: unticked “%(label)s”")
    )
    return template % {"name": shown(p.get("name"), p.get("shipped")), "label": p.get("label")}


COMMANDS = (
    Command(
        "checklist.check",
        CheckForm,
        apply_check,
        describe_check,
        resolve=with_name("checklist"),
    ),
    said("checklist.add", LabelForm, apply_add_item, gettext_noop("%(name)s: added “%(label)s”")),
)
