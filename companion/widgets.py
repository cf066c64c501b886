"""Django's form renderer, with the plain `<input>` widgets written without a template.

Every form field a page shows (`{{ field }}` in campaigns/field.html) is drawn by Django's
widget templates: for a text or number box, `input.html` and `attrs.html`, two template
renders for one tag, which cost a change's answer about as much as all its own queries (the
chaos bag draw shows one number box; its page shows dozens). Those two templates only write
the tag, so it is written here in Python, the same HTML (tests/test_widgets.py compares every
input type with Django's templates). Any other widget (a select, a textarea, radios), or one
whose template a project overrides, still goes through the templates.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.forms.renderers import DjangoTemplates
from django.http import HttpRequest
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe

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


def formatted(value: object) -> str:
    """`value|stringformat:'s'`, escaped as a template escapes it (safe text stays as it is)."""
    return str(value) if isinstance(value, SafeData) else str(conditional_escape(f"{value}"))


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
    for name, value in widget["attrs"].items():
        if value is not False:
            parts.append(f" {conditional_escape(name)}")
            if value is not True:
                parts.append(f'="{formatted(value)}"')
    parts.append(">")
    return "".join(parts)


class FormRenderer(DjangoTemplates):
    def render(
        self, template_name: str, context: dict[str, Any], request: HttpRequest | None = None
    ) -> str:
        if template_name in INPUTS and context.keys() == {"widget"}:
            return mark_safe(input_tag(context["widget"]))
        return super().render(template_name, context, request)
