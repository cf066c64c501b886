"""Names as the group's cards print them (issue 20). No public source has the Japanese edition's
printed names, so the group names a picked investigator or a scenario of the campaign's list
once, and every phone, the history and the table display read it so; the card's facts stay.

An investigator's own name is their record's ``name`` (``investigator.rename``): a picked card
keeps its English name there until then, and reads in the reader's language (``shown_name``);
so does that English name where it was recorded, in a test drawn and in a change's words for the
undo bar and the history (``catalogue.reader_name``).
A scenario keeps its id (its symbol effects, its place in the campaign, the results recorded);
its own name is in ``scenario_names`` by id (``scenario.rename``; absent before the first).
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_str
from campaigns.fields import TextField
from campaigns.games.arkham import catalogue
from campaigns.games.arkham.common import (
    ALL_REGIONS,
    NAME,
    PEOPLE_REGIONS,
    InvestigatorIdForm,
    investigator,
    scenario_ref,
)
from campaigns.games.arkham.state import ArkhamState, Investigator


def describe_rename(p: Payload) -> str:
    called = str(p.get("called") or "").strip()
    old = catalogue.reader_name(p.get("old"))
    if not called:
        return _("%(old)s is called by the card's name again") % {"old": old}
    return _("%(old)s is now called %(name)s") % {"old": old, "name": called}


CALLED = TextField(
    label=gettext_lazy("Your group's name"),
    max_length=NAME,
    required=False,
    help_text=gettext_lazy(
        "As your cards print it: every phone, the history and the table display show it. "
        "Empty: the card's name again."
    ),
)


# An investigator


def card_of(found: Investigator) -> catalogue.InvestigatorCard | None:
    return catalogue.BY_CODE.get(found.get("code") or "")


def renamed(found: Investigator) -> bool:
    """Whether the group named this investigator itself."""
    card = card_of(found)
    return card is None or found["name"] != card["name"]["en"]


def shown_name(found: Investigator) -> str:
    """The investigator's name on the page: the group's own or typed one, else the card's in the
    reader's language."""
    card = card_of(found)
    return found["name"] if renamed(found) or card is None else catalogue.investigator_label(card)


def resolve_investigator(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    payload["old"] = investigator(state, payload)["name"]
    return payload


def apply_investigator(state: ArkhamState, payload: Payload) -> None:
    """Only the name changes: health, sanity, trauma, XP and the deck stay the card's. The
    tests already drawn and the scenarios recorded name them the new way too, so the table
    display and the results read as the group calls them."""
    found = investigator(state, payload)
    name = need_str(payload, "called", NAME, blank=True).strip()
    if not name:
        card = card_of(found)
        if card is None:
            raise CommandError(_("Type the name your group calls this investigator."), "called")
        name = str(card["name"]["en"])
    for other in state.get("investigators", []):
        card = card_of(other)
        # Another's name as any phone reads it: theirs, or their card's in any language.
        readings = [other["name"], *(card["name"].values() if card and not renamed(other) else ())]
        if other is not found and catalogue.normal(name) in map(catalogue.normal, readings):
            raise CommandError(
                _("Another investigator of this campaign is already called %(name)s.")
                % {"name": shown_name(other)},
                "called",
            )
    found["name"] = name
    for test in state.get("draws", []):
        if test.get("investigator") == found["id"]:
            test["who"] = name
    for result in state.get("scenarios", []):
        for row in result.get("investigators", []):
            if row.get("id") == found["id"]:
                row["name"] = name


class InvestigatorNameForm(InvestigatorIdForm):
    called = CALLED


# A scenario


def own(state: ArkhamState) -> dict[str, str]:
    names = state.get("scenario_names")
    return names if isinstance(names, dict) else {}


def scenario_of(state: ArkhamState, payload: Payload) -> catalogue.Step:
    ref = payload.get("scenario")
    found = catalogue.step(state["campaign"], ref) if isinstance(ref, str) else None
    if found is None or found["kind"] != "scenario":
        raise CommandError(_("That scenario is not in this campaign's list."), "scenario")
    return found


def resolve_scenario(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    ref = payload.get("scenario")
    found = catalogue.step(state["campaign"], ref) if isinstance(ref, str) else None
    payload["old"] = own(state).get(str(ref)) or (found["name"]["en"] if found else "")
    return payload


def apply_scenario(state: ArkhamState, payload: Payload) -> None:
    found = scenario_of(state, payload)
    called = need_str(payload, "called", NAME, blank=True).strip()
    names = state.setdefault("scenario_names", {})
    if not called or called == found["name"]["en"]:
        names.pop(found["id"], None)
    else:
        names[found["id"]] = called


class ScenarioNameForm(forms.Form):
    scenario = TextField(max_length=NAME, widget=forms.HiddenInput)
    called = CALLED


def called(state: ArkhamState, data_: Payload, id_key: str, name_key: str) -> Payload:
    """The group's name of the scenario a start or a record picks from the list, stored in the
    payload for the history's words (a typed name is the group's already)."""
    typed, ref = data_.get(name_key), data_.get(id_key)
    if (isinstance(typed, str) and typed.strip()) or not isinstance(ref, str):
        return {}
    return {"called": own(state)[ref]} if ref in own(state) else {}


def with_own_names(state: ArkhamState, view: dict[str, Any]) -> dict[str, Any]:
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
        "investigator.rename",
        InvestigatorNameForm,
        apply_investigator,
        describe_rename,
        resolve_investigator,
        regions=(*PEOPLE_REGIONS, "bag-drawn", "bag-draws", "scenario-results"),
    ),
    Command(
        "scenario.rename",
        ScenarioNameForm,
        apply_scenario,
        describe_rename,
        resolve_scenario,
        regions=ALL_REGIONS,
    ),
)
