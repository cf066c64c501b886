"""The Aeon's End sets' facts: player cards (name, type, cost), mages, nemeses with starting
life, the market set-ups and the basic nemesis deck table. Names and numbers only, never card
text.

Source: ``cards.json`` beside this module, a trimmed copy of the shared facts file
``aeonsend_cards.json`` (its ``_about`` names the upstream repository and commit). The state
never stores these facts by reference: a pick copies the name and numbers into the event, so a
campaign replays the same if this file is corrected later.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import NotRequired, TypedDict

from campaigns.games.aeonsend.state import OwnCard

LEGACY = "Legacy"  # the set of Aeon's End: Legacy itself, owned by every group
TYPES = {"Gem": "gem", "Relic": "relic", "Spell": "spell"}  # the data's type -> data.CARD_TYPES


class CardFacts(TypedDict):
    name: str
    type: str  # a key of TYPES
    cost: int


class NemesisFacts(TypedDict):
    name: str
    starting_life: int | str  # "*" where the mat has no number
    difficulty: int


class SetFacts(TypedDict):
    name: str
    wave: str
    player_cards: list[CardFacts]
    mages: list[str]
    nemeses: list[NemesisFacts]


class TileFacts(TypedDict):
    type: str  # a key of TYPES
    cost: str  # "ANY", "OR" (one of `values`), or a comparison with `threshold`
    threshold: NotRequired[int]
    values: NotRequired[list[int]]


class MarketFacts(TypedDict):
    name: str
    kind: str
    tiles: list[TileFacts]


class Facts(TypedDict):
    """cards.json, as the game reads it (its `_about` aside)."""

    sets: dict[str, SetFacts]
    market_setups: dict[str, MarketFacts]
    basic_nemesis_deck_by_player_count: dict[str, dict[str, int]]  # tier1… → players → cards


class Nemesis(TypedDict):
    name: str
    life: int | None  # None where the mat has no number


class Card(TypedDict):
    name: str
    kind: str  # a key of data.CARD_TYPES
    cost: int


class Tile(TileFacts):
    kind: str  # a key of data.CARD_TYPES


class Market(TypedDict):
    name: str
    tiles: list[Tile]


@cache
def facts() -> Facts:
    loaded: Facts = json.loads((Path(__file__).with_name("cards.json")).read_text("utf-8"))
    return loaded


def sets() -> dict[str, str]:
    """Set key -> its name, in the data's order."""
    return {key: value["name"] for key, value in facts()["sets"].items()}


def owned(keys: list[str] | None) -> list[str]:
    """The set keys a campaign ticked (Legacy always among them), in the data's order."""
    wanted = {LEGACY, *(keys or [])}
    return [key for key in facts()["sets"] if key in wanted]


def nemeses(keys: list[str] | None) -> list[Nemesis]:
    """[{name, life}] of the owned sets, by name; life None where the data has none ("*")."""
    found: dict[str, Nemesis] = {}
    for key in owned(keys):
        for nemesis in facts()["sets"][key]["nemeses"]:
            life = nemesis["starting_life"]
            found.setdefault(
                nemesis["name"],
                {"name": nemesis["name"], "life": life if isinstance(life, int) else None},
            )
    return sorted(found.values(), key=lambda n: n["name"].casefold())


def nemesis_life(name: str, keys: list[str] | None = None) -> int | None:
    """A nemesis's starting life from its mat, by name (any set when keys is None)."""
    pool = nemeses(list(facts()["sets"]) if keys is None else keys)
    for nemesis in pool:
        if nemesis["name"].casefold() == name.strip().casefold():
            return nemesis["life"]
    return None


def mages(keys: list[str] | None) -> list[str]:
    names = {name for key in owned(keys) for name in facts()["sets"][key]["mages"]}
    return sorted(names, key=str.casefold)


def player_cards(keys: list[str] | None) -> list[Card]:
    """[{name, kind, cost}] of the owned sets' supply cards, each name once, by name."""
    found: dict[str, Card] = {}
    for key in owned(keys):
        for card in facts()["sets"][key]["player_cards"]:
            found.setdefault(
                card["name"].casefold(),
                {"name": card["name"], "kind": TYPES[card["type"]], "cost": card["cost"]},
            )
    return sorted(found.values(), key=lambda c: c["name"].casefold())


def markets() -> dict[str, Market]:
    """The market set-ups: key -> {name, tiles: [{kind, cost, threshold?, values?}]}."""
    return {
        key: {
            "name": market["name"],
            "tiles": [{**tile, "kind": TYPES[tile["type"]]} for tile in market["tiles"]],
        }
        for key, market in facts()["market_setups"].items()
    }


def fits(tile: Tile, card: Card | OwnCard) -> bool:
    """Whether a card may fill a market tile: its type, and its cost against the tile's."""
    if card["kind"] != tile["kind"]:
        return False
    cost, rule = card["cost"], tile["cost"]
    if rule == "ANY":
        return True
    if rule == "OR":
        return cost in tile["values"]
    limit = tile["threshold"]
    return {
        "<": cost < limit,
        "<=": cost <= limit,
        "=": cost == limit,
        ">": cost > limit,
        ">=": cost >= limit,
    }[rule]


def basic_nemesis_cards(players: int) -> tuple[int, int, int]:
    """How many basic nemesis cards each tier gets for this player count."""
    table = facts()["basic_nemesis_deck_by_player_count"]
    one, two, three = (table[f"tier{tier}"][str(players)] for tier in (1, 2, 3))
    return one, two, three
