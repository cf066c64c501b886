"""A valid post for every command of every game, in an order that makes each one possible (an
investigator before their trauma, a draw before drawing another): what the tests that play every
command (live regions, bidi, same tap, shared refresh, the words at the table) share. Tests reach
it through tests/factories.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = dict[str, Any]
Post = dict[str, Any] | Callable[[State], dict[str, Any]]


def first(items, **match):
    return next(i for i in items if all(i.get(k) == v for k, v in match.items()))


def tracker(s: State, kind: str | None = None, name: str | None = None) -> dict:
    return next(
        t
        for t in s["trackers"]
        if (kind is None or t["kind"] == kind) and (name in (None, t["name"]))
    )


def tracker_posts(extra_kinds: tuple[str, ...]) -> list[tuple[str, Post]]:
    """The shared trackers' commands; `extra_kinds` are added first (a game may start with
    none of them)."""
    posts: list[tuple[str, Post]] = [
        (
            "tracker.add",
            {"kind": kind, "name": f"New {kind}", "minimum": 0, "maximum": 9, "items": "One, Two"},
        )
        for kind in extra_kinds
    ]
    return [
        *posts,
        ("counter.adjust", lambda s: {"tracker": tracker(s, "counter")["id"], "delta": 1}),
        ("counter.set", lambda s: {"tracker": tracker(s, "counter")["id"], "value": 3}),
        ("checklist.add", lambda s: {"tracker": tracker(s, "checklist")["id"], "label": "Three"}),
        (
            "checklist.check",
            lambda s: {
                "tracker": tracker(s, "checklist")["id"],
                "item": tracker(s, "checklist")["items"][0]["id"],
                "done": "true",
            },
        ),
        (
            "list.add",
            lambda s: {"tracker": tracker(s, "list")["id"], "text": "Spark", "reason": "a reason"},
        ),
        (
            "list.remove",
            lambda s: {
                "tracker": tracker(s, "list")["id"],
                "item": tracker(s, "list")["items"][0]["id"],
                "reason": "gone",
            },
        ),
        (
            "list.restore",
            lambda s: {
                "tracker": tracker(s, "list")["id"],
                "item": tracker(s, "list")["items"][0]["id"],
            },
        ),
        ("notes.add", lambda s: {"tracker": tracker(s, "notes")["id"], "text": "A clue"}),
        (
            "notes.cross",
            lambda s: {
                "tracker": tracker(s, "notes")["id"],
                "item": tracker(s, "notes")["entries"][0]["id"],
            },
        ),
        (
            "notes.restore",
            lambda s: {
                "tracker": tracker(s, "notes")["id"],
                "item": tracker(s, "notes")["entries"][0]["id"],
            },
        ),
        (
            "results.add",
            lambda s: {
                "tracker": tracker(s, "results")["id"],
                "date": "2026-11-30",
                "result": "win",
                "score": 3,
                "notes": "close",
            },
        ),
        (
            "results.remove",
            lambda s: {
                "tracker": tracker(s, "results")["id"],
                "item": tracker(s, "results")["rows"][0]["id"],
            },
        ),
        ("tracker.add", {"kind": "dice", "name": "Dice", "success_on": 5}),
        ("dice.roll", lambda s: {"tracker": tracker(s, "dice")["id"], "dice": 3}),
        ("tracker.add", {"kind": "deck", "name": "Deck", "items": "Green×2, Ace"}),
        ("deck.draw", lambda s: {"tracker": tracker(s, "deck")["id"]}),
        ("deck.reset", lambda s: {"tracker": tracker(s, "deck")["id"]}),
        ("tracker.add", {"kind": "turns", "name": "Turns", "items": "Ana, Ben"}),
        ("turns.seat", lambda s: {"tracker": tracker(s, "turns")["id"], "seat": "Cy"}),
        ("turns.first", lambda s: {"tracker": tracker(s, "turns")["id"]}),
        ("turns.next", lambda s: {"tracker": tracker(s, "turns")["id"]}),
        ("turns.pass", lambda s: {"tracker": tracker(s, "turns")["id"]}),
        (
            "turns.unseat",
            lambda s: {
                "tracker": tracker(s, "turns")["id"],
                "seat": tracker(s, "turns")["seats"][-1]["id"],
            },
        ),
        ("tracker.add", {"kind": "timer", "name": "Timer", "seconds": 30}),
        ("timer.start", lambda s: {"tracker": tracker(s, "timer")["id"], "seconds": 45}),
        ("timer.stop", lambda s: {"tracker": tracker(s, "timer")["id"]}),
        ("tracker.add", {"kind": "coin", "name": "Coin"}),
        ("coin.flip", lambda s: {"tracker": tracker(s, "coin")["id"]}),
        ("tracker.add", {"kind": "notes", "name": "Short-lived"}),
        ("tracker.remove", lambda s: {"tracker": tracker(s, name="Short-lived")["id"]}),
    ]


META = [
    ("campaign.rename", {"name": "Renamed"}),
    ("campaign.archive", {"archived": "on"}),
    ("campaign.archive", {}),
]


class NotYet(Exception):
    """The step needs another change first, whose outcome is random: a turn-order card that
    asks who takes the turn, or the answer to it."""

    def __init__(self, action: str, data: dict | None = None) -> None:
        self.action, self.data = action, data or {}


def sample_data(campaign, owner, post, rng=None) -> tuple[dict, bool]:
    """A step's data for the campaign as it is now, and whether the changes it needed first
    (NotYet) were made, by the owner, to get there (with `rng`, if given, for their draws)."""
    campaign.refresh_from_db()
    made = False
    for _try in range(30):
        try:
            return (post(campaign.state) if callable(post) else post), made
        except NotYet as first:
            campaign.apply(first.action, first.data, owner, rng=rng)
            campaign.refresh_from_db()
            made = True
    raise AssertionError(f"the step never became possible: {post}")


def until_a_choice(s: State) -> dict:
    pending = s["table"]["deck"].get("pending")
    if not pending:
        raise NotYet("ae.draw")
    return pending


def settled(s: State, data: dict) -> dict:
    pending = s["table"]["deck"].get("pending")
    if pending:
        raise NotYet("ae.choose", {"name": pending["options"][0]})
    return data


def investigator(s: State) -> int:
    return s["investigators"][0]["id"]


ARKHAM: list[tuple[str, Post]] = [
    ("investigator.add", {"name": "Roland", "player": "Ann", "health": 9, "sanity": 5}),
    ("investigator.add", {"name": "Daisy", "player": "Bo", "health": 5, "sanity": 9}),
    ("scenario.start", {"name": "The Gathering"}),
    ("bag.active", lambda s: {"investigator": investigator(s)}),
    ("bag.draw", {}),
    ("bag.another", lambda s: {"test": s["draws"][-1]["id"]}),
    ("bag.record", lambda s: {"token": "skull", "test": s["draws"][-1]["id"], "into": "same"}),
    ("bag.done", lambda s: {"test": s["draws"][-1]["id"]}),
    ("bag.draw", {"several": 2}),
    ("bag.choose", lambda s: {"test": s["draws"][-1]["id"], "pick": 1}),
    ("bag.change", {"token": "+1", "delta": 1}),
    ("bag.set", {"token": "-2", "count": 3}),
    ("bag.seal", {"token": "skull"}),
    ("bag.release", {"token": "skull"}),
    ("scenario.effects", {}),
    # A scenario with a card: what X counts, a condition, the act, an investigator's own skull.
    ("scenario.start", {"scenario": "wilds"}),
    ("scenario.x", {"key": "locations_in_play", "value": 2}),
    ("scenario.alt", {"symbol": "elder_thing", "alt": 1}),
    ("scenario.act", {"act": ""}),
    (
        "investigator.symbol",
        lambda s: {"investigator": investigator(s), "symbol": "skull", "mode": "modifier"},
    ),
    (
        "investigator.trauma",
        lambda s: {"investigator": investigator(s), "kind": "physical", "delta": 1},
    ),
    ("investigator.xp", lambda s: {"investigator": investigator(s), "delta": 3}),
    (
        "investigator.buy",
        lambda s: {"investigator": investigator(s), "card": "Deduction", "level": 1},
    ),
    (
        "investigator.item",
        lambda s: {"investigator": investigator(s), "kind": "asset", "text": "Lita"},
    ),
    (
        "investigator.unitem",
        lambda s: {
            "investigator": investigator(s),
            "item": s["investigators"][0]["items"][0]["id"],
        },
    ),
    ("investigator.elder", lambda s: {"investigator": investigator(s), "modifier": 1}),
    ("investigator.rename", lambda s: {"investigator": investigator(s), "called": "Rolande"}),
    ("supply.add", lambda s: {"investigator": investigator(s), "supply": "provisions"}),
    ("supply.use", lambda s: {"investigator": investigator(s), "supply": "provisions"}),
    (
        "investigator.mark",
        lambda s: {"investigator": s["investigators"][1]["id"], "status": "killed"},
    ),
    (
        "investigator.add",
        lambda s: {
            "name": "Wendy",
            "player": "Bo",
            "health": 7,
            "sanity": 7,
            "replaces": s["investigators"][1]["id"],
        },
    ),
    ("scenario.rename", {"scenario": "wilds", "called": "Our own"}),
    ("round.next", lambda s: {"from": s["round"]["step"]}),
    ("round.doom", {"delta": 1}),
    ("round.threshold", {"threshold": 7}),
    ("round.agenda", {"agenda": 2}),
    ("scenario.record", {"scenario": "The Gathering", "resolution": "Resolution 1"}),
    *tracker_posts(("counter", "checklist", "list", "results")),
    *META,
]

AEONSEND: list[tuple[str, Post]] = [
    *[("ae.chapter", {"to": to}) for to in ("1-end", "2-beginning", "2-end")],
    ("ae.stickers", {"letters": ["A"], "game": 1}),
    ("ae.sticker", {"letter": "F", "applied": "on", "timing": "4-end", "text": "Found it"}),
    ("ae.seal", {"key": "stop-Ic", "opened": "true", "note": "A note"}),
    ("ae.legacy", {"card": "L02"}),
    ("ae.banish", {"text": "Spark", "game": 1, "reason": "Too good"}),
    ("ae.restore", lambda s: {"item": s["banished"][0]["id"], "reason": "Back"}),
    ("ae.supply", {"piles": "\n".join(f"Pile {n}" for n in range(1, 10))}),
    ("ae.present", {"piles": "New A\nNew B\nNew C"}),
    ("ae.upgrade", {"add": ["New A", "New B"], "banish": ["Pile 1", "Pile 2"], "game": 1}),
    ("ae.present", {"piles": "New D\nNew E\nNew F"}),
    ("ae.upgrade_cancel", {}),
    ("ae.mage", {"player": 0, "kind": "equipment", "text": "A fine staff", "game": 1}),
    ("ae.mage_remove", lambda s: {"player": 0, "item": s["players"][0]["notes"][0]["id"]}),
    (
        "ae.score",
        {
            "date": "2026-11-30",
            "chapter": 1,
            "nemesis": "Rageborne",
            "result": "win",
            "gravehold": 10,
            "nemesis_life": 0,
            "rounds": 9,
            "notes": "Close",
            "life_1": 4,
            "life_2": 0,
            "life_3": 2,
        },
    ),
    ("ae.score_remove", lambda s: {"item": s["scores"][0]["id"]}),
    ("ae.start", {"nemesis": "Rageborne", "nemesis_life": 60, "difficulty": "standard"}),
    ("ae.life", {"who": "gravehold", "delta": 1, "sign": "damage"}),
    ("ae.draw", {}),
    ("ae.choose", lambda s: {"name": until_a_choice(s)["options"][0]}),
    ("ae.reveal", lambda s: settled(s, {})),
    ("ae.bottom", lambda s: settled(s, {"card": s["table"]["deck"]["discard"][0]})),
    ("ae.top", lambda s: settled(s, {"card": s["table"]["deck"]["discard"][0]})),
    ("ae.draw", lambda s: settled(s, {})),
    ("ae.shuffle", lambda s: settled(s, {"card": s["table"]["deck"]["current"]["card"]})),
    ("ae.nemesis_deck", {"basic_1": 1, "basic_2": 0, "basic_3": 0}),
    ("ae.nemesis_draw", {}),
    ("ae.in_play", {"kind": "minion", "name": "Husk", "value": 2}),
    ("ae.tokens", lambda s: {"item": s["table"]["in_play"][0]["id"], "delta": -1}),
    ("ae.discard", lambda s: {"item": s["table"]["in_play"][0]["id"]}),
    ("ae.doubling", {"double": ""}),
    ("ae.card", {"name": "Spark", "kind": "spell", "cost": 1}),
    ("ae.card_remove", lambda s: {"item": s["outside"]["cards"][0]["id"]}),
    *[("ae.card", {"name": f"Gem {n}", "kind": "gem", "cost": n + 2}) for n in range(3)],
    *[("ae.card", {"name": f"Relic {n}", "kind": "relic", "cost": n + 2}) for n in range(2)],
    *[("ae.card", {"name": f"Spell {n}", "kind": "spell", "cost": n + 3}) for n in range(4)],
    ("ae.roll", {"gems": 3, "relics": 2, "spells": 4}),
    ("ae.lock", lambda s: {"item": s["outside"]["cards"][0]["id"], "locked": "true"}),
    ("ae.chart", {f"c{p}_{t}": 2 for p in range(1, 5) for t in (1, 2, 3)}),
    *[("ae.nemesis_card", {"name": f"Basic {n}", "tier": 1}) for n in range(8)],
    ("ae.nemesis_card_remove", lambda s: {"item": s["outside"]["nemesis_cards"][0]["id"]}),
    ("ae.build", {"players": 2}),
    ("ae.sets", {"sets": ["AE"]}),
    ("ae.set_cards", {}),
    ("ae.market", {"market": "random"}),
    ("ae.lose", {}),  # last: the game is over after it
    *META,
]


def end_phase() -> list[tuple[str, Post]]:
    return [("noir.end", {"step": step}) for step in "abcd"]


NOIR: list[tuple[str, Post]] = [
    ("noir.victim", {"column": 1, "name": "Ada"}),
    *[("noir.count", {"column": 1, "count": "cards", "delta": 1}) for _n in range(7)],
    *[("noir.count", {"column": 1, "count": "hourglasses", "delta": 1}) for _n in range(2)],
    ("noir.flag", {"column": 1, "flag": "master_key", "on": "true"}),
    ("noir.type", {"column": 1, "type": 1, "present": "true"}),
    ("noir.puzzle", {"column": 1, "type": 2, "delta": 1}),
    ("noir.pile", {"pile": "madness", "delta": 1}),
    ("noir.big", {"type": 3, "delta": 1}),
    ("noir.big", {"type": 3, "delta": -1}),
    ("noir.win_rule", {"win_rule": "distinct"}),
    ("noir.play", {"column": 1, "type": 3, "hourglass": "on"}),
    ("noir.sanity", {"outcome": "timeout"}),
    ("noir.storm", {"lightning": "true"}),
    *end_phase(),
    ("noir.take", {}),
    ("noir.discard", {"hourglass": "true"}),
    *end_phase(),
    ("noir.hand_play", {"column": 2, "type": 4, "taken_hourglass": "on"}),
    *end_phase(),
    *[("noir.type", {"column": 1, "type": n, "present": "true"}) for n in (4, 5)],
    ("noir.close", {"column": 1}),
    *end_phase(),
    ("noir.pass", {}),
    *end_phase(),
    ("noir.ran_out", {}),
    *[("noir.pile", {"pile": "madness", "delta": 1}) for _n in range(4)],
    ("noir.take", {}),
    ("noir.end", {"step": "a"}),
    ("noir.end", {"step": "b"}),
    ("noir.new", {"case": "case1", "clue_types": 6}),
    *META,
]

ANY: list[tuple[str, Post]] = [*tracker_posts(()), *META]


def eh_who(s: State, n: int = 0) -> int:
    return s["game"]["investigators"][n]["id"]


def eh_colour_left(s: State) -> dict:
    stage = next(st for st in s["game"]["deck"]["stages"] if sum(st.values()))
    return {"colour": next(c for c, n in stage.items() if n)}


ELDRITCH: list[tuple[str, Post]] = [
    ("eh.doom", {"step": "advance"}),
    ("eh.doom", {"step": "retreat"}),
    ("eh.gate", {"colour": "blue", "delta": 1}),
    ("eh.omen", {}),
    ("eh.mystery", {"current": "The Key", "tokens": 2}),
    ("eh.solve", {}),
    ("eh.track", lambda s: {"investigator": eh_who(s), "track": "health", "delta": -1}),
    ("eh.clues", lambda s: {"investigator": eh_who(s), "delta": 1}),
    ("eh.ticket", lambda s: {"investigator": eh_who(s), "kind": "train", "delta": 1}),
    ("eh.improve", lambda s: {"investigator": eh_who(s), "skill": "lore", "delta": 1}),
    ("eh.condition", lambda s: {"investigator": eh_who(s), "condition": "Debt"}),
    ("eh.uncondition", lambda s: {"investigator": eh_who(s), "condition": "Debt"}),
    ("eh.roll", lambda s: {"dice": 6, "bonus": "cursed", "investigator": eh_who(s)}),
    ("eh.reroll", lambda s: {"roll": s["game"]["rolls"][-1]["id"]}),
    ("eh.lead", lambda s: {"investigator": eh_who(s, 1)}),
    ("eh.rename", lambda s: {"key": s["game"]["investigators"][1]["name"], "called": "Our lead"}),
    ("eh.rename", lambda s: {"key": s["game"]["ancient_one"], "called": "The Sleeper"}),
    ("eh.draw", {}),
    ("eh.record", eh_colour_left),
    *[("eh.phase", lambda s: {"phase": s["game"]["phase"]})] * 2,
    ("eh.status", lambda s: {"investigator": eh_who(s, 2), "status": "devoured"}),
    ("eh.replace", lambda s: {"investigator": eh_who(s, 2), "typed": "Naomi, 5, 7"}),
    (
        "eh.skills",
        lambda s: {
            "investigator": eh_who(s, 2),
            "lore": 3,
            "influence": 2,
            "observation": 2,
            "strength": 3,
            "will": 4,
        },
    ),
    ("eh.phase", lambda s: {"phase": s["game"]["phase"]}),
    ("eh.pick", {"expansions": ["Core"], "players": 3, "skip": 0}),
    (
        "eh.log",
        {"date": "2026-11-30", "result": "loss", "reason": "doom", "rounds": 2, "notes": "Close"},
    ),
    ("eh.unlog", lambda s: {"item": s["games"][0]["id"]}),
    (
        "eh.start",
        {
            "ancient_one": "Cthulhu",
            "players": 2,
            "difficulty": "hard",
            "investigator_1": "Lily Chen",
            "investigator_2": "Mark Harrigan",
        },
    ),
    *META,
]

SAMPLE_POSTS: dict[str, list[tuple[str, Post]]] = {
    "any": ANY,
    "arkham": ARKHAM,
    "aeonsend": AEONSEND,
    "eldritch": ELDRITCH,
    "noir": NOIR,
}
SAMPLE_SETUPS: dict[str, dict[str, Any]] = {
    "arkham": {"campaign": "tfa", "difficulty": "standard"},
    # Three mages: the turn-order deck has a card that asks who takes the turn.
    "aeonsend": {
        "players": [
            {"player": f"P{n}", "character": name, "mat": str(n), "side": "front", "colour": c}
            for n, (name, c) in enumerate((("Ada", "red"), ("Bo", "white"), ("Cy", "blue")))
        ],
        "solo": False,
    },
}
