"""Scenarios: starting one, and recording everything it changed afterwards as one event (XP,
trauma, killed or insane, bag changes, log entries), so one undo takes it all back.

In the state, ``scenario`` is the scenario being played (or None) and ``scenarios`` the results
recorded after each, in order. A scenario's end clears bless and curse from the bag and puts
every other sealed token back; frost stays.
"""

from __future__ import annotations

import random
import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import commands, trackers
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.games.arkham import card, catalogue, data, names
from campaigns.games.arkham.bag import change_bag
from campaigns.games.arkham.bless_curse import NON_POOL, leave_at_scenario_end
from campaigns.games.arkham.common import (
    ALL_REGIONS,
    MAX_INVESTIGATORS,
    NAME,
    TokenField,
    investigator,
    need_token,
    scenario_key,
    scenario_ref,
)
from campaigns.games.arkham.reveals import close_test
from campaigns.games.arkham.round import fresh_round
from campaigns.games.arkham.sealing import release_all
from campaigns.games.arkham.state import ArkhamState, BagChange, InvestigatorResult, LogEntry
from campaigns.games.arkham.trauma import after_scenario, keep_active_in_play, refresh_status
from campaigns.games.arkham.xp import earn_after_scenario, gained_after_scenario, refuse_past_limit
from campaigns.games.built_form import BuiltForm
from campaigns.trackers.base import shown

BAG_ROWS = (1, 2, 3)
DYNAMIC = re.compile(r"^(xp|physical|mental|fate|entry|count)-(\d{1,9})$")


def end_scenario_tokens(state: ArkhamState) -> None:
    """At a scenario's end bless and curse leave the bag, and every other sealed token goes
    back into it (the cards that sealed them leave play); frost stays."""
    leave_at_scenario_end(state)
    release_all(state)


# Starting one


def picked_scenario(
    state: ArkhamState, payload: Payload, id_key: str, name_key: str
) -> tuple[str, str]:
    """(id, name) of the scenario a payload means: typed (an event from before the list has
    the name only), else picked from the campaign's list by id. A typed name of one of the
    campaign's scenarios is that scenario."""
    typed = payload.get(name_key)
    if isinstance(typed, str) and typed.strip():
        name = commands.need_str(payload, name_key, NAME).strip()
        return catalogue.scenario_ref(state["campaign"], name), name
    picked = payload.get(id_key) or ""
    if picked:
        if not isinstance(picked, str) or catalogue.step(state["campaign"], picked) is None:
            raise CommandError(_("That scenario is not in this campaign's list."), id_key)
        found = catalogue.step(state["campaign"], picked)
        assert found is not None
        return picked, str(found["name"]["en"])
    raise CommandError(_("Pick a scenario from the list, or type its name."), name_key)


def scenario_name(p: Payload, id_key: str, name_key: str) -> str:
    """A payload's scenario in the reader's language (or the group's name), for the history."""
    called = p.get("called")
    if isinstance(called, str) and called.strip():
        return called.strip()
    typed, ref = p.get(name_key), p.get(id_key)
    if isinstance(typed, str) and typed.strip():
        return typed.strip()
    for steps in catalogue.STEPS.values():
        for step in steps:
            if step["id"] == ref:
                return catalogue.local(step["name"])
    return ""


def apply_start(state: ArkhamState, payload: Payload) -> None:
    ref, name = picked_scenario(state, payload, "scenario", "name")
    close_test(state)
    if state.get("scenario"):
        # Starting another scenario ends the one going on, as recording it would.
        end_scenario_tokens(state)
    state["scenario"] = name
    state["scenario_id"] = ref
    state["round"] = fresh_round()
    if payload.get("card") is False:
        # Started before a start filled in the scenario's card (campaigns/upgrades.py): it
        # replays as it was played, with the symbols the group typed.
        state.pop("card", None)
    else:
        card.start(state, ref, scenario_key(state))


