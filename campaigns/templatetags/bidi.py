"""`{{ name|isolate }}`: a text the group typed, isolated for direction (campaigns/bidi.py).
A builtin of the site's templates (settings.TEMPLATES), so every template has it."""

from __future__ import annotations

from django import template

from campaigns import bidi

register = template.Library()


@register.filter(is_safe=True)
def isolate(value: object) -> object:
    return bidi.isolate(value)
