"""At the table: the nemesis deck by tier and count, and the minions and powers in play.

Rules (shared/spec/rules.md §2a "Per-game state", §2b "Nemesis deck", §2c "Nemesis turn"):
- the deck is built per tier from the basic nemesis cards for the player count plus the
  nemesis's own cards, tier 1 on top, then tier 2, then tier 3 [003:1419-1430]; so the tier of
  the next card is known to everyone, and the counts are all the page keeps (no order);
- "If the nemesis deck is empty and the nemesis would draw a card, instead Unleash three
  times." [003:502];
- a minion enters with its life tokens and is discarded at 0 [003:208, 211, 381]; a power
  enters with X power tokens, loses one each nemesis main phase, and at 0 its POWER effect
  resolves and it is discarded; "TO DISCARD:" discards it early [003:209-210, 479-482];
- the second victory condition (an empty deck and nothing in play at the end of a turn) is
  checked by the next turn order draw (turns.random_take, ending.py).

State, added to ``table`` by the first command that uses it (older games have neither key):
``nemesis_deck`` {tiers: [n1, n2, n3] cards left, drawn, unleashed} and
``in_play`` [{id, kind: "minion" | "power", name, value}] (value: life or power tokens).
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    jsonable,
    need_choice,
    need_int,
    need_str,
    next_id,
    said_int,
)
from campaigns.fields import TextField
from campaigns.games.aeonsend import cards, data
from campaigns.games.aeonsend.common import EmptyForm, ItemForm, find
from campaigns.games.aeonsend.ending import refuse_when_over
from campaigns.games.aeonsend.state import AeonsEndState, InPlay, NemesisDeck, Table

MAX_TIER_CARDS = 40
MAX_TOKENS = 99
UNLEASH_WHEN_EMPTY = 3
KINDS = {"minion": gettext_lazy("Minion"), "power": gettext_lazy("Power")}


def need_game(state: AeonsEndState) -> Table:
    table = state["table"]
    if not table["nemesis"]:
        raise CommandError(_("Start a game first: name the nemesis and its life."))
    return table


def over_check(resolve=None):
    """A resolve step that refuses when the game is over, then runs `resolve` if given."""

    def step(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
        need_game(state)
        refuse_when_over(state)
        return resolve(state, values, rng) if resolve else jsonable(values)

    return step


# The deck


def tier_field(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=MAX_TIER_CARDS,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class DeckForm(forms.Form):
    """Each tier's basic cards (the player count's row of the table) and the nemesis's own."""

    basic_1 = tier_field(gettext_lazy("Tier 1 basic cards"))
    basic_2 = tier_field(gettext_lazy("Tier 2 basic cards"))
    basic_3 = tier_field(gettext_lazy("Tier 3 basic cards"))
    own_1 = tier_field(gettext_lazy("Tier 1: the nemesis's own cards"))
    own_2 = tier_field(gettext_lazy("Tier 2: the nemesis's own cards"))
    own_3 = tier_field(gettext_lazy("Tier 3: the nemesis's own cards"))

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        tiers = [
            (cleaned.get(f"basic_{tier}") or 0) + (cleaned.get(f"own_{tier}") or 0)
            for tier in data.TIERS
        ]
        if not any(tiers):
            raise forms.ValidationError(gettext_lazy("The nemesis deck needs at least one card."))
        return {"tiers": tiers}


def apply_deck(state: AeonsEndState, payload: Payload) -> None:
    table = need_game(state)
    tiers = payload.get("tiers")
    if not isinstance(tiers, list) or len(tiers) != len(data.TIERS):
        raise CommandError(_("The nemesis deck needs at least one card."))
    counts = [need_int({"n": n}, "n", 0, 2 * MAX_TIER_CARDS) for n in tiers]
    if not any(counts):
        raise CommandError(_("The nemesis deck needs at least one card."))
    table["nemesis_deck"] = {"tiers": counts, "drawn": 0, "unleashed": 0}


def describe_deck(p: Payload) -> str:
    tiers = p.get("tiers")
    one, two, three = (tiers if isinstance(tiers, list) and len(tiers) >= 3 else [0, 0, 0])[:3]
    return _("Nemesis deck: tier 1 %(one)s, tier 2 %(two)s, tier 3 %(three)s cards") % {
        "one": one,
        "two": two,
        "three": three,
    }


def need_deck(state: AeonsEndState) -> NemesisDeck:
    deck = need_game(state).get("nemesis_deck")
    if deck is None:
        raise CommandError(_("Build the nemesis deck first."))
    return deck


