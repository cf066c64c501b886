"""Aeon's End: Legacy commands: the campaign record, the score chart, the table, outside play.

Every change is a Command: the form checks the request's shape, `resolve` takes any randomness
(a turn order draw, a supply roll) once and stores its outcome in the payload, and `apply`
changes the state from the payload alone, checking it against the state, so replay, undo, redo
and import give the same state. The state stores keys and numbers, never translated words.

State (JSON)::

    players   [{player, character, mat, side, colour, notes: [{id, kind, text, game}]}]
    solo      bool: one person plays every mage (no loss when all are exhausted)
    chapter   "1-beginning" … "8-end"
    stickers  {"A": {timing: "2-end" | None, applied, game, text}, … "Z": …}
    sealed    {"stop-Ic": {opened, point, game, note}, "box-A": …, "envelope-1": …, "insight-1": …}
    legacy    {last: "L17", read: ["L02", …]}
    banished  [{id, text, game, reason, source: "" | "upgrade", restored, restored_reason}]
    supply    ["pile", …] (at most nine)
    upgrade   None | {presented: ["pile", …]}
    scores    [{id, date, chapter, nemesis, result, gravehold, nemesis_life, lives, rounds, notes}]
    table     {game, nemesis, difficulty, start: {gravehold, nemesis, player}, gravehold,
               nemesis_life, lives: [...], deck: <turn order engine state>}
    outside   {cards: [{id, name, kind, cost}], supply: [ids], locked: [ids],
               chart: {"1": [t1, t2, t3], …}, nemesis_cards: [{id, name, tier}],
               build: None | {players, tiers: [[ids], [ids], [ids]]}}

The turn order deck is the engine's state: it keeps the undrawn cards as a sorted multiset, so
no order is stored anywhere. A draw's outcome (the label) is stored in the event; applying it
again takes that same label out of the same multiset.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    State,
    jsonable,
    need_bool,
    need_date,
    need_int,
    need_opt_int,
    need_str,
    next_id,
)
from campaigns.commands import need_choice as base_need_choice
from campaigns.engines import turn_order
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend import forms as f
from campaigns.trackers import words


def need_choice(payload: Payload, key: str, choices) -> str:
    """One of the choices' keys (a list or a number from a hostile file is refused too)."""
    if not isinstance(payload.get(key), str):
        raise CommandError(_("“%(key)s” is not one of the choices.") % {"key": key}, key)
    return base_need_choice(payload, key, choices)


# The initial state


def _setup_str(player: dict[str, Any], key: str, blank: bool = False) -> str:
    return need_str(player, key, data.NAME_LENGTH, blank=blank).strip()


def initial_state(setup: dict[str, Any]) -> State:
    """The state before any event, from the players chosen at creation (checked: it may come
    from an imported file)."""
    players = setup.get("players")
    if not isinstance(players, list) or not data.MIN_PLAYERS <= len(players) <= data.MAX_PLAYERS:
        raise CommandError(_("A campaign is for 1 to 4 players."), "player_count")
    clean = []
    for player in players:
        if not isinstance(player, dict):
            raise CommandError(_("The set-up's players are damaged."))
        clean.append(
            {
                "player": _setup_str(player, "player"),
                "character": _setup_str(player, "character"),
                "mat": _setup_str(player, "mat", blank=True),
                "side": need_choice(player, "side", data.SIDES),
                "colour": need_choice(player, "colour", data.COLOURS),
                "notes": [],
            }
        )
    if len({p["colour"] for p in clean}) < len(clean):
        # Turn order cards go by colour: two characters of one colour could not be told apart.
        raise CommandError(_("Each character needs a colour of their own."), "player_count")
    solo = setup.get("solo", False)
    if not isinstance(solo, bool):
        raise CommandError(_("The set-up's solo choice is damaged."))
    try:
        deck = turn_order.new_deck([p["character"] for p in clean])
    except turn_order.TurnOrderError as error:
        raise CommandError(
            _("The characters' names do not fit on turn order cards: %(why)s") % {"why": error}
        ) from None
    p_life, g_life, _n = data.DIFFICULTY_VALUES["standard"]
    return {
        "next_id": 1,
        "players": clean,
        "solo": solo or len(clean) == 1,
        "chapter": data.FIRST_POINT,
        "stickers": {
            letter: {
                "timing": data.STICKER_TIMING.get(letter),
                "applied": False,
                "game": None,
                "text": "",
            }
            for letter in data.LETTERS
        },
        "sealed": {
            key: {"opened": False, "point": None, "game": None, "note": ""} for key in data.SEALED
        },
        "legacy": {"last": "", "read": []},
        "banished": [],
        "supply": [],
        "upgrade": None,
        "scores": [],
        "table": {
            "game": 0,
            "nemesis": "",
            "difficulty": "standard",
            "start": {"gravehold": g_life, "nemesis": 0, "player": p_life},
            "gravehold": g_life,
            "nemesis_life": 0,
            "lives": [p_life] * len(clean),
            "deck": deck,
        },
        "outside": {
            "cards": [],
            "supply": [],
            "locked": [],
            "chart": {str(n): list(tiers) for n, tiers in data.NEMESIS_CHART.items()},
            "nemesis_cards": [],
            "build": None,
        },
    }


# Small helpers


def games_played(state: State) -> int:
    return len(state["scores"])


def need_opt_game(payload: Payload) -> int | None:
    value = need_opt_int(payload, "game")
    if value is not None and not 0 <= value <= data.MAX_ROWS:
        raise CommandError(_("A game number cannot be negative."), "game")
    return value


def need_letter(payload: Payload, key: str = "letter") -> str:
    value = payload.get(key)
    letter = value.strip().upper() if isinstance(value, str) else ""
    if len(letter) != 1 or letter not in data.LETTERS:
        shown = value[:5] if isinstance(value, str) else "?"
        raise CommandError(
            _("There is no sticker slot “%(letter)s”: the slots run from A to Z.")
            % {"letter": shown},
            key,
        )
    return letter


