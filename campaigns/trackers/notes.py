"""The notes log: entries written down, crossed out and restored, never lost."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import CommandError, Payload, need_str, next_id
from campaigns.fields import TextField
from campaigns.trackers import base
from campaigns.trackers.base import MAX_ITEMS, TEXT_LENGTH, ItemForm, TrackerForm, TrackerState


class NoteForm(TrackerForm):
    text = TextField(
        label=gettext_lazy("Note"),
        max_length=TEXT_LENGTH,
        widget=forms.Textarea({"rows": 2}),
    )


def apply_note(state: TrackerState, payload: Payload) -> None:
    found = base.tracker(state, payload, "notes")
    if len(found["entries"]) >= MAX_ITEMS * 4:
        raise CommandError(_("Too many items."), "text")
    text = need_str(payload, "text", TEXT_LENGTH).strip()
    found["entries"].append({"id": next_id(state), "text": text, "crossed": False})


def crossing(crossed: bool):
    def apply(state: TrackerState, payload: Payload) -> None:
        item = base.entry(base.tracker(state, payload, "notes")["entries"], payload)
        if item["crossed"] == crossed:
            message = (
                _("That note is already crossed out.")
                if crossed
                else _("That note is not crossed out.")
            )
            raise CommandError(message, "item")
        item["crossed"] = crossed

    return apply


COMMANDS = (
    base.said("notes.add", NoteForm, apply_note, gettext_noop("%(name)s: wrote “%(text)s”")),
    base.said(
        "notes.cross", ItemForm, crossing(True), gettext_noop("%(name)s: crossed out “%(label)s”")
    ),
    base.said(
        "notes.restore", ItemForm, crossing(False), gettext_noop("%(name)s: restored “%(label)s”")
    ),
)
