"""Lists with a reason: things added, and taken out with why (banished cards), restorable."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import CommandError, Payload, need_str, next_id
from campaigns.fields import TextField
from campaigns.trackers import base
from campaigns.trackers.base import MAX_ITEMS, NAME_LENGTH, WHY, ItemForm, TrackerForm, TrackerState


class ListAddForm(TrackerForm):
    text = TextField(label=gettext_lazy("Name"), max_length=NAME_LENGTH * 2)
    reason = TextField(
        label=gettext_lazy("Why (optional)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(WHY),
    )


class ListRemoveForm(TrackerForm):
    # One form per list (the page lists the entries in a select), not one per entry.
    item = forms.IntegerField(
        label=gettext_lazy("What to take out"), min_value=1, widget=forms.Select
    )
    reason = TextField(
        label=gettext_lazy("Why (optional)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(WHY),
    )


def apply_list_add(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "list")
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


def apply_list_remove(state: TrackerState, payload: Payload) -> None:
    item = base.entry(base.tracker(state, payload, "list")["items"], payload)
    if item["removed"]:
        raise CommandError(_("“%(text)s” is already taken out.") % {"text": item["text"]}, "item")
    item["removed"] = True
    item["removed_reason"] = need_str(payload, "reason", 200, blank=True).strip()


def apply_list_restore(state: TrackerState, payload: Payload) -> None:
    item = base.entry(base.tracker(state, payload, "list")["items"], payload)
    if not item["removed"]:
        raise CommandError(_("“%(text)s” is already in the list.") % {"text": item["text"]}, "item")
    item["removed"], item["removed_reason"] = False, ""


COMMANDS = (
    base.said("list.add", ListAddForm, apply_list_add, gettext_noop("%(name)s: added “%(text)s”")),
    base.said(
        "list.remove",
        ListRemoveForm,
        apply_list_remove,
        gettext_noop("%(name)s: took out “%(label)s”"),
    ),
    base.said(
        "list.restore", ItemForm, apply_list_restore, gettext_noop("%(name)s: restored “%(label)s”")
    ),
)