def need_list(payload: Payload, key: str, max_items: int, max_length: int) -> list[str]:
    value = payload.get(key, [])
    if not isinstance(value, list) or len(value) > max_items:
        raise CommandError(_("“%(key)s” must be a short list.") % {"key": key}, key)
    items = []
    for item in value:
        text = need_str({key: item}, key, max_length).strip()
        if text.casefold() in (i.casefold() for i in items):
            raise CommandError(_("“%(name)s” is there twice.") % {"name": text}, key)
        items.append(text)
    return items


def find(items: list[dict[str, Any]], payload: Payload, key: str = "item") -> dict[str, Any]:
    wanted = need_int(payload, key)
    for item in items:
        if item["id"] == wanted:
            return item
    raise CommandError(_("That entry is not there any more."), key)


def player_at(state: State, payload: Payload) -> dict[str, Any]:
    index = need_int(payload, "player", 0, data.MAX_PLAYERS - 1)
    if index >= len(state["players"]):
        raise CommandError(_("There is no such player in this campaign."), "player")
    return state["players"][index]


def point_label(value: str | None) -> str:
    """“end of Chapter 2”, in the reader's language."""
    if not isinstance(value, str) or value not in data.POINTS:
        return _("unknown")
    chapter, stage = value.split("-")
    if stage == "beginning":
        return _("beginning of Chapter %(n)s") % {"n": chapter}
    return _("end of Chapter %(n)s") % {"n": chapter}


def with_info(*resolvers):
    """A resolve step that runs the given helpers, each adding words for the history."""

    def resolve(state: State, data_: Payload, rng: random.Random) -> Payload:
        payload = jsonable(data_)
        for helper in resolvers:
            helper(state, payload)
        return payload

    return resolve


# The chapter


def apply_chapter(state: State, payload: Payload) -> None:
    to = need_choice(payload, "to", data.POINTS)
    index = data.POINTS.index(state["chapter"])
    if index + 1 >= len(data.POINTS) or data.POINTS[index + 1] != to:
        following = data.POINTS[index + 1] if index + 1 < len(data.POINTS) else None
        raise CommandError(
            _("The campaign is at the %(now)s: it can only move on to the %(next)s.")
            % {"now": point_label(state["chapter"]), "next": point_label(following)},
            "to",
        )
    state["chapter"] = to


def describe_chapter(p: Payload) -> str:
    return _("Moved on to the %(point)s") % {"point": point_label(p.get("to"))}


# Stickers


def apply_stickers(state: State, payload: Payload) -> None:
    letters = payload.get("letters")
    if not isinstance(letters, list) or not letters:
        raise CommandError(_("Tick at least one sticker."), "letters")
    if len(letters) > len(data.LETTERS):
        raise CommandError(_("Too many stickers."), "letters")
    game = need_opt_game(payload)
    seen = []
    for value in letters:
        letter = need_letter({"letters": value}, "letters")
        if letter in seen:
            raise CommandError(_("Sticker %(letter)s is ticked twice.") % {"letter": letter})
        seen.append(letter)
    here = data.POINTS.index(state["chapter"])
    for letter in seen:
        if state["stickers"][letter]["applied"]:
            raise CommandError(
                _("Sticker %(letter)s is already applied.") % {"letter": letter}, "letters"
            )
        timing = state["stickers"][letter]["timing"]
        if timing is not None and data.POINTS.index(timing) > here:
            # The due list applies what has unlocked; a later sticker waits for its point.
            raise CommandError(
                _("Sticker %(letter)s unlocks at %(point)s, later than where the campaign is.")
                % {"letter": letter, "point": point_label(timing)},
                "letters",
            )
    for letter in seen:
        state["stickers"][letter].update(applied=True, game=game)


def resolve_stickers(state: State, values: Payload, rng: random.Random) -> Payload:
    letters = [
        letter.strip().upper() if isinstance(letter, str) else letter
        for letter in values.get("letters", [])
    ]
    return {"letters": letters, "game": values.get("game")}


def describe_stickers(p: Payload) -> str:
    letters = p.get("letters") or []
    return _("Applied the stickers %(letters)s") % {"letters": ", ".join(map(str, letters))}


def apply_sticker(state: State, payload: Payload) -> None:
    letter = need_letter(payload)
    sticker = state["stickers"][letter]
    applied = need_bool(payload, "applied")
    game = need_opt_game(payload)
    text = need_str(payload, "text", data.TEXT_LENGTH, blank=True).strip()
    timing = payload.get("timing") or None
    if timing is not None:
        timing = need_choice(payload, "timing", data.POINTS)
    if letter in data.STICKER_TIMING:
        if timing not in (None, data.STICKER_TIMING[letter]):
            raise CommandError(
                _(
                    "The rulebook says when sticker %(letter)s unlocks; only the timing of "
                    "F, G, H, I and V can be set."
                )
                % {"letter": letter},
                "timing",
            )
        timing = data.STICKER_TIMING[letter]
    sticker.update(applied=applied, game=game if applied else None, text=text, timing=timing)


def resolve_sticker(state: State, values: Payload, rng: random.Random) -> Payload:
    payload = dict(values)
    payload["letter"] = need_letter(payload)
    return payload


def describe_sticker(p: Payload) -> str:
    if p.get("applied"):
        return _("Sticker %(letter)s: applied") % {"letter": p.get("letter")}
    return _("Sticker %(letter)s: not applied") % {"letter": p.get("letter")}


# Sealed contents and the Legacy deck


def sealed_label(key: Any) -> str:
    kind, label = data.SEALED.get(key, ("", "?"))
    return {
        "stop": _("Stop deck %(x)s"),
        "box": _("Box %(x)s"),
        "envelope": _("Chapter %(x)s envelope"),
        "insight": _("Insight page %(x)s"),
    }.get(kind, "%(x)s") % {"x": label}


