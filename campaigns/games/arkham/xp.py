"""Experience: earned XP (the investigator's field and the step after a scenario refuse the same
totals) and spending it as the rules price a purchase: a card its level, at least 1; an upgrade
the difference in level, at least 1; an Exceptional card double; a Customizable upgrade the
boxes it marks; a Myriad card once for every copy of one level (each further copy of that level
costs nothing); an Adaptable swap of a level-0 card for another nothing; a story card nothing.
The seed has no XP rules (``shared/spec/rules.md`` line 88: "[NOT IN SEED]: … XP"): these
follow the Rules Reference entries "Experience", "Upgrading", "Exceptional", "Customizable",
"Myriad" and "Adaptable", as issues 9 and 20 ask.

In the state each investigator has ``xp`` (earned, all told), ``spent`` and ``purchases``.
"""

from __future__ import annotations

import random
from typing import Literal

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django_stubs_ext import StrOrPromise

from campaigns.commands import Command, CommandError, Payload, need_int, need_str, said_int
from campaigns.fields import TextField
from campaigns.games.arkham.catalogue import reader_name
from campaigns.games.arkham.common import (
    MAX_ITEMS,
    NAME,
    InvestigatorIdForm,
    describe_investigator,
    investigator,
    with_investigator,
)
from campaigns.games.arkham.state import ArkhamState, Investigator, Purchase

MAX_XP = 999  # earned XP, all told: the XP field and the step after a scenario both refuse more


