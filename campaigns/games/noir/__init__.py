"""Arkham Noir: a solo case tracker that does the end-phase checks, and a log of cases played.

One module per feature, each keeping its commands' forms, rules and words together: ``actions``
(the action phase's a)-e)), ``triggers`` (the sanity check, the storm card, the hand's
discard), ``columns`` (the case columns and their corrections), ``piles``, ``endphase`` (the end
phase a)-d), the clue deck running out, the win rule) and ``log`` (the cases played, the next
case). ``setup`` builds a new campaign's state, ``state`` describes it (TypedDicts), ``data``
holds the facts, ``context`` joins what the pages show. The rules themselves are the pure engine
``campaigns/engines/noir.py``.
"""

from django.utils.translation import gettext_lazy as _

from campaigns.games.base import Game, Page, own_game
from campaigns.games.noir import actions, columns, endphase, log, piles, triggers
from campaigns.games.noir.context import context
from campaigns.games.noir.setup import SetupForm, initial_state
from campaigns.games.noir.state import NoirState

# The feature modules, in the order their commands are registered.
FEATURES = (actions, triggers, columns, piles, endphase, log)

GAME: Game[NoirState] = own_game(
    "noir",
    FEATURES,
    name=_("Arkham Noir"),
    blurb=_("A solo case tracker: case columns, piles, the end-phase checks and a log of cases."),
    setup_form=SetupForm,
    initial_state=initial_state,
    context=context,
    pages={"log": Page(_("Cases played"), "games/noir/log.html")},
)
