"""Arkham Horror: The Card Game: campaign log, investigators, a chaos bag with exact odds.

One module per feature of the game, each keeping its commands' forms, rules and words together:
``bag`` (what is in the bag), ``draw`` (a test's commands: draw, reveal another, several at
once, done), ``symbols`` (what skull, cultist, tablet, elder thing and the elder sign do),
``card`` (the scenario reference card's lines, read from the box's facts when a scenario
starts, with X's count, a condition, the act; ``card_words`` says them), ``investigators``,
``trauma`` (trauma, killed or insane), ``xp`` (earning and spending it), ``log`` (the campaign
log's sections and supplies), ``scenario`` (starting one, recording it afterwards), ``names``
(the group's own names for investigators and scenarios) and ``round`` (the round helper).
``setup`` builds a new campaign's state, ``state`` describes it (TypedDicts), ``data`` and
``catalogue`` hold the facts (the catalogue: scenarios and investigators to pick), ``bag_page``
what the chaos bag page shows (the odds included) and ``context`` joins what the pages show.

One module per rule of the chaos bag, named for it, the engine (``campaigns.engines.chaos``)
below it: ``reveals`` (the chain of reveals in a test: reveal another, X, auto-fail and auto-
success, the end of a test), ``bless_curse`` (the pool: back to it after a test, out at a
scenario's end), ``frost`` (a second frost fails the test, a symbol that counts as a frost) and
``sealing`` (sealing and releasing tokens on cards).
"""

from django.utils.translation import gettext_lazy as _

from campaigns.commands import Command, registry
from campaigns.games.arkham import (
    bag,
    card,
    draw,
    investigators,
    log,
    names,
    round,
    scenario,
    sealing,
    symbols,
    trauma,
    xp,
)
from campaigns.games.arkham.bag_page import OddsForm
from campaigns.games.arkham.context import context
from campaigns.games.arkham.setup import SetupForm, initial_state
from campaigns.games.arkham.state import ArkhamState
from campaigns.games.base import META_COMMANDS, Game, Page
from campaigns.trackers import COMMANDS as TRACKER_COMMANDS

COMMANDS: dict[str, Command[ArkhamState]] = registry(
    META_COMMANDS,
    TRACKER_COMMANDS.values(),
    draw.COMMANDS,
    bag.COMMANDS,
    sealing.COMMANDS,
    symbols.COMMANDS,
    investigators.COMMANDS,
    trauma.COMMANDS,
    xp.COMMANDS,
    log.COMMANDS,
    scenario.COMMANDS,
    card.COMMANDS,
    names.COMMANDS,
    round.COMMANDS,
)

GAME = Game[ArkhamState](
    key="arkham",
    name=_("Arkham Horror: The Card Game"),
    blurb=_(
        "The campaign log, each investigator's trauma and XP, and a chaos bag with exact odds."
    ),
    setup_form=SetupForm,
    stylesheet="css/arkham.css",
    initial_state=initial_state,
    commands=COMMANDS,
    template="games/arkham/table.html",
    display="games/arkham/display.html",
    context=context,
    pages={
        # The odds for a test: skill, difficulty and each X.
        "bag": Page(_("Chaos bag"), "games/arkham/bag.html", frozenset(OddsForm.base_fields)),
        "round": Page(_("Round"), "games/arkham/round.html"),
    },
)
