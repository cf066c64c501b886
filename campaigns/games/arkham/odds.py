"""What the chaos bag says about chances: the exact odds of passing a test (the engine's
``campaigns.engines.chaos``), and how often each token came out against how often it should."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from campaigns.commands import State
from campaigns.engines import chaos
from campaigns.games.arkham.bag import resting_bag
from campaigns.games.arkham.common import effects_for, signed, token_view

MARGINS = range(-2, 7)
TABLE_DIFFICULTY = 2  # any difficulty of 1 or more gives the same table (the floor at 0 aside)


def percent(chance: Fraction) -> str:
    """A chance as a percentage with one decimal, rounded half up, from the exact fraction."""
    tenths = chance * 1000
    rounded = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    return f"{rounded // 10}.{rounded % 10}%"


class OddsForm(forms.Form):
    """The typed skill and difficulty of the odds (a GET form)."""

    skill = forms.IntegerField(label=gettext_lazy("Skill"), min_value=0, max_value=40)
    difficulty = forms.IntegerField(label=gettext_lazy("Difficulty"), min_value=0, max_value=40)


def odds(state: State, active_id: Any, query: Mapping[str, Any]) -> dict[str, Any]:
    """The pass table for every margin, and the chance for the skill and difficulty typed in
    ``query`` (the page's GET parameters), if any."""
    bag = resting_bag(state)
    effects = effects_for(state, active_id)
    result: dict[str, Any] = {"empty": not bag, "form": None, "typed": None}
    if "skill" in query or "difficulty" in query:
        form = OddsForm(query)
        result["form"] = form
        if form.is_valid() and bag:
            chance = chaos.success_probability(
                bag, form.cleaned_data["skill"], form.cleaned_data["difficulty"], effects
            )
            result["typed"] = percent(chance)
    if bag:
        table = chaos.pass_table(bag, effects, TABLE_DIFFICULTY, MARGINS)
        result["rows"] = [
            {"margin": signed(m), "chance": percent(c), "width": f"{float(c * 100):.2f}"}
            for m, c in table.items()
        ]
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
