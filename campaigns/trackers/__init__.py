"""The trackers every game reuses: counters, checklists, named lists, a notes log, results,
a dice roller, a deck, a turn tracker, a timer and a coin.

They live in `state["trackers"]`, a list of dicts with an `id`, a `kind` and a `name`. The
rules digest (`shared/spec/rules.md` §6) lists the primitives the games need: bounded counters
(life dials, doom), checklists of unlockables (stickers, envelopes), lists with a reason
(banished cards), a log, and a table of results. One module per kind holds its commands (form,
`apply`, `describe`, each name written once); `manage` adds and removes trackers, `page` says
what a page shows of them.
"""

from campaigns.commands import Command, registry
from campaigns.trackers import (
    checklist,
    coin,
    counter,
    lists,
    manage,
    notes,
    randomizers,
    results,
    timer,
    turns,
)
from campaigns.trackers.base import (
    COUNTER_LIMIT,
    KINDS,
    MAX_ITEMS,
    MAX_TRACKERS,
    NAME_LENGTH,
    RESULTS,
    TEXT_LENGTH,
    TrackerState,
    entry,
    names,
    refuse_long_names,
    shown,
    tracker,
    with_name,
    words,
)
from campaigns.trackers.counter import apply_adjust, apply_set, set_counter
from campaigns.trackers.manage import add_tracker, parse_checklist_line, parse_counter_line
from campaigns.trackers.notes import apply_note
from campaigns.trackers.page import page_context, tracker_items
from campaigns.trackers.results import results_chart

COMMANDS: dict[str, Command[TrackerState]] = registry(
    manage.COMMANDS,
    counter.COMMANDS,
    checklist.COMMANDS,
    lists.COMMANDS,
    notes.COMMANDS,
    results.COMMANDS,
    randomizers.COMMANDS,
    turns.COMMANDS,
    timer.COMMANDS,
    coin.COMMANDS,
)

__all__ = [
    "COMMANDS",
    "COUNTER_LIMIT",
    "KINDS",
    "MAX_ITEMS",
    "MAX_TRACKERS",
    "NAME_LENGTH",
    "RESULTS",
    "TEXT_LENGTH",
    "TrackerState",
    "add_tracker",
    "apply_adjust",
    "apply_note",
    "apply_set",
    "entry",
    "names",
    "page_context",
    "parse_checklist_line",
    "parse_counter_line",
    "refuse_long_names",
    "results_chart",
    "set_counter",
    "shown",
    "tracker",
    "tracker_items",
    "with_name",
    "words",
]
