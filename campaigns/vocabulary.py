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

RESULT_WORDS = {"win": _("Win"), "loss": _("Loss"), "other": _("Other")}


def pick[V](words: Mapping[str, V], *keys: str) -> dict[str, V]:
    """A game's own list of some of the shared words, in the order it gives."""
    return {key: words[key] for key in keys}
