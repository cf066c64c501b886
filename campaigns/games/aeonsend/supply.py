"""The supply (nine piles) and its guided upgrade: two presented piles added, two banished, and
the presented piles not chosen banished too.

State: ``supply`` (["pile", …], at most nine) and ``upgrade`` (None | {presented: [piles]}).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    need_str,
)
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.banished import banish
from campaigns.games.aeonsend.common import (
    EmptyForm,
    LinesField,
    ValuesField,
    need_opt_game,
    optional_game,
    with_info,
)
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.trackers import words
from campaigns.words import joined


def unique_piles(piles: list[str], key: str) -> None:
    seen: set[str] = set()
    for pile in piles:
        if pile.casefold() in seen:
            raise CommandError(_("“%(name)s” is there twice.") % {"name": pile}, key)
        seen.add(pile.casefold())


def need_list(payload: Payload, key: str, max_items: int, max_length: int) -> list[str]:
    value = payload.get(key, [])
    if not isinstance(value, list) or len(value) > max_items:
        raise CommandError(_("“%(key)s” must be a short list.") % {"key": key}, key)
    items: list[str] = []
    for item in value:
        text = need_str({key: item}, key, max_length).strip()
        if text.casefold() in (i.casefold() for i in items):
            raise CommandError(_("“%(name)s” is there twice.") % {"name": text}, key)
        items.append(text)
    return items


class SupplyForm(forms.Form):
    piles = LinesField(
        label=gettext_lazy("Piles, one a line (at most nine)"),
        max_items=data.SUPPLY_PILES,
        required=False,
        widget=forms.Textarea(attrs={"rows": 9}),
    )


def apply_supply(state: AeonsEndState, payload: Payload) -> None:
    piles = need_list(payload, "piles", data.SUPPLY_PILES, data.CARD_LENGTH)
    if state["upgrade"] is not None:
        raise CommandError(_("Finish or cancel the supply upgrade first."), "piles")
    unique_piles(piles, "piles")
    state["supply"] = piles


def describe_supply(p: Payload) -> str:
    piles = p.get("piles") or []
    return _("Set the supply: %(piles)s") % {"piles": joined(piles)}


class PresentForm(forms.Form):
    piles = LinesField(
        label=gettext_lazy("The presented piles, one a line"),
        max_items=12,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def apply_present(state: AeonsEndState, payload: Payload) -> None:
    piles = need_list(payload, "piles", 12, data.CARD_LENGTH)
    if len(piles) < data.UPGRADE_ADD:
        raise CommandError(_("Type at least two presented piles, one a line."), "piles")
    in_supply = {pile.casefold() for pile in state["supply"]}
    for pile in piles:
        if pile.casefold() in in_supply:
            raise CommandError(_("“%(name)s” is already in the supply.") % {"name": pile}, "piles")
    if len(state["supply"]) < data.UPGRADE_BANISH:
        raise CommandError(_("The supply needs at least two piles to banish."), "piles")
    state["upgrade"] = {"presented": piles}


def describe_present(p: Payload) -> str:
    piles = p.get("piles") or []
    return _("Supply upgrade: presented %(piles)s") % {"piles": joined(piles)}


class UpgradeForm(forms.Form):
    add = ValuesField(label=gettext_lazy("Add two of the presented piles"), max_items=12)
    banish = ValuesField(label=gettext_lazy("Banish two supply piles"), max_items=12)
    game = optional_game(gettext_lazy("After game"))


def apply_upgrade(state: AeonsEndState, payload: Payload) -> None:
    upgrade = state["upgrade"]
    if upgrade is None:
        raise CommandError(_("No supply upgrade is under way."), "add")
    add = need_list(payload, "add", 12, data.CARD_LENGTH)
    gone = need_list(payload, "banish", 12, data.CARD_LENGTH)
    game = need_opt_game(payload)
    if len(add) != data.UPGRADE_ADD or any(pile not in upgrade["presented"] for pile in add):
        raise CommandError(_("Choose exactly two of the presented piles to add."), "add")
    if len(gone) != data.UPGRADE_BANISH or any(pile not in state["supply"] for pile in gone):
        raise CommandError(_("Choose exactly two supply piles to banish."), "banish")
    for pile in gone:
        banish(state, pile, game, "", "upgrade")
    for pile in upgrade["presented"]:
        if pile not in add:
            banish(state, pile, game, "", "upgrade")
    state["supply"] = [pile for pile in state["supply"] if pile not in gone] + add
    state["upgrade"] = None


def add_unchosen(state: AeonsEndState, payload: Payload) -> None:
    upgrade = state["upgrade"]
    presented = upgrade["presented"] if upgrade else []
    add = payload.get("add")
    chosen = add if isinstance(add, list) else []
    payload["unchosen"] = [pile for pile in presented if pile not in chosen]


def describe_upgrade(p: Payload) -> str:
    def names(key: str) -> str:
        return joined(p.get(key) or []) or "—"

    return _("Supply upgrade: added %(add)s; banished %(banish)s and %(unchosen)s") % {
        "add": names("add"),
        "banish": names("banish"),
        "unchosen": names("unchosen"),
    }


def apply_upgrade_cancel(state: AeonsEndState, payload: Payload) -> None:
    if state["upgrade"] is None:
        raise CommandError(_("No supply upgrade is under way."))
    state["upgrade"] = None


COMMANDS = (
    Command(
        "ae.supply",
        SupplyForm,
        apply_supply,
        describe_supply,
        stale_check=True,
        regions=("banished",),
    ),
    Command("ae.present", PresentForm, apply_present, describe_present, regions=("banished",)),
    Command(
        "ae.upgrade",
        UpgradeForm,
        apply_upgrade,
        describe_upgrade,
        resolve=with_info(add_unchosen),
        regions=("banished",),
    ),
    Command(
        "ae.upgrade_cancel",
        EmptyForm,
        apply_upgrade_cancel,
        words(gettext_noop("Cancelled the supply upgrade")),
        regions=("banished",),
    ),
)
