"""What the chaos bag page shows: the bag's contents, the tests drawn and what each token did,
the exact odds of passing a test (the engine's ``campaigns.engines.chaos``), and how often each
token came out against how often it should."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import State
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.bag import (
    drawable,
    open_test,
    resting_bag,
    revealed_counts,
    wants_another,
)
from campaigns.games.arkham.common import effects_for, signed, token_view
from campaigns.games.arkham.state import Test
from campaigns.words import joined

# The bag and its tests


def effect_text(entry: Mapping[str, Any]) -> str:
    """What a revealed token did, in words."""
    if entry.get("second_frost"):
        return _("a second frost: automatic failure")
    if entry["modifier"] is None:
        return _("automatic failure")
    parts = [_("automatic success") if entry.get("succeed") else signed(entry["modifier"])]
    if entry["again"]:
        parts.append(_("reveal another"))
    return joined(parts)


def outcome_text(test: Test) -> str:
    if test["auto_fail"]:
        return _("Automatic failure")
    if test["auto_succeed"]:
        return _("Automatic success")
    return _("Modifier %(total)s") % {"total": signed(test["total"])}


def test_view(state: State, test: Test) -> dict[str, Any]:
    tokens = [
        token_view(
            e["token"],
            effect=effect_text(e),
            auto=e.get("auto"),
            n=i,
            symbol=e["token"] in chaos.SYMBOLS,
        )
        for i, e in enumerate(test["tokens"])
    ]
    if tokens:
        tokens[-1]["newest"] = True
    pending = test.get("open") and wants_another(state, test)
    return {
        **test,
        "tokens": tokens,
        "outcome": outcome_text(test) if tokens else "",
        "pending": pending,
    }


def bag_view(state: State) -> dict[str, Any]:
    effects = effects_for(state, state.get("active"))
    out = revealed_counts(state)
    contents = []
    for token in chaos.TOKENS:
        count, sealed = state["bag"].get(token, 0), state["sealed"].get(token, 0)
        contents.append(
            token_view(
                token,
                count=count,
                out=out.get(token, 0),
                sealed=sealed,
                total=count + sealed,
                effect=effect_text(chaos.reveal(token, effects)._asdict()),
                pool=token in data.POOL_TOKENS,
                symbol=token in chaos.SYMBOLS,
                limit=data.TOKEN_LIMITS[token] - sealed,
            )
        )
    test = open_test(state)
    return {
        "contents": contents,
        "in_bag": [c for c in contents if c["count"]],
        "sealed": [c for c in contents if c["sealed"]],
        "pool": [c for c in contents if c["pool"]],
        "drawable": sum(drawable(state).values()),
        "test": test_view(state, test) if test else None,
        "draws": [test_view(state, d) for d in reversed(state.get("draws", []))],
    }


# The odds

MARGINS = range(-2, 7)
TABLE_DIFFICULTY = 2  # any difficulty of 1 or more gives the same table (the floor at 0 aside)
# Steps of counting one odds answer may take: the fullest bag the game allows (every token at
# its limit, every symbol revealing another with its own value) needs about 103,000; a bag
# beyond would hold the server, and gets a message instead.
ODDS_BUDGET = 250_000


def percent(chance: Fraction) -> str:
    """A chance as a percentage with one decimal, rounded half up, from the exact fraction."""
    tenths = chance * 1000
    rounded = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    return f"{rounded // 10}.{rounded % 10}%"


class OddsForm(forms.Form):
    """The typed skill and difficulty of the odds (a GET form)."""

    skill = forms.IntegerField(
        label=gettext_lazy("Skill"),
        min_value=0,
        max_value=40,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    difficulty = forms.IntegerField(
        label=gettext_lazy("Difficulty"),
        min_value=0,
        max_value=40,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def odds(state: State, active_id: Any, query: Mapping[str, Any]) -> dict[str, Any]:
    """The pass table for every margin, and the chance for the skill and difficulty typed in
    ``query`` (the page's GET parameters), if any."""
    bag = resting_bag(state)
    effects = effects_for(state, active_id)
    typed = "skill" in query or "difficulty" in query
    form = OddsForm(query if typed else None, auto_id=False)
    result: dict[str, Any] = {"empty": not bag, "form": form, "typed": None, "too_long": False}
    try:
        if typed and form.is_valid() and bag:
            chance = chaos.success_probability(
                bag,
                form.cleaned_data["skill"],
                form.cleaned_data["difficulty"],
                effects,
                budget=ODDS_BUDGET,
            )
            result["typed"] = percent(chance)
        if bag:
            table = chaos.pass_table(bag, effects, TABLE_DIFFICULTY, MARGINS, budget=ODDS_BUDGET)
            result["rows"] = [
                {"margin": signed(m), "chance": percent(c), "width": f"{float(c * 100):.2f}"}
                for m, c in table.items()
            ]
    except chaos.OddsTooLong:
        result.update(too_long=True, typed=None, rows=[])
    return result


def stats_view(state: State) -> dict[str, Any]:
    """Each token's share of all tokens revealed so far, beside its share of the bag now."""
    stats_tokens = state["stats"]["tokens"]
    drawn_total = sum(stats_tokens.values())
    resting = resting_bag(state)
    size = sum(resting.values())
    return {
        "bag_size": size,
        "stats": [
            token_view(
                t,
                count=stats_tokens.get(t, 0),
                share=percent(Fraction(stats_tokens.get(t, 0), drawn_total)) if drawn_total else "",
                expected=percent(Fraction(resting.get(t, 0), size)) if size else "",
            )
            for t in chaos.TOKENS
            if stats_tokens.get(t) or resting.get(t)
        ],
        "tests": state["stats"]["tests"],
        "drawn_total": drawn_total,
        "margins_difficulty": TABLE_DIFFICULTY,
    }
