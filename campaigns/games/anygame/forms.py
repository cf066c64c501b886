from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django_stubs_ext import StrOrPromise

from campaigns.commands import CommandError, Payload
from campaigns.fields import TextField
from campaigns.trackers import (
    add_tracker,
    parse_checklist_line,
    parse_counter_line,
    refuse_long_names,
)
from campaigns.trackers.types import AnyGameState
from campaigns.words import visible


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if visible(line)]


def lines_field(
    label: StrOrPromise,
    max_length: int,
    rows: int,
    example: StrOrPromise,
    help_text: StrOrPromise,
) -> TextField:
    """A text of lines, one tracker a line (optional): `example` is shown until one is typed."""
    return TextField(
        label=label,
        required=False,
        max_length=max_length,
        widget=forms.Textarea(attrs={"rows": rows, "placeholder": example}),
        help_text=help_text,
    )


class SetupForm(forms.Form):
    """Which trackers the group's game needs; more can be added on the campaign page later."""

    counters = lines_field(
        gettext_lazy("Counters"),
        2000,
        3,
        # Translators: example lines, a name then its numbers; translate the names only.
        gettext_lazy("Doom 0 12\nLife 0 30 30"),
        gettext_lazy(
            "One per line: a name, then if you like the lowest and highest value and the start."
        ),
    )
    checklists = lines_field(
        gettext_lazy("Checklists"),
        5000,
        3,
        gettext_lazy("Stickers: A, B, C"),
        gettext_lazy("One per line: a name, a colon, then the items separated by commas."),
    )
    lists = lines_field(
        gettext_lazy("Lists"),
        2000,
        2,
        gettext_lazy("Banished cards"),
        gettext_lazy("One name per line, for lists of things added and taken out."),
    )
    notes = forms.BooleanField(label=gettext_lazy("A notes log"), required=False, initial=True)
    results = forms.BooleanField(
        label=gettext_lazy("A results table (one row per game played)"),
        required=False,
        initial=True,
    )

    def clean_counters(self) -> list[dict[str, object]]:
        return [parse_counter_line(line) for line in lines(self.cleaned_data["counters"])]

    def clean_checklists(self) -> list[dict[str, object]]:
        return [parse_checklist_line(line) for line in lines(self.cleaned_data["checklists"])]

    def clean_lists(self) -> list[str]:
        names = lines(self.cleaned_data["lists"])
        refuse_long_names(*names)
        return names

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if self.errors:
            return data
        specs: list[Payload] = [*data["counters"], *data["checklists"]]
        specs += [{"kind": "list", "name": name} for name in data["lists"]]
        if data.get("notes"):
            specs.append({"kind": "notes", "name": gettext_noop("Notes"), "shipped": True})
        if data.get("results"):
            specs.append({"kind": "results", "name": gettext_noop("Results"), "shipped": True})
        try:
            initial_state({"trackers": specs})
        except CommandError as error:
            # A refusal about a name (two trackers called the same) belongs to the lists given.
            raise forms.ValidationError(error.message) from None
        return {"trackers": specs}


def initial_state(setup: Payload) -> AnyGameState:
    """The state before any event: the trackers the group asked for at creation."""
    state: AnyGameState = {"trackers": [], "next_id": 1}
    specs = setup.get("trackers", [])
    if not isinstance(specs, list):
        raise CommandError(_("The set-up is not a list of trackers."))
    for spec in specs:
        if not isinstance(spec, dict):
            raise CommandError(_("The set-up is not a list of trackers."))
        add_tracker(state, spec)
    return state
