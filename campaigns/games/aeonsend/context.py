"""What the pages show, worked out from the state for the templates.

The turn order deck is only ever shown through the engine's public_view: counts, what the
table has seen, and the remaining cards sorted, never an undrawn order (none is stored).
"""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

from django.utils.translation import gettext as _

from campaigns.engines import turn_order
from campaigns.games.aeonsend import chart, data
from campaigns.games.aeonsend.commands import (
    available_cards,
    card_label,
    games_played,
    point_label,
    sealed_label,
)

SCORE_FIELDS = (
    "date",
    "chapter",
    "nemesis",
    "result",
    "gravehold",
    "nemesis_life",
    "life_1",
    "life_2",
    "life_3",
    "life_4",
    "rounds",
    "notes",
)


def chapter_view(state: dict[str, Any]) -> dict[str, Any]:
    here = state["chapter"]
    index = data.POINTS.index(here)
    stickers = state["stickers"]

    def unlocking(at: str) -> list[str]:
        return [letter for letter in data.LETTERS if stickers[letter]["timing"] == at]

    following = data.POINTS[index + 1] if index + 1 < len(data.POINTS) else None
    due = [letter for letter in unlocking(here) if not stickers[letter]["applied"]]
    earlier = [
        letter
        for letter in data.LETTERS
        if stickers[letter]["timing"] in data.POINTS[:index] and not stickers[letter]["applied"]
    ]
    return {
        "point": here,
        "label": point_label(here),
        "number": int(here.split("-")[0]),
        "unlocks": unlocking(here),
        "due": due,
        "earlier": earlier,
        "next": {
            "point": following,
            "label": point_label(following),
            "unlocks": unlocking(following),
        }
        if following
        else None,
        "unknown": [letter for letter in data.UNKNOWN_TIMING if stickers[letter]["timing"] is None],
    }


