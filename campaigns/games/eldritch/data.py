"""Facts about Eldritch Horror the module needs: names and numbers only.

From ``facts.json`` beside this file (copied from the project's
``shared/data/eldritch_horror.json``; its ``_about`` names the sources) and from
``shared/spec/rules.md`` §3. No printed card or rulebook text: the labels are our own words.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NotRequired, TypedDict

from django.utils.translation import gettext_lazy as _

from campaigns.games.eldritch.state import Reference
from campaigns.vocabulary import COLOUR_WORDS, DIFFICULTY_WORDS, RESULT_WORDS, pick


class AncientOneFacts(TypedDict):
    name: str
    expansion: str
    starting_doom: int
    mysteries_to_win: int | None
    awakening: NotRequired[str]  # a key of AWAKENINGS; without: "mystery"
    mythos_deck: list[list[int]]  # [green, yellow, blue] for stages I, II, III


class InvestigatorFacts(TypedDict):
    name: str
    occupation: str
    expansion: str
    health: int
    sanity: int
    skills: dict[str, int]  # by a key of SKILLS


class ReferenceBand(TypedDict):
    players: str  # "1-2", "3-4", …
    spawn_gates: int
    spawn_clues: int
    monster_surge: int


class Facts(TypedDict):
    """facts.json, as the game reads it (its `_about` aside)."""

    ancient_ones: list[AncientOneFacts]
    reference_card: list[ReferenceBand]
    omen_track: list[str]
    investigators: list[InvestigatorFacts]


FACTS: Facts = json.loads((Path(__file__).parent / "facts.json").read_text("utf-8"))

ANCIENT_ONES = {a["name"]: a for a in FACTS["ancient_ones"]}
INVESTIGATORS = {i["name"]: i for i in FACTS["investigators"]}
EXPANSIONS: list[str] = list(
    dict.fromkeys(
        [a["expansion"] for a in FACTS["ancient_ones"]]
        + [i["expansion"] for i in FACTS["investigators"]]
    )
)
CUSTOM = "custom"  # an Ancient One typed with its numbers

MIN_PLAYERS, MAX_PLAYERS = 1, 8
NAME_LENGTH = 60

# The mythos difficulty: which mythos cards the group removes before building the deck
# (the rules' easy, normal and hard; "mixed" was ours, no rule's: kept only so that a game set up
# with it still replays, never offered again).
DIFFICULTIES = pick(DIFFICULTY_WORDS, "easy", "normal", "hard")
EARLIER_DIFFICULTIES = {"mixed": _("Mixed")}
REMOVED_CARDS = {
    "easy": _("Before building the mythos deck, remove the hard mythos cards."),
    "normal": _("Build the mythos deck from the easy, normal and hard cards alike."),
    "hard": _("Before building the mythos deck, remove the easy mythos cards."),
}

# What the Ancient One's awakening (doom 0) does, from its sheet's back (facts.json "awakening";
# missing: the final mystery starts [001:62-69]).
AWAKENINGS = {
    "mystery": _("The final mystery starts"),
    "loss": _("The investigators lose"),
}


STAGE_LABELS = ("I", "II", "III")
COLOURS = pick(COLOUR_WORDS, "green", "yellow", "blue")
GATE_COLOURS = pick(COLOUR_WORDS, "green", "blue", "red")
OMEN_TRACK: list[str] = FACTS["omen_track"]  # green, blue, red, blue: every space is a comet

SKILLS = {
    "lore": _("Lore"),
    "influence": _("Influence"),
    "observation": _("Observation"),
    "strength": _("Strength"),
    "will": _("Will"),
}
STATUSES = {
    "normal": _("Normal"),
    "delayed": _("Delayed"),
    "defeated": _("Defeated"),
    "devoured": _("Devoured"),
    "eliminated": _("Eliminated"),
}
PHASES = {
    "action": _("Action phase"),
    "encounter": _("Encounter phase"),
    "mythos": _("Mythos phase"),
}
PHASE_ORDER = list(PHASES)
MAX_TICKETS = 2
MAX_IMPROVEMENT = 2
# A skill as printed (typed by the group where our data has none): a small whole number.
SKILL_RANGE = (0, 9)
MAX_DICE = 20
MAX_CLUES = 99

RESULTS = pick(RESULT_WORDS, "win", "loss")
REASONS = {
    "mysteries": _("Mysteries solved"),
    "doom": _("Doom (the Ancient One's back)"),
    "mythos": _("Mythos deck out"),
    "eliminated": _("All eliminated"),
    "other": _("Other"),
}
# Which reasons end a game in a win or a loss: the last mystery solved wins (after the Ancient
# One's awakening too); doom, an empty mythos deck or every investigator eliminated loses.
WIN_REASONS = ("mysteries", "other")
LOSS_REASONS = ("doom", "mythos", "eliminated", "other")


def reference(players: int) -> Reference:
    """The reference card for this player count: gates and clues per mythos card, monsters per
    surge (rules.md §3b; the surge numbers are in the seed, the rest [EXTERNAL – verify])."""
    band = FACTS["reference_card"][(players - 1) // 2]
    return {
        "spawn_gates": band["spawn_gates"],
        "spawn_clues": band["spawn_clues"],
        "monster_surge": band["monster_surge"],
    }