def apply_xp(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    value = found["xp"] + need_int(payload, "delta", -200, 200)
    if value < found["spent"]:
        raise CommandError(
            _("%(name)s has spent %(spent)d XP: earned XP cannot go below that.")
            % {"name": reader_name(found["name"]), "spent": found["spent"]},
            "delta",
        )
    if value > MAX_XP:
        raise CommandError(_("Keep XP to %(n)d or less.") % {"n": MAX_XP}, "delta")
    found["xp"] = value


# After a scenario (the record of it: ``scenario``)


def refuse_past_limit(found: Investigator, gained: object) -> None:
    """The record after a scenario refuses the XP gained that takes the total past the limit,
    as the XP field does (``apply_xp``)."""
    if isinstance(gained, int) and gained >= 0 and found["xp"] + gained > MAX_XP:
        raise CommandError(_("Keep XP to %(n)d or less.") % {"n": MAX_XP}, f"xp-{found['id']}")


def gained_after_scenario(row: Payload, who: dict[str, str], key: int) -> int:
    """The XP an investigator gained in a scenario: from 0 to 100."""
    xp = need_int(row, "xp")
    if not 0 <= xp <= 100:
        raise CommandError(_("%(name)s: XP gained must be from 0 to 100.") % who, f"xp-{key}")
    return xp


def earn_after_scenario(found: Investigator, xp: int) -> None:
    # An event from before the refusal in resolve_record_scenario may pass the limit.
    found["xp"] = min(found["xp"] + xp, MAX_XP)


def xp_cost(
    level: int, upgrade_from: int | None = None, exceptional: bool = False, boxes: int = 0
) -> int:
    """The XP a purchase costs: a card its level, at least 1 (a level-0 card costs 1); an
    upgrade the difference between the two levels, at least 1; an Exceptional card double;
    a Customizable upgrade the boxes it marks (Rules Reference: "Experience", "Upgrading",
    "Exceptional", "Customizable"; the seed has no XP rules, rules.md line 88)."""
    if boxes:
        return boxes
    cost = max(1, level - (upgrade_from or 0))
    return cost * 2 if exceptional else cost


Kind = Literal["myriad", "adaptable", "story"]  # a purchase's kind beside the plain one
KINDS: tuple[Kind, ...] = ("myriad", "adaptable", "story")


def kind_of(payload: Payload) -> Kind | None:
    """Which of Myriad, an Adaptable swap or a story card the purchase is (None: none)."""
    kinds = [kind for kind in KINDS if payload.get(kind) is True]
    if len(kinds) > 1:
        raise CommandError(_("Choose one of Myriad, Adaptable or story card."), kinds[-1])
    return kinds[0] if kinds else None


def myriad_paid(found: Investigator, card: str, level: int) -> bool:
    """A copy of this Myriad card at this level is already bought: its price covered them all."""
    name = card.casefold()
    return any(
        p.get("myriad") and p["card"].casefold() == name and p["level"] == level
        for p in found["purchases"]
    )


def purchase_of(payload: Payload) -> tuple[int, int | None, bool, int]:
    """(level, upgrade from, exceptional, boxes) of a purchase, checked."""
    boxes = need_int(payload, "boxes", 0, 30) if payload.get("boxes") is not None else 0
    level = need_int(payload, "level", 0, 5) if not boxes or payload.get("level") else 0
    upgrade_from = payload.get("upgrade_from")
    if upgrade_from is not None:
        upgrade_from = need_int(payload, "upgrade_from", 0, 5)
        if upgrade_from >= level and not boxes:
            raise CommandError(
                _("An upgrade goes up in level: from level %(old)d to a higher one.")
                % {"old": upgrade_from},
                "level",
            )
    exceptional = payload.get("exceptional") is True
    return level, upgrade_from, exceptional, boxes


def apply_buy(state: ArkhamState, payload: Payload) -> None:
    found = investigator(state, payload)
    level, upgrade_from, exceptional, boxes = purchase_of(payload)
    card = need_str(payload, "card", NAME, blank=True).strip()
    kind = kind_of(payload)
    cost = xp_cost(level, upgrade_from, exceptional, boxes)
    if kind == "adaptable" and (level or upgrade_from is not None or boxes):
        raise CommandError(_("Adaptable swaps a level-0 card for another level-0 card."), "level")
    if kind == "myriad" and not card:
        raise CommandError(
            _("Name the card: Myriad's one price covers its copies by name."), "card"
        )
    if kind in ("adaptable", "story") or (kind == "myriad" and myriad_paid(found, card, level)):
        cost = 0
    unspent = found["xp"] - found["spent"]
    if cost > unspent:
        raise CommandError(
            _("Not enough XP: that costs %(cost)d and %(name)s has %(left)d unspent.")
            % {"cost": cost, "name": reader_name(found["name"]), "left": unspent},
            "level",
        )
    if len(found["purchases"]) >= MAX_ITEMS:
        raise CommandError(_("Too many purchases to keep."), "card")
    found["spent"] += cost
    purchase: Purchase = {"card": card, "level": level, "cost": cost}
    if upgrade_from is not None:
        purchase["upgrade_from"] = upgrade_from
    if exceptional:
        purchase["exceptional"] = True
    if boxes:
        purchase["boxes"] = boxes
    if kind is not None:
        purchase[kind] = True
    found["purchases"].append(purchase)


def resolve_buy(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    """The investigator's name, and whether a Myriad copy is already paid for, for the words."""
    payload = with_investigator(state, data_, rng)
    card = str(payload.get("card") or "").strip()
    level = payload.get("level")
    found = investigator(state, payload)
    if payload.get("myriad") is True and isinstance(level, int) and myriad_paid(found, card, level):
        payload["copy"] = True
    return payload


def describe_buy(p: Payload) -> str:
    try:
        level, upgrade_from, exceptional, boxes = purchase_of(p)
        cost = xp_cost(level, upgrade_from, exceptional, boxes)
        kind = kind_of(p)
    except CommandError:
        level, upgrade_from, boxes, cost, kind = said_int(p, "level"), None, 0, 0, None
    if p.get("copy") is True:
        cost = 0
    words = {
        "name": reader_name(p.get("name")),
        "cost": cost,
        "card": p.get("card") or _("a card"),
        "level": level,
        "old": upgrade_from,
        "boxes": boxes,
    }
    if kind == "story":
        return _("%(name)s added the story card %(card)s: no XP") % words
    if kind == "adaptable":
        return _("%(name)s swapped in %(card)s with Adaptable: no XP") % words
    if kind == "myriad" and not cost:
        return _("%(name)s took another copy of %(card)s (level %(level)s, Myriad): no XP") % words
    if kind == "myriad" and upgrade_from is not None:
        return (
            _("%(name)s spent %(cost)d XP upgrading %(card)s (level %(old)s to %(level)s, Myriad)")
            % words
        )
    if kind == "myriad":
        return _("%(name)s spent %(cost)d XP on %(card)s (level %(level)s, Myriad)") % words
    if boxes:
        return _("%(name)s spent %(cost)d XP on %(card)s (%(boxes)d boxes)") % words
    if upgrade_from is not None:
        return (
            _("%(name)s spent %(cost)d XP upgrading %(card)s (level %(old)s to %(level)s)") % words
        )
    return _("%(name)s spent %(cost)d XP on %(card)s (level %(level)s)") % words


# What the phones post


class DeltaForm(InvestigatorIdForm):
    delta = forms.IntegerField(
        label=gettext_lazy("Change"), min_value=-200, max_value=200, widget=forms.HiddenInput
    )


def narrow_number(
    label: StrOrPromise, help_text: StrOrPromise, least: int = 0, most: int = 5
) -> forms.IntegerField:
    """A purchase's optional number (a level, boxes marked), in a narrow input with its help."""
    return forms.IntegerField(
        label=label,
        min_value=least,
        max_value=most,
        required=False,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"}),
    )


class BuyForm(InvestigatorIdForm):
    card = TextField(label=gettext_lazy("Card"), max_length=80, required=False)
    level = narrow_number(
        gettext_lazy("Level"), gettext_lazy("A card costs its level in XP, at least 1.")
    )
    upgrade_from = narrow_number(
        gettext_lazy("Upgrading from level"),
        gettext_lazy("An upgrade costs the difference in level, at least 1."),
    )
    exceptional = forms.BooleanField(
        label=gettext_lazy("Exceptional (costs double)"), required=False
    )
    myriad = forms.BooleanField(
        label=gettext_lazy("Myriad (every copy of this level for one price)"), required=False
    )
    adaptable = forms.BooleanField(
        label=gettext_lazy("Adaptable swap (level 0 for level 0, no XP)"), required=False
    )
    story = forms.BooleanField(label=gettext_lazy("Story card (no XP)"), required=False)
    boxes = narrow_number(
        gettext_lazy("Customizable: boxes marked"),
        gettext_lazy("A Customizable upgrade costs the boxes it marks."),
        least=1,
        most=30,
    )

    def purchase_kinds(self) -> list[forms.BoundField]:
        return [self[kind] for kind in KINDS]

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if cleaned.get("level") is None and not cleaned.get("boxes") and "level" not in self.errors:
            self.add_error("level", _("Give the card's level."))
        if cleaned.get("level") is None:
            cleaned["level"] = 0
        for flag in ("exceptional", *KINDS):
            if not cleaned.get(flag):
                cleaned.pop(flag, None)
        return cleaned


COMMANDS = (
    Command(
        "investigator.xp",
        DeltaForm,
        apply_xp,
        describe_investigator(gettext_noop("%(name)s: XP earned %(delta)s")),
        with_investigator,
    ),
    Command("investigator.buy", BuyForm, apply_buy, describe_buy, resolve_buy),
)
