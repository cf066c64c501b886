"""The results table: one row per game played (date, result, score, notes), and its chart."""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    jsonable,
    need_choice,
    need_date,
    need_opt_int,
    need_str,
    next_id,
)
from campaigns.fields import TextField, played_date_field
from campaigns.trackers.base import (
    MAX_ITEMS,
    RESULTS,
    ItemForm,
    TrackerForm,
    TrackerState,
    entry,
    number_field,
    said,
    shown,
    tracker,
    with_name,
)
from campaigns.trackers.types import ResultRow


class ResultForm(TrackerForm):
    date = played_date_field()
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=list(RESULTS.items()))
    score = number_field(gettext_lazy("Score"), required=False)
    notes = TextField(label=gettext_lazy("Notes"), max_length=200, required=False)


def apply_result(state: TrackerState, payload: Payload) -> None:
    found = tracker(state, payload, "results")
    if len(found["rows"]) >= MAX_ITEMS * 4:
        raise CommandError(_("Too many items."), "date")
    date = need_date(payload, "date")
    score = need_opt_int(payload, "score")
    found["rows"].append(
        {
            "id": next_id(state),
            "date": date,
            "result": need_choice(payload, "result", RESULTS),
            "score": score,
            "notes": need_str(payload, "notes", 200, blank=True).strip(),
        }
    )


def apply_remove_result(state: TrackerState, payload: Payload) -> None:
    found = tracker(state, payload, "results")
    row = entry(found["rows"], payload)
    found["rows"].remove(row)


def resolve_result(state: TrackerState, data: Payload, rng: random.Random) -> Payload:
    return with_name("results")(state, jsonable(data), rng)


def describe_result(p: Payload) -> str:
    return _("%(name)s: added a row for %(date)s (%(result)s)") % {
        "name": shown(p.get("name"), p.get("shipped")),
        "date": p.get("date"),
        "result": RESULTS.get(str(p.get("result")), p.get("result")),
    }


def results_chart(rows: list[ResultRow]) -> dict[str, object] | None:
    """Bars of the score per game (or equal bars where no score was kept), coloured by result."""
    if not rows:
        return None
    width, height, pad = 320, 120, 16
    scores = [row["score"] if isinstance(row.get("score"), int) else None for row in rows]
    known = [s for s in scores if s is not None]
    top = max([0, *known]) or 1
    bottom = min([0, *known])
    # One score far above the others would flatten them all: the axis stops a little above the
    # next highest, and that bar is cut at the top with its value written on it.
    highest = sorted((s for s in known if s > 0), reverse=True)
    if len(highest) >= 3 and highest[0] > 4 * highest[1]:
        top = highest[1] + highest[1] // 4 + 1
    span = top - bottom
    zero = pad + (height - 2 * pad) * top / span
    step = (width - 24) / len(rows)
    bars = []
    for index, (row, score) in enumerate(zip(rows, scores, strict=True)):
        value = score if score is not None else top
        cut = value > top
        value = min(value, top)
        size = (height - 2 * pad) * abs(value) / span
        bars.append(
            {
                "x": round(24 + index * step + step * 0.15, 2),
                "w": round(max(step * 0.7, 1), 2),
                "y": round(zero - size if value >= 0 else zero, 2),
                "h": round(max(size, 1), 2),
                "result": row.get("result", "other"),
                "cut": score if cut else None,
                "label": " ".join(
                    str(part)
                    for part in (
                        row.get("date", ""),
                        RESULTS.get(str(row.get("result")), ""),
                        score,
                    )
                    if part not in (None, "")
                ),
            }
        )
    return {
        "width": width,
        "height": height,
        "zero": round(zero, 2),
        "bars": bars,
        "top": top if known else "",
        "bottom": bottom if known else "",
        "wins": sum(1 for row in rows if row.get("result") == "win"),
        "losses": sum(1 for row in rows if row.get("result") == "loss"),
    }


COMMANDS = (
    Command(
        "results.add",
        ResultForm,
        apply_result,
        describe_result,
        resolve=resolve_result,
    ),
    said(
        "results.remove",
        ItemForm,
        apply_remove_result,
        gettext_noop("%(name)s: removed the row of %(label)s"),
    ),
)
