"""Aeon's End: Legacy: replaying the events gives the cached state, whatever was done, undone and
redone (draws, choices and rolls included: their outcome is in the event, not taken again)."""

import random

from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns.games.aeonsend import data
from campaigns.models import Campaign
from tests.factories import play_and_check_replay
from tests.games.aeonsend.helpers import make_ae

NAMES = {3: ("Ada", "Bo", "Cy"), 4: ("Ada", "Bo", "Cy", "Di"), 2: ("Ada", "Bo")}

STEP = st.one_of(
    st.just(("ae.draw",)),
    st.just(("ae.draw",)),
    st.just(("ae.draw",)),
    st.just(("ae.reveal",)),
    st.tuples(st.just("ae.choose"), st.integers(0, 3)),
    st.tuples(st.sampled_from(["ae.top", "ae.bottom", "ae.shuffle"]), st.integers(0, 5)),
    st.tuples(
        st.just("ae.life"),
        st.sampled_from(["gravehold", "nemesis", "0", "1", "2"]),
        st.integers(-12, 4),
    ),
    st.tuples(st.just("ae.start"), st.sampled_from(list(data.DIFFICULTIES))),
    st.tuples(st.just("ae.stickers"), st.lists(st.sampled_from("ANOQSYZ"), max_size=3)),
    st.tuples(st.just("ae.sticker"), st.sampled_from("AFV"), st.booleans()),
    st.just(("ae.chapter",)),
    st.tuples(st.just("ae.seal"), st.sampled_from(["stop-Ic", "box-A"]), st.booleans()),
    st.tuples(st.just("ae.banish"), st.sampled_from(["Spark", "Gem 1", "Pile 2"])),
    st.tuples(st.just("ae.restore"), st.integers(0, 3)),
    st.just(("ae.supply",)),
    st.just(("ae.present",)),
    st.tuples(st.just("ae.upgrade"), st.integers(0, 8)),
    st.tuples(st.just("ae.score"), st.sampled_from(["win", "loss"])),
    st.tuples(st.just("ae.card"), st.integers(0, 9)),
    st.just(("ae.roll",)),
    st.tuples(st.just("ae.lock"), st.integers(0, 3)),
    st.tuples(st.just("ae.build"), st.integers(1, 4)),
    st.tuples(st.just("ae.legacy"), st.sampled_from(["L02", "E07", "L19", "L17"])),
    st.tuples(st.just("ae.nemesis_deck"), st.integers(0, 2), st.integers(0, 2)),
    st.just(("ae.nemesis_draw",)),
    st.just(("ae.nemesis_draw",)),
    st.tuples(st.just("ae.in_play"), st.sampled_from(["minion", "power"]), st.integers(1, 3)),
    st.tuples(st.just("ae.tokens"), st.integers(0, 3), st.sampled_from([-1, -1, 1])),
    st.tuples(st.just("ae.discard"), st.integers(0, 3)),
    st.tuples(st.just("ae.doubling"), st.booleans()),
    st.tuples(st.just("ae.sets"), st.lists(st.sampled_from(["AE", "WE", "Nameless"]))),
    st.just(("ae.set_cards",)),
    st.tuples(st.just("ae.market"), st.sampled_from(["random", "market1", "market4"])),
    st.just(("undo",)),
    st.just(("undo",)),
    st.just(("redo",)),
)


