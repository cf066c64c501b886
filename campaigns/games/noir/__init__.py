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

from campaigns.commands import registry
from campaigns.games.base import META_COMMANDS, Game, Page
from campaigns.games.noir import actions, columns, endphase, log, piles, triggers
from campaigns.games.noir.context import context
from campaigns.games.noir.setup import SetupForm, initial_state
from campaigns.games.noir.state import NoirState

GAME = Game[NoirState](
    key="noir",
    name=_("Arkham Noir"),
    blurb=_("A solo case tracker: case columns, piles, the end-phase checks and a log of cases."),
    setup_form=SetupForm,
    stylesheet="css/noir.css",
    initial_state=initial_state,
    commands=registry(
        META_COMMANDS,
        actions.COMMANDS,
        triggers.COMMANDS,
        columns.COMMANDS,
        piles.COMMANDS,
        endphase.COMMANDS,
        log.COMMANDS,
    ),
    template="games/noir/table.html",
    display="games/noir/display.html",
    context=context,
    pages={"log": Page(_("Cases played"), "games/noir/log.html")},
)
