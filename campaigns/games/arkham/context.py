"""What the Arkham pages show: each feature's view of the state, joined under ``ark``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.commands import State
from campaigns.games.arkham import bag, data, log, odds, round, scenario, symbols
from campaigns.games.arkham.investigators import investigator_view


def which_page(request) -> str:
    if request is None:
        return ""
    match = getattr(request, "resolver_match", None)
    page = match.kwargs.get("page", "") if match else ""
    if request.method == "POST":
        page = request.POST.get("page") or request.POST.get("back") or page
    return page


def acted(request) -> str:
    if request is None or request.method != "POST":
        return ""
    match = getattr(request, "resolver_match", None)
    return match.kwargs.get("action", "") if match else ""


def context(campaign, state: State, request=None) -> dict[str, Any]:
    if "bag" not in state:  # not an Arkham state (should not happen): show nothing
        return {}
    page = which_page(request)
    people = [investigator_view(state, i) for i in state.get("investigators", [])]
    in_play = [p for p in people if p["status"] == "active"]
    caveats = [
        text
        for key, text in data.CAVEATS.items()
        if key in ((state["campaign"], state["difficulty"]), (state["campaign"], None))
    ]
    query = request.GET if request is not None else {}
    return {
        "ark": {
            "campaign_label": data.CAMPAIGNS[state["campaign"]]["name"],
            "difficulty_label": data.DIFFICULTIES[state["difficulty"]],
            "band_label": data.BAND_LABELS[data.BANDS[state["difficulty"]]],
            "custom": state["campaign"] == data.CUSTOM,
            "fresh": not state["stats"]["tests"] and not state.get("scenarios"),
            "caveats": caveats,
            **bag.bag_view(state),
            **odds.stats_view(state),
            "investigators": people,
            "in_play": in_play,
            "active": next((p for p in people if p["id"] == state.get("active")), None),
            # Only a live refresh (another phone's change) buzzes; the phone that drew, or one
            # that just opened the page, shows the token as already felt.
            # The change this answer follows, so the form used stays open for the next tap.
            "acted": acted(request),
            "acted_in": request.POST.get("region", "") if acted(request) else "",
            "buzz": request is not None and request.headers.get("X-Live-Refresh") == "true",
            "odds": odds.odds(state, state.get("active"), query) if page == "bag" else None,
            "effect_rows": symbols.effect_rows(state),
            "effect_modes": symbols.EFFECT_MODES,
            **log.log_view(state, len(in_play)),
            **scenario.scenario_view(state, in_play),
            "round": round.round_view(state),
            "trauma_kinds": [
                ("physical", _("Physical trauma")),
                ("mental", _("Mental trauma")),
            ],
        }
    }
