"""Eldritch Horror: a long game saved between nights, with doom, the omen, mysteries, the
investigators, the mythos deck drawn on the server, dice with exact odds, and a log of games.

One module per feature, each keeping its commands' forms, rules and words together: ``setup``
(a new game from the data), ``doom`` (doom, omen, gates), ``mysteries``, ``investigators``,
``round`` (phases and the lead), ``mythos_deck``, ``rolls`` (dice and odds), ``log`` (the
games played and the random pick) and ``names`` (the names the pages read: the group's own, a
localized edition's). ``state`` describes the state (TypedDicts), ``data`` holds the facts
(``facts.json``), ``context`` joins what the pages show.
"""

from django.utils.translation import gettext_lazy as _

from campaigns.games.base import Game, Page, own_game
from campaigns.games.eldritch import (
    doom,
    investigators,
    log,
    mysteries,
    mythos_deck,
    names,
    rolls,
    round,
    setup,
)
from campaigns.games.eldritch.context import context
from campaigns.games.eldritch.state import EldritchState

# The feature modules, in the order their commands are registered.
FEATURES = (setup, doom, mysteries, investigators, round, mythos_deck, rolls, log, names)

GAME: Game[EldritchState] = own_game(
    "eldritch",
    FEATURES,
    name=_("Eldritch Horror"),
    blurb=_(
        "A long game saved between nights: doom, omen, mysteries, investigators, the mythos "
        "deck on every phone, dice with exact odds, and a log of games."
    ),
    setup_form=setup.SetupForm,
    initial_state=setup.initial_state,
    context=context,
    pages={
        "setup": Page(_("Set-up"), "games/eldritch/setup.html"),
        # The odds asked for (rolls.rolls_view).
        "dice": Page(_("Dice"), "games/eldritch/dice.html", frozenset({"dice", "clues", "bonus"})),
        "log": Page(_("Games log"), "games/eldritch/log.html"),
    },
)
