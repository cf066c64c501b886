"""Aeon's End: Legacy's own template filter: the score form asks each character's life by name."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def for_characters(form: Any, characters: list[str]) -> Any:
    """`{% with form=score_form|for_characters:s.characters %}`: the score form (fresh, or
    bound to a refused post) with a life field per character of the campaign."""
    return form.name_lives(characters)