def resolve_draw(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    deck = need_deck(state)
    tier = next((n for n, left in enumerate(deck["tiers"], start=1) if left), None)
    if tier is None:
        return {"unleash": UNLEASH_WHEN_EMPTY}
    return {"tier": tier, "left": sum(deck["tiers"]) - 1}


def apply_draw(state: AeonsEndState, payload: Payload) -> None:
    deck = need_deck(state)
    if "unleash" in payload:
        if any(deck["tiers"]):
            raise CommandError(_("The nemesis deck is not empty: draw its top card."))
        deck["unleashed"] += UNLEASH_WHEN_EMPTY
        return
    tier = need_int(payload, "tier", 1, len(data.TIERS))
    if next((n for n, left in enumerate(deck["tiers"], start=1) if left), None) != tier:
        raise CommandError(_("The top of the nemesis deck is not of that tier."))
    deck["tiers"][tier - 1] -= 1
    deck["drawn"] += 1


def describe_draw(p: Payload) -> str:
    if p.get("unleash"):
        return _("The nemesis deck is empty: the nemesis Unleashes three times instead")
    return _("The nemesis drew a tier %(tier)s card (%(left)s left)") % {
        "tier": p.get("tier"),
        "left": p.get("left"),
    }


# Minions and powers in play


class InPlayForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=list(KINDS.items()))
    name = TextField(label=gettext_lazy("Card"), max_length=data.CARD_LENGTH)
    value = forms.IntegerField(
        label=gettext_lazy("Life or power tokens"),
        min_value=1,
        max_value=MAX_TOKENS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def apply_in_play(state: AeonsEndState, payload: Payload) -> None:
    table = need_game(state)
    card: InPlay = {
        "id": 0,
        "kind": need_choice(payload, "kind", KINDS),
        "name": need_str(payload, "name", data.CARD_LENGTH).strip(),
        "value": need_int(payload, "value", 1, MAX_TOKENS),
    }
    if len(table.get("in_play") or []) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "name")
    card["id"] = next_id(state)
    table.setdefault("in_play", []).append(card)


def describe_in_play(p: Payload) -> str:
    if p.get("kind") == "power":
        return _("Power in play: %(name)s with %(n)s power tokens") % {
            "name": p.get("name"),
            "n": p.get("value"),
        }
    return _("Minion in play: %(name)s with %(n)s life") % {
        "name": p.get("name"),
        "n": p.get("value"),
    }


class TokenForm(ItemForm):
    delta = forms.IntegerField(
        min_value=-MAX_TOKENS, max_value=MAX_TOKENS, widget=forms.HiddenInput
    )


def apply_tokens(state: AeonsEndState, payload: Payload) -> None:
    in_play = need_game(state).get("in_play") or []
    card = find(in_play, payload)
    delta = need_int(payload, "delta", -MAX_TOKENS, MAX_TOKENS)
    if delta == 0:
        raise CommandError(_("Type an amount other than 0."), "delta")
    value = min(MAX_TOKENS, card["value"] + delta)
    if value <= 0:
        # A minion at 0 life is discarded; a power at 0 resolves, then is discarded.
        in_play.remove(card)
    else:
        card["value"] = value


def add_card_info(state: AeonsEndState, payload: Payload) -> None:
    in_play = need_game(state).get("in_play") or []
    card = find(in_play, payload)
    payload.update(
        name=card["name"],
        kind=card["kind"],
        after=max(0, card["value"] + said_int(payload, "delta")),
    )


def resolve_card(state: AeonsEndState, values: Payload, rng: random.Random) -> Payload:
    payload = jsonable(values)
    add_card_info(state, payload)
    return payload


def describe_tokens(p: Payload) -> str:
    name, after = p.get("name"), p.get("after")
    if after == 0:
        if p.get("kind") == "power":
            return _("%(name)s has no power tokens left: resolve its power, then discard it") % {
                "name": name
            }
        return _("%(name)s has no life left and is discarded") % {"name": name}
    if p.get("kind") == "power":
        return _("%(name)s now has %(n)s power tokens") % {"name": name, "n": after}
    return _("%(name)s now has %(n)s life") % {"name": name, "n": after}


def apply_discard(state: AeonsEndState, payload: Payload) -> None:
    in_play = need_game(state).get("in_play") or []
    in_play.remove(find(in_play, payload))


def describe_discard(p: Payload) -> str:
    return _("Discarded %(name)s from play") % {"name": p.get("name")}


COMMANDS = (
    Command("ae.nemesis_deck", DeckForm, apply_deck, describe_deck, resolve=over_check()),
    Command(
        "ae.nemesis_draw",
        EmptyForm,
        apply_draw,
        describe_draw,
        resolve=over_check(resolve_draw),
        stale_check=True,
    ),
    Command("ae.in_play", InPlayForm, apply_in_play, describe_in_play, resolve=over_check()),
    Command(
        "ae.tokens", TokenForm, apply_tokens, describe_tokens, resolve=over_check(resolve_card)
    ),
    Command(
        "ae.discard", ItemForm, apply_discard, describe_discard, resolve=over_check(resolve_card)
    ),
)


# What the page shows


def second_victory(state: AeonsEndState) -> bool:
    """The deck is empty and nothing is in play: the end of this turn wins [003:587]."""
    table = state["table"]
    deck = table.get("nemesis_deck")
    return (
        bool(table["nemesis"])
        and deck is not None
        and not any(deck["tiers"])
        and not (table.get("in_play"))
    )


def nemesis_view(state: AeonsEndState) -> dict[str, object]:
    table = state["table"]
    deck = table.get("nemesis_deck")
    players = len(state["players"])
    basic = cards.basic_nemesis_cards(players)
    return {
        "basic": {f"basic_{tier}": n for tier, n in zip(data.TIERS, basic, strict=True)},
        "players": players,
        "deck": None
        if deck is None
        else {
            **deck,
            "left": sum(deck["tiers"]),
            "next_tier": next((n for n, left in enumerate(deck["tiers"], start=1) if left), None),
            "tiers_named": list(zip(data.TIERS, deck["tiers"], strict=True)),
        },
        "empty": deck is not None and not any(deck["tiers"]),
        "second_victory": second_victory(state),
        "in_play": [
            {**card, "kind_label": KINDS.get(card["kind"], "")}
            for card in table.get("in_play") or []
        ],
        "kinds": list(KINDS.items()),
    }
