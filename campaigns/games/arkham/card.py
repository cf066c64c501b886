"""The scenario reference card: what its skull, cultist, tablet and elder thing do, read from the
box's facts when a scenario starts, with what the group says of the table (X's count, whether a
card's condition holds, which act a two-act card is on).

The facts are ``facts/scenario_tokens.json``, a copy of ``shared/data/arkham_scenario_tokens.json``
(its ``_about`` names the sources): numbers, flags and neutral keys for both sides of each card
(Easy and Standard read ``easy_standard``, Hard and Expert ``hard_expert``), never its words. The
pages say each line in our own short words (``card_words``).

In the state, ``card`` is set by ``scenario.start`` when the scenario has a card: ``scenario``
(its id), ``x`` (what each X counts → the count the group gave), ``alt`` (symbol → which
alternative holds, 0 none) and ``act`` (a variant of the card, "" for its default side). A
symbol the group typed (``symbols``) wins over the card's line until the next scenario starts.
"""

from __future__ import annotations

import copy
import random
from typing import Literal, NotRequired, TypedDict

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_choice, need_int, said_choice
from campaigns.engines import chaos
from campaigns.fields import TextField
from campaigns.games.arkham import catalogue, data
from campaigns.games.arkham.card_words import X_LABELS, alternatives, line_words, signed, x_key
from campaigns.games.arkham.frost import counts_as_frost
from campaigns.games.arkham.state import ArkhamState, CardLine, ScenarioCard
from campaigns.games.built_form import BuiltForm

Side = Literal["easy_standard", "hard_expert"]
SIDES: dict[str, Side] = {"easy-standard": "easy_standard", "hard-expert": "hard_expert"}


class CardSides(TypedDict):
    """A scenario card's two sides: its four symbols' lines (None: the symbol has no line)."""

    easy_standard: dict[str, CardLine | None]
    hard_expert: dict[str, CardLine | None]


class CardFacts(CardSides):
    """A scenario's reference card (facts/scenario_tokens.json): a card with acts has a side
    per act (`variants`, the default one's key in `variant_default`)."""

    reference_card: str
    match_basis: str
    variant_default: NotRequired[str | None]
    variants: NotRequired[dict[str, CardSides]]


class CampaignCards(TypedDict):
    name: str
    scenarios: dict[str, CardFacts]


CARDS: dict[str, CampaignCards] = catalogue._load("scenario_tokens.json")["campaigns"]
MAX_COUNT = chaos.MAX_X

# Reading the facts


def scenario_card(campaign: str, ref: str | None) -> CardFacts | None:
    cards = CARDS.get(campaign)
    return cards["scenarios"].get(ref or "") if cards else None


def acts(card: CardFacts | None) -> list[tuple[str, str]]:
    """The card's variants, its default first: (key, label), e.g. ("", "Act 1"), ("act_2", …)."""
    if not card or not (variants := card.get("variants")):
        return []
    keys = [card.get("variant_default") or "", *variants]
    return [("" if i == 0 else key, act_label(key)) for i, key in enumerate(keys)]


def act_label(key: str) -> str:
    number = key.rpartition("_")[2]
    return _("Act %(n)s") % {"n": number} if number.isdigit() else key


def lines(state: ArkhamState) -> dict[str, CardLine]:
    """The card's line for each of the four symbols that has one, for the campaign's
    difficulty and the act chosen, or {} when the scenario being played has no card."""
    held = state.get("card")
    if not held or not state.get("scenario"):
        return {}
    card = scenario_card(state["campaign"], held.get("scenario"))
    if card is None:
        return {}
    side = SIDES[data.BANDS[state["difficulty"]]]
    variants = card.get("variants")
    sides: CardSides = variants.get(held["act"], card) if variants else card
    found = sides[side]
    return {s: copy.copy(line) for s in data.SCENARIO_SYMBOLS if (line := found.get(s))}


def x_rule(line: CardLine) -> chaos.Effect:
    """A card's X as the engine reads it (``chaos.X_KEYS``): −X, with its multiplier, rounding,
    offset and limits."""
    rule: chaos.Effect = {"per_x": -1}
    multiplier = line.get("x_multiplier", 1)
    if multiplier == 0.5:
        rule["x_per"] = 2
        rule["x_up"] = line.get("x_round") == "up"
    elif multiplier != 1:
        rule["x_times"] = int(multiplier)
    if line.get("x_offset"):
        rule["x_plus"] = int(line["x_offset"])
    for key in ("x_min", "x_max"):
        if key in line:
            rule[key] = int(line[key])
    return rule


