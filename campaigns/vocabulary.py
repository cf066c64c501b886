"""Words several games use for the same thing, written (and translated) once: each game picks
its own list from them, in its own order (`pick`), and stores only the keys."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

# Arkham: easy, standard, hard, expert; Aeon's End: beginner … extinction; Eldritch: easy,
# normal, hard.
DIFFICULTY_WORDS = {
    "easy": _("Easy"),
    "standard": _("Standard"),
    "normal": _("Normal"),
    "hard": _("Hard"),
    "expert": _("Expert"),
    "beginner": _("Beginner"),
    "extinction": _("Extinction"),
}

# Aeon's End's characters (and their turn order cards) in all eight; Eldritch's mythos cards and
# gates in three each.
COLOUR_WORDS = {
    "red": _("Red"),
    "white": _("White"),
    "blue": _("Blue"),
    "green": _("Green"),
    "yellow": _("Yellow"),
    "purple": _("Purple"),
    "orange": _("Orange"),
    "black": _("Black"),
}

RESULT_WORDS = {"win": _("Win"), "loss": _("Loss"), "other": _("Other")}


def pick[V](words: Mapping[str, V], *keys: str) -> dict[str, V]:
    """A game's own list of some of the shared words, in the order it gives."""
    return {key: words[key] for key in keys}
