"""Arkham Horror: The Card Game: campaign log, investigators, a chaos bag with exact odds."""

from django.utils.translation import gettext_lazy as _

from campaigns.commands import registry
from campaigns.games.arkham.commands import COMMANDS
from campaigns.games.arkham.context import context
from campaigns.games.arkham.forms import SetupForm, initial_state
from campaigns.games.base import META_COMMANDS, Game, Page
from campaigns.trackers import COMMANDS as TRACKER_COMMANDS

GAME = Game(
    key="arkham",
    name=_("Arkham Horror: The Card Game"),
    blurb=_(
        "The campaign log, each investigator's trauma and XP, and a chaos bag with exact odds."
    ),
    setup_form=SetupForm,
    stylesheet="css/arkham.css",
    initial_state=initial_state,
    commands=registry(META_COMMANDS, TRACKER_COMMANDS.values(), COMMANDS.values()),
    template="games/arkham.html",
    context=context,
    pages={
        "bag": Page(_("Chaos bag"), "games/arkham-bag.html"),
        "round": Page(_("Round"), "games/arkham-round.html"),
    },
)
