"""The site's form renderer writes plain `<input>`, `<select>` and `<textarea>` widgets itself
(companion/widgets.py): the HTML must be exactly what Django's own widget templates write."""

from __future__ import annotations

import datetime

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from companion.widgets import INPUTS, SELECT, TEXTAREA, FormRenderer


class Everything(forms.Form):
    text = forms.CharField(
        max_length=80, widget=forms.TextInput(attrs={"placeholder": 'a "b" <c>'})
    )
    number = forms.IntegerField(min_value=0, max_value=99, required=False)
    hidden = forms.IntegerField(widget=forms.HiddenInput)
    email = forms.EmailField(widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password = forms.CharField(widget=forms.PasswordInput(render_value=True))
    url = forms.URLField(required=False)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(required=False, widget=forms.TimeInput)
    when = forms.DateTimeField(required=False, widget=forms.DateTimeInput)
    search = forms.CharField(widget=forms.TextInput(attrs={"type": "search", "disabled": True}))
    tick = forms.BooleanField(required=False)
    off = forms.CharField(widget=forms.TextInput(attrs={"hidden": False, "data-x": 0}))
    safe = forms.CharField(widget=forms.TextInput(attrs={"title": mark_safe("<b>&amp;</b>")}))


VALUES = [
    {},
    {
        "text": "O'Neil & <Sons>",
        "number": 7,
        "hidden": 3,
        "email": "a@b.c",
        "password": "p&ss",
        "url": "https://example.com/?a=1&b=2",
        "date": datetime.date(2026, 12, 1),
        "time": datetime.time(23, 5),
        "when": datetime.datetime(2026, 12, 1, 23, 5),
        "search": '"quoted"',
        "tick": True,
        "off": "",
        "safe": mark_safe("<i>typed</i>"),
    },
]


class NoTemplates(FormRenderer):
    """The site's renderer, proving it draws these widgets without a template."""

    def get_template(self, template_name):
        raise AssertionError(f"{template_name} was loaded")


@pytest.mark.parametrize("values", VALUES, ids=["empty", "filled"])
@pytest.mark.parametrize("bound", [False, True], ids=["unbound", "bound"])
def test_every_plain_input_is_written_as_django_writes_it(values, bound):
    def form(renderer):
        if bound:
            return Everything(values, auto_id=False, renderer=renderer)
        return Everything(initial=values, renderer=renderer)

    ours, theirs = form(NoTemplates()), form(DjangoTemplates())
    for name, field in ours.fields.items():
        assert field.widget.template_name in INPUTS
        assert str(ours[name]) == str(theirs[name]), name
    assert 'maxlength="80" required' in str(ours["text"]) and "disabled" in str(ours["search"])


CHOICES = [
    ("", "---"),
    ("Seen", [("a", "A & B"), ("b", mark_safe("<b>B</b>")), (3, 3)]),
    (4, gettext_lazy("Undo")),
    ("Later", [("c", "C"), (5, datetime.datetime(2026, 12, 1, 23, 5, tzinfo=datetime.UTC))]),
    ("d", 'D "quoted"'),
]


class Picks(forms.Form):
    one = forms.ChoiceField(choices=CHOICES, required=False)
    many = forms.MultipleChoiceField(choices=CHOICES, required=False)
    number = forms.TypedChoiceField(choices=[(1, 1), (1000, 1000)], coerce=int)
    flag = forms.NullBooleanField()
    styled = forms.ChoiceField(
        choices=[("x", "X")], widget=forms.Select(attrs={"class": "big", "disabled": True})
    )
    note = forms.CharField(widget=forms.Textarea, required=False)
    short = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "<say>", "hidden": False})
    )


PICKS = [
    {},
    {"one": "a", "many": ["b", "4", "d"], "number": 1000, "flag": True, "styled": "x"},
    {"one": "3", "many": [], "flag": False, "note": "O'Neil & <Sons>\nline 2", "short": " x "},
    {"one": "nothing of ours", "note": mark_safe("<i>typed</i>")},
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("values", PICKS, ids=["empty", "chosen", "other", "unknown"])
@pytest.mark.parametrize("bound", [False, True], ids=["unbound", "bound"])
def test_every_select_and_textarea_is_written_as_django_writes_it(values, bound, language):
    def form(renderer):
        if bound:
            return Picks(values, renderer=renderer)
        return Picks(initial=values, renderer=renderer)

    with translation.override(language):
        ours, theirs = form(NoTemplates()), form(DjangoTemplates())
        for name, field in ours.fields.items():
            assert field.widget.template_name in {SELECT, TEXTAREA}
            assert str(ours[name]) == str(theirs[name]), name
        drawn = str(ours["one"]) + str(ours["note"])
    assert "<optgroup" in drawn and "A &amp; B" in drawn and "<b>B</b>" in drawn
    assert (">元に戻す<" if language == "ja" else ">Undo<") in drawn
    assert "<textarea" in drawn


def test_a_widget_with_a_template_of_its_own_goes_through_the_templates():
    widget = forms.RadioSelect(choices=[("a", "A & B")])
    assert widget.render("pick", "a", renderer=FormRenderer()) == widget.render(
        "pick", "a", renderer=DjangoTemplates()
    )
    with pytest.raises(AssertionError, match=r"radio\.html was loaded"):
        widget.render("pick", "a", renderer=NoTemplates())


def test_two_forms_drawn_from_one_shared_form_share_nothing_of_their_values():
    """campaigns/templatetags/command_forms.py shares one unbound form's fields between the
    forms a page draws and empties Django's per-form cache of bound fields in each copy: if
    Django kept that cache under another name, the second form would show the first's value."""
    from campaigns.templatetags.command_forms import fresh_form

    class Adjust(forms.Form):
        tracker = forms.IntegerField(widget=forms.HiddenInput)
        delta = forms.IntegerField(widget=forms.HiddenInput)

    first = fresh_form(Adjust, {"tracker": 1, "delta": 1})
    assert 'value="1"' in str(first["tracker"])
    second = fresh_form(Adjust, {"tracker": 7, "delta": -1})
    assert 'value="7"' in str(second["tracker"]) and 'value="-1"' in str(second["delta"])
    assert 'value="1"' in str(first["tracker"])
    assert first.fields is second.fields  # (shared: that is the point)