def apply_seal(state: State, payload: Payload) -> None:
    key = need_choice(payload, "key", data.SEALED)
    opened = need_bool(payload, "opened")
    note = need_str(payload, "note", 200, blank=True).strip()
    item = state["sealed"][key]
    if item["opened"] == opened and not note:
        message = _("%(item)s is already opened.") if opened else _("%(item)s is still sealed.")
        raise CommandError(message % {"item": sealed_label(key)}, "key")
    if opened and not item["opened"]:
        item.update(point=state["chapter"], game=games_played(state))
    if not opened:
        item.update(point=None, game=None)
    item.update(opened=opened, note=note)


def describe_seal(p: Payload) -> str:
    template = _("Opened %(item)s") if p.get("opened") else _("Marked %(item)s as sealed")
    return template % {"item": sealed_label(p.get("key"))}


def clean_card_number(value: Any) -> str:
    return value.strip().upper().replace(" ", "") if isinstance(value, str) else ""


def apply_legacy(state: State, payload: Payload) -> None:
    card = clean_card_number(need_str(payload, "card", 8))
    if not (1 <= len(card) <= 6 and card[0].isalpha() and card.isalnum() and card.isascii()):
        raise CommandError(_("Type a card number such as L02."), "card")
    legacy = state["legacy"]
    if legacy["last"] == data.ERRATUM_FROM and card == data.ERRATUM_WRONG:
        raise CommandError(
            _("Errata: after %(e)s read the front of %(right)s, not %(wrong)s.")
            % {"e": data.ERRATUM_FROM, "right": data.ERRATUM_RIGHT, "wrong": data.ERRATUM_WRONG},
            "card",
        )
    if len(legacy["read"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "card")
    legacy["last"] = card
    legacy["read"].append(card)


def describe_legacy(p: Payload) -> str:
    return _("Read Legacy card %(card)s") % {"card": clean_card_number(p.get("card"))}


# Banished cards


def banish(state: State, text: str, game: int | None, reason: str, source: str = "") -> None:
    if len(state["banished"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "text")
    state["banished"].append(
        {
            "id": next_id(state),
            "text": text,
            "game": game,
            "reason": reason,
            "source": source,
            "restored": False,
            "restored_reason": "",
        }
    )


def apply_banish(state: State, payload: Payload) -> None:
    text = need_str(payload, "text", data.CARD_LENGTH).strip()
    banish(
        state,
        text,
        need_opt_game(payload),
        need_str(payload, "reason", 200, blank=True).strip(),
    )


def apply_restore(state: State, payload: Payload) -> None:
    item = find(state["banished"], payload)
    if item["restored"]:
        raise CommandError(_("“%(text)s” is already restored.") % {"text": item["text"]}, "item")
    item["restored"] = True
    item["restored_reason"] = need_str(payload, "reason", 200, blank=True).strip()


def add_banished_name(state: State, payload: Payload) -> None:
    found = next((b for b in state["banished"] if b["id"] == payload.get("item")), None)
    payload["text_was"] = found["text"] if found else ""


def describe_banish(p: Payload) -> str:
    return _("Banished “%(text)s”") % {"text": p.get("text")}


def describe_restore(p: Payload) -> str:
    return _("Restored the banished card “%(text)s”") % {"text": p.get("text_was")}


# The supply and its upgrade


def unique_piles(piles: list[str], key: str) -> None:
    seen: set[str] = set()
    for pile in piles:
        if pile.casefold() in seen:
            raise CommandError(_("“%(name)s” is there twice.") % {"name": pile}, key)
        seen.add(pile.casefold())


def apply_supply(state: State, payload: Payload) -> None:
    piles = need_list(payload, "piles", data.SUPPLY_PILES, data.CARD_LENGTH)
    if state["upgrade"] is not None:
        raise CommandError(_("Finish or cancel the supply upgrade first."), "piles")
    unique_piles(piles, "piles")
    state["supply"] = piles


def describe_supply(p: Payload) -> str:
    piles = p.get("piles") or []
    return _("Set the supply: %(piles)s") % {"piles": ", ".join(map(str, piles))}


def apply_present(state: State, payload: Payload) -> None:
    piles = need_list(payload, "piles", 12, data.CARD_LENGTH)
    if len(piles) < data.UPGRADE_ADD:
        raise CommandError(_("Type at least two presented piles, one a line."), "piles")
    in_supply = {pile.casefold() for pile in state["supply"]}
    for pile in piles:
        if pile.casefold() in in_supply:
            raise CommandError(_("“%(name)s” is already in the supply.") % {"name": pile}, "piles")
    if len(state["supply"]) < data.UPGRADE_BANISH:
        raise CommandError(_("The supply needs at least two piles to banish."), "piles")
    state["upgrade"] = {"presented": piles}


def describe_present(p: Payload) -> str:
    piles = p.get("piles") or []
    return _("Supply upgrade: presented %(piles)s") % {"piles": ", ".join(map(str, piles))}


def apply_upgrade(state: State, payload: Payload) -> None:
    upgrade = state["upgrade"]
    if upgrade is None:
        raise CommandError(_("No supply upgrade is under way."), "add")
    add = need_list(payload, "add", 12, data.CARD_LENGTH)
    gone = need_list(payload, "banish", 12, data.CARD_LENGTH)
    game = need_opt_game(payload)
    if len(add) != data.UPGRADE_ADD or any(pile not in upgrade["presented"] for pile in add):
        raise CommandError(_("Choose exactly two of the presented piles to add."), "add")
    if len(gone) != data.UPGRADE_BANISH or any(pile not in state["supply"] for pile in gone):
        raise CommandError(_("Choose exactly two supply piles to banish."), "banish")
    for pile in gone:
        banish(state, pile, game, "", "upgrade")
    for pile in upgrade["presented"]:
        if pile not in add:
            banish(state, pile, game, "", "upgrade")
    state["supply"] = [pile for pile in state["supply"] if pile not in gone] + add
    state["upgrade"] = None


def add_unchosen(state: State, payload: Payload) -> None:
    presented = (state.get("upgrade") or {}).get("presented", [])
    chosen = payload.get("add") if isinstance(payload.get("add"), list) else []
    payload["unchosen"] = [pile for pile in presented if pile not in chosen]


def describe_upgrade(p: Payload) -> str:
    def names(key: str) -> str:
        return ", ".join(map(str, p.get(key) or [])) or "—"

    return _("Supply upgrade: added %(add)s; banished %(banish)s and %(unchosen)s") % {
        "add": names("add"),
        "banish": names("banish"),
        "unchosen": names("unchosen"),
    }


def apply_upgrade_cancel(state: State, payload: Payload) -> None:
    if state["upgrade"] is None:
        raise CommandError(_("No supply upgrade is under way."))
    state["upgrade"] = None


# Mages


def apply_mage(state: State, payload: Payload) -> None:
    mage = player_at(state, payload)
    if len(mage["notes"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "text")
    mage["notes"].append(
        {
            "id": next_id(state),
            "kind": need_choice(payload, "kind", data.MAGE_NOTES),
            "text": need_str(payload, "text", 200).strip(),
            "game": need_opt_game(payload),
        }
    )


def apply_mage_remove(state: State, payload: Payload) -> None:
    mage = player_at(state, payload)
    mage["notes"].remove(find(mage["notes"], payload))


def add_character(state: State, payload: Payload) -> None:
    index = payload.get("player")
    players = state["players"]
    ok = isinstance(index, int) and 0 <= index < len(players)
    payload["character"] = players[index]["character"] if ok else ""
    if ok and "item" in payload:
        note = next((n for n in players[index]["notes"] if n["id"] == payload["item"]), None)
        payload["text"] = note["text"] if note else ""


def describe_mage(p: Payload) -> str:
    return _("%(character)s: wrote down “%(text)s”") % {
        "character": p.get("character"),
        "text": p.get("text"),
    }


def describe_mage_remove(p: Payload) -> str:
    return _("%(character)s: crossed out “%(text)s”") % {
        "character": p.get("character"),
        "text": p.get("text"),
    }


# The score chart


def apply_score(state: State, payload: Payload) -> None:
    if len(state["scores"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "date")
    date = need_date(payload, "date")
    lives = []
    for number, mage in enumerate(state["players"], start=1):
        key = f"life_{number}"
        if payload.get(key) is None:
            raise CommandError(
                _("Type the life %(character)s has left.") % {"character": mage["character"]},
                key,
            )
        lives.append(need_int(payload, key, 0, data.MAX_PLAYER_LIFE))
    for number in range(len(state["players"]) + 1, data.MAX_PLAYERS + 1):
        if payload.get(f"life_{number}") is not None:
            raise CommandError(_("This campaign has no player %(n)d.") % {"n": number})
    rounds = need_opt_int(payload, "rounds")
    if rounds is not None and not 0 <= rounds <= 999:
        raise CommandError(_("The number of rounds cannot be negative."), "rounds")
    state["scores"].append(
        {
            "id": next_id(state),
            "date": date,
            "chapter": need_int(payload, "chapter", 1, data.MAX_CHAPTER),
            "nemesis": need_str(payload, "nemesis", data.NAME_LENGTH).strip(),
            "result": need_choice(payload, "result", data.RESULTS),
            "gravehold": need_int(payload, "gravehold", 0, data.MAX_GRAVEHOLD_LIFE),
            "nemesis_life": need_int(payload, "nemesis_life", 0, data.MAX_NEMESIS_LIFE),
            "lives": lives,
            "rounds": rounds,
            "notes": need_str(payload, "notes", data.TEXT_LENGTH, blank=True).strip(),
        }
    )


def describe_score(p: Payload) -> str:
    return _("Score chart: %(date)s, %(nemesis)s, %(result)s") % {
        "date": p.get("date"),
        "nemesis": p.get("nemesis"),
        "result": data.RESULTS.get(p.get("result"), p.get("result")),
    }


def apply_score_remove(state: State, payload: Payload) -> None:
    state["scores"].remove(find(state["scores"], payload))


def add_score_info(state: State, payload: Payload) -> None:
    row = next((r for r in state["scores"] if r["id"] == payload.get("item")), None)
    payload["date"] = row["date"] if row else ""


def describe_score_remove(p: Payload) -> str:
    return _("Score chart: removed the row of %(date)s") % {"date": p.get("date")}


# At the table: the game, life and the end conditions


def need_game(state: State) -> dict[str, Any]:
    table = state["table"]
    if not table["nemesis"]:
        raise CommandError(_("Start a game first: name the nemesis and its life."), "who")
    return table


def apply_start(state: State, payload: Payload) -> None:
    nemesis = need_str(payload, "nemesis", data.NAME_LENGTH).strip()
    mat_life = need_int(payload, "nemesis_life", 1, data.MAX_NEMESIS_LIFE)
    difficulty = payload.get("difficulty") or "standard"
    need_choice({"difficulty": difficulty}, "difficulty", data.DIFFICULTIES)
    player_life, gravehold, change = data.DIFFICULTY_VALUES[difficulty]
    nemesis_life = min(max(1, mat_life + change), data.MAX_NEMESIS_LIFE)
    table = state["table"]
    state["table"] = {
        "game": table["game"] + 1,
        "nemesis": nemesis,
        "difficulty": difficulty,
        "start": {"gravehold": gravehold, "nemesis": nemesis_life, "player": player_life},
        "gravehold": gravehold,
        "nemesis_life": nemesis_life,
        "lives": [player_life] * len(state["players"]),
        "deck": turn_order.new_deck([p["character"] for p in state["players"]]),
    }


def describe_start(p: Payload) -> str:
    return _("Started a game against %(nemesis)s (%(difficulty)s)") % {
        "nemesis": p.get("nemesis"),
        "difficulty": data.DIFFICULTIES.get(p.get("difficulty") or "standard", ""),
    }


def who_label(state: State, who: Any) -> str:
    if who == "gravehold":
        return _("Gravehold")
    if who == "nemesis":
        return state["table"]["nemesis"] or _("The nemesis")
    if player_index(state, who) is not None:
        return state["players"][int(who)]["character"]
    return "?"


def player_index(state: State, who: Any) -> int | None:
    """The player a posted `who` names ("0" to "3"), or None."""
    if isinstance(who, str) and re.fullmatch(r"[0-3]", who) and int(who) < len(state["players"]):
        return int(who)
    return None


def apply_life(state: State, payload: Payload) -> None:
    table = need_game(state)
    who = need_str(payload, "who", 12)
    delta = need_int(payload, "delta", -99, 99)
    if delta == 0:
        raise CommandError(_("Type an amount other than 0."), "delta")
    start = table["start"]
    if who in ("gravehold", "nemesis"):
        key = "gravehold" if who == "gravehold" else "nemesis_life"
        top = start["gravehold" if who == "gravehold" else "nemesis"]
        value = table[key]
        if (delta > 0 and value >= top) or (delta < 0 and value <= 0):
            bound = _("its starting life") if delta > 0 else "0"
            raise CommandError(
                _("%(name)s is already at %(bound)s.")
                % {"name": who_label(state, who), "bound": bound},
                "delta",
            )
        table[key] = min(top, max(0, value + delta))
        return
    index = player_index(state, who)
    if index is None:
        raise CommandError(_("There is no such player in this campaign."), "who")
    life = table["lives"][index]
    name = who_label(state, who)
    if delta > 0:
        if life == 0:
            raise CommandError(_("%(name)s is exhausted and cannot gain life.") % {"name": name})
        if life >= start["player"]:
            raise CommandError(
                _("%(name)s is already at %(bound)s.")
                % {"name": name, "bound": _("its starting life")},
                "delta",
            )
        table["lives"][index] = min(start["player"], life + delta)
        return
    damage = -delta
    taken = min(life, damage)
    table["lives"][index] = life - taken
    # An exhausted player's damage (and the excess at the moment of exhaustion) is dealt
    # twice over to Gravehold [003:557-566].
    table["gravehold"] = max(0, table["gravehold"] - 2 * (damage - taken))


def resolve_life(state: State, values: Payload, rng: random.Random) -> Payload:
    payload = dict(values)
    payload["name"] = who_label(state, payload.get("who"))
    trial = copy.deepcopy(state)
    apply_life(trial, payload)
    before, after = state["table"]["gravehold"], trial["table"]["gravehold"]
    if payload.get("who") not in ("gravehold", "nemesis") and after < before:
        payload["gravehold_damage"] = before - after
    return payload


def describe_life(p: Payload) -> str:
    delta = p.get("delta") or 0
    if delta > 0:
        text = _("%(name)s gains %(n)d life") % {"name": p.get("name"), "n": delta}
    else:
        text = _("%(name)s suffers %(n)d damage") % {"name": p.get("name"), "n": -delta}
    if p.get("gravehold_damage"):
        text += " " + _("(exhausted: Gravehold suffers %(n)d)") % {"n": p["gravehold_damage"]}
    return text


# The turn order deck


class Recorded:
    """Stands in for the random generator when a recorded draw is applied again: it picks
    the card the draw recorded out of the same unordered pool."""

    def __init__(self, index: int) -> None:
        self.index = index

    def randrange(self, n: int) -> int:
        if not 0 <= self.index < n:
            raise CommandError(_("The turn order deck does not hold that card now."), "card")
        return self.index


def pool_at_draw(deck: dict[str, Any]) -> list[str]:
    """The unordered pool a draw or reveal would pick from (after a reshuffle if need be)."""
    if deck["top"] or deck["pool"] or deck["bottom"]:
        return sorted(deck["pool"])
    return sorted(deck["discard"])


def check_no_pending(deck: dict[str, Any]) -> None:
    pending = deck.get("pending")
    if pending:
        raise CommandError(
            _("First choose who takes the turn of the card just drawn (%(card)s).")
            % {"card": pending.get("card")},
            "card",
        )


def deck_step(state: State, step, *args) -> Any:
    """Run one engine step on the table's deck, turning its refusals into messages."""
    deck = state["table"]["deck"]
    try:
        result = step(deck, *args)
    except turn_order.TurnOrderError:
        raise CommandError(_("The turn order deck cannot do that now."), "card") from None
    new = result[0] if isinstance(result, tuple) else result
    state["table"]["deck"] = new
    return result[1] if isinstance(result, tuple) else None


def take_recorded(state: State, payload: Payload, step) -> str:
    deck = state["table"]["deck"]
    check_no_pending(deck)
    card = need_str(payload, "card", data.NAME_LENGTH * 2 + 1)
    pool = pool_at_draw(deck)
    index = pool.index(card) if card in pool else len(pool) + 1
    took = deck_step(state, step, Recorded(index))
    if took != card:
        raise CommandError(_("The turn order deck does not hold that card now."), "card")
    return card


def apply_draw(state: State, payload: Payload) -> None:
    take_recorded(state, payload, turn_order.draw)


def apply_reveal(state: State, payload: Payload) -> None:
    take_recorded(state, payload, turn_order.reveal_top)


def random_take(step):
    """Resolve a draw or a reveal: the one moment a card is picked at random."""

    def resolve(state: State, values: Payload, rng: random.Random) -> Payload:
        deck = state["table"]["deck"]
        check_no_pending(deck)
        trial = copy.deepcopy(state)
        card = deck_step(trial, step, rng)
        after = trial["table"]["deck"]
        current = after.get("current") or {}
        return {
            "card": card,
            "round": after["round"],
            "reshuffled": after["round"] != deck["round"],
            "player": current.get("player") if step is turn_order.draw else None,
        }

    return resolve


def card_label(card: Any) -> str:
    if card == turn_order.NEMESIS:
        return _("Nemesis")
    if card == turn_order.WILD:
        return _("Wild")
    return str(card)


def describe_draw(p: Payload) -> str:
    text = _("Turn order: drew %(card)s") % {"card": card_label(p.get("card"))}
    if p.get("reshuffled"):
        text = (
            _("Turn order: shuffled every card into a new deck (round %(n)s)") % {"n": p["round"]}
            + "; "
            + text
        )
    return text


def describe_reveal(p: Payload) -> str:
    text = _("Turn order: revealed %(card)s on top of the deck") % {
        "card": card_label(p.get("card"))
    }
    if p.get("reshuffled"):
        text += " " + _("(after shuffling a new deck, round %(n)s)") % {"n": p["round"]}
    return text


def apply_choose(state: State, payload: Payload) -> None:
    deck = state["table"]["deck"]
    name = need_str(payload, "name", data.NAME_LENGTH)
    pending = deck.get("pending")
    if not pending:
        raise CommandError(_("There is no turn to hand out right now."), "name")
    if name not in pending["options"]:
        raise CommandError(
            _("%(name)s cannot take this turn; choose one of %(options)s.")
            % {"name": name, "options": ", ".join(pending["options"])},
            "name",
        )
    deck_step(state, turn_order.choose, name)


def describe_choose(p: Payload) -> str:
    return _("Turn order: %(name)s takes this turn") % {"name": p.get("name")}


def moving(step):
    def apply(state: State, payload: Payload) -> None:
        deck = state["table"]["deck"]
        check_no_pending(deck)
        card = need_str(payload, "card", data.NAME_LENGTH * 2 + 1)
        if card not in deck["discard"]:
            raise CommandError(
                _("%(card)s is not in the turn order discard pile.") % {"card": card_label(card)},
                "card",
            )
        deck_step(state, step, card)

    return apply


def describe_move(template: str):
    return lambda p: _(template) % {"card": card_label(p.get("card"))}


# Outside the campaign: the group's own card list and a supply randomizer


def banished_names(state: State) -> set[str]:
    return {b["text"].casefold() for b in state["banished"] if not b["restored"]}


def available_cards(state: State) -> list[dict[str, Any]]:
    banned = banished_names(state)
    return [card for card in state["outside"]["cards"] if card["name"].casefold() not in banned]


def apply_card_add(state: State, payload: Payload) -> None:
    outside = state["outside"]
    if len(outside["cards"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "name")
    name = need_str(payload, "name", data.CARD_LENGTH).strip()
    if name.casefold() in (card["name"].casefold() for card in outside["cards"]):
        raise CommandError(_("“%(name)s” is already in your list.") % {"name": name}, "name")
    outside["cards"].append(
        {
            "id": next_id(state),
            "name": name,
            "kind": need_choice(payload, "kind", data.CARD_TYPES),
            "cost": need_int(payload, "cost", 0, data.MAX_CARD_COST),
        }
    )


def apply_card_remove(state: State, payload: Payload) -> None:
    outside = state["outside"]
    card = find(outside["cards"], payload)
    outside["cards"].remove(card)
    outside["supply"] = [i for i in outside["supply"] if i != card["id"]]
    outside["locked"] = [i for i in outside["locked"] if i != card["id"]]


def add_card_name(state: State, payload: Payload) -> None:
    card = next((c for c in state["outside"]["cards"] if c["id"] == payload.get("item")), None)
    payload["name"] = card["name"] if card else ""


def roll_counts(payload: Payload) -> dict[str, int]:
    counts = {
        "gem": need_int(payload, "gems", 0, data.SUPPLY_PILES),
        "relic": need_int(payload, "relics", 0, data.SUPPLY_PILES),
        "spell": need_int(payload, "spells", 0, data.SUPPLY_PILES),
    }
    if not 1 <= sum(counts.values()) <= data.SUPPLY_PILES:
        raise CommandError(_("A supply has 1 to 9 piles in all."), "gems")
    return counts


def kind_label(kind: str) -> str:
    return {"gem": _("gems"), "relic": _("relics"), "spell": _("spells")}[kind]


def check_roll(state: State, payload: Payload) -> list[int]:
    """The rolled supply fits the request, the list and the locks; returns its ids."""
    counts = roll_counts(payload)
    gem3 = need_bool(payload, "gem3")
    picked = payload.get("picked")
    if not isinstance(picked, list) or any(type(i) is not int for i in picked):
        raise CommandError(_("The rolled supply is damaged."), "gems")
    if len(set(picked)) != len(picked):
        raise CommandError(_("The rolled supply is damaged."), "gems")
    by_id = {card["id"]: card for card in available_cards(state)}
    if any(i not in by_id for i in picked):
        raise CommandError(_("A rolled card is not in your list (or it is banished)."), "gems")
    for kind, wanted in counts.items():
        if sum(1 for i in picked if by_id[i]["kind"] == kind) != wanted:
            raise CommandError(_("The rolled supply does not match the numbers asked."), "gems")
    locked = [i for i in state["outside"]["locked"] if i in by_id]
    if any(i not in picked for i in locked):
        raise CommandError(_("A locked card must stay in the supply."), "gems")
    if (
        gem3
        and counts["gem"]
        and not any(
            by_id[i]["kind"] == "gem" and by_id[i]["cost"] == data.TIP_GEM_COST for i in picked
        )
    ):
        raise CommandError(_("No gem costing 3 in the rolled supply."), "gem3")
    return picked


def resolve_roll(state: State, values: Payload, rng: random.Random) -> Payload:
    payload = {key: values.get(key) for key in ("gems", "relics", "spells")}
    payload["gem3"] = bool(values.get("gem3"))
    counts = roll_counts(payload)
    cards = available_cards(state)
    by_id = {card["id"]: card for card in cards}
    locked = [by_id[i] for i in state["outside"]["locked"] if i in by_id]
    picked: list[dict[str, Any]] = []
    for kind, wanted in counts.items():
        keep = [card for card in locked if card["kind"] == kind]
        if len(keep) > wanted:
            raise CommandError(
                _("You locked %(n)d %(kind)s but asked for %(wanted)d.")
                % {"n": len(keep), "kind": kind_label(kind), "wanted": wanted},
                "gems",
            )
        others = [card for card in cards if card["kind"] == kind and card not in keep]
        if len(others) < wanted - len(keep):
            raise CommandError(
                _("Your list has only %(n)d %(kind)s that are not banished; %(wanted)d are needed.")
                % {"n": len(others) + len(keep), "kind": kind_label(kind), "wanted": wanted},
                "gems",
            )
        chosen = keep + rng.sample(others, wanted - len(keep))
        needs_three = kind == "gem" and payload["gem3"] and wanted
        if needs_three and not any(card["cost"] == data.TIP_GEM_COST for card in chosen):
            threes = [card for card in others if card["cost"] == data.TIP_GEM_COST]
            free = [card for card in chosen if card not in keep]
            if not threes or not free:
                raise CommandError(
                    _("No gem costing 3 can be added: add one to your list or unlock a gem."),
                    "gem3",
                )
            chosen[chosen.index(rng.choice(free))] = rng.choice(threes)
        picked += chosen
    payload["picked"] = [card["id"] for card in picked]
    payload["names"] = [card["name"] for card in picked]
    return payload


def apply_roll(state: State, payload: Payload) -> None:
    picked = check_roll(state, payload)
    outside = state["outside"]
    outside["supply"] = list(picked)
    outside["locked"] = [i for i in outside["locked"] if i in picked]


def describe_roll(p: Payload) -> str:
    names = p.get("names") or []
    return _("Outside the campaign: rolled a supply of %(names)s") % {
        "names": ", ".join(map(str, names))
    }


def apply_lock(state: State, payload: Payload) -> None:
    outside = state["outside"]
    card = find(outside["cards"], payload)
    locked = need_bool(payload, "locked")
    if card["id"] not in outside["supply"]:
        raise CommandError(_("Only a card in the rolled supply can be locked."), "item")
    outside["locked"] = [i for i in outside["locked"] if i != card["id"]]
    if locked:
        outside["locked"].append(card["id"])


def describe_lock(p: Payload) -> str:
    template = _("Locked “%(name)s”") if p.get("locked") else _("Unlocked “%(name)s”")
    return template % {"name": p.get("name")}


# Outside the campaign: the nemesis deck


def apply_chart(state: State, payload: Payload) -> None:
    chart = {}
    for players in data.NEMESIS_CHART:
        chart[str(players)] = [
            need_int(payload, f"c{players}_{tier}", 0, data.MAX_CHART_CELL) for tier in data.TIERS
        ]
    state["outside"]["chart"] = chart
    state["outside"]["build"] = None


def describe_chart(p: Payload) -> str:
    return _("Outside the campaign: corrected the basic nemesis card chart")


def apply_nemesis_card(state: State, payload: Payload) -> None:
    outside = state["outside"]
    if len(outside["nemesis_cards"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "name")
    outside["nemesis_cards"].append(
        {
            "id": next_id(state),
            "name": need_str(payload, "name", data.CARD_LENGTH).strip(),
            "tier": need_int(payload, "tier", 1, 3),
        }
    )
    outside["build"] = None


def apply_nemesis_card_remove(state: State, payload: Payload) -> None:
    outside = state["outside"]
    outside["nemesis_cards"].remove(find(outside["nemesis_cards"], payload))
    outside["build"] = None


def add_nemesis_card_name(state: State, payload: Payload) -> None:
    cards = state["outside"]["nemesis_cards"]
    card = next((c for c in cards if c["id"] == payload.get("item")), None)
    payload["name"] = card["name"] if card else ""


def tier_cards(state: State, tier: int) -> list[dict[str, Any]]:
    return [card for card in state["outside"]["nemesis_cards"] if card["tier"] == tier]


def resolve_build(state: State, values: Payload, rng: random.Random) -> Payload:
    players = values.get("players")
    payload: Payload = {"players": players, "tiers": []}
    counts = state["outside"]["chart"].get(str(players), [0, 0, 0])
    for tier, wanted in zip(data.TIERS, counts, strict=True):
        cards = tier_cards(state, tier)
        if cards and len(cards) < wanted:
            raise CommandError(
                _("Tier %(t)d needs %(n)d basic cards; your list has %(have)d.")
                % {"t": tier, "n": wanted, "have": len(cards)},
                "players",
            )
        picks = rng.sample(cards, wanted) if cards else []
        payload["tiers"].append([card["id"] for card in picks])
    return payload


def apply_build(state: State, payload: Payload) -> None:
    players = need_int(payload, "players", data.MIN_PLAYERS, data.MAX_PLAYERS)
    tiers = payload.get("tiers")
    if not isinstance(tiers, list) or len(tiers) != len(data.TIERS):
        raise CommandError(_("The nemesis deck is damaged."), "players")
    counts = state["outside"]["chart"][str(players)]
    for tier, ids, wanted in zip(data.TIERS, tiers, counts, strict=True):
        cards = {card["id"] for card in tier_cards(state, tier)}
        if (
            not isinstance(ids, list)
            or any(type(i) is not int for i in ids)
            or len(set(ids)) != len(ids)
        ):
            raise CommandError(_("The nemesis deck is damaged."), "players")
        if any(i not in cards for i in ids):
            raise CommandError(_("A card of the nemesis deck is not in your list."), "players")
        if len(ids) != (wanted if cards else 0):
            raise CommandError(_("The nemesis deck does not match the chart."), "players")
    state["outside"]["build"] = {"players": players, "tiers": [list(ids) for ids in tiers]}


def describe_build(p: Payload) -> str:
    return _("Outside the campaign: built a nemesis deck for %(n)s players") % {
        "n": p.get("players")
    }


def command(name, form, apply, describe, resolve=None, stale_check=False) -> Command:
    extra = {"resolve": resolve} if resolve else {}
    return Command(name, form, apply, describe, stale_check=stale_check, **extra)


COMMANDS: dict[str, Command] = {
    "ae.chapter": command("ae.chapter", f.ChapterForm, apply_chapter, describe_chapter),
    "ae.stickers": command(
        "ae.stickers", f.StickersForm, apply_stickers, describe_stickers, resolve_stickers
    ),
    "ae.sticker": command(
        "ae.sticker",
        f.StickerForm,
        apply_sticker,
        describe_sticker,
        resolve_sticker,
        stale_check=True,
    ),
    "ae.seal": command("ae.seal", f.SealForm, apply_seal, describe_seal),
    "ae.legacy": command("ae.legacy", f.LegacyForm, apply_legacy, describe_legacy),
    "ae.banish": command("ae.banish", f.BanishForm, apply_banish, describe_banish),
    "ae.restore": command(
        "ae.restore", f.RestoreForm, apply_restore, describe_restore, with_info(add_banished_name)
    ),
    "ae.supply": command(
        "ae.supply", f.SupplyForm, apply_supply, describe_supply, stale_check=True
    ),
    "ae.present": command("ae.present", f.PresentForm, apply_present, describe_present),
    "ae.upgrade": command(
        "ae.upgrade", f.UpgradeForm, apply_upgrade, describe_upgrade, with_info(add_unchosen)
    ),
    "ae.upgrade_cancel": command(
        "ae.upgrade_cancel",
        f.EmptyForm,
        apply_upgrade_cancel,
        words(gettext_noop("Cancelled the supply upgrade")),
    ),
    "ae.mage": command("ae.mage", f.MageForm, apply_mage, describe_mage, with_info(add_character)),
    "ae.mage_remove": command(
        "ae.mage_remove",
        f.MageRemoveForm,
        apply_mage_remove,
        describe_mage_remove,
        with_info(add_character),
    ),
    "ae.score": command("ae.score", f.ScoreForm, apply_score, describe_score, with_info()),
    "ae.score_remove": command(
        "ae.score_remove",
        f.ItemForm,
        apply_score_remove,
        describe_score_remove,
        with_info(add_score_info),
    ),
    "ae.start": command("ae.start", f.StartForm, apply_start, describe_start, stale_check=True),
    "ae.life": command("ae.life", f.LifeForm, apply_life, describe_life, resolve_life),
    # A draw, a reveal, a roll or a build starts something: from a screen that had not seen the
    # last change (a second phone, a double tap) it is refused, and that phone sees what happened.
    "ae.draw": command(
        "ae.draw",
        f.EmptyForm,
        apply_draw,
        describe_draw,
        random_take(turn_order.draw),
        stale_check=True,
    ),
    "ae.reveal": command(
        "ae.reveal",
        f.EmptyForm,
        apply_reveal,
        describe_reveal,
        random_take(turn_order.reveal_top),
        stale_check=True,
    ),
    "ae.choose": command("ae.choose", f.ChooseForm, apply_choose, describe_choose),
    "ae.top": command(
        "ae.top",
        f.CardForm,
        moving(turn_order.put_on_top),
        describe_move(gettext_noop("Turn order: put %(card)s back on top of the deck")),
    ),
    "ae.bottom": command(
        "ae.bottom",
        f.CardForm,
        moving(turn_order.put_on_bottom),
        describe_move(gettext_noop("Turn order: put %(card)s at the bottom of the deck")),
    ),
    "ae.shuffle": command(
        "ae.shuffle",
        f.CardForm,
        moving(turn_order.shuffle_into_deck),
        describe_move(gettext_noop("Turn order: shuffled %(card)s into the deck")),
    ),
    "ae.card": command(
        "ae.card",
        f.OwnCardForm,
        apply_card_add,
        words(gettext_noop("Outside the campaign: added “%(name)s” to your cards")),
    ),
    "ae.card_remove": command(
        "ae.card_remove",
        f.ItemForm,
        apply_card_remove,
        words(gettext_noop("Outside the campaign: removed “%(name)s” from your cards")),
        with_info(add_card_name),
    ),
    "ae.roll": command(
        "ae.roll", f.RandomizeForm, apply_roll, describe_roll, resolve_roll, stale_check=True
    ),
    "ae.lock": command("ae.lock", f.LockForm, apply_lock, describe_lock, with_info(add_card_name)),
    "ae.chart": command("ae.chart", f.ChartForm, apply_chart, describe_chart, stale_check=True),
    "ae.nemesis_card": command(
        "ae.nemesis_card",
        f.NemesisCardForm,
        apply_nemesis_card,
        words(gettext_noop("Outside the campaign: added the nemesis card “%(name)s”")),
    ),
    "ae.nemesis_card_remove": command(
        "ae.nemesis_card_remove",
        f.ItemForm,
        apply_nemesis_card_remove,
        words(gettext_noop("Outside the campaign: removed the nemesis card “%(name)s”")),
        with_info(add_nemesis_card_name),
    ),
    "ae.build": command(
        "ae.build", f.BuildForm, apply_build, describe_build, resolve_build, stale_check=True
    ),
}
