"""Every state the commands make has the shape its TypedDicts describe, so the types say what
is really stored (and the checker itself refuses what does not fit)."""

import random

from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns.commands import CommandError
from campaigns.engines import turn_order
from campaigns.trackers.types import AnyGameState
from tests import factories
from tests.factories import STEP, problems, step_data


def test_the_checker_refuses_what_does_not_fit():
    assert problems({"trackers": []}, AnyGameState)  # no name, no archived, no next_id
    good = {"name": "N", "archived": False, "next_id": 2, "trackers": []}
    assert problems(good, AnyGameState) == []
    counter = {"id": 1, "kind": "counter", "name": "Doom", "minimum": None, "maximum": 3}
    assert problems({**good, "trackers": [{**counter, "value": True, "start": 0}]}, AnyGameState)
    assert problems({**good, "trackers": [{**counter, "value": 1, "start": 0}]}, AnyGameState) == []
    assert problems(
        {**good, "trackers": [{**counter, "kind": "dial", "value": 1, "start": 0}]}, AnyGameState
    )
    assert problems({**good, "extra": 1}, AnyGameState)


@hypothesis_settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=16))
def test_every_any_game_state_is_an_any_game_state(owner, steps):
    campaign = factories.campaign(owner=owner)
    assert problems(campaign.state, AnyGameState) == []
    for step in steps:
        try:
            if step[0] in ("undo", "redo"):
                getattr(campaign, step[0])(owner)
            else:
                campaign.apply(*step_data(campaign, step), owner)
        except CommandError:
            pass
        campaign.refresh_from_db()
        assert problems(campaign.state, AnyGameState) == []


@given(
    players=st.integers(1, 4),
    moves=st.lists(st.sampled_from(["draw", "choose", "reveal", "top"]), max_size=30),
    seed=st.integers(0, 2**32),
)
def test_every_turn_order_state_is_a_turn_order_state(players, moves, seed):
    rng = random.Random(seed)
    state = turn_order.new_deck(["Abby", "Bob", "Claire", "Dan"][:players])
    assert problems(state, turn_order.State) == []
    for move in moves:
        try:
            if move == "draw":
                state, _card = turn_order.draw(state, rng)
            elif move == "choose" and state["pending"]:
                state = turn_order.choose(state, state["pending"]["options"][0])
            elif move == "reveal":
                state, _card = turn_order.reveal_top(state, rng)
            elif move == "top" and state["discard"]:
                state = turn_order.put_on_top(state, state["discard"][-1])
        except turn_order.TurnOrderError:
            pass
        assert problems(state, turn_order.State) == []
