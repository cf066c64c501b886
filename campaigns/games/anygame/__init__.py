"""Any game: a campaign built from the shared trackers, for a game we do not model yet."""

from django.utils.translation import gettext_lazy as _

from campaigns.commands import Command, registry
from campaigns.games.anygame.forms import SetupForm, initial_state
from campaigns.games.base import META_COMMANDS, Game
from campaigns.trackers import COMMANDS as TRACKER_COMMANDS
from campaigns.trackers import page_context
from campaigns.trackers.page import on_display
from campaigns.trackers.types import AnyGameState

COMMANDS: dict[str, Command[AnyGameState]] = registry(META_COMMANDS, TRACKER_COMMANDS.values())

GAME = Game[AnyGameState](
    key="any",
    name=_("Any game"),
    blurb=_("Counters, checklists, lists, notes and a results table, set up as your game needs."),
    setup_form=SetupForm,
    initial_state=initial_state,
    commands=COMMANDS,
    template="games/anygame.html",
    context=page_context,
    displays=on_display,
)
