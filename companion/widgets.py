"""Django's form renderer, with the plain `<input>`, `<select>` and `<textarea>` widgets
written without a template.

Every form field a page shows (`{{ field }}` in campaigns/field.html) is drawn by Django's
widget templates: for a text or number box, `input.html` and `attrs.html`, two template
renders for one tag, which cost a change's answer about as much as all its own queries (the
chaos bag draw shows one number box; its page shows dozens). A select is three templates a
choice (`select.html`, then `select_option.html` and `attrs.html` for each option): the ten
selects of the chaos bag page took 7 of its 39 ms. Those templates only write the tags, so
they are written here in Python, the same HTML (tests/test_widgets.py compares every input
type, selects with groups and textareas with Django's templates). Any other widget (radios,
checkboxes in a list), or one whose template a project overrides, still goes through the
templates.
"""

from __future__ import annotations

import datetime
from typing import Any, TypedDict

from django.conf import settings
from django.forms.renderers import DjangoTemplates
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.timezone import is_aware, localtime
from django.utils.translation import gettext_noop

# Django's forms end a label with gettext(":") (a form's `label_suffix`: "Campaign name:" on the
# sign-up and new campaign forms). Django's own Japanese and Chinese catalogues keep the ASCII
# colon, a stray mark after Japanese or Chinese words; the site's catalogues, read first
# (LOCALE_PATHS), give the full-width one. Named here so that makemessages keeps the entry.
LABEL_SUFFIX = gettext_noop(":")

# Django's widget templates whose whole text is `{% include "django/forms/widgets/input.html" %}`.
INPUTS = frozenset(
    f"django/forms/widgets/{kind}.html"
    for kind in (
        "checkbox",
        "color",
        "date",
        "datetime",
        "email",
        "hidden",
        "number",
        "password",
        "search",
        "tel",
        "text",
        "time",
        "url",
    )
)


SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"
TEXTAREA = "django/forms/widgets/textarea.html"


def formatted(value: object) -> str:
    """`value|stringformat:'s'`, escaped as a template escapes it (safe text stays as it is)."""
    return str(value) if isinstance(value, SafeData) else str(conditional_escape(f"{value}"))


def shown(value: object) -> str:
    """`{{ value }}`, as a template writes it (in local time, localized, escaped unless safe)."""
    if isinstance(value, datetime.datetime) and settings.USE_TZ and is_aware(value):
        value = localtime(value)
    value = localize(value)
    return str(conditional_escape(value if isinstance(value, str) else str(value)))


def attributes(attrs: dict[str, object]) -> str:
    """Django's `attrs.html`: ` name="value"`, a True one by its name alone, a False one not."""
    parts = []
    for name, value in attrs.items():
        if value is not False:
            parts.append(f" {conditional_escape(name)}")
            if value is not True:
                parts.append(f'="{formatted(value)}"')
    return "".join(parts)


class InputContext(TypedDict):
    """What Django gives an input's template (of it, what `input_tag` reads)."""

    type: str
    name: str
    value: object
    attrs: dict[str, object]


def input_tag(widget: InputContext) -> str:
    parts = [
        f'<input type="{conditional_escape(widget["type"])}" '
        f'name="{conditional_escape(widget["name"])}"'
    ]
    if widget["value"] is not None:
        parts.append(f' value="{formatted(widget["value"])}"')
    parts += [attributes(widget["attrs"]), ">"]
    return "".join(parts)


class OptionContext(TypedDict):
    """An option of a select, as Django gives it to `select_option.html` (what is read of it)."""

    value: object
    label: object
    attrs: dict[str, object]
    template_name: str


class SelectContext(TypedDict):
    name: str
    attrs: dict[str, object]
    optgroups: list[tuple[object, list[OptionContext], int]]


def select_tag(widget: SelectContext) -> str:
    """Django's `select.html` with its options' `select_option.html`, the same characters (Django
    strips the whole text's ends, which here are the tags themselves)."""
    parts = [f'<select name="{shown(widget["name"])}"{attributes(widget["attrs"])}>']
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(f'\n  <optgroup label="{shown(group)}">')
        for option in options:
            parts.append(
                f'\n  <option value="{formatted(option["value"])}"'
                f"{attributes(option['attrs'])}>{shown(option['label'])}</option>\n"
            )
        if group:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


class TextareaContext(TypedDict):
    name: str
    value: object
    attrs: dict[str, object]


def textarea_tag(widget: TextareaContext) -> str:
    """Django's `textarea.html`."""
    value = shown(widget["value"]) if widget["value"] else ""
    start = f'<textarea name="{shown(widget["name"])}"{attributes(widget["attrs"])}>'
    return f"{start}\n{value}</textarea>"


def plain_options(widget: SelectContext) -> bool:
    return all(
        option["template_name"] == OPTION
        for _g, options, _i in widget["optgroups"]
        for option in options
    )


# A whole form drawn with `{{ form.as_p }}` (sign-up, log-in, a new campaign's set-up): Django's
# own layout puts a field's errors above its label, where they read as the previous field's
# (under the campaign's name, for a refused counter line). The site's layout draws them after the
# field, as campaigns/field.html does for the forms the pages draw field by field.
FORM_P = "django/forms/p.html"
SITE_FORM_P = "campaigns/form-p.html"


class FormRenderer(DjangoTemplates):
    def render(
        self, template_name: str, context: dict[str, Any], request: HttpRequest | None = None
    ) -> str:
        if template_name == FORM_P:
            return render_to_string(SITE_FORM_P, context, request)
        if context.keys() == {"widget"}:
            widget = context["widget"]
            if template_name in INPUTS:
                return mark_safe(input_tag(widget))
            if template_name == SELECT and plain_options(widget):
                return mark_safe(select_tag(widget))
            if template_name == TEXTAREA:
                return mark_safe(textarea_tag(widget))
        return super().render(template_name, context, request)
