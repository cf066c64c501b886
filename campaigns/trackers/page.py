"""What a page shows of the trackers."""

from __future__ import annotations

from django.utils import timezone

from campaigns.trackers.base import KINDS, RESULTS, TrackerState, shown
from campaigns.trackers.coin import coin_view
from campaigns.trackers.randomizers import deck_view, dice_view
from campaigns.trackers.results import results_chart
from campaigns.trackers.timer import timer_view
from campaigns.trackers.turns import turns_view


def tracker_items(state: TrackerState) -> list[dict[str, object]]:
    items = []
    for found in state["trackers"]:
        named = {**found, "name": shown(found["name"], True)} if found.get("shipped") else found
        item: dict[str, object] = {"t": named, "region": f"tracker-{found['id']}"}
        if found["kind"] == "counter":
            low, high, value = found.get("minimum"), found.get("maximum"), found["value"]
            item["at_minimum"] = low is not None and value <= low
            item["at_maximum"] = high is not None and value >= high
        if found["kind"] == "list":
            item["taken_out"] = [e for e in found["items"] if e["removed"]]
            item["in_list"] = [e for e in found["items"] if not e["removed"]]
        if found["kind"] == "results":
            item["rows"] = [
                {**row, "result_label": RESULTS.get(row["result"], "")} for row in found["rows"]
            ]
            item["chart"] = results_chart(found["rows"])
        if found["kind"] == "dice":
            item.update(dice_view(found))
        if found["kind"] == "deck":
            item.update(deck_view(found))
        if found["kind"] == "turns":
            item.update(turns_view(found))
        if found["kind"] == "timer":
            item.update(timer_view(found))
        if found["kind"] == "coin":
            item.update(coin_view(found))
        items.append(item)
    return items


# The kinds the table display shows (`campaigns/display-trackers.html`).
ON_DISPLAY = frozenset({"counter", "turns", "timer", "coin"})


def on_display(state: TrackerState) -> bool:
    """Whether the table display has anything to show of these trackers."""
    return any(t["kind"] in ON_DISPLAY for t in state["trackers"])


def page_context(
    campaign: object, state: TrackerState, viewing: object = None
) -> dict[str, object]:
    return {
        "trackers": tracker_items(state),
        "tracker_kinds": list(KINDS.items()),
        "results_choices": list(RESULTS.items()),
        "today": timezone.localdate(),
    }
