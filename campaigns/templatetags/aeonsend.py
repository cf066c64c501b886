"""Aeon's End: Legacy's own template filter: the score form asks each character's life by name."""

from __future__ import annotations

from django import template

from campaigns.games.aeonsend.scores import ScoreForm

register = template.Library()


@register.filter
def for_characters(form: ScoreForm, characters: list[str]) -> ScoreForm:
    """`{% with form=score_form|for_characters:s.characters %}`: the score form (fresh, or
    bound to a refused post) with a life field per character of the campaign."""
    return form.name_lives(characters)
