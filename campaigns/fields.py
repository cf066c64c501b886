"""Form fields more than one game asks for, with what they accept."""

from __future__ import annotations

import datetime

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.words import visible

# The first day a game may be logged on: a year scrolled past on a phone's date wheel is a slip.
FIRST_DAY = datetime.date(1970, 1, 1)


def played_on(day: datetime.date) -> None:
    """A day a game was played: from 1970 to today where the phone is (its time zone, set by
    companion/phone_time.py), with a day's grace for a clock that runs ahead."""
    if not FIRST_DAY <= day <= timezone.localdate() + datetime.timedelta(days=1):
        raise ValidationError(_("Pick a day from 1970 to today."), code="played_on")


def played_date_field() -> forms.DateField:
    """The date of a logged game (Any game's results, Aeon's End's score chart, Eldritch
    Horror's log): a date picker, its value written as it posts (YYYY-MM-DD in every language).
    Checked when a phone sends it; a history or a file with another date still replays."""
    return forms.DateField(
        label=_("Date"),
        widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d"),
        validators=[played_on],
    )


class TextField(forms.CharField):
    """A text the group types (a name, a note, a line of a list). One that shows nothing (only
    spaces, zero-width characters, direction marks, fillers or accents with no letter under
    them: `words.visible`) counts as empty: a required field asks for it, as it does when left
    blank, and an optional one keeps nothing."""

    def to_python(self, value: object) -> str | None:
        text = super().to_python(value)
        return text if text and visible(text) else self.empty_value
