"""The state of an Arkham Horror: The Card Game campaign, as the events build it.

A plain JSON dict (``Campaign.state``), rebuilt by replaying the events; these TypedDicts say what
it holds. The feature modules read it through them (``investigator()`` gives an
``Investigator``, ``open_test()`` a ``Test``…), so a misspelt key is a type error.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.trackers.types import Tracker


class SymbolEffect(TypedDict):
    """What a scenario's skull, cultist, tablet or elder thing does (the group enters it)."""

    modifier: int
    reveal_another: bool
    auto_fail: bool
    reveal: NotRequired[int]  # how many more it reveals, when more than one
    others: NotRequired[int]  # the other tokens' modifiers times this: 0 cancels, 2 doubles
    harder: NotRequired[int]  # the difficulty raised by this much
    per_x: NotRequired[int]  # −1: "−X", X set when the test starts


class ElderSign(TypedDict):
    """An investigator's elder sign: a modifier, or an automatic success."""

    modifier: int
    auto_succeed: bool
    set: NotRequired[bool]  # entered by the group (else the starting +0)
    per_x: NotRequired[int]  # 1: "+X", X set when the test starts


class Item(TypedDict):
    id: int
    kind: str  # "asset" (a story asset) or "weakness"
    text: str


class Purchase(TypedDict):
    card: str
    level: int
    cost: int  # the XP spent (investigators.xp_cost)
    upgrade_from: NotRequired[int | None]  # the level of the card it upgrades
    exceptional: NotRequired[bool]
    boxes: NotRequired[int]  # a Customizable card's boxes marked
    myriad: NotRequired[bool]  # one price for every copy of its level (xp.py)
    adaptable: NotRequired[bool]  # a level-0 swap at no cost
    story: NotRequired[bool]  # a story card: no cost


class Investigator(TypedDict):
    id: int
    player: str
    name: str  # the card's English name, the typed one, or the group's own (investigator.rename)
    health: int
    sanity: int
    physical: int  # physical trauma
    mental: int  # mental trauma
    xp: int  # earned, all told
    spent: int
    marked: str | None  # "killed" or "insane" by the group's word, else None
    status: str  # "active", "killed" or "insane"
    elder: ElderSign
    symbols: NotRequired[dict[str, SymbolEffect]]  # what they change of the scenario's symbols
    items: list[Item]
    purchases: list[Purchase]
    supplies: dict[str, int]  # The Forgotten Age: supply key → how many
    replaces: int | None  # the investigator this one replaced
    replaced_by: int | None
    code: NotRequired[str]  # the card picked from the data (catalogue), when picked


class RevealedToken(TypedDict):
    """One token of a test, with what it did under the effects in force when it came out."""

    token: str
    modifier: int | None  # None: an automatic failure
    again: bool  # it asked for another token
    succeed: bool  # an automatic success
    auto: bool  # drawn because the token before asked for it
    second_frost: NotRequired[bool]  # a frost after the first: an automatic failure
    more: NotRequired[int]  # how many more it asked for, when not one
    others: NotRequired[int]  # the other modifiers times this: 0 cancels, 2 doubles
    harder: NotRequired[int]  # the difficulty it raised


class Test(TypedDict):
    """A skill test's draw: the last one may be open (its tokens are out of the bag)."""

    id: int
    investigator: int | None
    who: str  # the investigator's name (a rename renames them here too)
    scenario: str
    tokens: list[RevealedToken]
    open: bool
    physical: bool  # some token was drawn from a real bag and recorded
    x: NotRequired[dict[str, int]]  # symbol → X, set when the test started
    offered: NotRequired[list[str]]  # drawn at once, one to choose
    set_aside: NotRequired[list[str]]  # drawn at once and not chosen: no effect
    total: int
    auto_fail: bool
    auto_succeed: bool
    harder: NotRequired[int]  # the difficulty the revealed tokens raised


class Stats(TypedDict):
    tests: int
    tokens: dict[str, int]  # token → how many times revealed, all time


class Round(TypedDict):
    """The round helper."""

    number: int
    step: str  # a framework step's code, "1.1" … "4.6"
    doom: int
    threshold: int | None
    agenda: int
    advanced: int | None  # the round in which doom last advanced the agenda


class InvestigatorResult(TypedDict):
    id: int
    name: str
    xp: int
    physical: int
    mental: int
    status: str


class BagChange(TypedDict):
    token: str
    delta: int


class LogEntry(TypedDict):
    section: str
    text: str


class ScenarioResult(TypedDict):
    """What was recorded after a scenario, in one event."""

    id: int
    name: str
    scenario_id: NotRequired[str]  # catalogue id, or "typed:<name>"
    resolution: str
    investigators: list[InvestigatorResult]
    bag: list[BagChange]
    entries: list[LogEntry]


class _LineModifier(TypedDict):
    modifier: int | str  # a number, or "X"


class CardLine(_LineModifier, total=False):
    """A symbol's line on a scenario card, as the facts give it (facts/scenario_tokens.json):
    read, never stored in a campaign's state."""

    reveal_another: bool
    auto_fail: bool
    conditional: bool
    after_effect: bool
    after_effects: dict[str, int]
    cancels_committed_cards: bool
    shared_line_with: list[str]
    x_from: str  # what X counts (the facts' neutral key)
    x_aggregate: str
    x_multiplier: int | float
    x_round: str
    x_offset: int
    x_min: int
    x_max: int
    # The line's alternative, when a condition holds (or grades of it):
    alt_modifier: int
    alt_modifiers: list[int]
    alt_auto_fail: bool
    alt_auto_success: bool
    alt_reveal_another: bool
    alt_by_choice: bool
    alt_token: str
    alt_token_in_addition: bool


class ScenarioCard(TypedDict):
    """The scenario card in play (``card``), and what the group said of the table for it."""

    scenario: str  # the scenario's id in the facts
    x: dict[str, int]  # what an X counts (the facts' neutral key) → the count given
    alt: dict[str, int]  # symbol → the alternative in force (0: the usual line)
    act: str  # the card's side for the act ("" for its default)


class ArkhamState(TypedDict):
    next_id: int
    name: NotRequired[str]  # the campaign's name and whether it is archived, which the
    archived: NotRequired[bool]  # campaign adds when it is made (every game has them)
    campaign: str  # a key of data.CAMPAIGNS
    difficulty: str  # a key of data.DIFFICULTIES
    bag: dict[str, int]  # token → count, the open test's revealed tokens included
    sealed: dict[str, int]  # token → count sealed on cards
    investigators: list[Investigator]
    active: int | None  # the investigator the bag tests for
    scenario: str | None  # the scenario being played (its English or typed name)
    scenario_id: NotRequired[str | None]  # its catalogue id, or "typed:<name>"
    scenario_names: NotRequired[dict[str, str]]  # the group's own names by id (names.py)
    effects: dict[str, dict[str, SymbolEffect]]  # "<band>|<scenario>" → symbol → typed effect
    card: NotRequired[ScenarioCard]  # set when a scenario with a card starts
    draws: list[Test]  # the last 20 tests, oldest first
    stats: Stats
    scenarios: list[ScenarioResult]
    trackers: list[Tracker]  # the campaign log's sections (campaigns.trackers)
    log_ids: list[int]  # the sections the campaign came with
    round: Round
