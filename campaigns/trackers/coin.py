"""A coin: flipped on the server when the command runs, the side stored in its event."""

from __future__ import annotations

import random
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Payload, need_choice, next_id, random_command
from campaigns.trackers.base import TrackerForm, TrackerState, shown, tracker, with_name
from campaigns.trackers.types import Coin

SIDES = {"heads": gettext_lazy("Heads"), "tails": gettext_lazy("Tails")}
MAX_FLIPS = 10  # the flips a coin keeps


def new_coin(ident: int, name: str) -> Coin:
    return {"id": ident, "kind": "coin", "name": name, "flips": []}


def resolve_flip(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    payload = with_name("coin")(state, data, rng)
    payload["side"] = rng.choice(list(SIDES))
    return payload


def apply_flip(state: TrackerState, payload: Payload) -> None:
    found = tracker(state, payload, "coin")
    side: Literal["heads", "tails"] = (
        "heads" if need_choice(payload, "side", SIDES) == "heads" else "tails"
    )
    found["flips"] = [*found["flips"][-(MAX_FLIPS - 1) :], {"id": next_id(state), "side": side}]


def coin_view(found: Coin) -> dict[str, object]:
    flips = found["flips"]
    return {
        "last_side": SIDES[flips[-1]["side"]] if flips else None,
        "heads": sum(f["side"] == "heads" for f in flips),
        "tails": sum(f["side"] == "tails" for f in flips),
    }


COMMANDS = (
    random_command(
        "coin.flip",
        TrackerForm,
        apply_flip,
        lambda p: (
            _("%(name)s: %(side)s")
            % {"name": shown(p.get("name")), "side": SIDES.get(str(p.get("side")), "?")}
        ),
        resolve_flip,
    ),
)