class StartForm(forms.Form):
    scenario = TextField(
        label=gettext_lazy("Scenario"),
        max_length=80,
        required=False,
        help_text=gettext_lazy("Starting a scenario resets the round helper to round 1."),
    )
    name = TextField(
        label=gettext_lazy("Or type its name"),
        max_length=80,
        required=False,
        help_text=gettext_lazy("A side scenario, or one not in the list."),
    )


# Recording it afterwards


def bag_changes(payload: Payload) -> list[object]:
    changes = payload.get("bag", [])
    if not isinstance(changes, list) or len(changes) > 40:
        raise CommandError(_("The bag changes are not a list."), "bag")
    return changes


def resolve_record_scenario(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    people: dict[int, Payload] = {}
    entries, counters = [], []
    for key, value in data_.items():
        kind, _sep, number = key.partition("-")
        if not number.isdigit():
            continue
        ident = int(number)
        if kind in ("xp", "physical", "mental", "fate"):
            row = people.setdefault(ident, {"id": ident, "xp": 0, "physical": 0, "mental": 0})
            row[kind] = value if value is not None else (0 if kind != "fate" else "")
        elif kind == "entry":
            for line in (value if isinstance(value, str) else "").splitlines():
                if line.strip():
                    entries.append({"tracker": ident, "text": line.strip()[:1000]})
        elif kind == "count" and value:
            counters.append({"tracker": ident, "delta": value})
    changes = []
    for n in BAG_ROWS:
        token, count = data_.get(f"bag_token_{n}"), data_.get(f"bag_count_{n}") or 0
        if count and not token:
            # A number with no token would be dropped without a word.
            raise CommandError(_("Choose the token for this row."), f"bag_token_{n}")
        if token and isinstance(count, int) and count:
            sign = -1 if data_.get(f"bag_op_{n}") == "remove" else 1
            # The row goes with the change: a refusal is said next to it (`apply` below).
            changes.append({"token": token, "delta": sign * count, "row": n})
    for found in state.get("investigators", []):
        gained = people[found["id"]].get("xp") if found["id"] in people else None
        refuse_past_limit(found, gained)
    return {
        "scenario": data_.get("scenario") or "",
        "scenario_id": data_.get("scenario_id") or "",
        "resolution": data_.get("resolution", ""),
        "investigators": [people[k] for k in sorted(people)],
        "bag": changes,
        "entries": entries,
        "counters": counters,
        **names.called(state, data_, "scenario_id", "scenario"),
    }


def apply_record_scenario(state: ArkhamState, payload: Payload) -> None:
    """After a scenario, everything at once: one event, so one undo takes it all back."""
    ref, name = picked_scenario(state, payload, "scenario_id", "scenario")
    close_test(state)
    resolution = commands.need_str(payload, "resolution", NAME, blank=True).strip()
    rows = payload.get("investigators", [])
    if not isinstance(rows, list) or len(rows) > MAX_INVESTIGATORS:
        raise CommandError(_("The investigators are not a list."), "investigators")
    seen: set[int] = set()
    results: list[InvestigatorResult] = []
    for row in rows:
        if not isinstance(row, dict):
            raise CommandError(_("The investigators are not a list."), "investigators")
        found = investigator(state, row, "id")
        if found["id"] in seen:
            raise CommandError(_("An investigator is listed twice."), "investigators")
        seen.add(found["id"])
        who = {"name": catalogue.reader_name(found["name"])}
        key = found["id"]
        xp = gained_after_scenario(row, who, key)
        gains = after_scenario(found, row, who, key)
        earn_after_scenario(found, xp)
        refresh_status(found)
        results.append(
            {
                "id": found["id"],
                "name": found["name"],
                "xp": xp,
                "physical": gains["physical"],
                "mental": gains["mental"],
                "status": found["status"],
            }
        )
    keep_active_in_play(state)
    end_scenario_tokens(state)
    changes: list[BagChange] = []
    for change in bag_changes(payload):
        if not isinstance(change, dict):
            raise CommandError(_("The bag changes are not a list."), "bag")
        token = need_token(change, "token", NON_POOL)
        delta = commands.need_int(change, "delta", -20, 20)
        # Changes recorded before they named their row are refused at the top of the form.
        row = change.get("row")
        known = type(row) is int and row in BAG_ROWS  # not True, which equals 1
        change_bag(state, token, delta, f"bag_count_{row}" if known else "bag")
        changes.append({"token": token, "delta": delta})
    notes, counts = payload.get("entries", []), payload.get("counters", [])
    if not isinstance(notes, list) or not isinstance(counts, list):
        raise CommandError(_("The log entries are not a list."), "entries")
    entries: list[LogEntry] = []
    for entry in notes:
        if not isinstance(entry, dict):
            raise CommandError(_("The log entries are not a list."), "entries")
        trackers.apply_note(state, {"tracker": entry.get("tracker"), "text": entry.get("text")})
        section = trackers.tracker(state, entry, "notes")
        entries.append({"section": section["name"], "text": section["entries"][-1]["text"]})
    for entry in counts:
        if not isinstance(entry, dict):
            raise CommandError(_("The log entries are not a list."), "counters")
        trackers.apply_adjust(state, {"tracker": entry.get("tracker"), "delta": entry.get("delta")})
        counter = trackers.tracker(state, entry, "counter")
        entries.append(
            {"section": counter["name"], "text": f"{entry['delta']:+d} → {counter['value']}"}
        )
    scenarios = state.setdefault("scenarios", [])
    if len(scenarios) >= 500:
        raise CommandError(_("Too many scenarios to keep."), "scenario")
    scenarios.append(
        {
            "id": commands.next_id(state),
            "name": name,
            "scenario_id": ref,
            "resolution": resolution,
            "investigators": results,
            "bag": changes,
            "entries": entries,
        }
    )
    state["scenario"] = None
    state["scenario_id"] = None
    state.pop("card", None)
    state["round"] = fresh_round()


def describe_scenario(p: Payload) -> str:
    name = scenario_name(p, "scenario_id", "scenario")
    if p.get("resolution"):
        return _("Recorded the scenario “%(name)s”: %(resolution)s") % {
            "name": name,
            "resolution": p["resolution"],
        }
    return _("Recorded the scenario “%(name)s”") % {"name": name}


class ScenarioForm(BuiltForm):
    """After a scenario: the fixed fields, plus one set per investigator and log section
    (xp-<id>, physical-<id>, mental-<id>, fate-<id>, entry-<id>, count-<id>). The page names
    them in its initial values (`record_initial`), a post by its keys; the fields' limits are
    the ones the page's inputs show."""

    # The longest log entries a section takes at once.
    entry_length = 4000

    scenario_id = TextField(label=gettext_lazy("Scenario"), max_length=80, required=False)
    scenario = TextField(label=gettext_lazy("Or type its name"), max_length=80, required=False)
    resolution = TextField(
        label=gettext_lazy("Resolution"),
        max_length=80,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. Resolution 1")}),
    )

    def add_fields(self) -> None:
        number = forms.NumberInput(attrs={"inputmode": "numeric"})
        for n in BAG_ROWS:
            self.fields[f"bag_op_{n}"] = forms.ChoiceField(
                label=gettext_lazy("Add or remove"),
                choices=[("add", gettext_lazy("Add")), ("remove", gettext_lazy("Remove"))],
                required=False,
            )
            self.fields[f"bag_count_{n}"] = forms.IntegerField(
                label=gettext_lazy("How many"),
                min_value=0,
                max_value=10,
                required=False,
                widget=number,
            )
            token_field = TokenField(NON_POOL, required=False)
            token_field.choices = [("", "—"), *[(t, data.TOKEN_LABELS[t]) for t in NON_POOL]]
            self.fields[f"bag_token_{n}"] = token_field
        xp_range = gettext_lazy("XP gained must be from 0 to 100.")
        trauma_range = {
            "min_value": gettext_lazy("Trauma gained cannot be negative."),
            "max_value": gettext_lazy("Keep trauma to 30 or less."),
        }
        limits = {
            "xp": (
                gettext_lazy("XP earned"),
                0,
                100,
                {"min_value": xp_range, "max_value": xp_range},
            ),
            "physical": (gettext_lazy("Physical trauma"), 0, 30, trauma_range),
            "mental": (gettext_lazy("Mental trauma"), 0, 30, trauma_range),
            "count": (gettext_lazy("change by"), -1000, 1000, {}),
        }
        for key in list(self.data or self.initial or {})[:400]:
            match = DYNAMIC.match(key)
            if not match:
                continue
            kind = match.group(1)
            if kind == "fate":
                self.fields[key] = forms.ChoiceField(
                    label=gettext_lazy("Killed or insane"),
                    choices=[
                        ("", gettext_lazy("neither")),
                        ("killed", gettext_lazy("killed")),
                        ("insane", gettext_lazy("insane")),
                    ],
                    required=False,
                )
            elif kind == "entry":
                self.fields[key] = TextField(
                    label=gettext_lazy("new entries"),
                    max_length=self.entry_length,
                    required=False,
                    widget=forms.Textarea(
                        attrs={"rows": 2, "placeholder": gettext_lazy("One entry per line")}
                    ),
                )
            else:
                label, low, high, messages = limits[kind]
                self.fields[key] = forms.IntegerField(
                    label=label,
                    min_value=low,
                    max_value=high,
                    required=False,
                    widget=number,
                    error_messages=messages,
                )


# What the table page shows


def scenario_view(state: ArkhamState, in_play: list[dict[str, Any]]) -> dict[str, object]:
    campaign = state["campaign"]
    played = [
        s.get("scenario_id") or catalogue.scenario_ref(campaign, s["name"])
        for s in state.get("scenarios", [])
    ]
    current = scenario_ref(state) if state.get("scenario") else None
    # A section the campaign came with reads in the reader's language; one the group added
    # reads as typed (never through the catalogue).
    shipped = {t["name"] for t in state["trackers"] if t.get("shipped")}

    def section_name(name: str) -> str:
        return shown(name, name in shipped)

    # The fields the step after a scenario shows, by name: the form makes one per key.
    record_initial: dict[str, object] = {key: None for p in in_play for key in p["keys"].values()}
    for item in state["trackers"]:
        if item["kind"] in ("notes", "counter"):
            record_initial[f"{'entry' if item['kind'] == 'notes' else 'count'}-{item['id']}"] = None
    if state.get("scenario") and catalogue.step(campaign, current) is None:
        record_initial["scenario"] = state["scenario"]  # typed when it began: already filled
    return {
        "scenario": (scenario := state["scenario"])
        and catalogue.scenario_label(campaign, current, scenario),
        "scenario_id": current,
        "scenario_in_list": catalogue.step(campaign, current) is not None,
        "scenario_choices": catalogue.scenario_choices(campaign, played, current),
        "scenarios": [
            {
                **s,
                "name": catalogue.scenario_label(
                    campaign, s.get("scenario_id") or played[n], s["name"]
                ),
                "entries": [{**e, "section": section_name(e["section"])} for e in s["entries"]],
                # Recorded under the card's English name: read in the reader's language.
                "investigators": [
                    {**i, "name": catalogue.reader_name(i.get("name"))}
                    for i in s.get("investigators", [])
                ],
                "bag": [
                    {
                        "added": b["delta"] > 0,
                        "n": abs(b["delta"]),
                        "label": data.TOKEN_LABELS[b["token"]],
                    }
                    for b in s["bag"]
                ],
            }
            for n, s in enumerate(state.get("scenarios", []))
        ],
        "record_initial": record_initial,
    }


# Both start something, so a second tap from a screen that had not seen the first is refused.
COMMANDS = (
    Command(
        "scenario.start",
        StartForm,
        apply_start,
        lambda p: (
            _("Started the scenario “%(name)s”") % {"name": scenario_name(p, "scenario", "name")}
        ),
        lambda s, d, r: {**d, **names.called(s, d, "scenario", "name")},
        stale_check=True,
        regions=ALL_REGIONS,
        needs_connection=True,
    ),
    Command(
        "scenario.record",
        ScenarioForm,
        apply_record_scenario,
        describe_scenario,
        resolve_record_scenario,
        stale_check=True,
        regions=ALL_REGIONS,
    ),
)
