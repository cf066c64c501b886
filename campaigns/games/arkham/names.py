"""The group's own name for a scenario of the campaign's list (issue 20): no public source has the
Japanese edition's printed names, so a group names a scenario once as its cards print it, and
every page reads it so. The scenario stays the list's (its id keeps its symbol effects, its place
in the campaign and the results recorded); only the name shown changes. The investigators'
own names are their records' (``investigators.rename``).

In the state, ``scenario_names`` holds the names by scenario id (absent before the first).
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, State, need_str
from campaigns.games.arkham import catalogue
from campaigns.games.arkham.common import ALL_REGIONS, NAME, scenario_ref


def own(state: State) -> dict[str, str]:
    names = state.get("scenario_names")
    return names if isinstance(names, dict) else {}


def scenario_of(state: State, payload: Payload) -> dict[str, Any]:
    ref = payload.get("scenario")
    found = catalogue.step(state["campaign"], ref) if isinstance(ref, str) else None
    if found is None or found["kind"] != "scenario":
        raise CommandError(_("That scenario is not in this campaign's list."), "scenario")
    return found


def resolve_rename(state: State, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    ref = payload.get("scenario")
    found = catalogue.step(state["campaign"], ref) if isinstance(ref, str) else None
    payload["old"] = own(state).get(str(ref)) or (found["name"]["en"] if found else "")
    return payload


def apply_rename(state: State, payload: Payload) -> None:
    found = scenario_of(state, payload)
    called = need_str(payload, "called", NAME, blank=True).strip()
    names = state.setdefault("scenario_names", {})
    if not called or called == found["name"]["en"]:
        names.pop(found["id"], None)
    else:
        names[found["id"]] = called


def describe_rename(p: Payload) -> str:
    called = str(p.get("called") or "").strip()
    if not called:
        return _("%(old)s is called by the card's name again") % {"old": p.get("old", "")}
    return _("%(old)s is now called %(name)s") % {"old": p.get("old", ""), "name": called}


class RenameScenarioForm(forms.Form):
    scenario = forms.CharField(max_length=NAME, widget=forms.HiddenInput)
    called = forms.CharField(
        label=gettext_lazy("Your group's name"),
        max_length=NAME,
        required=False,
        help_text=gettext_lazy(
            "As your cards print it: every phone, the history and the table display show it. "
            "Empty: the card's name again."
        ),
    )


def with_own_names(state: State, view: dict[str, Any]) -> dict[str, Any]:
    """The scenarios a page shows (``scenario.scenario_view``) by the group's names."""
    names = own(state)
    if not names:
        return view
    view = dict(view)
    current = scenario_ref(state) if state.get("scenario") else None
    if current in names:
        view["scenario"] = names[current]
    view["scenarios"] = [
        {**s, "name": names.get(str(s.get("scenario_id")), s["name"])} for s in view["scenarios"]
    ]
    view["scenario_choices"] = [
        {**c, "label": names.get(c["id"], c["label"])} for c in view["scenario_choices"]
    ]
    return view


COMMANDS = (
    Command(
        "scenario.rename",
        RenameScenarioForm,
        apply_rename,
        describe_rename,
        resolve_rename,
        regions=ALL_REGIONS,
    ),
)
