"""The Aeon's End sets the group owns (ticked once per campaign), and what they offer: mages and
nemeses to pick (turns.py, setup), the supply randomizer's cards and the market set-ups.

Facts from cards.py (shared/data/aeonsend_cards.json). Outside the campaign the supply is 3
gems, 2 relics and 4 spells or a chosen set-up [003:1379-1381]; the market set-ups are the
published alternatives, each a list of nine tiles (a type and a cost rule).

State: ``sets`` (set keys, Legacy always owned; absent in campaigns from before it). Cards
taken from the sets become the group's own list (``outside.cards``), so the pick is stored in
the event with names and costs and replays the same if the facts file changes.
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.games.aeonsend import cards, data
from campaigns.games.aeonsend.common import ValuesField
from campaigns.games.aeonsend.state import AeonsEndState
from campaigns.words import joined


def owned_sets(state: AeonsEndState) -> list[str]:
    return cards.owned(state.get("sets"))


class SetsForm(forms.Form):
    sets = ValuesField(label=gettext_lazy("The sets you own"), max_items=60, max_length=20)


def apply_sets(state: AeonsEndState, payload: Payload) -> None:
    chosen = payload.get("sets")
    known = cards.sets()
    if not isinstance(chosen, list) or any(key not in known for key in chosen):
        raise CommandError(_("That is not one of the choices."), "sets")
    state["sets"] = cards.owned(chosen)


def said_names(value: object) -> list[str]:
    """The texts of a payload's list, for its words in the history."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def describe_sets(p: Payload) -> str:
    names = cards.sets()
    return _("The group owns: %(sets)s") % {
        "sets": joined(names.get(key, key) for key in cards.owned(said_names(p.get("sets"))))
    }


# The supply randomizer's cards, from the owned sets


def resolve_set_cards(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    have = {card["name"].casefold() for card in state["outside"]["cards"]}
    new = [
        card
        for card in cards.player_cards(state.get("sets"))
        if card["name"].casefold() not in have
    ]
    room = data.MAX_ROWS - len(state["outside"]["cards"])
    if not new:
        raise CommandError(_("Every card of your sets is already in your list."))
    return {"cards": new[:room]}


def apply_set_cards(state: AeonsEndState, payload: Payload) -> None:
    outside = state["outside"]
    added = payload.get("cards")
    if not isinstance(added, list) or len(outside["cards"]) + len(added) > data.MAX_ROWS:
        raise CommandError(_("Too many items."))
    have = {card["name"].casefold() for card in outside["cards"]}
    checked = []
    for card in added:  # every card checked before any is added: a refusal changes nothing
        if not isinstance(card, dict):
            raise CommandError(_("That is not one of the choices."))
        name = commands.need_str(card, "name", data.CARD_LENGTH).strip()
        kind = commands.need_choice(card, "kind", data.CARD_TYPES)
        cost = commands.need_int(card, "cost", 0, data.MAX_CARD_COST)
        if name and name.casefold() not in have:
            have.add(name.casefold())
            checked.append((name, kind, cost))
    for name, kind, cost in checked:
        outside["cards"].append(
            {"id": commands.next_id(state), "name": name, "kind": kind, "cost": cost}
        )


def describe_set_cards(p: Payload) -> str:
    listed = p.get("cards")
    count = len(listed) if isinstance(listed, list) else 0
    return ngettext(
        "Added %(n)d card of your sets to the list",
        "Added %(n)d cards of your sets to the list",
        count,
    ) % {"n": count}


class EmptySetsForm(forms.Form):
    pass


# A market set-up: nine tiles, each a card type and a cost rule


class MarketForm(forms.Form):
    market = forms.ChoiceField(
        label=gettext_lazy("Market set-up"),
        choices=lambda: [(key, m["name"]) for key, m in cards.markets().items()],
    )


def market_tiles(payload: Payload) -> list[cards.Tile]:
    return cards.markets()[commands.need_choice(payload, "market", cards.markets())]["tiles"]


def resolve_market(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    from campaigns.games.aeonsend.outside import available_cards

    tiles = market_tiles(values)
    pool = list(available_cards(state))
    picked: list[int] = []
    names: list[str] = []
    for number, tile in enumerate(tiles, start=1):
        fitting = [card for card in pool if cards.fits(tile, card) and card["id"] not in picked]
        if not fitting:
            raise CommandError(
                _("No card in your list fits tile %(n)s of this set-up (%(kind)s).")
                % {"n": number, "kind": data.CARD_TYPES[tile["kind"]]},
                "market",
            )
        card = rng.choice(fitting)
        picked.append(card["id"])
        names.append(card["name"])
    return {"market": values["market"], "picked": picked, "names": names}


def apply_market(state: AeonsEndState, payload: Payload) -> None:
    from campaigns.games.aeonsend.outside import available_cards

    tiles = market_tiles(payload)
    picked = payload.get("picked")
    by_id = {card["id"]: card for card in available_cards(state)}
    if (
        not isinstance(picked, list)
        or len(picked) != len(tiles)
        or len(set(map(str, picked))) != len(picked)
        or any(type(i) is not int or i not in by_id for i in picked)
        or not all(cards.fits(tile, by_id[i]) for tile, i in zip(tiles, picked, strict=True))
    ):
        raise CommandError(_("The rolled supply is damaged."), "market")
    outside = state["outside"]
    outside["supply"] = list(picked)
    outside["locked"] = []


def describe_market(p: Payload) -> str:
    market = cards.markets().get(str(p.get("market") or ""))
    return _("Outside the campaign: rolled %(market)s: %(names)s") % {
        "market": market["name"] if market else "",
        "names": joined(p.get("names") or []),
    }


COMMANDS = (
    Command("ae.sets", SetsForm, apply_sets, describe_sets),
    Command(
        "ae.set_cards",
        EmptySetsForm,
        apply_set_cards,
        describe_set_cards,
        resolve=resolve_set_cards,
    ),
    Command(
        "ae.market",
        MarketForm,
        apply_market,
        describe_market,
        resolve=resolve_market,
        random_outcome=True,
        needs_connection=True,
    ),
)


def owned_view(state: AeonsEndState) -> dict[str, object]:
    mine = owned_sets(state)
    return {
        "sets": [
            {"key": key, "name": name, "owned": key in mine, "fixed": key == cards.LEGACY}
            for key, name in cards.sets().items()
        ],
        "names": [name for key, name in cards.sets().items() if key in mine],
        "nemeses": cards.nemeses(mine),
        "mages": cards.mages(mine),
        "markets": [(key, m["name"]) for key, m in cards.markets().items()],
        "card_count": len(cards.player_cards(mine)),
    }
