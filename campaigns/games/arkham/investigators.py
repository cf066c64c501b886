"""The investigators: joining the campaign (or replacing one killed or insane), story assets and
weaknesses, what the table page shows of each. Trauma and killed or insane are ``trauma``'s, XP
``xp``'s.

In the state, ``investigators`` holds one dict per investigator, the killed and insane ones kept
on the record.
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.games.arkham import catalogue, data, trauma
from campaigns.games.arkham.common import (
    MAX_INVESTIGATORS,
    MAX_ITEMS,
    NAME,
    PEOPLE,
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    signed,
    with_investigator,
)
from campaigns.games.arkham.names import shown_name
from campaigns.games.arkham.state import ArkhamState, Investigator

ITEM_KINDS = ("asset", "weakness")


# Joining, and replacing one who left


def resolve_add(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    if payload.get("code") and payload["code"] in catalogue.BY_CODE:
        payload["name"] = catalogue.BY_CODE[payload["code"]]["name"]["en"]
    if payload.get("replaces") is not None:
        payload["old"] = investigator(state, payload, "replaces")["name"]
    return payload


def apply_add_investigator(state: ArkhamState, payload: Payload) -> None:
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
                % {"name": catalogue.reader_name(old["name"])},
                "replaces",
            )
        if old.get("replaced_by"):
            raise CommandError(
                _("%(name)s has already been replaced.")
                % {"name": catalogue.reader_name(old["name"])},
                "replaces",
            )
    name, health, sanity, code = picked_investigator(payload)
    check_new_investigator(state, name, code, old)
    found: Investigator = {
        "id": commands.next_id(state),
        "player": commands.need_str(payload, "player", NAME, blank=True).strip(),
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
            commands.need_str(payload, "name", NAME).strip(),
            commands.need_int(payload, "health", 1, 30),
            commands.need_int(payload, "sanity", 1, 30),
            None,
        )
    if not isinstance(code, str) or (card := catalogue.BY_CODE.get(code)) is None:
        raise CommandError(_("That investigator is not in the list."), "code")
    health = (
        commands.need_int(payload, "health", 1, 30) if payload.get("health") is not None else None
    )
    sanity = (
        commands.need_int(payload, "sanity", 1, 30) if payload.get("sanity") is not None else None
    )
    return (
        str(card["name"]["en"]),
        health or int(card["health"]),
        sanity or int(card["sanity"]),
        code,
    )


def check_new_investigator(
    state: ArkhamState, name: str, code: str | None, replacing: Investigator | None
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
            raise CommandError(
                message % {"name": catalogue.reader_name(other["name"])}, "code" if code else "name"
            )
        raise CommandError(
            _("%(name)s is already in this campaign: each player has a different investigator.")
            % {"name": catalogue.reader_name(other["name"])},
            "code" if code else "name",
        )


def describe_add(p: Payload) -> str:
    if p.get("replaces") is not None:
        return _("%(name)s replaces %(old)s") % {
            "name": catalogue.reader_name(p.get("name")),
            "old": catalogue.reader_name(p.get("old")),
        }
    return _("%(name)s joins the campaign") % {"name": catalogue.reader_name(p.get("name"))}


# Story assets and weaknesses


def apply_item(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    if len(found["items"]) >= MAX_ITEMS:
        raise CommandError(_("Too many cards to keep."), "text")
    found["items"].append(
        {
            "id": commands.next_id(state),
            "kind": commands.need_choice(payload, "kind", ITEM_KINDS),
            "text": commands.need_str(payload, "text", NAME).strip(),
        }
    )


def describe_item(p: Payload) -> str:
    template = (
        _("%(name)s earned the weakness “%(text)s”")
        if p.get("kind") == "weakness"
        else _("%(name)s earned the story asset “%(text)s”")
    )
    return template % {"name": catalogue.reader_name(p.get("name")), "text": p.get("text", "")}


def apply_remove_item(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    item = commands.need_int(payload, "item")
    before = len(found["items"])
    found["items"] = [i for i in found["items"] if i["id"] != item]
    if len(found["items"]) == before:
        raise CommandError(_("That card is not on the record any more."), "item")


# What the phones post


NUMBER = forms.NumberInput(attrs={"inputmode": "numeric"})


class InvestigatorForm(forms.Form):
    player = TextField(label=gettext_lazy("Player"), max_length=80, required=False)
    code = TextField(
        label=gettext_lazy("Investigator"),
        max_length=10,
        required=False,
        help_text=gettext_lazy("Health and sanity are filled in from the card you pick."),
    )
    name = TextField(label=gettext_lazy("Or type a name"), max_length=80, required=False)
    health = forms.IntegerField(
        label=gettext_lazy("Health"), min_value=1, max_value=30, widget=NUMBER, required=False
    )
    sanity = forms.IntegerField(
        label=gettext_lazy("Sanity"), min_value=1, max_value=30, widget=NUMBER, required=False
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if cleaned.get("name"):
            cleaned["code"] = ""  # a typed name wins over the list's choice
            for key in ("health", "sanity"):
                if cleaned.get(key) is None and key not in self.errors:
                    self.add_error(key, _("Give the health and sanity of a typed investigator."))
        elif not cleaned.get("code") and not {"code", "name"} & set(self.errors):
            # (A typed name refused for itself, its length say, was no missing pick.)
            self.add_error("code", _("Pick an investigator, or type a name."))
        return cleaned

    replaces = forms.IntegerField(
        min_value=1, max_value=10**9, required=False, widget=forms.HiddenInput
    )


class ItemForm(InvestigatorIdForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[("asset", gettext_lazy("Story asset")), ("weakness", gettext_lazy("Weakness"))],
    )
    text = TextField(label=gettext_lazy("Card"), max_length=80)


class UnitemForm(InvestigatorIdForm):
    item = forms.IntegerField(min_value=1, max_value=10**9, widget=forms.HiddenInput)


# What the table page shows of each


def investigator_view(state: ArkhamState, found: Investigator) -> dict[str, object]:
    names: dict[int | None, str] = {i["id"]: i["name"] for i in state["investigators"]}
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
        "supply_spent": sum(
            data.SUPPLIES[key][1] * n
            for key, n in found["supplies"].items()
            if key in data.SUPPLIES
        ),
        "elder_text": _("automatic success")
        if found["elder"]["auto_succeed"]
        else signed(found["elder"]["modifier"]),
        "region": f"inv-{found['id']}",
        "keys": {k: f"{k}-{found['id']}" for k in ("xp", "physical", "mental", "fate")},
        "last_purchases": found["purchases"][-3:][::-1],
        "label": shown_name(found),
        # Each trauma with whether its − can go no further, and likewise the XP earned (the
        # step is then disabled, as every counter's is at its bound).
        "trauma": trauma.trauma_view(found),
        "xp_all_spent": found["xp"] <= found["spent"],
    }


COMMANDS = (
    Command(
        "investigator.add",
        InvestigatorForm,
        apply_add_investigator,
        describe_add,
        resolve_add,
        **PEOPLE,
    ),
    Command("investigator.item", ItemForm, apply_item, describe_item, with_investigator),
    Command(
        "investigator.unitem",
        UnitemForm,
        apply_remove_item,
        describe_investigator(gettext_noop("%(name)s: took a card off the record")),
        with_investigator,
    ),
)
