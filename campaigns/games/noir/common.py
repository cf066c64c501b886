"""What the Arkham Noir features share: running an engine change, the fields every form uses."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import CommandError, Payload, need_int
from campaigns.engines import noir
from campaigns.games.noir.state import NoirState


def change(state: NoirState, step: Callable[..., noir.Play], *args: object) -> None:
    """Run one engine change on the play, turning its refusal into the user's message."""
    try:
        state["play"] = step(state["play"], *args)
    except noir.NoirError as error:
        raise CommandError(_(error.message) % error.params, error.field or None) from None


def either(
    key: str, yes: str, no: str, fill: Callable[[Payload], Payload] | None = None
) -> Callable[[Payload], str]:
    """A history line: msgid `yes`, or `no` when the payload's `key` is off (both gettext_noop'd),
    filled with `fill(payload)`."""
    return lambda p: _(yes if p.get(key) else no) % (fill(p) if fill else {})


def column_id(payload: Payload) -> int:
    return need_int(payload, "column", 1, 10**6)


def flag(payload: Payload, key: str) -> bool:
    """A checkbox: missing or false is off (a hostile file's string is refused)."""
    value = payload.get(key, False)
    if not isinstance(value, bool):
        raise CommandError(_("“%(key)s” must be true or false.") % {"key": key}, key)
    return value


def hidden_choice(label: StrOrPromise, choices: Mapping[str, StrOrPromise]) -> forms.ChoiceField:
    """One of `choices`, set by the button tapped (a hidden input in the button's form)."""
    return forms.ChoiceField(label=label, choices=list(choices.items()), widget=forms.HiddenInput)


class ColumnField(forms.IntegerField):
    def __init__(self) -> None:
        super().__init__(
            label=gettext_lazy("Case"), widget=forms.HiddenInput, min_value=1, max_value=10**6
        )


class HourglassField(forms.BooleanField):
    """Whether the discarded card shows an hourglass (then it goes to the time-out pile)."""

    def __init__(
        self, label: StrOrPromise | None = None, widget: type[forms.Widget] | None = None
    ) -> None:
        super().__init__(
            label=label or gettext_lazy("It shows an hourglass (to the time-out pile)"),
            widget=widget,
            required=False,
        )


class DeltaField(forms.IntegerField):
    def __init__(self) -> None:
        super().__init__(
            label=gettext_lazy("Change"), min_value=-1, max_value=1, widget=forms.HiddenInput
        )


MOST_TYPES = 12
