"""Outside the campaign: the group's own card list with a supply randomizer, and a nemesis
deck builder from the basic nemesis card chart.

State: ``outside`` ({cards: [{id, name, kind, cost}], supply: [ids], locked: [ids],
chart: {"1": [t1, t2, t3], …}, nemesis_cards: [{id, name, tier}],
build: None | {players, tiers: [[ids], [ids], [ids]]}}).
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, ngettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.fields import TextField
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.common import (
    ItemForm,
    copy_named,
    find,
    with_info,
)
from campaigns.games.aeonsend.state import AeonsEndState, NemesisCard, OwnCard
from campaigns.games.built_form import BuiltForm
from campaigns.trackers import words
from campaigns.words import joined

# The group's own cards and the supply randomizer


def banished_names(state: AeonsEndState) -> set[str]:
    return {b["text"].casefold() for b in state["banished"] if not b["restored"]}


def available_cards(state: AeonsEndState) -> list[OwnCard]:
    banned = banished_names(state)
    return [card for card in state["outside"]["cards"] if card["name"].casefold() not in banned]


class OwnCardForm(forms.Form):
    name = TextField(label=gettext_lazy("Name"), max_length=data.CARD_LENGTH)
    kind = forms.ChoiceField(label=gettext_lazy("Type"), choices=list(data.CARD_TYPES.items()))
    cost = forms.IntegerField(
        label=gettext_lazy("Cost"),
        min_value=0,
        max_value=data.MAX_CARD_COST,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def apply_card_add(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    if len(outside["cards"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "name")
    name = commands.need_str(payload, "name", data.CARD_LENGTH).strip()
    if name.casefold() in (card["name"].casefold() for card in outside["cards"]):
        raise CommandError(_("“%(name)s” is already in your list.") % {"name": name}, "name")
    outside["cards"].append(
        {
            "id": commands.next_id(state),
            "name": name,
            "kind": commands.need_choice(payload, "kind", data.CARD_TYPES),
            "cost": commands.need_int(payload, "cost", 0, data.MAX_CARD_COST),
        }
    )


def apply_card_remove(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    card = find(outside["cards"], payload)
    outside["cards"].remove(card)
    outside["supply"] = [i for i in outside["supply"] if i != card["id"]]
    outside["locked"] = [i for i in outside["locked"] if i != card["id"]]


def add_card_name(state: AeonsEndState, payload: Payload) -> None:
    copy_named(state["outside"]["cards"], payload, "name")


def pile_count(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=data.SUPPLY_PILES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class RandomizeForm(forms.Form):
    gems = pile_count(gettext_lazy("Gems"))
    relics = pile_count(gettext_lazy("Relics"))
    spells = pile_count(gettext_lazy("Spells"))
    gem3 = forms.BooleanField(
        label=gettext_lazy("At least one gem costing 3"), required=False, initial=True
    )


def roll_counts(payload: Payload) -> dict[str, int]:
    counts = {
        "gem": commands.need_int(payload, "gems", 0, data.SUPPLY_PILES),
        "relic": commands.need_int(payload, "relics", 0, data.SUPPLY_PILES),
        "spell": commands.need_int(payload, "spells", 0, data.SUPPLY_PILES),
    }
    if not 1 <= sum(counts.values()) <= data.SUPPLY_PILES:
        raise CommandError(_("A supply has 1 to 9 piles in all."), "gems")
    return counts


def kind_label(kind: str) -> str:
    return {"gem": _("gems"), "relic": _("relics"), "spell": _("spells")}[kind]


def check_roll(state: AeonsEndState, payload: Payload) -> list[int]:
    """The rolled supply fits the request, the list and the locks; returns its ids."""
    counts = roll_counts(payload)
    gem3 = commands.need_bool(payload, "gem3")
    picked = payload.get("picked")
    if not isinstance(picked, list) or any(type(i) is not int for i in picked):
        raise CommandError(_("The rolled supply is damaged."), "gems")
    if len(set(picked)) != len(picked):
        raise CommandError(_("The rolled supply is damaged."), "gems")
    by_id = {card["id"]: card for card in available_cards(state)}
    if any(i not in by_id for i in picked):
        raise CommandError(_("A rolled card is not in your list (or it is banished)."), "gems")
    for kind, wanted in counts.items():
        if sum(1 for i in picked if by_id[i]["kind"] == kind) != wanted:
            raise CommandError(_("The rolled supply does not match the numbers asked."), "gems")
    locked = [i for i in state["outside"]["locked"] if i in by_id]
    if any(i not in picked for i in locked):
        raise CommandError(_("A locked card must stay in the supply."), "gems")
    if (
        gem3
        and counts["gem"]
        and not any(
            by_id[i]["kind"] == "gem" and by_id[i]["cost"] == data.TIP_GEM_COST for i in picked
        )
    ):
        raise CommandError(_("No gem costing 3 in the rolled supply."), "gem3")
    return picked


def resolve_roll(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    payload = {key: values.get(key) for key in ("gems", "relics", "spells")}
    payload["gem3"] = bool(values.get("gem3"))
    counts = roll_counts(payload)
    cards = available_cards(state)
    by_id = {card["id"]: card for card in cards}
    locked = [by_id[i] for i in state["outside"]["locked"] if i in by_id]
    picked: list[OwnCard] = []
    for kind, wanted in counts.items():
        keep = [card for card in locked if card["kind"] == kind]
        if len(keep) > wanted:
            raise CommandError(
                _("You locked %(n)d %(kind)s but asked for %(wanted)d.")
                % {"n": len(keep), "kind": kind_label(kind), "wanted": wanted},
                "gems",
            )
        others = [card for card in cards if card["kind"] == kind and card not in keep]
        if len(others) < wanted - len(keep):
            raise CommandError(
                _("Your list has only %(n)d %(kind)s that are not banished; %(wanted)d are needed.")
                % {"n": len(others) + len(keep), "kind": kind_label(kind), "wanted": wanted},
                "gems",
            )
        chosen = keep + rng.sample(others, wanted - len(keep))
        needs_three = kind == "gem" and payload["gem3"] and wanted
        if needs_three and not any(card["cost"] == data.TIP_GEM_COST for card in chosen):
            threes = [card for card in others if card["cost"] == data.TIP_GEM_COST]
            free = [card for card in chosen if card not in keep]
            if not threes or not free:
                raise CommandError(
                    _("No gem costing 3 can be added: add one to your list or unlock a gem."),
                    "gem3",
                )
            chosen[chosen.index(rng.choice(free))] = rng.choice(threes)
        picked += chosen
    payload["picked"] = [card["id"] for card in picked]
    payload["names"] = [card["name"] for card in picked]
    return payload


def apply_roll(state: AeonsEndState, payload: Payload) -> None:
    picked = check_roll(state, payload)
    outside = state["outside"]
    outside["supply"] = list(picked)
    outside["locked"] = [i for i in outside["locked"] if i in picked]


def describe_roll(p: Payload) -> str:
    names = p.get("names") or []
    return _("Outside the campaign: rolled a supply of %(names)s") % {"names": joined(names)}


class LockForm(ItemForm):
    locked = forms.BooleanField(required=False, widget=forms.HiddenInput)


def apply_lock(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    card = find(outside["cards"], payload)
    locked = commands.need_bool(payload, "locked")
    if card["id"] not in outside["supply"]:
        raise CommandError(_("Only a card in the rolled supply can be locked."), "item")
    outside["locked"] = [i for i in outside["locked"] if i != card["id"]]
    if locked:
        outside["locked"].append(card["id"])


def describe_lock(p: Payload) -> str:
    template = _("Locked “%(name)s”") if p.get("locked") else _("Unlocked “%(name)s”")
    return template % {"name": p.get("name")}


# The nemesis deck


class ChartForm(BuiltForm):
    """One number per player count and tier. Initial `chart` (as stored) fills the cells, and
    `editable=False` shows them to a viewer without letting them be changed."""

    def add_fields(self) -> None:
        chart = self.initial.get("chart") or {}
        for players in data.NEMESIS_CHART:
            for tier in data.TIERS:
                name = f"c{players}_{tier}"
                self.fields[name] = forms.IntegerField(
                    label=ngettext_lazy(
                        "Tier %(t)s, %(players)d player",
                        "Tier %(t)s, %(players)d players",
                        "players",
                    )
                    % {"t": tier, "players": players},
                    min_value=0,
                    max_value=data.MAX_CHART_CELL,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    disabled=self.initial.get("editable") is False,
                )
                if str(players) in chart:
                    self.initial[name] = chart[str(players)][tier - 1]

    def rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        """The cells by tier (a table row), in the order of the player counts."""
        return [
            (tier, [self[f"c{players}_{tier}"] for players in data.NEMESIS_CHART])
            for tier in data.TIERS
        ]


def apply_chart(state: AeonsEndState, payload: Payload) -> None:
    chart = {}
    for players in data.NEMESIS_CHART:
        chart[str(players)] = [
            commands.need_int(payload, f"c{players}_{tier}", 0, data.MAX_CHART_CELL)
            for tier in data.TIERS
        ]
    state["outside"]["chart"] = chart
    state["outside"]["build"] = None


def describe_chart(p: Payload) -> str:
    return _("Outside the campaign: corrected the basic nemesis card chart")


class NemesisCardForm(forms.Form):
    name = TextField(label=gettext_lazy("Name"), max_length=data.CARD_LENGTH)
    tier = forms.IntegerField(
        label=gettext_lazy("Tier"),
        min_value=1,
        max_value=3,
        widget=forms.Select(choices=[(tier, tier) for tier in data.TIERS]),
    )


def apply_nemesis_card(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    if len(outside["nemesis_cards"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "name")
    outside["nemesis_cards"].append(
        {
            "id": commands.next_id(state),
            "name": commands.need_str(payload, "name", data.CARD_LENGTH).strip(),
            "tier": commands.need_int(payload, "tier", 1, 3),
        }
    )
    outside["build"] = None


def apply_nemesis_card_remove(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    outside["nemesis_cards"].remove(find(outside["nemesis_cards"], payload))
    outside["build"] = None


def add_nemesis_card_name(state: AeonsEndState, payload: Payload) -> None:
    copy_named(state["outside"]["nemesis_cards"], payload, "name")


class BuildForm(forms.Form):
    players = forms.IntegerField(
        label=gettext_lazy("Players"),
        min_value=data.MIN_PLAYERS,
        max_value=data.MAX_PLAYERS,
        widget=forms.Select(choices=[(n, n) for n in data.NEMESIS_CHART]),
    )


def tier_cards(state: AeonsEndState, tier: int) -> list[NemesisCard]:
    return [card for card in state["outside"]["nemesis_cards"] if card["tier"] == tier]


def resolve_build(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    players = values.get("players")
    tiers: list[list[int]] = []
    payload: Payload = {"players": players, "tiers": tiers}
    counts = state["outside"]["chart"].get(str(players), [0, 0, 0])
    for tier, wanted in zip(data.TIERS, counts, strict=True):
        cards = tier_cards(state, tier)
        if cards and len(cards) < wanted:
            raise CommandError(
                _("Tier %(t)d needs %(n)d basic cards; your list has %(have)d.")
                % {"t": tier, "n": wanted, "have": len(cards)},
                "players",
            )
        picks = rng.sample(cards, wanted) if cards else []
        tiers.append([card["id"] for card in picks])
    return payload


def apply_build(state: AeonsEndState, payload: Payload) -> None:
    players = commands.need_int(payload, "players", data.MIN_PLAYERS, data.MAX_PLAYERS)
    tiers = payload.get("tiers")
    if not isinstance(tiers, list) or len(tiers) != len(data.TIERS):
        raise CommandError(_("The nemesis deck is damaged."), "players")
    counts = state["outside"]["chart"][str(players)]
    for tier, ids, wanted in zip(data.TIERS, tiers, counts, strict=True):
        cards = {card["id"] for card in tier_cards(state, tier)}
        if (
            not isinstance(ids, list)
            or any(type(i) is not int for i in ids)
            or len(set(ids)) != len(ids)
        ):
            raise CommandError(_("The nemesis deck is damaged."), "players")
        if any(i not in cards for i in ids):
            raise CommandError(_("A card of the nemesis deck is not in your list."), "players")
        if len(ids) != (wanted if cards else 0):
            raise CommandError(_("The nemesis deck does not match the chart."), "players")
    state["outside"]["build"] = {"players": players, "tiers": [list(ids) for ids in tiers]}


def describe_build(p: Payload) -> str:
    players = p.get("players")
    return ngettext(
        "Outside the campaign: built a nemesis deck for %(n)s player",
        "Outside the campaign: built a nemesis deck for %(n)s players",
        players if isinstance(players, int) else 0,
    ) % {"n": players}


COMMANDS = (
    Command(
        "ae.card",
        OwnCardForm,
        apply_card_add,
        words(gettext_noop("Outside the campaign: added “%(name)s” to your cards")),
        regions=("roll",),
    ),
    Command(
        "ae.card_remove",
        ItemForm,
        apply_card_remove,
        words(gettext_noop("Outside the campaign: removed “%(name)s” from your cards")),
        resolve=with_info(add_card_name),
        regions=("roll",),
    ),
    # A roll or a build replaces the last one: from a stale screen it is refused, not repeated.
    commands.random_command("ae.roll", RandomizeForm, apply_roll, describe_roll, resolve_roll),
    Command(
        "ae.lock",
        LockForm,
        apply_lock,
        describe_lock,
        resolve=with_info(add_card_name),
        regions=("own-cards",),
    ),
    Command("ae.chart", ChartForm, apply_chart, describe_chart, stale_check=True),
    Command(
        "ae.nemesis_card",
        NemesisCardForm,
        apply_nemesis_card,
        words(gettext_noop("Outside the campaign: added the nemesis card “%(name)s”")),
    ),
    Command(
        "ae.nemesis_card_remove",
        ItemForm,
        apply_nemesis_card_remove,
        words(gettext_noop("Outside the campaign: removed the nemesis card “%(name)s”")),
        resolve=with_info(add_nemesis_card_name),
    ),
    commands.random_command("ae.build", BuildForm, apply_build, describe_build, resolve_build),
)


# What the page shows


def outside_view(state: AeonsEndState) -> dict[str, object]:
    outside = state["outside"]
    available = {card["id"] for card in available_cards(state)}
    order = list(data.CARD_TYPES)

    def shown_first(card: OwnCard) -> tuple[int, int, str]:
        return (order.index(card["kind"]), card["cost"], card["name"].casefold())

    own = sorted(outside["cards"], key=shown_first)
    cards = [
        {
            **card,
            "banished": card["id"] not in available,
            "kind_label": data.CARD_TYPES[card["kind"]],
        }
        for card in own
    ]
    by_id = {card["id"]: (card, shown) for card, shown in zip(own, cards, strict=True)}
    in_supply = sorted(
        (i for i in outside["supply"] if i in by_id), key=lambda i: shown_first(by_id[i][0])
    )
    supply = [{**by_id[i][1], "locked": i in outside["locked"]} for i in in_supply]
    nemesis_cards = {card["id"]: card for card in outside["nemesis_cards"]}
    build = None
    if outside["build"]:
        players = outside["build"]["players"]
        counts = outside["chart"][str(players)]
        build = {
            "players": players,
            "tiers": [
                {
                    "tier": tier,
                    "basic": counts[tier - 1],
                    "cards": [nemesis_cards[i]["name"] for i in ids if i in nemesis_cards],
                }
                for tier, ids in zip(data.TIERS, outside["build"]["tiers"], strict=True)
            ],
        }
    return {
        "cards": cards,
        "count": len(cards),
        "supply": supply,
        "locked": len(outside["locked"]),
        "defaults": data.DEFAULT_SUPPLY,
        "chart": outside["chart"],
        "player_counts": list(data.NEMESIS_CHART),
        "nemesis_cards": sorted(
            outside["nemesis_cards"], key=lambda c: (c["tier"], c["name"].casefold())
        ),
        "build": build,
        "tiers": data.TIERS,
    }