def step_data(campaign: Campaign, step: tuple) -> tuple[str, dict]:
    """The command and the cleaned data a tap would have produced for this step."""
    state = campaign.state
    action = step[0]
    deck = state["table"]["deck"]
    if action in ("ae.draw", "ae.reveal", "ae.chapter", "ae.supply", "ae.present", "ae.roll"):
        return action, {
            "ae.draw": {},
            "ae.reveal": {},
            "ae.chapter": {
                "to": data.POINTS[min(data.POINTS.index(state["chapter"]) + 1, 15)],
            },
            "ae.supply": {"piles": [f"Pile {n}" for n in range(9)]},
            "ae.present": {"piles": ["New A", "New B", "New C"]},
            "ae.roll": {"gems": 2, "relics": 1, "spells": 1, "gem3": True},
        }[action]
    if action == "ae.choose":
        options = (deck["pending"] or {}).get("options") or ["Nobody"]
        return action, {"name": options[step[1] % len(options)]}
    if action in ("ae.top", "ae.bottom", "ae.shuffle"):
        discard = deck["discard"] or ["Nemesis"]
        return action, {"card": discard[step[1] % len(discard)]}
    if action == "ae.life":
        return action, {"who": step[1], "delta": step[2]}
    if action == "ae.start":
        return action, {"nemesis": "Maelstrom", "nemesis_life": 20, "difficulty": step[1]}
    if action == "ae.stickers":
        return action, {"letters": step[1], "game": 1}
    if action == "ae.sticker":
        return action, {
            "letter": step[1],
            "applied": step[2],
            "game": None,
            "text": "t",
            "timing": "4-end" if step[1] == "F" else "",
        }
    if action == "ae.seal":
        return action, {"key": step[1], "opened": step[2], "note": ""}
    if action == "ae.banish":
        return action, {"text": step[1], "game": None, "reason": ""}
    if action == "ae.restore":
        items = state["banished"] or [{"id": 999}]
        return action, {"item": items[step[1] % len(items)]["id"], "reason": ""}
    if action == "ae.upgrade":
        presented = (state["upgrade"] or {}).get("presented", ["x", "y"])
        supply = state["supply"] or ["a", "b"]
        n = step[1]
        return action, {
            "add": presented[:2],
            "banish": [supply[n % len(supply)], supply[(n + 1) % len(supply)]],
            "game": 1,
        }
    if action == "ae.score":
        count = len(state["players"])
        lives = {f"life_{n}": 3 for n in range(1, count + 1)}
        return action, {
            "date": "2024-05-06",
            "chapter": 1,
            "nemesis": "Maelstrom",
            "result": step[1],
            "gravehold": 5,
            "nemesis_life": 0,
            "rounds": 4,
            "notes": "",
            **lives,
        }
    if action == "ae.card":
        kind = ["gem", "gem", "gem", "relic", "spell"][step[1] % 5]
        return action, {"name": f"Card {step[1]}", "kind": kind, "cost": 3}
    if action == "ae.lock":
        supply = state["outside"]["supply"] or [999]
        return action, {"item": supply[step[1] % len(supply)], "locked": True}
    if action == "ae.build":
        return action, {"players": step[1]}
    if action == "ae.nemesis_deck":
        return action, {"tiers": [step[1], step[2], 1]}
    if action in ("ae.nemesis_draw", "ae.set_cards"):
        return action, {}
    if action == "ae.in_play":
        return action, {"kind": step[1], "name": "Husk", "value": step[2]}
    if action in ("ae.tokens", "ae.discard"):
        in_play = state["table"].get("in_play") or [{"id": 999}]
        return action, {"item": in_play[step[1] % len(in_play)]["id"], "delta": step[-1]}
    if action == "ae.doubling":
        return action, {"double": step[1]}
    if action == "ae.sets":
        return action, {"sets": step[1]}
    if action == "ae.market":
        return action, {"market": step[1]}
    return action, {"card": step[1]}


@hypothesis_settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**16),
    steps=st.lists(STEP, min_size=1, max_size=25),
)
def test_replay_equals_the_cached_state_after_any_sequence(owner, players, seed, steps):
    campaign = make_ae(owner, *NAMES[players])
    rng = random.Random(seed)
    # A game under way, a supply and a few cards of the group's own, so most steps can land.
    prelude = [("ae.start", "standard"), ("ae.supply",), *(("ae.card", n) for n in range(5))]
    for step in prelude:
        campaign.apply(*step_data(campaign, step), owner, rng=rng)
    fresh = play_and_check_replay(
        campaign, owner, steps, lambda campaign, step: (*step_data(campaign, step), rng)
    )
    pool = fresh.state["table"]["deck"]["pool"]
    assert pool == sorted(pool)