def effect(line: CardLine, alt: int = 0) -> chaos.Effect:
    """A card's line as the engine's effect (X still to be given, ``per_x``), with the
    alternative ``alt`` (1 for the first, or the first grade) in force when it is not 0."""
    result: chaos.Effect = {
        "modifier": 0 if line["modifier"] == "X" else int(line["modifier"]),
        "reveal_another": bool(line.get("reveal_another")),
        "auto_fail": bool(line.get("auto_fail")),
    }
    if line["modifier"] == "X":
        result.update(x_rule(line))
    if not alt or not alternatives(line):
        return result
    if line.get("alt_auto_fail"):
        return {"modifier": 0, "reveal_another": False, "auto_fail": True}
    grades = line.get("alt_modifiers")
    if grades:
        result = {**result, "modifier": int(grades[min(alt, len(grades)) - 1])}
    elif "alt_modifier" in line:
        result = {k: v for k, v in result.items() if k not in chaos.X_KEYS and k != "per_x"} | {
            "modifier": int(line["alt_modifier"])
        }
    if line.get("alt_reveal_another"):
        result["reveal_another"] = True
    if line.get("alt_auto_success"):
        result["auto_succeed"] = True
    counts_as_frost(line, result)
    return result


def card_effects(state: ArkhamState) -> dict[str, chaos.Effect]:
    """The card's effects for the scenario being played, as the engine reads them, with the
    group's counts folded into X (a count not given yet counts 0) and the alternatives they
    switched on."""
    card = state.get("card")
    alt, x = (card["alt"], card["x"]) if card else ({}, {})
    found = lines(state)
    raw = {s: effect(line, alt.get(s, 0)) for s, line in found.items()}
    counts = {s: x.get(x_key(found[s]), 0) for s in raw}
    return chaos.with_x(raw, counts)


# What the page shows


def card_view(
    state: ArkhamState, typed: set[str], in_bag: dict[str, int]
) -> dict[str, object] | None:
    """The scenario card's four lines as the page shows them, the counts X asks for (one field
    per thing counted), the alternatives to switch on and the acts to choose, or None when the
    scenario being played has no card. ``typed`` are the symbols the group typed, which win."""
    held = state.get("card")
    if not held or not state.get("scenario"):
        return None
    found = lines(state)
    card = scenario_card(state["campaign"], held.get("scenario"))
    if card is None:
        return None
    rows, counts, switches = [], {}, []
    now = card_effects(state)
    for symbol in data.SCENARIO_SYMBOLS:
        line = found.get(symbol)
        given = (
            line
            and line["modifier"] == "X"
            and x_key(line) in held.get("x", {})
            and not held.get("alt", {}).get(symbol)
        )
        row: dict[str, object] = {
            # What −X is with the count given (the alternative aside: its words say it).
            "x_now": signed(int(now[symbol]["modifier"])) if given else "",
            "symbol": symbol,
            "label": data.TOKEN_LABELS[symbol],
            "icon": f"icons/arkham/tokens.svg#{data.TOKEN_ICONS[symbol]}",
            "typed": symbol in typed,
            "line": line_words(line) if line else None,
            "in_bag": bool(in_bag.get(symbol)),
        }
        rows.append(row)
        if not line or symbol in typed:
            continue
        if line["modifier"] == "X" and x_key(line) not in counts:
            key = x_key(line)
            counts[key] = {
                "key": key,
                "label": X_LABELS.get(key, key),
                "value": held.get("x", {}).get(key),
            }
        if alternatives(line):
            alt = int(held.get("alt", {}).get(symbol, 0))
            options = [(0, line_words(line)["does"])] + [
                (n, text) for n, text in enumerate(line_words(line)["alts"], start=1)
            ]
            switches.append(
                {
                    "symbol": symbol,
                    "label": data.TOKEN_LABELS[symbol],
                    "icon": row["icon"],
                    "options": [{"alt": n, "text": text, "on": n == alt} for n, text in options],
                    "by_choice": bool(line.get("alt_by_choice")),
                }
            )
    chosen = held.get("act", "")
    return {
        "rows": rows,
        "counts": list(counts.values()),
        "switches": switches,
        "acts": [{"key": k, "label": label, "on": k == chosen} for k, label in acts(card)],
    }


# Commands: the count X reads, an alternative, the act


