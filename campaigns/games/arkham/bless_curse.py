"""Bless and curse (``shared/spec/rules.md`` §1b): tokens taken from a pool into the bag, at
most 10 of each, sealed ones included (``data.TOKEN_LIMITS``; ``data.POOL_TOKENS`` names the
two). Revealed, bless is +2 and curse −2 and each reveals another (the engine's
``campaigns.engines.chaos``); at the end of the test every one revealed goes back to the pool,
not into the bag, and at a scenario's end the rest leave the bag too. Putting them in or taking
them out is ``bag.change`` and ``bag.set`` (``bag``), like any token; sealing one is
``sealing``.
"""

from __future__ import annotations

from campaigns.commands import Payload
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.bag import out_of_bag, revealed_counts
from campaigns.games.arkham.state import ArkhamState, Test

# The tokens the scenario's record may put in or take out: every one but bless and curse (a
# scenario's end clears those).
NON_POOL = [t for t in chaos.TOKENS if t not in data.POOL_TOKENS]


def resting_bag(state: ArkhamState) -> dict[str, int]:
    """The bag as the next test will find it (bless and curse revealed now go to the pool)."""
    out = revealed_counts(state)
    bag = dict(state["bag"])
    for token in data.POOL_TOKENS:
        bag[token] = bag.get(token, 0) - out.get(token, 0)
    return {t: n for t, n in bag.items() if n > 0}


def return_to_pool(state: ArkhamState, test: Test) -> None:
    """At the end of a test, bless and curse revealed go back to the pool, the ones drawn and
    not chosen included (they were revealed too)."""
    for token in out_of_bag(test):
        if token in data.POOL_TOKENS:
            state["bag"][token] -= 1
            if not state["bag"][token]:
                del state["bag"][token]


def leave_at_scenario_end(state: ArkhamState) -> None:
    """At a scenario's end bless and curse leave the bag, sealed ones included."""
    for token in data.POOL_TOKENS:
        state["bag"].pop(token, None)
        state["sealed"].pop(token, None)


def pool_after(payload: Payload | None, state: ArkhamState | None) -> tuple[str, ...]:
    """What bless and curse change (see ``return_to_pool``): the odds read the bag as the next
    test finds it, which a test changes only by taking bless or curse out; the pool's counts and
    its −, when this test or the one it ended took one out (the others go back in the bag)."""
    if payload is None or state is None:
        return ("bag-pool", "bag-odds")
    tests = state.get("draws", [])
    now = set(out_of_bag(tests[-1])) if tests else set()
    ended = set(out_of_bag(tests[-2])) if len(tests) > 1 else set()
    if now & set(data.POOL_TOKENS):
        return ("bag-pool", "bag-odds")
    return ("bag-pool",) if ended & set(data.POOL_TOKENS) else ()
