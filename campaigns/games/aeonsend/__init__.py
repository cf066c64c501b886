"""Aeon's End: Legacy: the legacy campaign record, a score chart and a turn order deck.

The table page keeps the campaign record (chapter and the stickers due, the mages, the supply
and its upgrade, banished cards); game pages hold the turn order deck and life at the table,
the score chart, the rulebook stickers and sealed contents, and play outside the campaign.

One module per feature, each with its commands (form, resolve, apply, describe), named once:
legacy (chapter, stickers, seals, Legacy deck, mages), banished, supply, scores (with chart),
turns (a game, life and the turn order deck), ending (when a game is over), nemesis (its deck
and what is in play), exhausted (the rule and its stickers), owned (the sets the group owns,
their cards and market set-ups; facts in cards.py) and outside (randomizer, deck builder);
setup builds the state before any event, context joins what the features show.
"""

from django.utils.translation import gettext_lazy as _

from campaigns.games.aeonsend import (
    banished,
    ending,
    exhausted,
    legacy,
    nemesis,
    outside,
    owned,
    scores,
    start,
    supply,
    turns,
)
from campaigns.games.aeonsend.context import page_context
from campaigns.games.aeonsend.setup import SetupForm, initial_state
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.games.base import Game, Page, own_game

# The feature modules, in the order their commands are registered.
FEATURES = (
    legacy,
    banished,
    supply,
    scores,
    start,
    turns,
    ending,
    outside,
    nemesis,
    exhausted,
    owned,
)

GAME: Game[AeonsEndState] = own_game(
    "aeonsend",
    FEATURES,
    table="record",
    name=_("Aeon's End: Legacy"),
    blurb=_(
        "Stickers, sealed boxes, banished cards, the supply upgrade, a score chart and the "
        "turn order deck at the table."
    ),
    setup_form=SetupForm,
    initial_state=initial_state,
    context=page_context,
    query=frozenset({"q"}),  # the banished cards' search
    pages={
        "turns": Page(_("Turn order"), "games/aeonsend/turns.html"),
        # The score form opened, filled from the table.
        "chart": Page(_("Score chart"), "games/aeonsend/chart.html", frozenset({"record"})),
        "legacy": Page(_("Stickers & seals"), "games/aeonsend/legacy.html"),
        "outside": Page(_("Outside"), "games/aeonsend/outside.html"),
    },
)