def held_card(state: ArkhamState, field: str) -> ScenarioCard:
    """A copy of the scenario card in play, for a change to it."""
    held = state.get("card")
    if not held or not state.get("scenario"):
        raise CommandError(_("Start a scenario from the list first: this is its card."), field)
    return {"scenario": held["scenario"], "x": held["x"], "alt": held["alt"], "act": held["act"]}


def apply_count(state: ArkhamState, payload: Payload) -> None:
    held = held_card(state, "value")
    key = payload.get("key")
    wanted = {x_key(line) for line in lines(state).values() if line["modifier"] == "X"}
    if not isinstance(key, str) or key not in wanted:
        raise CommandError(_("This scenario's card has no X that counts that."), "value")
    held["x"] = {**held["x"], key: need_int(payload, "value", 0, MAX_COUNT)}
    state["card"] = held


def describe_count(p: Payload) -> str:
    return _("Set %(what)s to %(n)s") % {
        "what": said_choice(X_LABELS, p.get("key")),
        "n": p.get("value", ""),
    }


def apply_alt(state: ArkhamState, payload: Payload) -> None:
    held = held_card(state, "alt")
    symbol = need_choice(payload, "symbol", data.SCENARIO_SYMBOLS)
    line = lines(state).get(symbol)
    if not line or not alternatives(line):
        raise CommandError(_("This symbol's line on the card has no condition."), "alt")
    held["alt"] = {**held["alt"], symbol: need_int(payload, "alt", 0, alternatives(line))}
    state["card"] = held


def describe_alt(p: Payload) -> str:
    token = said_choice(data.TOKEN_LABELS, p.get("symbol"))
    if p.get("alt"):
        return _("%(token)s: the card's condition holds") % {"token": token}
    return _("%(token)s: back to the card's usual line") % {"token": token}


def apply_act(state: ArkhamState, payload: Payload) -> None:
    held = held_card(state, "act")
    card = scenario_card(state["campaign"], held["scenario"])
    act = str(payload.get("act") or "")
    if act not in ([k for k, _label in acts(card)] or [""]):
        raise CommandError(_("This scenario's card has no side for that act."), "act")
    held["act"] = act
    state["card"] = held


def describe_act(p: Payload) -> str:
    key = p.get("act") or "act_1"
    return _("The scenario card's side for %(act)s") % {"act": act_label(str(key))}


def start(state: ArkhamState, ref: str, key: str) -> None:
    """A scenario starting: its card, if it has one, with nothing said of the table yet. The
    card's lines are its effects now: what the group typed for this scenario before (``key``:
    a scenario played again) no longer wins over them."""
    state.pop("card", None)
    if scenario_card(state["campaign"], ref) is not None:
        state["card"] = {"scenario": ref, "x": {}, "alt": {}, "act": ""}
        state.get("effects", {}).pop(key, None)


def resolve_plain(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    return {k: v for k, v in data_.items() if v is not None}


class CountForm(BuiltForm):
    """The count one X of the card reads, named by what it counts (its neutral key)."""

    key = TextField(max_length=60, widget=forms.HiddenInput)
    value = forms.IntegerField(
        label=gettext_lazy("Count"),
        min_value=0,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def add_fields(self) -> None:
        key = self["key"].value()
        if isinstance(key, str) and key in X_LABELS:
            self.fields["value"].label = X_LABELS[key]


class AltForm(forms.Form):
    symbol = forms.ChoiceField(
        choices=[(s, data.TOKEN_LABELS[s]) for s in data.SCENARIO_SYMBOLS],
        widget=forms.HiddenInput,
    )
    alt = forms.IntegerField(min_value=0, max_value=5, widget=forms.HiddenInput)


class ActForm(forms.Form):
    act = TextField(max_length=20, required=False, widget=forms.HiddenInput)


# What a count, an alternative or an act changes: the card, the odds, the effects' words and
# the draw (the contents' effect texts).
CARD_REGIONS = ("bag-card", "bag-odds", "bag-correct", "bag-effects", "bag-actions")

# Each sets a value read off the table (no stale check: the latest word is the table's).
COMMANDS = (
    Command(
        "scenario.x", CountForm, apply_count, describe_count, resolve_plain, regions=CARD_REGIONS
    ),
    Command("scenario.alt", AltForm, apply_alt, describe_alt, resolve_plain, regions=CARD_REGIONS),
    Command("scenario.act", ActForm, apply_act, describe_act, resolve_plain, regions=CARD_REGIONS),
)
