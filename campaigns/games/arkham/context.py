"""What the Arkham pages show: each feature's view of the state, joined under ``ark``."""

from __future__ import annotations

from campaigns.games.arkham import (
    bag_page,
    card,
    catalogue,
    data,
    log,
    names,
    round,
    scenario,
    symbols,
)
from campaigns.games.arkham.common import scenario_effects
from campaigns.games.arkham.investigators import investigator_view
from campaigns.games.arkham.reveals import wants_x
from campaigns.games.arkham.state import ArkhamState
from campaigns.games.base import Later, Viewing


def context(campaign: object, state: ArkhamState, viewing: Viewing) -> dict[str, object]:
    if "bag" not in state:  # not an Arkham state (should not happen): show nothing
        return {}
    people = [investigator_view(state, i) for i in state.get("investigators", [])]
    in_play = [p for p in people if p["status"] == "active"]
    fallen = [p for p in people if p["status"] != "active"]
    caveats = [
        text
        for key, text in data.CAVEATS.items()
        if key in ((state["campaign"], state["difficulty"]), (state["campaign"], None))
    ]
    return {
        "ark": {
            "campaign_label": data.CAMPAIGNS[state["campaign"]]["name"],
            "difficulty_label": data.DIFFICULTIES[state["difficulty"]],
            "band_label": data.BAND_LABELS[data.BANDS[state["difficulty"]]],
            "custom": state["campaign"] == data.CUSTOM,
            "fresh": not state["stats"]["tests"] and not state.get("scenarios"),
            "caveats": caveats,
            **bag_page.bag_view(state),
            **bag_page.stats_view(state),
            "investigators": people,
            "in_play": in_play,
            # The killed and insane fold away; their group opens where one of them was acted on.
            "fallen": fallen,
            "fallen_regions": [
                region for p in fallen for region in (p["region"], f"replace-{p['region']}")
            ],
            "active": next((p for p in people if p["id"] == state.get("active")), None),
            # Only a live refresh (another phone's change) buzzes; the phone that drew, or one
            # that just opened the page, shows the token as already felt.
            # The change this answer follows, so the form used stays open for the next tap.
            "acted": viewing.acted,
            "acted_in": viewing.acted_in,
            "buzz": viewing.live,
            "odds": (
                Later(lambda: bag_page.odds(state, state.get("active"), viewing.query))
                if viewing.page == "bag"
                else None
            ),
            "x_tokens": wants_x(state, state.get("active")),
            "investigator_choices": Later(catalogue.investigator_choices),
            "effect_initial": symbols.effect_initial(state),
            "card": card.card_view(state, set(scenario_effects(state)), state["bag"]),
            **log.log_view(state, len(in_play)),
            **names.with_own_names(state, scenario.scenario_view(state, in_play)),
            "round": round.round_view(state),
        }
    }
