"""The investigators: joining the campaign (or replacing one killed or insane), trauma, XP earned
(``xp`` spends it), killed or insane by the group's word, story assets and weaknesses.

In the state, ``investigators`` holds one dict per investigator, the killed and insane ones kept
on the record; ``status`` follows from the trauma against health and sanity, or from ``marked``.
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    State,
    need_choice,
    need_int,
    need_str,
    next_id,
)
from campaigns.games.arkham import catalogue, data
from campaigns.games.arkham.common import (
    MAX_INVESTIGATORS,
    MAX_ITEMS,
    NAME,
    PEOPLE_REGIONS,
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    signed,
    with_investigator,
)
from campaigns.games.arkham.names import shown_name
from campaigns.games.arkham.state import Investigator

TRAUMA_KINDS = ("physical", "mental")
STATUSES = ("active", "killed", "insane")
ITEM_KINDS = ("asset", "weakness")


def refresh_status(found: Investigator) -> None:
    """Killed or insane by trauma, or as the group marked them (the group's word wins). Killed
    or insane is for the rest of the campaign: whatever their trauma does later, they stay as
    they left (Rules Reference "Killed and Insane Investigators"); only undoing the change that
    marked them brings them back."""
    if found["status"] != "active":
        return
    if found["marked"]:
        found["status"] = found["marked"]
    elif found["physical"] >= found["health"]:
        found["status"] = "killed"
    elif found["mental"] >= found["sanity"]:
        found["status"] = "insane"
    else:
        found["status"] = "active"


def keep_active_in_play(state: State) -> None:
    """The investigator the bag tests for must be in play: one killed or insane is not."""
    active = state.get("active")
    found = next((i for i in state.get("investigators", []) if i["id"] == active), None)
    if found is not None and found["status"] != "active":
        state["active"] = None


# Joining, and replacing one who left


def resolve_add(state: State, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    if payload.get("code") and payload["code"] in catalogue.BY_CODE:
        payload["name"] = catalogue.BY_CODE[payload["code"]]["name"]["en"]
    if payload.get("replaces") is not None:
        payload["old"] = investigator(state, payload, "replaces")["name"]
    return payload


def apply_add_investigator(state: State, payload: Payload) -> None:
    people = state.setdefault("investigators", [])
    if len(people) >= MAX_INVESTIGATORS:
        raise CommandError(_("That is more investigators than a campaign keeps."), "name")
    replaces = payload.get("replaces")
    old = None
    if replaces is not None:
        old = investigator(state, payload, "replaces")
        if old["status"] == "active":
            raise CommandError(
                _("%(name)s is neither killed nor insane, so needs no replacement.")
                % {"name": old["name"]},
                "replaces",
            )
        if old.get("replaced_by"):
            raise CommandError(
                _("%(name)s has already been replaced.") % {"name": old["name"]}, "replaces"
            )
    name, health, sanity, code = picked_investigator(payload)
    check_new_investigator(state, name, code, old)
    found: Investigator = {
        "id": next_id(state),
        "player": need_str(payload, "player", NAME, blank=True).strip(),
        "name": name,
        "health": health,
        "sanity": sanity,
        "physical": 0,
        "mental": 0,
        "xp": 0,
        "spent": 0,
        "marked": None,
        "status": "active",
        "elder": {"modifier": 0, "auto_succeed": False},
        "items": [],
        "purchases": [],
        "supplies": {},
        "replaces": old["id"] if old else None,
        "replaced_by": None,
    }
    if code:
        found["code"] = code
    if old:
        old["replaced_by"] = found["id"]
        if state.get("active") == old["id"]:
            state["active"] = found["id"]
    people.append(found)
    if state.get("active") is None:
        state["active"] = found["id"]


def picked_investigator(payload: Payload) -> tuple[str, int, int, str | None]:
    """(name, health, sanity, code): picked from the data by code, health and sanity filled
    from the card unless given, or typed (an event from before the list has no code)."""
    code = payload.get("code") or None
    if code is None:
        return (
            need_str(payload, "name", NAME).strip(),
            need_int(payload, "health", 1, 30),
            need_int(payload, "sanity", 1, 30),
            None,
        )
    card = catalogue.BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise CommandError(_("That investigator is not in the list."), "code")
    health = need_int(payload, "health", 1, 30) if payload.get("health") is not None else None
    sanity = need_int(payload, "sanity", 1, 30) if payload.get("sanity") is not None else None
    return (
        str(card["name"]["en"]),
        health or int(card["health"]),
        sanity or int(card["sanity"]),
        code,
    )


def check_new_investigator(
    state: State, name: str, code: str | None, replacing: Investigator | None
) -> None:
    """Each player chooses a different investigator (rules.md line 52); one killed or driven
    insane stays out of the campaign, and so cannot replace themselves either."""
    who = catalogue.identity(name, code)
    for other in state.get("investigators", []):
        if catalogue.identity(other["name"], other.get("code")) != who:
            continue
        if other["status"] != "active" or other is replacing:
            message = (
                _("%(name)s was killed in this campaign and cannot join it again.")
                if other["status"] == "killed"
                else _("%(name)s was driven insane in this campaign and cannot join it again.")
            )
            raise CommandError(message % {"name": other["name"]}, "code" if code else "name")
        raise CommandError(
            _("%(name)s is already in this campaign: each player has a different investigator.")
            % {"name": other["name"]},
            "code" if code else "name",
        )


def describe_add(p: Payload) -> str:
    if p.get("replaces") is not None:
        return _("%(name)s replaces %(old)s") % {"name": p.get("name"), "old": p.get("old", "")}
    return _("%(name)s joins the campaign") % {"name": p.get("name")}


# Trauma


def trauma_of(found: Investigator, kind: str) -> int:
    return found["physical"] if kind == "physical" else found["mental"]


def set_trauma(found: Investigator, kind: str, value: int) -> None:
    if value < 0:
        message = (
            _("%(name)s's physical trauma cannot go below 0.")
            if kind == "physical"
            else _("%(name)s's mental trauma cannot go below 0.")
        )
        raise CommandError(message % {"name": found["name"]}, kind)
    if value > 30:
        raise CommandError(_("Keep trauma to 30 or less."), kind)
    if kind == "physical":
        found["physical"] = value
    else:
        found["mental"] = value
    refresh_status(found)


def apply_trauma(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    kind = need_choice(payload, "kind", TRAUMA_KINDS)
    value = trauma_of(found, kind) + need_int(payload, "delta", -30, 30)
    set_trauma(found, kind, value)
    keep_active_in_play(state)


def describe_trauma(p: Payload) -> str:
    template = (
        _("%(name)s: physical trauma %(delta)s")
        if p.get("kind") == "physical"
        else _("%(name)s: mental trauma %(delta)s")
    )
    return template % {"name": p.get("name", ""), "delta": signed(p.get("delta", 0))}


# Killed or insane


def resolve_mark(state: State, data_: Payload, rng: random.Random) -> Payload:
    """Killed or insane is for the rest of the campaign: a new mark on one who left is refused
    here, when the tap is made. (A history recorded before this rule, where the group brought
    someone back, still replays as it was played.) Its refusals name no field: the status is
    the button tapped, so the message shows at the top of the investigator's card."""
    found = investigator(state, data_)
    if found["status"] != "active":
        message = (
            _(
                "%(name)s was killed and cannot come back in this campaign: undo the change that "
                "marked them instead."
            )
            if found["status"] == "killed"
            else _(
                "%(name)s was driven insane and cannot come back in this campaign: undo the "
                "change that marked them instead."
            )
        )
        raise CommandError(message % {"name": found["name"]})
    return with_investigator(state, data_, rng)


def apply_mark(state: State, payload: Payload) -> None:
    """The group's word."""
    found = investigator(state, payload)
    status = need_choice(payload, "status", STATUSES)
    if status == "active" and found["status"] != "active":
        found["status"] = "active"  # (only in a history recorded before resolve_mark's rule)
    found["marked"] = None if status == "active" else status
    refresh_status(found)
    keep_active_in_play(state)


def describe_mark(p: Payload) -> str:
    status = p.get("status")
    if status == "killed":
        return _("%(name)s marked killed") % {"name": p.get("name", "")}
    if status == "insane":
        return _("%(name)s marked insane") % {"name": p.get("name", "")}
    return _("%(name)s back in play") % {"name": p.get("name", "")}


# Story assets and weaknesses


def apply_item(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    if len(found["items"]) >= MAX_ITEMS:
        raise CommandError(_("Too many cards to keep."), "text")
    found["items"].append(
        {
            "id": next_id(state),
            "kind": need_choice(payload, "kind", ITEM_KINDS),
            "text": need_str(payload, "text", NAME).strip(),
        }
    )


def describe_item(p: Payload) -> str:
    template = (
        _("%(name)s earned the weakness “%(text)s”")
        if p.get("kind") == "weakness"
        else _("%(name)s earned the story asset “%(text)s”")
    )
    return template % {"name": p.get("name", ""), "text": p.get("text", "")}


def apply_remove_item(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    item = need_int(payload, "item")
    before = len(found["items"])
    found["items"] = [i for i in found["items"] if i["id"] != item]
    if len(found["items"]) == before:
        raise CommandError(_("That card is not on the record any more."), "item")


# What the phones post


NUMBER = forms.NumberInput(attrs={"inputmode": "numeric"})


class InvestigatorForm(forms.Form):
    player = forms.CharField(label=gettext_lazy("Player"), max_length=80, required=False)
    code = forms.CharField(
        label=gettext_lazy("Investigator"),
        max_length=10,
        required=False,
        help_text=gettext_lazy("Health and sanity are filled in from the card you pick."),
    )
    name = forms.CharField(label=gettext_lazy("Or type a name"), max_length=80, required=False)
    health = forms.IntegerField(
        label=gettext_lazy("Health"), min_value=1, max_value=30, widget=NUMBER, required=False
    )
    sanity = forms.IntegerField(
        label=gettext_lazy("Sanity"), min_value=1, max_value=30, widget=NUMBER, required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("name"):
            cleaned["code"] = ""  # a typed name wins over the list's choice
            for key in ("health", "sanity"):
                if cleaned.get(key) is None and key not in self.errors:
                    self.add_error(key, _("Give the health and sanity of a typed investigator."))
        elif not cleaned.get("code") and "code" not in self.errors:
            self.add_error("code", _("Pick an investigator, or type a name."))
        return cleaned

    replaces = forms.IntegerField(
        min_value=1, max_value=10**9, required=False, widget=forms.HiddenInput
    )


class TraumaForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        choices=[
            ("physical", gettext_lazy("Physical trauma")),
            ("mental", gettext_lazy("Mental trauma")),
        ],
        widget=forms.HiddenInput,
    )
    delta = forms.IntegerField(
        label=gettext_lazy("Change"), min_value=-30, max_value=30, widget=forms.HiddenInput
    )


class MarkForm(InvestigatorIdForm):
    status = forms.ChoiceField(
        choices=[
            ("active", gettext_lazy("in play")),
            ("killed", gettext_lazy("killed")),
            ("insane", gettext_lazy("insane")),
        ]
    )


class ItemForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[("asset", gettext_lazy("Story asset")), ("weakness", gettext_lazy("Weakness"))],
    )
    text = forms.CharField(label=gettext_lazy("Card"), max_length=80)


class UnitemForm(InvestigatorIdForm):
    item = forms.IntegerField(min_value=1, max_value=10**9, widget=forms.HiddenInput)


# What the table page shows of each


def investigator_view(state: State, found: Investigator) -> dict[str, Any]:
    names = {i["id"]: i["name"] for i in state.get("investigators", [])}
    supplies = [
        {"key": key, "label": data.SUPPLIES[key][0], "count": n}
        for key, n in found["supplies"].items()
        if key in data.SUPPLIES
    ]
    return {
        **found,
        "unspent": found["xp"] - found["spent"],
        "status_label": {
            "active": _("in play"),
            "killed": _("killed"),
            "insane": _("insane"),
        }[found["status"]],
        "replaced_by_name": names.get(found.get("replaced_by"), ""),
        "replaces_name": names.get(found.get("replaces"), ""),
        "assets": [i for i in found["items"] if i["kind"] == "asset"],
        "weaknesses": [i for i in found["items"] if i["kind"] == "weakness"],
        "supply_list": supplies,
        "supply_spent": sum(data.SUPPLIES[s["key"]][1] * s["count"] for s in supplies),
        "elder_text": _("automatic success")
        if found["elder"]["auto_succeed"]
        else signed(found["elder"]["modifier"]),
        "region": f"inv-{found['id']}",
        "keys": {k: f"{k}-{found['id']}" for k in ("xp", "physical", "mental", "fate")},
        "last_purchases": found["purchases"][-3:][::-1],
        "label": shown_name(found),
    }


# The commands that change who plays redraw the regions naming them.
PEOPLE: dict[str, Any] = dict(regions=PEOPLE_REGIONS)

COMMANDS = (
    Command(
        "investigator.add",
        InvestigatorForm,
        apply_add_investigator,
        describe_add,
        resolve_add,
        **PEOPLE,
    ),
    Command("investigator.trauma", TraumaForm, apply_trauma, describe_trauma, with_investigator),
    Command("investigator.mark", MarkForm, apply_mark, describe_mark, resolve_mark, **PEOPLE),
    Command("investigator.item", ItemForm, apply_item, describe_item, with_investigator),
    Command(
        "investigator.unitem",
        UnitemForm,
        apply_remove_item,
        describe_investigator(gettext_noop("%(name)s: took a card off the record")),
        with_investigator,
    ),
)