def sticker_rows(state: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for letter in data.LETTERS:
        sticker = state["stickers"][letter]
        section = data.STICKER_SECTION.get(letter)
        rows.append(
            {
                "letter": letter,
                **sticker,
                "timing_label": point_label(sticker["timing"]) if sticker["timing"] else "",
                "printed": letter in data.STICKER_TIMING,
                "section": data.SECTIONS[section] if section else "",
                "note": data.STICKER_NOTES.get(letter, ""),
            }
        )
    return rows


def sealed_groups(state: dict[str, Any]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {
        kind: {"kind": kind, "label": label, "items": [], "opened": 0}
        for kind, label in data.SEALED_KINDS.items()
    }
    for key, (kind, _label) in data.SEALED.items():
        item = state["sealed"][key]
        groups[kind]["items"].append(
            {
                "key": key,
                "label": sealed_label(key),
                **item,
                "point_label": point_label(item["point"]) if item["point"] else "",
            }
        )
        groups[kind]["opened"] += item["opened"]
    return list(groups.values())


def banished_view(state: dict[str, Any], query: str) -> dict[str, Any]:
    wanted = query.casefold()
    items = [
        {**item, "from_upgrade": item["source"] == "upgrade"}
        for item in reversed(state["banished"])
        if not wanted or wanted in item["text"].casefold() or wanted in item["reason"].casefold()
    ]
    names: dict[str, str] = {}
    for name in [
        *(item["text"] for item in state["banished"]),
        *state["supply"],
        *((state["upgrade"] or {}).get("presented", [])),
        *(card["name"] for card in state["outside"]["cards"]),
    ]:
        names.setdefault(name.casefold(), name)
    return {
        "q": query,
        "banished": [item for item in items if not item["restored"]],
        "restored": [item for item in items if item["restored"]],
        "total": sum(1 for item in state["banished"] if not item["restored"]),
        "suggestions": sorted(names.values(), key=str.casefold),
    }


def colour_of(state: dict[str, Any]) -> dict[str, str]:
    return {p["character"]: p["colour"] for p in state["players"]}


def deck_view(state: dict[str, Any]) -> dict[str, Any]:
    view = turn_order.public_view(state["table"]["deck"])
    colours = colour_of(state)
    players = {p["character"]: p["player"] for p in state["players"]}

    def card(label: str) -> dict[str, Any]:
        names = label.split(turn_order.PAIR_SEPARATOR)
        return {
            "label": label,
            "text": card_label(label),
            "parts": names if len(names) > 1 else [card_label(label)],
            "nemesis": label == turn_order.NEMESIS,
            "wild": label == turn_order.WILD,
            "colours": [colours[name] for name in names if name in colours],
        }

    current = view["current"]
    current_view = None
    if current:
        current_view = {
            **card(current["card"]),
            "player": current["player"],
            "who": players.get(current["player"] or "", ""),
            "colour": colours.get(current["player"] or "", ""),
        }
    counted = Counter(view["remaining"])
    return {
        "round": view["round"],
        "count": view["deck_count"],
        "drawn": len(view["discard"]),
        "remaining": [
            {**card(label), "n": counted[label]} for label in sorted(counted, key=str.casefold)
        ],
        "known_top": [card(label) for label in view["known_top"]],
        "known_bottom": [card(label) for label in view["known_bottom"]],
        "discard": [card(label) for label in reversed(view["discard"])],
        "movable": [card(label) for label in sorted(set(view["discard"]), key=str.casefold)],
        "current": current_view,
        "pending": view["pending"],
        "tokens": [
            {"pair": pair, "holder": holder} for pair, holder in (view["tokens"] or {}).items()
        ],
        "empty": view["deck_count"] == 0,
    }


def table_view(state: dict[str, Any]) -> dict[str, Any]:
    table = state["table"]
    started = bool(table["nemesis"])
    players = [
        {
            "index": index,
            "who": str(index),
            "character": p["character"],
            "player": p["player"],
            "colour": p["colour"],
            "life": table["lives"][index],
            "start": table["start"]["player"],
            "exhausted": table["lives"][index] == 0,
        }
        for index, p in enumerate(state["players"])
    ]
    ends = []
    if started:
        if table["nemesis_life"] == 0:
            ends.append({"result": "win", "text": _("The nemesis has no life left: you win!")})
        if table["gravehold"] == 0:
            ends.append({"result": "loss", "text": _("Gravehold has fallen: you lose.")})
        if players and all(p["exhausted"] for p in players):
            if state["solo"]:
                ends.append(
                    {
                        "result": "note",
                        "text": _(
                            "Every mage is exhausted; in solo play you lose only when "
                            "Gravehold falls."
                        ),
                    }
                )
            else:
                ends.append({"result": "loss", "text": _("Every player is exhausted: you lose.")})
    return {
        "started": started,
        "game": table["game"],
        "nemesis": table["nemesis"],
        "difficulty": table["difficulty"],
        "difficulty_label": data.DIFFICULTIES[table["difficulty"]],
        "increased": table["difficulty"] in data.INCREASED_DIFFICULTY,
        "gravehold": {"value": table["gravehold"], "start": table["start"]["gravehold"]},
        "nemesis_life": {"value": table["nemesis_life"], "start": table["start"]["nemesis"]},
        "players": players,
        "ends": ends,
        "over": any(end["result"] in ("win", "loss") for end in ends),
        "won": any(end["result"] == "win" for end in ends),
    }


def score_view(state: dict[str, Any], table: dict[str, Any], deck: dict[str, Any]) -> dict:
    rows = [
        {
            **row,
            "number": number,
            "result_label": data.RESULTS[row["result"]],
            "lives_named": [
                {"character": p["character"], "life": life}
                for p, life in zip(state["players"], row["lives"], strict=False)
            ],
        }
        for number, row in enumerate(state["scores"], start=1)
    ]
    prefill: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "chapter": int(state["chapter"].split("-")[0]),
        "lives": {},
    }
    if table["started"]:
        prefill.update(
            nemesis=table["nemesis"],
            gravehold=table["gravehold"]["value"],
            nemesis_life=table["nemesis_life"]["value"],
            lives={f"life_{p['index'] + 1}": p["life"] for p in table["players"]},
            rounds=deck["round"],
            result="win" if table["won"] else ("loss" if table["over"] else ""),
        )
    wins = sum(1 for row in rows if row["result"] == "win")
    return {
        "rows": rows,
        "wins": wins,
        "losses": len(rows) - wins,
        "results_chart": chart.results_chart(state["scores"]),
        "margin_chart": chart.margin_chart(state["scores"]),
        "prefill": prefill,
        "fields": SCORE_FIELDS,
        "life_fields": [
            {"name": f"life_{index + 1}", "character": p["character"]}
            for index, p in enumerate(state["players"])
        ],
    }


def outside_view(state: dict[str, Any]) -> dict[str, Any]:
    outside = state["outside"]
    available = {card["id"] for card in available_cards(state)}
    cards = [
        {
            **card,
            "banished": card["id"] not in available,
            "kind_label": data.CARD_TYPES[card["kind"]],
        }
        for card in outside["cards"]
    ]
    by_id = {card["id"]: card for card in cards}
    supply = [
        {**by_id[i], "locked": i in outside["locked"]} for i in outside["supply"] if i in by_id
    ]
    order = list(data.CARD_TYPES)
    supply.sort(key=lambda card: (order.index(card["kind"]), card["cost"], card["name"].casefold()))
    nemesis_cards = {card["id"]: card for card in outside["nemesis_cards"]}
    chart_rows = [
        {
            "tier": tier,
            "cells": [
                (players, outside["chart"][str(players)][tier - 1])
                for players in data.NEMESIS_CHART
            ],
        }
        for tier in data.TIERS
    ]
    build = None
    if outside["build"]:
        players = outside["build"]["players"]
        counts = outside["chart"][str(players)]
        build = {
            "players": players,
            "tiers": [
                {
                    "tier": tier,
                    "basic": counts[tier - 1],
                    "cards": [nemesis_cards[i]["name"] for i in ids if i in nemesis_cards],
                }
                for tier, ids in zip(data.TIERS, outside["build"]["tiers"], strict=True)
            ],
        }
    return {
        "cards": sorted(
            cards, key=lambda c: (order.index(c["kind"]), c["cost"], c["name"].casefold())
        ),
        "count": len(cards),
        "supply": supply,
        "locked": len(outside["locked"]),
        "defaults": data.DEFAULT_SUPPLY,
        "chart_rows": chart_rows,
        "player_counts": list(data.NEMESIS_CHART),
        "nemesis_cards": sorted(
            outside["nemesis_cards"], key=lambda c: (c["tier"], c["name"].casefold())
        ),
        "build": build,
        "tiers": data.TIERS,
    }


def page_context(campaign, state: dict[str, Any], viewing=None) -> dict[str, Any]:
    query, record = "", False
    if viewing is not None:
        query = viewing.query.get("q", "")[:60].strip()
        record = viewing.query.get("record") == "1"
    table = table_view(state)
    deck = deck_view(state)
    return {
        "ae": {
            "players": [
                {
                    **p,
                    "index": index,
                    "side_label": data.SIDES[p["side"]],
                    "colour_label": data.COLOURS[p["colour"]],
                    "notes": [
                        {**note, "kind_label": data.MAGE_NOTES[note["kind"]]} for note in p["notes"]
                    ],
                }
                for index, p in enumerate(state["players"])
            ],
            "solo": state["solo"],
            "chapter": chapter_view(state),
            "games": games_played(state),
            "stickers": sticker_rows(state),
            "sealed": sealed_groups(state),
            "legacy": {
                **state["legacy"],
                "recent": list(reversed(state["legacy"]["read"][-8:])),
                "erratum": state["legacy"]["last"] == data.ERRATUM_FROM,
                "right": data.ERRATUM_RIGHT,
                "wrong": data.ERRATUM_WRONG,
            },
            "banished": banished_view(state, query),
            "supply": state["supply"],
            "supply_size": data.SUPPLY_PILES,
            "upgrade": state["upgrade"],
            "table": table,
            "deck": deck,
            "scores": score_view(state, table, deck),
            "outside": outside_view(state),
            "difficulties": list(data.DIFFICULTIES.items()),
            "colours": data.COLOURS,
            "kinds": list(data.CARD_TYPES.items()),
            "mage_kinds": list(data.MAGE_NOTES.items()),
            "results": list(data.RESULTS.items()),
            "points": [(p, point_label(p)) for p in data.POINTS],
            "max_player_life": data.MAX_PLAYER_LIFE,
            "max_gravehold": data.MAX_GRAVEHOLD_LIFE,
            "record": record,
        }
    }
