"""What the features of Aeon's End: Legacy share: small checks for apply() and form fields.

Forms check a request's shape (types, lengths); the rules (what fits the campaign as it is
now) are checked by each command's apply(), the code that replay, undo, redo and import run.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import (
    CommandError,
    Payload,
    jsonable,
    need_int,
    need_opt_int,
)
from campaigns.fields import TextField
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.words import visible


def games_played(state: AeonsEndState) -> int:
    return len(state["scores"])


def need_opt_game(payload: Payload) -> int | None:
    value = need_opt_int(payload, "game")
    if value is not None and not 0 <= value <= data.MAX_ROWS:
        raise CommandError(_("A game number cannot be negative."), "game")
    return value


def find[T: Mapping[str, object]](items: list[T], payload: Payload, key: str = "item") -> T:
    wanted = need_int(payload, key)
    for item in items:
        if item["id"] == wanted:
            return item
    raise CommandError(_("That entry is not there any more."), key)


def copy_named(
    items: Sequence[Mapping[str, object]], payload: Payload, field: str, key: str | None = None
) -> None:
    """Copies the `field` of the entry the payload names (its "item") into the payload as `key`
    (default `field`), for the history's words: "" when it is not there."""
    found = next((i for i in items if i["id"] == payload.get("item")), None)
    payload[key or field] = found[field] if found else ""


def with_info(*resolvers):
    """A resolve step that runs the given helpers, each adding words for the history."""

    def resolve(state: AeonsEndState, data_: Payload, rng: random.Random) -> Payload:
        payload = jsonable(data_)
        for helper in resolvers:
            helper(state, payload)
        return payload

    return resolve


# Form fields and forms more than one feature uses


class ValuesField(forms.Field):
    """Several short texts posted under one name (ticked checkboxes)."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, max_items: int = 30, max_length: int = data.CARD_LENGTH, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.max_items, self.max_length = max_items, max_length

    def bound_data(self, data: object, initial: object) -> None:
        # The template draws the checkboxes (the choices are the campaign's); the hidden-fields
        # partial must not post a refused list back as one more value.
        return None

    def to_python(self, value: object) -> list[str]:
        if value in (None, ""):
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or len(value) > self.max_items:
            raise forms.ValidationError(gettext_lazy("Too many ticked."))
        items = []
        for item in value:
            if not isinstance(item, str) or len(item) > self.max_length or "\x00" in item:
                raise forms.ValidationError(gettext_lazy("That is not one of the choices."))
            if visible(item) and item.strip() not in items:
                items.append(item.strip())
        return items


class LinesField(TextField):
    """A textarea, one item a line."""

    def __init__(self, *, max_items: int, item_length: int = data.CARD_LENGTH, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 4}))
        kwargs.setdefault("max_length", (item_length + 2) * max_items)
        super().__init__(**kwargs)
        self.max_items, self.item_length = max_items, item_length
        # The whole text's limit says what it stands for: lines, not "at most 744 characters".
        self.error_messages["max_length"] = lazy(self.too_long, str)()

    def too_long(self) -> str:
        return _("At most %(lines)d lines of %(chars)d characters each.") % {
            "lines": self.max_items,
            "chars": self.item_length,
        }

    def clean(self, value: object) -> list[str]:
        text = super().clean(value)
        items = [line.strip() for line in text.splitlines() if visible(line)]
        if len(items) > self.max_items:
            raise forms.ValidationError(
                gettext_lazy("At most %(n)d lines.") % {"n": self.max_items}
            )
        if any(len(item) > self.item_length for item in items):
            raise forms.ValidationError(
                gettext_lazy("Keep each line to %(n)d characters.") % {"n": self.item_length}
            )
        return items


def optional_game(label: StrOrPromise | None = None) -> forms.IntegerField:
    return forms.IntegerField(
        label=label or gettext_lazy("Game"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        required=False,
        min_value=0,
        max_value=data.MAX_ROWS,
        error_messages={"min_value": gettext_lazy("A game number cannot be negative.")},
    )


class EmptyForm(forms.Form):
    pass


class ItemForm(forms.Form):
    """A command about one entry of a list: which entry is a hidden field of its form."""

    item = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
